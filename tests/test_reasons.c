static const char help[] = "BiCGStab failures are convergence reasons, not crashes: breakdown, divergence (dtol),\n"
                           "iteration limit, NaN in the right-hand side.\n";

#include <eas.h>
#include <math.h>

/* Solves with the given matrix (tridiagonal: sub, diag, super constant) and b,
   returns the reason and iterations. */
static PetscErrorCode SolveTridiag(EasBackend be, PetscInt n, PetscScalar sub, PetscScalar dg, PetscScalar sup, const char *pc, PetscReal dtol, PetscInt max_it, PetscScalar b0, PetscBool ones, KSPConvergedReason *reason, PetscInt *its)
{
  EasDia         A;
  EasKsp         ksp;
  EasVec         b, x;
  PetscScalar   *val, *ba;
  const PetscInt off[3] = {-1, 0, 1};

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(3 * n, &val));
  for (PetscInt i = 0; i < n; i++) {
    val[i]         = sub;
    val[n + i]     = dg;
    val[2 * n + i] = sup;
  }
  PetscCall(EasDiaCreate(PETSC_COMM_SELF, &A));
  PetscCall(EasDiaSetBackend(A, be));
  PetscCall(EasDiaSetDiagonals(A, n, 3, off, val));
  PetscCall(PetscFree(val));
  PetscCall(EasDiaCreateVecs(A, &x, &b));
  PetscCall(EasVecGetArrayWrite(b, &ba));
  for (PetscInt i = 0; i < n; i++) ba[i] = ones ? 1.0 : 0.0;
  ba[0] = b0;
  PetscCall(EasVecRestoreArrayWrite(b, &ba));
  PetscCall(EasKspCreate(PETSC_COMM_SELF, &ksp));
  PetscCall(EasKspSetOperator(ksp, A));
  PetscCall(EasKspSetPCType(ksp, pc));
  PetscCall(EasKspSetTolerances(ksp, 1e-10, PETSC_DEFAULT, dtol, max_it));
  PetscCall(EasKspSetFromOptions(ksp));
  PetscCall(EasKspSolve(ksp, b, x));
  PetscCall(EasKspGetConvergedReason(ksp, reason));
  PetscCall(EasKspGetIterationNumber(ksp, its));
  PetscCall(EasKspDestroy(&ksp));
  PetscCall(EasVecDestroy(&x));
  PetscCall(EasVecDestroy(&b));
  PetscCall(EasDiaDestroy(&A));
  PetscFunctionReturn(0);
}

static PetscErrorCode Expect(const char *what, KSPConvergedReason got, PetscInt its, KSPConvergedReason want, PetscInt *nfail)
{
  PetscFunctionBegin;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-48s reason %s after %" PetscInt_FMT " its (expected %s) %s\n", what, KSPConvergedReasons[got], its, KSPConvergedReasons[want], got == want ? "ok" : "FAIL"));
  if (got != want) (*nfail)++;
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  EasBackend         be;
  KSPConvergedReason reason;
  PetscInt           its, nfail = 0;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCall(EasBackendCreateFromOptions(PETSC_COMM_SELF, NULL, &be));

  /* skew-symmetric A, b = e_0: (rhat, A r) = (e_0, A e_0) = 0 exactly at iteration 1 */
  PetscCall(SolveTridiag(be, 50, -1.0, 0.0, 1.0, EAS_PCNONE, PETSC_DEFAULT, 100, 1.0, PETSC_FALSE, &reason, &its));
  PetscCall(Expect("skew-symmetric, b = e_0 (breakdown)", reason, its, KSP_DIVERGED_BREAKDOWN, &nfail));

  /* nearly skew A = tridiag(-1, delta, 1), b = ones: (b, A b) = n delta, so alpha = 1/delta
     and the first residual is about sqrt(2)/delta = 1414 > 10 ||b|| = 71 */
  PetscCall(SolveTridiag(be, 50, -1.0, 1e-3, 1.0, EAS_PCNONE, 10.0, 100, 1.0, PETSC_TRUE, &reason, &its));
  PetscCall(Expect("nearly skew, -ksp_dtol 10 (divergence)", reason, its, KSP_DIVERGED_DTOL, &nfail));

  /* iteration limit */
  PetscCall(SolveTridiag(be, 400, -1.0, 2.0, -1.0, EAS_PCJACOBI, PETSC_DEFAULT, 3, 1.0, PETSC_TRUE, &reason, &its));
  PetscCall(Expect("1D Laplacian, -ksp_max_it 3", reason, its, KSP_DIVERGED_ITS, &nfail));

  /* NaN in b */
  PetscCall(SolveTridiag(be, 30, -1.0, 4.0, -1.0, EAS_PCJACOBI, PETSC_DEFAULT, 100, NAN, PETSC_TRUE, &reason, &its));
  PetscCall(Expect("NaN in the right-hand side", reason, its, KSP_DIVERGED_NANORINF, &nfail));

  /* and a healthy solve converges */
  PetscCall(SolveTridiag(be, 30, -1.0, 4.0, -1.0, EAS_PCJACOBI, PETSC_DEFAULT, 100, 1.0, PETSC_TRUE, &reason, &its));
  PetscCall(Expect("diagonally dominant tridiagonal", reason, its, KSP_CONVERGED_RTOL, &nfail));

  PetscCheck(nfail == 0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%" PetscInt_FMT " reason checks failed", nfail);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "all convergence reasons as expected\n"));
  PetscCall(EasBackendDestroy(&be));
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    suffix: reasons
    nsize: 1 2
    args: -ksp_converged_reason
    expect: Linear solve did not converge due to DIVERGED_BREAKDOWN iterations 1
    expect: did not converge due to DIVERGED_DTOL iterations 1
    expect: did not converge due to DIVERGED_ITS iterations 3
    expect: did not converge due to DIVERGED_NANORINF iterations 0
    expect: all convergence reasons as expected
TEST*/
