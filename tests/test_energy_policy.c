static const char help[] = "Automatic backend choice: the CPU/GPU choice flips exactly at the frontier alpha (just below and\n"
                           "just above) for each criterion; the online re-decision; -eas_backend auto on this machine.\n"
                           "  -case frontier|online|auto|profile|profile_nogpu|registry: the policy layer's functions\n"
                           "  -case adr_auto|ebe_auto|dia_auto|noresolver: -eas_backend auto through the registry's resolver, with no\n"
                           "  policy call in the driver (noresolver: PETSc initialized without EasInitialize or EasInitializePackage: libeas,\n"
                           "  linked into the program, registers itself as a PETSc plug-in at PetscInitialize, which initializes every\n"
                           "  package, so auto resolves; docs/petsc-plugin.md)\n\n";

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
  /* full-load node powers: A = GPU busy, CPU idle; B = CPU busy (Vialle et al. eq. 1.24) */
  PF_A = in.prof.cpu_idle + in.prof.gpu_full + in.prof.dram;
  PF_B = in.prof.cpu_full + in.prof.gpu_idle + in.prof.dram;
  for (PetscInt c = EAS_CRITERION_TIME; c <= EAS_CRITERION_ED2P; c++) {
    /* by hand: time 1; E T^w: (PF_A/PF_B)^(1/(w+1)) */
    const PetscReal w     = c == EAS_CRITERION_ENERGY ? 0 : c == EAS_CRITERION_EDP ? 1
                                                                                   : 2;
    const PetscReal alpha = c == EAS_CRITERION_TIME ? 1.0 : PetscPowReal(PF_A / PF_B, 1.0 / (w + 1));

    in.t_el_gpu = tcpu / (alpha * (1 - eps)); /* just below the frontier: the CPU */
    PetscCall(EasPolicyPredict(&in, (EasCriterion)c, &pr));
    PetscCheck(PetscAbsReal(pr.frontier - alpha) <= 1e-12 * alpha, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: frontier %.15g, by hand %.15g", EasCriterions[c], (double)pr.frontier, (double)alpha);
    PetscCheck(pr.choice == EAS_CHOICE_CPU, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: speedup %.9g just below alpha %.9g chose %s, expected cpu", EasCriterions[c], (double)pr.alpha, (double)alpha, EasBackendChoices[pr.choice]);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-6s alpha = %.9f (by hand %.9f): speedup alpha(1-1e-6) -> %s", EasCriterions[c], (double)pr.frontier, (double)alpha, EasBackendChoices[pr.choice]));
    in.t_el_gpu = tcpu / (alpha * (1 + eps)); /* just above: the GPU */
    PetscCall(EasPolicyPredict(&in, (EasCriterion)c, &pr));
    PetscCheck(pr.choice == EAS_CHOICE_GPU, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: speedup %.9g just above alpha %.9g chose %s, expected gpu", EasCriterions[c], (double)pr.alpha, (double)alpha, EasBackendChoices[pr.choice]);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, ", alpha(1+1e-6) -> %s\n", EasBackendChoices[pr.choice]));
    nchecks += 3;
  }
  {
    PetscReal a;
    PetscCall(EasModelCriterionFrontier(PF_A, PF_B, 0, &a));
    PetscCheck(PetscAbsReal(a - 229.3125 / 171.5625) < 1e-12, PETSC_COMM_SELF, PETSC_ERR_PLIB, "energy frontier %.15g, expected 229.3125/171.5625 (Vialle et al. Table 1.1 means)", (double)a);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  energy frontier of the default profile: %.6f = 229.3125/171.5625 (Vialle et al. Table 1.1 means, eq. 1.24)\n", (double)a));
    nchecks++;
  }
  /* with the hybrid allowed and equal speeds, time picks the hybrid (r = 1/2, Lang-Rünger eq. 26) */
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

/* -eas_backend auto through the policy layer (EasPolicyCreateBackend), as a driver does it */
static PetscErrorCode CaseAuto(void)
{
  EasPolicy   pol;
  EasBackend  be;
  const char *res;

  PetscFunctionBegin;
  PetscCall(EasPolicyCreate(PETSC_COMM_WORLD, &pol));
  PetscCall(EasPolicySetFromOptions(pol));
  PetscCall(EasPolicySetCandidates(pol, PETSC_TRUE, PETSC_TRUE, PETSC_FALSE));
  PetscCall(EasPolicyCreateBackend(pol, PETSC_COMM_WORLD, &be));
  PetscCall(EasBackendGetResource(be, &res));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "backend created: %s\n", res));
  PetscCall(EasBackendDestroy(&be));
  PetscCall(EasPolicyDestroy(&pol));
  nchecks++;
  PetscFunctionReturn(0);
}

/*
  A calibrated profile file (eas_calibrate's keys) where the GPU wins: the
  answer must be the GPU, with the predicted figures derived by hand from
  the papers' equations.  Default power profile: P_I = cpu_idle + gpu_idle +
  dram = 140.1375 + 0 + 1.3 = 141.4375 W; P_C(cpu) = 170.2625 - 140.1375 =
  30.125 W, P_C(gpu) = 87.875 W.  N = 1e5 rows, l = 50 iterations,
  t_cpu = 2e-6 s, t_gpu = 1e-7 s, t_copy = 1e-8 s:
    CPU (Lang-Runger, r = 0):  T = l N t_cpu = 10 s,
       E = T P_I + T P_C(cpu) = 1414.375 + 301.25 = 1715.625 J (Vialle et al. eq. 1.16);
    GPU (Lang-Runger eq. 22, r = 1): T = N t_copy + l N t_gpu = 0.001 + 0.5 = 0.501 s,
       E = T P_I + T P_C(gpu) (the GPU busy during the copies and the iterations)
         = 0.501 (141.4375 + 87.875) = 114.885563 J.
  The device is declared usable (this machine has none: the input of the
  decision, not the backend, is what is tested); without the declaration
  the GPU is excluded with the registry's reason.
*/
static PetscErrorCode CaseProfile(PetscBool declare)
{
  EasPolicy           pol;
  EasPolicyPrediction pr;
  const char         *res, *why;
  char                path[PETSC_MAX_PATH_LEN] = "profile_gpu_wins.opts";
  FILE               *fp;
  PetscMPIInt         rank;
  const PetscReal     T[2] = {10.0, 0.501}, E[2] = {1715.625, 0.501 * (141.4375 + 87.875)};

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetString(NULL, NULL, "-profile_out", path, sizeof(path), NULL));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (!rank) {
    PetscCall(PetscFOpen(PETSC_COMM_SELF, path, "w", &fp));
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "# a calibrated profile (eas_calibrate's keys) where the GPU wins\n-eas_calib_t_el_cpu 2e-6\n-eas_calib_t_el_gpu 1e-7\n-eas_calib_t_el_copy 1e-8\n"));
    PetscCall(PetscFClose(PETSC_COMM_SELF, fp));
  }
  PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  PetscCall(EasPolicyCreate(PETSC_COMM_WORLD, &pol));
  if (declare) PetscCall(EasPolicySetGpuAvailable(pol, PETSC_TRUE, NULL));
  PetscCall(PetscOptionsSetValue(NULL, "-eas_power_profile", path));
  PetscCall(EasPolicySetFromOptions(pol));
  PetscCall(PetscOptionsClearValue(NULL, "-eas_power_profile"));
  PetscCall(EasPolicySetCandidates(pol, PETSC_TRUE, PETSC_TRUE, PETSC_FALSE));
  PetscCall(EasPolicySetWork(pol, 1e5, 50));
  PetscCall(EasPolicyChooseBackend(pol, &res, &why));
  if (!declare) {
    PetscCheck(!strcmp(res, "/cpu") && strstr(why, "excluded: /gpu/cuda is not usable"), PETSC_COMM_WORLD, PETSC_ERR_PLIB, "no usable GPU: expected /cpu with the reason, got %s: %s", res, why);
  } else {
    PetscCall(EasPolicyGetPrediction(pol, &pr));
    PetscCheck(!strcmp(res, "/gpu/cuda"), PETSC_COMM_WORLD, PETSC_ERR_PLIB, "the calibrated GPU wins: expected /gpu/cuda, got %s", res);
    for (PetscInt c = 0; c < 2; c++) {
      PetscCheck(PetscAbsReal(pr.time[c] - T[c]) <= 1e-12 * T[c] && PetscAbsReal(pr.energy[c] - E[c]) <= 1e-12 * E[c], PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: predicted T %.15g s E %.15g J, by hand %.15g s %.15g J", c ? "gpu" : "cpu", (double)pr.time[c], (double)pr.energy[c], (double)T[c], (double)E[c]);
    }
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "profile where the GPU wins: %s; cpu T=%g s E=%g J, gpu T=%g s E=%.9g J (equal to the hand-derived values)\n", res, (double)pr.time[0], (double)pr.energy[0], (double)pr.time[1], (double)pr.energy[1]));
  }
  nchecks++;
  PetscCall(EasPolicyDestroy(&pol));
  PetscFunctionReturn(0);
}

/*
  -eas_backend auto as a driver that knows nothing of the policies sees it
  (no EasPolicy call): the registry parses the option and calls the
  resolver the policy package registered, at the solver's SetUp.  The
  solver must end on the chosen backend (this machine's answer without a
  calibration: the CPU), with the policy's online hook attached (its lines
  at the end of the solve).
*/
static PetscErrorCode CaseAdrAuto(void)
{
  EasAdr      adr;
  EasBackend  be;
  const char *res;

  PetscFunctionBegin;
  PetscCall(EasAdrCreate(PETSC_COMM_WORLD, &adr));
  PetscCall(EasAdrSetGrid(adr, 6, 6, 6));
  PetscCall(EasAdrSetMaxSteps(adr, 2));
  PetscCall(EasAdrSetFromOptions(adr));
  PetscCall(EasAdrSetUp(adr));
  PetscCall(EasAdrGetBackend(adr, &be));
  PetscCall(EasBackendGetResource(be, &res));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "EasAdr set up on %s\n", res));
  PetscCall(EasAdrSolve(adr, PETSC_DEFAULT));
  PetscCall(EasAdrDestroy(&adr));
  nchecks++;
  PetscFunctionReturn(0);
}

static PetscErrorCode CaseEbeAuto(void)
{
  EasEbe      ebe;
  EasKsp      ksp;
  EasVec      b, x;
  EasBackend  be;
  const char *res;

  PetscFunctionBegin;
  PetscCall(EasEbeCreate(PETSC_COMM_WORLD, &ebe));
  PetscCall(EasEbeSetFromMesh(ebe, EAS_EBE_POISSON, 1, 4, 4, 4));
  PetscCall(EasEbeSetFromOptions(ebe));
  PetscCall(EasEbeSetUp(ebe));
  PetscCall(EasEbeGetBackend(ebe, &be));
  PetscCall(EasBackendGetResource(be, &res));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "EasEbe set up on %s\n", res));
  PetscCall(EasEbeCreateVecs(ebe, &x, &b));
  PetscCall(EasVecSet(b, 1.0));
  PetscCall(EasKspCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(EasKspSetType(ksp, EAS_CG));
  PetscCall(EasKspSetOperatorEbe(ksp, ebe));
  PetscCall(EasKspSetFromOptions(ksp));
  PetscCall(EasKspSolve(ksp, b, x));
  PetscCall(EasKspDestroy(&ksp));
  PetscCall(EasVecDestroy(&b));
  PetscCall(EasVecDestroy(&x));
  PetscCall(EasEbeDestroy(&ebe));
  nchecks++;
  PetscFunctionReturn(0);
}

/* A DIA matrix has no rule of the policies: the registry says so. */
static PetscErrorCode CaseDiaAuto(void)
{
  EasDia      A;
  const PetscInt    off[1] = {0};
  const PetscScalar val[4] = {1, 1, 1, 1};

  PetscFunctionBegin;
  PetscCall(EasDiaCreate(PETSC_COMM_SELF, &A));
  PetscCall(EasDiaSetDiagonals(A, 4, 1, off, val));
  PetscCall(EasDiaSetUp(A));
  PetscCall(EasDiaDestroy(&A));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  char      cs[32] = "frontier";
  PetscBool isc, noresolver;

  /* PETSc first, as a program that initializes it itself; then eas (all its packages), except for -case noresolver */
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-case", cs, sizeof(cs), NULL));
  PetscCall(PetscStrcmp(cs, "noresolver", &noresolver));
  if (!noresolver) PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscStrcmp(cs, "adr_auto", &isc));
  if (isc || noresolver) PetscCall(CaseAdrAuto());
  PetscCall(PetscStrcmp(cs, "ebe_auto", &isc));
  if (isc) PetscCall(CaseEbeAuto());
  PetscCall(PetscStrcmp(cs, "dia_auto", &isc));
  if (isc) PetscCall(CaseDiaAuto());
  PetscCall(PetscStrcmp(cs, "frontier", &isc));
  if (isc) PetscCall(CaseFrontier());
  PetscCall(PetscStrcmp(cs, "online", &isc));
  if (isc) PetscCall(CaseOnline());
  PetscCall(PetscStrcmp(cs, "auto", &isc));
  if (isc) PetscCall(CaseAuto());
  PetscCall(PetscStrcmp(cs, "registry", &isc));
  if (isc) { /* the registry does not decide "auto": the layer above does */
    EasBackend be;
    PetscCall(EasBackendCreateFromOptions(PETSC_COMM_WORLD, NULL, &be));
    PetscCall(EasBackendDestroy(&be));
  }
  PetscCall(PetscStrcmp(cs, "profile", &isc));
  if (isc) PetscCall(CaseProfile(PETSC_TRUE));
  PetscCall(PetscStrcmp(cs, "profile_nogpu", &isc));
  if (isc) PetscCall(CaseProfile(PETSC_FALSE));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "case %s: %" PetscInt_FMT " checks passed\n", cs, nchecks));
  PetscCall(EasFinalize()); /* PETSc was initialized here: it stays up */
  PetscCall(PetscFinalize());
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
    requires: !cuda-device
    args: -case auto -eas_backend auto -eas_criterion edp
    expect: ^eas: -eas_backend auto: chose /cpu \(criterion edp\): no CPU per-element time to compare with .*; gpu and hybrid excluded: /gpu/cuda is not usable: (no CUDA device|CUDA module not loaded)
    expect: backend created: /cpu/openmp
  test:
    suffix: auto_gpu
    nsize: 1 2
    backends: none
    requires: cuda-device
    args: -case auto -eas_backend auto -eas_criterion edp
    expect: ^eas: -eas_backend auto: chose
    expect_count: 0 is not usable
    expect: backend created:
  test:
    suffix: auto_calibrated
    backends: none
    requires: !cuda-device
    args: -case auto -eas_backend auto -eas_criterion time -eas_policy_work 1e6 -eas_policy_its 100 -eas_calib_t_el_gpu 1e-12 -eas_power_profile share/eas/default_profile.opts
    expect: chose /cpu \(criterion time.*excluded: /gpu/cuda
  test:
    suffix: auto_calibrated_gpu
    backends: none
    requires: cuda-device
    args: -case auto -eas_backend auto -eas_criterion time -eas_policy_work 1e6 -eas_policy_its 100 -eas_calib_t_el_cpu 1e-6 -eas_calib_t_el_gpu 1e-12 -eas_power_profile share/eas/default_profile.opts
    expect: ^eas: -eas_backend auto: chose
    expect_count: 0 chose /cpu \(criterion time
    expect_count: 0 excluded: /gpu/cuda
  test:
    suffix: profile
    nsize: 1 2
    backends: none
    args: -case profile -eas_criterion energy -profile_out @TMP@/eas_profile_gpu_wins.opts
    expect: profile where the GPU wins: /gpu/cuda; cpu T=10\.? s E=1715.62 J, gpu T=0.501 s E=114.88556
  test:
    suffix: bad_device
    backends: none
    args: -case auto -eas_backend auto -eas_policy_device /cpu/serial
    expect_error: -eas_policy_device /cpu/serial is invalid: expected a device backend \(whose memory is not the host's\), not a CPU backend
  test:
    suffix: registry_refuses_auto
    backends: none
    args: -case registry -eas_backend auto
    expect_error: -eas_backend auto is chosen by the energy policies for a solver \(an EasAdr or an EasEbe, at its SetUp, from its size\); EasBackendCreateFromOptions has no solver: name a backend
  test:
    suffix: adr_auto
    nsize: 1 2
    backends: none
    requires: !cuda-device
    args: -case adr_auto -eas_backend auto -eas_criterion energy -eas_sensor model -adr_progress 0
    expect: ^eas: -eas_backend auto: chose /cpu \(criterion energy\): no CPU per-element time to compare with .*; gpu and hybrid excluded: /gpu/cuda is not usable: (no CUDA device|CUDA module not loaded)
    expect: ^EasAdr set up on /cpu/openmp$
    expect: ^EasPolicy: /cpu predicted
    expect: ^case adr_auto: 1 checks passed
  test:
    suffix: ebe_auto
    nsize: 1 2
    backends: none
    requires: !cuda-device
    args: -case ebe_auto -eas_backend auto -eas_criterion energy -eas_sensor model
    expect: ^eas: -eas_backend auto: chose /cpu \(criterion energy\): no CPU per-element time to compare with .*; gpu and hybrid excluded: /gpu/cuda is not usable: (no CUDA device|CUDA module not loaded)
    expect: ^EasEbe set up on /cpu/openmp$
    expect: ^EasEbe: [1-9][0-9]* online decision\(s\) during the solve, 0 changed the answer; latest /cpu
    expect: ^EasPolicy: /cpu predicted T=[0-9.e+-]+ s E=[0-9.e+-]+ J, measured T=[0-9.e+-]+ s E=[0-9.e+-]+ J \(modelled\)
    expect: ^case ebe_auto: 1 checks passed
  test:
    suffix: dia_auto
    backends: none
    args: -case dia_auto -eas_backend auto
    expect_error: -eas_backend auto is chosen by the energy policies for a solver \(an EasAdr or an EasEbe, at its SetUp, from its size\), not for an EasDia: name a backend
  test:
    suffix: noresolver
    backends: none
    requires: !cuda-device
    args: -case noresolver -eas_backend auto -eas_criterion energy -eas_sensor model -adr_progress 0
    expect: ^eas: -eas_backend auto: chose /cpu \(criterion energy\)
    expect: ^EasAdr set up on /cpu/openmp$
    expect: ^case noresolver: 1 checks passed
  test:
    suffix: profile_nogpu
    backends: none
    requires: !cuda-device
    args: -case profile_nogpu -eas_criterion energy -profile_out @TMP@/eas_profile_gpu_wins2.opts
    expect: chose /cpu \(criterion energy\).*gpu and hybrid excluded: /gpu/cuda is not usable
TEST*/
