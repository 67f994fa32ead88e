/*
  /cpu/memcheck: a CPU backend that behaves like a device backend, so that
  make check exercises every host/device path without a GPU (the name
  follows libCEED's /cpu/self/memcheck).

  - host_is_device = false: the "device" memory is separate host
    allocations (PetscMalloc, so -malloc_dump sees them), registered by
    address range.  Every op checks that every pointer it receives lies,
    with the length it will access, inside one of them (a host pointer, an
    overrun or a freed buffer is an error naming the op and the argument),
    and that it is not a buffer of the asynchronous unit in flight.
  - New allocations are filled with NaN; every copy the generic layer marks
    stale (EasBackendMarkStale: host or device copy of a vector, a matrix's
    values) is filled with NaN, so a read of a stale copy gives NaN and the
    test fails instead of running on old values.
  - Copies are explicit memcpy and counted: the backend counts what it
    copies, and at its destruction this must equal what was booked in
    bytes_htod/dtoh (EasBackendCopyHtoD/DtoH), else an error.
  - The arithmetic is the CPU backend's ops (cpu.c, the kernels.h bodies),
    called after the checks.  -eas_memcheck_spmv csr multiplies DIA
    matrices through a backend-private CSR copy built at dia_setup (the
    path of -eas_cuda_spmv cusparse, devcommon.c), with the CSR bodies
    (double values: single-precision DIA values are refused there, as on
    CUDA).  Every element storage (-ebe_storage) and the float DIA copy
    (EasDiaSetPrecision) are read by the CPU bodies and checked with their
    real byte lengths.
  - ebe_unit_begin/end run on a worker thread with a stream's semantics:
    begin checks, queues and returns at once; end waits and returns the
    unit's time (Lang-Rünger Alg. 2, the device unit of the EBE split).
    Host buffers of a unit must be staging buffers (host_alloc), as pinned
    memory is needed on CUDA for the copies to be asynchronous.
*/
#include "memcheck.h"
#include <omp.h>
#include <pthread.h>
#include <string.h>
#include <time.h>

typedef enum {
  EAS_MEMCHECK_SPMV_NATIVE,
  EAS_MEMCHECK_SPMV_CSR
} EasMemcheckSpMVMode;

static const char *const EasMemcheckSpMVModes[] = {"native", "csr"};

/* The unit's job, written by the host thread before it is queued and read
   by the worker (the mutex orders the two). */
typedef struct {
  EasEbeKernel       K;
  PetscInt           e0, e1, n;
  const PetscScalar *x_host;
  PetscScalar       *x_dev, *y_dev, *y_host;
} EasMemcheckJob;

typedef struct {
  struct _EasBackendOps cpu;     /* the CPU backend's ops, called after the checks */
  EasMemRegistry        dev;     /* "device" allocations */
  EasMemRegistry        staging; /* host staging buffers */
  EasMemcheckSpMVMode   mode;
  PetscInt              nchecked, npoisoned, ncopies_htod, ncopies_dtoh;
  PetscLogDouble        raw_htod, raw_dtoh; /* bytes the backend copied, booked or not */
  /* the asynchronous unit */
  EasUnitState    unit;
  EasMemcheckJob  job;
  pthread_t       thread;
  pthread_mutex_t mutex;
  pthread_cond_t  cond;
  PetscBool       thread_started;
  int             job_queued, job_done, quit; /* under the mutex */
  double          t0, t1;                     /* the last unit's busy interval (worker clock) */
  PetscBool       have_interval;
} EasBackend_Memcheck;

/* Per-matrix data (EasDiaKernel.ctx): the CSR copy, in backend memory. */
typedef struct {
  PetscBool    built;
  PetscInt     nnz;
  PetscInt    *rowptr, *colind;
  PetscScalar *vals;
} EasDiaCtx_Memcheck;

static double EasMemcheckClock(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ------------------------------------------------------------------ checks */

/* [p, p+bytes) must lie in one backend allocation and not be a buffer of
   the unit in flight. */
static PetscErrorCode EasMemcheckCheck(EasBackend be, const char op[], const char arg[], const void *p, size_t bytes)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;

  PetscFunctionBegin;
  mc->nchecked++;
  PetscCheck(p, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "/cpu/memcheck: %s: argument %s is NULL", op, arg);
  if (!EasMemRegistryContains(&mc->dev, p, bytes)) {
    PetscCheck(EasMemRegistryOverlaps(&mc->dev, p, 1), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "/cpu/memcheck: %s: argument %s = %p is not in the backend's memory space (a host pointer, or freed): it would be invalid on a device", op, arg, p);
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "/cpu/memcheck: %s: argument %s = %p: %zu bytes run past the end of its backend allocation", op, arg, p, bytes);
  }
  if (mc->unit.queued) {
    const size_t ub = (size_t)mc->job.n * sizeof(PetscScalar);
    const char  *c = (const char *)p, *xd = (const char *)mc->job.x_dev, *yd = (const char *)mc->job.y_dev;
    PetscCheck(!(c < xd + ub && xd < c + PetscMax(bytes, 1)) && !(c < yd + ub && yd < c + PetscMax(bytes, 1)), PETSC_COMM_SELF, PETSC_ERR_ORDER, "/cpu/memcheck: %s: argument %s = %p is a buffer of the asynchronous unit in flight (call ebe_unit_end first)", op, arg, p);
  }
  PetscFunctionReturn(0);
}

/* p must be host memory, outside the backend's space. */
static PetscErrorCode EasMemcheckCheckHost(EasBackend be, const char op[], const char arg[], const void *p, size_t bytes)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;

  PetscFunctionBegin;
  mc->nchecked++;
  PetscCheck(p || !bytes, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "/cpu/memcheck: %s: host argument %s is NULL", op, arg);
  PetscCheck(!p || !EasMemRegistryOverlaps(&mc->dev, p, PetscMax(bytes, 1)), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "/cpu/memcheck: %s: argument %s = %p is backend memory where host memory is expected", op, arg, p);
  PetscFunctionReturn(0);
}

#define EasMcCheck(op, arg, p, bytes) PetscCall(EasMemcheckCheck(be, op, arg, (const void *)(p), (size_t)(bytes)))
#define EasMcCheckHost(op, arg, p, bytes) PetscCall(EasMemcheckCheckHost(be, op, arg, (const void *)(p), (size_t)(bytes)))
#define EAS_SC sizeof(PetscScalar)
#define EAS_IN sizeof(PetscInt)

static PetscErrorCode EasMemcheckCheckDia(EasBackend be, const char op[], const EasDiaKernel *A)
{
  PetscFunctionBegin;
  EasMcCheck(op, "A->off", A->off, (size_t)A->ndiag * EAS_IN);
  EasMcCheck(op, "A->val", A->val, (size_t)A->ndiag * A->ld * EAS_SC);
  if (A->valf) EasMcCheck(op, "A->valf", A->valf, (size_t)A->ndiag * A->ld * sizeof(float)); /* single precision (EasDiaSetPrecision): what the products read */
  if (A->off_host) EasMcCheckHost(op, "A->off_host", A->off_host, (size_t)A->ndiag * EAS_IN);
  if (A->val_host) EasMcCheckHost(op, "A->val_host", A->val_host, (size_t)A->ndiag * A->ld * EAS_SC);
  PetscFunctionReturn(0);
}

/* The element data an op reads: apply (ebe_apply, the unit) the storage
   the operator chose (-ebe_storage: ael, or aels with its real byte
   length), the diagonal the full matrices ael. */
static PetscErrorCode EasMemcheckCheckEbe(EasBackend be, const char op[], const EasEbeKernel *K, PetscBool apply)
{
  const size_t m = (size_t)K->nen * K->dof;

  PetscFunctionBegin;
  EasMcCheck(op, "K->conn", K->conn, (size_t)K->nel * K->nen * EAS_IN);
  if (!apply || K->storage == EAS_EBE_STORAGE_FULL)
    EasMcCheck(op, "K->ael", K->ael, (size_t)K->nel * m * m * EAS_SC);
  else
    EasMcCheck(op, "K->aels", K->aels, (size_t)K->nel * (size_t)EasEbeStorageBytes(K->storage, (PetscInt)m));
  EasMcCheck(op, "K->color_elem", K->color_elem, (size_t)K->nel * EAS_IN);
  EasMcCheckHost(op, "K->color_elem_host", K->color_elem_host, (size_t)K->nel * EAS_IN);
  EasMcCheckHost(op, "K->color_ptr", K->color_ptr, (size_t)(K->ncolors + 1) * EAS_IN);
  PetscFunctionReturn(0);
}

/* Fills bytes at p with NaN (all bits set: a quiet NaN as a double, -1 as
   an integer). */
static void EasMemcheckPoison(void *p, size_t bytes)
{
  memset(p, 0xff, bytes);
}

/* ------------------------------------------------------------------ memory */

static PetscErrorCode EasMalloc_Memcheck(EasBackend be, size_t bytes, void **p)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;

  PetscFunctionBegin;
  PetscCall(PetscMalloc(PetscMax(bytes, 1), p));
  EasMemcheckPoison(*p, PetscMax(bytes, 1)); /* uninitialized device memory reads as NaN */
  PetscCall(EasMemRegistryAdd(&mc->dev, *p, bytes));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasFree_Memcheck(EasBackend be, void *p)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;

  PetscFunctionBegin;
  if (!p) PetscFunctionReturn(0);
  if (mc->unit.queued) EasMcCheck("free", "p", p, 0);
  PetscCall(EasMemRegistryRemove(&mc->dev, p, NULL, "/cpu/memcheck backend memory (free)"));
  PetscCall(PetscFree(p));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasCopyHtoD_Memcheck(EasBackend be, void *dst, const void *src, size_t bytes)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;

  PetscFunctionBegin;
  if (!bytes) PetscFunctionReturn(0);
  EasMcCheck("copy_htod", "dst", dst, bytes);
  EasMcCheckHost("copy_htod", "src", src, bytes);
  memcpy(dst, src, bytes);
  mc->ncopies_htod++;
  mc->raw_htod += (PetscLogDouble)bytes;
  PetscFunctionReturn(0);
}

static PetscErrorCode EasCopyDtoH_Memcheck(EasBackend be, void *dst, const void *src, size_t bytes)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;

  PetscFunctionBegin;
  if (!bytes) PetscFunctionReturn(0);
  EasMcCheck("copy_dtoh", "src", src, bytes);
  EasMcCheckHost("copy_dtoh", "dst", dst, bytes);
  memcpy(dst, src, bytes);
  mc->ncopies_dtoh++;
  mc->raw_dtoh += (PetscLogDouble)bytes;
  PetscFunctionReturn(0);
}

static PetscErrorCode EasHostAlloc_Memcheck(EasBackend be, size_t bytes, void **p)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;

  PetscFunctionBegin;
  PetscCall(PetscMalloc(bytes, p));
  EasMemcheckPoison(*p, bytes);
  PetscCall(EasMemRegistryAdd(&mc->staging, *p, bytes));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasHostFree_Memcheck(EasBackend be, void *p)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;

  PetscFunctionBegin;
  PetscCheck(!mc->unit.queued || (p != (void *)mc->job.x_host && p != (void *)mc->job.y_host), PETSC_COMM_SELF, PETSC_ERR_ORDER, "/cpu/memcheck: host_free of a staging buffer of the unit in flight");
  PetscCall(EasMemRegistryRemove(&mc->staging, p, NULL, "/cpu/memcheck host staging (host_free)"));
  PetscCall(PetscFree(p));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasMarkStale_Memcheck(EasBackend be, void *p, size_t bytes)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;

  PetscFunctionBegin;
  if (EasMemRegistryOverlaps(&mc->dev, p, bytes)) EasMcCheck("mark_stale", "copy", p, bytes);
  EasMemcheckPoison(p, bytes);
  mc->npoisoned++;
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------ vectors */

static PetscErrorCode EasVecSet_Memcheck(EasBackend be, PetscInt n, PetscScalar alpha, PetscScalar *y)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;

  PetscFunctionBegin;
  EasMcCheck("set", "y", y, n * EAS_SC);
  PetscCall(mc->cpu.set(be, n, alpha, y));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasVecCopy_Memcheck(EasBackend be, PetscInt n, const PetscScalar *x, PetscScalar *y)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;

  PetscFunctionBegin;
  EasMcCheck("copy", "x", x, n * EAS_SC);
  EasMcCheck("copy", "y", y, n * EAS_SC);
  PetscCall(mc->cpu.copy(be, n, x, y));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasVecAXPBY_Memcheck(EasBackend be, PetscInt n, PetscScalar a, const PetscScalar *x, PetscScalar b, PetscScalar *y)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;

  PetscFunctionBegin;
  EasMcCheck("axpby", "x", x, n * EAS_SC);
  EasMcCheck("axpby", "y", y, n * EAS_SC);
  PetscCall(mc->cpu.axpby(be, n, a, x, b, y));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasVecPointwiseMult_Memcheck(EasBackend be, PetscInt n, const PetscScalar *x, const PetscScalar *y, PetscScalar *w)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;

  PetscFunctionBegin;
  EasMcCheck("pointwise_mult", "x", x, n * EAS_SC);
  EasMcCheck("pointwise_mult", "y", y, n * EAS_SC);
  EasMcCheck("pointwise_mult", "w", w, n * EAS_SC);
  PetscCall(mc->cpu.pointwise_mult(be, n, x, y, w));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasVecDot_Memcheck(EasBackend be, PetscInt n, const PetscScalar *x, const PetscScalar *y, PetscScalar *dot)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;

  PetscFunctionBegin;
  EasMcCheck("dot_local", "x", x, n * EAS_SC);
  EasMcCheck("dot_local", "y", y, n * EAS_SC);
  EasMcCheckHost("dot_local", "dot", dot, EAS_SC);
  PetscCall(mc->cpu.dot_local(be, n, x, y, dot));
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------ DIA and its private CSR copy */

static PetscErrorCode EasDiaCtxFree_Memcheck(EasBackend be, EasDiaCtx_Memcheck *ctx)
{
  PetscFunctionBegin;
  PetscCall(EasFree_Memcheck(be, ctx->rowptr));
  PetscCall(EasFree_Memcheck(be, ctx->colind));
  PetscCall(EasFree_Memcheck(be, ctx->vals));
  PetscCall(PetscMemzero(ctx, sizeof(*ctx)));
  PetscFunctionReturn(0);
}

/* The CSR copy in backend memory: built on the host by the shared code
   (devcommon.c, as the CUDA backend's cuSPARSE copy is), then uploaded. */
static PetscErrorCode EasDiaBuildCSR_Memcheck(EasBackend be, const EasDiaKernel *A, EasDiaCtx_Memcheck *ctx)
{
  PetscInt    *rowptr, *colind, nnz;
  PetscScalar *vals;

  PetscFunctionBegin;
  PetscCall(EasDiaCtxFree_Memcheck(be, ctx));
  PetscCall(EasDiaBuildCSRHost(be, A, &nnz, &rowptr, &colind, &vals));
  PetscCall(EasMalloc_Memcheck(be, (size_t)(A->n + 1) * EAS_IN, (void **)&ctx->rowptr));
  PetscCall(EasMalloc_Memcheck(be, (size_t)nnz * EAS_IN, (void **)&ctx->colind));
  PetscCall(EasMalloc_Memcheck(be, (size_t)nnz * EAS_SC, (void **)&ctx->vals));
  PetscCall(EasBackendCopyHtoD(be, ctx->rowptr, rowptr, (size_t)(A->n + 1) * EAS_IN));
  PetscCall(EasBackendCopyHtoD(be, ctx->colind, colind, (size_t)nnz * EAS_IN));
  PetscCall(EasBackendCopyHtoD(be, ctx->vals, vals, (size_t)nnz * EAS_SC));
  PetscCall(PetscFree(rowptr));
  PetscCall(PetscFree(colind));
  PetscCall(PetscFree(vals));
  ctx->nnz   = nnz;
  ctx->built = PETSC_TRUE;
  PetscCall(PetscInfo(be, "CSR copy: n %" PetscInt_FMT ", %" PetscInt_FMT " offsets, nnz %" PetscInt_FMT "\n", A->n, A->ndiag, nnz));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasDiaSetUp_Memcheck(EasBackend be, EasDiaKernel *A)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;
  EasDiaCtx_Memcheck  *ctx;

  PetscFunctionBegin;
  PetscCall(EasMemcheckCheckDia(be, "dia_setup", A));
  if (A->ctx) {
    ctx = (EasDiaCtx_Memcheck *)A->ctx;
    PetscCall(EasDiaCtxFree_Memcheck(be, ctx));
  } else {
    PetscCall(PetscNew(&ctx));
    A->ctx = ctx;
  }
  if (mc->mode == EAS_MEMCHECK_SPMV_CSR && A->n > 0) PetscCall(EasDiaBuildCSR_Memcheck(be, A, ctx));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasDiaDestroy_Memcheck(EasBackend be, EasDiaKernel *A)
{
  PetscFunctionBegin;
  if (A->ctx) {
    PetscCall(EasDiaCtxFree_Memcheck(be, (EasDiaCtx_Memcheck *)A->ctx));
    PetscCall(PetscFree(A->ctx));
  }
  PetscFunctionReturn(0);
}

/* The CSR copy for a csr-mode product (built now if the mode was switched
   after dia_setup), or NULL for the DIA kernels. */
static PetscErrorCode EasDiaGetCSR_Memcheck(EasBackend be, const EasDiaKernel *A, EasDiaCtx_Memcheck **csr)
{
  EasBackend_Memcheck *mc  = (EasBackend_Memcheck *)be->data;
  EasDiaCtx_Memcheck  *ctx = (EasDiaCtx_Memcheck *)A->ctx;

  PetscFunctionBegin;
  *csr = NULL;
  if (mc->mode != EAS_MEMCHECK_SPMV_CSR || A->n <= 0) PetscFunctionReturn(0);
  PetscCheck(ctx, PETSC_COMM_SELF, PETSC_ERR_ORDER, "/cpu/memcheck: a DIA product on a matrix not set up by dia_setup");
  /* the CSR copy holds double values, as -eas_cuda_spmv cusparse's (docs/adr.md) */
  PetscCheck(!A->valf, PETSC_COMM_SELF, PETSC_ERR_SUP, "Single-precision DIA values (-adr_jacobian_precision single, EasDiaSetPrecision) are read by the DIA kernels only, not by the CSR copy of -eas_memcheck_spmv csr: use -eas_memcheck_spmv native, or -adr_jacobian_precision double");
  if (!ctx->built) PetscCall(EasDiaBuildCSR_Memcheck(be, A, ctx));
  EasMcCheck("csr", "rowptr", ctx->rowptr, (size_t)(A->n + 1) * EAS_IN);
  EasMcCheck("csr", "colind", ctx->colind, (size_t)ctx->nnz * EAS_IN);
  EasMcCheck("csr", "vals", ctx->vals, (size_t)ctx->nnz * EAS_SC);
  *csr = ctx;
  PetscFunctionReturn(0);
}

static void EasCsrMult_Memcheck(EasBackend be, PetscInt n, const EasDiaCtx_Memcheck *csr, const PetscScalar *x, PetscScalar *y)
{
#pragma omp parallel for schedule(static) num_threads((int)be->threads)
  for (PetscInt i = 0; i < n; i++) y[i] = EasCsrRow(i, csr->rowptr, csr->colind, csr->vals, x);
}

static PetscErrorCode EasDiaMult_Memcheck(EasBackend be, const EasDiaKernel *A, const PetscScalar *x, PetscScalar *y)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;
  EasDiaCtx_Memcheck  *csr;

  PetscFunctionBegin;
  PetscCall(EasMemcheckCheckDia(be, "dia_mult", A));
  EasMcCheck("dia_mult", "x", x, A->n * EAS_SC);
  EasMcCheck("dia_mult", "y", y, A->n * EAS_SC);
  PetscCall(EasDiaGetCSR_Memcheck(be, A, &csr));
  if (csr) {
    EasCsrMult_Memcheck(be, A->n, csr, x, y);
    PetscCall(PetscLogFlops(2.0 * csr->nnz));
  } else
    PetscCall(mc->cpu.dia_mult(be, A, x, y));
  PetscFunctionReturn(0);
}

/* valf = (float) val (EasDiaSetPrecision): the CPU op after the checks. */
static PetscErrorCode EasDiaSingle_Memcheck(EasBackend be, const EasDiaKernel *A, float *valf)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;

  PetscFunctionBegin;
  EasMcCheck("dia_single", "A->off", A->off, (size_t)A->ndiag * EAS_IN);
  EasMcCheck("dia_single", "A->val", A->val, (size_t)A->ndiag * A->ld * EAS_SC);
  EasMcCheck("dia_single", "valf", valf, (size_t)A->ndiag * A->ld * sizeof(float));
  PetscCall(mc->cpu.dia_single(be, A, valf));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasDiaMultTranspose_Memcheck(EasBackend be, const EasDiaKernel *A, const PetscScalar *x, PetscScalar *y)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;
  EasDiaCtx_Memcheck  *csr;

  PetscFunctionBegin;
  PetscCall(EasMemcheckCheckDia(be, "dia_mult_transpose", A));
  EasMcCheck("dia_mult_transpose", "x", x, A->n * EAS_SC);
  EasMcCheck("dia_mult_transpose", "y", y, A->n * EAS_SC);
  PetscCall(EasDiaGetCSR_Memcheck(be, A, &csr));
  if (csr) {
    for (PetscInt i = 0; i < A->n; i++) y[i] = 0.0;
    for (PetscInt i = 0; i < A->n; i++) EasCsrRowTransposeScatter(i, csr->rowptr, csr->colind, csr->vals, x, y);
    PetscCall(PetscLogFlops(2.0 * csr->nnz));
  } else
    PetscCall(mc->cpu.dia_mult_transpose(be, A, x, y));
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------ fused BiCGStab sweeps */

/* csr mode: the update, the CSR product and the dots as separate passes
   (as the CUDA backend does in cusparse mode). */
static PetscErrorCode EasBcgsSweep1_Memcheck(EasBackend be, const EasDiaKernel *A, PetscScalar beta, PetscScalar omega, const PetscScalar *r, const PetscScalar *p_old, const PetscScalar *v_old, const PetscScalar *rhat, PetscScalar *p_new, PetscScalar *v_new, PetscScalar dots[2])
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;
  const PetscInt       n  = A->n;
  EasDiaCtx_Memcheck  *csr;

  PetscFunctionBegin;
  PetscCall(EasMemcheckCheckDia(be, "bcgs_sweep1", A));
  EasMcCheck("bcgs_sweep1", "r", r, n * EAS_SC);
  EasMcCheck("bcgs_sweep1", "p_old", p_old, n * EAS_SC);
  EasMcCheck("bcgs_sweep1", "v_old", v_old, n * EAS_SC);
  EasMcCheck("bcgs_sweep1", "rhat", rhat, n * EAS_SC);
  EasMcCheck("bcgs_sweep1", "p_new", p_new, n * EAS_SC);
  EasMcCheck("bcgs_sweep1", "v_new", v_new, n * EAS_SC);
  PetscCall(EasDiaGetCSR_Memcheck(be, A, &csr));
  if (csr) {
    for (PetscInt i = 0; i < n; i++) p_new[i] = EasBcgsDirection(r[i], p_old[i], v_old[i], beta, omega);
    EasCsrMult_Memcheck(be, n, csr, p_new, v_new);
    PetscCall(mc->cpu.dot_local(be, n, rhat, v_new, &dots[0]));
    PetscCall(mc->cpu.dot_local(be, n, v_new, v_new, &dots[1]));
    PetscCall(PetscLogFlops(2.0 * csr->nnz + 4.0 * n));
  } else
    PetscCall(mc->cpu.bcgs_sweep1(be, A, beta, omega, r, p_old, v_old, rhat, p_new, v_new, dots));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasBcgsSweep2_Memcheck(EasBackend be, const EasDiaKernel *A, PetscScalar alpha, const PetscScalar *r, const PetscScalar *v, PetscScalar *s, PetscScalar *t, PetscScalar dots[3])
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;
  const PetscInt       n  = A->n;
  EasDiaCtx_Memcheck  *csr;

  PetscFunctionBegin;
  PetscCall(EasMemcheckCheckDia(be, "bcgs_sweep2", A));
  EasMcCheck("bcgs_sweep2", "r", r, n * EAS_SC);
  EasMcCheck("bcgs_sweep2", "v", v, n * EAS_SC);
  EasMcCheck("bcgs_sweep2", "s", s, n * EAS_SC);
  EasMcCheck("bcgs_sweep2", "t", t, n * EAS_SC);
  PetscCall(EasDiaGetCSR_Memcheck(be, A, &csr));
  if (csr) {
    for (PetscInt i = 0; i < n; i++) s[i] = EasBcgsSEntry(r[i], v[i], alpha);
    EasCsrMult_Memcheck(be, n, csr, s, t);
    PetscCall(mc->cpu.dot_local(be, n, t, s, &dots[0]));
    PetscCall(mc->cpu.dot_local(be, n, t, t, &dots[1]));
    PetscCall(mc->cpu.dot_local(be, n, s, s, &dots[2]));
    PetscCall(PetscLogFlops(2.0 * csr->nnz + 2.0 * n));
  } else
    PetscCall(mc->cpu.bcgs_sweep2(be, A, alpha, r, v, s, t, dots));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasBcgsSweep3_Memcheck(EasBackend be, PetscInt n, PetscScalar alpha, PetscScalar omega, PetscScalar *x, const PetscScalar *p, const PetscScalar *s, const PetscScalar *t, const PetscScalar *rhat, PetscScalar *r, PetscScalar dots[2])
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;

  PetscFunctionBegin;
  EasMcCheck("bcgs_sweep3", "x", x, n * EAS_SC);
  EasMcCheck("bcgs_sweep3", "p", p, n * EAS_SC);
  EasMcCheck("bcgs_sweep3", "s", s, n * EAS_SC);
  EasMcCheck("bcgs_sweep3", "t", t, n * EAS_SC);
  EasMcCheck("bcgs_sweep3", "rhat", rhat, n * EAS_SC);
  EasMcCheck("bcgs_sweep3", "r", r, n * EAS_SC);
  PetscCall(mc->cpu.bcgs_sweep3(be, n, alpha, omega, x, p, s, t, rhat, r, dots));
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------ EBE, CG, Jacobi, ADR */

static PetscErrorCode EasEbeApply_Memcheck(EasBackend be, const EasEbeKernel *K, PetscInt e0, PetscInt e1, const PetscScalar *x, PetscScalar *y)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;
  const size_t         n  = (size_t)K->nnodes * K->dof;

  PetscFunctionBegin;
  PetscCall(EasMemcheckCheckEbe(be, "ebe_apply", K, PETSC_TRUE));
  EasMcCheck("ebe_apply", "x", x, n * EAS_SC);
  EasMcCheck("ebe_apply", "y", y, n * EAS_SC);
  PetscCall(mc->cpu.ebe_apply(be, K, e0, e1, x, y));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasEbeDiagonal_Memcheck(EasBackend be, const EasEbeKernel *K, PetscInt e0, PetscInt e1, PetscInt bs, PetscScalar *d)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;

  PetscFunctionBegin;
  PetscCall(EasMemcheckCheckEbe(be, "ebe_diagonal", K, PETSC_FALSE));
  EasMcCheck("ebe_diagonal", "d", d, (size_t)K->nnodes * K->dof * bs * EAS_SC);
  PetscCall(mc->cpu.ebe_diagonal(be, K, e0, e1, bs, d));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasBlockMult_Memcheck(EasBackend be, PetscInt nb, PetscInt bs, const PetscScalar *B, const PetscScalar *x, PetscScalar *y)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;

  PetscFunctionBegin;
  EasMcCheck("block_mult", "B", B, (size_t)nb * bs * bs * EAS_SC);
  EasMcCheck("block_mult", "x", x, (size_t)nb * bs * EAS_SC);
  EasMcCheck("block_mult", "y", y, (size_t)nb * bs * EAS_SC);
  PetscCall(mc->cpu.block_mult(be, nb, bs, B, x, y));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasCgUpdate_Memcheck(EasBackend be, PetscInt n, PetscInt nown, PetscScalar alpha, const PetscScalar *p, const PetscScalar *q, const PetscScalar *dinv, PetscScalar *x, PetscScalar *r, PetscScalar *z, PetscScalar dots[2])
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;

  PetscFunctionBegin;
  PetscCheck(0 <= nown && nown <= n, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "/cpu/memcheck: cg_update: nown %" PetscInt_FMT " outside [0, n = %" PetscInt_FMT "]", nown, n);
  EasMcCheck("cg_update", "p", p, n * EAS_SC);
  EasMcCheck("cg_update", "q", q, n * EAS_SC);
  if (dinv) EasMcCheck("cg_update", "dinv", dinv, n * EAS_SC);
  EasMcCheck("cg_update", "x", x, n * EAS_SC);
  EasMcCheck("cg_update", "r", r, n * EAS_SC);
  EasMcCheck("cg_update", "z", z, n * EAS_SC);
  PetscCall(mc->cpu.cg_update(be, n, nown, alpha, p, q, dinv, x, r, z, dots));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasPipeCgUpdate_Memcheck(EasBackend be, PetscInt n, PetscInt nown, PetscScalar alpha, PetscScalar beta, const PetscScalar *dinv, PetscScalar *z, PetscScalar *q, PetscScalar *s, PetscScalar *p, PetscScalar *x, PetscScalar *r, PetscScalar *u, PetscScalar *w, PetscScalar *m, const PetscScalar *nv, PetscScalar dots[3])
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;

  PetscFunctionBegin;
  PetscCheck(0 <= nown && nown <= n, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "/cpu/memcheck: pipecg_update: nown %" PetscInt_FMT " outside [0, n = %" PetscInt_FMT "]", nown, n);
  if (dinv) EasMcCheck("pipecg_update", "dinv", dinv, n * EAS_SC);
  EasMcCheck("pipecg_update", "z", z, n * EAS_SC);
  EasMcCheck("pipecg_update", "q", q, n * EAS_SC);
  EasMcCheck("pipecg_update", "s", s, n * EAS_SC);
  EasMcCheck("pipecg_update", "p", p, n * EAS_SC);
  EasMcCheck("pipecg_update", "x", x, n * EAS_SC);
  EasMcCheck("pipecg_update", "r", r, n * EAS_SC);
  EasMcCheck("pipecg_update", "u", u, n * EAS_SC);
  EasMcCheck("pipecg_update", "w", w, n * EAS_SC);
  EasMcCheck("pipecg_update", "m", m, n * EAS_SC);
  EasMcCheck("pipecg_update", "nv", nv, n * EAS_SC);
  PetscCall(mc->cpu.pipecg_update(be, n, nown, alpha, beta, dinv, z, q, s, p, x, r, u, w, m, nv, dots));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasDiaJacobi_Memcheck(EasBackend be, const EasDiaKernel *A, PetscInt dmain, PetscScalar *dinv, PetscScalar *bval, PetscInt *zero_row)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;

  PetscFunctionBegin;
  PetscCheck(0 <= dmain && dmain < A->ndiag, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "/cpu/memcheck: dia_jacobi: dmain %" PetscInt_FMT " outside [0, %" PetscInt_FMT ")", dmain, A->ndiag);
  PetscCall(EasMemcheckCheckDia(be, "dia_jacobi", A));
  EasMcCheck("dia_jacobi", "dinv", dinv, A->n * EAS_SC);
  EasMcCheck("dia_jacobi", "bval", bval, (size_t)A->ndiag * A->ld * EAS_SC);
  PetscCall(mc->cpu.dia_jacobi(be, A, dmain, dinv, bval, zero_row));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasAdrFunction_Memcheck(EasBackend be, const EasAdrKParams *P, const PetscScalar *w, const PetscScalar *xg, const PetscScalar *xold, PetscScalar *Rv, PetscScalar *dRv, PetscScalar *F, PetscScalar sums[3])
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;
  const size_t         np = (size_t)P->np;

  PetscFunctionBegin;
  EasMcCheck("adr_function", "w", w, 6 * np * EAS_SC);
  EasMcCheck("adr_function", "xg", xg, 2 * (size_t)(P->nx + 2) * (P->ny + 2) * (P->nz + 2) * EAS_SC);
  EasMcCheck("adr_function", "xold", xold, 2 * np * EAS_SC);
  EasMcCheck("adr_function", "Rv", Rv, 2 * np * EAS_SC);
  EasMcCheck("adr_function", "dRv", dRv, 4 * np * EAS_SC);
  EasMcCheck("adr_function", "F", F, 2 * np * EAS_SC);
  PetscCall(mc->cpu.adr_function(be, P, w, xg, xold, Rv, dRv, F, sums));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasAdrJacobian_Memcheck(EasBackend be, const EasAdrKParams *P, const PetscScalar *w, const PetscScalar *dRv, PetscScalar *V, PetscInt ld)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;
  const size_t         np = (size_t)P->np;

  PetscFunctionBegin;
  EasMcCheck("adr_jacobian", "w", w, 6 * np * EAS_SC);
  EasMcCheck("adr_jacobian", "dRv", dRv, 4 * np * EAS_SC);
  EasMcCheck("adr_jacobian", "V", V, (size_t)(P->ycoupled ? 9 : 7) * ld * EAS_SC);
  PetscCall(mc->cpu.adr_jacobian(be, P, w, dRv, V, ld));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasAdrJacobianJacobi_Memcheck(EasBackend be, const EasAdrKParams *P, const PetscScalar *wl, const PetscScalar *dRv, PetscScalar *dinv, PetscScalar *V, float *Vf, PetscInt ld, PetscInt *zero_row)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;
  const size_t         np = (size_t)P->np;

  PetscFunctionBegin;
  PetscCheck(ld >= 2 * P->np, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "/cpu/memcheck: adr_jacobian_jacobi: ld %" PetscInt_FMT " below the 2 np = %" PetscInt_FMT " rows", ld, 2 * (PetscInt)P->np);
  EasMcCheck("adr_jacobian_jacobi", "wl", wl, 7 * np * EAS_SC);
  EasMcCheck("adr_jacobian_jacobi", "dRv", dRv, 4 * np * EAS_SC);
  EasMcCheck("adr_jacobian_jacobi", "dinv", dinv, 2 * np * EAS_SC);
  EasMcCheck("adr_jacobian_jacobi", "V", V, (size_t)(P->ycoupled ? 9 : 7) * ld * EAS_SC);
  if (Vf) EasMcCheck("adr_jacobian_jacobi", "Vf", Vf, (size_t)(P->ycoupled ? 9 : 7) * ld * sizeof(float));
  PetscCall(mc->cpu.adr_jacobian_jacobi(be, P, wl, dRv, dinv, V, Vf, ld, zero_row));
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------ the asynchronous unit (worker thread) */

/* The unit's work, as a device stream would do it: x up, y = 0, the element
   bodies of [e0,e1) colour by colour, y down.  Plain C on the worker (no
   PETSc calls: PETSc is not thread-safe). */
static void EasMemcheckRunJob(EasBackend_Memcheck *mc)
{
  const EasMemcheckJob *j = &mc->job;
  const EasEbeKernel   *K = &j->K;

  mc->t0 = EasMemcheckClock();
  memcpy(j->x_dev, j->x_host, (size_t)j->n * sizeof(PetscScalar));
  for (PetscInt i = 0; i < j->n; i++) j->y_dev[i] = 0.0;
  for (PetscInt c = 0; c < K->ncolors; c++) {
    PetscInt k0, k1;
    EasEbeColorSlice(K, c, j->e0, j->e1, &k0, &k1);
    for (PetscInt k = k0; k < k1; k++) EasEbeElementApplyStored(K, k, k1, j->x_dev, j->y_dev); /* the storage's body (-ebe_storage) */
  }
  memcpy(j->y_host, j->y_dev, (size_t)j->n * sizeof(PetscScalar));
  mc->t1 = EasMemcheckClock();
}

static void *EasMemcheckWorker(void *arg)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)arg;

  pthread_mutex_lock(&mc->mutex);
  for (;;) {
    while (!mc->job_queued && !mc->quit) pthread_cond_wait(&mc->cond, &mc->mutex);
    if (mc->quit) break;
    pthread_mutex_unlock(&mc->mutex);
    EasMemcheckRunJob(mc);
    pthread_mutex_lock(&mc->mutex);
    mc->job_queued = 0;
    mc->job_done   = 1;
    pthread_cond_broadcast(&mc->cond);
  }
  pthread_mutex_unlock(&mc->mutex);
  return NULL;
}

static PetscErrorCode EasEbeUnitBegin_Memcheck(EasBackend be, const EasEbeKernel *K, PetscInt e0, PetscInt e1, PetscInt n, const PetscScalar *x_host, PetscScalar *x_dev, PetscScalar *y_dev, PetscScalar *y_host)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;

  PetscFunctionBegin;
  /* every check on this thread, before the worker touches anything */
  PetscCall(EasMemcheckCheckEbe(be, "ebe_unit_begin", K, PETSC_TRUE));
  EasMcCheck("ebe_unit_begin", "x_dev", x_dev, n * EAS_SC);
  EasMcCheck("ebe_unit_begin", "y_dev", y_dev, n * EAS_SC);
  EasMcCheckHost("ebe_unit_begin", "x_host", x_host, n * EAS_SC);
  EasMcCheckHost("ebe_unit_begin", "y_host", y_host, n * EAS_SC);
  PetscCall(EasUnitBegin_Shared(be, &mc->unit, &mc->staging, K, e0, e1, n, x_host, y_host));
  if (!mc->thread_started) {
    PetscCheck(!pthread_create(&mc->thread, NULL, EasMemcheckWorker, mc), PETSC_COMM_SELF, PETSC_ERR_SYS, "/cpu/memcheck: pthread_create failed for the unit's worker thread");
    mc->thread_started = PETSC_TRUE;
  }
  pthread_mutex_lock(&mc->mutex);
  mc->job.K      = *K;
  mc->job.e0     = e0;
  mc->job.e1     = e1;
  mc->job.n      = n;
  mc->job.x_host = x_host;
  mc->job.x_dev  = x_dev;
  mc->job.y_dev  = y_dev;
  mc->job.y_host = y_host;
  mc->job_done   = 0;
  mc->job_queued = 1;
  pthread_cond_broadcast(&mc->cond);
  pthread_mutex_unlock(&mc->mutex);
  mc->ncopies_htod++;
  mc->ncopies_dtoh++;
  mc->raw_htod += (PetscLogDouble)n * EAS_SC;
  mc->raw_dtoh += (PetscLogDouble)n * EAS_SC;
  PetscFunctionReturn(0);
}

/* Waits for the worker (if a unit is queued). */
static void EasMemcheckWait(EasBackend_Memcheck *mc)
{
  if (!mc->thread_started) return;
  pthread_mutex_lock(&mc->mutex);
  while (mc->job_queued) pthread_cond_wait(&mc->cond, &mc->mutex);
  pthread_mutex_unlock(&mc->mutex);
}

static PetscErrorCode EasEbeUnitEnd_Memcheck(EasBackend be, PetscLogDouble *seconds)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;

  PetscFunctionBegin;
  *seconds = 0.0;
  PetscCall(EasUnitEnd_Shared(be, &mc->unit));
  EasMemcheckWait(mc);
  mc->have_interval = PETSC_TRUE;
  *seconds          = mc->t1 - mc->t0;
  PetscFunctionReturn(0);
}

PetscErrorCode EasMemcheckGetUnitInterval(EasBackend be, double *t0, double *t1)
{
  EasBackend_Memcheck *mc;
  PetscBool            match;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(be, EAS_BACKEND_CLASSID, 1);
  PetscCall(PetscStrcmp(be->resource, "/cpu/memcheck", &match));
  PetscCheck(match, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "EasMemcheckGetUnitInterval: backend %s is not /cpu/memcheck", be->resource);
  mc = (EasBackend_Memcheck *)be->data;
  PetscCheck(mc->have_interval, PETSC_COMM_SELF, PETSC_ERR_ORDER, "EasMemcheckGetUnitInterval: no asynchronous unit has finished yet");
  *t0 = mc->t0;
  *t1 = mc->t1;
  PetscFunctionReturn(0);
}

PetscErrorCode EasMemcheckGetCounts(EasBackend be, PetscInt *nchecked, PetscInt *npoisoned, PetscInt *ncopies_htod, PetscInt *ncopies_dtoh)
{
  EasBackend_Memcheck *mc;
  PetscBool            match;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(be, EAS_BACKEND_CLASSID, 1);
  PetscCall(PetscStrcmp(be->resource, "/cpu/memcheck", &match));
  PetscCheck(match, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "EasMemcheckGetCounts: backend %s is not /cpu/memcheck", be->resource);
  mc = (EasBackend_Memcheck *)be->data;
  if (nchecked) *nchecked = mc->nchecked;
  if (npoisoned) *npoisoned = mc->npoisoned;
  if (ncopies_htod) *ncopies_htod = mc->ncopies_htod;
  if (ncopies_dtoh) *ncopies_dtoh = mc->ncopies_dtoh;
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------ options and lifecycle */

static PetscErrorCode EasBackendSetFromOptions_Memcheck(EasBackend be, PetscOptionItems *PetscOptionsObject)
{
  EasBackend_Memcheck *mc  = (EasBackend_Memcheck *)be->data;
  PetscInt             idx = (PetscInt)mc->mode;
  PetscBool            set = PETSC_FALSE;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "EasBackend /cpu/memcheck options");
  PetscCall(PetscOptionsEList("-eas_memcheck_spmv", "DIA products of /cpu/memcheck: native (DIA kernels) or csr (a private CSR copy built at dia_setup, the path of -eas_cuda_spmv cusparse)", "EasBackendSetFromOptions", EasMemcheckSpMVModes, 2, EasMemcheckSpMVModes[mc->mode], &idx, &set));
  if (set) mc->mode = (EasMemcheckSpMVMode)idx;
  PetscOptionsHeadEnd();
  PetscFunctionReturn(0);
}

static PetscErrorCode EasBackendSynchronize_Memcheck(EasBackend be)
{
  PetscFunctionBegin;
  EasMemcheckWait((EasBackend_Memcheck *)be->data);
  PetscFunctionReturn(0);
}

static PetscErrorCode EasBackendView_Memcheck(EasBackend be, PetscViewer viewer)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;
  PetscBool            iascii;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  if (!iascii) PetscFunctionReturn(0);
  PetscCall(PetscViewerASCIIPrintf(viewer, "memcheck: %" PetscInt_FMT " live backend allocations, %" PetscInt_FMT " staging buffers; %" PetscInt_FMT " pointer arguments checked, %" PetscInt_FMT " stale copies poisoned (NaN)\n", mc->dev.n, mc->staging.n, mc->nchecked, mc->npoisoned));
  PetscCall(PetscViewerASCIIPrintf(viewer, "memcheck: backend copies host->device %" PetscInt_FMT " (%.0f bytes), device->host %" PetscInt_FMT " (%.0f bytes); DIA products: %s; OpenMP threads %" PetscInt_FMT "\n", mc->ncopies_htod, (double)mc->raw_htod, mc->ncopies_dtoh, (double)mc->raw_dtoh, EasMemcheckSpMVModes[mc->mode], be->threads));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasBackendDestroy_Memcheck(EasBackend be)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;
  PetscLogDouble       raw_htod, raw_dtoh;

  PetscFunctionBegin;
  if (!mc) PetscFunctionReturn(0);
  if (mc->thread_started) {
    pthread_mutex_lock(&mc->mutex);
    while (mc->job_queued) pthread_cond_wait(&mc->cond, &mc->mutex);
    mc->quit = 1;
    pthread_cond_broadcast(&mc->cond);
    pthread_mutex_unlock(&mc->mutex);
    pthread_join(mc->thread, NULL);
  }
  pthread_cond_destroy(&mc->cond);
  pthread_mutex_destroy(&mc->mutex);
  if (mc->dev.n || mc->staging.n) PetscCall(PetscInfo(be, "/cpu/memcheck destroyed with %" PetscInt_FMT " backend allocations and %" PetscInt_FMT " staging buffers still live\n", mc->dev.n, mc->staging.n));
  PetscCall(EasMemRegistryDestroy(&mc->dev));
  PetscCall(EasMemRegistryDestroy(&mc->staging));
  raw_htod = mc->raw_htod;
  raw_dtoh = mc->raw_dtoh;
  PetscCall(PetscFree(be->data));
  /* every copy was booked (EasBackendCopyHtoD/DtoH; the unit's in EasUnitBegin_Shared) */
  PetscCheck(raw_htod == be->bytes_htod && raw_dtoh == be->bytes_dtoh, PETSC_COMM_SELF, PETSC_ERR_PLIB, "/cpu/memcheck: %.0f bytes were copied host->device and %.0f device->host, but %.0f and %.0f were booked (bytes_htod, bytes_dtoh): a copy bypassed EasBackendCopyHtoD/DtoH", (double)raw_htod, (double)raw_dtoh, (double)be->bytes_htod, (double)be->bytes_dtoh);
  PetscFunctionReturn(0);
}

/* "/cpu/memcheck": the CPU backend's ops behind memory checks. */
PetscErrorCode EasBackendInit_Memcheck(EasBackend be)
{
  EasBackend_Memcheck *mc;

  PetscFunctionBegin;
  PetscCall(EasBackendInit_CPU(be)); /* the CPU ops and thread count */
  PetscCall(PetscNew(&mc));
  mc->cpu  = *be->ops;
  mc->mode = EAS_MEMCHECK_SPMV_NATIVE;
  pthread_mutex_init(&mc->mutex, NULL);
  pthread_cond_init(&mc->cond, NULL);
  be->data                     = mc;
  be->host_is_device           = PETSC_FALSE;
  be->ops->malloc              = EasMalloc_Memcheck;
  be->ops->free                = EasFree_Memcheck;
  be->ops->copy_htod           = EasCopyHtoD_Memcheck;
  be->ops->copy_dtoh           = EasCopyDtoH_Memcheck;
  be->ops->set                 = EasVecSet_Memcheck;
  be->ops->copy                = EasVecCopy_Memcheck;
  be->ops->axpby               = EasVecAXPBY_Memcheck;
  be->ops->pointwise_mult      = EasVecPointwiseMult_Memcheck;
  be->ops->dot_local           = EasVecDot_Memcheck;
  be->ops->dia_setup           = EasDiaSetUp_Memcheck;
  be->ops->dia_destroy         = EasDiaDestroy_Memcheck;
  be->ops->dia_mult            = EasDiaMult_Memcheck;
  be->ops->dia_single          = EasDiaSingle_Memcheck;
  be->ops->dia_mult_transpose  = EasDiaMultTranspose_Memcheck;
  be->ops->bcgs_sweep1         = EasBcgsSweep1_Memcheck;
  be->ops->bcgs_sweep2         = EasBcgsSweep2_Memcheck;
  be->ops->bcgs_sweep3         = EasBcgsSweep3_Memcheck;
  be->ops->set_from_options    = EasBackendSetFromOptions_Memcheck;
  be->ops->view                = EasBackendView_Memcheck;
  be->ops->synchronize         = EasBackendSynchronize_Memcheck;
  be->ops->destroy             = EasBackendDestroy_Memcheck;
  be->ops->ebe_apply           = EasEbeApply_Memcheck;
  be->ops->ebe_diagonal        = EasEbeDiagonal_Memcheck;
  be->ops->block_mult          = EasBlockMult_Memcheck;
  be->ops->cg_update           = EasCgUpdate_Memcheck;
  be->ops->pipecg_update       = EasPipeCgUpdate_Memcheck;
  be->ops->ebe_unit_begin      = EasEbeUnitBegin_Memcheck;
  be->ops->ebe_unit_end        = EasEbeUnitEnd_Memcheck;
  be->ops->dia_jacobi          = EasDiaJacobi_Memcheck;
  be->ops->adr_function        = EasAdrFunction_Memcheck;
  be->ops->adr_jacobian        = EasAdrJacobian_Memcheck;
  be->ops->adr_jacobian_jacobi = EasAdrJacobianJacobi_Memcheck;
  be->ops->host_alloc          = EasHostAlloc_Memcheck;
  be->ops->host_free           = EasHostFree_Memcheck;
  be->ops->mark_stale          = EasMarkStale_Memcheck;
  PetscFunctionReturn(0);
}
