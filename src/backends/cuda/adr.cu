/*
  CUDA backend: the ADR assembly (residual, Jacobian, the Jacobian with right
  Jacobi folded in) around the point bodies of kernels.h.
*/
#include "cudaimpl.h"

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

PetscErrorCode EasAdrFunction_CUDA(EasBackend be, const EasAdrKParams *P, const PetscScalar *w, const PetscScalar *xg, const PetscScalar *xold, PetscScalar *Rv, PetscScalar *dRv, PetscScalar *F, PetscScalar sums[3])
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

PetscErrorCode EasAdrJacobian_CUDA(EasBackend be, const EasAdrKParams *P, const PetscScalar *w, const PetscScalar *dRv, PetscScalar *V, PetscInt ld)
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
PetscErrorCode EasAdrJacobianJacobi_CUDA(EasBackend be, const EasAdrKParams *P, const PetscScalar *wl, const PetscScalar *dRv, PetscScalar *dinv, PetscScalar *V, float *Vf, PetscInt ld, PetscInt *zero_row)
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

/* ------------------------------------------------------------------ the padded state and the halo planes */

__global__ void __launch_bounds__(EAS_CUDA_BLOCK) EasAdrPackKernel(EasAdrKHalo H, const EasKScalar *x, EasKScalar *buf)
{
  EAS_GRID_STRIDE(t, H.pack_start[6])
  EasAdrKPackPoint((EasKIdx)t, &H, x, buf);
}

__global__ void __launch_bounds__(EAS_CUDA_BLOCK) EasAdrPadKernel(EasAdrKHalo H, EasKInt n, EasKScalar *x, const EasKScalar *ghost, const EasKScalar *bval, EasKScalar *xg)
{
  EAS_GRID_STRIDE(t, n)
  EasAdrKPadPoint((EasKIdx)t, &H, x, ghost, bval, xg);
}

__global__ void __launch_bounds__(EAS_CUDA_BLOCK) EasAdrUpdateKernel(EasAdrKHalo H, EasKInt np, EasKScalar c, const EasKScalar *dinv, EasKScalar *y, EasKScalar *x, const EasKScalar *ewt, int keep, EasKScalar *partials)
{
  EasKScalar acc[5] = {0.0, 0.0, 0.0, 0.0, 0.0};
  EAS_GRID_STRIDE(p, np)
  EasAdrKUpdatePointOwn((EasKIdx)p, EasAdrKOwnPoint(&H, (EasKIdx)p), c, dinv, y, x, ewt, keep, acc);
  EasBlockReduce<5>(acc, partials);
}

/* The planes of the faces with a neighbour into the packed buffer (the
   only device data of an outer iteration that goes to the host). */
PetscErrorCode EasAdrPack_CUDA(EasBackend be, const EasAdrKHalo *H, const PetscScalar *x, PetscScalar *buf)
{
  EasBackend_CUDA *cu = (EasBackend_CUDA *)be->data;

  PetscFunctionBegin;
  if (H->pack_start[6] <= 0) PetscFunctionReturn(0);
  PetscCall(EasCudaTimerBegin(cu));
  EasAdrPackKernel<<<EasCudaBlocks(H->pack_start[6], EAS_CUDA_MAX_BLOCKS), EAS_CUDA_BLOCK, 0, cu->stream>>>(*H, x, buf);
  EasCheckLaunchCUDA();
  PetscCall(EasCudaTimerEnd(cu, EAS_CUDA_KIND_VEC));
  PetscFunctionReturn(0);
}

/* The padded state from the state, the neighbours' planes and the
   Dirichlet values (one launch: the mirror reads the state, not xg). */
PetscErrorCode EasAdrPad_CUDA(EasBackend be, const EasAdrKHalo *H, PetscScalar *x, const PetscScalar *ghost, const PetscScalar *bval, PetscScalar *xg)
{
  EasBackend_CUDA *cu = (EasBackend_CUDA *)be->data;
  const PetscInt64 n  = (PetscInt64)H->nx * H->ny * H->nz + H->fill_start[6];

  PetscFunctionBegin;
  PetscCheck(n < PETSC_MAX_INT, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "adr_pad: %" PetscInt64_FMT " points of the padded state exceed the kernels' 32-bit index", n);
  if (n <= 0) PetscFunctionReturn(0);
  PetscCall(EasCudaTimerBegin(cu));
  EasAdrPadKernel<<<EasCudaBlocks(n, EAS_CUDA_MAX_BLOCKS), EAS_CUDA_BLOCK, 0, cu->stream>>>(*H, (EasKInt)n, x, ghost, bval, xg);
  EasCheckLaunchCUDA();
  PetscCall(EasCudaTimerEnd(cu, EAS_CUDA_KIND_VEC));
  PetscFunctionReturn(0);
}

/* The Newton update and its five sums (a fixed number of blocks: the same
   sums on every run). */
PetscErrorCode EasAdrUpdate_CUDA(EasBackend be, const EasAdrKHalo *H, PetscScalar c, const PetscScalar *dinv, PetscScalar *y, PetscScalar *x, const PetscScalar *ewt, PetscBool keep, PetscScalar sums[5])
{
  EasBackend_CUDA *cu = (EasBackend_CUDA *)be->data;
  const PetscInt   np = (PetscInt)H->nx * H->ny * H->nz;
  const unsigned   nb = EasCudaBlocks(np, EAS_CUDA_MAX_RED_BLOCKS);

  PetscFunctionBegin;
  for (int k = 0; k < 5; k++) sums[k] = 0.0;
  if (np <= 0) PetscFunctionReturn(0);
  PetscCall(EasCudaTimerBegin(cu));
  EasAdrUpdateKernel<<<nb, EAS_CUDA_BLOCK, 0, cu->stream>>>(*H, (EasKInt)np, c, dinv, y, x, ewt, keep ? 1 : 0, cu->d_partials);
  EasCheckLaunchCUDA();
  PetscCall(EasCudaReduceFinish(cu, nb, 5, EAS_CUDA_KIND_VEC, sums));
  PetscCall(EasLogGpuFlops(8.0 * np));
  PetscFunctionReturn(0);
}
