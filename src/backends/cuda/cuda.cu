/*
  CUDA backend: kernels around the shared row bodies (kernels.h), the same
  semantics op for op as the CPU backend (cpu.c).

  - All work goes to one stream; ops that return host values (reductions,
    device-to-host copies) synchronize it, the others are asynchronous.
  - Reductions are two-stage and deterministic: a fixed number of blocks
    (depending on n only) each write one partial per value, then one block
    sums the partials in a fixed order; the result goes to pinned memory.
  - DIA SpMV: "native" (one thread per row, row-aligned coalesced layout,
    guarded rows outside [lo,hi)) or "cusparse" (a CSR copy and the generic
    cusparseSpMV), chosen by -eas_cuda_spmv.  Single-precision values
    (EasDiaSetPrecision: valf, made by a device kernel) are read by the
    native kernels through the float bodies; the CSR copy holds double
    values and refuses them.
  - EBE: the storage the operator chose (-ebe_storage) as a template
    constant of the element kernel, with the CPU's dispatch
    (EasEbeElementApplyStorage); the diagonal reads the full matrices.
  - Kernel times per kind are measured with events recorded around every op
    and collected lazily (at synchronizing calls or when the ring is full).
*/
#include "cudaimpl.h"
#include "../devcommon.h"
#include <stdio.h>

static const char *const EasCudaSpMVModes[] = {"native", "cusparse"};
static const char *const EasCudaKindNames[] = {"SpMV", "BiCGStab sweeps", "vector ops", "reductions"};

/* ------------------------------------------------------------------ helpers */

/* Blocks of a launch over n items (launch.h, unit-tested on the host): every
   kernel has a grid-stride loop, so the cap never skips work. */
static inline unsigned EasCudaBlocks(PetscInt64 n, unsigned cap)
{
  return EasLaunchBlocks((int64_t)n, EAS_CUDA_BLOCK, cap);
}

/* Dynamic shared memory for the DIA offsets (0: the kernel reads them from global memory). */
static inline size_t EasCudaOffsetSmem(PetscInt ndiag)
{
  return (ndiag > 0 && ndiag <= EAS_CUDA_MAX_SMEM_OFF) ? (size_t)ndiag * sizeof(EasKInt) : 0;
}

static PetscErrorCode EasCudaTimerFlush(EasBackend_CUDA *cu)
{
  PetscFunctionBegin;
  if (cu->npending) {
    EasCallCUDA(cudaEventSynchronize(cu->ev_stop[cu->npending - 1]));
    for (int k = 0; k < cu->npending; k++) {
      float ms;
      EasCallCUDA(cudaEventElapsedTime(&ms, cu->ev_start[k], cu->ev_stop[k]));
      cu->ms[cu->ev_kind[k]] += (PetscLogDouble)ms;
    }
    cu->npending = 0;
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode EasCudaTimerBegin(EasBackend_CUDA *cu)
{
  PetscFunctionBegin;
  if (cu->npending == EAS_CUDA_NTIMERS) PetscCall(EasCudaTimerFlush(cu));
  EasCallCUDA(cudaEventRecord(cu->ev_start[cu->npending], cu->stream));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasCudaTimerEnd(EasBackend_CUDA *cu, EasCudaKind kind)
{
  PetscFunctionBegin;
  EasCallCUDA(cudaEventRecord(cu->ev_stop[cu->npending], cu->stream));
  cu->ev_kind[cu->npending++] = (int)kind;
  cu->count[kind]++;
  PetscFunctionReturn(0);
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

/* Shared-memory tree reduction of NV values over the block (blockDim.x ==
   EAS_CUDA_BLOCK, a power of two); thread 0 stores out[k*gridDim.x + blockIdx.x]. */
template <int NV>
__device__ __forceinline__ void EasBlockReduce(const EasKScalar (&acc)[NV], EasKScalar *out)
{
  __shared__ EasKScalar sh[NV][EAS_CUDA_BLOCK];
  const unsigned        t = threadIdx.x;

  for (int k = 0; k < NV; k++) sh[k][t] = acc[k];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s)
      for (int k = 0; k < NV; k++) sh[k][t] += sh[k][t + s];
    __syncthreads();
  }
  if (t == 0)
    for (int k = 0; k < NV; k++) out[k * gridDim.x + blockIdx.x] = sh[k][0];
}

/* Grid-stride loop over [0,n) (n a non-negative 32-bit EasKInt: k + stride
   stays below 2^31 + 2^28 and cannot wrap the unsigned index). */
#define EAS_GRID_STRIDE(k, n) for (unsigned k = blockIdx.x * blockDim.x + threadIdx.x; k < (unsigned)(n); k += blockDim.x * gridDim.x)

/* Second stage: one block sums nb partials per value, in a fixed order. */
template <int NV>
__global__ void __launch_bounds__(EAS_CUDA_BLOCK) EasReduceFinalKernel(int nb, const EasKScalar *partials, EasKScalar *result)
{
  EasKScalar acc[NV];
  for (int k = 0; k < NV; k++) {
    acc[k] = 0.0;
    for (int j = (int)threadIdx.x; j < nb; j += (int)blockDim.x) acc[k] += partials[k * nb + j];
  }
  EasBlockReduce<NV>(acc, result);
}

__global__ void __launch_bounds__(EAS_CUDA_BLOCK) EasSetKernel(EasKInt n, EasKScalar alpha, EasKScalar *y)
{
  EAS_GRID_STRIDE(i, n)
  y[i] = alpha;
}

__global__ void __launch_bounds__(EAS_CUDA_BLOCK) EasAxpbyKernel(EasKInt n, EasKScalar a, const EasKScalar *x, EasKScalar b, EasKScalar *y)
{
  EAS_GRID_STRIDE(i, n)
  y[i] = EasAxpbyEntry(a, x[i], b, y[i]);
}

__global__ void __launch_bounds__(EAS_CUDA_BLOCK) EasPointwiseMultKernel(EasKInt n, const EasKScalar *x, const EasKScalar *y, EasKScalar *w)
{
  EAS_GRID_STRIDE(i, n)
  w[i] = x[i] * y[i];
}

/* Partial sums of (a0, b0) and, for NV >= 2, (a1, b1), for NV == 3, (a2, b2). */
template <int NV>
__global__ void __launch_bounds__(EAS_CUDA_BLOCK) EasDotKernel(EasKInt n, const EasKScalar *a0, const EasKScalar *b0, const EasKScalar *a1, const EasKScalar *b1, const EasKScalar *a2, const EasKScalar *b2, EasKScalar *partials)
{
  EasKScalar acc[NV];
  for (int k = 0; k < NV; k++) acc[k] = 0.0;
  EAS_GRID_STRIDE(i, n)
  {
    acc[0] += a0[i] * b0[i];
    if (NV > 1) acc[1] += a1[i] * b1[i];
    if (NV > 2) acc[NV - 1] += a2[i] * b2[i];
  }
  EasBlockReduce<NV>(acc, partials);
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

/* ------------------------------------------------------------------ reductions (host side) */

/* Second stage and read-back of nv sums from nb partials (the caller has
   launched the first stage and started the timer). */
static PetscErrorCode EasCudaReduceFinish(EasBackend_CUDA *cu, unsigned nb, int nv, EasCudaKind kind, PetscScalar *res)
{
  PetscFunctionBegin;
  if (nv == 1)
    EasReduceFinalKernel<1><<<1, EAS_CUDA_BLOCK, 0, cu->stream>>>((int)nb, cu->d_partials, cu->d_result);
  else if (nv == 2)
    EasReduceFinalKernel<2><<<1, EAS_CUDA_BLOCK, 0, cu->stream>>>((int)nb, cu->d_partials, cu->d_result);
  else
    EasReduceFinalKernel<3><<<1, EAS_CUDA_BLOCK, 0, cu->stream>>>((int)nb, cu->d_partials, cu->d_result);
  EasCheckLaunchCUDA();
  PetscCall(EasCudaTimerEnd(cu, kind));
  EasCallCUDA(cudaMemcpyAsync(cu->h_result, cu->d_result, (size_t)nv * sizeof(EasKScalar), cudaMemcpyDeviceToHost, cu->stream));
  EasCallCUDA(cudaStreamSynchronize(cu->stream));
  for (int k = 0; k < nv; k++) res[k] = cu->h_result[k];
  PetscCall(EasCudaTimerFlush(cu)); /* the stream is idle: collecting is free */
  PetscFunctionReturn(0);
}

/* Dots (a0,b0) [and (a1,b1)] in nv sums, as one timed op of the given kind. */
static PetscErrorCode EasCudaDots(EasBackend_CUDA *cu, PetscInt n, int nv, const PetscScalar *a0, const PetscScalar *b0, const PetscScalar *a1, const PetscScalar *b1, const PetscScalar *a2, const PetscScalar *b2, EasCudaKind kind, PetscBool start_timer, PetscScalar *res)
{
  const unsigned nb = EasCudaBlocks(n, EAS_CUDA_MAX_RED_BLOCKS);

  PetscFunctionBegin;
  if (start_timer) PetscCall(EasCudaTimerBegin(cu));
  if (nv == 1)
    EasDotKernel<1><<<nb, EAS_CUDA_BLOCK, 0, cu->stream>>>(n, a0, b0, NULL, NULL, NULL, NULL, cu->d_partials);
  else if (nv == 2)
    EasDotKernel<2><<<nb, EAS_CUDA_BLOCK, 0, cu->stream>>>(n, a0, b0, a1, b1, NULL, NULL, cu->d_partials);
  else
    EasDotKernel<3><<<nb, EAS_CUDA_BLOCK, 0, cu->stream>>>(n, a0, b0, a1, b1, a2, b2, cu->d_partials);
  EasCheckLaunchCUDA();
  PetscCall(EasCudaReduceFinish(cu, nb, nv, kind, res));
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------ memory */

static PetscErrorCode EasMalloc_CUDA(EasBackend be, size_t bytes, void **p)
{
  PetscFunctionBegin;
  (void)be;
  *p = NULL;
  if (bytes) EasCallCUDA(cudaMalloc(p, bytes));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasFree_CUDA(EasBackend be, void *p)
{
  PetscFunctionBegin;
  (void)be;
  if (p) EasCallCUDA(cudaFree(p));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasCopyHtoD_CUDA(EasBackend be, void *dst, const void *src, size_t bytes)
{
  EasBackend_CUDA *cu = (EasBackend_CUDA *)be->data;

  PetscFunctionBegin;
  if (bytes) {
    EasCallCUDA(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, cu->stream));
    EasCallCUDA(cudaStreamSynchronize(cu->stream));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode EasCopyDtoH_CUDA(EasBackend be, void *dst, const void *src, size_t bytes)
{
  EasBackend_CUDA *cu = (EasBackend_CUDA *)be->data;

  PetscFunctionBegin;
  if (bytes) {
    EasCallCUDA(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, cu->stream));
    EasCallCUDA(cudaStreamSynchronize(cu->stream));
  }
  PetscFunctionReturn(0);
}

/* Pinned host staging buffers (issue 10 M1: cudaMemcpyAsync from or to
   pageable memory is synchronous, so the split's GPU unit never overlapped
   the CPU units), registered for the unit's checks (devcommon.c). */
static PetscErrorCode EasHostAlloc_CUDA(EasBackend be, size_t bytes, void **p)
{
  EasBackend_CUDA *cu = (EasBackend_CUDA *)be->data;

  PetscFunctionBegin;
  EasCallCUDA(cudaMallocHost(p, bytes));
  PetscCall(EasMemRegistryAdd(&cu->staging, *p, bytes));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasHostFree_CUDA(EasBackend be, void *p)
{
  EasBackend_CUDA *cu = (EasBackend_CUDA *)be->data;

  PetscFunctionBegin;
  PetscCall(EasMemRegistryRemove(&cu->staging, p, NULL, "CUDA pinned host staging (host_free)"));
  EasCallCUDA(cudaFreeHost(p));
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------ vectors */

static PetscErrorCode EasVecSet_CUDA(EasBackend be, PetscInt n, PetscScalar alpha, PetscScalar *y)
{
  EasBackend_CUDA *cu = (EasBackend_CUDA *)be->data;

  PetscFunctionBegin;
  if (n <= 0) PetscFunctionReturn(0);
  PetscCall(EasCudaTimerBegin(cu));
  EasSetKernel<<<EasCudaBlocks(n, EAS_CUDA_MAX_BLOCKS), EAS_CUDA_BLOCK, 0, cu->stream>>>(n, alpha, y);
  EasCheckLaunchCUDA();
  PetscCall(EasCudaTimerEnd(cu, EAS_CUDA_KIND_VEC));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasVecCopy_CUDA(EasBackend be, PetscInt n, const PetscScalar *x, PetscScalar *y)
{
  EasBackend_CUDA *cu = (EasBackend_CUDA *)be->data;

  PetscFunctionBegin;
  if (n <= 0 || x == y) PetscFunctionReturn(0);
  PetscCall(EasCudaTimerBegin(cu));
  EasCallCUDA(cudaMemcpyAsync(y, x, (size_t)n * sizeof(PetscScalar), cudaMemcpyDeviceToDevice, cu->stream));
  PetscCall(EasCudaTimerEnd(cu, EAS_CUDA_KIND_VEC));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasVecAXPBY_CUDA(EasBackend be, PetscInt n, PetscScalar a, const PetscScalar *x, PetscScalar b, PetscScalar *y)
{
  EasBackend_CUDA *cu = (EasBackend_CUDA *)be->data;

  PetscFunctionBegin;
  if (n <= 0) PetscFunctionReturn(0);
  PetscCall(EasCudaTimerBegin(cu));
  EasAxpbyKernel<<<EasCudaBlocks(n, EAS_CUDA_MAX_BLOCKS), EAS_CUDA_BLOCK, 0, cu->stream>>>(n, a, x, b, y);
  EasCheckLaunchCUDA();
  PetscCall(EasCudaTimerEnd(cu, EAS_CUDA_KIND_VEC));
  PetscCall(EasLogGpuFlops(3.0 * n));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasVecPointwiseMult_CUDA(EasBackend be, PetscInt n, const PetscScalar *x, const PetscScalar *y, PetscScalar *w)
{
  EasBackend_CUDA *cu = (EasBackend_CUDA *)be->data;

  PetscFunctionBegin;
  if (n <= 0) PetscFunctionReturn(0);
  PetscCall(EasCudaTimerBegin(cu));
  EasPointwiseMultKernel<<<EasCudaBlocks(n, EAS_CUDA_MAX_BLOCKS), EAS_CUDA_BLOCK, 0, cu->stream>>>(n, x, y, w);
  EasCheckLaunchCUDA();
  PetscCall(EasCudaTimerEnd(cu, EAS_CUDA_KIND_VEC));
  PetscCall(EasLogGpuFlops(1.0 * n));
  PetscFunctionReturn(0);
}

/* Local dot product; *dot is a host pointer. */
static PetscErrorCode EasVecDot_CUDA(EasBackend be, PetscInt n, const PetscScalar *x, const PetscScalar *y, PetscScalar *dot)
{
  EasBackend_CUDA *cu = (EasBackend_CUDA *)be->data;

  PetscFunctionBegin;
  if (n <= 0) {
    *dot = 0.0;
    PetscFunctionReturn(0);
  }
  PetscCall(EasCudaDots(cu, n, 1, x, y, NULL, NULL, NULL, NULL, EAS_CUDA_KIND_RED, PETSC_TRUE, dot));
  PetscCall(EasLogGpuFlops(2.0 * n));
  PetscFunctionReturn(0);
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

static PetscErrorCode EasDiaSetUp_CUDA(EasBackend be, EasDiaKernel *A)
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

static PetscErrorCode EasDiaDestroy_CUDA(EasBackend be, EasDiaKernel *A)
{
  PetscFunctionBegin;
  (void)be;
  if (A->ctx) {
    PetscCall(EasDiaCtxFree_CUDA((EasDiaCtx_CUDA *)A->ctx));
    PetscCall(PetscFree(A->ctx));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode EasDiaMult_CUDA(EasBackend be, const EasDiaKernel *A, const PetscScalar *x, PetscScalar *y)
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

static PetscErrorCode EasDiaMultTranspose_CUDA(EasBackend be, const EasDiaKernel *A, const PetscScalar *x, PetscScalar *y)
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
static PetscErrorCode EasDiaSingle_CUDA(EasBackend be, const EasDiaKernel *A, float *valf)
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
static PetscErrorCode EasBcgsSweep1_CUDA(EasBackend be, const EasDiaKernel *A, PetscScalar beta, PetscScalar omega, const PetscScalar *r, const PetscScalar *p_old, const PetscScalar *v_old, const PetscScalar *rhat, PetscScalar *p_new, PetscScalar *v_new, PetscScalar dots[2])
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
static PetscErrorCode EasBcgsSweep2_CUDA(EasBackend be, const EasDiaKernel *A, PetscScalar alpha, const PetscScalar *r, const PetscScalar *v, PetscScalar *s, PetscScalar *t, PetscScalar dots[3])
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
static PetscErrorCode EasBcgsSweep3_CUDA(EasBackend be, PetscInt n, PetscScalar alpha, PetscScalar omega, PetscScalar *x, const PetscScalar *p, const PetscScalar *s, const PetscScalar *t, const PetscScalar *rhat, PetscScalar *r, PetscScalar dots[2])
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

/* ------------------------------------------------------------------ EBE and CG */

/* One thread per element of a colour slice: the shared body (kernels.h
   EasEbeElementApplyStorage) of the storage ST (-ebe_storage: a template
   constant, so the dispatch folds); elements of a colour share no node, so
   the scatter needs no atomics. */
template <int ST>
__global__ void __launch_bounds__(EAS_CUDA_BLOCK) EasEbeApplyKernel(EasKInt k0, EasKInt k1, const EasKInt *__restrict__ color_elem, EasKInt nen, EasKInt dof, const EasKInt *__restrict__ conn, const EasKScalar *__restrict__ ael, const void *__restrict__ aels, const EasKScalar *__restrict__ x, EasKScalar *__restrict__ y)
{
  EAS_GRID_STRIDE(j, k1 - k0)
  EasEbeElementApplyStorage(color_elem[k0 + (EasKInt)j], -1, nen, dof, conn, ST, ael, aels, x, y); /* no prefetch: the next element is another thread's */
}

__global__ void __launch_bounds__(EAS_CUDA_BLOCK) EasEbeDiagonalKernel(EasKInt k0, EasKInt k1, const EasKInt *__restrict__ color_elem, EasKInt nen, EasKInt dof, EasKInt bs, const EasKInt *__restrict__ conn, const EasKScalar *__restrict__ ael, EasKScalar *__restrict__ d)
{
  EAS_GRID_STRIDE(j, k1 - k0)
  EasEbeElementDiagonal(color_elem[k0 + (EasKInt)j], nen, dof, bs, conn, ael, d);
}

__global__ void __launch_bounds__(EAS_CUDA_BLOCK) EasBlockMultKernel(EasKInt nb, EasKInt bs, const EasKScalar *__restrict__ B, const EasKScalar *__restrict__ x, EasKScalar *__restrict__ y)
{
  EAS_GRID_STRIDE(b, nb)
  EasBlockMultEntry((EasKInt)b, bs, B, x, y);
}

/* CG update and its two dots in one pass (as the CPU backend's loop):
   x += alpha p; r -= alpha q; z = dinv .* r; partials (r, z), (r, r) over
   the first nown entries. */
__global__ void __launch_bounds__(EAS_CUDA_BLOCK) EasCgUpdateKernel(EasKInt n, EasKInt nown, EasKScalar alpha, const EasKScalar *p, const EasKScalar *q, const EasKScalar *dinv, EasKScalar *x, EasKScalar *r, EasKScalar *z, EasKScalar *partials)
{
  EasKScalar acc[2] = {0.0, 0.0};
  EAS_GRID_STRIDE(k, n)
  {
    const EasKInt    i  = (EasKInt)k;
    const EasKScalar ri = EasCgUpdateEntry(i, alpha, p, q, dinv, x, r, z);
    if (i < nown) {
      acc[0] += ri * z[i];
      acc[1] += ri * ri;
    }
  }
  EasBlockReduce<2>(acc, partials);
}

/* Pipelined CG update and its three dots in one pass: partials (r, u),
   (w, u), (r, r) over the first nown entries. */
__global__ void __launch_bounds__(EAS_CUDA_BLOCK) EasPipeCgUpdateKernel(EasKInt n, EasKInt nown, EasKScalar alpha, EasKScalar beta, const EasKScalar *dinv, EasKScalar *z, EasKScalar *q, EasKScalar *s, EasKScalar *p, EasKScalar *x, EasKScalar *r, EasKScalar *u, EasKScalar *w, EasKScalar *m, const EasKScalar *nv, EasKScalar *partials)
{
  EasKScalar acc[3] = {0.0, 0.0, 0.0};
  EAS_GRID_STRIDE(k, n)
  {
    const EasKInt i = (EasKInt)k;
    EasPipeCgUpdateEntry(i, alpha, beta, dinv, z, q, s, p, x, r, u, w, m, nv);
    if (i < nown) {
      acc[0] += r[i] * u[i];
      acc[1] += w[i] * u[i];
      acc[2] += r[i] * r[i];
    }
  }
  EasBlockReduce<3>(acc, partials);
}

/* Launches the element kernels of [e0,e1), colour by colour, on the stream. */
static PetscErrorCode EasEbeLaunch_CUDA(EasBackend_CUDA *cu, const EasEbeKernel *K, PetscInt e0, PetscInt e1, const PetscScalar *x, PetscScalar *y)
{
  PetscFunctionBegin;
  for (PetscInt c = 0; c < K->ncolors; c++) {
    PetscInt k0, k1;
    EasEbeColorSlice(K, c, e0, e1, &k0, &k1);
    if (k1 <= k0) continue;
    const unsigned nb = EasCudaBlocks(k1 - k0, EAS_CUDA_MAX_BLOCKS);
    switch (K->storage) {
    case EAS_EBE_STORAGE_SYMMETRIC:
      EasEbeApplyKernel<EAS_EBE_ST_SYMMETRIC><<<nb, EAS_CUDA_BLOCK, 0, cu->stream>>>(k0, k1, K->color_elem, K->nen, K->dof, K->conn, K->ael, K->aels, x, y);
      break;
    case EAS_EBE_STORAGE_SINGLE:
      EasEbeApplyKernel<EAS_EBE_ST_SINGLE><<<nb, EAS_CUDA_BLOCK, 0, cu->stream>>>(k0, k1, K->color_elem, K->nen, K->dof, K->conn, K->ael, K->aels, x, y);
      break;
    case EAS_EBE_STORAGE_SYMMETRIC_SINGLE:
      EasEbeApplyKernel<EAS_EBE_ST_SYMMETRIC_SINGLE><<<nb, EAS_CUDA_BLOCK, 0, cu->stream>>>(k0, k1, K->color_elem, K->nen, K->dof, K->conn, K->ael, K->aels, x, y);
      break;
    default:
      EasEbeApplyKernel<EAS_EBE_ST_FULL><<<nb, EAS_CUDA_BLOCK, 0, cu->stream>>>(k0, k1, K->color_elem, K->nen, K->dof, K->conn, K->ael, K->aels, x, y);
    }
    EasCheckLaunchCUDA();
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode EasEbeApply_CUDA(EasBackend be, const EasEbeKernel *K, PetscInt e0, PetscInt e1, const PetscScalar *x, PetscScalar *y)
{
  EasBackend_CUDA *cu = (EasBackend_CUDA *)be->data;
  const PetscInt   m  = K->nen * K->dof;

  PetscFunctionBegin;
  if (e1 <= e0) PetscFunctionReturn(0);
  PetscCall(EasCudaTimerBegin(cu));
  PetscCall(EasEbeLaunch_CUDA(cu, K, e0, e1, x, y));
  PetscCall(EasCudaTimerEnd(cu, EAS_CUDA_KIND_SPMV));
  PetscCall(EasLogGpuFlops(2.0 * m * m * (e1 - e0)));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasEbeDiagonal_CUDA(EasBackend be, const EasEbeKernel *K, PetscInt e0, PetscInt e1, PetscInt bs, PetscScalar *d)
{
  EasBackend_CUDA *cu = (EasBackend_CUDA *)be->data;

  PetscFunctionBegin;
  for (PetscInt c = 0; c < K->ncolors; c++) {
    PetscInt k0, k1;
    EasEbeColorSlice(K, c, e0, e1, &k0, &k1);
    if (k1 <= k0) continue;
    EasEbeDiagonalKernel<<<EasCudaBlocks(k1 - k0, EAS_CUDA_MAX_BLOCKS), EAS_CUDA_BLOCK, 0, cu->stream>>>(k0, k1, K->color_elem, K->nen, K->dof, bs, K->conn, K->ael, d);
    EasCheckLaunchCUDA();
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode EasBlockMult_CUDA(EasBackend be, PetscInt nb, PetscInt bs, const PetscScalar *B, const PetscScalar *x, PetscScalar *y)
{
  EasBackend_CUDA *cu = (EasBackend_CUDA *)be->data;

  PetscFunctionBegin;
  if (nb <= 0) PetscFunctionReturn(0);
  PetscCall(EasCudaTimerBegin(cu));
  EasBlockMultKernel<<<EasCudaBlocks(nb, EAS_CUDA_MAX_BLOCKS), EAS_CUDA_BLOCK, 0, cu->stream>>>(nb, bs, B, x, y);
  EasCheckLaunchCUDA();
  PetscCall(EasCudaTimerEnd(cu, EAS_CUDA_KIND_VEC));
  PetscCall(EasLogGpuFlops(2.0 * bs * bs * nb));
  PetscFunctionReturn(0);
}

/* The update and its dots over the owned entries are one pass (one fused
   kernel and the fixed-order second stage), like the CPU backend's loop. */
static PetscErrorCode EasCgUpdate_CUDA(EasBackend be, PetscInt n, PetscInt nown, PetscScalar alpha, const PetscScalar *p, const PetscScalar *q, const PetscScalar *dinv, PetscScalar *x, PetscScalar *r, PetscScalar *z, PetscScalar dots[2])
{
  EasBackend_CUDA *cu = (EasBackend_CUDA *)be->data;
  const unsigned   nb = EasCudaBlocks(n, EAS_CUDA_MAX_RED_BLOCKS);

  PetscFunctionBegin;
  dots[0] = dots[1] = 0.0;
  if (n <= 0) PetscFunctionReturn(0);
  PetscCall(EasCudaTimerBegin(cu));
  EasCgUpdateKernel<<<nb, EAS_CUDA_BLOCK, 0, cu->stream>>>(n, nown, alpha, p, q, dinv, x, r, z, cu->d_partials);
  EasCheckLaunchCUDA();
  PetscCall(EasCudaReduceFinish(cu, nb, 2, EAS_CUDA_KIND_VEC, dots));
  PetscCall(EasLogGpuFlops(8.0 * n));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasPipeCgUpdate_CUDA(EasBackend be, PetscInt n, PetscInt nown, PetscScalar alpha, PetscScalar beta, const PetscScalar *dinv, PetscScalar *z, PetscScalar *q, PetscScalar *s, PetscScalar *p, PetscScalar *x, PetscScalar *r, PetscScalar *u, PetscScalar *w, PetscScalar *m, const PetscScalar *nv, PetscScalar dots[3])
{
  EasBackend_CUDA *cu = (EasBackend_CUDA *)be->data;
  const unsigned   nb = EasCudaBlocks(n, EAS_CUDA_MAX_RED_BLOCKS);

  PetscFunctionBegin;
  dots[0] = dots[1] = dots[2] = 0.0;
  if (n <= 0) PetscFunctionReturn(0);
  PetscCall(EasCudaTimerBegin(cu));
  EasPipeCgUpdateKernel<<<nb, EAS_CUDA_BLOCK, 0, cu->stream>>>(n, nown, alpha, beta, dinv, z, q, s, p, x, r, u, w, m, nv, cu->d_partials); /* update and the three sums in one pass */
  EasCheckLaunchCUDA();
  PetscCall(EasCudaReduceFinish(cu, nb, 3, EAS_CUDA_KIND_VEC, dots));
  PetscCall(EasLogGpuFlops(23.0 * n));
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

static PetscErrorCode EasDiaJacobi_CUDA(EasBackend be, const EasDiaKernel *A, PetscInt dmain, PetscScalar *dinv, PetscScalar *bval, PetscInt *zero_row)
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

/* ------------------------------------------------------------------ ADR assembly */

/* F at every point (shared body) and the per-block sums of the finiteness
   probes and the species norms. */
__global__ void __launch_bounds__(EAS_CUDA_BLOCK) EasAdrFunctionKernel(EasAdrKParams P, const EasKScalar *w, const EasKScalar *xg, const EasKScalar *xold, EasKScalar *Rv, EasKScalar *dRv, EasKScalar *F, EasKScalar *partials)
{
  EasKScalar acc[3] = {0.0, 0.0, 0.0};
  EAS_GRID_STRIDE(p, P.np)
  EasAdrKFunctionPoint((EasKInt)p, &P, w, xg, xold, Rv, dRv, F, acc);
  EasBlockReduce<3>(acc, partials);
}

__global__ void __launch_bounds__(EAS_CUDA_BLOCK) EasAdrJacobianKernel(EasAdrKParams P, const EasKScalar *w, const EasKScalar *dRv, EasKScalar *V, EasKInt ld)
{
  EAS_GRID_STRIDE(p, P.np)
  EasAdrKJacobianPoint((EasKInt)p, &P, w, dRv, V, ld);
}

__global__ void __launch_bounds__(EAS_CUDA_BLOCK) EasAdrInvDiagKernel(EasAdrKParams P, const EasKScalar *wl, const EasKScalar *dRv, EasKScalar *dinv, int *zero_point)
{
  EAS_GRID_STRIDE(p, P.np)
  if (EasAdrKInvDiagPoint((EasKInt)p, &P, wl, dRv, dinv)) atomicMin(zero_point, (int)p);
}

__global__ void __launch_bounds__(EAS_CUDA_BLOCK) EasAdrJacobianJacobiKernel(EasAdrKParams P, const EasKScalar *wl, const EasKScalar *dRv, const EasKScalar *dinv, EasKScalar *V, float *Vf, EasKInt ld)
{
  EAS_GRID_STRIDE(p, P.np)
  EasAdrKJacobianJacobiPoint((EasKInt)p, &P, wl, dRv, dinv, V, Vf, ld);
}

static PetscErrorCode EasAdrFunction_CUDA(EasBackend be, const EasAdrKParams *P, const PetscScalar *w, const PetscScalar *xg, const PetscScalar *xold, PetscScalar *Rv, PetscScalar *dRv, PetscScalar *F, PetscScalar sums[3])
{
  EasBackend_CUDA *cu = (EasBackend_CUDA *)be->data;
  const unsigned   nb = EasCudaBlocks(P->np, EAS_CUDA_MAX_RED_BLOCKS);

  PetscFunctionBegin;
  sums[0] = sums[1] = sums[2] = 0.0;
  if (P->np <= 0) PetscFunctionReturn(0);
  PetscCall(EasCudaTimerBegin(cu));
  EasAdrFunctionKernel<<<nb, EAS_CUDA_BLOCK, 0, cu->stream>>>(*P, w, xg, xold, Rv, dRv, F, cu->d_partials);
  EasCheckLaunchCUDA();
  PetscCall(EasCudaReduceFinish(cu, nb, 3, EAS_CUDA_KIND_VEC, sums));
  PetscCall(EasLogGpuFlops(34.0 * P->np));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasAdrJacobian_CUDA(EasBackend be, const EasAdrKParams *P, const PetscScalar *w, const PetscScalar *dRv, PetscScalar *V, PetscInt ld)
{
  EasBackend_CUDA *cu = (EasBackend_CUDA *)be->data;

  PetscFunctionBegin;
  if (P->np <= 0) PetscFunctionReturn(0);
  PetscCall(EasCudaTimerBegin(cu));
  EasAdrJacobianKernel<<<EasCudaBlocks(P->np, EAS_CUDA_MAX_BLOCKS), EAS_CUDA_BLOCK, 0, cu->stream>>>(*P, w, dRv, V, ld);
  EasCheckLaunchCUDA();
  PetscCall(EasCudaTimerEnd(cu, EAS_CUDA_KIND_VEC));
  PetscCall(EasLogGpuFlops(30.0 * P->np));
  PetscFunctionReturn(0);
}

/* The Jacobian with right Jacobi folded in: D^{-1} at every point, then the
   scaled rows (two launches: the rows read their neighbours' entries); the
   first zero diagonal comes back as a point index. */
static PetscErrorCode EasAdrJacobianJacobi_CUDA(EasBackend be, const EasAdrKParams *P, const PetscScalar *wl, const PetscScalar *dRv, PetscScalar *dinv, PetscScalar *V, float *Vf, PetscInt ld, PetscInt *zero_row)
{
  EasBackend_CUDA *cu = (EasBackend_CUDA *)be->data;
  const unsigned   nb = EasCudaBlocks(P->np, EAS_CUDA_MAX_BLOCKS);
  int              zp = (int)P->np;

  PetscFunctionBegin;
  *zero_row = -1;
  if (P->np <= 0) PetscFunctionReturn(0);
  PetscCall(EasCudaTimerBegin(cu));
  EasCallCUDA(cudaMemcpyAsync(cu->d_iflag, &zp, sizeof(int), cudaMemcpyHostToDevice, cu->stream));
  EasAdrInvDiagKernel<<<nb, EAS_CUDA_BLOCK, 0, cu->stream>>>(*P, wl, dRv, dinv, cu->d_iflag);
  EasCheckLaunchCUDA();
  EasAdrJacobianJacobiKernel<<<nb, EAS_CUDA_BLOCK, 0, cu->stream>>>(*P, wl, dRv, dinv, V, Vf, ld);
  EasCheckLaunchCUDA();
  EasCallCUDA(cudaMemcpyAsync(&zp, cu->d_iflag, sizeof(int), cudaMemcpyDeviceToHost, cu->stream));
  PetscCall(EasCudaTimerEnd(cu, EAS_CUDA_KIND_VEC));
  EasCallCUDA(cudaStreamSynchronize(cu->stream));
  if (zp < (int)P->np) { /* which of the point's two rows: its dinv entry is 0 */
    PetscScalar d0;
    EasCallCUDA(cudaMemcpy(&d0, dinv + 2 * (size_t)zp, sizeof(PetscScalar), cudaMemcpyDeviceToHost));
    *zero_row = 2 * (PetscInt)zp + (d0 == 0.0 ? 0 : 1);
  }
  PetscCall(EasLogGpuFlops(48.0 * P->np));
  PetscFunctionReturn(0);
}

/* Lang-Rünger Alg. 2, device part: u to the GPU, the element kernels of the
   GPU share, y_gpu back, all queued on the stream between two events; the
   host thread returns at once and computes CPU elements meanwhile. */
static PetscErrorCode EasEbeUnitBegin_CUDA(EasBackend be, const EasEbeKernel *K, PetscInt e0, PetscInt e1, PetscInt n, const PetscScalar *x_host, PetscScalar *x_dev, PetscScalar *y_dev, PetscScalar *y_host)
{
  EasBackend_CUDA *cu    = (EasBackend_CUDA *)be->data;
  const size_t     bytes = (size_t)n * sizeof(PetscScalar);

  PetscFunctionBegin;
  PetscCall(EasUnitBegin_Shared(be, &cu->unit, &cu->staging, K, e0, e1, n, x_host, y_host)); /* sequencing, pinned buffers, transfer and flop counts */
  if (!cu->unit_ev_created) {
    EasCallCUDA(cudaEventCreate(&cu->unit_ev[0]));
    EasCallCUDA(cudaEventCreate(&cu->unit_ev[1]));
    cu->unit_ev_created = PETSC_TRUE;
  }
  EasCallCUDA(cudaEventRecord(cu->unit_ev[0], cu->stream));
  EasCallCUDA(cudaMemcpyAsync(x_dev, x_host, bytes, cudaMemcpyHostToDevice, cu->stream));
  EasCallCUDA(cudaMemsetAsync(y_dev, 0, bytes, cu->stream));
  PetscCall(EasEbeLaunch_CUDA(cu, K, e0, e1, x_dev, y_dev));
  EasCallCUDA(cudaMemcpyAsync(y_host, y_dev, bytes, cudaMemcpyDeviceToHost, cu->stream));
  EasCallCUDA(cudaEventRecord(cu->unit_ev[1], cu->stream));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasEbeUnitEnd_CUDA(EasBackend be, PetscLogDouble *seconds)
{
  EasBackend_CUDA *cu = (EasBackend_CUDA *)be->data;
  float            ms = 0.0f;

  PetscFunctionBegin;
  *seconds = 0.0;
  PetscCall(EasUnitEnd_Shared(be, &cu->unit));
  EasCallCUDA(cudaEventSynchronize(cu->unit_ev[1]));
  EasCallCUDA(cudaEventElapsedTime(&ms, cu->unit_ev[0], cu->unit_ev[1]));
  *seconds = 1e-3 * (PetscLogDouble)ms;
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------ options and lifecycle */

static PetscErrorCode EasBackendSetFromOptions_CUDA(EasBackend be, PetscOptionItems *PetscOptionsObject)
{
  EasBackend_CUDA *cu  = (EasBackend_CUDA *)be->data;
  PetscInt         idx = (PetscInt)cu->mode;
  PetscBool        set = PETSC_FALSE;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "EasBackend CUDA options");
  PetscCall(PetscOptionsEList("-eas_cuda_spmv", "CUDA SpMV kernel", "EasBackendSetFromOptions", EasCudaSpMVModes, 2, EasCudaSpMVModes[cu->mode], &idx, &set));
  if (set) cu->mode = (EasCudaSpMVMode)idx;
  PetscOptionsHeadEnd();
  PetscFunctionReturn(0);
}

static PetscErrorCode EasBackendSynchronize_CUDA(EasBackend be)
{
  EasBackend_CUDA *cu = (EasBackend_CUDA *)be->data;

  PetscFunctionBegin;
  EasCallCUDA(cudaStreamSynchronize(cu->stream));
  PetscCall(EasCudaTimerFlush(cu));
  PetscFunctionReturn(0);
}

PetscErrorCode EasBackendGetKernelTimes_CUDA(EasBackend be, PetscLogDouble ms[EAS_CUDA_NKINDS], PetscInt count[EAS_CUDA_NKINDS])
{
  EasBackend_CUDA *cu = (EasBackend_CUDA *)be->data;

  PetscFunctionBegin;
  PetscCall(EasBackendSynchronize_CUDA(be));
  for (int k = 0; k < EAS_CUDA_NKINDS; k++) {
    if (ms) ms[k] = cu->ms[k];
    if (count) count[k] = cu->count[k];
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode EasBackendView_CUDA(EasBackend be, PetscViewer viewer)
{
  EasBackend_CUDA *cu = (EasBackend_CUDA *)be->data;
  cudaDeviceProp   prop;
  int              memclock = 0, buswidth = 0;
  PetscBool        iascii;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  if (!iascii) PetscFunctionReturn(0);
  PetscCall(EasBackendSynchronize_CUDA(be));
  EasCallCUDA(cudaGetDeviceProperties(&prop, cu->device));
  EasCallCUDA(cudaDeviceGetAttribute(&memclock, cudaDevAttrMemoryClockRate, cu->device));      /* kHz */
  EasCallCUDA(cudaDeviceGetAttribute(&buswidth, cudaDevAttrGlobalMemoryBusWidth, cu->device)); /* bits */
  PetscCall(PetscViewerASCIIPrintf(viewer, "CUDA device %d: %s, compute capability %d.%d, %d SMs, %.2f GiB, L2 %d KiB\n", cu->device, prop.name, prop.major, prop.minor, prop.multiProcessorCount, (double)prop.totalGlobalMem / (1024.0 * 1024.0 * 1024.0), prop.l2CacheSize / 1024));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  memory: %d-bit bus at %.0f MHz, theoretical peak %.1f GB/s\n", buswidth, memclock / 1.0e3, 2.0 * memclock * 1.0e3 * (buswidth / 8.0) / 1.0e9));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  SpMV kernel: %s\n", EasCudaSpMVModes[cu->mode]));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  kernel times (CUDA events):\n"));
  for (int k = 0; k < EAS_CUDA_NKINDS; k++) PetscCall(PetscViewerASCIIPrintf(viewer, "    %-16s %12.3f ms in %8" PetscInt_FMT " calls (%.4f ms/call)\n", EasCudaKindNames[k], (double)cu->ms[k], cu->count[k], cu->count[k] ? (double)cu->ms[k] / (double)cu->count[k] : 0.0));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasBackendDestroy_CUDA(EasBackend be)
{
  EasBackend_CUDA *cu = (EasBackend_CUDA *)be->data;

  PetscFunctionBegin;
  if (!cu) PetscFunctionReturn(0);
  if (cu->stream_created) EasCallCUDA(cudaStreamSynchronize(cu->stream));
  for (int k = 0; k < cu->nevents; k++) {
    EasCallCUDA(cudaEventDestroy(cu->ev_start[k]));
    EasCallCUDA(cudaEventDestroy(cu->ev_stop[k]));
  }
  if (cu->unit_ev_created) {
    EasCallCUDA(cudaEventDestroy(cu->unit_ev[0]));
    EasCallCUDA(cudaEventDestroy(cu->unit_ev[1]));
  }
  if (cu->sparse_created) EasCallCUSPARSE(cusparseDestroy(cu->sparse));
  if (cu->d_partials) EasCallCUDA(cudaFree(cu->d_partials));
  if (cu->d_result) EasCallCUDA(cudaFree(cu->d_result));
  if (cu->h_result) EasCallCUDA(cudaFreeHost(cu->h_result));
  if (cu->d_iflag) EasCallCUDA(cudaFree(cu->d_iflag));
  if (cu->stream_created) EasCallCUDA(cudaStreamDestroy(cu->stream));
  PetscCall(EasMemRegistryDestroy(&cu->staging));
  PetscCall(PetscFree(be->data));
  PetscFunctionReturn(0);
}

/* The smallest compute capability (x10) the fat binary runs on: the lowest
   virtual architecture compiled (its PTX is JIT-compiled for newer ones). */
static int EasCudaMinArch(void)
{
#if defined(__CUDA_ARCH_LIST__)
  const int archs[] = {__CUDA_ARCH_LIST__};
  int       amin    = archs[0];
  for (size_t k = 1; k < sizeof(archs) / sizeof(archs[0]); k++)
    if (archs[k] < amin) amin = archs[k];
  return amin / 10;
#else
  return 0;
#endif
}

/* Whether a CUDA device can be used, without creating a context (a context
   would wake the GPU: this is called when listing backends). */
static PetscErrorCode EasBackendAvailable_CUDA(PetscBool *avail, const char **why)
{
  static char reason[256];
  int         count = 0, dev = 0, major = 0, minor = 0;
  cudaError_t err;
  const int   amin = EasCudaMinArch();

  PetscFunctionBegin;
  *avail = PETSC_FALSE;
  if (why) *why = NULL;
  err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    (void)cudaGetLastError(); /* clear the error */
    PetscCall(PetscSNPrintf(reason, sizeof(reason), "no CUDA device (cudaGetDeviceCount: %s)", cudaGetErrorString(err)));
  } else if (count <= 0) {
    PetscCall(PetscSNPrintf(reason, sizeof(reason), "no CUDA device (cudaGetDeviceCount found 0 devices)"));
  } else if ((err = cudaGetDevice(&dev)) != cudaSuccess || (err = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev)) != cudaSuccess || (err = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev)) != cudaSuccess) {
    (void)cudaGetLastError();
    PetscCall(PetscSNPrintf(reason, sizeof(reason), "no CUDA device (device query: %s)", cudaGetErrorString(err)));
  } else if (10 * major + minor < amin) {
    PetscCall(PetscSNPrintf(reason, sizeof(reason), "no CUDA device (device %d has compute capability %d.%d, eas was compiled for %d.%d and newer)", dev, major, minor, amin / 10, amin % 10));
  } else {
    *avail = PETSC_TRUE;
    if (why) *why = "available"; /* the registry's word for a usable backend (eas_info printed "(null)") */
    PetscFunctionReturn(0);
  }
  if (why) *why = reason;
  PetscFunctionReturn(0);
}

/* The code this module holds (Makefile: CUDA_ARCHS, CUDA_PTX), compute capabilities x 10. */
#if defined(EAS_HAVE_CUDA_CODE_H)
  #include "eas_cuda_code.h" /* OBJDIR/gen, written by the Makefile */
#endif
#if defined(EAS_CUDA_SASS) && defined(EAS_CUDA_PTX)
static const int eas_cuda_sass[] = {EAS_CUDA_SASS}, eas_cuda_ptx[] = {EAS_CUDA_PTX};
  #define EAS_CUDA_NSASS ((int)(sizeof(eas_cuda_sass) / sizeof(eas_cuda_sass[0])))
  #define EAS_CUDA_NPTX  ((int)(sizeof(eas_cuda_ptx) / sizeof(eas_cuda_ptx[0])))
#else /* built outside the Makefile: not recorded */
static const int eas_cuda_sass[] = {0}, eas_cuda_ptx[] = {0};
  #define EAS_CUDA_NSASS 0
  #define EAS_CUDA_NPTX  0
#endif

/* Name and compute capability of device dev, and how a module kernel is loaded there (the current device is restored). */
static PetscErrorCode EasBackendDeviceQuery_CUDA(int dev, char name[], size_t len, int *cc, int *binary_version, int *ptx_version)
{
  cudaDeviceProp     prop;
  cudaFuncAttributes attr;
  cudaError_t        err;
  int                prev = 0;

  PetscFunctionBegin;
  EasCallCUDA(cudaGetDeviceProperties(&prop, dev));
  PetscCall(PetscStrncpy(name, prop.name, len));
  *cc             = 10 * prop.major + prop.minor;
  *binary_version = *ptx_version = 0;
  EasCallCUDA(cudaGetDevice(&prev));
  EasCallCUDA(cudaSetDevice(dev));
  err = cudaFuncGetAttributes(&attr, EasSetKernel);
  if (err == cudaSuccess) {
    *binary_version = attr.binaryVersion;
    *ptx_version    = attr.ptxVersion;
  } else (void)cudaGetLastError(); /* e.g. cudaErrorNoKernelImageForDevice: 0 and 0 */
  EasCallCUDA(cudaSetDevice(prev));
  PetscFunctionReturn(0);
}

/* The CUDA devices visible to this process (0 when the runtime finds none). */
static PetscErrorCode EasBackendDeviceCount_CUDA(int *count)
{
  PetscFunctionBegin;
  *count = 0;
  if (cudaGetDeviceCount(count) != cudaSuccess) {
    (void)cudaGetLastError();
    *count = 0;
  }
  PetscFunctionReturn(0);
}

/* The backend on device (chosen by the loader, src/backends/cudamodule.c). */
static PetscErrorCode EasBackendInit_CUDA(EasBackend be, int device)
{
  EasBackend_CUDA *cu;
  PetscBool        avail;
  const char      *why;
  int              major = 0, minor = 0;
  const int        amin = EasCudaMinArch();

  PetscFunctionBegin;
  PetscCall(EasBackendAvailable_CUDA(&avail, &why));
  PetscCheck(avail, PETSC_COMM_SELF, PETSC_ERR_SUP_SYS, "%s", why);
  EasCallCUDA(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  EasCallCUDA(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  PetscCheck(10 * major + minor >= amin, PETSC_COMM_SELF, PETSC_ERR_SUP_SYS, "CUDA device %d (-eas_cuda_device) has compute capability %d.%d, eas was compiled for %d.%d and newer", device, major, minor, amin / 10, amin % 10);
  EasCallCUDA(cudaSetDevice(device));
  be->host_is_device           = PETSC_FALSE;
  be->ops->malloc              = EasMalloc_CUDA;
  be->ops->free                = EasFree_CUDA;
  be->ops->copy_htod           = EasCopyHtoD_CUDA;
  be->ops->copy_dtoh           = EasCopyDtoH_CUDA;
  be->ops->set                 = EasVecSet_CUDA;
  be->ops->copy                = EasVecCopy_CUDA;
  be->ops->axpby               = EasVecAXPBY_CUDA;
  be->ops->pointwise_mult      = EasVecPointwiseMult_CUDA;
  be->ops->dot_local           = EasVecDot_CUDA;
  be->ops->dia_setup           = EasDiaSetUp_CUDA;
  be->ops->dia_destroy         = EasDiaDestroy_CUDA;
  be->ops->dia_mult            = EasDiaMult_CUDA;
  be->ops->dia_single          = EasDiaSingle_CUDA;
  be->ops->dia_mult_transpose  = EasDiaMultTranspose_CUDA;
  be->ops->bcgs_sweep1         = EasBcgsSweep1_CUDA;
  be->ops->bcgs_sweep2         = EasBcgsSweep2_CUDA;
  be->ops->bcgs_sweep3         = EasBcgsSweep3_CUDA;
  be->ops->set_from_options    = EasBackendSetFromOptions_CUDA;
  be->ops->view                = EasBackendView_CUDA;
  be->ops->synchronize         = EasBackendSynchronize_CUDA;
  be->ops->destroy             = EasBackendDestroy_CUDA;
  be->ops->ebe_apply           = EasEbeApply_CUDA;
  be->ops->ebe_diagonal        = EasEbeDiagonal_CUDA;
  be->ops->block_mult          = EasBlockMult_CUDA;
  be->ops->dia_jacobi          = EasDiaJacobi_CUDA;
  be->ops->adr_function        = EasAdrFunction_CUDA;
  be->ops->adr_jacobian        = EasAdrJacobian_CUDA;
  be->ops->adr_jacobian_jacobi = EasAdrJacobianJacobi_CUDA;
  be->ops->cg_update           = EasCgUpdate_CUDA;
  be->ops->pipecg_update       = EasPipeCgUpdate_CUDA;
  be->ops->ebe_unit_begin      = EasEbeUnitBegin_CUDA;
  be->ops->ebe_unit_end        = EasEbeUnitEnd_CUDA;
  be->ops->host_alloc          = EasHostAlloc_CUDA;
  be->ops->host_free           = EasHostFree_CUDA;

  /* be->data is set first, so that destroy frees whatever was created if a step fails */
  PetscCall(PetscNew(&cu));
  be->data   = cu;
  cu->mode   = EAS_CUDA_SPMV_NATIVE;
  cu->device = device;
  EasCallCUDA(cudaStreamCreate(&cu->stream));
  cu->stream_created = PETSC_TRUE;
  EasCallCUSPARSE(cusparseCreate(&cu->sparse));
  cu->sparse_created = PETSC_TRUE;
  EasCallCUSPARSE(cusparseSetStream(cu->sparse, cu->stream));
  EasCallCUDA(cudaMalloc((void **)&cu->d_partials, 3 * EAS_CUDA_MAX_RED_BLOCKS * sizeof(EasKScalar))); /* up to 3 sums (ADR residual) */
  EasCallCUDA(cudaMalloc((void **)&cu->d_result, 3 * sizeof(EasKScalar)));
  EasCallCUDA(cudaMallocHost((void **)&cu->h_result, 3 * sizeof(EasKScalar)));
  EasCallCUDA(cudaMalloc((void **)&cu->d_iflag, sizeof(int)));
  for (int k = 0; k < EAS_CUDA_NTIMERS; k++) {
    cudaError_t err = cudaEventCreate(&cu->ev_start[k]);
    if (err == cudaSuccess && (err = cudaEventCreate(&cu->ev_stop[k])) != cudaSuccess) (void)cudaEventDestroy(cu->ev_start[k]);
    EasCallCUDA(err);
    cu->nevents++; /* pairs [0,nevents) exist */
  }
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------ module entry point */

#define EAS_STR_(x) #x
#define EAS_STR(x) EAS_STR_(x)

/* The table libeas loads (src/backends/cudamodule.c, backend.h). */
extern "C" __attribute__((visibility("default"))) const EasCudaModule *EasCudaModuleGet(void)
{
  static const EasCudaModule mod = {EAS_CUDA_MODULE_ABI, sizeof(struct _p_EasBackend), sizeof(struct _EasBackendOps), sizeof(EasDiaKernel), sizeof(EasEbeKernel), sizeof(EasAdrKParams), "CUDA " EAS_STR(__CUDACC_VER_MAJOR__) "." EAS_STR(__CUDACC_VER_MINOR__) " (nvcc), cuSPARSE", EasBackendAvailable_CUDA, EasBackendDeviceCount_CUDA, EasBackendInit_CUDA, eas_cuda_sass, eas_cuda_ptx, EAS_CUDA_NSASS, EAS_CUDA_NPTX, EasBackendDeviceQuery_CUDA};
  return &mod;
}
