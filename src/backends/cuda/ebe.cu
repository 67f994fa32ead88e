/*
  CUDA backend: the element-by-element operator (apply, diagonal, point-block
  product), the fused CG updates and the EBE split's device unit.

  - EBE: the storage the operator chose (-ebe_storage) as a template
    constant of the element kernels; the operator's values in the device
    layout (kernels/ebe.h EasEbeLaneBase: coalesced), applied in one launch
    with an atomic scatter or colour by colour (-ebe_deterministic); a
    split's unit in the host layout with the CPU's dispatch
    (EasEbeElementApplyStorage); the diagonal reads the full matrices.
*/
#include "cudaimpl.h"

/* ------------------------------------------------------------------ EBE and CG */

/* The warp kernel (kernels/ebe.h "warp kernel"; -ebe_device_layout warp,
   the default, and a split's device unit): the host layout, a group of G
   lanes per element, each row of A_el read by the whole group in one
   coalesced slice.  G (the group's width, EasEbeWarpWidth) and WR, the
   rows (K->warp_rows, -ebe_warp_rows) loaded before their sums, are
   template constants (the row loop's divisions are shifts); the rows'
   offsets are walked, not recomputed.  WR rows are loaded before their sums, so that a group has that many loads in flight while
   the shuffles of the sums wait.  The loop over groups is uniform over a warp (its first
   group's index), so every lane takes part in the shuffles; the groups
   past ngroups compute zeros and scatter nothing.  ATOMIC: the groups
   apply the elements k0 + w with an atomic scatter (one launch); else
   color_elem[k0 + w] of one colour's slice, plain sums.  /cpu/memcheck runs
   the same pieces with a loop over the lanes (memcheckebe.c). */
template <int ST, int ATOMIC, int WR, int G>
__global__ void __launch_bounds__(EAS_EBE_WARP_BLOCK) EasEbeApplyWarpKernel(EasKIdx ngroups, EasKInt k0, const EasKInt *__restrict__ color_elem, EasKInt nen, EasKInt dof, const EasKInt *__restrict__ conn, const void *__restrict__ vals, const EasKScalar *__restrict__ x, EasKScalar *__restrict__ y)
{
  constexpr int      SYM    = (ST == EAS_EBE_ST_SYMMETRIC || ST == EAS_EBE_ST_SYMMETRIC_SINGLE);
  constexpr int      F32    = (ST == EAS_EBE_ST_SINGLE || ST == EAS_EBE_ST_SYMMETRIC_SINGLE);
  constexpr unsigned FULL   = 0xffffffffu;
  const EasKInt      m      = nen * dof;
  const EasKIdx      nv     = SYM ? (EasKIdx)m * (m + 1) / 2 : (EasKIdx)m * m;
  const EasKInt      g      = (EasKInt)(threadIdx.x % G);
  const EasKIdx      stride = (EasKIdx)blockDim.x * gridDim.x / G; /* groups of the grid */

  for (EasKIdx w = ((EasKIdx)blockIdx.x * blockDim.x + threadIdx.x) / G; w - (EasKIdx)((threadIdx.x % 32u) / G) < ngroups; w += stride) {
    const int      active = w < ngroups;
    const EasKInt  e      = active ? EasEbeWarpElement(w, ATOMIC, k0, color_elem) : EasEbeWarpElement(0, ATOMIC, k0, color_elem);
    const EasKInt *c      = conn + (EasKIdx)e * nen;
    const double  *Ad     = (const double *)vals + (EasKIdx)e * nv;
    const float   *Af     = (const float *)vals + (EasKIdx)e * nv;
    EasKScalar     xr[EAS_EBE_WSLOTS], yr[EAS_EBE_WSLOTS];
    EasKInt        off = 0; /* the next row's offset (EasEbeWarpRowOffset(0) = 0), walked by EasEbeWarpRowStep */

    EasEbeWarpGather(g, G, m, dof, c, x, xr, yr); /* o2el */
    for (EasKInt i0 = 0; i0 < m; i0 += WR) {
      EasKScalar a[WR][EAS_EBE_WSLOTS], p[WR];
#pragma unroll
      for (int r = 0; r < WR; r++) {
        if (F32)
          EasEbeWarpLoad_F(g, G, i0 + r, m, SYM, Af + off, a[r]);
        else
          EasEbeWarpLoad(g, G, i0 + r, m, SYM, Ad + off, a[r]);
        off += EasEbeWarpRowStep(i0 + r, m, SYM);
      }
#pragma unroll
      for (int r = 0; r < WR; r++) { /* s_i = sum_j A_ij x_j (the lane's columns); y_j += A_ij x_i, j > i */
        const EasKInt    i  = i0 + r;
        const EasKScalar xi = __shfl_sync(FULL, EasEbeWarpSlot(xr, i / G), i % G, G);
        p[r]                = EasEbeWarpUse(g, G, i, SYM, a[r], xi, xr, yr);
      }
#pragma unroll
      for (int o = G / 2; o > 0; o >>= 1) /* the group's sums: the xor butterfly (EasEbeWarpSumHost) */
#pragma unroll
        for (int r = 0; r < WR; r++) p[r] += __shfl_xor_sync(FULL, p[r], o);
#pragma unroll
      for (int r = 0; r < WR; r++) EasEbeWarpOwnerAdd(g, G, i0 + r, p[r], yr); /* y_i += s_i */
    }
    if (active) EasEbeWarpScatter(g, G, m, dof, c, yr, ATOMIC, y); /* el2o */
  }
}

/* The device layout (kernels.h EasEbeLaneBase: elements interleaved by
   warps, so the 32 threads of a warp read 32 consecutive values): thread
   gid of the launch runs EasEbeApplyThread, the whole body, which
   /cpu/memcheck runs in a loop over (block, thread) on the host.  ATOMIC:
   one launch over an element range with an atomic scatter; else one
   colour's slice (-ebe_deterministic). */
template <int ST, int ATOMIC>
__global__ void __launch_bounds__(EAS_EBE_BLOCK) EasEbeApplyLanesKernel(EasKIdx n, EasKInt k0, EasKInt k1, const EasKInt *__restrict__ color_elem, EasKInt nen, EasKInt dof, const EasKInt *__restrict__ conn, const void *__restrict__ vals, const EasKScalar *__restrict__ x, EasKScalar *__restrict__ y)
{
  for (EasKIdx gid = (EasKIdx)blockIdx.x * blockDim.x + threadIdx.x; gid < n; gid += (EasKIdx)blockDim.x * gridDim.x) EasEbeApplyThread(gid, ATOMIC, k0, k1, color_elem, nen, dof, conn, ST, vals, x, y);
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

/* One launch of the device-layout kernel over [k0,k1) (atomic: elements,
   else positions of a colour's list); the grid /cpu/memcheck emulates. */
template <int ST, int ATOMIC>
static void EasEbeLaunchLanes_CUDA(EasBackend_CUDA *cu, const EasEbeKernel *K, PetscInt k0, PetscInt k1, const PetscScalar *x, PetscScalar *y)
{
  const EasKIdx n = EasEbeApplyThreads(ATOMIC, k0, k1);
  if (n <= 0) return;
  EasEbeApplyLanesKernel<ST, ATOMIC><<<EasLaunchBlocks((int64_t)n, EAS_EBE_BLOCK, EAS_EBE_MAX_BLOCKS), EAS_EBE_BLOCK, 0, cu->stream>>>(n, k0, k1, K->color_elem, K->nen, K->dof, K->conn, K->aels, x, y);
}

/* One launch of the warp kernel over [k0,k1) (atomic: elements, else
   positions of a colour's list): a group of EasEbeWarpWidth(m) lanes per
   element. */
template <int ST, int ATOMIC>
static void EasEbeLaunchWarp_CUDA(EasBackend_CUDA *cu, const EasEbeKernel *K, PetscInt k0, PetscInt k1, const PetscScalar *x, PetscScalar *y)
{
  const EasKIdx  ngroups = k1 - k0;
  const EasKInt  G       = EasEbeWarpWidth(K->nen * K->dof);
  const void    *vals    = ST == EAS_EBE_ST_FULL ? (const void *)K->ael : K->aels;
  const unsigned nb      = EasLaunchBlocks((int64_t)ngroups * G, EAS_EBE_WARP_BLOCK, EAS_EBE_MAX_BLOCKS);
  if (ngroups <= 0) return;
  /* the group width and the rows in flight as template constants: the row loop's divisions by G become shifts */
  if (G == 32 && K->warp_rows == 8)
    EasEbeApplyWarpKernel<ST, ATOMIC, 8, 32><<<nb, EAS_EBE_WARP_BLOCK, 0, cu->stream>>>(ngroups, k0, K->color_elem, K->nen, K->dof, K->conn, vals, x, y);
  else if (G == 32)
    EasEbeApplyWarpKernel<ST, ATOMIC, 4, 32><<<nb, EAS_EBE_WARP_BLOCK, 0, cu->stream>>>(ngroups, k0, K->color_elem, K->nen, K->dof, K->conn, vals, x, y);
  else
    EasEbeApplyWarpKernel<ST, ATOMIC, 4, 8><<<nb, EAS_EBE_WARP_BLOCK, 0, cu->stream>>>(ngroups, k0, K->color_elem, K->nen, K->dof, K->conn, vals, x, y); /* m <= 8: two groups of 4 rows */
}

/* The element kernels of [e0,e1) of storage ST on the stream: one atomic
   launch, or one per colour (-ebe_deterministic); the warp kernel on the
   host layout (K->lanes = 1: -ebe_device_layout warp, and a split's
   unit), or the thread-per-element kernel on the lanes layout. */
template <int ST>
static PetscErrorCode EasEbeLaunchStorage_CUDA(EasBackend_CUDA *cu, const EasEbeKernel *K, PetscInt e0, PetscInt e1, const PetscScalar *x, PetscScalar *y)
{
  PetscFunctionBegin;
  if (!K->deterministic) {
    if (K->lanes > 1)
      EasEbeLaunchLanes_CUDA<ST, 1>(cu, K, e0, e1, x, y);
    else
      EasEbeLaunchWarp_CUDA<ST, 1>(cu, K, e0, e1, x, y);
    EasCheckLaunchCUDA();
    PetscFunctionReturn(0);
  }
  for (PetscInt c = 0; c < K->ncolors; c++) {
    PetscInt k0, k1;
    EasEbeColorSlice(K, c, e0, e1, &k0, &k1);
    if (k1 <= k0) continue;
    if (K->lanes > 1)
      EasEbeLaunchLanes_CUDA<ST, 0>(cu, K, k0, k1, x, y);
    else
      EasEbeLaunchWarp_CUDA<ST, 0>(cu, K, k0, k1, x, y);
    EasCheckLaunchCUDA();
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode EasEbeLaunch_CUDA(EasBackend_CUDA *cu, const EasEbeKernel *K, PetscInt e0, PetscInt e1, const PetscScalar *x, PetscScalar *y)
{
  PetscFunctionBegin;
  PetscCheck(K->lanes <= 1 || K->lanes == EAS_EBE_LANES, PETSC_COMM_SELF, PETSC_ERR_PLIB, "/gpu/cuda: EBE layout of %" PetscInt_FMT " lanes, the kernels' is %d", K->lanes, EAS_EBE_LANES);
  switch (K->storage) {
  case EAS_EBE_STORAGE_SYMMETRIC:
    PetscCall(EasEbeLaunchStorage_CUDA<EAS_EBE_ST_SYMMETRIC>(cu, K, e0, e1, x, y));
    break;
  case EAS_EBE_STORAGE_SINGLE:
    PetscCall(EasEbeLaunchStorage_CUDA<EAS_EBE_ST_SINGLE>(cu, K, e0, e1, x, y));
    break;
  case EAS_EBE_STORAGE_SYMMETRIC_SINGLE:
    PetscCall(EasEbeLaunchStorage_CUDA<EAS_EBE_ST_SYMMETRIC_SINGLE>(cu, K, e0, e1, x, y));
    break;
  default:
    PetscCall(EasEbeLaunchStorage_CUDA<EAS_EBE_ST_FULL>(cu, K, e0, e1, x, y));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode EasEbeApply_CUDA(EasBackend be, const EasEbeKernel *K, PetscInt e0, PetscInt e1, const PetscScalar *x, PetscScalar *y)
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

PetscErrorCode EasEbeDiagonal_CUDA(EasBackend be, const EasEbeKernel *K, PetscInt e0, PetscInt e1, PetscInt bs, PetscScalar *d)
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

PetscErrorCode EasBlockMult_CUDA(EasBackend be, PetscInt nb, PetscInt bs, const PetscScalar *B, const PetscScalar *x, PetscScalar *y)
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
PetscErrorCode EasCgUpdate_CUDA(EasBackend be, PetscInt n, PetscInt nown, PetscScalar alpha, const PetscScalar *p, const PetscScalar *q, const PetscScalar *dinv, PetscScalar *x, PetscScalar *r, PetscScalar *z, PetscScalar dots[2])
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

PetscErrorCode EasPipeCgUpdate_CUDA(EasBackend be, PetscInt n, PetscInt nown, PetscScalar alpha, PetscScalar beta, const PetscScalar *dinv, PetscScalar *z, PetscScalar *q, PetscScalar *s, PetscScalar *p, PetscScalar *x, PetscScalar *r, PetscScalar *u, PetscScalar *w, PetscScalar *m, const PetscScalar *nv, PetscScalar dots[3])
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

/* ------------------------------------------------------------------ EBE split unit */

/* Lang-Rünger Alg. 2, device part: u to the GPU, the element kernels of the
   GPU share, y_gpu back, all queued on the stream between two events; the
   host thread returns at once and computes CPU elements meanwhile. */
PetscErrorCode EasEbeUnitBegin_CUDA(EasBackend be, const EasEbeKernel *K, PetscInt e0, PetscInt e1, PetscInt n, const PetscScalar *x_host, PetscScalar *x_dev, PetscScalar *y_dev, PetscScalar *y_host)
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

PetscErrorCode EasEbeUnitEnd_CUDA(EasBackend be, PetscLogDouble *seconds)
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

/* ------------------------------------------------------------------ the split on the device operator */

/* Gather and scatter-add over a host unit's list (kernels/ebe.h): one
   thread per entry; the list's entries are distinct, so no atomics. */
__global__ void __launch_bounds__(EAS_CUDA_BLOCK) EasEbeGatherKernel(EasKInt n, const EasKInt *__restrict__ idx, const EasKScalar *__restrict__ x, EasKScalar *__restrict__ buf)
{
  EAS_GRID_STRIDE(i, n)
  EasEbeGatherEntry((EasKInt)i, idx, x, buf);
}

__global__ void __launch_bounds__(EAS_CUDA_BLOCK) EasEbeScatterAddKernel(EasKInt n, const EasKInt *__restrict__ idx, const EasKScalar *__restrict__ buf, EasKScalar *__restrict__ y)
{
  EAS_GRID_STRIDE(i, n)
  EasEbeScatterAddEntry((EasKInt)i, idx, buf, y);
}

/* The transfer stream and its events, created at the first gather. */
static PetscErrorCode EasEbeXferCreate_CUDA(EasBackend_CUDA *cu)
{
  PetscFunctionBegin;
  if (cu->xev_created) PetscFunctionReturn(0);
  EasCallCUDA(cudaStreamCreateWithFlags(&cu->xstream, cudaStreamNonBlocking));
  cu->xstream_created = PETSC_TRUE;
  EasCallCUDA(cudaEventCreateWithFlags(&cu->xev_ready, cudaEventDisableTiming));
  EasCallCUDA(cudaEventCreateWithFlags(&cu->xev_gathered, cudaEventDisableTiming));
  EasCallCUDA(cudaEventCreateWithFlags(&cu->xev_copied, cudaEventDisableTiming));
  for (int k = 0; k < EAS_CUDA_XPAIRS; k++) {
    EasCallCUDA(cudaEventCreate(&cu->xt_start[k]));
    EasCallCUDA(cudaEventCreate(&cu->xt_stop[k]));
  }
  cu->xev_created = PETSC_TRUE;
  PetscFunctionReturn(0);
}

PetscErrorCode EasEbeXferDestroy_CUDA(EasBackend_CUDA *cu)
{
  PetscFunctionBegin;
  if (cu->xstream_created) EasCallCUDA(cudaStreamSynchronize(cu->xstream));
  if (cu->xev_created) {
    EasCallCUDA(cudaEventDestroy(cu->xev_ready));
    EasCallCUDA(cudaEventDestroy(cu->xev_gathered));
    EasCallCUDA(cudaEventDestroy(cu->xev_copied));
    for (int k = 0; k < EAS_CUDA_XPAIRS; k++) {
      EasCallCUDA(cudaEventDestroy(cu->xt_start[k]));
      EasCallCUDA(cudaEventDestroy(cu->xt_stop[k]));
    }
    cu->xev_created = PETSC_FALSE;
  }
  if (cu->xstream_created) EasCallCUDA(cudaStreamDestroy(cu->xstream));
  cu->xstream_created = PETSC_FALSE;
  PetscFunctionReturn(0);
}

/* Adds the recorded pairs' times to xfer_ms (waits for them). */
static PetscErrorCode EasEbeXferCollect_CUDA(EasBackend_CUDA *cu)
{
  PetscFunctionBegin;
  for (int k = 0; k < cu->nxpairs; k++) {
    float ms = 0.0f;
    EasCallCUDA(cudaEventSynchronize(cu->xt_stop[k]));
    EasCallCUDA(cudaEventElapsedTime(&ms, cu->xt_start[k], cu->xt_stop[k]));
    cu->xfer_ms += (double)ms;
  }
  cu->nxpairs = 0;
  PetscFunctionReturn(0);
}

/* The next timing pair (collects the pool when it is full). */
static PetscErrorCode EasEbeXferPair_CUDA(EasBackend_CUDA *cu, int *k)
{
  PetscFunctionBegin;
  if (cu->nxpairs == EAS_CUDA_XPAIRS) PetscCall(EasEbeXferCollect_CUDA(cu));
  *k = cu->nxpairs++;
  PetscFunctionReturn(0);
}

/* x is ready once the work queued on stream is: the transfer stream waits
   for that, gathers the list and copies it into the pinned buffer; stream
   goes on with the device unit's elements meanwhile. */
PetscErrorCode EasEbeGather_CUDA(EasBackend be, PetscInt n, const PetscInt *idx, const PetscScalar *x, PetscScalar *buf, PetscScalar *host)
{
  EasBackend_CUDA *cu = (EasBackend_CUDA *)be->data;
  int              k  = 0;

  PetscFunctionBegin;
  PetscCall(EasXferBook_Shared(be, &cu->staging, "ebe_gather", host, n, PETSC_FALSE));
  if (!n) PetscFunctionReturn(0);
  PetscCall(EasEbeXferCreate_CUDA(cu));
  PetscCall(EasEbeXferPair_CUDA(cu, &k));
  EasCallCUDA(cudaEventRecord(cu->xev_ready, cu->stream));
  EasCallCUDA(cudaStreamWaitEvent(cu->xstream, cu->xev_ready, 0));
  EasCallCUDA(cudaEventRecord(cu->xt_start[k], cu->xstream));
  EasEbeGatherKernel<<<EasCudaBlocks(n, EAS_CUDA_MAX_BLOCKS), EAS_CUDA_BLOCK, 0, cu->xstream>>>(n, idx, x, buf);
  EasCheckLaunchCUDA();
  EasCallCUDA(cudaMemcpyAsync(host, buf, (size_t)n * sizeof(PetscScalar), cudaMemcpyDeviceToHost, cu->xstream));
  EasCallCUDA(cudaEventRecord(cu->xt_stop[k], cu->xstream));
  EasCallCUDA(cudaEventRecord(cu->xev_gathered, cu->xstream));
  PetscFunctionReturn(0);
}

PetscErrorCode EasEbeGatherWait_CUDA(EasBackend be)
{
  EasBackend_CUDA *cu = (EasBackend_CUDA *)be->data;

  PetscFunctionBegin;
  if (cu->xev_created) EasCallCUDA(cudaEventSynchronize(cu->xev_gathered));
  PetscFunctionReturn(0);
}

/* The partial result up on the transfer stream; the scatter-add on stream
   after the device unit's elements (stream order) and after the copy (an
   event), so the scatter-adds run in the order of the calls. */
PetscErrorCode EasEbeScatter_CUDA(EasBackend be, PetscInt n, const PetscInt *idx, const PetscScalar *host, PetscScalar *buf, PetscScalar *y)
{
  EasBackend_CUDA *cu = (EasBackend_CUDA *)be->data;
  int              k  = 0;

  PetscFunctionBegin;
  PetscCall(EasXferBook_Shared(be, &cu->staging, "ebe_scatter", host, n, PETSC_TRUE));
  if (!n) PetscFunctionReturn(0);
  PetscCall(EasEbeXferCreate_CUDA(cu));
  PetscCall(EasEbeXferPair_CUDA(cu, &k));
  EasCallCUDA(cudaEventRecord(cu->xt_start[k], cu->xstream));
  EasCallCUDA(cudaMemcpyAsync(buf, host, (size_t)n * sizeof(PetscScalar), cudaMemcpyHostToDevice, cu->xstream));
  EasCallCUDA(cudaEventRecord(cu->xt_stop[k], cu->xstream));
  EasCallCUDA(cudaEventRecord(cu->xev_copied, cu->xstream));
  EasCallCUDA(cudaStreamWaitEvent(cu->stream, cu->xev_copied, 0));
  PetscCall(EasEbeXferPair_CUDA(cu, &k));
  EasCallCUDA(cudaEventRecord(cu->xt_start[k], cu->stream));
  EasEbeScatterAddKernel<<<EasCudaBlocks(n, EAS_CUDA_MAX_BLOCKS), EAS_CUDA_BLOCK, 0, cu->stream>>>(n, idx, buf, y);
  EasCheckLaunchCUDA();
  EasCallCUDA(cudaEventRecord(cu->xt_stop[k], cu->stream));
  PetscFunctionReturn(0);
}

PetscErrorCode EasEbeXferTime_CUDA(EasBackend be, PetscLogDouble *seconds)
{
  EasBackend_CUDA *cu = (EasBackend_CUDA *)be->data;

  PetscFunctionBegin;
  PetscCall(EasEbeXferCollect_CUDA(cu));
  *seconds    = 1e-3 * (PetscLogDouble)cu->xfer_ms;
  cu->xfer_ms = 0.0;
  PetscFunctionReturn(0);
}
