/*
  The backend interface: one ops table per backend (docs/ebe.md).

  The layers above (vectors, matrices, solvers: docs/design.md) call only
  these ops; they never include a backend's own header.  Every pointer passed to an op is
  in the backend's memory space (device memory for CUDA, host memory for the
  CPU backend).  Reductions return local partial results; the generic layer
  does the MPI_Allreduce, so compute and communication are charged apart.
*/
#pragma once

#include <eas/backend.h>
#include <petsc/private/petscimpl.h>
#include <time.h>
#include "../core/sysimpl.h" /* EasPackageInitialized_Private */
#include "kernels.h"

#if defined(PETSC_USE_64BIT_INDICES)
#  error "eas kernels use 32-bit indices (EasKInt); build with a 32-bit-index PETSc"
#endif

/* Device-resident view of a DIA matrix, as the kernels need it. */
typedef struct {
  PetscInt           n, ndiag, ld;
  PetscInt           lo, hi; /* rows [lo,hi) are interior: i+off[d] in [0,n) for all d */
  const PetscInt    *off;    /* ndiag offsets, backend memory */
  const PetscScalar *val;    /* ndiag*ld values, backend memory */
  const float       *valf;   /* single precision (EasDiaSetPrecision): the ndiag*ld values the
                                multiply and BiCGStab kernels read, backend memory; NULL: val */
  const PetscInt    *off_host;
  const PetscScalar *val_host;
  void              *ctx; /* backend-owned data (e.g. cuSPARSE CSR copy), from dia_setup */
} EasDiaKernel;

/* Backend-resident view of an element-by-element operator (src/mat/ebe.c).
   Elements of colour c are color_elem[color_ptr[c] .. color_ptr[c+1]), in
   ascending element order, so the elements of a colour inside a range
   [e0,e1) are one contiguous slice (found by bisection on the host copy). */
typedef struct {
  PetscInt           nel, nen, dof, nnodes;
  const PetscInt    *conn;    /* nel*nen local node indices, backend memory */
  const PetscScalar *ael;     /* nel*m*m element matrices (m = nen*dof), row-major, backend memory */
  EasEbeStorage      storage; /* what the apply reads (-ebe_storage): ael (full), or aels */
  const void        *aels;    /* symmetric: nel*m(m+1)/2 doubles (upper triangles packed by rows);
                                 single: nel*m*m floats; symmetric_single: nel*m(m+1)/2 floats;
                                 backend memory */
  PetscInt lanes;             /* layout of aels: 1, the host layout (element values contiguous;
                                 on a device the warp kernel); EAS_EBE_LANES, the lanes layout
                                 (EasEbeLaneBase, every storage, full included) */
  PetscBool deterministic;    /* device: colour by colour (-ebe_deterministic), else one launch
                                 with an atomic scatter */
  PetscInt warp_rows;         /* the device's warp kernel (lanes 1): rows loaded before their
                                 sums, 4 or 8 (-ebe_warp_rows) */
  PetscInt        ncolors;
  const PetscInt *color_ptr;       /* ncolors+1, host */
  const PetscInt *color_elem;      /* nel, backend memory */
  const PetscInt *color_elem_host; /* nel, host */
  void           *ctx;             /* backend-owned data */
} EasEbeKernel;

/* Element e of y += A x from the storage the operator chose (kernels.h
   EasEbeElementApplyStorage, EAS_EBE_APPLY_BODIES); used by the CPU
   backend, the split's host units and /cpu/memcheck's unit. */
typedef char EasEbeStorageCodesAgree[(EAS_EBE_STORAGE_FULL == EAS_EBE_ST_FULL && EAS_EBE_STORAGE_SYMMETRIC == EAS_EBE_ST_SYMMETRIC && EAS_EBE_STORAGE_SINGLE == EAS_EBE_ST_SINGLE && EAS_EBE_STORAGE_SYMMETRIC_SINGLE == EAS_EBE_ST_SYMMETRIC_SINGLE) ? 1 : -1]; /* kernels.h codes = EasEbeStorage */
/* The element at position k of the colour order, in a loop over the slice
   [.., k1): the next one of the slice, if any, is prefetched while it is
   applied (kernels.h EAS_PREFETCH_RANGE). */
static inline void EasEbeElementApplyStored(const EasEbeKernel *K, PetscInt k, PetscInt k1, const PetscScalar *x, PetscScalar *y)
{
  EasEbeElementApplyStorage(K->color_elem[k], k + 1 < k1 ? K->color_elem[k + 1] : -1, K->nen, K->dof, K->conn, (int)K->storage, K->ael, K->aels, x, y);
}

/* Bytes of one element's stored values for a storage, m = nen*dof. */
static inline double EasEbeStorageBytes(EasEbeStorage st, PetscInt m)
{
  const double full = (double)m * m, sym = 0.5 * m * (m + 1.0);
  switch (st) {
  case EAS_EBE_STORAGE_SYMMETRIC:
    return 8.0 * sym;
  case EAS_EBE_STORAGE_SINGLE:
    return 4.0 * full;
  case EAS_EBE_STORAGE_SYMMETRIC_SINGLE:
    return 4.0 * sym;
  default:
    return 8.0 * full;
  }
}

/* Bytes of the values of nel elements in a storage and a layout (lanes:
   the device layout pads the last batch). */
static inline double EasEbeLayoutBytes(EasEbeStorage st, PetscInt m, PetscInt nel, PetscInt lanes)
{
  const double nb = lanes > 1 ? (double)((nel + lanes - 1) / lanes) * lanes : (double)nel;
  return nb * EasEbeStorageBytes(st, m);
}

/* Slice [*k0,*k1) of colour c's list holding the elements in [e0,e1)
   (bisection on the ascending host list). */
static inline void EasEbeColorSlice(const EasEbeKernel *K, PetscInt c, PetscInt e0, PetscInt e1, PetscInt *k0, PetscInt *k1)
{
  const PetscInt *el = K->color_elem_host;
  PetscInt        lo = K->color_ptr[c], hi = K->color_ptr[c + 1], a, b;

  a = lo;
  b = hi;
  while (a < b) { /* first k with el[k] >= e0 */
    const PetscInt mid = (a + b) / 2;
    if (el[mid] < e0)
      a = mid + 1;
    else
      b = mid;
  }
  *k0 = a;
  b   = hi;
  while (a < b) { /* first k with el[k] >= e1 */
    const PetscInt mid = (a + b) / 2;
    if (el[mid] < e1)
      a = mid + 1;
    else
      b = mid;
  }
  *k1 = a;
}

typedef struct _EasBackendOps *EasBackendOps;
struct _EasBackendOps {
  /* memory; required */
  PetscErrorCode (*malloc)(EasBackend, size_t bytes, void **);
  PetscErrorCode (*free)(EasBackend, void *);
  PetscErrorCode (*copy_htod)(EasBackend, void *dst, const void *src, size_t bytes);
  PetscErrorCode (*copy_dtoh)(EasBackend, void *dst, const void *src, size_t bytes);
  /* vectors; required */
  PetscErrorCode (*set)(EasBackend, PetscInt n, PetscScalar alpha, PetscScalar *y);
  PetscErrorCode (*copy)(EasBackend, PetscInt n, const PetscScalar *x, PetscScalar *y);
  PetscErrorCode (*gather)(EasBackend, PetscInt n, const PetscInt *idx, const PetscScalar *x, PetscScalar *y); /* y_i <- x_{idx_i}, 0 where idx_i < 0 (x and y distinct) */
  PetscErrorCode (*axpby)(EasBackend, PetscInt n, PetscScalar a, const PetscScalar *x, PetscScalar b, PetscScalar *y);  /* y <- a x + b y */
  PetscErrorCode (*pointwise_mult)(EasBackend, PetscInt n, const PetscScalar *x, const PetscScalar *y, PetscScalar *w); /* w <- x .* y */
  PetscErrorCode (*dot_local)(EasBackend, PetscInt n, const PetscScalar *x, const PetscScalar *y, PetscScalar *dot);
  /* DIA; setup/destroy optional (build backend-private data in A->ctx) */
  PetscErrorCode (*dia_setup)(EasBackend, EasDiaKernel *);
  PetscErrorCode (*dia_destroy)(EasBackend, EasDiaKernel *);
  PetscErrorCode (*dia_mult)(EasBackend, const EasDiaKernel *, const PetscScalar *x, PetscScalar *y);
  /* optional: y = A x with the dot products that follow it in the ILU sweeps, in the same pass:
     dots[0] = (u, y), dots[1] = (y, y), and with nd = 3 dots[2] = (q, q) (without it: dia_mult,
     then dot_local 2 or 3 times) */
  PetscErrorCode (*dia_mult_dots)(EasBackend, const EasDiaKernel *, const PetscScalar *x, PetscScalar *y, const PetscScalar *u, const PetscScalar *q, PetscInt nd, PetscScalar dots[]);
  /* optional: valf[k] = (float)val[k] for the ndiag*ld values (EasDiaSingleEntry); a
     backend without it has no single-precision DIA (EasDiaSetPrecision) */
  PetscErrorCode (*dia_single)(EasBackend, const EasDiaKernel *, float *valf);
  PetscErrorCode (*dia_mult_transpose)(EasBackend, const EasDiaKernel *, const PetscScalar *x, PetscScalar *y);
  /* Fused BiCGStab sweeps (three per iteration, 280 B/row with a 9-offset DIA):
     sweep1: p_new = r + beta (p_old - omega v_old); v_new = A p_new;  dots[0] = (rhat, v_new), dots[1] = (v_new, v_new)
     sweep2: s = r - alpha v;  t = A s;  dots[0] = (t, s), dots[1] = (t, t), dots[2] = (s, s)
     sweep3: x += alpha p + omega s;  r = s - omega t;  dots[0] = (rhat, r), dots[1] = (r, r)
     With be->bcgs_inplace the solver passes p_new = p_old, v_new = v_old and s = r: p, v and r
     are then updated in place (old r is dead once s is formed), which saves the write allocate
     of p, v and s and the separate s pass (EAS_BCGS_BYTES_MOVED_PER_ROW_BE). */
  PetscErrorCode (*bcgs_sweep1)(EasBackend, const EasDiaKernel *, PetscScalar beta, PetscScalar omega, const PetscScalar *r, const PetscScalar *p_old, const PetscScalar *v_old, const PetscScalar *rhat, PetscScalar *p_new, PetscScalar *v_new, PetscScalar dots[2]);
  PetscErrorCode (*bcgs_sweep2)(EasBackend, const EasDiaKernel *, PetscScalar alpha, const PetscScalar *r, const PetscScalar *v, PetscScalar *s, PetscScalar *t, PetscScalar dots[3]);
  PetscErrorCode (*bcgs_sweep3)(EasBackend, PetscInt n, PetscScalar alpha, PetscScalar omega, PetscScalar *x, const PetscScalar *p, const PetscScalar *s, const PetscScalar *t, const PetscScalar *rhat, PetscScalar *r, PetscScalar dots[2]);
  /* options and lifecycle; optional */
  PetscErrorCode (*set_from_options)(EasBackend, PetscOptionItems *);
  PetscErrorCode (*view)(EasBackend, PetscViewer);
  PetscErrorCode (*synchronize)(EasBackend);
  PetscErrorCode (*destroy)(EasBackend);
  /* EBE (issue 4); required for EasEbe and the cg/pipecg solvers.
     ebe_apply: y += sum_{e in [e0,e1)} el2o(A_e o2el(x)), colour by colour.
     ebe_diagonal: d += the diagonals (bs = 1) or dof x dof point blocks
     (bs = dof) of the elements in [e0,e1).
     block_mult: y_b = B_b x_b for nb blocks of bs x bs (point-block Jacobi).
     cg_update: x += alpha p; r -= alpha q; z = dinv .* r (dinv may be NULL);
       dots[0] = (r, z), dots[1] = (r, r) over the first nown entries.
     pipecg_update: the fused Ghysels-Vanroose vector updates (kernels.h)
       then dots[0] = (r, u), dots[1] = (w, u), dots[2] = (r, r) over nown
       (u is the preconditioned residual, so dots are for the next iteration).
     ebe_unit_begin/end (optional, device backends): Lang-Rünger Alg. 2 for a
       GPU unit of the split: begin enqueues x_host -> x_dev, y_dev = 0, the
       element kernels over [e0,e1) and y_dev -> y_host, and returns at once;
       end waits and returns the unit's time in seconds (device events). */
  PetscErrorCode (*ebe_apply)(EasBackend, const EasEbeKernel *, PetscInt e0, PetscInt e1, const PetscScalar *x, PetscScalar *y);
  PetscErrorCode (*ebe_diagonal)(EasBackend, const EasEbeKernel *, PetscInt e0, PetscInt e1, PetscInt bs, PetscScalar *d);
  PetscErrorCode (*block_mult)(EasBackend, PetscInt nb, PetscInt bs, const PetscScalar *B, const PetscScalar *x, PetscScalar *y);
  PetscErrorCode (*cg_update)(EasBackend, PetscInt n, PetscInt nown, PetscScalar alpha, const PetscScalar *p, const PetscScalar *q, const PetscScalar *dinv, PetscScalar *x, PetscScalar *r, PetscScalar *z, PetscScalar dots[2]);
  PetscErrorCode (*pipecg_update)(EasBackend, PetscInt n, PetscInt nown, PetscScalar alpha, PetscScalar beta, const PetscScalar *dinv, PetscScalar *z, PetscScalar *q, PetscScalar *s, PetscScalar *p, PetscScalar *x, PetscScalar *r, PetscScalar *u, PetscScalar *w, PetscScalar *m, const PetscScalar *nv, PetscScalar dots[3]);
  PetscErrorCode (*ebe_unit_begin)(EasBackend, const EasEbeKernel *, PetscInt e0, PetscInt e1, PetscInt n, const PetscScalar *x_host, PetscScalar *x_dev, PetscScalar *y_dev, PetscScalar *y_host);
  PetscErrorCode (*ebe_unit_end)(EasBackend, PetscLogDouble *seconds);
  /* The split with the operator on this backend (optional, device backends;
     issue 20 item 4, docs/ebe.md "Split on a device operator"): a host unit
     gets only x at its gather list idx (n distinct dofs, backend memory) and
     returns its partial result for those dofs.  The copies run on a transfer
     queue of their own (CUDA: a second stream), so the operator's queue
     keeps computing the device unit's elements meanwhile; buf is backend
     memory, host a staging buffer (host_alloc), n entries each.
     ebe_gather: after the work queued so far, buf = x[idx] (kernels/ebe.h
       EasEbeGatherEntry) and host = buf, on the transfer queue.
     ebe_gather_wait: the host waits until every gather's copy has landed.
     ebe_scatter: buf = host on the transfer queue; then, after that copy and
       the work queued so far on the operator's queue (the device unit's
       elements), y[idx] += buf (EasEbeScatterAddEntry) on the operator's
       queue, in the order of the calls (a fixed order: the result does not
       depend on timing).
     ebe_xfer_time: waits for the transfers and returns the seconds the
       gathers, scatter-adds and their copies took since the last call. */
  PetscErrorCode (*ebe_gather)(EasBackend, PetscInt n, const PetscInt *idx, const PetscScalar *x, PetscScalar *buf, PetscScalar *host);
  PetscErrorCode (*ebe_gather_wait)(EasBackend);
  PetscErrorCode (*ebe_scatter)(EasBackend, PetscInt n, const PetscInt *idx, const PetscScalar *host, PetscScalar *buf, PetscScalar *y);
  PetscErrorCode (*ebe_xfer_time)(EasBackend, PetscLogDouble *seconds);
  /* dia_jacobi (optional): right Jacobi from A's backend values, dinv = 1 /
     diag (entry dmain holds offset 0) and bval = the values of A D^{-1} (A's
     pattern and ld); *zero_row = the first row with a zero diagonal, or -1. */
  PetscErrorCode (*dia_jacobi)(EasBackend, const EasDiaKernel *, PetscInt dmain, PetscScalar *dinv, PetscScalar *bval, PetscInt *zero_row);
  /* ILU(0) on a DIA pattern (optional; -pc_type ilu, kernels/ilu.h).  F is
     the factor's pattern (its n, ndiag offsets, ld, lo, hi; F->val unused),
     dmain the index of offset 0: L below it, U from it up, in f (nd x ld,
     the layout the backend's own, kernels/ilu.h EasIluAt); A holds the
     values the factor starts from and pt is the pair table of EasIluEntry
     (its EasIluAMap: the factor's diagonal g starts from A's diagonal
     EasIluAMap(pt, nd)[g], or 0; backend memory, pt[nd] long).
     ilu_factor: f = the factor; *zero_row = the first row whose pivot is
       zero or not finite, or -1.  Where ff is not NULL (-pc_ilu_precision
       single) the factor is delivered rounded to float into ff, by
       diagonals (EasIluSingleEntry), and f is the backend's scratch.  A backend with ilu_iterative runs
       `sweeps` synchronous sweeps of Chow and Patel from
       EasIluInitialEntry, fwork (nd x ld) holding the other iterate; the
       others factor exactly (one in-place sweep in row order, sweeps
       unused; fwork their scratch).
     ilu_apply (the pattern F): p = EasIluInputEntry(form, c1, c2, r, v, p)
       (forms 1, 2 update p; r, v unused with form 0), then z = U^{-1}
       L^{-1} p: exact substitution, or with ilu_iterative `sweeps` Jacobi
       sweeps per triangle from y^0 = p and z^0 = D^{-1} y, work holding 2n
       entries.  The factor read is ff (float, by diagonals) where not
       NULL, else f. */
  PetscErrorCode (*ilu_factor)(EasBackend, const EasDiaKernel *F, const EasDiaKernel *A, const PetscInt *pt, PetscInt dmain, PetscInt sweeps, PetscScalar *f, PetscScalar *fwork, float *ff, PetscInt *zero_row);
  PetscErrorCode (*ilu_apply)(EasBackend, const EasDiaKernel *, const PetscScalar *f, const float *ff, PetscInt dmain, PetscInt sweeps, PetscInt form, PetscScalar c1, PetscScalar c2, const PetscScalar *r, const PetscScalar *v, PetscScalar *p, PetscScalar *z, PetscScalar *work);
  /* ADR assembly (issue 3; kernels.h EasAdrK*), required for EasAdr:
     adr_function: F at every local point from the padded state xg, xold and
       the weights w (6 np); built-in reactions write Rv (2 np) and dRv (4 np),
       USER reads them; sums[0] = the points' finiteness probes,
       sums[1], sums[2] = ||F_1||^2, ||F_2||^2 (local).
     adr_jacobian: the 9 diagonals of the local Jacobian into V (ld).
     adr_jacobian_jacobi: right Jacobi folded into the assembly, from the
       couplings wl (7 np, EasAdrKLocalCouplingsPoint: the part of J that
       only w changes, written when w is) and dRv: dinv (2 np) =
       D^{-1}, the inverse main diagonal of J (0 where it is zero), and V =
       J D^{-1}, the operator the inner BiCGStab iterates on, in J's DIA
       storage, without J itself, and the same values rounded to float into
       Vf when it is not NULL (single precision: the float copy the inner
       solver reads, EasDiaSingleEntry); *zero_row = the first row with a
       zero diagonal, or -1. */
  PetscErrorCode (*adr_function)(EasBackend, const EasAdrKParams *, const PetscScalar *w, const PetscScalar *xg, const PetscScalar *xold, PetscScalar *Rv, PetscScalar *dRv, PetscScalar *F, PetscScalar sums[3]);
  PetscErrorCode (*adr_jacobian)(EasBackend, const EasAdrKParams *, const PetscScalar *w, const PetscScalar *dRv, PetscScalar *V, PetscInt ld);
  PetscErrorCode (*adr_jacobian_jacobi)(EasBackend, const EasAdrKParams *, const PetscScalar *wl, const PetscScalar *dRv, PetscScalar *dinv, PetscScalar *V, float *Vf, PetscInt ld, PetscInt *zero_row);
  /* The padded state and the halo planes on the backend (kernels/adr.h
     EasAdrKHalo; docs/adr.md "What crosses the bus"), required for EasAdr:
     adr_pack: the planes of the faces with a neighbour from the state x
       (2 np) into buf (2 pack_start[6]), the halo's message layout;
     adr_pad: the padded state xg from x, the neighbours' planes ghost
       (2 pack_start[6]) and the Dirichlet values bval (2 fill_start[6]);
       with an overlap (H->skip) also x's points on it, from ghost;
     adr_update: the Newton update of the box's points (EasAdrKUpdatePoint;
       with an overlap, of the own points only, EasAdrKUpdatePointOwn):
       x += c dinv y (dinv NULL: x += c y), y = the update when keep, ewt the
       stage's error weights or NULL; sums = the species' ||dx_s||^2,
       ||x_s||^2 and sum (dx ewt)^2, each summed in the order of the points
       (the host loop's order on the CPU backends: the same rounding). */
  PetscErrorCode (*adr_pack)(EasBackend, const EasAdrKHalo *, const PetscScalar *x, PetscScalar *buf);
  PetscErrorCode (*adr_pad)(EasBackend, const EasAdrKHalo *, PetscScalar *x, const PetscScalar *ghost, const PetscScalar *bval, PetscScalar *xg);
  PetscErrorCode (*adr_update)(EasBackend, const EasAdrKHalo *, PetscScalar c, const PetscScalar *dinv, PetscScalar *y, PetscScalar *x, const PetscScalar *ewt, PetscBool keep, PetscScalar sums[5]);
  /* host staging buffers (optional; EasBackendHostAlloc falls back to
     PetscMalloc): host memory the backend copies from and to
     asynchronously (cudaMallocHost on CUDA: a copy from pageable memory is
     synchronous).  The x_host and y_host of ebe_unit_begin must be these. */
  PetscErrorCode (*host_alloc)(EasBackend, size_t bytes, void **);
  PetscErrorCode (*host_free)(EasBackend, void *);
  /* mark_stale (optional, /cpu/memcheck): the generic layer calls it (via
     EasBackendMarkStale) when a copy, host or backend, stops being current;
     memcheck fills it with NaN so that reading a stale copy shows. */
  PetscErrorCode (*mark_stale)(EasBackend, void *copy, size_t bytes);
  /* Timer marks (optional; issue 20): the energy meter's phase boundaries of a
     device unit, without waiting for the device.
     timer_record: a mark at the current end of the backend's queue (CUDA: an
       event recorded on the stream) and its ticket, tickets 0, 1, 2, ... in
       the order recorded.
     timer_query: whether the queue has reached the mark, without waiting
       (wait = PETSC_FALSE: cudaEventQuery) or after waiting for it; when
       *done, *t is the time it was reached on the host clock (EasHostClock)
       and the ticket is released.  Marks are reached in the order recorded.
     A backend without them (the CPU backends: their queue is the caller's
     thread) has reached every mark when it is recorded: the generic layer
     (EasBackendTimerRecord/Query) then gives the host clock at the record. */
  PetscErrorCode (*timer_record)(EasBackend, PetscInt64 *ticket);
  PetscErrorCode (*timer_query)(EasBackend, PetscInt64 ticket, PetscBool wait, PetscBool *done, PetscLogDouble *t);
};

struct _p_EasBackend {
  PETSCHEADER(struct _EasBackendOps);
  char      resource[64];
  PetscBool host_is_device; /* CPU: backend memory is host memory, no copies */
  PetscBool bcgs_inplace;   /* the BiCGStab sweeps accept p_new == p_old and v_new == v_old
                               (sweep 1), s == r (sweep 2, then sweep 3's s and r): see the
                               ops below; the CPU backend (each entry formed once, before
                               the SpMV reads it), not the recomputing CUDA kernels */
  PetscBool ilu_iterative;  /* ilu_factor/ilu_apply are the parallel fixed-point iterations (Chow
                               and Patel), not the exact sequential factor and substitutions */
  PetscInt  ilu_work_nd;    /* ilu_factor uses fwork (nd x ld) for factors of at least this many
                               offsets (0: always, the iterative ones; PETSC_MAX_INT: never, the
                               CPU's exact factor, in place) */
  PetscInt threads;         /* CPU backends */
  PetscInt ebe_lanes;       /* the layout of an EBE operator's values on this backend (EasEbeKernel
                               lanes): 1, or EAS_EBE_LANES on the devices (CUDA, and /cpu/memcheck,
                               which runs the CUDA kernel's body) */
  PetscLogDouble bytes_htod, bytes_dtoh;
  PetscInt64     timer_waits; /* timer queries that had to wait for the queue (EasBackendGetTimerWaits) */
  PetscInt       n_htod, n_dtoh;
  void          *data; /* backend-private */
};

/* Registry entry; the registry lists every backend, compiled in or not. */
typedef struct {
  const char *resource;   /* canonical name */
  const char *aliases[3]; /* other accepted names */
  const char *description;
  PetscErrorCode (*init)(EasBackend); /* NULL when not compiled in */
  PetscErrorCode (*available)(PetscBool *, const char **why);
} EasBackendEntry;

PETSC_INTERN PetscErrorCode EasBackendInit_CPU(EasBackend);
PETSC_INTERN PetscErrorCode EasBackendInit_CPUSerial(EasBackend);

/* The CUDA backend is a loadable module (libeas-cuda.so, built when nvcc is
   found, installed beside libeas): libeas has no CUDA dependency, and the
   module is dlopen'ed at the first request for /gpu/cuda (cudamodule.c).  The
   module exports EAS_CUDA_MODULE_SYMBOL, a function returning this table;
   libeas refuses a table whose abi or structure sizes differ from its own (a
   module from another eas build). */
#define EAS_CUDA_MODULE_ABI 5
#define EAS_CUDA_MODULE_SYMBOL "EasCudaModuleGet"
#define EAS_CUDA_MODULE_NAME "libeas-cuda.so"
typedef struct {
  int         abi;                                                              /* EAS_CUDA_MODULE_ABI */
  size_t      size_backend, size_ops, size_dia, size_ebe, size_adrk, size_adrh; /* sizeof of the shared structures */
  const char *build;                                                            /* what the module was built with (CUDA version, architectures) */
  /* available: whether a device can be used, without creating a context; why
     is a static string ("no CUDA device (...)") when not. */
  PetscErrorCode (*available)(PetscBool *avail, const char **why);
  /* device_count: the CUDA devices visible to this process (0 on error). */
  PetscErrorCode (*device_count)(int *count);
  /* init: the backend on device (chosen by the loader: EasCudaDeviceSelect). */
  PetscErrorCode (*init)(EasBackend, int device);
  /* the code the module holds, compute capabilities x 10 (the Makefile's
     CUDA_ARCHS and CUDA_PTX): native code (SASS) and PTX */
  const int *sass, *ptx;
  int        nsass, nptx;
  /* device_query: name and compute capability (x 10) of device dev, and the
     binaryVersion and ptxVersion of a module kernel as loaded there
     (cudaFuncGetAttributes: creates a context; 0 and 0 when no code of the
     module runs on it) */
  PetscErrorCode (*device_query)(int dev, char name[], size_t len, int *cc, int *binary_version, int *ptx_version);
} EasCudaModule;
typedef const EasCudaModule *(*EasCudaModuleGetFn)(void);

/* cudamodule.c: the registry's entry points for /gpu/cuda (load the module,
   select the device, call its init) and the loaded module (NULL when it
   cannot be loaded; *why says why). */
PETSC_INTERN PetscErrorCode EasBackendInit_CUDAModule(EasBackend);
PETSC_INTERN PetscErrorCode EasBackendAvailable_CUDAModule(PetscBool *, const char **);
PETSC_INTERN PetscErrorCode EasCudaModuleLoad(const EasCudaModule **, const char **why);
PETSC_INTERN PetscErrorCode EasCudaDeviceSelect(PetscInt requested, PetscMPIInt local_rank, PetscMPIInt local_size, int ndev, int *device);
PETSC_INTERN void           EasCudaCodeFor(int cc, const int sass[], int nsass, const int ptx[], int nptx, int *native, int *jit);
PETSC_INTERN PetscErrorCode EasBackendInit_Memcheck(EasBackend);

/* A copy (host or backend memory) of bytes at p stopped being current. */
static inline PetscErrorCode EasBackendMarkStale(EasBackend be, void *p, size_t bytes)
{
  if (be->ops->mark_stale && p && bytes) return (*be->ops->mark_stale)(be, p, bytes);
  return 0;
}

/* The host clock of the timer marks, the energy meter and its sensors'
   sampler threads: CLOCK_MONOTONIC in seconds (never steps back). */
static inline PetscLogDouble EasHostClock(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (PetscLogDouble)ts.tv_sec + 1e-9 * (PetscLogDouble)ts.tv_nsec;
}

/* A timer mark of the generic layer: its ticket (-1: reached when recorded,
   a backend without timer ops) and its time on the host clock, known once
   resolved (before: the host clock at the record, a lower bound). */
typedef struct {
  PetscInt64     ticket;
  PetscLogDouble t;
  PetscBool      resolved;
} EasBackendMark;

/* EasBackendTimerRecord: a mark at the current end of be's queue (the op
   timer_record, else the host clock now, resolved at once).
   EasBackendTimerQuery: resolves the mark if the queue has reached it (or
   after waiting for it, wait); marks are resolved in the order recorded. */
PETSC_INTERN PetscErrorCode EasBackendTimerRecord(EasBackend, EasBackendMark *);
PETSC_INTERN PetscErrorCode EasBackendTimerQuery(EasBackend, EasBackendMark *, PetscBool wait);

/* Copies between host and backend memory with the backend's ops, booked in
   bytes_htod/n_htod, bytes_dtoh/n_dtoh and PETSc's CpuToGpu/GpuToCpu counts
   (nothing is booked on host-memory backends, where the op is a memcpy).
   Every host<->device copy of the generic layer goes through these, so
   /cpu/memcheck can check that every copy is counted. */
PETSC_EXTERN PetscErrorCode EasBackendCopyHtoD(EasBackend, void *dst, const void *src, size_t bytes);
PETSC_EXTERN PetscErrorCode EasBackendCopyDtoH(EasBackend, void *dst, const void *src, size_t bytes);

/* Host staging buffers of the backend (ops host_alloc/host_free, else
   PetscMalloc/PetscFree), at least one byte. */
PETSC_INTERN PetscErrorCode EasBackendHostAlloc(EasBackend, size_t bytes, void **p);
PETSC_INTERN PetscErrorCode EasBackendHostFree(EasBackend, void **p);

/* Byte counts of the fused sweeps, per row, for ndiag offsets (used by the
   benchmark and the energy model): values 8*ndiag plus the vector passes. */
#define EAS_BCGS_BYTES_PER_ROW(ndiag) EAS_BCGS_BYTES_PER_ROW_PREC(ndiag, 8.0)
/* The same with vbytes per stored value: 8 (double), 4 (single precision,
   EasDiaSetPrecision): 208 B with 9 offsets instead of 280. */
#define EAS_BCGS_BYTES_PER_ROW_PREC(ndiag, vbytes) (2.0 * (vbytes) * (ndiag) + 17.0 * 8.0)
/* The bytes really moved between memory and the cache per row and
   iteration (bench_dia): the 17 passes above plus the write allocate of the
   5 written vectors that are not read first (p, v in sweep 1, s, t in
   sweep 2, r in sweep 3): 22 passes, 320 B with 9 offsets. */
#define EAS_BCGS_BYTES_MOVED_PER_ROW(ndiag) EAS_BCGS_BYTES_MOVED_PER_ROW_PREC(ndiag, 8.0)
#define EAS_BCGS_BYTES_MOVED_PER_ROW_PREC(ndiag, vbytes) (2.0 * (vbytes) * (ndiag) + 22.0 * 8.0)
/* The same for a backend with bcgs_inplace true: p and v overwrite their old
   values (read first: no write allocate) and s overwrites r (read first), so
   only t is written without being read: 17 passes + 1 write allocate = 18,
   288 B with 9 offsets in double, 216 B in single.  This assumes that v's
   line, read by sweep 1's F L = max|off| rows before the row writes it,
   is still in the cache then (L x ~120 B of traffic in between: 3.9 MB at
   the 128^3 grid, L = 2 n^2; past the LLC, at n above ~370 with 32 MiB,
   the write would fetch it again, 8 B more). */
#define EAS_BCGS_BYTES_MOVED_PER_ROW_BE(ndiag, vbytes, inplace) ((inplace) ? 2.0 * (vbytes) * (ndiag) + 18.0 * 8.0 : EAS_BCGS_BYTES_MOVED_PER_ROW_PREC(ndiag, vbytes))

/* The bytes one exact ILU application (ilu_apply, the CPU's substitutions)
   moves between memory and the cache per row, with ndiag offsets in the
   factor of vbytes per value: the factor once, and 8 passes of vectors.
   Forward, input form 1 (p = r + c1 (p - c2 v)): r, p, v read, p written
   back (read first), z written (write allocate + write back): 6 passes;
   form 2 (p = r - c1 v): r, v read, p and z written without being read: 6.
   Backward: z read and written back in place: 2.  296 + 64 = 360 B at 37
   offsets in double (bench_adr's adr_ilu_apply line). */
#define EAS_ILU_APPLY_BYTES_MOVED_PER_ROW(ndiag, vbytes) ((vbytes) * (ndiag) + 8.0 * 8.0)

/* -eas_backend auto: the backend for obj, the object that needs one (an
   EasAdr, an EasEbe, an EasDia at its SetUp), created on comm; *be = NULL
   when the resolver has no rule for such an object.  A layer above the
   backends decides it (the energy policies: src/policy/resolve.c); it
   registers its resolver here, at its package's initialization, and the
   registry calls it (as the solvers call the hooks the layers above
   attached): the backends name no function of that layer. */
typedef PetscErrorCode (*EasBackendAutoResolver)(PetscObject obj, MPI_Comm comm, EasBackend *be);
PETSC_INTERN PetscErrorCode EasBackendSetAutoResolver(EasBackendAutoResolver);
/* EasBackendCreateFor_Private - the backend of obj, an object without one at
   its SetUp: -eas_backend under obj's prefix (default /cpu; the registry is
   the option's one parser), auto resolved for obj. */
PETSC_INTERN PetscErrorCode EasBackendCreateFor_Private(PetscObject obj, MPI_Comm comm, EasBackend *be);

/* The backends package: the EasBackend class (called by EasBackendCreate;
   each package initializes itself, docs/design.md). */
PETSC_INTERN PetscErrorCode EasBackendInitializePackage(void);
