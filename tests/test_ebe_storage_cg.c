static const char help[] = "eas cg over the EBE operator with each element storage (full, symmetric, single,\n"
                           "symmetric_single) on one mesh: iteration counts within a fraction of full's, and full's\n"
                           "against PETSc KSPCG on the assembled AIJ matrix.\n"
                           "  -problem poisson|elasticity -order 1|2 -n <elements per direction> -rtol <r>\n"
                           "  -its_frac <allowed |its - its_full| / its_full> -ksp_type cg|pipecg -pc_type none|jacobi|pbjacobi\n"
                           "Kind of check: same-solver comparison (each storage against full double) and peer code\n"
                           "(full double against PETSc KSPCG with the same preconditioner, rtol and norm).\n";

#include <eas.h>

/* eas cg on a fresh operator of the mesh with storage st: iterations, reason
   and the solution as a PETSc Vec of the assembled layout. */
static PetscErrorCode SolveWith(EasEbeProblem prob, PetscInt order, PetscInt n, EasEbeStorage st, PetscReal rtol, Vec bp, Vec xp, PetscInt *its, KSPConvergedReason *reason)
{
  EasEbe      ebe;
  EasKsp      ksp;
  EasVec      b, x;
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(EasEbeCreate(PETSC_COMM_WORLD, &ebe));
  PetscCall(EasEbeSetFromMesh(ebe, prob, order, n, n + 1, PetscMax(n, size)));
  PetscCall(EasEbeSetFromOptions(ebe));
  PetscCall(EasEbeSetStorage(ebe, st));
  PetscCall(EasEbeCreateVecs(ebe, &b, &x));
  PetscCall(EasEbeVecFromPetsc(ebe, bp, b));
  PetscCall(EasKspCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(EasKspSetType(ksp, EAS_CG));
  PetscCall(EasKspSetOperatorEbe(ksp, ebe));
  PetscCall(EasKspSetTolerances(ksp, rtol, 0.0, PETSC_DEFAULT, 10000));
  PetscCall(EasKspSetFromOptions(ksp));
  PetscCall(EasVecSet(x, 0.0));
  PetscCall(EasKspSolve(ksp, b, x));
  PetscCall(EasKspGetIterationNumber(ksp, its));
  PetscCall(EasKspGetConvergedReason(ksp, reason));
  PetscCall(EasEbeVecToPetsc(ebe, x, xp));
  PetscCall(EasKspDestroy(&ksp));
  PetscCall(EasVecDestroy(&b));
  PetscCall(EasVecDestroy(&x));
  PetscCall(EasEbeDestroy(&ebe));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  EasEbe             ebe;
  Mat                A;
  Vec                bp, xp, xf, r;
  KSP                pksp;
  PC                 ppc;
  PetscInt           prob = 0, order = 1, n = 8, its_full = 0, its_petsc;
  PetscReal          rtol = 1e-8, frac = 0.02, bnorm;
  char               pctype[16] = "jacobi";
  KSPConvergedReason reason;
  PetscMPIInt        size;
  PetscBool          ok = PETSC_TRUE;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "EBE storage cg test", NULL);
  PetscCall(PetscOptionsEList("-problem", "poisson or elasticity", NULL, EasEbeProblems, 2, EasEbeProblems[0], &prob, NULL));
  PetscCall(PetscOptionsInt("-order", "1 or 2", NULL, order, &order, NULL));
  PetscCall(PetscOptionsInt("-n", "elements per direction", NULL, n, &n, NULL));
  PetscCall(PetscOptionsReal("-rtol", "relative tolerance of every solve", NULL, rtol, &rtol, NULL));
  PetscCall(PetscOptionsReal("-its_frac", "allowed |its - its_full| / its_full", NULL, frac, &frac, NULL));
  PetscCall(PetscOptionsString("-pc_type", "none, jacobi or pbjacobi (eas and PETSc)", NULL, pctype, pctype, sizeof(pctype), NULL));
  PetscOptionsEnd();

  /* the assembled matrix of the double element matrices, and b = 1 */
  PetscCall(EasEbeCreate(PETSC_COMM_WORLD, &ebe));
  PetscCall(EasEbeSetFromMesh(ebe, (EasEbeProblem)prob, order, n, n + 1, PetscMax(n, size)));
  PetscCall(EasEbeAssemble(ebe, &A));
  PetscCall(MatCreateVecs(A, &xp, &bp));
  PetscCall(VecDuplicate(xp, &xf));
  PetscCall(VecDuplicate(xp, &r));
  PetscCall(VecSet(bp, 1.0));
  PetscCall(VecNorm(bp, NORM_2, &bnorm));

  /* peer: PETSc KSPCG, unpreconditioned norm as eas cg */
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &pksp));
  PetscCall(KSPSetOperators(pksp, A, A));
  PetscCall(KSPSetType(pksp, KSPCG));
  PetscCall(KSPSetNormType(pksp, KSP_NORM_UNPRECONDITIONED));
  PetscCall(KSPGetPC(pksp, &ppc));
  PetscCall(PCSetType(ppc, pctype));
  PetscCall(KSPSetTolerances(pksp, rtol, 0.0, PETSC_DEFAULT, 10000));
  PetscCall(KSPSolve(pksp, bp, xf));
  PetscCall(KSPGetIterationNumber(pksp, &its_petsc));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s Q%" PetscInt_FMT " n=%" PetscInt_FMT ", %d ranks, pc %s, rtol %.0e: PETSc KSPCG %" PetscInt_FMT " iterations\n", EasEbeProblems[prob], order, n, size, pctype, (double)rtol, its_petsc));

  for (PetscInt s = 0; s < 4; s++) {
    PetscInt  its;
    PetscReal rn, dx, xn;
    PetscCall(SolveWith((EasEbeProblem)prob, order, n, (EasEbeStorage)s, rtol, bp, xp, &its, &reason));
    if (s == 0) {
      its_full = its;
      PetscCall(VecCopy(xp, xf));
    }
    PetscCall(MatMult(A, xp, r)); /* true residual with the double operator */
    PetscCall(VecAYPX(r, -1.0, bp));
    PetscCall(VecNorm(r, NORM_2, &rn));
    PetscCall(VecNorm(xf, NORM_2, &xn));
    PetscCall(VecAXPY(xp, -1.0, xf));
    PetscCall(VecNorm(xp, NORM_2, &dx));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "storage %-16s %s in %4" PetscInt_FMT " iterations (full %" PetscInt_FMT ", PETSc %" PetscInt_FMT "); ||b - A x||/||b|| = %.1e, ||x - x_full||/||x_full|| = %.1e\n", EasEbeStorages[s], KSPConvergedReasons[reason], its, its_full, its_petsc, (double)(rn / bnorm), (double)(dx / xn)));
    if (reason != KSP_CONVERGED_RTOL || PetscAbsInt(its - its_full) > frac * its_full) ok = PETSC_FALSE;
  }
  if (PetscAbsInt(its_full - its_petsc) > PetscMax(1, frac * its_petsc)) ok = PETSC_FALSE;
  PetscCheck(ok, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "A storage did not converge to rtol, or its iteration count is not within %g%% of full's (or full's within %g%% of PETSc's)", (double)(100 * frac), (double)(100 * frac));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "every storage converges within %.0f%% of full's iterations\n", (double)(100 * frac)));

  PetscCall(KSPDestroy(&pksp));
  PetscCall(VecDestroy(&bp));
  PetscCall(VecDestroy(&xp));
  PetscCall(VecDestroy(&xf));
  PetscCall(VecDestroy(&r));
  PetscCall(MatDestroy(&A));
  PetscCall(EasEbeDestroy(&ebe));
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    suffix: q1_poisson
    nsize: 1 2 4
    args: -problem poisson -order 1 -n 12
    expect: every storage converges within 2% of full's iterations
  test:
    suffix: q2_elasticity
    nsize: 1 2 4
    args: -problem elasticity -order 2 -n 4 -pc_type pbjacobi
    expect: storage symmetric_single +CONVERGED_RTOL
    expect: every storage converges within 2% of full's iterations
TEST*/
