static const char help[] = "eas ADR energy accounting (docs/energy.md, Vialle et al. eqs. 1.16/1.33): with -eas_sensor model\n"
                           "and a given profile, the solver's modelled energy must equal, by hand from the meter's own\n"
                           "phase busy times and run time T of each rank, sum_ranks (P_I T/ppn + w (P_full - P_idle) busy)\n"
                           "(P_I = cpu_idle + gpu_idle + dram; w = the rank's unit weight, its share of the node's CPU:\n"
                           "threads / max(cores, ppn threads), or 1/ppn of the GPU), in total and per phase, within -tol <1e-9>\n"
                           "relative; the phases must not overlap (busy <= T) and -eas_trace must hold one row per outer iteration.\n";

#include <eas.h>
#include "energy/testing.h" /* test hooks (not installed) */
#include <omp.h>
#include <unistd.h>

#include "energycheck.h"

int main(int argc, char **argv)
{
  EasAdr                adr;
  EasAdrStats           st;
  EasAdrConvergedReason reason;
  EasEnergyMeter        meter;
  EasEnergySummary      S;
  EasPowerProfile       prof;
  Clock                 clk = {0, 0, 0};
  PetscReal             tol = 1e-9, idle = 0, full = 0, T, busy[EAS_NUM_PHASES], btot = 0, loc[EAS_NUM_PHASES + 1], glob[EAS_NUM_PHASES + 1], bmax[EAS_NUM_PHASES], PI, PC;
  PetscMPIInt           rank, size, ppn, pid;
  MPI_Comm              shm;
  char                  path[PETSC_MAX_PATH_LEN], backend[64] = "/cpu";
  PetscBool             gpu, serial;
  PetscInt              threads = 0, cores = 0;
  PetscReal             w, wexp;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-tol", &tol, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-eas_power_cpu_idle", &idle, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-eas_power_cpu_full", &full, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-eas_backend", backend, sizeof(backend), NULL));
  { /* a device backend (CUDA, or /cpu/memcheck playing one) is metered as a GPU unit */
    EasBackend b;
    PetscBool  host;
    PetscCall(EasBackendCreate(PETSC_COMM_WORLD, backend, &b));
    PetscCall(EasBackendIsHost(b, &host));
    PetscCall(EasBackendDestroy(&b));
    gpu = host ? PETSC_FALSE : PETSC_TRUE;
  }
  PetscCall(PetscStrcmp(backend, "/cpu/serial", &serial));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-eas_threads", &threads, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-eas_node_cores", &cores, NULL));
  if (threads <= 0) threads = serial ? 1 : (PetscInt)omp_get_max_threads();
  if (cores <= 0) cores = (PetscInt)sysconf(_SC_NPROCESSORS_ONLN);
  /* the trace goes to a per-run temporary file */
  pid = (PetscMPIInt)getpid();
  PetscCallMPI(MPI_Bcast(&pid, 1, MPI_INT, 0, PETSC_COMM_WORLD));
  PetscCall(PetscSNPrintf(path, sizeof(path), "/tmp/eas_test_adr_energy_%d.csv", (int)pid));
  PetscCall(PetscOptionsSetValue(NULL, "-eas_trace", path));

  PetscCall(EasAdrCreate(PETSC_COMM_WORLD, &adr));
  PetscCall(EasAdrSetFromOptions(adr));
  PetscCall(EasAdrGetEnergyMeter(adr, &meter));
  PetscCall(EasEnergyMeterSetTimeFunction(meter, RecordingClock, &clk));
  PetscCall(EasAdrSetUp(adr)); /* starts the meter */
  PetscCall(EasAdrSolve(adr, PETSC_DEFAULT));
  PetscCall(EasAdrGetConvergedReason(adr, &reason));
  PetscCheck(reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "the run did not converge: %s", EasAdrConvergedReasonName(reason));
  PetscCall(EasAdrGetStats(adr, &st));
  PetscCall(EasEnergyMeterGetSummary(meter, &S)); /* the clock's last reading is this summary's T */
  PetscCall(EasEnergyMeterGetProfile(meter, &prof));
  PetscCheck(!S.measured && S.valid, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "-eas_sensor model must give a valid modelled energy");
  PetscCheck(prof.cpu_idle == idle && prof.cpu_full == full, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "the meter's profile (%g, %g W) is not the one given (%g, %g W)", (double)prof.cpu_idle, (double)prof.cpu_full, (double)idle, (double)full);

  /* by hand, Vialle et al. eq. 1.16 (1.33 for one unit): each rank pays 1/ppn of its node's idle
     power and w of its active power, w = the node share of the rank's unit (every rank runs the
     same backend with the same threads) */
  PetscCallMPI(MPI_Comm_split_type(PETSC_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shm));
  PetscCallMPI(MPI_Comm_size(shm, &ppn));
  PetscCallMPI(MPI_Comm_free(&shm));
  wexp = gpu ? 1.0 / ppn : (PetscReal)threads / (PetscReal)PetscMax(cores, ppn * threads);
  PetscCall(EasEnergyMeterGetUnitWeight(meter, 0, &w));
  PetscCheck(PetscAbsReal(w - wexp) <= 1e-15, PETSC_COMM_SELF, PETSC_ERR_PLIB, "rank %d: unit weight %g, expected %g (%s, %" PetscInt_FMT " thread(s), %" PetscInt_FMT " cores, %d rank(s) per node)", (int)rank, (double)w, (double)wexp, backend, threads, cores, ppn);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "unit weight %g = %s (%" PetscInt_FMT " thread(s) per rank, %" PetscInt_FMT " cores, %d rank(s) per node)\n", (double)w, gpu ? "1/ppn of the GPU" : "threads / max(cores, ppn threads)", threads, cores, ppn));
  T  = (PetscReal)(clk.last - clk.first);
  PI = prof.cpu_idle + prof.gpu_idle + prof.dram;
  PC = gpu ? prof.gpu_full - prof.gpu_idle : prof.cpu_full - prof.cpu_idle;
  for (PetscInt p = 0; p < EAS_NUM_PHASES; p++) {
    PetscCall(EasEnergyMeterGetPhase(meter, (EasPhase)p, -1, &busy[p], NULL, NULL));
    btot += busy[p];
    loc[p] = (PI / ppn + w * PC) * busy[p]; /* one unit: the phase's wall time is its busy time */
  }
  PetscCheck(btot <= T * (1 + 1e-12), PETSC_COMM_SELF, PETSC_ERR_PLIB, "rank %d: busy %g s > T %g s: phases overlap", (int)rank, (double)btot, (double)T);
  PetscCheck(busy[EAS_PHASE_SETUP] > 0 && busy[EAS_PHASE_COMPUTE] > 0 && busy[EAS_PHASE_EXCHANGE] > 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "rank %d: setup, compute and exchange must all be metered", (int)rank);
  PetscCheck(gpu || busy[EAS_PHASE_TRANSFER] == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "rank %d: a host backend has no transfers", (int)rank);
  loc[EAS_NUM_PHASES] = PI * T / ppn + w * PC * btot;
  PetscCall(MPIU_Allreduce(loc, glob, EAS_NUM_PHASES + 1, MPIU_REAL, MPIU_SUM, PETSC_COMM_WORLD));
  PetscCall(MPIU_Allreduce(busy, bmax, EAS_NUM_PHASES, MPIU_REAL, MPIU_MAX, PETSC_COMM_WORLD));
  PetscCall(CheckRel("total", S.energy, glob[EAS_NUM_PHASES], tol));
  PetscCall(CheckRel("model total", S.model_energy, glob[EAS_NUM_PHASES], tol));
  for (PetscInt p = 0; p < EAS_NUM_PHASES; p++) {
    PetscCall(CheckRel(EasPhases[p], S.phase_energy[p], glob[p], tol));
    PetscCheck(S.phase_time[p] == bmax[p], PETSC_COMM_WORLD, PETSC_ERR_PLIB, "phase %s: time %g s is not the max over ranks of the busy time %g s", EasPhases[p], (double)S.phase_time[p], (double)bmax[p]);
  }
  PetscCall(CheckRel("power * time", S.power * S.time, S.energy, tol));
  PetscCall(CheckRel("EDP", S.edp, S.energy * S.time, tol));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "modelled energy %.6g J over T %.4g s (idle %g W, full %g W, %d rank(s), %d per node, weight %g) equals idle*T/ppn + w*(full-idle)*busy by hand, in total and per phase, within %g relative\n", (double)S.energy, (double)S.time, (double)idle, (double)full, size, ppn, (double)w, (double)tol));
  PetscCall(EasAdrDestroy(&adr)); /* closes the trace */

  /* one trace row per (synchronous) outer iteration, plus the header */
  if (rank == 0) {
    FILE    *f;
    char     line[4096];
    PetscInt rows = -1;
    PetscCall(PetscFOpen(PETSC_COMM_SELF, path, "r", &f));
    while (fgets(line, sizeof(line), f)) rows++;
    PetscCall(PetscFClose(PETSC_COMM_SELF, f));
    PetscCheck(unlink(path) == 0, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "cannot remove %s", path);
    PetscCheck(rows == st.outer_its_max, PETSC_COMM_SELF, PETSC_ERR_PLIB, "-eas_trace: %" PetscInt_FMT " rows, expected one per outer iteration (%" PetscInt_FMT ")", rows, st.outer_its_max);
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "trace: %" PetscInt_FMT " rows for %" PetscInt_FMT " outer iterations\n", rows, st.outer_its_max));
  }
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    suffix: model
    nsize: 1 2
    args: -adr_n 8 -adr_steps 2 -eas_sensor model -eas_power_cpu_idle 20 -eas_power_cpu_full 65 -eas_power_gpu_idle 0 -eas_power_dram 0 -eas_energy_view
    expect: phase +time \[s\] .*energy \[J\] +power \[W\] +EDP \[J s\] +source
    expect: compute +[0-9.e+-]+ .*modelled
    expect: exchange +[0-9.e+-]+ .*modelled
    expect: unit weight [0-9.e+-]+ = (threads / max\(cores, ppn threads\)|1/ppn of the GPU)
    expect: equals idle\*T/ppn \+ w\*\(full-idle\)\*busy by hand, in total and per phase, within 1e-09 relative
    expect: trace: [1-9][0-9]* rows for [1-9][0-9]* outer iterations
  test:
    suffix: dram
    nsize: 2
    backends: /cpu/serial
    args: -adr_problem transport -adr_n 8 -adr_steps 2 -eas_sensor model -eas_power_cpu_idle 35.5 -eas_power_cpu_full 140 -eas_power_dram 7 -eas_power_gpu_idle 0
    expect: within 1e-09 relative
  test:
    suffix: cores
    nsize: 1 2
    backends: /cpu/serial
    args: -adr_n 8 -adr_steps 1 -eas_sensor model -eas_node_cores 4 -eas_power_cpu_idle 20 -eas_power_cpu_full 65 -eas_power_gpu_idle 0 -eas_power_dram 0
    expect: unit weight 0.25 = threads / max\(cores, ppn threads\) \(1 thread\(s\) per rank, 4 cores
    expect: w\*\(full-idle\)\*busy by hand, in total and per phase, within 1e-09 relative
TEST*/
