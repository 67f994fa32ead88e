/*
  -adr_ts_type cvode: the ADR solver's time stepping by SUNDIALS CVODE
  (variable-order BDF, orders 1..-adr_ts_max_order, local error control with
  -adr_ts_rtol and -adr_ts_atol), whose implicit stages are solved by eas's
  multisplitting Newton (adrnls.c).  CVODE sees the semi-discrete system
  dc/dt = f(t, c) of adrassemble.c on nvector_parallel over each rank's box:
  f is eas's own discretization, evaluated with the residual body of the
  implicit Euler system F = x_old - x + dt f with x_old = x and dt = 1
  (exactly f: x - x is 0 in floating point).  The stepper's operations,
  EasAdrTS_CVode (adrimpl.h), are at the end.
*/
#include "adrimpl.h"

#if defined(EAS_HAVE_SUNDIALS)
#  include <cvode/cvode.h>
#  include <nvector/nvector_parallel.h>
#  include <sundials/sundials_context.h>
#  include <sundials/sundials_nonlinearsolver.h>

/* f(t, y) on this rank: halo exchange of y, coefficients at t, the residual
   body with x_old = y and dt = 1 (collective: CVODE calls it on every rank). */
static PetscErrorCode EasAdrCVodeRHS_Private(EasAdr adr, PetscReal t, const PetscScalar *y, PetscScalar *ydot, PetscBool *bad)
{
  const PetscScalar *yb = adr->overlap ? adr->bx : y; /* y on the box: the own points, the neighbours' on an overlap */

  PetscFunctionBegin;
  PetscCall(EasAdrMeterBegin(adr, EAS_PHASE_EXCHANGE));
  PetscCall(EasAdrBoxFromOwnHalo_Private(adr, y, (PetscScalar *)yb, PETSC_TRUE));
  PetscCall(EasAdrMeterEnd(adr, EAS_PHASE_EXCHANGE, adr->halo_scalars));
  PetscCall(EasAdrMeterBegin(adr, EAS_PHASE_SETUP));
  if (t != adr->coef_t) PetscCall(EasAdrUpdateCoefficients_Private(adr, t));
  if (!adr->overlap) PetscCall(EasAdrLocalFunction_Private(adr, t, 1.0, y, y, ydot, bad));
  else {
    PetscCall(EasAdrLocalFunction_Private(adr, t, 1.0, yb, yb, adr->bf, bad));
    PetscCall(EasAdrOwnFromBox_Private(adr, adr->bf, ydot));
  }
  PetscCall(EasAdrMeterEnd(adr, EAS_PHASE_SETUP, adr->np));
  PetscFunctionReturn(0);
}

/* CVRhsFn: 0, 1 (recoverable: NaN/Inf, CVODE retries with a smaller step)
   or -1 (a PETSc error, kept in adr->cv_error). */
static int EasAdrCVodeRHS(realtype t, N_Vector y, N_Vector ydot, void *ud)
{
  EasAdr         adr = (EasAdr)ud;
  PetscErrorCode ierr;
  PetscBool      bad = PETSC_FALSE;

  EasCaptureError(ierr, EasAdrCVodeRHS_Private(adr, (PetscReal)t, N_VGetArrayPointer(y), N_VGetArrayPointer(ydot), &bad));
  if (ierr) {
    adr->cv_error = ierr;
    return -1;
  }
  return bad ? 1 : 0;
}

/* CVODE's messages go to PetscInfo; the last error is kept for the report. */
static void EasAdrCVodeErrHandler(int code, const char *module, const char *function, char *msg, void *ud)
{
  EasAdr adr = (EasAdr)ud;
  (void)PetscInfo(adr, "%s %s (%d): %s\n", module, function, code, msg);
  if (code < 0) (void)PetscStrncpy(adr->cv_msg, msg, sizeof(adr->cv_msg));
}

#  define EasCallCVODE(call)                                                                           \
    do {                                                                                               \
      int cv_ierr_ = (call);                                                                           \
      PetscCheck(cv_ierr_ >= 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "%s failed with %d", #call, cv_ierr_); \
    } while (0)

/* EasAdrCVodeSetUp - CVODE on the current state and time (or
   re-initialized there when the state changed outside CVODE). */
static PetscErrorCode EasAdrCVodeSetUp(EasAdr adr)
{
  PetscFunctionBegin;
  if (!adr->cv_mem) {
    SUNContext         ctx;
    N_Vector           y;
    void              *cv;
    SUNNonlinearSolver nls;
    MPI_Comm           comm = adr->cart;
    EasCallCVODE(SUNContext_Create((void *)&comm, &ctx));
    adr->cv_ctx = ctx;
    y           = N_VNew_Parallel(adr->cart, (sunindextype)adr->no, (sunindextype)(2 * adr->N[0] * adr->N[1] * adr->N[2]), ctx); /* the own points */
    PetscCheck(y, PETSC_COMM_SELF, PETSC_ERR_MEM, "N_VNew_Parallel failed");
    adr->cv_y = y;
    PetscCall(EasAdrStateSyncHost_Private(adr));
    PetscCall(EasAdrOwnFromBox_Private(adr, adr->x, N_VGetArrayPointer(y)));
    cv = CVodeCreate(CV_BDF, ctx);
    PetscCheck(cv, PETSC_COMM_SELF, PETSC_ERR_MEM, "CVodeCreate failed");
    adr->cv_mem = cv;
    EasCallCVODE(CVodeSetErrHandlerFn(cv, EasAdrCVodeErrHandler, adr));
    EasCallCVODE(CVodeInit(cv, EasAdrCVodeRHS, adr->t, y));
    EasCallCVODE(CVodeSetUserData(cv, adr));
    EasCallCVODE(CVodeSStolerances(cv, adr->ts_rtol, adr->ts_atol));
    EasCallCVODE(CVodeSetMaxOrd(cv, (int)adr->ts_max_order));
    EasCallCVODE(CVodeSetMaxNumSteps(cv, (long int)adr->ts_max_steps));
    PetscCall(EasAdrNLSCreate_Private(adr, ctx, &adr->cv_nls));
    nls = (SUNNonlinearSolver)adr->cv_nls;
    EasCallCVODE(CVodeSetNonlinearSolver(cv, nls));
    if (adr->ts_max_newton_it == PETSC_DECIDE) adr->ts_max_newton_it = adr->size > 1 ? 10 : 3; /* one rank: Newton's quadratic rate; several: linear between the boxes */
    EasCallCVODE(CVodeSetMaxNonlinIters(cv, (int)adr->ts_max_newton_it));
    adr->cv_reinit = PETSC_FALSE;
  } else if (adr->cv_reinit) {
    N_Vector y = (N_Vector)adr->cv_y;
    PetscCall(EasAdrStateSyncHost_Private(adr));
    PetscCall(EasAdrOwnFromBox_Private(adr, adr->x, N_VGetArrayPointer(y)));
    EasCallCVODE(CVodeReInit(adr->cv_mem, adr->t, y));
    adr->cv_reinit = PETSC_FALSE;
  }
  PetscFunctionReturn(0);
}

/* cvode's destroy: CVODE, its vector, its nonlinear solver and its context. */
static PetscErrorCode EasAdrTSDestroy_CVode(EasAdr adr)
{
  PetscFunctionBegin;
  if (adr->cv_mem) CVodeFree(&adr->cv_mem);
  if (adr->cv_nls) SUNNonlinSolFree((SUNNonlinearSolver)adr->cv_nls);
  adr->stage.dx_host = NULL; /* freed with the nonlinear solver */
  if (adr->cv_y) N_VDestroy((N_Vector)adr->cv_y);
  if (adr->cv_ctx) {
    SUNContext ctx = (SUNContext)adr->cv_ctx;
    SUNContext_Free(&ctx);
  }
  adr->cv_mem = adr->cv_nls = adr->cv_y = adr->cv_ctx = NULL;
  PetscFunctionReturn(0);
}

/*
  EasAdrCVodeAdvance - CVODE from adr->t to tout (one_step: one
  internal step toward it instead), stopping exactly at tout; the state
  comes back into adr->x and adr->t.  A CVODE failure is a reason
  (EAS_ADR_DIVERGED_TS, the message in -info and the monitor), a PETSc error
  inside it an error.
*/
static PetscErrorCode EasAdrCVodeAdvance(EasAdr adr, PetscReal tout, PetscBool one_step)
{
  N_Vector y;
  realtype tret = adr->t;
  int      flag;

  PetscFunctionBegin;
  PetscCall(EasAdrCVodeSetUp(adr));
  y              = (N_Vector)adr->cv_y;
  adr->cv_error  = 0;
  adr->cv_msg[0] = 0;
  EasCallCVODE(CVodeSetStopTime(adr->cv_mem, tout));
  flag = CVode(adr->cv_mem, tout, y, &tret, one_step ? CV_ONE_STEP : CV_NORMAL);
  PetscCall(adr->cv_error); /* a PETSc error inside CVODE's callbacks */
  if (flag >= 0) {
    PetscCall(EasAdrStateSyncHost_Private(adr)); /* an overlap's points stay (the next exchange renews them) */
    PetscCall(EasAdrBoxFromOwn_Private(adr, N_VGetArrayPointer(y), adr->x));
    PetscCall(EasAdrStateHostWritten_Private(adr));
    adr->t      = tret;
    adr->reason = adr->mode == EAS_ADR_ASYNC && adr->size > 1 ? EAS_ADR_CONVERGED_ASYNC : EAS_ADR_CONVERGED_DX;
  } else {
    adr->reason = EAS_ADR_DIVERGED_TS;
    PetscCall(PetscInfo(adr, "CVODE failed with %d at t = %g: %s\n", flag, (double)tret, adr->cv_msg));
    PetscCall(EasAdrStateSyncHost_Private(adr));
    PetscCall(EasAdrOwnFromBox_Private(adr, adr->x, N_VGetArrayPointer(y)));
    adr->cv_reinit = PETSC_TRUE; /* restart from the last state it returned */
  }
  adr->ghosts_current = PETSC_FALSE;
  PetscFunctionReturn(0);
}

/* cvode's statistics (zeros before the first step). */
static PetscErrorCode EasAdrTSGetStats_CVode(EasAdr adr, EasAdrTSStats *st)
{
  long int v;
  int      q;
  realtype h;

  PetscFunctionBegin;
  if (!adr->cv_mem) PetscFunctionReturn(0);
  EasCallCVODE(CVodeGetNumSteps(adr->cv_mem, &v));
  st->steps = (PetscInt)v;
  EasCallCVODE(CVodeGetNumErrTestFails(adr->cv_mem, &v));
  st->err_test_fails = (PetscInt)v;
  EasCallCVODE(CVodeGetNumNonlinSolvIters(adr->cv_mem, &v));
  st->nonlin_its = (PetscInt)v;
  EasCallCVODE(CVodeGetNumNonlinSolvConvFails(adr->cv_mem, &v));
  st->nonlin_conv_fails = (PetscInt)v;
  EasCallCVODE(CVodeGetNumRhsEvals(adr->cv_mem, &v));
  st->rhs_evals = (PetscInt)v;
  if (st->steps > 0) {
    EasCallCVODE(CVodeGetLastOrder(adr->cv_mem, &q));
    EasCallCVODE(CVodeGetLastStep(adr->cv_mem, &h));
    st->last_order = q;
    st->last_step  = h;
  }
  PetscFunctionReturn(0);
}
/* cvode's step: one internal CVODE step toward tout (not beyond it). */
static PetscErrorCode EasAdrTSStep_CVode(EasAdr adr, PetscReal tout)
{
  PetscFunctionBegin;
  PetscCall(EasAdrCVodeAdvance(adr, tout, PETSC_TRUE));
  PetscFunctionReturn(0);
}

/* cvode's advance: CVODE from adr->t to tout exactly (its stop time), one call. */
static PetscErrorCode EasAdrTSAdvance_CVode(EasAdr adr, PetscReal tout, PetscReal t_start, PetscReal t_end, PetscInt *step, PetscInt *nconv)
{
  PetscLogDouble t0;
  EasAdrTSStats  before = {0, 0, 0, 0, 0, 0, 0}, after = before;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(EAS_AdrStep, adr, 0, 0, 0));
  PetscCall(EasEnergyMeterResume(adr->meter));
  PetscCall(PetscTime(&t0));
  PetscCall(EasAdrTSGetStats_CVode(adr, &before));
  adr->last_outer = adr->last_inner = 0;
  {
    PetscErrorCode ierr;
    EasCaptureError(ierr, EasAdrCVodeAdvance(adr, tout, PETSC_FALSE));
    if (ierr) PetscCall(PetscLogEventEnd(EAS_AdrStep, adr, 0, 0, 0));
    PetscCall(ierr);
  }
  PetscCall(EasAdrTSGetStats_CVode(adr, &after));
  adr->stats.steps += after.steps - before.steps;
  *step += after.steps - before.steps;
  PetscCall(PetscTimeSubtract(&t0));
  adr->last_time = -t0;
  PetscCall(PetscLogEventEnd(EAS_AdrStep, adr, 0, 0, 0));
  PetscCall(EasAdrMonitor_Private(adr, *step, t_start, t_end, adr->last_time));
  if (adr->reason > 0) {
    *nconv += after.steps - before.steps;
    PetscCall(EasAdrCallHooks_Private(adr, EAS_HOOK_STEP, *nconv, PETSC_DECIDE));
  }
  PetscFunctionReturn(0);
}

/* cvode's create: CVODE (re)starts from the current state and time. */
static PetscErrorCode EasAdrTSCreate_CVode(EasAdr adr)
{
  PetscFunctionBegin;
  adr->cv_reinit = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/* cvode chooses its steps: their number is not known ahead */
static PetscErrorCode EasAdrTSNumSteps_CVode(EasAdr adr, PetscReal t_start, PetscReal t_end, PetscInt *n)
{
  PetscFunctionBegin;
  (void)adr;
  (void)t_start;
  (void)t_end;
  *n = PETSC_DECIDE;
  PetscFunctionReturn(0);
}

static PetscErrorCode EasAdrTSMonitor_CVode(EasAdr adr, PetscInt step, PetscLogDouble seconds, const PetscInt its[2])
{
  EasAdrTSStats ts = {0, 0, 0, 0, 0, 0, 0};

  PetscFunctionBegin;
  (void)step;
  PetscCall(EasAdrTSGetStats_CVode(adr, &ts));
  PetscCall(PetscPrintf(PetscObjectComm((PetscObject)adr), "  t %-12.6g cvode steps %5" PetscInt_FMT " order %" PetscInt_FMT " h %-10.4g err-test fails %3" PetscInt_FMT " nonlinear its %5" PetscInt_FMT " (fails %" PetscInt_FMT ") outer %5" PetscInt_FMT " inner %6" PetscInt_FMT " time %.3f s %s\n", (double)adr->t, ts.steps, ts.last_order, (double)ts.last_step, ts.err_test_fails, ts.nonlin_its, ts.nonlin_conv_fails, its[0], its[1], (double)seconds, EasAdrConvergedReasonName(adr->reason)));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasAdrTSFailed_CVode(EasAdr adr, PetscInt step)
{
  PetscFunctionBegin;
  (void)step;
  PetscCall(PetscPrintf(PetscObjectComm((PetscObject)adr), "EasAdrSolve: CVODE stopped at t = %g: %s%s%s\n", (double)adr->t, EasAdrConvergedReasonName(adr->reason), adr->cv_msg[0] ? ": " : "", adr->cv_msg));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasAdrTSView_CVode(EasAdr adr, PetscViewer viewer)
{
  EasAdrTSStats ts = {0, 0, 0, 0, 0, 0, 0};

  PetscFunctionBegin;
  PetscCall(EasAdrTSGetStats_CVode(adr, &ts));
  PetscCall(PetscViewerASCIIPrintf(viewer, "CVODE BDF orders 1-%" PetscInt_FMT ", rtol %g, atol %g: t = %g, %" PetscInt_FMT " steps (last order %" PetscInt_FMT ", h %g), %" PetscInt_FMT " error-test failures, %" PetscInt_FMT " nonlinear iterations (%" PetscInt_FMT " failures), %" PetscInt_FMT " right-hand sides\n", adr->ts_max_order, (double)adr->ts_rtol, (double)adr->ts_atol, (double)adr->t, ts.steps, ts.last_order, (double)ts.last_step, ts.err_test_fails, ts.nonlin_its, ts.nonlin_conv_fails, ts.rhs_evals));
  PetscCall(PetscViewerASCIIPrintf(viewer, "stages by the multisplitting Newton (%s), CVODE's convergence test, at most %" PetscInt_FMT " %s per stage\n", adr->mode == EAS_ADR_ASYNC ? "async" : "sync", adr->ts_max_newton_it, adr->mode == EAS_ADR_ASYNC ? "synchronous checks" : "outer iterations"));
  if (adr->ts_eps_lin > 0 && adr->jac_fold && !adr->ew.use)
    PetscCall(PetscViewerASCIIPrintf(viewer, "inner solves to CVODE's linear tolerance: ||W r||_RMS <= %g x the stage's Newton tolerance (W: CVODE's error weights at the Jacobian's state, in the rows and columns of the inner system), or at -adr_ksp_rtol\n", (double)adr->ts_eps_lin));
  else
    PetscCall(PetscViewerASCIIPrintf(viewer, "inner solves to -adr_ksp_rtol (%s)\n", adr->ts_eps_lin == 0 ? "-adr_ts_eps_lin 0" : (adr->ew.use ? "-adr_ksp_ew" : "the Jacobi preconditioner not folded into the assembly")));
  PetscFunctionReturn(0);
}

const EasAdrTSOps EasAdrTS_CVode = {EasAdrTSCreate_CVode, NULL, EasAdrTSStep_CVode, EasAdrTSAdvance_CVode, EasAdrTSNumSteps_CVode, EasAdrTSMonitor_CVode, EasAdrTSFailed_CVode, EasAdrTSView_CVode, EasAdrTSGetStats_CVode, EasAdrTSDestroy_CVode};
#else
/* Without SUNDIALS the stepper refuses to be set (-adr_ts_type cvode). */
static PetscErrorCode EasAdrTSCreate_CVode(EasAdr adr)
{
  PetscFunctionBegin;
  SETERRQ(PetscObjectComm((PetscObject)adr), PETSC_ERR_SUP, "-adr_ts_type cvode: SUNDIALS CVODE is not compiled in (install libsundials-dev and rebuild eas)");
}

const EasAdrTSOps EasAdrTS_CVode = {EasAdrTSCreate_CVode, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
#endif
