static const char help[] = "Solves A x = b with eas BiCGStab, A the 3D two-species ADR Jacobian in DIA storage.\n"
                           "Each MPI process solves its own copy (an EasDia lives on one process).\n"
                           "  -n <grid points per direction, 2n^3 unknowns>\n\n";

#include <eas.h>

int main(int argc, char **argv)
{
  PetscInt           n = 16, its;
  EasBackend         be;
  EasDia             A;
  EasKsp             ksp;
  EasVec             x, b, r;
  PetscReal          rnorm, bnorm;
  KSPConvergedReason reason;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "ex1 options", NULL);
  PetscCall(PetscOptionsInt("-n", "grid points per direction", NULL, n, &n, NULL));
  PetscOptionsEnd();

  /* backend from -eas_backend (default /cpu), matrix from the gallery */
  PetscCall(EasBackendCreateFromOptions(PETSC_COMM_SELF, NULL, &be));
  PetscCall(EasDiaCreate(PETSC_COMM_SELF, &A));
  PetscCall(EasDiaSetBackend(A, be));
  PetscCall(EasDiaSetFromOptions(A));
  PetscCall(EasDiaSetFromGallery(A, "adr", n));

  /* b = A 1, so the solution is all ones */
  PetscCall(EasDiaCreateVecs(A, &x, &b));
  PetscCall(EasVecDuplicate(x, &r));
  PetscCall(EasVecSet(x, 1.0));
  PetscCall(EasDiaMult(A, x, b));

  PetscCall(EasKspCreate(PETSC_COMM_SELF, &ksp));
  PetscCall(EasKspSetOperator(ksp, A));
  PetscCall(EasKspSetFromOptions(ksp)); /* -ksp_rtol, -ksp_monitor, -pc_type, ... */
  PetscCall(EasKspSolve(ksp, b, x));
  PetscCall(EasKspGetConvergedReason(ksp, &reason));
  PetscCall(EasKspGetIterationNumber(ksp, &its));

  /* check: ||b - A x|| / ||b|| */
  PetscCall(EasDiaMult(A, x, r));
  PetscCall(EasVecAXPBY(r, 1.0, -1.0, b));
  PetscCall(EasVecNorm(r, &rnorm));
  PetscCall(EasVecNorm(b, &bnorm));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "2n^3 = %" PetscInt_FMT " unknowns: %s in %" PetscInt_FMT " iterations, ||b - A x||/||b|| = %.2e\n", 2 * n * n * n, KSPConvergedReasons[reason], its, (double)(rnorm / bnorm)));

  PetscCall(EasVecDestroy(&r));
  PetscCall(EasVecDestroy(&x));
  PetscCall(EasVecDestroy(&b));
  PetscCall(EasKspDestroy(&ksp));
  PetscCall(EasDiaDestroy(&A));
  PetscCall(EasBackendDestroy(&be));
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    suffix: default
    nsize: 1 2
    expect: 8192 unknowns: CONVERGED_RTOL in [0-9]+ iterations, .*= [0-9.]+e-(09|1[0-9])
  test:
    suffix: monitor
    args: -n 8 -ksp_monitor -ksp_converged_reason -ksp_view -log_view
    expect: 0 KSP Residual norm
    expect: Linear solve converged due to CONVERGED_RTOL
    expect: EasKsp Object: 1 MPI process
    expect: EasBcgsSweep1
    expect: EasDiaMult
  test:
    suffix: help
    backends: none
    args: -help -n 4
    expect: -ksp_rtol <1e-08
    expect: -eas_backend
    expect: -dia_max_fill
    expect: -eas_threads
TEST*/
