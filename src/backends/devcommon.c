/*
  Logic shared by the device backends (devcommon.h): address-range
  registries, the private CSR copy of a DIA matrix, the sequencing of the
  EBE split's asynchronous unit, the tickets of the timer marks.
*/
#include "devcommon.h"

/* First index k with r[k].base > p (bisection). */
static PetscInt EasMemRegistryUpper(const EasMemRegistry *reg, const void *p)
{
  PetscInt a = 0, b = reg->n;

  while (a < b) {
    const PetscInt mid = (a + b) / 2;
    if ((const char *)reg->r[mid].base <= (const char *)p)
      a = mid + 1;
    else
      b = mid;
  }
  return a;
}

PetscErrorCode EasMemRegistryAdd(EasMemRegistry *reg, void *p, size_t bytes)
{
  PetscInt k;

  PetscFunctionBegin;
  if (reg->n == reg->cap) {
    EasMemRange *r;
    PetscInt     cap = PetscMax(2 * reg->cap, 64);
    PetscCall(PetscMalloc1(cap, &r));
    if (reg->n) PetscCall(PetscArraycpy(r, reg->r, reg->n));
    PetscCall(PetscFree(reg->r));
    reg->r   = r;
    reg->cap = cap;
  }
  k = EasMemRegistryUpper(reg, p);
  for (PetscInt j = reg->n; j > k; j--) reg->r[j] = reg->r[j - 1];
  reg->r[k].base  = (char *)p;
  reg->r[k].bytes = bytes;
  reg->n++;
  PetscFunctionReturn(0);
}

PetscErrorCode EasMemRegistryRemove(EasMemRegistry *reg, void *p, size_t *bytes, const char what[])
{
  const PetscInt k = EasMemRegistryUpper(reg, p) - 1;

  PetscFunctionBegin;
  PetscCheck(k >= 0 && reg->r[k].base == (char *)p, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Pointer %p freed as %s is not the start of a %s allocation", p, what, what);
  if (bytes) *bytes = reg->r[k].bytes;
  for (PetscInt j = k; j < reg->n - 1; j++) reg->r[j] = reg->r[j + 1];
  reg->n--;
  PetscFunctionReturn(0);
}

PetscBool EasMemRegistryContains(const EasMemRegistry *reg, const void *p, size_t bytes)
{
  const PetscInt k = EasMemRegistryUpper(reg, p) - 1;
  const char    *c = (const char *)p;

  if (k < 0) return PETSC_FALSE;
  /* a zero-length access may point one past its range's end (e.g. x + n) */
  return (PetscBool)(c >= reg->r[k].base && (size_t)(c - reg->r[k].base) <= reg->r[k].bytes && bytes <= reg->r[k].bytes - (size_t)(c - reg->r[k].base));
}

PetscBool EasMemRegistryOverlaps(const EasMemRegistry *reg, const void *p, size_t bytes)
{
  const char *c = (const char *)p;
  PetscInt    k = EasMemRegistryUpper(reg, c + (bytes ? bytes - 1 : 0)) - 1; /* the last range starting at or before the access's end */

  if (!bytes) return EasMemRegistryContains(reg, p, 0);
  return (PetscBool)(k >= 0 && reg->r[k].base + reg->r[k].bytes > c);
}

PetscErrorCode EasMemRegistryDestroy(EasMemRegistry *reg)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(reg->r));
  reg->n = reg->cap = 0;
  PetscFunctionReturn(0);
}

PetscErrorCode EasDiaBuildCSRHost(EasBackend be, const EasDiaKernel *A, PetscInt *nnz_out, PetscInt **rowptr_out, PetscInt **colind_out, PetscScalar **vals_out)
{
  const PetscInt     n = A->n, nd = A->ndiag, ld = A->ld;
  const PetscInt    *off      = A->off_host;
  const PetscScalar *val      = A->val_host;
  PetscInt          *off_copy = NULL, *perm = NULL, *rowptr = NULL, *colind = NULL;
  PetscScalar       *val_copy = NULL, *vals = NULL;
  PetscInt64         nnz = 0;

  PetscFunctionBegin;
  /* host copies of the DIA data, downloaded when the host's are not current */
  if (!off && nd) {
    const size_t b = (size_t)nd * sizeof(PetscInt);
    PetscCall(PetscMalloc1(nd, &off_copy));
    PetscCall(EasBackendCopyDtoH(be, off_copy, A->off, b));
    off = off_copy;
  }
  if (!val && nd) {
    const size_t b = (size_t)nd * ld * sizeof(PetscScalar);
    PetscCall(PetscMalloc1((size_t)nd * ld, &val_copy));
    PetscCall(EasBackendCopyDtoH(be, val_copy, A->val, b));
    val = val_copy;
  }
  /* diagonals in ascending offset order, so that each row's columns ascend */
  PetscCall(PetscMalloc1(nd > 0 ? nd : 1, &perm));
  for (PetscInt d = 0; d < nd; d++) perm[d] = d;
  if (nd) PetscCall(PetscSortIntWithPermutation(nd, off, perm));
  PetscCall(PetscMalloc1(n + 1, &rowptr));
  rowptr[0] = 0;
  for (PetscInt i = 0; i < n; i++) {
    for (PetscInt k = 0; k < nd; k++) {
      const PetscInt   d = perm[k];
      const PetscInt64 j = (PetscInt64)i + off[d]; /* 64-bit: i + off may pass 2^31 - 1 near the row limit */
      if (j >= 0 && j < n && val[(size_t)d * ld + i] != 0.0) nnz++;
    }
    if (nnz > PETSC_MAX_INT) break;
    rowptr[i + 1] = (PetscInt)nnz;
  }
  if (nnz > PETSC_MAX_INT) { /* free before the error: nothing leaks */
    PetscCall(PetscFree(rowptr));
    PetscCall(PetscFree(perm));
    PetscCall(PetscFree(off_copy));
    PetscCall(PetscFree(val_copy));
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "CSR copy of the DIA matrix has more than %d nonzeros (32-bit indices)", PETSC_MAX_INT);
  }
  PetscCall(PetscMalloc1(nnz > 0 ? nnz : 1, &colind));
  PetscCall(PetscMalloc1(nnz > 0 ? nnz : 1, &vals));
  for (PetscInt i = 0, p = 0; i < n; i++) {
    for (PetscInt k = 0; k < nd; k++) {
      const PetscInt    d = perm[k];
      const PetscInt64  j = (PetscInt64)i + off[d];
      const PetscScalar a = (j >= 0 && j < n) ? val[(size_t)d * ld + i] : 0.0;
      if (a != 0.0) {
        colind[p] = (PetscInt)j;
        vals[p++] = a;
      }
    }
  }
  PetscCall(PetscFree(perm));
  PetscCall(PetscFree(off_copy));
  PetscCall(PetscFree(val_copy));
  *nnz_out    = (PetscInt)nnz;
  *rowptr_out = rowptr;
  *colind_out = colind;
  *vals_out   = vals;
  PetscFunctionReturn(0);
}

PetscErrorCode EasUnitBegin_Shared(EasBackend be, EasUnitState *st, const EasMemRegistry *staging, const EasEbeKernel *K, PetscInt e0, PetscInt e1, PetscInt n, const PetscScalar *x_host, const PetscScalar *y_host)
{
  const size_t bytes = (size_t)n * sizeof(PetscScalar);
  const double m     = (double)K->nen * K->dof;

  PetscFunctionBegin;
  PetscCheck(!st->queued, PETSC_COMM_SELF, PETSC_ERR_ORDER, "%s: ebe_unit_begin while the unit of elements [%" PetscInt_FMT ", %" PetscInt_FMT ") is in flight; call ebe_unit_end first", be->resource, st->e0, st->e1);
  PetscCheck(0 <= e0 && e0 <= e1 && e1 <= K->nel, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s: ebe_unit_begin elements [%" PetscInt_FMT ", %" PetscInt_FMT ") outside [0, %" PetscInt_FMT ")", be->resource, e0, e1, K->nel);
  PetscCheck(n == K->nnodes * K->dof, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "%s: ebe_unit_begin vector length %" PetscInt_FMT ", expected nnodes*dof = %" PetscInt_FMT, be->resource, n, K->nnodes * K->dof);
  PetscCheck(EasMemRegistryContains(staging, x_host, bytes), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "%s: ebe_unit_begin x_host %p (%zu bytes) is not a host staging buffer (EasBackendHostAlloc): a copy from pageable memory is synchronous and the unit would not overlap the CPU", be->resource, (const void *)x_host, bytes);
  PetscCheck(EasMemRegistryContains(staging, y_host, bytes), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "%s: ebe_unit_begin y_host %p (%zu bytes) is not a host staging buffer (EasBackendHostAlloc): a copy into pageable memory is synchronous and the unit would not overlap the CPU", be->resource, (const void *)y_host, bytes);
  st->queued = PETSC_TRUE;
  st->e0     = e0;
  st->e1     = e1;
  st->n      = n;
  be->bytes_htod += (PetscLogDouble)bytes;
  be->bytes_dtoh += (PetscLogDouble)bytes;
  be->n_htod++;
  be->n_dtoh++;
  PetscCall(PetscLogFlops(2.0 * m * m * (e1 - e0)));
  PetscFunctionReturn(0);
}

PetscErrorCode EasUnitEnd_Shared(EasBackend be, EasUnitState *st)
{
  PetscFunctionBegin;
  PetscCheck(st->queued, PETSC_COMM_SELF, PETSC_ERR_ORDER, "%s: ebe_unit_end without a unit in flight (call ebe_unit_begin first)", be->resource);
  st->queued = PETSC_FALSE;
  PetscFunctionReturn(0);
}

PetscErrorCode EasXferBook_Shared(EasBackend be, const EasMemRegistry *staging, const char op[], const PetscScalar *host, PetscInt n, PetscBool htod)
{
  const size_t bytes = (size_t)n * sizeof(PetscScalar);

  PetscFunctionBegin;
  PetscCheck(n >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s: %s of %" PetscInt_FMT " entries", be->resource, op, n);
  PetscCheck(EasMemRegistryContains(staging, host, bytes), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "%s: %s host buffer %p (%zu bytes) is not a host staging buffer (EasBackendHostAlloc): a copy with pageable memory is synchronous and would not overlap the device unit", be->resource, op, (const void *)host, bytes);
  if (!n) PetscFunctionReturn(0);
  if (htod) {
    be->bytes_htod += (PetscLogDouble)bytes;
    be->n_htod++;
    PetscCall(PetscLogCpuToGpu((PetscLogDouble)bytes));
  } else {
    be->bytes_dtoh += (PetscLogDouble)bytes;
    be->n_dtoh++;
    PetscCall(PetscLogGpuToCpu((PetscLogDouble)bytes));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode EasTimerRingPush(EasBackend be, EasTimerRing *r, PetscInt64 tag, PetscInt64 *ticket, PetscInt *slot)
{
  PetscFunctionBegin;
  while (r->oldest < r->next && !r->live[r->oldest % EAS_TIMER_RING]) r->oldest++; /* released at the front */
  PetscCheck(r->next - r->oldest < EAS_TIMER_RING, PETSC_COMM_SELF, PETSC_ERR_MEM, "%s: timer_record: %d timer marks are live, mark %" PetscInt64_FMT " not yet resolved; resolve marks (timer_query) before recording more", be->resource, EAS_TIMER_RING, r->oldest);
  *ticket           = r->next++;
  *slot             = (PetscInt)(*ticket % EAS_TIMER_RING);
  r->t_rec[*slot]   = EasHostClock();
  r->tag[*slot]     = tag;
  r->live[*slot]    = 1;
  r->nlive++;
  PetscFunctionReturn(0);
}

PetscErrorCode EasTimerRingFind(EasBackend be, const EasTimerRing *r, PetscInt64 ticket, PetscInt *slot)
{
  PetscFunctionBegin;
  PetscCheck(ticket >= r->oldest && ticket < r->next && r->live[ticket % EAS_TIMER_RING], PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "%s: timer_query: mark %" PetscInt64_FMT " is not live (marks %" PetscInt64_FMT " to %" PetscInt64_FMT " were recorded; a mark is released when it is resolved)", be->resource, ticket, (PetscInt64)0, r->next - 1);
  *slot = (PetscInt)(ticket % EAS_TIMER_RING);
  PetscFunctionReturn(0);
}

void EasTimerRingRelease(EasTimerRing *r, PetscInt64 ticket)
{
  r->live[ticket % EAS_TIMER_RING] = 0;
  r->nlive--;
}
