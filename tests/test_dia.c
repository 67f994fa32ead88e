static const char help[] = "EasDia against PETSc: mult and mult-transpose against MatMult/MatMultTranspose on random\n"
                           "banded matrices and on the 3D two-species ADR Jacobian; conversions (Mat, Matrix Market)\n"
                           "round trip; diagonal.  Every process checks its own matrices.\n"
                           "  -n <rows of the random matrices>  -adr_n <grid of the ADR Jacobian>  -tol <1e-13>\n";

#include <eas.h>
#include <unistd.h>

/* max_i |y_i - z_i| / max_i |z_i| between an EasVec and a PETSc Vec */
static PetscErrorCode RelDiff(EasVec y, Vec z, PetscReal *rel)
{
  const PetscScalar *ya, *za;
  PetscInt           n;
  PetscReal          num = 0, den = 0;

  PetscFunctionBegin;
  PetscCall(EasVecGetSize(y, &n));
  PetscCall(EasVecGetArrayRead(y, &ya));
  PetscCall(VecGetArrayRead(z, &za));
  for (PetscInt i = 0; i < n; i++) {
    num = PetscMax(num, PetscAbsScalar(ya[i] - za[i]));
    den = PetscMax(den, PetscAbsScalar(za[i]));
  }
  PetscCall(VecRestoreArrayRead(z, &za));
  PetscCall(EasVecRestoreArrayRead(y, &ya));
  *rel = den > 0 ? num / den : num;
  PetscFunctionReturn(0);
}

/* Checks A x and A^T x of the EasDia against the PETSc Mat M, x random. */
static PetscErrorCode CompareProducts(const char *name, EasDia A, Mat M, PetscRandom rnd, PetscReal tol, PetscInt *nfail)
{
  EasVec    x, y;
  Vec       px, pz;
  PetscReal rel, relt;
  PetscInt  n;

  PetscFunctionBegin;
  PetscCall(EasDiaGetSize(A, &n, NULL));
  PetscCall(EasDiaCreateVecs(A, &x, &y));
  PetscCall(MatCreateVecs(M, &px, &pz));
  PetscCall(VecSetRandom(px, rnd));
  PetscCall(EasVecCopyFromVec(x, px));
  PetscCall(EasDiaMult(A, x, y));
  PetscCall(MatMult(M, px, pz));
  PetscCall(RelDiff(y, pz, &rel));
  PetscCall(EasDiaMultTranspose(A, x, y));
  PetscCall(MatMultTranspose(M, px, pz));
  PetscCall(RelDiff(y, pz, &relt));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-28s n=%-8" PetscInt_FMT " mult rel diff %.2e, transpose rel diff %.2e (tol %.0e) %s\n", name, n, (double)rel, (double)relt, (double)tol, rel <= tol && relt <= tol ? "ok" : "FAIL"));
  if (!(rel <= tol && relt <= tol)) (*nfail)++;
  PetscCall(VecDestroy(&px));
  PetscCall(VecDestroy(&pz));
  PetscCall(EasVecDestroy(&x));
  PetscCall(EasVecDestroy(&y));
  PetscFunctionReturn(0);
}

/* A random banded square matrix as a PETSc SeqAIJ: offsets given, values in [-1,1]. */
static PetscErrorCode RandomBanded(PetscInt n, PetscInt nd, const PetscInt *off, PetscRandom rnd, Mat *M)
{
  PetscFunctionBegin;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n, n, nd, NULL, M));
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt d = 0; d < nd; d++) {
      const PetscInt j = i + off[d];
      PetscScalar    v;
      if (j < 0 || j >= n) continue;
      PetscCall(PetscRandomGetValue(rnd, &v));
      PetscCall(MatSetValue(*M, i, j, v, INSERT_VALUES));
    }
  PetscCall(MatAssemblyBegin(*M, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*M, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscInt    n = 200, adr_n = 10, nfail = 0, gfail;
  PetscReal   tol = 1e-13;
  PetscRandom rnd;
  PetscMPIInt rank;
  EasBackend  be;
  char        name[64];

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "test_dia options", NULL);
  PetscCall(PetscOptionsInt("-n", "rows of the random banded matrices", NULL, n, &n, NULL));
  PetscCall(PetscOptionsInt("-adr_n", "grid points per direction of the ADR Jacobian", NULL, adr_n, &adr_n, NULL));
  PetscCall(PetscOptionsReal("-tol", "relative tolerance", NULL, tol, &tol, NULL));
  PetscOptionsEnd();
  PetscCall(EasBackendCreateFromOptions(PETSC_COMM_SELF, NULL, &be));
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 42 + 7 * rank));
  PetscCall(PetscRandomSeed(rnd));
  PetscCall(PetscRandomSetInterval(rnd, -1.0, 1.0));

  /* 1. random banded matrices, several offset sets, converted from AIJ */
  {
    const PetscInt sets[3][6] = {
        {-1, 0, 1, 0, 0, 0},
        {-5, -2, 0, 3, 9, 0},
        {-(n / 2), -1, 0, 1, n / 3, n - 1},
    };
    const PetscInt nds[3] = {3, 5, 6};
    for (PetscInt s = 0; s < 3; s++) {
      Mat       M, M2;
      EasDia    A;
      PetscBool eq;
      PetscCall(RandomBanded(n, nds[s], sets[s], rnd, &M));
      PetscCall(EasDiaCreate(PETSC_COMM_SELF, &A));
      PetscCall(EasDiaSetBackend(A, be));
      PetscCall(EasDiaSetMaxFill(A, 10.0));
      PetscCall(EasDiaSetFromMat(A, M));
      PetscCall(PetscSNPrintf(name, sizeof(name), "random banded, %" PetscInt_FMT " diagonals", nds[s]));
      PetscCall(CompareProducts(name, A, M, rnd, tol, &nfail));
      /* round trip DIA -> AIJ equals the original */
      PetscCall(EasDiaConvertToMat(A, &M2));
      PetscCall(MatEqual(M, M2, &eq));
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-28s ConvertToMat(SetFromMat(M)) == M: %s\n", name, eq ? "ok" : "FAIL"));
      if (!eq) nfail++;
      PetscCall(MatDestroy(&M2));
      PetscCall(EasDiaDestroy(&A));
      PetscCall(MatDestroy(&M));
    }
  }

  /* 2. the ADR Jacobian from the gallery, against its AIJ conversion; diagonal */
  {
    EasDia    A;
    Mat       M;
    EasVec    d;
    Vec       pd;
    PetscReal rel;
    PetscInt  ndiag;
    PetscCall(EasDiaCreate(PETSC_COMM_SELF, &A));
    PetscCall(EasDiaSetBackend(A, be));
    PetscCall(EasDiaSetFromGallery(A, "adr", adr_n));
    PetscCall(EasDiaGetSize(A, NULL, &ndiag));
    PetscCheck(ndiag == 9, PETSC_COMM_SELF, PETSC_ERR_PLIB, "ADR Jacobian has %" PetscInt_FMT " offsets, expected 9", ndiag);
    PetscCall(EasDiaConvertToMat(A, &M));
    PetscCall(CompareProducts("ADR Jacobian (9 offsets)", A, M, rnd, tol, &nfail));
    PetscCall(EasDiaCreateVecs(A, &d, NULL));
    PetscCall(MatCreateVecs(M, &pd, NULL));
    PetscCall(EasDiaGetDiagonal(A, d));
    PetscCall(MatGetDiagonal(M, pd));
    PetscCall(RelDiff(d, pd, &rel));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-28s diagonal rel diff %.2e %s\n", "ADR Jacobian", (double)rel, rel == 0 ? "ok" : "FAIL"));
    if (rel != 0) nfail++;
    PetscCall(VecDestroy(&pd));
    PetscCall(EasVecDestroy(&d));
    PetscCall(MatDestroy(&M));
    PetscCall(EasDiaDestroy(&A));
  }

  /* 3. Matrix Market: write a random symmetric banded matrix, read it back */
  {
    char           path[PETSC_MAX_PATH_LEN];
    FILE          *fp;
    Mat            M;
    EasDia         A;
    PetscInt       nnz = 0, m = PetscMin(n, 50);
    const PetscInt off[3] = {0, 1, 4};
    PetscCall(PetscSNPrintf(path, sizeof(path), "/tmp/eas_test_dia_%d_%d.mtx", (int)getpid(), rank));
    PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, m, m, 7, NULL, &M));
    for (PetscInt i = 0; i < m; i++)
      for (PetscInt d = 0; d < 3; d++)
        if (i + off[d] < m) nnz++;
    fp = fopen(path, "w");
    PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot write %s", path);
    fprintf(fp, "%%%%MatrixMarket matrix coordinate real symmetric\n%% written by test_dia\n%d %d %d\n", (int)m, (int)m, (int)nnz);
    for (PetscInt i = 0; i < m; i++)
      for (PetscInt d = 0; d < 3; d++) {
        PetscScalar v;
        if (i + off[d] >= m) continue;
        PetscCall(PetscRandomGetValue(rnd, &v));
        fprintf(fp, "%d %d %.17g\n", (int)(i + off[d] + 1), (int)(i + 1), (double)v); /* lower triangle */
        PetscCall(MatSetValue(M, i + off[d], i, v, INSERT_VALUES));
        PetscCall(MatSetValue(M, i, i + off[d], v, INSERT_VALUES));
      }
    fclose(fp);
    PetscCall(MatAssemblyBegin(M, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(M, MAT_FINAL_ASSEMBLY));
    PetscCall(EasDiaCreate(PETSC_COMM_SELF, &A));
    PetscCall(EasDiaSetBackend(A, be));
    PetscCall(EasDiaLoadMatrixMarket(A, path));
    PetscCall(CompareProducts("Matrix Market symmetric", A, M, rnd, tol, &nfail));
    PetscCall(EasDiaDestroy(&A));
    PetscCall(MatDestroy(&M));
    unlink(path);
  }

  PetscCall(MPIU_Allreduce(&nfail, &gfail, 1, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD));
  PetscCheck(gfail == 0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%" PetscInt_FMT " DIA checks failed", gfail);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "all DIA checks passed\n"));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(EasBackendDestroy(&be));
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    suffix: products
    nsize: 1 2 4
    expect: all DIA checks passed
  test:
    suffix: large
    nsize: 1
    args: -n 5000 -adr_n 20
    expect: ADR Jacobian \(9 offsets\) +n=16000 .*ok
    expect: all DIA checks passed
  test:
    suffix: products_cusparse
    nsize: 1 2
    backends: /gpu/cuda
    requires: cuda-device
    args: -eas_cuda_spmv cusparse
  test:
    suffix: products_csr
    nsize: 1 2
    backends: /cpu/memcheck
    args: -eas_memcheck_spmv csr
    expect: all DIA checks passed
TEST*/
