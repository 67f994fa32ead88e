static const char help[] = "EBE apply (EasEbeMult) against PETSc MatMult of the assembled AIJ matrix, and the diagonal.\n"
                           "  -problem poisson|elasticity -order 1|2 -n <elements per direction> -user (user path, random elements)\n"
                           "  -nonsym (user path: non-symmetric elements) -reps <applies> -tol <rel tol> -ebe_storage <..>\n"
                           "Kind of check: peer code (PETSc MatMult and MatGetDiagonal of the assembled AIJ matrix, assembled\n"
                           "from the double element matrices as set, whatever the operator's storage).\n";

#include <eas.h>

/* User path: a Q1-like mesh with randomly renumbered nodes and random
   symmetric element matrices (nonsym: plus a random skew part). */
static PetscErrorCode BuildUser(EasEbe ebe, PetscInt n, PetscInt dof, PetscBool nonsym, PetscRandom rnd)
{
  const PetscInt nen = 8, m = nen * dof, N1 = n + 1, nnodes = N1 * N1 * N1, nel = n * n * n;
  PetscInt      *conn, *perm;
  PetscScalar   *ael, *B;

  PetscFunctionBegin;
  PetscCall(PetscMalloc4(nel * nen, &conn, nel * m * m, &ael, nnodes, &perm, m * m, &B));
  for (PetscInt i = 0; i < nnodes; i++) perm[i] = i;
  for (PetscInt i = nnodes - 1; i > 0; i--) { /* Fisher-Yates */
    PetscReal r;
    PetscInt  j, t;
    PetscCall(PetscRandomGetValueReal(rnd, &r));
    j       = (PetscInt)(0.5 * (r + 1.0) * (i + 1)) % (i + 1);
    t       = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
  }
  for (PetscInt ez = 0; ez < n; ez++)
    for (PetscInt ey = 0; ey < n; ey++)
      for (PetscInt ex = 0; ex < n; ex++) {
        const PetscInt e = ex + n * (ey + n * ez);
        for (PetscInt a = 0; a < nen; a++) conn[e * nen + a] = perm[(ex + a % 2) + N1 * ((ey + (a / 2) % 2) + N1 * (ez + a / 4))];
        for (PetscInt i = 0; i < m * m; i++) PetscCall(PetscRandomGetValueReal(rnd, &B[i]));
        for (PetscInt i = 0; i < m; i++) /* B^T B + m I: symmetric positive definite */
          for (PetscInt j = 0; j < m; j++) {
            PetscScalar s = (i == j) ? (PetscScalar)m : 0.0;
            for (PetscInt k = 0; k < m; k++) s += B[k * m + i] * B[k * m + j];
            if (nonsym) s += (i < j ? 1.0 : -1.0) * B[i * m + j];
            ael[(size_t)e * m * m + i * m + j] = s;
          }
      }
  PetscCall(EasEbeSetElements(ebe, nel, nen, dof, nnodes, conn, ael));
  PetscCall(PetscFree4(conn, ael, perm, B));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  EasEbe        ebe;
  Mat           A;
  Vec           xp, yp, dp, yq;
  EasVec        x, y, d;
  PetscRandom   rnd;
  PetscInt      order = 1, n = 4, prob = 0, reps = 2, nel, nen, dof, ncol;
  PetscBool     user = PETSC_FALSE, nonsym = PETSC_FALSE;
  EasEbeStorage storage;
  PetscReal     tol = 1e-13, err, ref, derr, dref;
  PetscMPIInt   size;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "EBE apply test", NULL);
  PetscCall(PetscOptionsEList("-problem", "poisson or elasticity", NULL, EasEbeProblems, 2, EasEbeProblems[0], &prob, NULL));
  PetscCall(PetscOptionsInt("-order", "1 or 2", NULL, order, &order, NULL));
  PetscCall(PetscOptionsInt("-n", "elements per direction", NULL, n, &n, NULL));
  PetscCall(PetscOptionsBool("-user", "user path with random elements", NULL, user, &user, NULL));
  PetscCall(PetscOptionsBool("-nonsym", "user path: non-symmetric element matrices", NULL, nonsym, &nonsym, NULL));
  PetscCall(PetscOptionsInt("-reps", "applies compared", NULL, reps, &reps, NULL));
  PetscCall(PetscOptionsReal("-tol", "relative tolerance", NULL, tol, &tol, NULL));
  PetscOptionsEnd();
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(PetscRandomSetInterval(rnd, -1.0, 1.0));
  PetscCall(PetscRandomSetSeed(rnd, 42));
  PetscCall(PetscRandomSeed(rnd));

  PetscCall(EasEbeCreate(PETSC_COMM_WORLD, &ebe));
  if (user)
    PetscCall(BuildUser(ebe, n, prob == 0 ? 1 : 3, nonsym, rnd));
  else
    PetscCall(EasEbeSetFromMesh(ebe, (EasEbeProblem)prob, order, n, n + 1, PetscMax(n, size)));
  PetscCall(EasEbeSetFromOptions(ebe));
  PetscCall(EasEbeSetUp(ebe));
  PetscCall(EasEbeGetSizes(ebe, &nel, &nen, &dof, NULL, NULL));
  PetscCall(EasEbeGetColors(ebe, &ncol));
  PetscCall(EasEbeGetStorage(ebe, &storage));
  PetscCall(EasEbeAssemble(ebe, &A));
  PetscCall(MatCreateVecs(A, &xp, &yp));
  PetscCall(VecDuplicate(yp, &dp));
  PetscCall(VecDuplicate(yp, &yq));
  PetscCall(EasEbeCreateVecs(ebe, &x, &y));
  PetscCall(EasEbeCreateVecs(ebe, &d, NULL));

  err = ref = 0.0;
  for (PetscInt r = 0; r < reps; r++) {
    PetscReal e1, r1;
    PetscCall(VecSetRandom(xp, rnd));
    PetscCall(EasEbeVecFromPetsc(ebe, xp, x));
    PetscCall(EasEbeMult(ebe, x, y));
    PetscCall(MatMult(A, xp, yp));
    PetscCall(EasEbeVecToPetsc(ebe, y, yq));
    PetscCall(VecAXPY(yq, -1.0, yp));
    PetscCall(VecNorm(yq, NORM_INFINITY, &e1));
    PetscCall(VecNorm(yp, NORM_INFINITY, &r1));
    err = PetscMax(err, e1);
    ref = PetscMax(ref, r1);
  }
  PetscCall(EasEbeGetDiagonal(ebe, d));
  PetscCall(MatGetDiagonal(A, dp));
  PetscCall(EasEbeVecToPetsc(ebe, d, yq));
  PetscCall(VecAXPY(yq, -1.0, dp));
  PetscCall(VecNorm(yq, NORM_INFINITY, &derr));
  PetscCall(VecNorm(dp, NORM_INFINITY, &dref));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s %s: %" PetscInt_FMT " elements (rank 0), %" PetscInt_FMT " nodes x %" PetscInt_FMT " dof, %" PetscInt_FMT " colours, %d ranks, storage %s\n", user ? "user" : "mesh", EasEbeProblems[prob], nel, nen, dof, ncol, size, EasEbeStorages[storage]));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "max |EBE y - AIJ y| / max |y| = %.2e (tol %.0e), diagonal %.2e\n", (double)(err / ref), (double)tol, (double)(derr / dref)));
  PetscCheck(err <= tol * ref && derr <= tol * dref, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "EBE apply differs from PETSc MatMult: %g > %g", (double)(err / ref), (double)tol);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "EBE apply matches PETSc MatMult\n"));

  PetscCall(EasVecDestroy(&x));
  PetscCall(EasVecDestroy(&y));
  PetscCall(EasVecDestroy(&d));
  PetscCall(VecDestroy(&xp));
  PetscCall(VecDestroy(&yp));
  PetscCall(VecDestroy(&yq));
  PetscCall(VecDestroy(&dp));
  PetscCall(MatDestroy(&A));
  PetscCall(EasEbeDestroy(&ebe));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    suffix: q1_poisson
    nsize: 1 2 4
    args: -problem poisson -order 1 -n 4
    expect: EBE apply matches PETSc MatMult
  test:
    suffix: q2_elasticity
    nsize: 1 4
    args: -problem elasticity -order 2 -n 2
    expect: 81 dof|27 nodes x 3 dof
    expect: EBE apply matches PETSc MatMult
  test:
    suffix: q1_elasticity_async
    nsize: 4
    args: -problem elasticity -order 1 -n 4 -ebe_mode async -reps 3
    expect: EBE apply matches PETSc MatMult
  test:
    suffix: q2_poisson_async
    nsize: 2
    args: -problem poisson -order 2 -n 3 -ebe_mode async
    expect: EBE apply matches PETSc MatMult
  test:
    suffix: user
    args: -user -n 3 -problem elasticity
    expect: user elasticity
    expect: EBE apply matches PETSc MatMult
  test:
    suffix: user_nonsym
    args: -user -nonsym -n 3 -problem elasticity
    expect: user elasticity: .* storage full
    expect: EBE apply matches PETSc MatMult
  test:
    suffix: storage_default
    nsize: 1 2
    args: -problem elasticity -order 2 -n 2
    expect: storage symmetric
    expect: EBE apply matches PETSc MatMult
  test:
    suffix: storage_symmetric_q1
    nsize: 1 2 4
    args: -problem poisson -order 1 -n 4 -ebe_storage symmetric -tol 1e-14 -reps 3
    expect: storage symmetric
    expect: EBE apply matches PETSc MatMult
  test:
    suffix: storage_symmetric_q2
    nsize: 1 2 4
    args: -problem elasticity -order 2 -n 2 -ebe_storage symmetric -tol 1e-14 -ebe_mode async
    expect: storage symmetric
    expect: EBE apply matches PETSc MatMult
  test:
    suffix: storage_symmetric_user
    args: -user -n 3 -problem elasticity -ebe_storage symmetric -tol 1e-14
    expect: storage symmetric
    expect: EBE apply matches PETSc MatMult
  test:
    suffix: storage_single
    nsize: 1 2 4
    args: -problem elasticity -order 2 -n 2 -ebe_storage single -tol 1e-6
    expect: storage single
    expect: EBE apply matches PETSc MatMult
  test:
    suffix: storage_symmetric_single
    nsize: 1 2 4
    args: -problem poisson -order 1 -n 4 -ebe_storage symmetric_single -tol 1e-6
    expect: storage symmetric_single
    expect: EBE apply matches PETSc MatMult
  test:
    suffix: storage_single_user_nonsym
    args: -user -nonsym -n 3 -problem elasticity -ebe_storage single -tol 1e-6
    expect: storage single
    expect: EBE apply matches PETSc MatMult
  test:
    suffix: storage_single_tight
    args: -problem elasticity -order 2 -n 2 -ebe_storage symmetric_single -tol 1e-12
    expect_error: EBE apply differs from PETSc MatMult
  test:
    suffix: storage_split
    backends: /cpu/openmp
    nsize: 1 2
    args: -problem elasticity -order 2 -n 2 -ebe_storage symmetric_single -tol 1e-6 -ebe_split_units /cpu:1,/cpu:1 -ebe_test_slowdown 1:1.5 -reps 12 -ebe_rebalance_interval 3 -ebe_split_window 3
    expect: storage symmetric_single
    expect: EBE apply matches PETSc MatMult
  test:
    suffix: split
    backends: /cpu/openmp
    nsize: 1 2
    args: -problem poisson -order 2 -n 3 -ebe_split_units /cpu:1,/cpu:1 -ebe_test_slowdown 1:1.5 -reps 12 -ebe_rebalance_interval 3 -ebe_split_window 3
    expect: EBE apply matches PETSc MatMult
  test:
    suffix: split_async
    backends: /cpu/openmp
    nsize: 2
    args: -problem elasticity -order 1 -n 4 -ebe_mode async -ebe_split_units /cpu:1,/cpu/serial -reps 4
    expect: EBE apply matches PETSc MatMult
  test:
    suffix: split_gpu
    backends: none
    requires: cuda-device
    nsize: 1 2
    args: -problem poisson -order 2 -n 3 -ebe_split_units /gpu/cuda,/cpu:1 -reps 12 -ebe_rebalance_interval 3 -ebe_split_window 3
    expect: EBE apply matches PETSc MatMult
  test:
    suffix: split_gpu_async
    backends: none
    requires: cuda-device
    nsize: 2
    args: -problem elasticity -order 1 -n 4 -ebe_mode async -ebe_split_units /gpu/cuda,/cpu/serial -reps 4
    expect: EBE apply matches PETSc MatMult
TEST*/
