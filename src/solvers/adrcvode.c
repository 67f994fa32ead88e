/*
  -adr_ts_type cvode: the ADR solver's time stepping by SUNDIALS CVODE
  (variable-order BDF, orders 1..-adr_ts_max_order, local error control with
  -adr_ts_rtol and -adr_ts_atol), whose implicit stages are solved by eas's
  multisplitting Newton (adrnls.c).  CVODE sees the semi-discrete system
  dc/dt = f(t, c) of adrassemble.c on nvector_parallel over each rank's box:
  f is eas's own discretization, evaluated with the residual body of the
  implicit Euler system F = x_old - x + dt f with x_old = x and dt = 1
  (exactly f: x - x is 0 in floating point).
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
  PetscFunctionBegin;
  PetscCall(EasAdrMeterBegin(adr, EAS_PHASE_EXCHANGE));
  PetscCall(EasAdrPackFaces_Private(adr, y));
  PetscCall(EasHaloExchangeSync(adr->halo, PETSC_TRUE));
  PetscCall(EasAdrMeterEnd(adr, EAS_PHASE_EXCHANGE, adr->halo_scalars));
  PetscCall(EasAdrMeterBegin(adr, EAS_PHASE_SETUP));
  if (t != adr->coef_t) PetscCall(EasAdrUpdateCoefficients_Private(adr, t));
  PetscCall(EasAdrLocalFunction_Private(adr, t, 1.0, y, y, ydot, bad));
  PetscCall(EasAdrMeterEnd(adr, EAS_PHASE_SETUP, adr->np));
  adr->ghosts_current = PETSC_FALSE; /* they hold y, not the state */
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

/* EasAdrCVodeSetUp_Private - CVODE on the current state and time (or
   re-initialized there when the state changed outside CVODE). */
PetscErrorCode EasAdrCVodeSetUp_Private(EasAdr adr)
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
    y           = N_VNew_Parallel(adr->cart, (sunindextype)adr->n, (sunindextype)(2 * adr->N[0] * adr->N[1] * adr->N[2]), ctx);
    PetscCheck(y, PETSC_COMM_SELF, PETSC_ERR_MEM, "N_VNew_Parallel failed");
    adr->cv_y = y;
    PetscCall(PetscArraycpy(N_VGetArrayPointer(y), adr->x, adr->n));
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
    PetscCall(PetscArraycpy(N_VGetArrayPointer(y), adr->x, adr->n));
    EasCallCVODE(CVodeReInit(adr->cv_mem, adr->t, y));
    adr->cv_reinit = PETSC_FALSE;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode EasAdrCVodeDestroy_Private(EasAdr adr)
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
  EasAdrCVodeAdvance_Private - CVODE from adr->t to tout (one_step: one
  internal step toward it instead), stopping exactly at tout; the state
  comes back into adr->x and adr->t.  A CVODE failure is a reason
  (EAS_ADR_DIVERGED_TS, the message in -info and the monitor), a PETSc error
  inside it an error.
*/
PetscErrorCode EasAdrCVodeAdvance_Private(EasAdr adr, PetscReal tout, PetscBool one_step)
{
  N_Vector y;
  realtype tret = adr->t;
  int      flag;

  PetscFunctionBegin;
  PetscCall(EasAdrCVodeSetUp_Private(adr));
  y              = (N_Vector)adr->cv_y;
  adr->cv_error  = 0;
  adr->cv_msg[0] = 0;
  EasCallCVODE(CVodeSetStopTime(adr->cv_mem, tout));
  flag = CVode(adr->cv_mem, tout, y, &tret, one_step ? CV_ONE_STEP : CV_NORMAL);
  PetscCall(adr->cv_error); /* a PETSc error inside CVODE's callbacks */
  if (flag >= 0) {
    PetscCall(PetscArraycpy(adr->x, N_VGetArrayPointer(y), adr->n));
    adr->t      = tret;
    adr->reason = adr->mode == EAS_ADR_ASYNC && adr->size > 1 ? EAS_ADR_CONVERGED_ASYNC : EAS_ADR_CONVERGED_DX;
  } else {
    adr->reason = EAS_ADR_DIVERGED_TS;
    PetscCall(PetscInfo(adr, "CVODE failed with %d at t = %g: %s\n", flag, (double)tret, adr->cv_msg));
    PetscCall(PetscArraycpy(N_VGetArrayPointer(y), adr->x, adr->n));
    adr->cv_reinit = PETSC_TRUE; /* restart from the last state it returned */
  }
  adr->ghosts_current = PETSC_FALSE;
  PetscFunctionReturn(0);
}

PetscErrorCode EasAdrCVodeGetStats_Private(EasAdr adr, EasAdrTSStats *st)
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
#else
PetscErrorCode EasAdrCVodeAdvance_Private(EasAdr adr, PetscReal tout, PetscBool one_step)
{
  PetscFunctionBegin;
  (void)tout;
  (void)one_step;
  SETERRQ(PetscObjectComm((PetscObject)adr), PETSC_ERR_SUP, "-adr_ts_type cvode: SUNDIALS CVODE is not compiled in (install libsundials-dev and rebuild eas)");
}
PetscErrorCode EasAdrCVodeDestroy_Private(EasAdr adr)
{
  PetscFunctionBegin;
  (void)adr;
  PetscFunctionReturn(0);
}
PetscErrorCode EasAdrCVodeGetStats_Private(EasAdr adr, EasAdrTSStats *st)
{
  PetscFunctionBegin;
  (void)adr;
  (void)st;
  PetscFunctionReturn(0);
}
#endif
