/*
  EasVec: a vector on a backend with lazily synchronized host and device
  copies.  On backends whose memory is host memory (CPU) there is one array.
*/
#include "vecimpl.h"

PetscLogEvent EAS_VecOps, EAS_VecDot, EAS_HtoD, EAS_DtoH;

static PetscBool eas_vec_package_initialized = PETSC_FALSE;

/*
  EasVecInitializePackage - the log events of the vectors (under the
  backend class: the work is the backend's).  Called by EasVecCreate.
*/
PetscErrorCode EasVecInitializePackage(void)
{
  PetscFunctionBegin;
  if (eas_vec_package_initialized) PetscFunctionReturn(0);
  PetscCall(EasPackageInitialized_Private(&eas_vec_package_initialized)); /* cleared at PetscFinalize */
  PetscCall(EasBackendInitializePackage());
  PetscCall(PetscLogEventRegister("EasVecOps", EAS_BACKEND_CLASSID, &EAS_VecOps));
  PetscCall(PetscLogEventRegister("EasVecDot", EAS_BACKEND_CLASSID, &EAS_VecDot));
  PetscCall(PetscLogEventRegister("EasCopyHtoD", EAS_BACKEND_CLASSID, &EAS_HtoD));
  PetscCall(PetscLogEventRegister("EasCopyDtoH", EAS_BACKEND_CLASSID, &EAS_DtoH));
  PetscFunctionReturn(0);
}

typedef enum {
  EAS_VALID_HOST   = 1,
  EAS_VALID_DEVICE = 2,
  EAS_VALID_BOTH   = 3
} EasValid;

struct _p_EasVec {
  EasBackend   be;
  PetscInt     n;
  PetscScalar *h; /* host copy (allocated lazily on device backends) */
  PetscScalar *d; /* backend copy; == h when be->host_is_device */
  EasValid     valid;
};

/*@C
  EasVecCreate - a vector of local length n >= 0 on backend be, set to zero.
@*/
PetscErrorCode EasVecCreate(EasBackend be, PetscInt n, EasVec *v)
{
  EasVec x;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(be, EAS_BACKEND_CLASSID, 1);
  PetscValidPointer(v, 3);
  PetscCheck(n >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Vector length %" PetscInt_FMT " must be >= 0", n);
  PetscCall(EasVecInitializePackage());
  PetscCall(PetscNew(&x));
  PetscCall(PetscObjectReference((PetscObject)be));
  x->be = be;
  x->n  = n;
  PetscCall((*be->ops->malloc)(be, (size_t)PetscMax(n, 1) * sizeof(PetscScalar), (void **)&x->d));
  if (be->host_is_device) x->h = x->d;
  x->valid = be->host_is_device ? EAS_VALID_BOTH : EAS_VALID_DEVICE;
  PetscCall((*be->ops->set)(be, n, 0.0, x->d));
  *v = x;
  PetscFunctionReturn(0);
}

/*@C
  EasVecDuplicate - a new zero vector of the same length and backend.
@*/
PetscErrorCode EasVecDuplicate(EasVec x, EasVec *y)
{
  PetscFunctionBegin;
  PetscCall(EasVecCreate(x->be, x->n, y));
  PetscFunctionReturn(0);
}

PetscErrorCode EasVecDestroy(EasVec *v)
{
  PetscFunctionBegin;
  if (!*v) PetscFunctionReturn(0);
  if (!(*v)->be->host_is_device) PetscCall(PetscFree((*v)->h));
  PetscCall((*(*v)->be->ops->free)((*v)->be, (*v)->d));
  PetscCall(EasBackendDestroy(&(*v)->be));
  PetscCall(PetscFree(*v));
  PetscFunctionReturn(0);
}

PetscErrorCode EasVecGetSize(EasVec v, PetscInt *n)
{
  PetscFunctionBegin;
  *n = v->n;
  PetscFunctionReturn(0);
}

PetscErrorCode EasVecGetBackend(EasVec v, EasBackend *be)
{
  PetscFunctionBegin;
  *be = v->be;
  PetscFunctionReturn(0);
}

/* The copy that stops being current is handed to the backend
   (EasBackendMarkStale: /cpu/memcheck fills it with NaN). */
static PetscErrorCode EasVecSetValid(EasVec v, EasValid valid)
{
  const size_t bytes = (size_t)v->n * sizeof(PetscScalar);

  PetscFunctionBegin;
  if (!v->be->host_is_device) {
    if ((v->valid & EAS_VALID_HOST) && !(valid & EAS_VALID_HOST) && v->h) PetscCall(EasBackendMarkStale(v->be, v->h, bytes));
    if ((v->valid & EAS_VALID_DEVICE) && !(valid & EAS_VALID_DEVICE)) PetscCall(EasBackendMarkStale(v->be, v->d, bytes));
  }
  v->valid = valid;
  PetscFunctionReturn(0);
}

/* Makes the host copy valid, copying device->host if it is stale. */
static PetscErrorCode EasVecSyncHost(EasVec v)
{
  EasBackend   be    = v->be;
  const size_t bytes = (size_t)v->n * sizeof(PetscScalar);

  PetscFunctionBegin;
  if (v->valid & EAS_VALID_HOST) PetscFunctionReturn(0);
  if (!v->h) PetscCall(PetscMalloc1(PetscMax(v->n, 1), &v->h));
  PetscCall(PetscLogEventBegin(EAS_DtoH, 0, 0, 0, 0));
  PetscCall(EasBackendCopyDtoH(be, v->h, v->d, bytes));
  PetscCall(PetscLogEventEnd(EAS_DtoH, 0, 0, 0, 0));
  v->valid = EAS_VALID_BOTH;
  PetscFunctionReturn(0);
}

/* Makes the backend copy valid, copying host->device if it is stale. */
static PetscErrorCode EasVecSyncDevice(EasVec v)
{
  EasBackend   be    = v->be;
  const size_t bytes = (size_t)v->n * sizeof(PetscScalar);

  PetscFunctionBegin;
  if (v->valid & EAS_VALID_DEVICE) PetscFunctionReturn(0);
  PetscCall(PetscLogEventBegin(EAS_HtoD, 0, 0, 0, 0));
  PetscCall(EasBackendCopyHtoD(be, v->d, v->h, bytes));
  PetscCall(PetscLogEventEnd(EAS_HtoD, 0, 0, 0, 0));
  v->valid = EAS_VALID_BOTH;
  PetscFunctionReturn(0);
}

/*@C
  EasVecGetArray - host array, read-write (copies from the device if stale;
  the device copy becomes stale).
@*/
PetscErrorCode EasVecGetArray(EasVec v, PetscScalar **a)
{
  PetscFunctionBegin;
  PetscCall(EasVecSyncHost(v));
  if (!v->be->host_is_device) PetscCall(EasVecSetValid(v, EAS_VALID_HOST));
  *a = v->h;
  PetscFunctionReturn(0);
}

PetscErrorCode EasVecRestoreArray(EasVec v, PetscScalar **a)
{
  PetscFunctionBegin;
  (void)v;
  *a = NULL;
  PetscFunctionReturn(0);
}

/*@C
  EasVecGetArrayRead - host array for reading; both copies stay valid.
@*/
PetscErrorCode EasVecGetArrayRead(EasVec v, const PetscScalar **a)
{
  PetscFunctionBegin;
  PetscCall(EasVecSyncHost(v));
  *a = v->h;
  PetscFunctionReturn(0);
}

PetscErrorCode EasVecRestoreArrayRead(EasVec v, const PetscScalar **a)
{
  PetscFunctionBegin;
  (void)v;
  *a = NULL;
  PetscFunctionReturn(0);
}

/*@C
  EasVecGetArrayWrite - host array to overwrite entirely: nothing is copied,
  the device copy becomes stale.
@*/
PetscErrorCode EasVecGetArrayWrite(EasVec v, PetscScalar **a)
{
  PetscFunctionBegin;
  if (!v->h) PetscCall(PetscMalloc1(PetscMax(v->n, 1), &v->h));
  if (!v->be->host_is_device) PetscCall(EasVecSetValid(v, EAS_VALID_HOST));
  *a = v->h;
  PetscFunctionReturn(0);
}

PetscErrorCode EasVecRestoreArrayWrite(EasVec v, PetscScalar **a)
{
  PetscFunctionBegin;
  (void)v;
  *a = NULL;
  PetscFunctionReturn(0);
}

PetscErrorCode EasVecGetBackendArrayRead(EasVec v, const PetscScalar **a)
{
  PetscFunctionBegin;
  PetscCall(EasVecSyncDevice(v));
  *a = v->d;
  PetscFunctionReturn(0);
}

PetscErrorCode EasVecGetBackendArrayWrite(EasVec v, PetscScalar **a)
{
  PetscFunctionBegin;
  PetscCall(EasVecSetValid(v, v->be->host_is_device ? EAS_VALID_BOTH : EAS_VALID_DEVICE));
  *a = v->d;
  PetscFunctionReturn(0);
}

PetscErrorCode EasVecGetBackendArray(EasVec v, PetscScalar **a)
{
  PetscFunctionBegin;
  PetscCall(EasVecSyncDevice(v));
  PetscCall(EasVecSetValid(v, v->be->host_is_device ? EAS_VALID_BOTH : EAS_VALID_DEVICE));
  *a = v->d;
  PetscFunctionReturn(0);
}

static PetscErrorCode EasVecCheckCompatible(EasVec x, EasVec y, const char op[])
{
  PetscFunctionBegin;
  PetscCheck(x->n == y->n, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "%s: vector sizes differ (%" PetscInt_FMT " and %" PetscInt_FMT ")", op, x->n, y->n);
  PetscCheck(x->be == y->be, PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "%s: vectors live on different backends (%s and %s)", op, x->be->resource, y->be->resource);
  PetscFunctionReturn(0);
}

PetscErrorCode EasVecSet(EasVec v, PetscScalar alpha)
{
  PetscScalar *a = NULL;

  PetscFunctionBegin;
  PetscCall(EasVecGetBackendArrayWrite(v, &a));
  PetscCall(PetscLogEventBegin(EAS_VecOps, 0, 0, 0, 0));
  PetscCall((*v->be->ops->set)(v->be, v->n, alpha, a));
  PetscCall(PetscLogEventEnd(EAS_VecOps, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/* y <- x */
PetscErrorCode EasVecCopy(EasVec x, EasVec y)
{
  const PetscScalar *xa = NULL;
  PetscScalar       *ya = NULL;

  PetscFunctionBegin;
  PetscCall(EasVecCheckCompatible(x, y, "EasVecCopy"));
  if (x == y) PetscFunctionReturn(0);
  PetscCall(EasVecGetBackendArrayRead(x, &xa));
  PetscCall(EasVecGetBackendArrayWrite(y, &ya));
  PetscCall(PetscLogEventBegin(EAS_VecOps, 0, 0, 0, 0));
  PetscCall((*x->be->ops->copy)(x->be, x->n, xa, ya));
  PetscCall(PetscLogEventEnd(EAS_VecOps, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/* y <- a x + b y */
PetscErrorCode EasVecAXPBY(EasVec y, PetscScalar a, PetscScalar b, EasVec x)
{
  const PetscScalar *xa = NULL;
  PetscScalar       *ya = NULL;

  PetscFunctionBegin;
  PetscCall(EasVecCheckCompatible(x, y, "EasVecAXPBY"));
  PetscCall(EasVecGetBackendArrayRead(x, &xa));
  PetscCall(EasVecGetBackendArray(y, &ya));
  PetscCall(PetscLogEventBegin(EAS_VecOps, 0, 0, 0, 0));
  PetscCall((*x->be->ops->axpby)(x->be, x->n, a, xa, b, ya));
  PetscCall(PetscLogEventEnd(EAS_VecOps, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/* w <- x .* y */
PetscErrorCode EasVecPointwiseMult(EasVec w, EasVec x, EasVec y)
{
  const PetscScalar *xa = NULL, *ya = NULL;
  PetscScalar       *wa = NULL;

  PetscFunctionBegin;
  PetscCall(EasVecCheckCompatible(x, y, "EasVecPointwiseMult"));
  PetscCall(EasVecCheckCompatible(x, w, "EasVecPointwiseMult"));
  PetscCall(EasVecGetBackendArrayRead(x, &xa));
  PetscCall(EasVecGetBackendArrayRead(y, &ya));
  PetscCall(EasVecGetBackendArrayWrite(w, &wa));
  PetscCall(PetscLogEventBegin(EAS_VecOps, 0, 0, 0, 0));
  PetscCall((*x->be->ops->pointwise_mult)(x->be, x->n, xa, ya, wa));
  PetscCall(PetscLogEventEnd(EAS_VecOps, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/* local (x, y) */
PetscErrorCode EasVecDot(EasVec x, EasVec y, PetscScalar *dot)
{
  const PetscScalar *xa = NULL, *ya = NULL;

  PetscFunctionBegin;
  PetscCall(EasVecCheckCompatible(x, y, "EasVecDot"));
  PetscCall(EasVecGetBackendArrayRead(x, &xa));
  PetscCall(EasVecGetBackendArrayRead(y, &ya));
  PetscCall(PetscLogEventBegin(EAS_VecDot, 0, 0, 0, 0));
  PetscCall((*x->be->ops->dot_local)(x->be, x->n, xa, ya, dot));
  PetscCall(PetscLogEventEnd(EAS_VecDot, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

PetscErrorCode EasVecNorm(EasVec x, PetscReal *nrm)
{
  PetscScalar d;

  PetscFunctionBegin;
  PetscCall(EasVecDot(x, x, &d));
  *nrm = PetscSqrtReal(PetscRealPart(d));
  PetscFunctionReturn(0);
}

/*@C
  EasVecCopyFromVec - copies a PETSc Vec (same local size) into v.
@*/
PetscErrorCode EasVecCopyFromVec(EasVec v, Vec x)
{
  PetscInt           n;
  const PetscScalar *xa = NULL;
  PetscScalar       *va;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(x, &n));
  PetscCheck(n == v->n, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "EasVecCopyFromVec: local sizes differ (Vec %" PetscInt_FMT ", EasVec %" PetscInt_FMT ")", n, v->n);
  PetscCall(VecGetArrayRead(x, &xa));
  PetscCall(EasVecGetArrayWrite(v, &va));
  PetscCall(PetscArraycpy(va, xa, n));
  PetscCall(EasVecRestoreArrayWrite(v, &va));
  PetscCall(VecRestoreArrayRead(x, &xa));
  PetscFunctionReturn(0);
}

/*@C
  EasVecCopyToVec - copies v into a PETSc Vec of the same local size.
@*/
PetscErrorCode EasVecCopyToVec(EasVec v, Vec x)
{
  PetscInt           n;
  const PetscScalar *va;
  PetscScalar       *xa;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(x, &n));
  PetscCheck(n == v->n, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "EasVecCopyToVec: local sizes differ (Vec %" PetscInt_FMT ", EasVec %" PetscInt_FMT ")", n, v->n);
  PetscCall(EasVecGetArrayRead(v, &va));
  PetscCall(VecGetArrayWrite(x, &xa));
  PetscCall(PetscArraycpy(xa, va, n));
  PetscCall(VecRestoreArrayWrite(x, &xa));
  PetscCall(EasVecRestoreArrayRead(v, &va));
  PetscFunctionReturn(0);
}
