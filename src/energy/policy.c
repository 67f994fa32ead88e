/*
  Automatic backend choice (DESIGN.md sec. 6, -eas_backend auto with
  -eas_criterion time|energy|edp|ed2p).

  Predictions (EasPolicyPredict) from the seed 001 time model and the seed
  000 node energy model; the choice minimises E T^w (w = 0, 1, 2) or T.
  A GPU that is not usable here is never chosen, and the explanation says why.
*/
#include "energyimpl.h"

const char *const        EasCriteria[]       = {"time", "energy", "edp", "ed2p", "EasCriterion", "EAS_CRITERION_", NULL};
const char *const        EasBackendChoices[] = {"cpu", "gpu", "hybrid", "EasBackendChoice", "EAS_CHOICE_", NULL};
static const char *const ChoiceResource[]    = {"/cpu", "/gpu/cuda", "hybrid"};

PETSC_EXTERN PetscLogEvent EAS_PolicyChoose;

static PetscReal CriterionExponent(EasCriterion c)
{
  return c == EAS_CRITERION_ENERGY ? 0.0 : c == EAS_CRITERION_EDP ? 1.0
                                                                  : 2.0;
}

static PetscReal Metric(EasCriterion c, PetscReal T, PetscReal E)
{
  if (c == EAS_CRITERION_TIME) return T;
  return E * PetscPowReal(T, CriterionExponent(c)); /* E, E T (EDP), E T^2 (ED2P) */
}

/* Energy of a run of time T with busy times of the CPU and GPU: seed 000
   eq. 1.16 (EasModelProfileEnergy). */
static PetscErrorCode Energy(const EasPowerProfile *prof, PetscReal T, PetscReal bcpu, PetscReal bgpu, PetscReal *E)
{
  PetscFunctionBegin;
  PetscCall(EasModelProfileEnergy(prof, T, PetscMin(1.0, bcpu / T), PetscMin(1.0, bgpu / T), E));
  PetscFunctionReturn(0);
}

/*@C
  EasPolicyPredict - time, energy and metric of cpu, gpu and hybrid, and
  the choice (pure function, see eas/meter.h).
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

  /* CPU only: T = l N t_el,cpu (seed 001 eq. 38 time), CPU busy all along */
  out->time[EAS_CHOICE_CPU] = l * N * in->t_el_cpu;
  PetscCall(Energy(&in->prof, out->time[EAS_CHOICE_CPU], out->time[EAS_CHOICE_CPU], 0, &out->energy[EAS_CHOICE_CPU]));
  out->valid[EAS_CHOICE_CPU] = in->allow[EAS_CHOICE_CPU];
  if (gpu) {
    PetscReal r, tc, tg;
    /* GPU only (seed 001 eqs. 22 and 40, r = 1): copies then l matvecs; CPU idle */
    out->time[EAS_CHOICE_GPU] = N * in->t_el_copy + l * N * in->t_el_gpu;
    PetscCall(Energy(&in->prof, out->time[EAS_CHOICE_GPU], 0, out->time[EAS_CHOICE_GPU], &out->energy[EAS_CHOICE_GPU]));
    out->valid[EAS_CHOICE_GPU] = in->allow[EAS_CHOICE_GPU];
    /* hybrid: time-optimal share, seed 001 eq. 26 (t_el_cpu is already the whole CPU, so p = q = 1) */
    PetscCall(EasModelLangRungerRatio(in->t_el_cpu, in->t_el_gpu, 1, 1, &r));
    tc                           = l * (1 - r) * N * in->t_el_cpu;
    tg                           = r * N * in->t_el_copy + l * r * N * in->t_el_gpu;
    out->r                       = r;
    out->time[EAS_CHOICE_HYBRID] = PetscMax(tc, tg); /* seed 001 eq. 22 */
    PetscCall(Energy(&in->prof, out->time[EAS_CHOICE_HYBRID], tc, tg, &out->energy[EAS_CHOICE_HYBRID]));
    out->valid[EAS_CHOICE_HYBRID] = in->allow[EAS_CHOICE_HYBRID];
    out->alpha                    = in->t_el_cpu / in->t_el_gpu;
  }
  /* frontier of GPU-only against CPU-only at full load (seed 000 eq. 1.24, generalised to E T^w) */
  PF_A = in->prof.cpu_idle + in->prof.gpu_full + in->prof.dram;
  PF_B = in->prof.cpu_full + in->prof.gpu_idle + in->prof.dram;
  if (crit == EAS_CRITERION_TIME)
    out->frontier = 1.0;
  else if (PF_B > 0)
    PetscCall(EasModelCriterionFrontier(PF_A, PF_B, CriterionExponent(crit), &out->frontier));
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
  profile, GPU availability from the backend registry).
@*/
PetscErrorCode EasPolicyCreate(MPI_Comm comm, EasPolicy *policy)
{
  EasPolicy pol;

  PetscFunctionBegin;
  PetscValidPointer(policy, 2);
  PetscCall(EasEnergyInitializePackage());
  PetscCall(PetscHeaderCreate(pol, EAS_POLICY_CLASSID, "EasPolicy", "eas backend choice", "Sys", comm, EasPolicyDestroy, EasPolicyView));
  pol->crit = EAS_CRITERION_ENERGY;
  PetscCall(EasPowerProfileDefault(&pol->in.prof));
  pol->in.nwork     = 1;
  pol->in.its       = 1;
  pol->in.t_el_cpu  = 3.0e-9; /* DESIGN.md sec. 9: 88 B/row DIA SpMV at ~30 GB/s */
  pol->in.t_el_gpu  = 0;      /* unknown until calibrated or measured */
  pol->in.t_el_copy = 0;
  for (PetscInt c = 0; c < EAS_NUM_CHOICES; c++) pol->in.allow[c] = PETSC_TRUE;
  PetscCall(EasBackendIsAvailable("/gpu/cuda", &pol->in.gpu, &pol->gpu_why));
  *policy = pol;
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
  if (tc > 0) pol->in.t_el_cpu = tc;
  if (tg > 0) pol->in.t_el_gpu = tg;
  if (tcopy >= 0) pol->in.t_el_copy = tcopy;
  PetscFunctionReturn(0);
}

/*@C
  EasPolicySetFromOptions - -eas_criterion, the profile keys,
  -eas_calib_t_el_cpu/-eas_calib_t_el_gpu/-eas_calib_t_el_copy (s/element),
  -eas_policy_work <N> -eas_policy_its <l>.
@*/
PetscErrorCode EasPolicySetFromOptions(EasPolicy pol)
{
  MPI_Comm        comm;
  const char     *prefix;
  PetscInt        node, nnodes, crit = (PetscInt)pol->crit;
  PetscReal       tc = -1, tg = -1, tcopy = -1;
  EasPowerProfile prof;
  PetscBool       flg;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(pol, EAS_POLICY_CLASSID, 1);
  PetscCall(PetscObjectGetComm((PetscObject)pol, &comm));
  PetscCall(PetscObjectGetOptionsPrefix((PetscObject)pol, &prefix));
  PetscObjectOptionsBegin((PetscObject)pol);
  PetscCall(PetscOptionsEList("-eas_criterion", "What -eas_backend auto minimises", "EasPolicySetCriterion", EasCriteria, 4, EasCriteria[pol->crit], &crit, &flg));
  if (flg) PetscCall(EasPolicySetCriterion(pol, (EasCriterion)crit));
  PetscCall(PetscOptionsReal("-eas_calib_t_el_cpu", "Calibrated time per element (row) on the whole CPU (s)", "EasPolicySetElementTimes", pol->in.t_el_cpu, &tc, NULL));
  PetscCall(PetscOptionsReal("-eas_calib_t_el_gpu", "Calibrated time per element (row) on the GPU (s)", "EasPolicySetElementTimes", pol->in.t_el_gpu, &tg, NULL));
  PetscCall(PetscOptionsReal("-eas_calib_t_el_copy", "Calibrated host-to-GPU copy time per element (s)", "EasPolicySetElementTimes", pol->in.t_el_copy, &tcopy, NULL));
  {
    PetscReal nw = pol->in.nwork, its = pol->in.its;
    PetscBool f1, f2;
    PetscCall(PetscOptionsReal("-eas_policy_work", "Elements (rows) per iteration assumed before the solve", "EasPolicySetWork", nw, &nw, &f1));
    PetscCall(PetscOptionsReal("-eas_policy_its", "Iterations assumed before the solve", "EasPolicySetWork", its, &its, &f2));
    if (f1 || f2) PetscCall(EasPolicySetWork(pol, nw, its));
  }
  PetscOptionsEnd();
  PetscCall(EasPolicySetElementTimes(pol, tc, tg, tcopy));
  PetscCall(EasGetNodeIndex(comm, &node, &nnodes));
  PetscCall(EasPowerProfileGetFromOptions(comm, prefix, node, nnodes, &prof, NULL));
  PetscCall(EasPolicySetProfile(pol, &prof));
  PetscFunctionReturn(0);
}

static PetscErrorCode Explain(EasPolicy pol)
{
  const EasPolicyPrediction *p = &pol->pred;
  char                       buf[256];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(pol->explanation, sizeof(pol->explanation), "chose %s (criterion %s%s): predicted cpu T=%.4g s E=%.4g J", ChoiceResource[p->choice], EasCriteria[pol->crit], pol->work_set ? "" : "; work not known yet, figures per element and iteration", (double)p->time[0], (double)p->energy[0]));
  if (!pol->in.gpu) {
    PetscCall(PetscSNPrintf(buf, sizeof(buf), "; gpu and hybrid excluded: /gpu/cuda is not usable: %s", pol->gpu_why ? pol->gpu_why : "not available"));
  } else if (!(pol->in.t_el_gpu > 0)) {
    PetscCall(PetscSNPrintf(buf, sizeof(buf), "; gpu and hybrid excluded: no GPU per-element time yet (run eas_calibrate or measure)"));
  } else {
    PetscCall(PetscSNPrintf(buf, sizeof(buf), "; gpu T=%.4g s E=%.4g J; hybrid (r=%.3g) T=%.4g s E=%.4g J; GPU speedup alpha=%.4g, frontier %.4g (seed 000 eq. 1.24)", (double)p->time[1], (double)p->energy[1], (double)p->r, (double)p->time[2], (double)p->energy[2], (double)p->alpha, (double)p->frontier));
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
  PetscCall(EasPolicyPredict(&pol->in, pol->crit, &pol->pred));
  pol->decided = PETSC_TRUE;
  pol->ndecisions++;
  PetscCall(Explain(pol));
  PetscCall(PetscPrintf(PetscObjectComm((PetscObject)pol), "eas: -eas_backend auto: %s\n", pol->explanation));
  if (resource) *resource = ChoiceResource[pol->pred.choice];
  if (explanation) *explanation = pol->explanation;
  PetscCall(PetscLogEventEnd(EAS_PolicyChoose, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/*@C
  EasPolicyUpdate - decides again from measured per-element times.
@*/
PetscErrorCode EasPolicyUpdate(EasPolicy pol, PetscReal tc, PetscReal tg, PetscBool *changed, const char *resource[])
{
  EasBackendChoice old;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(pol, EAS_POLICY_CLASSID, 1);
  PetscCheck(pol->decided, PetscObjectComm((PetscObject)pol), PETSC_ERR_ORDER, "EasPolicyUpdate before EasPolicyChooseBackend");
  old = pol->pred.choice;
  PetscCall(EasPolicySetElementTimes(pol, tc, tg, -1));
  PetscCall(EasPolicyPredict(&pol->in, pol->crit, &pol->pred));
  if (changed) *changed = pol->pred.choice != old ? PETSC_TRUE : PETSC_FALSE;
  if (pol->pred.choice != old) {
    pol->ndecisions++;
    PetscCall(Explain(pol));
    PetscCall(PetscPrintf(PetscObjectComm((PetscObject)pol), "eas: -eas_backend auto: measured times change the answer (%s -> %s): %s\n", ChoiceResource[old], ChoiceResource[pol->pred.choice], pol->explanation));
  }
  if (resource) *resource = ChoiceResource[pol->pred.choice];
  PetscFunctionReturn(0);
}

PetscErrorCode EasPolicySetGpuAvailable(EasPolicy pol, PetscBool gpu, const char why[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pol, EAS_POLICY_CLASSID, 1);
  pol->in.gpu  = gpu;
  pol->gpu_why = why; /* a static string */
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

/*@C
  EasPolicyView - the decision and, when measured, predicted vs measured.
@*/
PetscErrorCode EasPolicyView(EasPolicy pol, PetscViewer viewer)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pol, EAS_POLICY_CLASSID, 1);
  if (!viewer) PetscCall(PetscViewerASCIIGetStdout(PetscObjectComm((PetscObject)pol), &viewer));
  if (!pol->decided) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "EasPolicy: criterion %s, no decision yet\n", EasCriteria[pol->crit]));
    PetscFunctionReturn(0);
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "EasPolicy: %s (%" PetscInt_FMT " decision(s))\n", pol->explanation, pol->ndecisions));
  if (pol->have_meas) {
    const PetscInt c = pol->pred.choice;
    if (pol->Emeas >= 0)
      PetscCall(PetscViewerASCIIPrintf(viewer, "EasPolicy: %s predicted T=%.4g s E=%.4g J, measured T=%.4g s E=%.4g J (%s), ratios %.3g %.3g\n", ChoiceResource[c], (double)pol->pred.time[c], (double)pol->pred.energy[c], (double)pol->Tmeas, (double)pol->Emeas, pol->Emeasured ? "measured" : "modelled", (double)(pol->Tmeas / pol->pred.time[c]), (double)(pol->Emeas / pol->pred.energy[c])));
    else
      PetscCall(PetscViewerASCIIPrintf(viewer, "EasPolicy: %s predicted T=%.4g s E=%.4g J, measured T=%.4g s E=n/a\n", ChoiceResource[c], (double)pol->pred.time[c], (double)pol->pred.energy[c], (double)pol->Tmeas));
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
