/*
  EasAdr: the two-species advection-diffusion-reaction problem of docs/adr.md (Vialle et al. sec. 1.7): the built-in problems, the setters and
  options, the setup of the decomposition, the accessors and the object's
  lifecycle.  The other parts of the solver, one file each:
    adrassemble.c  the finite-difference discretization on a rank's box:
                   transport weights, residual and local Jacobian (on the
                   backend), the global function and Jacobian for PETSc
    adrbackend.c   the backend objects, moves between backends, the
                   energy meter's unit and the online backend policy
    msnewton.c     the multisplitting Newton that solves one implicit stage
                   system, synchronously or asynchronously
    adrts.c        the time stepping around it (implicit Euler, CVODE)
*/
#include "adrimpl.h"
#include "core/size.h"
#include <omp.h>

PetscClassId  EAS_ADR_CLASSID;
PetscLogEvent EAS_AdrSolve, EAS_AdrStep, EAS_AdrFunction, EAS_AdrJacobian, EAS_AdrHalo, EAS_AdrDetect, EAS_AdrInner, EAS_AdrMove;

const char *const EasAdrConvergedReasons[] = {"DIVERGED_TS", "DIVERGED_ASYNC_CHECK", "DIVERGED_NANORINF", "DIVERGED_INNER", "DIVERGED_MAX_IT", "CONVERGED_ITERATING", "CONVERGED_DX", "CONVERGED_ASYNC"};

/* EasAdrConvergedReasonName - the name of a reason ("DIVERGED_MAX_IT", ...). */
const char *EasAdrConvergedReasonName(EasAdrConvergedReason r)
{
  if (r < -5 || r > 2) return "UNKNOWN";
  return EasAdrConvergedReasons[r + 5];
}

static const char *const EasAdrProblems[]   = {"diurnal", "transport"};
static const char *const EasAdrReactions[]  = {"diurnal", "linear"};
static const char *const EasAdrBCs[]        = {"dirichlet", "neumann"};
static const char *const EasAdrAdvections[] = {"upwind", "central"};
const char *const        EasAdrTSTypes[]    = {"beuler", "cvode", NULL};

static PetscBool eas_adr_package_initialized = PETSC_FALSE;

static PetscErrorCode EasAdrFinalizePackage(void)
{
  PetscFunctionBegin;
  eas_adr_package_initialized = PETSC_FALSE;
  PetscFunctionReturn(0);
}

/* EasAdrInitializePackage - the EasAdr class and its log events (called by EasAdrCreate). */
PetscErrorCode EasAdrInitializePackage(void)
{
  PetscFunctionBegin;
  if (eas_adr_package_initialized) PetscFunctionReturn(0);
  eas_adr_package_initialized = PETSC_TRUE;
  PetscCall(PetscClassIdRegister("EAS ADR", &EAS_ADR_CLASSID));
  PetscCall(PetscLogEventRegister("EasAdrSolve", EAS_ADR_CLASSID, &EAS_AdrSolve));
  PetscCall(PetscLogEventRegister("EasAdrStep", EAS_ADR_CLASSID, &EAS_AdrStep));
  PetscCall(PetscLogEventRegister("EasAdrFunction", EAS_ADR_CLASSID, &EAS_AdrFunction));
  PetscCall(PetscLogEventRegister("EasAdrJacobian", EAS_ADR_CLASSID, &EAS_AdrJacobian));
  PetscCall(PetscLogEventRegister("EasAdrMove", EAS_ADR_CLASSID, &EAS_AdrMove));
  PetscCall(PetscLogEventRegister("EasAdrInner", EAS_ADR_CLASSID, &EAS_AdrInner));
  PetscCall(PetscLogEventRegister("EasAdrHalo", EAS_ADR_CLASSID, &EAS_AdrHalo));
  PetscCall(PetscLogEventRegister("EasAdrDetect", EAS_ADR_CLASSID, &EAS_AdrDetect));
  PetscCall(PetscRegisterFinalize(EasAdrFinalizePackage));
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------ built-ins */

static PetscReal EasAdrDiurnalA(PetscReal x)
{
  const PetscReal u = 0.1 * x - 1.0;
  return 1.0 - u * u + 0.5 * u * u * u * u;
}
static PetscReal EasAdrDiurnalB(PetscReal z)
{
  const PetscReal u = 0.1 * z - 4.0;
  return 1.0 - u * u + 0.5 * u * u * u * u;
}
/* photolysis rates q3(t), q4(t): exp(-22.62/s), exp(-7.601/s), s = sin(pi t / 43200) > 0 */
void EasAdrDiurnalRates(PetscReal t, PetscReal *q3, PetscReal *q4)
{
  const PetscReal s = PetscSinReal(PETSC_PI / 43200.0 * t);
  *q3               = s > 0 ? PetscExpReal(-22.62 / s) : 0;
  *q4               = s > 0 ? PetscExpReal(-7.601 / s) : 0;
}

PetscErrorCode EasAdrVelocity_Builtin(PetscReal t, const PetscReal xyz[3], PetscReal a[3], void *ctx)
{
  EasAdr adr = (EasAdr)ctx;
  (void)t;
  (void)xyz;
  if (adr->problem == EAS_ADR_PROBLEM_DIURNAL) { /* cvDiurnal: +V dc/dx on the right-hand side, so a = -V (transport toward -x) */
    a[0] = -1.0e-3;
    a[1] = a[2] = 0;
  } else {
    a[0] = 1.0;
    a[1] = 0.5;
    a[2] = 0.25;
  }
  return 0;
}

PetscErrorCode EasAdrDiffusion_Builtin(PetscReal t, const PetscReal xyz[3], PetscReal K[3], void *ctx)
{
  EasAdr adr = (EasAdr)ctx;
  (void)t;
  if (adr->problem == EAS_ADR_PROBLEM_DIURNAL) {
    K[0] = K[1] = 4.0e-6;
    K[2]        = 1.0e-8 * PetscExpReal(xyz[2] / 5.0);
  } else
    K[0] = K[1] = K[2] = 0.02;
  return 0;
}

PetscErrorCode EasAdrInitial_Builtin(PetscReal t, const PetscReal xyz[3], PetscScalar c[2], void *ctx)
{
  EasAdr adr = (EasAdr)ctx;
  (void)t;
  if (adr->problem == EAS_ADR_PROBLEM_DIURNAL) {
    const PetscReal prof = EasAdrDiurnalA(xyz[0]) * EasAdrDiurnalA(xyz[1]) * EasAdrDiurnalB(xyz[2]);
    c[0]                 = 1.0e6 * prof;
    c[1]                 = 1.0e12 * prof;
  } else {
    const PetscReal dx = xyz[0] - 0.35, dy = xyz[1] - 0.5, dz = xyz[2] - 0.5, g = PetscExpReal(-40.0 * (dx * dx + dy * dy + dz * dz));
    c[0] = g;
    c[1] = 0.2 + 0.5 * g;
  }
  return 0;
}

/* ------------------------------------------------------------- lifecycle */

/*@C
  EasAdrCreate - creates an ADR solver with the diurnal problem's defaults
  on comm (one box per rank).
@*/
PetscErrorCode EasAdrCreate(MPI_Comm comm, EasAdr *adr_out)
{
  EasAdr adr;

  PetscFunctionBegin;
  PetscValidPointer(adr_out, 2);
  PetscCall(EasAdrInitializePackage());
  PetscCall(PetscHeaderCreate(adr, EAS_ADR_CLASSID, "EasAdr", "eas advection-diffusion-reaction solver", "EasAdr", comm, EasAdrDestroy, EasAdrView));
  adr->N[0] = adr->N[1] = adr->N[2] = 16;
  adr->newton_rtol                  = 1e-8;
  adr->newton_max_it                = 50;
  /* Eisenstat-Walker: PETSc's defaults (SNESKSPSetParametersEW) */
  adr->ew.use               = PETSC_FALSE;
  adr->ew.version           = 2;
  adr->ew.rtol_0            = 0.3;
  adr->ew.rtol_max          = 0.9;
  adr->ew.gamma             = 1.0;
  adr->ew.alpha             = 0.5 * (1.0 + PetscSqrtReal(5.0));
  adr->ew.alpha2            = adr->ew.alpha;
  adr->ew.threshold         = 0.1;
  adr->mode                 = EAS_ADR_SYNC;
  adr->persist              = 1;
  adr->max_checks           = 20;
  adr->async_max_it         = 2000;
  adr->async_halo_rtol      = 1.0;
  adr->async_detect         = EAS_DETECT_IALLREDUCE;
  adr->async_detect_timeout = 120;
  adr->comm_seed            = 1;
  adr->auto_threshold       = 0.3;
  adr->auto_rule            = EAS_ADR_AUTO_FRONTIER;
  adr->auto_crit            = EAS_CRITERION_ENERGY;
  adr->unit                 = -1;
  adr->unit_kind[0] = adr->unit_kind[1] = -1;
  adr->progress                         = PETSC_FALSE;
  adr->ts_type                          = EAS_ADR_TS_BEULER;
  adr->ts_max_order                     = 5;
  adr->ts_reuse_jac                     = PETSC_FALSE;
  adr->ts_lag_jac                       = PETSC_TRUE;
  adr->ts_max_steps                     = 500000;
  adr->ts_max_newton_it                 = PETSC_DECIDE; /* at setup: 3 (CVODE's own) on one rank, 10 on several */
  adr->da_comm                          = MPI_COMM_NULL;
  adr->cart                             = MPI_COMM_NULL;
  PetscCall(EasAdrSetProblem(adr, "diurnal"));
  PetscCall(PetscObjectChangeTypeName((PetscObject)adr, EasAdrTSTypes[adr->ts_type])); /* the View's "type:" line */
  PetscCall(EasKspCreate(PETSC_COMM_SELF, &adr->ksp));
  PetscCall(EasKspSetOptionsPrefix(adr->ksp, "adr_"));
  /* BiCGStab residuals spike on advection-dominated blocks: a loose dtol */
  PetscCall(EasKspSetTolerances(adr->ksp, 1e-8, PETSC_DEFAULT, 1e12, 2000));
  *adr_out = adr;
  PetscFunctionReturn(0);
}

static PetscErrorCode EasAdrCheckNotSetUp(EasAdr adr, const char fn[])
{
  PetscFunctionBegin;
  PetscCheck(!adr->setupcalled, PetscObjectComm((PetscObject)adr), PETSC_ERR_ORDER, "%s must be called before EasAdrSetUp()", fn);
  PetscFunctionReturn(0);
}

static PetscErrorCode EasAdrLookup(EasAdr adr, const char *const list[], PetscInt nlist, const char value[], const char option[], PetscInt *idx)
{
  char expected[128] = "";

  PetscFunctionBegin;
  for (PetscInt i = 0; i < nlist; i++) {
    PetscBool match;
    PetscCall(PetscStrcasecmp(value, list[i], &match));
    if (match) {
      *idx = i;
      PetscFunctionReturn(0);
    }
    PetscCall(PetscStrlcat(expected, i ? (i == nlist - 1 ? " or " : ", ") : "", sizeof(expected)));
    PetscCall(PetscStrlcat(expected, list[i], sizeof(expected)));
  }
  SETERRQ(PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_UNKNOWN_TYPE, "Unknown value \"%s\" for %s: expected %s", value, option, expected);
}

/*@C
  EasAdrSetProblem - "diurnal" (docs/adr.md: box [0,20]^2 x [30,50],
  zero flux, central advection, diurnal kinetics, t in [0, 86400], dt
  3600 bounded by the grid at setup, see EasAdrSetUp) or
  "transport" (unit cube, K = 0.02, a = (1, 0.5, 0.25), linear reaction
  L = [-1 0.5; 0.5 -2], Dirichlet values from the initial condition, t in
  [0, 0.2], dt 0.02).  Resets the user callbacks.
@*/
PetscErrorCode EasAdrSetProblem(EasAdr adr, const char problem[])
{
  PetscInt p;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCall(EasAdrCheckNotSetUp(adr, "EasAdrSetProblem"));
  PetscCall(EasAdrLookup(adr, EasAdrProblems, 2, problem, "-adr_problem", &p));
  adr->problem   = (EasAdrProblem)p;
  adr->velocity  = NULL;
  adr->diffusion = NULL;
  adr->reaction  = NULL;
  adr->initial = adr->boundary = NULL;
  adr->t = adr->t0 = 0;
  adr->dt_set      = PETSC_FALSE;
  if (adr->problem == EAS_ADR_PROBLEM_DIURNAL) {
    PetscCall(EasAdrSetBox(adr, 0, 20, 0, 20, 30, 50));
    adr->reaction_type = EAS_ADR_REACTION_DIURNAL;
    adr->bc            = EAS_ADR_BC_NEUMANN;
    adr->advection     = EAS_ADR_CENTRAL; /* cvDiurnal's central differences */
    adr->dt            = 3600;
    adr->tfinal        = 86400;
    adr->ts_rtol       = 1e-5; /* cvDiurnal's tolerances */
    adr->ts_atol       = 1e-3;
  } else {
    PetscCall(EasAdrSetBox(adr, 0, 1, 0, 1, 0, 1));
    adr->reaction_type = EAS_ADR_REACTION_LINEAR;
    adr->bc            = EAS_ADR_BC_DIRICHLET;
    adr->advection     = EAS_ADR_UPWIND;
    adr->dt            = 0.02;
    adr->tfinal        = 0.2;
    adr->ts_rtol       = 1e-5;
    adr->ts_atol       = 1e-8;
  }
  adr->L[0] = -1.0;
  adr->L[1] = 0.5;
  adr->L[2] = 0.5;
  adr->L[3] = -2.0;
  PetscFunctionReturn(0);
}

/*@C
  EasAdrSetGrid - global grid points per direction (each >= 3).
@*/
PetscErrorCode EasAdrSetGrid(EasAdr adr, PetscInt nx, PetscInt ny, PetscInt nz)
{
  const PetscInt n[3] = {nx, ny, nz};

  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCall(EasAdrCheckNotSetUp(adr, "EasAdrSetGrid"));
  for (PetscInt d = 0; d < 3; d++) {
    PetscCheck(n[d] >= 3 || (d == 1 && n[d] == 1), PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_OUTOFRANGE, "-adr_n%c %" PetscInt_FMT " is invalid: expected at least 3 grid points per direction%s", (char)('x' + d), n[d], d == 1 ? ", or 1 (one y plane: a 2D problem in x and z)" : "");
    adr->N[d] = n[d];
  }
  PetscFunctionReturn(0);
}

/*@C
  EasAdrSetBox - the domain [x0,x1] x [y0,y1] x [z0,z1] (x0 < x1, ...).
@*/
PetscErrorCode EasAdrSetBox(EasAdr adr, PetscReal x0, PetscReal x1, PetscReal y0, PetscReal y1, PetscReal z0, PetscReal z1)
{
  const PetscReal lo[3] = {x0, y0, z0}, hi[3] = {x1, y1, z1};

  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCall(EasAdrCheckNotSetUp(adr, "EasAdrSetBox"));
  for (PetscInt d = 0; d < 3; d++) {
    PetscCheck(lo[d] < hi[d], PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_OUTOFRANGE, "EasAdrSetBox: the %c interval [%g, %g] is empty", (char)('x' + d), (double)lo[d], (double)hi[d]);
    adr->lo[d] = lo[d];
    adr->hi[d] = hi[d];
  }
  PetscFunctionReturn(0);
}

/*@C EasAdrSetVelocity - user velocity a(t, xyz) (NULL: the problem's). @*/
PetscErrorCode EasAdrSetVelocity(EasAdr adr, EasAdrVelocityFn fn, void *ctx)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  adr->velocity     = fn;
  adr->velocity_ctx = ctx;
  PetscFunctionReturn(0);
}

/*@C EasAdrSetDiffusion - user diagonal diffusion K(t, xyz) (NULL: the problem's). @*/
PetscErrorCode EasAdrSetDiffusion(EasAdr adr, EasAdrDiffusionFn fn, void *ctx)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  adr->diffusion     = fn;
  adr->diffusion_ctx = ctx;
  PetscFunctionReturn(0);
}

/*@C EasAdrSetReaction - user reaction R(c, t, xyz) with its Jacobian (NULL: the built-in type). @*/
PetscErrorCode EasAdrSetReaction(EasAdr adr, EasAdrReactionFn fn, void *ctx)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  adr->reaction     = fn;
  adr->reaction_ctx = ctx;
  PetscFunctionReturn(0);
}

/*@C EasAdrSetReactionType - "diurnal" or "linear" (R = L c). @*/
PetscErrorCode EasAdrSetReactionType(EasAdr adr, const char type[])
{
  PetscInt i;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCall(EasAdrLookup(adr, EasAdrReactions, 2, type, "-adr_reaction", &i));
  adr->reaction_type = (EasAdrReactionType)i;
  PetscFunctionReturn(0);
}

/*@C EasAdrSetLinearReaction - L (row-major 2x2) of the linear reaction R = L c. @*/
PetscErrorCode EasAdrSetLinearReaction(EasAdr adr, const PetscReal L[4])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  for (PetscInt i = 0; i < 4; i++) {
    PetscCheck(PetscIsNormalReal(L[i]) || L[i] == 0, PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_OUTOFRANGE, "-adr_linear_reaction: entry %" PetscInt_FMT " is not a finite number", i);
    adr->L[i] = L[i];
  }
  PetscFunctionReturn(0);
}

/*@C EasAdrSetBoundaryType - "dirichlet" or "neumann" (zero flux) on every face. @*/
PetscErrorCode EasAdrSetBoundaryType(EasAdr adr, const char type[])
{
  PetscInt i;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCall(EasAdrCheckNotSetUp(adr, "EasAdrSetBoundaryType"));
  PetscCall(EasAdrLookup(adr, EasAdrBCs, 2, type, "-adr_bc", &i));
  adr->bc = (EasAdrBC)i;
  PetscFunctionReturn(0);
}

/*@C EasAdrSetBoundaryFunction - Dirichlet values (NULL: the initial condition). @*/
PetscErrorCode EasAdrSetBoundaryFunction(EasAdr adr, EasAdrValueFn fn, void *ctx)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  adr->boundary     = fn;
  adr->boundary_ctx = ctx;
  PetscFunctionReturn(0);
}

/*@C EasAdrSetAdvectionType - "upwind" or "central". @*/
PetscErrorCode EasAdrSetAdvectionType(EasAdr adr, const char type[])
{
  PetscInt i;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCall(EasAdrLookup(adr, EasAdrAdvections, 2, type, "-adr_advection", &i));
  adr->advection = (EasAdrAdvection)i;
  PetscFunctionReturn(0);
}

/*@C EasAdrSetInitialCondition - c(t0, xyz) (NULL: the problem's). @*/
PetscErrorCode EasAdrSetInitialCondition(EasAdr adr, EasAdrValueFn fn, void *ctx)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCall(EasAdrCheckNotSetUp(adr, "EasAdrSetInitialCondition"));
  adr->initial     = fn;
  adr->initial_ctx = ctx;
  PetscFunctionReturn(0);
}

/*@C EasAdrSetTimeStep - dt > 0 (finite). @*/
PetscErrorCode EasAdrSetTimeStep(EasAdr adr, PetscReal dt)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCheck(dt > 0 && !PetscIsInfOrNanReal(dt), PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_OUTOFRANGE, "-adr_dt %g is invalid: expected a time step > 0", (double)dt);
  adr->dt     = dt;
  adr->dt_set = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/*@C
  EasAdrSetTime - the initial time before EasAdrSetUp(); after it, the
  current time, from which the next step starts: with EasAdrSetSolution()
  it restarts an integration from a given state (CVODE reinitializes; the
  time step chosen at setup stays).  Errors: t0 not finite.
@*/
PetscErrorCode EasAdrSetTime(EasAdr adr, PetscReal t0)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCheck(!PetscIsInfOrNanReal(t0), PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_OUTOFRANGE, "EasAdrSetTime: the time is not a finite number");
  if (!adr->setupcalled) adr->t0 = t0;
  adr->t         = t0;
  adr->cv_reinit = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/*@C EasAdrSetTimeStepType - beuler (implicit Euler, fixed dt) or cvode (CVODE's BDF, adaptive); see adr.h. @*/
PetscErrorCode EasAdrSetTimeStepType(EasAdr adr, EasAdrTSType type)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCheck(type == EAS_ADR_TS_BEULER || type == EAS_ADR_TS_CVODE, PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_OUTOFRANGE, "EasAdrSetTimeStepType: unknown type %d: expected EAS_ADR_TS_BEULER or EAS_ADR_TS_CVODE", (int)type);
#if !defined(EAS_HAVE_SUNDIALS)
  PetscCheck(type != EAS_ADR_TS_CVODE, PetscObjectComm((PetscObject)adr), PETSC_ERR_SUP, "-adr_ts_type cvode: SUNDIALS CVODE is not compiled in (install libsundials-dev and rebuild eas)");
#endif
  if (adr->ts_type != type) adr->cv_reinit = PETSC_TRUE;
  adr->ts_type = type;
  PetscCall(PetscObjectChangeTypeName((PetscObject)adr, EasAdrTSTypes[type]));
  PetscFunctionReturn(0);
}

/*@C EasAdrGetTimeStepType - the time-stepping type. @*/
PetscErrorCode EasAdrGetTimeStepType(EasAdr adr, EasAdrTSType *type)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  *type = adr->ts_type;
  PetscFunctionReturn(0);
}

/*@C EasAdrSetTimeStepTolerances - CVODE's rtol > 0 and atol > 0 (PETSC_DEFAULT keeps a value); before the first cvode step. @*/
PetscErrorCode EasAdrSetTimeStepTolerances(EasAdr adr, PetscReal rtol, PetscReal atol)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  if (rtol != (PetscReal)PETSC_DEFAULT) {
    PetscCheck(rtol > 0 && rtol < 1, PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_OUTOFRANGE, "-adr_ts_rtol %g is invalid: expected a relative tolerance in (0, 1)", (double)rtol);
    adr->ts_rtol = rtol;
  }
  if (atol != (PetscReal)PETSC_DEFAULT) {
    PetscCheck(atol > 0, PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_OUTOFRANGE, "-adr_ts_atol %g is invalid: expected an absolute tolerance > 0", (double)atol);
    adr->ts_atol = atol;
  }
  PetscCheck(!adr->cv_mem, PetscObjectComm((PetscObject)adr), PETSC_ERR_ORDER, "EasAdrSetTimeStepTolerances: CVODE is already running on this solver; set them before the first cvode step");
  PetscFunctionReturn(0);
}

/*@C EasAdrSetTimeStepMaxOrder - CVODE's largest BDF order in 1..5. @*/
PetscErrorCode EasAdrSetTimeStepMaxOrder(EasAdr adr, PetscInt q)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCheck(q >= 1 && q <= 5, PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_OUTOFRANGE, "-adr_ts_max_order %" PetscInt_FMT " is invalid: expected a BDF order in 1..5", q);
  PetscCheck(!adr->cv_mem, PetscObjectComm((PetscObject)adr), PETSC_ERR_ORDER, "EasAdrSetTimeStepMaxOrder: CVODE is already running on this solver; set it before the first cvode step");
  adr->ts_max_order = q;
  PetscFunctionReturn(0);
}

/*@C EasAdrGetTimeStepStats - CVODE's statistics (zeros before the first cvode step or with beuler). @*/
PetscErrorCode EasAdrGetTimeStepStats(EasAdr adr, EasAdrTSStats *st)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCall(PetscMemzero(st, sizeof(*st)));
  PetscCall(EasAdrCVodeGetStats_Private(adr, st));
  PetscFunctionReturn(0);
}

/*@C EasAdrSetFinalTime - the default final time of EasAdrSolve(). @*/
PetscErrorCode EasAdrSetFinalTime(EasAdr adr, PetscReal tfinal)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCheck(!PetscIsInfOrNanReal(tfinal), PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_OUTOFRANGE, "-adr_tfinal %g is invalid: expected a finite time", (double)tfinal);
  adr->tfinal    = tfinal;
  adr->max_steps = 0;
  PetscFunctionReturn(0);
}

/*@C EasAdrSetMaxSteps - EasAdrSolve(adr, PETSC_DEFAULT) takes this many steps (> 0). @*/
PetscErrorCode EasAdrSetMaxSteps(EasAdr adr, PetscInt steps)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCheck(steps > 0, PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_OUTOFRANGE, "-adr_steps %" PetscInt_FMT " is invalid: expected a number of time steps > 0", steps);
  adr->max_steps = steps;
  PetscFunctionReturn(0);
}

/*@C EasAdrSetNewtonTolerances - outer rtol in (0, 1), max_it >= 1 (PETSC_DEFAULT keeps). @*/
PetscErrorCode EasAdrSetNewtonTolerances(EasAdr adr, PetscReal rtol, PetscInt max_it)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  if (rtol != (PetscReal)PETSC_DEFAULT) {
    PetscCheck(rtol > 0 && rtol < 1, PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_OUTOFRANGE, "-adr_newton_rtol %g is invalid: expected a relative tolerance in (0, 1)", (double)rtol);
    adr->newton_rtol = rtol;
  }
  if (max_it != PETSC_DEFAULT) {
    PetscCheck(max_it >= 1, PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_OUTOFRANGE, "-adr_newton_max_it %" PetscInt_FMT " is invalid: expected an iteration count >= 1", max_it);
    adr->newton_max_it = max_it;
  }
  PetscFunctionReturn(0);
}

/*@C
  EasAdrSetJacobianPrecision - EAS_PRECISION_DOUBLE or EAS_PRECISION_SINGLE:
  the values of the local Jacobian (and of its Jacobi-scaled copy) that the
  inner BiCGStab reads (-adr_jacobian_precision; EasDiaSetPrecision).
  Before EasAdrSetUp.
@*/
PetscErrorCode EasAdrSetJacobianPrecision(EasAdr adr, EasPrecision prec)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCall(EasAdrCheckNotSetUp(adr, "EasAdrSetJacobianPrecision"));
  PetscCheck(prec == EAS_PRECISION_DOUBLE || prec == EAS_PRECISION_SINGLE, PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_OUTOFRANGE, "EasAdrSetJacobianPrecision: precision %d is invalid: expected EAS_PRECISION_DOUBLE or EAS_PRECISION_SINGLE", (int)prec);
  adr->jac_prec = prec;
  PetscFunctionReturn(0);
}

/*@C EasAdrGetJacobianPrecision - the precision of the Jacobian values the inner solver reads. @*/
PetscErrorCode EasAdrGetJacobianPrecision(EasAdr adr, EasPrecision *prec)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  *prec = adr->jac_prec;
  PetscFunctionReturn(0);
}

/*@C
  EasAdrSetKSPEW - Eisenstat-Walker inner tolerances on (-adr_ksp_ew) or off
  (default: every inner solve to -adr_ksp_rtol).  The forcing terms are
  PETSc's -snes_ksp_ew ones (msnewton.c, EasAdrEWForcing; docs/adr.md).
@*/
PetscErrorCode EasAdrSetKSPEW(EasAdr adr, PetscBool use)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  adr->ew.use = use;
  PetscFunctionReturn(0);
}

/*@C EasAdrGetKSPEW - whether the Eisenstat-Walker inner tolerances are on. @*/
PetscErrorCode EasAdrGetKSPEW(EasAdr adr, PetscBool *use)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  *use = adr->ew.use;
  PetscFunctionReturn(0);
}

/*@C
  EasAdrSetKSPEWParameters - the Eisenstat-Walker choices of PETSc's
  SNESKSPSetParametersEW (same ranges; PETSC_DEFAULT keeps a value): version
  1, 2 or 3 (-adr_ksp_ew_version), rtol_0 in [0, 1) (-adr_ksp_ew_rtol0),
  rtol_max in [0, 1) (-adr_ksp_ew_rtolmax), gamma in [0, 1]
  (-adr_ksp_ew_gamma), alpha in (1, 2] (-adr_ksp_ew_alpha), alpha2 in (1, 2]
  (-adr_ksp_ew_alpha2), threshold in (0, 1) (-adr_ksp_ew_threshold).
@*/
PetscErrorCode EasAdrSetKSPEWParameters(EasAdr adr, PetscInt version, PetscReal rtol_0, PetscReal rtol_max, PetscReal gamma, PetscReal alpha, PetscReal alpha2, PetscReal threshold)
{
  MPI_Comm comm;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  comm = PetscObjectComm((PetscObject)adr);
  if (version != PETSC_DEFAULT) {
    PetscCheck(version >= 1 && version <= 3, comm, PETSC_ERR_ARG_OUTOFRANGE, "-adr_ksp_ew_version %" PetscInt_FMT " is invalid: expected 1, 2 or 3", version);
    adr->ew.version = version;
  }
  if (rtol_0 != (PetscReal)PETSC_DEFAULT) {
    PetscCheck(rtol_0 >= 0 && rtol_0 < 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "-adr_ksp_ew_rtol0 %g is invalid: expected a relative tolerance in [0, 1)", (double)rtol_0);
    adr->ew.rtol_0 = rtol_0;
  }
  if (rtol_max != (PetscReal)PETSC_DEFAULT) {
    PetscCheck(rtol_max >= 0 && rtol_max < 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "-adr_ksp_ew_rtolmax %g is invalid: expected a relative tolerance in [0, 1)", (double)rtol_max);
    adr->ew.rtol_max = rtol_max;
  }
  if (gamma != (PetscReal)PETSC_DEFAULT) {
    PetscCheck(gamma >= 0 && gamma <= 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "-adr_ksp_ew_gamma %g is invalid: expected a factor in [0, 1]", (double)gamma);
    adr->ew.gamma = gamma;
  }
  if (alpha != (PetscReal)PETSC_DEFAULT) {
    PetscCheck(alpha > 1 && alpha <= 2, comm, PETSC_ERR_ARG_OUTOFRANGE, "-adr_ksp_ew_alpha %g is invalid: expected a power in (1, 2]", (double)alpha);
    adr->ew.alpha = alpha;
  }
  if (alpha2 != (PetscReal)PETSC_DEFAULT) {
    PetscCheck(alpha2 > 1 && alpha2 <= 2, comm, PETSC_ERR_ARG_OUTOFRANGE, "-adr_ksp_ew_alpha2 %g is invalid: expected a power in (1, 2]", (double)alpha2);
    adr->ew.alpha2 = alpha2;
  }
  if (threshold != (PetscReal)PETSC_DEFAULT) {
    PetscCheck(threshold > 0 && threshold < 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "-adr_ksp_ew_threshold %g is invalid: expected a value in (0, 1)", (double)threshold);
    adr->ew.threshold = threshold;
  }
  PetscFunctionReturn(0);
}

/*@C EasAdrGetKSPEWParameters - the Eisenstat-Walker choices (NULL skips one). @*/
PetscErrorCode EasAdrGetKSPEWParameters(EasAdr adr, PetscInt *version, PetscReal *rtol_0, PetscReal *rtol_max, PetscReal *gamma, PetscReal *alpha, PetscReal *alpha2, PetscReal *threshold)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  if (version) *version = adr->ew.version;
  if (rtol_0) *rtol_0 = adr->ew.rtol_0;
  if (rtol_max) *rtol_max = adr->ew.rtol_max;
  if (gamma) *gamma = adr->ew.gamma;
  if (alpha) *alpha = adr->ew.alpha;
  if (alpha2) *alpha2 = adr->ew.alpha2;
  if (threshold) *threshold = adr->ew.threshold;
  PetscFunctionReturn(0);
}

/*@C
  EasAdrSetMode - EAS_ADR_SYNC or EAS_ADR_ASYNC (Vialle et al. sec. 1.7.4),
  or EAS_ADR_AUTO: trial steps, then the mode of the later steps (adrts.c,
  EasAdrModeAutoDecide; include/eas/adr.h).
@*/
PetscErrorCode EasAdrSetMode(EasAdr adr, EasAdrMode mode)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCheck(mode >= EAS_ADR_SYNC && mode <= EAS_ADR_AUTO, PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_OUTOFRANGE, "EasAdrSetMode: mode %d is invalid: expected EAS_ADR_SYNC, EAS_ADR_ASYNC or EAS_ADR_AUTO", (int)mode);
  adr->mode_auto    = mode == EAS_ADR_AUTO ? PETSC_TRUE : PETSC_FALSE;
  adr->auto_decided = PETSC_FALSE;
  adr->auto_share   = 0;
  adr->auto_trial   = 0;
  adr->mode         = mode == EAS_ADR_ASYNC ? EAS_ADR_ASYNC : EAS_ADR_SYNC;
  PetscFunctionReturn(0);
}

/*@C EasAdrGetMode - the mode in use now and whether it is chosen automatically. @*/
PetscErrorCode EasAdrGetMode(EasAdr adr, EasAdrMode *mode, PetscBool *automatic)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  if (mode) *mode = adr->mode;
  if (automatic) *automatic = adr->mode_auto;
  PetscFunctionReturn(0);
}

/*@C EasAdrSetModeAutoThreshold - exchange share in [0, 1] above which -eas_mode auto picks async. @*/
PetscErrorCode EasAdrSetModeAutoThreshold(EasAdr adr, PetscReal thr)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCheck(thr >= 0 && thr <= 1, PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_OUTOFRANGE, "-eas_mode_auto_threshold %g is invalid: expected a share of the step time in [0, 1]", (double)thr);
  adr->auto_threshold = thr;
  PetscFunctionReturn(0);
}

const char *const EasAdrAutoRules[] = {"frontier", "threshold", "EasAdrAutoRule", "EAS_ADR_AUTO_", NULL};

/*@C EasAdrSetModeAutoRule - how -eas_mode auto decides: frontier (eqs. 1.49-1.50) or threshold. @*/
PetscErrorCode EasAdrSetModeAutoRule(EasAdr adr, EasAdrAutoRule rule)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCheck(rule == EAS_ADR_AUTO_FRONTIER || rule == EAS_ADR_AUTO_THRESHOLD, PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_OUTOFRANGE, "-eas_mode_auto_rule: expected frontier or threshold");
  adr->auto_rule = rule;
  PetscFunctionReturn(0);
}

/*@C EasAdrSetModeAutoCriterion - what the frontier rule minimises. @*/
PetscErrorCode EasAdrSetModeAutoCriterion(EasAdr adr, EasCriterion c)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCheck(c >= EAS_CRITERION_TIME && c <= EAS_CRITERION_ED2P, PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_OUTOFRANGE, "-eas_criterion: expected time, energy, edp or ed2p");
  adr->auto_crit = c;
  PetscFunctionReturn(0);
}

/*@C EasAdrGetModeAutoInfo - the numbers of the -eas_mode auto decision. @*/
PetscErrorCode EasAdrGetModeAutoInfo(EasAdr adr, EasAdrAutoInfo *info)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscValidPointer(info, 2);
  *info           = adr->auto_info;
  info->decided   = adr->auto_decided;
  info->rule      = adr->auto_rule;
  info->criterion = adr->auto_crit;
  info->threshold = adr->auto_threshold;
  info->share     = adr->auto_share;
  info->mode      = adr->mode;
  PetscFunctionReturn(0);
}

/*@C EasAdrGetModeAutoDecision - whether -eas_mode auto decided, the measured share and the mode. @*/
PetscErrorCode EasAdrGetModeAutoDecision(EasAdr adr, PetscBool *decided, PetscReal *share, EasAdrMode *mode)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  if (decided) *decided = adr->auto_decided;
  if (share) *share = adr->auto_share;
  if (mode) *mode = adr->mode;
  PetscFunctionReturn(0);
}

/*@C EasAdrSetOptionsPrefix - prefix of the solver's options (the inner solver gets prefix + "adr_"). @*/
PetscErrorCode EasAdrSetOptionsPrefix(EasAdr adr, const char prefix[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCall(PetscObjectSetOptionsPrefix((PetscObject)adr, prefix));
  PetscCall(EasKspSetOptionsPrefix(adr->ksp, prefix));
  PetscCall(EasKspAppendOptionsPrefix(adr->ksp, "adr_"));
  if (adr->meter) PetscCall(EasEnergyMeterSetOptionsPrefix(adr->meter, prefix));
  PetscFunctionReturn(0);
}

/*@C
  EasAdrSetFromOptions - -adr_problem diurnal|transport, -adr_n, -adr_nx,
  -adr_ny, -adr_nz, -adr_dt, -adr_steps, -adr_tfinal, -adr_advection
  upwind|central, -adr_reaction diurnal|linear, -adr_linear_reaction
  a,b,c,d, -adr_bc dirichlet|neumann, -adr_monitor, -adr_view,
  -adr_progress, -adr_newton_rtol, -adr_newton_max_it,
  -adr_jacobian_precision double|single, -adr_ksp_ew,
  -adr_ksp_ew_version, -adr_ksp_ew_rtol0, -adr_ksp_ew_rtolmax,
  -adr_ksp_ew_gamma, -adr_ksp_ew_alpha, -adr_ksp_ew_alpha2,
  -adr_ksp_ew_threshold, -eas_mode
  sync|async|auto, -eas_mode_auto_threshold, -eas_async_detect iallreduce|decentralized,
  -eas_async_detect_timeout, -eas_async_persist, -eas_async_max_checks, -eas_async_max_it, -eas_async_thread, -eas_comm_delay_us,
  -eas_comm_jitter_us, -eas_comm_seed; then the inner solver's -adr_ksp_*,
  -adr_pc_type, and the energy meter's options (-eas_sensor, -eas_power_*,
  -eas_energy_view, -eas_trace; before EasAdrSetUp only).
@*/
PetscErrorCode EasAdrSetFromOptions(EasAdr adr)
{
  char      str[64];
  PetscBool flg, flgx, flgy, flgz;
  PetscInt  n = adr->N[0], nx, ny, nz, steps = adr->max_steps > 0 ? adr->max_steps : 0, ival;
  PetscReal rval, L[4];
  PetscInt  nL = 4;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscObjectOptionsBegin((PetscObject)adr);
  PetscCall(PetscOptionsString("-adr_problem", "Problem: diurnal or transport", "EasAdrSetProblem", EasAdrProblems[adr->problem], str, sizeof(str), &flg));
  if (flg) PetscCall(EasAdrSetProblem(adr, str));
  PetscCall(PetscOptionsInt("-adr_n", "Grid points per direction", "EasAdrSetGrid", n, &n, &flg));
  if (flg) PetscCall(EasAdrSetGrid(adr, n, n, n));
  nx = adr->N[0];
  ny = adr->N[1];
  nz = adr->N[2];
  PetscCall(PetscOptionsInt("-adr_nx", "Grid points in x", "EasAdrSetGrid", nx, &nx, &flgx));
  PetscCall(PetscOptionsInt("-adr_ny", "Grid points in y", "EasAdrSetGrid", ny, &ny, &flgy));
  PetscCall(PetscOptionsInt("-adr_nz", "Grid points in z", "EasAdrSetGrid", nz, &nz, &flgz));
  if (flgx || flgy || flgz) PetscCall(EasAdrSetGrid(adr, nx, ny, nz));
  rval = adr->dt;
  PetscCall(PetscOptionsReal("-adr_dt", "Time step", "EasAdrSetTimeStep", rval, &rval, &flg));
  if (flg) PetscCall(EasAdrSetTimeStep(adr, rval));
  rval = adr->tfinal;
  PetscCall(PetscOptionsReal("-adr_tfinal", "Final time", "EasAdrSetFinalTime", rval, &rval, &flg));
  if (flg) PetscCall(EasAdrSetFinalTime(adr, rval));
  PetscCall(PetscOptionsInt("-adr_steps", "Number of time steps (overrides -adr_tfinal)", "EasAdrSetMaxSteps", steps, &steps, &flg));
  if (flg) PetscCall(EasAdrSetMaxSteps(adr, steps));
  PetscCall(PetscOptionsString("-adr_advection", "Advection scheme: upwind or central", "EasAdrSetAdvectionType", EasAdrAdvections[adr->advection], str, sizeof(str), &flg));
  if (flg) PetscCall(EasAdrSetAdvectionType(adr, str));
  PetscCall(PetscOptionsString("-adr_reaction", "Built-in reaction: diurnal or linear", "EasAdrSetReactionType", EasAdrReactions[adr->reaction_type], str, sizeof(str), &flg));
  if (flg) PetscCall(EasAdrSetReactionType(adr, str));
  PetscCall(PetscArraycpy(L, adr->L, 4));
  PetscCall(PetscOptionsRealArray("-adr_linear_reaction", "L11,L12,L21,L22 of the linear reaction R = L c", "EasAdrSetLinearReaction", L, &nL, &flg));
  if (flg) {
    PetscCheck(nL == 4, PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_SIZ, "-adr_linear_reaction: got %" PetscInt_FMT " numbers, expected 4 (L11,L12,L21,L22)", nL);
    PetscCall(EasAdrSetLinearReaction(adr, L));
  }
  PetscCall(PetscOptionsString("-adr_bc", "Boundary condition: dirichlet or neumann (zero flux)", "EasAdrSetBoundaryType", EasAdrBCs[adr->bc], str, sizeof(str), &flg));
  if (flg) PetscCall(EasAdrSetBoundaryType(adr, str));
  PetscCall(PetscOptionsBool("-adr_monitor", "Print t, iterations, residual and time of every step", "EasAdrSolve", adr->monitor, &adr->monitor, NULL));
  PetscCall(PetscOptionsBool("-adr_view", "View the solver at the end of EasAdrSolve", "EasAdrView", adr->view, &adr->view, NULL));
  PetscCall(PetscOptionsBool("-adr_progress", "Progress line when stdout is a terminal", "EasAdrSolve", adr->progress, &adr->progress, NULL));
  rval = adr->newton_rtol;
  ival = adr->newton_max_it;
  PetscCall(PetscOptionsReal("-adr_newton_rtol", "Outer tolerance on max_s ||dx_s||/||x_s||", "EasAdrSetNewtonTolerances", rval, &rval, NULL));
  PetscCall(PetscOptionsInt("-adr_newton_max_it", "Outer iterations per time step", "EasAdrSetNewtonTolerances", ival, &ival, NULL));
  PetscCall(EasAdrSetNewtonTolerances(adr, rval, ival));
  if (!adr->setupcalled) {
    PetscCall(PetscOptionsString("-adr_jacobian_precision", "Values of the local Jacobian the inner BiCGStab reads: double or single", "EasAdrSetJacobianPrecision", EasPrecisions[adr->jac_prec], str, sizeof(str), &flg));
    if (flg) {
      PetscInt m = 0;
      PetscCall(EasAdrLookup(adr, EasPrecisions, 2, str, "-adr_jacobian_precision", &m));
      PetscCall(EasAdrSetJacobianPrecision(adr, (EasPrecision)m));
    }
  }
  PetscCall(PetscOptionsBool("-adr_ksp_ew", "Eisenstat-Walker inner tolerances (PETSc's -snes_ksp_ew) instead of -adr_ksp_rtol", "EasAdrSetKSPEW", adr->ew.use, &adr->ew.use, NULL));
  {
    PetscInt  v  = adr->ew.version;
    PetscReal r0 = adr->ew.rtol_0, rm = adr->ew.rtol_max, g = adr->ew.gamma, a = adr->ew.alpha, a2 = adr->ew.alpha2, th = adr->ew.threshold;
    PetscCall(PetscOptionsInt("-adr_ksp_ew_version", "Eisenstat-Walker version 1, 2 or 3", "EasAdrSetKSPEWParameters", v, &v, NULL));
    PetscCall(PetscOptionsReal("-adr_ksp_ew_rtol0", "Eisenstat-Walker first inner rtol of a step, [0, 1)", "EasAdrSetKSPEWParameters", r0, &r0, NULL));
    PetscCall(PetscOptionsReal("-adr_ksp_ew_rtolmax", "Eisenstat-Walker largest inner rtol, [0, 1)", "EasAdrSetKSPEWParameters", rm, &rm, NULL));
    PetscCall(PetscOptionsReal("-adr_ksp_ew_gamma", "Eisenstat-Walker gamma (versions 2, 3), [0, 1]", "EasAdrSetKSPEWParameters", g, &g, NULL));
    PetscCall(PetscOptionsReal("-adr_ksp_ew_alpha", "Eisenstat-Walker alpha (versions 2, 3), (1, 2]", "EasAdrSetKSPEWParameters", a, &a, NULL));
    PetscCall(PetscOptionsReal("-adr_ksp_ew_alpha2", "Eisenstat-Walker safeguard power (version 1), (1, 2]", "EasAdrSetKSPEWParameters", a2, &a2, NULL));
    PetscCall(PetscOptionsReal("-adr_ksp_ew_threshold", "Eisenstat-Walker safeguard threshold (versions 1, 2), (0, 1)", "EasAdrSetKSPEWParameters", th, &th, NULL));
    PetscCall(EasAdrSetKSPEWParameters(adr, v, r0, rm, g, a, a2, th));
  }
  PetscCall(PetscOptionsString("-eas_mode", "Outer iteration mode: sync, async or auto (trial steps, then -eas_mode_auto_rule decides)", "EasAdrSetMode", adr->mode_auto ? "auto" : (adr->mode == EAS_ADR_ASYNC ? "async" : "sync"), str, sizeof(str), &flg));
  if (flg) {
    const char *const modes[] = {"sync", "async", "auto"};
    PetscInt          m       = 0;
    PetscCall(EasAdrLookup(adr, modes, 3, str, "-eas_mode", &m));
    PetscCall(EasAdrSetMode(adr, (EasAdrMode)m));
  }
  {
    PetscInt rule = adr->auto_rule, crit = adr->auto_crit;
    PetscCall(PetscOptionsEList("-eas_mode_auto_rule", "-eas_mode auto: frontier (one sync and one async trial step, Vialle et al. eqs. 1.49-1.50 under -eas_criterion) or threshold (the first step's exchange share)", "EasAdrSetModeAutoRule", EasAdrAutoRules, 2, EasAdrAutoRules[adr->auto_rule], &rule, &flg));
    if (flg) PetscCall(EasAdrSetModeAutoRule(adr, (EasAdrAutoRule)rule));
    PetscCall(PetscOptionsEList("-eas_criterion", "-eas_mode auto (frontier rule): what the mode minimises", "EasAdrSetModeAutoCriterion", EasCriteria, 4, EasCriteria[adr->auto_crit], &crit, &flg));
    if (flg) PetscCall(EasAdrSetModeAutoCriterion(adr, (EasCriterion)crit));
  }
  rval = adr->auto_threshold;
  PetscCall(PetscOptionsReal("-eas_mode_auto_threshold", "-eas_mode auto (threshold rule): exchange share of the first step's time above which async is chosen, in [0, 1]", "EasAdrSetModeAutoThreshold", rval, &rval, &flg));
  if (flg) PetscCall(EasAdrSetModeAutoThreshold(adr, rval));
  PetscCall(PetscOptionsString("-eas_async_detect", "Asynchronous convergence detection: iallreduce (two rounds of a non-blocking global reduction) or decentralized (neighbour messages only: election on a spanning tree and verification waves, Bahi et al. VECPAR'08)", "EasAdrSetFromOptions", EasDetectTypes[adr->async_detect], str, sizeof(str), &flg));
  if (flg) {
    PetscInt m = 0;
    PetscCall(EasAdrLookup(adr, EasDetectTypes, 2, str, "-eas_async_detect", &m));
    adr->async_detect = (EasDetectType)m;
  }
  PetscCall(PetscOptionsReal("-eas_async_detect_timeout", "Async: wall-clock seconds an asynchronous phase may last from its start (never restarted) before every rank fails the step with DIVERGED_MAX_IT", "EasAdrSetFromOptions", adr->async_detect_timeout, &adr->async_detect_timeout, NULL));
  PetscCheck(adr->async_detect_timeout > 0, PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_OUTOFRANGE, "-eas_async_detect_timeout %g is invalid: expected a time in seconds > 0", (double)adr->async_detect_timeout);
  PetscCall(PetscOptionsInt("-eas_async_persist", "Consecutive locally converged iterations before a rank votes converged", "EasAdrSetFromOptions", adr->persist, &adr->persist, NULL));
  PetscCheck(adr->persist >= 1, PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_OUTOFRANGE, "-eas_async_persist %" PetscInt_FMT " is invalid: expected a count >= 1", adr->persist);
  PetscCall(PetscOptionsInt("-eas_async_max_checks", "Synchronous checks per step before DIVERGED_ASYNC_CHECK", "EasAdrSetFromOptions", adr->max_checks, &adr->max_checks, NULL));
  PetscCheck(adr->max_checks >= 1, PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_OUTOFRANGE, "-eas_async_max_checks %" PetscInt_FMT " is invalid: expected a count >= 1", adr->max_checks);
  PetscCall(PetscOptionsInt("-eas_async_max_it", "Async: bound on all local outer iterations of a time step, converged or not (DIVERGED_MAX_IT beyond)", "EasAdrSetFromOptions", adr->async_max_it, &adr->async_max_it, NULL));
  PetscCheck(adr->async_max_it >= 1, PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_OUTOFRANGE, "-eas_async_max_it %" PetscInt_FMT " is invalid: expected a count >= 1", adr->async_max_it);
  PetscCall(PetscOptionsReal("-eas_async_halo_rtol", "Async: iterate on new ghosts only when they moved by more than this times -adr_newton_rtol (relative, per species; 0: on every change above the round-off floor 1000 eps)", "EasAdrSetFromOptions", adr->async_halo_rtol, &adr->async_halo_rtol, NULL));
  PetscCheck(adr->async_halo_rtol >= 0, PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_OUTOFRANGE, "-eas_async_halo_rtol %g is invalid: expected a factor >= 0", (double)adr->async_halo_rtol);
  PetscCall(PetscOptionsBool("-eas_async_thread", "Progress receptions in a thread (needs MPI_THREAD_MULTIPLE)", "EasAdrSetFromOptions", adr->async_thread, &adr->async_thread, NULL));
  PetscCall(PetscOptionsReal("-eas_comm_delay_us", "Fault injection: hold each received halo message back this long (microseconds)", "EasAdrSetFromOptions", adr->delay_us, &adr->delay_us, NULL));
  PetscCall(PetscOptionsReal("-eas_comm_jitter_us", "Fault injection: plus a uniform random delay in [0, jitter) (microseconds)", "EasAdrSetFromOptions", adr->jitter_us, &adr->jitter_us, NULL));
  PetscCall(PetscOptionsInt("-eas_comm_seed", "Seed of the jitter draws", "EasAdrSetFromOptions", adr->comm_seed, &adr->comm_seed, NULL));
  PetscCheck(adr->delay_us >= 0, PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_OUTOFRANGE, "-eas_comm_delay_us %g is invalid: expected a delay in microseconds >= 0", (double)adr->delay_us);
  PetscCheck(adr->jitter_us >= 0, PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_OUTOFRANGE, "-eas_comm_jitter_us %g is invalid: expected a jitter in microseconds >= 0", (double)adr->jitter_us);
  {
    PetscInt  it = adr->ts_type;
    PetscReal rt = adr->ts_rtol, at = adr->ts_atol;
    PetscInt  q = adr->ts_max_order;
    PetscCall(PetscOptionsEList("-adr_ts_type", "Time stepping: beuler (implicit Euler, fixed -adr_dt) or cvode (SUNDIALS CVODE, variable-order BDF with error control)", "EasAdrSetTimeStepType", EasAdrTSTypes, 2, EasAdrTSTypes[adr->ts_type], &it, &flg));
    if (flg) PetscCall(EasAdrSetTimeStepType(adr, (EasAdrTSType)it));
    PetscCall(PetscOptionsReal("-adr_ts_rtol", "cvode: relative tolerance of the local error", "EasAdrSetTimeStepTolerances", rt, &rt, NULL));
    PetscCall(PetscOptionsReal("-adr_ts_atol", "cvode: absolute tolerance of the local error", "EasAdrSetTimeStepTolerances", at, &at, NULL));
    if (rt != adr->ts_rtol || at != adr->ts_atol) PetscCall(EasAdrSetTimeStepTolerances(adr, rt, at));
    PetscCall(PetscOptionsInt("-adr_ts_max_order", "cvode: largest BDF order (1..5)", "EasAdrSetTimeStepMaxOrder", q, &q, &flg));
    if (flg) PetscCall(EasAdrSetTimeStepMaxOrder(adr, q));
    PetscCall(PetscOptionsInt("-adr_ts_max_steps", "cvode: internal steps per EasAdrSolve call before CVODE gives up", "EasAdrSetFromOptions", adr->ts_max_steps, &adr->ts_max_steps, NULL));
    PetscCheck(adr->ts_max_steps >= 1, PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_OUTOFRANGE, "-adr_ts_max_steps %" PetscInt_FMT " is invalid: expected a count >= 1", adr->ts_max_steps);
    PetscCall(PetscOptionsBool("-adr_ts_reuse_jacobian", "cvode: keep the local Jacobians between CVODE's linear-solver setups (modified Newton, as CVODE's own)", "EasAdrSetFromOptions", adr->ts_reuse_jac, &adr->ts_reuse_jac, NULL));
    PetscCall(PetscOptionsBool("-adr_ts_lag_jacobian", "cvode: a stage's later Newton iterations keep the Jacobian of its first (chord within the stage)", "EasAdrSetFromOptions", adr->ts_lag_jac, &adr->ts_lag_jac, NULL));
    PetscCall(PetscOptionsInt("-adr_ts_max_newton_it", "cvode: synchronous outer iterations (async: synchronous checks) per stage before CVODE retries with a smaller step (default 3, CVODE's own, on one rank; 10 on several: the multisplitting converges linearly between the boxes)", "EasAdrSetFromOptions", adr->ts_max_newton_it, &adr->ts_max_newton_it, NULL));
    PetscCheck(adr->ts_max_newton_it >= 1 || adr->ts_max_newton_it == PETSC_DECIDE, PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_OUTOFRANGE, "-adr_ts_max_newton_it %" PetscInt_FMT " is invalid: expected a count >= 1", adr->ts_max_newton_it);
  }
  PetscCall(EasAdrOutputSetFromOptions_Private(adr, PetscOptionsObject));
  PetscOptionsEnd();
  PetscCall(EasKspSetFromOptions(adr->ksp));
  PetscCall(EasAdrFoldJacobi_Private(adr, PETSC_TRUE));
  if (!adr->setupcalled) {
    const char *prefix;
    PetscCall(EasAdrMeterCreate_Private(adr));
    PetscCall(EasEnergyMeterSetFromOptions(adr->meter));
    PetscCall(PetscObjectGetOptionsPrefix((PetscObject)adr, &prefix));
    PetscCall(PetscOptionsHasName(((PetscObject)adr)->options, prefix, "-eas_trace", &adr->trace));
  }
  PetscFunctionReturn(0);
}

/*
  EasAdrFoldJacobi_Private - right Jacobi of the inner BiCGStab folded into
  the Jacobian assembly.  BiCGStab with right Jacobi solves (J D^{-1}) y = F
  and returns dx = D^{-1} y (bicgstab.c); built from J, that is one more pass
  over the matrix per Newton iteration (read J, write J D^{-1}) after the
  assembly wrote J.  Assembled directly (kernels.h EasAdrKInvDiagPoint,
  EasAdrKJacobianJacobiPoint; backend op adr_jacobian_jacobi), J D^{-1} is
  the inner solver's operator, the solver runs without preconditioner, and
  the update applies D^{-1} (msnewton.c): the same products, one matrix
  pass and one matrix in memory less.  Decided from the preconditioner the
  user chose for the inner solver (-adr_pc_type, default jacobi) and its
  type (bicgstab; cg and pipecg keep their own Jacobi).  options: the
  inner solver's options were just read, so an explicit -adr_pc_type is
  the user's choice (the inner solver shows none while folded).
*/
PetscErrorCode EasAdrFoldJacobi_Private(EasAdr adr, PetscBool options)
{
  EasKsp      ksp = adr->ksp;
  char        want[16];
  const char *prefix;
  PetscBool   bcgs, jacobi, set = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(PetscStrncpy(want, adr->jac_fold ? EAS_PCJACOBI : ksp->pc_type, sizeof(want)));
  if (options) {
    PetscCall(PetscObjectGetOptionsPrefix((PetscObject)ksp, &prefix));
    PetscCall(PetscOptionsGetString(((PetscObject)ksp)->options, prefix, "-pc_type", want, sizeof(want), &set));
  }
  PetscCall(PetscObjectTypeCompare((PetscObject)ksp, EAS_BICGSTAB, &bcgs));
  PetscCall(PetscStrcmp(want, EAS_PCJACOBI, &jacobi));
  if (adr->jac_fold != (PetscBool)(bcgs && jacobi)) adr->jac_valid = PETSC_FALSE; /* a kept J holds the other form */
  adr->jac_fold = (PetscBool)(bcgs && jacobi);
  PetscCall(EasKspSetPCType(ksp, adr->jac_fold ? EAS_PCNONE : want));
  PetscFunctionReturn(0);
}

/* ----------------------------------------------------------------- setup */

/*@C
  EasAdrSetUp - the Cartesian decomposition (MPI_Dims_create,
  MPI_Cart_create), the local arrays, the local Jacobian in DIA on the
  backend, the inner solver, and the initial condition.
  Errors: fewer than 2 points per rank in a direction ("grid too small").
@*/
PetscErrorCode EasAdrSetUp(EasAdr adr)
{
  MPI_Comm      comm;
  PetscMPIInt   periods[3] = {0, 0, 0}, level;
  PetscInt      cnt[6], *ns;
  EasAdrValueFn ifn;
  void         *ictx;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  if (adr->setupcalled) PetscFunctionReturn(0);
  comm = PetscObjectComm((PetscObject)adr);
  PetscCallMPI(MPI_Comm_size(comm, &adr->size));
  /* the backend and the energy meter first: SetUp itself is the setup phase */
  if (!adr->be) PetscCall(EasBackendCreateFor_Private((PetscObject)adr, PETSC_COMM_SELF, &adr->be)); /* -eas_backend auto: the energy policies' resolver */
  adr->device = adr->be->host_is_device ? PETSC_FALSE : PETSC_TRUE;
  PetscCall(EasAdrMeterCreate_Private(adr));
  PetscCall(EasAdrMeterUnit_Private(adr));
  {
    MPI_Comm shm;
    PetscCallMPI(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shm));
    PetscCallMPI(MPI_Comm_size(shm, &adr->ppn));
    PetscCallMPI(MPI_Comm_free(&shm));
  }
  PetscCall(EasEnergyMeterStart(adr->meter));
  PetscCall(PetscTime(&adr->trace_tstart));
  adr->trace_tprev = adr->trace_tstart;
  PetscCall(EasAdrMeterBegin(adr, EAS_PHASE_SETUP));
  if (adr->async_thread) {
    PetscCall(EasGetMPIThreadLevel(&level));
    PetscCheck(level >= MPI_THREAD_MULTIPLE, comm, PETSC_ERR_SUP_SYS, "-eas_async_thread needs MPI_THREAD_MULTIPLE but MPI provides level %d; start with EasInitialize() (which asks for it) or drop -eas_async_thread", (int)level);
  }
  adr->dims[0] = adr->dims[2] = 0;
  adr->dims[1]                = adr->N[1] == 1 ? 1 : 0; /* one y plane (2D): never split in y */
  PetscCallMPI(MPI_Dims_create(adr->size, 3, adr->dims));
  for (PetscInt d = 0; d < 3; d++) {
    PetscCheck(adr->N[d] / adr->dims[d] >= 2 || adr->N[d] == 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "Grid too small for %d ranks: %" PetscInt_FMT " points in %c (-adr_n%c) split over %d ranks leaves fewer than 2 points per rank; use at least %d points or fewer ranks", adr->size, adr->N[d], (char)('x' + d), (char)('x' + d), adr->dims[d], 2 * adr->dims[d]);
  }
  PetscCallMPI(MPI_Cart_create(comm, 3, adr->dims, periods, 0, &adr->cart));
  PetscCallMPI(MPI_Comm_rank(adr->cart, &adr->rank));
  PetscCallMPI(MPI_Cart_coords(adr->cart, adr->rank, 3, adr->cc));
  for (PetscInt d = 0; d < 3; d++) {
    const PetscInt P = adr->dims[d], q = adr->N[d] / P, r = adr->N[d] % P;
    PetscCall(PetscMalloc1(P + 1, &adr->starts[d]));
    for (PetscInt p = 0; p <= P; p++) adr->starts[d][p] = p * q + PetscMin(p, r);
    adr->xs[d] = adr->starts[d][adr->cc[d]];
    adr->nl[d] = adr->starts[d][adr->cc[d] + 1] - adr->xs[d];
    PetscCallMPI(MPI_Cart_shift(adr->cart, (int)d, 1, &adr->nb[2 * d], &adr->nb[2 * d + 1]));
    if (adr->N[d] == 1) { /* one plane in the middle of the box; no coupling in d */
      adr->h[d]     = adr->hi[d] - adr->lo[d];
      adr->shift[d] = 0.5;
    } else if (adr->bc == EAS_ADR_BC_DIRICHLET) {
      adr->h[d]     = (adr->hi[d] - adr->lo[d]) / (adr->N[d] + 1);
      adr->shift[d] = 1;
    } else {
      adr->h[d]     = (adr->hi[d] - adr->lo[d]) / (adr->N[d] - 1);
      adr->shift[d] = 0;
    }
  }
  if (!adr->dt_set && adr->problem == EAS_ADR_PROBLEM_DIURNAL && adr->advection == EAS_ADR_CENTRAL && !adr->velocity && adr->ts_type == EAS_ADR_TS_BEULER && adr->N[0] > 1) {
    /* The diurnal default step, 3600 s, is bounded by h_x/|V|: with central advection at cell Peclet
       |V| h_x/K_h >> 2, the x coupling of a row of I - dt J is dt |V|/h_x against a diagonal of about 1,
       so above that bound the Jacobian is not diagonally dominant: the multisplitting Newton's outer
       iteration (Vialle et al. sec. 1.7, a block-Jacobi splitting of J) stops contracting across
       ranks (2 ranks, 24^3 at 3600 s: DIVERGED_MAX_IT) and Jacobi-preconditioned BiCGStab slows down.
       At dt = h_x/|V| the outer count per step is grid independent (16 at 16^3 and 40^3 on 2 ranks).
       The step is shortened so that a whole number of steps fills [t0, tfinal]; independent of the
       rank count, so the answer does not depend on it.  -adr_dt overrides it. */
    const PetscReal span = adr->tfinal - adr->t, dtmax = PetscMin(3600.0, adr->h[0] / 1.0e-3);
    if (span > 0 && dtmax < adr->dt) adr->dt = span / PetscCeilReal(span / dtmax - 1e-9);
  }
  /* sizes checked (core/size.h; README.md, Limits): the six transport
     weights are one backend vector of 6 np entries, the padded box is
     indexed in PetscInt, and the global state is a PETSc vector */
  {
    PetscInt chk;
    PetscCall(EasIntMul(adr->cart, "ADR global unknowns 2*Nx*Ny*Nz", &chk, 2, adr->N[0], adr->N[1], adr->N[2]));
    PetscCall(EasIntMul(adr->cart, "ADR transport weights per rank 6*nx*ny*nz", &chk, 6, adr->nl[0], adr->nl[1], adr->nl[2]));
    PetscCall(EasIntMul(adr->cart, "ADR padded box per rank 2*(nx+2)*(ny+2)*(nz+2)", &chk, 2, adr->nl[0] + 2, adr->nl[1] + 2, adr->nl[2] + 2));
  }
  adr->np = adr->nl[0] * adr->nl[1] * adr->nl[2];
  adr->n  = 2 * adr->np;
  PetscCall(PetscMalloc1(adr->size + 1, &adr->rank_rstart));
  PetscCall(PetscMalloc1(adr->size, &ns));
  PetscCallMPI(MPI_Allgather(&adr->n, 1, MPIU_INT, ns, 1, MPIU_INT, adr->cart));
  adr->rank_rstart[0] = 0;
  for (PetscMPIInt r = 0; r < adr->size; r++) adr->rank_rstart[r + 1] = adr->rank_rstart[r] + ns[r];
  adr->rstart = adr->rank_rstart[adr->rank];
  PetscCall(PetscFree(ns));

  /* local arrays */
  /* the counts fit PetscInt (checked above); computed in size_t all the same */
  PetscCall(PetscCalloc4(adr->n, &adr->x, adr->n, &adr->xold, adr->n, &adr->F, (size_t)2 * (adr->nl[0] + 2) * (adr->nl[1] + 2) * (adr->nl[2] + 2), &adr->xg));
  PetscCall(PetscCalloc3((size_t)2 * adr->np, &adr->Rv, (size_t)4 * adr->np, &adr->dRv, (size_t)3 * adr->np, &adr->coords));
  PetscCall(PetscCalloc1(6 * (size_t)adr->np, &adr->w[0])); /* one array: w[f] = w[0] + f np, the kernels' layout */
  for (PetscInt f = 1; f < 6; f++) adr->w[f] = adr->w[0] + (size_t)f * adr->np;
  PetscCall(PetscCalloc1(7 * (size_t)adr->np, &adr->wl));
  for (PetscInt k = 0; k < adr->nl[2]; k++)
    for (PetscInt j = 0; j < adr->nl[1]; j++)
      for (PetscInt i = 0; i < adr->nl[0]; i++) EasAdrCoordinates(adr, adr->xs[0] + i, adr->xs[1] + j, adr->xs[2] + k, adr->coords + 3 * (i + adr->nl[0] * (j + adr->nl[1] * k)));
  for (PetscInt f = 0; f < 6; f++) {
    cnt[f] = 2 * EasAdrFaceDimA(adr, f) * EasAdrFaceDimB(adr, f);
    if (adr->nb[f] == MPI_PROC_NULL && adr->bc == EAS_ADR_BC_DIRICHLET) PetscCall(PetscCalloc1(cnt[f], &adr->bval[f]));
  }
  PetscCall(EasHaloCreate(adr->cart, adr->nb, cnt, &adr->halo));
  adr->halo->faults.delay_us  = adr->delay_us;
  adr->halo->faults.jitter_us = adr->jitter_us;
  adr->halo->faults.seed      = adr->comm_seed;
  adr->halo->use_thread       = adr->async_thread;
  PetscCall(EasFaultsSetUp(&adr->halo->faults, adr->rank));

  PetscCall(EasAdrFoldJacobi_Private(adr, PETSC_FALSE));
  PetscCall(EasAdrCreateBackendObjects_Private(adr));

  /* initial condition */
  ifn    = adr->initial ? adr->initial : EasAdrInitial_Builtin;
  ictx   = adr->initial ? adr->initial_ctx : (void *)adr;
  adr->t = adr->t0;
  for (PetscInt p = 0; p < adr->np; p++) {
    PetscCall((*ifn)(adr->t0, adr->coords + 3 * p, adr->x + 2 * p, ictx));
    PetscCheck(!PetscIsInfOrNanReal(adr->x[2 * p]) && !PetscIsInfOrNanReal(adr->x[2 * p + 1]), PETSC_COMM_SELF, PETSC_ERR_FP, "The initial condition is NaN or Inf at (%g, %g, %g)", (double)adr->coords[3 * p], (double)adr->coords[3 * p + 1], (double)adr->coords[3 * p + 2]);
  }
  adr->coef_t       = PETSC_MIN_REAL;
  adr->halo_scalars = 0;
  for (PetscInt f = 0; f < 6; f++)
    if (adr->nb[f] != MPI_PROC_NULL) adr->halo_scalars += cnt[f];
  PetscCall(EasAdrMeterEnd(adr, EAS_PHASE_SETUP, adr->n));
  adr->setupcalled = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------- accessors */

PetscErrorCode EasAdrCheckSetUp_Private(EasAdr adr, const char fn[])
{
  PetscFunctionBegin;
  PetscCheck(adr->setupcalled, PetscObjectComm((PetscObject)adr), PETSC_ERR_ORDER, "%s: call EasAdrSetUp() first", fn);
  PetscFunctionReturn(0);
}

PetscErrorCode EasAdrGetTime(EasAdr adr, PetscReal *t)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  *t = adr->t;
  PetscFunctionReturn(0);
}

PetscErrorCode EasAdrGetTimeStep(EasAdr adr, PetscReal *dt)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  *dt = adr->dt;
  PetscFunctionReturn(0);
}

/*@C EasAdrGetConvergedReason - the reason of the last time step. @*/
PetscErrorCode EasAdrGetConvergedReason(EasAdr adr, EasAdrConvergedReason *reason)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  *reason = adr->reason;
  PetscFunctionReturn(0);
}

/*@C EasAdrGetStats - iterations, messages and time (see EasAdrStats). @*/
PetscErrorCode EasAdrGetStats(EasAdr adr, EasAdrStats *st)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  *st = adr->stats;
  if (adr->halo) {
    st->msgs_sent  = adr->halo->msgs_sent;
    st->msgs_recv  = adr->halo->msgs_recv;
    st->msgs_stale = adr->halo->msgs_stale;
  }
  PetscFunctionReturn(0);
}

/*@C EasAdrGetGrid - the global grid points. @*/
PetscErrorCode EasAdrGetGrid(EasAdr adr, PetscInt *nx, PetscInt *ny, PetscInt *nz)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  if (nx) *nx = adr->N[0];
  if (ny) *ny = adr->N[1];
  if (nz) *nz = adr->N[2];
  PetscFunctionReturn(0);
}

/*@C EasAdrGetStepsPlanned - implicit Euler steps of EasAdrSolve(PETSC_DEFAULT) from now. @*/
PetscErrorCode EasAdrGetStepsPlanned(EasAdr adr, PetscInt *steps)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscValidIntPointer(steps, 2);
  *steps = adr->max_steps > 0 ? adr->max_steps : (PetscInt)PetscCeilReal((adr->tfinal - adr->t) / adr->dt - 1e-9);
  if (*steps < 1) *steps = 1;
  PetscFunctionReturn(0);
}

/*@C EasAdrGetBackend - the solver's backend (borrowed). @*/
PetscErrorCode EasAdrGetBackend(EasAdr adr, EasBackend *be)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscValidPointer(be, 2);
  *be = adr->be;
  PetscFunctionReturn(0);
}

PetscErrorCode EasAdrGetLocalGrid(EasAdr adr, PetscInt *xs, PetscInt *ys, PetscInt *zs, PetscInt *nxl, PetscInt *nyl, PetscInt *nzl)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCall(EasAdrCheckSetUp_Private(adr, "EasAdrGetLocalGrid"));
  if (xs) *xs = adr->xs[0];
  if (ys) *ys = adr->xs[1];
  if (zs) *zs = adr->xs[2];
  if (nxl) *nxl = adr->nl[0];
  if (nyl) *nyl = adr->nl[1];
  if (nzl) *nzl = adr->nl[2];
  PetscFunctionReturn(0);
}

PetscErrorCode EasAdrGetLocalPointCoordinates(EasAdr adr, PetscInt p, PetscReal xyz[3])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCall(EasAdrCheckSetUp_Private(adr, "EasAdrGetLocalPointCoordinates"));
  PetscCheck(p >= 0 && p < adr->np, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "EasAdrGetLocalPointCoordinates: point %" PetscInt_FMT " is outside [0, %" PetscInt_FMT ")", p, adr->np);
  for (PetscInt d = 0; d < 3; d++) xyz[d] = adr->coords[3 * p + d];
  PetscFunctionReturn(0);
}

PetscErrorCode EasAdrGetLocalSolution(EasAdr adr, const PetscScalar *x[], PetscInt *n)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCall(EasAdrCheckSetUp_Private(adr, "EasAdrGetLocalSolution"));
  *x = adr->x;
  if (n) *n = adr->n;
  PetscFunctionReturn(0);
}

/*@C EasAdrCreateGlobalVec - a Vec (block size 2) with the solver's global layout. @*/
PetscErrorCode EasAdrCreateGlobalVec(EasAdr adr, Vec *X)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCall(EasAdrCheckSetUp_Private(adr, "EasAdrCreateGlobalVec"));
  PetscCall(VecCreateMPI(PetscObjectComm((PetscObject)adr), adr->n, PETSC_DETERMINE, X));
  PetscCall(VecSetBlockSize(*X, 2));
  PetscFunctionReturn(0);
}

PetscErrorCode EasAdrCheckVec_Private(EasAdr adr, Vec X, const char fn[])
{
  PetscInt n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(X, &n));
  PetscCheck(n == adr->n, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "%s: the Vec has %" PetscInt_FMT " local entries, expected %" PetscInt_FMT " (use EasAdrCreateGlobalVec())", fn, n, adr->n);
  PetscFunctionReturn(0);
}

PetscErrorCode EasAdrGetSolution(EasAdr adr, Vec X)
{
  PetscScalar *xa;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCall(EasAdrCheckSetUp_Private(adr, "EasAdrGetSolution"));
  PetscCall(EasAdrCheckVec_Private(adr, X, "EasAdrGetSolution"));
  PetscCall(VecGetArrayWrite(X, &xa));
  PetscCall(PetscArraycpy(xa, adr->x, adr->n));
  PetscCall(VecRestoreArrayWrite(X, &xa));
  PetscFunctionReturn(0);
}

PetscErrorCode EasAdrSetSolution(EasAdr adr, Vec X)
{
  const PetscScalar *xa;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCall(EasAdrCheckSetUp_Private(adr, "EasAdrSetSolution"));
  PetscCall(EasAdrCheckVec_Private(adr, X, "EasAdrSetSolution"));
  PetscCall(VecGetArrayRead(X, &xa));
  PetscCall(PetscArraycpy(adr->x, xa, adr->n));
  PetscCall(VecRestoreArrayRead(X, &xa));
  adr->ghosts_current = PETSC_FALSE; /* the neighbours' new state is not in the ghosts yet */
  adr->cv_reinit      = PETSC_TRUE;  /* CVODE restarts from it */
  PetscFunctionReturn(0);
}

/*@C
  EasAdrSpeciesNorms - the 2-norm of each species of a global Vec.
@*/
PetscErrorCode EasAdrSpeciesNorms(EasAdr adr, Vec X, PetscReal norms[2])
{
  const PetscScalar *xa;
  PetscReal          s[2] = {0, 0};
  PetscInt           n;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCall(VecGetLocalSize(X, &n));
  PetscCall(VecGetArrayRead(X, &xa));
  for (PetscInt i = 0; i < n; i++) s[i % 2] += PetscRealPart(xa[i] * xa[i]);
  PetscCall(VecRestoreArrayRead(X, &xa));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, s, 2, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)X)));
  norms[0] = PetscSqrtReal(s[0]);
  norms[1] = PetscSqrtReal(s[1]);
  PetscFunctionReturn(0);
}

/*@C
  EasAdrView - problem, grid, decomposition, modes, tolerances, statistics
  and the inner solver.
@*/
PetscErrorCode EasAdrView(EasAdr adr, PetscViewer viewer)
{
  PetscBool   isascii;
  EasAdrStats st;
  PetscInt64  msg[4], msgsum[4];
  PetscInt    its[2], itsmax[2];

  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  if (!viewer) PetscCall(PetscViewerASCIIGetStdout(PetscObjectComm((PetscObject)adr), &viewer));
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &isascii));
  if (!isascii) PetscFunctionReturn(0);
  PetscCall(EasAdrGetStats(adr, &st));
  PetscCall(PetscObjectPrintClassNamePrefixType((PetscObject)adr, viewer));
  PetscCall(PetscViewerASCIIPushTab(viewer));
  PetscCall(PetscViewerASCIIPrintf(viewer, "problem %s: grid %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT " points, box [%g,%g]x[%g,%g]x[%g,%g]\n", EasAdrProblems[adr->problem], adr->N[0], adr->N[1], adr->N[2], (double)adr->lo[0], (double)adr->hi[0], (double)adr->lo[1], (double)adr->hi[1], (double)adr->lo[2], (double)adr->hi[2]));
  PetscCall(PetscViewerASCIIPrintf(viewer, "reaction %s, advection %s, boundaries %s%s%s%s\n", adr->reaction ? "user" : EasAdrReactions[adr->reaction_type], EasAdrAdvections[adr->advection], EasAdrBCs[adr->bc], adr->velocity ? ", user velocity" : "", adr->diffusion ? ", user diffusion" : "", adr->initial ? ", user initial condition" : ""));
  if (adr->ts_type == EAS_ADR_TS_CVODE) {
    EasAdrTSStats ts;
    PetscCall(EasAdrGetTimeStepStats(adr, &ts));
    PetscCall(PetscViewerASCIIPrintf(viewer, "CVODE BDF orders 1-%" PetscInt_FMT ", rtol %g, atol %g: t = %g, %" PetscInt_FMT " steps (last order %" PetscInt_FMT ", h %g), %" PetscInt_FMT " error-test failures, %" PetscInt_FMT " nonlinear iterations (%" PetscInt_FMT " failures), %" PetscInt_FMT " right-hand sides\n", adr->ts_max_order, (double)adr->ts_rtol, (double)adr->ts_atol, (double)adr->t, ts.steps, ts.last_order, (double)ts.last_step, ts.err_test_fails, ts.nonlin_its, ts.nonlin_conv_fails, ts.rhs_evals));
    PetscCall(PetscViewerASCIIPrintf(viewer, "stages by the multisplitting Newton (%s), CVODE's convergence test, at most %" PetscInt_FMT " %s per stage\n", adr->mode == EAS_ADR_ASYNC ? "async" : "sync", adr->ts_max_newton_it, adr->mode == EAS_ADR_ASYNC ? "synchronous checks" : "outer iterations"));
  } else
    PetscCall(PetscViewerASCIIPrintf(viewer, "implicit Euler: t = %g, dt = %g; multisplitting-Newton %s, rtol %g, max_it %" PetscInt_FMT "\n", (double)adr->t, (double)adr->dt, adr->mode == EAS_ADR_ASYNC ? "async" : "sync", (double)adr->newton_rtol, adr->newton_max_it));
  PetscCall(PetscViewerASCIIPrintf(viewer, "local Jacobian values read by the inner solver: %s precision\n", EasPrecisions[adr->jac_prec]));
  if (adr->ew.use) PetscCall(PetscViewerASCIIPrintf(viewer, "inner tolerances: Eisenstat-Walker version %" PetscInt_FMT ", rtol_0 %g, rtol_max %g, gamma %g, alpha %g, alpha2 %g, threshold %g (per rank, from its ||F_l||)\n", adr->ew.version, (double)adr->ew.rtol_0, (double)adr->ew.rtol_max, (double)adr->ew.gamma, (double)adr->ew.alpha, (double)adr->ew.alpha2, (double)adr->ew.threshold));
  if (adr->mode_auto) {
    const EasAdrAutoInfo *ai = &adr->auto_info;
    if (!adr->auto_decided)
      PetscCall(PetscViewerASCIIPrintf(viewer, "mode auto (%s rule): not decided yet\n", EasAdrAutoRules[adr->auto_rule]));
    else if (adr->auto_rule == EAS_ADR_AUTO_THRESHOLD || adr->size == 1)
      PetscCall(PetscViewerASCIIPrintf(viewer, "mode auto (%s rule): %s chosen after the first step (exchange share %.3g, threshold %.3g)\n", EasAdrAutoRules[adr->auto_rule], adr->mode == EAS_ADR_ASYNC ? "async" : "sync", (double)adr->auto_share, (double)adr->auto_threshold));
    else
      PetscCall(PetscViewerASCIIPrintf(viewer, "mode auto (frontier rule, criterion %s): sync step T=%.4g s Pbar=%.4g W, async step T=%.4g s Pbar=%.4g W (%s); alpha = T_sync/T_async = %.4g %s frontier %.4g (Vialle et al. eq. 1.50) -> %s\n", EasCriteria[adr->auto_crit], (double)ai->T[0], (double)ai->P[0], (double)ai->T[1], (double)ai->P[1], ai->Emeasured ? "measured" : "modelled", (double)ai->alpha, ai->alpha > ai->frontier ? ">" : "<=", (double)ai->frontier, adr->mode == EAS_ADR_ASYNC ? "async" : "sync"));
  }
  if (adr->mode == EAS_ADR_ASYNC) PetscCall(PetscViewerASCIIPrintf(viewer, "async: detection %s, timeout %g s, persistence %" PetscInt_FMT ", reception %s, iterate on ghosts moved > %g x rtol\n", adr->async_detect == EAS_DETECT_IALLREDUCE ? "iallreduce (2 rounds)" : "decentralized (tree election, 2 verification waves)", (double)adr->async_detect_timeout, adr->persist, adr->async_thread ? "thread" : "polling", (double)adr->async_halo_rtol));
  if (adr->delay_us > 0 || adr->jitter_us > 0) PetscCall(PetscViewerASCIIPrintf(viewer, "fault injection: delay %g us + jitter U(0, %g) us, seed %" PetscInt_FMT "\n", (double)adr->delay_us, (double)adr->jitter_us, adr->comm_seed));
  if (adr->setupcalled) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "decomposition %d x %d x %d ranks; rank 0 box %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT "\n", adr->dims[0], adr->dims[1], adr->dims[2], adr->nl[0], adr->nl[1], adr->nl[2]));
    msg[0] = st.msgs_sent;
    msg[1] = st.msgs_recv;
    msg[2] = st.msgs_stale;
    msg[3] = st.halo_skipped;
    PetscCall(MPIU_Allreduce(msg, msgsum, 4, MPIU_INT64, MPI_SUM, PetscObjectComm((PetscObject)adr)));
    its[0] = st.outer_its;
    its[1] = st.inner_its;
    PetscCall(MPIU_Allreduce(its, itsmax, 2, MPIU_INT, MPI_MAX, PetscObjectComm((PetscObject)adr)));
    PetscCall(PetscViewerASCIIPrintf(viewer, "statistics: %" PetscInt_FMT " steps, outer iterations %" PetscInt_FMT " (max over ranks), inner iterations %" PetscInt_FMT " (max over ranks), last reason %s\n", st.steps, itsmax[0], itsmax[1], EasAdrConvergedReasonName(adr->reason)));
    PetscCall(PetscViewerASCIIPrintf(viewer, "messages (async, all ranks): sent %" PetscInt64_FMT ", received %" PetscInt64_FMT ", discarded as stale %" PetscInt64_FMT ", too small to iterate on %" PetscInt64_FMT "; synchronous checks %" PetscInt_FMT ", failed %" PetscInt_FMT " (rank 0)\n", msgsum[0], msgsum[1], msgsum[2], msgsum[3], st.sync_checks, st.check_failures));
    PetscCall(PetscViewerASCIIPrintf(viewer, "time in EasAdrSolve: %.3f s\n", (double)st.time_solve));
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "inner solver (rank 0; residual and Jacobian assembled on the backend):\n"));
  if (adr->jac_fold) PetscCall(PetscViewerASCIIPrintf(viewer, "  right Jacobi (-adr_pc_type jacobi) assembled into the Jacobian: J D^{-1} is the operator, dx = D^{-1} y (so the solver shows no preconditioner)\n"));
  if (adr->rank == 0) {
    PetscViewer sv;
    PetscCall(PetscViewerGetSubViewer(viewer, PETSC_COMM_SELF, &sv));
    PetscCall(EasKspView(adr->ksp, sv));
    PetscCall(PetscViewerRestoreSubViewer(viewer, PETSC_COMM_SELF, &sv));
  } else {
    PetscViewer sv;
    PetscCall(PetscViewerGetSubViewer(viewer, PETSC_COMM_SELF, &sv));
    PetscCall(PetscViewerRestoreSubViewer(viewer, PETSC_COMM_SELF, &sv));
  }
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscFunctionReturn(0);
}

/*@C EasAdrDestroy - frees the solver (every MPI request is already freed). @*/
PetscErrorCode EasAdrDestroy(EasAdr *adr)
{
  EasAdr a;

  PetscFunctionBegin;
  if (!*adr) PetscFunctionReturn(0);
  PetscValidHeaderSpecific(*adr, EAS_ADR_CLASSID, 1);
  if (--((PetscObject)(*adr))->refct > 0) {
    *adr = NULL;
    PetscFunctionReturn(0);
  }
  a = *adr;
  PetscCall(EasAdrCVodeDestroy_Private(a));
  PetscCall(EasAdrOutputDestroy_Private(a));
  PetscCall(EasHookListDestroy(&a->hooks)); /* the policies restore what they changed */
  PetscCall(EasEnergyMeterDestroy(&a->meter));
  PetscCall(EasHaloDestroy(&a->halo));
  PetscCall(EasVecDestroy(&a->b));
  PetscCall(EasVecDestroy(&a->dx));
  PetscCall(EasKspDestroy(&a->ksp));
  PetscCall(EasDiaDestroy(&a->J));
  PetscCall(EasBackendDestroy(&a->be));
  PetscCall(PetscFree4(a->x, a->xold, a->F, a->xg));
  PetscCall(PetscFree3(a->Rv, a->dRv, a->coords));
  PetscCall(PetscFree(a->w[0]));
  PetscCall(PetscFree(a->wl));
  for (PetscInt f = 0; f < 6; f++) PetscCall(PetscFree(a->bval[f]));
  PetscCall(EasVecDestroy(&a->xg_v));
  PetscCall(EasVecDestroy(&a->xold_v));
  PetscCall(EasVecDestroy(&a->dinv));
  PetscCall(EasVecDestroy(&a->w_v));
  PetscCall(EasVecDestroy(&a->wl_v));
  PetscCall(EasVecDestroy(&a->Rv_v));
  PetscCall(EasVecDestroy(&a->dRv_v));
  for (PetscInt d = 0; d < 3; d++) PetscCall(PetscFree(a->starts[d]));
  PetscCall(PetscFree(a->rank_rstart));
  if (a->cart != MPI_COMM_NULL) PetscCallMPI(MPI_Comm_free(&a->cart));
  PetscCall(PetscHeaderDestroy(adr));
  PetscFunctionReturn(0);
}
