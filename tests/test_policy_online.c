static const char help[] = "Online backend choice inside cg (EasPolicyAttachEbe: the policy layer's hook, issue 5 item 5): a policy with a GPU declared present\n"
                           "(EasPolicySetGpuAvailable) and a deliberately wrong calibration (CPU 1 s/element, GPU 0.1 s/element) first picks\n"
                           "the GPU side; the measured CPU per-element times fed during the solve change the answer to /cpu (changed);\n"
                           "a second solve re-decides from the same kind of times and reports no change (unchanged).\n";

#include <eas.h>

int main(int argc, char **argv)
{
  EasEbe         ebe;
  EasKsp         ksp;
  EasVec         b, x;
  EasEnergyMeter meter;
  EasPolicy      pol;
  const char    *res, *latest;
  PetscInt       nup, nch, nel;
  PetscBool      iscpu;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCall(EasEbeCreate(PETSC_COMM_WORLD, &ebe));
  PetscCall(EasEbeSetFromMesh(ebe, EAS_EBE_POISSON, 1, 3, 3, 4));
  PetscCall(EasEbeGetEnergyMeter(ebe, &meter)); /* the policy reads the meter's compute phase */
  PetscCall(EasEbeSetFromOptions(ebe));
  PetscCall(EasEbeSetUp(ebe));
  PetscCall(EasEbeGetSizes(ebe, &nel, NULL, NULL, NULL, NULL));
  PetscCall(EasEbeCreateVecs(ebe, &b, &x));
  PetscCall(EasVecSet(b, 1.0));

  PetscCall(EasPolicyCreate(PETSC_COMM_WORLD, &pol));
  PetscCall(EasPolicySetFromOptions(pol));
  PetscCall(EasPolicySetCriterion(pol, EAS_CRITERION_ENERGY));
  PetscCall(EasPolicySetGpuAvailable(pol, PETSC_TRUE, NULL)); /* a fake GPU */
  PetscCall(EasPolicySetElementTimes(pol, 1.0, 0.1, 0.0));
  PetscCall(EasPolicySetWork(pol, (PetscReal)nel, 20));
  PetscCall(EasPolicyChooseBackend(pol, &res, NULL));
  PetscCall(PetscStrcmp(res, "/cpu", &iscpu));
  PetscCheck(!iscpu, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "before the solve: expected the GPU side (CPU 1 s/element), got %s", res);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "before: %s (calibrated t_el cpu 1 s, gpu 0.1 s)\n", res));

  PetscCall(EasKspCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(EasKspSetType(ksp, EAS_CG));
  PetscCall(EasKspSetOperatorEbe(ksp, ebe));
  PetscCall(EasKspSetFromOptions(ksp));
  PetscCall(EasPolicyAttachEbe(pol, ebe, 2));
  for (PetscInt pass = 0; pass < 2; pass++) {
    PetscInt nup0, nch0;
    PetscCall(EasPolicyGetUpdates(pol, &nup0, &nch0, NULL));
    PetscCall(EasKspSolve(ksp, b, x));
    PetscCall(EasPolicyGetUpdates(pol, &nup, &nch, &latest));
    nup -= nup0;
    nch -= nch0;
    PetscCheck(nup >= 1 && latest, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "solve %" PetscInt_FMT ": no online update", pass);
    PetscCall(PetscStrcmp(latest, "/cpu", &iscpu));
    /* measured CPU times (~1e-7 s/element; ~1e-3 with OpenMP threads descheduled on a loaded machine) are far below the fake GPU's 0.1 s */
    PetscCheck(iscpu, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "solve %" PetscInt_FMT ": expected /cpu from the measured times, got %s", pass, latest);
    PetscCheck(nch == (pass == 0 ? 1 : 0), PETSC_COMM_WORLD, PETSC_ERR_PLIB, "solve %" PetscInt_FMT ": %" PetscInt_FMT " changes, expected %d", pass, nch, pass == 0 ? 1 : 0);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "solve %" PetscInt_FMT ": online updates >= 1, latest %s, %s (compared: choice and change count exactly)\n", pass, latest, nch ? "changed" : "unchanged"));
  }
  PetscCall(EasPolicyDestroy(&pol));
  PetscCall(EasVecDestroy(&b));
  PetscCall(EasVecDestroy(&x));
  PetscCall(EasKspDestroy(&ksp));
  PetscCall(EasEbeDestroy(&ebe));
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    nsize: 1 2
    backends: cpu
    args: -eas_sensor model
    expect: ^before: (/gpu/cuda|hybrid)
    expect: measured times change the answer \((/gpu/cuda|hybrid) -> /cpu\)
    expect: ^solve 0: .*latest /cpu, changed
    expect: ^solve 1: .*latest /cpu, unchanged
TEST*/
