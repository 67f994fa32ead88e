/*
  The power budget (Ribeiro ch. 5, include/eas/policy.h, EasPowerBudget):
  a total power tau (-eas_power_budget, W) distributed over the compute
  units so that alpha1 T(W) + alpha2 ||W||_1 is least under ||W||_1 <= tau,
  T(W) <= T(W^cap) and f_min <= Phi(W_p) <= f_max (eq. 5.7).

  Units: one CPU unit per node (its cores share the package power; its time
  is the slowest of its ranks: the iteration ends with it, eq. 5.3).  With
  the uniform distribution (UDP) every node gets s = tau / sum TDP of its
  TDP, i.e. f_cap = Phi(s TDP) = s f_max (eq. 5.9 linear).  The measured
  time per window T_meas at the current frequency f_cur gives
  r~ f_cap = T_meas f_cur / N (eq. 5.5 with N = 1 window), so eq. 5.6 reads
  T_p(W) = T_meas f_cur / Phi(W).  EasModelPowerBudget solves eq. 5.7.
  GPU ranks: their power is not distributed (NVML limits are only
  reported); their profile power is taken off the budget first.

  Applied on each node by its first rank: powercap
  constraint_0_power_limit_uw of every package (intel-rapl:<n>) in
  proportion to its max power, where writable; else the frequency
  Phi(W) through cpufreq scaling_max_freq of every core; else reported.
  Everything written is restored (sysfs.c).
*/
#include "policyimpl.h"
#include <dirent.h>

/*@C
  EasPowerBudgetCreate - power-budget distribution on comm (no budget).
@*/
PetscErrorCode EasPowerBudgetCreate(MPI_Comm comm, EasPowerBudget *pb)
{
  EasPowerBudget b;

  PetscFunctionBegin;
  PetscValidPointer(pb, 2);
  PetscCall(EasPolicyInitializePackage());
  PetscCall(PetscHeaderCreate(b, EAS_POWERBUDGET_CLASSID, "EasPowerBudget", "Power budget (Ribeiro eqs. 5.3-5.9)", "Sys", comm, EasPowerBudgetDestroy, EasPowerBudgetView));
  b->alpha[0] = b->alpha[1] = 0.5;
  b->apply                  = PETSC_TRUE;
  PetscCall(PetscStrncpy(b->rapl_root, "/sys/class/powercap", sizeof(b->rapl_root)));
  PetscCall(PetscStrncpy(b->cpufreq_root, "/sys/devices/system/cpu", sizeof(b->cpufreq_root)));
  PetscCall(EasSysfsNewOwner(&b->owner));
  *pb = b;
  PetscFunctionReturn(0);
}

PetscErrorCode EasPowerBudgetSetBudget(EasPowerBudget b, PetscReal W)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(b, EAS_POWERBUDGET_CLASSID, 1);
  PetscCheck(W >= 0 && !PetscIsInfOrNanReal(W), PetscObjectComm((PetscObject)b), PETSC_ERR_ARG_OUTOFRANGE, "-eas_power_budget %g is invalid: expected a total power in W > 0 (0: off)", (double)W);
  b->budget = W;
  PetscFunctionReturn(0);
}

PetscErrorCode EasPowerBudgetGetBudget(EasPowerBudget b, PetscReal *W)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(b, EAS_POWERBUDGET_CLASSID, 1);
  *W = b->budget;
  PetscFunctionReturn(0);
}

/*@C
  EasPowerBudgetSetFromOptions - -eas_power_budget, -eas_power_budget_alpha,
  -eas_power_budget_apply, -eas_rapl_root, -eas_cpufreq_root, -eas_dvfs_freqs.
@*/
PetscErrorCode EasPowerBudgetSetFromOptions(EasPowerBudget b)
{
  MPI_Comm  comm;
  PetscReal W = b->budget, a[2] = {b->alpha[0], b->alpha[1]}, f[EAS_DVFS_MAX_FREQS];
  PetscInt  na = 2, nf = EAS_DVFS_MAX_FREQS;
  PetscBool flg;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(b, EAS_POWERBUDGET_CLASSID, 1);
  PetscCall(PetscObjectGetComm((PetscObject)b, &comm));
  f[0] = b->nfreq ? b->freq[0] : 0; /* the default -help shows */
  PetscObjectOptionsBegin((PetscObject)b);
  PetscCall(PetscOptionsReal("-eas_power_budget", "Total power budget in W distributed over the nodes (Ribeiro eqs. 5.3-5.9; 0: off)", "EasPowerBudgetSetBudget", W, &W, &flg));
  if (flg) PetscCall(EasPowerBudgetSetBudget(b, W));
  PetscCall(PetscOptionsRealArray("-eas_power_budget_alpha", "Weights alpha1,alpha2 of time and power (Ribeiro eq. 5.7)", "EasPowerBudgetDecide", a, &na, &flg));
  if (flg) {
    PetscCheck(na == 2 && a[0] >= 0 && a[1] >= 0 && a[0] + a[1] > 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "-eas_power_budget_alpha: expected two weights >= 0, not both 0, e.g. 0.5,0.5");
    b->alpha[0] = a[0];
    b->alpha[1] = a[1];
  }
  PetscCall(PetscOptionsBool("-eas_power_budget_apply", "Set the caps (powercap, else cpufreq); false: report only", "EasPowerBudgetDecide", b->apply, &b->apply, NULL));
  PetscCall(EasRaplRootSetFromOptions_Private(PetscOptionsObject, "EasPowerBudgetDecide", b->rapl_root, sizeof(b->rapl_root), NULL));
  PetscCall(EasCpufreqSetFromOptions_Private(PetscOptionsObject, "EasPowerBudgetDecide", "EasPowerBudgetDecide", b->cpufreq_root, sizeof(b->cpufreq_root), NULL, f, &nf, &flg));
  if (flg) {
    b->nfreq = nf;
    for (PetscInt j = 0; j < nf; j++) b->freq[j] = f[j];
  }
  PetscOptionsEnd();
  PetscFunctionReturn(0);
}

/* The node's packages under the powercap root (intel-rapl:<n>, not the subzones intel-rapl:<n>:<m>). */
static PetscErrorCode Packages(const char root[], PetscInt max, char names[][32], PetscInt *n)
{
  DIR           *d;
  struct dirent *e;

  PetscFunctionBegin;
  *n = 0;
  d  = opendir(root);
  if (!d) PetscFunctionReturn(0);
  while ((e = readdir(d)) && *n < max) {
    const char *c = strchr(e->d_name, ':');
    if (strncmp(e->d_name, "intel-rapl:", 11) || !c || strchr(c + 1, ':')) continue;
    PetscCall(PetscStrncpy(names[(*n)++], e->d_name, 32));
  }
  closedir(d);
  PetscFunctionReturn(0);
}

/* TDP (W) of the node: the sum of its packages' constraint_0_max_power_uw, else the profile's cpu_full; src says which. */
static PetscErrorCode NodeTdp(EasPowerBudget b, PetscReal *tdp, PetscReal pkg[], PetscInt *npkg, char pkgname[][32], const char **src)
{
  EasPowerProfile prof;

  PetscFunctionBegin;
  *tdp = 0;
  PetscCall(Packages(b->rapl_root, 16, pkgname, npkg));
  for (PetscInt k = 0; k < *npkg; k++) {
    char      path[PETSC_MAX_PATH_LEN], buf[64];
    PetscBool ok;
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/%s/constraint_0_max_power_uw", b->rapl_root, pkgname[k]));
    PetscCall(EasSysfsRead(path, buf, sizeof(buf), &ok));
    pkg[k] = ok ? atof(buf) * 1e-6 : 0;
    if (!(pkg[k] > 0)) { /* without a max power the packages cannot be apportioned */
      *npkg = 0;
      *tdp  = 0;
      break;
    }
    *tdp += pkg[k];
  }
  *src = "powercap constraint_0_max_power_uw";
  if (*tdp > 0) PetscFunctionReturn(0);
  PetscCall(EasPowerProfileGetFromOptions(PETSC_COMM_SELF, ((PetscObject)b)->prefix, 0, 1, &prof, NULL));
  *tdp = prof.cpu_full;
  *src = "profile cpu_full";
  PetscFunctionReturn(0);
}

/* f_min, f_max (kHz) and the current frequency of the node: cpufreq's cpuinfo limits of the first core, else -eas_dvfs_freqs (current = f_max). */
static PetscErrorCode NodeFreqs(EasPowerBudget b, PetscReal *fmin, PetscReal *fmax, PetscReal *fcur)
{
  PetscInt cores[1], nc;

  PetscFunctionBegin;
  *fmin = *fmax = *fcur = 0;
  PetscCall(EasCpufreqAffinity(1, cores, &nc));
  if (nc) PetscCall(EasCpufreqLimits(b->cpufreq_root, cores[0], fmin, fmax, fcur));
  if (!(*fmin > 0 && *fmax >= *fmin) && b->nfreq) {
    *fmin = *fmax = b->freq[0];
    for (PetscInt j = 1; j < b->nfreq; j++) {
      *fmin = PetscMin(*fmin, b->freq[j]);
      *fmax = PetscMax(*fmax, b->freq[j]);
    }
    *fcur = 0;
  }
  if (!(*fcur > 0)) *fcur = *fmax; /* unknown: the run so far was not capped */
  PetscFunctionReturn(0);
}

/* Applies W (W) and f (kHz) on this node; how says through what. */
static PetscErrorCode NodeApply(EasPowerBudget b, PetscReal W, PetscReal f, PetscInt npkg, const PetscReal pkg[], char pkgname[][32], PetscReal tdp, char how[], size_t hlen)
{
  PetscInt set      = 0, cores[EAS_CPU_MAX], nc;
  char     why[256] = "";

  PetscFunctionBegin;
  for (PetscInt k = 0; k < npkg; k++) { /* powercap: the node's W apportioned to its packages by their max power */
    char      path[PETSC_MAX_PATH_LEN], val[64];
    PetscBool ok;
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/%s/constraint_0_power_limit_uw", b->rapl_root, pkgname[k]));
    PetscCall(PetscSNPrintf(val, sizeof(val), "%.0f", (double)(W * pkg[k] / tdp * 1e6)));
    PetscCall(EasSysfsWrite(b->owner, path, val, &ok, why, sizeof(why)));
    if (ok) set++;
  }
  if (npkg && set == npkg) {
    PetscCall(PetscSNPrintf(how, hlen, "powercap constraint_0_power_limit_uw (%" PetscInt_FMT " package(s))", set));
    PetscFunctionReturn(0);
  }
  PetscCall(EasSysfsRestore(b->owner, NULL)); /* a partial powercap setting is not the schedule: undo it, try cpufreq */
  set = 0;
  PetscCall(EasCpufreqCores(b->cpufreq_root, EAS_CPU_MAX, cores, &nc));
  for (PetscInt k = 0; k < nc; k++) {
    char      path[PETSC_MAX_PATH_LEN], val[64];
    PetscBool ok;
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/cpu%" PetscInt_FMT "/cpufreq/scaling_max_freq", b->cpufreq_root, cores[k]));
    PetscCall(PetscSNPrintf(val, sizeof(val), "%.0f", (double)f));
    PetscCall(EasSysfsWrite(b->owner, path, val, &ok, why, sizeof(why)));
    if (ok) set++;
  }
  if (nc && set == nc) {
    PetscCall(PetscSNPrintf(how, hlen, "cpufreq scaling_max_freq (%" PetscInt_FMT " core(s))", set));
    PetscFunctionReturn(0);
  }
  PetscCall(EasSysfsRestore(b->owner, NULL));
  PetscCall(PetscSNPrintf(how, hlen, "report only: %s", why[0] ? why : "no powercap package nor cpufreq core found"));
  PetscFunctionReturn(0);
}

/*@C
  EasPowerBudgetDecide - distributes the budget (see include/eas/policy.h).
@*/
PetscErrorCode EasPowerBudgetDecide(EasPowerBudget b, PetscReal Tcomp, PetscBool gpu)
{
  MPI_Comm                comm, shm;
  PetscMPIInt             size, srank, rank;
  PetscReal               loc[6], *all, Tnode, gpuW = 0, tdp, pkg[16], fmin, fmax, fcur, *W, *F;
  PetscInt                npkg, nnodes = 0, me = -1;
  char                    pkgname[16][32];
  const char             *tdpsrc;
  EasPowerUnit           *u;
  EasPowerBudgetDecision *dec = &b->dec;
  EasPowerProfile         prof;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(b, EAS_POWERBUDGET_CLASSID, 1);
  if (b->budget <= 0) PetscFunctionReturn(0);
  PetscCall(PetscObjectGetComm((PetscObject)b, &comm));
  PetscCheck(Tcomp >= 0 && !PetscIsInfOrNanReal(Tcomp), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "EasPowerBudgetDecide: T_comp = %g s must be a time >= 0", (double)Tcomp);
  PetscCall(PetscLogEventBegin(EAS_PowerBudgetDecide, b, 0, 0, 0));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shm));
  PetscCallMPI(MPI_Comm_rank(shm, &srank));
  PetscCall(MPIU_Allreduce(&Tcomp, &Tnode, 1, MPIU_REAL, MPIU_MAX, shm)); /* the node's unit ends with its slowest rank (eq. 5.3) */
  if (gpu) {                                                              /* a GPU rank: its power is reported, not distributed */
    PetscInt node, nn;
    PetscCall(EasGetNodeIndex(comm, &node, &nn));
    PetscCall(EasPowerProfileGetFromOptions(PETSC_COMM_SELF, ((PetscObject)b)->prefix, node, nn, &prof, NULL));
    gpuW = prof.gpu_full;
  }
  PetscCall(NodeTdp(b, &tdp, pkg, &npkg, pkgname, &tdpsrc));
  PetscCall(NodeFreqs(b, &fmin, &fmax, &fcur));
  PetscCheck(fmax > 0, PETSC_COMM_SELF, PETSC_ERR_SUP_SYS, "-eas_power_budget: no frequency range: %s/cpu<N>/cpufreq/cpuinfo_{min,max}_freq are not readable here; give the frequencies with -eas_dvfs_freqs <kHz,kHz,...>", b->cpufreq_root);
  PetscCheck(tdp > 0, PETSC_COMM_SELF, PETSC_ERR_SUP_SYS, "-eas_power_budget: no TDP: no powercap package with constraint_0_max_power_uw under %s and no profile cpu_full (-eas_power_cpu_full <W> or -eas_power_profile)", b->rapl_root);
  loc[0] = srank ? 0 : 1;
  loc[1] = Tnode;
  loc[2] = tdp;
  loc[3] = fmin;
  loc[4] = fmax;
  loc[5] = fcur;
  PetscCall(PetscMalloc1((size_t)6 * size, &all));
  PetscCallMPI(MPI_Allgather(loc, 6, MPIU_REAL, all, 6, MPIU_REAL, comm));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &gpuW, 1, MPIU_REAL, MPIU_SUM, comm));
  for (PetscMPIInt r = 0; r < size; r++)
    if (all[6 * r] > 0) nnodes++;
  PetscCall(PetscMalloc3(nnodes, &u, nnodes, &W, nnodes, &F));
  PetscCall(PetscMemzero(dec, sizeof(*dec)));
  {
    PetscReal sumtdp = 0, s;
    PetscInt  k      = 0;
    for (PetscMPIInt r = 0; r < size; r++)
      if (all[6 * r] > 0) sumtdp += all[6 * r + 2];
    PetscCheck(b->budget > gpuW, comm, PETSC_ERR_ARG_OUTOFRANGE, "-eas_power_budget %g W is invalid: the GPUs' profile power alone is %g W", (double)b->budget, (double)gpuW);
    s = PetscMin(1.0, (b->budget - gpuW) / sumtdp); /* UDP: every node the share s of its TDP */
    for (PetscMPIInt r = 0; r < size; r++) {
      const PetscReal *a = &all[6 * r];
      if (!(a[0] > 0)) continue;
      if (r == rank) me = k;
      u[k].fmin    = a[3];
      u[k].fmax    = a[4];
      u[k].tdp     = a[2];
      u[k].fcap    = PetscMax(a[3], s * a[4]);                         /* f_cap = Phi(s TDP), eq. 5.9 (at least f_min: below, the budget is infeasible) */
      u[k].work    = 1;                                                /* N = one window */
      u[k].rate    = a[1] > 0 ? a[1] * a[5] / u[k].fcap : PETSC_SMALL; /* r~ f_cap = T_meas f_cur / N (eq. 5.5) */
      u[k].nlevels = 0;
      k++;
    }
    dec->nunits   = nnodes;
    dec->Wuniform = s * tdp;
  }
  PetscCall(EasModelPowerBudget(nnodes, u, b->budget - gpuW, b->alpha[0], b->alpha[1], W, F, &dec->res)); /* eq. 5.7 */
  PetscCallMPI(MPI_Bcast(&me, 1, MPIU_INT, 0, shm));                                                      /* the node's first rank is its unit */
  dec->W       = W[me];
  dec->f       = F[me];
  dec->Wgpu    = gpu ? gpuW : 0;
  dec->decided = PETSC_TRUE;
  PetscCall(PetscPrintf(comm, "eas: -eas_power_budget %g W (Ribeiro eq. 5.7, alpha %g,%g): %" PetscInt_FMT " node unit(s)%s; T(W) %.4g s per window vs %.4g s under the uniform caps (UDP); ||W||_1 %.4g W%s\n", (double)b->budget, (double)b->alpha[0], (double)b->alpha[1], nnodes, gpuW > 0 ? " (GPU power taken off, reported only)" : "", (double)dec->res.time, (double)dec->res.tcap, (double)dec->res.power, dec->res.feasible ? "" : "; INFEASIBLE: least-power settings"));
  for (PetscInt k = 0; k < nnodes && k < 16; k++) PetscCall(PetscPrintf(comm, "eas: -eas_power_budget: node %" PetscInt_FMT ": W %.4g W (UDP %.4g W, TDP %.4g W) -> f = Phi(W) %.0f kHz (eq. 5.9)\n", k, (double)W[k], (double)(u[k].fcap / u[k].fmax * u[k].tdp), (double)u[k].tdp, (double)F[k]));
  if (b->apply && !srank)
    PetscCall(NodeApply(b, dec->W, dec->f, npkg, pkg, pkgname, tdp, dec->how, sizeof(dec->how)));
  else if (!b->apply)
    PetscCall(PetscStrncpy(dec->how, "report only (-eas_power_budget_apply 0)", sizeof(dec->how)));
  PetscCallMPI(MPI_Bcast(dec->how, sizeof(dec->how), MPI_CHAR, 0, shm));
  PetscCall(PetscPrintf(comm, "eas: -eas_power_budget: node 0 %s (TDP from %s)\n", dec->how, tdpsrc));
  if (gpu) PetscCall(PetscPrintf(PETSC_COMM_SELF, "eas: -eas_power_budget: rank %d GPU %.4g W (profile; NVML power limits are only reported)\n", (int)rank, (double)gpuW));
  PetscCallMPI(MPI_Comm_free(&shm));
  PetscCall(PetscFree3(u, W, F));
  PetscCall(PetscFree(all));
  PetscCall(PetscLogEventEnd(EAS_PowerBudgetDecide, b, 0, 0, 0));
  PetscFunctionReturn(0);
}

/*@C
  EasPowerBudgetRestore - writes back the limits changed (collective).
@*/
PetscErrorCode EasPowerBudgetRestore(EasPowerBudget b)
{
  PetscInt n, tot;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(b, EAS_POWERBUDGET_CLASSID, 1);
  PetscCall(EasSysfsRestore(b->owner, &n));
  PetscCall(MPIU_Allreduce(&n, &tot, 1, MPIU_INT, MPI_SUM, PetscObjectComm((PetscObject)b)));
  if (tot) PetscCall(PetscPrintf(PetscObjectComm((PetscObject)b), "eas: -eas_power_budget: %" PetscInt_FMT " limit(s) restored\n", tot));
  PetscFunctionReturn(0);
}

/*@C
  EasPowerBudgetGetDecision - a copy of the last distribution.
@*/
PetscErrorCode EasPowerBudgetGetDecision(EasPowerBudget b, EasPowerBudgetDecision *dec)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(b, EAS_POWERBUDGET_CLASSID, 1);
  PetscValidPointer(dec, 2);
  *dec = b->dec;
  PetscFunctionReturn(0);
}

PetscErrorCode EasPowerBudgetView(EasPowerBudget b, PetscViewer viewer)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(b, EAS_POWERBUDGET_CLASSID, 1);
  if (!viewer) PetscCall(PetscViewerASCIIGetStdout(PetscObjectComm((PetscObject)b), &viewer));
  PetscCall(PetscViewerASCIIPrintf(viewer, "EasPowerBudget: %g W, alpha %g,%g, %s\n", (double)b->budget, (double)b->alpha[0], (double)b->alpha[1], b->apply ? "apply" : "report"));
  if (b->dec.decided) PetscCall(PetscViewerASCIIPrintf(viewer, "  this node W %g W, f %g kHz (%s)\n", (double)b->dec.W, (double)b->dec.f, b->dec.how));
  PetscFunctionReturn(0);
}

PetscErrorCode EasPowerBudgetDestroy(EasPowerBudget *pb)
{
  PetscFunctionBegin;
  if (!*pb) PetscFunctionReturn(0);
  PetscValidHeaderSpecific(*pb, EAS_POWERBUDGET_CLASSID, 1);
  if (--((PetscObject)(*pb))->refct > 0) {
    *pb = NULL;
    PetscFunctionReturn(0);
  }
  PetscCall(EasSysfsRestore((*pb)->owner, NULL));
  PetscCall(PetscHeaderDestroy(pb));
  PetscFunctionReturn(0);
}
