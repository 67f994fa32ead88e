/*
  Private declarations of EasEbe (layer mat, docs/design.md): the operator,
  its split of the element work over compute units (ebesplit.c), its
  energy-meter glue (ebemeter.c), its package and log events.
*/
#pragma once

#include <eas/ebe.h>
#include <eas/meter.h>
#include "testing.h" /* the split's test hooks (ebesplit.c) */
#include "../vec/vecimpl.h"
#include "../energy/energyimpl.h" /* EasEnergyOutputRequested_Private */
#include "../core/hook.h"

#define EAS_EBE_MAXUNITS 8

/* One split decision (or measurement at a decision point). */
typedef struct {
  PetscInt  apply, solve;
  PetscInt  shares_old[EAS_EBE_MAXUNITS], shares_new[EAS_EBE_MAXUNITS];
  PetscReal t_raw[EAS_EBE_MAXUNITS], t_el[EAS_EBE_MAXUNITS];
  PetscReal Tbar, Tdist, cost, remaining;
  PetscBool migrate, gpu_worth;
  PetscReal Tsplit, Tbest, t_xfer; /* predicted split time, best unit alone, measured transfer time per apply (-ebe_split_min_gain) */
  char      why[128];
} EasEbeDecision;

/* The online split of the element work (ebesplit.c). */
typedef struct {
  PetscInt           nunits;
  EasBackend         unit[EAS_EBE_MAXUNITS];
  PetscBool          is_host[EAS_EBE_MAXUNITS];
  PetscInt           shares[EAS_EBE_MAXUNITS], start[EAS_EBE_MAXUNITS];
  PetscInt           lo[EAS_EBE_MAXUNITS], hi[EAS_EBE_MAXUNITS]; /* dof range touched by the unit */
  PetscScalar       *ybuf[EAS_EBE_MAXUNITS];                     /* private y of units > first host unit; a device unit's is a host staging buffer (EasBackendHostAlloc) */
  PetscScalar       *xbuf[EAS_EBE_MAXUNITS];                     /* a device unit's host staging copy of x (issue 10 M1: copies from pageable memory are synchronous) */
  PetscScalar       *sbuf[EAS_EBE_MAXUNITS];                     /* scratch of the test slowdown */
  PetscScalar       *xdev[EAS_EBE_MAXUNITS], *ydev[EAS_EBE_MAXUNITS];
  PetscInt          *conn_dev[EAS_EBE_MAXUNITS];
  void              *val_dev[EAS_EBE_MAXUNITS]; /* the element values in the operator's storage (k.storage) */
  PetscInt          *cel_dev[EAS_EBE_MAXUNITS];
  PetscInt           dev_e0[EAS_EBE_MAXUNITS], dev_e1[EAS_EBE_MAXUNITS];
  PetscReal          t_copy_el[EAS_EBE_MAXUNITS]; /* Lang-Rünger eq. 14, per element */
  EasEbeSplitType    type;
  PetscReal          share0;       /* -ebe_gpu_share; < 0: equal shares */
  PetscInt           interval;     /* -ebe_rebalance_interval */
  PetscInt           window;       /* -ebe_split_window */
  PetscReal          tol;          /* -ebe_split_tol: relative gain below which no move */
  PetscReal          damping;      /* -ebe_split_damping: fraction of the way moved */
  PetscBool          thread_clock; /* -ebe_split_thread_clock */
  PetscReal          quantile;     /* -ebe_split_quantile (0.5: median) */
  PetscReal          min_gain;     /* -ebe_split_min_gain: the split must beat the best unit alone by this fraction */
  PetscInt           lastdir;
  PetscReal          virtual_tel;             /* -ebe_test_virtual_time (TEST ONLY) */
  PetscReal          virtual_noise;           /* -ebe_test_virtual_noise (TEST ONLY) */
  unsigned long long lcg; /* its generator */ /* direction of the last move of unit 0's share */
  PetscReal          slow[EAS_EBE_MAXUNITS];
  PetscReal          spike[EAS_EBE_MAXUNITS];
  PetscReal          remaining; /* < 0: applies of the last solve */
  PetscInt           e0, e1;    /* element range split */
  /* measurements */
  PetscReal      *busy;   /* window x nunits */
  PetscInt       *count;  /* window x nunits */
  PetscReal      *xfer;   /* window: host-side vector transfer time of an apply with a device and a host share (< 0: none) */
  PetscReal       t_xfer; /* its median */
  PetscInt        nsamples, napplies, since;
  PetscReal       t_el[EAS_EBE_MAXUNITS], t_unit[EAS_EBE_MAXUNITS], t_raw[EAS_EBE_MAXUNITS];
  PetscInt        applies_last_solve, applies_this_solve, nsolves;
  EasEbeDecision *trace;
  PetscInt        ntrace, maxtrace, nmigrations;
  char            trace_file[PETSC_MAX_PATH_LEN];
  PetscBool       setup;
  /* the split with the operator on a device backend (ebesplitdev.c; issue 20
     item 4): x and y stay in the operator's memory, the device unit is the
     operator's backend, a host unit gets x at its gather list only */
  PetscBool    on_device;                  /* the operator's backend is not host memory */
  PetscInt     dev_unit;                   /* the unit that computes on the operator's backend */
  PetscInt     glen[EAS_EBE_MAXUNITS];     /* a host unit's gather list: its length (dofs) */
  PetscInt    *gidx_dev[EAS_EBE_MAXUNITS]; /* the list in the operator's memory (ascending, distinct) */
  PetscScalar *gbuf_dev[EAS_EBE_MAXUNITS]; /* the gathered x, then the partial y, in the operator's memory */
  PetscScalar *gx_host[EAS_EBE_MAXUNITS];  /* pinned staging (EasBackendHostAlloc): the gathered x */
  PetscScalar *gy_host[EAS_EBE_MAXUNITS];  /* pinned staging: the unit's partial y for the list */
  PetscInt    *lconn[EAS_EBE_MAXUNITS];    /* nel*nen: the unit's elements' nodes renumbered into its list */
  EasEbeKernel hk[EAS_EBE_MAXUNITS];       /* a host unit's kernel over its list */
  void        *aels_host;                  /* host-layout values of a packed storage (EasEbePackStorage_Private) */
  /* the device unit alone (no host unit holds elements): its two marks are
     read at the next apply, once the caller's own reductions have synchronized
     (or before a decision), not waited for in the apply */
  PetscBool      pend;         /* an apply's device time not yet read */
  PetscBool      pend_virtual; /* its slot holds a virtual time: read the marks, keep the slot */
  PetscInt       pend_slot;    /* its window slot (which counts no elements until read) */
  PetscInt       pend_count;   /* the device unit's elements in that apply */
  PetscReal      pend_spike;   /* its injected spike factor (EasEbeSplitInjectSpike) */
  EasBackendMark pend_m0, pend_m1;
} EasEbeSplit;

struct _p_EasEbe {
  PETSCHEADER(int);
  EasBackend    be;
  PetscInt      nel, nen, dof, nnodes, nowned;
  PetscInt     *conn; /* host */
  PetscScalar  *ael;  /* host */
  PetscInt      ncolors;
  PetscInt     *color_ptr, *color_elem; /* host */
  PetscReal    *xyz;                    /* node coordinates of a built-in mesh */
  PetscBool     from_mesh;
  EasEbeProblem problem;
  PetscInt      order, nx, ny, nz;
  /* built-in mesh settings (src/mat/fem.c): boundary set, material, node map */
  EasEbeBoundary  bc;
  EasEbeMaterial  material;
  EasEbeMeshMapFn map;
  void           *mapctx;
  /* distributed: neighbours below (0) and above (1), interface nodes */
  PetscMPIInt  nbr[2];
  PetscMPIInt  tag; /* of the interface exchange, unique on the object's communicator (PetscObjectGetNewTag) */
  PetscInt     nifc[2];
  PetscInt    *ifc[2]; /* local node indices */
  PetscScalar *sbuf[2], *rbuf[2];
  PetscInt     bufsize;
  PetscInt     ifc_e[2][2]; /* element ranges touching the interfaces: [0,a) and [b,nel) */
  PetscInt     grow0;       /* first global dof owned */
  PetscInt    *l2g;         /* local node -> global node */
  PetscInt     nglobal_nodes;
  EasEbeMode   mode;
  EasEbeKernel k; /* backend view, after SetUp */
  /* -ebe_storage: requested (storage_set) or chosen at SetUp; aels the host
     copy of the packed/float values (k.aels on host backends; device
     backends get it uploaded to k.aels at SetUp and the host copy freed) */
  EasEbeStorage      storage;
  PetscBool          storage_set;
  PetscBool          deterministic; /* -ebe_deterministic (EasEbeSetDeterministic) */
  EasEbeDeviceLayout device_layout; /* -ebe_device_layout (EasEbeSetDeviceLayout) */
  PetscInt           warp_rows;     /* -ebe_warp_rows (EasEbeSetWarpRows) */
  void              *aels;
  PetscBool          setupcalled;
  EasEbeSplit       *split;
  EasVec             scratch; /* for the test slowdown */
  /* energy meter (optional, ebemeter.c): meter unit of each split
     unit (munit[0] = the operator's backend without a split), the driver
     unit (host thread: exchanges, reductions, vector work), trace state */
  EasEnergyMeter meter;
  PetscInt       nmunits, munit[EAS_EBE_MAXUNITS], mdriver;
  PetscBool      msetup; /* inside the setup phase: exchanges not metered apart */
  PetscBool      trace;  /* -eas_trace given: one row per Krylov iteration */
  PetscMPIInt    ppn;    /* ranks on this node (the model charges 1/ppn) */
  PetscInt       tr_it, tr_rows;
  PetscLogDouble tr_t;
  PetscReal      tr_busy[EAS_EBE_MAXUNITS], tr_work[EAS_EBE_MAXUNITS], tr_tel[EAS_EBE_MAXUNITS], tr_over;
  /* hooks of the layers above (EasEbeAddHook: the energy policies) */
  EasHookList hooks;
};

/* Sums the interface values of array a (host memory, bs values per node)
   with the neighbours: sync (blocking). */
PETSC_INTERN PetscErrorCode EasEbeExchange_Private(EasEbe, PetscScalar *a, PetscInt bs);
PETSC_INTERN PetscErrorCode EasEbeExchangeBegin_Private(EasEbe, const PetscScalar *a, PetscInt bs, MPI_Request req[4]);
PETSC_INTERN PetscErrorCode EasEbeExchangeEnd_Private(EasEbe, PetscScalar *a, PetscInt bs, MPI_Request req[4]);
/* Errors unless v is a vector of the operator (its length and backend; name: the argument's). */
PETSC_INTERN PetscErrorCode EasEbeCheckVec_Private(EasEbe, EasVec v, const char *name);
/* Point-block diagonal (nnodes*dof*dof, host, exchanged); caller frees. */
PETSC_INTERN PetscErrorCode EasEbeGetPointBlockDiagonal_Private(EasEbe, PetscScalar **);
/* The values of the operator's storage in the host layout (ebe.c; NULL for full); caller frees. */
PETSC_INTERN PetscErrorCode EasEbePackStorage_Private(EasEbe, void **aels);
PETSC_INTERN PetscErrorCode EasEbeStorageSetUp_Private(EasEbe); /* ebestorage.c: the storage the apply reads, in the backend's layout, uploaded */
/* Split (ebesplit.c). */
PETSC_INTERN PetscErrorCode EasEbeSplitCreate_Private(EasEbe);
PETSC_INTERN PetscErrorCode EasEbeSplitSetUp_Private(EasEbe, PetscInt e0, PetscInt e1);
PETSC_INTERN PetscErrorCode EasEbeSplitApply_Private(EasEbe, const PetscScalar *x, PetscScalar *y);
PETSC_INTERN PetscErrorCode EasEbeSplitSetFromOptions_Private(EasEbe, PetscOptionItems *);
PETSC_INTERN PetscErrorCode EasEbeSplitView_Private(EasEbe, PetscViewer);
PETSC_INTERN PetscErrorCode EasEbeSplitDestroy_Private(EasEbe);
/* The split on a device operator (ebesplitdev.c): checks and the host units'
   host-layout values (SetUp), the gather lists of the current shares
   (rebuilt when they move), one apply on device arrays (t[u]: each unit's
   seconds; *xfer: the transfer seconds per host element, < 0 when no host
   unit had elements), and the buffers' release. */
PETSC_INTERN PetscErrorCode EasEbeSplitDeviceSetUp_Private(EasEbe);
PETSC_INTERN PetscErrorCode EasEbeSplitDeviceShares_Private(EasEbe);
PETSC_INTERN PetscErrorCode EasEbeSplitDeviceApply_Private(EasEbe, const PetscScalar *x, PetscScalar *y, PetscReal t[], PetscReal *xfer);
/* The device unit's time of the last apply if it was left pending (t[d] < 0
   from the apply): into its window slot, waiting for the queue only if wait
   (before a decision or a query of the state). */
PETSC_INTERN PetscErrorCode EasEbeSplitDeviceResolve_Private(EasEbe, PetscBool wait);
PETSC_INTERN PetscErrorCode EasEbeSplitDeviceFree_Private(EasEbe);
/* Unit u's host part of an apply on kernel K (its elements, its threads, the
   test slowdown's repeats unless the times are virtual), into y; the unit's
   clock (plain C: runs inside the units' OpenMP team). */
PETSC_INTERN double EasEbeSplitRunHostUnit_Private(EasEbe, PetscInt u, const EasEbeKernel *K, const PetscScalar *x, PetscScalar *y);
/* Energy meter glue (ebemeter.c): registers the meter units (idempotent),
   Begin/End of a phase of the driver unit (no-ops without a meter), one
   trace row per Krylov iteration (collective; no-op without -eas_trace). */
PETSC_INTERN PetscErrorCode EasEbeMeterSetUp_Private(EasEbe);
PETSC_INTERN PetscErrorCode EasEbeMeterBegin_Private(EasEbe, EasPhase);
PETSC_INTERN PetscErrorCode EasEbeMeterEnd_Private(EasEbe, EasPhase, PetscReal work);
PETSC_INTERN PetscErrorCode EasEbeEnergyTraceRow_Private(EasEbe);
/* Calls the hooks (src/mat/ebe.c; collective): cg/pipecg at the start,
   after iteration its and at the end of a solve. */
PETSC_INTERN PetscErrorCode EasEbeCallHooks_Private(EasEbe, EasHookPoint, PetscInt its);
/* Called by the solvers at the start of a solve (solve counter, horizon). */
PETSC_INTERN PetscErrorCode EasEbeSplitSolveBegin_Private(EasEbe);

/* The EasEbe package: its class and log events (called by EasEbeCreate). */
PETSC_INTERN PetscErrorCode EasEbeInitializePackage(void);
PETSC_INTERN PetscLogEvent  EAS_EbeApply, EAS_EbeSetUp, EAS_EbeExchange, EAS_EbeDiagonal, EAS_EbeSplit;
