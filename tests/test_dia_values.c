static const char help[] = "New values of an EasDia operator (EasDiaGetValuesWrite/Restore) reach an EasKsp that is already set up:\n"
                           "the re-solve with the same solver must equal a fresh EasKsp and PETSc KSPBCGS on the new values,\n"
                           "with only a values-only setup (no new full setup).  Each rank solves its own adr gallery block.\n"
                           "  -reuse: then EasKspSetReusePreconditioner on new values: the preconditioner of the earlier values\n"
                           "  with the new operator, against PETSc KSPSetReusePreconditioner (peer code: iterations, solution)\n"
                           "  -n <grid>  -its_tol <2>  -sol_tol <1e-6>  -zero_row <r>: then zero a diagonal entry (error expected)\n";

#include <eas.h>

/* PETSc KSPBCGS as eas runs it: right preconditioning (-pc_type, default
   jacobi), the unpreconditioned norm, rtol, on M. */
static PetscErrorCode PeerKsp(Mat M, PetscReal rtol, KSP *ksp)
{
  PC   pc;
  char pctype[16] = "jacobi";

  PetscFunctionBegin;
  PetscCall(KSPCreate(PETSC_COMM_SELF, ksp));
  PetscCall(KSPSetOperators(*ksp, M, M));
  PetscCall(KSPSetType(*ksp, KSPBCGS));
  PetscCall(KSPGetPC(*ksp, &pc));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-pc_type", pctype, sizeof(pctype), NULL));
  PetscCall(PCSetType(pc, pctype));
  PetscCall(KSPSetPCSide(*ksp, PC_RIGHT));
  PetscCall(KSPSetNormType(*ksp, KSP_NORM_UNPRECONDITIONED));
  PetscCall(KSPSetTolerances(*ksp, rtol, PETSC_DEFAULT, PETSC_DEFAULT, 2000));
  PetscFunctionReturn(0);
}

/* Solves with PETSc KSPBCGS (PeerKsp) on the AIJ copy of A. */
static PetscErrorCode PetscSolve(EasDia A, Vec b, PetscReal rtol, Vec x, PetscInt *its)
{
  Mat                M;
  KSP                ksp;
  KSPConvergedReason reason;

  PetscFunctionBegin;
  PetscCall(EasDiaConvertToMat(A, &M));
  PetscCall(PeerKsp(M, rtol, &ksp));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, its));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCheck(reason > 0, PETSC_COMM_SELF, PETSC_ERR_NOT_CONVERGED, "PETSc KSPBCGS did not converge: %s", KSPConvergedReasons[reason]);
  PetscCall(KSPDestroy(&ksp));
  PetscCall(MatDestroy(&M));
  PetscFunctionReturn(0);
}

/* ||b - A x|| / ||b|| with the AIJ copy of A (x, b PETSc Vecs). */
static PetscErrorCode RelResidual(EasDia A, Vec b, Vec x, PetscReal *rel)
{
  Mat       M;
  Vec       r;
  PetscReal rn, bn;

  PetscFunctionBegin;
  PetscCall(EasDiaConvertToMat(A, &M));
  PetscCall(VecDuplicate(b, &r));
  PetscCall(MatMult(M, x, r));
  PetscCall(VecAYPX(r, -1.0, b));
  PetscCall(VecNorm(r, NORM_2, &rn));
  PetscCall(VecNorm(b, NORM_2, &bn));
  *rel = rn / bn;
  PetscCall(VecDestroy(&r));
  PetscCall(MatDestroy(&M));
  PetscFunctionReturn(0);
}

/* ||x - y|| / ||y|| */
static PetscErrorCode RelDiff(Vec x, Vec y, PetscReal *rel)
{
  Vec       d;
  PetscReal dn, yn;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(x, &d));
  PetscCall(VecWAXPY(d, -1.0, y, x));
  PetscCall(VecNorm(d, NORM_2, &dn));
  PetscCall(VecNorm(y, NORM_2, &yn));
  *rel = dn / yn;
  PetscCall(VecDestroy(&d));
  PetscFunctionReturn(0);
}

/* eas solve of A x = b with ksp; x returned as a PETSc Vec. */
static PetscErrorCode EasSolve(EasKsp ksp, EasDia A, Vec b, Vec x, PetscInt *its)
{
  EasVec             eb, ex;
  KSPConvergedReason reason;

  PetscFunctionBegin;
  PetscCall(EasDiaCreateVecs(A, &ex, &eb));
  PetscCall(EasVecCopyFromVec(eb, b));
  PetscCall(EasKspSolve(ksp, eb, ex));
  PetscCall(EasKspGetIterationNumber(ksp, its));
  PetscCall(EasKspGetConvergedReason(ksp, &reason));
  PetscCheck(reason > 0, PETSC_COMM_SELF, PETSC_ERR_NOT_CONVERGED, "eas BiCGStab did not converge: %s", KSPConvergedReasons[reason]);
  PetscCall(EasVecCopyToVec(ex, x));
  PetscCall(EasVecDestroy(&ex));
  PetscCall(EasVecDestroy(&eb));
  PetscFunctionReturn(0);
}

static PetscErrorCode NewSolver(EasDia A, PetscReal rtol, EasKsp *ksp)
{
  PetscFunctionBegin;
  PetscCall(EasKspCreate(PETSC_COMM_SELF, ksp));
  PetscCall(EasKspSetOperator(*ksp, A));
  PetscCall(EasKspSetTolerances(*ksp, rtol, PETSC_DEFAULT, PETSC_DEFAULT, 2000));
  PetscCall(EasKspSetFromOptions(*ksp));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscInt         n = 8, N, ndiag, ld, its_tol = 2, its1, its2, its3, its3f, its3p, its4, full3, vals3, full, zero_row = -1;
  PetscReal        sol_tol = 1e-6, rtol = 1e-10, e_half, e_fresh, e_petsc, r_new, r_stale, r_pat, m[6];
  PetscObjectState s0, s1;
  PetscMPIInt      rank;
  PetscRandom      rnd;
  EasBackend       be;
  EasDia           A;
  EasKsp           ksp, fresh;
  PetscScalar     *v;
  Vec              b, x1, x2, x3, x3f, x3p, x4;
  PetscBool        ok = PETSC_TRUE;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-zero_row", &zero_row, NULL));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "test_dia_values options", NULL);
  PetscCall(PetscOptionsInt("-n", "adr gallery grid points per direction", NULL, n, &n, NULL));
  PetscCall(PetscOptionsInt("-its_tol", "allowed difference of eas and PETSc iteration counts", NULL, its_tol, &its_tol, NULL));
  PetscCall(PetscOptionsReal("-sol_tol", "allowed relative difference of eas and PETSc solutions", NULL, sol_tol, &sol_tol, NULL));
  PetscOptionsEnd();

  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 7 + rank));
  PetscCall(PetscRandomSeed(rnd));
  PetscCall(PetscRandomSetInterval(rnd, -1.0, 1.0));

  PetscCall(EasBackendCreateFromOptions(PETSC_COMM_SELF, NULL, &be));
  PetscCall(EasDiaCreate(PETSC_COMM_SELF, &A));
  PetscCall(EasDiaSetBackend(A, be));
  PetscCall(EasDiaSetFromGallery(A, "adr", n));
  PetscCall(EasDiaGetSize(A, &N, &ndiag));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, N, &b));
  PetscCall(VecSetRandom(b, rnd));
  PetscCall(VecDuplicate(b, &x1));
  PetscCall(VecDuplicate(b, &x2));
  PetscCall(VecDuplicate(b, &x3));
  PetscCall(VecDuplicate(b, &x3f));
  PetscCall(VecDuplicate(b, &x3p));
  PetscCall(VecDuplicate(b, &x4));

  /* 1. first solve: one full setup */
  PetscCall(NewSolver(A, rtol, &ksp));
  PetscCall(EasSolve(ksp, A, b, x1, &its1));

  /* 2. A <- 2 A in place: the solution must halve (with the old Jacobi
        scaling and Ahat it would not change) */
  PetscCall(EasDiaGetState(A, &s0));
  PetscCall(EasDiaGetValuesWrite(A, &v, &ld));
  for (PetscInt i = 0; i < ndiag * ld; i++) v[i] *= 2.0;
  PetscCall(EasDiaRestoreValuesWrite(A, &v));
  PetscCall(EasDiaGetState(A, &s1));
  PetscCall(EasKspSetOperator(ksp, A)); /* the same matrix again: free */
  PetscCall(EasSolve(ksp, A, b, x2, &its2));
  PetscCall(VecScale(x1, 0.5));
  PetscCall(RelDiff(x2, x1, &e_half));

  /* 3. row i scaled by its own factor in [0.5, 1.5] and the diagonal by
        1.1 more, so D^{-1} and A D^{-1} both change non-uniformly: same
        solver vs a fresh EasKsp vs PETSc KSPBCGS on the new values */
  {
    const PetscInt *off;
    PetscScalar    *rs;
    PetscCall(EasDiaGetOffsets(A, &off));
    PetscCall(PetscMalloc1(N, &rs));
    for (PetscInt i = 0; i < N; i++) {
      PetscCall(PetscRandomGetValue(rnd, &rs[i]));
      rs[i] = 1.0 + 0.5 * rs[i];
    }
    PetscCall(EasDiaGetValuesWrite(A, &v, NULL));
    for (PetscInt d = 0; d < ndiag; d++)
      for (PetscInt i = 0; i < N; i++) v[d * ld + i] *= rs[i] * (off[d] == 0 ? 1.1 : 1.0);
    PetscCall(EasDiaRestoreValuesWrite(A, &v));
    PetscCall(PetscFree(rs));
  }
  PetscCall(EasSolve(ksp, A, b, x3, &its3));
  PetscCall(EasKspGetSetUpCounts(ksp, &full3, &vals3));
  PetscCall(NewSolver(A, rtol, &fresh));
  PetscCall(EasSolve(fresh, A, b, x3f, &its3f));
  PetscCall(EasKspDestroy(&fresh));
  PetscCall(PetscSolve(A, b, rtol, x3p, &its3p));
  PetscCall(RelDiff(x3, x3f, &e_fresh));
  PetscCall(RelDiff(x3, x3p, &e_petsc));
  PetscCall(RelResidual(A, b, x3, &r_new));
  PetscCall(RelResidual(A, b, x2, &r_stale)); /* the previous values' solution on the new matrix */

  /* 4. a new pattern (a tridiagonal matrix of the same size) is noticed too:
        a full setup */
  {
    const PetscInt off[3] = {-1, 0, 1};
    PetscScalar   *val;
    PetscCall(PetscMalloc1(3 * N, &val));
    for (PetscInt i = 0; i < N; i++) {
      val[i]         = -1.0;
      val[N + i]     = 4.0 + (PetscScalar)(i % 3);
      val[2 * N + i] = -1.5;
    }
    PetscCall(EasDiaSetDiagonals(A, N, 3, off, val));
    PetscCall(PetscFree(val));
  }
  PetscCall(EasSolve(ksp, A, b, x4, &its4));
  PetscCall(RelResidual(A, b, x4, &r_pat));

  /* worst case over the ranks */
  m[0] = e_half;
  m[1] = e_fresh;
  m[2] = e_petsc;
  m[3] = r_new;
  m[4] = -r_stale;
  m[5] = r_pat;
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, m, 6, MPIU_REAL, MPIU_MAX, PETSC_COMM_WORLD));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "adr gallery n=%" PetscInt_FMT ": %" PetscInt_FMT " rows, %" PetscInt_FMT " diagonals, ld %" PetscInt_FMT " (rank 0)\n", n, N, ndiag, ld));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  first solve: %" PetscInt_FMT " its; state %" PetscInt64_FMT " -> %" PetscInt64_FMT " after GetValuesWrite/Restore\n", its1, (PetscInt64)s0, (PetscInt64)s1));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  A <- 2A, same solver: %" PetscInt_FMT " its, ||x_2A - x_A/2|| / ||x_A/2|| = %.3e (allowed 1e-12)\n", its2, (double)m[0]));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  rows scaled by 1+-0.5, diagonal by 1.1: same solver %" PetscInt_FMT " its, fresh EasKsp %" PetscInt_FMT " its, PETSc KSPBCGS %" PetscInt_FMT " its (rank 0)\n", its3, its3f, its3p));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "    ||x_same - x_fresh|| / ||x_fresh|| = %.3e (allowed 1e-12), ||x_same - x_petsc|| / ||x_petsc|| = %.3e (allowed %.0e)\n", (double)m[1], (double)m[2], (double)sol_tol));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "    true rel residual %.3e (allowed %.2g); the previous values' solution leaves %.3e (must be > 1e-3: a stale operator is detectable)\n", (double)m[3], 1.1 * (double)rtol, (double)-m[4]));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  setups of the same solver: %" PetscInt_FMT " full, %" PetscInt_FMT " values only (expected 1 and 2)\n", full3, vals3));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  new pattern (tridiagonal): %" PetscInt_FMT " its, true rel residual %.3e\n", its4, (double)m[5]));
  PetscCall(EasKspGetSetUpCounts(ksp, &full, NULL));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "    full setups now %" PetscInt_FMT " (expected 2)\n", full));
  if (!(s1 > s0) || m[0] > 1e-12 || m[1] > 1e-12 || m[2] > sol_tol || m[3] > 1.1 * rtol || -m[4] <= 1e-3 || m[5] > 1.1 * rtol || full3 != 1 || vals3 != 2 || full != 2) ok = PETSC_FALSE;
  if (!(PetscAbsInt(its3 - its3f) == 0 && PetscAbsInt(its3 - its3p) <= its_tol)) ok = PETSC_FALSE;
  PetscCheck(ok, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "the values-only update of the solver does not match (see the numbers above)");
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "values-only update matches a fresh solver and PETSc\n"));

  /* 4b. -reuse: EasKspSetReusePreconditioner, then new values (every row
         scaled again, the diagonal by 1.2): the solver keeps the
         preconditioner built from the current (tridiagonal) values and
         solves with the new operator, as PETSc's KSP with
         KSPSetReusePreconditioner on the AIJ copies: the same iterations
         (to -its_tol), the same solution, the true residual of the new
         system, and no new preconditioner build */
  PetscCall(PetscOptionsHasName(NULL, NULL, "-reuse", &ok));
  if (ok) {
    Mat                M0, M1;
    KSP                pk;
    PC                 pc;
    PCType             pctype;
    PetscInt           b0, b1, itr, itp;
    PetscReal          e_r, r_r;
    PetscBool          flag;
    KSPConvergedReason reason;
    PetscCall(EasDiaConvertToMat(A, &M0));
    PetscCall(PeerKsp(M0, rtol, &pk));
    PetscCall(KSPGetPC(pk, &pc));
    PetscCall(PCGetType(pc, &pctype));
    PetscCall(KSPSetUp(pk)); /* PETSc's preconditioner of the current values */
    PetscCall(EasKspGetPCBuilds(ksp, &b0));
    PetscCall(EasKspSetReusePreconditioner(ksp, PETSC_TRUE));
    PetscCall(EasKspGetReusePreconditioner(ksp, &flag));
    PetscCheck(flag, PETSC_COMM_SELF, PETSC_ERR_PLIB, "EasKspGetReusePreconditioner gives false after EasKspSetReusePreconditioner(true)");
    {
      const PetscInt *off;
      PetscInt        nd;
      PetscCall(EasDiaGetSize(A, NULL, &nd));
      PetscCall(EasDiaGetOffsets(A, &off));
      PetscCall(EasDiaGetValuesWrite(A, &v, &ld));
      for (PetscInt d = 0; d < nd; d++)
        for (PetscInt i = 0; i < N; i++) v[d * ld + i] *= (1.0 + 0.3 * (PetscReal)((i * 7) % 5) / 5.0) * (off[d] == 0 ? 1.2 : 1.0);
      PetscCall(EasDiaRestoreValuesWrite(A, &v));
    }
    PetscCall(EasSolve(ksp, A, b, x4, &itr));
    PetscCall(EasKspGetPCBuilds(ksp, &b1));
    PetscCall(EasDiaConvertToMat(A, &M1));
    PetscCall(KSPSetReusePreconditioner(pk, PETSC_TRUE));
    PetscCall(KSPSetOperators(pk, M1, M1));
    PetscCall(KSPSolve(pk, b, x3p));
    PetscCall(KSPGetIterationNumber(pk, &itp));
    PetscCall(KSPGetConvergedReason(pk, &reason));
    PetscCheck(reason > 0, PETSC_COMM_SELF, PETSC_ERR_NOT_CONVERGED, "PETSc KSPBCGS with the reused preconditioner did not converge: %s", KSPConvergedReasons[reason]);
    PetscCall(RelDiff(x4, x3p, &e_r));
    PetscCall(RelResidual(A, b, x4, &r_r));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  [rank %d] reused %s preconditioner on new values: eas %" PetscInt_FMT " its, PETSc %" PetscInt_FMT " its; ||x - x_petsc|| / ||x_petsc|| = %.3e, true rel residual %.3e; preconditioner builds %" PetscInt_FMT " -> %" PetscInt_FMT "\n", rank, pctype, itr, itp, (double)e_r, (double)r_r, b0, b1));
    PetscCheck(PetscAbsInt(itr - itp) <= its_tol && e_r <= sol_tol && r_r <= 1.1 * rtol && b1 == b0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "the reused preconditioner does not match PETSc's KSPSetReusePreconditioner (see the numbers above)");
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "reused preconditioner matches PETSc KSPSetReusePreconditioner\n"));
    PetscCall(KSPDestroy(&pk));
    PetscCall(MatDestroy(&M0));
    PetscCall(MatDestroy(&M1));
  }

  /* 5. -zero_row r: new values with a zero diagonal at row r reach the
        values-only Jacobi refresh (the backends' dia_jacobi), which must
        name the row, as the first setup does */
  if (zero_row >= 0) {
    PetscInt nd;
    PetscCall(EasDiaGetSize(A, NULL, &nd));
    PetscCall(EasDiaGetValuesWrite(A, &v, &ld));
    v[1 * ld + zero_row] = 0.0; /* offsets -1, 0, 1: entry 1 is the diagonal */
    PetscCall(EasDiaRestoreValuesWrite(A, &v));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  diagonal of row %" PetscInt_FMT " set to zero; solving again with the same solver\n", zero_row));
    PetscCall(EasSolve(ksp, A, b, x4, &its4));
  }

  PetscCall(EasKspDestroy(&ksp));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x1));
  PetscCall(VecDestroy(&x2));
  PetscCall(VecDestroy(&x3));
  PetscCall(VecDestroy(&x3f));
  PetscCall(VecDestroy(&x3p));
  PetscCall(VecDestroy(&x4));
  PetscCall(EasDiaDestroy(&A));
  PetscCall(EasBackendDestroy(&be));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    suffix: jacobi
    nsize: 1 2
    args: -n 8
    expect: values-only update matches a fresh solver and PETSc
  test:
    suffix: none
    nsize: 1
    args: -n 6 -pc_type none -dia_gallery_dt 1
    expect: setups of the same solver: 1 full, 2 values only
    expect: values-only update matches a fresh solver and PETSc
  test:
    suffix: zero_diagonal
    nsize: 1
    args: -n 6 -zero_row 3
    expect_error: Zero diagonal entry at row 3: -pc_type jacobi needs a nonzero diagonal
  test:
    suffix: jacobi_cusparse
    nsize: 1 2
    backends: /gpu/cuda
    requires: cuda-device
    args: -n 8 -eas_cuda_spmv cusparse
  test:
    suffix: private_copy
    nsize: 1 2
    backends: /cpu/memcheck
    args: -n 8 -eas_memcheck_spmv csr
    expect: values-only update matches a fresh solver and PETSc
  test:
    suffix: reuse_jacobi
    nsize: 1 2
    backends: all
    args: -n 8 -reuse
    expect: reused preconditioner matches PETSc KSPSetReusePreconditioner
  test:
    suffix: reuse_ilu
    nsize: 1
    backends: /cpu/serial /cpu/memcheck
    args: -n 8 -reuse -pc_type ilu -pc_ilu_factor_sweeps 30 -pc_ilu_solve_sweeps 60
    expect: reused preconditioner matches PETSc KSPSetReusePreconditioner
TEST*/
