/*
  The values of an EasDia: host access for reading and writing in place
  (the pattern fixed), the object state that tells solvers the values
  changed, and the backend-memory access of kernels that write the values
  themselves (the ADR assembly), with the host copy brought up to date.
*/
#include "diaimpl.h"

/* Zeroes the stored entries that are not matrix entries: columns outside
   [0, n) and the padding rows [n, ld). */
static void EasDiaZeroOutside_Private(EasDia A)
{
  for (PetscInt d = 0; d < A->ndiag; d++) {
    PetscScalar   *v  = A->val + (size_t)d * A->ld;
    const PetscInt lo = PetscMax(0, -A->off[d]), hi = PetscMin(A->n, A->n - A->off[d]);
    for (PetscInt i = 0; i < lo; i++) v[i] = 0;
    for (PetscInt i = hi; i < A->ld; i++) v[i] = 0;
  }
}

PetscErrorCode EasDiaSyncHost_Private(EasDia A)
{
  EasBackend be = A->be;

  PetscFunctionBegin;
  if (!A->host_stale) PetscFunctionReturn(0);
  {
    const size_t bval = (size_t)A->ndiag * A->ld * sizeof(PetscScalar);
    PetscCall(EasBackendCopyDtoH(be, A->val, A->k.val, bval));
  }
  A->host_stale = PETSC_FALSE;
  A->k.val_host = A->val;
  PetscFunctionReturn(0);
}

/*@C
  EasDiaGetValuesWrite - host access to the values for changing them in
  place; the pattern (n, offsets, leading dimension) stays fixed.

  Output: val, the ndiag x ld host array with val[d*ld + i] = A[i][i+off[d]]
  for the ascending offsets of EasDiaGetOffsets(); ld (may be NULL), the
  leading dimension (>= n).  Entries whose column i+off[d] is outside
  [0, n) and the padding rows [n, ld) are not matrix entries: whatever is
  written there, EasDiaRestoreValuesWrite() sets them to zero.
  Until the restore the matrix must not be used.
  Errors: no entries set yet; the values already checked out.
@*/
PetscErrorCode EasDiaGetValuesWrite(EasDia A, PetscScalar **val, PetscInt *ld)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, EAS_DIA_CLASSID, 1);
  PetscValidPointer(val, 2);
  PetscCheck(A->n > 0, PetscObjectComm((PetscObject)A), PETSC_ERR_ORDER, "EasDiaGetValuesWrite: the matrix has no entries; set its pattern first (EasDiaSetDiagonals(), EasDiaSetFromMat(), ...)");
  PetscCheck(!A->values_out, PetscObjectComm((PetscObject)A), PETSC_ERR_ORDER, "EasDiaGetValuesWrite: the values are already checked out; restore them first");
  PetscCall(EasDiaSyncHost_Private(A));
  A->values_out = 1;
  *val          = A->val;
  if (ld) *ld = A->ld;
  PetscFunctionReturn(0);
}

/*@C
  EasDiaRestoreValuesWrite - ends EasDiaGetValuesWrite(): zeroes the
  entries outside the matrix, increases the object state (so an EasKsp
  using A recomputes its value-dependent data, e.g. the Jacobi scaling, at
  its next EasKspSetUp()/EasKspSolve(), without reallocating) and marks the
  backend copy out of date: it is uploaded in place by the next
  EasDiaSetUp() or multiply.  *val is set to NULL.
  Errors: val is not the array given by EasDiaGetValuesWrite().
@*/
PetscErrorCode EasDiaRestoreValuesWrite(EasDia A, PetscScalar **val)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, EAS_DIA_CLASSID, 1);
  PetscValidPointer(val, 2);
  PetscCheck(A->values_out == 1 && *val == A->val, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONG, "EasDiaRestoreValuesWrite: expected the array returned by EasDiaGetValuesWrite()");
  EasDiaZeroOutside_Private(A);
  A->values_out = 0;
  *val          = NULL;
  if (A->setupcalled && (!A->be->host_is_device || A->be->ops->dia_setup)) A->dev_stale = PETSC_TRUE;
  if (A->setupcalled && !A->be->host_is_device) PetscCall(EasBackendMarkStale(A->be, (void *)A->k.val, (size_t)A->ndiag * A->ld * sizeof(PetscScalar)));
  PetscCall(EasDiaMarkSingleStale_Private(A));
  PetscCall(PetscObjectStateIncrease((PetscObject)A));
  PetscFunctionReturn(0);
}

/*@C
  EasDiaGetValuesRead - read-only host access to the values, in the layout
  of EasDiaGetValuesWrite() (the host copy is always current).
  Errors: no entries set yet; the values checked out for writing.
@*/
PetscErrorCode EasDiaGetValuesRead(EasDia A, const PetscScalar **val, PetscInt *ld)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, EAS_DIA_CLASSID, 1);
  PetscValidPointer(val, 2);
  PetscCheck(A->n > 0, PetscObjectComm((PetscObject)A), PETSC_ERR_ORDER, "EasDiaGetValuesRead: the matrix has no entries");
  PetscCheck(!A->values_out, PetscObjectComm((PetscObject)A), PETSC_ERR_ORDER, "EasDiaGetValuesRead: the values are already checked out; restore them first");
  PetscCall(EasDiaSyncHost_Private(A));
  A->values_out = 2;
  *val          = A->val;
  if (ld) *ld = A->ld;
  PetscFunctionReturn(0);
}

/*@C
  EasDiaGetState - the matrix's state: it increases with every change of
  the values (EasDiaRestoreValuesWrite()) or of the pattern (EasDiaSetDiagonals(),
  EasDiaSetFromMat(), ...).  PETSc's object state of the EasDia.
@*/
PetscErrorCode EasDiaGetState(EasDia A, PetscObjectState *state)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, EAS_DIA_CLASSID, 1);
  PetscValidPointer(state, 2);
  PetscCall(PetscObjectStateGet((PetscObject)A, state));
  PetscFunctionReturn(0);
}

/*@C
  EasDiaRestoreValuesRead - ends EasDiaGetValuesRead() (*val set to NULL).
@*/
PetscErrorCode EasDiaRestoreValuesRead(EasDia A, const PetscScalar **val)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, EAS_DIA_CLASSID, 1);
  PetscValidPointer(val, 2);
  PetscCheck(A->values_out == 2 && *val == A->val, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONG, "EasDiaRestoreValuesRead: expected the array returned by EasDiaGetValuesRead()");
  A->values_out = 0;
  *val          = NULL;
  PetscFunctionReturn(0);
}

/*
  EasDiaGetBackendValuesWrite_Private - the values in the backend's memory
  (ndiag x ld, same offsets) for a kernel that rewrites them in place (the
  ADR assembly, the Jacobi-scaled copy of EasKsp); the pattern stays.  The
  restore marks the host copy stale on device backends (it is copied back
  only when the host reads it: EasDiaSyncHost_Private), rebuilds the
  backend's private data (e.g. a cuSPARSE copy) and increases the state,
  like EasDiaRestoreValuesWrite().  The kernel must write every stored
  entry, zero outside the matrix.
*/
PetscErrorCode EasDiaGetBackendValuesWrite_Private(EasDia A, PetscScalar **val, PetscInt *ld)
{
  PetscFunctionBegin;
  PetscCheck(!A->values_out, PetscObjectComm((PetscObject)A), PETSC_ERR_ORDER, "EasDiaGetBackendValuesWrite_Private: the values are already checked out; restore them first");
  PetscCall(EasDiaSetUp(A)); /* a stale backend copy is brought up to date first */
  A->values_out = 3;
  *val          = (PetscScalar *)A->k.val;
  if (ld) *ld = A->ld;
  PetscFunctionReturn(0);
}

PetscErrorCode EasDiaRestoreBackendValuesWrite_Private(EasDia A, PetscScalar **val)
{
  EasBackend be = A->be;

  PetscFunctionBegin;
  PetscCheck(A->values_out == 3 && *val == A->k.val, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "EasDiaRestoreBackendValuesWrite_Private: not the array of EasDiaGetBackendValuesWrite_Private");
  if (!be->host_is_device) { /* copied back only when the host reads them */
    A->host_stale = PETSC_TRUE;
    PetscCall(EasBackendMarkStale(be, A->val, (size_t)A->ndiag * A->ld * sizeof(PetscScalar)));
  }
  if (!A->valf_written) PetscCall(EasDiaMarkSingleStale_Private(A));
  if (be->ops->dia_destroy) PetscCall((*be->ops->dia_destroy)(be, &A->k));
  PetscCall(EasDiaBackendSetUp_Private(A));
  A->dev_stale  = PETSC_FALSE;
  A->values_out = 0;
  *val          = NULL;
  PetscCall(PetscObjectStateIncrease((PetscObject)A));
  if (A->valf_written) { /* the kernel wrote the float copy too: current for the new values */
    PetscCall(PetscObjectStateGet((PetscObject)A, &A->valf_state));
    A->valf_written = PETSC_FALSE;
  }
  PetscFunctionReturn(0);
}

/*
  EasDiaGetBackendValuesWriteSingle_Private - EasDiaGetBackendValuesWrite_Private
  and, in single precision (EasDiaSetPrecision), the float copy in backend
  memory as well (*valf; NULL in double), for a kernel that writes both (the
  ADR assembly): EasDiaRestoreBackendValuesWrite_Private then keeps the float
  copy as current for the new values instead of remaking it from them at the
  next use (one pass less: 8 B read and 4 B written per stored value).  The
  kernel writes the same entries of both, each float one EasDiaSingleEntry
  of the double.
*/
PetscErrorCode EasDiaGetBackendValuesWriteSingle_Private(EasDia A, PetscScalar **val, float **valf, PetscInt *ld)
{
  PetscFunctionBegin;
  *valf = NULL;
  if (A->prec == EAS_PRECISION_SINGLE) { /* allocated (and made whole, padding included) at the first use */
    const EasDiaKernel *k;
    PetscCall(EasDiaGetKernel_Private(A, &k));
  }
  PetscCall(EasDiaGetBackendValuesWrite_Private(A, val, ld));
  if (A->prec == EAS_PRECISION_SINGLE) {
    A->valf_written = PETSC_TRUE;
    *valf           = A->valf;
  }
  PetscFunctionReturn(0);
}
