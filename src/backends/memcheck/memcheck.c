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
  - Timer marks (timer_record/query, the energy meter's device phases) with
    a stream's semantics too: a mark is reached when it is recorded, but a
    query says so only after the next op where the CUDA backend waits for
    its stream (a reduction, a copy, the unit's end, synchronize), so the
    meter's deferred resolution runs without a GPU; a mark never resolved
    is an error at the backend's destruction.
    Host buffers of a unit must be staging buffers (host_alloc), as pinned
    memory is needed on CUDA for the copies to be asynchronous.

  This file: the checks, the memory ops, options and lifecycle (filling the
  ops table); the ops of each subject, as in the CUDA backend, are in
  memcheckvec.c, memcheckdia.c, memcheckebe.c (with the unit) and
  memcheckadr.c, sharing memcheckimpl.h.
*/
#include "memcheck.h"
#include <omp.h>
#include <pthread.h>
#include <string.h>
#include <time.h>
#include "memcheckimpl.h"

static const char *const EasMemcheckSpMVModes[] = {"native", "csr"};

/* ------------------------------------------------------------------ checks */

/* [p, p+bytes) must lie in one backend allocation and not be a buffer of
   the unit in flight. */
PetscErrorCode EasMemcheckCheck(EasBackend be, const char op[], const char arg[], const void *p, size_t bytes)
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
PetscErrorCode EasMemcheckCheckHost(EasBackend be, const char op[], const char arg[], const void *p, size_t bytes)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;

  PetscFunctionBegin;
  mc->nchecked++;
  PetscCheck(p || !bytes, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "/cpu/memcheck: %s: host argument %s is NULL", op, arg);
  PetscCheck(!p || !EasMemRegistryOverlaps(&mc->dev, p, PetscMax(bytes, 1)), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "/cpu/memcheck: %s: argument %s = %p is backend memory where host memory is expected", op, arg, p);
  PetscFunctionReturn(0);
}

PetscErrorCode EasMemcheckCheckDia(EasBackend be, const char op[], const EasDiaKernel *A)
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
PetscErrorCode EasMemcheckCheckEbe(EasBackend be, const char op[], const EasEbeKernel *K, PetscBool apply)
{
  const size_t m = (size_t)K->nen * K->dof;

  PetscFunctionBegin;
  EasMcCheck(op, "K->conn", K->conn, (size_t)K->nel * K->nen * EAS_IN);
  if (!apply || (K->storage == EAS_EBE_STORAGE_FULL && K->lanes <= 1))
    EasMcCheck(op, "K->ael", K->ael, (size_t)K->nel * m * m * EAS_SC);
  else /* the storage's values, in the device layout (padded batches) when lanes > 1 */
    EasMcCheck(op, "K->aels", K->aels, (size_t)EasEbeLayoutBytes(K->storage, (PetscInt)m, K->nel, K->lanes));
  EasMcCheck(op, "K->color_elem", K->color_elem, (size_t)K->nel * EAS_IN);
  EasMcCheckHost(op, "K->color_elem_host", K->color_elem_host, (size_t)K->nel * EAS_IN);
  EasMcCheckHost(op, "K->color_ptr", K->color_ptr, (size_t)(K->ncolors + 1) * EAS_IN);
  PetscFunctionReturn(0);
}

/* Fills bytes at p with NaN (all bits set: a quiet NaN as a double, -1 as
   an integer). */
void EasMemcheckPoison(void *p, size_t bytes)
{
  memset(p, 0xff, bytes);
}

/* ------------------------------------------------------------------ memory */

PetscErrorCode EasMalloc_Memcheck(EasBackend be, size_t bytes, void **p)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;

  PetscFunctionBegin;
  PetscCall(PetscMalloc(PetscMax(bytes, 1), p));
  EasMemcheckPoison(*p, PetscMax(bytes, 1)); /* uninitialized device memory reads as NaN */
  PetscCall(EasMemRegistryAdd(&mc->dev, *p, bytes));
  PetscFunctionReturn(0);
}

PetscErrorCode EasFree_Memcheck(EasBackend be, void *p)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;

  PetscFunctionBegin;
  if (!p) PetscFunctionReturn(0);
  if (mc->unit.queued) EasMcCheck("free", "p", p, 0);
  PetscCall(EasMemRegistryRemove(&mc->dev, p, NULL, "/cpu/memcheck backend memory (free)"));
  PetscCall(PetscFree(p));
  PetscFunctionReturn(0);
}

PetscErrorCode EasCopyHtoD_Memcheck(EasBackend be, void *dst, const void *src, size_t bytes)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;

  PetscFunctionBegin;
  EasMemcheckSyncPoint(be); /* synchronous on CUDA too */
  if (!bytes) PetscFunctionReturn(0);
  EasMcCheck("copy_htod", "dst", dst, bytes);
  EasMcCheckHost("copy_htod", "src", src, bytes);
  memcpy(dst, src, bytes);
  mc->ncopies_htod++;
  mc->raw_htod += (PetscLogDouble)bytes;
  PetscFunctionReturn(0);
}

PetscErrorCode EasCopyDtoH_Memcheck(EasBackend be, void *dst, const void *src, size_t bytes)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;

  PetscFunctionBegin;
  EasMemcheckSyncPoint(be);
  if (!bytes) PetscFunctionReturn(0);
  EasMcCheck("copy_dtoh", "src", src, bytes);
  EasMcCheckHost("copy_dtoh", "dst", dst, bytes);
  memcpy(dst, src, bytes);
  mc->ncopies_dtoh++;
  mc->raw_dtoh += (PetscLogDouble)bytes;
  PetscFunctionReturn(0);
}

PetscErrorCode EasHostAlloc_Memcheck(EasBackend be, size_t bytes, void **p)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;

  PetscFunctionBegin;
  PetscCall(PetscMalloc(bytes, p));
  EasMemcheckPoison(*p, bytes);
  PetscCall(EasMemRegistryAdd(&mc->staging, *p, bytes));
  PetscFunctionReturn(0);
}

PetscErrorCode EasHostFree_Memcheck(EasBackend be, void *p)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;

  PetscFunctionBegin;
  PetscCheck(!mc->unit.queued || (p != (void *)mc->job.x_host && p != (void *)mc->job.y_host), PETSC_COMM_SELF, PETSC_ERR_ORDER, "/cpu/memcheck: host_free of a staging buffer of the unit in flight");
  PetscCall(EasMemRegistryRemove(&mc->staging, p, NULL, "/cpu/memcheck host staging (host_free)"));
  PetscCall(PetscFree(p));
  PetscFunctionReturn(0);
}

PetscErrorCode EasMarkStale_Memcheck(EasBackend be, void *p, size_t bytes)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;

  PetscFunctionBegin;
  if (EasMemRegistryOverlaps(&mc->dev, p, bytes)) EasMcCheck("mark_stale", "copy", p, bytes);
  EasMemcheckPoison(p, bytes);
  mc->npoisoned++;
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
  EasMemcheckSyncPoint(be);
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------ timer marks */

static PetscErrorCode EasTimerRecord_Memcheck(EasBackend be, PetscInt64 *ticket)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;
  PetscInt             slot;

  PetscFunctionBegin;
  PetscCall(EasTimerRingPush(be, &mc->timers, mc->nsync, ticket, &slot));
  PetscFunctionReturn(0);
}

/* Reached at the record (the ops ran at once); known after a later sync point. */
static PetscErrorCode EasTimerQuery_Memcheck(EasBackend be, PetscInt64 ticket, PetscBool wait, PetscBool *done, PetscLogDouble *t)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;
  PetscInt             slot;

  PetscFunctionBegin;
  PetscCall(EasTimerRingFind(be, &mc->timers, ticket, &slot));
  if (wait && mc->nsync <= mc->timers.tag[slot]) PetscCall(EasBackendSynchronize_Memcheck(be));
  *done = (PetscBool)(mc->nsync > mc->timers.tag[slot]);
  *t    = mc->timers.t_rec[slot];
  if (*done) EasTimerRingRelease(&mc->timers, ticket);
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
  PetscInt             nlive;

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
  nlive    = mc->timers.nlive;
  PetscCall(PetscFree(be->data));
  PetscCheck(!nlive, PETSC_COMM_SELF, PETSC_ERR_PLIB, "/cpu/memcheck: %" PetscInt_FMT " timer marks (timer_record) were never resolved (timer_query until done)", nlive);
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
  PetscCall(PetscFree(be->data));    /* the CPU's own settings: only its ILU ops, its view and options read them, which memcheck replaces */
  PetscCall(PetscNew(&mc));
  mc->cpu  = *be->ops;
  mc->mode = EAS_MEMCHECK_SPMV_NATIVE;
  pthread_mutex_init(&mc->mutex, NULL);
  pthread_cond_init(&mc->cond, NULL);
  be->data                     = mc;
  be->host_is_device           = PETSC_FALSE;
  be->ebe_lanes                = EAS_EBE_LANES; /* EBE values in the device layout (coalesced) */
  be->ilu_iterative            = PETSC_TRUE; /* ILU(0) by the parallel iterations, as a device runs it (kernels/ilu.h) */
  be->ilu_work_nd              = 0;          /* the other iterate, at every offset count */
  be->ops->malloc              = EasMalloc_Memcheck;
  be->ops->free                = EasFree_Memcheck;
  be->ops->copy_htod           = EasCopyHtoD_Memcheck;
  be->ops->copy_dtoh           = EasCopyDtoH_Memcheck;
  be->ops->set                 = EasVecSet_Memcheck;
  be->ops->copy                = EasVecCopy_Memcheck;
  be->ops->gather              = EasVecGather_Memcheck;
  be->ops->axpby               = EasVecAXPBY_Memcheck;
  be->ops->pointwise_mult      = EasVecPointwiseMult_Memcheck;
  be->ops->dot_local           = EasVecDot_Memcheck;
  be->ops->dia_setup           = EasDiaSetUp_Memcheck;
  be->ops->dia_destroy         = EasDiaDestroy_Memcheck;
  be->ops->dia_mult            = EasDiaMult_Memcheck;
  be->ops->dia_mult_dots       = NULL; /* as a device's: the ILU sweeps then call the checked dia_mult and dot_local */
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
  be->ops->ilu_factor          = EasIluFactor_Memcheck;
  be->ops->ilu_apply           = EasIluApply_Memcheck;
  be->ops->adr_function        = EasAdrFunction_Memcheck;
  be->ops->adr_jacobian        = EasAdrJacobian_Memcheck;
  be->ops->adr_jacobian_jacobi = EasAdrJacobianJacobi_Memcheck;
  be->ops->adr_pack            = EasAdrPack_Memcheck;
  be->ops->adr_pad             = EasAdrPad_Memcheck;
  be->ops->adr_update          = EasAdrUpdate_Memcheck;
  be->ops->ebe_gather          = EasEbeGather_Memcheck;
  be->ops->ebe_gather_wait     = EasEbeGatherWait_Memcheck;
  be->ops->ebe_scatter         = EasEbeScatter_Memcheck;
  be->ops->ebe_xfer_time       = EasEbeXferTime_Memcheck;
  be->ops->host_alloc          = EasHostAlloc_Memcheck;
  be->ops->host_free           = EasHostFree_Memcheck;
  be->ops->mark_stale          = EasMarkStale_Memcheck;
  be->ops->timer_record        = EasTimerRecord_Memcheck;
  be->ops->timer_query         = EasTimerQuery_Memcheck;
  { /* no CPU op left in place: it would run unchecked on this backend's memory (the ops table holds only function pointers) */
    typedef PetscErrorCode (*EasOpFn)(void);
    const EasOpFn *ops = (const EasOpFn *)be->ops, *cpu = (const EasOpFn *)&mc->cpu;
    for (size_t k = 0; k < sizeof(struct _EasBackendOps) / sizeof(EasOpFn); k++) PetscCheck(!ops[k] || ops[k] != cpu[k], PETSC_COMM_SELF, PETSC_ERR_PLIB, "/cpu/memcheck: backend op %zu of struct _EasBackendOps is still the CPU's (set a memcheck op or NULL in EasBackendInit_Memcheck)", k);
  }
  PetscFunctionReturn(0);
}
