#pragma once
/*
  Private data of EasAdr and the functions its files share (adr.c: problem,
  options, setup; adrassemble.c: discretization; adrbackend.c: backend
  objects, meter unit, hooks; msnewton.c: the multisplitting Newton; adrts.c: time
  stepping).
*/
/* the backend (threads, host_is_device) and EasVec internals (vecimpl.h),
   the Jacobian's values in backend memory (diaimpl.h), the inner solver's
   type and preconditioner (kspimpl.h) */
#include <eas/adr.h>
#include "kspimpl.h"
#include "../comm/commimpl.h"
#include "../energy/energyimpl.h" /* -eas_criterion's parser */
#include "../core/hook.h"
#include <petscdmda.h>

typedef enum {
  EAS_ADR_PROBLEM_DIURNAL,
  EAS_ADR_PROBLEM_TRANSPORT
} EasAdrProblem;
typedef enum {
  EAS_ADR_REACTION_DIURNAL,
  EAS_ADR_REACTION_LINEAR
} EasAdrReactionType;
typedef enum {
  EAS_ADR_BC_DIRICHLET,
  EAS_ADR_BC_NEUMANN
} EasAdrBC;
typedef enum {
  EAS_ADR_UPWIND,
  EAS_ADR_CENTRAL
} EasAdrAdvection;

/* Eisenstat-Walker inner tolerances (-adr_ksp_ew, msnewton.c): PETSc's
   -snes_ksp_ew choices and, per rank and stage, the forcing term's history. */
typedef struct {
  PetscBool use;
  PetscInt  version;                                           /* 1, 2 or 3 */
  PetscReal rtol_0, rtol_max, gamma, alpha, alpha2, threshold; /* the parameters */
  PetscInt  iter;                                              /* local Newton steps of the stage so far */
  PetscReal norm_first, norm_last, rtol_last, lresid_last;     /* ||F_0||, ||F_{k-1}||, eta_{k-1}, ||F_{k-1} - J dx_{k-1}|| */
} EasAdrEW;

/* The implicit stage system the multisplitting Newton solves (msnewton.c):
     F(x) = a - x + gamma f(t, x) = 0,   a in adr->xold,
   implicit Euler: a = x_old, gamma = dt (Vialle et al. eq. 1.43); CVODE's BDF
   stages: a = ypred - rl1 zn1, gamma = CVODE's gamma (adrnls.c). */
typedef struct _n_EasAdrStage EasAdrStage;
struct _n_EasAdrStage {
  PetscReal t, gamma;
  PetscInt  max_it; /* synchronous outer iterations (sync mode) or synchronous checks (async) */
  /* Convergence: without a test, max_s ||dx_s|| / ||x_s|| <= -adr_newton_rtol after a
     synchronous iteration.  With one, test(adr, it, &status, ctx) after each
     synchronous iteration it = 0, 1, ... decides: status 1 converged, 0 go on,
     -1 diverging (the stage fails, recoverably); dx_host then holds the rank's
     last update. */
  PetscErrorCode (*test)(EasAdr, PetscInt it, PetscInt *status, void *ctx);
  void        *test_ctx;
  PetscScalar *dx_host;
  /* The asynchronous vote with a test: the rank's update is converged when its
     local weighted RMS norm sqrt(sum_i (dx_i ewt_i)^2 / n_local) <= wtol. */
  const PetscReal *ewt;
  PetscReal        wtol;
  /* modified Newton: keep the local Jacobian of an earlier iteration or stage
     (CVODE says when, callLSetup); implicit Euler rebuilds it at its
     iterations 0, k, 2k, ... with jac_lag = k (-adr_lag_jacobian; -1: the
     first one ever), at every iteration with 1 (CVODE's stages: always 1) */
  PetscBool reuse_jac;
  PetscInt  jac_lag;
  PetscReal dx_scale;   /* the update's factor with a kept Jacobian (2/(1 + gamma/gamma_J), CVODE's) */
  PetscBool ewt_synced; /* the backend copy of ewt is current (whoever sets ewt clears it) */
};

/* A time stepper of EasAdr (-adr_ts_type, EasAdrSetTimeStepType): the
   operations the rest of the solver calls instead of asking which stepper
   it has; beuler in adrts.c, cvode in adrcvode.c.  Optional: NULL is no-op. */
typedef struct {
  /* create: the stepper becomes the solver's (from the current state and time); may refuse (cvode not compiled in) */
  PetscErrorCode (*create)(EasAdr);
  /* setup: at EasAdrSetUp, after the decomposition (beuler: the default step's bound) */
  PetscErrorCode (*setup)(EasAdr);
  /* step: one step toward tout, not beyond it (EasAdrStep; adr->reason says how it went) */
  PetscErrorCode (*step)(EasAdr, PetscReal tout);
  /* advance: from adr->t to tout exactly (a segment of EasAdrSolve between output
     times), *step and *nconv counting the steps and the converged ones; the monitor
     and the hooks' EAS_HOOK_STEP after each step (beuler) or the segment (cvode) */
  PetscErrorCode (*advance)(EasAdr, PetscReal tout, PetscReal t_start, PetscReal t_end, PetscInt *step, PetscInt *nconv);
  /* nsteps: the steps expected from t_start to t_end (EasHookInfo.nsteps; PETSC_DECIDE: not known) */
  PetscErrorCode (*nsteps)(EasAdr, PetscReal t_start, PetscReal t_end, PetscInt *);
  /* monitor: the -adr_monitor line after a step or segment; its = outer and inner iterations (max over ranks) */
  PetscErrorCode (*monitor)(EasAdr, PetscInt step, PetscLogDouble seconds, const PetscInt its[2]);
  /* failed: the line of EasAdrSolve when a step did not converge */
  PetscErrorCode (*failed)(EasAdr, PetscInt step);
  /* view: the stepper's lines of EasAdrView */
  PetscErrorCode (*view)(EasAdr, PetscViewer);
  /* getstats: the stepper's statistics (zeroed before the call) */
  PetscErrorCode (*getstats)(EasAdr, EasAdrTSStats *);
  /* destroy: the stepper's data (at EasAdrDestroy, or when another stepper is set) */
  PetscErrorCode (*destroy)(EasAdr);
} EasAdrTSOps;
PETSC_INTERN const EasAdrTSOps EasAdrTS_BEuler, EasAdrTS_CVode;

/* faces: 0 -x, 1 +x, 2 -y, 3 +y, 4 -z, 5 +z */
struct _p_EasAdr {
  PETSCHEADER(int);
  /* problem */
  EasAdrProblem      problem;
  PetscInt           N[3];           /* global points per direction */
  PetscReal          lo[3], hi[3];   /* box */
  PetscReal          h[3], shift[3]; /* coordinate of global index g: lo + (g + shift) h */
  EasAdrReactionType reaction_type;
  PetscReal          L[4];
  EasAdrBC           bc;
  EasAdrAdvection    advection;
  EasAdrVelocityFn   velocity;
  void              *velocity_ctx;
  EasAdrDiffusionFn  diffusion;
  void              *diffusion_ctx;
  EasAdrReactionFn   reaction;
  void              *reaction_ctx;
  EasAdrValueFn      initial, boundary;
  void              *initial_ctx, *boundary_ctx;
  /* time */
  PetscReal    t, t0, dt, tfinal;
  PetscBool    dt_set; /* dt given (EasAdrSetTimeStep, -adr_dt); else the problem's default, bounded at setup */
  PetscInt     max_steps;
  EasAdrTSType       ts_type;
  const EasAdrTSOps *ts; /* its operations (EasAdrTS_BEuler, EasAdrTS_CVode) */
  PetscReal    ts_rtol, ts_atol;
  PetscInt     ts_max_order, ts_max_steps, ts_max_newton_it;
  PetscBool    ts_reuse_jac; /* cvode: modified Newton between CVODE's setups */
  PetscBool    ts_lag_jac;   /* cvode: a stage's later Newton iterations keep its first Jacobian */
  PetscReal    ts_eps_lin;   /* cvode: the inner solves stop at ||W r||_RMS <= ts_eps_lin x the stage's tolerance (CVODE's eplifac; 0: rtol only) */
  /* CVODE (adrcvode.c, adrnls.c; SUNDIALS types kept out of this header) */
  void          *cv_mem, *cv_ctx, *cv_y, *cv_nls;
  PetscBool      cv_reinit; /* the state changed outside CVODE: CVodeReInit at the next advance */
  PetscErrorCode cv_error;  /* a PETSc error inside CVODE's callbacks */
  char           cv_msg[256];
  /* output (adrio.c) */
  PetscReal         output_interval;
  PetscBool         sol_view; /* -adr_view_solution given (the viewer opens at the first output) */
  PetscViewer       sol_viewer;
  PetscViewerFormat sol_format;
  PetscInt          npoints;
  PetscReal        *points;    /* 3 npoints requested coordinates */
  PetscInt         *point_idx; /* 3 npoints nearest global grid indices */
  DM                da;        /* the grid as a DMDA (dof 2), on a communicator ordered for it */
  MPI_Comm          da_comm;
  /* outer iteration */
  EasAdrEW      ew;       /* -adr_ksp_ew: Eisenstat-Walker inner tolerances */
  PetscInt      pc_lag;   /* -adr_lag_preconditioner (EasAdrSetLagPreconditioner): 1, k > 1 or -1 */
  PetscInt      jac_lag;  /* -adr_lag_jacobian (EasAdrSetLagJacobian): 1, k > 1 or -1; implicit Euler's steps */
  PetscInt      lag_it;   /* local Newton iterations of this stage's nonlinear solve so far (both lags' counter, SNES's iteration number) */
  EasPrecision  jac_prec; /* -adr_jacobian_precision: values of the local Jacobian the inner solver reads */
  PetscReal     newton_rtol;
  PetscInt      newton_max_it;
  EasAdrMode    mode;
  PetscInt      persist;         /* async: consecutive locally converged iterations */
  PetscInt      max_checks;      /* async: synchronous checks per step before giving up */
  PetscInt      async_max_it;    /* async: local iterations per step */
  PetscReal     async_halo_rtol; /* async: iterate on new ghosts that moved > this x newton_rtol */
  PetscBool     async_thread;
  EasDetectType async_detect;         /* async: convergence detection type */
  PetscReal     async_detect_timeout; /* async: seconds a rank waits for a decision before failing */
  PetscReal     delay_us, jitter_us;
  PetscInt      comm_seed;
  PetscBool     monitor, view, progress;
  /* decomposition */
  PetscInt    decomp[3];   /* -adr_decomp px,py,pz, or PETSC_DECIDE (auto: by coupling, adrsetup.c) */
  PetscReal   decomp_w[3]; /* coupling weights max_box dt (|V_d|/h_d + 2 K_d/h_d^2) at setup */
  MPI_Comm    cart;
  PetscMPIInt rank, size, dims[3], cc[3], nb[6];
  PetscInt   *starts[3];    /* starts[d][p], p = 0..dims[d] */
  PetscInt    xs[3], nl[3]; /* the rank's box: first global index and size (its own box plus an overlap's planes) */
  PetscInt    np, n;        /* the box's points and unknowns (2 np): the local arrays, the Jacobian, the inner solve */
  PetscInt    overlap_opt;  /* -adr_overlap d (EasAdrSetOverlap; default 1) */
  PetscInt    overlap;      /* at setup: d on several ranks, else 0; the box extends the own box by d planes on every face with a neighbour */
  PetscBool   phased;       /* -adr_overlap_phased (EasAdrSetOverlapPhased; default true): a synchronous exchange one cut direction at a time */
  PetscInt    ov[6];        /* those planes per face (d or 0) */
  PetscInt    xso[3], nlo[3]; /* the rank's own box (its points of the global vector): first global index, size */
  PetscInt    npo, no;        /* own points and unknowns (2 npo): the global vector's local part, CVODE's */
  PetscScalar *xown;          /* with an overlap: the own points of x (EasAdrGetLocalSolution) */
  PetscScalar *bx, *bxo, *bf, *bewt; /* with an overlap: box-sized host scratch for a user's or CVODE's own-point vectors (x, x_old, F) and CVODE's error weights */
  PetscInt    rstart;       /* first global row of this rank */
  PetscInt   *rank_rstart;  /* per rank */
  /* data (host) */
  PetscScalar *x, *xold, *F, *xg; /* x: the host copy of the state (adrstate.c); xg: padded (nl+2)^3 x 2 with faces filled (host) */
  PetscScalar *Rv, *dRv;          /* reaction values 2 np and Jacobians 4 np */
  PetscReal   *w[6];              /* transport weights per point and face */
  PetscReal   *wl;                /* 7 np: the Jacobian's couplings that only w changes (kernels.h EasAdrKLocalCouplingsPoint) */
  PetscReal   *coords;            /* 3 np */
  PetscScalar *bval[6];           /* Dirichlet values on global boundary faces */
  /* backend copies for the assembly kernels (device backends; unused on host-memory ones) */
  EasVec    xg_v, xold_v, w_v, wl_v, Rv_v, dRv_v;
  PetscBool w_synced, xold_synced; /* the backend copy of w, wl and the Dirichlet values / xold is current */
  PetscBool xold_stale;            /* adr->xold is older than the backend copy (a step started on the backend) */
  /* the state on the backend (adrstate.c): x_v the state, the packed planes (down) and the
     neighbours' planes (up) of the halo, the Dirichlet values, the stage's error weights */
  EasVec      x_v, planes_v, ghosts_v, bval_v, ewt_v;
  EasAdrKHalo hk;                                        /* the halo description the backend ops read */
  PetscBool   x_host_stale, x_dev_stale, planes_current; /* which copy of x is current; planes_v holds x's planes */
  PetscReal coef_t;                /* time at which w and bval were evaluated */
  /* solver */
  EasBackend be;
  EasDia     J;
  EasKsp     ksp;
  EasVec     b, dx;
  EasHalo    halo;
  PetscBool  jac_fold;        /* the inner BiCGStab's right Jacobi folded into the assembly: J holds J D^{-1}, the inner
                                 solver runs without preconditioner, the update is D^{-1} y (adrassemble.c, msnewton.c) */
  EasVec      dinv;           /* D^{-1} with jac_fold (backend memory); with jac_rw (D W)^{-1} */
  PetscBool   jac_rw;         /* J holds W J D^{-1} W^{-1} and F comes as W F: the inner system in CVODE's error weights W = rw (-adr_ts_eps_lin) */
  PetscScalar *rw;            /* those weights on the box, 1/(ts_rtol |x| + ts_atol) at the Jacobian's state (host, 2 np) */
  EasVec       rw_v;          /* and on the backend */
  EasDetect   det;            /* the async phase's detection (here, not on the stack: MPI owns its buffers while a round is in flight) */
  PetscBool   ghosts_current; /* the ghosts hold the neighbours' state at the start of the next step */
  PetscBool   ghosts_stage;   /* the stage's exchange of a (-adr_overlap) was one of the state: a = x, and the stage's first outer iteration needs no exchange of its own (EasAdrStageOverlap_Private) */
  PetscBool   ghosts_padded;  /* and ghosts_v holds those ghosts where adr_pad reads them: the first iteration's pad gathers nothing (on a device: nothing goes up); cleared by the next pad and by every exchange */
  EasAdrStage stage;          /* the stage system being solved */
  PetscBool   jac_valid;      /* J holds a Jacobian of the current backend objects */
  PetscReal   jac_gamma;      /* its gamma (dt) */
  PetscInt    stats_jac;      /* local Jacobians assembled */
  /* state */
  PetscBool             setupcalled;
  EasAdrConvergedReason reason;
  EasAdrStats           stats;
  PetscInt              last_outer, last_inner;
  PetscReal             last_res;   /* the last synchronous iteration's max_s ||dx_s||/||x_s|| */
  PetscReal             last_fnorm; /* and its true residual max_s ||F_s||/||x_s|| before the update */
  PetscLogDouble        last_time;
  /* energy (docs/energy.md) */
  EasEnergyMeter meter;
  PetscInt       unit;         /* the rank's unit in the meter (of the current backend's kind) */
  PetscInt       unit_kind[2]; /* the cpu and gpu units, -1 until used */
  PetscInt       moves;        /* EasAdrSetBackend after EasAdrSetUp */
  /* hooks of the layers above (include/eas/sys.h; the energy policies) */
  EasHookList      hooks;
  PetscInt         hook_its0;    /* outer iterations (max over ranks) at the start of the solve */
  PetscBool        device;       /* backend memory is not host memory: transfers metered */
  PetscMPIInt      ppn;          /* ranks on this node (the model charges 1/ppn of the node) */
  PetscInt         halo_scalars; /* scalars received per halo exchange */
  PetscBool        mode_auto, auto_decided;
  PetscReal        auto_threshold, auto_share;
  EasAdrAutoRule   auto_rule;
  EasCriterion     auto_crit;
  PetscInt         auto_trial; /* trial steps measured (frontier rule: 0, 1 = sync done, 2 = async done) */
  EasAdrAutoInfo   auto_info;
  EasEnergySummary auto_S0; /* the meter's summary at the start of the trial step */
  PetscBool        trace;   /* -eas_trace given: rows each synchronous iteration */
  PetscInt         trace_it;
  PetscLogDouble   trace_tstart, trace_tprev;
  PetscReal        trace_busy, trace_cbusy, trace_cwork, trace_iter_time, trace_iter_work;
};

/* Diurnal kinetics (docs/adr.md, cvDiurnal). */
#define EAS_ADR_Q1 1.63e-16
#define EAS_ADR_Q2 4.66e-16
#define EAS_ADR_C3 3.7e16

/* ------------------------------------------------------------- geometry */

#define EAS_ADR_PI(adr, i, j, k) (((i) + 1) + ((adr)->nl[0] + 2) * (((j) + 1) + ((adr)->nl[1] + 2) * ((k) + 1)))

/* face point (a, b): x faces (j, k), y faces (i, k), z faces (i, j) */
static inline void EasAdrFacePoint(EasAdr adr, PetscInt f, PetscInt a, PetscInt b, PetscInt *i, PetscInt *j, PetscInt *k, PetscInt ghost)
{
  const PetscInt d = f / 2, side = f % 2, layer = ghost ? (side ? adr->nl[d] : -1) : (side ? adr->nl[d] - 1 : 0);
  if (d == 0) {
    *i = layer;
    *j = a;
    *k = b;
  } else if (d == 1) {
    *i = a;
    *j = layer;
    *k = b;
  } else {
    *i = a;
    *j = b;
    *k = layer;
  }
}

static inline PetscInt EasAdrFaceDimA(EasAdr adr, PetscInt f)
{
  return f / 2 == 0 ? adr->nl[1] : adr->nl[0];
}
static inline PetscInt EasAdrFaceDimB(EasAdr adr, PetscInt f)
{
  return f / 2 == 2 ? adr->nl[1] : adr->nl[2];
}

static inline void EasAdrCoordinates(EasAdr adr, PetscInt gi, PetscInt gj, PetscInt gk, PetscReal xyz[3])
{
  const PetscInt g[3] = {gi, gj, gk};
  for (PetscInt d = 0; d < 3; d++) xyz[d] = adr->lo[d] + (g[d] + adr->shift[d]) * adr->h[d];
}

/* meter phase helpers (no-ops without a meter) */
#define EasAdrMeterBegin(adr, p) EasEnergyMeterBegin((adr)->meter, (p), (adr)->unit)
#define EasAdrMeterEnd(adr, p, w) EasEnergyMeterEnd((adr)->meter, (p), (adr)->unit, (PetscReal)(w))

/* The EasAdr package: its class and log events (called by EasAdrCreate). */
PETSC_INTERN PetscErrorCode EasAdrInitializePackage(void);
/* adrproblem.c: the names of the problems and schemes, the built-in
   problems' coefficients (ctx: the EasAdr) */
PETSC_INTERN const char *const EasAdrProblems[], *const EasAdrReactions[], *const EasAdrBCs[], *const EasAdrAdvections[];
PETSC_INTERN PetscErrorCode EasAdrVelocity_Builtin(PetscReal t, const PetscReal xyz[3], PetscReal a[3], void *ctx);
PETSC_INTERN PetscErrorCode EasAdrDiffusion_Builtin(PetscReal t, const PetscReal xyz[3], PetscReal K[3], void *ctx);
PETSC_INTERN PetscErrorCode EasAdrInitial_Builtin(PetscReal t, const PetscReal xyz[3], PetscScalar c[2], void *ctx);
PETSC_INTERN void           EasAdrDiurnalRates(PetscReal t, PetscReal *q3, PetscReal *q4);
/* adr.c: checks of the call order and of a name against a list (errors name option and the expected values) */
PETSC_INTERN PetscErrorCode EasAdrCheckSetUp_Private(EasAdr, const char fn[]);
PETSC_INTERN PetscErrorCode EasAdrCheckLagJacobian_Private(EasAdr, EasAdrTSType, PetscInt lag);
PETSC_INTERN PetscErrorCode EasAdrCheckNotSetUp_Private(EasAdr, const char fn[]);
PETSC_INTERN PetscErrorCode EasAdrLookup_Private(EasAdr, const char *const list[], PetscInt nlist, const char value[], const char option[], PetscInt *idx);
PETSC_INTERN PetscErrorCode EasAdrCheckVec_Private(EasAdr, Vec, const char fn[]);
/* adrsetup.c: whether the inner solver's right Jacobi is folded into the assembly
   (adr->jac_fold; the inner solver then runs without preconditioner);
   options: after the inner solver's options were read (-adr_pc_type). */
PETSC_INTERN PetscErrorCode EasAdrFoldJacobi_Private(EasAdr, PetscBool options);
/* adrbackend.c: backend objects, meter unit, hooks */
PETSC_INTERN PetscErrorCode EasAdrCreateBackendObjects_Private(EasAdr);
PETSC_INTERN PetscErrorCode EasAdrDestroyBackendObjects_Private(EasAdr);
PETSC_INTERN PetscErrorCode EasAdrMeterUnit_Private(EasAdr);
/* Calls the hooks (collective); steps, nsteps as in EasHookInfo. */
PETSC_INTERN PetscErrorCode EasAdrCallHooks_Private(EasAdr, EasHookPoint, PetscInt steps, PetscInt nsteps);
/* Creates the meter (with the solver's prefix) if there is none. */
PETSC_INTERN PetscErrorCode EasAdrMeterCreate_Private(EasAdr);
/* adrnls.c: CVODE's stages solved by the multisplitting Newton (SUNDIALS only) */
PETSC_INTERN PetscErrorCode EasAdrNLSCreate_Private(EasAdr, void *sunctx, void **nls);
/* adrts.c: the monitor line (the stepper's) or the progress line after a
   step or segment (collective) */
PETSC_INTERN PetscErrorCode EasAdrMonitor_Private(EasAdr, PetscInt step, PetscReal t_start, PetscReal t_end, PetscLogDouble seconds);
/* adrio.c: solution output */
PETSC_INTERN PetscErrorCode EasAdrOutputSetFromOptions_Private(EasAdr, PetscOptionItems *);
PETSC_INTERN PetscErrorCode EasAdrOutput_Private(EasAdr);
PETSC_INTERN PetscErrorCode EasAdrOutputDestroy_Private(EasAdr);
/* adrassemble.c */
PETSC_INTERN PetscErrorCode EasAdrUpdateCoefficients_Private(EasAdr, PetscReal t);
/* F into b and the local Jacobian into J on the backend (one Newton iteration). */
PETSC_INTERN PetscErrorCode EasAdrLocalAssemble_Private(EasAdr, PetscReal t, PetscReal dt, PetscReal fnorm2[2], PetscBool *bad);
/* F(x) on this rank with the current ghosts (halo->ghost), x and xold local
   arrays; *bad set when F or a callback is not finite. */
PETSC_INTERN PetscErrorCode EasAdrLocalFunction_Private(EasAdr, PetscReal t, PetscReal dt, const PetscScalar *xold, const PetscScalar *x, PetscScalar *F, PetscBool *bad);
/* adrstate.c: the state on the backend (docs/adr.md, "What crosses the bus").
   Packs the state's planes of face f (all faces) into the halo send buffer(s);
   a buffer must not be packed while its send is in flight. */
PETSC_INTERN PetscErrorCode EasAdrPackFace_Private(EasAdr, PetscInt f);
PETSC_INTERN PetscErrorCode EasAdrPackFaces_Private(EasAdr);
/* The synchronous exchange of the state's planes (adrstate.c): all faces at
   once, or with an overlap across two or three cut directions and
   -adr_overlap_phased, one direction at a time (z, y, x) with the received
   planes written into the state's overlap between them. */
PETSC_INTERN PetscErrorCode EasAdrExchangeSync_Private(EasAdr, PetscBool with_faults);
/* Relative change per species between the state's planes of face f and the
   planes last packed for it (halo send buffer): ||p_s - sent_s|| / ||p_s||
   (absolute when ||p_s|| = 0). */
PETSC_INTERN PetscErrorCode EasAdrFaceChange_Private(EasAdr, PetscInt f, PetscReal ch[2]);
/* With an overlap (adrstate.c): the box's array of 2 np from the own points'
   array of 2 npo (the overlap's entries untouched), and back. */
PETSC_INTERN PetscErrorCode EasAdrBoxFromOwn_Private(EasAdr, const PetscScalar *own, PetscScalar *box);
PETSC_INTERN PetscErrorCode EasAdrOwnFromBox_Private(EasAdr, const PetscScalar *box, PetscScalar *own);
/* With an overlap, the stage's a (adr->xold) on the overlap's planes: the
   neighbours' values, by one synchronous exchange (restricted additive
   Schwarz solves the box's rows of the global system). */
PETSC_INTERN PetscErrorCode EasAdrStageOverlap_Private(EasAdr, PetscBool);
/* A global vector's own points as the box's array with the neighbours'
   values on the overlap (one synchronous exchange) and its padded state in
   adr->xg; box may be own without an overlap. */
PETSC_INTERN PetscErrorCode EasAdrBoxFromOwnHalo_Private(EasAdr, const PetscScalar *own, PetscScalar *box, PetscBool with_faults);
/* The same from a host array x (a user's Vec), and the padded state adr->xg on the host. */
PETSC_INTERN PetscErrorCode EasAdrPackFacesHost_Private(EasAdr, const PetscScalar *x);
PETSC_INTERN PetscErrorCode EasAdrFillPaddedHost_Private(EasAdr, const PetscScalar *x);
/* The padded state in backend memory (the neighbours' planes go up). */
PETSC_INTERN PetscErrorCode EasAdrPadded_Private(EasAdr, const PetscScalar **xg);
/* The Newton update x += c D^{-1} y on the backend and its sums; keep: into stage.dx_host. */
PETSC_INTERN PetscErrorCode EasAdrUpdate_Private(EasAdr, PetscBool keep, PetscReal s[4], PetscReal *ws);
/* Where the state lives: host code syncs before reading adr->x, says so after writing it. */
PETSC_INTERN PetscErrorCode EasAdrStateCreate_Private(EasAdr);
PETSC_INTERN PetscErrorCode EasAdrStateDestroy_Private(EasAdr);
PETSC_INTERN PetscErrorCode EasAdrStateSyncHost_Private(EasAdr);
PETSC_INTERN PetscErrorCode EasAdrStateHostWritten_Private(EasAdr);
/* x_old <- x and x <- x_old where the state lives (implicit Euler). */
PETSC_INTERN PetscErrorCode EasAdrStateSave_Private(EasAdr);
PETSC_INTERN PetscErrorCode EasAdrStateRestore_Private(EasAdr);
PETSC_INTERN PetscLogEvent  EAS_AdrMove, EAS_AdrSolve, EAS_AdrStep, EAS_AdrFunction, EAS_AdrJacobian, EAS_AdrHalo, EAS_AdrDetect, EAS_AdrInner;
/* msnewton.c: solve adr->stage from the current adr->x (the initial guess),
   synchronously or asynchronously; adr->reason tells the outcome. */
PETSC_INTERN PetscErrorCode EasAdrStageSolveSync_Private(EasAdr);
PETSC_INTERN PetscErrorCode EasAdrStageSolveAsync_Private(EasAdr);
