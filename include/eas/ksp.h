#pragma once
/*
  eas/ksp.h - Krylov solvers over an EasDia or an EasEbe (layer solvers,
  docs/design.md).
*/
#include <petscksp.h> /* KSPConvergedReason: eas reports PETSc's reasons */
#include <eas/dia.h>
#include <eas/ebe.h>

PETSC_EXTERN PetscClassId EAS_KSP_CLASSID;

typedef struct _p_EasKsp *EasKsp;
typedef const char       *EasKspType;
#define EAS_BICGSTAB "bicgstab"
#define EAS_CG "cg"         /* preconditioned CG over an EasDia or an EasEbe */
#define EAS_PIPECG "pipecg" /* pipelined CG (Ghysels-Vanroose): one MPI_Iallreduce per iteration, overlapped */

typedef const char *EasPCType;
#define EAS_PCNONE "none"
#define EAS_PCJACOBI "jacobi"
#define EAS_PCPBJACOBI "pbjacobi" /* point-block Jacobi (dof x dof blocks of an EasEbe); jacobi when dof = 1 */
#define EAS_PCILU "ilu"           /* ILU(0) on the DIA pattern (bicgstab): exact on the CPU, Chow-Patel iterations on a device */

/* EasKspCreate - a Krylov solver on comm (type, tolerances and preconditioner from the setters or options). */
PETSC_EXTERN PetscErrorCode EasKspCreate(MPI_Comm, EasKsp *);
/* EasKspSetType - EAS_BICGSTAB (DIA operator), EAS_CG or EAS_PIPECG (DIA, EBE
   or shell operator).  Errors: an unknown type (the message lists the known
   ones). */
PETSC_EXTERN PetscErrorCode EasKspSetType(EasKsp, EasKspType);
/* EasKspGetType - the solver's type (borrowed). */
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
/* EasKspSetPCType - EAS_PCNONE, EAS_PCJACOBI or EAS_PCPBJACOBI (right
   preconditioning for bicgstab: the residual monitored and tested is the true
   residual b - A x).  Errors: an unknown type. */
PETSC_EXTERN PetscErrorCode EasKspSetPCType(EasKsp, EasPCType);
/* EasKspSetILUSweeps, EasKspGetILUSweeps - -pc_type ilu on a backend that runs the parallel form
   (/cpu/memcheck, /gpu/cuda): the synchronous sweeps of Chow and Patel's
   factorization (default 2) and the Jacobi sweeps of each triangular solve
   (default 2); both >= 0, PETSC_DEFAULT keeps a value.  The CPU backends
   factor and solve exactly and ignore them.  -pc_ilu_factor_sweeps,
   -pc_ilu_solve_sweeps.  Get: the values in use. */
PETSC_EXTERN PetscErrorCode EasKspSetILUSweeps(EasKsp, PetscInt factor_sweeps, PetscInt solve_sweeps);
PETSC_EXTERN PetscErrorCode EasKspGetILUSweeps(EasKsp, PetscInt *factor_sweeps, PetscInt *solve_sweeps);
/* EasKspSetILULevels - the level of fill k of -pc_type ilu (-pc_factor_levels,
   default 0): ILU(k) on the DIA pattern, the factor on A's offsets plus the
   stencil's level-k fill offsets (PETSc's PCILU pattern in the interior). */
PETSC_EXTERN PetscErrorCode EasKspSetILULevels(EasKsp, PetscInt levels);
/* EasKspGetILULevels - the level of fill of -pc_type ilu. */
PETSC_EXTERN PetscErrorCode EasKspGetILULevels(EasKsp, PetscInt *levels);
/* EasKspSetILUGrid - the DIA operator is a stencil on a box: dof unknowns
   per point, interleaved, the points in x-fastest order on an n[0] x n[1] x
   n[2] box (EasAdr sets its box on its inner solver).  Needed by
   EasKspSetILUAxes. */
PETSC_EXTERN PetscErrorCode EasKspSetILUGrid(EasKsp, PetscInt dof, const PetscInt n[3]);
/* EasKspSetILUPrecision - the precision of the ILU factor the substitutions
   read (-pc_ilu_precision double|single, default double): single rounds
   the double factorization to float, half the bytes per application. */
PETSC_EXTERN PetscErrorCode EasKspSetILUPrecision(EasKsp, EasPrecision);
/* EasKspGetILUPrecision - the precision of the ILU factor. */
PETSC_EXTERN PetscErrorCode EasKspGetILUPrecision(EasKsp, EasPrecision *);
/* EasKspSetILUBlockFills - which unknowns of the box's points couple (as
   PETSc's DMDASetBlockFills): dfill[s*dof + t] nonzero if unknown s of a
   point couples to unknown t of the same point, ofill[s*dof + t] the same
   for neighbouring points; NULL: all.  EasKspSetILUGrid first.  The ILU
   pattern of -pc_ilu_axes then leaves out the couplings the fills exclude
   (DIA stores them as zeros), and so their fill: EasAdr's transport
   couples only the same species of neighbours. */
PETSC_EXTERN PetscErrorCode EasKspSetILUBlockFills(EasKsp, const PetscInt dfill[], const PetscInt ofill[]);
/* EasKspSetILUAxes - -pc_type ilu factors P A P' with the box's axes in the
   order axes, fastest first (-pc_ilu_axes, default "xyz": as stored; "zxy":
   z-lines innermost, xz-planes contiguous); the solves permute in and out. */
PETSC_EXTERN PetscErrorCode EasKspSetILUAxes(EasKsp, const char axes[]);
/* EasKspGetILUAxes - the axis order of -pc_type ilu (EasKspSetILUAxes). */
PETSC_EXTERN PetscErrorCode EasKspGetILUAxes(EasKsp, const char *axes[]);
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
/* EasKspGetTolerances - rtol, atol, dtol and max_it (any may be NULL). */
PETSC_EXTERN PetscErrorCode EasKspGetTolerances(EasKsp, PetscReal *, PetscReal *, PetscReal *, PetscInt *);
/* EasKspSetOptionsPrefix - prefix of the solver's options (-<prefix>ksp_type,
   ...). */
PETSC_EXTERN PetscErrorCode EasKspSetOptionsPrefix(EasKsp, const char[]);
/* EasKspAppendOptionsPrefix - appends to the prefix of the solver's options.
   */
PETSC_EXTERN PetscErrorCode EasKspAppendOptionsPrefix(EasKsp, const char[]);
/* EasKspSetFromOptions - -ksp_type bicgstab|cg|pipecg, -ksp_rtol, -ksp_atol, -ksp_dtol,
   -ksp_max_it, -ksp_monitor, -ksp_converged_reason, -ksp_view, -ksp_reuse_preconditioner,
   -pc_type none|jacobi|pbjacobi|ilu, -pc_factor_levels, -pc_ilu_axes, -pc_ilu_precision,
   -pc_ilu_factor_sweeps, -pc_ilu_solve_sweeps, all under the solver's prefix. */
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
/* EasKspGetConvergedReason - why the last solve stopped (PETSc's
   KSPConvergedReason: positive converged, negative diverged). */
PETSC_EXTERN PetscErrorCode EasKspGetConvergedReason(EasKsp, KSPConvergedReason *);
/* EasKspGetIterationNumber - the iterations of the last solve. */
PETSC_EXTERN PetscErrorCode EasKspGetIterationNumber(EasKsp, PetscInt *);
/* EasKspGetResidualNorm - the last residual norm the method monitored. */
PETSC_EXTERN PetscErrorCode EasKspGetResidualNorm(EasKsp, PetscReal *);
/* EasKspGetSetUpCounts - setups done so far: full (allocation and
   preconditioner) and values only (same pattern, new values); either
   pointer may be NULL. */
PETSC_EXTERN PetscErrorCode EasKspGetSetUpCounts(EasKsp, PetscInt *full, PetscInt *values);
/* EasKspSetReusePreconditioner - with flag true, a setup after the
   operator's values changed (same pattern) refreshes the operator but
   keeps the preconditioner built from earlier values (PETSc's
   KSPSetReusePreconditioner; -ksp_reuse_preconditioner): the ILU factor,
   the Jacobi diagonal.  A new pattern still builds it anew. */
PETSC_EXTERN PetscErrorCode EasKspSetReusePreconditioner(EasKsp, PetscBool flag);
/* EasKspGetReusePreconditioner - whether values-only setups keep the preconditioner. */
PETSC_EXTERN PetscErrorCode EasKspGetReusePreconditioner(EasKsp, PetscBool *flag);
/* EasKspGetPCBuilds - how many times the preconditioner was built (ILU
   factorizations, Jacobi diagonals), over full and values-only setups. */
PETSC_EXTERN PetscErrorCode EasKspGetPCBuilds(EasKsp, PetscInt *builds);
/* EasKspGetILUOffsets - the offsets of the ILU factor's pattern (host
   memory, ascending; the operator's own for ILU(0) in its order, with the
   level-k fill for ILU(k), of P A P' with -pc_ilu_axes): ndiag 0 and off
   NULL before a setup has built it.  The array belongs to the solver. */
PETSC_EXTERN PetscErrorCode EasKspGetILUOffsets(EasKsp, PetscInt *ndiag, const PetscInt *off[]);
/* A convergence test (EasKspSetConvergenceTest). */
typedef PetscErrorCode (*EasKspConvergenceTestFn)(EasKsp, PetscInt its, PetscReal rnorm, KSPConvergedReason *reason, void *ctx);
/* EasKspSetConvergenceTest - replaces the built-in test (PETSc's
   KSPConvergedDefault on rtol, atol, dtol, max_it) by test(ksp, its, rnorm,
   &reason, ctx), called after the monitors at every iteration (its = 0 with
   the initial residual) with the residual norm the method monitors; a
   reason of 0 continues, a nonzero one ends the solve with it.  The
   method's own breakdown tests stay.  destroy (may be NULL) frees ctx at
   the next call or EasKspDestroy.  test = NULL restores the built-in one.
   For adaptors that run an EasKsp under another package's convergence test
   and monitors (src/petsc/: PETSc's KSP). */
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
/* EasKspView - type, tolerances, preconditioner, operator and backend. */
PETSC_EXTERN PetscErrorCode EasKspView(EasKsp, PetscViewer);
/* EasKspDestroy - frees the solver (*ksp set to NULL; the operator is not
   destroyed). */
PETSC_EXTERN PetscErrorCode EasKspDestroy(EasKsp *);
