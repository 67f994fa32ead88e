static const char help[] = "EasEbeSplitMeasureEfficiency on two CPU units, unit 1 doing twice its element work (-ebe_test_slowdown\n"
                           "1:2, redundant applies in its kernel call): real clocks, so the efficiency is reported, not asserted\n"
                           "against a bound; what is checked: the measured times are positive, the efficiency equals\n"
                           "(1/T_D)/sum_u(n_u/(N T_u)) recomputed from the returned times (Ribeiro eq. 3.6 with T_dev_u = T_u N/n_u),\n"
                           "the shares are not moved by the measurement, the operator still gives the same product, and the errors.\n"
                           "The shares are pinned (-ebe_rebalance_interval 1000000): a rebalance from real clocks may leave a\n"
                           "unit empty on a slow or loaded machine (under valgrind it does), and then there is nothing to measure.\n";

#include <eas.h>

int main(int argc, char **argv)
{
  EasEbe           ebe;
  EasKsp           ksp;
  EasVec           b, x, y0, y1;
  PetscInt         nu, s0[2];
  const PetscInt  *sh;
  const PetscReal *tel;
  PetscReal        E, Ta[2], TD, Eh, N, d, nrm;
  PetscErrorCode   ierr;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCall(EasEbeCreate(PETSC_COMM_SELF, &ebe));
  PetscCall(EasEbeSetFromMesh(ebe, EAS_EBE_POISSON, 1, 8, 8, 8));
  PetscCall(EasEbeSetFromOptions(ebe));
  PetscCall(EasEbeSetUp(ebe));
  PetscCall(EasEbeCreateVecs(ebe, &b, &x));
  PetscCall(EasEbeCreateVecs(ebe, &y0, &y1));
  PetscCall(EasVecSet(b, 1.0));
  PetscCall(EasEbeSplitGetState(ebe, &nu, &sh, &tel, NULL));
  PetscCheck(nu == 2, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "this test needs two units (-ebe_split_units /cpu:1,/cpu:1)");
  PetscCall(EasKspCreate(PETSC_COMM_SELF, &ksp));
  PetscCall(EasKspSetType(ksp, EAS_CG));
  PetscCall(EasKspSetOperatorEbe(ksp, ebe));
  PetscCall(EasKspSetTolerances(ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, 30));
  for (PetscInt s = 0; s < 5; s++) PetscCall(EasKspSolve(ksp, b, x));
  PetscCall(EasEbeMult(ebe, x, y0));
  s0[0] = sh[0];
  s0[1] = sh[1];
  PetscCall(EasEbeSplitMeasureEfficiency(ebe, x, y1, 7, &E, Ta, &TD));
  PetscCheck(sh[0] == s0[0] && sh[1] == s0[1], PETSC_COMM_SELF, PETSC_ERR_PLIB, "the measurement moved the shares %" PetscInt_FMT "/%" PetscInt_FMT " -> %" PetscInt_FMT "/%" PetscInt_FMT, s0[0], s0[1], sh[0], sh[1]);
  PetscCheck(Ta[0] > 0 && Ta[1] > 0 && TD > 0 && E > 0 && !PetscIsInfOrNanReal(E), PETSC_COMM_SELF, PETSC_ERR_PLIB, "non-positive measured times or efficiency: T_u %g %g, T_D %g, E %g", (double)Ta[0], (double)Ta[1], (double)TD, (double)E);
  N  = (PetscReal)(sh[0] + sh[1]);
  Eh = (1.0 / TD) / (sh[0] / (N * Ta[0]) + sh[1] / (N * Ta[1])); /* eq. 3.6 by hand from the returned times */
  PetscCheck(PetscAbsReal(E - Eh) <= 1e-12 * Eh, PETSC_COMM_SELF, PETSC_ERR_PLIB, "E %.15g, by hand from the times %.15g", (double)E, (double)Eh);
  PetscCall(EasEbeMult(ebe, x, y1));         /* the operator after the measurement: the same product */
  PetscCall(EasVecAXPBY(y1, -1.0, 1.0, y0)); /* y1 <- y1 - y0 */
  PetscCall(EasVecNorm(y1, &d));
  PetscCall(EasVecNorm(y0, &nrm));
  PetscCheck(d <= 1e-12 * nrm, PETSC_COMM_SELF, PETSC_ERR_PLIB, "the product changed after the measurement: %g", (double)(d / nrm));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "shares %" PetscInt_FMT "/%" PetscInt_FMT ": alone on share %.3e / %.3e s, together %.3e s, E_h measured %.3f (reported, real clocks); eq. 3.6 from the times: equal\n", sh[0], sh[1], (double)Ta[0], (double)Ta[1], (double)TD, (double)E));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = EasEbeSplitMeasureEfficiency(ebe, x, y1, 0, &E, NULL, NULL);
  PetscCall(PetscPopErrorHandler());
  PetscCheck(ierr == PETSC_ERR_ARG_OUTOFRANGE, PETSC_COMM_SELF, PETSC_ERR_PLIB, "reps 0 must fail with PETSC_ERR_ARG_OUTOFRANGE, got %d", (int)ierr);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "reps 0: PETSC_ERR_ARG_OUTOFRANGE\n"));
  PetscCall(EasVecDestroy(&b));
  PetscCall(EasVecDestroy(&x));
  PetscCall(EasVecDestroy(&y0));
  PetscCall(EasVecDestroy(&y1));
  PetscCall(EasKspDestroy(&ksp));
  PetscCall(EasEbeDestroy(&ebe));
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    backends: /cpu/openmp
    args: -ebe_split_units /cpu:1,/cpu:1 -ebe_test_slowdown 1:2 -ebe_rebalance_interval 1000000
    expect: ^shares [0-9]+/[0-9]+: alone on share .* E_h measured [0-9.]+ \(reported, real clocks\); eq. 3.6 from the times: equal
    expect: ^reps 0: PETSC_ERR_ARG_OUTOFRANGE
TEST*/
