/*
  Private header of /cpu/memcheck: the backend's data, the checks every op
  makes, and the functions its files share: memcheck.c (the checks, memory,
  options and lifecycle, filling the ops table), memcheckvec.c (vectors),
  memcheckdia.c (DIA, the CSR copy, BiCGStab sweeps, right Jacobi,
  the parallel ILU(0)),
  memcheckebe.c (EBE, CG, the asynchronous unit) and memcheckadr.c (ADR).
*/
#pragma once

#include "memcheck.h"
#include <pthread.h>

typedef enum {
  EAS_MEMCHECK_SPMV_NATIVE,
  EAS_MEMCHECK_SPMV_CSR
} EasMemcheckSpMVMode;

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
  /* timer marks (timer_record/query) with a stream's semantics: a mark is
     reached at its record (the ops run at once) but known only after the
     next point where CUDA would synchronize (nsync counts them) */
  EasTimerRing timers;
  PetscInt64   nsync;
  /* the gathers and scatters of a split on the device operator (ops
     ebe_gather ...): run at once, with the transfer queue's ordering checked */
  PetscBool gather_pending; /* a gather's copy the host has not waited for (ebe_gather_wait) */
  double    xfer_t;         /* seconds of gathers and scatters since the last ebe_xfer_time */
} EasBackend_Memcheck;

/* An op that returns host values (a reduction, a device-to-host copy, the
   unit's end, synchronize): where the CUDA backend waits for its stream,
   so the timer marks recorded before are known from here on. */
static inline void EasMemcheckSyncPoint(EasBackend be)
{
  ((EasBackend_Memcheck *)be->data)->nsync++;
}

/* ------------------------------------------------------------------ checks (memcheck.c) */

/* [p, p+bytes) must lie in one backend allocation and not be a buffer of
   the unit in flight. */
PETSC_INTERN PetscErrorCode EasMemcheckCheck(EasBackend, const char op[], const char arg[], const void *p, size_t bytes);
/* p must be host memory, outside the backend's space. */
PETSC_INTERN PetscErrorCode EasMemcheckCheckHost(EasBackend, const char op[], const char arg[], const void *p, size_t bytes);
/* The arrays of a DIA matrix an op reads. */
PETSC_INTERN PetscErrorCode EasMemcheckCheckDia(EasBackend, const char op[], const EasDiaKernel *);
/* The element data an op reads (apply: the storage the operator chose). */
PETSC_INTERN PetscErrorCode EasMemcheckCheckEbe(EasBackend, const char op[], const EasEbeKernel *, PetscBool apply);
/* Fills bytes at p with NaN. */
PETSC_INTERN void EasMemcheckPoison(void *p, size_t bytes);
/* Waits for the asynchronous unit's worker, if a unit is queued (memcheckebe.c). */
PETSC_INTERN void EasMemcheckWait(EasBackend_Memcheck *);

#define EasMcCheck(op, arg, p, bytes) PetscCall(EasMemcheckCheck(be, op, arg, (const void *)(p), (size_t)(bytes)))
#define EasMcCheckHost(op, arg, p, bytes) PetscCall(EasMemcheckCheckHost(be, op, arg, (const void *)(p), (size_t)(bytes)))
#define EAS_SC sizeof(PetscScalar)
#define EAS_IN sizeof(PetscInt)

/* ------------------------------------------------------------------ the ops (backend.h _EasBackendOps) */

/* memory (memcheck.c) */
PETSC_INTERN PetscErrorCode EasMalloc_Memcheck(EasBackend, size_t, void **);
PETSC_INTERN PetscErrorCode EasFree_Memcheck(EasBackend, void *);
PETSC_INTERN PetscErrorCode EasCopyHtoD_Memcheck(EasBackend, void *, const void *, size_t);
PETSC_INTERN PetscErrorCode EasCopyDtoH_Memcheck(EasBackend, void *, const void *, size_t);
PETSC_INTERN PetscErrorCode EasHostAlloc_Memcheck(EasBackend, size_t, void **);
PETSC_INTERN PetscErrorCode EasHostFree_Memcheck(EasBackend, void *);
PETSC_INTERN PetscErrorCode EasMarkStale_Memcheck(EasBackend, void *, size_t);
/* vectors (memcheckvec.c) */
PETSC_INTERN PetscErrorCode EasVecSet_Memcheck(EasBackend, PetscInt, PetscScalar, PetscScalar *);
PETSC_INTERN PetscErrorCode EasVecCopy_Memcheck(EasBackend, PetscInt, const PetscScalar *, PetscScalar *);
PETSC_INTERN PetscErrorCode EasVecGather_Memcheck(EasBackend, PetscInt, const PetscInt *, const PetscScalar *, PetscScalar *);
PETSC_INTERN PetscErrorCode EasVecAXPBY_Memcheck(EasBackend, PetscInt, PetscScalar, const PetscScalar *, PetscScalar, PetscScalar *);
PETSC_INTERN PetscErrorCode EasVecPointwiseMult_Memcheck(EasBackend, PetscInt, const PetscScalar *, const PetscScalar *, PetscScalar *);
PETSC_INTERN PetscErrorCode EasVecDot_Memcheck(EasBackend, PetscInt, const PetscScalar *, const PetscScalar *, PetscScalar *);
/* DIA, BiCGStab sweeps, right Jacobi (memcheckdia.c) */
PETSC_INTERN PetscErrorCode EasDiaSetUp_Memcheck(EasBackend, EasDiaKernel *);
PETSC_INTERN PetscErrorCode EasDiaDestroy_Memcheck(EasBackend, EasDiaKernel *);
PETSC_INTERN PetscErrorCode EasDiaMult_Memcheck(EasBackend, const EasDiaKernel *, const PetscScalar *, PetscScalar *);
PETSC_INTERN PetscErrorCode EasDiaSingle_Memcheck(EasBackend, const EasDiaKernel *, float *);
PETSC_INTERN PetscErrorCode EasDiaMultTranspose_Memcheck(EasBackend, const EasDiaKernel *, const PetscScalar *, PetscScalar *);
PETSC_INTERN PetscErrorCode EasBcgsSweep1_Memcheck(EasBackend, const EasDiaKernel *, PetscScalar, PetscScalar, const PetscScalar *, const PetscScalar *, const PetscScalar *, const PetscScalar *, PetscScalar *, PetscScalar *, PetscScalar[2]);
PETSC_INTERN PetscErrorCode EasBcgsSweep2_Memcheck(EasBackend, const EasDiaKernel *, PetscScalar, const PetscScalar *, const PetscScalar *, PetscScalar *, PetscScalar *, PetscScalar[3]);
PETSC_INTERN PetscErrorCode EasBcgsSweep3_Memcheck(EasBackend, PetscInt, PetscScalar, PetscScalar, PetscScalar *, const PetscScalar *, const PetscScalar *, const PetscScalar *, const PetscScalar *, PetscScalar *, PetscScalar[2]);
PETSC_INTERN PetscErrorCode EasDiaJacobi_Memcheck(EasBackend, const EasDiaKernel *, PetscInt, PetscScalar *, PetscScalar *, PetscInt *);
PETSC_INTERN PetscErrorCode EasIluFactor_Memcheck(EasBackend, const EasDiaKernel *, const EasDiaKernel *, const PetscInt *, PetscInt, PetscInt, PetscScalar *, PetscScalar *, float *, PetscInt *);
PETSC_INTERN PetscErrorCode EasIluApply_Memcheck(EasBackend, const EasDiaKernel *, const PetscScalar *, const float *, PetscInt, PetscInt, PetscInt, PetscScalar, PetscScalar, const PetscScalar *, const PetscScalar *, PetscScalar *, PetscScalar *, PetscScalar *);
/* EBE, CG, the asynchronous unit (memcheckebe.c) */
PETSC_INTERN PetscErrorCode EasEbeApply_Memcheck(EasBackend, const EasEbeKernel *, PetscInt, PetscInt, const PetscScalar *, PetscScalar *);
PETSC_INTERN PetscErrorCode EasEbeDiagonal_Memcheck(EasBackend, const EasEbeKernel *, PetscInt, PetscInt, PetscInt, PetscScalar *);
PETSC_INTERN PetscErrorCode EasBlockMult_Memcheck(EasBackend, PetscInt, PetscInt, const PetscScalar *, const PetscScalar *, PetscScalar *);
PETSC_INTERN PetscErrorCode EasCgUpdate_Memcheck(EasBackend, PetscInt, PetscInt, PetscScalar, const PetscScalar *, const PetscScalar *, const PetscScalar *, PetscScalar *, PetscScalar *, PetscScalar *, PetscScalar[2]);
PETSC_INTERN PetscErrorCode EasPipeCgUpdate_Memcheck(EasBackend, PetscInt, PetscInt, PetscScalar, PetscScalar, const PetscScalar *, PetscScalar *, PetscScalar *, PetscScalar *, PetscScalar *, PetscScalar *, PetscScalar *, PetscScalar *, PetscScalar *, PetscScalar *, const PetscScalar *, PetscScalar[3]);
PETSC_INTERN PetscErrorCode EasEbeUnitBegin_Memcheck(EasBackend, const EasEbeKernel *, PetscInt, PetscInt, PetscInt, const PetscScalar *, PetscScalar *, PetscScalar *, PetscScalar *);
PETSC_INTERN PetscErrorCode EasEbeUnitEnd_Memcheck(EasBackend, PetscLogDouble *);
PETSC_INTERN PetscErrorCode EasEbeGather_Memcheck(EasBackend, PetscInt, const PetscInt *, const PetscScalar *, PetscScalar *, PetscScalar *);
PETSC_INTERN PetscErrorCode EasEbeGatherWait_Memcheck(EasBackend);
PETSC_INTERN PetscErrorCode EasEbeScatter_Memcheck(EasBackend, PetscInt, const PetscInt *, const PetscScalar *, PetscScalar *, PetscScalar *);
PETSC_INTERN PetscErrorCode EasEbeXferTime_Memcheck(EasBackend, PetscLogDouble *);
/* ADR assembly (memcheckadr.c) */
PETSC_INTERN PetscErrorCode EasAdrFunction_Memcheck(EasBackend, const EasAdrKParams *, const PetscScalar *, const PetscScalar *, const PetscScalar *, PetscScalar *, PetscScalar *, PetscScalar *, PetscScalar[3]);
PETSC_INTERN PetscErrorCode EasAdrJacobian_Memcheck(EasBackend, const EasAdrKParams *, const PetscScalar *, const PetscScalar *, PetscScalar *, PetscInt);
PETSC_INTERN PetscErrorCode EasAdrJacobianJacobi_Memcheck(EasBackend, const EasAdrKParams *, const PetscScalar *, const PetscScalar *, PetscScalar *, PetscScalar *, float *, PetscInt, PetscInt *);
PETSC_INTERN PetscErrorCode EasAdrPack_Memcheck(EasBackend, const EasAdrKHalo *, const PetscScalar *, PetscScalar *);
PETSC_INTERN PetscErrorCode EasAdrPad_Memcheck(EasBackend, const EasAdrKHalo *, PetscScalar *, const PetscScalar *, const PetscScalar *, PetscScalar *);
PETSC_INTERN PetscErrorCode EasAdrUpdate_Memcheck(EasBackend, const EasAdrKHalo *, PetscScalar, const PetscScalar *, PetscScalar *, PetscScalar *, const PetscScalar *, PetscBool, PetscScalar[5]);
