/*
  CUDA backend: DIA matrices (SpMV, the transpose product, the float copy,
  right Jacobi) and the fused BiCGStab sweeps.

  - DIA SpMV: "native" (one thread per row, row-aligned coalesced layout,
    guarded rows outside [lo,hi)) or "cusparse" (a CSR copy and the generic
    cusparseSpMV), chosen by -eas_cuda_spmv.  Single-precision values
    (EasDiaSetPrecision: valf, made by a device kernel) are read by the
    native kernels through the float bodies; the CSR copy holds double
    values and refuses them.
*/
#include "cudaimpl.h"

/* Dynamic shared memory for the DIA offsets (0: the kernel reads them from global memory). */
static inline size_t EasCudaOffsetSmem(PetscInt ndiag)
{
  return (ndiag > 0 && ndiag <= EAS_CUDA_MAX_SMEM_OFF) ? (size_t)ndiag * sizeof(EasKInt) : 0;
}

/* ------------------------------------------------------------------ device code */

/* Stages the ndiag offsets in shared memory when staged (block-uniform), and
   returns the pointer the row bodies read. */
__device__ __forceinline__ const EasKInt *EasLoadOffsets(EasKInt nd, const EasKInt *off, bool staged)
{
  extern __shared__ EasKInt eas_soff[];
  if (!staged) return off;
  for (EasKInt d = (EasKInt)threadIdx.x; d < nd; d += (EasKInt)blockDim.x) eas_soff[d] = off[d];
  __syncthreads();
  return eas_soff;
}

/* The shared row bodies of each value precision (kernels.h
   EAS_DIA_ROW_BODIES, EAS_BCGS_SWEEP_BODIES) by overload on the value type,
   so that one kernel template serves double val and the float copy valf
   (EasDiaSetPrecision). */
__device__ __forceinline__ EasKScalar EasDiaRowGuardedT(EasKInt i, EasKInt n, EasKInt nd, const EasKInt *off, const EasKScalar *val, EasKInt ld, const EasKScalar *x)
{
  return EasDiaRowGuarded(i, n, nd, off, val, ld, x);
}
__device__ __forceinline__ EasKScalar EasDiaRowGuardedT(EasKInt i, EasKInt n, EasKInt nd, const EasKInt *off, const float *val, EasKInt ld, const EasKScalar *x)
{
  return EasDiaRowGuarded_F(i, n, nd, off, val, ld, x);
}
__device__ __forceinline__ EasKScalar EasDiaRowInteriorT(EasKInt i, EasKInt nd, const EasKInt *off, const EasKScalar *val, EasKInt ld, const EasKScalar *x)
{
  return EasDiaRowInterior(i, nd, off, val, ld, x);
}
__device__ __forceinline__ EasKScalar EasDiaRowInteriorT(EasKInt i, EasKInt nd, const EasKInt *off, const float *val, EasKInt ld, const EasKScalar *x)
{
  return EasDiaRowInterior_F(i, nd, off, val, ld, x);
}
__device__ __forceinline__ EasKScalar EasDiaRowTransposeT(EasKInt i, EasKInt n, EasKInt nd, const EasKInt *off, const EasKScalar *val, EasKInt ld, const EasKScalar *x)
{
  return EasDiaRowTranspose(i, n, nd, off, val, ld, x);
}
__device__ __forceinline__ EasKScalar EasDiaRowTransposeT(EasKInt i, EasKInt n, EasKInt nd, const EasKInt *off, const float *val, EasKInt ld, const EasKScalar *x)
{
  return EasDiaRowTranspose_F(i, n, nd, off, val, ld, x);
}
__device__ __forceinline__ EasKScalar EasBcgsSweep1RowT(EasKInt i, EasKInt n, EasKInt nd, const EasKInt *off, const EasKScalar *val, EasKInt ld, EasKScalar beta, EasKScalar omega, const EasKScalar *r, const EasKScalar *p_old, const EasKScalar *v_old, EasKScalar *p_i)
{
  return EasBcgsSweep1Row(i, n, nd, off, val, ld, beta, omega, r, p_old, v_old, p_i);
}
__device__ __forceinline__ EasKScalar EasBcgsSweep1RowT(EasKInt i, EasKInt n, EasKInt nd, const EasKInt *off, const float *val, EasKInt ld, EasKScalar beta, EasKScalar omega, const EasKScalar *r, const EasKScalar *p_old, const EasKScalar *v_old, EasKScalar *p_i)
{
  return EasBcgsSweep1Row_F(i, n, nd, off, val, ld, beta, omega, r, p_old, v_old, p_i);
}
__device__ __forceinline__ EasKScalar EasBcgsSweep2RowT(EasKInt i, EasKInt n, EasKInt nd, const EasKInt *off, const EasKScalar *val, EasKInt ld, EasKScalar alpha, const EasKScalar *r, const EasKScalar *v, EasKScalar *s_i)
{
  return EasBcgsSweep2Row(i, n, nd, off, val, ld, alpha, r, v, s_i);
}
__device__ __forceinline__ EasKScalar EasBcgsSweep2RowT(EasKInt i, EasKInt n, EasKInt nd, const EasKInt *off, const float *val, EasKInt ld, EasKScalar alpha, const EasKScalar *r, const EasKScalar *v, EasKScalar *s_i)
{
  return EasBcgsSweep2Row_F(i, n, nd, off, val, ld, alpha, r, v, s_i);
}

/* y = A x, one thread per row: thread i reads val[d*ld+i] and x[i+off[d]]
   (VT: double val or the float copy valf). */
template <typename VT>
__global__ void __launch_bounds__(EAS_CUDA_BLOCK) EasDiaMultKernel(EasKInt n, EasKInt nd, EasKInt ld, EasKInt lo, EasKInt hi, const EasKInt *__restrict__ off_g, bool staged, const VT *__restrict__ val, const EasKScalar *__restrict__ x, EasKScalar *__restrict__ y)
{
  const EasKInt *off = EasLoadOffsets(nd, off_g, staged);
  EAS_GRID_STRIDE(k, n)
  {
    const EasKInt i = (EasKInt)k;
    y[i]            = (i >= lo && i < hi) ? EasDiaRowInteriorT(i, nd, off, val, ld, x) : EasDiaRowGuardedT(i, n, nd, off, val, ld, x);
  }
}

/* y = A^T x by index arithmetic. */
template <typename VT>
__global__ void __launch_bounds__(EAS_CUDA_BLOCK) EasDiaMultTransposeKernel(EasKInt n, EasKInt nd, EasKInt ld, const EasKInt *__restrict__ off_g, bool staged, const VT *__restrict__ val, const EasKScalar *__restrict__ x, EasKScalar *__restrict__ y)
{
  const EasKInt *off = EasLoadOffsets(nd, off_g, staged);
  EAS_GRID_STRIDE(k, n)
  {
    const EasKInt i = (EasKInt)k;
    y[i]            = EasDiaRowTransposeT(i, n, nd, off, val, ld, x);
  }
}

/* valf[k] = (float) val[k] over the len = ndiag*ld stored values (EasDiaSetPrecision);
   a 64-bit grid-stride loop: len is a product of sizes (EasKIdx). */
__global__ void __launch_bounds__(EAS_CUDA_BLOCK) EasDiaSingleKernel(EasKIdx len, const EasKScalar *__restrict__ val, float *__restrict__ valf)
{
  for (EasKIdx k = (EasKIdx)blockIdx.x * blockDim.x + threadIdx.x; k < len; k += (EasKIdx)blockDim.x * gridDim.x) valf[k] = EasDiaSingleEntry(val[k]);
}

/* Sweep 1: p_new = r + beta (p_old - omega v_old); v_new = A p_new; partials (rhat, v_new), (v_new, v_new). */
template <typename VT>
__global__ void __launch_bounds__(EAS_CUDA_BLOCK) EasBcgsSweep1Kernel(EasKInt n, EasKInt nd, EasKInt ld, const EasKInt *__restrict__ off_g, bool staged, const VT *__restrict__ val, EasKScalar beta, EasKScalar omega, const EasKScalar *r, const EasKScalar *p_old, const EasKScalar *v_old, const EasKScalar *rhat, EasKScalar *p_new, EasKScalar *v_new, EasKScalar *partials)
{
  const EasKInt *off    = EasLoadOffsets(nd, off_g, staged);
  EasKScalar     acc[2] = {0.0, 0.0};
  EAS_GRID_STRIDE(k, n)
  {
    const EasKInt    i = (EasKInt)k;
    EasKScalar       pi;
    const EasKScalar vi = EasBcgsSweep1RowT(i, n, nd, off, val, ld, beta, omega, r, p_old, v_old, &pi);
    p_new[i]            = pi;
    v_new[i]            = vi;
    acc[0] += rhat[i] * vi;
    acc[1] += vi * vi;
  }
  EasBlockReduce<2>(acc, partials);
}

/* Sweep 2: s = r - alpha v; t = A s; partials (t, s), (t, t), (s, s). */
template <typename VT>
__global__ void __launch_bounds__(EAS_CUDA_BLOCK) EasBcgsSweep2Kernel(EasKInt n, EasKInt nd, EasKInt ld, const EasKInt *__restrict__ off_g, bool staged, const VT *__restrict__ val, EasKScalar alpha, const EasKScalar *r, const EasKScalar *v, EasKScalar *s, EasKScalar *t, EasKScalar *partials)
{
  const EasKInt *off    = EasLoadOffsets(nd, off_g, staged);
  EasKScalar     acc[3] = {0.0, 0.0, 0.0};
  EAS_GRID_STRIDE(k, n)
  {
    const EasKInt    i = (EasKInt)k;
    EasKScalar       si;
    const EasKScalar ti = EasBcgsSweep2RowT(i, n, nd, off, val, ld, alpha, r, v, &si);
    s[i]                = si;
    t[i]                = ti;
    acc[0] += ti * si;
    acc[1] += ti * ti;
    acc[2] += si * si;
  }
  EasBlockReduce<3>(acc, partials);
}

/* Sweep 3: x += alpha p + omega s; r = s - omega t; partials (rhat, r), (r, r). */
__global__ void __launch_bounds__(EAS_CUDA_BLOCK) EasBcgsSweep3Kernel(EasKInt n, EasKScalar alpha, EasKScalar omega, EasKScalar *x, const EasKScalar *p, const EasKScalar *s, const EasKScalar *t, const EasKScalar *rhat, EasKScalar *r, EasKScalar *partials)
{
  EasKScalar acc[2] = {0.0, 0.0};
  EAS_GRID_STRIDE(k, n)
  {
    const EasKInt    i  = (EasKInt)k;
    const EasKScalar ri = EasBcgsSweep3Entry(i, alpha, omega, x, p, s, t);
    r[i]                = ri;
    acc[0] += rhat[i] * ri;
    acc[1] += ri * ri;
  }
  EasBlockReduce<2>(acc, partials);
}

/* cusparse mode, sweep 1 update: p_new = r + beta (p_old - omega v_old). */
__global__ void __launch_bounds__(EAS_CUDA_BLOCK) EasBcgsDirectionKernel(EasKInt n, EasKScalar beta, EasKScalar omega, const EasKScalar *r, const EasKScalar *p_old, const EasKScalar *v_old, EasKScalar *p_new)
{
  EAS_GRID_STRIDE(i, n)
  p_new[i] = EasBcgsDirection(r[i], p_old[i], v_old[i], beta, omega);
}

/* cusparse mode, sweep 2 update: s = r - alpha v (the body the native sweep uses). */
__global__ void __launch_bounds__(EAS_CUDA_BLOCK) EasBcgsSUpdateKernel(EasKInt n, EasKScalar alpha, const EasKScalar *r, const EasKScalar *v, EasKScalar *s)
{
  EAS_GRID_STRIDE(i, n)
  s[i] = EasBcgsSEntry(r[i], v[i], alpha);
}

/* ------------------------------------------------------------------ DIA: cuSPARSE CSR copy */

static PetscErrorCode EasDiaCtxFree_CUDA(EasDiaCtx_CUDA *ctx)
{
  PetscFunctionBegin;
  if (ctx->vx) EasCallCUSPARSE(cusparseDestroyDnVec(ctx->vx));
  if (ctx->vy) EasCallCUSPARSE(cusparseDestroyDnVec(ctx->vy));
  if (ctx->mat) EasCallCUSPARSE(cusparseDestroySpMat(ctx->mat));
  if (ctx->buf) EasCallCUDA(cudaFree(ctx->buf));
  if (ctx->buf_t) EasCallCUDA(cudaFree(ctx->buf_t));
  if (ctx->rowptr) EasCallCUDA(cudaFree(ctx->rowptr));
  if (ctx->colind) EasCallCUDA(cudaFree(ctx->colind));
  if (ctx->vals) EasCallCUDA(cudaFree(ctx->vals));
  PetscCall(PetscMemzero(ctx, sizeof(*ctx)));
  PetscFunctionReturn(0);
}

/* Temporaries of the CSR build, freed by EasDiaBuildCSR_CUDA whether the
   build succeeds or fails (an error inside must not leak them). */
typedef struct {
  PetscInt    *rowptr, *colind;
  PetscScalar *vals;
  EasKScalar  *scratch; /* device */
} EasCSRBuild_CUDA;

/* The work of EasDiaBuildCSR_CUDA: the CSR copy of A built on the host
   (devcommon.c, shared with /cpu/memcheck's csr mode: from the host values
   when current, else from the device's), uploaded, and cusparseSpMV prepared
   for A x and A^T x.  Every allocation goes into t (host) or ctx (device,
   freed by EasDiaCtxFree_CUDA at the next build or dia_destroy). */
static PetscErrorCode EasDiaBuildCSR_Private(EasBackend be, const EasDiaKernel *A, EasDiaCtx_CUDA *ctx, EasCSRBuild_CUDA *t)
{
  EasBackend_CUDA *cu = (EasBackend_CUDA *)be->data;
  const PetscInt   n = A->n, nd = A->ndiag;
  PetscInt         nnz;
  const double     one = 1.0, zero = 0.0;

  PetscFunctionBegin;
  PetscCall(EasDiaBuildCSRHost(be, A, &nnz, &t->rowptr, &t->colind, &t->vals));
  /* upload */
  ctx->nnz = nnz;
  EasCallCUDA(cudaMalloc((void **)&ctx->rowptr, (size_t)(n + 1) * sizeof(int)));
  EasCallCUDA(cudaMalloc((void **)&ctx->colind, (size_t)(nnz > 0 ? nnz : 1) * sizeof(int)));
  EasCallCUDA(cudaMalloc((void **)&ctx->vals, (size_t)(nnz > 0 ? nnz : 1) * sizeof(EasKScalar)));
  PetscCall(EasCopyHtoD_CUDA(be, ctx->rowptr, t->rowptr, (size_t)(n + 1) * sizeof(int)));
  PetscCall(EasCopyHtoD_CUDA(be, ctx->colind, t->colind, (size_t)nnz * sizeof(int)));
  PetscCall(EasCopyHtoD_CUDA(be, ctx->vals, t->vals, (size_t)nnz * sizeof(EasKScalar)));
  /* descriptors and work buffers (the vectors' values are set at each product;
     a scratch vector stands in for them while sizing the buffers) */
  EasCallCUSPARSE(cusparseCreateCsr(&ctx->mat, n, n, nnz, ctx->rowptr, ctx->colind, ctx->vals, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
  EasCallCUDA(cudaMalloc((void **)&t->scratch, (size_t)(n > 0 ? n : 1) * sizeof(EasKScalar)));
  EasCallCUSPARSE(cusparseCreateDnVec(&ctx->vx, n, t->scratch, CUDA_R_64F));
  EasCallCUSPARSE(cusparseCreateDnVec(&ctx->vy, n, t->scratch, CUDA_R_64F));
  EasCallCUSPARSE(cusparseSpMV_bufferSize(cu->sparse, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, ctx->mat, ctx->vx, &zero, ctx->vy, CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT, &ctx->bufsize));
  EasCallCUSPARSE(cusparseSpMV_bufferSize(cu->sparse, CUSPARSE_OPERATION_TRANSPOSE, &one, ctx->mat, ctx->vx, &zero, ctx->vy, CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT, &ctx->bufsize_t));
  if (ctx->bufsize) EasCallCUDA(cudaMalloc(&ctx->buf, ctx->bufsize));
  if (ctx->bufsize_t) EasCallCUDA(cudaMalloc(&ctx->buf_t, ctx->bufsize_t));
  EasCallCUDA(cudaStreamSynchronize(cu->stream));
  ctx->built = PETSC_TRUE;
  PetscCall(PetscInfo(be, "CSR copy for cuSPARSE: n %" PetscInt_FMT ", %" PetscInt_FMT " offsets, nnz %" PetscInt_FMT ", buffers %zu + %zu bytes\n", n, nd, ctx->nnz, ctx->bufsize, ctx->bufsize_t));
  PetscFunctionReturn(0);
}

/* Builds the CSR copy of A on the host from the current DIA values (columns
   outside [0,n) skipped, exact zeros dropped, columns ascending), uploads it
   and prepares cusparseSpMV for A x and A^T x.  The temporaries are freed on
   every path; on an error, the partial device data stays in ctx (not built)
   and is freed by the next build or dia_destroy. */
static PetscErrorCode EasDiaBuildCSR_CUDA(EasBackend be, const EasDiaKernel *A, EasDiaCtx_CUDA *ctx)
{
  EasCSRBuild_CUDA t = {NULL, NULL, NULL, NULL};
  PetscErrorCode   ierr;
  cudaError_t      cerr = cudaSuccess;

  PetscFunctionBegin;
  PetscCall(EasDiaCtxFree_CUDA(ctx));
  ierr = EasDiaBuildCSR_Private(be, A, ctx, &t);
  if (t.scratch) cerr = cudaFree(t.scratch);
  PetscCall(PetscFree(t.rowptr));
  PetscCall(PetscFree(t.colind));
  PetscCall(PetscFree(t.vals));
  PetscCall(ierr);
  EasCallCUDA(cerr);
  PetscFunctionReturn(0);
}

/* The CSR copy to use for a cusparse-mode product (built now if the mode
   was switched after dia_setup), or NULL for the native kernels. */
static PetscErrorCode EasDiaGetCSR_CUDA(EasBackend be, const EasDiaKernel *A, EasDiaCtx_CUDA **csr)
{
  EasBackend_CUDA *cu  = (EasBackend_CUDA *)be->data;
  EasDiaCtx_CUDA  *ctx = (EasDiaCtx_CUDA *)A->ctx;

  PetscFunctionBegin;
  *csr = NULL;
  if (cu->mode != EAS_CUDA_SPMV_CUSPARSE || A->n <= 0) PetscFunctionReturn(0);
  if (!ctx) {
    PetscCall(PetscInfo(be, "matrix not set up by dia_setup: native SpMV used\n"));
    PetscFunctionReturn(0);
  }
  /* the CSR copy holds double values (decided: cusparseSpMV would need a
     float matrix with double vectors; the native kernels read valf) */
  PetscCheck(!A->valf, PETSC_COMM_SELF, PETSC_ERR_SUP, "Single-precision DIA values (-adr_jacobian_precision single, EasDiaSetPrecision) are read by the native DIA kernels only, not by the CSR copy of -eas_cuda_spmv cusparse: use -eas_cuda_spmv native, or -adr_jacobian_precision double");
  if (!ctx->built) PetscCall(EasDiaBuildCSR_CUDA(be, A, ctx));
  *csr = ctx;
  PetscFunctionReturn(0);
}

/* y = op(A) x with cuSPARSE (queued on the backend's stream). */
static PetscErrorCode EasCusparseMult_CUDA(EasBackend_CUDA *cu, EasDiaCtx_CUDA *csr, cusparseOperation_t op, const PetscScalar *x, PetscScalar *y)
{
  const double one = 1.0, zero = 0.0;

  PetscFunctionBegin;
  EasCallCUSPARSE(cusparseDnVecSetValues(csr->vx, (void *)x));
  EasCallCUSPARSE(cusparseDnVecSetValues(csr->vy, (void *)y));
  EasCallCUSPARSE(cusparseSpMV(cu->sparse, op, &one, csr->mat, csr->vx, &zero, csr->vy, CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT, op == CUSPARSE_OPERATION_NON_TRANSPOSE ? csr->buf : csr->buf_t));
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------ DIA ops */

PetscErrorCode EasDiaSetUp_CUDA(EasBackend be, EasDiaKernel *A)
{
  EasBackend_CUDA *cu = (EasBackend_CUDA *)be->data;
  EasDiaCtx_CUDA  *ctx;

  PetscFunctionBegin;
  if (A->ctx) { /* set up again (new values): rebuild */
    PetscCall(EasDiaCtxFree_CUDA((EasDiaCtx_CUDA *)A->ctx));
    ctx = (EasDiaCtx_CUDA *)A->ctx;
  } else {
    PetscCall(PetscNew(&ctx));
    A->ctx = ctx;
  }
  if (cu->mode == EAS_CUDA_SPMV_CUSPARSE && A->n > 0) PetscCall(EasDiaBuildCSR_CUDA(be, A, ctx));
  PetscFunctionReturn(0);
}

PetscErrorCode EasDiaDestroy_CUDA(EasBackend be, EasDiaKernel *A)
{
  PetscFunctionBegin;
  (void)be;
  if (A->ctx) {
    PetscCall(EasDiaCtxFree_CUDA((EasDiaCtx_CUDA *)A->ctx));
    PetscCall(PetscFree(A->ctx));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode EasDiaMult_CUDA(EasBackend be, const EasDiaKernel *A, const PetscScalar *x, PetscScalar *y)
{
  EasBackend_CUDA *cu = (EasBackend_CUDA *)be->data;
  EasDiaCtx_CUDA  *csr;
  const PetscInt   n = A->n, nd = A->ndiag;

  PetscFunctionBegin;
  if (n <= 0) PetscFunctionReturn(0);
  PetscCall(EasDiaGetCSR_CUDA(be, A, &csr));
  PetscCall(EasCudaTimerBegin(cu));
  if (csr)
    PetscCall(EasCusparseMult_CUDA(cu, csr, CUSPARSE_OPERATION_NON_TRANSPOSE, x, y));
  else {
    const size_t smem = EasCudaOffsetSmem(nd);
    if (A->valf) /* single precision (EasDiaSetPrecision): the float bodies */
      EasDiaMultKernel<float><<<EasCudaBlocks(n, EAS_CUDA_MAX_BLOCKS), EAS_CUDA_BLOCK, smem, cu->stream>>>(n, nd, A->ld, A->lo, A->hi, A->off, smem > 0, A->valf, x, y);
    else
      EasDiaMultKernel<EasKScalar><<<EasCudaBlocks(n, EAS_CUDA_MAX_BLOCKS), EAS_CUDA_BLOCK, smem, cu->stream>>>(n, nd, A->ld, A->lo, A->hi, A->off, smem > 0, A->val, x, y);
    EasCheckLaunchCUDA();
  }
  PetscCall(EasCudaTimerEnd(cu, EAS_CUDA_KIND_SPMV));
  PetscCall(EasLogGpuFlops(2.0 * nd * n));
  PetscFunctionReturn(0);
}

PetscErrorCode EasDiaMultTranspose_CUDA(EasBackend be, const EasDiaKernel *A, const PetscScalar *x, PetscScalar *y)
{
  EasBackend_CUDA *cu = (EasBackend_CUDA *)be->data;
  EasDiaCtx_CUDA  *csr;
  const PetscInt   n = A->n, nd = A->ndiag;

  PetscFunctionBegin;
  if (n <= 0) PetscFunctionReturn(0);
  PetscCall(EasDiaGetCSR_CUDA(be, A, &csr));
  PetscCall(EasCudaTimerBegin(cu));
  if (csr)
    PetscCall(EasCusparseMult_CUDA(cu, csr, CUSPARSE_OPERATION_TRANSPOSE, x, y));
  else {
    const size_t smem = EasCudaOffsetSmem(nd);
    if (A->valf)
      EasDiaMultTransposeKernel<float><<<EasCudaBlocks(n, EAS_CUDA_MAX_BLOCKS), EAS_CUDA_BLOCK, smem, cu->stream>>>(n, nd, A->ld, A->off, smem > 0, A->valf, x, y);
    else
      EasDiaMultTransposeKernel<EasKScalar><<<EasCudaBlocks(n, EAS_CUDA_MAX_BLOCKS), EAS_CUDA_BLOCK, smem, cu->stream>>>(n, nd, A->ld, A->off, smem > 0, A->val, x, y);
    EasCheckLaunchCUDA();
  }
  PetscCall(EasCudaTimerEnd(cu, EAS_CUDA_KIND_SPMV));
  PetscCall(EasLogGpuFlops(2.0 * nd * n));
  PetscFunctionReturn(0);
}

/* valf = (float) val on the device (EasDiaSetPrecision): one pass, 8 B read
   and 4 B written per stored value. */
PetscErrorCode EasDiaSingle_CUDA(EasBackend be, const EasDiaKernel *A, float *valf)
{
  EasBackend_CUDA *cu  = (EasBackend_CUDA *)be->data;
  const EasKIdx    len = (EasKIdx)A->ndiag * A->ld;

  PetscFunctionBegin;
  if (len <= 0) PetscFunctionReturn(0);
  PetscCall(EasCudaTimerBegin(cu));
  EasDiaSingleKernel<<<EasCudaBlocks((PetscInt64)len, EAS_CUDA_MAX_BLOCKS), EAS_CUDA_BLOCK, 0, cu->stream>>>(len, A->val, valf);
  EasCheckLaunchCUDA();
  PetscCall(EasCudaTimerEnd(cu, EAS_CUDA_KIND_VEC));
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------ fused BiCGStab sweeps */

/* p_new = r + beta (p_old - omega v_old); v_new = A p_new; dots = (rhat, v_new), (v_new, v_new) (host). */
PetscErrorCode EasBcgsSweep1_CUDA(EasBackend be, const EasDiaKernel *A, PetscScalar beta, PetscScalar omega, const PetscScalar *r, const PetscScalar *p_old, const PetscScalar *v_old, const PetscScalar *rhat, PetscScalar *p_new, PetscScalar *v_new, PetscScalar dots[2])
{
  EasBackend_CUDA *cu = (EasBackend_CUDA *)be->data;
  EasDiaCtx_CUDA  *csr;
  const PetscInt   n = A->n, nd = A->ndiag;

  PetscFunctionBegin;
  if (n <= 0) {
    dots[0] = dots[1] = 0.0;
    PetscFunctionReturn(0);
  }
  PetscCall(EasDiaGetCSR_CUDA(be, A, &csr));
  PetscCall(EasCudaTimerBegin(cu));
  if (csr) {
    EasBcgsDirectionKernel<<<EasCudaBlocks(n, EAS_CUDA_MAX_BLOCKS), EAS_CUDA_BLOCK, 0, cu->stream>>>(n, beta, omega, r, p_old, v_old, p_new);
    EasCheckLaunchCUDA();
    PetscCall(EasCusparseMult_CUDA(cu, csr, CUSPARSE_OPERATION_NON_TRANSPOSE, p_new, v_new));
    PetscCall(EasCudaDots(cu, n, 2, rhat, v_new, v_new, v_new, NULL, NULL, EAS_CUDA_KIND_SWEEP, PETSC_FALSE, dots));
  } else {
    const unsigned nb   = EasCudaBlocks(n, EAS_CUDA_MAX_RED_BLOCKS);
    const size_t   smem = EasCudaOffsetSmem(nd);
    if (A->valf)
      EasBcgsSweep1Kernel<float><<<nb, EAS_CUDA_BLOCK, smem, cu->stream>>>(n, nd, A->ld, A->off, smem > 0, A->valf, beta, omega, r, p_old, v_old, rhat, p_new, v_new, cu->d_partials);
    else
      EasBcgsSweep1Kernel<EasKScalar><<<nb, EAS_CUDA_BLOCK, smem, cu->stream>>>(n, nd, A->ld, A->off, smem > 0, A->val, beta, omega, r, p_old, v_old, rhat, p_new, v_new, cu->d_partials);
    EasCheckLaunchCUDA();
    PetscCall(EasCudaReduceFinish(cu, nb, 2, EAS_CUDA_KIND_SWEEP, dots));
  }
  PetscCall(EasLogGpuFlops((2.0 * nd + 6.0) * n));
  PetscFunctionReturn(0);
}

/* s = r - alpha v; t = A s; dots = (t, s), (t, t), (s, s) (host). */
PetscErrorCode EasBcgsSweep2_CUDA(EasBackend be, const EasDiaKernel *A, PetscScalar alpha, const PetscScalar *r, const PetscScalar *v, PetscScalar *s, PetscScalar *t, PetscScalar dots[3])
{
  EasBackend_CUDA *cu = (EasBackend_CUDA *)be->data;
  EasDiaCtx_CUDA  *csr;
  const PetscInt   n = A->n, nd = A->ndiag;

  PetscFunctionBegin;
  if (n <= 0) {
    dots[0] = dots[1] = dots[2] = 0.0;
    PetscFunctionReturn(0);
  }
  PetscCall(EasDiaGetCSR_CUDA(be, A, &csr));
  PetscCall(EasCudaTimerBegin(cu));
  if (csr) {
    EasBcgsSUpdateKernel<<<EasCudaBlocks(n, EAS_CUDA_MAX_BLOCKS), EAS_CUDA_BLOCK, 0, cu->stream>>>(n, alpha, r, v, s);
    EasCheckLaunchCUDA();
    PetscCall(EasCusparseMult_CUDA(cu, csr, CUSPARSE_OPERATION_NON_TRANSPOSE, s, t));
    PetscCall(EasCudaDots(cu, n, 3, t, s, t, t, s, s, EAS_CUDA_KIND_SWEEP, PETSC_FALSE, dots));
  } else {
    const unsigned nb   = EasCudaBlocks(n, EAS_CUDA_MAX_RED_BLOCKS);
    const size_t   smem = EasCudaOffsetSmem(nd);
    if (A->valf)
      EasBcgsSweep2Kernel<float><<<nb, EAS_CUDA_BLOCK, smem, cu->stream>>>(n, nd, A->ld, A->off, smem > 0, A->valf, alpha, r, v, s, t, cu->d_partials);
    else
      EasBcgsSweep2Kernel<EasKScalar><<<nb, EAS_CUDA_BLOCK, smem, cu->stream>>>(n, nd, A->ld, A->off, smem > 0, A->val, alpha, r, v, s, t, cu->d_partials);
    EasCheckLaunchCUDA();
    PetscCall(EasCudaReduceFinish(cu, nb, 3, EAS_CUDA_KIND_SWEEP, dots));
  }
  PetscCall(EasLogGpuFlops((2.0 * nd + 6.0) * n));
  PetscFunctionReturn(0);
}

/* x += alpha p + omega s; r = s - omega t; dots[0] = (rhat, r), dots[1] = (r, r) (host). */
PetscErrorCode EasBcgsSweep3_CUDA(EasBackend be, PetscInt n, PetscScalar alpha, PetscScalar omega, PetscScalar *x, const PetscScalar *p, const PetscScalar *s, const PetscScalar *t, const PetscScalar *rhat, PetscScalar *r, PetscScalar dots[2])
{
  EasBackend_CUDA *cu = (EasBackend_CUDA *)be->data;
  const unsigned   nb = EasCudaBlocks(n, EAS_CUDA_MAX_RED_BLOCKS);

  PetscFunctionBegin;
  if (n <= 0) {
    dots[0] = dots[1] = 0.0;
    PetscFunctionReturn(0);
  }
  PetscCall(EasCudaTimerBegin(cu));
  EasBcgsSweep3Kernel<<<nb, EAS_CUDA_BLOCK, 0, cu->stream>>>(n, alpha, omega, x, p, s, t, rhat, r, cu->d_partials);
  EasCheckLaunchCUDA();
  PetscCall(EasCudaReduceFinish(cu, nb, 2, EAS_CUDA_KIND_SWEEP, dots));
  PetscCall(EasLogGpuFlops(10.0 * n));
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------ right Jacobi */

__global__ void __launch_bounds__(EAS_CUDA_BLOCK) EasDiaInvDiagKernel(EasKInt n, const EasKScalar *vmain, EasKScalar *dinv, int *zero_row)
{
  EAS_GRID_STRIDE(i, n)
  if (EasDiaInvDiagEntry((EasKInt)i, vmain, dinv)) atomicMin(zero_row, (int)i);
}

__global__ void __launch_bounds__(EAS_CUDA_BLOCK) EasDiaColumnScaleKernel(EasKInt n, EasKInt nd, EasKInt ld, const EasKInt *off, const EasKScalar *val, const EasKScalar *s, EasKScalar *out)
{
  EAS_GRID_STRIDE(i, n)
  EasDiaColumnScaleRow((EasKInt)i, n, nd, off, val, ld, s, out);
}

PetscErrorCode EasDiaJacobi_CUDA(EasBackend be, const EasDiaKernel *A, PetscInt dmain, PetscScalar *dinv, PetscScalar *bval, PetscInt *zero_row)
{
  EasBackend_CUDA *cu = (EasBackend_CUDA *)be->data;
  const unsigned   nb = EasCudaBlocks(A->n, EAS_CUDA_MAX_BLOCKS);
  int              zr = (int)A->n;

  PetscFunctionBegin;
  *zero_row = -1;
  if (A->n <= 0) PetscFunctionReturn(0);
  PetscCall(EasCudaTimerBegin(cu));
  EasCallCUDA(cudaMemcpyAsync(cu->d_iflag, &zr, sizeof(int), cudaMemcpyHostToDevice, cu->stream));
  EasDiaInvDiagKernel<<<nb, EAS_CUDA_BLOCK, 0, cu->stream>>>(A->n, A->val + (size_t)dmain * A->ld, dinv, cu->d_iflag);
  EasCheckLaunchCUDA();
  EasDiaColumnScaleKernel<<<nb, EAS_CUDA_BLOCK, 0, cu->stream>>>(A->n, A->ndiag, A->ld, A->off, A->val, dinv, bval);
  EasCheckLaunchCUDA();
  EasCallCUDA(cudaMemcpyAsync(&zr, cu->d_iflag, sizeof(int), cudaMemcpyDeviceToHost, cu->stream));
  PetscCall(EasCudaTimerEnd(cu, EAS_CUDA_KIND_VEC));
  EasCallCUDA(cudaStreamSynchronize(cu->stream));
  *zero_row = zr < (int)A->n ? (PetscInt)zr : -1;
  PetscCall(EasLogGpuFlops((1.0 + A->ndiag) * A->n));
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------ ILU(0), parallel form */

/* Chow and Patel's iterations (kernels/ilu.h): one thread per row, each
   sweep reading only the previous iterate; /cpu/memcheck runs the same
   launches as host loops (memcheckdia.c). */
__global__ void __launch_bounds__(EAS_CUDA_BLOCK) EasIluInitialKernel(EasKInt n, EasKInt nd, EasKInt dmain, EasKInt ld, const EasKInt *off, const EasKInt *pt, const EasKScalar *a, EasKInt lda, EasKScalar *f)
{
  EAS_GRID_STRIDE(i, n)
  for (EasKInt g = 0; g < nd; g++) f[(EasKIdx)g * ld + i] = EasIluInitialEntry((EasKInt)i, g, n, nd, dmain, off, pt, a, lda);
}

__global__ void __launch_bounds__(EAS_CUDA_BLOCK) EasIluSweepKernel(EasKInt n, EasKInt nd, EasKInt dmain, EasKInt ld, const EasKInt *off, const EasKInt *pt, const EasKScalar *a, EasKInt lda, const EasKScalar *f, EasKScalar *fnew)
{
  EAS_GRID_STRIDE(i, n)
  for (EasKInt g = 0; g < nd; g++) fnew[(EasKIdx)g * ld + i] = EasIluEntry((EasKInt)i, g, 1, n, nd, dmain, off, pt, a, lda, f, EasIluLayoutByDiagonals(dmain, ld));
}

__global__ void __launch_bounds__(EAS_CUDA_BLOCK) EasIluPivotKernel(EasKInt n, const EasKScalar *u, int *bad_row)
{
  EAS_GRID_STRIDE(i, n)
  if (EasIluBadPivot(u[i])) atomicMin(bad_row, (int)i);
}

__global__ void __launch_bounds__(EAS_CUDA_BLOCK) EasIluInputKernel(EasKInt n, int form, EasKScalar c1, EasKScalar c2, const EasKScalar *r, const EasKScalar *v, EasKScalar *p)
{
  EAS_GRID_STRIDE(i, n)
  p[i] = EasIluInputEntry((EasKInt)i, form, c1, c2, r, v, p);
}

/* The factor rounded to float (-pc_ilu_precision single). */
__global__ void __launch_bounds__(EAS_CUDA_BLOCK) EasIluSingleKernel(EasKInt n, EasKInt nd, EasKInt ld, const EasKScalar *f, float *ff)
{
  EAS_GRID_STRIDE(i, n)
  for (EasKInt g = 0; g < nd; g++) ff[(EasKIdx)g * ld + i] = EasIluSingleEntry(f[(EasKIdx)g * ld + i]);
}

/* The row bodies of kernels/ilu.h for either precision of the factor: the
   kernels below are templates on it. */
__device__ static inline EasKScalar EasIluLowerRowT(EasKInt i, EasKInt dmain, const EasKInt *off, const EasKScalar *f, EasIluLayout lay, const EasKScalar *x, const EasKScalar *y)
{
  return EasIluLowerRow(i, 1, dmain, off, f, lay, x, y);
}
__device__ static inline EasKScalar EasIluLowerRowT(EasKInt i, EasKInt dmain, const EasKInt *off, const float *f, EasIluLayout lay, const EasKScalar *x, const EasKScalar *y)
{
  return EasIluLowerRow_F(i, 1, dmain, off, f, lay, x, y);
}
__device__ static inline EasKScalar EasIluUpperRowT(EasKInt i, EasKInt n, EasKInt nd, EasKInt dmain, const EasKInt *off, const EasKScalar *f, EasIluLayout lay, const EasKScalar *y, const EasKScalar *z)
{
  return EasIluUpperRow(i, 1, n, nd, dmain, off, f, lay, y, z);
}
__device__ static inline EasKScalar EasIluUpperRowT(EasKInt i, EasKInt n, EasKInt nd, EasKInt dmain, const EasKInt *off, const float *f, EasIluLayout lay, const EasKScalar *y, const EasKScalar *z)
{
  return EasIluUpperRow_F(i, 1, n, nd, dmain, off, f, lay, y, z);
}
__device__ static inline EasKScalar EasIluDiagEntryT(EasKInt i, EasKInt dmain, const EasKScalar *f, EasIluLayout lay, const EasKScalar *y)
{
  return EasIluDiagEntry(i, dmain, f, lay, y);
}
__device__ static inline EasKScalar EasIluDiagEntryT(EasKInt i, EasKInt dmain, const float *f, EasIluLayout lay, const EasKScalar *y)
{
  return EasIluDiagEntry_F(i, dmain, f, lay, y);
}

template <typename FT>
__global__ void __launch_bounds__(EAS_CUDA_BLOCK) EasIluLowerKernel(EasKInt n, EasKInt dmain, EasKInt ld, const EasKInt *off, const FT *f, const EasKScalar *x, const EasKScalar *y, EasKScalar *ynew)
{
  EAS_GRID_STRIDE(i, n)
  ynew[i] = EasIluLowerRowT((EasKInt)i, dmain, off, f, EasIluLayoutByDiagonals(dmain, ld), x, y);
}

template <typename FT>
__global__ void __launch_bounds__(EAS_CUDA_BLOCK) EasIluDiagKernel(EasKInt n, EasKInt dmain, EasKInt ld, const FT *f, const EasKScalar *y, EasKScalar *z)
{
  EAS_GRID_STRIDE(i, n)
  z[i] = EasIluDiagEntryT((EasKInt)i, dmain, f, EasIluLayoutByDiagonals(dmain, ld), y);
}

template <typename FT>
__global__ void __launch_bounds__(EAS_CUDA_BLOCK) EasIluUpperKernel(EasKInt n, EasKInt nd, EasKInt dmain, EasKInt ld, const EasKInt *off, const FT *f, const EasKScalar *y, const EasKScalar *z, EasKScalar *znew)
{
  EAS_GRID_STRIDE(i, n)
  znew[i] = EasIluUpperRowT((EasKInt)i, n, nd, dmain, off, f, EasIluLayoutByDiagonals(dmain, ld), y, z);
}

/* The starting guess, `sweeps` factor sweeps (fwork, copied back), the pivot scan, with ff the rounding to float. */
PetscErrorCode EasIluFactor_CUDA(EasBackend be, const EasDiaKernel *F, const EasDiaKernel *A, const PetscInt *pt, PetscInt dmain, PetscInt sweeps, PetscScalar *f, PetscScalar *fwork, float *ff, PetscInt *zero_row)
{
  EasBackend_CUDA *cu = (EasBackend_CUDA *)be->data;
  const EasKInt    n = F->n, nd = F->ndiag, ld = F->ld;
  const unsigned   nb = EasCudaBlocks(n, EAS_CUDA_MAX_BLOCKS);
  int              zr = (int)n;

  PetscFunctionBegin;
  *zero_row = -1;
  if (n <= 0) PetscFunctionReturn(0);
  PetscCall(EasCudaTimerBegin(cu));
  EasIluInitialKernel<<<nb, EAS_CUDA_BLOCK, 0, cu->stream>>>(n, nd, dmain, ld, F->off, pt, A->val, A->ld, f);
  EasCheckLaunchCUDA();
  for (PetscInt s = 0; s < sweeps; s++) {
    EasIluSweepKernel<<<nb, EAS_CUDA_BLOCK, 0, cu->stream>>>(n, nd, dmain, ld, F->off, pt, A->val, A->ld, f, fwork);
    EasCheckLaunchCUDA();
    EasCallCUDA(cudaMemcpyAsync(f, fwork, sizeof(PetscScalar) * (size_t)nd * ld, cudaMemcpyDeviceToDevice, cu->stream));
  }
  EasCallCUDA(cudaMemcpyAsync(cu->d_iflag, &zr, sizeof(int), cudaMemcpyHostToDevice, cu->stream));
  EasIluPivotKernel<<<nb, EAS_CUDA_BLOCK, 0, cu->stream>>>(n, f + (size_t)dmain * ld, cu->d_iflag);
  EasCheckLaunchCUDA();
  if (ff) {
    EasIluSingleKernel<<<nb, EAS_CUDA_BLOCK, 0, cu->stream>>>(n, nd, ld, f, ff);
    EasCheckLaunchCUDA();
  }
  EasCallCUDA(cudaMemcpyAsync(&zr, cu->d_iflag, sizeof(int), cudaMemcpyDeviceToHost, cu->stream));
  PetscCall(EasCudaTimerEnd(cu, EAS_CUDA_KIND_VEC));
  EasCallCUDA(cudaStreamSynchronize(cu->stream));
  *zero_row = zr < (int)n ? (PetscInt)zr : -1;
  PetscCall(EasLogGpuFlops(2.0 * nd * (dmain + 1) * (double)n * sweeps)); /* the candidate pairs: the pair table (its length) is in device memory */
  PetscFunctionReturn(0);
}

/* The input entry, `sweeps` Jacobi sweeps on L from y^0 = p, z^0 = D^{-1} y,
   `sweeps` Jacobi sweeps on U; iterates alternate between z and the halves
   of work as in /cpu/memcheck's EasIluApply_Memcheck, ending in z. */
PetscErrorCode EasIluApply_CUDA(EasBackend be, const EasDiaKernel *A, const PetscScalar *f, const float *ff, PetscInt dmain, PetscInt sweeps, PetscInt form, PetscScalar c1, PetscScalar c2, const PetscScalar *r, const PetscScalar *v, PetscScalar *p, PetscScalar *z, PetscScalar *work)
{
  EasBackend_CUDA   *cu = (EasBackend_CUDA *)be->data;
  const EasKInt      n = A->n, nd = A->ndiag, ld = A->ld;
  const unsigned     nb     = EasCudaBlocks(n, EAS_CUDA_MAX_BLOCKS);
  PetscScalar       *buf[3] = {z, work, work + n};
  const PetscScalar *y      = p;
  PetscInt           yi     = -1, zi;

  PetscFunctionBegin;
  if (n <= 0) PetscFunctionReturn(0);
  PetscCall(EasCudaTimerBegin(cu));
  if (form) {
    EasIluInputKernel<<<nb, EAS_CUDA_BLOCK, 0, cu->stream>>>(n, (int)form, c1, c2, r, v, p);
    EasCheckLaunchCUDA();
  }
  for (PetscInt s = 0; s < sweeps; s++) {
    const PetscInt o = yi == 1 ? 2 : 1;
    if (ff)
      EasIluLowerKernel<float><<<nb, EAS_CUDA_BLOCK, 0, cu->stream>>>(n, dmain, ld, A->off, ff, p, y, buf[o]);
    else
      EasIluLowerKernel<EasKScalar><<<nb, EAS_CUDA_BLOCK, 0, cu->stream>>>(n, dmain, ld, A->off, f, p, y, buf[o]);
    EasCheckLaunchCUDA();
    y  = buf[o];
    yi = o;
  }
  zi = (sweeps % 2 == 0) ? 0 : (yi == 1 ? 2 : 1);
  if (ff)
    EasIluDiagKernel<float><<<nb, EAS_CUDA_BLOCK, 0, cu->stream>>>(n, dmain, ld, ff, y, buf[zi]);
  else
    EasIluDiagKernel<EasKScalar><<<nb, EAS_CUDA_BLOCK, 0, cu->stream>>>(n, dmain, ld, f, y, buf[zi]);
  EasCheckLaunchCUDA();
  for (PetscInt s = 0; s < sweeps; s++) {
    const PetscInt o = (zi == 0) ? (yi == 1 ? 2 : 1) : 0;
    if (ff)
      EasIluUpperKernel<float><<<nb, EAS_CUDA_BLOCK, 0, cu->stream>>>(n, nd, dmain, ld, A->off, ff, y, buf[zi], buf[o]);
    else
      EasIluUpperKernel<EasKScalar><<<nb, EAS_CUDA_BLOCK, 0, cu->stream>>>(n, nd, dmain, ld, A->off, f, y, buf[zi], buf[o]);
    EasCheckLaunchCUDA();
    zi = o;
  }
  PetscCall(EasCudaTimerEnd(cu, EAS_CUDA_KIND_VEC));
  PetscCall(EasLogGpuFlops((2.0 * nd + 2.0) * n * (sweeps + 1)));
  PetscFunctionReturn(0);
}
