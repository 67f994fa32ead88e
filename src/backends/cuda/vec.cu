/*
  CUDA backend: vectors and reductions (the BLAS-1 ops of the ops table).

  - Reductions are two-stage and deterministic: a fixed number of blocks
    (depending on n only) each write one partial per value, then one block
    sums the partials in a fixed order; the result goes to pinned memory.
    EasCudaReduceFinish and EasCudaDots serve the fused sweeps and updates
    of dia.cu, ebe.cu and adr.cu as well.
*/
#include "cudaimpl.h"

/* ------------------------------------------------------------------ device code */

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

__global__ void __launch_bounds__(EAS_CUDA_BLOCK) EasGatherKernel(EasKInt n, const EasKInt *idx, const EasKScalar *x, EasKScalar *y)
{
  EAS_GRID_STRIDE(i, n)
  y[i] = EasGatherEntry(i, idx, x);
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

/* ------------------------------------------------------------------ reductions (host side) */

/* Second stage and read-back of nv sums from nb partials (the caller has
   launched the first stage and started the timer). */
PetscErrorCode EasCudaReduceFinish(EasBackend_CUDA *cu, unsigned nb, int nv, EasCudaKind kind, PetscScalar *res)
{
  PetscFunctionBegin;
  if (nv == 1)
    EasReduceFinalKernel<1><<<1, EAS_CUDA_BLOCK, 0, cu->stream>>>((int)nb, cu->d_partials, cu->d_result);
  else if (nv == 2)
    EasReduceFinalKernel<2><<<1, EAS_CUDA_BLOCK, 0, cu->stream>>>((int)nb, cu->d_partials, cu->d_result);
  else if (nv == 3)
    EasReduceFinalKernel<3><<<1, EAS_CUDA_BLOCK, 0, cu->stream>>>((int)nb, cu->d_partials, cu->d_result);
  else
    EasReduceFinalKernel<5><<<1, EAS_CUDA_BLOCK, 0, cu->stream>>>((int)nb, cu->d_partials, cu->d_result);
  EasCheckLaunchCUDA();
  PetscCall(EasCudaTimerEnd(cu, kind));
  EasCallCUDA(cudaMemcpyAsync(cu->h_result, cu->d_result, (size_t)nv * sizeof(EasKScalar), cudaMemcpyDeviceToHost, cu->stream));
  EasCallCUDA(cudaStreamSynchronize(cu->stream));
  for (int k = 0; k < nv; k++) res[k] = cu->h_result[k];
  PetscCall(EasCudaTimerFlush(cu)); /* the stream is idle: collecting is free */
  PetscFunctionReturn(0);
}

/* Dots (a0,b0) [and (a1,b1)] in nv sums, as one timed op of the given kind. */
PetscErrorCode EasCudaDots(EasBackend_CUDA *cu, PetscInt n, int nv, const PetscScalar *a0, const PetscScalar *b0, const PetscScalar *a1, const PetscScalar *b1, const PetscScalar *a2, const PetscScalar *b2, EasCudaKind kind, PetscBool start_timer, PetscScalar *res)
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

/* ------------------------------------------------------------------ vectors */

PetscErrorCode EasVecSet_CUDA(EasBackend be, PetscInt n, PetscScalar alpha, PetscScalar *y)
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

PetscErrorCode EasVecCopy_CUDA(EasBackend be, PetscInt n, const PetscScalar *x, PetscScalar *y)
{
  EasBackend_CUDA *cu = (EasBackend_CUDA *)be->data;

  PetscFunctionBegin;
  if (n <= 0 || x == y) PetscFunctionReturn(0);
  PetscCall(EasCudaTimerBegin(cu));
  EasCallCUDA(cudaMemcpyAsync(y, x, (size_t)n * sizeof(PetscScalar), cudaMemcpyDeviceToDevice, cu->stream));
  PetscCall(EasCudaTimerEnd(cu, EAS_CUDA_KIND_VEC));
  PetscFunctionReturn(0);
}

PetscErrorCode EasVecGather_CUDA(EasBackend be, PetscInt n, const PetscInt *idx, const PetscScalar *x, PetscScalar *y)
{
  EasBackend_CUDA *cu = (EasBackend_CUDA *)be->data;

  PetscFunctionBegin;
  if (n <= 0) PetscFunctionReturn(0);
  PetscCall(EasCudaTimerBegin(cu));
  EasGatherKernel<<<EasCudaBlocks(n, EAS_CUDA_MAX_BLOCKS), EAS_CUDA_BLOCK, 0, cu->stream>>>(n, idx, x, y);
  EasCheckLaunchCUDA();
  PetscCall(EasCudaTimerEnd(cu, EAS_CUDA_KIND_VEC));
  PetscFunctionReturn(0);
}

PetscErrorCode EasVecAXPBY_CUDA(EasBackend be, PetscInt n, PetscScalar a, const PetscScalar *x, PetscScalar b, PetscScalar *y)
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

PetscErrorCode EasVecPointwiseMult_CUDA(EasBackend be, PetscInt n, const PetscScalar *x, const PetscScalar *y, PetscScalar *w)
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
PetscErrorCode EasVecDot_CUDA(EasBackend be, PetscInt n, const PetscScalar *x, const PetscScalar *y, PetscScalar *dot)
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
