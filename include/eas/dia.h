#pragma once
/*
  eas/dia.h - square sparse matrices in DIA storage on a backend (layer
  mat, docs/design.md).
*/
#include <petscmat.h>
#include <eas/vec.h>

PETSC_EXTERN PetscClassId EAS_DIA_CLASSID;

/* Square sparse matrix in DIA storage: val[d*ld + i] = A[i][i+off[d]], with a
   padded leading dimension ld >= n.  An EasDia lives on one process
   (PETSC_COMM_SELF): the distributed solvers hold one block per rank. */
typedef struct _p_EasDia *EasDia;

/* Value precision of a DIA matrix (EasDiaSetPrecision). */
typedef enum {
  EAS_PRECISION_DOUBLE,
  EAS_PRECISION_SINGLE
} EasPrecision;
PETSC_EXTERN const char *const EasPrecisions[];
/* EasDiaCreate - an empty DIA matrix (set its sizes, offsets, values and backend, then EasDiaSetUp). */
PETSC_EXTERN PetscErrorCode EasDiaCreate(MPI_Comm, EasDia *);
/* EasDiaSetBackend - the backend that stores and multiplies (default: the
   one named by -eas_backend at SetUp). */
PETSC_EXTERN PetscErrorCode EasDiaSetBackend(EasDia, EasBackend);
PETSC_EXTERN PetscErrorCode EasDiaGetBackend(EasDia, EasBackend *);
/* EasDiaSetMaxFill - conversions refuse a matrix whose DIA storage
   ndiag*n exceeds fill*nnz (default 3, must be >= 1). */
PETSC_EXTERN PetscErrorCode EasDiaSetMaxFill(EasDia, PetscReal);
PETSC_EXTERN PetscErrorCode EasDiaSetOptionsPrefix(EasDia, const char[]);
/* EasDiaSetFromOptions - -dia_max_fill <fill>, -dia_view. */
PETSC_EXTERN PetscErrorCode EasDiaSetFromOptions(EasDia);
/* EasDiaSetDiagonals - sets n, the ndiag distinct offsets (|off| < n) and
   values val[d*n + i] = A[i][i+off[d]] (entries outside the matrix ignored).
   Copies the data. */
PETSC_EXTERN PetscErrorCode EasDiaSetDiagonals(EasDia, PetscInt n, PetscInt ndiag, const PetscInt off[], const PetscScalar val[]);
/* EasDiaSetPattern - sets n, the ndiag distinct offsets (|off| < n, any
   order) and all values zero, for filling with EasDiaGetValuesWrite(). */
PETSC_EXTERN PetscErrorCode EasDiaSetPattern(EasDia, PetscInt n, PetscInt ndiag, const PetscInt off[]);
/* EasDiaSetFromMat - converts a square sequential AIJ (or any MatGetRow) Mat. */
PETSC_EXTERN PetscErrorCode EasDiaSetFromMat(EasDia, Mat);
/* EasDiaLoadMatrixMarket - reads a real coordinate Matrix Market file
   (general or symmetric).  Errors name the file, the line and what was
   expected. */
PETSC_EXTERN PetscErrorCode EasDiaLoadMatrixMarket(EasDia, const char path[]);
/* EasDiaSetFromGallery - built-in test matrices: eas/adr.h (the solvers
   layer builds them). */
PETSC_EXTERN PetscErrorCode EasDiaSetUp(EasDia);
/* EasDiaSetPrecision - the precision of the values the multiply and the
   BiCGStab kernels read: EAS_PRECISION_DOUBLE (default) or
   EAS_PRECISION_SINGLE (a float copy in backend memory, refreshed after
   every change of the values; vectors, sums and dot products stay double:
   36 instead of 72 B per row and multiply with 9 diagonals).  The host
   values stay double.  Every backend has the kernels (the same bodies);
   error at the first multiply through a CSR copy (-eas_cuda_spmv
   cusparse, -eas_memcheck_spmv csr), which holds double values. */
PETSC_EXTERN PetscErrorCode EasDiaSetPrecision(EasDia, EasPrecision);
PETSC_EXTERN PetscErrorCode EasDiaGetPrecision(EasDia, EasPrecision *);
PETSC_EXTERN PetscErrorCode EasDiaGetSize(EasDia, PetscInt *n, PetscInt *ndiag);
PETSC_EXTERN PetscErrorCode EasDiaGetOffsets(EasDia, const PetscInt *off[]);
/* EasDiaGetNonzeros - band entries inside the matrix, sum over the diagonals
   of n - |off|, as PetscCount (64-bit: it passes 2^31 - 1 from 2.4e8 rows
   with 9 diagonals). */
PETSC_EXTERN PetscErrorCode EasDiaGetNonzeros(EasDia, PetscCount *nnz);
/* EasDiaGetValuesWrite / EasDiaRestoreValuesWrite - change the values in
   place, the pattern (n, offsets, ld) fixed: *val is the host array of
   ndiag x ld values, val[d*ld + i] = A[i][i+off[d]] with the ascending
   offsets of EasDiaGetOffsets() and ld (may be NULL) the leading dimension.
   Entries with i+off[d] outside [0, n) and rows [n, ld) are reset to zero by
   the restore.  The restore increases the matrix's state (EasDiaGetState)
   and marks the backend copy out of date; it is uploaded in place at the
   next EasDiaSetUp() or multiply, and an EasKsp using the matrix recomputes
   only its value-dependent data (Jacobi scaling) at its next setup/solve.
   Errors: no entries yet; already checked out; restoring another array. */
PETSC_EXTERN PetscErrorCode EasDiaGetValuesWrite(EasDia, PetscScalar **val, PetscInt *ld);
PETSC_EXTERN PetscErrorCode EasDiaRestoreValuesWrite(EasDia, PetscScalar **val);
/* EasDiaGetValuesRead / EasDiaRestoreValuesRead - read-only host access in
   the same layout (no state change). */
PETSC_EXTERN PetscErrorCode EasDiaGetValuesRead(EasDia, const PetscScalar **val, PetscInt *ld);
PETSC_EXTERN PetscErrorCode EasDiaRestoreValuesRead(EasDia, const PetscScalar **val);
/* EasDiaGetState - a counter that increases with every change of the
   values or the pattern (SetDiagonals, SetFromMat, RestoreValuesWrite...):
   data derived from the values is current while the state is unchanged. */
PETSC_EXTERN PetscErrorCode EasDiaGetState(EasDia, PetscObjectState *);
PETSC_EXTERN PetscErrorCode EasDiaCreateVecs(EasDia, EasVec *x, EasVec *y);
PETSC_EXTERN PetscErrorCode EasDiaMult(EasDia, EasVec x, EasVec y);          /* y <- A x */
PETSC_EXTERN PetscErrorCode EasDiaMultTranspose(EasDia, EasVec x, EasVec y); /* y <- A^T x */
PETSC_EXTERN PetscErrorCode EasDiaGetDiagonal(EasDia, EasVec d);
/* EasDiaConvertToMat - a new SEQAIJ Mat with the same entries (explicit
   zeros inside the band are dropped). */
PETSC_EXTERN PetscErrorCode EasDiaConvertToMat(EasDia, Mat *);
PETSC_EXTERN PetscErrorCode EasDiaView(EasDia, PetscViewer);
PETSC_EXTERN PetscErrorCode EasDiaDestroy(EasDia *);
