static const char help[] = "The energy meter on its sensors' sampler threads (issue 20 item 1): the number of sensor reads is\n"
                           "bounded by the run time, not the number of phases; none on the solver's thread but the setup's probe; the phases\n"
                           "and the unphased row add up to the energy the fake hardware counted (closure within 1 %);\n"
                           "energy lands in the phase that ran at each power; RAPL on a fake powercap tree the test\n"
                           "writes at a constant power; the sampler threads are joined at destroy.\n"
                           "  -case reads|step|rapl|mixed (NVML alone on a CPU run: the GPU measured, the CPU and DRAM modelled)\n"
                           "  -gpu_unit (rapl: an idle GPU unit too, its board modelled)\n"
                           "  -phases <n> (reads: Begin/End pairs of each unit), -spin_us <us> (the GPU unit's busy time in each),\n"
                           "  -delay_ms <ms> (the fake NVML's read delay),\n"
                           "  -reads_file <path> (FAKE_NVML_READS: the fake's own count of its reads)\n";

/*
  What is checked against what (docs/energy.md, "Measured"):
  - reads: counted by the fake NVML itself (tests/fake_nvml.c, FAKE_NVML_READS:
    every energy read it answered, and those on the thread that called
    nvmlInit_v2, the solver's): on the solver's thread only the setup's probe
    of the device's energy counter (one read per device), and at most one
    per sampler period of the sensor's life (real clock, an upper bound that
    holds on any machine) plus the first sample and the summary's closing
    ones, whatever the number of phases.  A meter that read at each boundary
    (before issue 20) makes one read per Begin/End: the test prints both.
  - closure: the fake's power law is known (P watts from nvmlInit_v2 on; the
    RAPL tree is written at P watts by a thread of this test), so the
    sensors' energy over the running window is P x T; the report's rows add
    up to it within 1 % (plus, for RAPL, the staleness of the file the
    writer thread left: 2 x its longest gap x P).
  - step: the fake's power steps from P1 to P2 in an unphased gap between a
    compute and an exchange phase (FAKE_NVML_POWER2, FAKE_NVML_SWITCH_AT):
    each phase's energy / its wall time is its own power within 1 %.
  - mixed (NVML alone, a CPU unit): the total is the fake's P x T (within 1 %)
    plus the model's CPU and DRAM energy, T (cpu_idle + dram) + busy
    (cpu_full - cpu_idle) by hand from the -eas_power_* options (to 1e-9:
    the same times, the arithmetic of Vialle et al. eq. 1.16 done here), and
    the compute row less its model part is P within 1 %; labels
    measured+modelled.  rapl -gpu_unit: an idle GPU unit, no NVML: the
    model's part is T gpu_idle to 1e-9.  step: each row less the model's
    idle CPU and DRAM.
  - threads: /proc/self/task holds as many threads after the meter's
    destruction as before its creation (the sampler joined).
  The GPU unit of case reads runs on /cpu/memcheck, whose timer marks are
  known only after the next point where CUDA would synchronize: the meter's
  deferred resolution of device boundaries, without a GPU.
*/
#include <eas.h>
#include "sensorfakes.h" /* the fake NVML's path, fake powercap trees */
#include <dirent.h>
#include <math.h>
#include <pthread.h>
#include <time.h>

static PetscInt nchecks = 0;

#define CHECK(cond, ...) \
  do { \
    PetscCheck(cond, PETSC_COMM_SELF, PETSC_ERR_PLIB, __VA_ARGS__); \
    nchecks++; \
  } while (0)

static double Now(void) /* CLOCK_MONOTONIC: the clock of the sensors and of the fakes */
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void Spin(double seconds) /* busy, as a unit computing */
{
  const double t1 = Now() + seconds;
  while (Now() < t1) {}
}

static PetscErrorCode CountThreads(PetscInt *n)
{
  DIR           *d = opendir("/proc/self/task");
  struct dirent *e;

  PetscFunctionBegin;
  PetscCheck(d, PETSC_COMM_SELF, PETSC_ERR_SYS, "cannot open /proc/self/task");
  *n = 0;
  while ((e = readdir(d)))
    if (e->d_name[0] != '.') (*n)++;
  closedir(d);
  PetscFunctionReturn(0);
}

/* Sums the fake's lines "reads <n> init_thread <m>" (one per sensor). */
static PetscErrorCode FakeReads(const char path[], PetscInt *reads, PetscInt *init, PetscInt *lines)
{
  FILE *fp = fopen(path, "r");
  long  n, m;

  PetscFunctionBegin;
  PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "-reads_file %s: the fake NVML wrote no count (was the sensor shut down?)", path);
  *reads = *init = *lines = 0;
  while (fscanf(fp, "reads %ld init_thread %ld\n", &n, &m) == 2) {
    *reads += n;
    *init += m;
    (*lines)++;
  }
  fclose(fp);
  PetscFunctionReturn(0);
}

static PetscErrorCode NvmlMeter(EasEnergyMeter *m, const char lib[])
{
  PetscFunctionBegin;
  PetscCall(PetscOptionsSetValue(NULL, "-eas_nvml_library", lib));
  PetscCall(EasEnergyMeterCreate(PETSC_COMM_SELF, m));
  PetscCall(EasEnergyMeterSetFromOptions(*m));
  PetscCall(EasEnergyMeterSetSensorType(*m, "nvml"));
  PetscFunctionReturn(0);
}

/* The rows (phases and unphased) add up to the total (phases never overlap here), and the total less the
   model's part of the kinds no sensor covers (S->modelled_energy; checked by hand in case mixed) to P x T. */
static PetscErrorCode CheckClosure(const EasEnergySummary *S, PetscReal P, PetscReal tol)
{
  PetscReal rows = S->other_energy, truth = P * S->time, Es = S->energy - S->modelled_energy;

  PetscFunctionBegin;
  for (PetscInt p = 0; p < EAS_NUM_PHASES; p++) rows += S->phase_energy[p];
  CHECK(S->measured, "the total must be measured");
  CHECK(PetscAbsReal(rows - S->energy) <= 1e-9 * S->energy, "rows %.12g J != total %.12g J", (double)rows, (double)S->energy);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  closure: rows %.6g J = total %.6g J (%.6g J modelled); sensors' %.6g J, P x T = %.6g J over %.4g s: ratio %.5f (tol %.3g)\n", (double)rows, (double)S->energy, (double)S->modelled_energy, (double)Es, (double)truth, (double)S->time, (double)(Es / truth), (double)tol));
  CHECK(PetscAbsReal(Es / truth - 1) <= tol, "closure: the sensors' %.6g J vs P x T = %.6g J: off by more than %.3g", (double)Es, (double)truth, (double)tol);
  PetscFunctionReturn(0);
}

/* Many short phases of a GPU unit (memcheck marks) and a CPU unit with a slow NVML. */
static PetscErrorCode CaseReads(void)
{
  char             lib[PETSC_MAX_PATH_LEN], rf[PETSC_MAX_PATH_LEN] = "", d[32];
  PetscInt         nphases = 2000, ug, uc, th0, th1, reads, init, lines;
  PetscReal        delay = 5, period, P = 150, spin_us = 50;
  EasEnergyMeter   m;
  EasBackend       be;
  EasEnergySummary S;
  double           t0, t1;
  PetscBool        flg;

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-phases", &nphases, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-delay_ms", &delay, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-spin_us", &spin_us, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-reads_file", rf, sizeof(rf), &flg));
  PetscCheck(flg, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "-reads_file <path>: where the fake NVML counts its reads");
  PetscCheck(nphases > 0 && delay >= 0 && spin_us >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-phases %" PetscInt_FMT " -delay_ms %g -spin_us %g: expected > 0, >= 0 and >= 0", nphases, (double)delay, (double)spin_us);
  PetscCall(FakeNvmlPath(lib, sizeof(lib)));
  PetscCall(PetscSNPrintf(d, sizeof(d), "%g", (double)delay));
  (void)unlink(rf);
  PetscCheck(setenv("FAKE_NVML_MODE", "energy", 1) == 0 && setenv("FAKE_NVML_POWER", "150", 1) == 0 && setenv("FAKE_NVML_DELAY_MS", d, 1) == 0 && setenv("FAKE_NVML_READS", rf, 1) == 0, PETSC_COMM_SELF, PETSC_ERR_SYS, "setenv failed");
  PetscCall(CountThreads(&th0));
  t0 = Now();
  PetscCall(NvmlMeter(&m, lib));
  PetscCall(EasEnergyMeterAddUnit(m, "gpu0", EAS_UNIT_GPU, &ug));
  PetscCall(EasEnergyMeterAddUnit(m, "cpu", EAS_UNIT_CPU, &uc));
  PetscCall(EasBackendCreate(PETSC_COMM_SELF, "/cpu/memcheck", &be));
  PetscCall(EasEnergyMeterSetBackend(m, be)); /* the GPU unit's boundaries: timer marks on its queue */
  PetscCall(EasEnergyMeterStart(m));
  for (PetscInt i = 0; i < nphases; i++) {
    PetscCall(EasEnergyMeterBegin(m, EAS_PHASE_COMPUTE, ug));
    Spin(1e-6 * spin_us);
    PetscCall(EasEnergyMeterEnd(m, EAS_PHASE_COMPUTE, ug, 1));
    PetscCall(EasEnergyMeterBegin(m, EAS_PHASE_EXCHANGE, uc));
    Spin(20e-6);
    PetscCall(EasEnergyMeterEnd(m, EAS_PHASE_EXCHANGE, uc, 0));
    if (i % 8 == 7) PetscCall(EasBackendSynchronize(be)); /* a natural synchronization: the marks before it are known */
  }
  PetscCall(EasEnergyMeterStop(m));
  PetscCall(EasEnergyMeterGetSummary(m, &S));
  PetscCall(EasEnergyMeterView(m, PETSC_VIEWER_STDOUT_SELF));
  {
    PetscReal b;
    PetscCall(EasEnergyMeterGetPhase(m, EAS_PHASE_COMPUTE, ug, &b, NULL, NULL));
    CHECK(b >= nphases * 1e-6 * spin_us, "the GPU unit's busy time %g s from its resolved marks: expected at least %" PetscInt_FMT " x %g us", (double)b, nphases, (double)spin_us);
  }
  PetscCall(EasEnergyMeterDestroy(&m));
  PetscCall(EasBackendDestroy(&be));
  t1 = Now();
  PetscCall(CountThreads(&th1));
  CHECK(th1 == th0, "threads: %" PetscInt_FMT " before the meter, %" PetscInt_FMT " after its destruction (a sampler not joined)", th0, th1);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  threads: %" PetscInt_FMT " before the meter, %" PetscInt_FMT " after its destruction\n", th0, th1));
  CHECK(S.boundaries == 4 * nphases, "boundaries %" PetscInt_FMT ", expected 4 x %" PetscInt_FMT, S.boundaries, nphases);
  CHECK(S.reads_caller == 0, "the meter read its sensor %" PetscInt_FMT " times on the solver's thread", S.reads_caller);
  PetscCall(FakeReads(rf, &reads, &init, &lines));
  period = 0.02; /* NVML's default sampler period */
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  reads counted by the fake NVML (%g ms each): %" PetscInt_FMT " in %g s, %" PetscInt_FMT " on the solver's thread, for %" PetscInt_FMT " phase boundaries (a read per boundary: %" PetscInt_FMT ")\n", (double)delay, reads, t1 - t0, init, S.boundaries, S.boundaries + 2));
  CHECK(lines == 1 && init <= 1, "the fake NVML counted %" PetscInt_FMT " reads on the solver's thread (%" PetscInt_FMT " sensors): expected at most the setup's probe of the energy counter", init, lines);
  CHECK(reads <= (PetscInt)((t1 - t0) / period) + 4, "%" PetscInt_FMT " reads in %g s: more than one per %g s sampler period + 4", reads, t1 - t0, (double)period);
  PetscCall(CheckClosure(&S, P, 0.01));
  PetscFunctionReturn(0);
}

/* Starts m and runs unit u: compute for Wc s (busy, spinning, or asleep), an unphased gap (te0, te1: its
   ends), an exchange of We s asleep; stops m, prints its report and returns its summary. */
static PetscErrorCode ComputeGapExchange(EasEnergyMeter m, PetscInt u, PetscBool spin, PetscReal Wc, PetscReal gap, PetscReal We, double *te0, double *te1, EasEnergySummary *S)
{
  PetscFunctionBegin;
  PetscCall(EasEnergyMeterStart(m));
  PetscCall(EasEnergyMeterBegin(m, EAS_PHASE_COMPUTE, u));
  if (spin) Spin(Wc);
  else PetscCall(PetscSleep(Wc));
  PetscCall(EasEnergyMeterEnd(m, EAS_PHASE_COMPUTE, u, 1));
  *te0 = Now();
  PetscCall(PetscSleep(gap));
  *te1 = Now();
  PetscCall(EasEnergyMeterBegin(m, EAS_PHASE_EXCHANGE, u));
  PetscCall(PetscSleep(We));
  PetscCall(EasEnergyMeterEnd(m, EAS_PHASE_EXCHANGE, u, 0));
  PetscCall(EasEnergyMeterStop(m));
  PetscCall(EasEnergyMeterGetSummary(m, S));
  PetscCall(EasEnergyMeterView(m, PETSC_VIEWER_STDOUT_SELF));
  PetscFunctionReturn(0);
}

/* The fake's power steps from P1 to P2 in the gap between two phases. */
static PetscErrorCode CaseStep(void)
{
  const PetscReal  P1 = 100, P2 = 300, W = 0.25, gap = 0.3;
  char             lib[PETSC_MAX_PATH_LEN], sw[32];
  EasEnergyMeter   m;
  EasEnergySummary S;
  EasPowerProfile  prof;
  PetscInt         u;
  double           ts, te0, te1;
  PetscReal        Pc, Pe, Pu, Pm;

  PetscFunctionBegin;
  PetscCall(FakeNvmlPath(lib, sizeof(lib)));
  PetscCall(PetscSNPrintf(sw, sizeof(sw), "%g", (double)(W + 0.5 * gap)));
  PetscCheck(setenv("FAKE_NVML_MODE", "energy", 1) == 0 && setenv("FAKE_NVML_POWER", "100", 1) == 0 && setenv("FAKE_NVML_POWER2", "300", 1) == 0 && setenv("FAKE_NVML_SWITCH_AT", sw, 1) == 0, PETSC_COMM_SELF, PETSC_ERR_SYS, "setenv failed");
  PetscCall(NvmlMeter(&m, lib));
  PetscCall(EasEnergyMeterAddUnit(m, "gpu0", EAS_UNIT_GPU, &u));
  ts = Now(); /* before nvmlInit_v2 (in Start): the step is at or after ts + SWITCH_AT */
  PetscCall(ComputeGapExchange(m, u, PETSC_FALSE, W, gap, W, &te0, &te1, &S));
  PetscCall(EasEnergyMeterGetProfile(m, &prof));
  PetscCall(EasEnergyMeterDestroy(&m));
  /* no RAPL: each row adds the model's CPU and DRAM, idle (the only unit is the GPU): (cpu_idle + dram) x its time */
  Pm = prof.cpu_idle + prof.dram;
  CHECK(S.modelled_cpu && !S.modelled_gpu, "NVML alone: expected the CPU modelled, the GPU measured (modelled cpu %d gpu %d)", (int)S.modelled_cpu, (int)S.modelled_gpu);
  /* the step is at ts + SWITCH_AT at the earliest and, nvmlInit_v2 being in Start, by te0 + SWITCH_AT - W at the latest;
     a sampling interval (20 ms and a read) on each side of it must lie in the gap for each phase to see one power */
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  the step lies %.3f s after compute ended and %.3f s before exchange began (at least 0.03 s needed)\n", ts + W + 0.5 * gap - te0, te1 - (te0 + 0.5 * gap)));
  PetscCheck(ts + W + 0.5 * gap - te0 >= 0.03 && te1 - (te0 + 0.5 * gap) >= 0.03, PETSC_COMM_SELF, PETSC_ERR_PLIB, "the sleeps overran the %g s gap by more than a sampling interval (a machine stalled for over 0.1 s): the step is not between the phases", (double)gap);
  Pc = S.phase_energy[EAS_PHASE_COMPUTE] / S.phase_time[EAS_PHASE_COMPUTE] - Pm;
  Pe = S.phase_energy[EAS_PHASE_EXCHANGE] / S.phase_time[EAS_PHASE_EXCHANGE] - Pm;
  Pu = S.other_energy / S.other_time - Pm;
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  measured power (the rows' less the model's CPU and DRAM %g W) of compute %.5g W (P1 %g), exchange %.5g W (P2 %g), unphased %.5g W (between)\n", (double)Pm, (double)Pc, (double)P1, (double)Pe, (double)P2, (double)Pu));
  CHECK(PetscAbsReal(Pc / P1 - 1) <= 0.01, "compute phase at %g W, expected P1 = %g W within 1%%", (double)Pc, (double)P1);
  CHECK(PetscAbsReal(Pe / P2 - 1) <= 0.01, "exchange phase at %g W, expected P2 = %g W within 1%%", (double)Pe, (double)P2);
  CHECK(Pu > P1 && Pu < P2, "unphased at %g W, expected between P1 and P2 (the step)", (double)Pu);
  PetscFunctionReturn(0);
}

/* NVML alone on a CPU run (issue 20 item 5): the GPU board measured, the CPU and DRAM modelled.  Checked
   against the fake's P x T and eq. 1.16 by hand from the profile given as options (-eas_power_*): one CPU
   unit of weight 1 on one rank, so the model's part is T (cpu_idle + dram) + busy (cpu_full - cpu_idle). */
static PetscErrorCode CaseMixed(void)
{
  const PetscReal  P = 120, Wc = 0.2, gap = 0.1, We = 0.1;
  char             lib[PETSC_MAX_PATH_LEN];
  const char      *src;
  EasEnergyMeter   m;
  EasEnergySummary S;
  EasPowerProfile  prof;
  PetscInt         u;
  PetscReal        bc, be, Ehand, Ec, Pc;
  double           te0, te1;

  PetscFunctionBegin;
  PetscCall(FakeNvmlPath(lib, sizeof(lib)));
  PetscCheck(setenv("FAKE_NVML_MODE", "energy", 1) == 0 && setenv("FAKE_NVML_POWER", "120", 1) == 0, PETSC_COMM_SELF, PETSC_ERR_SYS, "setenv failed");
  PetscCall(NvmlMeter(&m, lib));
  PetscCall(EasEnergyMeterAddUnit(m, "cpu", EAS_UNIT_CPU, &u));
  PetscCall(ComputeGapExchange(m, u, PETSC_TRUE, Wc, gap, We, &te0, &te1, &S));
  PetscCall(EasEnergyMeterGetProfile(m, &prof));
  PetscCall(EasEnergyMeterGetPhase(m, EAS_PHASE_COMPUTE, u, &bc, NULL, NULL));
  PetscCall(EasEnergyMeterGetPhase(m, EAS_PHASE_EXCHANGE, u, &be, NULL, NULL));
  PetscCall(EasEnergyMeterDestroy(&m));
  PetscCall(EasEnergySummaryGetSource(&S, &src));
  CHECK(S.measured && S.modelled_cpu && !S.modelled_gpu, "NVML alone: expected measured with the CPU modelled (measured %d, modelled cpu %d gpu %d)", (int)S.measured, (int)S.modelled_cpu, (int)S.modelled_gpu);
  CHECK(!strcmp(src, "measured+modelled"), "the total's label %s, expected measured+modelled", src);
  CHECK(prof.cpu_idle == 30 && prof.cpu_full == 90 && prof.dram == 6, "the profile of the options (-eas_power_cpu_idle 30 -eas_power_cpu_full 90 -eas_power_dram 6): got %g %g %g", (double)prof.cpu_idle, (double)prof.cpu_full, (double)prof.dram);
  Ehand = S.time * (prof.cpu_idle + prof.dram) + (bc + be) * (prof.cpu_full - prof.cpu_idle); /* Vialle et al. eq. 1.16, w = 1, ppn = 1 */
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  modelled CPU+DRAM %.8g J, by hand %.8g J (T %.4g s, busy %.4g s); total %.6g J, P x T + by hand %.6g J\n", (double)S.modelled_energy, (double)Ehand, (double)S.time, (double)(bc + be), (double)S.energy, (double)(P * S.time + Ehand)));
  CHECK(PetscAbsReal(S.modelled_energy - Ehand) <= 1e-9 * Ehand, "the model's part %.12g J, by hand %.12g J", (double)S.modelled_energy, (double)Ehand);
  CHECK(PetscAbsReal(S.energy - (P * S.time + Ehand)) <= 0.01 * P * S.time, "total %.8g J, expected P x T + the model's CPU and DRAM = %.8g J within 1%% of P x T", (double)S.energy, (double)(P * S.time + Ehand));
  /* the compute row: the fake's power over its time plus the model's CPU and DRAM, busy, over it */
  Ec = S.phase_time[EAS_PHASE_COMPUTE] * (prof.cpu_idle + prof.dram) + bc * (prof.cpu_full - prof.cpu_idle);
  Pc = (S.phase_energy[EAS_PHASE_COMPUTE] - Ec) / S.phase_time[EAS_PHASE_COMPUTE];
  CHECK(PetscAbsReal(Pc / P - 1) <= 0.01, "compute row less the model's %.6g J: %.6g W, expected the fake's %g W within 1%%", (double)Ec, (double)Pc, (double)P);
  PetscCall(CheckClosure(&S, P, 0.01));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- RAPL */

typedef struct {
  char            pkg[PETSC_MAX_PATH_LEN], dr[PETSC_MAX_PATH_LEN];
  double          Ppkg, Pdram, t0, maxgap;
  int             stop;
  pthread_mutex_t lock;
} Writer;

static int WriteUJ(const char dir[], double uj) /* temp + rename: the sampler never sees a partial file */
{
  char  path[PETSC_MAX_PATH_LEN + 32], tmp[PETSC_MAX_PATH_LEN + 32];
  FILE *fp;

  snprintf(path, sizeof(path), "%s/energy_uj", dir);
  snprintf(tmp, sizeof(tmp), "%s/.energy_uj.w", dir);
  if (!(fp = fopen(tmp, "w"))) return 1;
  fprintf(fp, "%.0f\n", fmod(uj, 1e7)); /* max_energy_range_uj 10 J: the counter wraps */
  fclose(fp);
  return rename(tmp, path);
}

/* The fake hardware: the counters at constant powers, rewritten every 0.5 ms (plain C: no PETSc in this thread). */
static void *WriterMain(void *arg)
{
  Writer *w    = (Writer *)arg;
  double  last = w->t0;

  for (;;) {
    const double    t = Now();
    struct timespec ts = {0, 500000};
    int             stop;
    pthread_mutex_lock(&w->lock);
    stop = w->stop;
    if (t - last > w->maxgap) w->maxgap = t - last;
    pthread_mutex_unlock(&w->lock);
    if (stop) break;
    if (WriteUJ(w->pkg, 1e6 + 1e6 * w->Ppkg * (t - w->t0)) || WriteUJ(w->dr, 5e5 + 1e6 * w->Pdram * (t - w->t0))) break;
    last = t;
    nanosleep(&ts, NULL);
  }
  return NULL;
}

static PetscErrorCode CaseRapl(void)
{
  char             root[PETSC_MAX_PATH_LEN];
  Writer           w;
  pthread_t        th;
  EasEnergyMeter   m;
  EasEnergySummary S;
  EasPowerProfile  prof;
  PetscInt         u, ug = -1, th0, th1;
  PetscReal        period, tol;
  PetscBool        gpu_unit = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(&w, sizeof(w)));
  w.Ppkg  = 40;
  w.Pdram = 5;
  PetscCall(MakeTree(root, sizeof(root), PETSC_TRUE, PETSC_TRUE, w.pkg, w.dr));
  pthread_mutex_init(&w.lock, NULL);
  w.t0 = Now();
  PetscCheck(pthread_create(&th, NULL, WriterMain, &w) == 0, PETSC_COMM_SELF, PETSC_ERR_SYS, "cannot start the writer thread");
  PetscCall(PetscOptionsSetValue(NULL, "-eas_rapl_root", root));
  PetscCall(PetscOptionsSetValue(NULL, "-eas_rapl_max_power", "100")); /* 10 J wrap: 0.1 s at 100 W, a quarter of it 25 ms >= 10 ms */
  PetscCall(CountThreads(&th0));
  PetscCall(EasEnergyMeterCreate(PETSC_COMM_SELF, &m));
  PetscCall(EasEnergyMeterSetFromOptions(m));
  PetscCall(EasEnergyMeterSetSensorType(m, "rapl"));
  PetscCall(EasEnergyMeterAddUnit(m, "cpu", EAS_UNIT_CPU, &u));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-gpu_unit", &gpu_unit, NULL));
  if (gpu_unit) PetscCall(EasEnergyMeterAddUnit(m, "gpu0", EAS_UNIT_GPU, &ug)); /* never busy: its board idle, modelled (no NVML) */
  PetscCall(EasEnergyMeterStart(m));
  for (PetscInt i = 0; i < 200; i++) { /* 0.4 s: the counters wrap 1.8 times */
    PetscCall(EasEnergyMeterBegin(m, EAS_PHASE_COMPUTE, u));
    PetscCall(PetscSleep(0.0015));
    PetscCall(EasEnergyMeterEnd(m, EAS_PHASE_COMPUTE, u, 1));
    PetscCall(EasEnergyMeterBegin(m, EAS_PHASE_EXCHANGE, u));
    PetscCall(PetscSleep(0.0005));
    PetscCall(EasEnergyMeterEnd(m, EAS_PHASE_EXCHANGE, u, 0));
  }
  PetscCall(EasEnergyMeterStop(m));
  PetscCall(EasEnergyMeterGetSummary(m, &S));
  PetscCall(EasEnergyMeterView(m, PETSC_VIEWER_STDOUT_SELF));
  period = S.resolution;
  PetscCall(EasEnergyMeterGetProfile(m, &prof));
  PetscCall(EasEnergyMeterDestroy(&m));
  /* RAPL alone: the GPU modelled only where a GPU unit exists; idle, T gpu_idle (Vialle et al. eq. 1.16, ppn = 1) */
  CHECK(!S.modelled_cpu && S.modelled_gpu == gpu_unit, "RAPL alone%s: modelled cpu %d gpu %d", gpu_unit ? " with a GPU unit" : "", (int)S.modelled_cpu, (int)S.modelled_gpu);
  CHECK(PetscAbsReal(S.modelled_energy - (gpu_unit ? S.time * prof.gpu_idle : 0)) <= 1e-9 * S.time * prof.gpu_idle, "the model's GPU part %.12g J, by hand T x gpu_idle = %.12g J", (double)S.modelled_energy, (double)(gpu_unit ? S.time * prof.gpu_idle : 0));
  PetscCall(CountThreads(&th1));
  pthread_mutex_lock(&w.lock);
  w.stop = 1;
  pthread_mutex_unlock(&w.lock);
  pthread_join(th, NULL);
  pthread_mutex_destroy(&w.lock);
  CHECK(th1 == th0, "threads: %" PetscInt_FMT " before the meter, %" PetscInt_FMT " after its destruction (a sampler not joined)", th0, th1);
  CHECK(S.reads_caller == 0, "the meter read RAPL %" PetscInt_FMT " times on the solver's thread", S.reads_caller);
  CHECK(S.reads_sampler <= (PetscInt)(S.time / period) + 4, "%" PetscInt_FMT " RAPL reads over %g s: more than one per %g s + 4", S.reads_sampler, (double)S.time, (double)period);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  RAPL: %" PetscInt_FMT " reads on the sampler thread (period %g s), 0 on the solver's, for %" PetscInt_FMT " boundaries; the writer's longest gap %.3g ms\n", S.reads_sampler, (double)period, S.boundaries, 1e3 * w.maxgap));
  tol = 0.01 + 2 * w.maxgap / S.time; /* the file is as old as the writer's last write */
  PetscCall(CheckClosure(&S, w.Ppkg + w.Pdram, tol));
  PetscCall(RemoveTree(root));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  char      cs[32] = "reads";
  PetscBool isc;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-case", cs, sizeof(cs), NULL));
  PetscCall(PetscStrcmp(cs, "reads", &isc));
  if (isc) PetscCall(CaseReads());
  PetscCall(PetscStrcmp(cs, "step", &isc));
  if (isc) PetscCall(CaseStep());
  PetscCall(PetscStrcmp(cs, "rapl", &isc));
  if (isc) PetscCall(CaseRapl());
  PetscCall(PetscStrcmp(cs, "mixed", &isc));
  if (isc) PetscCall(CaseMixed());
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "case %s: %" PetscInt_FMT " checks passed\n", cs, nchecks));
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    suffix: reads
    backends: none
    args: -case reads -phases 2000 -delay_ms 5 -reads_file @TMP@/reads
    expect: ^compute .* apportioned\+modelled$
    expect: ^source of the energies: measured \(nvml: gpu\) \+ modelled \(cpu, dram: no RAPL\)$
    expect: ^sensor reads: [0-9]+ on the sampler thread\(s\), 0 on the solver's thread; 8000 phase boundaries
    expect: [01] on the solver's thread, for 8000 phase boundaries
    expect: case reads: 9 checks passed
  test:
    suffix: reads_few
    backends: none
    args: -case reads -phases 20 -spin_us 10000 -delay_ms 5 -reads_file @TMP@/reads
    expect: [01] on the solver's thread, for 80 phase boundaries
    expect: case reads: 9 checks passed
  test:
    suffix: period_error
    backends: none
    args: -case reads -phases 2 -reads_file @TMP@/reads -eas_sensor_period_ms 0.05
    expect_error: -eas_sensor_period_ms 0.05 is invalid: expected a period from 0.1 to 60000 ms
  test:
    suffix: step
    backends: none
    args: -case step
    expect: ^compute .* measured\+modelled$
    expect: ^exchange .* measured\+modelled$
    expect: case step: 4 checks passed
  test:
    suffix: rapl
    backends: none
    args: -case rapl
    expect: sensor rapl, profile default
    expect: ^total .* (measured|apportioned)$
    expect: case rapl: 8 checks passed
  test:
    suffix: rapl_gpu_unit
    backends: none
    args: -case rapl -gpu_unit
    expect: ^total .* (measured|apportioned)\+modelled$
    expect: ^source of the energies: measured \(rapl: cpu, dram\) \+ modelled \(gpu: no NVML\)$
    expect: case rapl: 8 checks passed
  test:
    suffix: mixed
    backends: none
    args: -case mixed -eas_power_cpu_idle 30 -eas_power_cpu_full 90 -eas_power_dram 6 -eas_power_gpu_idle 50 -eas_power_gpu_full 300
    expect: ^compute .* measured\+modelled$
    expect: ^total .* measured\+modelled$
    expect: ^source of the energies: measured \(nvml: gpu\) \+ modelled \(cpu, dram: no RAPL\)$
    expect: case mixed: 9 checks passed
TEST*/
