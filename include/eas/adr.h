#pragma once
/*
  eas/adr.h - the advection-diffusion-reaction solver (docs/adr.md;
  Vialle et al. sec. 1.7): two species c = (c1, c2) on a box,

      dc/dt + a . grad c = div(K grad c) + R(c, t)                 (1.39)

  finite differences on a 3D grid split in boxes over the MPI ranks
  (MPI_Cart_create), implicit Euler in time (1.42-1.43) and the
  multisplitting-Newton method (sec. 1.7.2): each rank solves its block of
  the Jacobian with an EasKsp BiCGStab (prefix -adr_) on its backend, in a
  synchronous or an asynchronous mode (sec. 1.7.4).

  Unknowns on a rank are interleaved point-major, species-minor:
  index = s + 2 (i + nx_l (j + ny_l k)), local box sizes nx_l, ny_l, nz_l.
  A global PETSc Vec of the solution (EasAdrCreateGlobalVec) holds the
  ranks' local vectors one after the other, in rank order.
*/
#include <petscsys.h>
#include <petscvec.h>
#include <petscmat.h>
#include <petscdm.h>
#include <eas/dia.h> /* EasPrecision, EasAdrComputeLocalJacobian */
#include <eas/meter.h>
#include <eas/ksp.h> /* EasAdrGetKsp */

typedef struct _p_EasAdr *EasAdr;

PETSC_EXTERN PetscClassId EAS_ADR_CLASSID;

/* Outer (multisplitting-Newton) convergence reasons of a time step. */
typedef enum {
  EAS_ADR_CONVERGED_ITERATING  = 0,
  EAS_ADR_CONVERGED_DX         = 1, /* sync: max over species of ||dx_s|| / ||x_s|| <= rtol */
  EAS_ADR_CONVERGED_ASYNC      = 2, /* async: detected, then confirmed by the synchronous check */
  EAS_ADR_DIVERGED_MAX_IT      = -1,
  EAS_ADR_DIVERGED_INNER       = -2, /* the inner BiCGStab broke down or diverged */
  EAS_ADR_DIVERGED_NANORINF    = -3, /* F or a callback gave NaN/Inf */
  EAS_ADR_DIVERGED_ASYNC_CHECK = -4, /* async: the synchronous check failed too many times */
  EAS_ADR_DIVERGED_TS          = -5  /* cvode: CVODE gave up (too many error-test or nonlinear failures, too much work, step too small) */
} EasAdrConvergedReason;
/* EasAdrConvergedReasons[reason + 5] is the name of a reason (use EasAdrConvergedReasonName). */
PETSC_EXTERN const char *const EasAdrConvergedReasons[];
/* EasAdrConvergedReasonName - the name of a reason ("CONVERGED_DX", ...;
   "UNKNOWN" outside the enum). */
PETSC_EXTERN const char       *EasAdrConvergedReasonName(EasAdrConvergedReason);

typedef enum {
  EAS_ADR_SYNC  = 0,
  EAS_ADR_ASYNC = 1,
  EAS_ADR_AUTO  = 2 /* sync or async chosen from trial steps (EasAdrSetModeAutoRule) */
} EasAdrMode;

/* How EAS_ADR_AUTO decides (EasAdrSetModeAutoRule, -eas_mode_auto_rule). */
typedef enum {
  EAS_ADR_AUTO_FRONTIER  = 0, /* one sync and one async trial step, then Vialle et al. eqs. 1.49-1.50 under the criterion */
  EAS_ADR_AUTO_THRESHOLD = 1  /* one sync step: async when its exchange share exceeds the threshold */
} EasAdrAutoRule;
PETSC_EXTERN const char *const EasAdrAutoRules[];

/* The numbers of an EAS_ADR_AUTO decision (EasAdrGetModeAutoInfo). */
typedef struct {
  PetscBool      decided;
  EasAdrAutoRule rule;
  EasAdrMode     mode;      /* chosen */
  EasCriterion   criterion; /* frontier rule */
  PetscReal      share;     /* exchange share of the sync trial step (max over ranks) */
  PetscReal      threshold; /* threshold rule */
  PetscReal      T[2];      /* frontier rule: time of the sync [0] and async [1] trial steps (s) */
  PetscReal      E[2];      /* their energy (J, all ranks; measured when Emeasured) */
  PetscReal      P[2];      /* their average power E/T (W) */
  PetscBool      Emeasured;
  PetscReal      alpha;    /* T_sync / T_async (eq. 1.50) */
  PetscReal      frontier; /* the speedup async needs: 1 (time), Pbar_async/Pbar_sync (energy, eq. 1.50), (Pbar_async/Pbar_sync)^(1/(w+1)) for E T^w */
  PetscBool      Emixed;   /* Emeasured, and the model added the kinds no sensor covers (EasEnergySummary modelled_cpu, modelled_gpu) */
} EasAdrAutoInfo;

/* Statistics, cumulative over EasAdrSolve() calls (this rank's values; the
 *_max fields are maxima over the ranks). */
typedef struct {
  PetscInt       steps;
  PetscInt       outer_its;     /* this rank's local Newton iterations */
  PetscInt       outer_its_max; /* max over ranks */
  PetscInt       inner_its;     /* this rank's BiCGStab iterations */
  PetscInt       sync_checks;   /* async: synchronous checks done */
  PetscInt       check_failures;
  PetscInt       halo_skipped;                     /* async: new ghosts that moved too little to iterate on */
  PetscInt64     msgs_sent, msgs_recv, msgs_stale; /* halo messages of this rank */
  PetscLogDouble time_solve;                       /* seconds in EasAdrSolve */
  PetscInt       pc_builds;                        /* this rank's inner preconditioner builds (ILU factorizations; -adr_lag_preconditioner) */
  PetscInt       exchanges;                        /* this rank's synchronous exchanges of planes (each once, whatever its rounds): the outer iterations', the stages' (-adr_overlap), a global vector's assembly */
  PetscInt       jacobians;                        /* this rank's local Jacobians assembled (-adr_lag_jacobian, CVODE's reuse) */
} EasAdrStats;

/* Time stepping (EasAdrSetTimeStepType, -adr_ts_type). */
typedef enum {
  EAS_ADR_TS_BEULER = 0, /* implicit Euler with the fixed step -adr_dt (Vialle et al. eqs. 1.42-1.43) */
  EAS_ADR_TS_CVODE  = 1  /* SUNDIALS CVODE: variable-order BDF with error control, stages by the multisplitting Newton */
} EasAdrTSType;
PETSC_EXTERN const char *const EasAdrTSTypes[]; /* "beuler", "cvode", NULL */

/* CVODE's statistics (cumulative since the solver was set up; zeros with beuler). */
typedef struct {
  PetscInt  steps, err_test_fails, nonlin_its, nonlin_conv_fails, rhs_evals;
  PetscInt  last_order;
  PetscReal last_step;
} EasAdrTSStats;

/* User callbacks.  xyz: a point; t: time; return 0 or an error code.
   velocity: a[3]; diffusion: the diagonal K[3] = (kx, ky, kz);
   reaction: R[2] and the Jacobian dR[2*i + j] = dR_i / dc_j;
   initial and boundary (Dirichlet) values: c[2]. */
typedef PetscErrorCode (*EasAdrVelocityFn)(PetscReal t, const PetscReal xyz[3], PetscReal a[3], void *ctx);
typedef PetscErrorCode (*EasAdrDiffusionFn)(PetscReal t, const PetscReal xyz[3], PetscReal K[3], void *ctx);
typedef PetscErrorCode (*EasAdrReactionFn)(PetscReal t, const PetscReal xyz[3], const PetscScalar c[2], PetscScalar R[2], PetscScalar dR[4], void *ctx);
typedef PetscErrorCode (*EasAdrValueFn)(PetscReal t, const PetscReal xyz[3], PetscScalar c[2], void *ctx);

/* EasAdrCreate - an ADR solver on comm (every rank of comm owns a box). */
PETSC_EXTERN PetscErrorCode EasAdrCreate(MPI_Comm, EasAdr *);
/* EasAdrSetProblem - "diurnal" (default; docs/adr.md, cvDiurnal in 3D)
   or "transport" (unit cube, stronger diffusion and advection, linear
   reaction, Dirichlet).  Resets box, coefficients, boundaries, time step,
   final time and callbacks to the problem's defaults. */
PETSC_EXTERN PetscErrorCode EasAdrSetProblem(EasAdr, const char problem[]);
/* EasAdrSetGrid - nx, ny, nz points (>= 3 each). */
PETSC_EXTERN PetscErrorCode EasAdrSetGrid(EasAdr, PetscInt nx, PetscInt ny, PetscInt nz);
/* EasAdrSetBox - [x0,x1] x [y0,y1] x [z0,z1], each non-empty. */
PETSC_EXTERN PetscErrorCode EasAdrSetBox(EasAdr, PetscReal x0, PetscReal x1, PetscReal y0, PetscReal y1, PetscReal z0, PetscReal z1);
/* EasAdrSetVelocity, EasAdrSetDiffusion, EasAdrSetReaction - user
   callbacks (NULL: back to the problem's built-in). */
PETSC_EXTERN PetscErrorCode EasAdrSetVelocity(EasAdr, EasAdrVelocityFn, void *);
PETSC_EXTERN PetscErrorCode EasAdrSetDiffusion(EasAdr, EasAdrDiffusionFn, void *);
PETSC_EXTERN PetscErrorCode EasAdrSetReaction(EasAdr, EasAdrReactionFn, void *);
/* EasAdrSetReactionType - built-in reaction "diurnal" or "linear". */
PETSC_EXTERN PetscErrorCode EasAdrSetReactionType(EasAdr, const char type[]);
/* EasAdrSetLinearReaction - the matrix L of R = L c (row-major 2x2). */
PETSC_EXTERN PetscErrorCode EasAdrSetLinearReaction(EasAdr, const PetscReal L[4]);
/* EasAdrSetBoundaryType - "dirichlet" or "neumann" (zero flux). */
PETSC_EXTERN PetscErrorCode EasAdrSetBoundaryType(EasAdr, const char type[]);
/* EasAdrSetBoundaryFunction - Dirichlet values g(t, xyz) (default: the
   initial condition at the boundary point). */
PETSC_EXTERN PetscErrorCode EasAdrSetBoundaryFunction(EasAdr, EasAdrValueFn, void *);
/* EasAdrSetAdvectionType - "upwind" (first order, M-matrix) or "central". */
PETSC_EXTERN PetscErrorCode EasAdrSetAdvectionType(EasAdr, const char type[]);
/* EasAdrSetInitialCondition - c(0, xyz) (called with the initial time). */
PETSC_EXTERN PetscErrorCode EasAdrSetInitialCondition(EasAdr, EasAdrValueFn, void *);
/* EasAdrSetTimeStepType - EAS_ADR_TS_BEULER (default) or EAS_ADR_TS_CVODE
   (-adr_ts_type beuler|cvode).  cvode: CVODE's BDF of orders 1 to
   EasAdrSetTimeStepMaxOrder with its local error control; each implicit stage
   y - gamma f(t, y) = a is solved by the multisplitting Newton (sync or async)
   as a SUNNonlinearSolver.  Errors: cvode when SUNDIALS is not compiled in. */
PETSC_EXTERN PetscErrorCode EasAdrSetTimeStepType(EasAdr, EasAdrTSType);
/* EasAdrGetTimeStepType - the time stepping type (EasAdrSetTimeStepType). */
PETSC_EXTERN PetscErrorCode EasAdrGetTimeStepType(EasAdr, EasAdrTSType *);
/* EasAdrSetTimeStepTolerances - CVODE's scalar relative and absolute
   tolerances (-adr_ts_rtol, -adr_ts_atol; defaults 1e-5 and 1e-3 for the
   diurnal problem, as cvDiurnal, 1e-5 and 1e-8 for transport). */
PETSC_EXTERN PetscErrorCode EasAdrSetTimeStepTolerances(EasAdr, PetscReal rtol, PetscReal atol);
/* EasAdrSetTimeStepLinearTolerance - cvode: the inner solves stop at an
   error-weighted residual of eps_lin times the stage's Newton tolerance
   (CVODE's CVodeSetEpsLin; -adr_ts_eps_lin, default 0.01; 0: -adr_ksp_rtol only). */
PETSC_EXTERN PetscErrorCode EasAdrSetTimeStepLinearTolerance(EasAdr, PetscReal eps_lin);
/* EasAdrSetTimeStepMaxOrder - CVODE's largest BDF order, 1..5 (-adr_ts_max_order, default 5). */
PETSC_EXTERN PetscErrorCode EasAdrSetTimeStepMaxOrder(EasAdr, PetscInt);
/* EasAdrGetTimeStepStats - CVODE's steps, error-test failures, nonlinear
   iterations and failures, right-hand-side evaluations, last order and step. */
PETSC_EXTERN PetscErrorCode EasAdrGetTimeStepStats(EasAdr, EasAdrTSStats *);
/* EasAdrSetTimeStep - dt > 0 (beuler's step; with cvode the step of -adr_steps). */
PETSC_EXTERN PetscErrorCode EasAdrSetTimeStep(EasAdr, PetscReal dt);
/* EasAdrSetTime - the initial time (before EasAdrSetUp); after it the current
   time (with EasAdrSetSolution: restart an integration from a state). */
PETSC_EXTERN PetscErrorCode EasAdrSetTime(EasAdr, PetscReal t0);
/* EasAdrSetFinalTime - default final time of EasAdrSolve(). */
PETSC_EXTERN PetscErrorCode EasAdrSetFinalTime(EasAdr, PetscReal tfinal);
/* EasAdrSetMaxSteps - EasAdrSolve(PETSC_DEFAULT) takes this number of steps
   instead (> 0, overrides the final time). */
PETSC_EXTERN PetscErrorCode EasAdrSetMaxSteps(EasAdr, PetscInt steps);
/* EasAdrSetNewtonTolerances - outer rtol in (0,1) on max_s ||dx_s||/||x_s||
   and the outer iteration limit per step (PETSC_DEFAULT keeps a value). */
PETSC_EXTERN PetscErrorCode EasAdrSetNewtonTolerances(EasAdr, PetscReal rtol, PetscInt max_it);
/* EasAdrSetJacobianPrecision - the precision of the local Jacobian's values
   that the inner BiCGStab reads (-adr_jacobian_precision double|single;
   EasDiaSetPrecision on the Jacobian and its Jacobi-scaled copy): F, the
   vectors and the reductions stay double, Newton converges to the same
   tolerance (docs/adr.md says which is the default and why).  Before
   EasAdrSetUp. */
PETSC_EXTERN PetscErrorCode EasAdrSetJacobianPrecision(EasAdr, EasPrecision);
/* EasAdrGetJacobianPrecision - the precision of the Jacobian values the inner
   solver reads (EasAdrSetJacobianPrecision). */
PETSC_EXTERN PetscErrorCode EasAdrGetJacobianPrecision(EasAdr, EasPrecision *);
/* EasAdrSetDecomposition - the grid of ranks px x py x pz (-adr_decomp
   px,py,pz; px py pz = the number of ranks, at least 2 planes per rank in
   each direction, checked at EasAdrSetUp), or PETSC_DECIDE for all three
   (-adr_decomp auto, the default): the grid that cuts the least coupling,
   sum_d (p_d - 1) w_d N/N_d with w_d = max over the box of
   dt (|V_d|/h_d + 2 K_d/h_d^2), so the weakest axes are cut first
   (docs/adr.md).  Before EasAdrSetUp. */
PETSC_EXTERN PetscErrorCode EasAdrSetDecomposition(EasAdr, PetscInt px, PetscInt py, PetscInt pz);
/* EasAdrGetDecomposition - after EasAdrSetUp: the ranks per direction and the
   coupling weights w_d above (NULL skips either; -1 on one rank, where there
   is nothing to decompose and they are not evaluated). */
PETSC_EXTERN PetscErrorCode EasAdrGetDecomposition(EasAdr, PetscInt p[3], PetscReal w[3]);
/* EasAdrSetOverlap - the overlap d >= 0 of the multisplitting (-adr_overlap,
   default 1): each rank solves its box extended by d planes on every face
   with a neighbour and keeps only its own points of the solution
   (restricted additive Schwarz in the outer iteration; the halo carries
   d + 1 planes; 0: block Jacobi).  Before EasAdrSetUp, which checks d + 1
   planes per rank across each cut. */
PETSC_EXTERN PetscErrorCode EasAdrSetOverlap(EasAdr, PetscInt d);
/* EasAdrGetOverlap - the overlap in planes. */
PETSC_EXTERN PetscErrorCode EasAdrGetOverlap(EasAdr, PetscInt *d);
/* EasAdrSetOverlapPhased - with an overlap and cuts in two or three
   directions, the synchronous exchange one direction at a time
   (-adr_overlap_phased, default true): the box's corner blocks current,
   for a message round per cut direction. */
PETSC_EXTERN PetscErrorCode EasAdrSetOverlapPhased(EasAdr, PetscBool);
/* EasAdrGetOverlapPhased - whether the synchronous exchange is phased. */
PETSC_EXTERN PetscErrorCode EasAdrGetOverlapPhased(EasAdr, PetscBool *);
/* EasAdrSetLagPreconditioner - rebuild the inner preconditioner (ILU) at
   every Newton iteration (1, default), at the first of each nonlinear
   solve and every k-th (k > 1), or never after the first (-1): PETSc's
   SNESSetLagPreconditioner (-adr_lag_preconditioner), counted in Newton
   iterations and applied where a Jacobian is new (-adr_lag_jacobian). */
PETSC_EXTERN PetscErrorCode EasAdrSetLagPreconditioner(EasAdr, PetscInt lag);
/* EasAdrGetLagPreconditioner - the preconditioner's lag. */
PETSC_EXTERN PetscErrorCode EasAdrGetLagPreconditioner(EasAdr, PetscInt *lag);
/* EasAdrSetLagJacobian - rebuild an implicit Euler step's local Jacobian
   at every Newton iteration (1, default), at the first of each step and
   every k-th (k > 1; a chord method between), or only the first one ever
   (-1): PETSc's SNESSetLagJacobian (-adr_lag_jacobian; its -1 is PETSc's
   -2).  Rebuilt when the step size changes; beuler only. */
PETSC_EXTERN PetscErrorCode EasAdrSetLagJacobian(EasAdr, PetscInt lag);
/* EasAdrGetLagJacobian - the Jacobian's lag. */
PETSC_EXTERN PetscErrorCode EasAdrGetLagJacobian(EasAdr, PetscInt *lag);
/* EasAdrSetKspEW - Eisenstat-Walker inner tolerances (-adr_ksp_ew, default
   off): each local Newton step solves its linear system to a relative
   tolerance eta_k from the decrease of the rank's residual ||F_l||
   (docs/adr.md), not to -adr_ksp_rtol. */
PETSC_EXTERN PetscErrorCode EasAdrSetKspEW(EasAdr, PetscBool);
/* EasAdrGetKspEW - whether the Eisenstat-Walker inner tolerances are on. */
PETSC_EXTERN PetscErrorCode EasAdrGetKspEW(EasAdr, PetscBool *);
/* EasAdrSetKspEWParameters - PETSc's SNESKSPSetParametersEW choices:
   version 1, 2 (default) or 3, rtol_0 in [0,1) (0.3), rtol_max in [0,1)
   (0.9), gamma in [0,1] (1), alpha in (1,2] ((1+sqrt 5)/2), alpha2 in
   (1,2] ((1+sqrt 5)/2), threshold in (0,1) (0.1); PETSC_DEFAULT keeps a
   value.  Options -adr_ksp_ew_version, _rtol0, _rtolmax, _gamma, _alpha,
   _alpha2, _threshold. */
PETSC_EXTERN PetscErrorCode EasAdrSetKspEWParameters(EasAdr, PetscInt version, PetscReal rtol_0, PetscReal rtol_max, PetscReal gamma, PetscReal alpha, PetscReal alpha2, PetscReal threshold);
/* EasAdrGetKspEWParameters - the Eisenstat-Walker choices in force (the
   defaults above until set); any pointer may be NULL. */
PETSC_EXTERN PetscErrorCode EasAdrGetKspEWParameters(EasAdr, PetscInt *version, PetscReal *rtol_0, PetscReal *rtol_max, PetscReal *gamma, PetscReal *alpha, PetscReal *alpha2, PetscReal *threshold);
/* Names before 0.2 (deprecated since 0.2; removed in 0.3): "Ksp" as in
   EasKsp, the inner solver's object.  A use compiles to the new name with a
   warning. */
#define EasAdrSetKSPEW(...)           PETSC_DEPRECATED_MACRO("GCC warning \"Use EasAdrSetKspEW() (deprecated since 0.2; removed in 0.3)\"") EasAdrSetKspEW(__VA_ARGS__)
#define EasAdrGetKSPEW(...)           PETSC_DEPRECATED_MACRO("GCC warning \"Use EasAdrGetKspEW() (deprecated since 0.2; removed in 0.3)\"") EasAdrGetKspEW(__VA_ARGS__)
#define EasAdrSetKSPEWParameters(...) PETSC_DEPRECATED_MACRO("GCC warning \"Use EasAdrSetKspEWParameters() (deprecated since 0.2; removed in 0.3)\"") EasAdrSetKspEWParameters(__VA_ARGS__)
#define EasAdrGetKSPEWParameters(...) PETSC_DEPRECATED_MACRO("GCC warning \"Use EasAdrGetKspEWParameters() (deprecated since 0.2; removed in 0.3)\"") EasAdrGetKspEWParameters(__VA_ARGS__)
/* EasAdrSetMode - EAS_ADR_SYNC, EAS_ADR_ASYNC or EAS_ADR_AUTO (docs/energy.md -eas_mode auto).  EAS_ADR_AUTO with the frontier rule (default):
   the first time step runs sync, the second async (on one rank there is
   no async: sync without trial), each measured by the solver's meter (its
   time T and energy E, measured with a sensor, else modelled, summed over
   the ranks, so Pbar = E/T); from the third step on the mode whose metric
   is lower: async when alpha = T_sync/T_async exceeds the frontier
   Pbar_async/Pbar_sync (Vialle et al. eq. 1.50, criterion energy), 1
   (time), or (Pbar_async/Pbar_sync)^(1/(w+1)) for E T^w (edp w = 1, ed2p
   w = 2).  With the threshold rule: the first step runs sync and its
   exchange share (EAS_PHASE_EXCHANGE over all phases, max over ranks)
   decides: async when it exceeds the threshold. */
PETSC_EXTERN PetscErrorCode EasAdrSetMode(EasAdr, EasAdrMode);
/* EasAdrGetMode - the mode the steps use now (for EAS_ADR_AUTO: the trial
   step's until decided, then the decision); auto (may be NULL) says
   whether the mode is chosen automatically. */
PETSC_EXTERN PetscErrorCode EasAdrGetMode(EasAdr, EasAdrMode *, PetscBool *automatic);
/* EasAdrSetModeAutoRule - EAS_ADR_AUTO_FRONTIER (default) or
   EAS_ADR_AUTO_THRESHOLD (-eas_mode_auto_rule frontier|threshold). */
PETSC_EXTERN PetscErrorCode EasAdrSetModeAutoRule(EasAdr, EasAdrAutoRule);
/* EasAdrSetModeAutoCriterion - what the frontier rule minimises:
   EAS_CRITERION_TIME, _ENERGY (default), _EDP or _ED2P (-eas_criterion). */
PETSC_EXTERN PetscErrorCode EasAdrSetModeAutoCriterion(EasAdr, EasCriterion);
/* EasAdrSetModeAutoThreshold - exchange share in [0, 1] above which the
   threshold rule picks async (default 0.3; -eas_mode_auto_threshold). */
PETSC_EXTERN PetscErrorCode EasAdrSetModeAutoThreshold(EasAdr, PetscReal);
/* EasAdrGetModeAutoDecision - whether EAS_ADR_AUTO has decided, the
   exchange share of its sync trial step (max over ranks) and the mode. */
PETSC_EXTERN PetscErrorCode EasAdrGetModeAutoDecision(EasAdr, PetscBool *decided, PetscReal *share, EasAdrMode *mode);
/* EasAdrGetModeAutoInfo - every number of the EAS_ADR_AUTO decision. */
PETSC_EXTERN PetscErrorCode EasAdrGetModeAutoInfo(EasAdr, EasAdrAutoInfo *);
/* EasAdrSetBackend - the backend of the local Jacobians, the assembly and
   the inner solves (default: -eas_backend).  After EasAdrSetUp it moves the
   solver between time steps (collective): the backend objects are rebuilt
   on be, the state carries over, the meter charges the rest of the run to
   a unit of be's kind. */
PETSC_EXTERN PetscErrorCode EasAdrSetBackend(EasAdr, EasBackend);
/* EasAdrSetOptionsPrefix - prefix of the solver's options (-<prefix>adr_n,
   ...; the inner solver gets prefix + "adr_").  Before EasAdrSetFromOptions.
   */
PETSC_EXTERN PetscErrorCode EasAdrSetOptionsPrefix(EasAdr, const char[]);
/* EasAdrAddHook - attaches a hook of a layer above the solver (include/eas/sys.h):
   called on every rank at EAS_HOOK_SOLVE_BEGIN and EAS_HOOK_SOLVE_END of
   EasAdrSolve and at EAS_HOOK_STEP after each converged step (beuler) or
   output segment (cvode), where it may move the solver (EasAdrSetBackend)
   or change the hardware settings; destroy(&ctx) (may be NULL) runs at
   EasAdrDestroy.  The energy policies (include/eas/policy.h: the online
   backend choice of -eas_backend auto, attached at EasAdrSetUp;
   EasPolicyAttachAdrFromOptions: -eas_dvfs, -eas_power_budget) attach
   theirs this way.  At most 8 hooks. */
PETSC_EXTERN PetscErrorCode EasAdrAddHook(EasAdr, EasHookFn, void *ctx, PetscErrorCode (*destroy)(void **));
/* EasAdrGetBackend - the solver's backend (borrowed; NULL before EasAdrSetUp
   when none was set). */
PETSC_EXTERN PetscErrorCode EasAdrGetBackend(EasAdr, EasBackend *);
/* EasAdrGetBackendMoves - moves between backends after EasAdrSetUp. */
PETSC_EXTERN PetscErrorCode EasAdrGetBackendMoves(EasAdr, PetscInt *moves);
/* EasAdrGetGrid - the global grid points nx, ny, nz (any may be NULL). */
PETSC_EXTERN PetscErrorCode EasAdrGetGrid(EasAdr, PetscInt *nx, PetscInt *ny, PetscInt *nz);
/* EasAdrGetStepsPlanned - the implicit Euler steps EasAdrSolve(PETSC_DEFAULT)
   takes from the current time (-adr_steps, else (t_final - t)/dt rounded up). */
PETSC_EXTERN PetscErrorCode EasAdrGetStepsPlanned(EasAdr, PetscInt *steps);
/* EasAdrGetEnergyMeter - the solver's energy meter (docs/energy.md),
   created on first request, else by EasAdrSetFromOptions/EasAdrSetUp, with
   the solver's options prefix (so -eas_sensor, -eas_power_*, -eas_energy_view
   and -eas_trace apply).  One unit per rank, "cpu" or "gpu" after the
   backend, weighted by its share of the node (threads / max(cores,
   threads of the node's ranks), 1/ppn when the ranks fill the node; a GPU
   1/(GPU ranks of the node)); each rank pays 1/ppn of the idle power.  Phases: setup = EasAdrSetUp, coefficient updates and the
   assembly of F and J each outer iteration (work: rows assembled);
   compute = the inner BiCGStab solves and the update of x (work: rows x
   inner iterations, so t_el is seconds per row and BiCGStab iteration);
   exchange = halo exchanges, reductions and async detection (work: halo
   scalars received); transfers = host<->device copies of J, b and dx on
   device backends (work: uploads of the state and J's values back, in
   scalars).  The meter runs from EasAdrSetUp on; EasAdrSolve stops it at
   its end (the summary's power and EDP are over the solve, not the
   caller's later work) and the next EasAdrStep resumes it; -eas_energy_view prints the
   report at the end of every EasAdrSolve.  With -eas_trace, one row per
   synchronous outer iteration (every iteration in sync mode, every
   synchronous check in async mode).  The reference is borrowed. */
PETSC_EXTERN PetscErrorCode EasAdrGetEnergyMeter(EasAdr, EasEnergyMeter *);
/* EasAdrSetFromOptions - the -adr_* options, -eas_mode sync|async|auto,
   -eas_mode_auto_threshold, the energy meter's options (-eas_sensor, ...),
   -eas_async_detect iallreduce|decentralized, -eas_async_detect_timeout,
   -eas_async_persist, -eas_async_thread,
   -eas_comm_delay_us, -eas_comm_jitter_us, -eas_comm_seed (docs/options.md);
   the inner solver reads -adr_ksp_* and -adr_pc_type. */
PETSC_EXTERN PetscErrorCode EasAdrSetFromOptions(EasAdr);
/* EasAdrSetUp - decomposition, backend, local Jacobian, inner solver and the
   initial condition.  Errors: a grid too small for the ranks. */
PETSC_EXTERN PetscErrorCode EasAdrSetUp(EasAdr);
/* EasAdrSolve - time steps from the current time to t_final (PETSC_DEFAULT:
   the final time or number of steps set), the last step shortened to land on
   t_final.  A step that does not converge stops the run with its reason
   (EasAdrGetConvergedReason), not an error. */
PETSC_EXTERN PetscErrorCode EasAdrSolve(EasAdr, PetscReal t_final);
/* EasAdrStep - one time step of size dt. */
PETSC_EXTERN PetscErrorCode EasAdrStep(EasAdr);
/* EasAdrGetTime - the current time (after the last converged step). */
PETSC_EXTERN PetscErrorCode EasAdrGetTime(EasAdr, PetscReal *t);
/* EasAdrGetTimeStep - the time step dt (beuler's step; with cvode the last
   output interval). */
PETSC_EXTERN PetscErrorCode EasAdrGetTimeStep(EasAdr, PetscReal *dt);
/* EasAdrGetConvergedReason - the reason of the last time step
   (EAS_ADR_CONVERGED_* or EAS_ADR_DIVERGED_*). */
PETSC_EXTERN PetscErrorCode EasAdrGetConvergedReason(EasAdr, EasAdrConvergedReason *);
/* EasAdrGetKsp - this rank's inner solver (the local Newton systems'
   BiCGStab, options prefix adr_): to view it, or read its counts and its
   preconditioner's pattern.  Borrowed: it lives as long as the EasAdr; its
   settings belong to the EasAdr's options and setters. */
PETSC_EXTERN PetscErrorCode EasAdrGetKsp(EasAdr, EasKsp *);
/* EasAdrGetStats - iterations, messages and time, cumulative over EasAdrSolve
   calls (EasAdrStats). */
PETSC_EXTERN PetscErrorCode EasAdrGetStats(EasAdr, EasAdrStats *);
/* EasAdrGetLocalGrid - this rank's box: first global indices and sizes. */
PETSC_EXTERN PetscErrorCode EasAdrGetLocalGrid(EasAdr, PetscInt *xs, PetscInt *ys, PetscInt *zs, PetscInt *nxl, PetscInt *nyl, PetscInt *nzl);
/* EasAdrGetLocalPointCoordinates - xyz of local point p = i + nxl (j + nyl k). */
PETSC_EXTERN PetscErrorCode EasAdrGetLocalPointCoordinates(EasAdr, PetscInt p, PetscReal xyz[3]);
/* EasAdrGetLocalSolution - the rank's 2 nxl nyl nzl values (read only, host). */
PETSC_EXTERN PetscErrorCode EasAdrGetLocalSolution(EasAdr, const PetscScalar *x[], PetscInt *n);
/* EasAdrCreateGlobalVec - a Vec on the solver's communicator with the
   global layout (local blocks in rank order). */
PETSC_EXTERN PetscErrorCode EasAdrCreateGlobalVec(EasAdr, Vec *);
/* EasAdrGetSolution / EasAdrSetSolution - the state from/into X: a Vec of
   EasAdrCreateGlobalVec or a global Vec of EasAdrGetDM's DMDA (both hold
   each rank's box in the local order above). */
PETSC_EXTERN PetscErrorCode EasAdrGetSolution(EasAdr, Vec);
PETSC_EXTERN PetscErrorCode EasAdrSetSolution(EasAdr, Vec);
/* EasAdrGetDM - a DMDA describing the grid (dof 2, fields "c1" "c2",
   coordinates of the grid points), borrowed, after EasAdrSetUp.  VecView of
   its global vectors writes VTK (.vts for ParaView), PETSc binary (natural
   ordering, VecLoad) or HDF5.  -adr_view_solution <viewer> does it at every
   output time (-adr_output_interval) and at the end of EasAdrSolve;
   -adr_monitor_points "x,y,z;..." prints c1, c2 at the nearest grid points. */
PETSC_EXTERN PetscErrorCode EasAdrGetDM(EasAdr, DM *);
/* EasAdrGetSolutionNatural - the solution in natural ordering, entry
   s + 2 (i + nx (j + ny k)) for grid point (i, j, k), into X from
   DMDACreateNaturalVector(EasAdrGetDM's DMDA).  Collective. */
PETSC_EXTERN PetscErrorCode EasAdrGetSolutionNatural(EasAdr, Vec);
/* EasAdrComputeFunction - F = Xold - X + dt f(X, t) (1.43) on the global
   layout (halo exchanged inside), the discrete system of one implicit
   Euler step ending at t; lets PETSc SNES solve the same system. */
PETSC_EXTERN PetscErrorCode EasAdrComputeFunction(EasAdr, PetscReal t, PetscReal dt, Vec Xold, Vec X, Vec F);
/* EasAdrComputeJacobian - J = dF/dX, the whole coupled Jacobian (MPIAIJ,
   preallocate with EasAdrCreateJacobianMat). */
PETSC_EXTERN PetscErrorCode EasAdrComputeJacobian(EasAdr, PetscReal t, PetscReal dt, Vec X, Mat J);
/* EasAdrCreateJacobianMat - an MPIAIJ matrix preallocated for
   EasAdrComputeJacobian, on the global layout. */
PETSC_EXTERN PetscErrorCode EasAdrCreateJacobianMat(EasAdr, Mat *);
/* EasAdrComputeLocalJacobian - the rank's diagonal block of the inner
   systems, J_ll = -F'_ll = I - dt f'_ll(X, t) (1.45; couplings to other
   ranks' boxes left out), in the solver's own EasDia with the 9 offsets
   0, +-1, +-2, +-2 nx_l, +-2 nx_l ny_l (points x-fastest, species
   interleaved).  X: a global Vec (EasAdrCreateGlobalVec) or NULL for the
   current solution (after EasAdrSetUp: the initial condition).  *J is
   borrowed: the next step or call overwrites its values.  Collective (one
   halo exchange).  Errors: before EasAdrSetUp; a Vec of the wrong layout;
   a NaN/Inf in the function (PETSC_ERR_FP). */
PETSC_EXTERN PetscErrorCode EasAdrComputeLocalJacobian(EasAdr, PetscReal t, PetscReal dt, Vec X, EasDia *J);
/* EasDiaSetFromGallery - built-in test matrices of EasDia (eas/dia.h), built
   by an EasAdr (src/solvers/adrgallery.c), hence declared here:
   "adr": implicit Euler Jacobian of the 3D two-species diurnal ADR problem
   (docs/adr.md) on an n^3 grid, 2n^3 rows, 9 offsets, at t = 21600 s (noon)
   with -dia_gallery_dt <7200> as the time step. */
PETSC_EXTERN PetscErrorCode EasDiaSetFromGallery(EasDia, const char name[], PetscInt n);
/* EasAdrSpeciesNorms - per-species 2-norms of a global Vec (interleaved). */
PETSC_EXTERN PetscErrorCode EasAdrSpeciesNorms(EasAdr, Vec, PetscReal norms[2]);
/* EasAdrView - problem, grid, decomposition, modes, tolerances, statistics
   and the inner solver. */
PETSC_EXTERN PetscErrorCode EasAdrView(EasAdr, PetscViewer);
/* EasAdrDestroy - frees the solver (every MPI request is already freed; *adr
   set to NULL). */
PETSC_EXTERN PetscErrorCode EasAdrDestroy(EasAdr *);
