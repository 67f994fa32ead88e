/*
  Logic shared by the device backends (/gpu/cuda and /cpu/memcheck): what is
  bookkeeping rather than kernel math, written once so that it is tested
  where it runs (make check runs /cpu/memcheck; there may be no GPU).

  - EasMemRegistry: address ranges of allocations (memcheck's "device"
    memory; the pinned host staging buffers of both backends).
  - EasDiaBuildCSRHost: the backend-private CSR copy of a DIA matrix (the
    path -eas_cuda_spmv cusparse and -eas_memcheck_spmv csr take), built
    from the host values when they are current and from the backend's
    values otherwise.
  - EasUnitState: the sequencing of ebe_unit_begin/end (Lang-Rünger Alg. 2,
    the device unit of the EBE split): one unit in flight, staging buffers
    checked, transfers counted.
  - EasTimerRing: the tickets of the timer marks (ops timer_record and
    timer_query): which are live, their slots and host record times; the
    backend keeps what reaches them (CUDA: an event per slot; memcheck: its
    count of synchronizations).

  The functions are PETSC_EXTERN (visible), so that a backend built as a
  separate module can call them.
*/
#pragma once

#include "backend.h"

/* ---- address ranges */
typedef struct {
  char  *base;
  size_t bytes;
} EasMemRange;

typedef struct {
  EasMemRange *r; /* ascending base */
  PetscInt     n, cap;
} EasMemRegistry;

/* Adds [p, p+bytes) (bytes may be 0: a zero-length range still owns p). */
PETSC_EXTERN PetscErrorCode EasMemRegistryAdd(EasMemRegistry *, void *p, size_t bytes);
/* Removes the range starting at p; *bytes (may be NULL) its length.
   Errors: p is not the start of a registered range (what names the pool). */
PETSC_EXTERN PetscErrorCode EasMemRegistryRemove(EasMemRegistry *, void *p, size_t *bytes, const char what[]);
/* Whether [p, p+bytes) lies inside one registered range. */
PETSC_EXTERN PetscBool EasMemRegistryContains(const EasMemRegistry *, const void *p, size_t bytes);
/* Whether [p, p+bytes) overlaps any registered range. */
PETSC_EXTERN PetscBool      EasMemRegistryOverlaps(const EasMemRegistry *, const void *p, size_t bytes);
PETSC_EXTERN PetscErrorCode EasMemRegistryDestroy(EasMemRegistry *);

/* ---- the private CSR copy */
/* Host CSR arrays of the DIA kernel A (columns outside [0,n) skipped, exact
   zeros dropped, columns ascending), allocated with PetscMalloc (free with
   PetscFree).  Values and offsets come from A->val_host / A->off_host when
   those are set (the host copy is current) and are downloaded from the
   backend's A->val / A->off otherwise (counted as device->host transfers).
   Errors: more than PETSC_MAX_INT nonzeros (32-bit indices). */
PETSC_EXTERN PetscErrorCode EasDiaBuildCSRHost(EasBackend, const EasDiaKernel *A, PetscInt *nnz, PetscInt **rowptr, PetscInt **colind, PetscScalar **vals);

/* ---- ebe_unit_begin/end sequencing */
typedef struct {
  PetscBool queued;
  PetscInt  e0, e1, n;
} EasUnitState;

/* Checks and books one asynchronous unit: no unit already in flight; the
   host buffers x_host and y_host (n entries each) inside the backend's
   staging pool (EasBackendHostAlloc: a copy from pageable memory is
   synchronous, so the unit would not overlap the CPU); counts the x and y
   transfers and the flops; marks the unit in flight. */
PETSC_EXTERN PetscErrorCode EasUnitBegin_Shared(EasBackend, EasUnitState *, const EasMemRegistry *staging, const EasEbeKernel *K, PetscInt e0, PetscInt e1, PetscInt n, const PetscScalar *x_host, const PetscScalar *y_host);
/* Checks that a unit is in flight and marks it done. */
PETSC_EXTERN PetscErrorCode EasUnitEnd_Shared(EasBackend, EasUnitState *);

/* ---- the gathers and scatters of a split on a device operator (ops ebe_gather, ebe_scatter) */
/* Checks host (n entries) is inside the backend's staging pool (a copy from
   pageable memory is synchronous: it would not overlap the device unit) and
   books the copy of n entries: device->host for a gather (htod false),
   host->device for a scatter (htod true). */
PETSC_EXTERN PetscErrorCode EasXferBook_Shared(EasBackend, const EasMemRegistry *staging, const char op[], const PetscScalar *host, PetscInt n, PetscBool htod);

/* ---- timer marks (ops timer_record / timer_query) */
#define EAS_TIMER_RING 4096 /* live marks at most (the energy meter resolves its own, at most 1024) */
typedef struct {
  PetscInt64     next, oldest;            /* tickets [oldest, next) are in the ring; live unless released */
  PetscLogDouble t_rec[EAS_TIMER_RING];   /* host clock at the record */
  PetscInt64     tag[EAS_TIMER_RING];     /* the backend's (memcheck: synchronizations before the record) */
  char           live[EAS_TIMER_RING];    /* recorded, not yet released */
  PetscInt       nlive;
} EasTimerRing;

/* A new ticket and its slot (slot = ticket mod EAS_TIMER_RING), recorded at
   the host clock now with the backend's tag.  Errors: the ring is full (the
   oldest live mark would be overwritten). */
PETSC_EXTERN PetscErrorCode EasTimerRingPush(EasBackend, EasTimerRing *, PetscInt64 tag, PetscInt64 *ticket, PetscInt *slot);
/* The slot of a live ticket.  Errors: a ticket never recorded or already
   released (a meter that resolved a mark twice). */
PETSC_EXTERN PetscErrorCode EasTimerRingFind(EasBackend, const EasTimerRing *, PetscInt64 ticket, PetscInt *slot);
/* Releases a live ticket (its slot may be reused once the older ones are). */
PETSC_EXTERN void EasTimerRingRelease(EasTimerRing *, PetscInt64 ticket);
