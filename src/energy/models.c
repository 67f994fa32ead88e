/*
  The papers' energy and time models as pure functions (see include/eas/energy.h
  for the documentation of every function, docs/models.md for the equations
  and docs/references.md for the papers).  No global state, no I/O.
*/
#include <eas/energy.h>

/* ---------------------------------------------------------- validation */

#define EasCheckNull(p, name) PetscCheck((p) != NULL, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "%s must not be NULL", name)
#define EasCheckSize(n, name) \
  PetscCheck((n) > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "%s = %" PetscInt_FMT " must be > 0 (an empty array is not allowed)", name, (PetscInt)(n))
#define EasCheckPower(v, name) \
  PetscCheck(!PetscIsInfOrNanReal(v) && (v) >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s = %g must be a finite power >= 0 W", name, (double)(v))
#define EasCheckEnergy(v, name) \
  PetscCheck(!PetscIsInfOrNanReal(v) && (v) >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s = %g must be a finite energy >= 0 J", name, (double)(v))
#define EasCheckBeta(v, name) \
  PetscCheck(!PetscIsInfOrNanReal(v) && (v) >= 0 && (v) <= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s = %g must lie in [0,1]", name, (double)(v))
#define EasCheckTime(v, name) \
  PetscCheck(!PetscIsInfOrNanReal(v) && (v) > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s = %g must be a finite time > 0 s", name, (double)(v))
#define EasCheckTimeNonNeg(v, name) \
  PetscCheck(!PetscIsInfOrNanReal(v) && (v) >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s = %g must be a finite time >= 0 s", name, (double)(v))
#define EasCheckPositive(v, name) \
  PetscCheck(!PetscIsInfOrNanReal(v) && (v) > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s = %g must be finite and > 0", name, (double)(v))
#define EasCheckNonNeg(v, name) \
  PetscCheck(!PetscIsInfOrNanReal(v) && (v) >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s = %g must be finite and >= 0", name, (double)(v))

static PetscErrorCode CheckPowerArray(PetscInt n, const PetscReal a[], const char name[])
{
  PetscFunctionBegin;
  EasCheckNull(a, name);
  for (PetscInt i = 0; i < n; i++)
    PetscCheck(!PetscIsInfOrNanReal(a[i]) && a[i] >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s[%" PetscInt_FMT "] = %g must be a finite power >= 0 W", name, i, (double)a[i]);
  PetscFunctionReturn(0);
}

static PetscErrorCode CheckBetaArray(PetscInt n, const PetscReal a[], const char name[])
{
  PetscFunctionBegin;
  EasCheckNull(a, name);
  for (PetscInt i = 0; i < n; i++)
    PetscCheck(!PetscIsInfOrNanReal(a[i]) && a[i] >= 0 && a[i] <= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s[%" PetscInt_FMT "] = %g must lie in [0,1]", name, i, (double)a[i]);
  PetscFunctionReturn(0);
}

static PetscErrorCode CheckTimeArray(PetscInt n, const PetscReal a[], PetscBool allowZero, const char name[])
{
  PetscFunctionBegin;
  EasCheckNull(a, name);
  for (PetscInt i = 0; i < n; i++) {
    PetscCheck(!PetscIsInfOrNanReal(a[i]) && a[i] >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s[%" PetscInt_FMT "] = %g must be a finite time >= 0 s", name, i, (double)a[i]);
    PetscCheck(allowZero || a[i] > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s[%" PetscInt_FMT "] = %g must be a time > 0 s", name, i, (double)a[i]);
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode CheckCountArray(PetscInt n, const PetscInt a[], const char name[])
{
  PetscFunctionBegin;
  EasCheckNull(a, name);
  for (PetscInt i = 0; i < n; i++) PetscCheck(a[i] >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s[%" PetscInt_FMT "] = %" PetscInt_FMT " must be >= 0", name, i, a[i]);
  PetscFunctionReturn(0);
}

static PetscReal SumArray(PetscInt n, const PetscReal a[])
{
  PetscReal s = 0;
  for (PetscInt i = 0; i < n; i++) s += a[i];
  return s;
}

/* ============================================================ Vialle et al. */

PetscErrorCode EasModelNodeEnergy(PetscReal T, PetscReal Pidle, PetscInt n, const PetscReal Pactive[], const PetscReal beta[], PetscReal *E)
{
  PetscReal p;

  PetscFunctionBegin;
  EasCheckTime(T, "T");
  EasCheckPower(Pidle, "Pidle");
  EasCheckSize(n, "n (number of units)");
  PetscCall(CheckPowerArray(n, Pactive, "Pactive"));
  PetscCall(CheckBetaArray(n, beta, "beta"));
  EasCheckNull(E, "E");
  p = Pidle;
  for (PetscInt i = 0; i < n; i++) p += beta[i] * Pactive[i]; /* Vialle et al. eq. (1.16) */
  *E = T * p;                                                 /* Vialle et al. eq. (1.16) */
  PetscFunctionReturn(0);
}

PetscErrorCode EasModelProfileEnergy(const EasPowerProfile *prof, PetscReal T, PetscReal betaCpu, PetscReal betaGpu, PetscReal *E)
{
  PetscReal Pidle, Pactive[2], beta[2];

  PetscFunctionBegin;
  EasCheckNull(prof, "prof");
  EasCheckPower(prof->cpu_idle, "prof->cpu_idle");
  EasCheckPower(prof->cpu_full, "prof->cpu_full");
  EasCheckPower(prof->gpu_idle, "prof->gpu_idle");
  EasCheckPower(prof->gpu_full, "prof->gpu_full");
  EasCheckPower(prof->dram, "prof->dram");
  EasCheckPower(prof->switch_, "prof->switch_");
  PetscCheck(prof->cpu_full >= prof->cpu_idle, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "prof->cpu_full = %g must be >= prof->cpu_idle = %g", (double)prof->cpu_full, (double)prof->cpu_idle);
  PetscCheck(prof->gpu_full >= prof->gpu_idle, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "prof->gpu_full = %g must be >= prof->gpu_idle = %g", (double)prof->gpu_full, (double)prof->gpu_idle);
  EasCheckBeta(betaCpu, "betaCpu");
  EasCheckBeta(betaGpu, "betaGpu");
  Pidle      = prof->cpu_idle + prof->gpu_idle + prof->dram; /* P_I of Vialle et al. eq. (1.16) */
  Pactive[0] = prof->cpu_full - prof->cpu_idle;              /* P_C(cpu) = P_F - P_I, Vialle et al. sec. 1.5.3 */
  Pactive[1] = prof->gpu_full - prof->gpu_idle;              /* P_C(gpu) */
  beta[0]    = betaCpu;
  beta[1]    = betaGpu;
  PetscCall(EasModelNodeEnergy(T, Pidle, 2, Pactive, beta, E)); /* Vialle et al. eq. (1.16) */
  PetscFunctionReturn(0);
}

/* A rank's (or any part's) share of its node's energy: the idle power split
   by idle_share, the active powers by the part's own weighted busy
   fractions; summed over the parts of a node it is Vialle et al. eq. (1.16). */
PetscErrorCode EasModelProfileShareEnergy(const EasPowerProfile *prof, PetscReal T, PetscReal idle_share, PetscReal betaCpu, PetscReal betaGpu, PetscReal *E)
{
  PetscReal E0, E1;

  PetscFunctionBegin;
  PetscCheck(idle_share > 0 && idle_share <= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "idle_share = %g must be in (0,1]", (double)idle_share);
  EasCheckNull(E, "E");
  PetscCall(EasModelProfileEnergy(prof, T, 0.0, 0.0, &E0));         /* T P_I */
  PetscCall(EasModelProfileEnergy(prof, T, betaCpu, betaGpu, &E1)); /* T (P_I + sum_u beta_u P_C(u)), Vialle et al. eq. (1.16) */
  *E = idle_share * E0 + (E1 - E0);
  PetscFunctionReturn(0);
}

PetscErrorCode EasModelNodeFrontier(PetscReal PF_A, PetscReal PF_B, PetscReal *alpha)
{
  PetscFunctionBegin;
  EasCheckPower(PF_A, "PF_A");
  EasCheckPower(PF_B, "PF_B");
  PetscCheck(PF_B > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "PF_B = %g must be a power > 0 W", (double)PF_B);
  EasCheckNull(alpha, "alpha");
  *alpha = PF_A / PF_B; /* Vialle et al. eq. (1.24), (1.25) */
  PetscFunctionReturn(0);
}

PetscErrorCode EasModelNodeFrontierBeta(PetscReal PF_gpu, PetscReal PF_cpu, PetscReal betaGpu, PetscReal *alpha)
{
  PetscFunctionBegin;
  EasCheckPower(PF_gpu, "PF_gpu");
  EasCheckPower(PF_cpu, "PF_cpu");
  PetscCheck(PF_cpu > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "PF_cpu = %g must be a power > 0 W", (double)PF_cpu);
  EasCheckBeta(betaGpu, "betaGpu");
  EasCheckNull(alpha, "alpha");
  *alpha = (betaGpu * PF_gpu + (1 - betaGpu) * PF_cpu) / PF_cpu; /* Vialle et al. eq. (1.46) */
  PetscFunctionReturn(0);
}

PetscErrorCode EasModelEstimatedAlpha(PetscInt n, const PetscReal PF_gpu[], const PetscReal PF_cpu[], const PetscReal betaGpu[], PetscReal alpha[])
{
  PetscFunctionBegin;
  EasCheckSize(n, "n (number of nodes)");
  PetscCall(CheckPowerArray(n, PF_gpu, "PF_gpu"));
  PetscCall(CheckPowerArray(n, PF_cpu, "PF_cpu"));
  if (betaGpu) PetscCall(CheckBetaArray(n, betaGpu, "betaGpu"));
  EasCheckNull(alpha, "alpha");
  for (PetscInt i = 0; i < n; i++) {
    PetscCheck(PF_cpu[i] > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "PF_cpu[%" PetscInt_FMT "] = %g must be a power > 0 W", i, (double)PF_cpu[i]);
    if (betaGpu)
      PetscCall(EasModelNodeFrontierBeta(PF_gpu[i], PF_cpu[i], betaGpu[i], &alpha[i])); /* Vialle et al. eq. (1.46) */
    else
      PetscCall(EasModelNodeFrontier(PF_gpu[i], PF_cpu[i], &alpha[i])); /* Vialle et al. eq. (1.25) */
  }
  PetscFunctionReturn(0);
}

PetscErrorCode EasModelSlowDecayBeta(PetscReal betaMeasured, PetscReal *beta)
{
  PetscFunctionBegin;
  EasCheckBeta(betaMeasured, "betaMeasured");
  EasCheckNull(beta, "beta");
  *beta = 0.5 * (betaMeasured + 1); /* Vialle et al. eq. (1.48), sec. 1.8.2 */
  PetscFunctionReturn(0);
}

static PetscErrorCode CheckCluster(const EasClusterPower *c, const char name[])
{
  PetscFunctionBegin;
  EasCheckNull(c, name);
  PetscCheck(c->n > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "%s->n = %" PetscInt_FMT " must be > 0 (an empty array is not allowed)", name, c->n);
  PetscCheck(!PetscIsInfOrNanReal(c->beta) && c->beta >= 0 && c->beta <= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s->beta = %g must lie in [0,1]", name, (double)c->beta);
  PetscCall(CheckPowerArray(c->n, c->full, "full"));
  PetscCheck(c->idle || c->beta == 1, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "%s->idle may be NULL only when beta == 1 (beta = %g)", name, (double)c->beta);
  if (c->idle) PetscCall(CheckPowerArray(c->n, c->idle, "idle"));
  PetscFunctionReturn(0);
}

PetscErrorCode EasModelClusterAveragePower(const EasClusterPower *c, PetscReal Psw, PetscReal *P)
{
  PetscReal sfull, sidle;

  PetscFunctionBegin;
  PetscCall(CheckCluster(c, "c"));
  EasCheckPower(Psw, "Psw");
  EasCheckNull(P, "P");
  sfull = SumArray(c->n, c->full);                       /* sum_i P_F^i */
  sidle = c->idle ? SumArray(c->n, c->idle) : 0.0;       /* sum_i P_I^i */
  *P    = c->beta * sfull + (1 - c->beta) * sidle + Psw; /* Vialle et al. eq. (1.34); (1.26) for beta = 1 */
  PetscFunctionReturn(0);
}

PetscErrorCode EasModelClusterFrontierAsync(PetscInt nA, const PetscReal PF_A[], PetscInt nB, const PetscReal PF_B[], PetscReal Psw, PetscReal *alpha)
{
  PetscReal num, den;

  PetscFunctionBegin;
  EasCheckSize(nA, "nA (nodes of cluster A)");
  EasCheckSize(nB, "nB (nodes of cluster B)");
  PetscCall(CheckPowerArray(nA, PF_A, "PF_A"));
  PetscCall(CheckPowerArray(nB, PF_B, "PF_B"));
  EasCheckPower(Psw, "Psw");
  EasCheckNull(alpha, "alpha");
  num = SumArray(nA, PF_A) + Psw; /* Vialle et al. eq. (1.28) numerator */
  den = SumArray(nB, PF_B) + Psw; /* Vialle et al. eq. (1.28) denominator */
  PetscCheck(den > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "sum(PF_B) + Psw = %g must be > 0", (double)den);
  *alpha = num / den; /* Vialle et al. eq. (1.28), (1.29) */
  PetscFunctionReturn(0);
}

PetscErrorCode EasModelClusterFrontierSync(const EasClusterPower *A, const EasClusterPower *B, PetscReal Psw, PetscReal *alpha)
{
  PetscReal PA, PB;

  PetscFunctionBegin;
  EasCheckNull(alpha, "alpha");
  PetscCall(EasModelClusterAveragePower(A, Psw, &PA)); /* Vialle et al. eq. (1.36) numerator */
  PetscCall(EasModelClusterAveragePower(B, Psw, &PB)); /* Vialle et al. eq. (1.36) denominator */
  PetscCheck(PB > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "average power of configuration B = %g must be > 0", (double)PB);
  *alpha = PA / PB; /* Vialle et al. eq. (1.36), (1.37) */
  PetscFunctionReturn(0);
}

PetscErrorCode EasModelClusterFrontierSplit(PetscInt n, PetscInt nact, const PetscReal *const full[], const PetscReal beta[], const PetscReal idle[], const EasClusterPower *B, PetscReal Psw, PetscReal *alpha)
{
  PetscReal num = 0, bsum = 0, gamma;

  PetscFunctionBegin;
  EasCheckSize(n, "n (number of nodes)");
  EasCheckSize(nact, "nact (number of activity kinds)");
  EasCheckNull(full, "full");
  PetscCall(CheckBetaArray(nact, beta, "beta"));
  PetscCall(CheckPowerArray(n, idle, "idle"));
  EasCheckPower(Psw, "Psw");
  EasCheckNull(alpha, "alpha");
  for (PetscInt k = 0; k < nact; k++) {
    PetscCall(CheckPowerArray(n, full[k], "full[k]"));
    num += beta[k] * SumArray(n, full[k]); /* Vialle et al. sec. 1.8.4: beta(GPU) sum P_F(GPU) + beta(CPUo) sum P_F(CPU1) */
    bsum += beta[k];
  }
  num += (1 - bsum) * SumArray(n, idle) + Psw;            /* Vialle et al. sec. 1.8.4: (1 - beta(GPU) - beta(CPUo)) sum P_I + P_sw */
  PetscCall(EasModelClusterAveragePower(B, Psw, &gamma)); /* Vialle et al. sec. 1.8.4: gamma */
  PetscCheck(gamma > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "gamma (average power of configuration B) = %g must be > 0", (double)gamma);
  *alpha = num / gamma; /* Vialle et al. sec. 1.8.4, alpha > (...)/gamma */
  PetscFunctionReturn(0);
}

PetscErrorCode EasModelContextFrontier(PetscReal Pbar1, PetscReal Pbar2, PetscReal *alpha)
{
  PetscFunctionBegin;
  EasCheckPower(Pbar1, "Pbar1");
  EasCheckPower(Pbar2, "Pbar2");
  PetscCheck(Pbar1 > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Pbar1 = %g must be a power > 0 W", (double)Pbar1);
  EasCheckNull(alpha, "alpha");
  *alpha = Pbar2 / Pbar1; /* Vialle et al. eq. (1.49), (1.50) */
  PetscFunctionReturn(0);
}

/* ============================================================ Lang-Rünger */

static PetscErrorCode CheckLangRunger(const EasLangRungerParams *prm)
{
  PetscFunctionBegin;
  EasCheckNull(prm, "prm");
  EasCheckEnergy(prm->E_el_cpu, "prm->E_el_cpu");
  EasCheckEnergy(prm->E_el_dram, "prm->E_el_dram");
  EasCheckEnergy(prm->E_el_gpu, "prm->E_el_gpu");
  EasCheckEnergy(prm->E_el_copy, "prm->E_el_copy");
  EasCheckPower(prm->P_idle_cpu, "prm->P_idle_cpu");
  EasCheckPower(prm->P_idle_dram, "prm->P_idle_dram");
  EasCheckPower(prm->P_idle_gpu, "prm->P_idle_gpu");
  EasCheckPositive(prm->l, "prm->l (CG iterations)");
  PetscFunctionReturn(0);
}

PetscErrorCode EasModelLangRungerEnergyPerElement(const EasLangRungerParams *prm, PetscReal *EcpuStar, PetscReal *EgpuStar, PetscReal *PidleStar)
{
  PetscFunctionBegin;
  PetscCall(CheckLangRunger(prm));
  if (EcpuStar) *EcpuStar = prm->E_el_cpu + prm->E_el_dram;          /* Lang-Rünger eq. (36) */
  if (EgpuStar) *EgpuStar = prm->E_el_gpu + prm->E_el_copy / prm->l; /* Lang-Rünger eq. (39) */
  if (PidleStar) *PidleStar = prm->P_idle_cpu + prm->P_idle_dram;    /* Lang-Rünger eq. (35) */
  PetscFunctionReturn(0);
}

PetscErrorCode EasModelLangRungerCase(const EasLangRungerParams *prm, EasLangRungerCase *which, PetscReal *threshold)
{
  PetscReal Ec = 0, Eg = 0, Pi = 0, thr;

  PetscFunctionBegin;
  PetscCall(EasModelLangRungerEnergyPerElement(prm, &Ec, &Eg, &Pi));
  EasCheckTime(prm->t_el_gpu, "prm->t_el_gpu");
  EasCheckNull(which, "which");
  thr = Eg + Pi * prm->t_el_gpu; /* Lang-Rünger sec. 4.3, case 2 right-hand side */
  if (Ec < Eg)
    *which = EAS_LR_CPU_ONLY; /* Lang-Rünger sec. 4.3, case 1 */
  else if (Ec > thr)
    *which = EAS_LR_GPU_ONLY; /* Lang-Rünger sec. 4.3, case 2 */
  else
    *which = EAS_LR_HYBRID; /* Lang-Rünger sec. 4.3, case 3 */
  if (threshold) *threshold = thr;
  PetscFunctionReturn(0);
}

PetscErrorCode EasModelLangRungerGpuWorthwhile(PetscReal t_el_copy, PetscReal t_el_cpu, PetscReal l, PetscInt p, PetscBool *worthwhile)
{
  PetscFunctionBegin;
  EasCheckTimeNonNeg(t_el_copy, "t_el_copy");
  EasCheckTime(t_el_cpu, "t_el_cpu");
  EasCheckPositive(l, "l (CG iterations)");
  PetscCheck(p > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "p = %" PetscInt_FMT " (CPU cores) must be > 0", p);
  EasCheckNull(worthwhile, "worthwhile");
  *worthwhile = (t_el_copy < l * t_el_cpu / (PetscReal)p) ? PETSC_TRUE : PETSC_FALSE; /* Lang-Rünger eq. (23) */
  PetscFunctionReturn(0);
}

PetscErrorCode EasModelLangRungerRatio(PetscReal t_el_cpu, PetscReal t_el_gpu, PetscInt p, PetscInt q, PetscReal *r)
{
  PetscFunctionBegin;
  EasCheckTime(t_el_cpu, "t_el_cpu");
  EasCheckTime(t_el_gpu, "t_el_gpu");
  PetscCheck(p > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "p = %" PetscInt_FMT " (CPU cores) must be > 0", p);
  PetscCheck(q > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "q = %" PetscInt_FMT " (GPUs) must be > 0", q);
  EasCheckNull(r, "r");
  *r = 1.0 / (1.0 + (t_el_gpu / t_el_cpu) * ((PetscReal)p / (PetscReal)q)); /* Lang-Rünger eq. (42); (26) for q = 1 */
  PetscFunctionReturn(0);
}

PetscErrorCode EasModelLangRungerPredict(const EasLangRungerParams *prm, PetscReal nel, PetscReal r, PetscReal *t, PetscReal *E)
{
  PetscReal Ec = 0, Pi = 0, ngpu, ncpu, tcpu, tgpu, tidle_cpu, tidle_gpu, l;

  PetscFunctionBegin;
  PetscCall(EasModelLangRungerEnergyPerElement(prm, &Ec, NULL, &Pi));
  EasCheckTime(prm->t_el_cpu, "prm->t_el_cpu");
  EasCheckTime(prm->t_el_gpu, "prm->t_el_gpu");
  EasCheckTimeNonNeg(prm->t_el_copy, "prm->t_el_copy");
  PetscCheck(prm->p > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "prm->p = %" PetscInt_FMT " (CPU cores) must be > 0", prm->p);
  EasCheckPositive(nel, "nel (number of elements)");
  EasCheckBeta(r, "r (GPU fraction)");
  l    = prm->l;
  ngpu = r * nel;                                               /* Lang-Rünger eq. (25) */
  ncpu = (1 - r) * nel / (PetscReal)prm->p;                     /* Lang-Rünger eq. (25), per core */
  tcpu = ncpu * prm->t_el_cpu;                                  /* Lang-Rünger eq. (18) */
  tgpu = ngpu * prm->t_el_gpu;                                  /* Lang-Rünger eq. (19) */
  if (t) *t = ngpu * prm->t_el_copy + l * PetscMax(tcpu, tgpu); /* Lang-Rünger eq. (22) */
  tidle_cpu = l * PetscMax(tgpu - tcpu, 0.0);                   /* CPU waits for the GPU, Lang-Rünger eq. (37) */
  tidle_gpu = l * PetscMax(tcpu - tgpu, 0.0);                   /* GPU waits for the CPU */
  if (E)
    *E = l * ((PetscReal)prm->p * ncpu * Ec + ngpu * prm->E_el_gpu) /* Lang-Rünger eqs. (31)-(33), (37) */
         + ngpu * prm->E_el_copy                                    /* Lang-Rünger eq. (34) */
         + Pi * tidle_cpu + prm->P_idle_gpu * tidle_gpu;            /* Lang-Rünger eq. (37) idle terms */
  PetscFunctionReturn(0);
}

/* ============================================================ Ge-Cameron */

PetscErrorCode EasModelGeCameronPredict(PetscReal T1_f, PetscReal T1_f0, PetscReal TN_f0, PetscInt N, PetscReal *TN_f)
{
  PetscReal overhead;

  PetscFunctionBegin;
  EasCheckTime(T1_f, "T1_f");
  EasCheckTime(T1_f0, "T1_f0");
  EasCheckTime(TN_f0, "TN_f0");
  PetscCheck(N > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "N = %" PetscInt_FMT " (processors) must be > 0", N);
  EasCheckNull(TN_f, "TN_f");
  overhead = TN_f0 - T1_f0 / (PetscReal)N;   /* Ge-Cameron eq. (17) */
  *TN_f    = T1_f / (PetscReal)N + overhead; /* Ge-Cameron eq. (18) */
  PetscFunctionReturn(0);
}

PetscErrorCode EasModelMinEDP(const EasGeCameronTable *tab, PetscReal w, EasEDPChoice *best)
{
  PetscBool found = PETSC_FALSE;

  PetscFunctionBegin;
  EasCheckNull(tab, "tab");
  EasCheckSize(tab->nprocs, "tab->nprocs");
  EasCheckSize(tab->nfreq, "tab->nfreq");
  EasCheckNull(tab->procs, "tab->procs");
  EasCheckNull(tab->freq, "tab->freq");
  PetscCall(CheckTimeArray(tab->nfreq, tab->T1, PETSC_FALSE, "tab->T1"));
  PetscCall(CheckTimeArray(tab->nprocs, tab->TNbase, PETSC_FALSE, "tab->TNbase"));
  PetscCall(CheckPowerArray(tab->nfreq, tab->Pcomp, "tab->Pcomp"));
  EasCheckPower(tab->Pcomm, "tab->Pcomm");
  PetscCheck(tab->base >= 0 && tab->base < tab->nfreq, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "tab->base = %" PetscInt_FMT " must be an index in [0,%" PetscInt_FMT ")", tab->base, tab->nfreq);
  for (PetscInt k = 0; k < tab->nprocs; k++) PetscCheck(tab->procs[k] > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "tab->procs[%" PetscInt_FMT "] = %" PetscInt_FMT " must be > 0", k, tab->procs[k]);
  for (PetscInt j = 0; j < tab->nfreq; j++) EasCheckPositive(tab->freq[j], "tab->freq[j]");
  EasCheckNonNeg(w, "w (delay exponent)");
  EasCheckNull(best, "best");

  for (PetscInt k = 0; k < tab->nprocs; k++) {
    const PetscReal N        = (PetscReal)tab->procs[k];
    const PetscReal overhead = tab->TNbase[k] - tab->T1[tab->base] / N; /* Ge-Cameron eq. (17) */
    for (PetscInt j = 0; j < tab->nfreq; j++) {
      PetscReal T, E, m;

      PetscCall(EasModelGeCameronPredict(tab->T1[j], tab->T1[tab->base], tab->TNbase[k], tab->procs[k], &T)); /* Ge-Cameron eq. (18) */
      PetscCheck(T > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "predicted time %g for N = %" PetscInt_FMT ", f = %g is not positive: inconsistent measurements (TNbase[%" PetscInt_FMT "] too small)", (double)T, tab->procs[k], (double)tab->freq[j], k);
      /* Ge-Cameron sec. 6: N nodes, each computing T_1(f)/N at Pcomp(f), then the overhead at Pcomm */
      E = tab->Pcomp[j] * tab->T1[j] + N * tab->Pcomm * PetscMax(overhead, 0.0);
      m = E * PetscPowReal(T, w); /* Ge-Cameron sec. 6: E * D (w = 1) */
      if (!found || m < best->metric) {
        found        = PETSC_TRUE;
        best->iproc  = k;
        best->ifreq  = j;
        best->time   = T;
        best->energy = E;
        best->metric = m;
      }
    }
  }
  PetscFunctionReturn(0);
}

/* ============================================================ Ribeiro */

PetscErrorCode EasModelHeterogeneousSpeedup(PetscReal Tref, PetscReal TD, PetscReal *S)
{
  PetscFunctionBegin;
  EasCheckTime(Tref, "Tref");
  EasCheckTime(TD, "TD");
  EasCheckNull(S, "S");
  *S = Tref / TD; /* Ribeiro eq. (3.5) */
  PetscFunctionReturn(0);
}

PetscErrorCode EasModelHeterogeneousEfficiency(PetscReal TD, PetscInt n, const PetscReal Tdev[], PetscReal *E)
{
  PetscReal cap = 0;

  PetscFunctionBegin;
  EasCheckTime(TD, "TD");
  EasCheckSize(n, "n (number of devices)");
  PetscCall(CheckTimeArray(n, Tdev, PETSC_FALSE, "Tdev"));
  EasCheckNull(E, "E");
  for (PetscInt i = 0; i < n; i++) cap += 1.0 / Tdev[i]; /* Ribeiro eq. (3.6): C*_D / W */
  *E = (1.0 / TD) / cap;                                 /* Ribeiro eq. (3.6) */
  PetscFunctionReturn(0);
}

PetscErrorCode EasModelWindowIndex(PetscInt n, const PetscReal busy[], const PetscInt count[], PetscReal *r)
{
  PetscReal b = 0, c = 0;

  PetscFunctionBegin;
  EasCheckSize(n, "n (iterations in the window)");
  PetscCall(CheckTimeArray(n, busy, PETSC_TRUE, "busy"));
  PetscCall(CheckCountArray(n, count, "count"));
  EasCheckNull(r, "r");
  for (PetscInt k = 0; k < n; k++) {
    b += busy[k];             /* Ribeiro eq. (4.1) numerators */
    c += (PetscReal)count[k]; /* Ribeiro eq. (4.1) denominators */
  }
  PetscCheck(c > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "sum of count[] = 0: the window must contain work");
  *r = b / c; /* Ribeiro eq. (4.1), count-weighted window average */
  PetscFunctionReturn(0);
}

PetscErrorCode EasModelWindowIndexQuantile(PetscInt n, const PetscReal busy[], const PetscInt count[], PetscReal q, PetscReal *r)
{
  PetscReal v[64], pos;
  PetscInt  m = 0, k0;

  PetscFunctionBegin;
  EasCheckSize(n, "n (iterations in the window)");
  PetscCheck(n <= 64, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "n = %" PetscInt_FMT ": the window holds at most 64 iterations", n);
  PetscCheck(q >= 0.0 && q <= 1.0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "q = %g: expected a quantile in [0, 1]", (double)q);
  PetscCall(CheckTimeArray(n, busy, PETSC_TRUE, "busy"));
  PetscCall(CheckCountArray(n, count, "count"));
  EasCheckNull(r, "r");
  for (PetscInt k = 0; k < n; k++)
    if (count[k] > 0) v[m++] = busy[k] / (PetscReal)count[k]; /* Ribeiro eq. (4.1) */
  PetscCheck(m > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "sum of count[] = 0: the window must contain work");
  PetscCall(PetscSortReal(m, v));
  pos = q * (m - 1);
  k0  = (PetscInt)PetscFloorReal(pos);
  *r  = (k0 + 1 < m) ? v[k0] + (pos - k0) * (v[k0 + 1] - v[k0]) : v[m - 1]; /* robust to spikes */
  PetscFunctionReturn(0);
}

PetscErrorCode EasModelWindowIndexMedian(PetscInt n, const PetscReal busy[], const PetscInt count[], PetscReal *r)
{
  PetscFunctionBegin;
  PetscCall(EasModelWindowIndexQuantile(n, busy, count, 0.5, r));
  PetscFunctionReturn(0);
}

PetscErrorCode EasModelBalancedShares(PetscInt n, const PetscReal rate[], PetscInt N, PetscInt shares[])
{
  PetscReal inv = 0;
  PetscInt  sum = 0;

  PetscFunctionBegin;
  EasCheckSize(n, "n (number of units)");
  PetscCall(CheckTimeArray(n, rate, PETSC_FALSE, "rate"));
  PetscCheck(N >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "N = %" PetscInt_FMT " (work units) must be >= 0", N);
  EasCheckNull(shares, "shares");
  for (PetscInt u = 0; u < n; u++) inv += 1.0 / rate[u];
  for (PetscInt u = 0; u < n; u++) {
    const PetscReal real = (PetscReal)N * (1.0 / rate[u]) / inv; /* Ribeiro eq. (4.4): r_u n_u equal, sum n_u = N */
    shares[u]            = (PetscInt)PetscFloorReal(real);
    sum += shares[u];
  }
  /* rounding guard: never more than N in total */
  while (sum > N) {
    PetscInt  worst = -1;
    PetscReal tw    = -1;
    for (PetscInt u = 0; u < n; u++)
      if (shares[u] > 0 && rate[u] * shares[u] > tw) {
        tw    = rate[u] * shares[u];
        worst = u;
      }
    shares[worst]--;
    sum--;
  }
  /* the remaining (< n) units, one at a time, to the unit finishing first with it: min-max optimal */
  while (sum < N) {
    PetscInt  bestu = 0;
    PetscReal tb    = rate[0] * (shares[0] + 1);
    for (PetscInt u = 1; u < n; u++)
      if (rate[u] * (shares[u] + 1) < tb) {
        tb    = rate[u] * (shares[u] + 1);
        bestu = u;
      }
    shares[bestu]++;
    sum++;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode EasModelMigrationAmortized(PetscInt n, const PetscReal rate[], const PetscInt Ncur[], const PetscInt Nnew[], PetscReal remaining, PetscReal cost, PetscBool *migrate, PetscReal *Tbar, PetscReal *Tdist)
{
  PetscReal tb = 0, td = 0;

  PetscFunctionBegin;
  EasCheckSize(n, "n (number of units)");
  PetscCall(CheckTimeArray(n, rate, PETSC_FALSE, "rate"));
  PetscCall(CheckCountArray(n, Ncur, "Ncur"));
  PetscCall(CheckCountArray(n, Nnew, "Nnew"));
  EasCheckNonNeg(remaining, "remaining (iterations left)");
  EasCheckTimeNonNeg(cost, "cost (migration time)");
  EasCheckNull(migrate, "migrate");
  for (PetscInt u = 0; u < n; u++) {
    tb = PetscMax(tb, rate[u] * (PetscReal)Ncur[u]); /* Ribeiro eq. (4.5) */
    td = PetscMax(td, rate[u] * (PetscReal)Nnew[u]); /* Ribeiro eq. (4.6) */
  }
  *migrate = (remaining * tb > cost + remaining * td) ? PETSC_TRUE : PETSC_FALSE; /* Ribeiro eq. (4.7), (4.8) */
  if (Tbar) *Tbar = tb;
  if (Tdist) *Tdist = td;
  PetscFunctionReturn(0);
}

/* ------------------------------------------------ power budget (Ribeiro ch. 5) */

static PetscErrorCode CheckPowerUnit(const EasPowerUnit *u, PetscInt p)
{
  PetscFunctionBegin;
  PetscCheck(!PetscIsInfOrNanReal(u->rate) && u->rate > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "units[%" PetscInt_FMT "].rate = %g must be a time per work unit > 0 s", p, (double)u->rate);
  PetscCheck(!PetscIsInfOrNanReal(u->fcap) && u->fcap > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "units[%" PetscInt_FMT "].fcap = %g must be a frequency > 0", p, (double)u->fcap);
  PetscCheck(!PetscIsInfOrNanReal(u->work) && u->work >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "units[%" PetscInt_FMT "].work = %g must be >= 0", p, (double)u->work);
  PetscCheck(u->nlevels >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "units[%" PetscInt_FMT "].nlevels = %" PetscInt_FMT " must be >= 0 (0: linear Phi, eq. 5.9)", p, u->nlevels);
  if (u->nlevels == 0) {
    PetscCheck(!PetscIsInfOrNanReal(u->tdp) && u->tdp > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "units[%" PetscInt_FMT "].tdp = %g must be a power > 0 W", p, (double)u->tdp);
    PetscCheck(!PetscIsInfOrNanReal(u->fmin) && u->fmin > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "units[%" PetscInt_FMT "].fmin = %g must be a frequency > 0", p, (double)u->fmin);
    PetscCheck(!PetscIsInfOrNanReal(u->fmax) && u->fmax >= u->fcap && u->fcap >= u->fmin, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "units[%" PetscInt_FMT "]: need fmin <= fcap <= fmax, got fmin = %g, fcap = %g, fmax = %g", p, (double)u->fmin, (double)u->fcap,
               (double)u->fmax);
  } else {
    EasCheckNull(u->levelPower, "units[].levelPower");
    EasCheckNull(u->levelFreq, "units[].levelFreq");
    for (PetscInt l = 0; l < u->nlevels; l++) {
      PetscCheck(!PetscIsInfOrNanReal(u->levelPower[l]) && u->levelPower[l] >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "units[%" PetscInt_FMT "].levelPower[%" PetscInt_FMT "] = %g must be a finite power >= 0 W", p, l, (double)u->levelPower[l]);
      PetscCheck(!PetscIsInfOrNanReal(u->levelFreq[l]) && u->levelFreq[l] > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "units[%" PetscInt_FMT "].levelFreq[%" PetscInt_FMT "] = %g must be a frequency > 0", p, l, (double)u->levelFreq[l]);
    }
  }
  PetscFunctionReturn(0);
}

/* T_p at frequency f, Ribeiro eq. (5.6) with Phi(W) = f */
static inline PetscReal UnitTimeAtFreq(const EasPowerUnit *u, PetscReal f)
{
  return u->rate * u->fcap * u->work / f; /* Ribeiro eq. (5.6) */
}

/* the least power of a linear unit meeting T <= Z (Z > 0): W = c/Z clamped to Wmin, c = rate fcap work tdp/fmax */
static inline PetscReal LinearC(const EasPowerUnit *u)
{
  return u->rate * u->fcap * u->work * u->tdp / u->fmax; /* Ribeiro eqs. (5.6), (5.9) solved for W */
}
static inline PetscReal LinearWmin(const EasPowerUnit *u)
{
  return u->fmin * u->tdp / u->fmax; /* Ribeiro eq. (5.9): Phi(W) = fmin */
}

/* least power of unit u meeting T_u <= Z; returns PETSC_FALSE if no allowed power does.
   Also returns the time and frequency reached. */
static PetscBool UnitLeastPower(const EasPowerUnit *u, PetscReal Z, PetscReal *W, PetscReal *T, PetscReal *f)
{
  if (u->nlevels == 0) {
    const PetscReal Wmin = LinearWmin(u), c = LinearC(u);
    PetscReal       w;

    if (u->work == 0)
      w = Wmin;
    else {
      if (!(Z > 0)) return PETSC_FALSE;
      w = PetscMax(c / Z, Wmin);
      if (w > u->tdp) {
        /* tolerate rounding at the fastest setting */
        if (UnitTimeAtFreq(u, u->fmax) <= Z)
          w = u->tdp;
        else
          return PETSC_FALSE;
      }
    }
    *W = w;
    *f = u->fmax * w / u->tdp; /* Ribeiro eq. (5.9) */
    *T = UnitTimeAtFreq(u, *f);
    return PETSC_TRUE;
  } else {
    PetscInt best = -1;
    for (PetscInt l = 0; l < u->nlevels; l++) {
      const PetscReal t = UnitTimeAtFreq(u, u->levelFreq[l]);
      if (t <= Z && (best < 0 || u->levelPower[l] < u->levelPower[best] || (u->levelPower[l] == u->levelPower[best] && u->levelFreq[l] > u->levelFreq[best]))) best = l;
    }
    if (best < 0) return PETSC_FALSE;
    *W = u->levelPower[best];
    *f = u->levelFreq[best];
    *T = UnitTimeAtFreq(u, *f);
    return PETSC_TRUE;
  }
}

/* schedule for target time Z: W_p(Z) for every unit; time = max achieved, power = sum */
static PetscBool ScheduleAt(PetscInt P, const EasPowerUnit units[], PetscReal Z, PetscReal W[], PetscReal f[], PetscReal *time, PetscReal *power)
{
  PetscReal t = 0, s = 0;
  for (PetscInt p = 0; p < P; p++) {
    PetscReal w, tp, fp;
    if (!UnitLeastPower(&units[p], Z, &w, &tp, &fp)) return PETSC_FALSE;
    if (W) W[p] = w;
    if (f) f[p] = fp;
    t = PetscMax(t, tp); /* Ribeiro eq. (5.3) */
    s += w;              /* ||W||_1 */
  }
  *time  = t;
  *power = s;
  return PETSC_TRUE;
}

static int CompareReal(const void *a, const void *b)
{
  const PetscReal x = *(const PetscReal *)a, y = *(const PetscReal *)b;
  return (x > y) - (x < y);
}

PetscErrorCode EasModelPowerBudget(PetscInt P, const EasPowerUnit units[], PetscReal budget, PetscReal alpha1, PetscReal alpha2, PetscReal W[], PetscReal freq[], EasPowerBudgetResult *res)
{
  PetscReal *cand, Zfast = 0, Zslow = 0, Zcap = 0, Zhi, Zlo, time, power, bestZ, bestObj = PETSC_MAX_REAL;
  PetscInt   ncand = 0, nlev = 0;
  PetscBool  anyLinear = PETSC_FALSE, ok;

  PetscFunctionBegin;
  EasCheckSize(P, "P (number of units)");
  EasCheckNull(units, "units");
  for (PetscInt p = 0; p < P; p++) PetscCall(CheckPowerUnit(&units[p], p));
  EasCheckPositive(budget, "budget (W)");
  EasCheckNonNeg(alpha1, "alpha1");
  EasCheckNonNeg(alpha2, "alpha2");
  PetscCheck(alpha1 + alpha2 > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "alpha1 = %g and alpha2 = %g must not both be 0", (double)alpha1, (double)alpha2);
  EasCheckNull(W, "W");
  EasCheckNull(res, "res");

  /* Range of useful target times Z.
     Zfast: every unit at its fastest setting; Zslow: every unit at its least power (beyond, W(Z) is constant);
     Zcap = T(W^cap) = max_p rate_p work_p, the constraint T(W) <= T(W^cap) of Ribeiro eq. (5.7). */
  for (PetscInt p = 0; p < P; p++) {
    const EasPowerUnit *u = &units[p];
    PetscReal           tfast, tslow;
    if (u->nlevels == 0) {
      anyLinear = PETSC_TRUE;
      tfast     = UnitTimeAtFreq(u, u->fmax);
      tslow     = UnitTimeAtFreq(u, u->fmin);
    } else {
      PetscInt lmin = 0;
      tfast         = PETSC_MAX_REAL;
      for (PetscInt l = 0; l < u->nlevels; l++) {
        tfast = PetscMin(tfast, UnitTimeAtFreq(u, u->levelFreq[l]));
        if (u->levelPower[l] < u->levelPower[lmin] || (u->levelPower[l] == u->levelPower[lmin] && u->levelFreq[l] > u->levelFreq[lmin])) lmin = l;
      }
      tslow = UnitTimeAtFreq(u, u->levelFreq[lmin]);
      nlev += u->nlevels;
    }
    Zfast = PetscMax(Zfast, tfast);
    Zslow = PetscMax(Zslow, tslow);
    Zcap  = PetscMax(Zcap, UnitTimeAtFreq(u, u->fcap)); /* Ribeiro eq. (5.6) at f = fcap (= rate work; same expression as the level times, so a level at fcap matches exactly) */
  }
  res->tcap     = Zcap;
  res->feasible = PETSC_FALSE;
  Zhi           = PetscMin(Zslow, Zcap);

  /* least-power settings, returned when infeasible */
  (void)ScheduleAt(P, units, PETSC_MAX_REAL, W, freq, &time, &power);
  res->time      = time;
  res->power     = power;
  res->objective = alpha1 * time + alpha2 * power;
  if (Zhi < Zfast) PetscFunctionReturn(0); /* the caps are faster than any allowed setting */
  if (Zhi == 0) {                          /* no work at all: least power is optimal */
    res->feasible = (power <= budget) ? PETSC_TRUE : PETSC_FALSE;
    PetscFunctionReturn(0);
  }
  ok = ScheduleAt(P, units, Zhi, NULL, NULL, &time, &power);
  if (!ok || power > budget) PetscFunctionReturn(0); /* even the slowest allowed schedule exceeds the budget */

  /* candidate breakpoints: the level times of the tabular units inside [Zfast, Zhi], plus the ends */
  PetscCall(PetscMalloc1(nlev + 2, &cand));
  cand[ncand++] = Zfast;
  cand[ncand++] = Zhi;
  for (PetscInt p = 0; p < P; p++) {
    const EasPowerUnit *u = &units[p];
    for (PetscInt l = 0; l < u->nlevels; l++) {
      const PetscReal t = UnitTimeAtFreq(u, u->levelFreq[l]);
      if (t > Zfast && t < Zhi) cand[ncand++] = t;
    }
  }
  qsort(cand, (size_t)ncand, sizeof(PetscReal), CompareReal);

  /* Bisection on Z for the least Z meeting the budget: sum_p W_p(Z) is non-increasing in Z.
     First over the sorted breakpoints (the tabular part is constant between them), then inside one piece. */
  {
    PetscInt lo = 0, hi = ncand - 1; /* budget met at cand[hi] */
    ok = ScheduleAt(P, units, cand[0], NULL, NULL, &time, &power);
    if (ok && power <= budget)
      Zlo = cand[0];
    else {
      PetscReal a, b;
      while (hi - lo > 1) { /* invariant: budget violated (or infeasible) at cand[lo], met at cand[hi] */
        const PetscInt mid = (lo + hi) / 2;
        ok                 = ScheduleAt(P, units, cand[mid], NULL, NULL, &time, &power);
        if (ok && power <= budget)
          hi = mid;
        else
          lo = mid;
      }
      a = cand[lo];
      b = cand[hi];
      if (anyLinear) { /* inside (a, b] only the linear units change, continuously */
        for (PetscInt it = 0; it < 200 && b - a > 4 * PETSC_MACHINE_EPSILON * b; it++) {
          const PetscReal mid = 0.5 * (a + b);
          ok                  = ScheduleAt(P, units, mid, NULL, NULL, &time, &power);
          if (ok && power <= budget)
            b = mid;
          else
            a = mid;
        }
      }
      Zlo = b;
    }
  }

  /* Minimise G(Z) = alpha1 T(W(Z)) + alpha2 ||W(Z)||_1 on [Zlo, Zhi] (Ribeiro eq. (5.7)).
     On each piece [a,b] between breakpoints the tabular powers are constant and, for Z below
     Zlin = max over linear units of their time at least power, G = alpha1 Z + alpha2 (K + sum_lin max(c_p/Z, Wmin_p)),
     convex in Z: bisection on the sign of G'(Z) = alpha1 - alpha2 sum_{c_p/Z > Wmin_p} c_p/Z^2. */
  {
    PetscReal Zlin = 0;
    for (PetscInt p = 0; p < P; p++)
      if (units[p].nlevels == 0 && units[p].work > 0) Zlin = PetscMax(Zlin, LinearC(&units[p]) / LinearWmin(&units[p]));
    bestZ = Zlo;
    for (PetscInt i = -1; i < ncand; i++) {
      PetscReal a    = (i < 0) ? Zlo : cand[i], b, pts[3];
      PetscInt  npts = 0;
      if (a < Zlo || a > Zhi) continue;
      b = Zhi;
      for (PetscInt j = i + 1; j < ncand; j++)
        if (cand[j] > a) {
          b = PetscMin(cand[j], Zhi);
          break;
        }
      pts[npts++] = a;
      pts[npts++] = b;
      if (anyLinear && Zlin > a) {
        PetscReal lo = a, hi = PetscMin(b, Zlin);
        for (PetscInt it = 0; it < 200 && hi - lo > 4 * PETSC_MACHINE_EPSILON * hi; it++) {
          const PetscReal mid = 0.5 * (lo + hi);
          PetscReal       d   = alpha1;
          for (PetscInt p = 0; p < P; p++) {
            if (units[p].nlevels == 0 && units[p].work > 0) {
              const PetscReal c = LinearC(&units[p]);
              if (c / mid > LinearWmin(&units[p])) d -= alpha2 * c / (mid * mid); /* derivative of alpha2 c/Z */
            }
          }
          if (d >= 0)
            hi = mid;
          else
            lo = mid;
        }
        pts[npts++] = hi;
      }
      for (PetscInt k = 0; k < npts; k++) {
        PetscReal G;
        if (!ScheduleAt(P, units, pts[k], NULL, NULL, &time, &power)) continue;
        if (power > budget) continue;
        if (time > Zcap * (1 + 8 * PETSC_MACHINE_EPSILON)) continue;
        G = alpha1 * time + alpha2 * power; /* Ribeiro eq. (5.7) objective */
        if (G < bestObj) {
          bestObj = G;
          bestZ   = pts[k];
        }
      }
    }
  }
  PetscCall(PetscFree(cand));
  if (bestObj == PETSC_MAX_REAL) PetscFunctionReturn(0);
  (void)ScheduleAt(P, units, bestZ, W, freq, &time, &power);
  res->feasible  = PETSC_TRUE;
  res->time      = time;
  res->power     = power;
  res->objective = alpha1 * time + alpha2 * power;
  PetscFunctionReturn(0);
}

PetscErrorCode EasModelPowerUnitTime(const EasPowerUnit *u, PetscReal W, PetscReal *T, PetscReal *f)
{
  PetscReal freq = -1;

  PetscFunctionBegin;
  EasCheckNull(u, "u");
  PetscCall(CheckPowerUnit(u, 0));
  EasCheckPower(W, "W");
  EasCheckNull(T, "T");
  if (u->nlevels == 0) {
    const PetscReal Wmin = LinearWmin(u);
    PetscCheck(W >= Wmin * (1 - 8 * PETSC_MACHINE_EPSILON) && W <= u->tdp * (1 + 8 * PETSC_MACHINE_EPSILON), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "W = %g must lie in [fmin tdp/fmax, tdp] = [%g, %g]", (double)W, (double)Wmin, (double)u->tdp);
    freq = u->fmax * W / u->tdp; /* Ribeiro eq. (5.9) */
  } else {
    for (PetscInt l = 0; l < u->nlevels; l++)
      if (u->levelPower[l] == W) {
        freq = u->levelFreq[l];
        break;
      }
    PetscCheck(freq > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "W = %g is not one of the unit's level powers", (double)W);
  }
  *T = UnitTimeAtFreq(u, freq); /* Ribeiro eq. (5.6) */
  if (f) *f = freq;
  PetscFunctionReturn(0);
}

/* ============================================================ Fanfakh */

static PetscErrorCode CheckEPSAInputs(PetscInt n, const PetscReal Tcomp[], const PetscReal Tcomm[], PetscReal Pdyn, PetscReal Pstatic, PetscReal *Tmaxcomp, PetscReal *Tmincomm)
{
  PetscFunctionBegin;
  EasCheckSize(n, "n (number of tasks)");
  PetscCall(CheckTimeArray(n, Tcomp, PETSC_TRUE, "Tcomp"));
  PetscCall(CheckTimeArray(n, Tcomm, PETSC_TRUE, "Tcomm"));
  EasCheckPower(Pdyn, "Pdyn");
  EasCheckPower(Pstatic, "Pstatic");
  *Tmaxcomp = 0;
  *Tmincomm = PETSC_MAX_REAL;
  for (PetscInt i = 0; i < n; i++) {
    *Tmaxcomp = PetscMax(*Tmaxcomp, Tcomp[i]); /* Fanfakh eq. (tnew): T_MaxCompOld */
    *Tmincomm = PetscMin(*Tmincomm, Tcomm[i]); /* Fanfakh eq. (tnew): T_MinCommOld */
  }
  PetscCheck(*Tmaxcomp > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "max of Tcomp[] = 0: some task must compute");
  PetscFunctionReturn(0);
}

/* energy and time for scaling factor S, inputs already checked */
static void EPSAEval(PetscInt n, const PetscReal Tcomp[], PetscReal Pdyn, PetscReal Pstatic, PetscReal Tmaxcomp, PetscReal Tmincomm, PetscReal S, PetscReal *E, PetscReal *T)
{
  PetscReal dyn = 0, t;
  for (PetscInt i = 0; i < n; i++) dyn += Pdyn * Tcomp[i] / (S * S); /* Fanfakh eq. (Edyn_new), (e-new) */
  t  = Tmaxcomp * S + Tmincomm;                                      /* Fanfakh eq. (tnew) */
  *T = t;
  *E = dyn + Pstatic * t * (PetscReal)n; /* Fanfakh eq. (e-new), static part (Estatic_new) */
}

PetscErrorCode EasModelEPSAEnergy(PetscInt n, const PetscReal Tcomp[], const PetscReal Tcomm[], PetscReal Pdyn, PetscReal Pstatic, PetscReal S, PetscReal *E, PetscReal *T)
{
  PetscReal Tmaxcomp, Tmincomm, e, t;

  PetscFunctionBegin;
  PetscCall(CheckEPSAInputs(n, Tcomp, Tcomm, Pdyn, Pstatic, &Tmaxcomp, &Tmincomm));
  PetscCheck(!PetscIsInfOrNanReal(S) && S >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "S = %g must be a scaling factor Fmax/Fnew >= 1", (double)S);
  EPSAEval(n, Tcomp, Pdyn, Pstatic, Tmaxcomp, Tmincomm, S, &e, &t);
  if (E) *E = e;
  if (T) *T = t;
  PetscFunctionReturn(0);
}

PetscErrorCode EasModelEPSA(PetscInt n, const PetscReal Tcomp[], const PetscReal Tcomm[], PetscReal Pdyn, PetscReal Pstatic, PetscInt nfreq, const PetscReal freqs[], PetscReal *Sopt, PetscReal Fi[], PetscReal *dist)
{
  PetscReal Tmaxcomp, Tmincomm, Fmax = 0, E1, T1, best = 0, S = 1;

  PetscFunctionBegin;
  PetscCall(CheckEPSAInputs(n, Tcomp, Tcomm, Pdyn, Pstatic, &Tmaxcomp, &Tmincomm));
  PetscCheck(Pdyn + Pstatic > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Pdyn + Pstatic = %g must be > 0", (double)(Pdyn + Pstatic));
  EasCheckSize(nfreq, "nfreq (available frequencies)");
  EasCheckNull(freqs, "freqs");
  for (PetscInt j = 0; j < nfreq; j++) {
    PetscCheck(!PetscIsInfOrNanReal(freqs[j]) && freqs[j] > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "freqs[%" PetscInt_FMT "] = %g must be a frequency > 0", j, (double)freqs[j]);
    Fmax = PetscMax(Fmax, freqs[j]);
  }
  EasCheckNull(Sopt, "Sopt");
  EPSAEval(n, Tcomp, Pdyn, Pstatic, Tmaxcomp, Tmincomm, 1.0, &E1, &T1); /* E_Original, T_Old */
  for (PetscInt j = 0; j < nfreq; j++) {
    const PetscReal Sj = Fmax / freqs[j]; /* Fanfakh Alg. EPSA: S = Fmax/Fnew */
    PetscReal       E, T, Pnorm, Enorm;
    EPSAEval(n, Tcomp, Pdyn, Pstatic, Tmaxcomp, Tmincomm, Sj, &E, &T);
    Enorm = E / E1;             /* Fanfakh eq. (enorm), with the energy of eq. (e-new) */
    Pnorm = T1 / T;             /* Fanfakh eq. (pnorm_en) */
    if (Pnorm - Enorm > best) { /* Fanfakh eq. (max1), Alg. EPSA */
      best = Pnorm - Enorm;
      S    = Sj;
    }
  }
  *Sopt = S;
  if (dist) *dist = best;
  if (Fi)
    for (PetscInt i = 0; i < n; i++) Fi[i] = Fmax * Tcomp[i] / (S * Tmaxcomp); /* Fanfakh eq. (fi) */
  PetscFunctionReturn(0);
}

/* ======================================================= criteria (issue 5) */

PetscErrorCode EasModelCriterionFrontier(PetscReal PF_A, PetscReal PF_B, PetscReal w, PetscReal *alpha)
{
  PetscReal a0;

  PetscFunctionBegin;
  EasCheckNonNeg(w, "w (delay exponent)");
  EasCheckNull(alpha, "alpha");
  PetscCall(EasModelNodeFrontier(PF_A, PF_B, &a0)); /* Vialle et al. eq. (1.24) */
  *alpha = PetscPowReal(a0, 1.0 / (w + 1.0));       /* E T^w = P T^(w+1): eq. (1.24) generalised */
  PetscFunctionReturn(0);
}

const char *const EasCriteria[] = {"time", "energy", "edp", "ed2p", "EasCriterion", "EAS_CRITERION_", NULL};

/*@C
  EasCriterionExponent - w of the metric E T^w (energy 0, edp 1, ed2p 2;
  time: PETSC_INFINITY).
@*/
PetscReal EasCriterionExponent(EasCriterion c)
{
  switch (c) {
  case EAS_CRITERION_ENERGY:
    return 0.0;
  case EAS_CRITERION_EDP:
    return 1.0;
  case EAS_CRITERION_ED2P:
    return 2.0;
  default:
    return PETSC_INFINITY;
  }
}
