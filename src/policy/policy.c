/*
  Automatic backend choice (-eas_backend auto with -eas_criterion
  time|energy|edp|ed2p), the layer above the solvers (include/eas/policy.h).

  Predictions (EasPolicyPredict) from the Lang-Runger time model and the
  Vialle et al. node energy model; the choice minimises E T^w (w = 0, 1, 2)
  or T.  Per-element times come from a calibration (eas_calibrate's
  profile: -eas_calib_t_el_* for the DIA rows of the ADR solver,
  -eas_calib_ebe_t_el_* for the EBE elements) and then from the solvers'
  meters, never from a constant: without a device time the device and the
  hybrid are excluded with that reason, without a CPU time there is nothing
  to compare and the answer is the CPU until one is measured.  A device
  that is not usable here is never chosen, and the explanation says why.
*/
#include "policyimpl.h"
#include "../backends/backend.h" /* EasBackendSetAutoResolver */

const char *const EasBackendChoices[] = {"cpu", "gpu", "hybrid", "EasBackendChoice", "EAS_CHOICE_", NULL};
const char *const EasWorkloads[]      = {"dia", "ebe", "EasWorkload", "EAS_WORKLOAD_", NULL};

PetscClassId  EAS_POLICY_CLASSID, EAS_DVFS_CLASSID, EAS_POWERBUDGET_CLASSID;
PetscLogEvent EAS_PolicyChoose, EAS_DvfsDecide, EAS_PowerBudgetDecide;

static PetscBool eas_policy_package_initialized = PETSC_FALSE;

static PetscErrorCode EasPolicyFinalizePackage(void)
{
  PetscFunctionBegin;
  eas_policy_package_initialized = PETSC_FALSE;
  PetscCall(EasBackendSetAutoResolver(NULL));
  PetscFunctionReturn(0);
}

/*@C
  EasPolicyInitializePackage - class ids and log events of the policies,
  and their resolver of -eas_backend auto, registered with the backend
  registry (resolve.c).  EasInitialize calls it.
@*/
PetscErrorCode EasPolicyInitializePackage(void)
{
  PetscFunctionBegin;
  if (eas_policy_package_initialized) PetscFunctionReturn(0);
  eas_policy_package_initialized = PETSC_TRUE;
  PetscCall(PetscMemzero(&eas_policy_ebe_memory, sizeof(eas_policy_ebe_memory)));
  PetscCall(EasBackendSetAutoResolver(EasPolicyResolveBackend_Private)); /* -eas_backend auto: the registry calls it */
  PetscCall(PetscClassIdRegister("EAS Policy", &EAS_POLICY_CLASSID));
  PetscCall(PetscClassIdRegister("EAS Dvfs", &EAS_DVFS_CLASSID));
  PetscCall(PetscClassIdRegister("EAS PowerBudget", &EAS_POWERBUDGET_CLASSID));
  PetscCall(PetscLogEventRegister("EasPolicyChoose", EAS_POLICY_CLASSID, &EAS_PolicyChoose));
  PetscCall(PetscLogEventRegister("EasDvfsDecide", EAS_DVFS_CLASSID, &EAS_DvfsDecide));
  PetscCall(PetscLogEventRegister("EasPowerBudget", EAS_POWERBUDGET_CLASSID, &EAS_PowerBudgetDecide));
  PetscCall(PetscRegisterFinalize(EasPolicyFinalizePackage));
  PetscFunctionReturn(0);
}

static PetscReal Metric(EasCriterion c, PetscReal T, PetscReal E)
{
  if (c == EAS_CRITERION_TIME) return T;
  return E * PetscPowReal(T, EasCriterionExponent(c)); /* E, E T (EDP), E T^2 (ED2P) */
}

/* Energy of a run of time T with busy times of the CPU and GPU: Vialle et
   al. eq. 1.16 (EasModelProfileEnergy). */
static PetscErrorCode Energy(const EasPowerProfile *prof, PetscReal T, PetscReal bcpu, PetscReal bgpu, PetscReal *E)
{
  PetscFunctionBegin;
  PetscCall(EasModelProfileEnergy(prof, T, PetscMin(1.0, bcpu / T), PetscMin(1.0, bgpu / T), E));
  PetscFunctionReturn(0);
}

/*@C
  EasPolicyPredict - time, energy and metric of cpu, gpu and hybrid, and
  the choice (pure function, see eas/policy.h).
@*/
PetscErrorCode EasPolicyPredict(const EasPolicyInput *in, EasCriterion crit, EasPolicyPrediction *out)
{
  const PetscReal N = in ? in->nwork : 0, l = in ? in->its : 0;
  PetscReal       best = PETSC_MAX_REAL, PF_A, PF_B;
  PetscBool       gpu;

  PetscFunctionBegin;
  PetscCheck(in && out, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "EasPolicyPredict: in and out must not be NULL");
  PetscCheck(crit >= EAS_CRITERION_TIME && crit <= EAS_CRITERION_ED2P, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-eas_criterion: %d is not time, energy, edp or ed2p", (int)crit);
  PetscCheck(N > 0 && l > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "EasPolicyPredict: nwork = %g and its = %g must be > 0", (double)N, (double)l);
  PetscCheck(in->t_el_cpu > 0 && !PetscIsInfOrNanReal(in->t_el_cpu), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "EasPolicyPredict: t_el_cpu = %g must be a time > 0 s", (double)in->t_el_cpu);
  PetscCheck(in->t_el_copy >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "EasPolicyPredict: t_el_copy = %g must be >= 0 s", (double)in->t_el_copy);
  gpu = in->gpu && in->t_el_gpu > 0 ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(PetscMemzero(out, sizeof(*out)));
  out->choice = EAS_CHOICE_CPU;

  /* CPU only: T = l N t_el,cpu (Lang-Runger eq. 38 time), CPU busy all along */
  out->time[EAS_CHOICE_CPU] = l * N * in->t_el_cpu;
  PetscCall(Energy(&in->prof, out->time[EAS_CHOICE_CPU], out->time[EAS_CHOICE_CPU], 0, &out->energy[EAS_CHOICE_CPU]));
  out->valid[EAS_CHOICE_CPU] = in->allow[EAS_CHOICE_CPU];
  if (gpu) {
    PetscReal r, tc, tg;
    /* GPU only (Lang-Runger eqs. 22 and 40, r = 1): copies then l matvecs; CPU idle */
    out->time[EAS_CHOICE_GPU] = N * in->t_el_copy + l * N * in->t_el_gpu;
    PetscCall(Energy(&in->prof, out->time[EAS_CHOICE_GPU], 0, out->time[EAS_CHOICE_GPU], &out->energy[EAS_CHOICE_GPU]));
    out->valid[EAS_CHOICE_GPU] = in->allow[EAS_CHOICE_GPU];
    /* hybrid: time-optimal share, Lang-Runger eq. 26 (t_el_cpu is already the whole CPU, so p = q = 1) */
    PetscCall(EasModelLangRungerRatio(in->t_el_cpu, in->t_el_gpu, 1, 1, &r));
    tc                           = l * (1 - r) * N * in->t_el_cpu;
    tg                           = r * N * in->t_el_copy + l * r * N * in->t_el_gpu;
    out->r                       = r;
    out->time[EAS_CHOICE_HYBRID] = PetscMax(tc, tg); /* Lang-Runger eq. 22 */
    PetscCall(Energy(&in->prof, out->time[EAS_CHOICE_HYBRID], tc, tg, &out->energy[EAS_CHOICE_HYBRID]));
    out->valid[EAS_CHOICE_HYBRID] = in->allow[EAS_CHOICE_HYBRID];
    out->alpha                    = in->t_el_cpu / in->t_el_gpu;
  }
  /* frontier of GPU-only against CPU-only at full load (Vialle et al. eq. 1.24, generalised to E T^w) */
  PF_A = in->prof.cpu_idle + in->prof.gpu_full + in->prof.dram;
  PF_B = in->prof.cpu_full + in->prof.gpu_idle + in->prof.dram;
  if (crit == EAS_CRITERION_TIME)
    out->frontier = 1.0;
  else if (PF_B > 0)
    PetscCall(EasModelCriterionFrontier(PF_A, PF_B, EasCriterionExponent(crit), &out->frontier));
  for (PetscInt c = 0; c < EAS_NUM_CHOICES; c++) {
    if (!out->valid[c]) continue;
    out->metric[c] = Metric(crit, out->time[c], out->energy[c]);
    if (out->metric[c] < best) { /* strict: ties keep cpu, then gpu */
      best        = out->metric[c];
      out->choice = (EasBackendChoice)c;
    }
  }
  PetscCheck(best < PETSC_MAX_REAL, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "EasPolicyPredict: no candidate allowed");
  PetscFunctionReturn(0);
}

/*@C
  EasPolicyCreate - the backend choice policy (criterion energy, default
  profile, DIA workload, device /gpu/cuda, no per-element time).
@*/
PetscErrorCode EasPolicyCreate(MPI_Comm comm, EasPolicy *policy)
{
  EasPolicy pol;

  PetscFunctionBegin;
  PetscValidPointer(policy, 2);
  PetscCall(EasPolicyInitializePackage());
  PetscCall(PetscHeaderCreate(pol, EAS_POLICY_CLASSID, "EasPolicy", "eas backend choice", "Sys", comm, EasPolicyDestroy, EasPolicyView));
  pol->crit     = EAS_CRITERION_ENERGY;
  pol->workload = EAS_WORKLOAD_DIA;
  PetscCall(EasPowerProfileDefault(&pol->in.prof));
  pol->in.nwork     = 1;
  pol->in.its       = 1;
  pol->in.t_el_cpu  = 0; /* unknown until calibrated or measured */
  pol->in.t_el_gpu  = 0;
  pol->in.t_el_copy = 0;
  for (PetscInt c = 0; c < EAS_NUM_CHOICES; c++) pol->in.allow[c] = PETSC_TRUE;
  PetscCall(EasPolicySetDevice(pol, "/gpu/cuda"));
  *policy = pol;
  PetscFunctionReturn(0);
}

PetscErrorCode EasPolicySetWorkload(EasPolicy pol, EasWorkload w)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pol, EAS_POLICY_CLASSID, 1);
  PetscCheck(w == EAS_WORKLOAD_DIA || w == EAS_WORKLOAD_EBE, PetscObjectComm((PetscObject)pol), PETSC_ERR_ARG_OUTOFRANGE, "EasPolicySetWorkload: expected EAS_WORKLOAD_DIA or EAS_WORKLOAD_EBE");
  pol->workload = w;
  PetscFunctionReturn(0);
}

/*@C
  EasPolicySetDevice - the device candidate; its usability from the registry.
@*/
PetscErrorCode EasPolicySetDevice(EasPolicy pol, const char resource[])
{
  PetscBool host;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(pol, EAS_POLICY_CLASSID, 1);
  PetscValidCharPointer(resource, 2);
  PetscCall(PetscStrncpy(pol->device, resource, sizeof(pol->device)));
  PetscCall(EasBackendIsAvailable(resource, &pol->in.gpu, &pol->gpu_why));
  if (pol->in.gpu) { /* a host-memory backend is not a device */
    EasBackend be;
    PetscCall(EasBackendCreate(PETSC_COMM_SELF, resource, &be));
    PetscCall(EasBackendIsHost(be, &host));
    PetscCall(EasBackendDestroy(&be));
    PetscCheck(!host, PetscObjectComm((PetscObject)pol), PETSC_ERR_ARG_WRONG, "-eas_policy_device %s is invalid: expected a device backend (whose memory is not the host's), not a CPU backend", resource);
  }
  pol->gpu_forced = PETSC_FALSE;
  PetscFunctionReturn(0);
}

PetscErrorCode EasPolicySetCriterion(EasPolicy pol, EasCriterion c)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pol, EAS_POLICY_CLASSID, 1);
  PetscCheck(c >= EAS_CRITERION_TIME && c <= EAS_CRITERION_ED2P, PetscObjectComm((PetscObject)pol), PETSC_ERR_ARG_OUTOFRANGE, "-eas_criterion: expected time, energy, edp or ed2p");
  pol->crit = c;
  PetscFunctionReturn(0);
}

PetscErrorCode EasPolicySetProfile(EasPolicy pol, const EasPowerProfile *p)
{
  PetscReal E;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(pol, EAS_POLICY_CLASSID, 1);
  PetscCall(EasModelProfileEnergy(p, 1.0, 0.0, 0.0, &E)); /* validates */
  pol->in.prof = *p;
  PetscFunctionReturn(0);
}

PetscErrorCode EasPolicySetWork(EasPolicy pol, PetscReal nwork, PetscReal its)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pol, EAS_POLICY_CLASSID, 1);
  PetscCheck(nwork > 0 && its > 0, PetscObjectComm((PetscObject)pol), PETSC_ERR_ARG_OUTOFRANGE, "EasPolicySetWork: nwork = %g and its = %g must be > 0", (double)nwork, (double)its);
  pol->in.nwork = nwork;
  pol->in.its   = its;
  pol->work_set = PETSC_TRUE;
  PetscFunctionReturn(0);
}

PetscErrorCode EasPolicySetElementTimes(EasPolicy pol, PetscReal tc, PetscReal tg, PetscReal tcopy)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pol, EAS_POLICY_CLASSID, 1);
  PetscCheck(!PetscIsInfOrNanReal(tc) && !PetscIsInfOrNanReal(tg) && !PetscIsInfOrNanReal(tcopy), PetscObjectComm((PetscObject)pol), PETSC_ERR_ARG_OUTOFRANGE, "EasPolicySetElementTimes: the times must be finite");
  if (tc > 0) pol->in.t_el_cpu = tc;
  if (tg > 0) pol->in.t_el_gpu = tg;
  if (tcopy >= 0) pol->in.t_el_copy = tcopy;
  PetscFunctionReturn(0);
}

/*@C
  EasPolicySetFromOptions - -eas_criterion, the profile keys, the
  workload's calibrated times, -eas_policy_device, -eas_policy_work,
  -eas_policy_its.
@*/
PetscErrorCode EasPolicySetFromOptions(EasPolicy pol)
{
  MPI_Comm        comm;
  const char     *prefix;
  PetscInt        node, nnodes;
  EasCriterion    crit = pol->crit;
  PetscReal       tc = -1, tg = -1, tcopy = -1;
  EasPowerProfile prof;
  PetscBool       flg, ebe = pol->workload == EAS_WORKLOAD_EBE ? PETSC_TRUE : PETSC_FALSE;
  char            dev[64];
  PetscOptions    fileopts = NULL;
  const char     *kc = ebe ? "-eas_calib_ebe_t_el_cpu" : "-eas_calib_t_el_cpu";
  const char     *kg = ebe ? "-eas_calib_ebe_t_el_gpu" : "-eas_calib_t_el_gpu";
  const char     *kt = ebe ? "-eas_calib_ebe_t_el_copy" : "-eas_calib_t_el_copy";

  PetscFunctionBegin;
  PetscValidHeaderSpecific(pol, EAS_POLICY_CLASSID, 1);
  PetscCall(PetscObjectGetComm((PetscObject)pol, &comm));
  PetscCall(PetscObjectGetOptionsPrefix((PetscObject)pol, &prefix));
  PetscCall(PetscStrncpy(dev, pol->device, sizeof(dev)));
  PetscObjectOptionsBegin((PetscObject)pol);
  PetscCall(EasCriterionSetFromOptions_Private(PetscOptionsObject, "EasPolicySetCriterion", &crit, &flg));
  if (flg) PetscCall(EasPolicySetCriterion(pol, crit));
  PetscCall(PetscOptionsReal(kc, ebe ? "Calibrated time per EBE element apply on the whole CPU (s; eas_calibrate)" : "Calibrated time per DIA row and iteration on the whole CPU (s; eas_calibrate)", "EasPolicySetElementTimes", pol->in.t_el_cpu, &tc, NULL));
  PetscCall(PetscOptionsReal(kg, ebe ? "Calibrated time per EBE element apply on the device (s; eas_calibrate)" : "Calibrated time per DIA row and iteration on the device (s; eas_calibrate)", "EasPolicySetElementTimes", pol->in.t_el_gpu, &tg, NULL));
  PetscCall(PetscOptionsReal(kt, "Calibrated host-to-device copy time per element (s; eas_calibrate)", "EasPolicySetElementTimes", pol->in.t_el_copy, &tcopy, NULL));
  PetscCall(PetscOptionsString("-eas_policy_device", "The device candidate of -eas_backend auto (a backend resource whose memory is not the host's)", "EasPolicySetDevice", dev, dev, sizeof(dev), &flg));
  {
    PetscReal nw = pol->in.nwork, its = pol->in.its;
    PetscBool f1, f2;
    PetscCall(PetscOptionsReal("-eas_policy_work", "Elements (rows) per iteration assumed before the solve", "EasPolicySetWork", nw, &nw, &f1));
    PetscCall(PetscOptionsReal("-eas_policy_its", "Iterations assumed before the solve", "EasPolicySetWork", its, &its, &f2));
    if (f1 || f2) PetscCall(EasPolicySetWork(pol, nw, its));
  }
  PetscOptionsEnd();
  PetscCall(EasPowerProfileGetFile_Private(comm, prefix, &fileopts)); /* -eas_power_profile: the file's keys */
  if (fileopts) { /* the calibrated times of a profile file that was not inserted with -options_file */
    PetscReal v;
    PetscBool has;
    PetscCall(PetscOptionsGetReal(fileopts, prefix, kc, &v, &has));
    if (has && tc <= 0) tc = v;
    PetscCall(PetscOptionsGetReal(fileopts, prefix, kg, &v, &has));
    if (has && tg <= 0) tg = v;
    PetscCall(PetscOptionsGetReal(fileopts, prefix, kt, &v, &has));
    if (has && tcopy < 0) tcopy = v;
    PetscCall(PetscOptionsDestroy(&fileopts));
  }
  PetscCheck(tc < 0 || tc > 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "%s 0 is invalid: expected a time per element > 0 s", kc);
  PetscCheck(tg < 0 || tg > 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "%s 0 is invalid: expected a time per element > 0 s", kg);
  PetscCall(EasPolicySetElementTimes(pol, tc, tg, tcopy));
  if (!pol->gpu_forced) PetscCall(EasPolicySetDevice(pol, dev));
  PetscCall(EasGetNodeIndex(comm, &node, &nnodes));
  PetscCall(EasPowerProfileGetFromOptions(comm, prefix, node, nnodes, &prof, NULL));
  PetscCall(EasPolicySetProfile(pol, &prof));
  PetscFunctionReturn(0);
}

static const char *ChoiceResource(EasPolicy pol, EasBackendChoice c)
{
  return c == EAS_CHOICE_CPU ? "/cpu" : c == EAS_CHOICE_GPU ? pol->device
                                                            : "hybrid";
}

/* The prediction, or the reason there is none: without a CPU time there is
   nothing to compare, the CPU is kept. */
static PetscErrorCode Decide(EasPolicy pol)
{
  PetscFunctionBegin;
  if (pol->in.t_el_cpu > 0) {
    PetscCall(EasPolicyPredict(&pol->in, pol->crit, &pol->pred));
    pol->have_pred = PETSC_TRUE;
  } else {
    PetscCall(PetscMemzero(&pol->pred, sizeof(pol->pred)));
    PetscCheck(pol->in.allow[EAS_CHOICE_CPU], PetscObjectComm((PetscObject)pol), PETSC_ERR_ARG_WRONG, "-eas_backend auto: no per-element CPU time to compare with and the CPU is not a candidate");
    pol->pred.choice                = EAS_CHOICE_CPU;
    pol->pred.valid[EAS_CHOICE_CPU] = PETSC_TRUE;
    pol->have_pred                  = PETSC_FALSE;
  }
  PetscCall(PetscStrncpy(pol->resource, ChoiceResource(pol, pol->pred.choice), sizeof(pol->resource)));
  PetscFunctionReturn(0);
}

static PetscErrorCode Explain(EasPolicy pol)
{
  const EasPolicyPrediction *p = &pol->pred;
  char                       buf[512];
  const char                *kc = pol->workload == EAS_WORKLOAD_EBE ? "-eas_calib_ebe_t_el_cpu" : "-eas_calib_t_el_cpu";
  const char                *kg = pol->workload == EAS_WORKLOAD_EBE ? "-eas_calib_ebe_t_el_gpu" : "-eas_calib_t_el_gpu";

  PetscFunctionBegin;
  if (pol->have_pred)
    PetscCall(PetscSNPrintf(pol->explanation, sizeof(pol->explanation), "chose %s (criterion %s%s): predicted cpu T=%.4g s E=%.4g J", pol->resource, EasCriterions[pol->crit], pol->work_set ? "" : "; work not known yet, figures per element and iteration", (double)p->time[0], (double)p->energy[0]));
  else
    PetscCall(PetscSNPrintf(pol->explanation, sizeof(pol->explanation), "chose /cpu (criterion %s): no CPU per-element time to compare with (%s from eas_calibrate, or measured after the first iterations)", EasCriterions[pol->crit], kc));
  if (!pol->in.gpu) {
    PetscCall(PetscSNPrintf(buf, sizeof(buf), "; gpu and hybrid excluded: %s is not usable: %s", pol->device, pol->gpu_why ? pol->gpu_why : "not available"));
  } else if (!(pol->in.t_el_gpu > 0)) {
    PetscCall(PetscSNPrintf(buf, sizeof(buf), "; gpu and hybrid excluded: no per-element time of %s (%s from eas_calibrate, or measured)", pol->device, kg));
  } else if (!pol->have_pred) {
    PetscCall(PetscSNPrintf(buf, sizeof(buf), "; %s: %.4g s per element, not compared", pol->device, (double)pol->in.t_el_gpu));
  } else {
    PetscCall(PetscSNPrintf(buf, sizeof(buf), "; gpu (%s) T=%.4g s E=%.4g J; hybrid (r=%.3g) T=%.4g s E=%.4g J; GPU speedup alpha=%.4g, frontier %.4g (Vialle et al. eq. 1.24)", pol->device, (double)p->time[1], (double)p->energy[1], (double)p->r, (double)p->time[2], (double)p->energy[2], (double)p->alpha, (double)p->frontier));
  }
  PetscCall(PetscStrlcat(pol->explanation, buf, sizeof(pol->explanation)));
  PetscFunctionReturn(0);
}

/*@C
  EasPolicyChooseBackend - predicts and chooses; prints
  "eas: -eas_backend auto: <explanation>" on rank 0.
@*/
PetscErrorCode EasPolicyChooseBackend(EasPolicy pol, const char *resource[], const char *explanation[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pol, EAS_POLICY_CLASSID, 1);
  PetscCall(PetscLogEventBegin(EAS_PolicyChoose, 0, 0, 0, 0));
  PetscCall(Decide(pol));
  pol->decided = PETSC_TRUE;
  pol->ndecisions++;
  PetscCall(Explain(pol));
  PetscCall(PetscPrintf(PetscObjectComm((PetscObject)pol), "eas: -eas_backend auto: %s\n", pol->explanation));
  if (resource) *resource = pol->resource;
  if (explanation) *explanation = pol->explanation;
  PetscCall(PetscLogEventEnd(EAS_PolicyChoose, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/*@C
  EasPolicyUpdate - decides again from measured per-element times.
@*/
PetscErrorCode EasPolicyUpdate(EasPolicy pol, PetscReal tc, PetscReal tg, PetscBool *changed, const char *resource[])
{
  char old[64];

  PetscFunctionBegin;
  PetscValidHeaderSpecific(pol, EAS_POLICY_CLASSID, 1);
  PetscCheck(pol->decided, PetscObjectComm((PetscObject)pol), PETSC_ERR_ORDER, "EasPolicyUpdate before EasPolicyChooseBackend");
  PetscCall(PetscStrncpy(old, pol->resource, sizeof(old)));
  PetscCall(EasPolicySetElementTimes(pol, tc, tg, -1));
  PetscCall(Decide(pol));
  pol->nupdates++;
  {
    PetscBool same;
    PetscCall(PetscStrcmp(old, pol->resource, &same));
    if (changed) *changed = same ? PETSC_FALSE : PETSC_TRUE;
    if (!same) {
      pol->ndecisions++;
      pol->nchanges++;
      PetscCall(Explain(pol));
      PetscCall(PetscPrintf(PetscObjectComm((PetscObject)pol), "eas: -eas_backend auto: measured times change the answer (%s -> %s): %s\n", old, pol->resource, pol->explanation));
    } else
      PetscCall(Explain(pol)); /* same answer; the figures are the new ones */
  }
  if (resource) *resource = pol->resource;
  PetscFunctionReturn(0);
}

PetscErrorCode EasPolicySetGpuAvailable(EasPolicy pol, PetscBool gpu, const char why[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pol, EAS_POLICY_CLASSID, 1);
  pol->in.gpu     = gpu;
  pol->gpu_why    = why; /* a static string */
  pol->gpu_forced = PETSC_TRUE;
  PetscFunctionReturn(0);
}

PetscErrorCode EasPolicySetCandidates(EasPolicy pol, PetscBool cpu, PetscBool gpu, PetscBool hybrid)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pol, EAS_POLICY_CLASSID, 1);
  PetscCheck(cpu || gpu || hybrid, PetscObjectComm((PetscObject)pol), PETSC_ERR_ARG_WRONG, "EasPolicySetCandidates: allow at least one of cpu, gpu, hybrid");
  pol->in.allow[EAS_CHOICE_CPU]    = cpu;
  pol->in.allow[EAS_CHOICE_GPU]    = gpu;
  pol->in.allow[EAS_CHOICE_HYBRID] = hybrid;
  PetscFunctionReturn(0);
}

PetscErrorCode EasPolicySetMeasured(EasPolicy pol, PetscReal T, PetscReal E, PetscBool measured)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pol, EAS_POLICY_CLASSID, 1);
  pol->Tmeas     = T;
  pol->Emeas     = E;
  pol->Emeasured = measured;
  pol->Esource   = measured ? "measured" : "modelled";
  pol->have_meas = PETSC_TRUE;
  PetscFunctionReturn(0);
}

PetscErrorCode EasPolicyGetPrediction(EasPolicy pol, EasPolicyPrediction *p)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pol, EAS_POLICY_CLASSID, 1);
  PetscCheck(pol->decided, PetscObjectComm((PetscObject)pol), PETSC_ERR_ORDER, "no decision yet: call EasPolicyChooseBackend");
  *p = pol->pred;
  PetscFunctionReturn(0);
}

PetscErrorCode EasPolicyGetUpdates(EasPolicy pol, PetscInt *nupdates, PetscInt *nchanges, const char *resource[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pol, EAS_POLICY_CLASSID, 1);
  if (nupdates) *nupdates = pol->nupdates;
  if (nchanges) *nchanges = pol->nchanges;
  if (resource) *resource = pol->nupdates ? pol->resource : NULL;
  PetscFunctionReturn(0);
}

/*@C
  EasPolicyCreateBackend - chooses between the CPU and the device and
  creates the answer on comm.
@*/
PetscErrorCode EasPolicyCreateBackend(EasPolicy pol, MPI_Comm comm, EasBackend *be)
{
  PetscBool hybrid;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(pol, EAS_POLICY_CLASSID, 1);
  PetscValidPointer(be, 3);
  PetscCheck(!pol->in.allow[EAS_CHOICE_HYBRID], PetscObjectComm((PetscObject)pol), PETSC_ERR_ARG_WRONG, "EasPolicyCreateBackend: the hybrid is a split of the EBE operator (EasPolicyConfigureEbe); remove it from the candidates (EasPolicySetCandidates)");
  if (!pol->decided) PetscCall(EasPolicyChooseBackend(pol, NULL, NULL));
  PetscCall(PetscStrcmp(pol->resource, "hybrid", &hybrid));
  PetscCheck(!hybrid, PetscObjectComm((PetscObject)pol), PETSC_ERR_PLIB, "EasPolicyCreateBackend: hybrid chosen though not a candidate");
  PetscCall(EasBackendCreate(comm, pol->resource, be));
  PetscCall(PetscObjectSetOptionsPrefix((PetscObject)*be, ((PetscObject)pol)->prefix));
  PetscCall(EasBackendSetFromOptions(*be));
  PetscFunctionReturn(0);
}

/* The choice for an EBE operator, its backend created on comm (the hybrid:
   /cpu, the split units (device, /cpu) set on the operator). */
PetscErrorCode EasPolicyChooseEbe_Private(EasPolicy pol, EasEbe ebe, MPI_Comm comm, EasBackend *be)
{
  EasBackend units[2];
  PetscBool  hybrid;

  PetscFunctionBegin;
  PetscCall(EasPolicyChooseBackend(pol, NULL, NULL)); /* prints the decision and its predicted numbers */
  PetscCall(PetscStrcmp(pol->resource, "hybrid", &hybrid));
  PetscCall(EasBackendCreate(comm, hybrid ? "/cpu" : pol->resource, be));
  PetscCall(PetscObjectSetOptionsPrefix((PetscObject)*be, ((PetscObject)pol)->prefix));
  PetscCall(EasBackendSetFromOptions(*be));
  if (hybrid) { /* Lang-Runger Alg. 2: the device and the CPU share the elements, the split balances them (eq. 26) */
    PetscCall(EasBackendCreate(PETSC_COMM_SELF, pol->device, &units[0]));
    PetscCall(PetscObjectSetOptionsPrefix((PetscObject)units[0], ((PetscObject)pol)->prefix));
    PetscCall(EasBackendSetFromOptions(units[0]));
    units[1] = *be;
    PetscCall(EasEbeSetSplitUnits(ebe, 2, units));
    PetscCall(EasBackendDestroy(&units[0]));
  }
  PetscFunctionReturn(0);
}

/*@C
  EasPolicyConfigureEbe - chooses for the operator and configures it:
  backend, and for the hybrid the split units (device, /cpu).
@*/
PetscErrorCode EasPolicyConfigureEbe(EasPolicy pol, EasEbe ebe)
{
  EasBackend be;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(pol, EAS_POLICY_CLASSID, 1);
  PetscCall(EasPolicyChooseEbe_Private(pol, ebe, PETSC_COMM_SELF, &be));
  PetscCall(EasEbeSetBackend(ebe, be));
  PetscCall(EasBackendDestroy(&be));
  PetscFunctionReturn(0);
}

/*@C
  EasPolicyView - the decision and, when measured, predicted vs measured.
@*/
PetscErrorCode EasPolicyView(EasPolicy pol, PetscViewer viewer)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pol, EAS_POLICY_CLASSID, 1);
  if (!viewer) PetscCall(PetscViewerASCIIGetStdout(PetscObjectComm((PetscObject)pol), &viewer));
  if (!pol->decided) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "EasPolicy: criterion %s, no decision yet\n", EasCriterions[pol->crit]));
    PetscFunctionReturn(0);
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "EasPolicy: %s (%" PetscInt_FMT " decision(s))\n", pol->explanation, pol->ndecisions));
  if (pol->have_meas) {
    const PetscInt c = pol->pred.choice;
    if (!pol->have_pred)
      PetscCall(PetscViewerASCIIPrintf(viewer, "EasPolicy: %s predicted n/a (no per-element time), measured T=%.4g s\n", pol->resource, (double)pol->Tmeas));
    else if (pol->Emeas >= 0)
      PetscCall(PetscViewerASCIIPrintf(viewer, "EasPolicy: %s predicted T=%.4g s E=%.4g J, measured T=%.4g s E=%.4g J (%s), ratios %.3g %.3g\n", pol->resource, (double)pol->pred.time[c], (double)pol->pred.energy[c], (double)pol->Tmeas, (double)pol->Emeas, pol->Esource, (double)(pol->Tmeas / pol->pred.time[c]), (double)(pol->Emeas / pol->pred.energy[c])));
    else
      PetscCall(PetscViewerASCIIPrintf(viewer, "EasPolicy: %s predicted T=%.4g s E=%.4g J, measured T=%.4g s E=n/a\n", pol->resource, (double)pol->pred.time[c], (double)pol->pred.energy[c], (double)pol->Tmeas));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode EasPolicyDestroy(EasPolicy *policy)
{
  PetscFunctionBegin;
  if (!*policy) PetscFunctionReturn(0);
  PetscValidHeaderSpecific(*policy, EAS_POLICY_CLASSID, 1);
  if (--((PetscObject)(*policy))->refct > 0) {
    *policy = NULL;
    PetscFunctionReturn(0);
  }
  PetscCall(PetscHeaderDestroy(policy));
  PetscFunctionReturn(0);
}
