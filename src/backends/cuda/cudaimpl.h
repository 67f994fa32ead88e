/*
  Private header of the CUDA backend (compiled by nvcc only).

  Error-checking macros in the style of PETSc's PetscCallCUDA (not available:
  Debian's PETSc is built without CUDA), the backend's private data and the
  per-matrix cuSPARSE data.
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
  EasKScalar      *d_partials; /* 2*EAS_CUDA_MAX_RED_BLOCKS per-block partial sums */
  EasKScalar      *d_result;   /* 2 final sums */
  EasKScalar      *h_result;   /* 2, pinned */
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
