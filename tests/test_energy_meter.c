static const char help[] = "Energy meter on a synthetic timeline (a fake clock): the model accounting equals the joules\n"
                           "computed by hand (Vialle et al. eq. 1.16), the report text is compared exactly, and the CSV trace\n"
                           "rows are checked; units weighted by their node share (two CPU units of weights 0.25 and 0.75);\n"
                           "Stop/Resume accumulate and Start restarts; a weight outside (0,1] is an error.\n"
                           "  -case accounting|report|trace|profile|weights|resume|weight_error [-weight w]\n\n";

#include <eas.h>
#include "energy/testing.h" /* test hooks (not installed) */
#include <unistd.h>

static PetscLogDouble fake_now = 0;

static PetscErrorCode FakeClock(void *ctx, PetscLogDouble *t)
{
  (void)ctx;
  *t = fake_now;
  return 0;
}

static PetscInt nchecks = 0;

#define CHECK_CLOSE(a, b, tol, what)                                                                                                                                    \
  do {                                                                                                                                                                  \
    PetscReal a_ = (a), b_ = (b);                                                                                                                                       \
    PetscCheck(PetscAbsReal(a_ - b_) <= (tol), PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: got %.12g, expected %.12g (tol %g)", what, (double)a_, (double)b_, (double)(tol)); \
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %s: %.10g == %.10g (tol %g)\n", what, (double)a_, (double)b_, (double)(tol)));                                           \
    nchecks++;                                                                                                                                                          \
  } while (0)

/* Profile: P_I = 40 + 10 + 5 = 55 W, P_C(cpu) = 60 W, P_C(gpu) = 150 W.
   Timeline (s): setup cpu [0,1]; compute cpu [1,4] and gpu [1,3];
   exchange cpu [4,5]; nothing [5,6]; transfers gpu [6,6.5]; Stop at 7.
   Trace rows at t = 4 and t = 7. */
static PetscErrorCode RunTimeline(EasEnergyMeter m)
{
  PetscInt        ucpu, ugpu;
  EasPowerProfile prof  = {40, 100, 10, 160, 5, 34};
  PetscReal       sh[2] = {600, 400}, tel[2];

  PetscFunctionBegin;
  PetscCall(EasEnergyMeterSetTimeFunction(m, FakeClock, NULL));
  PetscCall(EasEnergyMeterSetSensorType(m, "model"));
  PetscCall(EasEnergyMeterSetProfile(m, &prof));
  PetscCall(EasEnergyMeterAddUnit(m, "cpu", EAS_UNIT_CPU, &ucpu));
  PetscCall(EasEnergyMeterAddUnit(m, "gpu0", EAS_UNIT_GPU, &ugpu));
  fake_now = 0;
  PetscCall(EasEnergyMeterStart(m));
  PetscCall(EasEnergyMeterBegin(m, EAS_PHASE_SETUP, ucpu));
  fake_now = 1;
  PetscCall(EasEnergyMeterEnd(m, EAS_PHASE_SETUP, ucpu, 0));
  PetscCall(EasEnergyMeterBegin(m, EAS_PHASE_COMPUTE, ucpu));
  PetscCall(EasEnergyMeterBegin(m, EAS_PHASE_COMPUTE, ugpu));
  fake_now = 3;
  PetscCall(EasEnergyMeterEnd(m, EAS_PHASE_COMPUTE, ugpu, 400));
  fake_now = 4;
  PetscCall(EasEnergyMeterEnd(m, EAS_PHASE_COMPUTE, ucpu, 600));
  tel[0] = 3.0 / 600;
  tel[1] = 2.0 / 400;
  PetscCall(EasEnergyTraceRow(m, 0, 2, sh, tel, 3.5, 700.0));
  PetscCall(EasEnergyMeterBegin(m, EAS_PHASE_EXCHANGE, ucpu));
  fake_now = 5;
  PetscCall(EasEnergyMeterEnd(m, EAS_PHASE_EXCHANGE, ucpu, 0));
  fake_now = 6;
  PetscCall(EasEnergyMeterBegin(m, EAS_PHASE_TRANSFER, ugpu));
  fake_now = 6.5;
  PetscCall(EasEnergyMeterEnd(m, EAS_PHASE_TRANSFER, ugpu, 0));
  fake_now = 7;
  PetscCall(EasEnergyTraceRow(m, 1, 2, sh, tel, -1, -1));
  PetscCall(EasEnergyMeterStop(m));
  PetscFunctionReturn(0);
}

static PetscErrorCode CaseAccounting(void)
{
  EasEnergyMeter   m;
  EasEnergySummary S;
  PetscReal        E, t_el, size_r;
  PetscMPIInt      size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  size_r = (PetscReal)size;
  PetscCall(EasEnergyMeterCreate(PETSC_COMM_WORLD, &m));
  PetscCall(RunTimeline(m));
  PetscCall(EasEnergyMeterGetSummary(m, &S));
  /* by hand: E = T P_I + busy_cpu P_C(cpu) + busy_gpu P_C(gpu) = 7*55 + 5*60 + 2.5*150 = 1060 J per node;
     every rank of a node runs the same timeline and is charged 1/ppn of it, so the node total is 1060 J */
  CHECK_CLOSE(S.time, 7.0, 1e-12, "T (s)");
  CHECK_CLOSE(S.energy, 1060.0, 1e-9, "total modelled energy (J), by hand 7*55 + 5*60 + 2.5*150");
  CHECK_CLOSE(S.phase_energy[EAS_PHASE_SETUP], 115.0, 1e-9, "setup (J), by hand 1*55 + 1*60");
  CHECK_CLOSE(S.phase_energy[EAS_PHASE_COMPUTE], 645.0, 1e-9, "compute (J), by hand 3*55 + 3*60 + 2*150");
  CHECK_CLOSE(S.phase_energy[EAS_PHASE_EXCHANGE], 115.0, 1e-9, "exchange (J), by hand 1*55 + 1*60");
  CHECK_CLOSE(S.phase_energy[EAS_PHASE_TRANSFER], 102.5, 1e-9, "transfers (J), by hand 0.5*55 + 0.5*150");
  CHECK_CLOSE(S.other_energy, 82.5, 1e-9, "outside the phases (J), by hand 1.5*55");
  CHECK_CLOSE(S.power, 1060.0 / 7.0, 1e-9, "average power (W)");
  CHECK_CLOSE(S.edp, 1060.0 * 7.0, 1e-6, "EDP (J s)");
  PetscCheck(!S.measured && S.valid, PETSC_COMM_SELF, PETSC_ERR_PLIB, "expected modelled, valid figures");
  PetscCall(EasEnergyMeterGetModelEnergy(m, &E));
  {
    PetscReal Eg;
    PetscCallMPI(MPI_Allreduce(&E, &Eg, 1, MPIU_REAL, MPIU_SUM, PETSC_COMM_WORLD));
    CHECK_CLOSE(Eg, 1060.0, 1e-9, "sum over ranks of EasEnergyMeterGetModelEnergy (J)");
  }
  PetscCall(EasEnergyMeterGetPhase(m, EAS_PHASE_COMPUTE, 0, NULL, NULL, &t_el));
  CHECK_CLOSE(t_el, 3.0 / 600, 1e-15, "cpu per-element time (s/el)");
  (void)size_r;
  PetscCall(EasEnergyMeterDestroy(&m));
  PetscFunctionReturn(0);
}

static const char expected_report[] = "eas energy report: 1 rank(s) on 1 node(s), sensor model, profile from options\n"
                                      "phase          time [s] cpu busy [s] gpu busy [s]   share of T   energy [J]    power [W]    EDP [J s]  source\n"
                                      "setup                 1            1            0      0.14286          115          115          115  modelled\n"
                                      "compute               3            3            2      0.42857          645          215         1935  modelled\n"
                                      "exchange              1            1            0      0.14286          115          115          115  modelled\n"
                                      "transfers           0.5            0          0.5     0.071429        102.5          205        51.25  modelled\n"
                                      "unphased            1.5            0            0      0.21429         82.5           55       123.75  modelled\n"
                                      "total                 7            5          2.5            1         1060       151.43         7420  modelled\n"
                                      "unphased: run time outside every phase (no unit busy); its energy is the idle power P_I over that time\n"
                                      "busy fraction beta (Vialle et al. eq. 1.16, weighted by the units' node shares): cpu 0.71429, gpu 0.35714\n"
                                      "unit       kind    weight [-]     busy [s]     beta [-]    work [el]    t_el [s/el]\n"
                                      "cpu        cpu              1            5      0.71429          600          0.005\n"
                                      "gpu0       gpu              1          2.5      0.35714          400          0.005\n";

static PetscErrorCode CaseReport(void)
{
  EasEnergyMeter m;
  PetscViewer    v;
  char           path[] = "/tmp/eas_report_XXXXXX", buf[4096];
  int            fd;
  FILE          *fp;
  size_t         n;
  PetscBool      same;

  PetscFunctionBegin;
  fd = mkstemp(path);
  PetscCheck(fd >= 0, PETSC_COMM_SELF, PETSC_ERR_SYS, "mkstemp");
  close(fd);
  PetscCall(EasEnergyMeterCreate(PETSC_COMM_SELF, &m));
  PetscCall(RunTimeline(m));
  PetscCall(PetscViewerASCIIOpen(PETSC_COMM_SELF, path, &v));
  PetscCall(EasEnergyMeterView(m, v));
  PetscCall(PetscViewerDestroy(&v));
  fp = fopen(path, "r");
  PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot read %s", path);
  n      = fread(buf, 1, sizeof(buf) - 1, fp);
  buf[n] = 0;
  fclose(fp);
  unlink(path);
  PetscCall(PetscStrcmp(buf, expected_report, &same));
  if (!same) PetscCall(PetscPrintf(PETSC_COMM_SELF, "report:\n%s\nexpected:\n%s", buf, expected_report));
  PetscCheck(same, PETSC_COMM_SELF, PETSC_ERR_PLIB, "the report text differs from the expected text (both printed above)");
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "report text identical to the expected %d characters:\n%s", (int)strlen(expected_report), buf));
  nchecks++;
  /* the same report through -eas_energy_view (PETSc viewer syntax) */
  PetscCall(EasEnergyMeterSetFromOptions(m));
  PetscCall(EasEnergyMeterViewFromOptions(m));
  PetscCall(EasEnergyMeterDestroy(&m));
  PetscFunctionReturn(0);
}

/* The value of the CSV row starting with key (e.g. "part,compute,gpu0,energy_J,"). */
static PetscErrorCode CsvValue(const char buf[], const char key[], PetscReal *v)
{
  const char *p = strstr(buf, key);

  PetscFunctionBegin;
  while (p && p != buf && p[-1] != '\n') p = strstr(p + 1, key); /* a row's start only */
  PetscCheck(p, PETSC_COMM_SELF, PETSC_ERR_PLIB, "the CSV report has no row %s", key);
  *v = strtod(p + strlen(key), NULL);
  PetscFunctionReturn(0);
}

/* The report as CSV (-eas_energy_view :file:ascii_csv) on the timeline of
   RunTimeline, checked by hand: P_I = 40 + 10 + 5 = 55 W, P_C(cpu) = 60 W,
   P_C(gpu) = 150 W; the parts of Vialle et al. eq. 1.16 per phase and unit
   are w busy P_C (w = 1 on one rank) and the idle part W P_I; the GPU
   computes, so the frontier uses its compute busy fraction 2/7 with
   P_F = 55 + 150 = 205 W: alpha = 205 / (2/7 205 + 5/7 55) = 1435/685. */
static PetscErrorCode CaseCSV(void)
{
  EasEnergyMeter m;
  char           path[] = "/tmp/eas_report_XXXXXX", opt[64], buf[8192];
  int            fd;
  FILE          *fp;
  size_t         n;
  const struct {
    const char *key;
    PetscReal   want;
  } rows[] = {
      {"phase,compute,,time_s,", 3.0},
      {"phase,compute,,energy_J,", 645.0},
      {"phase,unphased,,time_s,", 1.5},
      {"phase,unphased,,energy_J,", 82.5},
      {"total,,,energy_J,", 1060.0},
      {"part,setup,cpu,energy_J,", 60.0},
      {"part,setup,idle,energy_J,", 55.0},
      {"part,compute,cpu,energy_J,", 180.0},
      {"part,compute,gpu0,energy_J,", 300.0},
      {"part,compute,idle,energy_J,", 165.0},
      {"part,exchange,cpu,energy_J,", 60.0},
      {"part,transfers,gpu0,energy_J,", 75.0},
      {"part,transfers,idle,energy_J,", 27.5},
      {"part,unphased,idle,energy_J,", 82.5},
      {"unit,,gpu0,t_el_s,", 0.005},
      {"beta,,,compute_gpu,", 2.0 / 7.0},
      {"frontier,,,PF_W,", 205.0},
      {"frontier,,,PI_W,", 55.0},
      {"frontier,,,alpha,", 1435.0 / 685.0},
  };

  PetscFunctionBegin;
  fd = mkstemp(path);
  PetscCheck(fd >= 0, PETSC_COMM_SELF, PETSC_ERR_SYS, "mkstemp");
  close(fd);
  PetscCall(PetscSNPrintf(opt, sizeof(opt), ":%s:ascii_csv", path));
  PetscCall(PetscOptionsSetValue(NULL, "-eas_energy_view", opt));
  PetscCall(EasEnergyMeterCreate(PETSC_COMM_SELF, &m));
  PetscCall(EasEnergyMeterSetFromOptions(m));
  PetscCall(RunTimeline(m));
  PetscCall(EasEnergyMeterViewFromOptions(m));
  PetscCall(EasEnergyMeterDestroy(&m)); /* closes the viewer */
  fp = fopen(path, "r");
  PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot read %s", path);
  n      = fread(buf, 1, sizeof(buf) - 1, fp);
  buf[n] = 0;
  fclose(fp);
  unlink(path);
  PetscCheck(!strncmp(buf, "record,phase,unit,quantity,value,source\n", 40), PETSC_COMM_SELF, PETSC_ERR_PLIB, "the CSV report lacks its header:\n%s", buf);
  for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
    PetscReal v;
    PetscCall(CsvValue(buf, rows[k].key, &v));
    CHECK_CLOSE(v, rows[k].want, 1e-9 * PetscMax(1.0, PetscAbsReal(rows[k].want)), rows[k].key);
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode CaseTrace(void)
{
  EasEnergyMeter m;
  char           path[]     = "/tmp/eas_trace_XXXXXX", buf[2048];
  const char     expected[] = "iteration,share_0,share_1,t_el_0_s,t_el_1_s,time_pred_s,energy_pred_J,time_meas_s,energy_meas_J,energy_source\n"
                              "0,600,400,0.005,0.005,3.5,700,4,760,modelled\n"
                              "1,600,400,0.005,0.005,,,3,300,modelled\n";
  int            fd;
  FILE          *fp;
  size_t         n;
  PetscBool      same;

  PetscFunctionBegin;
  fd = mkstemp(path);
  PetscCheck(fd >= 0, PETSC_COMM_SELF, PETSC_ERR_SYS, "mkstemp");
  close(fd);
  PetscCall(EasEnergyMeterCreate(PETSC_COMM_SELF, &m));
  PetscCall(EasEnergyMeterSetTrace(m, path));
  PetscCall(RunTimeline(m));
  PetscCall(EasEnergyMeterDestroy(&m)); /* closes the trace */
  fp = fopen(path, "r");
  PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot read %s", path);
  n      = fread(buf, 1, sizeof(buf) - 1, fp);
  buf[n] = 0;
  fclose(fp);
  unlink(path);
  PetscCall(PetscStrcmp(buf, expected, &same));
  PetscCheck(same, PETSC_COMM_SELF, PETSC_ERR_PLIB, "trace:\n%s\nexpected:\n%s", buf, expected);
  /* row 0 at t = 4: 4*55 + 4*60 + 2*150 = 760 J; row 1: 1060 - 760 = 300 J */
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "trace identical to the expected CSV (760 J = 4*55 + 4*60 + 2*150, 300 J = 1060 - 760):\n%s", buf));
  nchecks++;
  PetscFunctionReturn(0);
}

/* Two CPU units of weights 0.25 and 0.75 (e.g. 1 and 3 threads of a 4-core
   node) on a synthetic timeline, one rank.  Profile: P_I = 55 W, P_C(cpu) = 60 W.
   Timeline (s): unit a compute [0,4], unit b compute [1,3], unit a exchange
   [4,5], Stop at 8.  Vialle et al. eq. 1.16 with beta = sum_u w_u busy_u / T:
     beta = (0.25*5 + 0.75*2)/8 = 0.34375, E = 8*55 + 8*0.34375*60 = 440 + 165 = 605 J
   (unweighted, as before: beta = min(1, 7/8), E = 860 J).  Per phase:
     compute  W = 4: beta = 0.25*4/4 + 0.75*2/4 = 0.625, E = 4*55 + 4*0.625*60 = 370 J
     exchange W = 1: beta = 0.25,                          E = 55 + 15           = 70 J
     other    3 s idle:                                    E = 3*55              = 165 J */
static PetscErrorCode CaseWeights(void)
{
  EasEnergyMeter   m;
  EasEnergySummary S;
  EasPowerProfile  prof = {40, 100, 10, 160, 5, 34};
  PetscInt         ua, ub;
  PetscReal        w, E;
  PetscErrorCode   ierr;
  const PetscReal  PI = 55, PC = 60, T = 8, wa = 0.25, wb = 0.75;
  const PetscReal  Ehand = T * PI + T * ((wa * 5 + wb * 2) / T) * PC;

  PetscFunctionBegin;
  PetscCall(EasEnergyMeterCreate(PETSC_COMM_SELF, &m));
  PetscCall(EasEnergyMeterSetTimeFunction(m, FakeClock, NULL));
  PetscCall(EasEnergyMeterSetSensorType(m, "model"));
  PetscCall(EasEnergyMeterSetProfile(m, &prof));
  PetscCall(EasEnergyMeterAddUnit(m, "cpu-a", EAS_UNIT_CPU, &ua));
  PetscCall(EasEnergyMeterAddUnit(m, "cpu-b", EAS_UNIT_CPU, &ub));
  PetscCall(EasEnergyMeterGetUnitWeight(m, ua, &w));
  CHECK_CLOSE(w, 1.0, 0, "default weight of a unit on a 1-rank node (1/ppn)");
  /* invalid weights are errors (the message names w; see -case weight_error) */
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = EasEnergyMeterSetUnitWeight(m, ua, 0.0);
  PetscCheck(ierr == PETSC_ERR_ARG_OUTOFRANGE, PETSC_COMM_SELF, PETSC_ERR_PLIB, "weight 0 must be PETSC_ERR_ARG_OUTOFRANGE, got %d", (int)ierr);
  ierr = EasEnergyMeterSetUnitWeight(m, ua, 1.5);
  PetscCheck(ierr == PETSC_ERR_ARG_OUTOFRANGE, PETSC_COMM_SELF, PETSC_ERR_PLIB, "weight 1.5 must be PETSC_ERR_ARG_OUTOFRANGE, got %d", (int)ierr);
  ierr = EasEnergyMeterSetUnitWeight(m, 2, 0.5);
  PetscCheck(ierr == PETSC_ERR_ARG_OUTOFRANGE, PETSC_COMM_SELF, PETSC_ERR_PLIB, "unit 2 (not registered) must be PETSC_ERR_ARG_OUTOFRANGE, got %d", (int)ierr);
  PetscCall(PetscPopErrorHandler());
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  weights 0 and 1.5 and an unregistered unit are errors (PETSC_ERR_ARG_OUTOFRANGE)\n"));
  nchecks++;
  PetscCall(EasEnergyMeterSetUnitWeight(m, ua, wa));
  PetscCall(EasEnergyMeterSetUnitWeight(m, ub, wb));
  fake_now = 0;
  PetscCall(EasEnergyMeterStart(m));
  PetscCall(EasEnergyMeterBegin(m, EAS_PHASE_COMPUTE, ua));
  fake_now = 1;
  PetscCall(EasEnergyMeterBegin(m, EAS_PHASE_COMPUTE, ub));
  fake_now = 3;
  PetscCall(EasEnergyMeterEnd(m, EAS_PHASE_COMPUTE, ub, 200));
  fake_now = 4;
  PetscCall(EasEnergyMeterEnd(m, EAS_PHASE_COMPUTE, ua, 100));
  PetscCall(EasEnergyMeterBegin(m, EAS_PHASE_EXCHANGE, ua));
  fake_now = 5;
  PetscCall(EasEnergyMeterEnd(m, EAS_PHASE_EXCHANGE, ua, 0));
  fake_now = 8;
  PetscCall(EasEnergyMeterStop(m));
  PetscCall(EasEnergyMeterGetSummary(m, &S));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  by hand: T P_I + T beta P_C(cpu), beta = (0.25*5 + 0.75*2)/8 = %g: %g J\n", (double)((wa * 5 + wb * 2) / T), (double)Ehand));
  CHECK_CLOSE(S.energy, Ehand, 1e-9, "weighted modelled energy (J), by hand 8*55 + 8*0.34375*60 = 605");
  CHECK_CLOSE(S.model_energy, 605.0, 1e-9, "model total (J)");
  CHECK_CLOSE(S.phase_energy[EAS_PHASE_COMPUTE], 370.0, 1e-9, "compute (J), by hand 4*55 + 4*(0.25*4/4 + 0.75*2/4)*60");
  CHECK_CLOSE(S.phase_energy[EAS_PHASE_EXCHANGE], 70.0, 1e-9, "exchange (J), by hand 55 + 0.25*60");
  CHECK_CLOSE(S.other_energy, 165.0, 1e-9, "outside the phases (J), by hand 3*55");
  PetscCall(EasEnergyMeterGetModelEnergy(m, &E));
  CHECK_CLOSE(E, 605.0, 1e-9, "EasEnergyMeterGetModelEnergy (J)");
  PetscCall(EasEnergyMeterView(m, PETSC_VIEWER_STDOUT_SELF));
  PetscCall(EasEnergyMeterDestroy(&m));
  PetscFunctionReturn(0);
}

/* Stop ... Resume accumulates, time while stopped is not counted, a phase
   open at Stop counts up to Stop and again from Resume; Start restarts.
   One cpu unit (weight 1 on a 1-rank node), P_I = 55 W, P_C = 60 W.
   Windows [0,3], [10,12], [20,21]: T = 6 s.  compute [0,2] and [10,11]
   (a compute [5,6] while stopped is not counted): busy 3 s; exchange open
   [11.5, 12] and [20, 20.5]: busy 1 s.  E = 6*55 + 4*60 = 570 J. */
static PetscErrorCode CaseResume(void)
{
  EasEnergyMeter   m;
  EasEnergySummary S;
  EasPowerProfile  prof = {40, 100, 10, 160, 5, 34};
  PetscInt         u;
  PetscReal        busy;

  PetscFunctionBegin;
  PetscCall(EasEnergyMeterCreate(PETSC_COMM_SELF, &m));
  PetscCall(EasEnergyMeterSetTimeFunction(m, FakeClock, NULL));
  PetscCall(EasEnergyMeterSetSensorType(m, "model"));
  PetscCall(EasEnergyMeterSetProfile(m, &prof));
  PetscCall(EasEnergyMeterAddUnit(m, "cpu", EAS_UNIT_CPU, &u));
  fake_now = 0;
  PetscCall(EasEnergyMeterStart(m));
  PetscCall(EasEnergyMeterBegin(m, EAS_PHASE_COMPUTE, u));
  fake_now = 2;
  PetscCall(EasEnergyMeterEnd(m, EAS_PHASE_COMPUTE, u, 10));
  fake_now = 3;
  PetscCall(EasEnergyMeterStop(m));
  fake_now = 5;
  PetscCall(EasEnergyMeterBegin(m, EAS_PHASE_COMPUTE, u)); /* while stopped: not counted */
  fake_now = 6;
  PetscCall(EasEnergyMeterEnd(m, EAS_PHASE_COMPUTE, u, 0));
  fake_now = 10;
  PetscCall(EasEnergyMeterResume(m));
  PetscCall(EasEnergyMeterBegin(m, EAS_PHASE_COMPUTE, u));
  fake_now = 11;
  PetscCall(EasEnergyMeterEnd(m, EAS_PHASE_COMPUTE, u, 10));
  fake_now = 11.5;
  PetscCall(EasEnergyMeterBegin(m, EAS_PHASE_EXCHANGE, u));
  fake_now = 12;
  PetscCall(EasEnergyMeterStop(m));
  fake_now = 20;
  PetscCall(EasEnergyMeterResume(m));
  fake_now = 20.5;
  PetscCall(EasEnergyMeterEnd(m, EAS_PHASE_EXCHANGE, u, 0));
  fake_now = 21;
  PetscCall(EasEnergyMeterStop(m));
  PetscCall(EasEnergyMeterGetSummary(m, &S));
  CHECK_CLOSE(S.time, 6.0, 1e-12, "T over the windows [0,3], [10,12], [20,21] (s)");
  PetscCall(EasEnergyMeterGetPhase(m, EAS_PHASE_COMPUTE, u, &busy, NULL, NULL));
  CHECK_CLOSE(busy, 3.0, 1e-12, "compute busy, the [5,6] interval while stopped not counted (s)");
  PetscCall(EasEnergyMeterGetPhase(m, EAS_PHASE_EXCHANGE, u, &busy, NULL, NULL));
  CHECK_CLOSE(busy, 1.0, 1e-12, "exchange busy, open across Stop/Resume (s)");
  CHECK_CLOSE(S.energy, 570.0, 1e-9, "energy (J), by hand 6*55 + 4*60");
  CHECK_CLOSE(S.power, 95.0, 1e-9, "average power (W), 570/6");
  CHECK_CLOSE(S.edp, 570.0 * 6.0, 1e-9, "EDP (J s), 570*6");
  /* Start begins a new run */
  fake_now = 30;
  PetscCall(EasEnergyMeterStart(m));
  fake_now = 31;
  PetscCall(EasEnergyMeterStop(m));
  PetscCall(EasEnergyMeterGetSummary(m, &S));
  CHECK_CLOSE(S.time, 1.0, 1e-12, "T after a new Start (s)");
  CHECK_CLOSE(S.energy, 55.0, 1e-9, "energy after a new Start (J), idle 1*55");
  PetscCall(EasEnergyMeterDestroy(&m));
  PetscFunctionReturn(0);
}

/* The shipped default profile equals the built-in one; per-node lists. */
static PetscErrorCode CaseProfile(void)
{
  EasPowerProfile f, d;
  PetscBool       dflt;
  PetscErrorCode  ierr;

  PetscFunctionBegin;
  PetscCall(EasPowerProfileDefault(&d));
  PetscCall(EasPowerProfileGetFromOptions(PETSC_COMM_SELF, NULL, 0, 1, &f, &dflt)); /* -eas_power_profile share/eas/default_profile.opts */
  PetscCheck(!dflt, PETSC_COMM_SELF, PETSC_ERR_PLIB, "expected the keys of the profile file to be read");
  PetscCheck(f.cpu_idle == d.cpu_idle && f.cpu_full == d.cpu_full && f.gpu_idle == d.gpu_idle && f.gpu_full == d.gpu_full && f.dram == d.dram && f.switch_ == d.switch_, PETSC_COMM_SELF, PETSC_ERR_PLIB, "share/eas/default_profile.opts differs from EasPowerProfileDefault");
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  default_profile.opts == built-in default (cpu %g/%g W, gpu %g/%g W, dram %g W, switch %g W)\n", (double)f.cpu_idle, (double)f.cpu_full, (double)f.gpu_idle, (double)f.gpu_full, (double)f.dram, (double)f.switch_));
  nchecks++;
  /* per-node lists (heterogeneous clusters) */
  PetscCall(PetscOptionsSetValue(NULL, "-eas_power_cpu_idle", "100,120"));
  PetscCall(PetscOptionsSetValue(NULL, "-eas_power_cpu_full", "150,170"));
  PetscCall(EasPowerProfileGetFromOptions(PETSC_COMM_SELF, NULL, 1, 2, &f, &dflt));
  PetscCheck(f.cpu_idle == 120 && f.cpu_full == 170, PETSC_COMM_SELF, PETSC_ERR_PLIB, "node 1 of 2: expected 120/170 W, got %g/%g", (double)f.cpu_idle, (double)f.cpu_full);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  per-node list: node 1 of 2 takes cpu idle %g W, full %g W\n", (double)f.cpu_idle, (double)f.cpu_full));
  nchecks++;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = EasPowerProfileGetFromOptions(PETSC_COMM_SELF, NULL, 2, 3, &f, &dflt);
  PetscCall(PetscPopErrorHandler());
  PetscCheck(ierr == PETSC_ERR_ARG_SIZ, PETSC_COMM_SELF, PETSC_ERR_PLIB, "a 2-value list for 3 nodes must be an error");
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  a 2-value list for 3 nodes is an error (PETSC_ERR_ARG_SIZ)\n"));
  nchecks++;
  PetscCall(PetscOptionsClearValue(NULL, "-eas_power_cpu_idle"));
  PetscCall(PetscOptionsClearValue(NULL, "-eas_power_cpu_full"));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  char      cs[32] = "accounting";
  PetscBool isc;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-case", cs, sizeof(cs), NULL));
  PetscCall(PetscStrcmp(cs, "accounting", &isc));
  if (isc) PetscCall(CaseAccounting());
  PetscCall(PetscStrcmp(cs, "report", &isc));
  if (isc) PetscCall(CaseReport());
  PetscCall(PetscStrcmp(cs, "profile", &isc));
  if (isc) PetscCall(CaseProfile());
  PetscCall(PetscStrcmp(cs, "trace", &isc));
  if (isc) PetscCall(CaseTrace());
  PetscCall(PetscStrcmp(cs, "csv", &isc));
  if (isc) PetscCall(CaseCSV());
  PetscCall(PetscStrcmp(cs, "weights", &isc));
  if (isc) PetscCall(CaseWeights());
  PetscCall(PetscStrcmp(cs, "resume", &isc));
  if (isc) PetscCall(CaseResume());
  PetscCall(PetscStrcmp(cs, "weight_error", &isc));
  if (isc) { /* the error message names the argument */
    EasEnergyMeter m;
    PetscInt       u;
    PetscReal      w = 2;
    PetscCall(PetscOptionsGetReal(NULL, NULL, "-weight", &w, NULL));
    PetscCall(EasEnergyMeterCreate(PETSC_COMM_SELF, &m));
    PetscCall(EasEnergyMeterAddUnit(m, "cpu0", EAS_UNIT_CPU, &u));
    PetscCall(EasEnergyMeterSetUnitWeight(m, u, w));
    PetscCall(EasEnergyMeterDestroy(&m));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "case %s: %" PetscInt_FMT " checks passed\n", cs, nchecks));
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    suffix: accounting
    nsize: 1 2
    backends: none
    args: -case accounting
    expect: case accounting: 11 checks passed
  test:
    suffix: report
    backends: none
    args: -case report -eas_energy_view
    expect: report text identical
    expect: case report: 1 checks passed
  test:
    suffix: profile
    backends: none
    args: -case profile -eas_power_profile share/eas/default_profile.opts
    expect: case profile: 3 checks passed
  test:
    suffix: trace
    backends: none
    args: -case trace
    expect: case trace: 1 checks passed
  test:
    suffix: csv
    backends: none
    args: -case csv
    expect: frontier,,,alpha,: 2\.09489
    expect: case csv: 19 checks passed
  test:
    suffix: weights
    backends: none
    args: -case weights
    expect: by hand: T P_I \+ T beta P_C\(cpu\), beta = \(0.25\*5 \+ 0.75\*2\)/8 = 0.34375: 605\.? J
    expect: weighted modelled energy \(J\), by hand 8\*55 \+ 8\*0.34375\*60 = 605: 605 == 605
    expect: ^cpu-a +cpu +0.25 +5
    expect: ^cpu-b +cpu +0.75 +2
    expect: case weights: 8 checks passed
  test:
    suffix: resume
    backends: none
    args: -case resume
    expect: case resume: 8 checks passed
  test:
    suffix: weight_error
    backends: none
    args: -case weight_error -weight 1.5
    expect_error: EasEnergyMeterSetUnitWeight: weight w = 1.5 of unit cpu0 is invalid: expected w in \(0,1\]
  test:
    suffix: weight_error_zero
    backends: none
    args: -case weight_error -weight 0
    expect_error: EasEnergyMeterSetUnitWeight: weight w = 0\.? of unit cpu0 is invalid: expected w in \(0,1\]
TEST*/
