/*
  The multisplitting Newton of EasAdr (Vialle et al. secs. 1.7.2-1.7.4,
  docs/adr.md).

  Each time step solves F(x) = x_old - x + dt f(x, t) = 0 (1.43).  Every
  outer iteration, each rank takes one Newton step on its own box,
  J_ll dx_l = F_l(x_l, halo) with J = -F' (1.45), the couplings to the other
  boxes taken from the latest halo values (Fig. 1.7), updates x_l and sends
  its boundary planes.  With one rank this is plain Newton.

  sync:  halo exchange + MPI_Allreduce of the species norms of dx every
         outer iteration; converged when max_s ||dx_s|| / ||x_s|| <= rtol.
  async: no barrier inside the step: non-blocking sends (one in flight per
         neighbour), receptions by polling or a thread, the local flag
         "converged for `persist` consecutive iterations", detection by two
         all-true rounds of MPI_Iallreduce or, with -eas_async_detect
         decentralized, by neighbour messages only (detect.c); then the one synchronous exchange
         of the step (Fig. 1.9) and a synchronous outer iteration as the
         check: if it fails, the asynchronous iterations resume.
  auto:  the first step runs sync; its exchange share decides (see
         EasAdrModeAutoDecide).

  Energy meter phases (docs/energy.md; the rank's single unit, phases never
  nested, so the busy times add up to at most the wall time):
    setup     coefficient updates each step, F and J each outer iteration
              (work: rows assembled), the copy of F into b;
    compute   the inner BiCGStab solve (work: rows x BiCGStab iterations)
              and the update of x (no work);
    exchange  halo exchanges, the reductions of the convergence test, the
              async sends/polls/detection (work: halo scalars received in
              the synchronous exchanges);
    transfers device backends only: the neighbours' planes up, the
              stage's data when it changed (work: scalars); the packed
              planes come down inside the exchange (adrstate.c).
*/
#include "adrimpl.h"
#include <unistd.h>

/* failure codes of an outer iteration, also the detection's codes (the
   largest wins when several ranks fail) */
enum {
  EAS_ADR_FAIL_NONE  = 0,
  EAS_ADR_FAIL_MAXIT = 1,
  EAS_ADR_FAIL_INNER = 2,
  EAS_ADR_FAIL_NAN   = 3,
  EAS_ADR_FAIL_ERROR = 4 /* an error (a failing callback, ...) on some rank: every rank returns an error */
};

/* The round-off floor of the asynchronous news test: a relative ghost change
   (EasHaloGhostChange, per species) at or below it is rounding noise of a
   neighbour's converged iterations, never a reason to iterate, whatever
   -eas_async_halo_rtol says (docs/async.md). */
#define EAS_ADR_NEWS_FLOOR (1000 * PETSC_MACHINE_EPSILON)

static EasAdrConvergedReason EasAdrFailReason(int fail)
{
  switch (fail) {
  case EAS_ADR_FAIL_MAXIT:
    return EAS_ADR_DIVERGED_MAX_IT;
  case EAS_ADR_FAIL_INNER:
    return EAS_ADR_DIVERGED_INNER;
  case EAS_ADR_FAIL_NAN:
    return EAS_ADR_DIVERGED_NANORINF;
  case EAS_ADR_FAIL_ERROR: /* never a reason: the step returns an error */
  default:
    return EAS_ADR_CONVERGED_ITERATING;
  }
}

/*
  EasAdrEWForcing - the Eisenstat-Walker relative tolerance eta_k of the
  inner solve of local Newton step k of the stage (-adr_ksp_ew), PETSc's
  -snes_ksp_ew choices (S. C. Eisenstat and H. F. Walker, "Choosing the
  forcing terms in an inexact Newton method", SIAM J. Sci. Comput. 17
  (1996); version 3 is PETSc's, by L. Chacon), with fnorm = ||F_l(x_k)||,
  this rank's residual before the step (its inner system is its own):
    k = 0:      eta_0 = rtol_0
    version 1:  eta_k = | ||F_k|| - ||F_{k-1} - J_{k-1} dx_{k-1}|| | / ||F_{k-1}||   (EW choice 1)
                safeguard: eta_{k-1}^alpha2 > threshold => eta_k = max(eta_k, eta_{k-1}^alpha2)
    version 2:  eta_k = gamma (||F_k|| / ||F_{k-1}||)^alpha                          (EW choice 2)
                safeguard: gamma eta_{k-1}^alpha > threshold => eta_k = max(eta_k, gamma eta_{k-1}^alpha)
    version 3:  eta_k = min(rtol_0, max(gamma (||F_k|| / ||F_{k-1}||)^alpha, gamma eta_{k-1}^alpha)),
                then   min(rtol_0, max(eta_k, gamma rtol ||F_0|| / ||F_k||))  (no oversolving;
                rtol: -adr_newton_rtol where PETSc has the SNES rtol)
    always:     eta_k = min(eta_k, rtol_max).
  A zero residual (nothing to solve) or a zero previous one keeps rtol_0.
*/
static PetscReal EasAdrEWForcing(const EasAdr adr, PetscReal fnorm)
{
  const EasAdrEW *ew  = &adr->ew;
  PetscReal       eta = ew->rtol_0, stol;

  if (ew->iter > 0 && fnorm > 0 && ew->norm_last > 0) {
    if (ew->version == 1) {
      eta  = PetscAbsReal(fnorm - ew->lresid_last) / ew->norm_last;
      stol = PetscPowReal(ew->rtol_last, ew->alpha2);
      if (stol > ew->threshold) eta = PetscMax(eta, stol);
    } else if (ew->version == 2) {
      eta  = ew->gamma * PetscPowReal(fnorm / ew->norm_last, ew->alpha);
      stol = ew->gamma * PetscPowReal(ew->rtol_last, ew->alpha);
      if (stol > ew->threshold) eta = PetscMax(eta, stol);
    } else {
      eta  = ew->gamma * PetscPowReal(fnorm / ew->norm_last, ew->alpha);
      stol = ew->gamma * PetscPowReal(ew->rtol_last, ew->alpha);
      eta  = PetscMin(ew->rtol_0, PetscMax(eta, stol));
      stol = ew->gamma * ew->norm_first * adr->newton_rtol / fnorm;
      eta  = PetscMin(ew->rtol_0, PetscMax(eta, stol));
    }
  }
  return PetscMin(eta, ew->rtol_max);
}

/* One local Newton step on the stage system with the current halo:
   sums[0..1] = ||dx_s||^2, sums[2..3] = ||x_s||^2, sums[4..5] = ||F_s||^2
   (the residual before the step), sums[6] = sum_i (dx_i ewt_i)^2 with the
   stage's error weights (0 without) on this rank; *fail a failure code.  The
   update goes into stage.dx_host too when the stage asks for it and keep
   (the synchronous iterations, after which the stage's test reads it). */
#define EAS_ADR_NSUMS 7
static PetscErrorCode EasAdrLocalNewton(EasAdr adr, PetscReal t, PetscReal dt, PetscBool keep, PetscReal sums[EAS_ADR_NSUMS], int *fail)
{
  PetscBool          bad;
  KSPConvergedReason kr;
  PetscInt           its;
  PetscReal          s[4] = {0, 0, 0, 0}, ws = 0, fnorm = 0, eta = 0, rtol_user = 0, atol_user = 0;

  PetscFunctionBegin;
  *fail = EAS_ADR_FAIL_NONE;
  for (PetscInt i = 0; i < EAS_ADR_NSUMS; i++) sums[i] = 0;
  /* -adr_lag_jacobian k (implicit Euler): the Jacobian of the solve's iterations 0, k, 2k, ... (SNES's lag; -1:
     only the first one ever), a chord between; a new one whenever the step size changed, or when the kept one
     is a CVODE stage's (in its error weights: the stepper was switched) */
  if (adr->stage.jac_lag > 1 || adr->stage.jac_lag == -1) adr->stage.reuse_jac = (PetscBool)(adr->jac_gamma == dt && !adr->jac_rw && (adr->stage.jac_lag == -1 || adr->lag_it % adr->stage.jac_lag != 0));
  PetscCall(EasAdrLocalAssemble_Private(adr, t, dt, &sums[4], &bad)); /* F into b, J: setup (+ transfers on a device) */
  adr->lag_it++;
  if (bad) {
    *fail = EAS_ADR_FAIL_NAN;
    PetscFunctionReturn(0);
  }
  PetscCall(EasAdrMeterBegin(adr, EAS_PHASE_COMPUTE));
  if (adr->ew.use) { /* -adr_ksp_ew: this solve to eta_k, the user's rtol restored after it */
    fnorm = PetscSqrtReal(sums[4] + sums[5]);
    eta   = EasAdrEWForcing(adr, fnorm);
    PetscCall(EasKspGetTolerances(adr->ksp, &rtol_user, NULL, NULL, NULL));
    PetscCall(EasKspSetTolerances(adr->ksp, eta, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT));
    if (adr->ew.iter == 0) adr->ew.norm_first = fnorm;
  }
  if (adr->jac_rw) { /* -adr_ts_eps_lin: b = W F, the residual W r; stop at ||W r||_RMS <= eps_lin tol (CVODE's test of its linear solves), or at rtol */
    PetscCall(EasKspGetTolerances(adr->ksp, NULL, &atol_user, NULL, NULL));
    PetscCall(EasKspSetTolerances(adr->ksp, PETSC_DEFAULT, PetscMax(atol_user, adr->ts_eps_lin * adr->stage.wtol * PetscSqrtReal((PetscReal)adr->n)), PETSC_DEFAULT, PETSC_DEFAULT));
  }
  PetscCall(PetscLogEventBegin(EAS_AdrInner, adr, 0, 0, 0));
  PetscCall(EasKspSolve(adr->ksp, adr->b, adr->dx));
  PetscCall(PetscLogEventEnd(EAS_AdrInner, adr, 0, 0, 0));
  if (adr->jac_rw) PetscCall(EasKspSetTolerances(adr->ksp, PETSC_DEFAULT, atol_user, PETSC_DEFAULT, PETSC_DEFAULT));
  PetscCall(EasKspGetConvergedReason(adr->ksp, &kr));
  PetscCall(EasKspGetIterationNumber(adr->ksp, &its));
  if (adr->ew.use) {
    PetscReal lres;
    PetscCall(EasKspSetTolerances(adr->ksp, rtol_user, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT));
    PetscCall(EasKspGetResidualNorm(adr->ksp, &lres)); /* ||F_l - J_ll dx||: BiCGStab's residual is the true one (right Jacobi) */
    adr->ew.lresid_last = lres;
    adr->ew.norm_last   = fnorm;
    adr->ew.rtol_last   = eta;
    adr->ew.iter++;
  }
  PetscCall(EasAdrMeterEnd(adr, EAS_PHASE_COMPUTE, (PetscReal)adr->n * its));
  adr->stats.inner_its += its;
  adr->last_inner += its;
  if (kr == KSP_DIVERGED_NANORINF) {
    *fail = EAS_ADR_FAIL_NAN;
    PetscFunctionReturn(0);
  }
  if (kr < 0 && kr != KSP_DIVERGED_ITS) { /* inexact Newton accepts an unfinished solve */
    *fail = EAS_ADR_FAIL_INNER;
    PetscFunctionReturn(0);
  }
  /* x <- x + c D^{-1} y on the backend (with the Jacobi scaling folded into
     the assembly the inner solve gave y, (J D^{-1}) y = F_l; else D = I):
     only the sums come back, and the update itself when the stage's test
     reads it (keep) */
  PetscCall(EasAdrMeterBegin(adr, EAS_PHASE_COMPUTE));
  PetscCall(EasAdrUpdate_Private(adr, keep, s, &ws));
  PetscCall(EasAdrMeterEnd(adr, EAS_PHASE_COMPUTE, 0));
  if (PetscIsInfOrNanReal(s[0] + s[1] + s[2] + s[3] + ws)) *fail = EAS_ADR_FAIL_NAN;
  for (PetscInt i = 0; i < 4; i++) sums[i] = s[i];
  sums[6] = ws;
  PetscFunctionReturn(0);
}

/*
  EasAdrLocalNewtonCaptured - EasAdrLocalNewton with its error (a failing user
  callback, an inner solver error) turned into the failure code
  EAS_ADR_FAIL_ERROR and kept in *err, so that the outer iteration can end
  collectively (every rank learns of it through the reduction or the
  detection, the asynchronous phase drains its messages and joins its
  thread) before the rank returns the error.  The error's traceback was
  printed where it was raised.
*/
static PetscErrorCode EasAdrLocalNewtonCaptured(EasAdr adr, PetscReal t, PetscReal dt, PetscBool keep, PetscReal sums[EAS_ADR_NSUMS], int *fail, PetscErrorCode *err)
{
  PetscErrorCode ierr;

  PetscFunctionBegin;
  EasCaptureError(ierr, EasAdrLocalNewton(adr, t, dt, keep, sums, fail));
  if (ierr) {
    *fail = EAS_ADR_FAIL_ERROR;
    if (!*err) *err = ierr;
    for (PetscInt i = 0; i < EAS_ADR_NSUMS; i++) sums[i] = 0;
  }
  PetscFunctionReturn(0);
}

/* After a collective failure code EAS_ADR_FAIL_ERROR: the rank that failed
   returns its own error, the others say that another rank failed. */
static PetscErrorCode EasAdrReturnError(EasAdr adr, PetscErrorCode err)
{
  PetscFunctionBegin;
  PetscCall(err);
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_LIB, "the outer iteration of the stage at t = %g stopped: an error on another rank (see its message)", (double)adr->stage.t);
}

/* max over species of ||dx_s|| / ||x_s|| (absolute when x_s = 0) */
static PetscReal EasAdrRelative(const PetscReal sums[4])
{
  PetscReal r = 0;
  for (PetscInt s = 0; s < 2; s++) r = PetscMax(r, PetscSqrtReal(sums[s]) / (sums[2 + s] > 0 ? PetscSqrtReal(sums[2 + s]) : 1.0));
  return r;
}

/*
  One trace row (-eas_trace) after a synchronous outer iteration (collective):
  share = this rank's rows (meter.h: elements or rows per unit; rank 0
  writes), t_el = compute busy time per row and BiCGStab iteration since the
  previous row; predicted time (Lang-Rünger time model T = work x t_el) from the
  mean time per unit of work of the previous rows, max over ranks; predicted
  energy from the meter's power profile (Vialle et al. eq. 1.16 through
  EasModelProfileShareEnergy) with the busy fraction of the previous rows, each
  rank charged 1/ppn of the node's idle power and its unit weight (meter.h)
  of the active power, summed over ranks.  No prediction (empty
  CSV fields) on the first row.
*/
static PetscErrorCode EasAdrTraceRow(EasAdr adr)
{
  PetscLogDouble  now;
  PetscReal       busy = 0, cbusy, cwork, dwork, t_el, share = (PetscReal)adr->n, pred[2] = {-1, -1}, gpred[2];
  EasPowerProfile prof;

  PetscFunctionBegin;
  if (!adr->trace || !adr->meter) PetscFunctionReturn(0);
  PetscCall(PetscTime(&now));
  for (PetscInt p = 0; p < EAS_NUM_PHASES; p++) {
    PetscReal b;
    PetscCall(EasEnergyMeterGetPhase(adr->meter, (EasPhase)p, adr->unit, &b, NULL, NULL));
    busy += b;
  }
  PetscCall(EasEnergyMeterGetPhase(adr->meter, EAS_PHASE_COMPUTE, adr->unit, &cbusy, &cwork, NULL));
  dwork = cwork - adr->trace_cwork;
  t_el  = dwork > 0 ? (cbusy - adr->trace_cbusy) / dwork : 0;
  if (adr->trace_iter_work > 0 && dwork > 0) {
    const PetscReal Tel = adr->trace_iter_time / adr->trace_iter_work, Wprev = adr->trace_tprev - adr->trace_tstart;
    const PetscReal beta = Wprev > 0 ? PetscMin(1.0, adr->trace_busy / Wprev) : 1.0;
    pred[0]              = Tel * dwork;
    PetscCall(EasEnergyMeterGetProfile(adr->meter, &prof));
    if (pred[0] > 0) {
      PetscReal w;
      PetscCall(EasEnergyMeterGetUnitWeight(adr->meter, adr->unit, &w));                                                                       /* the rank's share of the node's CPU or GPU */
      PetscCall(EasModelProfileShareEnergy(&prof, pred[0], 1.0 / adr->ppn, adr->device ? 0 : w * beta, adr->device ? w * beta : 0, &pred[1])); /* Vialle et al. eq. (1.16), this rank's part */
    } else
      pred[1] = 0;
  }
  PetscCall(MPIU_Allreduce(&pred[0], &gpred[0], 1, MPIU_REAL, MPIU_MAX, adr->cart));
  PetscCall(MPIU_Allreduce(&pred[1], &gpred[1], 1, MPIU_REAL, MPIU_SUM, adr->cart));
  if (gpred[0] < 0) gpred[0] = gpred[1] = PETSC_DECIDE; /* negative: no prediction */
  PetscCall(EasEnergyTraceRow(adr->meter, adr->trace_it++, 1, &share, &t_el, gpred[0], gpred[1]));
  if (dwork > 0) {
    adr->trace_iter_time += (PetscReal)(now - adr->trace_tprev);
    adr->trace_iter_work += dwork;
  }
  adr->trace_tprev = now;
  adr->trace_busy  = busy;
  adr->trace_cbusy = cbusy;
  adr->trace_cwork = cwork;
  PetscFunctionReturn(0);
}

/* A synchronous outer iteration: halo exchange, local Newton step, global
   reduction.  Returns the global relative update max_s ||dx_s|| / ||x_s||
   and failure code.  The exchange is the stage's when that one sent the
   state's planes (ghosts_stage: implicit Euler with an overlap, the
   stage's first iteration). */
static PetscErrorCode EasAdrSyncIteration(EasAdr adr, PetscReal t, PetscReal dt, PetscReal *rel, int *fail, PetscErrorCode *err)
{
  PetscReal sums[EAS_ADR_NSUMS], red[6 + EAS_ADR_FAIL_ERROR], out[6 + EAS_ADR_FAIL_ERROR];
  int       lfail;

  PetscFunctionBegin;
  if (adr->ghosts_stage) adr->ghosts_stage = PETSC_FALSE; /* the ghosts hold the neighbours' planes of this iterate */
  else {
    PetscCall(EasAdrMeterBegin(adr, EAS_PHASE_EXCHANGE));
    PetscCall(PetscLogEventBegin(EAS_AdrHalo, adr, 0, 0, 0));
    PetscCall(EasAdrExchangeSync_Private(adr, PETSC_TRUE));
    PetscCall(PetscLogEventEnd(EAS_AdrHalo, adr, 0, 0, 0));
    PetscCall(EasAdrMeterEnd(adr, EAS_PHASE_EXCHANGE, adr->halo_scalars));
  }
  PetscCall(EasAdrLocalNewtonCaptured(adr, t, dt, PETSC_TRUE, sums, &lfail, err));
  adr->stats.outer_its++;
  adr->last_outer++;
  /* one reduction per outer iteration (the one eas_advise's model counts): the six sums and, one-hot, the
     failure codes, whose largest wins (red[5 + k] counts the ranks that failed with code k) */
  for (PetscInt i = 0; i < 6; i++) red[i] = sums[i];
  for (int k = 1; k <= EAS_ADR_FAIL_ERROR; k++) red[5 + k] = lfail == k ? 1.0 : 0.0;
  PetscCall(EasAdrMeterBegin(adr, EAS_PHASE_EXCHANGE));
  PetscCall(PetscLogEventBegin(EAS_AdrDetect, adr, 0, 0, 0));
  PetscCall(MPIU_Allreduce(red, out, 6 + EAS_ADR_FAIL_ERROR, MPIU_REAL, MPIU_SUM, adr->cart));
  *rel  = EasAdrRelative(out);
  *fail = EAS_ADR_FAIL_NONE;
  for (int k = 1; k <= EAS_ADR_FAIL_ERROR; k++)
    if (out[5 + k] > 0) *fail = k;
  /* the true residual of this iterate (fresh ghosts), relative: max_s ||F_s|| / ||x_s|| */
  adr->last_fnorm = 0;
  for (PetscInt s = 0; s < 2; s++) adr->last_fnorm = PetscMax(adr->last_fnorm, PetscSqrtReal(out[4 + s]) / (out[2 + s] > 0 ? PetscSqrtReal(out[2 + s]) : 1.0));
  PetscCall(PetscLogEventEnd(EAS_AdrDetect, adr, 0, 0, 0));
  PetscCall(EasAdrMeterEnd(adr, EAS_PHASE_EXCHANGE, 0));
  if (*fail == EAS_ADR_FAIL_ERROR) PetscCall(EasAdrReturnError(adr, *err));
  PetscCall(EasAdrTraceRow(adr));
  PetscFunctionReturn(0);
}

/* After the synchronous iteration `it` of the stage: *conv 1 converged, 0 go
   on, -1 diverging (the stage's test, else rel <= -adr_newton_rtol). */
static PetscErrorCode EasAdrStageConverged(EasAdr adr, PetscInt it, PetscReal rel, PetscInt *conv)
{
  PetscFunctionBegin;
  if (adr->stage.test) {
    PetscCall(PetscLogEventBegin(EAS_AdrDetect, adr, 0, 0, 0));
    PetscCall((*adr->stage.test)(adr, it, conv, adr->stage.test_ctx));
    PetscCall(PetscLogEventEnd(EAS_AdrDetect, adr, 0, 0, 0));
  } else
    *conv = rel <= adr->newton_rtol ? 1 : 0;
  PetscFunctionReturn(0);
}

/*
  EasAdrStageSolveSync_Private - the stage system by the synchronous
  multisplitting Newton: at most stage.max_it outer iterations, each a halo
  exchange, a local Newton step on every rank and a global test.
*/
PetscErrorCode EasAdrStageSolveSync_Private(EasAdr adr)
{
  const PetscReal dt = adr->stage.gamma, t = adr->stage.t;

  PetscFunctionBegin;
  adr->reason  = EAS_ADR_CONVERGED_ITERATING;
  adr->ew.iter = 0; /* -adr_ksp_ew: eta_0 = rtol_0 at every stage's first step, as every SNESSolve */
  adr->lag_it  = 0; /* -adr_lag_preconditioner: counted per nonlinear solve, as SNES's */
  for (PetscInt it = 0; it < adr->stage.max_it; it++) {
    PetscReal      rel  = 0;
    int            fail = 0;
    PetscErrorCode err  = 0;
    PetscInt       conv;
    PetscCall(EasAdrSyncIteration(adr, t, dt, &rel, &fail, &err));
    adr->last_res = rel;
    if (fail) {
      adr->reason = EasAdrFailReason(fail);
      break;
    }
    PetscCall(EasAdrStageConverged(adr, it, rel, &conv));
    if (conv > 0) {
      adr->reason = EAS_ADR_CONVERGED_DX;
      break;
    }
    if (conv < 0) {
      adr->reason = EAS_ADR_DIVERGED_MAX_IT;
      break;
    }
  }
  if (adr->reason == EAS_ADR_CONVERGED_ITERATING) adr->reason = EAS_ADR_DIVERGED_MAX_IT;
  PetscFunctionReturn(0);
}

/*
  EasAdrAsyncPhase - iterate on local data until the detection stops every
  rank; *fail_out is the (global) failure code, *err this rank's captured
  error (EAS_ADR_FAIL_ERROR).

  When a rank iterates (docs/async.md):
    - at the start of the phase, and while it is not locally converged (its
      last `persist` updates were not all <= rtol);
    - on news: ghosts that moved, relative and per species, by more than
      max(halo_rtol x rtol, EAS_ADR_NEWS_FLOOR) since the last iteration used
      them.  Below the floor a change is rounding noise and never news, so
      halo_rtol = 0 means "every change above round-off".
  When it sends: a face after each iteration, at most one send in flight per
  neighbour (packed only when the previous send completed).  A locally
  converged rank resends only a plane that moved by more than rtol since it
  was last sent: changes below the outer tolerance are not news to its
  neighbours, and converged ranks that kept trading rounding-level planes
  would never let the detection see a quiet network (the livelock of
  halo_rtol = 0).
  When it counts as locally converged: `persist` converged updates, no news
  above rtol pending (news below rtol is iterated on but does not unconverge
  the rank), and every face's current plane sent or within rtol of the sent
  one, with no send in this pass.
  Bounds: -eas_async_max_it bounds all local iterations of the step: at the
  bound a converged rank stops iterating on small news and any other rank
  fails with EAS_ADR_FAIL_MAXIT; the detection's timeout counts from the
  start of the phase (detect.c) and raises the same code.  Either way every
  rank leaves with the code and no request pending.
*/
static PetscErrorCode EasAdrAsyncPhase(EasAdr adr, PetscReal t, PetscReal dt, PetscInt *its_step, int *fail_out, PetscErrorCode *err)
{
  EasHalo         halo = adr->halo;
  EasDetect      *det  = &adr->det; /* in the solver, not on the stack: MPI writes into it until the round completes */
  const PetscReal rtol = adr->newton_rtol, news_thr = PetscMax(adr->async_halo_rtol * rtol, EAS_ADR_NEWS_FLOOR);
  PetscInt        conv = 0, version = 1, sent[6] = {0, 0, 0, 0, 0, 0};
  int             fail = EAS_ADR_FAIL_NONE, gfail = 0;
  PetscBool       stop = PETSC_FALSE, need = PETSC_TRUE, news = PETSC_FALSE, big = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(EasHaloAsyncBegin(halo));
  PetscCall(EasDetectBegin(det, adr->async_detect, adr->cart, adr->nb));
  PetscCall(EasDetectSetTimeout(det, adr->async_detect_timeout, EAS_ADR_FAIL_MAXIT));
  while (!stop) {
    PetscBool iterate = (PetscBool)(!fail && (need || conv < adr->persist || news)), sending = PETSC_FALSE, lconv;
    if (iterate && *its_step >= adr->async_max_it) { /* the bound on all local iterations of the step */
      iterate = PETSC_FALSE;
      if (conv >= adr->persist && !big)
        news = PETSC_FALSE; /* converged: small news is left alone */
      else
        fail = EAS_ADR_FAIL_MAXIT;
    }
    if (iterate) {
      PetscReal sums[EAS_ADR_NSUMS], rel;
      PetscCall(EasHaloMarkUsed(halo));
      news = big = need = PETSC_FALSE;
      PetscCall(EasAdrLocalNewtonCaptured(adr, t, dt, PETSC_FALSE, sums, &fail, err));
      adr->stats.outer_its++;
      adr->last_outer++;
      (*its_step)++;
      version++;
      /* the vote: max_s ||dx_s|| / ||x_s|| <= rtol, or with the stage's weights
         the local weighted RMS norm of dx <= wtol */
      rel  = adr->stage.ewt ? PetscSqrtReal(sums[6] / PetscMax(adr->no, 1)) / adr->stage.wtol * rtol : EasAdrRelative(sums);
      conv = (!fail && rel <= rtol) ? conv + 1 : 0;
    } else
      usleep(20); /* idle: leave the core to the other ranks */
    PetscCall(EasAdrMeterBegin(adr, EAS_PHASE_EXCHANGE));
    PetscCall(PetscLogEventBegin(EAS_AdrHalo, adr, 0, 0, 0));
    for (PetscInt f = 0; f < 6 && !fail; f++) {
      PetscBool ready;
      if (adr->nb[f] == MPI_PROC_NULL || sent[f] == version) continue;
      if (conv >= adr->persist) {
        PetscReal ch[2];
        PetscCall(EasAdrFaceChange_Private(adr, f, ch)); /* against the plane the neighbour has, or will have */
        if (PetscMax(ch[0], ch[1]) <= rtol) {
          sent[f] = version;
          continue;
        }
      }
      PetscCall(EasHaloAsyncSendReady(halo, f, &ready));
      if (!ready) continue;
      PetscCall(EasAdrPackFace_Private(adr, f)); /* only now: MPI owns the buffer while a send is in flight */
      PetscCall(EasHaloAsyncSend(halo, f));
      sent[f] = version;
      sending = PETSC_TRUE;
    }
    PetscCall(EasHaloAsyncPoll(halo));
    if (halo->fresh) { /* news: ghosts that moved since the last iteration used them */
      PetscReal ch[2], c;
      PetscCall(EasHaloGhostChange(halo, 2, ch));
      c           = PetscMax(ch[0], ch[1]);
      halo->fresh = PETSC_FALSE;
      if (c > news_thr) {
        news = PETSC_TRUE;
        if (c > rtol) big = PETSC_TRUE;
      } else
        adr->stats.halo_skipped++;
    }
    PetscCall(PetscLogEventEnd(EAS_AdrHalo, adr, 0, 0, 0));
    PetscCall(PetscLogEventBegin(EAS_AdrDetect, adr, 0, 0, 0));
    lconv = (PetscBool)(!fail && conv >= adr->persist && !big && !sending);
    for (PetscInt f = 0; f < 6; f++)
      if (adr->nb[f] != MPI_PROC_NULL && sent[f] != version) lconv = PETSC_FALSE;
    PetscCall(EasDetectProgress(det, lconv, fail, halo->phase_sent, halo->phase_delivered, &stop, &gfail));
    PetscCall(PetscLogEventEnd(EAS_AdrDetect, adr, 0, 0, 0));
    PetscCall(EasAdrMeterEnd(adr, EAS_PHASE_EXCHANGE, 0));
  }
  PetscCall(EasAdrMeterBegin(adr, EAS_PHASE_EXCHANGE));
  PetscCall(EasDetectEnd(det));
  PetscCall(PetscLogEventBegin(EAS_AdrHalo, adr, 0, 0, 0));
  PetscCall(EasHaloAsyncEnd(halo));
  PetscCall(PetscLogEventEnd(EAS_AdrHalo, adr, 0, 0, 0));
  PetscCall(EasAdrMeterEnd(adr, EAS_PHASE_EXCHANGE, 0));
  *fail_out = gfail;
  PetscFunctionReturn(0);
}

/*
  EasAdrStageSolveAsync_Private - the stage system by the asynchronous
  multisplitting Newton with the synchronous check at the end (at most
  stage.max_it checks).  The ghosts are exchanged synchronously first when
  they do not hold the neighbours' state of the stage's start (the first
  step, after EasAdrSetSolution or a failed step): otherwise the first local
  iterations would run on zeros or on a rejected iterate.  With an overlap
  and implicit Euler the stage's exchange of a = x_old sent the state's
  planes (ghosts_current); the checks' iterations exchange their own.
*/
PetscErrorCode EasAdrStageSolveAsync_Private(EasAdr adr)
{
  const PetscReal dt = adr->stage.gamma, t = adr->stage.t;
  PetscInt        its = 0;

  PetscInt first = 0;

  PetscFunctionBegin;
  adr->ghosts_stage  = PETSC_FALSE; /* the synchronous checks exchange their own planes */
  adr->ghosts_padded = PETSC_FALSE; /* and the asynchronous iterations gather what has arrived */
  adr->reason  = EAS_ADR_CONVERGED_ITERATING;
  adr->ew.iter = 0; /* -adr_ksp_ew: eta_0 = rtol_0 at every stage's first step */
  adr->lag_it  = 0; /* -adr_lag_preconditioner: counted per nonlinear solve */
  if (adr->stage.test) {
    /* A stage test that tracks a Newton iteration (CVODE's: its first
       iteration's update is the whole correction, later ones estimate the
       contraction rate from consecutive updates) sees a first synchronous
       iteration from the initial guess, then one per check. */
    PetscReal      rel  = 0;
    int            fail = 0;
    PetscErrorCode err  = 0;
    PetscInt       conv;
    PetscCall(EasAdrSyncIteration(adr, t, dt, &rel, &fail, &err));
    adr->last_res = rel;
    if (fail) {
      adr->reason = EasAdrFailReason(fail);
      PetscFunctionReturn(0);
    }
    PetscCall(EasAdrStageConverged(adr, 0, rel, &conv));
    if (conv != 0) {
      adr->reason = conv > 0 ? EAS_ADR_CONVERGED_ASYNC : EAS_ADR_DIVERGED_ASYNC_CHECK;
      PetscFunctionReturn(0);
    }
    first = 1;
  } else if (!adr->ghosts_current) {
    PetscCall(EasAdrMeterBegin(adr, EAS_PHASE_EXCHANGE));
    PetscCall(PetscLogEventBegin(EAS_AdrHalo, adr, 0, 0, 0));
    PetscCall(EasAdrExchangeSync_Private(adr, PETSC_TRUE));
    PetscCall(PetscLogEventEnd(EAS_AdrHalo, adr, 0, 0, 0));
    PetscCall(EasAdrMeterEnd(adr, EAS_PHASE_EXCHANGE, adr->halo_scalars));
    adr->ghosts_current = PETSC_TRUE;
  }
  for (PetscInt check = first;; check++) {
    PetscReal      rel  = 0;
    int            fail = 0;
    PetscErrorCode err  = 0;
    PetscInt       conv;
    PetscCall(EasAdrAsyncPhase(adr, t, dt, &its, &fail, &err));
    if (fail == EAS_ADR_FAIL_ERROR) PetscCall(EasAdrReturnError(adr, err));
    if (fail) {
      adr->reason = EasAdrFailReason(fail);
      break;
    }
    /* the synchronous exchange of the step and the synchronous check */
    adr->stats.sync_checks++;
    PetscCall(EasAdrSyncIteration(adr, t, dt, &rel, &fail, &err));
    adr->last_res = rel;
    if (fail) {
      adr->reason = EasAdrFailReason(fail);
      break;
    }
    PetscCall(EasAdrStageConverged(adr, check, rel, &conv));
    if (conv > 0) {
      adr->reason = EAS_ADR_CONVERGED_ASYNC;
      break;
    }
    adr->stats.check_failures++;
    if (conv < 0 || check + 1 >= adr->stage.max_it) {
      adr->reason = EAS_ADR_DIVERGED_ASYNC_CHECK;
      break;
    }
  }
  PetscFunctionReturn(0);
}
