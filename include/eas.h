/*
  eas - energy-aware solvers.  Public API: opaque handles and functions only.

  eas is built on PETSc the way SLEPc is: every function returns a
  PetscErrorCode, objects are PetscObjects (so PetscObjectSetOptionsPrefix,
  -log_view object counts and -malloc_dump apply), options are read from the
  PETSc options database.
*/
#pragma once

#include <petscsys.h>
#include <petscmat.h>
#include <petscksp.h> /* KSPConvergedReason: eas reports PETSc's reasons */

#if defined(PETSC_USE_COMPLEX) || !defined(PETSC_USE_REAL_DOUBLE)
#  error "eas needs a real, double precision PETSc"
#endif

PETSC_EXTERN const char EasVersion[];

/* ---------------------------------------------------------------- core */

/* EasInitialize - initializes PETSc (if not yet done) and eas.
   Asks MPI for MPI_THREAD_MULTIPLE when eas initializes MPI, since the
   asynchronous modes may use a reception thread; the level obtained is
   reported by EasGetMPIThreadLevel().
   Input: argc, argv, file (options file or NULL), help (or NULL). */
PETSC_EXTERN PetscErrorCode EasInitialize(int *argc, char ***argv, const char file[], const char help[]);
/* EasFinalize - finalizes eas, and PETSc if EasInitialize initialized it. */
PETSC_EXTERN PetscErrorCode EasFinalize(void);
/* EasInitializePackage - registers classes and log events; called by every
   Create function, so programs that call PetscInitialize themselves work. */
PETSC_EXTERN PetscErrorCode EasInitializePackage(void);
/* EasHasFeature - whether an optional part is present: "sundials" (compiled
   in: CVODE time stepping, -adr_ts_type cvode), "cuda" (the CUDA module
   libeas-cuda.so and the CUDA libraries it needs load), "cuda-device" (and
   /gpu/cuda is usable: a device and its driver, see EasBackendIsAvailable).
   Unknown names: false. */
PETSC_EXTERN PetscErrorCode EasHasFeature(const char name[], PetscBool *has);
/* EasGetMPIThreadLevel - the MPI thread level provided (MPI_THREAD_*). */
PETSC_EXTERN PetscErrorCode EasGetMPIThreadLevel(PetscMPIInt *);

/* ---------------------------------------------------------------- hooks */

/* Layers depend downward only (core < backends < mat < solvers < energy
   policies < drivers): where a solver needs a decision from a layer above
   it (the energy policies of include/eas/policy.h: backend choice, DVFS,
   power budget), that layer attaches a hook and the solver calls it at
   fixed points, on every rank (hooks may be collective).
     EAS_HOOK_SOLVE_BEGIN  start of EasAdrSolve, or of EasKspSolve on an EasEbe
     EAS_HOOK_ITERATION    EasEbe: after each Krylov (cg, pipecg) iteration
     EAS_HOOK_STEP         EasAdr: after each converged time step (beuler) or
                           output segment (cvode); the solver may be moved
                           (EasAdrSetBackend) or reconfigured there
     EAS_HOOK_SOLVE_END    end of the solve (also when it did not converge) */
typedef enum {
  EAS_HOOK_SOLVE_BEGIN,
  EAS_HOOK_ITERATION,
  EAS_HOOK_STEP,
  EAS_HOOK_SOLVE_END
} EasHookPoint;
PETSC_EXTERN const char *const EasHookPoints[];

/* What a hook is told. */
typedef struct {
  EasHookPoint point;
  PetscInt     its;    /* iterations of the current solve so far: Krylov iterations (EasEbe), outer iterations (EasAdr, max over ranks) */
  PetscInt     steps;  /* EasAdr: converged time steps of the current EasAdrSolve; 0 for an EasEbe */
  PetscInt     nsteps; /* EasAdr: time steps the current EasAdrSolve is expected to take (PETSC_DECIDE: unknown, cvode); 0 for an EasEbe */
} EasHookInfo;

/* A hook: solver is the EasAdr or EasEbe calling it. */
typedef PetscErrorCode (*EasHookFn)(PetscObject solver, const EasHookInfo *info, void *ctx);

PETSC_EXTERN PetscClassId EAS_BACKEND_CLASSID;
PETSC_EXTERN PetscClassId EAS_DIA_CLASSID;
PETSC_EXTERN PetscClassId EAS_KSP_CLASSID;

/* ------------------------------------------------------------- backend */

/* A backend is a named ops table selected by a resource string, as in
   libCEED: "/cpu" (OpenMP, alias "/cpu/openmp"), "/cpu/serial" (one thread),
   "/gpu/cuda" (alias "/gpu"). */
typedef struct _p_EasBackend *EasBackend;

/* EasBackendCreate - creates the backend named by resource.
   Errors: PETSC_ERR_ARG_UNKNOWN_TYPE for an unknown name (the message lists
   the known ones), PETSC_ERR_SUP_SYS with "CUDA module not loaded (...)" when
   the CUDA module (libeas-cuda.so, beside libeas or at $EAS_CUDA_MODULE) or
   the CUDA libraries it needs are missing, and with "no CUDA device" when it
   loads but no device can be used. */
PETSC_EXTERN PetscErrorCode EasBackendCreate(MPI_Comm, const char resource[], EasBackend *);
/* EasBackendCreateFromOptions - the backend named by -eas_backend (default
   /cpu).  Errors: "auto" (a decision of the energy policies above the
   backends: EasPolicyCreateBackend in include/eas/policy.h). */
PETSC_EXTERN PetscErrorCode EasBackendCreateFromOptions(MPI_Comm, const char prefix[], EasBackend *);
/* EasBackendSetFromOptions - -eas_threads, -eas_cuda_spmv native|cusparse. */
PETSC_EXTERN PetscErrorCode EasBackendSetFromOptions(EasBackend);
PETSC_EXTERN PetscErrorCode EasBackendGetResource(EasBackend, const char *[]);
/* EasBackendIsHost - whether the backend's memory is the host's (CPU
   backends) rather than a device's. */
PETSC_EXTERN PetscErrorCode EasBackendIsHost(EasBackend, PetscBool *host);
/* EasBackendSetThreads - number of OpenMP threads of a CPU backend (>= 1). */
PETSC_EXTERN PetscErrorCode EasBackendSetThreads(EasBackend, PetscInt);
PETSC_EXTERN PetscErrorCode EasBackendGetThreads(EasBackend, PetscInt *);
/* EasBackendSynchronize - waits for all queued work of the backend. */
PETSC_EXTERN PetscErrorCode EasBackendSynchronize(EasBackend);
/* EasBackendGetTransferBytes - bytes copied host->device and device->host. */
PETSC_EXTERN PetscErrorCode EasBackendGetTransferBytes(EasBackend, PetscLogDouble *htod, PetscLogDouble *dtoh);
PETSC_EXTERN PetscErrorCode EasBackendView(EasBackend, PetscViewer);
PETSC_EXTERN PetscErrorCode EasBackendDestroy(EasBackend *);
/* EasBackendList - prints every known backend with its state (available,
   not compiled in, no device). */
PETSC_EXTERN PetscErrorCode EasBackendList(MPI_Comm, PetscViewer);
/* EasBackendIsAvailable - whether resource names a backend usable here;
   reason (may be NULL) receives a static string saying why not. */
PETSC_EXTERN PetscErrorCode EasBackendIsAvailable(const char resource[], PetscBool *, const char *reason[]);

/* ---------------------------------------------------------------- vector */

/* A vector on a backend that knows where its valid data is (host, device or
   both) and copies lazily; every copy is counted in the backend's transfer
   bytes and logged with PetscLogCpuToGpu/PetscLogGpuToCpu. */
typedef struct _p_EasVec *EasVec;

/* EasVecCreate - a vector of n local entries on the backend (zeroed). */
PETSC_EXTERN PetscErrorCode EasVecCreate(EasBackend, PetscInt n, EasVec *);
PETSC_EXTERN PetscErrorCode EasVecDuplicate(EasVec, EasVec *);
PETSC_EXTERN PetscErrorCode EasVecDestroy(EasVec *);
PETSC_EXTERN PetscErrorCode EasVecGetSize(EasVec, PetscInt *);
/* Host access: Read leaves the device copy valid, Write marks it invalid
   without copying, plain Get does both. */
PETSC_EXTERN PetscErrorCode EasVecGetArray(EasVec, PetscScalar **);
PETSC_EXTERN PetscErrorCode EasVecRestoreArray(EasVec, PetscScalar **);
PETSC_EXTERN PetscErrorCode EasVecGetArrayRead(EasVec, const PetscScalar **);
PETSC_EXTERN PetscErrorCode EasVecRestoreArrayRead(EasVec, const PetscScalar **);
PETSC_EXTERN PetscErrorCode EasVecGetArrayWrite(EasVec, PetscScalar **);
PETSC_EXTERN PetscErrorCode EasVecRestoreArrayWrite(EasVec, PetscScalar **);
PETSC_EXTERN PetscErrorCode EasVecSet(EasVec, PetscScalar);
PETSC_EXTERN PetscErrorCode EasVecCopy(EasVec x, EasVec y);                                /* y <- x */
PETSC_EXTERN PetscErrorCode EasVecAXPBY(EasVec y, PetscScalar a, PetscScalar b, EasVec x); /* y <- a x + b y */
PETSC_EXTERN PetscErrorCode EasVecPointwiseMult(EasVec w, EasVec x, EasVec y);             /* w <- x .* y */
PETSC_EXTERN PetscErrorCode EasVecDot(EasVec x, EasVec y, PetscScalar *);                  /* local (sequential) */
PETSC_EXTERN PetscErrorCode EasVecNorm(EasVec x, PetscReal *);                             /* 2-norm, local */
/* Copy to/from a PETSc Vec of the same local size. */
PETSC_EXTERN PetscErrorCode EasVecCopyFromVec(EasVec, Vec);
PETSC_EXTERN PetscErrorCode EasVecCopyToVec(EasVec, Vec);

/* ------------------------------------------------------------------ DIA */

/* Square sparse matrix in DIA storage: val[d*ld + i] = A[i][i+off[d]], with a
   padded leading dimension ld >= n.  An EasDia lives on one process
   (PETSC_COMM_SELF): the distributed solvers hold one block per rank. */
typedef struct _p_EasDia *EasDia;

/* Value precision of a DIA matrix (EasDiaSetPrecision). */
typedef enum {
  EAS_PRECISION_DOUBLE,
  EAS_PRECISION_SINGLE
} EasPrecision;
PETSC_EXTERN const char *const EasPrecisions[];
/* EasDiaCreate - an empty DIA matrix (set its sizes, offsets, values and backend, then EasDiaSetUp). */
PETSC_EXTERN PetscErrorCode EasDiaCreate(MPI_Comm, EasDia *);
/* EasDiaSetBackend - the backend that stores and multiplies (default: the
   one named by -eas_backend at SetUp). */
PETSC_EXTERN PetscErrorCode EasDiaSetBackend(EasDia, EasBackend);
PETSC_EXTERN PetscErrorCode EasDiaGetBackend(EasDia, EasBackend *);
/* EasDiaSetMaxFill - conversions refuse a matrix whose DIA storage
   ndiag*n exceeds fill*nnz (default 3, must be >= 1). */
PETSC_EXTERN PetscErrorCode EasDiaSetMaxFill(EasDia, PetscReal);
PETSC_EXTERN PetscErrorCode EasDiaSetOptionsPrefix(EasDia, const char[]);
/* EasDiaSetFromOptions - -dia_max_fill <fill>, -dia_view. */
PETSC_EXTERN PetscErrorCode EasDiaSetFromOptions(EasDia);
/* EasDiaSetDiagonals - sets n, the ndiag distinct offsets (|off| < n) and
   values val[d*n + i] = A[i][i+off[d]] (entries outside the matrix ignored).
   Copies the data. */
PETSC_EXTERN PetscErrorCode EasDiaSetDiagonals(EasDia, PetscInt n, PetscInt ndiag, const PetscInt off[], const PetscScalar val[]);
/* EasDiaSetPattern - sets n, the ndiag distinct offsets (|off| < n, any
   order) and all values zero, for filling with EasDiaGetValuesWrite(). */
PETSC_EXTERN PetscErrorCode EasDiaSetPattern(EasDia, PetscInt n, PetscInt ndiag, const PetscInt off[]);
/* EasDiaSetFromMat - converts a square sequential AIJ (or any MatGetRow) Mat. */
PETSC_EXTERN PetscErrorCode EasDiaSetFromMat(EasDia, Mat);
/* EasDiaLoadMatrixMarket - reads a real coordinate Matrix Market file
   (general or symmetric).  Errors name the file, the line and what was
   expected. */
PETSC_EXTERN PetscErrorCode EasDiaLoadMatrixMarket(EasDia, const char path[]);
/* EasDiaSetFromGallery - built-in test matrices:
   "adr": implicit Euler Jacobian of the 3D two-species diurnal ADR problem
   (docs/adr.md) on an n^3 grid, 2n^3 rows, 9 offsets, at t = 21600 s (noon)
   with -dia_gallery_dt <7200> as the time step. */
PETSC_EXTERN PetscErrorCode EasDiaSetFromGallery(EasDia, const char name[], PetscInt n);
PETSC_EXTERN PetscErrorCode EasDiaSetUp(EasDia);
/* EasDiaSetPrecision - the precision of the values the multiply and the
   BiCGStab kernels read: EAS_PRECISION_DOUBLE (default) or
   EAS_PRECISION_SINGLE (a float copy in backend memory, refreshed after
   every change of the values; vectors, sums and dot products stay double:
   36 instead of 72 B per row and multiply with 9 diagonals).  The host
   values stay double.  Every backend has the kernels (the same bodies);
   error at the first multiply through a CSR copy (-eas_cuda_spmv
   cusparse, -eas_memcheck_spmv csr), which holds double values. */
PETSC_EXTERN PetscErrorCode EasDiaSetPrecision(EasDia, EasPrecision);
PETSC_EXTERN PetscErrorCode EasDiaGetPrecision(EasDia, EasPrecision *);
PETSC_EXTERN PetscErrorCode EasDiaGetSize(EasDia, PetscInt *n, PetscInt *ndiag);
PETSC_EXTERN PetscErrorCode EasDiaGetOffsets(EasDia, const PetscInt *off[]);
/* EasDiaGetNonzeros - band entries inside the matrix, sum over the diagonals
   of n - |off|, as PetscCount (64-bit: it passes 2^31 - 1 from 2.4e8 rows
   with 9 diagonals). */
PETSC_EXTERN PetscErrorCode EasDiaGetNonzeros(EasDia, PetscCount *nnz);
/* EasDiaGetValuesWrite / EasDiaRestoreValuesWrite - change the values in
   place, the pattern (n, offsets, ld) fixed: *val is the host array of
   ndiag x ld values, val[d*ld + i] = A[i][i+off[d]] with the ascending
   offsets of EasDiaGetOffsets() and ld (may be NULL) the leading dimension.
   Entries with i+off[d] outside [0, n) and rows [n, ld) are reset to zero by
   the restore.  The restore increases the matrix's state (EasDiaGetState)
   and marks the backend copy out of date; it is uploaded in place at the
   next EasDiaSetUp() or multiply, and an EasKsp using the matrix recomputes
   only its value-dependent data (Jacobi scaling) at its next setup/solve.
   Errors: no entries yet; already checked out; restoring another array. */
PETSC_EXTERN PetscErrorCode EasDiaGetValuesWrite(EasDia, PetscScalar **val, PetscInt *ld);
PETSC_EXTERN PetscErrorCode EasDiaRestoreValuesWrite(EasDia, PetscScalar **val);
/* EasDiaGetValuesRead / EasDiaRestoreValuesRead - read-only host access in
   the same layout (no state change). */
PETSC_EXTERN PetscErrorCode EasDiaGetValuesRead(EasDia, const PetscScalar **val, PetscInt *ld);
PETSC_EXTERN PetscErrorCode EasDiaRestoreValuesRead(EasDia, const PetscScalar **val);
/* EasDiaGetState - a counter that increases with every change of the
   values or the pattern (SetDiagonals, SetFromMat, RestoreValuesWrite...):
   data derived from the values is current while the state is unchanged. */
PETSC_EXTERN PetscErrorCode EasDiaGetState(EasDia, PetscObjectState *);
PETSC_EXTERN PetscErrorCode EasDiaCreateVecs(EasDia, EasVec *x, EasVec *y);
PETSC_EXTERN PetscErrorCode EasDiaMult(EasDia, EasVec x, EasVec y);          /* y <- A x */
PETSC_EXTERN PetscErrorCode EasDiaMultTranspose(EasDia, EasVec x, EasVec y); /* y <- A^T x */
PETSC_EXTERN PetscErrorCode EasDiaGetDiagonal(EasDia, EasVec d);
/* EasDiaConvertToMat - a new SEQAIJ Mat with the same entries (explicit
   zeros inside the band are dropped). */
PETSC_EXTERN PetscErrorCode EasDiaConvertToMat(EasDia, Mat *);
PETSC_EXTERN PetscErrorCode EasDiaView(EasDia, PetscViewer);
PETSC_EXTERN PetscErrorCode EasDiaDestroy(EasDia *);

/* ---------------------------------------------------------------- Krylov */

typedef struct _p_EasKsp *EasKsp;
typedef struct _p_EasEbe *EasEbe; /* element-by-element operator, include/eas/ebe.h */
typedef const char       *EasKspType;
#define EAS_BICGSTAB "bicgstab"
#define EAS_CG "cg"         /* preconditioned CG over an EasDia or an EasEbe */
#define EAS_PIPECG "pipecg" /* pipelined CG (Ghysels-Vanroose): one MPI_Iallreduce per iteration, overlapped */

typedef const char *EasPCType;
#define EAS_PCNONE "none"
#define EAS_PCJACOBI "jacobi"
#define EAS_PCPBJACOBI "pbjacobi" /* point-block Jacobi (dof x dof blocks of an EasEbe); jacobi when dof = 1 */

/* EasKspCreate - a Krylov solver on comm (type, tolerances and preconditioner from the setters or options). */
PETSC_EXTERN PetscErrorCode EasKspCreate(MPI_Comm, EasKsp *);
PETSC_EXTERN PetscErrorCode EasKspSetType(EasKsp, EasKspType);
PETSC_EXTERN PetscErrorCode EasKspGetType(EasKsp, EasKspType *);
/* EasKspSetOperator - the matrix (its backend is the solver's backend).
   Setting the same matrix again is free; new values of the operator (its
   object state increased, e.g. by EasDiaRestoreValuesWrite()) are noticed
   by the next EasKspSetUp()/EasKspSolve(), which then recomputes only the
   value-dependent data (diagonal, Jacobi scaling) without reallocating; a
   new pattern (EasDiaSetDiagonals() etc. again) redoes the whole setup. */
PETSC_EXTERN PetscErrorCode EasKspSetOperator(EasKsp, EasDia);
/* EasKspSetOperatorEbe - an element-by-element operator (include/eas/ebe.h)
   for cg and pipecg; the solver's communicator must be
   the operator's. */
PETSC_EXTERN PetscErrorCode EasKspSetOperatorEbe(EasKsp, EasEbe);
PETSC_EXTERN PetscErrorCode EasKspSetPCType(EasKsp, EasPCType);
/* EasKspPipeCGSetReplace - pipecg: every k >= 1 iterations (default 100),
   replace the recursively updated residual and its auxiliary vectors by
   freshly computed ones (r = b - A x, u = M r, w = A u, s = A p, q = M s,
   z = A q; 4 extra operator applies, 4% at the default), so the attainable
   accuracy is that of cg; k = 0 never replaces (PETSc's KSPPIPECG): the
   recursive residual then drifts from the true one, and below about 1e-10
   relative pipecg may stop with DIVERGED_INDEFINITE_MAT or a true residual
   far above rtol (docs/async.md).  -ksp_pipecg_replace <k>. */
PETSC_EXTERN PetscErrorCode EasKspPipeCGSetReplace(EasKsp, PetscInt k);
/* EasKspSetTolerances - rtol, atol >= 0, dtol > 1 (or PETSC_DEFAULT), max_it >= 0.
   Converged when ||r|| <= max(rtol ||b||, atol); diverged when
   ||r|| > dtol ||b||.  PETSC_DEFAULT keeps a value. */
PETSC_EXTERN PetscErrorCode EasKspSetTolerances(EasKsp, PetscReal rtol, PetscReal atol, PetscReal dtol, PetscInt max_it);
PETSC_EXTERN PetscErrorCode EasKspGetTolerances(EasKsp, PetscReal *, PetscReal *, PetscReal *, PetscInt *);
PETSC_EXTERN PetscErrorCode EasKspSetOptionsPrefix(EasKsp, const char[]);
PETSC_EXTERN PetscErrorCode EasKspAppendOptionsPrefix(EasKsp, const char[]);
/* EasKspSetFromOptions - -ksp_type bicgstab|cg|pipecg, -ksp_rtol, -ksp_atol, -ksp_dtol,
   -ksp_max_it, -ksp_monitor, -ksp_converged_reason, -ksp_view, -pc_type none|jacobi|pbjacobi,
   all under the solver's prefix. */
PETSC_EXTERN PetscErrorCode EasKspSetFromOptions(EasKsp);
/* EasKspMonitorSet - a residual monitor called at every iteration. */
PETSC_EXTERN PetscErrorCode EasKspMonitorSet(EasKsp, PetscErrorCode (*)(EasKsp, PetscInt, PetscReal, void *), void *, PetscErrorCode (*)(void **));
/* EasKspMonitorDefault - prints "  it KSP Residual norm r" like PETSc. */
PETSC_EXTERN PetscErrorCode EasKspMonitorDefault(EasKsp, PetscInt, PetscReal, void *);
/* EasKspSetUp - checks the operator and builds the preconditioner; again
   after the operator's values changed: only the value-dependent data. */
PETSC_EXTERN PetscErrorCode EasKspSetUp(EasKsp);
/* EasKspSolve - solves A x = b from a zero initial guess (x is
   overwritten).  Failure to converge is a reason, not an error. */
PETSC_EXTERN PetscErrorCode EasKspSolve(EasKsp, EasVec b, EasVec x);
PETSC_EXTERN PetscErrorCode EasKspGetConvergedReason(EasKsp, KSPConvergedReason *);
PETSC_EXTERN PetscErrorCode EasKspGetIterationNumber(EasKsp, PetscInt *);
PETSC_EXTERN PetscErrorCode EasKspGetResidualNorm(EasKsp, PetscReal *);
/* EasKspGetSetUpCounts - setups done so far: full (allocation and
   preconditioner) and values only (same pattern, new values); either
   pointer may be NULL. */
PETSC_EXTERN PetscErrorCode EasKspGetSetUpCounts(EasKsp, PetscInt *full, PetscInt *values);
/* EasKspSetConvergenceTest - replaces the built-in test (PETSc's
   KSPConvergedDefault on rtol, atol, dtol, max_it) by test(ksp, its, rnorm,
   &reason, ctx), called after the monitors at every iteration (its = 0 with
   the initial residual) with the residual norm the method monitors; a
   reason of 0 continues, a nonzero one ends the solve with it.  The
   method's own breakdown tests stay.  destroy (may be NULL) frees ctx at
   the next call or EasKspDestroy.  test = NULL restores the built-in one.
   For adaptors that run an EasKsp under another package's convergence test
   and monitors (src/petsc/: PETSc's KSP). */
typedef PetscErrorCode (*EasKspConvergenceTestFn)(EasKsp, PetscInt its, PetscReal rnorm, KSPConvergedReason *reason, void *ctx);
PETSC_EXTERN PetscErrorCode EasKspSetConvergenceTest(EasKsp, EasKspConvergenceTestFn test, void *ctx, PetscErrorCode (*destroy)(void **));
/* An operator given by callbacks (cg and pipecg; EasKspSetOperatorShell):
   mult: y = A x for vectors of the operator's local length n on its
   backend, whose first nown entries are owned (they alone enter the dot
   products) and the rest ghosts that mult keeps consistent (collective);
   diagonal: d = diag(A) (ghosts consistent); blockdiagonal (may be NULL:
   -pc_type pbjacobi then unavailable): D[b*bs*bs + i*bs + j] = A[b*bs+i][b*bs+j]
   for the n/bs point blocks, host memory. */
typedef PetscErrorCode (*EasKspShellMultFn)(void *ctx, EasVec x, EasVec y);
typedef PetscErrorCode (*EasKspShellDiagonalFn)(void *ctx, EasVec d);
typedef PetscErrorCode (*EasKspShellBlockDiagFn)(void *ctx, PetscScalar D[]);
/* EasKspSetOperatorShell - an operator of local length n (nown owned, point
   blocks of bs) on backend be, given by callbacks (cg, pipecg; bicgstab
   needs a DIA operator).  Replaces a DIA or EBE operator; ctx is not freed. */
PETSC_EXTERN PetscErrorCode EasKspSetOperatorShell(EasKsp, EasBackend be, PetscInt n, PetscInt nown, PetscInt bs, EasKspShellMultFn mult, EasKspShellDiagonalFn diagonal, EasKspShellBlockDiagFn blockdiagonal, void *ctx);
/* The off-process part of a distributed DIA operator (EasKspSetOperatorCoupling).
   x, y, a: backend arrays of the operator's n rows (device memory on a
   device backend).  The callback adds w = C x~ to y, where x~ are the other
   ranks' entries of x it needs (it exchanges them: collective), and returns
   dc[0] = (a, w) and dc[1] = 2 (y, w) + (w, w) over the local rows (y before
   the update), so that the fused sweeps' dot products (a, y) and (y, y)
   become those of the coupled product without another pass.  scaled: the
   sweeps multiply by A D^{-1} (right Jacobi), so C must be scaled by the
   inverse diagonal of the columns it couples. */
typedef PetscErrorCode (*EasKspCouplingFn)(void *ctx, EasBackend be, PetscBool scaled, const PetscScalar *x, PetscScalar *y, const PetscScalar *a, PetscScalar dc[2]);
/* EasKspSetOperatorCoupling - bicgstab on a DIA operator that is this
   rank's diagonal block of a distributed matrix: coupling adds the
   off-process part after each product of the fused sweeps (NULL: none, the
   block is the operator; the default).  Dot products are summed over the
   solver's communicator as always. */
PETSC_EXTERN PetscErrorCode EasKspSetOperatorCoupling(EasKsp, EasKspCouplingFn coupling, void *ctx);
PETSC_EXTERN PetscErrorCode EasKspView(EasKsp, PetscViewer);
PETSC_EXTERN PetscErrorCode EasKspDestroy(EasKsp *);

/* energy models of the source papers (pure functions) */
#include <eas/energy.h>
#include <eas/ebe.h>
#include <eas/adr.h>
#include <eas/meter.h>
/* the energy policies: the layer above the solvers */
#include <eas/policy.h>
/* the PETSc plug-in: MATEASDIA, MATEASEBE, KSPEASBCGS, KSPEASCG */
#include <eas/petsc.h>
