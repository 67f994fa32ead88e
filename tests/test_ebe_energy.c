static const char help[] = "EBE PCG energy accounting (issue 5 wired into issue 4; Vialle et al. eq. 1.16): with -eas_sensor model and a\n"
                           "given profile, the operator's modelled energy must equal, by hand from the meter's own phase busy\n"
                           "times and run time T of each rank, sum_ranks (P_I T/ppn + (P_full - P_idle) T beta), beta =\n"
                           "min(1, sum_u w_u min(1, busy_u/T)) with w_u = threads_u / max(cores, threads of the node) the\n"
                           "unit's share of the node's CPU (P_I = cpu_idle + gpu_idle + dram) within -tol <1e-9> relative;\n"
                           "-eas_trace must hold one row per CG iteration with one share column per unit of the split.\n"
                           "  -n <elements per direction> -solves <k> -unit_threads <t0,t1,..> (threads of the split's units)\n";

#include <eas.h>
#include "energy/testing.h" /* test hooks (not installed) */
#include <omp.h>
#include <unistd.h>

#include "energycheck.h"

int main(int argc, char **argv)
{
  EasEbe             ebe;
  EasKsp             ksp;
  EasVec             b, x;
  EasEnergyMeter     meter;
  EasEnergySummary   S;
  EasPowerProfile    prof;
  KSPConvergedReason reason;
  Clock              clk = {0, 0, 0};
  PetscReal          tol = 1e-9, T, busy[EAS_NUM_PHASES], btot = 0, loc, glob, PI, PC;
  PetscInt           n = 4, solves = 2, its, itsum = 0, nunits;
  PetscMPIInt        rank, size, ppn, pid;
  MPI_Comm           shm;
  char               path[PETSC_MAX_PATH_LEN], backend[64] = "/cpu";
  PetscInt           uth[8], nuth = 8, thsum = 0, cores = 0;
  PetscBool          serial, hasuth;
  PetscReal          beta = 0;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-tol", &tol, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-solves", &solves, NULL));
  PetscCall(PetscOptionsGetIntArray(NULL, NULL, "-unit_threads", uth, &nuth, &hasuth));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-eas_backend", backend, sizeof(backend), NULL));
  PetscCall(PetscStrcmp(backend, "/cpu/serial", &serial));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-eas_node_cores", &cores, NULL));
  if (cores <= 0) cores = (PetscInt)sysconf(_SC_NPROCESSORS_ONLN);
  if (!hasuth) {
    nuth   = 1;
    uth[0] = serial ? 1 : (PetscInt)omp_get_max_threads();
  }
  pid = (PetscMPIInt)getpid();
  PetscCallMPI(MPI_Bcast(&pid, 1, MPI_INT, 0, PETSC_COMM_WORLD));
  PetscCall(PetscSNPrintf(path, sizeof(path), "/tmp/eas_test_ebe_energy_%d.csv", (int)pid));
  PetscCall(PetscOptionsSetValue(NULL, "-eas_trace", path));

  PetscCall(EasEbeCreate(PETSC_COMM_WORLD, &ebe));
  PetscCall(EasEbeSetFromMesh(ebe, EAS_EBE_POISSON, 1, n, n, PetscMax(n, size)));
  PetscCall(EasEbeGetEnergyMeter(ebe, &meter));
  PetscCall(EasEnergyMeterSetTimeFunction(meter, RecordingClock, &clk));
  PetscCall(EasEbeSetFromOptions(ebe)); /* -eas_sensor model, the profile, -eas_trace */
  PetscCall(EasEbeSetUp(ebe));          /* starts the meter: the clock's first reading */
  PetscCall(EasEbeCreateVecs(ebe, &x, &b));
  PetscCall(EasVecSet(b, 1.0));
  PetscCall(EasKspCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(EasKspSetType(ksp, EAS_CG));
  PetscCall(EasKspSetOperatorEbe(ksp, ebe));
  PetscCall(EasKspSetFromOptions(ksp));
  for (PetscInt k = 0; k < solves; k++) {
    PetscCall(EasKspSolve(ksp, b, x));
    PetscCall(EasKspGetConvergedReason(ksp, &reason));
    PetscCall(EasKspGetIterationNumber(ksp, &its));
    PetscCheck(reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "solve %" PetscInt_FMT " did not converge: %s", k, KSPConvergedReasons[reason]);
    itsum += its;
  }
  PetscCall(EasEnergyMeterStop(meter)); /* the clock's last reading */
  PetscCall(EasEnergyMeterGetSummary(meter, &S));
  PetscCall(EasEnergyMeterGetProfile(meter, &prof));
  PetscCheck(!S.measured && S.valid, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "-eas_sensor model must give a valid modelled energy");
  PetscCall(EasEbeSplitGetState(ebe, &nunits, NULL, NULL, NULL));
  nunits = PetscMax(nunits, 1);

  /* by hand, Vialle et al. eq. 1.16: each rank pays 1/ppn of its node's idle power and the weighted busy
     fraction of its units of the active power; all units are CPU units here */
  PetscCallMPI(MPI_Comm_split_type(PETSC_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shm));
  PetscCallMPI(MPI_Comm_size(shm, &ppn));
  PetscCallMPI(MPI_Comm_free(&shm));
  T  = (PetscReal)(clk.last - clk.first);
  PI = prof.cpu_idle + prof.gpu_idle + prof.dram;
  PC = prof.cpu_full - prof.cpu_idle;
  for (PetscInt p = 0; p < EAS_NUM_PHASES; p++) {
    PetscCall(EasEnergyMeterGetPhase(meter, (EasPhase)p, -1, &busy[p], NULL, NULL));
    btot += busy[p];
  }
  PetscCheck(busy[EAS_PHASE_SETUP] > 0 && busy[EAS_PHASE_COMPUTE] > 0 && (size == 1 || busy[EAS_PHASE_EXCHANGE] > 0), PETSC_COMM_SELF, PETSC_ERR_PLIB, "rank %d: setup, compute and (on several ranks) exchange must all be metered", (int)rank);
  PetscCheck(busy[EAS_PHASE_TRANSFER] == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "rank %d: host units have no transfers", (int)rank);
  for (PetscInt u = 0; u < nunits; u++) {
    PetscReal w;
    PetscCall(EasEnergyMeterGetPhase(meter, EAS_PHASE_COMPUTE, u, NULL, &w, NULL));
    PetscCheck(w > 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "rank %d: unit %" PetscInt_FMT " computed no elements", (int)rank, u);
  }
  PetscCheck(nuth == nunits, PETSC_COMM_SELF, PETSC_ERR_USER, "-unit_threads: %" PetscInt_FMT " values for %" PetscInt_FMT " units", nuth, nunits);
  for (PetscInt u = 0; u < nunits; u++) thsum += uth[u];
  for (PetscInt u = 0; u < nunits; u++) {
    PetscReal w, wexp = (PetscReal)uth[u] / (PetscReal)PetscMax(cores, ppn * thsum), bu = 0, b;
    PetscCall(EasEnergyMeterGetUnitWeight(meter, u, &w));
    PetscCheck(PetscAbsReal(w - wexp) <= 1e-15, PETSC_COMM_SELF, PETSC_ERR_PLIB, "rank %d: unit %" PetscInt_FMT " weight %g, expected %g = %" PetscInt_FMT " / max(%" PetscInt_FMT " cores, %d x %" PetscInt_FMT " threads)", (int)rank, u, (double)w, (double)wexp, uth[u], cores, ppn, thsum);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "unit %" PetscInt_FMT " weight %g = %" PetscInt_FMT " / max(%" PetscInt_FMT " cores, %d x %" PetscInt_FMT " threads)\n", u, (double)w, uth[u], cores, ppn, thsum));
    for (PetscInt p = 0; p < EAS_NUM_PHASES; p++) {
      PetscCall(EasEnergyMeterGetPhase(meter, (EasPhase)p, u, &b, NULL, NULL));
      bu += b;
    }
    beta += w * PetscMin(1.0, bu / T);
  }
  beta = PetscMin(1.0, beta);
  loc  = PI * T / ppn + PC * T * beta;
  PetscCall(MPIU_Allreduce(&loc, &glob, 1, MPIU_REAL, MPIU_SUM, PETSC_COMM_WORLD));
  PetscCall(CheckRel("total", S.energy, glob, tol));
  PetscCall(CheckRel("model total", S.model_energy, glob, tol));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "modelled energy %.6g J over T %.4g s (idle %g W, full %g W, %" PetscInt_FMT " unit(s), %d rank(s), %d per node, rank 0's beta %g) equals idle*T/ppn + (full-idle)*T*beta by hand within %g relative\n", (double)S.energy, (double)S.time, (double)prof.cpu_idle, (double)prof.cpu_full, nunits, size, ppn, (double)beta, (double)tol));
  PetscCall(EasEnergyMeterSetTrace(meter, NULL)); /* closes the trace */

  /* the trace: a header with one share column per unit, then one row per CG iteration */
  if (rank == 0) {
    FILE    *f;
    char     line[4096];
    PetscInt rows = 0, nshare = 0, ncols = 0;
    PetscCall(PetscFOpen(PETSC_COMM_SELF, path, "r", &f));
    PetscCheck(fgets(line, sizeof(line), f), PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "-eas_trace %s: empty file", path);
    for (char *c = line; *c; c++) {
      if (*c == ',') {
        ncols++;
        if (!strncmp(c + 1, "share_", 6)) nshare++;
      }
    }
    PetscCheck(nshare == nunits, PETSC_COMM_SELF, PETSC_ERR_PLIB, "-eas_trace: %" PetscInt_FMT " share columns, expected one per unit (%" PetscInt_FMT ")", nshare, nunits);
    while (fgets(line, sizeof(line), f)) {
      PetscInt c = 0;
      for (char *p = line; *p; p++)
        if (*p == ',') c++;
      PetscCheck(c == ncols, PETSC_COMM_SELF, PETSC_ERR_PLIB, "-eas_trace: row %" PetscInt_FMT " has %" PetscInt_FMT " separators, the header %" PetscInt_FMT, rows, c, ncols);
      rows++;
    }
    PetscCall(PetscFClose(PETSC_COMM_SELF, f));
    PetscCheck(rows == itsum, PETSC_COMM_SELF, PETSC_ERR_PLIB, "-eas_trace: %" PetscInt_FMT " rows, expected one per CG iteration (%" PetscInt_FMT ")", rows, itsum);
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "trace: %" PetscInt_FMT " rows for %" PetscInt_FMT " CG iterations, %" PetscInt_FMT " share column(s) for %" PetscInt_FMT " unit(s)\n", rows, itsum, nshare, nunits));
    (void)unlink(path);
  }
  PetscCall(EasVecDestroy(&x));
  PetscCall(EasVecDestroy(&b));
  PetscCall(EasKspDestroy(&ksp));
  PetscCall(EasEbeDestroy(&ebe));
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    suffix: model
    nsize: 1 2
    backends: cpu
    args: -n 4 -eas_sensor model -eas_power_cpu_idle 20 -eas_power_cpu_full 65 -eas_power_gpu_idle 0 -eas_power_dram 0
    expect: equals idle\*T/ppn \+ \(full-idle\)\*T\*beta by hand within 1e-09 relative
    expect: trace: [1-9][0-9]* rows for [1-9][0-9]* CG iterations, 1 share column\(s\) for 1 unit\(s\)
  test:
    suffix: split
    nsize: 1 2
    backends: /cpu/openmp
    args: -n 4 -eas_sensor model -eas_power_cpu_idle 35.5 -eas_power_cpu_full 140 -eas_power_dram 7 -ebe_split_units /cpu:1,/cpu:1 -unit_threads 1,1 -ebe_rebalance_interval 3 -ksp_type pipecg
    expect: equals idle\*T/ppn \+ \(full-idle\)\*T\*beta by hand within 1e-09 relative
    expect: unit 1 weight [0-9.e+-]+ = 1 / max\([0-9]+ cores, [12] x 2 threads\)
    expect: trace: [1-9][0-9]* rows for [1-9][0-9]* CG iterations, 2 share column\(s\) for 2 unit\(s\)
TEST*/
