static const char help[] = "Automatic backend choice: the CPU/GPU choice flips exactly at the frontier alpha (just below and\n"
                           "just above) for each criterion; the online re-decision; -eas_backend auto on this machine.\n"
                           "  -case frontier|online|auto\n\n";

#include <eas.h>

static PetscInt nchecks = 0;

static PetscErrorCode CaseFrontier(void)
{
  EasPolicyInput      in;
  EasPolicyPrediction pr;
  const PetscReal     eps = 1e-6, tcpu = 2.0e-6;
  PetscReal           PF_A, PF_B;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(&in, sizeof(in)));
  PetscCall(EasPowerProfileDefault(&in.prof));
  in.nwork                 = 1e5;
  in.its                   = 50;
  in.t_el_cpu              = tcpu;
  in.gpu                   = PETSC_TRUE;
  in.allow[EAS_CHOICE_CPU] = in.allow[EAS_CHOICE_GPU] = PETSC_TRUE; /* cpu against gpu, no hybrid, no copies */
  /* full-load node powers: A = GPU busy, CPU idle; B = CPU busy (seed 000 eq. 1.24) */
  PF_A = in.prof.cpu_idle + in.prof.gpu_full + in.prof.dram;
  PF_B = in.prof.cpu_full + in.prof.gpu_idle + in.prof.dram;
  for (PetscInt c = EAS_CRITERION_TIME; c <= EAS_CRITERION_ED2P; c++) {
    /* by hand: time 1; E T^w: (PF_A/PF_B)^(1/(w+1)) */
    const PetscReal w     = c == EAS_CRITERION_ENERGY ? 0 : c == EAS_CRITERION_EDP ? 1
                                                                                   : 2;
    const PetscReal alpha = c == EAS_CRITERION_TIME ? 1.0 : PetscPowReal(PF_A / PF_B, 1.0 / (w + 1));

    in.t_el_gpu = tcpu / (alpha * (1 - eps)); /* just below the frontier: the CPU */
    PetscCall(EasPolicyPredict(&in, (EasCriterion)c, &pr));
    PetscCheck(PetscAbsReal(pr.frontier - alpha) <= 1e-12 * alpha, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: frontier %.15g, by hand %.15g", EasCriteria[c], (double)pr.frontier, (double)alpha);
    PetscCheck(pr.choice == EAS_CHOICE_CPU, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: speedup %.9g just below alpha %.9g chose %s, expected cpu", EasCriteria[c], (double)pr.alpha, (double)alpha, EasBackendChoices[pr.choice]);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-6s alpha = %.9f (by hand %.9f): speedup alpha(1-1e-6) -> %s", EasCriteria[c], (double)pr.frontier, (double)alpha, EasBackendChoices[pr.choice]));
    in.t_el_gpu = tcpu / (alpha * (1 + eps)); /* just above: the GPU */
    PetscCall(EasPolicyPredict(&in, (EasCriterion)c, &pr));
    PetscCheck(pr.choice == EAS_CHOICE_GPU, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: speedup %.9g just above alpha %.9g chose %s, expected gpu", EasCriteria[c], (double)pr.alpha, (double)alpha, EasBackendChoices[pr.choice]);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, ", alpha(1+1e-6) -> %s\n", EasBackendChoices[pr.choice]));
    nchecks += 3;
  }
  {
    PetscReal a;
    PetscCall(EasModelCriterionFrontier(PF_A, PF_B, 0, &a));
    PetscCheck(PetscAbsReal(a - 229.3125 / 171.5625) < 1e-12, PETSC_COMM_SELF, PETSC_ERR_PLIB, "energy frontier %.15g, expected 229.3125/171.5625 (seed 000 Table 1.1 means)", (double)a);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  energy frontier of the default profile: %.6f = 229.3125/171.5625 (seed 000 Table 1.1 means, eq. 1.24)\n", (double)a));
    nchecks++;
  }
  /* with the hybrid allowed and equal speeds, time picks the hybrid (r = 1/2, seed 001 eq. 26) */
  in.allow[EAS_CHOICE_HYBRID] = PETSC_TRUE;
  in.t_el_gpu                 = tcpu;
  PetscCall(EasPolicyPredict(&in, EAS_CRITERION_TIME, &pr));
  PetscCheck(pr.choice == EAS_CHOICE_HYBRID && PetscAbsReal(pr.r - 0.5) < 1e-15 && PetscAbsReal(pr.time[EAS_CHOICE_HYBRID] - 0.5 * pr.time[EAS_CHOICE_CPU]) < 1e-12, PETSC_COMM_SELF, PETSC_ERR_PLIB, "equal speeds: expected hybrid with r = 1/2 and half the time");
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  equal speeds, criterion time: hybrid, r = %g, T = %g s = T_cpu/2\n", (double)pr.r, (double)pr.time[EAS_CHOICE_HYBRID]));
  nchecks++;
  /* no GPU: the CPU whatever the criterion */
  in.gpu = PETSC_FALSE;
  for (PetscInt c = EAS_CRITERION_TIME; c <= EAS_CRITERION_ED2P; c++) {
    PetscCall(EasPolicyPredict(&in, (EasCriterion)c, &pr));
    PetscCheck(pr.choice == EAS_CHOICE_CPU && !pr.valid[EAS_CHOICE_GPU] && !pr.valid[EAS_CHOICE_HYBRID], PETSC_COMM_SELF, PETSC_ERR_PLIB, "no GPU: expected cpu");
    nchecks++;
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode CaseOnline(void)
{
  EasPolicy   pol;
  const char *res, *why;
  PetscBool   changed;

  PetscFunctionBegin;
  PetscCall(EasPolicyCreate(PETSC_COMM_WORLD, &pol));
  PetscCall(EasPolicySetFromOptions(pol));
  PetscCall(EasPolicySetGpuAvailable(pol, PETSC_TRUE, NULL));
  PetscCall(EasPolicySetCandidates(pol, PETSC_TRUE, PETSC_TRUE, PETSC_FALSE));
  PetscCall(EasPolicySetWork(pol, 1e5, 50));
  PetscCall(EasPolicySetElementTimes(pol, 2e-6, 4e-6, 0)); /* calibrated: GPU twice slower */
  PetscCall(EasPolicyChooseBackend(pol, &res, &why));
  PetscCheck(!strcmp(res, "/cpu"), PETSC_COMM_SELF, PETSC_ERR_PLIB, "expected /cpu first, got %s", res);
  PetscCall(EasPolicyUpdate(pol, 2e-6, 3.9e-6, &changed, &res)); /* still slower: no change */
  PetscCheck(!changed, PETSC_COMM_SELF, PETSC_ERR_PLIB, "unexpected change");
  PetscCall(EasPolicyUpdate(pol, -1, 0.5e-6, &changed, &res)); /* measured: 4x faster */
  PetscCheck(changed && !strcmp(res, "/gpu/cuda"), PETSC_COMM_SELF, PETSC_ERR_PLIB, "expected a change to /gpu/cuda, got %s", res);
  PetscCall(EasPolicySetMeasured(pol, 3.0, 600.0, PETSC_FALSE));
  PetscCall(EasPolicyView(pol, NULL));
  nchecks += 3;
  PetscCall(EasPolicyDestroy(&pol));
  PetscFunctionReturn(0);
}

static PetscErrorCode CaseAuto(void)
{
  EasBackend  be;
  const char *res;

  PetscFunctionBegin;
  PetscCall(EasBackendCreateFromOptions(PETSC_COMM_WORLD, NULL, &be));
  PetscCall(EasBackendGetResource(be, &res));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "backend created: %s\n", res));
  PetscCall(EasBackendDestroy(&be));
  nchecks++;
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  char      cs[32] = "frontier";
  PetscBool isc;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-case", cs, sizeof(cs), NULL));
  PetscCall(PetscStrcmp(cs, "frontier", &isc));
  if (isc) PetscCall(CaseFrontier());
  PetscCall(PetscStrcmp(cs, "online", &isc));
  if (isc) PetscCall(CaseOnline());
  PetscCall(PetscStrcmp(cs, "auto", &isc));
  if (isc) PetscCall(CaseAuto());
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "case %s: %" PetscInt_FMT " checks passed\n", cs, nchecks));
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    suffix: frontier
    backends: none
    args: -case frontier
    expect: case frontier: 18 checks passed
  test:
    suffix: online
    backends: none
    args: -case online -eas_criterion energy
    expect: chose /cpu \(criterion energy\)
    expect: measured times change the answer \(/cpu -> /gpu/cuda\)
    expect: predicted T=.* measured T=3 s E=600 J
  test:
    suffix: auto
    nsize: 1 2
    backends: none
    args: -case auto -eas_backend auto -eas_criterion edp
    expect: ^eas: -eas_backend auto: chose /cpu \(criterion edp; work not known yet, figures per element and iteration\): predicted cpu T=.* E=.* J; gpu and hybrid excluded: /gpu/cuda is not usable: (not compiled in|no CUDA device)
    expect: backend created: /cpu/openmp
  test:
    suffix: auto_calibrated
    backends: none
    args: -case auto -eas_backend auto -eas_criterion time -eas_policy_work 1e6 -eas_policy_its 100 -eas_calib_t_el_gpu 1e-12 -eas_power_profile share/eas/default_profile.opts
    expect: chose /cpu \(criterion time.*excluded: /gpu/cuda
TEST*/
