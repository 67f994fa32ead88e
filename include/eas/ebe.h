/*
  eas - the element-by-element operator EasEbe (docs/ebe.md,
  Lang-Rünger) and the online split of its element work over compute units.

  Distributed layout (EasEbeSetFromMesh on a communicator of size > 1): the
  structured mesh is cut in slabs of element layers along z, one per rank.
  A rank's local nodes are all nodes of its elements, numbered z-slowest, so
  its owned nodes come first and the ghost layer (the top node layer, owned
  by the next rank) last.  Vectors of the operator (EasEbeCreateVecs) hold
  owned + ghost entries, dof per node interleaved; the owned entries of rank r
  are the global entries in PETSc's contiguous ownership range.  Every vector
  the solvers produce is kept consistent on the ghost entries (the interface
  sums are exchanged both ways), and dot products count owned entries only.
*/
#pragma once

#include <petscmat.h> /* EasEbeAssemble */
#include <eas/vec.h>
#include <eas/meter.h>

typedef struct _p_EasEbe *EasEbe;
PETSC_EXTERN PetscClassId EAS_EBE_CLASSID;

typedef enum {
  EAS_EBE_POISSON,   /* -div(k grad u) = f, 1 dof per node (default: Dirichlet on the whole boundary) */
  EAS_EBE_ELASTICITY /* -div sigma(u) = f, linear isotropic elasticity, 3 dof per node (default: clamped at x = 0) */
} EasEbeProblem;
PETSC_EXTERN const char *const EasEbeProblems[];

/* Where a built-in mesh prescribes the unknowns (docs/fem.md). */
typedef enum {
  EAS_EBE_BC_DEFAULT,   /* the problem's: dirichlet for poisson, clamped for elasticity */
  EAS_EBE_BC_DIRICHLET, /* every unknown on the boundary of the cube */
  EAS_EBE_BC_CLAMPED,   /* every unknown on the face x = 0 (the rest of the boundary is free: zero flux or traction) */
  EAS_EBE_BC_NONE       /* none: the operator is singular (constants; the six rigid-body modes) */
} EasEbeBoundary;
PETSC_EXTERN const char *const EasEbeBoundaries[];

/* The material of a built-in mesh, evaluated at the quadrature points. */
typedef enum {
  EAS_EBE_MATERIAL_VARYING, /* k(x) (poisson) or Young's modulus E(x) (elasticity) = 1 + 0.5 sin(3x + 2y + z) */
  EAS_EBE_MATERIAL_CONSTANT /* k = 1 or E = 1 */
} EasEbeMaterial;
PETSC_EXTERN const char *const EasEbeMaterials[];
/* Poisson's ratio of the built-in elasticity (Lame lambda = E nu/((1+nu)(1-2nu)), mu = E/(2(1+nu))). */
#define EAS_EBE_POISSON_RATIO 0.3

/* EasEbeMeshMapFn - places node ijk = (i,j,k) of the structured grid of a
   built-in mesh ((p nx + 1) x (p ny + 1) x (p nz + 1) nodes for order p,
   global indices), whose position on the unit cube is xi = (i/(p nx),
   j/(p ny), k/(p nz)), at x.  ctx is the user's. */
typedef PetscErrorCode (*EasEbeMeshMapFn)(const PetscInt ijk[3], const PetscReal xi[3], PetscReal x[3], void *ctx);

/* EasEbeFieldFn - a field of dof components at the point x (ctx is the
   user's): u[k] for k < dof, and when du is not NULL the gradient
   du[3*k + j] = d u_k / d x_j.  Used for body forces (du is then NULL),
   Dirichlet data and exact solutions. */
typedef PetscErrorCode (*EasEbeFieldFn)(const PetscReal x[3], PetscScalar u[], PetscScalar du[], void *ctx);

typedef enum {
  EAS_EBE_SYNC, /* local elements, then a blocking interface exchange */
  EAS_EBE_ASYNC /* interface elements, non-blocking exchange, interior elements, wait */
} EasEbeMode;
PETSC_EXTERN const char *const EasEbeModes[];

typedef enum {
  EAS_EBE_SPLIT_AUTO, /* shares follow the measured per-element times */
  EAS_EBE_SPLIT_FIXED /* shares stay as set (-ebe_gpu_share) */
} EasEbeSplitType;
PETSC_EXTERN const char *const EasEbeSplitTypes[];

/* EasEbeCreate - an empty element-by-element operator on comm. */
PETSC_EXTERN PetscErrorCode EasEbeCreate(MPI_Comm, EasEbe *);
/* EasEbeSetBackend - the backend storing the elements and the vectors
   (default: -eas_backend at SetUp). */
PETSC_EXTERN PetscErrorCode EasEbeSetBackend(EasEbe, EasBackend);
/* EasEbeGetBackend - the operator's backend (borrowed; NULL before
   EasEbeSetUp when none was set). */
PETSC_EXTERN PetscErrorCode EasEbeGetBackend(EasEbe, EasBackend *);
/* EasEbeSetOptionsPrefix - prefix of the operator's options
   (-<prefix>ebe_storage, ...). */
PETSC_EXTERN PetscErrorCode EasEbeSetOptionsPrefix(EasEbe, const char[]);
/* EasEbeSetElements - the user path (one process): nel elements of nen
   nodes with dof unknowns per node over nnodes nodes; conn[e*nen + a] in
   [0, nnodes) without repeats inside an element; ael[e*m*m + i*m + j] the
   dense element matrices, m = nen*dof <= 81, unknown (a,k) at a*dof + k.
   Copies the data.  Errors name the element and the node. */
PETSC_EXTERN PetscErrorCode EasEbeSetElements(EasEbe, PetscInt nel, PetscInt nen, PetscInt dof, PetscInt nnodes, const PetscInt conn[], const PetscScalar ael[]);
/* EasEbeSetFromMesh - built-in structured hexahedral mesh of the unit cube
   (or its image under EasEbeSetMeshMap) with nx x ny x nz elements, Q1
   (order 1, 8 nodes) or Q2 (order 2, 27 nodes) isoparametric, element
   matrices by Gauss quadrature (2 or 3 points per direction) with the
   material (EasEbeSetMeshMaterial) at the quadrature points and the
   prescribed unknowns (EasEbeSetMeshBoundary) decoupled; distributed by
   z-slabs (nz >= communicator size).  docs/fem.md. */
PETSC_EXTERN PetscErrorCode EasEbeSetFromMesh(EasEbe, EasEbeProblem, PetscInt order, PetscInt nx, PetscInt ny, PetscInt nz);
/* EasEbeSetMeshBoundary - where the built-in mesh prescribes the unknowns
   (default EAS_EBE_BC_DEFAULT).  Before or after EasEbeSetFromMesh (which
   is then redone), before EasEbeSetUp. */
PETSC_EXTERN PetscErrorCode EasEbeSetMeshBoundary(EasEbe, EasEbeBoundary);
/* EasEbeSetMeshMaterial - the material of the built-in mesh (default
   EAS_EBE_MATERIAL_VARYING).  Same rules as EasEbeSetMeshBoundary. */
PETSC_EXTERN PetscErrorCode EasEbeSetMeshMaterial(EasEbe, EasEbeMaterial);
/* EasEbeSetMeshMap - user node coordinates for the built-in mesh: every
   node is placed by map (NULL: the unit cube).  The elements are
   isoparametric (geometry interpolated from all their nodes, so a Q2
   element may be curved); the boundary sets stay the grid's faces.  Same
   rules as EasEbeSetMeshBoundary.  Errors at EasEbeSetFromMesh: an element
   with a non-positive Jacobian determinant at a quadrature point. */
PETSC_EXTERN PetscErrorCode EasEbeSetMeshMap(EasEbe, EasEbeMeshMapFn map, void *ctx);
/* EasEbeGetMeshBoundary - the boundary set in force (DEFAULT is resolved
   by EasEbeSetFromMesh). */
PETSC_EXTERN PetscErrorCode EasEbeGetMeshBoundary(EasEbe, EasEbeBoundary *);
/* EasEbeGetElement - local element e: its local node numbers nodes[nen]
   and its element matrix A[m*m] (m = nen*dof, row-major, as applied: for
   built-in meshes with the prescribed unknowns decoupled); either may be
   NULL.  Copies, so the storage may differ. */
PETSC_EXTERN PetscErrorCode EasEbeGetElement(EasEbe, PetscInt e, PetscInt nodes[], PetscScalar A[]);
/* EasEbeInterpolate - x = the nodal values of the field u at every local
   node (owned and ghost) of a built-in mesh. */
PETSC_EXTERN PetscErrorCode EasEbeInterpolate(EasEbe, EasEbeFieldFn u, void *ctx, EasVec x);
/* EasEbeComputeRHS - the load vector of a built-in mesh: body force f (per
   unit volume; NULL: none) and the values g (NULL: zero) of the prescribed
   unknowns.  Free unknowns get int f.N_i - sum_j K_ij g_j over the
   prescribed j (lifting, with the undecoupled element matrices K);
   prescribed ones get A_ii g_i, so that A x = b gives x_i = g_i there.
   f is integrated by Gauss quadrature with order+2 points per direction.
   Collective; b is consistent on the ghost entries. */
PETSC_EXTERN PetscErrorCode EasEbeComputeRHS(EasEbe, EasEbeFieldFn f, EasEbeFieldFn g, void *ctx, EasVec b);
/* EasEbeComputeError - discretization error of the finite element field x
   against the exact solution u (with gradient) on a built-in mesh:
   err[0] = ||u - u_h||_L2, err[1] = the energy norm of u - u_h with the
   mesh's material (sqrt(int k |grad e|^2), or sqrt(int lambda (div e)^2 +
   2 mu eps(e):eps(e))); nrm[] the same norms of u (nrm may be NULL).
   Gauss quadrature with order+3 points per direction.  Collective. */
PETSC_EXTERN PetscErrorCode EasEbeComputeError(EasEbe, EasVec x, EasEbeFieldFn u, void *ctx, PetscReal err[2], PetscReal nrm[2]);
/* EasEbeGetManufacturedSolution - the smooth manufactured solution of the
   built-in problem (a product of sines per component, not zero on the
   boundary; docs/fem.md) and the body force f = -div(k grad u) or
   -div sigma(u) that it solves with the mesh's material; ctx is to be
   passed to them (it is the EasEbe).  For EasEbeComputeRHS(ebe, f, u, ctx, b)
   and EasEbeComputeError(ebe, x, u, ctx, ...). */
PETSC_EXTERN PetscErrorCode EasEbeGetManufacturedSolution(EasEbe, EasEbeFieldFn *u, EasEbeFieldFn *f, void **ctx);
/* EasEbeSetMode - sync or async interface exchange (-ebe_mode). */
PETSC_EXTERN PetscErrorCode EasEbeSetMode(EasEbe, EasEbeMode);

/* Element matrix storage: EasEbeStorage (eas/backend.h, the formats the
   backends' kernels read; -ebe_storage). */
PETSC_EXTERN const char *const EasEbeStorages[];
/* EasEbeSetStorage - before EasEbeSetUp.  Default (not set): symmetric when
   every element matrix is symmetric to 1e-12 (relative to its largest
   entry), else full; single stays an option.  The symmetric storages need
   symmetric element matrices (error naming -ebe_storage otherwise); the
   full matrices are kept too (diagonal, assembly).  Every backend applies
   every storage with the same bodies (device backends get the values
   uploaded at SetUp). */
PETSC_EXTERN PetscErrorCode EasEbeSetStorage(EasEbe, EasEbeStorage);
/* EasEbeSetDeterministic - -ebe_deterministic: the device apply colour by
   colour (reproducible sums) instead of one launch with atomics.  Before
   EasEbeSetUp. */
PETSC_EXTERN PetscErrorCode EasEbeSetDeterministic(EasEbe, PetscBool);
/* The kernel a device backend applies the operator with
   (-ebe_device_layout; docs/ebe.md "Device kernels"): WARP, a group of
   lanes of a warp per element on the host layout (each row of an element
   matrix read in one coalesced slice); LANES, one thread per element on
   values interleaved in batches of 32 elements.  Host backends ignore it. */
typedef enum {
  EAS_EBE_DEVICE_LAYOUT_WARP,
  EAS_EBE_DEVICE_LAYOUT_LANES
} EasEbeDeviceLayout;
PETSC_EXTERN const char *const EasEbeDeviceLayouts[];
/* EasEbeSetDeviceLayout - -ebe_device_layout warp|lanes (default warp).
   Before EasEbeSetUp. */
PETSC_EXTERN PetscErrorCode EasEbeSetDeviceLayout(EasEbe, EasEbeDeviceLayout);
/* EasEbeSetWarpRows - -ebe_warp_rows 4|8: rows the device's warp kernel
   loads before their sums (default 4).  Before EasEbeSetUp. */
PETSC_EXTERN PetscErrorCode EasEbeSetWarpRows(EasEbe, PetscInt);
/* EasEbeGetDeviceLayout - the device kernel's layout (set or default). */
PETSC_EXTERN PetscErrorCode EasEbeGetDeviceLayout(EasEbe, EasEbeDeviceLayout *);
/* EasEbeGetStorage - the storage (after SetUp: the one chosen). */
PETSC_EXTERN PetscErrorCode EasEbeGetStorage(EasEbe, EasEbeStorage *);
/* EasEbeSetFromOptions - -ebe_mode sync|async, -ebe_storage
   full|symmetric|single|symmetric_single, -ebe_deterministic,
   -ebe_device_layout warp|lanes, -ebe_warp_rows 4|8, -ebe_view, and the split
   options: -ebe_split_units <res[:threads],...>, -ebe_split auto|fixed,
   -ebe_gpu_share <r in [0,1]>, -ebe_rebalance_interval <k>,
   -ebe_split_window <w>, -ebe_split_tol <t>, -ebe_split_damping <d>,
   -ebe_split_quantile <q>, -ebe_split_thread_clock, -ebe_split_trace <file.csv>,
   -ebe_test_slowdown <unit>:<factor>, -ebe_test_virtual_time <t> (TEST ONLY). */
PETSC_EXTERN PetscErrorCode EasEbeSetFromOptions(EasEbe);
/* EasEbeSetUp - the backend copies of the elements, the exchange buffers and
   the split.  Errors: no elements set. */
PETSC_EXTERN PetscErrorCode EasEbeSetUp(EasEbe);
/* EasEbeGetSizes - local element count, nodes per element, dof per node,
   local nodes (owned + ghost) and owned nodes; any may be NULL. */
PETSC_EXTERN PetscErrorCode EasEbeGetSizes(EasEbe, PetscInt *nel, PetscInt *nen, PetscInt *dof, PetscInt *nnodes, PetscInt *nowned);
/* EasEbeGetColors - the number of element colours (no two elements of a
   colour share a node). */
PETSC_EXTERN PetscErrorCode EasEbeGetColors(EasEbe, PetscInt *ncolors);
/* EasEbeGetColoring - colour c holds the local elements color_elem[color_ptr[c]
   .. color_ptr[c+1]) (ascending), c < ncolors; borrowed, any may be NULL.
   The apply runs one colour after the other: elements given to
   EasEbeSetElements in colour order are read contiguously (the greedy
   colouring of that order is the same colouring). */
PETSC_EXTERN PetscErrorCode EasEbeGetColoring(EasEbe, PetscInt *ncolors, const PetscInt *color_ptr[], const PetscInt *color_elem[]);
/* EasEbeCreateVecs - vectors of nnodes*dof entries on the operator's backend. */
PETSC_EXTERN PetscErrorCode EasEbeCreateVecs(EasEbe, EasVec *x, EasVec *y);
/* EasEbeMult - y = A x (interface sums exchanged; x must be consistent). */
PETSC_EXTERN PetscErrorCode EasEbeMult(EasEbe, EasVec x, EasVec y);
/* EasEbeMultAddRange - y += sum_{e in [e0,e1)} A_e x over local elements,
   no exchange, no split (for tests and benchmarks). */
PETSC_EXTERN PetscErrorCode EasEbeMultAddRange(EasEbe, PetscInt e0, PetscInt e1, EasVec x, EasVec y);
/* EasEbeGetDiagonal - the assembled diagonal (element diagonals summed,
   interface exchanged). */
PETSC_EXTERN PetscErrorCode EasEbeGetDiagonal(EasEbe, EasVec d);
/* EasEbeCheckSymmetric - errors (naming the element and entry) when an
   element matrix is not symmetric to rtol. */
PETSC_EXTERN PetscErrorCode EasEbeCheckSymmetric(EasEbe, PetscReal rtol);
/* EasEbeAssemble - the assembled matrix as a PETSc AIJ Mat on the
   operator's communicator (global numbering, owned rows). */
PETSC_EXTERN PetscErrorCode EasEbeAssemble(EasEbe, Mat *);
/* EasEbeVecToPetsc / EasEbeVecFromPetsc - owned entries to/from a PETSc Vec
   of the assembled layout; FromPetsc also fills the ghost entries. */
PETSC_EXTERN PetscErrorCode EasEbeVecToPetsc(EasEbe, EasVec, Vec);
PETSC_EXTERN PetscErrorCode EasEbeVecFromPetsc(EasEbe, Vec, EasVec);
/* EasEbeGetNodeCoordinates - coordinates (3 per local node) of a built-in
   mesh (NULL for the user path). */
PETSC_EXTERN PetscErrorCode EasEbeGetNodeCoordinates(EasEbe, const PetscReal *xyz[]);
/* EasEbeView - sizes, colours, mode, storage, backend and split. */
PETSC_EXTERN PetscErrorCode EasEbeView(EasEbe, PetscViewer);
/* EasEbeDestroy - frees the operator, its split units and its meter (*ebe set
   to NULL). */
PETSC_EXTERN PetscErrorCode EasEbeDestroy(EasEbe *);

/* ---------------------------------------------------------------- split */

/* EasEbeSetSplitUnits - the compute units sharing the local elements
   (docs/ebe.md): each is a backend (a CPU backend with its thread
   count is a group of threads; a device backend follows Lang-Rünger Alg. 2).
   With the operator on a device backend its vectors stay there: exactly
   one unit must be that backend (the device unit) and the CPU units get x
   at their gather lists only (docs/ebe.md "Split on a device operator").
   n = 0 removes the split. */
PETSC_EXTERN PetscErrorCode EasEbeSetSplitUnits(EasEbe, PetscInt n, const EasBackend units[]);
/* EasEbeSetSplitType - EAS_EBE_SPLIT_AUTO (default: the shares follow the
   measured per-element times) or EAS_EBE_SPLIT_FIXED (the shares of
   EasEbeSetGpuShare; -ebe_split_type auto|fixed). */
PETSC_EXTERN PetscErrorCode EasEbeSetSplitType(EasEbe, EasEbeSplitType);
/* EasEbeSetGpuShare - fraction in [0,1] of the elements given to unit 0
   (the device unit when there is one) at start, and always in fixed mode. */
PETSC_EXTERN PetscErrorCode EasEbeSetGpuShare(EasEbe, PetscReal);
/* EasEbeSetRebalanceInterval - applies between split decisions (>= 1). */
PETSC_EXTERN PetscErrorCode EasEbeSetRebalanceInterval(EasEbe, PetscInt);
/* EasEbeSplitSetMinGain - the split is chosen only when its predicted time
   (transfers included, docs/ebe.md) beats the best unit alone by the
   fraction g: T_split <= (1 - g) min_u T_u (-ebe_split_min_gain, default
   0.05); otherwise the best unit takes all the elements and the decision
   says why.  Errors: g outside [0, 1) or NaN. */
PETSC_EXTERN PetscErrorCode EasEbeSplitSetMinGain(EasEbe, PetscReal g);
/* EasEbeSplitGetMinGain - the margin of EasEbeSplitSetMinGain. */
PETSC_EXTERN PetscErrorCode EasEbeSplitGetMinGain(EasEbe, PetscReal *g);
/* EasEbeSplitSetRemaining - applies expected to remain (the horizon of the
   migration test, Ribeiro eq. 4.7: elements move only when the time saved
   over them pays for the move; 0: never); PETSC_DEFAULT (the default): the
   applies of the last solve.  Errors: a negative value. */
PETSC_EXTERN PetscErrorCode EasEbeSplitSetRemaining(EasEbe, PetscReal);
/* EasEbeSplitGetState - number of units, current shares, smoothed per-element
   times (s) and last measured unit times (s); arrays owned by the EasEbe. */
PETSC_EXTERN PetscErrorCode EasEbeSplitGetState(EasEbe, PetscInt *nunits, const PetscInt *shares[], const PetscReal *t_el[], const PetscReal *t_unit[]);
/* EasEbeSplitGetDecisionCount - decisions taken and migrations done. */
PETSC_EXTERN PetscErrorCode EasEbeSplitGetDecisionCount(EasEbe, PetscInt *ndecisions, PetscInt *nmigrations);
/* EasEbeSplitGetNoise - timing noise of the current window: max over units
   of (q75 - q25) / median of the per-element times. */
PETSC_EXTERN PetscErrorCode EasEbeSplitGetNoise(EasEbe, PetscReal *noise);
/* EasEbeSplitViewTrace - every split decision, one line each. */
PETSC_EXTERN PetscErrorCode EasEbeSplitViewTrace(EasEbe, PetscViewer);
/* EasEbeSplitDumpTrace - the decisions as CSV (one row per decision and unit). */
PETSC_EXTERN PetscErrorCode EasEbeSplitDumpTrace(EasEbe, const char path[]);
/* EasEbeSplitEfficiency - heterogeneous efficiency (Ribeiro eq. 3.6) of
   the current split from the smoothed times: (1/T_D) / sum_u 1/T_u with
   T_D = max_u t_u n_u and T_u = t_u N. */
PETSC_EXTERN PetscErrorCode EasEbeSplitEfficiency(EasEbe, PetscReal *E);
/* EasEbeSplitMeasureEfficiency - the heterogeneous efficiency (Ribeiro
   eq. 3.6) measured in one run under the same conditions, on the current
   shares n_u (N = sum n_u): reps times, interleaved, each host unit alone
   on exactly its share (same elements, threads, kernel and redundant work,
   its own team of threads, the other units idle: T_u), then all
   units together (one split apply: T_D = its slowest unit part); medians
   over reps, with the split's clock (-ebe_split_clock).  With T_dev_u =
   T_u N/n_u (unit u alone on all N elements at the rate measured on its
   share), E = (1/T_D) / sum_u (1/T_dev_u), used over available
   capacity: 1 when the shares balance the alone times
   and running together costs nothing, below 1 by the imbalance and the
   interference (memory bandwidth, cores) of running together; above 1 only
   by measurement noise.  No rebalancing during the measurement.  Talone
   (n entries) and TD may be NULL.  Errors: no split units, a device unit,
   a unit without elements, reps < 1. */
PETSC_EXTERN PetscErrorCode EasEbeSplitMeasureEfficiency(EasEbe, EasVec x, EasVec y, PetscInt reps, PetscReal *E, PetscReal Talone[], PetscReal *TD);

/* ---------------------------------------------------------------- energy */

/* Energy metering of the EBE operator and of the cg/pipecg solves over it
   (docs/energy.md).  The EasEbe owns an optional EasEnergyMeter
   (none by default).  Meter units: one per split unit ("u<k>:<resource>",
   EAS_UNIT_CPU for host units, EAS_UNIT_GPU for device units), or one for
   the operator's backend without a split.  Phases:
     setup     EasEbeSetUp (which starts the meter) and the Krylov setup
               (symmetry check, preconditioner), on the driver unit (the
               first host unit: the host thread);
     compute   each unit's share of every apply (work = its elements; a
               device unit's interval includes its per-apply x/y copies),
               the interface elements of async mode and the Krylov vector
               updates (work 0) on the driver unit;
     exchange  the interface exchange of EasEbeMult and the Krylov
               reductions (MPI_Allreduce, pipecg's MPI_Wait), driver unit;
     transfers the element matrices copied to a device unit when its share
               changes (t_copy, Lang-Rünger eq. 14; work = elements).
   Units of the split run concurrently: each unit's weight is its share of
   the node (EasEnergyMeterSetUnitWeightsFromThreads: a CPU unit's threads
   over max(cores, threads of the node's CPU units), a GPU unit 1/(GPU
   units of the node)), and the meter's busy fraction of a kind is the sum
   of weight x busy time over the wall time, capped at 1 (Vialle et al. eq. 1.16).  With -eas_trace <file.csv>, cg and pipecg
   write one row per iteration: rank 0's elements per unit in the iteration
   and their measured per-element times (meter compute time / elements), the
   predicted time (split model max_u t_u n_u with the split's smoothed t_u,
   else the previous row's, plus the mean non-apply time of the previous
   rows; max over ranks) and energy (EasModelProfileShareEnergy from the
   meter's profile with the weighted predicted busy fractions, summed over
   ranks), and the
   measured time and energy (EasEnergyTraceRow). */

/* EasEbeSetEnergyMeter - meters the operator with m (a reference is taken;
   NULL removes it).  Units are registered at EasEbeSetUp, which also starts
   the meter: set it before SetUp, on a meter with no units of its own. */
PETSC_EXTERN PetscErrorCode EasEbeSetEnergyMeter(EasEbe, EasEnergyMeter);
/* EasEbeGetEnergyMeter - the operator's meter, created (with the operator's
   prefix) on first request; borrowed reference.  EasEbeSetFromOptions also
   creates it when -eas_trace or -eas_energy_view is given or with
   -ebe_energy_meter, and then applies the meter's options (-eas_sensor,
   -eas_power_*, -eas_energy_view, -eas_trace).  The owner of the run views
   it (EasEnergyMeterViewFromOptions) and reads it (EasEnergyMeterGetSummary). */
PETSC_EXTERN PetscErrorCode EasEbeGetEnergyMeter(EasEbe, EasEnergyMeter *);

/* ---------------------------------------------------------------- hooks */

/* EasEbeAddHook - attaches a hook of a layer above (include/eas/sys.h): cg and
   pipecg over the operator call it on every rank at EAS_HOOK_SOLVE_BEGIN,
   after every iteration (EAS_HOOK_ITERATION, info->its = the iteration) and
   at EAS_HOOK_SOLVE_END; destroy(&ctx) (may be NULL) runs at EasEbeDestroy.
   The energy policies (include/eas/policy.h: EasPolicyAttachEbe, the online
   backend choice of -eas_backend auto, attached at EasEbeSetUp;
   EasPolicyAttachEbeFromOptions, -eas_dvfs and
   -eas_power_budget) attach theirs this way.  At most 8 hooks. */
PETSC_EXTERN PetscErrorCode EasEbeAddHook(EasEbe, EasHookFn, void *ctx, PetscErrorCode (*destroy)(void **));
