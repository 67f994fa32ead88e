static const char help[] = "MATEASDIA and MATEASEBE against PETSc's AIJ: every operation the plug-in offers, on the same assembly.\n"
                           "  -case dia|ebe|fill|ebe_insert|ksp  -n <grid points per direction>  -bs <dof per node (ebe)>\n";
/*
  Peer: PETSc's MATAIJ filled by the same MatSetValues calls (this program is
  a plain PETSc program that registers the types with EasPetscRegisterAll).
  dia: a nonsymmetric 2D stencil (5 points plus a coupling two rows ahead),
       set with ADD_VALUES from the rank that owns the row and from the next
       rank (off-process entries), then INSERT_VALUES over part of it, then a
       second assembly with entries outside the pattern (the pattern grows);
       MatMult, MatMultAdd, MatMultTranspose, MatGetDiagonal, MatDuplicate,
       MatCopy, MatScale, MatShift, MatZeroRows (rows of any rank, with x and
       b), MatZeroEntries, MatConvert both ways, MatView; each compared with
       AIJ to round-off (1e-13 relative).
  ebe: Q1 elements of a 2D grid (bs dof per node: random symmetric element
       matrices with a dominant diagonal), set by ranks that do not own all
       their rows; MatMult, MatGetDiagonal, MatConvert to AIJ, MatZeroRows,
       MatZeroRowsColumns (with x, b), then eascg with Jacobi (bs 1) or
       point-block Jacobi (bs 2) against PETSc's CG on the AIJ matrix: the
       same iteration count.
  ksp: easbcgs on the DIA stencil: -pc_type ilu is an error naming the way
       out; on an AIJ matrix (-mat_type aij) PETSc's KSPBCGS runs, said under
       -info, also when KSPSetOperators gives an AIJ matrix after an eas solve
       (-switch); -eas_energy_view prints the plug-in's report at PetscFinalize.
  fill, ebe_insert: the errors that name the way out.
*/
#include <eas/petsc.h>

/* ||a - b|| / max(||b||, tiny) */
static PetscErrorCode Compare(const char *what, Vec a, Vec b, PetscReal tol)
{
  Vec       d;
  PetscReal nd, nb;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(a, &d));
  PetscCall(VecWAXPY(d, -1.0, b, a));
  PetscCall(VecNorm(d, NORM_2, &nd));
  PetscCall(VecNorm(b, NORM_2, &nb));
  PetscCall(VecDestroy(&d));
  PetscCheck(nd <= tol * PetscMax(nb, 1e-300), PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: |eas - AIJ| = %g, |AIJ| = %g", what, (double)nd, (double)nb);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: relative difference %.1e: ok\n", what, (double)(nd / PetscMax(nb, 1e-300))));
  PetscFunctionReturn(0);
}

/* y = A x for both and compare */
static PetscErrorCode CompareMult(const char *what, Mat E, Mat A, Vec x)
{
  Vec ye, ya;

  PetscFunctionBeginUser;
  PetscCall(MatCreateVecs(A, NULL, &ya));
  PetscCall(VecDuplicate(ya, &ye));
  PetscCall(MatMult(E, x, ye));
  PetscCall(MatMult(A, x, ya));
  PetscCall(Compare(what, ye, ya, 1e-13));
  PetscCall(VecDestroy(&ye));
  PetscCall(VecDestroy(&ya));
  PetscFunctionReturn(0);
}

/* The DIA test stencil: row (i, j) of an n x n grid, natural numbering. */
static PetscErrorCode SetStencil(Mat M, PetscInt n, PetscInt r0, PetscInt r1, InsertMode mode, PetscReal scale)
{
  PetscFunctionBeginUser;
  for (PetscInt r = r0; r < r1; r++) {
    const PetscInt i = r % n, j = r / n;
    PetscInt       c[6], k = 0;
    PetscScalar    v[6];
    c[k] = r, v[k++] = scale * (4.0 + 0.01 * r);
    if (i > 0) c[k] = r - 1, v[k++] = -scale * 1.1;
    if (i < n - 1) c[k] = r + 1, v[k++] = -scale * 0.9;
    if (j > 0) c[k] = r - n, v[k++] = -scale * 1.05;
    if (j < n - 1) c[k] = r + n, v[k++] = -scale * 0.95;
    if (r + 2 < n * n) c[k] = r + 2, v[k++] = scale * 0.1;
    PetscCall(MatSetValues(M, 1, &r, k, c, v, mode));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode Assemble(Mat M)
{
  PetscFunctionBeginUser;
  PetscCall(MatAssemblyBegin(M, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(M, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

static PetscErrorCode TestDia(PetscInt n)
{
  Mat         E, A, E2, B;
  Vec         x, y, z, b1, b2;
  PetscInt    rs, re, N = n * n, next, zr[4];
  PetscMPIInt rank, size;
  PetscRandom rnd;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(MatCreate(PETSC_COMM_WORLD, &E));
  PetscCall(MatSetSizes(E, PETSC_DECIDE, PETSC_DECIDE, N, N));
  PetscCall(MatSetType(E, MATEASDIA));
  PetscCall(MatSetFromOptions(E));
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, N, N, 8, NULL, 8, NULL, &A));
  PetscCall(MatSetOption(A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  PetscCall(MatGetOwnershipRange(E, &rs, &re));
  /* half of the own rows from here, the other half (and one of the next rank's rows) added from here too */
  next = PetscMin(re, N - 1);
  PetscCall(SetStencil(E, n, rs, re, ADD_VALUES, 0.5));
  PetscCall(SetStencil(A, n, rs, re, ADD_VALUES, 0.5));
  PetscCall(SetStencil(E, n, rs, re, ADD_VALUES, 0.5));
  PetscCall(SetStencil(A, n, rs, re, ADD_VALUES, 0.5));
  if (next >= re) {
    PetscCall(SetStencil(E, n, next, next + 1, ADD_VALUES, 0.25));
    PetscCall(SetStencil(A, n, next, next + 1, ADD_VALUES, 0.25));
  }
  PetscCall(Assemble(E));
  PetscCall(Assemble(A));
  PetscCall(MatCreateVecs(A, &x, &y));
  PetscCall(VecDuplicate(y, &z));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(PetscRandomSetFromOptions(rnd));
  PetscCall(VecSetRandom(x, rnd));
  PetscCall(VecSetRandom(y, rnd));
  PetscCall(CompareMult("MatMult after ADD_VALUES (off-process rows too)", E, A, x));
  /* INSERT_VALUES over the own rows */
  PetscCall(SetStencil(E, n, rs, (rs + re) / 2, INSERT_VALUES, 2.0));
  PetscCall(SetStencil(A, n, rs, (rs + re) / 2, INSERT_VALUES, 2.0));
  PetscCall(Assemble(E));
  PetscCall(Assemble(A));
  PetscCall(CompareMult("MatMult after INSERT_VALUES", E, A, x));
  /* entries outside the pattern: a new diagonal (+3n, some rows) and new couplings to the previous rank */
  for (PetscInt r = rs; r < re; r += 3) {
    PetscScalar v = 0.3;
    PetscInt    c = (r + 3 * n) % N, c2 = (r + N - n - 1) % N;
    PetscCall(MatSetValues(E, 1, &r, 1, &c, &v, ADD_VALUES));
    PetscCall(MatSetValues(A, 1, &r, 1, &c, &v, ADD_VALUES));
    PetscCall(MatSetValues(E, 1, &r, 1, &c2, &v, ADD_VALUES));
    PetscCall(MatSetValues(A, 1, &r, 1, &c2, &v, ADD_VALUES));
  }
  PetscCall(Assemble(E));
  PetscCall(Assemble(A));
  PetscCall(CompareMult("MatMult after entries outside the pattern (the pattern grows)", E, A, x));
  {
    Vec ze, za;
    PetscCall(VecDuplicate(y, &ze));
    PetscCall(VecDuplicate(y, &za));
    PetscCall(MatMultAdd(E, x, y, ze));
    PetscCall(MatMultAdd(A, x, y, za));
    PetscCall(Compare("MatMultAdd", ze, za, 1e-13));
    PetscCall(MatMultTranspose(E, x, ze));
    PetscCall(MatMultTranspose(A, x, za));
    PetscCall(Compare("MatMultTranspose", ze, za, 1e-13));
    PetscCall(MatGetDiagonal(E, ze));
    PetscCall(MatGetDiagonal(A, za));
    PetscCall(Compare("MatGetDiagonal", ze, za, 1e-15));
    PetscCall(VecDestroy(&ze));
    PetscCall(VecDestroy(&za));
  }
  PetscCall(MatDuplicate(E, MAT_COPY_VALUES, &E2));
  PetscCall(CompareMult("MatDuplicate(MAT_COPY_VALUES)", E2, A, x));
  PetscCall(MatZeroEntries(E2));
  PetscCall(MatMult(E2, x, z));
  {
    PetscReal nz;
    PetscCall(VecNorm(z, NORM_2, &nz));
    PetscCheck(nz == 0.0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "MatZeroEntries: |A x| = %g", (double)nz);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "MatZeroEntries: A x = 0: ok\n"));
  }
  PetscCall(MatCopy(E, E2, SAME_NONZERO_PATTERN));
  PetscCall(CompareMult("MatCopy (same pattern)", E2, A, x));
  PetscCall(MatScale(E, 2.0));
  PetscCall(MatScale(A, 2.0));
  PetscCall(CompareMult("MatScale", E, A, x));
  PetscCall(MatShift(E, 3.0));
  PetscCall(MatShift(A, 3.0));
  PetscCall(CompareMult("MatShift", E, A, x));
  /* Dirichlet rows, given by every rank (rows of any rank) */
  zr[0] = 0;
  zr[1] = N / 2;
  zr[2] = N - 1;
  zr[3] = (rank * 7) % N;
  PetscCall(VecDuplicate(y, &b1));
  PetscCall(VecDuplicate(y, &b2));
  PetscCall(VecCopy(y, b1));
  PetscCall(VecCopy(y, b2));
  PetscCall(MatZeroRows(E, 4, zr, 5.0, x, b1));
  PetscCall(MatZeroRows(A, 4, zr, 5.0, x, b2));
  PetscCall(Compare("MatZeroRows: b", b1, b2, 1e-15));
  PetscCall(CompareMult("MatZeroRows: A x", E, A, x));
  /* MatConvert both ways */
  PetscCall(MatConvert(E, MATAIJ, MAT_INITIAL_MATRIX, &B));
  PetscCall(CompareMult("MatConvert(MATEASDIA -> MATAIJ)", B, A, x));
  PetscCall(MatDestroy(&B));
  PetscCall(MatConvert(A, MATEASDIA, MAT_INITIAL_MATRIX, &B));
  PetscCall(CompareMult("MatConvert(MATAIJ -> MATEASDIA)", B, A, x));
  PetscCall(MatViewFromOptions(B, NULL, "-dia_mat_view"));
  PetscCall(MatDestroy(&B));
  PetscCall(MatDestroy(&E2));
  PetscCall(VecDestroy(&b1));
  PetscCall(VecDestroy(&b2));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&z));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(MatDestroy(&E));
  PetscCall(MatDestroy(&A));
  (void)size;
  PetscFunctionReturn(0);
}

/* Q1 elements of an n x n element grid on (n+1)^2 nodes, bs dof per node:
   element e = (i, j) is set by rank e % size (not the owner of its rows). */
static PetscErrorCode SetElements(Mat E, Mat A, PetscInt n, PetscInt bs, PetscRandom rnd)
{
  PetscMPIInt rank, size;
  PetscInt    m = 4 * bs, idx[4 * 3];
  PetscScalar K[144];

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  for (PetscInt e = 0; e < n * n; e++) {
    const PetscInt i = e % n, j = e / n, nd[4] = {j * (n + 1) + i, j * (n + 1) + i + 1, (j + 1) * (n + 1) + i + 1, (j + 1) * (n + 1) + i};
    PetscScalar    r;
    for (PetscInt a = 0; a < m; a++)
      for (PetscInt b = 0; b <= a; b++) { /* every rank draws the same numbers */
        PetscCall(PetscRandomGetValue(rnd, &r));
        K[a * m + b] = K[b * m + a] = (a == b) ? 4.0 + r : -0.3 * r;
      }
    if (e % size != rank) continue;
    for (PetscInt a = 0; a < 4; a++)
      for (PetscInt c = 0; c < bs; c++) idx[a * bs + c] = nd[a] * bs + c;
    PetscCall(MatSetValues(E, m, idx, m, idx, K, ADD_VALUES));
    PetscCall(MatSetValues(A, m, idx, m, idx, K, ADD_VALUES));
  }
  PetscCall(Assemble(E));
  PetscCall(Assemble(A));
  PetscFunctionReturn(0);
}

static PetscErrorCode TestEbe(PetscInt n, PetscInt bs)
{
  Mat         E, A, B;
  Vec         x, b1, b2, d1, d2;
  PetscInt    N = (n + 1) * (n + 1) * bs, zr[3], its[2];
  PetscRandom rnd, rx;
  PetscMPIInt rank;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd)); /* the same sequence on every rank */
  PetscCall(PetscRandomSetSeed(rnd, 12345));
  PetscCall(PetscRandomSeed(rnd));
  PetscCall(MatCreate(PETSC_COMM_WORLD, &E));
  PetscCall(MatSetSizes(E, PETSC_DECIDE, PETSC_DECIDE, N, N));
  PetscCall(MatSetBlockSize(E, bs));
  PetscCall(MatSetType(E, MATEASEBE));
  PetscCall(MatSetFromOptions(E));
  {
    PetscInt nl;
    PetscCall(MatGetLocalSize(E, &nl, NULL)); /* whole point blocks per rank */
    PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, nl, nl, N, N, 9 * bs, NULL, 9 * bs, NULL, &A));
  }
  PetscCall(MatSetBlockSize(A, bs));
  PetscCall(SetElements(E, A, n, bs, rnd));
  PetscCall(MatCreateVecs(A, &x, &b1));
  PetscCall(VecDuplicate(b1, &b2));
  PetscCall(VecDuplicate(b1, &d1));
  PetscCall(VecDuplicate(b1, &d2));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rx));
  PetscCall(VecSetRandom(x, rx));
  PetscCall(CompareMult("MATEASEBE MatMult (elements set by ranks that do not own their rows)", E, A, x));
  PetscCall(MatGetDiagonal(E, d1));
  PetscCall(MatGetDiagonal(A, d2));
  PetscCall(Compare("MATEASEBE MatGetDiagonal", d1, d2, 1e-14));
  PetscCall(MatConvert(E, MATAIJ, MAT_INITIAL_MATRIX, &B));
  PetscCall(CompareMult("MATEASEBE MatConvert to MATAIJ (the sum)", B, A, x));
  PetscCall(MatDestroy(&B));
  /* Dirichlet: rows and columns of the first node, the last and one in the middle */
  zr[0] = 0;
  zr[1] = N - 1;
  zr[2] = (N / 2 / bs) * bs;
  PetscCall(VecSetRandom(b1, rx));
  PetscCall(VecCopy(b1, b2));
  PetscCall(MatZeroRowsColumns(E, rank ? 0 : 3, zr, 2.0, x, b1));
  PetscCall(MatZeroRowsColumns(A, rank ? 0 : 3, zr, 2.0, x, b2));
  PetscCall(Compare("MATEASEBE MatZeroRowsColumns: b", b1, b2, 1e-14));
  PetscCall(CompareMult("MATEASEBE MatZeroRowsColumns: A x", E, A, x));
  zr[0] = bs;
  PetscCall(MatZeroRows(E, 1, zr, 3.0, x, b1));
  PetscCall(MatZeroRows(A, 1, zr, 3.0, x, b2));
  PetscCall(Compare("MATEASEBE MatZeroRows: b", b1, b2, 1e-14));
  PetscCall(CompareMult("MATEASEBE MatZeroRows: A x", E, A, x));
  /* eascg against PETSc's CG: the same iterations; -ksp_view shows the path taken */
  PetscCall(MatZeroRowsColumns(E, 1, zr, 3.0, NULL, NULL)); /* symmetric again for CG */
  PetscCall(MatZeroRowsColumns(A, 1, zr, 3.0, NULL, NULL));
  for (PetscInt k = 0; k < 2; k++) {
    KSP ksp;
    PC  pc;
    PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
    PetscCall(KSPSetOperators(ksp, k ? A : E, k ? A : E));
    PetscCall(KSPSetType(ksp, k ? KSPCG : KSPEASCG));
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PCSetType(pc, bs > 1 ? PCPBJACOBI : PCJACOBI));
    PetscCall(KSPSetNormType(ksp, KSP_NORM_UNPRECONDITIONED));
    PetscCall(KSPSetTolerances(ksp, 1e-10, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT));
    PetscCall(KSPSolve(ksp, b2, d1));
    PetscCall(KSPGetIterationNumber(ksp, &its[k]));
    if (!k) PetscCall(VecCopy(d1, d2));
    PetscCall(KSPDestroy(&ksp));
  }
  PetscCheck(its[0] == its[1], PETSC_COMM_WORLD, PETSC_ERR_PLIB, "eascg took %" PetscInt_FMT " iterations, PETSc's CG %" PetscInt_FMT, its[0], its[1]);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "eascg with %s: %" PetscInt_FMT " iterations, PETSc's CG %" PetscInt_FMT ": ok\n", bs > 1 ? "pbjacobi" : "jacobi", its[0], its[1]));
  PetscCall(Compare("eascg solution against PETSc's CG (rtol 1e-10)", d2, d1, 1e-7));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b1));
  PetscCall(VecDestroy(&b2));
  PetscCall(VecDestroy(&d1));
  PetscCall(VecDestroy(&d2));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscRandomDestroy(&rx));
  PetscCall(MatDestroy(&E));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  char     c[32] = "dia";
  PetscInt n = 12, bs = 1;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(EasPetscRegisterAll()); /* explicit: a program linked with --as-needed (Debian's default) and calling nothing of eas drops libeas */
  PetscCall(PetscOptionsGetString(NULL, NULL, "-case", c, sizeof(c), NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-bs", &bs, NULL));
  if (!strcmp(c, "dia")) PetscCall(TestDia(n));
  else if (!strcmp(c, "ebe")) PetscCall(TestEbe(n, bs));
  else if (!strcmp(c, "fill")) { /* entries scattered far from the diagonal */
    Mat E;
    PetscInt rs, re, N = n * n;
    PetscCall(MatCreate(PETSC_COMM_WORLD, &E));
    PetscCall(MatSetSizes(E, PETSC_DECIDE, PETSC_DECIDE, N, N));
    PetscCall(MatSetType(E, MATEASDIA));
    PetscCall(MatSetFromOptions(E));
    PetscCall(MatGetOwnershipRange(E, &rs, &re));
    for (PetscInt r = rs; r < re; r++) {
      PetscInt    col[2] = {r, (r * 7919 + 13) % N};
      PetscScalar v[2]   = {1, 1};
      PetscCall(MatSetValues(E, 1, &r, 2, col, v, ADD_VALUES));
    }
    PetscCall(Assemble(E));
    PetscCall(MatDestroy(&E));
  } else if (!strcmp(c, "ebe_insert")) {
    Mat         E;
    PetscInt    idx[2] = {0, 1};
    PetscScalar K[4]   = {1, 0, 0, 1};
    PetscCall(MatCreate(PETSC_COMM_WORLD, &E));
    PetscCall(MatSetSizes(E, PETSC_DECIDE, PETSC_DECIDE, 4, 4));
    PetscCall(MatSetType(E, MATEASEBE));
    PetscCall(MatSetValues(E, 2, idx, 2, idx, K, INSERT_VALUES));
    PetscCall(MatDestroy(&E));
  } else if (!strcmp(c, "ksp")) { /* easbcgs on the stencil: -mat_type aij for the fallback; -switch: then an AIJ operator */
    Mat E;
    KSP ksp;
    Vec x, b;
    PetscInt rs, re;
    PetscBool sw = PETSC_FALSE;
    PetscCall(PetscOptionsGetBool(NULL, NULL, "-switch", &sw, NULL));
    PetscCall(MatCreate(PETSC_COMM_WORLD, &E));
    PetscCall(MatSetSizes(E, PETSC_DECIDE, PETSC_DECIDE, n * n, n * n));
    PetscCall(MatSetType(E, MATEASDIA));
    PetscCall(MatSetFromOptions(E));
    PetscCall(MatSetUp(E));
    PetscCall(MatGetOwnershipRange(E, &rs, &re));
    PetscCall(SetStencil(E, n, rs, re, ADD_VALUES, 1.0));
    PetscCall(Assemble(E));
    PetscCall(MatCreateVecs(E, &x, &b));
    PetscCall(VecSet(b, 1.0));
    PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
    PetscCall(KSPSetOperators(ksp, E, E));
    PetscCall(KSPSetType(ksp, KSPEASBCGS));
    PetscCall(KSPSetFromOptions(ksp));
    PetscCall(KSPSolve(ksp, b, x));
    if (sw) { /* a new operator, an AIJ copy: the next solve sets up again and runs PETSc's BCGS */
      Mat                B;
      KSPConvergedReason r1, r2;
      PetscInt           i1, i2;
      PetscCall(KSPGetConvergedReason(ksp, &r1));
      PetscCall(KSPGetIterationNumber(ksp, &i1));
      PetscCall(MatConvert(E, MATAIJ, MAT_INITIAL_MATRIX, &B));
      PetscCall(KSPSetOperators(ksp, B, B));
      PetscCall(KSPSolve(ksp, b, x));
      PetscCall(KSPGetConvergedReason(ksp, &r2));
      PetscCall(KSPGetIterationNumber(ksp, &i2));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "first solve (MATEASDIA): %s in %" PetscInt_FMT " iterations; second (MATAIJ): %s in %" PetscInt_FMT "\n", KSPConvergedReasons[r1], i1, KSPConvergedReasons[r2], i2));
      PetscCall(MatDestroy(&B));
    }
    PetscCall(KSPDestroy(&ksp));
    PetscCall(VecDestroy(&x));
    PetscCall(VecDestroy(&b));
    PetscCall(MatDestroy(&E));
  } else SETERRQ(PETSC_COMM_WORLD, PETSC_ERR_ARG_UNKNOWN_TYPE, "-case %s: expected dia, ebe, fill, ebe_insert or ksp", c);
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST
  test:
    suffix: dia
    nsize: 1 2 4
    args: -case dia -n 12 -dia_mat_view ::ascii_info
    expect: MatShift: relative difference
    expect: MatZeroRows: A x: relative difference
    expect: MatConvert\(MATAIJ -> MATEASDIA\): relative difference
    expect: eas DIA blocks on /
  test:
    suffix: ebe
    nsize: 1 2 4
    args: -case ebe -n 8
    expect: MATEASEBE MatZeroRowsColumns: A x: relative difference
    expect: eascg with jacobi: [0-9]+ iterations, PETSc's CG [0-9]+: ok
  test:
    suffix: ebe_bs2
    nsize: 1 2
    args: -case ebe -n 6 -bs 2
    expect: eascg with pbjacobi: [0-9]+ iterations, PETSc's CG [0-9]+: ok
  test:
    suffix: fill
    nsize: 1 2
    backends: none
    args: -case fill -n 20
    expect_error: MATEASDIA: DIA fill .* exceeds -dia_max_fill 3.*use MATAIJ
  test:
    suffix: ebe_insert
    backends: none
    args: -case ebe_insert
    expect_error: MATEASEBE keeps element matrices: MatSetValues needs ADD_VALUES
  test:
    suffix: ilu
    backends: none
    args: -case ksp -pc_type ilu
    expect_error: KSPEASBCGS on a MATEASDIA: -pc_type ilu needs an assembled AIJ matrix.*MatConvert
  test:
    suffix: fallback
    nsize: 2
    backends: none
    args: -case ksp -mat_type aij -pc_type jacobi -info :ksp -ksp_converged_reason -ksp_view
    expect: KSPEASBCGS: the operator is not a MATEASDIA or MATEASEBE: PETSc's bcgs runs instead
    expect: Linear solve converged due to CONVERGED_RTOL
    expect: type: bcgs
  test:
    suffix: switch
    nsize: 2
    args: -case ksp -pc_type jacobi -switch -info :ksp
    expect: KSPEASBCGS: eas's fused BiCGStab on the MATEASDIA
    expect: KSPEASBCGS: the operator is not a MATEASDIA or MATEASEBE: PETSc's bcgs runs instead
    expect: first solve \(MATEASDIA\): CONVERGED_RTOL in ([0-9]+) iterations; second \(MATAIJ\): CONVERGED_RTOL in
  test:
    suffix: energy_view
    nsize: 2
    args: -case ksp -pc_type jacobi -ksp_converged_reason -eas_energy_view -eas_sensor model
    expect: Linear solve converged due to CONVERGED_RTOL
    expect: eas energy report: 2 rank\(s\)
    expect: eas PETSc plug-in: the solves of KSPEASBCGS and KSPEASCG
TEST*/
