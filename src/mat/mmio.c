/*
  Matrix Market reader for EasDia: "%%MatrixMarket matrix coordinate
  real|integer general|symmetric|skew-symmetric".  Every error names the file,
  the line and what was expected.
*/
#include "diaimpl.h"
#include <errno.h>
#include <string.h>
#include <ctype.h>

static void EasStrLower(char *s)
{
  for (; *s; s++) *s = (char)tolower((unsigned char)*s);
}

/* Reads the next line that is not a comment (%) or blank; returns 0 at EOF. */
static int EasReadDataLine(FILE *fp, char *buf, int len, PetscInt *lineno)
{
  while (fgets(buf, len, fp)) {
    char *p = buf;
    (*lineno)++;
    while (isspace((unsigned char)*p)) p++;
    if (*p && *p != '%') return 1;
  }
  return 0;
}

/*@C
  EasDiaLoadMatrixMarket - reads a square sparse matrix from a Matrix Market
  coordinate file into DIA storage.

  Errors: the file cannot be opened (with the system's reason); a missing or
  unsupported header (array, complex or pattern); a malformed size line or
  entry; an index out of range; fewer entries than announced; a non-square
  matrix; a DIA fill above the bound.
@*/
PetscErrorCode EasDiaLoadMatrixMarket(EasDia A, const char path[])
{
  FILE        *fp;
  char         line[1024], banner[64], object[64], format[64], field[64], symmetry[64];
  PetscInt     lineno = 0, m, n;
  long long    nz_ll;
  PetscCount   nz, k = 0, cap;
  PetscInt    *row, *col;
  PetscScalar *v;
  PetscBool    sym = PETSC_FALSE, skew = PETSC_FALSE;
  MPI_Comm     comm;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, EAS_DIA_CLASSID, 1);
  comm = PetscObjectComm((PetscObject)A);
  PetscCheck(path && path[0], comm, PETSC_ERR_ARG_NULL, "EasDiaLoadMatrixMarket: no file name given");
  fp = fopen(path, "r");
  PetscCheck(fp, comm, PETSC_ERR_FILE_OPEN, "Cannot open Matrix Market file \"%s\": %s", path, strerror(errno));
  if (!fgets(line, sizeof(line), fp) || sscanf(line, "%63s %63s %63s %63s %63s", banner, object, format, field, symmetry) != 5 || strcmp(banner, "%%MatrixMarket")) {
    fclose(fp);
    SETERRQ(comm, PETSC_ERR_FILE_UNEXPECTED, "%s:1: not a Matrix Market file: expected the header \"%%%%MatrixMarket matrix coordinate real general|symmetric\"", path);
  }
  lineno = 1;
  EasStrLower(object);
  EasStrLower(format);
  EasStrLower(field);
  EasStrLower(symmetry);
  if (strcmp(object, "matrix") || strcmp(format, "coordinate") || (strcmp(field, "real") && strcmp(field, "integer") && strcmp(field, "double"))) {
    fclose(fp);
    SETERRQ(comm, PETSC_ERR_FILE_UNEXPECTED, "%s:1: unsupported Matrix Market type \"%s %s %s\": expected \"matrix coordinate real\" (or integer)", path, object, format, field);
  }
  if (!strcmp(symmetry, "symmetric"))
    sym = PETSC_TRUE;
  else if (!strcmp(symmetry, "skew-symmetric"))
    skew = PETSC_TRUE;
  else if (strcmp(symmetry, "general")) {
    fclose(fp);
    SETERRQ(comm, PETSC_ERR_FILE_UNEXPECTED, "%s:1: unsupported symmetry \"%s\": expected general, symmetric or skew-symmetric", path, symmetry);
  }
  if (!EasReadDataLine(fp, line, sizeof(line), &lineno) || sscanf(line, "%" PetscInt_FMT " %" PetscInt_FMT " %lld", &m, &n, &nz_ll) != 3 || m < 1 || n < 1 || nz_ll < 0) {
    fclose(fp);
    SETERRQ(comm, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt_FMT ": malformed size line: expected \"rows columns nonzeros\" with positive sizes", path, lineno);
  }
  if (m != n) {
    fclose(fp);
    SETERRQ(comm, PETSC_ERR_ARG_SIZ, "%s: the matrix is %" PetscInt_FMT " x %" PetscInt_FMT ", expected a square matrix", path, m, n);
  }
  nz  = (PetscCount)nz_ll;
  cap = (sym || skew) ? 2 * nz : nz;
  PetscCall(PetscMalloc3(PetscMax(cap, 1), &row, PetscMax(cap, 1), &col, PetscMax(cap, 1), &v));
  for (PetscCount e = 0; e < nz; e++) {
    PetscInt i, j;
    double   a;
    if (!EasReadDataLine(fp, line, sizeof(line), &lineno)) {
      fclose(fp);
      PetscCall(PetscFree3(row, col, v));
      SETERRQ(comm, PETSC_ERR_FILE_UNEXPECTED, "%s: the file ends after %" PetscInt64_FMT " entries; the size line announced %" PetscInt64_FMT, path, (PetscInt64)e, (PetscInt64)nz);
    }
    if (sscanf(line, "%" PetscInt_FMT " %" PetscInt_FMT " %lf", &i, &j, &a) != 3) {
      fclose(fp);
      PetscCall(PetscFree3(row, col, v));
      SETERRQ(comm, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt_FMT ": malformed entry: expected \"row column value\"", path, lineno);
    }
    if (i < 1 || i > m || j < 1 || j > n) {
      fclose(fp);
      PetscCall(PetscFree3(row, col, v));
      SETERRQ(comm, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt_FMT ": entry (%" PetscInt_FMT ", %" PetscInt_FMT ") is outside the %" PetscInt_FMT " x %" PetscInt_FMT " matrix (indices are 1-based)", path, lineno, i, j, m, n);
    }
    row[k] = i - 1;
    col[k] = j - 1;
    v[k++] = a;
    if ((sym || skew) && i != j) {
      row[k] = j - 1;
      col[k] = i - 1;
      v[k++] = skew ? -a : a;
    }
  }
  fclose(fp);
  PetscCall(EasDiaSetFromTriplets_Private(A, m, k, row, col, v, path));
  PetscCall(PetscFree3(row, col, v));
  PetscFunctionReturn(0);
}
