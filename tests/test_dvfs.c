static const char help[] = "DVFS by EPSA (Fanfakh) and the power budget (Ribeiro) against fake cpufreq and powercap trees the\n"
                           "test creates under -dir <path>.  Numbers derived by hand from the papers' equations:\n"
                           "  -case writable   userspace governor: EPSA's frequency lands in scaling_setspeed; restored\n"
                           "  -case readonly   0444 files: nothing written, reported as not writable, files unchanged\n"
                           "  -case nogov      no scaling_governor: scaling_max_freq is set; restored\n"
                           "  -case error      a PETSc error after the setting restores it (the error handler)\n"
                           "  -case signal     a child process sets a value and gets SIGTERM: the value is restored\n"
                           "  -case solve      -eas_dvfs apply inside EBE cg solves (EasPolicyAttachEbeFromOptions)\n"
                           "  -case budget     -eas_power_budget through powercap constraint_0_power_limit_uw; restored\n"
                           "  -case budget_cpufreq  the same with a read-only powercap: scaling_max_freq = Phi(W); restored\n"
                           "  -case ranks      2 ranks of unequal compute sharing the cores: each core gets the higher frequency\n";

#include <eas.h>
#include "policy/policyimpl.h" /* EasSysfsWrite for the signal case */
#include <errno.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char      dir[PETSC_MAX_PATH_LEN] = "/tmp/eas_test_dvfs";
static PetscInt  ncores;
static PetscInt  cores[EAS_CPU_MAX];
static PetscInt  nchecks  = 0;
static const int ORIG_MAX = 2000000, ORIG_SET = 1800000;

static PetscErrorCode WriteFile(const char path[], const char text[], mode_t mode)
{
  FILE *f;

  PetscFunctionBegin;
  (void)chmod(path, 0644);
  f = fopen(path, "w");
  PetscCheck(f, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot create %s: %s", path, strerror(errno));
  fprintf(f, "%s\n", text);
  fclose(f);
  PetscCheck(chmod(path, mode) == 0, PETSC_COMM_SELF, PETSC_ERR_SYS, "chmod %s", path);
  PetscFunctionReturn(0);
}

static PetscErrorCode ReadInt(const char file[], PetscInt c, long *v)
{
  char      path[PETSC_MAX_PATH_LEN], buf[64];
  PetscBool ok;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/cpu%" PetscInt_FMT "/cpufreq/%s", dir, c, file));
  PetscCall(EasSysfsRead(path, buf, sizeof(buf), &ok));
  PetscCheck(ok, PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "cannot read %s", path);
  *v = atol(buf);
  PetscFunctionReturn(0);
}

/* A cpufreq tree for the cores of this process: governor (or none), setspeed, max_freq, the frequency list. */
static PetscErrorCode MakeTree(const char gov[], mode_t mode)
{
  char path[PETSC_MAX_PATH_LEN], val[32];

  PetscFunctionBegin;
  PetscCall(EasCpufreqAffinity(EAS_CPU_MAX, cores, &ncores));
  PetscCheck(mkdir(dir, 0755) == 0 || errno == EEXIST, PETSC_COMM_SELF, PETSC_ERR_SYS, "mkdir %s", dir);
  for (PetscInt k = 0; k < ncores; k++) {
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/cpu%" PetscInt_FMT, dir, cores[k]));
    PetscCheck(mkdir(path, 0755) == 0 || errno == EEXIST, PETSC_COMM_SELF, PETSC_ERR_SYS, "mkdir %s", path);
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/cpu%" PetscInt_FMT "/cpufreq", dir, cores[k]));
    PetscCheck(mkdir(path, 0755) == 0 || errno == EEXIST, PETSC_COMM_SELF, PETSC_ERR_SYS, "mkdir %s", path);
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/cpu%" PetscInt_FMT "/cpufreq/scaling_governor", dir, cores[k]));
    if (gov)
      PetscCall(WriteFile(path, gov, 0644));
    else
      (void)unlink(path);
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/cpu%" PetscInt_FMT "/cpufreq/scaling_available_frequencies", dir, cores[k]));
    PetscCall(WriteFile(path, "2000000 1500000 1000000", 0444));
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/cpu%" PetscInt_FMT "/cpufreq/cpuinfo_min_freq", dir, cores[k]));
    PetscCall(WriteFile(path, "1000000", 0444));
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/cpu%" PetscInt_FMT "/cpufreq/cpuinfo_max_freq", dir, cores[k]));
    PetscCall(WriteFile(path, "2000000", 0444));
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/cpu%" PetscInt_FMT "/cpufreq/scaling_cur_freq", dir, cores[k]));
    PetscCall(WriteFile(path, "2000000", 0444));
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/cpu%" PetscInt_FMT "/cpufreq/scaling_max_freq", dir, cores[k]));
    PetscCall(PetscSNPrintf(val, sizeof(val), "%d", ORIG_MAX));
    PetscCall(WriteFile(path, val, mode));
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/cpu%" PetscInt_FMT "/cpufreq/scaling_setspeed", dir, cores[k]));
    PetscCall(PetscSNPrintf(val, sizeof(val), "%d", ORIG_SET));
    PetscCall(WriteFile(path, val, mode));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode CheckAll(const char file[], long expect, const char what[])
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < ncores; k++) {
    long v;
    PetscCall(ReadInt(file, cores[k], &v));
    PetscCheck(v == expect, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: cpu%" PetscInt_FMT " %s = %ld, expected %ld", what, cores[k], file, v, expect);
  }
  nchecks++;
  PetscFunctionReturn(0);
}

/*
  EPSA by hand (Fanfakh, one task): T_comp = 1 s, T_comm = 1 s, P_dyn = 10 W,
  P_static = 1 W, frequencies 2, 1.5, 1 GHz (S = 1, 4/3, 2):
    T(S) = T_comp S + T_comm (eq. tnew), E(S) = S^-2 P_dyn T_comp + P_static T(S) (eq. e-new)
    S = 1:   T = 2,     E = 12;                      distance 0
    S = 4/3: T = 7/3,   E = 5.625 + 7/3 = 7.958333;  P_norm = 6/7, E_norm = 0.663194; distance 0.193948
    S = 2:   T = 3,     E = 2.5 + 3 = 5.5;           P_norm = 2/3, E_norm = 0.458333; distance 0.208333
  so S_opt = 2 and F_1 = F_max T_1/(S_opt T_max) = 1 GHz (eq. fi): 1000000 kHz.
*/
static PetscErrorCode Decide(EasDvfsMode mode, EasDvfsDecision *dec)
{
  EasDvfs d;

  PetscFunctionBegin;
  PetscCall(EasDvfsCreate(PETSC_COMM_SELF, &d));
  PetscCall(EasDvfsSetMode(d, mode));
  PetscCall(EasDvfsSetCpufreqRoot(d, dir));
  PetscCall(EasDvfsSetPowers(d, 10.0, 1.0));
  PetscCall(EasDvfsDecide(d, 1.0, 1.0)); /* the frequency list from scaling_available_frequencies */
  PetscCall(EasDvfsGetDecision(d, dec));
  PetscCheck(PetscAbsReal(dec->S - 2) < 1e-12 && PetscAbsReal(dec->dist - 0.25 / 1.2) < 1e-12 && dec->Fset == 1000000, PETSC_COMM_SELF, PETSC_ERR_PLIB, "EPSA: S_opt %g, distance %.15g, F %g kHz; by hand 2, 0.208333333333333, 1000000", (double)dec->S, (double)dec->dist, (double)dec->Fset);
  PetscCheck(PetscAbsReal(dec->E1 - 12) < 1e-12 && PetscAbsReal(dec->ES - 5.5) < 1e-12, PETSC_COMM_SELF, PETSC_ERR_PLIB, "EPSA energies %g, %g; by hand 12, 5.5 J", (double)dec->E1, (double)dec->ES);
  nchecks += 2;
  if (mode == EAS_DVFS_APPLY) { /* the setting is in place until the restore */
    long v;
    PetscCall(ReadInt(dec->how[8] == 's' ? "scaling_setspeed" : "scaling_max_freq", cores[0], &v));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "applied: %s, %" PetscInt_FMT " core(s), %" PetscInt_FMT " read-only, cpu%" PetscInt_FMT " now %ld kHz\n", dec->how, dec->napplied, dec->nreadonly, cores[0], v));
  }
  PetscCall(EasDvfsRestore(d));
  PetscCall(EasDvfsDestroy(&d));
  PetscFunctionReturn(0);
}

static PetscErrorCode CaseWritable(void)
{
  EasDvfsDecision dec;

  PetscFunctionBegin;
  PetscCall(MakeTree("userspace", 0644));
  PetscCall(Decide(EAS_DVFS_APPLY, &dec));
  PetscCheck(dec.napplied == ncores && !strcmp(dec.how, "scaling_setspeed (userspace governor)"), PETSC_COMM_SELF, PETSC_ERR_PLIB, "expected %" PetscInt_FMT " cores set through scaling_setspeed, got %" PetscInt_FMT " (%s)", ncores, dec.napplied, dec.how);
  PetscCall(CheckAll("scaling_setspeed", ORIG_SET, "restored"));
  PetscCall(CheckAll("scaling_max_freq", ORIG_MAX, "untouched"));
  PetscFunctionReturn(0);
}

static PetscErrorCode CaseReadonly(void)
{
  EasDvfsDecision dec;

  PetscFunctionBegin;
  PetscCall(MakeTree("userspace", 0444));
  PetscCall(Decide(EAS_DVFS_APPLY, &dec));
  PetscCheck(dec.napplied == 0 && dec.nreadonly == ncores, PETSC_COMM_SELF, PETSC_ERR_PLIB, "read-only tree: %" PetscInt_FMT " set, %" PetscInt_FMT " read-only; expected 0 and %" PetscInt_FMT, dec.napplied, dec.nreadonly, ncores);
  PetscCall(CheckAll("scaling_setspeed", ORIG_SET, "read-only"));
  PetscCall(CheckAll("scaling_max_freq", ORIG_MAX, "read-only"));
  PetscFunctionReturn(0);
}

static PetscErrorCode CaseNoGovernor(void)
{
  EasDvfsDecision dec;

  PetscFunctionBegin;
  PetscCall(MakeTree(NULL, 0644));
  PetscCall(Decide(EAS_DVFS_APPLY, &dec));
  PetscCheck(dec.napplied == ncores && strstr(dec.how, "scaling_max_freq (no governor file)"), PETSC_COMM_SELF, PETSC_ERR_PLIB, "no governor: expected scaling_max_freq, got %s", dec.how);
  PetscCall(CheckAll("scaling_max_freq", ORIG_MAX, "restored"));
  PetscCall(CheckAll("scaling_setspeed", ORIG_SET, "untouched"));
  PetscFunctionReturn(0);
}

/* An error after the setting: the error handler the registry pushed restores before the traceback. */
static PetscErrorCode CaseError(void)
{
  EasDvfs        d;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(MakeTree("userspace", 0644));
  PetscCall(EasDvfsCreate(PETSC_COMM_SELF, &d));
  PetscCall(EasDvfsSetMode(d, EAS_DVFS_APPLY));
  PetscCall(EasDvfsSetCpufreqRoot(d, dir));
  PetscCall(EasDvfsSetPowers(d, 10.0, 1.0));
  PetscCall(EasDvfsDecide(d, 1.0, 1.0));
  PetscCall(CheckAll("scaling_setspeed", 1000000, "set"));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "set to 1000000 kHz; now an error (the error message below is expected):\n"));
  ierr = EasDvfsSetFrequencies(d, 0, NULL); /* an invalid call: PetscError -> the restore handler */
  PetscCheck(ierr, PETSC_COMM_SELF, PETSC_ERR_PLIB, "the invalid call did not fail");
  PetscCall(CheckAll("scaling_setspeed", ORIG_SET, "restored by the error handler"));
  /* on stderr, the stream of the error message above: mpirun forwards stdout and stderr separately and may interleave them mid-line */
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, PETSC_STDERR, "after the error: scaling_setspeed %d (restored)\n", ORIG_SET));
  PetscCall(EasDvfsDestroy(&d));
  PetscFunctionReturn(0);
}

/* A child process writes through the registry and is sent SIGTERM: the handler restores, then the child dies of the signal. */
static PetscErrorCode CaseSignal(void)
{
  pid_t pid;
  int   status;
  char  path[PETSC_MAX_PATH_LEN];

  PetscFunctionBegin;
  PetscCall(MakeTree("userspace", 0644));
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/cpu%" PetscInt_FMT "/cpufreq/scaling_setspeed", dir, cores[0]));
  pid = fork();
  PetscCheck(pid >= 0, PETSC_COMM_SELF, PETSC_ERR_SYS, "fork failed");
  if (pid == 0) { /* the child: no MPI */
    PetscInt  owner;
    PetscBool ok;
    char      why[256];
    if (EasSysfsNewOwner(&owner) || EasSysfsWrite(owner, path, "1000000", &ok, why, sizeof(why)) || !ok) _exit(3);
    raise(SIGTERM);
    _exit(4); /* not reached: SIGTERM's default action */
  }
  PetscCheck(waitpid(pid, &status, 0) == pid, PETSC_COMM_SELF, PETSC_ERR_SYS, "waitpid failed");
  PetscCheck(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM, PETSC_COMM_SELF, PETSC_ERR_PLIB, "the child did not die of SIGTERM (status %d)", status);
  {
    long v;
    PetscCall(ReadInt("scaling_setspeed", cores[0], &v));
    PetscCheck(v == ORIG_SET, PETSC_COMM_SELF, PETSC_ERR_PLIB, "after SIGTERM: scaling_setspeed %ld, expected the original %d", v, ORIG_SET);
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "child killed by SIGTERM after setting 1000000 kHz: scaling_setspeed back to %d\n", ORIG_SET));
  nchecks++;
  PetscFunctionReturn(0);
}

/* -eas_dvfs apply inside the Krylov solves of an EBE operator: set after the warm-up iterations, restored at the end. */
static PetscErrorCode CaseSolve(void)
{
  EasEbe ebe;
  EasKsp ksp;
  EasVec b, x;

  PetscFunctionBegin;
  PetscCall(MakeTree("userspace", 0644));
  PetscCall(PetscOptionsSetValue(NULL, "-eas_cpufreq_root", dir));
  PetscCall(EasEbeCreate(PETSC_COMM_WORLD, &ebe));
  PetscCall(EasEbeSetFromMesh(ebe, EAS_EBE_POISSON, 1, 4, 4, 4));
  PetscCall(EasEbeSetFromOptions(ebe));
  PetscCall(EasPolicyAttachEbeFromOptions(ebe));
  PetscCall(EasEbeSetUp(ebe));
  PetscCall(EasEbeCreateVecs(ebe, &b, &x));
  PetscCall(EasVecSet(b, 1.0));
  PetscCall(EasKspCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(EasKspSetType(ksp, EAS_CG));
  PetscCall(EasKspSetOperatorEbe(ksp, ebe));
  PetscCall(EasKspSetFromOptions(ksp));
  PetscCall(EasKspSolve(ksp, b, x));
  PetscCall(CheckAll("scaling_setspeed", ORIG_SET, "restored after the solve"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "after the solve: scaling_setspeed back to %d\n", ORIG_SET));
  PetscCall(EasVecDestroy(&b));
  PetscCall(EasVecDestroy(&x));
  PetscCall(EasKspDestroy(&ksp));
  PetscCall(EasEbeDestroy(&ebe));
  PetscFunctionReturn(0);
}

/*
  The power budget by hand (Ribeiro): one node, TDP 100 W from powercap
  (two packages of 60 and 40 W max), f from 1 to 2 GHz, budget 80 W,
  alpha = (0.5, 0.5).  UDP: s = 80/100, f_cap = Phi(80 W) = 2 GHz 80/100 =
  1.6 GHz (eq. 5.9).  The measured window 1 s at 2 GHz: T(W) = 2/Phi(W) s
  = 100/W s (eqs. 5.5, 5.6), W in [50, 100] W.  Constraints: W <= 80 and
  T(W) <= T(W^cap) = 1.25 s, i.e. W >= 80: W = 80 W, T = 1.25 s, the
  packages get 48 and 32 W = 48000000 and 32000000 uW.
*/
static PetscErrorCode CaseBudget(PetscBool powercap_writable)
{
  EasPowerBudget         pb;
  EasPowerBudgetDecision dec;
  char                   rapl[PETSC_MAX_PATH_LEN], path[PETSC_MAX_PATH_LEN];
  const char            *pk[2]     = {"intel-rapl:0", "intel-rapl:1"};
  const char            *maxw[2]   = {"60000000", "40000000"};
  const long             expect[2] = {48000000, 32000000};

  PetscFunctionBegin;
  PetscCall(MakeTree("userspace", 0644));
  PetscCall(PetscSNPrintf(rapl, sizeof(rapl), "%s/powercap", dir));
  PetscCheck(mkdir(rapl, 0755) == 0 || errno == EEXIST, PETSC_COMM_SELF, PETSC_ERR_SYS, "mkdir %s", rapl);
  for (PetscInt k = 0; k < 2; k++) {
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/%s", rapl, pk[k]));
    PetscCheck(mkdir(path, 0755) == 0 || errno == EEXIST, PETSC_COMM_SELF, PETSC_ERR_SYS, "mkdir %s", path);
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/%s/constraint_0_max_power_uw", rapl, pk[k]));
    PetscCall(WriteFile(path, maxw[k], 0444));
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/%s/constraint_0_power_limit_uw", rapl, pk[k]));
    PetscCall(WriteFile(path, maxw[k], powercap_writable ? 0644 : 0444));
  }
  PetscCall(EasPowerBudgetCreate(PETSC_COMM_SELF, &pb));
  PetscCall(PetscOptionsSetValue(NULL, "-eas_rapl_root", rapl));
  PetscCall(PetscOptionsSetValue(NULL, "-eas_cpufreq_root", dir));
  PetscCall(PetscOptionsSetValue(NULL, "-eas_power_budget", "80"));
  PetscCall(EasPowerBudgetSetFromOptions(pb));
  PetscCall(EasPowerBudgetDecide(pb, 1.0, PETSC_FALSE));
  PetscCall(EasPowerBudgetGetDecision(pb, &dec));
  PetscCheck(PetscAbsReal(dec.W - 80) < 1e-6 && PetscAbsReal(dec.res.time - 1.25) < 1e-6 && PetscAbsReal(dec.f - 1600000) < 1e-3, PETSC_COMM_SELF, PETSC_ERR_PLIB, "budget: W %.9g W, T %.9g s, f %.9g kHz; by hand 80 W, 1.25 s, 1600000 kHz", (double)dec.W, (double)dec.res.time, (double)dec.f);
  if (powercap_writable) {
    for (PetscInt k = 0; k < 2; k++) {
      char      buf[64];
      PetscBool ok;
      PetscCall(PetscSNPrintf(path, sizeof(path), "%s/%s/constraint_0_power_limit_uw", rapl, pk[k]));
      PetscCall(EasSysfsRead(path, buf, sizeof(buf), &ok));
      PetscCheck(ok && atol(buf) == expect[k], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: %s uW, expected %ld", path, buf, expect[k]);
    }
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "budget 80 W: W = %g W, T = %g s, f = %g kHz; packages 48000000 and 32000000 uW (%s)\n", (double)dec.W, (double)dec.res.time, (double)dec.f, dec.how));
  } else { /* read-only powercap: the frequency Phi(W) = 1.6 GHz through cpufreq */
    PetscCall(CheckAll("scaling_max_freq", 1600000, "budget through cpufreq"));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "budget 80 W, powercap read-only: scaling_max_freq = Phi(80 W) = 1600000 kHz (%s)\n", dec.how));
  }
  PetscCall(EasPowerBudgetRestore(pb));
  for (PetscInt k = 0; k < 2; k++) {
    char      buf[64];
    PetscBool ok;
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/%s/constraint_0_power_limit_uw", rapl, pk[k]));
    PetscCall(EasSysfsRead(path, buf, sizeof(buf), &ok));
    PetscCheck(ok && !strcmp(buf, maxw[k]), PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: %s after the restore, expected %s", path, buf, maxw[k]);
  }
  PetscCall(CheckAll("scaling_max_freq", ORIG_MAX, "restored (or untouched)"));
  PetscCall(PetscOptionsClearValue(NULL, "-eas_rapl_root"));
  PetscCall(PetscOptionsClearValue(NULL, "-eas_cpufreq_root"));
  PetscCall(PetscOptionsClearValue(NULL, "-eas_power_budget"));
  PetscCall(EasPowerBudgetDestroy(&pb));
  nchecks += 3;
  PetscFunctionReturn(0);
}

/*
  EPSA on 2 ranks by hand: T_comp = (1, 0.5) s, T_comm = (1, 1) s, P_dyn = 10 W,
  P_static = 1 W per rank, frequencies 2, 1.5, 1 GHz:
    S = 1:   T = 2,   E = 10 (1 + 0.5) + 1 T 2 = 19
    S = 4/3: T = 7/3, E = 0.5625 15 + 14/3 = 13.104167; P_norm = 6/7, E_norm = 0.689693; distance 0.167450
    S = 2:   T = 3,   E = 3.75 + 6 = 9.75;            P_norm = 2/3, E_norm = 0.513158; distance 0.153509
  S_opt = 4/3; F_0 = 2 GHz 1/(4/3) = 1.5 GHz, F_1 = 2 GHz 0.5/(4/3) = 0.75 GHz -> the lowest available
  >= 0.75 GHz: 1 GHz.  Both ranks run on the same cores here (no binding): each core gets the higher,
  1.5 GHz, so that no rank is slowed more than EPSA asks.
*/
static PetscErrorCode CaseRanks(void)
{
  EasDvfs         d;
  EasDvfsDecision dec;
  PetscMPIInt     rank;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (!rank) PetscCall(MakeTree("userspace", 0644));
  PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  PetscCall(EasCpufreqAffinity(EAS_CPU_MAX, cores, &ncores));
  PetscCall(EasDvfsCreate(PETSC_COMM_WORLD, &d));
  PetscCall(EasDvfsSetMode(d, EAS_DVFS_APPLY));
  PetscCall(EasDvfsSetCpufreqRoot(d, dir));
  PetscCall(EasDvfsSetPowers(d, 10.0, 1.0));
  PetscCall(EasDvfsDecide(d, rank ? 0.5 : 1.0, 1.0));
  PetscCall(EasDvfsGetDecision(d, &dec));
  PetscCheck(PetscAbsReal(dec.S - 4.0 / 3.0) < 1e-12 && PetscAbsReal(dec.Fset - (rank ? 1000000 : 1500000)) < 1e-6 && PetscAbsReal(dec.F - (rank ? 750000 : 1500000)) < 1e-6, PETSC_COMM_SELF, PETSC_ERR_PLIB, "rank %d: S_opt %g, F_i %g -> %g kHz; by hand 4/3, %d -> %d", (int)rank, (double)dec.S, (double)dec.F, (double)dec.Fset, rank ? 750000 : 1500000, rank ? 1000000 : 1500000);
  PetscCheck(PetscAbsReal(dec.E1 - 19) < 1e-12 && PetscAbsReal(dec.ES - (0.5625 * 15 + 14.0 / 3)) < 1e-12, PETSC_COMM_SELF, PETSC_ERR_PLIB, "EPSA energies %g, %g; by hand 19, 13.1041667 J", (double)dec.E1, (double)dec.ES);
  PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  if (!rank) PetscCall(CheckAll("scaling_setspeed", 1500000, "shared cores: the higher frequency"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "2 ranks: S_opt 4/3, rank 0 1500000 kHz, rank 1 1000000 kHz; shared cores set to 1500000 kHz (by hand)\n"));
  PetscCall(EasDvfsRestore(d));
  if (!rank) PetscCall(CheckAll("scaling_setspeed", ORIG_SET, "restored"));
  PetscCall(EasDvfsDestroy(&d));
  nchecks += 3;
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  char      cs[32] = "writable";
  PetscBool is;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-case", cs, sizeof(cs), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-dir", dir, sizeof(dir), NULL));
  PetscCall(PetscStrcmp(cs, "writable", &is));
  if (is) PetscCall(CaseWritable());
  PetscCall(PetscStrcmp(cs, "readonly", &is));
  if (is) PetscCall(CaseReadonly());
  PetscCall(PetscStrcmp(cs, "nogov", &is));
  if (is) PetscCall(CaseNoGovernor());
  PetscCall(PetscStrcmp(cs, "error", &is));
  if (is) PetscCall(CaseError());
  PetscCall(PetscStrcmp(cs, "signal", &is));
  if (is) PetscCall(CaseSignal());
  PetscCall(PetscStrcmp(cs, "solve", &is));
  if (is) PetscCall(CaseSolve());
  PetscCall(PetscStrcmp(cs, "budget", &is));
  if (is) PetscCall(CaseBudget(PETSC_TRUE));
  PetscCall(PetscStrcmp(cs, "budget_cpufreq", &is));
  if (is) PetscCall(CaseBudget(PETSC_FALSE));
  PetscCall(PetscStrcmp(cs, "ranks", &is));
  if (is) PetscCall(CaseRanks());
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "case %s: %" PetscInt_FMT " checks passed\n", cs, nchecks));
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    suffix: writable
    backends: none
    args: -case writable -dir @TMP@/dvfs
    expect: S_opt = 2 \(F_max 2000000 kHz / F_new 1000000 kHz\), distance P_norm - E_norm = 0.2083
    expect: ^applied: scaling_setspeed \(userspace governor\), [1-9][0-9]* core\(s\), 0 read-only, cpu[0-9]+ now 1000000 kHz
    expect: cpufreq value\(s\) restored
    expect: case writable: [1-9][0-9]* checks passed
  test:
    suffix: readonly
    backends: none
    args: -case readonly -dir @TMP@/dvfs
    expect: -eas_dvfs apply: 0 core\(s\) set; [1-9][0-9]* not writable \(.*read-only \(mode 444\)\): the frequencies are only reported
    expect: case readonly: [1-9][0-9]* checks passed
  test:
    suffix: nogov
    backends: none
    args: -case nogov -dir @TMP@/dvfs
    expect: ^applied: scaling_max_freq \(no governor file\)
    expect: case nogov: [1-9][0-9]* checks passed
  test:
    suffix: error
    backends: none
    args: -case error -dir @TMP@/dvfs
    expect: -eas_dvfs_freqs: 0 frequencies given
    expect: ^after the error: scaling_setspeed 1800000 \(restored\)
    expect: case error: [1-9][0-9]* checks passed
  test:
    suffix: signal
    backends: none
    args: -case signal -dir @TMP@/dvfs
    expect: ^child killed by SIGTERM after setting 1000000 kHz: scaling_setspeed back to 1800000
  test:
    suffix: solve
    backends: /cpu/serial
    args: -case solve -dir @TMP@/dvfs -eas_dvfs apply -eas_dvfs_warmup 3 -eas_sensor model -eas_energy_view
    expect: ^eas: -eas_dvfs apply: EPSA \(Fanfakh\) over 1 rank\(s\), per iteration
    expect: ^eas: -eas_dvfs apply: [1-9][0-9]* core\(s\) set through scaling_setspeed \(userspace governor\); restored at the end
    expect: DVFS \(EPSA, Fanfakh\): S_opt [0-9.e+-]+; predicted saving [0-9.e+-]+ J .*measured saving n/a \(no sensor of the CPU's energy, RAPL
    expect: ^after the solve: scaling_setspeed back to 1800000
  test:
    suffix: budget
    backends: none
    args: -case budget -dir @TMP@/dvfs
    expect: ^budget 80 W: W = 80\.? W, T = 1.25 s, f = 1.6e\+06 kHz; packages 48000000 and 32000000 uW \(powercap constraint_0_power_limit_uw \(2 package\(s\)\)\)
    expect: limit\(s\) restored
  test:
    suffix: budget_cpufreq
    backends: none
    args: -case budget_cpufreq -dir @TMP@/dvfs
    expect: ^budget 80 W, powercap read-only: scaling_max_freq = Phi\(80 W\) = 1600000 kHz \(cpufreq scaling_max_freq \([1-9][0-9]* core\(s\)\)\)
    expect: limit\(s\) restored
  test:
    suffix: ranks
    nsize: 2
    backends: none
    args: -case ranks -dir @TMP@/dvfs
    expect: F_i = F_max T_i/\(S_opt T_max\) \(eq. fi\) -> available frequency: rank 0 1500000 -> 1500000 kHz; rank 1 750000 -> 1000000 kHz
    expect: ^2 ranks: S_opt 4/3, rank 0 1500000 kHz, rank 1 1000000 kHz; shared cores set to 1500000 kHz \(by hand\)
    expect: cpufreq value\(s\) restored
TEST*/
