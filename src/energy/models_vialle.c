/*
  Vialle et al.: the node and cluster energy models and the alpha frontiers
  (eqs. 1.16-1.49).

  No global state, no I/O; inputs validated with the checks of modelsimpl.h
  (include/eas/energy.h documents every function, docs/models.md gives the
  equations and docs/references.md the papers).
*/
#include "modelsimpl.h"

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
