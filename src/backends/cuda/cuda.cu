/*
  CUDA backend: kernels around the shared row bodies (kernels.h), the same
  semantics op for op as the CPU backend (cpu.c).  This file: the device's
  lifecycle (availability, init, view, destroy, the module's entry point),
  the stream, the kernel timers and the memory ops; the ops of each subject
  are in vec.cu (vectors, reductions), dia.cu (DIA SpMV, cuSPARSE, the
  BiCGStab sweeps, right Jacobi), ebe.cu (EBE, CG, the split's unit) and
  adr.cu (ADR assembly), sharing cudaimpl.h.

  - All work goes to one stream; ops that return host values (reductions,
    device-to-host copies) synchronize it, the others are asynchronous.
  - Kernel times per kind are measured with events recorded around every op
    and collected lazily (at synchronizing calls or when the ring is full).
  - Timer marks (timer_record/query, the energy meter's phase boundaries of
    a GPU unit): an event recorded on the stream, queried without waiting
    (cudaEventQuery) and converted to the host clock through an anchor
    event of known host time; the meter resolves them at the next natural
    synchronization, so its phase boundaries never wait for the device.
*/
#include "cudaimpl.h"
#include "../devcommon.h"
#include <stdio.h>

static const char *const EasCudaSpMVModes[] = {"native", "cusparse"};
static const char *const EasCudaKindNames[] = {"SpMV", "BiCGStab sweeps", "vector ops", "reductions"};

/* ------------------------------------------------------------------ kernel timers */

PetscErrorCode EasCudaTimerFlush(EasBackend_CUDA *cu)
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

PetscErrorCode EasCudaTimerBegin(EasBackend_CUDA *cu)
{
  PetscFunctionBegin;
  if (cu->npending == EAS_CUDA_NTIMERS) PetscCall(EasCudaTimerFlush(cu));
  EasCallCUDA(cudaEventRecord(cu->ev_start[cu->npending], cu->stream));
  PetscFunctionReturn(0);
}

PetscErrorCode EasCudaTimerEnd(EasBackend_CUDA *cu, EasCudaKind kind)
{
  PetscFunctionBegin;
  EasCallCUDA(cudaEventRecord(cu->ev_stop[cu->npending], cu->stream));
  cu->ev_kind[cu->npending++] = (int)kind;
  cu->count[kind]++;
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------ timer marks */

/* The anchor: an event recorded on the stream after its queued work, and
   the host clock when the host saw it reached (an error of the wake-up
   latency, microseconds).  Waits for the stream: at init and in
   synchronize only. */
static PetscErrorCode EasCudaAnchor(EasBackend_CUDA *cu)
{
  PetscFunctionBegin;
  if (!cu->anchor_created) {
    EasCallCUDA(cudaEventCreate(&cu->anchor_ev));
    cu->anchor_created = PETSC_TRUE;
  }
  EasCallCUDA(cudaEventRecord(cu->anchor_ev, cu->stream));
  EasCallCUDA(cudaEventSynchronize(cu->anchor_ev));
  cu->anchor_t = EasHostClock();
  PetscFunctionReturn(0);
}

static PetscErrorCode EasTimerRecord_CUDA(EasBackend be, PetscInt64 *ticket)
{
  EasBackend_CUDA *cu = (EasBackend_CUDA *)be->data;
  PetscInt         slot;

  PetscFunctionBegin;
  PetscCall(EasTimerRingPush(be, &cu->timers, 0, ticket, &slot));
  if (!cu->timer_ev_created[slot]) {
    EasCallCUDA(cudaEventCreate(&cu->timer_ev[slot]));
    cu->timer_ev_created[slot] = 1;
  }
  EasCallCUDA(cudaEventRecord(cu->timer_ev[slot], cu->stream));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasTimerQuery_CUDA(EasBackend be, PetscInt64 ticket, PetscBool wait, PetscBool *done, PetscLogDouble *t)
{
  EasBackend_CUDA *cu = (EasBackend_CUDA *)be->data;
  PetscInt         slot;
  cudaError_t      err;
  float            ms;

  PetscFunctionBegin;
  PetscCall(EasTimerRingFind(be, &cu->timers, ticket, &slot));
  *done = PETSC_FALSE;
  *t    = cu->timers.t_rec[slot];
  err   = wait ? cudaEventSynchronize(cu->timer_ev[slot]) : cudaEventQuery(cu->timer_ev[slot]);
  if (err == cudaErrorNotReady) {
    (void)cudaGetLastError(); /* not an error: the stream has not reached the mark yet */
    PetscFunctionReturn(0);
  }
  EasCallCUDA(err);
  EasCallCUDA(cudaEventElapsedTime(&ms, cu->anchor_ev, cu->timer_ev[slot]));
  *t    = cu->anchor_t + 1e-3 * (PetscLogDouble)ms;
  *done = PETSC_TRUE;
  EasTimerRingRelease(&cu->timers, ticket);
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------ memory */

PetscErrorCode EasMalloc_CUDA(EasBackend be, size_t bytes, void **p)
{
  PetscFunctionBegin;
  (void)be;
  *p = NULL;
  if (bytes) EasCallCUDA(cudaMalloc(p, bytes));
  PetscFunctionReturn(0);
}

PetscErrorCode EasFree_CUDA(EasBackend be, void *p)
{
  PetscFunctionBegin;
  (void)be;
  if (p) EasCallCUDA(cudaFree(p));
  PetscFunctionReturn(0);
}

PetscErrorCode EasCopyHtoD_CUDA(EasBackend be, void *dst, const void *src, size_t bytes)
{
  EasBackend_CUDA *cu = (EasBackend_CUDA *)be->data;

  PetscFunctionBegin;
  if (bytes) {
    EasCallCUDA(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, cu->stream));
    EasCallCUDA(cudaStreamSynchronize(cu->stream));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode EasCopyDtoH_CUDA(EasBackend be, void *dst, const void *src, size_t bytes)
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
PetscErrorCode EasHostAlloc_CUDA(EasBackend be, size_t bytes, void **p)
{
  EasBackend_CUDA *cu = (EasBackend_CUDA *)be->data;

  PetscFunctionBegin;
  EasCallCUDA(cudaMallocHost(p, bytes));
  PetscCall(EasMemRegistryAdd(&cu->staging, *p, bytes));
  PetscFunctionReturn(0);
}

PetscErrorCode EasHostFree_CUDA(EasBackend be, void *p)
{
  EasBackend_CUDA *cu = (EasBackend_CUDA *)be->data;

  PetscFunctionBegin;
  PetscCall(EasMemRegistryRemove(&cu->staging, p, NULL, "CUDA pinned host staging (host_free)"));
  EasCallCUDA(cudaFreeHost(p));
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
  if (!cu->timers.nlive && EasHostClock() - cu->anchor_t > 1.0) PetscCall(EasCudaAnchor(cu)); /* the stream is idle: cheap */
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
  for (int k = 0; k < EAS_TIMER_RING; k++)
    if (cu->timer_ev_created[k]) EasCallCUDA(cudaEventDestroy(cu->timer_ev[k]));
  if (cu->anchor_created) EasCallCUDA(cudaEventDestroy(cu->anchor_ev));
  PetscCall(EasEbeXferDestroy_CUDA(cu)); /* the split's transfer stream and events */
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
#  include "eas_cuda_code.h" /* OBJDIR/gen, written by the Makefile */
#endif
#if defined(EAS_CUDA_SASS) && defined(EAS_CUDA_PTX)
static const int eas_cuda_sass[] = {EAS_CUDA_SASS}, eas_cuda_ptx[] = {EAS_CUDA_PTX};
#  define EAS_CUDA_NSASS ((int)(sizeof(eas_cuda_sass) / sizeof(eas_cuda_sass[0])))
#  define EAS_CUDA_NPTX ((int)(sizeof(eas_cuda_ptx) / sizeof(eas_cuda_ptx[0])))
#else /* built outside the Makefile: not recorded */
static const int eas_cuda_sass[] = {0}, eas_cuda_ptx[] = {0};
#  define EAS_CUDA_NSASS 0
#  define EAS_CUDA_NPTX 0
#endif

/* A kernel of this translation unit, for cudaFuncGetAttributes: every kernel of
   the module is built with the same -gencode list, so how this one loads is
   how they all do. */
__global__ void EasProbeKernel(int *flag)
{
  if (flag) *flag = 0;
}

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
  err = cudaFuncGetAttributes(&attr, EasProbeKernel);
  if (err == cudaSuccess) {
    *binary_version = attr.binaryVersion;
    *ptx_version    = attr.ptxVersion;
  } else
    (void)cudaGetLastError(); /* e.g. cudaErrorNoKernelImageForDevice: 0 and 0 */
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
  be->ebe_lanes                = EAS_EBE_LANES; /* EBE values in the device layout (coalesced) */
  be->ilu_iterative            = PETSC_TRUE; /* ILU(0) by Chow and Patel's parallel iterations (kernels/ilu.h) */
  be->ilu_work_nd              = 0;          /* the other iterate */
  be->ops->malloc              = EasMalloc_CUDA;
  be->ops->free                = EasFree_CUDA;
  be->ops->copy_htod           = EasCopyHtoD_CUDA;
  be->ops->copy_dtoh           = EasCopyDtoH_CUDA;
  be->ops->set                 = EasVecSet_CUDA;
  be->ops->copy                = EasVecCopy_CUDA;
  be->ops->gather              = EasVecGather_CUDA;
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
  be->ops->ilu_factor          = EasIluFactor_CUDA;
  be->ops->ilu_apply           = EasIluApply_CUDA;
  be->ops->adr_function        = EasAdrFunction_CUDA;
  be->ops->adr_jacobian        = EasAdrJacobian_CUDA;
  be->ops->adr_jacobian_jacobi = EasAdrJacobianJacobi_CUDA;
  be->ops->adr_pack            = EasAdrPack_CUDA;
  be->ops->adr_pad             = EasAdrPad_CUDA;
  be->ops->adr_update          = EasAdrUpdate_CUDA;
  be->ops->cg_update           = EasCgUpdate_CUDA;
  be->ops->pipecg_update       = EasPipeCgUpdate_CUDA;
  be->ops->ebe_unit_begin      = EasEbeUnitBegin_CUDA;
  be->ops->ebe_unit_end        = EasEbeUnitEnd_CUDA;
  be->ops->ebe_gather          = EasEbeGather_CUDA;
  be->ops->ebe_gather_wait     = EasEbeGatherWait_CUDA;
  be->ops->ebe_scatter         = EasEbeScatter_CUDA;
  be->ops->ebe_xfer_time       = EasEbeXferTime_CUDA;
  be->ops->host_alloc          = EasHostAlloc_CUDA;
  be->ops->host_free           = EasHostFree_CUDA;
  be->ops->timer_record        = EasTimerRecord_CUDA;
  be->ops->timer_query         = EasTimerQuery_CUDA;

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
  EasCallCUDA(cudaMalloc((void **)&cu->d_partials, 5 * EAS_CUDA_MAX_RED_BLOCKS * sizeof(EasKScalar))); /* up to 5 sums (ADR update) */
  EasCallCUDA(cudaMalloc((void **)&cu->d_result, 5 * sizeof(EasKScalar)));
  EasCallCUDA(cudaMallocHost((void **)&cu->h_result, 5 * sizeof(EasKScalar)));
  EasCallCUDA(cudaMalloc((void **)&cu->d_iflag, sizeof(int)));
  for (int k = 0; k < EAS_CUDA_NTIMERS; k++) {
    cudaError_t err = cudaEventCreate(&cu->ev_start[k]);
    if (err == cudaSuccess && (err = cudaEventCreate(&cu->ev_stop[k])) != cudaSuccess) (void)cudaEventDestroy(cu->ev_start[k]);
    EasCallCUDA(err);
    cu->nevents++; /* pairs [0,nevents) exist */
  }
  PetscCall(EasCudaAnchor(cu)); /* the stream is new and idle */
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------ module entry point */

#define EAS_STR_(x) #x
#define EAS_STR(x) EAS_STR_(x)

/* The table libeas loads (src/backends/cudamodule.c, backend.h). */
extern "C" __attribute__((visibility("default"))) const EasCudaModule *EasCudaModuleGet(void)
{
  static const EasCudaModule mod = {EAS_CUDA_MODULE_ABI, sizeof(struct _p_EasBackend), sizeof(struct _EasBackendOps), sizeof(EasDiaKernel), sizeof(EasEbeKernel), sizeof(EasAdrKParams), sizeof(EasAdrKHalo), "CUDA " EAS_STR(__CUDACC_VER_MAJOR__) "." EAS_STR(__CUDACC_VER_MINOR__) " (nvcc), cuSPARSE", EasBackendAvailable_CUDA, EasBackendDeviceCount_CUDA, EasBackendInit_CUDA, eas_cuda_sass, eas_cuda_ptx, EAS_CUDA_NSASS, EAS_CUDA_NPTX, EasBackendDeviceQuery_CUDA};
  return &mod;
}
