/*
  Time stepping of EasAdr (docs/adr.md).  The stepper is an ops table
  (EasAdrTSOps, adrimpl.h; -adr_ts_type):
    beuler  implicit Euler with a fixed step dt (Vialle et al. eqs.
            1.42-1.43): each step's system F(x) = x_old - x + dt f(x, t) = 0
            is one stage for the multisplitting Newton (msnewton.c); its
            operations are at the end of this file (EasAdrTS_BEuler);
    cvode   SUNDIALS CVODE's variable-order BDF with error control
            (adrcvode.c, EasAdrTS_CVode), its stages solved by the same
            multisplitting Newton through a SUNNonlinearSolver (adrnls.c).
  EasAdrStep takes one step of either, EasAdrSolve integrates to a final time
  exactly, through the output times (-adr_output_interval: monitor points,
  -adr_view_solution), with the monitor and progress lines; -eas_mode auto
  decides sync or async after trial steps; the hooks of the layers above
  (the energy policies) are called at the start, after each converged step
  and at the end of EasAdrSolve.
*/
#include "adrimpl.h"
#include <unistd.h>

/* this rank's busy time of each phase so far */
static PetscErrorCode EasAdrMeterBusy(EasAdr adr, PetscReal busy[EAS_NUM_PHASES])
{
  PetscFunctionBegin;
  for (PetscInt p = 0; p < EAS_NUM_PHASES; p++) PetscCall(EasEnergyMeterGetPhase(adr->meter, (EasPhase)p, adr->unit, &busy[p], NULL, NULL));
  PetscFunctionReturn(0);
}

/*
  -eas_mode auto (docs/energy.md), threshold rule, after the first
  (synchronous) step: share = exchange time / metered time of the step on
  each rank (setup + compute + exchange + transfers busy times; max over
  ranks, the slowest-communicating rank sets the pace of a sync iteration);
  async for the remaining steps when share > threshold, else sync.
*/
static PetscErrorCode EasAdrModeAutoShare(EasAdr adr, const PetscReal busy0[EAS_NUM_PHASES])
{
  PetscReal busy[EAS_NUM_PHASES], tot = 0, share;

  PetscFunctionBegin;
  PetscCall(EasAdrMeterBusy(adr, busy));
  for (PetscInt p = 0; p < EAS_NUM_PHASES; p++) tot += busy[p] - busy0[p];
  share = tot > 0 ? (busy[EAS_PHASE_EXCHANGE] - busy0[EAS_PHASE_EXCHANGE]) / tot : 0;
  PetscCall(MPIU_Allreduce(&share, &adr->auto_share, 1, MPIU_REAL, MPIU_MAX, adr->cart));
  PetscFunctionReturn(0);
}

/*
  EasAdrModeAutoDecide - -eas_mode auto after a trial step (collective).

  Frontier rule (default): the first step runs sync, the second async, each
  measured by the meter: T = the step's run time, E = its energy (measured
  by the sensors when they cover it, else modelled, Vialle et al. eq. 1.16;
  summed over the ranks), Pbar = E/T its average power.  Then Vialle et al.
  eq. 1.50: async is preferable for the energy as soon as
      alpha = T(sync)/T(async) > Pbar(async)/Pbar(sync)
  (EasModelContextFrontier); for the time as soon as alpha > 1; for E T^w
  (EDP w = 1, ED2P w = 2), E_a T_a^w < E_s T_s^w <=> Pbar_a T_a^(w+1) <
  Pbar_s T_s^(w+1) <=> alpha > (Pbar_a/Pbar_s)^(1/(w+1))
  (EasModelCriterionFrontier).  The two trial steps are consecutive steps
  of the run, not the same step twice: a problem whose cost per step
  changes fast biases the comparison (docs/energy-policies.md).  On one
  rank async iterations are the sync ones: sync, without trial.

  Threshold rule: the first step runs sync; its exchange share against
  -eas_mode_auto_threshold (EasAdrModeAutoShare).
*/
static PetscErrorCode EasAdrModeAutoDecide(EasAdr adr, const PetscReal busy0[EAS_NUM_PHASES])
{
  MPI_Comm        comm = PetscObjectComm((PetscObject)adr);
  EasAdrAutoInfo *ai   = &adr->auto_info;

  PetscFunctionBegin;
  if (adr->auto_trial == 0) PetscCall(EasAdrModeAutoShare(adr, busy0)); /* the sync step's share (both rules report it) */
  if (adr->auto_rule == EAS_ADR_AUTO_THRESHOLD || adr->size == 1) {
    adr->auto_decided = PETSC_TRUE;
    adr->mode         = adr->auto_rule == EAS_ADR_AUTO_THRESHOLD && adr->auto_share > adr->auto_threshold ? EAS_ADR_ASYNC : EAS_ADR_SYNC;
    if (adr->size == 1 && adr->auto_rule == EAS_ADR_AUTO_FRONTIER) {
      PetscCall(PetscInfo(adr, "-eas_mode auto: one rank, the asynchronous iterations are the synchronous ones: sync\n"));
      if (adr->monitor) PetscCall(PetscPrintf(comm, "  mode auto: one rank, async iterations are the sync ones -> sync\n"));
    } else {
      PetscCall(PetscInfo(adr, "-eas_mode auto (threshold rule): exchange share of the first step %g (max over ranks) %s threshold %g: %s for the remaining steps\n", (double)adr->auto_share, adr->auto_share > adr->auto_threshold ? ">" : "<=", (double)adr->auto_threshold, adr->mode == EAS_ADR_ASYNC ? "async" : "sync"));
      if (adr->monitor) PetscCall(PetscPrintf(comm, "  mode auto: exchange share %.3g of the first step (max over ranks) %s threshold %.3g -> %s\n", (double)adr->auto_share, adr->auto_share > adr->auto_threshold ? ">" : "<=", (double)adr->auto_threshold, adr->mode == EAS_ADR_ASYNC ? "async" : "sync"));
    }
    PetscFunctionReturn(0);
  }
  { /* frontier rule: this trial step's time and energy */
    EasEnergySummary S1;
    const PetscInt   k = adr->auto_trial;
    PetscCall(EasEnergyMeterGetSummary(adr->meter, &S1));
    ai->T[k]      = S1.time - adr->auto_S0.time;
    ai->E[k]      = S1.energy - adr->auto_S0.energy;
    ai->P[k]      = ai->T[k] > 0 ? ai->E[k] / ai->T[k] : 0;
    ai->Emeasured = (PetscBool)(S1.measured && (k == 0 || ai->Emeasured));
    ai->Emixed    = (PetscBool)(S1.modelled_cpu || S1.modelled_gpu || (k > 0 && ai->Emixed));
    adr->auto_trial++;
  }
  if (adr->auto_trial < 2) {
    adr->mode = EAS_ADR_ASYNC; /* the second trial step */
    PetscFunctionReturn(0);
  }
  PetscCheck(ai->T[0] > 0 && ai->T[1] > 0 && ai->P[0] > 0, comm, PETSC_ERR_PLIB, "-eas_mode auto: a trial step has no metered time or power (T %g, %g s, Pbar %g W)", (double)ai->T[0], (double)ai->T[1], (double)ai->P[0]);
  ai->alpha = ai->T[0] / ai->T[1]; /* eq. (1.50): T(sync)/T(async) */
  if (adr->auto_crit == EAS_CRITERION_TIME)
    ai->frontier = 1.0;
  else if (adr->auto_crit == EAS_CRITERION_ENERGY)
    PetscCall(EasModelContextFrontier(ai->P[0], ai->P[1], &ai->frontier)); /* eq. (1.50): Pbar(async)/Pbar(sync) */
  else
    PetscCall(EasModelCriterionFrontier(ai->P[1], ai->P[0], EasCriterionExponent(adr->auto_crit), &ai->frontier));
  adr->mode         = ai->alpha > ai->frontier ? EAS_ADR_ASYNC : EAS_ADR_SYNC;
  adr->auto_decided = PETSC_TRUE;
  PetscCall(PetscInfo(adr, "-eas_mode auto (frontier rule, criterion %s): sync step T=%g s E=%g J Pbar=%g W, async step T=%g s E=%g J Pbar=%g W (%s); alpha = %g %s frontier %g: %s\n", EasCriterions[adr->auto_crit], (double)ai->T[0], (double)ai->E[0], (double)ai->P[0], (double)ai->T[1], (double)ai->E[1], (double)ai->P[1], ai->Emeasured ? (ai->Emixed ? "measured+modelled" : "measured") : "modelled", (double)ai->alpha, ai->alpha > ai->frontier ? ">" : "<=", (double)ai->frontier, adr->mode == EAS_ADR_ASYNC ? "async" : "sync"));
  if (adr->monitor) PetscCall(PetscPrintf(comm, "  mode auto (criterion %s): sync step T=%.4g s Pbar=%.4g W, async step T=%.4g s Pbar=%.4g W (%s); alpha = T_sync/T_async = %.4g %s frontier %.4g (Vialle et al. eq. 1.50) -> %s\n", EasCriterions[adr->auto_crit], (double)ai->T[0], (double)ai->P[0], (double)ai->T[1], (double)ai->P[1], ai->Emeasured ? (ai->Emixed ? "measured+modelled" : "measured") : "modelled", (double)ai->alpha, ai->alpha > ai->frontier ? ">" : "<=", (double)ai->frontier, adr->mode == EAS_ADR_ASYNC ? "async" : "sync"));
  PetscFunctionReturn(0);
}

/* beuler's step: one implicit Euler step of size dt, the stage system with
   a = x_old, gamma = dt (tout: the caller sized dt to land on it). */
static PetscErrorCode EasAdrTSStep_BEuler(EasAdr adr, PetscReal tout)
{
  PetscErrorCode ierr;

  PetscFunctionBegin;
  (void)tout;
  PetscCall(EasAdrMeterBegin(adr, EAS_PHASE_SETUP));
  PetscCall(EasAdrUpdateCoefficients_Private(adr, adr->t + adr->dt));
  PetscCall(EasAdrStateSave_Private(adr)); /* x_old = x where the state lives (on a device: no transfer) */
  PetscCall(EasAdrMeterEnd(adr, EAS_PHASE_SETUP, adr->np));
  PetscCall(EasAdrStageOverlap_Private(adr, PETSC_TRUE)); /* -adr_overlap: x_old on the overlap is the neighbours' (one exchange, metered as one); x = x_old, so it is also the first outer iteration's */
  adr->stage.t         = adr->t + adr->dt;
  adr->stage.gamma     = adr->dt;
  adr->stage.max_it    = adr->mode == EAS_ADR_ASYNC && adr->size > 1 ? adr->max_checks : adr->newton_max_it;
  adr->stage.test      = NULL;
  adr->stage.ewt       = NULL;
  adr->stage.jac_lag   = adr->jac_lag; /* -adr_lag_jacobian */
  adr->stage.reuse_jac = PETSC_FALSE;  /* a lagged step's last choice is not this one's (the lag may have changed) */
  if (adr->mode == EAS_ADR_ASYNC && adr->size > 1)
    EasCaptureError(ierr, EasAdrStageSolveAsync_Private(adr));
  else
    EasCaptureError(ierr, EasAdrStageSolveSync_Private(adr));
  if (ierr) { /* the step is undone, so the solver can be used again */
    PetscCall(EasAdrStateRestore_Private(adr));
    adr->ghosts_current = PETSC_FALSE;
    adr->reason         = EAS_ADR_CONVERGED_ITERATING;
    PetscCall(ierr);
  }
  if (adr->reason > 0) {
    adr->t += adr->dt;
    adr->ghosts_current = PETSC_TRUE; /* the last synchronous exchange of the step */
  } else {
    PetscCall(EasAdrStateRestore_Private(adr));
    adr->ghosts_current = PETSC_FALSE; /* they hold the rejected iterate */
  }
  PetscFunctionReturn(0);
}

/* The step of the time-stepping type toward tout (beuler: of size adr->dt;
   cvode: one internal step, not beyond tout), with the step's bookkeeping. */
static PetscErrorCode EasAdrStep_Private(EasAdr adr, PetscReal tout)
{
  PetscErrorCode ierr;
  PetscLogDouble t0;
  PetscReal      busy0[EAS_NUM_PHASES];

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(EAS_AdrStep, adr, 0, 0, 0));
  PetscCall(EasEnergyMeterResume(adr->meter)); /* after a stopped EasAdrSolve */
  PetscCall(PetscTime(&t0));
  adr->last_outer = adr->last_inner = 0;
  if (adr->mode_auto && !adr->auto_decided) {
    PetscCall(EasAdrMeterBusy(adr, busy0));
    if (adr->auto_rule == EAS_ADR_AUTO_FRONTIER && adr->size > 1) PetscCall(EasEnergyMeterGetSummary(adr->meter, &adr->auto_S0)); /* collective */
    adr->mode = adr->auto_trial == 1 ? EAS_ADR_ASYNC : EAS_ADR_SYNC;
  }
  EasCaptureError(ierr, (*adr->ts->step)(adr, tout));
  if (ierr) {
    PetscCall(PetscLogEventEnd(EAS_AdrStep, adr, 0, 0, 0));
    PetscCall(ierr);
  }
  if (adr->reason > 0) adr->stats.steps++;
  if (adr->mode_auto && !adr->auto_decided && adr->reason > 0) PetscCall(EasAdrModeAutoDecide(adr, busy0));
  PetscCall(PetscTimeSubtract(&t0));
  adr->last_time = -t0;
  PetscCall(PetscLogEventEnd(EAS_AdrStep, adr, 0, 0, 0));
  PetscFunctionReturn(0);
}

/*@C
  EasAdrStep - one time step: with -adr_ts_type beuler one implicit Euler
  step of size dt (sync or async), with cvode one internal CVODE step (of
  CVODE's size and order, not beyond the final time).  On failure the state
  is left at the start of the step and the reason says why.
@*/
PetscErrorCode EasAdrStep(EasAdr adr)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCall(EasAdrSetUp(adr));
  PetscCall(EasAdrStep_Private(adr, adr->tfinal > adr->t ? adr->tfinal : adr->t + adr->dt));
  PetscFunctionReturn(0);
}

/* The monitor line (-adr_monitor, the stepper's) after a step (beuler) or
   an output segment (cvode), else the progress line (-adr_progress, a
   terminal only, never together with the monitor: the monitor's lines would
   break it). */
PetscErrorCode EasAdrMonitor_Private(EasAdr adr, PetscInt step, PetscReal t_start, PetscReal t_end, PetscLogDouble seg_time)
{
  PetscInt  loc[2] = {adr->last_outer, adr->last_inner}, glob[2];
  PetscBool tty    = (PetscBool)(!adr->monitor && adr->progress && adr->rank == 0 && isatty(fileno(PETSC_STDOUT)));
  MPI_Comm  comm   = PetscObjectComm((PetscObject)adr);

  PetscFunctionBegin;
  if (!adr->monitor && !adr->progress) PetscFunctionReturn(0); /* collective: the same on every rank */
  PetscCall(MPIU_Allreduce(loc, glob, 2, MPIU_INT, MPI_MAX, comm));
  if (adr->monitor) PetscCall((*adr->ts->monitor)(adr, step, seg_time, glob));
  if (tty) {
    char            bar[31];
    const PetscReal frac = t_end > t_start ? PetscMin(1.0, (adr->t - t_start) / (t_end - t_start)) : 1.0;
    const PetscInt  done = (PetscInt)(30 * frac);
    for (PetscInt i = 0; i < 30; i++) bar[i] = i < done ? '#' : '.';
    bar[30] = 0;
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "\r[%s] %3d%% t = %-12g", bar, (int)(100 * frac), (double)adr->t));
    if (frac >= 1.0) PetscCall(PetscPrintf(PETSC_COMM_SELF, "\n"));
    fflush(PETSC_STDOUT);
  }
  PetscFunctionReturn(0);
}

/* beuler's advance: implicit Euler steps from adr->t to tout, the last one
   shortened to land on it; stops at a step that does not converge. */
static PetscErrorCode EasAdrTSAdvance_BEuler(EasAdr adr, PetscReal tout, PetscReal t_start, PetscReal t_end, PetscInt *step, PetscInt *nconv)
{
  const PetscReal dt0 = adr->dt;

  PetscFunctionBegin;
  while (tout - adr->t > 1e-9 * dt0) {
    PetscErrorCode ierr;
    adr->dt = PetscMin(dt0, tout - adr->t);
    if (tout - adr->t - adr->dt <= 1e-9 * dt0) adr->dt = tout - adr->t; /* land exactly on tout */
    EasCaptureError(ierr, EasAdrStep_Private(adr, tout));
    adr->dt = dt0;
    PetscCall(ierr);
    (*step)++;
    PetscCall(EasAdrMonitor_Private(adr, *step, t_start, t_end, adr->last_time));
    if (adr->reason < 0) break;
    (*nconv)++;
    PetscCall(EasAdrCallHooks_Private(adr, EAS_HOOK_STEP, *nconv, (PetscInt)PetscCeilReal((t_end - t_start) / dt0 - 1e-9))); /* the policies above may move the solver for the next steps */
  }
  if (adr->reason > 0 && PetscAbsReal(adr->t - tout) <= 1e-9 * dt0) adr->t = tout; /* no drift from the sum of steps */
  PetscFunctionReturn(0);
}

/*@C
  EasAdrSolve - integrates from the current time to t_final, ending exactly
  there with either time-stepping type (PETSC_DEFAULT: the final time, or
  -adr_steps steps of dt if set): beuler takes steps of dt, the last one
  shortened; cvode lets CVODE choose steps and orders under its error
  control, with t_final as its stop time.  At every output time
  (-adr_output_interval, multiples of it from t = 0) and at t_final: the
  monitor points (-adr_monitor_points) and the solution viewer
  (-adr_view_solution).  Stops at the first step that does not converge
  (EasAdrGetConvergedReason); the solution is then the last converged one.
@*/
PetscErrorCode EasAdrSolve(EasAdr adr, PetscReal t_final)
{
  PetscReal      tf   = t_final, t_start;
  PetscInt       step = 0, nconv = 0, nsteps = PETSC_DECIDE;
  PetscLogDouble t0;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCall(EasAdrSetUp(adr));
  if (tf == (PetscReal)PETSC_DEFAULT) tf = adr->max_steps > 0 ? adr->t + adr->max_steps * adr->dt : adr->tfinal;
  PetscCheck(!PetscIsInfOrNanReal(tf), PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_OUTOFRANGE, "EasAdrSolve: the final time is not a finite number");
  PetscCheck(adr->dt > 0, PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_OUTOFRANGE, "-adr_dt %g is invalid: expected a time step > 0", (double)adr->dt);
  PetscCall(PetscLogEventBegin(EAS_AdrSolve, adr, 0, 0, 0));
  PetscCall(PetscTime(&t0));
  adr->reason = EAS_ADR_CONVERGED_ITERATING;
  t_start     = adr->t;
  if (adr->ts->nsteps) PetscCall((*adr->ts->nsteps)(adr, t_start, tf, &nsteps));
  PetscCall(EasAdrCallHooks_Private(adr, EAS_HOOK_SOLVE_BEGIN, 0, nsteps));
  while (tf - adr->t > 1e-12 * PetscMax(1.0, PetscAbsReal(tf))) {
    PetscErrorCode ierr;
    PetscReal      tout = tf;
    if (adr->output_interval > 0) { /* the next output time: a multiple of the interval after t */
      const PetscReal k = PetscFloorReal(adr->t / adr->output_interval + 1e-9) + 1;
      tout              = PetscMin(tf, k * adr->output_interval);
    }
    EasCaptureError(ierr, (*adr->ts->advance)(adr, tout, t_start, tf, &step, &nconv));
    if (ierr) { /* leave the solver usable: the solve's event and meter window */
      PetscCall(PetscLogEventEnd(EAS_AdrSolve, adr, 0, 0, 0));
      PetscCall(EasEnergyMeterStop(adr->meter));
      PetscCall(ierr);
    }
    if (adr->reason < 0) break;
    PetscCall(EasAdrOutput_Private(adr)); /* at an output time or at tf */
  }
  PetscCall(PetscTimeSubtract(&t0));
  adr->stats.time_solve += -t0;
  PetscCall(MPIU_Allreduce(&adr->stats.outer_its, &adr->stats.outer_its_max, 1, MPIU_INT, MPI_MAX, PetscObjectComm((PetscObject)adr)));
  PetscCall(PetscLogEventEnd(EAS_AdrSolve, adr, 0, 0, 0));
  PetscCall(EasEnergyMeterStop(adr->meter));                                                                                                                                      /* power and EDP over the solve; the next step resumes */
  PetscCall(EasAdrCallHooks_Private(adr, EAS_HOOK_SOLVE_END, nconv, nsteps)); /* e.g. predicted against measured, settings restored */
  if (adr->reason < 0) PetscCall((*adr->ts->failed)(adr, step));
  if (adr->view) PetscCall(EasAdrView(adr, NULL));
  PetscCall(EasEnergyMeterViewFromOptions(adr->meter));
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------- beuler */

/* beuler's setup: the diurnal default step bounded by the grid. */
static PetscErrorCode EasAdrTSSetUp_BEuler(EasAdr adr)
{
  PetscFunctionBegin;
  if (!adr->dt_set && adr->problem == EAS_ADR_PROBLEM_DIURNAL && adr->advection == EAS_ADR_CENTRAL && !adr->velocity && adr->N[0] > 1) {
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
  PetscFunctionReturn(0);
}

/* beuler's steps from t_start to t_end: steps of dt, the last one shortened. */
static PetscErrorCode EasAdrTSNumSteps_BEuler(EasAdr adr, PetscReal t_start, PetscReal t_end, PetscInt *n)
{
  PetscFunctionBegin;
  *n = (PetscInt)PetscCeilReal((t_end - t_start) / adr->dt - 1e-9);
  PetscFunctionReturn(0);
}

static PetscErrorCode EasAdrTSMonitor_BEuler(EasAdr adr, PetscInt step, PetscLogDouble seconds, const PetscInt its[2])
{
  PetscFunctionBegin;
  PetscCall(PetscPrintf(PetscObjectComm((PetscObject)adr), "  step %3" PetscInt_FMT " t %-12.6g outer %3" PetscInt_FMT " inner %5" PetscInt_FMT " residual %9.3e update %9.3e time %.3f s %s\n", step, (double)adr->t, its[0], its[1], (double)adr->last_fnorm, (double)adr->last_res, (double)seconds, EasAdrConvergedReasonName(adr->reason)));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasAdrTSFailed_BEuler(EasAdr adr, PetscInt step)
{
  PetscFunctionBegin;
  PetscCall(PetscPrintf(PetscObjectComm((PetscObject)adr), "EasAdrSolve: step %" PetscInt_FMT " at t = %g did not converge: %s\n", step, (double)adr->t, EasAdrConvergedReasonName(adr->reason)));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasAdrTSView_BEuler(EasAdr adr, PetscViewer viewer)
{
  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "implicit Euler: t = %g, dt = %g; multisplitting-Newton %s, rtol %g, max_it %" PetscInt_FMT "\n", (double)adr->t, (double)adr->dt, adr->mode == EAS_ADR_ASYNC ? "async" : "sync", (double)adr->newton_rtol, adr->newton_max_it));
  PetscFunctionReturn(0);
}

/* implicit Euler: no data of its own, no statistics (EasAdrGetTimeStepStats gives zeros) */
const EasAdrTSOps EasAdrTS_BEuler = {NULL, EasAdrTSSetUp_BEuler, EasAdrTSStep_BEuler, EasAdrTSAdvance_BEuler, EasAdrTSNumSteps_BEuler, EasAdrTSMonitor_BEuler, EasAdrTSFailed_BEuler, EasAdrTSView_BEuler, NULL, NULL};
