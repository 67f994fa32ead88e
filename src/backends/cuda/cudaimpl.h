/*
  Private header of the CUDA backend (compiled by nvcc only).

  Error-checking macros in the style of PETSc's PetscCallCUDA (not available:
  Debian's PETSc is built without CUDA), the backend's private data and the
  per-matrix cuSPARSE data, the device helpers every kernel file uses, and
  the functions the backend's files share: cuda.cu (lifecycle, stream,
  timers, memory), vec.cu (vectors, reductions), dia.cu (DIA, cuSPARSE,
  BiCGStab sweeps, right Jacobi), ebe.cu (EBE, CG, the split's unit),
  adr.cu (ADR assembly).  The op functions are internal to the module
  (hidden); cuda.cu's EasBackendInit_CUDA fills the ops table with them.
*/
#pragma once

#include "../backend.h"
#include "../launch.h"
#include "../devcommon.h"
#include <cuda_runtime.h>
#include <cusparse.h>

/* Checks a CUDA runtime call; on failure raises PETSC_ERR_GPU. */
#define EasCallCUDA(...)                                                                                                                                                                         \
  do {                                                                                                                                                                                           \
    const cudaError_t eas_cerr_ = (__VA_ARGS__);                                                                                                                                                 \
    if (PetscUnlikely(eas_cerr_ != cudaSuccess)) SETERRQ(PETSC_COMM_SELF, PETSC_ERR_GPU, "CUDA error %d (%s) : %s", (int)eas_cerr_, cudaGetErrorName(eas_cerr_), cudaGetErrorString(eas_cerr_)); \
  } while (0)

/* Checks a cuSPARSE call; on failure raises PETSC_ERR_GPU. */
#define EasCallCUSPARSE(...)                                                                                                                                                                                             \
  do {                                                                                                                                                                                                                   \
    const cusparseStatus_t eas_serr_ = (__VA_ARGS__);                                                                                                                                                                    \
    if (PetscUnlikely(eas_serr_ != CUSPARSE_STATUS_SUCCESS)) SETERRQ(PETSC_COMM_SELF, PETSC_ERR_GPU, "cuSPARSE error %d (%s) : %s", (int)eas_serr_, cusparseGetErrorName(eas_serr_), cusparseGetErrorString(eas_serr_)); \
  } while (0)

/* Checks the last kernel launch (launch-configuration errors; execution
   errors surface at the next synchronizing call). */
#define EasCheckLaunchCUDA() EasCallCUDA(cudaGetLastError())

/* Flops done on the device.  PetscLogGpuFlops() is a no-op macro when PETSc
   is built without a device (PETSC_HAVE_DEVICE undefined, the Debian case),
   so fall back to PetscLogFlops() there to keep the flop counts. */
#if defined(PETSC_HAVE_DEVICE)
#  define EasLogGpuFlops(n) PetscLogGpuFlops(n)
#else
#  define EasLogGpuFlops(n) PetscLogFlops(n)
#endif

#define EAS_CUDA_XPAIRS 32 /* timing event pairs of the split's transfers (3 per host unit and apply) */
#define EAS_CUDA_BLOCK 256             /* threads per block, a power of two */
#define EAS_CUDA_MAX_RED_BLOCKS 1024   /* blocks of a reduction kernel (fixed: deterministic sums) */
#define EAS_CUDA_MAX_BLOCKS (1u << 20) /* grid cap of the element-wise kernels (grid-stride loops: nothing skipped) */
#define EAS_CUDA_MAX_SMEM_OFF 4096     /* DIA offsets staged in shared memory up to this many */
#define EAS_CUDA_NTIMERS 64            /* event pairs recorded before the times are collected */

typedef enum {
  EAS_CUDA_SPMV_NATIVE,
  EAS_CUDA_SPMV_CUSPARSE
} EasCudaSpMVMode;

/* Kinds of kernel time accumulated by the backend. */
typedef enum {
  EAS_CUDA_KIND_SPMV,  /* dia_mult, dia_mult_transpose */
  EAS_CUDA_KIND_SWEEP, /* bcgs_sweep1/2/3 */
  EAS_CUDA_KIND_VEC,   /* set, copy, axpby, pointwise_mult */
  EAS_CUDA_KIND_RED,   /* dot_local */
  EAS_CUDA_NKINDS
} EasCudaKind;

typedef struct {
  int              device;
  cudaStream_t     stream;
  PetscBool        stream_created;
  cusparseHandle_t sparse;
  PetscBool        sparse_created;
  EasKScalar      *d_partials; /* 5*EAS_CUDA_MAX_RED_BLOCKS per-block partial sums */
  EasKScalar      *d_result;   /* up to 5 final sums */
  EasKScalar      *h_result;   /* up to 5, pinned */
  int             *d_iflag;    /* one int for kernels' flags (first zero diagonal row) */
  /* timing: event pairs recorded on the stream, collected lazily */
  cudaEvent_t     ev_start[EAS_CUDA_NTIMERS], ev_stop[EAS_CUDA_NTIMERS];
  int             ev_kind[EAS_CUDA_NTIMERS];
  int             nevents; /* event pairs created */
  int             npending;
  PetscLogDouble  ms[EAS_CUDA_NKINDS];
  PetscInt        count[EAS_CUDA_NKINDS];
  EasCudaSpMVMode mode;
  /* EBE split unit (Lang-Rünger Alg. 2): events around one asynchronous part */
  cudaEvent_t    unit_ev[2];
  PetscBool      unit_ev_created;
  EasUnitState   unit;    /* begin/end sequencing (devcommon.c, shared with /cpu/memcheck) */
  EasMemRegistry staging; /* pinned host staging buffers (host_alloc: cudaMallocHost) */
  /* the split on this operator (ops ebe_gather ...): a transfer stream of
     its own, so the gathers' and scatters' copies overlap the device unit's
     kernels on stream; the events ordering the two streams; timing pairs
     around each gather, copy and scatter-add (summed by ebe_xfer_time) */
  cudaStream_t xstream;
  PetscBool    xstream_created;
  cudaEvent_t  xev_ready, xev_gathered, xev_copied;
  cudaEvent_t  xt_start[EAS_CUDA_XPAIRS], xt_stop[EAS_CUDA_XPAIRS];
  PetscBool    xev_created;
  int          nxpairs;   /* pairs recorded since the last collection */
  double       xfer_ms;   /* collected milliseconds since the last ebe_xfer_time */
  /* timer marks (timer_record/query): an event per ring slot, created at its
     first use; their times are taken from an anchor event whose host-clock
     time is known (recorded on the idle stream at init, renewed at a
     synchronize when no mark is live and the anchor is over a second old,
     so the float milliseconds of cudaEventElapsedTime stay precise) */
  EasTimerRing   timers;
  cudaEvent_t    timer_ev[EAS_TIMER_RING];
  char           timer_ev_created[EAS_TIMER_RING];
  cudaEvent_t    anchor_ev;
  PetscBool      anchor_created;
  PetscLogDouble anchor_t;
} EasBackend_CUDA;

/* Per-matrix data (EasDiaKernel.ctx): a CSR copy for cuSPARSE, built at
   dia_setup in cusparse mode or at the first cusparse-mode product. */
typedef struct {
  PetscBool            built;
  PetscInt             nnz;
  int                 *rowptr, *colind; /* device, 32-bit, zero-based */
  EasKScalar          *vals;            /* device */
  cusparseSpMatDescr_t mat;
  cusparseDnVecDescr_t vx, vy;
  void                *buf, *buf_t; /* SpMV work buffers, A x and A^T x */
  size_t               bufsize, bufsize_t;
} EasDiaCtx_CUDA;

/* Accumulated device kernel time (ms) and call counts per EasCudaKind
   (waits for queued work).  Either array may be NULL. */
PETSC_INTERN PetscErrorCode EasBackendGetKernelTimes_CUDA(EasBackend, PetscLogDouble ms[EAS_CUDA_NKINDS], PetscInt count[EAS_CUDA_NKINDS]);

/* ------------------------------------------------------------------ helpers shared by the kernel files */

/* Blocks of a launch over n items (launch.h, unit-tested on the host): every
   kernel has a grid-stride loop, so the cap never skips work. */
static inline unsigned EasCudaBlocks(PetscInt64 n, unsigned cap)
{
  return EasLaunchBlocks((int64_t)n, EAS_CUDA_BLOCK, cap);
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

/* ------------------------------------------------------------------ shared host functions */

/* Kernel timers (cuda.cu): event pairs recorded around an op on the stream,
   collected lazily (at synchronizing calls or when the ring is full). */
PETSC_INTERN PetscErrorCode EasCudaTimerFlush(EasBackend_CUDA *);
PETSC_INTERN PetscErrorCode EasCudaTimerBegin(EasBackend_CUDA *);
PETSC_INTERN PetscErrorCode EasCudaTimerEnd(EasBackend_CUDA *, EasCudaKind);
/* Reductions (vec.cu): the second stage and read-back of nv sums from nb
   partials, and dots of up to three pairs as one timed op. */
PETSC_INTERN PetscErrorCode EasCudaReduceFinish(EasBackend_CUDA *, unsigned nb, int nv, EasCudaKind, PetscScalar *res);
PETSC_INTERN PetscErrorCode EasCudaDots(EasBackend_CUDA *, PetscInt n, int nv, const PetscScalar *a0, const PetscScalar *b0, const PetscScalar *a1, const PetscScalar *b1, const PetscScalar *a2, const PetscScalar *b2, EasCudaKind, PetscBool start_timer, PetscScalar *res);

/* ------------------------------------------------------------------ the ops (backend.h _EasBackendOps) */

/* memory (cuda.cu) */
PETSC_INTERN PetscErrorCode EasMalloc_CUDA(EasBackend, size_t, void **);
PETSC_INTERN PetscErrorCode EasFree_CUDA(EasBackend, void *);
PETSC_INTERN PetscErrorCode EasCopyHtoD_CUDA(EasBackend, void *, const void *, size_t);
PETSC_INTERN PetscErrorCode EasCopyDtoH_CUDA(EasBackend, void *, const void *, size_t);
PETSC_INTERN PetscErrorCode EasHostAlloc_CUDA(EasBackend, size_t, void **);
PETSC_INTERN PetscErrorCode EasHostFree_CUDA(EasBackend, void *);
/* vectors (vec.cu) */
PETSC_INTERN PetscErrorCode EasVecSet_CUDA(EasBackend, PetscInt, PetscScalar, PetscScalar *);
PETSC_INTERN PetscErrorCode EasVecCopy_CUDA(EasBackend, PetscInt, const PetscScalar *, PetscScalar *);
PETSC_INTERN PetscErrorCode EasVecGather_CUDA(EasBackend, PetscInt, const PetscInt *, const PetscScalar *, PetscScalar *);
PETSC_INTERN PetscErrorCode EasVecAXPBY_CUDA(EasBackend, PetscInt, PetscScalar, const PetscScalar *, PetscScalar, PetscScalar *);
PETSC_INTERN PetscErrorCode EasVecPointwiseMult_CUDA(EasBackend, PetscInt, const PetscScalar *, const PetscScalar *, PetscScalar *);
PETSC_INTERN PetscErrorCode EasVecDot_CUDA(EasBackend, PetscInt, const PetscScalar *, const PetscScalar *, PetscScalar *);
/* DIA, BiCGStab sweeps, right Jacobi (dia.cu) */
PETSC_INTERN PetscErrorCode EasDiaSetUp_CUDA(EasBackend, EasDiaKernel *);
PETSC_INTERN PetscErrorCode EasDiaDestroy_CUDA(EasBackend, EasDiaKernel *);
PETSC_INTERN PetscErrorCode EasDiaMult_CUDA(EasBackend, const EasDiaKernel *, const PetscScalar *, PetscScalar *);
PETSC_INTERN PetscErrorCode EasDiaMultTranspose_CUDA(EasBackend, const EasDiaKernel *, const PetscScalar *, PetscScalar *);
PETSC_INTERN PetscErrorCode EasDiaSingle_CUDA(EasBackend, const EasDiaKernel *, float *);
PETSC_INTERN PetscErrorCode EasBcgsSweep1_CUDA(EasBackend, const EasDiaKernel *, PetscScalar, PetscScalar, const PetscScalar *, const PetscScalar *, const PetscScalar *, const PetscScalar *, PetscScalar *, PetscScalar *, PetscScalar[2]);
PETSC_INTERN PetscErrorCode EasBcgsSweep2_CUDA(EasBackend, const EasDiaKernel *, PetscScalar, const PetscScalar *, const PetscScalar *, PetscScalar *, PetscScalar *, PetscScalar[3]);
PETSC_INTERN PetscErrorCode EasBcgsSweep3_CUDA(EasBackend, PetscInt, PetscScalar, PetscScalar, PetscScalar *, const PetscScalar *, const PetscScalar *, const PetscScalar *, const PetscScalar *, PetscScalar *, PetscScalar[2]);
PETSC_INTERN PetscErrorCode EasDiaJacobi_CUDA(EasBackend, const EasDiaKernel *, PetscInt, PetscScalar *, PetscScalar *, PetscInt *);
PETSC_INTERN PetscErrorCode EasIluFactor_CUDA(EasBackend, const EasDiaKernel *, const EasDiaKernel *, const PetscInt *, PetscInt, PetscInt, PetscScalar *, PetscScalar *, float *, PetscInt *);
PETSC_INTERN PetscErrorCode EasIluApply_CUDA(EasBackend, const EasDiaKernel *, const PetscScalar *, const float *, PetscInt, PetscInt, PetscInt, PetscScalar, PetscScalar, const PetscScalar *, const PetscScalar *, PetscScalar *, PetscScalar *, PetscScalar *);
/* EBE, CG, the EBE split's device unit (ebe.cu) */
PETSC_INTERN PetscErrorCode EasEbeApply_CUDA(EasBackend, const EasEbeKernel *, PetscInt, PetscInt, const PetscScalar *, PetscScalar *);
PETSC_INTERN PetscErrorCode EasEbeDiagonal_CUDA(EasBackend, const EasEbeKernel *, PetscInt, PetscInt, PetscInt, PetscScalar *);
PETSC_INTERN PetscErrorCode EasBlockMult_CUDA(EasBackend, PetscInt, PetscInt, const PetscScalar *, const PetscScalar *, PetscScalar *);
PETSC_INTERN PetscErrorCode EasCgUpdate_CUDA(EasBackend, PetscInt, PetscInt, PetscScalar, const PetscScalar *, const PetscScalar *, const PetscScalar *, PetscScalar *, PetscScalar *, PetscScalar *, PetscScalar[2]);
PETSC_INTERN PetscErrorCode EasPipeCgUpdate_CUDA(EasBackend, PetscInt, PetscInt, PetscScalar, PetscScalar, const PetscScalar *, PetscScalar *, PetscScalar *, PetscScalar *, PetscScalar *, PetscScalar *, PetscScalar *, PetscScalar *, PetscScalar *, PetscScalar *, const PetscScalar *, PetscScalar[3]);
PETSC_INTERN PetscErrorCode EasEbeUnitBegin_CUDA(EasBackend, const EasEbeKernel *, PetscInt, PetscInt, PetscInt, const PetscScalar *, PetscScalar *, PetscScalar *, PetscScalar *);
PETSC_INTERN PetscErrorCode EasEbeUnitEnd_CUDA(EasBackend, PetscLogDouble *);
PETSC_INTERN PetscErrorCode EasEbeGather_CUDA(EasBackend, PetscInt, const PetscInt *, const PetscScalar *, PetscScalar *, PetscScalar *);
PETSC_INTERN PetscErrorCode EasEbeGatherWait_CUDA(EasBackend);
PETSC_INTERN PetscErrorCode EasEbeScatter_CUDA(EasBackend, PetscInt, const PetscInt *, const PetscScalar *, PetscScalar *, PetscScalar *);
PETSC_INTERN PetscErrorCode EasEbeXferTime_CUDA(EasBackend, PetscLogDouble *);
PETSC_INTERN PetscErrorCode EasEbeXferDestroy_CUDA(EasBackend_CUDA *);
/* ADR assembly (adr.cu) */
PETSC_INTERN PetscErrorCode EasAdrFunction_CUDA(EasBackend, const EasAdrKParams *, const PetscScalar *, const PetscScalar *, const PetscScalar *, PetscScalar *, PetscScalar *, PetscScalar *, PetscScalar[3]);
PETSC_INTERN PetscErrorCode EasAdrJacobian_CUDA(EasBackend, const EasAdrKParams *, const PetscScalar *, const PetscScalar *, PetscScalar *, PetscInt);
PETSC_INTERN PetscErrorCode EasAdrJacobianJacobi_CUDA(EasBackend, const EasAdrKParams *, const PetscScalar *, const PetscScalar *, PetscScalar *, PetscScalar *, float *, PetscInt, PetscInt *);
PETSC_INTERN PetscErrorCode EasAdrPack_CUDA(EasBackend, const EasAdrKHalo *, const PetscScalar *, PetscScalar *);
PETSC_INTERN PetscErrorCode EasAdrPad_CUDA(EasBackend, const EasAdrKHalo *, PetscScalar *, const PetscScalar *, const PetscScalar *, PetscScalar *);
PETSC_INTERN PetscErrorCode EasAdrUpdate_CUDA(EasBackend, const EasAdrKHalo *, PetscScalar, const PetscScalar *, PetscScalar *, PetscScalar *, const PetscScalar *, PetscBool, PetscScalar[5]);
