static const char help[] = "Single-precision DIA values (EasDiaSetPrecision).  Kind of check: reference arithmetic.\n"
                           "The adr gallery block with its values rounded to float on the host: EasDiaMult and\n"
                           "EasDiaMultTranspose in single precision must equal, to 1e-14 relative, the double products of\n"
                           "the float-rounded values (so the kernels read the float copy, accumulate in double), and\n"
                           "differ from the double products by at most float rounding (6e-8 relative per entry) but\n"
                           "not by 0.  New values (EasDiaGetValuesWrite/Restore) must reach the float copy.  BiCGStab\n"
                           "with right Jacobi (A D^{-1} inherits the precision) must converge to the same rtol in\n"
                           "the same iterations +-2 as with double values.\n"
                           "  -n <grid>\n";

#include <eas.h>

/* max_i |y_i - z_i| / max_i |z_i| */
static PetscErrorCode RelMax(EasVec y, EasVec z, PetscReal *rel)
{
  const PetscScalar *a, *b;
  PetscInt           n;
  PetscReal          d = 0, m = 0;

  PetscFunctionBegin;
  PetscCall(EasVecGetSize(y, &n));
  PetscCall(EasVecGetArrayRead(y, &a));
  PetscCall(EasVecGetArrayRead(z, &b));
  for (PetscInt i = 0; i < n; i++) {
    d = PetscMax(d, PetscAbsScalar(a[i] - b[i]));
    m = PetscMax(m, PetscAbsScalar(b[i]));
  }
  PetscCall(EasVecRestoreArrayRead(y, &a));
  PetscCall(EasVecRestoreArrayRead(z, &b));
  *rel = m > 0 ? d / m : d;
  PetscFunctionReturn(0);
}

/* B = A with every value rounded to float (in double storage) */
static PetscErrorCode RoundedCopy(EasDia A, EasDia B)
{
  PetscScalar       *vb;
  const PetscScalar *va;
  PetscInt           ld, ldb, n, nd;

  PetscFunctionBegin;
  PetscCall(EasDiaGetSize(A, &n, &nd));
  PetscCall(EasDiaGetValuesRead(A, &va, &ld));
  PetscCall(EasDiaGetValuesWrite(B, &vb, &ldb));
  PetscCheck(ld == ldb, PETSC_COMM_SELF, PETSC_ERR_PLIB, "leading dimensions differ");
  for (PetscInt k = 0; k < nd * ld; k++) vb[k] = (PetscScalar)(float)va[k];
  PetscCall(EasDiaRestoreValuesWrite(B, &vb));
  PetscCall(EasDiaRestoreValuesRead(A, &va));
  PetscFunctionReturn(0);
}

static PetscErrorCode Solve(EasDia A, EasVec b, EasVec x, PetscInt *its)
{
  EasKsp             ksp;
  KSPConvergedReason r;

  PetscFunctionBegin;
  PetscCall(EasKspCreate(PETSC_COMM_SELF, &ksp));
  PetscCall(EasKspSetOperator(ksp, A));
  PetscCall(EasKspSetPCType(ksp, EAS_PCJACOBI));
  PetscCall(EasKspSetTolerances(ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, 2000));
  PetscCall(EasKspSolve(ksp, b, x));
  PetscCall(EasKspGetConvergedReason(ksp, &r));
  PetscCheck(r > 0, PETSC_COMM_SELF, PETSC_ERR_NOT_CONVERGED, "BiCGStab did not converge: %s", KSPConvergedReasons[r]);
  PetscCall(EasKspGetIterationNumber(ksp, its));
  PetscCall(EasKspDestroy(&ksp));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  EasDia       A, R;
  EasVec       x, y, z, w, b;
  PetscInt     n = 8, N, its_d, its_s;
  PetscReal    rel_ref, rel_dbl, rel_t, rel_new;
  PetscRandom  rnd;
  EasPrecision p;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(EasDiaCreate(PETSC_COMM_SELF, &A));
  PetscCall(EasDiaSetFromGallery(A, "adr", n));
  PetscCall(EasDiaCreate(PETSC_COMM_SELF, &R));
  {
    EasBackend be;
    PetscCall(EasDiaGetBackend(A, &be));
    PetscCall(EasDiaSetBackend(R, be)); /* the same vectors for both */
  }
  PetscCall(EasDiaSetFromGallery(R, "adr", n));
  PetscCall(RoundedCopy(A, R));
  PetscCall(EasDiaCreateVecs(A, &x, &y));
  PetscCall(EasVecDuplicate(x, &z));
  PetscCall(EasVecDuplicate(x, &w));
  PetscCall(EasVecDuplicate(x, &b));
  PetscCall(EasVecGetSize(x, &N));
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  {
    PetscScalar *a;
    PetscCall(EasVecGetArray(x, &a));
    for (PetscInt i = 0; i < N; i++) PetscCall(PetscRandomGetValue(rnd, &a[i]));
    PetscCall(EasVecRestoreArray(x, &a));
  }

  /* double products: of A (w) and of the float-rounded values (z) */
  PetscCall(EasDiaMult(A, x, w));
  PetscCall(EasDiaMult(R, x, z));
  PetscCall(EasDiaSetPrecision(A, EAS_PRECISION_SINGLE));
  PetscCall(EasDiaGetPrecision(A, &p));
  PetscCheck(p == EAS_PRECISION_SINGLE, PETSC_COMM_SELF, PETSC_ERR_PLIB, "EasDiaGetPrecision: %s", EasPrecisions[p]);
  PetscCall(EasDiaMult(A, x, y));
  PetscCall(RelMax(y, z, &rel_ref));
  PetscCall(RelMax(y, w, &rel_dbl));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "single SpMV vs double SpMV of the float-rounded values: %.2e; vs double values: %.2e\n", (double)rel_ref, (double)rel_dbl));
  PetscCheck(rel_ref <= 1e-14, PETSC_COMM_SELF, PETSC_ERR_PLIB, "the single-precision SpMV is not the product of the float values: %g", (double)rel_ref);
  PetscCheck(rel_dbl > 0 && rel_dbl <= 1e-6, PETSC_COMM_SELF, PETSC_ERR_PLIB, "the single-precision SpMV differs from the double one by %g: expected float rounding (0 < d <= 1e-6)", (double)rel_dbl);

  /* transpose */
  PetscCall(EasDiaMultTranspose(A, x, y));
  PetscCall(EasDiaMultTranspose(R, x, z));
  PetscCall(RelMax(y, z, &rel_t));
  PetscCheck(rel_t <= 1e-14, PETSC_COMM_SELF, PETSC_ERR_PLIB, "the single-precision transpose product is not that of the float values: %g", (double)rel_t);

  /* new values reach the float copy: A <- 2 A */
  {
    PetscScalar *v;
    PetscInt     ld, nd;
    PetscCall(EasDiaGetSize(A, NULL, &nd));
    PetscCall(EasDiaGetValuesWrite(A, &v, &ld));
    for (PetscInt k = 0; k < nd * ld; k++) v[k] *= 2;
    PetscCall(EasDiaRestoreValuesWrite(A, &v));
    PetscCall(EasDiaMult(A, x, y));
    PetscCall(EasDiaMult(R, x, z));
    PetscCall(EasVecAXPBY(z, 0.0, 2.0, x)); /* z <- 2 z */
    PetscCall(RelMax(y, z, &rel_new));
    PetscCheck(rel_new <= 1e-14, PETSC_COMM_SELF, PETSC_ERR_PLIB, "new values did not reach the float copy: %g", (double)rel_new);
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "transpose %.2e, after new values %.2e\n", (double)rel_t, (double)rel_new));

  /* BiCGStab + right Jacobi: single (A D^{-1} inherits) vs double, b = A 1 */
  PetscCall(EasVecSet(x, 1.0));
  PetscCall(EasDiaSetPrecision(A, EAS_PRECISION_DOUBLE));
  PetscCall(EasDiaMult(A, x, b));
  PetscCall(Solve(A, b, y, &its_d));
  PetscCall(EasDiaSetPrecision(A, EAS_PRECISION_SINGLE));
  PetscCall(Solve(A, b, z, &its_s));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "BiCGStab + Jacobi to rtol 1e-8: double %" PetscInt_FMT " its, single %" PetscInt_FMT " its\n", its_d, its_s));
  PetscCheck(PetscAbsInt(its_s - its_d) <= 2, PETSC_COMM_SELF, PETSC_ERR_PLIB, "single-precision BiCGStab took %" PetscInt_FMT " iterations, double %" PetscInt_FMT, its_s, its_d);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "single-precision DIA values: checks passed\n"));

  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(EasVecDestroy(&x));
  PetscCall(EasVecDestroy(&y));
  PetscCall(EasVecDestroy(&z));
  PetscCall(EasVecDestroy(&w));
  PetscCall(EasVecDestroy(&b));
  PetscCall(EasDiaDestroy(&A));
  PetscCall(EasDiaDestroy(&R));
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    suffix: gallery
    backends: /cpu/openmp /cpu/serial /cpu/memcheck
    args: -n 8
    expect: single-precision DIA values: checks passed
TEST*/
