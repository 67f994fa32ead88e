/*
  EasDia: square DIA matrix on one process, multiplied on its backend.
*/
#include "diaimpl.h"
#include "core/size.h"
#include "core/align.h"

PetscClassId  EAS_DIA_CLASSID;
PetscLogEvent EAS_DiaMult, EAS_DiaMultTranspose, EAS_DiaSetUp, EAS_DiaConvert;

static PetscBool eas_dia_package_initialized = PETSC_FALSE;

/*
  EasDiaInitializePackage - the EasDia class and its log events.  Called by
  EasDiaCreate.
*/
PetscErrorCode EasDiaInitializePackage(void)
{
  PetscFunctionBegin;
  if (eas_dia_package_initialized) PetscFunctionReturn(0);
  PetscCall(EasPackageInitialized_Private(&eas_dia_package_initialized)); /* cleared at PetscFinalize */
  PetscCall(PetscClassIdRegister("EAS DIA", &EAS_DIA_CLASSID));
  PetscCall(PetscLogEventRegister("EasDiaMult", EAS_DIA_CLASSID, &EAS_DiaMult));
  PetscCall(PetscLogEventRegister("EasDiaMultT", EAS_DIA_CLASSID, &EAS_DiaMultTranspose));
  PetscCall(PetscLogEventRegister("EasDiaSetUp", EAS_DIA_CLASSID, &EAS_DiaSetUp));
  PetscCall(PetscLogEventRegister("EasDiaConvert", EAS_DIA_CLASSID, &EAS_DiaConvert));
  PetscFunctionReturn(0);
}

PetscInt64 EasDiaLeadingDimension(PetscInt n)
{
  PetscInt64 ld = (((PetscInt64)PetscMax(n, 1) + 7) / 8) * 8; /* 64-bit: n + 7 passes 2^31 - 1 near the top */
  if (ld % 512 == 0) ld += 8;
  return ld;
}

/*@C
  EasDiaCreate - creates an empty DIA matrix.  Set its entries with
  EasDiaSetDiagonals(), EasDiaSetFromMat(), EasDiaLoadMatrixMarket() or
  EasDiaSetFromGallery().
@*/
PetscErrorCode EasDiaCreate(MPI_Comm comm, EasDia *A)
{
  EasDia a;

  PetscFunctionBegin;
  PetscValidPointer(A, 2);
  PetscCall(EasDiaInitializePackage());
  PetscCall(PetscHeaderCreate(a, EAS_DIA_CLASSID, "EasDia", "DIA sparse matrix", "Mat", comm, EasDiaDestroy, EasDiaView));
  PetscCall(PetscObjectChangeTypeName((PetscObject)a, "dia"));
  a->max_fill = 3.0;
  *A          = a;
  PetscFunctionReturn(0);
}

/*@C
  EasDiaSetBackend - the backend that stores and multiplies the matrix.
  Must be called before EasDiaSetUp().
@*/
PetscErrorCode EasDiaSetBackend(EasDia A, EasBackend be)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, EAS_DIA_CLASSID, 1);
  PetscValidHeaderSpecific(be, EAS_BACKEND_CLASSID, 2);
  PetscCheck(!A->setupcalled, PetscObjectComm((PetscObject)A), PETSC_ERR_ORDER, "EasDiaSetBackend() must come before EasDiaSetUp()");
  PetscCall(PetscObjectReference((PetscObject)be));
  PetscCall(EasBackendDestroy(&A->be));
  A->be = be;
  PetscFunctionReturn(0);
}

PetscErrorCode EasDiaGetBackend(EasDia A, EasBackend *be)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, EAS_DIA_CLASSID, 1);
  if (!A->be) PetscCall(EasBackendCreateFor_Private((PetscObject)A, PetscObjectComm((PetscObject)A), &A->be));
  *be = A->be;
  PetscFunctionReturn(0);
}

/*@C
  EasDiaSetMaxFill - bound on the DIA fill ndiag*n/nnz accepted by the
  converters (default 3).  Errors: fill < 1.
@*/
PetscErrorCode EasDiaSetMaxFill(EasDia A, PetscReal fill)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, EAS_DIA_CLASSID, 1);
  PetscCheck(fill >= 1.0, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_OUTOFRANGE, "-dia_max_fill %g is invalid: expected a real number >= 1 (DIA storage / nonzeros)", (double)fill);
  A->max_fill = fill;
  PetscFunctionReturn(0);
}

PetscErrorCode EasDiaSetOptionsPrefix(EasDia A, const char prefix[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, EAS_DIA_CLASSID, 1);
  PetscCall(PetscObjectSetOptionsPrefix((PetscObject)A, prefix));
  PetscFunctionReturn(0);
}

/*@C
  EasDiaSetFromOptions - -dia_max_fill <3>.
@*/
PetscErrorCode EasDiaSetFromOptions(EasDia A)
{
  PetscReal fill = A->max_fill;
  PetscBool flg;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, EAS_DIA_CLASSID, 1);
  PetscObjectOptionsBegin((PetscObject)A);
  PetscCall(PetscOptionsReal("-dia_max_fill", "Largest DIA storage / nonzeros accepted by the converters", "EasDiaSetMaxFill", fill, &fill, &flg));
  if (flg) PetscCall(EasDiaSetMaxFill(A, fill));
  PetscOptionsEnd();
  PetscFunctionReturn(0);
}

const char *const EasPrecisions[] = {"double", "single", "EasPrecision", "EAS_PRECISION_", NULL};

/*@C
  EasDiaSetPrecision - EAS_PRECISION_DOUBLE (default) or EAS_PRECISION_SINGLE:
  the multiply and the BiCGStab kernels then read a float copy of the values
  (backend memory, made from the double values after every change; vectors,
  sums and dot products stay double).  Any time; the copy is made or freed
  at the next use.  Errors: not a precision.
@*/
PetscErrorCode EasDiaSetPrecision(EasDia A, EasPrecision prec)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, EAS_DIA_CLASSID, 1);
  PetscCheck(prec == EAS_PRECISION_DOUBLE || prec == EAS_PRECISION_SINGLE, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_OUTOFRANGE, "EasDiaSetPrecision: precision %d is invalid: expected EAS_PRECISION_DOUBLE or EAS_PRECISION_SINGLE", (int)prec);
  if (prec == A->prec) PetscFunctionReturn(0);
  A->prec = prec;
  if (A->valf) {
    PetscCall((*A->be->ops->free)(A->be, (void *)A->valf));
    A->valf = NULL;
  }
  A->k.valf = NULL;
  PetscFunctionReturn(0);
}

/*@C EasDiaGetPrecision - the precision of the values the kernels read. @*/
PetscErrorCode EasDiaGetPrecision(EasDia A, EasPrecision *prec)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, EAS_DIA_CLASSID, 1);
  *prec = A->prec;
  PetscFunctionReturn(0);
}

/* The float copy (EasDiaSetPrecision) stops being current when the values
   change: on device backends it is marked stale (/cpu/memcheck poisons it,
   so a product that read it before EasDiaGetKernel_Private remade it
   would show); it is remade from the new values at the next use. */
PetscErrorCode EasDiaMarkSingleStale_Private(EasDia A)
{
  PetscFunctionBegin;
  if (A->valf && !A->be->host_is_device) PetscCall(EasBackendMarkStale(A->be, A->valf, (size_t)A->ndiag * A->ld * sizeof(float)));
  PetscFunctionReturn(0);
}

/* Frees the backend copy and marks the matrix not set up. */
static PetscErrorCode EasDiaReset_Private(EasDia A)
{
  PetscFunctionBegin;
  if (A->setupcalled) {
    EasBackend be = A->be;
    if (be->ops->dia_destroy) PetscCall((*be->ops->dia_destroy)(be, &A->k));
    if (!be->host_is_device) {
      PetscCall((*be->ops->free)(be, (void *)A->k.off));
      PetscCall((*be->ops->free)(be, (void *)A->k.val));
    }
    if (A->valf) PetscCall((*be->ops->free)(be, (void *)A->valf));
    A->valf = NULL;
    PetscCall(PetscMemzero(&A->k, sizeof(A->k)));
  }
  A->setupcalled = PETSC_FALSE;
  A->dev_stale   = PETSC_FALSE; /* no backend copy left to refresh */
  A->host_stale  = PETSC_FALSE;
  PetscCall(PetscFree(A->off));
  PetscCall(EasFreeAligned(&A->val));
  A->n = A->ndiag = A->ld = 0;
  PetscFunctionReturn(0);
}

/* Allocates the padded storage for n rows and the given offsets (ascending,
   distinct, |off| < n, checked by the callers), values zero. */
static PetscErrorCode EasDiaAllocate_Private(EasDia A, PetscInt n, PetscInt ndiag, const PetscInt off[])
{
  PetscFunctionBegin;
  PetscCheck(!A->values_out, PetscObjectComm((PetscObject)A), PETSC_ERR_ORDER, "EasDia: the values are checked out (EasDiaGetValuesWrite/Read); restore them before setting new entries");
  PetscCall(EasDiaReset_Private(A));
  A->nonzerostate++; /* a new pattern (and new values) */
  PetscCall(PetscObjectStateIncrease((PetscObject)A));
  {
    const PetscInt64 ld = EasDiaLeadingDimension(n);
    size_t           nval;
    /* the kernels take ld as EasKInt: the padded row count must fit PetscInt */
    PetscCheck(ld <= PETSC_MAX_INT, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_OUTOFRANGE, "EasDia: n = %" PetscInt_FMT " rows: the padded leading dimension %" PetscInt64_FMT " overflows PetscInt; at most %d rows per DIA matrix (README.md, Limits)", n, ld, EAS_DIA_MAX_ROWS);
    PetscCall(EasSizeMul(PetscObjectComm((PetscObject)A), "DIA values ndiag*ld", sizeof(PetscScalar), &nval, PetscMax(ndiag, 1), (PetscInt)ld));
    A->n     = n;
    A->ndiag = ndiag;
    A->ld    = (PetscInt)ld;
    PetscCall(PetscMalloc1(PetscMax(ndiag, 1), &A->off));
    PetscCall(PetscArraycpy(A->off, off, ndiag));
    /* on a cache line (core/align.h): the CPU backend streams these values in place */
    PetscCall(EasMallocAligned(nval * sizeof(PetscScalar), PETSC_TRUE, (void **)&A->val));
  }
  PetscFunctionReturn(0);
}

/* Checks n, ndiag and the offsets (in range, distinct; any order), then
   allocates the storage with the offsets ascending and zero values.
   perm (ndiag entries, freed by the caller) maps stored diagonal d to its
   position in off.  fn names the public function in errors. */
static PetscErrorCode EasDiaSetOffsets_Private(EasDia A, const char fn[], PetscInt n, PetscInt ndiag, const PetscInt off[], PetscInt **perm_out)
{
  PetscInt *perm, *soff;
  MPI_Comm  comm = PetscObjectComm((PetscObject)A);

  PetscFunctionBegin;
  PetscCheck(n >= 1 && n <= EAS_DIA_MAX_ROWS, comm, PETSC_ERR_ARG_OUTOFRANGE, "%s: n = %" PetscInt_FMT " rows, expected 1 <= n <= %d (the padded leading dimension must fit PetscInt; README.md, Limits)", fn, n, EAS_DIA_MAX_ROWS);
  PetscCheck(ndiag >= 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "%s: ndiag = %" PetscInt_FMT ", expected at least one diagonal", fn, ndiag);
  PetscValidIntPointer(off, 4);
  PetscCall(PetscMalloc1(ndiag, &perm));
  PetscCall(PetscMalloc1(ndiag, &soff));
  for (PetscInt d = 0; d < ndiag; d++) {
    if (!(off[d] > -n && off[d] < n)) {
      PetscCall(PetscFree(perm));
      PetscCall(PetscFree(soff));
      SETERRQ(comm, PETSC_ERR_ARG_OUTOFRANGE, "%s: offset off[%" PetscInt_FMT "] = %" PetscInt_FMT " is outside (-n, n) for n = %" PetscInt_FMT, fn, d, off[d], n);
    }
    perm[d] = d;
    soff[d] = off[d];
  }
  PetscCall(PetscSortIntWithPermutation(ndiag, soff, perm));
  for (PetscInt d = 0; d < ndiag; d++) soff[d] = off[perm[d]];
  for (PetscInt d = 1; d < ndiag; d++) {
    if (soff[d] == soff[d - 1]) {
      const PetscInt o = soff[d];
      PetscCall(PetscFree(perm));
      PetscCall(PetscFree(soff));
      SETERRQ(comm, PETSC_ERR_ARG_WRONG, "%s: offset %" PetscInt_FMT " is given twice", fn, o);
    }
  }
  PetscCall(EasDiaAllocate_Private(A, n, ndiag, soff));
  PetscCall(PetscFree(soff));
  *perm_out = perm;
  PetscFunctionReturn(0);
}

/*@C
  EasDiaSetDiagonals - sets the matrix from its diagonals.

  Input: n rows (>= 1), ndiag distinct offsets with |off[d]| < n, values
  val[d*n + i] = A[i][i+off[d]] (entries whose column is outside [0,n) are
  ignored).  The offsets may come in any order; they are stored ascending.
  Errors: n < 1, ndiag < 1, an offset out of range or repeated.
@*/
PetscErrorCode EasDiaSetDiagonals(EasDia A, PetscInt n, PetscInt ndiag, const PetscInt off[], const PetscScalar val[])
{
  PetscInt *perm;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, EAS_DIA_CLASSID, 1);
  PetscValidScalarPointer(val, 5);
  PetscCall(EasDiaSetOffsets_Private(A, "EasDiaSetDiagonals", n, ndiag, off, &perm));
  for (PetscInt d = 0; d < ndiag; d++) {
    const PetscInt     o   = A->off[d];
    const PetscScalar *src = val + (size_t)perm[d] * n;
    PetscScalar       *dst = A->val + (size_t)d * A->ld;
    for (PetscInt i = PetscMax(0, -o); i < PetscMin(n, n - o); i++) dst[i] = src[i];
  }
  PetscCall(PetscFree(perm));
  PetscFunctionReturn(0);
}

/*@C
  EasDiaSetPattern - sets n rows and the ndiag offsets (any order, stored
  ascending; distinct, |off[d]| < n) with all values zero, to be filled in
  place with EasDiaGetValuesWrite()/EasDiaRestoreValuesWrite(); no value
  array of the caller is needed.
  Errors: n < 1, ndiag < 1, an offset out of range or repeated.
@*/
PetscErrorCode EasDiaSetPattern(EasDia A, PetscInt n, PetscInt ndiag, const PetscInt off[])
{
  PetscInt *perm;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, EAS_DIA_CLASSID, 1);
  PetscCall(EasDiaSetOffsets_Private(A, "EasDiaSetPattern", n, ndiag, off, &perm));
  PetscCall(PetscFree(perm));
  PetscFunctionReturn(0);
}

/* Builds DIA from (row, col, value) triplets (0-based, any order, duplicates
   summed) after checking the fill against the bound. */
PetscErrorCode EasDiaSetFromTriplets_Private(EasDia A, PetscInt n, PetscCount nnz, const PetscInt *row, const PetscInt *col, const PetscScalar *v, const char what[])
{
  PetscInt *slot, ndiag = 0, *off;
  MPI_Comm  comm = PetscObjectComm((PetscObject)A);
  PetscReal fill;
  size_t    nslot;

  PetscFunctionBegin;
  PetscCheck(n >= 1 && n <= EAS_DIA_MAX_ROWS, comm, PETSC_ERR_ARG_SIZ, "%s: the matrix has %" PetscInt_FMT " rows, expected 1 to %d (README.md, Limits)", what, n, EAS_DIA_MAX_ROWS);
  /* slot[o + n - 1] = index of offset o, or -1; 2n - 1 slots, indexed in 64-bit */
  PetscCall(EasSizeMul(comm, "DIA offset slots 2*n", sizeof(PetscInt), &nslot, 2, n));
  PetscCall(PetscMalloc1(nslot - 1, &slot));
  for (size_t o = 0; o < nslot - 1; o++) slot[o] = -1;
  for (PetscCount k = 0; k < nnz; k++) {
    const PetscInt64 o = (PetscInt64)col[k] - row[k] + n - 1;
    if (slot[o] < 0) slot[o] = ndiag++;
  }
  if (!ndiag) { /* the zero matrix: keep the main diagonal */
    slot[n - 1] = ndiag++;
  }
  fill = (PetscReal)ndiag * n / (PetscReal)PetscMax(nnz, 1);
  if (fill > A->max_fill) {
    PetscCall(PetscFree(slot));
    SETERRQ(comm, PETSC_ERR_ARG_OUTOFRANGE, "%s: DIA fill %.3g (%" PetscInt_FMT " diagonals x %" PetscInt_FMT " rows for %" PetscInt64_FMT " nonzeros) exceeds the bound %g (-dia_max_fill); the matrix is not banded enough for DIA storage", what, (double)fill, ndiag, n, (PetscInt64)nnz, (double)A->max_fill);
  }
  PetscCall(PetscMalloc1(ndiag, &off));
  ndiag = 0;
  for (size_t o = 0; o < nslot - 1; o++)
    if (slot[o] >= 0) {
      slot[o]      = ndiag; /* ascending order */
      off[ndiag++] = (PetscInt)((PetscInt64)o - (n - 1));
    }
  PetscCall(EasDiaAllocate_Private(A, n, ndiag, off));
  for (PetscCount k = 0; k < nnz; k++) {
    const PetscInt d = slot[(PetscInt64)col[k] - row[k] + n - 1];
    A->val[(size_t)d * A->ld + row[k]] += v[k];
  }
  PetscCall(PetscFree(off));
  PetscCall(PetscFree(slot));
  PetscFunctionReturn(0);
}

/*@C
  EasDiaSetFromMat - converts a square sequential PETSc Mat (AIJ or any type
  with MatGetRow) to DIA.  Errors: a parallel or non-square Mat; a fill above
  the bound (EasDiaSetMaxFill()).
@*/
PetscErrorCode EasDiaSetFromMat(EasDia A, Mat M)
{
  PetscInt     m, n, nnz = 0, k = 0;
  PetscMPIInt  size;
  PetscInt    *row, *col;
  PetscScalar *v;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, EAS_DIA_CLASSID, 1);
  PetscValidHeaderSpecific(M, MAT_CLASSID, 2);
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)M), &size));
  PetscCheck(size == 1, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONG, "EasDiaSetFromMat: the Mat lives on %d processes; an EasDia holds one process's block, pass a sequential Mat", size);
  PetscCall(MatGetSize(M, &m, &n));
  PetscCheck(m == n, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_SIZ, "EasDiaSetFromMat: the Mat is %" PetscInt_FMT " x %" PetscInt_FMT ", expected a square matrix", m, n);
  PetscCall(PetscLogEventBegin(EAS_DiaConvert, A, 0, 0, 0));
  for (PetscInt i = 0; i < m; i++) {
    PetscInt ncols;
    PetscCall(MatGetRow(M, i, &ncols, NULL, NULL));
    nnz += ncols;
    PetscCall(MatRestoreRow(M, i, &ncols, NULL, NULL));
  }
  PetscCall(PetscMalloc3(nnz, &row, nnz, &col, nnz, &v));
  for (PetscInt i = 0; i < m; i++) {
    PetscInt           ncols;
    const PetscInt    *cols;
    const PetscScalar *vals;
    PetscCall(MatGetRow(M, i, &ncols, &cols, &vals));
    for (PetscInt c = 0; c < ncols; c++, k++) {
      row[k] = i;
      col[k] = cols[c];
      v[k]   = vals[c];
    }
    PetscCall(MatRestoreRow(M, i, &ncols, &cols, &vals));
  }
  PetscCall(EasDiaSetFromTriplets_Private(A, m, nnz, row, col, v, "EasDiaSetFromMat"));
  PetscCall(PetscFree3(row, col, v));
  PetscCall(PetscLogEventEnd(EAS_DiaConvert, A, 0, 0, 0));
  PetscFunctionReturn(0);
}

/* Lets the backend build its private data (e.g. the cuSPARSE CSR copy)
   from the current values: the host copy when it is current, else the
   backend's (val_host = NULL tells the backend to read A->k.val).  Issue 10
   C1: after a rewrite on the device the host copy is stale, and building
   the private copy from it ran every later product on the old values. */
PetscErrorCode EasDiaBackendSetUp_Private(EasDia A)
{
  EasBackend be = A->be;

  PetscFunctionBegin;
  A->k.val_host = A->host_stale ? NULL : A->val; /* kept NULL until EasDiaSyncHost_Private: a lazy build reads it too */
  if (be->ops->dia_setup) PetscCall((*be->ops->dia_setup)(be, &A->k));
  PetscFunctionReturn(0);
}

/* After new values (EasDiaRestoreValuesWrite): uploads them into the
   existing backend copy (same size, no reallocation) and lets the backend
   rebuild its own data (e.g. the cuSPARSE CSR copy). */
static PetscErrorCode EasDiaRefreshBackend_Private(EasDia A)
{
  EasBackend be = A->be;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(EAS_DiaSetUp, A, 0, 0, 0));
  if (!be->host_is_device) {
    const size_t bval = (size_t)A->ndiag * A->ld * sizeof(PetscScalar);
    PetscCall(EasBackendCopyHtoD(be, (void *)A->k.val, A->val, bval));
  }
  if (be->ops->dia_destroy) PetscCall((*be->ops->dia_destroy)(be, &A->k));
  PetscCall(EasDiaBackendSetUp_Private(A));
  A->dev_stale = PETSC_FALSE;
  PetscCall(PetscLogEventEnd(EAS_DiaSetUp, A, 0, 0, 0));
  PetscFunctionReturn(0);
}

/*@C
  EasDiaSetUp - copies the matrix to its backend (once) and lets the backend
  build its own data (e.g. the cuSPARSE CSR copy).  Called by the first
  multiply when the user does not.  After new values
  (EasDiaRestoreValuesWrite()) it uploads them into the existing backend
  copy.  Errors: no entries set; values checked out for writing.
@*/
PetscErrorCode EasDiaSetUp(EasDia A)
{
  EasBackend be;
  PetscInt   lo, hi;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, EAS_DIA_CLASSID, 1);
  PetscCheck(A->values_out != 1, PetscObjectComm((PetscObject)A), PETSC_ERR_ORDER, "EasDia: the values are checked out by EasDiaGetValuesWrite(); call EasDiaRestoreValuesWrite() before using the matrix");
  if (A->setupcalled) {
    if (A->dev_stale) PetscCall(EasDiaRefreshBackend_Private(A));
    PetscFunctionReturn(0);
  }
  PetscCheck(A->n > 0, PetscObjectComm((PetscObject)A), PETSC_ERR_ORDER, "EasDiaSetUp: the matrix has no entries; call EasDiaSetDiagonals(), EasDiaSetFromMat(), EasDiaLoadMatrixMarket() or EasDiaSetFromGallery() first");
  PetscCall(EasDiaGetBackend(A, &be));
  PetscCall(PetscLogEventBegin(EAS_DiaSetUp, A, 0, 0, 0));
  lo = PetscMax(0, -A->off[0]);
  hi = PetscMin(A->n, A->n - A->off[A->ndiag - 1]);
  if (hi < lo) hi = lo;
  A->k.n        = A->n;
  A->k.ndiag    = A->ndiag;
  A->k.ld       = A->ld;
  A->k.lo       = lo;
  A->k.hi       = hi;
  A->k.off_host = A->off;
  A->k.val_host = A->val;
  if (be->host_is_device) {
    A->k.off = A->off;
    A->k.val = A->val;
  } else {
    void        *doff, *dval;
    const size_t boff = (size_t)A->ndiag * sizeof(PetscInt), bval = (size_t)A->ndiag * A->ld * sizeof(PetscScalar);
    PetscCall((*be->ops->malloc)(be, boff, &doff));
    PetscCall((*be->ops->malloc)(be, bval, &dval));
    PetscCall(EasBackendCopyHtoD(be, doff, A->off, boff));
    PetscCall(EasBackendCopyHtoD(be, dval, A->val, bval));
    A->k.off = (const PetscInt *)doff;
    A->k.val = (const PetscScalar *)dval;
  }
  PetscCall(EasDiaBackendSetUp_Private(A));
  A->setupcalled = PETSC_TRUE;
  PetscCall(PetscLogEventEnd(EAS_DiaSetUp, A, 0, 0, 0));
  PetscFunctionReturn(0);
}

PetscErrorCode EasDiaGetKernelDouble_Private(EasDia A, const EasDiaKernel **k)
{
  PetscFunctionBegin;
  PetscCall(EasDiaSetUp(A));
  *k = &A->k;
  PetscFunctionReturn(0);
}

/* The kernel view; in single precision the float copy made current first
   (one pass: 8 B read and 4 B written per stored value). */
PetscErrorCode EasDiaGetKernel_Private(EasDia A, const EasDiaKernel **k)
{
  PetscObjectState state;
  EasBackend       be;

  PetscFunctionBegin;
  PetscCall(EasDiaSetUp(A));
  *k = &A->k;
  if (A->prec != EAS_PRECISION_SINGLE) PetscFunctionReturn(0);
  be = A->be;
  PetscCall(PetscObjectStateGet((PetscObject)A, &state));
  if (A->valf && state == A->valf_state) PetscFunctionReturn(0);
  PetscCheck(be->ops->dia_single, PetscObjectComm((PetscObject)A), PETSC_ERR_SUP, "Single-precision DIA values (EasDiaSetPrecision, -adr_jacobian_precision single) are not available on backend %s: use double", be->resource);
  PetscCall(PetscLogEventBegin(EAS_DiaSetUp, A, 0, 0, 0));
  if (!A->valf) {
    void *p;
    PetscCall((*be->ops->malloc)(be, (size_t)A->ndiag * A->ld * sizeof(float), &p));
    A->valf = (float *)p;
  }
  PetscCall((*be->ops->dia_single)(be, &A->k, A->valf));
  A->k.valf     = A->valf;
  A->valf_state = state;
  PetscCall(PetscLogEventEnd(EAS_DiaSetUp, A, 0, 0, 0));
  PetscFunctionReturn(0);
}

PetscErrorCode EasDiaGetSize(EasDia A, PetscInt *n, PetscInt *ndiag)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, EAS_DIA_CLASSID, 1);
  if (n) *n = A->n;
  if (ndiag) *ndiag = A->ndiag;
  PetscFunctionReturn(0);
}

PetscErrorCode EasDiaGetOffsets(EasDia A, const PetscInt *off[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, EAS_DIA_CLASSID, 1);
  *off = A->off;
  PetscFunctionReturn(0);
}

/*@C
  EasDiaGetNonzeros - the number of stored entries inside the matrix
  (n - |off| per diagonal), the nonzero count of the banded pattern.
@*/
PetscErrorCode EasDiaGetNonzeros(EasDia A, PetscCount *nnz)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, EAS_DIA_CLASSID, 1);
  *nnz = 0; /* PetscCount (64-bit): 9 diagonals of 2.4e8 rows pass 2^31 - 1 */
  for (PetscInt d = 0; d < A->ndiag; d++) *nnz += (PetscCount)A->n - PetscAbsInt(A->off[d]);
  PetscFunctionReturn(0);
}

/*@C
  EasDiaCreateVecs - vectors of the matrix's size on its backend (either may be NULL).
@*/
PetscErrorCode EasDiaCreateVecs(EasDia A, EasVec *x, EasVec *y)
{
  EasBackend be;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, EAS_DIA_CLASSID, 1);
  PetscCheck(A->n > 0, PetscObjectComm((PetscObject)A), PETSC_ERR_ORDER, "EasDiaCreateVecs: set the matrix entries first");
  PetscCall(EasDiaGetBackend(A, &be));
  if (x) PetscCall(EasVecCreate(be, A->n, x));
  if (y) PetscCall(EasVecCreate(be, A->n, y));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasDiaCheckVecs(EasDia A, EasVec x, EasVec y, const char op[])
{
  PetscInt   nx, ny;
  EasBackend bx, by;

  PetscFunctionBegin;
  PetscCall(EasVecGetSize(x, &nx));
  PetscCall(EasVecGetSize(y, &ny));
  PetscCheck(nx == A->n && ny == A->n, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_SIZ, "%s: size mismatch: matrix %" PetscInt_FMT " x %" PetscInt_FMT ", x has %" PetscInt_FMT ", y has %" PetscInt_FMT " entries", op, A->n, A->n, nx, ny);
  PetscCheck(x != y, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_IDN, "%s: x and y must be different vectors", op);
  PetscCall(EasVecGetBackend(x, &bx));
  PetscCall(EasVecGetBackend(y, &by));
  PetscCheck(bx == A->be && by == A->be, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_INCOMP, "%s: vectors must live on the matrix's backend %s (use EasDiaCreateVecs())", op, A->be->resource);
  PetscFunctionReturn(0);
}

/*@C
  EasDiaMult - y <- A x.  Errors: sizes or backends that do not match.
@*/
PetscErrorCode EasDiaMult(EasDia A, EasVec x, EasVec y)
{
  const EasDiaKernel *k  = NULL;
  const PetscScalar  *xa = NULL;
  PetscScalar        *ya = NULL;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, EAS_DIA_CLASSID, 1);
  PetscCall(EasDiaGetKernel_Private(A, &k));
  PetscCall(EasDiaCheckVecs(A, x, y, "EasDiaMult"));
  PetscCall(EasVecGetBackendArrayRead(x, &xa));
  PetscCall(EasVecGetBackendArrayWrite(y, &ya));
  PetscCall(PetscLogEventBegin(EAS_DiaMult, A, 0, 0, 0));
  PetscCall((*A->be->ops->dia_mult)(A->be, k, xa, ya));
  PetscCall(PetscLogEventEnd(EAS_DiaMult, A, 0, 0, 0));
  PetscFunctionReturn(0);
}

/*@C
  EasDiaMultTranspose - y <- A^T x, by index arithmetic on the same storage.
@*/
PetscErrorCode EasDiaMultTranspose(EasDia A, EasVec x, EasVec y)
{
  const EasDiaKernel *k  = NULL;
  const PetscScalar  *xa = NULL;
  PetscScalar        *ya = NULL;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, EAS_DIA_CLASSID, 1);
  PetscCall(EasDiaGetKernel_Private(A, &k));
  PetscCall(EasDiaCheckVecs(A, x, y, "EasDiaMultTranspose"));
  PetscCall(EasVecGetBackendArrayRead(x, &xa));
  PetscCall(EasVecGetBackendArrayWrite(y, &ya));
  PetscCall(PetscLogEventBegin(EAS_DiaMultTranspose, A, 0, 0, 0));
  PetscCall((*A->be->ops->dia_mult_transpose)(A->be, k, xa, ya));
  PetscCall(PetscLogEventEnd(EAS_DiaMultTranspose, A, 0, 0, 0));
  PetscFunctionReturn(0);
}

/*@C
  EasDiaGetDiagonal - d <- diag(A) (zero when the main diagonal is not stored).
@*/
PetscErrorCode EasDiaGetDiagonal(EasDia A, EasVec d)
{
  PetscInt     nd;
  PetscScalar *da;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, EAS_DIA_CLASSID, 1);
  PetscCall(EasVecGetSize(d, &nd));
  PetscCheck(nd == A->n, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_SIZ, "EasDiaGetDiagonal: size mismatch: matrix has %" PetscInt_FMT " rows, vector %" PetscInt_FMT, A->n, nd);
  PetscCall(EasDiaSyncHost_Private(A));
  PetscCall(EasVecGetArrayWrite(d, &da));
  PetscCall(PetscArrayzero(da, A->n));
  for (PetscInt k = 0; k < A->ndiag; k++)
    if (A->off[k] == 0) PetscCall(PetscArraycpy(da, A->val + (size_t)k * A->ld, A->n));
  PetscCall(EasVecRestoreArrayWrite(d, &da));
  PetscFunctionReturn(0);
}

/*@C
  EasDiaConvertToMat - a new SEQAIJ Mat with the entries of A (zeros inside
  the band dropped).
@*/
PetscErrorCode EasDiaConvertToMat(EasDia A, Mat *M)
{
  PetscInt      *nnz, *cols;
  PetscScalar   *vals;
  const PetscInt n = A->n;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, EAS_DIA_CLASSID, 1);
  PetscCheck(n > 0, PetscObjectComm((PetscObject)A), PETSC_ERR_ORDER, "EasDiaConvertToMat: set the matrix entries first");
  PetscCall(EasDiaSyncHost_Private(A));
  PetscCall(PetscLogEventBegin(EAS_DiaConvert, A, 0, 0, 0));
  PetscCall(PetscCalloc1(n, &nnz));
  PetscCall(PetscMalloc2(A->ndiag, &cols, A->ndiag, &vals));
  for (PetscInt d = 0; d < A->ndiag; d++)
    for (PetscInt i = PetscMax(0, -A->off[d]); i < PetscMin(n, n - A->off[d]); i++)
      if (A->val[(size_t)d * A->ld + i] != 0.0) nnz[i]++;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n, n, 0, nnz, M));
  for (PetscInt i = 0; i < n; i++) {
    PetscInt c = 0;
    for (PetscInt d = 0; d < A->ndiag; d++) {
      const PetscInt j = i + A->off[d];
      if (j < 0 || j >= n || A->val[(size_t)d * A->ld + i] == 0.0) continue;
      cols[c]   = j;
      vals[c++] = A->val[(size_t)d * A->ld + i];
    }
    PetscCall(MatSetValues(*M, 1, &i, c, cols, vals, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(*M, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*M, MAT_FINAL_ASSEMBLY));
  PetscCall(PetscFree2(cols, vals));
  PetscCall(PetscFree(nnz));
  PetscCall(PetscLogEventEnd(EAS_DiaConvert, A, 0, 0, 0));
  PetscFunctionReturn(0);
}

/*@C
  EasDiaView - prints sizes, offsets, fill and backend; with
  PETSC_VIEWER_ASCII_MATLAB or _DENSE formats (small matrices) the entries.
@*/
PetscErrorCode EasDiaView(EasDia A, PetscViewer viewer)
{
  PetscBool         isascii;
  PetscViewerFormat format;
  PetscCount        nnz;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, EAS_DIA_CLASSID, 1);
  if (!viewer) PetscCall(PetscViewerASCIIGetStdout(PetscObjectComm((PetscObject)A), &viewer));
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &isascii));
  if (!isascii) PetscFunctionReturn(0);
  PetscCall(EasDiaSyncHost_Private(A));
  PetscCall(PetscViewerGetFormat(viewer, &format));
  PetscCall(PetscObjectPrintClassNamePrefixType((PetscObject)A, viewer));
  PetscCall(PetscViewerASCIIPushTab(viewer));
  PetscCall(EasDiaGetNonzeros(A, &nnz));
  PetscCall(PetscViewerASCIIPrintf(viewer, "rows %" PetscInt_FMT ", diagonals %" PetscInt_FMT ", leading dimension %" PetscInt_FMT ", band entries %" PetscCount_FMT ", fill %.3g (bound %g)\n", A->n, A->ndiag, A->ld, nnz, nnz ? (double)A->ndiag * A->n / nnz : 0.0, (double)A->max_fill));
  PetscCall(PetscViewerASCIIPrintf(viewer, "offsets:"));
  PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_FALSE));
  for (PetscInt d = 0; d < A->ndiag; d++) PetscCall(PetscViewerASCIIPrintf(viewer, " %" PetscInt_FMT, A->off[d]));
  PetscCall(PetscViewerASCIIPrintf(viewer, "\n"));
  PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_TRUE));
  if (A->be) PetscCall(PetscViewerASCIIPrintf(viewer, "backend: %s\n", A->be->resource));
  PetscCall(PetscViewerASCIIPrintf(viewer, "value precision: %s\n", EasPrecisions[A->prec]));
  if (format == PETSC_VIEWER_ASCII_MATLAB || format == PETSC_VIEWER_ASCII_DENSE) {
    for (PetscInt i = 0; i < A->n; i++) {
      PetscCall(PetscViewerASCIIPrintf(viewer, "row %" PetscInt_FMT ":", i));
      PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_FALSE));
      for (PetscInt d = 0; d < A->ndiag; d++) {
        const PetscInt j = i + A->off[d];
        if (j >= 0 && j < A->n) PetscCall(PetscViewerASCIIPrintf(viewer, " (%" PetscInt_FMT ", %g)", j, (double)A->val[(size_t)d * A->ld + i]));
      }
      PetscCall(PetscViewerASCIIPrintf(viewer, "\n"));
      PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_TRUE));
    }
  }
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscFunctionReturn(0);
}

PetscErrorCode EasDiaDestroy(EasDia *A)
{
  PetscFunctionBegin;
  if (!*A) PetscFunctionReturn(0);
  PetscValidHeaderSpecific(*A, EAS_DIA_CLASSID, 1);
  if (--((PetscObject)(*A))->refct > 0) {
    *A = NULL;
    PetscFunctionReturn(0);
  }
  PetscCall(EasDiaReset_Private(*A));
  PetscCall(EasBackendDestroy(&(*A)->be));
  PetscCall(PetscHeaderDestroy(A));
  PetscFunctionReturn(0);
}

PetscErrorCode EasDiaDuplicateColumnScaled_Private(EasDia A, const PetscScalar *s, EasDia *B)
{
  EasDia b;

  PetscFunctionBegin;
  PetscCall(EasDiaCreate(PetscObjectComm((PetscObject)A), &b));
  if (A->be) PetscCall(EasDiaSetBackend(b, A->be));
  b->max_fill = A->max_fill;
  b->prec     = A->prec; /* A D^{-1} is read by the same kernels as A would be */
  PetscCall(EasDiaAllocate_Private(b, A->n, A->ndiag, A->off));
  PetscCall(EasDiaColumnScaleValues_Private(A, s, b));
  *B = b;
  PetscFunctionReturn(0);
}

PetscErrorCode EasDiaColumnScaleValues_Private(EasDia A, const PetscScalar *s, EasDia B)
{
  PetscFunctionBegin;
  PetscCheck(B->n == A->n && B->ndiag == A->ndiag && B->ld == A->ld, PETSC_COMM_SELF, PETSC_ERR_PLIB, "EasDiaColumnScaleValues_Private: B does not have A's pattern");
  for (PetscInt d = 0; d < A->ndiag; d++) PetscCheck(B->off[d] == A->off[d], PETSC_COMM_SELF, PETSC_ERR_PLIB, "EasDiaColumnScaleValues_Private: B does not have A's offsets");
  PetscCall(EasDiaSyncHost_Private(A));
  for (PetscInt i = 0; i < A->n; i++) EasDiaColumnScaleRow(i, A->n, A->ndiag, A->off, A->val, A->ld, s, B->val); /* the backends' body */
  B->host_stale = PETSC_FALSE;
  if (B->setupcalled && (!B->be->host_is_device || B->be->ops->dia_setup)) B->dev_stale = PETSC_TRUE;
  if (B->setupcalled && !B->be->host_is_device) PetscCall(EasBackendMarkStale(B->be, (void *)B->k.val, (size_t)B->ndiag * B->ld * sizeof(PetscScalar)));
  PetscCall(EasDiaMarkSingleStale_Private(B));
  PetscCall(PetscObjectStateIncrease((PetscObject)B));
  PetscFunctionReturn(0);
}

PetscErrorCode EasDiaMove_Private(EasDia A, EasDia B)
{
  PetscFunctionBegin;
  PetscCheck(A != B, PETSC_COMM_SELF, PETSC_ERR_ARG_IDN, "EasDiaMove_Private: A and B are the same matrix");
  PetscCheck(A->n > 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "EasDiaMove_Private: A has no entries");
  PetscCheck(!A->values_out && !B->values_out, PETSC_COMM_SELF, PETSC_ERR_ORDER, "EasDiaMove_Private: values checked out");
  PetscCall(EasDiaSyncHost_Private(A));
  PetscCall(EasDiaReset_Private(B));
  B->n     = A->n;
  B->ndiag = A->ndiag;
  B->ld    = A->ld;
  B->off   = A->off;
  B->val   = A->val;
  A->off   = NULL; /* the reset frees A's backend copy only */
  A->val   = NULL;
  PetscCall(EasDiaReset_Private(A));
  A->nonzerostate++;
  B->nonzerostate++;
  PetscCall(PetscObjectStateIncrease((PetscObject)A));
  PetscCall(PetscObjectStateIncrease((PetscObject)B));
  PetscFunctionReturn(0);
}
