static const char help[] = "eas cg and pipecg (EasKsp over an EasEbe or an EasDia) against PETSc KSPCG on the assembled AIJ matrix.\n"
                           "  -problem poisson|elasticity -order 1|2 -n <elements per direction> -dia (DIA operator, one rank)\n"
                           "  -ksp_type cg|pipecg -pc_type none|jacobi|pbjacobi -ebe_mode sync|async -tol <solution rel tol>\n";

#include <eas.h>

/* MatShell wrapping the EBE operator: the second oracle of docs/ebe.md. */
typedef struct {
  EasEbe ebe;
  EasVec x, y;
} ShellCtx;

static PetscErrorCode ShellMult(Mat S, Vec x, Vec y)
{
  ShellCtx *c;

  PetscFunctionBegin;
  PetscCall(MatShellGetContext(S, &c));
  PetscCall(EasEbeVecFromPetsc(c->ebe, x, c->x));
  PetscCall(EasEbeMult(c->ebe, c->x, c->y));
  PetscCall(EasEbeVecToPetsc(c->ebe, c->y, y));
  PetscFunctionReturn(0);
}

static PetscErrorCode ShellDiagonal(Mat S, Vec d)
{
  ShellCtx *c;

  PetscFunctionBegin;
  PetscCall(MatShellGetContext(S, &c));
  PetscCall(EasEbeGetDiagonal(c->ebe, c->y));
  PetscCall(EasEbeVecToPetsc(c->ebe, c->y, d));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  EasEbe             ebe;
  EasDia             dia = NULL;
  EasKsp             ksp;
  KSP                pksp;
  PC                 ppc;
  Mat                A;
  Vec                bp, xp, xq;
  EasVec             b, x;
  PetscRandom        rnd;
  PetscInt           order = 1, n = 4, prob = 0, its, pits;
  PetscBool          usedia = PETSC_FALSE, shell = PETSC_FALSE;
  Mat                S    = NULL;
  ShellCtx           sctx = {NULL, NULL, NULL};
  PetscReal          tol = 1e-6, err, ref, rtol = 1e-10, true_rtol = 0, tres, bnorm;
  PetscMPIInt        size;
  KSPConvergedReason reason, preason;
  EasKspType         type;
  char               pctype[16] = "jacobi";

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "cg test", NULL);
  PetscCall(PetscOptionsEList("-problem", "poisson or elasticity", NULL, EasEbeProblems, 2, EasEbeProblems[0], &prob, NULL));
  PetscCall(PetscOptionsInt("-order", "1 or 2", NULL, order, &order, NULL));
  PetscCall(PetscOptionsInt("-n", "elements per direction", NULL, n, &n, NULL));
  PetscCall(PetscOptionsBool("-dia", "solve with the assembled matrix converted to DIA (one rank)", NULL, usedia, &usedia, NULL));
  PetscCall(PetscOptionsReal("-tol", "solution relative tolerance", NULL, tol, &tol, NULL));
  PetscCall(PetscOptionsReal("-rtol", "relative residual tolerance of both solvers", NULL, rtol, &rtol, NULL));
  PetscCall(PetscOptionsReal("-true_rtol", "if > 0: the true residual ||b - A x_eas|| / ||b|| must be below it", NULL, true_rtol, &true_rtol, NULL));
  PetscCall(PetscOptionsBool("-shell", "PETSc solves with a MatShell wrapping the EBE operator instead of the assembled matrix", NULL, shell, &shell, NULL));
  PetscCall(PetscOptionsString("-pc_type", "preconditioner", NULL, pctype, pctype, sizeof(pctype), NULL));
  PetscOptionsEnd();
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 7));
  PetscCall(PetscRandomSeed(rnd));

  PetscCall(EasEbeCreate(PETSC_COMM_WORLD, &ebe));
  PetscCall(EasEbeSetFromMesh(ebe, (EasEbeProblem)prob, order, n, n, PetscMax(n, size)));
  PetscCall(EasEbeSetFromOptions(ebe));
  PetscCall(EasEbeSetUp(ebe));
  PetscCall(EasEbeAssemble(ebe, &A));
  PetscCall(MatCreateVecs(A, &xp, &bp));
  PetscCall(VecDuplicate(xp, &xq));
  PetscCall(VecSetRandom(bp, rnd));

  /* eas */
  PetscCall(EasKspCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(EasKspSetType(ksp, EAS_CG));
  PetscCall(EasKspSetTolerances(ksp, rtol, 1e-50, PETSC_DEFAULT, 2000));
  if (usedia) {
    PetscCheck(size == 1, PETSC_COMM_WORLD, PETSC_ERR_SUP, "-dia runs on one rank");
    PetscCall(EasDiaCreate(PETSC_COMM_SELF, &dia));
    PetscCall(EasDiaSetMaxFill(dia, 10.0));
    PetscCall(EasDiaSetFromMat(dia, A));
    PetscCall(EasDiaSetUp(dia));
    PetscCall(EasKspSetOperator(ksp, dia));
    PetscCall(EasDiaCreateVecs(dia, &b, &x));
    PetscCall(EasVecCopyFromVec(b, bp));
  } else {
    PetscCall(EasKspSetOperatorEbe(ksp, ebe));
    PetscCall(EasEbeCreateVecs(ebe, &b, &x));
    PetscCall(EasEbeVecFromPetsc(ebe, bp, b));
  }
  PetscCall(EasKspSetFromOptions(ksp));
  PetscCall(EasKspSolve(ksp, b, x));
  PetscCall(EasKspGetConvergedReason(ksp, &reason));
  PetscCall(EasKspGetIterationNumber(ksp, &its));
  PetscCall(EasKspGetType(ksp, &type));
  if (usedia)
    PetscCall(EasVecCopyToVec(x, xq));
  else
    PetscCall(EasEbeVecToPetsc(ebe, x, xq));

  /* PETSc: same norm (unpreconditioned), same test */
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &pksp));
  if (shell) {
    PetscInt nl, N;
    sctx.ebe = ebe;
    PetscCall(EasEbeCreateVecs(ebe, &sctx.x, &sctx.y));
    PetscCall(MatGetLocalSize(A, &nl, NULL));
    PetscCall(MatGetSize(A, &N, NULL));
    PetscCall(MatCreateShell(PETSC_COMM_WORLD, nl, nl, N, N, &sctx, &S));
    PetscCall(MatShellSetOperation(S, MATOP_MULT, (void (*)(void))ShellMult));
    PetscCall(MatShellSetOperation(S, MATOP_GET_DIAGONAL, (void (*)(void))ShellDiagonal));
    PetscCall(KSPSetOperators(pksp, S, S));
  } else
    PetscCall(KSPSetOperators(pksp, A, A));
  PetscCall(KSPSetType(pksp, KSPCG));
  PetscCall(KSPSetNormType(pksp, KSP_NORM_UNPRECONDITIONED));
  PetscCall(KSPGetPC(pksp, &ppc));
  PetscCall(PCSetType(ppc, pctype));
  PetscCall(KSPSetTolerances(pksp, rtol, 1e-50, PETSC_DEFAULT, 2000));
  PetscCall(KSPSetOptionsPrefix(pksp, "petsc_"));
  PetscCall(KSPSetFromOptions(pksp));
  PetscCall(KSPSolve(pksp, bp, xp));
  PetscCall(KSPGetConvergedReason(pksp, &preason));
  PetscCall(KSPGetIterationNumber(pksp, &pits));

  /* the true residual of eas's solution, computed by PETSc on the assembled matrix */
  {
    Vec res;
    PetscCall(VecDuplicate(bp, &res));
    PetscCall(MatMult(A, xq, res));
    PetscCall(VecAYPX(res, -1.0, bp));
    PetscCall(VecNorm(res, NORM_2, &tres));
    PetscCall(VecNorm(bp, NORM_2, &bnorm));
    PetscCall(VecDestroy(&res));
  }
  PetscCall(VecNorm(xp, NORM_2, &ref));
  PetscCall(VecAXPY(xq, -1.0, xp));
  PetscCall(VecNorm(xq, NORM_2, &err));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s Q%" PetscInt_FMT " n=%" PetscInt_FMT " on %d ranks, %s operator, pc %s: eas %s %s in %" PetscInt_FMT " its, PETSc KSPCG (%s) %s in %" PetscInt_FMT " its\n", EasEbeProblems[prob], order, n, size, usedia ? "DIA" : "EBE", pctype, type,
                        KSPConvergedReasons[reason], its, shell ? "MatShell of the EBE operator" : "assembled AIJ", KSPConvergedReasons[preason], pits));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "||x_eas - x_petsc|| / ||x_petsc|| = %.2e (tol %.0e); true residual ||b - A x_eas|| / ||b|| = %.2e (rtol %.0e)\n", (double)(err / ref), (double)tol, (double)(tres / bnorm), (double)rtol));
  PetscCheck(true_rtol <= 0 || tres <= true_rtol * bnorm, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "the true residual of eas %s, %g relative, is above %g", type, (double)(tres / bnorm), (double)true_rtol);
  PetscCheck(reason > 0 && preason > 0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "a solver did not converge");
  PetscCheck(err <= tol * ref, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "eas %s differs from PETSc KSPCG", type);
  /* pipelined CG follows a different rounding path: allow 10% on long runs */
  PetscCheck(PetscAbsInt(its - pits) <= PetscMax(2, pits / 10), PETSC_COMM_WORLD, PETSC_ERR_PLIB, "iteration counts differ: eas %" PetscInt_FMT ", PETSc %" PetscInt_FMT, its, pits);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "eas %s matches PETSc KSPCG\n", type));

  PetscCall(KSPDestroy(&pksp));
  PetscCall(MatDestroy(&S));
  PetscCall(EasVecDestroy(&sctx.x));
  PetscCall(EasVecDestroy(&sctx.y));
  PetscCall(EasKspDestroy(&ksp));
  PetscCall(EasVecDestroy(&b));
  PetscCall(EasVecDestroy(&x));
  PetscCall(EasDiaDestroy(&dia));
  PetscCall(VecDestroy(&xp));
  PetscCall(VecDestroy(&xq));
  PetscCall(VecDestroy(&bp));
  PetscCall(MatDestroy(&A));
  PetscCall(EasEbeDestroy(&ebe));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    suffix: poisson_q1
    nsize: 1 2 4
    args: -problem poisson -order 1 -n 6 -ksp_type cg
    expect: eas cg matches PETSc KSPCG
  test:
    suffix: poisson_q2_pipe
    nsize: 1 2 4
    args: -problem poisson -order 2 -n 3 -ksp_type pipecg -ebe_mode async
    expect: eas pipecg matches PETSc KSPCG
  test:
    suffix: elast_q1_pb
    nsize: 1 4
    args: -problem elasticity -order 1 -n 4 -ksp_type cg -pc_type pbjacobi
    expect: eas cg matches PETSc KSPCG
  test:
    suffix: elast_q1_pipe_pb
    nsize: 2
    args: -problem elasticity -order 1 -n 4 -ksp_type pipecg -pc_type pbjacobi -ebe_mode async
    expect: eas pipecg matches PETSc KSPCG
  test:
    suffix: elast_q2_none
    nsize: 1
    args: -problem elasticity -order 2 -n 2 -ksp_type pipecg -pc_type none -ksp_converged_reason
    expect: Linear solve converged due to CONVERGED_RTOL
    expect: eas pipecg matches PETSc KSPCG
  test:
    suffix: shell
    nsize: 2
    args: -problem poisson -order 2 -n 3 -ksp_type pipecg -shell
    expect: MatShell of the EBE operator
    expect: eas pipecg matches PETSc KSPCG
  test:
    suffix: dia
    args: -problem poisson -order 1 -n 5 -dia -ksp_type cg
    expect: DIA operator
    expect: eas cg matches PETSc KSPCG
  test:
    suffix: dia_pipe
    args: -problem poisson -order 1 -n 5 -dia -ksp_type pipecg -pc_type none
    expect: eas pipecg matches PETSc KSPCG
  test:
    suffix: rtol12
    nsize: 2
    args: -problem elasticity -order 2 -n 4 -ebe_mode async -rtol 1e-12 -true_rtol 2e-12 -tol 1e-9 -ksp_type
    args: cg
    expect: eas cg matches PETSc KSPCG
  test:
    suffix: rtol12_pipe
    nsize: 2
    args: -problem elasticity -order 2 -n 4 -ebe_mode async -rtol 1e-12 -true_rtol 2e-12 -tol 1e-9 -ksp_type pipecg -ksp_view
    expect: residual replacement every 100 iterations \(2 in the last solve\)
    expect: eas pipecg matches PETSc KSPCG
  test:
    suffix: split
    backends: /cpu/openmp
    nsize: 1 2
    args: -problem poisson -order 2 -n 3 -ksp_type pipecg -ebe_split_units /cpu:1,/cpu:1 -ebe_rebalance_interval 4 -ebe_split_window 3
    expect: eas pipecg matches PETSc KSPCG
TEST*/
