static const char help[] = "BiCGStab failures are convergence reasons, not crashes: breakdown, divergence (dtol),\n"
                           "iteration limit, NaN in the right-hand side, a zero pivot of ILU(0) (DIVERGED_PC_FAILED).\n";

#include <eas.h>
#include <math.h> /* sqrtl */

/* Solves A x = b for A given by its nd diagonals at offsets off, val[d n +
   i] = A[i][i + off[d]] (NULL: tridiagonal, -1 0 1), returns the reason and
   iterations. */
static PetscErrorCode SolveDia(EasBackend be, PetscInt n, PetscInt nd, const PetscInt *off, const PetscScalar *val, const PetscScalar *bv, const char *pc, PetscReal dtol, PetscInt max_it, KSPConvergedReason *reason, PetscInt *its)
{
  EasDia         A;
  EasKsp         ksp;
  EasVec         b, x;
  PetscScalar   *ba;
  const PetscInt off3[3] = {-1, 0, 1};

  PetscFunctionBegin;
  PetscCall(EasDiaCreate(PETSC_COMM_SELF, &A));
  PetscCall(EasDiaSetBackend(A, be));
  PetscCall(EasDiaSetDiagonals(A, n, off ? nd : 3, off ? off : off3, val));
  PetscCall(EasDiaCreateVecs(A, &x, &b));
  PetscCall(EasVecGetArrayWrite(b, &ba));
  for (PetscInt i = 0; i < n; i++) ba[i] = bv[i];
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

/* b: 0 e_0 b0;  1 ones with b[0] = b0;  2 1 + 0.3 sin(1.7 i) */
static PetscErrorCode SolveTridiag(EasBackend be, PetscInt n, PetscScalar sub, PetscScalar dg, PetscScalar sup, const char *pc, PetscReal dtol, PetscInt max_it, PetscScalar b0, PetscInt bkind, KSPConvergedReason *reason, PetscInt *its)
{
  PetscScalar *val, *bv;

  PetscFunctionBegin;
  PetscCall(PetscMalloc2(3 * n, &val, n, &bv));
  for (PetscInt i = 0; i < n; i++) {
    val[i]         = sub;
    val[n + i]     = dg;
    val[2 * n + i] = sup;
    bv[i]          = bkind == 0 ? 0.0 : (bkind == 1 ? 1.0 : 1.0 + 0.3 * PetscSinReal(1.7 * i));
  }
  if (bkind < 2) bv[0] = b0;
  PetscCall(SolveDia(be, n, 3, NULL, val, bv, pc, dtol, max_it, reason, its));
  PetscCall(PetscFree2(val, bv));
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
  PetscCall(SolveTridiag(be, 50, -1.0, 0.0, 1.0, EAS_PCNONE, PETSC_DEFAULT, 100, 1.0, 0, &reason, &its));
  PetscCall(Expect("skew-symmetric, b = e_0 (breakdown)", reason, its, KSP_DIVERGED_BREAKDOWN, &nfail));

  /* near-breakdown: skew-symmetric A, b with no structure: (b, A b) vanishes in exact
     arithmetic only, the computed value is round-off (~1e-16 ||b|| ||A b||), so alpha
     would be ~1e16; the relative test must call it a breakdown at iteration 1 */
  PetscCall(SolveTridiag(be, 50, -1.0, 0.0, 1.0, EAS_PCNONE, PETSC_DEFAULT, 100, 0.0, 2, &reason, &its));
  PetscCall(Expect("skew-symmetric, wavy b (near-breakdown, rhat.v)", reason, its, KSP_DIVERGED_BREAKDOWN, &nfail));
  PetscCheck(its == 1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "the near-breakdown was detected at iteration %" PetscInt_FMT ", expected 1", its);

  /* near-breakdown of omega: A = D + c K (D = diag(1, -1, 1, -1), K skew tridiag(-1, 0, 1)),
     b = (1, 1/2, 1/4, 1/8).  (b, A b) = (b, D b) != 0, and s = b - alpha A b with
     alpha = |b|^2/(b, D b) is affine in c, so (A s, s) = (s, D s) is a quadratic in c:
     at its root (computed in long double) (A s, s) = 0 in exact arithmetic, round-off
     in floating point, with s of order |b| */
  {
    const PetscInt    n     = 4;
    const long double bb[4] = {1, 0.5L, 0.25L, 0.125L}, dd[4] = {1, -1, 1, -1};
    long double       bDb = 0, b2 = 0, al, w[4], s0[4], A2 = 0, A1 = 0, A0 = 0, c;
    PetscScalar       val[12], bv[4];
    for (PetscInt i = 0; i < n; i++) {
      bDb += dd[i] * bb[i] * bb[i];
      b2 += bb[i] * bb[i];
    }
    al = b2 / bDb;
    for (PetscInt i = 0; i < n; i++) {
      w[i]  = (i + 1 < n ? bb[i + 1] : 0) - (i > 0 ? bb[i - 1] : 0); /* K b */
      s0[i] = bb[i] - al * dd[i] * bb[i];
    }
    for (PetscInt i = 0; i < n; i++) { /* (s, D s) = A2 c^2 + A1 c + A0 with s = s0 - al c w */
      A2 += al * al * dd[i] * w[i] * w[i];
      A1 += -2 * al * dd[i] * s0[i] * w[i];
      A0 += dd[i] * s0[i] * s0[i];
    }
    c = (-A1 - sqrtl(A1 * A1 - 4 * A2 * A0)) / (2 * A2); /* the root with |s| ~ |b| */
    for (PetscInt i = 0; i < n; i++) {
      val[i]         = (PetscScalar)(-c); /* A[i][i-1] */
      val[n + i]     = (PetscScalar)dd[i];
      val[2 * n + i] = (PetscScalar)c; /* A[i][i+1] */
      bv[i]          = (PetscScalar)bb[i];
    }
    PetscCall(SolveDia(be, n, 3, NULL, val, bv, EAS_PCNONE, PETSC_DEFAULT, 100, &reason, &its));
    PetscCall(Expect("(A s, s) = 0 in exact arithmetic (near-breakdown, omega)", reason, its, KSP_DIVERGED_BREAKDOWN, &nfail));
  }

  /* nearly skew A = tridiag(-1, delta, 1), b = ones: (b, A b) = n delta, so alpha = 1/delta
     and the first residual is about sqrt(2)/delta = 1414 > 10 ||b|| = 71 */
  PetscCall(SolveTridiag(be, 50, -1.0, 1e-3, 1.0, EAS_PCNONE, 10.0, 100, 1.0, 1, &reason, &its));
  PetscCall(Expect("nearly skew, -ksp_dtol 10 (divergence)", reason, its, KSP_DIVERGED_DTOL, &nfail));

  /* iteration limit */
  PetscCall(SolveTridiag(be, 400, -1.0, 2.0, -1.0, EAS_PCJACOBI, PETSC_DEFAULT, 3, 1.0, 1, &reason, &its));
  PetscCall(Expect("1D Laplacian, -ksp_max_it 3", reason, its, KSP_DIVERGED_ITS, &nfail));

  /* NaN in b */
  PetscCall(SolveTridiag(be, 30, -1.0, 4.0, -1.0, EAS_PCJACOBI, PETSC_DEFAULT, 100, NAN, 1, &reason, &its));
  PetscCall(Expect("NaN in the right-hand side", reason, its, KSP_DIVERGED_NANORINF, &nfail));

  /* ILU(0) with a zero pivot: tridiag(1, 1, 1) has u_00 = 1, l_10 = 1, u_11 = 1 - 1 = 0 (exactly, and
     so in the parallel form from its first sweep on); like PETSc's PCILU, the solve stops at once */
  PetscCall(SolveTridiag(be, 30, 1.0, 1.0, 1.0, EAS_PCILU, PETSC_DEFAULT, 100, 1.0, 1, &reason, &its));
  PetscCall(Expect("ILU(0), zero pivot in row 1", reason, its, KSP_DIVERGED_PC_FAILED, &nfail));
  PetscCall(SolveTridiag(be, 30, 1.0, 0.0, 1.0, EAS_PCILU, PETSC_DEFAULT, 100, 1.0, 1, &reason, &its));
  PetscCall(Expect("ILU(0), zero diagonal in row 0", reason, its, KSP_DIVERGED_PC_FAILED, &nfail));
  PetscCall(SolveTridiag(be, 30, -1.0, 4.0, -1.0, EAS_PCILU, PETSC_DEFAULT, 100, 1.0, 1, &reason, &its));
  PetscCall(Expect("ILU(0), diagonally dominant tridiagonal", reason, its, KSP_CONVERGED_RTOL, &nfail));
  { /* a pattern the CPU factors 4 interior rows at a time (-2 -1 1 2 near the diagonal, the other
       offsets 33-40 rows away, 21 in all: cpu.c EasIluBlocked): A = I but A[101][101] = 0, so
       u_101 = 0 in row 101, interior (rows 40-159) and the second of its group (100-103) */
    const PetscInt n = 200;
    PetscInt       off[21], nd = 0;
    PetscScalar   *val, *bv;
    for (PetscInt d = -40; d <= -33; d++) off[nd++] = d;
    for (PetscInt d = -2; d <= 2; d++) off[nd++] = d;
    for (PetscInt d = 33; d <= 40; d++) off[nd++] = d;
    PetscCall(PetscCalloc2(nd * n, &val, n, &bv));
    for (PetscInt i = 0; i < n; i++) {
      val[10 * n + i] = i == 101 ? 0.0 : 1.0;
      bv[i]           = 1.0;
    }
    PetscCall(SolveDia(be, n, nd, off, val, bv, EAS_PCILU, PETSC_DEFAULT, 100, &reason, &its));
    PetscCall(Expect("ILU(0) on 21 offsets, zero pivot in the interior row 101", reason, its, KSP_DIVERGED_PC_FAILED, &nfail));
    PetscCall(PetscFree2(val, bv));
  }

  /* and a healthy solve converges */
  PetscCall(SolveTridiag(be, 30, -1.0, 4.0, -1.0, EAS_PCJACOBI, PETSC_DEFAULT, 100, 1.0, 1, &reason, &its));
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
    expect: did not converge due to DIVERGED_PC_FAILED iterations 0
    expect: all convergence reasons as expected
  test:
    # the zero pivot's row, named by -info: on the CPU found where the factor takes rows 100-103 together
    suffix: ilu_group_pivot
    nsize: 1
    args: -info :eas
    expect: ILU\(0\): zero or non-finite pivot in row 101; the solves stop with DIVERGED_PC_FAILED
    expect: all convergence reasons as expected
TEST*/
