static const char help[] = "Bad input gets a clear error naming the problem.  -case <name> selects the bad input:\n"
                           "  solve (options decide: -ksp_rtol -1, -eas_backend /cpu/nope, ...), mm_missing, mm_header,\n"
                           "  mm_entry, mm_range, mm_truncated, mm_nonsquare, size, fill, cuda, zero_diag, offsets, gallery_n,\n"
                           "  values_in_use, values_restore\n";

#include <eas.h>
#include <unistd.h>

/* Writes text to a temporary file whose name is returned in path. */
static PetscErrorCode WriteTemp(const char *text, char path[], size_t len)
{
  FILE *fp;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(path, len, "/tmp/eas_test_errors_%d.mtx", (int)getpid()));
  fp = fopen(path, "w");
  PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot write %s", path);
  fputs(text, fp);
  fclose(fp);
  PetscFunctionReturn(0);
}

/* A small solve whose options come from the command line. */
static PetscErrorCode Solve(void)
{
  EasBackend be;
  EasDia     A;
  EasKsp     ksp;
  EasVec     b, x;

  PetscFunctionBegin;
  PetscCall(EasBackendCreateFromOptions(PETSC_COMM_SELF, NULL, &be));
  PetscCall(EasDiaCreate(PETSC_COMM_SELF, &A));
  PetscCall(EasDiaSetBackend(A, be));
  PetscCall(EasDiaSetFromOptions(A));
  PetscCall(EasDiaSetFromGallery(A, "adr", 4));
  PetscCall(EasKspCreate(PETSC_COMM_SELF, &ksp));
  PetscCall(EasKspSetOperator(ksp, A));
  PetscCall(EasKspSetFromOptions(ksp));
  PetscCall(EasDiaCreateVecs(A, &x, &b));
  PetscCall(EasVecSet(b, 1.0));
  PetscCall(EasKspSolve(ksp, b, x));
  PetscCall(EasVecDestroy(&x));
  PetscCall(EasVecDestroy(&b));
  PetscCall(EasKspDestroy(&ksp));
  PetscCall(EasDiaDestroy(&A));
  PetscCall(EasBackendDestroy(&be));
  PetscFunctionReturn(0);
}

static PetscErrorCode LoadMM(const char *text)
{
  char           path[PETSC_MAX_PATH_LEN];
  EasDia         A;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(WriteTemp(text, path, sizeof(path)));
  PetscCall(EasDiaCreate(PETSC_COMM_SELF, &A));
  ierr = EasDiaLoadMatrixMarket(A, path);
  unlink(path);
  PetscCall(ierr);
  PetscCall(EasDiaDestroy(&A));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  char      which[32] = "solve";
  PetscBool match;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-case", which, sizeof(which), NULL));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "case %s\n", which));

  PetscCall(PetscStrcmp(which, "solve", &match));
  if (match) PetscCall(Solve());
  PetscCall(PetscStrcmp(which, "mm_missing", &match));
  if (match) {
    EasDia A;
    PetscCall(EasDiaCreate(PETSC_COMM_SELF, &A));
    PetscCall(EasDiaLoadMatrixMarket(A, "/nonexistent/eas/matrix.mtx"));
    PetscCall(EasDiaDestroy(&A));
  }
  PetscCall(PetscStrcmp(which, "mm_header", &match));
  if (match) PetscCall(LoadMM("%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n"));
  PetscCall(PetscStrcmp(which, "mm_entry", &match));
  if (match) PetscCall(LoadMM("%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 4.0\n2 x 1.0\n"));
  PetscCall(PetscStrcmp(which, "mm_range", &match));
  if (match) PetscCall(LoadMM("%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 4.0\n3 1 1.0\n"));
  PetscCall(PetscStrcmp(which, "mm_truncated", &match));
  if (match) PetscCall(LoadMM("%%MatrixMarket matrix coordinate real general\n3 3 3\n1 1 4.0\n2 2 1.0\n"));
  PetscCall(PetscStrcmp(which, "mm_nonsquare", &match));
  if (match) PetscCall(LoadMM("%%MatrixMarket matrix coordinate real general\n3 2 1\n1 1 4.0\n"));
  PetscCall(PetscStrcmp(which, "fill", &match));
  if (match) { /* an arrow matrix: first row and column full, n diagonals for 3n entries */
    char     *text;
    size_t    len = 0, cap = 1 << 16;
    const int n = 100;
    PetscCall(PetscMalloc1(cap, &text));
    len += (size_t)snprintf(text + len, cap - len, "%%%%MatrixMarket matrix coordinate real general\n%d %d %d\n", n, n, 3 * n - 2);
    for (int i = 1; i <= n; i++) len += (size_t)snprintf(text + len, cap - len, "%d %d 4.0\n", i, i);
    for (int i = 2; i <= n; i++) len += (size_t)snprintf(text + len, cap - len, "1 %d 1.0\n%d 1 1.0\n", i, i);
    PetscCall(LoadMM(text));
    PetscCall(PetscFree(text));
  }
  PetscCall(PetscStrcmp(which, "size", &match));
  if (match) {
    EasBackend be;
    EasDia     A;
    EasVec     x, y;
    PetscCall(EasBackendCreateFromOptions(PETSC_COMM_SELF, NULL, &be));
    PetscCall(EasDiaCreate(PETSC_COMM_SELF, &A));
    PetscCall(EasDiaSetBackend(A, be));
    PetscCall(EasDiaSetFromGallery(A, "adr", 4));
    PetscCall(EasVecCreate(be, 128, &x));
    PetscCall(EasVecCreate(be, 100, &y));
    PetscCall(EasDiaMult(A, x, y));
  }
  PetscCall(PetscStrcmp(which, "cuda", &match));
  if (match) {
    EasBackend be;
    PetscCall(EasBackendCreate(PETSC_COMM_SELF, "/gpu/cuda", &be));
    PetscCall(EasBackendDestroy(&be));
  }
  PetscCall(PetscStrcmp(which, "zero_diag", &match));
  if (match) {
    const PetscInt    off[2] = {-1, 1};
    const PetscScalar val[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    EasDia            A;
    EasKsp            ksp;
    PetscCall(EasDiaCreate(PETSC_COMM_SELF, &A));
    PetscCall(EasDiaSetDiagonals(A, 4, 2, off, val));
    PetscCall(EasKspCreate(PETSC_COMM_SELF, &ksp));
    PetscCall(EasKspSetOperator(ksp, A));
    PetscCall(EasKspSetUp(ksp));
  }
  PetscCall(PetscStrcmp(which, "gallery_n", &match));
  if (match) {
    EasDia A;
    PetscCall(EasDiaCreate(PETSC_COMM_SELF, &A));
    PetscCall(EasDiaSetFromGallery(A, "adr", 2));
  }
  PetscCall(PetscStrcmp(which, "values_in_use", &match));
  if (match) { /* multiply while the values are checked out for writing */
    EasDia       A;
    EasVec       x, y;
    PetscScalar *v;
    PetscCall(EasDiaCreate(PETSC_COMM_SELF, &A));
    PetscCall(EasDiaSetFromGallery(A, "adr", 3));
    PetscCall(EasDiaCreateVecs(A, &x, &y));
    PetscCall(EasDiaGetValuesWrite(A, &v, NULL));
    PetscCall(EasDiaMult(A, x, y));
  }
  PetscCall(PetscStrcmp(which, "values_restore", &match));
  if (match) { /* restore an array that is not the matrix's */
    EasDia       A;
    PetscScalar *v, other[4];
    PetscCall(EasDiaCreate(PETSC_COMM_SELF, &A));
    PetscCall(EasDiaSetFromGallery(A, "adr", 3));
    PetscCall(EasDiaGetValuesWrite(A, &v, NULL));
    v = other;
    PetscCall(EasDiaRestoreValuesWrite(A, &v));
  }
  PetscCall(PetscStrcmp(which, "offsets", &match));
  if (match) {
    const PetscInt    off[2] = {0, 4};
    const PetscScalar val[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    EasDia            A;
    PetscCall(EasDiaCreate(PETSC_COMM_SELF, &A));
    PetscCall(EasDiaSetDiagonals(A, 4, 2, off, val));
  }
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    suffix: neg_rtol
    backends: cpu
    args: -ksp_rtol -1
    expect_error: -ksp_rtol -1\.? is invalid: expected a relative tolerance in \[0, 1\)
  test:
    suffix: neg_atol
    backends: cpu
    args: -ksp_atol -1e-3
    expect_error: -ksp_atol -0.001 is invalid: expected an absolute tolerance >= 0
  test:
    suffix: bad_max_it
    backends: cpu
    args: -ksp_max_it -5
    expect_error: -ksp_max_it -5 is invalid: expected an iteration count >= 0
  test:
    suffix: bad_ksp_type
    backends: cpu
    args: -ksp_type gmres
    expect_error: Unknown option gmres for -ksp_type. Available options: bicgstab
  test:
    suffix: bad_pc_type
    backends: cpu
    args: -pc_type ilu0
    expect_error: Unknown option ilu0 for -pc_type. Available options: none jacobi pbjacobi ilu
  test:
    suffix: bad_ilu_sweeps
    backends: cpu
    args: -pc_ilu_solve_sweeps -1
    expect_error: -pc_ilu_solve_sweeps -1 is invalid: expected a sweep count >= 0
  test:
    suffix: bad_threads
    backends: cpu
    args: -eas_threads 0
    expect_error: -eas_threads 0 is invalid: expected an integer >= 1
  test:
    suffix: bad_fill_option
    backends: cpu
    args: -dia_max_fill 0.5
    expect_error: -dia_max_fill 0.5 is invalid: expected a real number >= 1
  test:
    suffix: unknown_backend
    backends: none
    args: -eas_backend /cpu/nope
    expect_error: Unknown eas backend "/cpu/nope" \(-eas_backend\); known backends: /cpu/openmp
  test:
    suffix: mm_missing
    backends: none
    args: -case mm_missing
    expect_error: Cannot open Matrix Market file "/nonexistent/eas/matrix.mtx": No such file
  test:
    suffix: mm_header
    backends: none
    args: -case mm_header
    expect_error: unsupported Matrix Market type "matrix array real"
  test:
    suffix: mm_entry
    backends: none
    args: -case mm_entry
    expect_error: mtx:4: malformed entry: expected "row column value"
  test:
    suffix: mm_range
    backends: none
    args: -case mm_range
    expect_error: mtx:4: entry \(3, 1\) is outside the 2 x 2 matrix
  test:
    suffix: mm_truncated
    backends: none
    args: -case mm_truncated
    expect_error: the file ends after 2 entries; the size line announced 3
  test:
    suffix: mm_nonsquare
    backends: none
    args: -case mm_nonsquare
    expect_error: the matrix is 3 x 2, expected a square matrix
  test:
    suffix: fill
    backends: none
    args: -case fill
    expect_error: DIA fill 66.8 \(199 diagonals x 100 rows for 298 nonzeros\) exceeds the bound 3\.? \(-dia_max_fill\)
  test:
    suffix: size
    backends: cpu
    args: -case size
    expect_error: EasDiaMult: size mismatch: matrix 128 x 128, x has 128, y has 100 entries
  test:
    suffix: cuda
    backends: none
    requires: !cuda-device
    args: -case cuda
    expect_error: (no CUDA device|CUDA module not loaded)
  test:
    suffix: cuda_device_range
    backends: none
    requires: cuda-device
    args: -case cuda -eas_cuda_device 4096
    expect_error: -eas_cuda_device 4096 is out of range: this node has [0-9]+ CUDA devices? \(expected an integer in \[0,[0-9]+\] or auto\)
  test:
    suffix: cuda_device_form
    backends: none
    requires: cuda-device
    args: -case cuda -eas_cuda_device first
    expect_error: -eas_cuda_device first is invalid: expected a device number \(an integer >= 0\) or auto
  test:
    suffix: zero_diag
    backends: none
    args: -case zero_diag
    expect_error: Zero diagonal entry at row 0: -pc_type jacobi needs a nonzero diagonal
  test:
    suffix: offsets
    backends: none
    args: -case offsets
    expect_error: offset off\[1\] = 4 is outside \(-n, n\) for n = 4
  test:
    suffix: gallery_n
    backends: none
    args: -case gallery_n
    expect_error: Gallery adr: n = 2 grid points per direction, expected n >= 3
  test:
    suffix: gallery_dt
    backends: cpu
    args: -dia_gallery_dt -5
    expect_error: Gallery adr: dt = -5\.?, expected dt > 0
  test:
    suffix: values_in_use
    backends: none
    args: -case values_in_use
    expect_error: the values are checked out by EasDiaGetValuesWrite\(\); call EasDiaRestoreValuesWrite\(\) before using the matrix
  test:
    suffix: values_restore
    backends: none
    args: -case values_restore
    expect_error: EasDiaRestoreValuesWrite: expected the array returned by EasDiaGetValuesWrite\(\)
TEST*/
