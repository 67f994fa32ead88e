/*
  Time stepping of EasAdr (DESIGN.md sec. 4): EasAdrStep takes one implicit
  Euler step (Vialle et al. eqs. 1.42-1.43) by solving its stage system with
  the multisplitting Newton (msnewton.c), EasAdrSolve steps to a final time
  with the monitor and progress lines, and -eas_mode auto decides sync or
  async after the first step.
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
  EasAdrModeAutoDecide - -eas_mode auto (DESIGN.md sec. 6), after the first
  (synchronous) step: share = exchange time / metered time of the step on
  each rank (setup + compute + exchange + transfers busy times; max over
  ranks, the slowest-communicating rank sets the pace of a sync iteration);
  async for the remaining steps when share > threshold, else sync.

  Why a threshold and not seed 000 eqs. 1.49-1.50 directly: the context
  comparison (EasModelContextFrontier) says async saves energy when its
  speedup alpha = T_sync/T_async exceeds Pbar_async/Pbar_sync, but T_async
  is only known after running async: async hides the communication (at
  best alpha = 1/(1 - share)) and pays for it with extra iterations whose
  number depends on the problem and the network (issue 3 benchmark).  So the
  decision is the measured share against a threshold, and the frontier is
  reported next to it: Pbar_sync = P_I + (1 - share) P_C (cores wait during
  the exchanges), Pbar_async = P_I + P_C (always computing).
*/
static PetscErrorCode EasAdrModeAutoDecide(EasAdr adr, const PetscReal busy0[EAS_NUM_PHASES])
{
  PetscReal       busy[EAS_NUM_PHASES], tot = 0, share, gshare, alpha = 0, best;
  EasPowerProfile prof;

  PetscFunctionBegin;
  PetscCall(EasAdrMeterBusy(adr, busy));
  for (PetscInt p = 0; p < EAS_NUM_PHASES; p++) tot += busy[p] - busy0[p];
  share = tot > 0 ? (busy[EAS_PHASE_EXCHANGE] - busy0[EAS_PHASE_EXCHANGE]) / tot : 0;
  PetscCall(MPIU_Allreduce(&share, &gshare, 1, MPIU_REAL, MPIU_MAX, adr->cart));
  adr->auto_share   = gshare;
  adr->auto_decided = PETSC_TRUE;
  adr->mode         = gshare > adr->auto_threshold ? EAS_ADR_ASYNC : EAS_ADR_SYNC;
  PetscCall(EasEnergyMeterGetProfile(adr->meter, &prof));
  {
    const PetscReal PI = prof.cpu_idle + prof.gpu_idle + prof.dram, PC = adr->device ? prof.gpu_full - prof.gpu_idle : prof.cpu_full - prof.cpu_idle;
    const PetscReal Psync = PI + (1 - gshare) * PC;
    if (Psync > 0) PetscCall(EasModelContextFrontier(Psync, PI + PC, &alpha)); /* seed 000 eqs. (1.49)-(1.50) */
  }
  best = gshare < 1 ? 1.0 / (1.0 - gshare) : PETSC_INFINITY;
  PetscCall(PetscInfo(adr, "-eas_mode auto: exchange share of the first step %g (max over ranks) %s threshold %g: %s for the remaining steps; energy frontier (seed 000 eq. 1.50): async needs a speedup > %g, at most %g by hiding all communication\n", (double)gshare, gshare > adr->auto_threshold ? ">" : "<=", (double)adr->auto_threshold, adr->mode == EAS_ADR_ASYNC ? "async" : "sync", (double)alpha, (double)best));
  if (adr->monitor) PetscCall(PetscPrintf(PetscObjectComm((PetscObject)adr), "  mode auto: exchange share %.3g of the first step (max over ranks) %s threshold %.3g -> %s; async energy frontier: speedup > %.3g needed, <= %.3g possible\n", (double)gshare, gshare > adr->auto_threshold ? ">" : "<=", (double)adr->auto_threshold, adr->mode == EAS_ADR_ASYNC ? "async" : "sync", (double)alpha, (double)best));
  PetscFunctionReturn(0);
}

/*@C
  EasAdrStep - one implicit Euler step of size dt (sync or async).  On
  failure the state is left at the start of the step and the reason says why.
@*/
PetscErrorCode EasAdrStep(EasAdr adr)
{
  PetscErrorCode ierr;
  PetscLogDouble t0;
  PetscReal      busy0[EAS_NUM_PHASES];

  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCall(EasAdrSetUp(adr));
  PetscCall(PetscLogEventBegin(EAS_AdrStep, adr, 0, 0, 0));
  PetscCall(EasEnergyMeterResume(adr->meter)); /* after a stopped EasAdrSolve */
  PetscCall(PetscTime(&t0));
  adr->last_outer = adr->last_inner = 0;
  if (adr->mode_auto && !adr->auto_decided) PetscCall(EasAdrMeterBusy(adr, busy0));
  PetscCall(EasAdrMeterBegin(adr, EAS_PHASE_SETUP));
  PetscCall(EasAdrUpdateCoefficients_Private(adr, adr->t + adr->dt));
  PetscCall(PetscArraycpy(adr->xold, adr->x, adr->n));
  adr->xold_synced = PETSC_FALSE;
  PetscCall(EasAdrMeterEnd(adr, EAS_PHASE_SETUP, adr->np));
  if (adr->mode == EAS_ADR_ASYNC && adr->size > 1)
    EasCaptureError(ierr, EasAdrStepAsync_Private(adr));
  else
    EasCaptureError(ierr, EasAdrStepSync_Private(adr));
  if (ierr) { /* the step is undone, so the solver can be used again */
    PetscCall(PetscArraycpy(adr->x, adr->xold, adr->n));
    adr->ghosts_current = PETSC_FALSE;
    adr->reason         = EAS_ADR_CONVERGED_ITERATING;
    PetscCall(PetscLogEventEnd(EAS_AdrStep, adr, 0, 0, 0));
    PetscCall(ierr);
  }
  if (adr->mode_auto && !adr->auto_decided) PetscCall(EasAdrModeAutoDecide(adr, busy0));
  if (adr->reason > 0) {
    adr->t += adr->dt;
    adr->stats.steps++;
    adr->ghosts_current = PETSC_TRUE; /* the last synchronous exchange of the step */
  } else {
    PetscCall(PetscArraycpy(adr->x, adr->xold, adr->n));
    adr->ghosts_current = PETSC_FALSE; /* they hold the rejected iterate */
  }
  PetscCall(PetscTimeSubtract(&t0));
  adr->last_time = -t0;
  PetscCall(PetscLogEventEnd(EAS_AdrStep, adr, 0, 0, 0));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasAdrMonitorStep(EasAdr adr, PetscInt step, PetscInt nsteps)
{
  PetscInt  loc[2] = {adr->last_outer, adr->last_inner}, glob[2];
  PetscBool tty    = (PetscBool)(adr->progress && adr->rank == 0 && isatty(fileno(PETSC_STDOUT)));
  MPI_Comm  comm   = PetscObjectComm((PetscObject)adr);

  PetscFunctionBegin;
  if (!adr->monitor && !adr->progress) PetscFunctionReturn(0); /* collective: the same on every rank */
  PetscCall(MPIU_Allreduce(loc, glob, 2, MPIU_INT, MPI_MAX, comm));
  if (tty) PetscCall(PetscPrintf(PETSC_COMM_SELF, "\r%79s\r", ""));
  if (adr->monitor)
    PetscCall(PetscPrintf(comm, "  step %3" PetscInt_FMT " t %-12.6g outer %3" PetscInt_FMT " inner %5" PetscInt_FMT " residual %9.3e update %9.3e time %.3f s %s\n", step, (double)adr->t, glob[0], glob[1], (double)adr->last_fnorm, (double)adr->last_res, (double)adr->last_time, EasAdrConvergedReasonName(adr->reason)));
  if (tty) {
    char     bar[31];
    PetscInt done = (30 * step) / PetscMax(nsteps, 1);
    for (PetscInt i = 0; i < 30; i++) bar[i] = i < done ? '#' : '.';
    bar[30] = 0;
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "[%s] %3d%% step %" PetscInt_FMT "/%" PetscInt_FMT " t = %g", bar, (int)(100 * step / PetscMax(nsteps, 1)), step, nsteps, (double)adr->t));
    if (step == nsteps) PetscCall(PetscPrintf(PETSC_COMM_SELF, "\n"));
    fflush(PETSC_STDOUT);
  }
  PetscFunctionReturn(0);
}

/*@C
  EasAdrSolve - implicit Euler steps from the current time to t_final
  (PETSC_DEFAULT: -adr_steps steps if set, else -adr_tfinal); the last step
  shortened to land on t_final.  Stops at the first step that does not
  converge (EasAdrGetConvergedReason); the solution is then the last
  converged one.
@*/
PetscErrorCode EasAdrSolve(EasAdr adr, PetscReal t_final)
{
  PetscReal      tf = t_final, dt0;
  PetscInt       nsteps, step = 0;
  PetscLogDouble t0;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCall(EasAdrSetUp(adr));
  if (tf == (PetscReal)PETSC_DEFAULT) tf = adr->max_steps > 0 ? adr->t + adr->max_steps * adr->dt : adr->tfinal;
  PetscCheck(!PetscIsInfOrNanReal(tf), PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_OUTOFRANGE, "EasAdrSolve: the final time is not a finite number");
  PetscCheck(adr->dt > 0, PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_OUTOFRANGE, "-adr_dt %g is invalid: expected a time step > 0", (double)adr->dt);
  dt0    = adr->dt;
  nsteps = (PetscInt)PetscCeilReal((tf - adr->t) / dt0 - 1e-9);
  PetscCall(PetscLogEventBegin(EAS_AdrSolve, adr, 0, 0, 0));
  PetscCall(PetscTime(&t0));
  adr->reason = EAS_ADR_CONVERGED_ITERATING;
  while (tf - adr->t > 1e-9 * dt0) {
    PetscErrorCode ierr;
    adr->dt = PetscMin(dt0, tf - adr->t);
    EasCaptureError(ierr, EasAdrStep(adr));
    if (ierr) { /* leave the solver usable: its step size and the solve's event and meter window */
      adr->dt = dt0;
      PetscCall(PetscLogEventEnd(EAS_AdrSolve, adr, 0, 0, 0));
      PetscCall(EasEnergyMeterStop(adr->meter));
      PetscCall(ierr);
    }
    step++;
    PetscCall(EasAdrMonitorStep(adr, step, nsteps));
    if (adr->reason < 0) break;
    PetscCall(EasAdrPolicyStep_Private(adr, nsteps)); /* may move the solver for the next steps */
  }
  adr->dt = dt0;
  PetscCall(PetscTimeSubtract(&t0));
  adr->stats.time_solve += -t0;
  PetscCall(MPIU_Allreduce(&adr->stats.outer_its, &adr->stats.outer_its_max, 1, MPIU_INT, MPI_MAX, PetscObjectComm((PetscObject)adr)));
  PetscCall(PetscLogEventEnd(EAS_AdrSolve, adr, 0, 0, 0));
  PetscCall(EasEnergyMeterStop(adr->meter)); /* power and EDP over the solve; the next step resumes */
  if (adr->policy_auto) {                    /* -eas_backend auto: predicted against measured */
    EasEnergySummary S;
    PetscReal        T;
    PetscCall(EasEnergyMeterGetSummary(adr->meter, &S));
    PetscCall(MPIU_Allreduce(&adr->stats.time_solve, &T, 1, MPIU_REAL, MPIU_MAX, PetscObjectComm((PetscObject)adr)));
    PetscCall(EasPolicySetMeasured(adr->policy, T, S.valid ? S.energy : -1, S.measured));
    PetscCall(EasPolicyView(adr->policy, NULL));
  }
  if (adr->reason < 0) PetscCall(PetscPrintf(PetscObjectComm((PetscObject)adr), "EasAdrSolve: step %" PetscInt_FMT " at t = %g did not converge: %s\n", step, (double)adr->t, EasAdrConvergedReasonName(adr->reason)));
  if (adr->view) PetscCall(EasAdrView(adr, NULL));
  PetscCall(EasEnergyMeterViewFromOptions(adr->meter));
  PetscFunctionReturn(0);
}
