/*
  SUNNonlinearSolver "EasMSNewton": eas's multisplitting Newton as CVODE's
  nonlinear solver (CVodeSetNonlinearSolver; SUNDIALS' plug-in point, CVODE
  itself untouched).

  At each stage of its variable-order BDF method CVODE must solve, for the
  correction ycor = y - ypred (CVodeGetNonlinearSystemData),
      G(ycor) = rl1 zn1 + ycor - gamma f(t, ypred + ycor) = 0,
  that is   y - gamma f(t, y) = a   with   a = ypred - rl1 zn1.
  This is the implicit Euler system of Vialle et al. eq. 1.43,
  F(y) = a - y + gamma f(t, y) = 0, with x_old = a and dt = gamma, so the
  local DIA Jacobians I - gamma f'_ll, the halos and both modes (sync,
  async) carry over unchanged (msnewton.c solves adr->stage).

  Convergence is CVODE's own test (the function given by setctestfn, from
  the weighted RMS norm of the Newton update with CVODE's error weights and
  its rate estimate), called after every synchronous outer iteration: every
  outer iteration in sync mode, every synchronous check in async mode.  In
  async mode a rank votes converged when the local weighted RMS norm of its
  update is below CVODE's tolerance; the check then applies CVODE's test
  to the global update.  At most setmaxiters synchronous iterations (or
  checks); a failure is SUN_NLS_CONV_RECVR, so CVODE retries with a smaller
  step.

  Vectors: CVODE runs on nvector_parallel over the rank's host state (its
  box, the solver's local layout): CVODE's vector operations are host
  loops and MPI reductions, as are the halo exchange and the state x that
  the assembly reads; on a GPU backend only the padded state and the stage's
  a go up per iteration, as with implicit Euler.
*/
#include "adrimpl.h"

#if defined(EAS_HAVE_SUNDIALS)
#  include <sundials/sundials_nonlinearsolver.h>
#  include <nvector/nvector_parallel.h>
#  include <cvode/cvode.h>

typedef struct {
  EasAdr                 adr;
  SUNNonlinSolConvTestFn ctest;
  void                  *ctest_data;
  int                    maxiters, curiter;
  long int               niters, nconvfails; /* of the latest solve */
  /* the stage being solved */
  N_Vector  ycor, ewt, ypred, delta; /* delta wraps dx */
  realtype  tol;
  PetscBool error; /* a PETSc error inside the solve */
  /* CVODE's rules for its linear solver's setup, applied by eas (EasNLSSetupDue) */
  PetscReal gamma_p;       /* gamma at the last setup */
  long int  nst_p, netf_p; /* CVODE's steps at the last setup, its error-test failures at the last stage */
  PetscBool failed_last;   /* the last stage failed to converge */
} EasNLS;

/* CVODE's constants of its decision to call the linear solver's setup
   (cvode.c: DGMAX_LSETUP_DEFAULT, MSBP_DEFAULT) */
#  define EAS_NLS_DGMAX 0.3
#  define EAS_NLS_MSBP 20

static SUNNonlinearSolver_Type EasNLSGetType(SUNNonlinearSolver NLS)
{
  (void)NLS;
  return SUNNONLINEARSOLVER_ROOTFIND;
}

static int EasNLSInitialize(SUNNonlinearSolver NLS)
{
  EasNLS *c = (EasNLS *)NLS->content;
  c->niters = c->nconvfails = 0;
  return c->ctest ? SUN_NLS_SUCCESS : SUN_NLS_MEM_NULL;
}

static int EasNLSSetSysFn(SUNNonlinearSolver NLS, SUNNonlinSolSysFn fn)
{
  (void)NLS; /* the system is eas's own discretization: CVODE's G is not evaluated */
  (void)fn;
  return SUN_NLS_SUCCESS;
}

static int EasNLSSetCTestFn(SUNNonlinearSolver NLS, SUNNonlinSolConvTestFn ctest, void *data)
{
  EasNLS *c     = (EasNLS *)NLS->content;
  c->ctest      = ctest;
  c->ctest_data = data;
  return SUN_NLS_SUCCESS;
}

static int EasNLSSetMaxIters(SUNNonlinearSolver NLS, int maxiters)
{
  EasNLS *c = (EasNLS *)NLS->content;
  if (maxiters < 1) return SUN_NLS_ILL_INPUT;
  c->maxiters = maxiters;
  return SUN_NLS_SUCCESS;
}

static int EasNLSGetNumIters(SUNNonlinearSolver NLS, long int *n)
{
  *n = ((EasNLS *)NLS->content)->niters;
  return SUN_NLS_SUCCESS;
}

static int EasNLSGetCurIter(SUNNonlinearSolver NLS, int *it)
{
  *it = ((EasNLS *)NLS->content)->curiter;
  return SUN_NLS_SUCCESS;
}

static int EasNLSGetNumConvFails(SUNNonlinearSolver NLS, long int *n)
{
  *n = ((EasNLS *)NLS->content)->nconvfails;
  return SUN_NLS_SUCCESS;
}

static int EasNLSFree(SUNNonlinearSolver NLS)
{
  EasNLS *c;
  if (!NLS) return SUN_NLS_SUCCESS;
  c = (EasNLS *)NLS->content;
  if (c) {
    if (c->delta) N_VDestroy(c->delta);
    (void)PetscFree(c->adr->stage.dx_host);
    (void)PetscFree(c);
  }
  NLS->content = NULL;
  SUNNonlinSolFreeEmpty(NLS);
  return SUN_NLS_SUCCESS;
}

/* The stage's convergence test after synchronous iteration `it`: CVODE's
   test on the update dx (in stage.dx_host, wrapped by delta) and the
   correction ycor = x - ypred. */
static PetscErrorCode EasNLSTest(EasAdr adr, PetscInt it, PetscInt *status, void *ctx)
{
  SUNNonlinearSolver NLS = (SUNNonlinearSolver)ctx;
  EasNLS            *c   = (EasNLS *)NLS->content;
  realtype          *yc = N_VGetArrayPointer(c->ycor), *yp = N_VGetArrayPointer(c->ypred);
  int                r;

  PetscFunctionBegin;
  c->curiter = (int)it;
  c->niters++;
  PetscCall(EasAdrStateSyncHost_Private(adr)); /* on a device: the state comes down for CVODE's test */
  PetscCall(EasAdrOwnFromBox_Private(adr, adr->x, yc));
  for (PetscInt i = 0; i < adr->no; i++) yc[i] -= yp[i]; /* ycor = y - ypred (own points) */
  r = c->ctest(NLS, c->ycor, c->delta, c->tol, c->ewt, c->ctest_data);
  PetscCheck(r >= 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "CVODE's convergence test failed with %d", r);
  *status = r == SUN_NLS_SUCCESS ? 1 : (r == SUN_NLS_CONTINUE ? 0 : -1);
  /* -adr_ts_lag_jacobian: the stage's later iterations keep the Jacobian of its first (a chord
     iteration within the stage; the next stage assembles afresh) */
  if (*status == 0 && adr->ts_lag_jac) adr->stage.reuse_jac = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/* Whether CVODE, had it a linear solver, would call its setup for this stage
   (cvNls's rules); *setup is or-ed with it. */
static PetscErrorCode EasNLSSetupDue(EasNLS *c, void *mem, realtype gamma, PetscBool *setup)
{
  long int nst, netf;

  PetscFunctionBegin;
  PetscCheck(CVodeGetNumSteps(mem, &nst) == CV_SUCCESS && CVodeGetNumErrTestFails(mem, &netf) == CV_SUCCESS, PETSC_COMM_SELF, PETSC_ERR_LIB, "CVodeGetNumSteps or CVodeGetNumErrTestFails failed");
  if (nst == 0 || c->failed_last || netf > c->netf_p || nst >= c->nst_p + EAS_NLS_MSBP || !(c->gamma_p > 0) || PetscAbsReal((PetscReal)gamma / c->gamma_p - 1) > EAS_NLS_DGMAX) *setup = PETSC_TRUE;
  if (*setup) {
    c->gamma_p = (PetscReal)gamma;
    c->nst_p   = nst;
  }
  c->netf_p      = netf;
  c->failed_last = PETSC_FALSE;
  PetscFunctionReturn(0);
}

static PetscErrorCode EasNLSSolve_Private(SUNNonlinearSolver NLS, N_Vector y0, N_Vector ycor, N_Vector w, realtype tol, PetscBool setup, void *mem, PetscBool *converged)
{
  EasNLS  *c   = (EasNLS *)NLS->content;
  EasAdr   adr = c->adr;
  realtype tcur, gamma, rl1, *yp, *z1, *y0p, *yc;
  N_Vector ypred, yn, fn, zn1;
  void    *ud;

  PetscFunctionBegin;
  PetscCheck(CVodeGetNonlinearSystemData(mem, &tcur, &ypred, &yn, &fn, &gamma, &rl1, &zn1, &ud) == CV_SUCCESS, PETSC_COMM_SELF, PETSC_ERR_LIB, "CVodeGetNonlinearSystemData failed");
  /* CVODE decides when its linear solver's setup runs only when it has one
     (cvNls); eas's nonlinear solver has none, so CVODE always passes setup =
     false, and -adr_ts_reuse_jacobian kept its Jacobians until a stage failed
     (2 ranks, 24^3: 56 assemblies in 724 steps, 4861 outer iterations, 30x
     the error of the default).  eas applies CVODE's rules itself: a setup
     at the first step, after a failed stage or an error-test failure, every
     MSBP steps, and when gamma moved by more than DGMAX since the last one. */
  PetscCall(EasNLSSetupDue(c, mem, gamma, &setup));
  yp  = N_VGetArrayPointer(ypred);
  z1  = N_VGetArrayPointer(zn1);
  y0p = N_VGetArrayPointer(y0);
  if (!adr->overlap)
    for (PetscInt i = 0; i < adr->n; i++) adr->xold[i] = yp[i] - rl1 * z1[i]; /* a = ypred - rl1 zn1 */
  else {
    for (PetscInt i = 0; i < adr->no; i++) adr->xown[i] = yp[i] - rl1 * z1[i];
    PetscCall(EasAdrBoxFromOwn_Private(adr, adr->xown, adr->xold));
  }
  adr->xold_synced = PETSC_FALSE;
  adr->xold_stale  = PETSC_FALSE;
  PetscCall(EasAdrStageOverlap_Private(adr, PETSC_FALSE)); /* -adr_overlap: a on the overlap is the neighbours' (one exchange; a is not the first iterate ypred) */
  if (tcur != adr->coef_t) PetscCall(EasAdrUpdateCoefficients_Private(adr, tcur));
  adr->stage.t          = tcur;
  adr->stage.gamma      = gamma;
  adr->stage.max_it     = c->maxiters;
  adr->stage.test       = EasNLSTest;
  adr->stage.test_ctx   = NLS;
  adr->stage.jac_lag    = 1; /* CVODE decides when its Jacobians are new (reuse_jac below) */
  adr->stage.ewt        = N_VGetArrayPointer(w);
  if (adr->overlap) { /* the update reads the weights on the box: the own points' (the overlap's are not summed) */
    PetscCall(EasAdrBoxFromOwn_Private(adr, N_VGetArrayPointer(w), adr->bewt));
    adr->stage.ewt = adr->bewt;
  }
  adr->stage.ewt_synced = PETSC_FALSE;
  adr->stage.wtol       = tol;
  c->niters             = 0; /* SUNDIALS 6: the counts are of the latest solve (CVODE sums them) */
  c->nconvfails         = 0;
  c->ycor               = ycor;
  c->ewt                = w;
  c->ypred              = ypred;
  c->tol                = tol;
  /* modified Newton, as CVODE's own: the local Jacobians I - gamma f'_ll are
     rebuilt only when CVODE asks (a new step size ratio, a failure, every
     20 steps); a stage that fails with kept Jacobians is retried once with
     fresh ones before CVODE is told */
  for (PetscInt attempt = 0; attempt < 2; attempt++) {
    adr->stage.reuse_jac = (PetscBool)(adr->ts_reuse_jac && !setup && attempt == 0);
    if (!adr->overlap)
      for (PetscInt i = 0; i < adr->n; i++) adr->x[i] = yp[i] + y0p[i]; /* the initial guess ypred + ycor0 */
    else { /* own points; the overlap's come with the first exchange */
      PetscCall(EasAdrStateSyncHost_Private(adr));
      for (PetscInt i = 0; i < adr->no; i++) adr->xown[i] = yp[i] + y0p[i];
      PetscCall(EasAdrBoxFromOwn_Private(adr, adr->xown, adr->x));
    }
    PetscCall(EasAdrStateHostWritten_Private(adr));
    c->curiter = 0;
    if (adr->mode == EAS_ADR_ASYNC && adr->size > 1)
      PetscCall(EasAdrStageSolveAsync_Private(adr));
    else
      PetscCall(EasAdrStageSolveSync_Private(adr));
    if (adr->reason > 0 || !adr->stage.reuse_jac || adr->reason == EAS_ADR_DIVERGED_NANORINF) break;
  }
  adr->stage.reuse_jac = PETSC_FALSE;
  adr->stage.test      = NULL;
  adr->stage.ewt       = NULL;
  *converged           = (PetscBool)(adr->reason > 0);
  if (!*converged) c->nconvfails++;
  c->failed_last = (PetscBool) !*converged;
  yc             = N_VGetArrayPointer(ycor);
  PetscCall(EasAdrStateSyncHost_Private(adr));
  PetscCall(EasAdrOwnFromBox_Private(adr, adr->x, yc));
  for (PetscInt i = 0; i < adr->no; i++) yc[i] -= yp[i];
  PetscFunctionReturn(0);
}

/* SUNNonlinSolSolve: 0 solved, SUN_NLS_CONV_RECVR not (CVODE retries with a
   smaller step), negative on a PETSc error (kept for EasAdr to return). */
static int EasNLSSolve(SUNNonlinearSolver NLS, N_Vector y0, N_Vector ycor, N_Vector w, realtype tol, booleantype callLSetup, void *mem)
{
  EasNLS        *c = (EasNLS *)NLS->content;
  PetscErrorCode ierr;
  PetscBool      converged = PETSC_FALSE;

  EasCaptureError(ierr, EasNLSSolve_Private(NLS, y0, ycor, w, tol, callLSetup ? PETSC_TRUE : PETSC_FALSE, mem, &converged));
  if (ierr) {
    c->adr->cv_error = ierr;
    return SUN_NLS_MEM_FAIL;
  }
  return converged ? SUN_NLS_SUCCESS : SUN_NLS_CONV_RECVR;
}

/* EasAdrNLSCreate_Private - the multisplitting Newton as a SUNNonlinearSolver
   on the solver's state (adr->no local entries of the global vector: the own points). */
PetscErrorCode EasAdrNLSCreate_Private(EasAdr adr, void *sunctx, void **nls_out)
{
  SUNNonlinearSolver NLS;
  EasNLS            *c;

  PetscFunctionBegin;
  NLS = SUNNonlinSolNewEmpty((SUNContext)sunctx);
  PetscCheck(NLS, PETSC_COMM_SELF, PETSC_ERR_MEM, "SUNNonlinSolNewEmpty failed");
  PetscCall(PetscNew(&c));
  c->adr                    = adr;
  c->maxiters               = 3;
  NLS->content              = c;
  NLS->ops->gettype         = EasNLSGetType;
  NLS->ops->initialize      = EasNLSInitialize;
  NLS->ops->solve           = EasNLSSolve;
  NLS->ops->free            = EasNLSFree;
  NLS->ops->setsysfn        = EasNLSSetSysFn;
  NLS->ops->setctestfn      = EasNLSSetCTestFn;
  NLS->ops->setmaxiters     = EasNLSSetMaxIters;
  NLS->ops->getnumiters     = EasNLSGetNumIters;
  NLS->ops->getcuriter      = EasNLSGetCurIter;
  NLS->ops->getnumconvfails = EasNLSGetNumConvFails;
  PetscCall(PetscMalloc1(PetscMax(adr->no, 1), &adr->stage.dx_host)); /* the update at the own points (CVODE's vector) */
  c->delta = N_VMake_Parallel(adr->cart, (sunindextype)adr->no, (sunindextype)(2 * adr->N[0] * adr->N[1] * adr->N[2]), adr->stage.dx_host, (SUNContext)sunctx);
  PetscCheck(c->delta, PETSC_COMM_SELF, PETSC_ERR_MEM, "N_VMake_Parallel failed");
  *nls_out = NLS;
  PetscFunctionReturn(0);
}
#endif
