/*
  EasAdr: the solver object of the two-species advection-diffusion-reaction
  problem of docs/adr.md (Vialle et al. sec. 1.7): its package, creation,
  the setters and getters of the time stepping, the outer iteration and the
  modes, the accessors, the view and the destruction.  The other parts of
  the solver, one file each:
    adrproblem.c   the problem: built-in problems and the setters defining one
    adropts.c      EasAdrSetFromOptions
    adrsetup.c     EasAdrSetUp: decomposition, arrays, backend objects
    adrassemble.c  the finite-difference discretization on a rank's box:
                   transport weights, residual and local Jacobian (on the
                   backend), the global function and Jacobian for PETSc
    adrbackend.c   the backend objects, moves between backends, the
                   energy meter's unit and the hooks
    msnewton.c     the multisplitting Newton that solves one implicit stage
                   system, synchronously or asynchronously
    adrts.c        the time stepping around it, and the implicit Euler stepper
    adrcvode.c     the CVODE stepper (adrnls.c: its stages' nonlinear solver)
    adrio.c        the solution output
*/
#include "adrimpl.h"

PetscClassId  EAS_ADR_CLASSID;
PetscLogEvent EAS_AdrSolve, EAS_AdrStep, EAS_AdrFunction, EAS_AdrJacobian, EAS_AdrHalo, EAS_AdrDetect, EAS_AdrInner, EAS_AdrMove;

const char *const EasAdrConvergedReasons[] = {"DIVERGED_TS", "DIVERGED_ASYNC_CHECK", "DIVERGED_NANORINF", "DIVERGED_INNER", "DIVERGED_MAX_IT", "CONVERGED_ITERATING", "CONVERGED_DX", "CONVERGED_ASYNC"};

/* EasAdrConvergedReasonName - the name of a reason ("DIVERGED_MAX_IT", ...). */
const char *EasAdrConvergedReasonName(EasAdrConvergedReason r)
{
  if (r < -5 || r > 2) return "UNKNOWN";
  return EasAdrConvergedReasons[r + 5];
}

const char *const EasAdrTSTypes[] = {"beuler", "cvode", NULL};

static PetscBool eas_adr_package_initialized = PETSC_FALSE;

/* EasAdrInitializePackage - the EasAdr class and its log events (called by EasAdrCreate). */
PetscErrorCode EasAdrInitializePackage(void)
{
  PetscFunctionBegin;
  if (eas_adr_package_initialized) PetscFunctionReturn(0);
  PetscCall(EasPackageInitialized_Private(&eas_adr_package_initialized)); /* cleared at PetscFinalize */
  PetscCall(PetscClassIdRegister("EAS ADR", &EAS_ADR_CLASSID));
  PetscCall(PetscLogEventRegister("EasAdrSolve", EAS_ADR_CLASSID, &EAS_AdrSolve));
  PetscCall(PetscLogEventRegister("EasAdrStep", EAS_ADR_CLASSID, &EAS_AdrStep));
  PetscCall(PetscLogEventRegister("EasAdrFunction", EAS_ADR_CLASSID, &EAS_AdrFunction));
  PetscCall(PetscLogEventRegister("EasAdrJacobian", EAS_ADR_CLASSID, &EAS_AdrJacobian));
  PetscCall(PetscLogEventRegister("EasAdrMove", EAS_ADR_CLASSID, &EAS_AdrMove));
  PetscCall(PetscLogEventRegister("EasAdrInner", EAS_ADR_CLASSID, &EAS_AdrInner));
  PetscCall(PetscLogEventRegister("EasAdrHalo", EAS_ADR_CLASSID, &EAS_AdrHalo));
  PetscCall(PetscLogEventRegister("EasAdrDetect", EAS_ADR_CLASSID, &EAS_AdrDetect));
  PetscFunctionReturn(0);
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
  adr->overlap_opt                  = 1; /* docs/adr.md "Overlap": the measured default */
  adr->pc_lag                       = 1;
  adr->jac_lag                      = 1;
  adr->phased                       = PETSC_TRUE;
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
  adr->ts                               = &EasAdrTS_BEuler;
  adr->ts_max_order                     = 5;
  adr->ts_reuse_jac                     = PETSC_FALSE;
  adr->ts_lag_jac                       = PETSC_TRUE;
  adr->ts_eps_lin                       = 0.01; /* CVODE's eplifac (CVodeSetEpsLin) is 0.05: measured, 0.05 took 9-14% more steps in eas (docs/adr.md) */
  adr->ts_max_steps                     = 500000;
  adr->ts_max_newton_it                 = PETSC_DECIDE; /* at setup: 3 (CVODE's own) on one rank, 10 on several */
  adr->da_comm                          = MPI_COMM_NULL;
  adr->cart                             = MPI_COMM_NULL;
  adr->decomp[0] = adr->decomp[1] = adr->decomp[2] = PETSC_DECIDE;
  PetscCall(EasAdrSetProblem(adr, "diurnal"));
  PetscCall(PetscObjectChangeTypeName((PetscObject)adr, EasAdrTSTypes[adr->ts_type])); /* the View's "type:" line */
  PetscCall(EasKspCreate(PETSC_COMM_SELF, &adr->ksp));
  PetscCall(EasKspSetOptionsPrefix(adr->ksp, "adr_"));
  /* BiCGStab residuals spike on advection-dominated blocks: a loose dtol */
  PetscCall(EasKspSetTolerances(adr->ksp, 1e-8, PETSC_DEFAULT, 1e12, 2000));
  *adr_out = adr;
  PetscFunctionReturn(0);
}

PetscErrorCode EasAdrCheckNotSetUp_Private(EasAdr adr, const char fn[])
{
  PetscFunctionBegin;
  PetscCheck(!adr->setupcalled, PetscObjectComm((PetscObject)adr), PETSC_ERR_ORDER, "%s must be called before EasAdrSetUp()", fn);
  PetscFunctionReturn(0);
}

PetscErrorCode EasAdrLookup_Private(EasAdr adr, const char *const list[], PetscInt nlist, const char value[], const char option[], PetscInt *idx)
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
  if (adr->setupcalled) PetscCall(EasAdrCheckLagJacobian_Private(adr, type, adr->jac_lag)); /* before it, EasAdrSetUp checks */
  if (type != adr->ts_type) {
    const EasAdrTSOps *const steppers[] = {&EasAdrTS_BEuler, &EasAdrTS_CVode}, *ops = steppers[type]; /* indexed by EasAdrTSType */
    if (ops->create) PetscCall((*ops->create)(adr));                                                  /* may refuse: cvode not compiled in */
    if (adr->ts->destroy) PetscCall((*adr->ts->destroy)(adr));
    adr->ts = ops;
  }
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

/*@C
  EasAdrSetTimeStepLinearTolerance - cvode: the inner solves of a stage stop
  when the error-weighted RMS norm of their residual is at most eps_lin times
  the stage's Newton tolerance (CVODE's own test of its linear solves,
  CVodeSetEpsLin; default 0.01 here, 0.05 in CVODE), or at -adr_ksp_rtol,
  whichever comes first; 0: -adr_ksp_rtol only.  With the Jacobi preconditioner folded into the
  assembly (the default) and without -adr_ksp_ew; else the relative test.
@*/
PetscErrorCode EasAdrSetTimeStepLinearTolerance(EasAdr adr, PetscReal eps_lin)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCheck(eps_lin >= 0 && eps_lin < 1, PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_OUTOFRANGE, "-adr_ts_eps_lin %g is invalid: expected a factor in [0, 1) (0: the inner solves to -adr_ksp_rtol only)", (double)eps_lin);
  adr->ts_eps_lin = eps_lin;
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
  if (adr->ts->getstats) PetscCall((*adr->ts->getstats)(adr, st));
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
  PetscCall(EasAdrCheckNotSetUp_Private(adr, "EasAdrSetJacobianPrecision"));
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
  EasAdrSetDecomposition - the grid of ranks px x py x pz (-adr_decomp
  px,py,pz), or PETSC_DECIDE for all three (-adr_decomp auto): the grid that
  cuts the least coupling (EasAdrSetUp, docs/adr.md).  The product must be
  the number of ranks; the planes per rank are checked at EasAdrSetUp.
@*/
PetscErrorCode EasAdrSetDecomposition(EasAdr adr, PetscInt px, PetscInt py, PetscInt pz)
{
  const PetscInt p[3] = {px, py, pz};
  PetscMPIInt    size;
  PetscInt       ndecide = 0;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCall(EasAdrCheckNotSetUp_Private(adr, "EasAdrSetDecomposition"));
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)adr), &size));
  for (PetscInt d = 0; d < 3; d++) ndecide += p[d] == PETSC_DECIDE;
  PetscCheck(ndecide == 0 || ndecide == 3, PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_WRONG, "EasAdrSetDecomposition (-adr_decomp): %" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT " is invalid: expected PETSC_DECIDE for all three (auto) or three counts >= 1", px, py, pz);
  if (!ndecide) {
    for (PetscInt d = 0; d < 3; d++) PetscCheck(p[d] >= 1, PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_OUTOFRANGE, "EasAdrSetDecomposition (-adr_decomp): %" PetscInt_FMT " ranks in %c is invalid: expected px,py,pz, counts >= 1 whose product is the number of ranks (%d), or auto", p[d], (char)('x' + d), size);
    PetscInt64 prod = 1;
    for (PetscInt d = 0; d < 3 && prod <= size; d++) prod *= p[d]; /* each factor <= 2^31 times a product <= size: no overflow */
    PetscCheck(prod == size, PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_INCOMP, "EasAdrSetDecomposition (-adr_decomp): %" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT " has %.0f ranks but the solver runs on %d: expected px,py,pz with px*py*pz = %d, or auto", px, py, pz, (double)px * py * pz, size, size);
  }
  for (PetscInt d = 0; d < 3; d++) adr->decomp[d] = p[d];
  PetscFunctionReturn(0);
}

/*@C EasAdrGetDecomposition - after EasAdrSetUp: ranks per direction and the coupling weights (NULL skips; -1 on one rank, where they are not evaluated). @*/
PetscErrorCode EasAdrGetDecomposition(EasAdr adr, PetscInt p[3], PetscReal w[3])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCall(EasAdrCheckSetUp_Private(adr, "EasAdrGetDecomposition"));
  for (PetscInt d = 0; d < 3; d++) {
    if (p) p[d] = adr->dims[d];
    if (w) w[d] = adr->decomp_w[d];
  }
  PetscFunctionReturn(0);
}

/*@C
  EasAdrSetOverlap - the overlap d of the multisplitting (-adr_overlap d,
  default 1): each rank solves its box extended by d planes on every face
  with a neighbour and keeps its own points of the solution (restricted
  additive Schwarz in the outer iteration, docs/adr.md); the halo carries
  d + 1 planes; 0 is block Jacobi.  Before EasAdrSetUp, which checks that
  every rank has d + 1 planes across each cut.
@*/
PetscErrorCode EasAdrSetOverlap(EasAdr adr, PetscInt d)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCall(EasAdrCheckNotSetUp_Private(adr, "EasAdrSetOverlap"));
  PetscCheck(d >= 0, PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_OUTOFRANGE, "EasAdrSetOverlap (-adr_overlap): %" PetscInt_FMT " is invalid: expected a number of planes >= 0", d);
  adr->overlap_opt = d;
  PetscFunctionReturn(0);
}

/*@C
  EasAdrSetOverlapPhased - with an overlap and ranks cut in two or three
  directions, whether the synchronous exchange goes one direction at a time
  (-adr_overlap_phased, default true), so that a corner block of the box
  (the diagonal neighbour's points) is current, as in PCASM, rather than one
  outer iteration old; it costs a message round per cut direction
  (docs/adr.md "Overlap").  The asynchronous iteration always sends every
  face at once.
@*/
PetscErrorCode EasAdrSetOverlapPhased(EasAdr adr, PetscBool phased)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  adr->phased = phased;
  PetscFunctionReturn(0);
}

/*@C EasAdrGetOverlapPhased - whether the synchronous exchange goes one cut direction at a time (EasAdrSetOverlapPhased). @*/
PetscErrorCode EasAdrGetOverlapPhased(EasAdr adr, PetscBool *phased)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscValidBoolPointer(phased, 2);
  *phased = adr->phased;
  PetscFunctionReturn(0);
}

/*@C EasAdrGetOverlap - the overlap in planes (EasAdrSetOverlap). @*/
PetscErrorCode EasAdrGetOverlap(EasAdr adr, PetscInt *d)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscValidIntPointer(d, 2);
  *d = adr->overlap_opt;
  PetscFunctionReturn(0);
}

/*@C
  EasAdrSetLagPreconditioner - how often the inner solver's preconditioner
  is rebuilt from the Newton iteration's Jacobian (PETSc's
  SNESSetLagPreconditioner; -adr_lag_preconditioner): 1 (default) at every
  Newton iteration; k > 1 at the first of each nonlinear solve (a step, a
  CVODE stage) and then every k-th, the Jacobian itself still new at each
  (the inner solves use it; only the preconditioner is older); -1 never
  after the first.  Errors: 0 or below -1; a value other than 1 with an
  inner preconditioner other than ilu (Jacobi is folded into the
  Jacobian's assembly: rebuilding it costs no extra pass).
@*/
PetscErrorCode EasAdrSetLagPreconditioner(EasAdr adr, PetscInt lag)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCheck(lag >= 1 || lag == -1, PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_OUTOFRANGE, "-adr_lag_preconditioner %" PetscInt_FMT " is invalid: expected 1 (rebuild at every Newton iteration), k > 1 (at the first of each nonlinear solve and every k-th) or -1 (never after the first)", lag);
  adr->pc_lag = lag;
  PetscFunctionReturn(0);
}

/*@C EasAdrGetLagPreconditioner - the preconditioner's lag (EasAdrSetLagPreconditioner). @*/
PetscErrorCode EasAdrGetLagPreconditioner(EasAdr adr, PetscInt *lag)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscValidIntPointer(lag, 2);
  *lag = adr->pc_lag;
  PetscFunctionReturn(0);
}

/*@C
  EasAdrSetLagJacobian - how often an implicit Euler step's Newton
  iterations rebuild the local Jacobian (PETSc's SNESSetLagJacobian;
  -adr_lag_jacobian): 1 (default) at every iteration; k > 1 at the first of
  each step's nonlinear solve and then every k-th, the iterations between
  keeping it (a chord method between rebuilds: F is new at every iteration,
  so the answer is the same to the outer tolerance); -1 only the first one
  ever (PETSc's -2).  A kept Jacobian keeps its preconditioner too.  It is
  rebuilt whatever the lag when the step size changed since it was built.
  In the asynchronous mode every local iteration counts.  Errors: 0 or
  below -1; a lag other than 1 with -adr_ts_type cvode, at EasAdrSetUp or,
  after it, here and in EasAdrSetTimeStepType (CVODE decides when its
  stages' Jacobians are rebuilt: -adr_ts_lag_jacobian,
  -adr_ts_reuse_jacobian).
@*/
PetscErrorCode EasAdrSetLagJacobian(EasAdr adr, PetscInt lag)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCheck(lag >= 1 || lag == -1, PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_OUTOFRANGE, "-adr_lag_jacobian %" PetscInt_FMT " is invalid: expected 1 (rebuild at every Newton iteration), k > 1 (at the first of each step's nonlinear solve and every k-th) or -1 (only the first one ever)", lag);
  if (adr->setupcalled) PetscCall(EasAdrCheckLagJacobian_Private(adr, adr->ts_type, lag));
  adr->jac_lag = lag;
  PetscFunctionReturn(0);
}

/* A Jacobian lag other than 1 with a stepper other than beuler: the error that names the option
   (EasAdrSetUp, and after it EasAdrSetLagJacobian and EasAdrSetTimeStepType) */
PetscErrorCode EasAdrCheckLagJacobian_Private(EasAdr adr, EasAdrTSType type, PetscInt lag)
{
  PetscFunctionBegin;
  PetscCheck(lag == 1 || type == EAS_ADR_TS_BEULER, PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_INCOMP, "-adr_lag_jacobian %" PetscInt_FMT " applies to -adr_ts_type beuler: CVODE decides when its stages' Jacobians are rebuilt (-adr_ts_lag_jacobian, -adr_ts_reuse_jacobian)", lag);
  PetscFunctionReturn(0);
}

/*@C EasAdrGetLagJacobian - the Jacobian's lag (EasAdrSetLagJacobian). @*/
PetscErrorCode EasAdrGetLagJacobian(EasAdr adr, PetscInt *lag)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscValidIntPointer(lag, 2);
  *lag = adr->jac_lag;
  PetscFunctionReturn(0);
}

/*@C
  EasAdrSetKspEW - Eisenstat-Walker inner tolerances on (-adr_ksp_ew) or off
  (default: every inner solve to -adr_ksp_rtol).  The forcing terms are
  PETSc's -snes_ksp_ew ones (msnewton.c, EasAdrEWForcing; docs/adr.md).
@*/
PetscErrorCode EasAdrSetKspEW(EasAdr adr, PetscBool use)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  adr->ew.use = use;
  PetscFunctionReturn(0);
}

/*@C EasAdrGetKspEW - whether the Eisenstat-Walker inner tolerances are on. @*/
PetscErrorCode EasAdrGetKspEW(EasAdr adr, PetscBool *use)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  *use = adr->ew.use;
  PetscFunctionReturn(0);
}

/*@C
  EasAdrSetKspEWParameters - the Eisenstat-Walker choices of PETSc's
  SNESKSPSetParametersEW (same ranges; PETSC_DEFAULT keeps a value): version
  1, 2 or 3 (-adr_ksp_ew_version), rtol_0 in [0, 1) (-adr_ksp_ew_rtol0),
  rtol_max in [0, 1) (-adr_ksp_ew_rtolmax), gamma in [0, 1]
  (-adr_ksp_ew_gamma), alpha in (1, 2] (-adr_ksp_ew_alpha), alpha2 in (1, 2]
  (-adr_ksp_ew_alpha2), threshold in (0, 1) (-adr_ksp_ew_threshold).
@*/
PetscErrorCode EasAdrSetKspEWParameters(EasAdr adr, PetscInt version, PetscReal rtol_0, PetscReal rtol_max, PetscReal gamma, PetscReal alpha, PetscReal alpha2, PetscReal threshold)
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

/*@C EasAdrGetKspEWParameters - the Eisenstat-Walker choices (NULL skips one). @*/
PetscErrorCode EasAdrGetKspEWParameters(EasAdr adr, PetscInt *version, PetscReal *rtol_0, PetscReal *rtol_max, PetscReal *gamma, PetscReal *alpha, PetscReal *alpha2, PetscReal *threshold)
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

/*@C
  EasAdrGetKsp - this rank's inner solver: the BiCGStab of the local Newton
  systems (options prefix adr_).  Borrowed (it lives as long as adr); set
  it through the EasAdr's options and setters, which EasAdrSetUp applies.
@*/
PetscErrorCode EasAdrGetKsp(EasAdr adr, EasKsp *ksp)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscValidPointer(ksp, 2);
  *ksp = adr->ksp;
  PetscFunctionReturn(0);
}

/*@C EasAdrGetStats - iterations, messages and time (see EasAdrStats). @*/
PetscErrorCode EasAdrGetStats(EasAdr adr, EasAdrStats *st)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  *st           = adr->stats;
  st->pc_builds = 0;
  st->jacobians = adr->stats_jac;
  if (adr->ksp) PetscCall(EasKspGetPCBuilds(adr->ksp, &st->pc_builds));
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
  if (xs) *xs = adr->xso[0]; /* the own box: the rank's part of the global vector (an overlap's planes are solved, not owned) */
  if (ys) *ys = adr->xso[1];
  if (zs) *zs = adr->xso[2];
  if (nxl) *nxl = adr->nlo[0];
  if (nyl) *nyl = adr->nlo[1];
  if (nzl) *nzl = adr->nlo[2];
  PetscFunctionReturn(0);
}

PetscErrorCode EasAdrGetLocalPointCoordinates(EasAdr adr, PetscInt p, PetscReal xyz[3])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCall(EasAdrCheckSetUp_Private(adr, "EasAdrGetLocalPointCoordinates"));
  PetscCheck(p >= 0 && p < adr->npo, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "EasAdrGetLocalPointCoordinates: point %" PetscInt_FMT " is outside [0, %" PetscInt_FMT ")", p, adr->npo);
  EasAdrCoordinates(adr, adr->xso[0] + p % adr->nlo[0], adr->xso[1] + (p / adr->nlo[0]) % adr->nlo[1], adr->xso[2] + p / (adr->nlo[0] * adr->nlo[1]), xyz);
  PetscFunctionReturn(0);
}

PetscErrorCode EasAdrGetLocalSolution(EasAdr adr, const PetscScalar *x[], PetscInt *n)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCall(EasAdrCheckSetUp_Private(adr, "EasAdrGetLocalSolution"));
  PetscCall(EasAdrStateSyncHost_Private(adr));
  if (adr->overlap) PetscCall(EasAdrOwnFromBox_Private(adr, adr->x, adr->xown)); /* the own points */
  *x = adr->overlap ? adr->xown : adr->x;
  if (n) *n = adr->no;
  PetscFunctionReturn(0);
}

/*@C EasAdrCreateGlobalVec - a Vec (block size 2) with the solver's global layout. @*/
PetscErrorCode EasAdrCreateGlobalVec(EasAdr adr, Vec *X)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCall(EasAdrCheckSetUp_Private(adr, "EasAdrCreateGlobalVec"));
  PetscCall(VecCreateMPI(PetscObjectComm((PetscObject)adr), adr->no, PETSC_DETERMINE, X));
  PetscCall(VecSetBlockSize(*X, 2));
  PetscFunctionReturn(0);
}

PetscErrorCode EasAdrCheckVec_Private(EasAdr adr, Vec X, const char fn[])
{
  PetscInt n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(X, &n));
  PetscCheck(n == adr->no, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "%s: the Vec has %" PetscInt_FMT " local entries, expected %" PetscInt_FMT " (use EasAdrCreateGlobalVec())", fn, n, adr->no);
  PetscFunctionReturn(0);
}

PetscErrorCode EasAdrGetSolution(EasAdr adr, Vec X)
{
  PetscScalar *xa;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCall(EasAdrCheckSetUp_Private(adr, "EasAdrGetSolution"));
  PetscCall(EasAdrCheckVec_Private(adr, X, "EasAdrGetSolution"));
  PetscCall(EasAdrStateSyncHost_Private(adr));
  PetscCall(VecGetArrayWrite(X, &xa));
  PetscCall(EasAdrOwnFromBox_Private(adr, adr->x, xa));
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
  PetscCall(EasAdrStateSyncHost_Private(adr)); /* with an overlap its points are kept (the next exchange renews them) */
  PetscCall(EasAdrBoxFromOwn_Private(adr, xa, adr->x));
  PetscCall(VecRestoreArrayRead(X, &xa));
  PetscCall(EasAdrStateHostWritten_Private(adr));
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
  if (adr->ts->view) PetscCall((*adr->ts->view)(adr, viewer));
  PetscCall(PetscViewerASCIIPrintf(viewer, "local Jacobian values read by the inner solver: %s precision\n", EasPrecisions[adr->jac_prec]));
  if (adr->jac_lag != 1) PetscCall(PetscViewerASCIIPrintf(viewer, "local Jacobian lagged (-adr_lag_jacobian %" PetscInt_FMT "): rebuilt %s, and when the step size changes; %" PetscInt_FMT " assembled on this rank so far\n", adr->jac_lag, adr->jac_lag == -1 ? "once, never after" : "at Newton iterations 0, k, 2k, ... of each step", adr->stats_jac));
  if (adr->pc_lag != 1) PetscCall(PetscViewerASCIIPrintf(viewer, "inner preconditioner lagged (-adr_lag_preconditioner %" PetscInt_FMT "): rebuilt %s; %s\n", adr->pc_lag, adr->pc_lag == -1 ? "once, never after" : "at Newton iterations 0, k, 2k, ... of each nonlinear solve", adr->jac_lag == 1 ? "the Jacobian new at every Newton iteration" : "and only with a new Jacobian"));
  if (adr->ew.use) PetscCall(PetscViewerASCIIPrintf(viewer, "inner tolerances: Eisenstat-Walker version %" PetscInt_FMT ", rtol_0 %g, rtol_max %g, gamma %g, alpha %g, alpha2 %g, threshold %g (per rank, from its ||F_l||)\n", adr->ew.version, (double)adr->ew.rtol_0, (double)adr->ew.rtol_max, (double)adr->ew.gamma, (double)adr->ew.alpha, (double)adr->ew.alpha2, (double)adr->ew.threshold));
  if (adr->mode_auto) {
    const EasAdrAutoInfo *ai = &adr->auto_info;
    if (!adr->auto_decided)
      PetscCall(PetscViewerASCIIPrintf(viewer, "mode auto (%s rule): not decided yet\n", EasAdrAutoRules[adr->auto_rule]));
    else if (adr->auto_rule == EAS_ADR_AUTO_THRESHOLD || adr->size == 1)
      PetscCall(PetscViewerASCIIPrintf(viewer, "mode auto (%s rule): %s chosen after the first step (exchange share %.3g, threshold %.3g)\n", EasAdrAutoRules[adr->auto_rule], adr->mode == EAS_ADR_ASYNC ? "async" : "sync", (double)adr->auto_share, (double)adr->auto_threshold));
    else
      PetscCall(PetscViewerASCIIPrintf(viewer, "mode auto (frontier rule, criterion %s): sync step T=%.4g s Pbar=%.4g W, async step T=%.4g s Pbar=%.4g W (%s); alpha = T_sync/T_async = %.4g %s frontier %.4g (Vialle et al. eq. 1.50) -> %s\n", EasCriterions[adr->auto_crit], (double)ai->T[0], (double)ai->P[0], (double)ai->T[1], (double)ai->P[1], ai->Emeasured ? (ai->Emixed ? "measured+modelled" : "measured") : "modelled", (double)ai->alpha, ai->alpha > ai->frontier ? ">" : "<=", (double)ai->frontier, adr->mode == EAS_ADR_ASYNC ? "async" : "sync"));
  }
  if (adr->mode == EAS_ADR_ASYNC) PetscCall(PetscViewerASCIIPrintf(viewer, "async: detection %s, timeout %g s, persistence %" PetscInt_FMT ", reception %s, iterate on ghosts moved > %g x rtol\n", adr->async_detect == EAS_DETECT_IALLREDUCE ? "iallreduce (2 rounds)" : "decentralized (tree election, 2 verification waves)", (double)adr->async_detect_timeout, adr->persist, adr->async_thread ? "thread" : "polling", (double)adr->async_halo_rtol));
  if (adr->delay_us > 0 || adr->jitter_us > 0) PetscCall(PetscViewerASCIIPrintf(viewer, "fault injection: delay %g us + jitter U(0, %g) us, seed %" PetscInt_FMT "\n", (double)adr->delay_us, (double)adr->jitter_us, adr->comm_seed));
  if (adr->setupcalled) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "decomposition %d x %d x %d ranks (%s); rank 0 box %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT "\n", adr->dims[0], adr->dims[1], adr->dims[2], adr->decomp[0] == PETSC_DECIDE ? "auto: least coupling cut" : "-adr_decomp", adr->nlo[0], adr->nlo[1], adr->nlo[2]));
    if (adr->overlap) PetscCall(PetscViewerASCIIPrintf(viewer, "overlap %" PetscInt_FMT " planes per face with a neighbour (restricted additive Schwarz): rank 0 solves a %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT " box, keeps its own points\n", adr->overlap, adr->nl[0], adr->nl[1], adr->nl[2]));
    if (adr->decomp_w[0] >= 0) PetscCall(PetscViewerASCIIPrintf(viewer, "coupling weights max dt (|V_d|/h_d + 2 K_d/h_d^2) at setup: x %.4g y %.4g z %.4g\n", (double)adr->decomp_w[0], (double)adr->decomp_w[1], (double)adr->decomp_w[2]));
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
    PetscCall(PetscViewerASCIIPrintf(viewer, "synchronous exchanges of planes %" PetscInt_FMT " (rank 0; with -adr_overlap an implicit Euler stage's exchange of x_old is also its first outer iteration's)\n", st.exchanges));
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
  if (a->ts->destroy) PetscCall((*a->ts->destroy)(a));
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
  PetscCall(EasVecDestroy(&a->x_v));
  PetscCall(EasVecDestroy(&a->planes_v));
  PetscCall(EasVecDestroy(&a->ghosts_v));
  PetscCall(EasVecDestroy(&a->bval_v));
  PetscCall(EasVecDestroy(&a->ewt_v));
  for (PetscInt d = 0; d < 3; d++) PetscCall(PetscFree(a->starts[d]));
  PetscCall(PetscFree(a->xown));
  PetscCall(PetscFree(a->rw));
  PetscCall(EasVecDestroy(&a->rw_v));
  PetscCall(PetscFree4(a->bx, a->bxo, a->bf, a->bewt));
  PetscCall(PetscFree(a->rank_rstart));
  if (a->cart != MPI_COMM_NULL) PetscCallMPI(MPI_Comm_free(&a->cart));
  PetscCall(PetscHeaderDestroy(adr));
  PetscFunctionReturn(0);
}
