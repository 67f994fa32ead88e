static const char help[] = "Bad inputs to EasEbe and the cg solvers give clear errors.\n"
                           "  -case range|dup|nonsym|zerodiag|share|slowdown|bicgstab|indefinite\n";

#include <eas.h>

/* Two Q1 elements sharing a face, 12 nodes, 1 dof: element matrices of the
   Laplacian-like form (8 I - ones) made to fit each case. */
static PetscErrorCode Build(EasEbe ebe, const char *which)
{
  PetscInt    conn[16] = {0, 1, 2, 3, 4, 5, 6, 7, 4, 5, 6, 7, 8, 9, 10, 11};
  PetscScalar ael[2 * 64];
  PetscBool   flg;

  PetscFunctionBegin;
  for (PetscInt e = 0; e < 2; e++)
    for (PetscInt i = 0; i < 8; i++)
      for (PetscInt j = 0; j < 8; j++) ael[e * 64 + i * 8 + j] = (i == j ? 9.0 : -1.0);
  PetscCall(PetscStrcmp(which, "range", &flg));
  if (flg) conn[13] = 12; /* node 12 of 12 */
  PetscCall(PetscStrcmp(which, "dup", &flg));
  if (flg) conn[10] = 4; /* element 1 lists node 4 twice */
  PetscCall(PetscStrcmp(which, "nonsym", &flg));
  if (flg) ael[64 + 2 * 8 + 5] += 0.5;
  PetscCall(PetscStrcmp(which, "zerodiag", &flg));
  if (flg) { /* node 0 decoupled with a zero diagonal */
    for (PetscInt j = 0; j < 8; j++) ael[0 * 8 + j] = ael[j * 8 + 0] = 0.0;
  }
  PetscCall(PetscStrcmp(which, "indefinite", &flg));
  if (flg)
    for (PetscInt e = 0; e < 2; e++)
      for (PetscInt i = 0; i < 64; i++) ael[e * 64 + i] = -ael[e * 64 + i];
  PetscCall(EasEbeSetElements(ebe, 2, 8, 1, 12, conn, ael));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  EasEbe             ebe;
  EasKsp             ksp;
  EasVec             b, x;
  char               which[32] = "range";
  KSPConvergedReason reason;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-case", which, sizeof(which), NULL));
  PetscCall(EasEbeCreate(PETSC_COMM_SELF, &ebe));
  PetscCall(Build(ebe, which));
  PetscCall(EasEbeSetFromOptions(ebe));
  PetscCall(EasKspCreate(PETSC_COMM_SELF, &ksp));
  PetscCall(EasKspSetType(ksp, EAS_CG));
  PetscCall(EasKspSetOperatorEbe(ksp, ebe));
  PetscCall(EasKspSetFromOptions(ksp));
  PetscCall(EasEbeCreateVecs(ebe, &b, &x));
  PetscCall(EasVecSet(b, 1.0));
  PetscCall(EasKspSolve(ksp, b, x));
  PetscCall(EasKspGetConvergedReason(ksp, &reason));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "case %s: reason %s\n", which, KSPConvergedReasons[reason]));
  PetscCall(EasVecDestroy(&b));
  PetscCall(EasVecDestroy(&x));
  PetscCall(EasKspDestroy(&ksp));
  PetscCall(EasEbeDestroy(&ebe));
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    suffix: ok
    backends: none
    args: -case none -ksp_converged_reason
    expect: case none: reason CONVERGED_RTOL
  test:
    suffix: range
    backends: none
    args: -case range
    expect_error: Inconsistent connectivity: element 1 vertex 5 has node 12, expected a node index in \[0, 12\)
  test:
    suffix: dup
    backends: none
    args: -case dup
    expect_error: Inconsistent connectivity: element 1 lists node 4 twice
  test:
    suffix: nonsym
    backends: none
    args: -case nonsym
    expect_error: Non-symmetric element matrix: element 1 has A\[5\]\[2\]
  test:
    suffix: storage_nonsym
    backends: none
    args: -case nonsym -ebe_storage symmetric
    expect_error: -ebe_storage symmetric needs symmetric element matrices \(to 1e-12 relative\); use full or single
  test:
    suffix: storage_nonsym_single
    backends: none
    args: -case nonsym -ebe_storage symmetric_single
    expect_error: -ebe_storage symmetric_single needs symmetric element matrices
  test:
    suffix: storage_bad
    backends: none
    args: -case none -ebe_storage double
    expect_error: Unknown option double for -ebe_storage. Available options: full symmetric single symmetric_single
  test:
    suffix: warp_rows_bad
    backends: none
    args: -case none -ebe_warp_rows 6
    expect_error: -ebe_warp_rows 6 is invalid: expected 4 or 8
  test:
    suffix: device_layout_bad
    backends: none
    args: -case none -ebe_device_layout block
    expect_error: Unknown option block for -ebe_device_layout. Available options: warp lanes
  test:
    suffix: nonsym_pipecg
    backends: none
    args: -case nonsym -ksp_type pipecg
    expect_error: Non-symmetric element matrix
  test:
    suffix: zerodiag
    backends: none
    args: -case zerodiag -pc_type jacobi
    expect_error: Zero diagonal entry at row 0: -pc_type jacobi needs a nonzero diagonal
  test:
    suffix: share
    backends: none
    args: -case none -ebe_gpu_share 1.5
    expect_error: -ebe_gpu_share 1.5 is invalid: expected a fraction of the elements in \[0, 1\]
  test:
    suffix: share_neg
    backends: none
    args: -case none -ebe_gpu_share -0.1
    expect_error: -ebe_gpu_share -0.1 is invalid
  test:
    suffix: slowdown
    backends: none
    args: -case none -ebe_test_slowdown 1:0.5
    expect_error: -ebe_test_slowdown: factor 0.5 is invalid
  test:
    suffix: bicgstab
    backends: none
    args: -case none -ksp_type bicgstab
    expect_error: -ksp_type bicgstab needs a DIA operator
  test:
    suffix: indefinite
    args: -case indefinite -pc_type none -ksp_converged_reason -info :eas
    expect: DIVERGED_INDEFINITE_MAT
    expect: indefinite operator at iteration 1
  test:
    suffix: indefinite_pipe
    backends: none
    args: -case indefinite -pc_type none -ksp_type pipecg -ksp_converged_reason
    expect: DIVERGED_INDEFINITE_MAT
TEST*/
