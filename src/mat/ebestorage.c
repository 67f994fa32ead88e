/*
  The storages and device kernels of the element-by-element operator
  (docs/ebe.md "Element storage", "Device kernels"): the options' setters
  (-ebe_storage, -ebe_deterministic, -ebe_device_layout, -ebe_warp_rows),
  the conversions from the full element matrices (packed symmetric
  triangles, floats, the lanes layout) and the upload at SetUp.
*/
#include "ebeimpl.h"
#include <string.h>

const char *const EasEbeStorages[] = {"full", "symmetric", "single", "symmetric_single", "EasEbeStorage", "EAS_EBE_STORAGE_", NULL};

/*@C
  EasEbeSetStorage - the element storage the apply reads (-ebe_storage):
  full, symmetric (upper triangle packed by rows, m(m+1)/2 values, each read
  once and used twice), single (float values), symmetric_single.  Default:
  symmetric when every element matrix is symmetric, else full.  Before
  EasEbeSetUp.  Errors: not a storage; after SetUp.
@*/
PetscErrorCode EasEbeSetStorage(EasEbe ebe, EasEbeStorage st)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  PetscCheck(st >= EAS_EBE_STORAGE_FULL && st <= EAS_EBE_STORAGE_SYMMETRIC_SINGLE, PetscObjectComm((PetscObject)ebe), PETSC_ERR_ARG_OUTOFRANGE, "-ebe_storage %d is invalid: expected full, symmetric, single or symmetric_single", (int)st);
  PetscCheck(!ebe->setupcalled, PetscObjectComm((PetscObject)ebe), PETSC_ERR_ORDER, "-ebe_storage / EasEbeSetStorage() must come before EasEbeSetUp()");
  ebe->storage     = st;
  ebe->storage_set = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/*@C
  EasEbeSetDeterministic - -ebe_deterministic: on a device backend the
  apply runs colour by colour (one launch per colour, plain sums: the
  result is the same bits at every run) instead of one launch over all
  elements with an atomic scatter (whose order of additions varies).  Host
  backends always apply colour by colour.  Before EasEbeSetUp.
@*/
PetscErrorCode EasEbeSetDeterministic(EasEbe ebe, PetscBool det)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  PetscCheck(!ebe->setupcalled, PetscObjectComm((PetscObject)ebe), PETSC_ERR_ORDER, "-ebe_deterministic / EasEbeSetDeterministic() must come before EasEbeSetUp()");
  ebe->deterministic = det;
  PetscFunctionReturn(0);
}

const char *const EasEbeDeviceLayouts[] = {"warp", "lanes", "EasEbeDeviceLayout", "EAS_EBE_DEVICE_LAYOUT_", NULL};

/*@C
  EasEbeSetDeviceLayout - -ebe_device_layout: the kernel a device backend
  applies the operator with.  warp (the default): a group of lanes of a
  warp per element (32 lanes; 8 for element orders m <= 8), on the host layout
  (an element's values contiguous): each row of the element matrix is read
  by the group in one coalesced slice, x_el and y_el in the lanes'
  registers, each row's dot a sum over the group.  lanes: one thread per
  element, the values interleaved in batches of 32 elements (every value
  one coalesced load of the warp, but x_el and y_el in each thread's local
  memory).  docs/ebe.md "Device kernels" has the measurements.  Host
  backends ignore it.  Before EasEbeSetUp.  Errors: not a layout; after
  SetUp.
@*/
PetscErrorCode EasEbeSetDeviceLayout(EasEbe ebe, EasEbeDeviceLayout lay)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  PetscCheck(lay == EAS_EBE_DEVICE_LAYOUT_WARP || lay == EAS_EBE_DEVICE_LAYOUT_LANES, PetscObjectComm((PetscObject)ebe), PETSC_ERR_ARG_OUTOFRANGE, "-ebe_device_layout %d is invalid: expected warp or lanes", (int)lay);
  PetscCheck(!ebe->setupcalled, PetscObjectComm((PetscObject)ebe), PETSC_ERR_ORDER, "-ebe_device_layout / EasEbeSetDeviceLayout() must come before EasEbeSetUp()");
  ebe->device_layout = lay;
  PetscFunctionReturn(0);
}

/*@C
  EasEbeSetWarpRows - -ebe_warp_rows 4|8: rows of an element matrix the
  device's warp kernel loads before it sums them (loads in flight per
  group, against registers per thread and so warps per multiprocessor).
  Default 4.  Elements of order m <= 8 (8 lanes each) always load 4, their
  whole matrix in two steps; -ebe_view prints the rows used.  Before
  EasEbeSetUp.  Errors: not 4 or 8; after SetUp.
@*/
PetscErrorCode EasEbeSetWarpRows(EasEbe ebe, PetscInt rows)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  PetscCheck(rows == 4 || rows == 8, PetscObjectComm((PetscObject)ebe), PETSC_ERR_ARG_OUTOFRANGE, "-ebe_warp_rows %" PetscInt_FMT " is invalid: expected 4 or 8", rows);
  PetscCheck(!ebe->setupcalled, PetscObjectComm((PetscObject)ebe), PETSC_ERR_ORDER, "-ebe_warp_rows / EasEbeSetWarpRows() must come before EasEbeSetUp()");
  ebe->warp_rows = rows;
  PetscFunctionReturn(0);
}

/*@C EasEbeGetDeviceLayout - the device kernel's layout (set, or the default warp). @*/
PetscErrorCode EasEbeGetDeviceLayout(EasEbe ebe, EasEbeDeviceLayout *lay)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  PetscValidPointer(lay, 2);
  *lay = ebe->device_layout;
  PetscFunctionReturn(0);
}

/*@C EasEbeGetStorage - the element storage (after SetUp: the one chosen). @*/
PetscErrorCode EasEbeGetStorage(EasEbe ebe, EasEbeStorage *st)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  *st = ebe->storage;
  PetscFunctionReturn(0);
}

/* Whether every element matrix is symmetric to rtol relative to its largest entry. */
static PetscErrorCode EasEbeIsSymmetric_Private(EasEbe ebe, PetscReal rtol, PetscBool *sym)
{
  const PetscInt m = ebe->nen * ebe->dof;

  PetscFunctionBegin;
  *sym = PETSC_TRUE;
  for (PetscInt e = 0; e < ebe->nel && *sym; e++) {
    const PetscScalar *A    = ebe->ael + (size_t)e * m * m;
    PetscReal          amax = 0.0;
    for (PetscInt i = 0; i < m * m; i++) amax = PetscMax(amax, PetscAbsScalar(A[i]));
    for (PetscInt i = 0; i < m && *sym; i++)
      for (PetscInt j = 0; j < i; j++)
        if (PetscAbsScalar(A[i * m + j] - A[j * m + i]) > rtol * amax) {
          *sym = PETSC_FALSE;
          break;
        }
  }
  PetscFunctionReturn(0);
}

/* Replaces ebe->aels (or, for full storage, a copy of ebe->ael) by the
   same values in the device layout (kernels/ebe.h EasEbeLaneBase): value v
   of element e at (e / L) nv L + v L + e % L, the padding of the last
   batch zero. */
static PetscErrorCode EasEbeInterleave_Private(EasEbe ebe)
{
  const PetscInt m = ebe->nen * ebe->dof, L = ebe->k.lanes;
  const size_t   vb    = (ebe->storage == EAS_EBE_STORAGE_SINGLE || ebe->storage == EAS_EBE_STORAGE_SYMMETRIC_SINGLE) ? sizeof(float) : sizeof(PetscScalar);
  const size_t   nv    = (size_t)(EasEbeStorageBytes(ebe->storage, m) / (double)vb);
  const size_t   bytes = (size_t)EasEbeLayoutBytes(ebe->storage, m, ebe->nel, L);
  const char    *src   = ebe->storage == EAS_EBE_STORAGE_FULL ? (const char *)ebe->ael : (const char *)ebe->aels;
  char          *dst;

  PetscFunctionBegin;
  PetscCall(PetscCalloc1(PetscMax(bytes, 1), &dst));
  for (PetscInt e = 0; e < ebe->nel; e++)
    for (size_t v = 0; v < nv; v++) memcpy(dst + (size_t)EasEbeLaneBase(e, (EasKIdx)nv, L) * vb + v * L * vb, src + ((size_t)e * nv + v) * vb, vb);
  PetscCall(PetscFree(ebe->aels));
  ebe->aels = dst;
  PetscFunctionReturn(0);
}

/* The storage the apply reads: chosen (symmetric when every element matrix
   is) unless set, then packed/converted on the host from the full matrices
   (symmetric: the upper triangle A[i][j], j >= i, as the rows are stored). */
/* The values of storage ebe->storage in the host layout (one element's
   values contiguous), from the full matrices ael: symmetric: upper
   triangles packed by rows; single: floats; full: *p = NULL (ael itself).
   Caller frees with PetscFree.  Used by the operator's SetUp and by the
   split's host units on a device operator (ebesplitdev.c). */
PetscErrorCode EasEbePackStorage_Private(EasEbe ebe, void **aels)
{
  const PetscInt m = ebe->nen * ebe->dof, ms = m * (m + 1) / 2;
  const size_t   nel = (size_t)ebe->nel;

  PetscFunctionBegin;
  *aels = NULL;
  switch (ebe->storage) {
  case EAS_EBE_STORAGE_FULL:
    break;
  case EAS_EBE_STORAGE_SYMMETRIC: {
    PetscScalar *p;
    PetscCall(PetscMalloc1(PetscMax(nel * ms, 1), &p));
    for (size_t e = 0; e < nel; e++)
      for (PetscInt i = 0; i < m; i++)
        for (PetscInt j = i; j < m; j++) p[e * ms + EasEbeSymRowStart(i, m) + (j - i)] = ebe->ael[(e * m + i) * m + j];
    *aels = p;
  } break;
  case EAS_EBE_STORAGE_SINGLE: {
    float *p;
    PetscCall(PetscMalloc1(PetscMax(nel * m * m, 1), &p));
    for (size_t k = 0; k < nel * m * m; k++) p[k] = (float)ebe->ael[k];
    *aels = p;
  } break;
  default: {
    float *p;
    PetscCall(PetscMalloc1(PetscMax(nel * ms, 1), &p));
    for (size_t e = 0; e < nel; e++)
      for (PetscInt i = 0; i < m; i++)
        for (PetscInt j = i; j < m; j++) p[e * ms + EasEbeSymRowStart(i, m) + (j - i)] = (float)ebe->ael[(e * m + i) * m + j];
    *aels = p;
  }
  }
  PetscFunctionReturn(0);
}

PetscErrorCode EasEbeStorageSetUp_Private(EasEbe ebe)
{
  const PetscInt m   = ebe->nen * ebe->dof;
  EasBackend     be  = ebe->be;
  PetscBool      sym = PETSC_FALSE;

  PetscFunctionBegin;
  if (!ebe->storage_set || ebe->storage == EAS_EBE_STORAGE_SYMMETRIC || ebe->storage == EAS_EBE_STORAGE_SYMMETRIC_SINGLE) PetscCall(EasEbeIsSymmetric_Private(ebe, 1e-12, &sym));
  if (!ebe->storage_set)
    ebe->storage = sym ? EAS_EBE_STORAGE_SYMMETRIC : EAS_EBE_STORAGE_FULL; /* on every backend: the same bodies */
  else if (ebe->storage == EAS_EBE_STORAGE_SYMMETRIC || ebe->storage == EAS_EBE_STORAGE_SYMMETRIC_SINGLE)
    PetscCheck(sym, PetscObjectComm((PetscObject)ebe), PETSC_ERR_ARG_WRONG, "-ebe_storage %s needs symmetric element matrices (to 1e-12 relative); use full or single", EasEbeStorages[ebe->storage]);
  ebe->k.storage       = ebe->storage;
  ebe->k.lanes         = (be->ebe_lanes > 1 && ebe->device_layout == EAS_EBE_DEVICE_LAYOUT_LANES) ? be->ebe_lanes : 1; /* warp: the host layout */
  ebe->k.deterministic = ebe->deterministic;
  ebe->k.warp_rows     = ebe->warp_rows;
  if (!be->host_is_device && ebe->k.aels) PetscCall((*be->ops->free)(be, (void *)ebe->k.aels));
  ebe->k.aels = NULL;
  PetscCall(PetscFree(ebe->aels));
  if (ebe->storage == EAS_EBE_STORAGE_FULL && ebe->k.lanes == 1) PetscFunctionReturn(0);
  PetscCall(EasEbePackStorage_Private(ebe, &ebe->aels));          /* full: NULL, the device layout of ael below */
  if (ebe->k.lanes > 1) PetscCall(EasEbeInterleave_Private(ebe)); /* the device layout, every storage */
  if (be->host_is_device)
    ebe->k.aels = ebe->aels;
  else { /* device backends: the packed values in backend memory (booked), the host copy freed */
    const size_t bytes = (size_t)EasEbeLayoutBytes(ebe->storage, m, ebe->nel, ebe->k.lanes);
    void        *p;
    PetscCall((*be->ops->malloc)(be, PetscMax(bytes, 1), &p));
    PetscCall(EasBackendCopyHtoD(be, p, ebe->aels, bytes));
    ebe->k.aels = p;
    PetscCall(PetscFree(ebe->aels));
  }
  PetscFunctionReturn(0);
}
