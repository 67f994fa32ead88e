/*
  EasAdrSetFromOptions: the options of an EasAdr, each a thin front for its
  setter (docs/options.md lists them with their defaults).
*/
#include "adrimpl.h"

/* -adr_decomp: "auto" or "px,py,pz" (three integers, nothing else) for EasAdrSetDecomposition. */
static PetscErrorCode EasAdrDecompositionFromString(EasAdr adr, const char str[])
{
  PetscBool auto_;
  long      p[3];
  char      tail;

  PetscFunctionBegin;
  PetscCall(PetscStrcasecmp(str, "auto", &auto_));
  if (auto_) {
    PetscCall(EasAdrSetDecomposition(adr, PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE));
    PetscFunctionReturn(0);
  }
  PetscCheck(sscanf(str, "%ld,%ld,%ld%c", &p[0], &p[1], &p[2], &tail) == 3 && p[0] >= 1 && p[1] >= 1 && p[2] >= 1 && p[0] <= PETSC_MPI_INT_MAX && p[1] <= PETSC_MPI_INT_MAX && p[2] <= PETSC_MPI_INT_MAX, PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_WRONG, "-adr_decomp %s is invalid: expected auto or px,py,pz (three counts >= 1 whose product is the number of ranks)", str);
  PetscCall(EasAdrSetDecomposition(adr, (PetscInt)p[0], (PetscInt)p[1], (PetscInt)p[2]));
  PetscFunctionReturn(0);
}

/*@C
  EasAdrSetFromOptions - -adr_problem diurnal|transport, -adr_n, -adr_nx,
  -adr_ny, -adr_nz, -adr_dt, -adr_steps, -adr_tfinal, -adr_advection
  upwind|central, -adr_reaction diurnal|linear, -adr_linear_reaction
  a,b,c,d, -adr_bc dirichlet|neumann, -adr_monitor, -adr_view,
  -adr_progress, -adr_newton_rtol, -adr_newton_max_it,
  -adr_jacobian_precision double|single, -adr_decomp auto|px,py,pz,
  -adr_lag_preconditioner, -adr_ksp_ew,
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
      PetscCall(EasAdrLookup_Private(adr, EasPrecisions, 2, str, "-adr_jacobian_precision", &m));
      PetscCall(EasAdrSetJacobianPrecision(adr, (EasPrecision)m));
    }
    {
      char def[64] = "auto";
      if (adr->decomp[0] != PETSC_DECIDE) PetscCall(PetscSNPrintf(def, sizeof(def), "%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT, adr->decomp[0], adr->decomp[1], adr->decomp[2]));
      PetscCall(PetscOptionsString("-adr_decomp", "Ranks per direction: auto (cut the least coupling max dt(|V_d|/h_d + 2K_d/h_d^2), weakest axes first) or px,py,pz", "EasAdrSetDecomposition", def, str, sizeof(str), &flg));
      if (flg) PetscCall(EasAdrDecompositionFromString(adr, str));
    }
    {
      PetscInt d = adr->overlap_opt;
      PetscCall(PetscOptionsInt("-adr_overlap", "Planes of each neighbour's box the rank's solve adds (restricted additive Schwarz; 0: block Jacobi)", "EasAdrSetOverlap", d, &d, &flg));
      if (flg) PetscCall(EasAdrSetOverlap(adr, d));
    }
    {
      PetscBool ph = adr->phased;
      PetscCall(PetscOptionsBool("-adr_overlap_phased", "With an overlap and cuts in 2-3 directions: exchange one direction at a time (corner blocks current)", "EasAdrSetOverlapPhased", ph, &ph, &flg));
      if (flg) PetscCall(EasAdrSetOverlapPhased(adr, ph));
    }
  }
  {
    PetscInt lag = adr->jac_lag;
    PetscCall(PetscOptionsInt("-adr_lag_jacobian", "beuler: rebuild the local Jacobian at every Newton iteration (1), at the first of each step and every k-th (k > 1, a chord between), only the first one ever (-1) (PETSc's -snes_lag_jacobian)", "EasAdrSetLagJacobian", lag, &lag, &flg));
    if (flg) PetscCall(EasAdrSetLagJacobian(adr, lag));
  }
  {
    PetscInt lag = adr->pc_lag;
    PetscCall(PetscOptionsInt("-adr_lag_preconditioner", "Rebuild the inner ILU at every Newton iteration (1), at the first of each nonlinear solve and every k-th (k > 1), never after the first (-1) (PETSc's -snes_lag_preconditioner)", "EasAdrSetLagPreconditioner", lag, &lag, &flg));
    if (flg) PetscCall(EasAdrSetLagPreconditioner(adr, lag));
  }
  PetscCall(PetscOptionsBool("-adr_ksp_ew", "Eisenstat-Walker inner tolerances (PETSc's -snes_ksp_ew) instead of -adr_ksp_rtol", "EasAdrSetKspEW", adr->ew.use, &adr->ew.use, NULL));
  {
    PetscInt  v  = adr->ew.version;
    PetscReal r0 = adr->ew.rtol_0, rm = adr->ew.rtol_max, g = adr->ew.gamma, a = adr->ew.alpha, a2 = adr->ew.alpha2, th = adr->ew.threshold;
    PetscCall(PetscOptionsInt("-adr_ksp_ew_version", "Eisenstat-Walker version 1, 2 or 3", "EasAdrSetKspEWParameters", v, &v, NULL));
    PetscCall(PetscOptionsReal("-adr_ksp_ew_rtol0", "Eisenstat-Walker first inner rtol of a step, [0, 1)", "EasAdrSetKspEWParameters", r0, &r0, NULL));
    PetscCall(PetscOptionsReal("-adr_ksp_ew_rtolmax", "Eisenstat-Walker largest inner rtol, [0, 1)", "EasAdrSetKspEWParameters", rm, &rm, NULL));
    PetscCall(PetscOptionsReal("-adr_ksp_ew_gamma", "Eisenstat-Walker gamma (versions 2, 3), [0, 1]", "EasAdrSetKspEWParameters", g, &g, NULL));
    PetscCall(PetscOptionsReal("-adr_ksp_ew_alpha", "Eisenstat-Walker alpha (versions 2, 3), (1, 2]", "EasAdrSetKspEWParameters", a, &a, NULL));
    PetscCall(PetscOptionsReal("-adr_ksp_ew_alpha2", "Eisenstat-Walker safeguard power (version 1), (1, 2]", "EasAdrSetKspEWParameters", a2, &a2, NULL));
    PetscCall(PetscOptionsReal("-adr_ksp_ew_threshold", "Eisenstat-Walker safeguard threshold (versions 1, 2), (0, 1)", "EasAdrSetKspEWParameters", th, &th, NULL));
    PetscCall(EasAdrSetKspEWParameters(adr, v, r0, rm, g, a, a2, th));
  }
  PetscCall(PetscOptionsString("-eas_mode", "Outer iteration mode: sync, async or auto (trial steps, then -eas_mode_auto_rule decides)", "EasAdrSetMode", adr->mode_auto ? "auto" : (adr->mode == EAS_ADR_ASYNC ? "async" : "sync"), str, sizeof(str), &flg));
  if (flg) {
    const char *const modes[] = {"sync", "async", "auto"};
    PetscInt          m       = 0;
    PetscCall(EasAdrLookup_Private(adr, modes, 3, str, "-eas_mode", &m));
    PetscCall(EasAdrSetMode(adr, (EasAdrMode)m));
  }
  {
    PetscInt     rule = adr->auto_rule;
    EasCriterion crit = adr->auto_crit;
    PetscCall(PetscOptionsEList("-eas_mode_auto_rule", "-eas_mode auto: frontier (one sync and one async trial step, Vialle et al. eqs. 1.49-1.50 under -eas_criterion) or threshold (the first step's exchange share)", "EasAdrSetModeAutoRule", EasAdrAutoRules, 2, EasAdrAutoRules[adr->auto_rule], &rule, &flg));
    if (flg) PetscCall(EasAdrSetModeAutoRule(adr, (EasAdrAutoRule)rule));
    PetscCall(EasCriterionSetFromOptions_Private(PetscOptionsObject, "EasAdrSetModeAutoCriterion", &crit, &flg));
    if (flg) PetscCall(EasAdrSetModeAutoCriterion(adr, crit));
  }
  rval = adr->auto_threshold;
  PetscCall(PetscOptionsReal("-eas_mode_auto_threshold", "-eas_mode auto (threshold rule): exchange share of the first step's time above which async is chosen, in [0, 1]", "EasAdrSetModeAutoThreshold", rval, &rval, &flg));
  if (flg) PetscCall(EasAdrSetModeAutoThreshold(adr, rval));
  PetscCall(PetscOptionsString("-eas_async_detect", "Asynchronous convergence detection: iallreduce (two rounds of a non-blocking global reduction) or decentralized (neighbour messages only: election on a spanning tree and verification waves, Bahi et al. VECPAR'08)", "EasAdrSetFromOptions", EasDetectTypes[adr->async_detect], str, sizeof(str), &flg));
  if (flg) {
    PetscInt m = 0;
    PetscCall(EasAdrLookup_Private(adr, EasDetectTypes, 2, str, "-eas_async_detect", &m));
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
    {
      PetscReal el = adr->ts_eps_lin;
      PetscCall(PetscOptionsReal("-adr_ts_eps_lin", "cvode: the inner solves stop at an error-weighted residual RMS of this factor times the stage's Newton tolerance (CVODE's eplifac; 0: -adr_ksp_rtol only)", "EasAdrSetTimeStepLinearTolerance", el, &el, &flg));
      if (flg) PetscCall(EasAdrSetTimeStepLinearTolerance(adr, el));
    }
    PetscCall(PetscOptionsInt("-adr_ts_max_newton_it", "cvode: synchronous outer iterations (async: synchronous checks) per stage before CVODE retries with a smaller step (default 3, CVODE's own, on one rank; 10 on several: the multisplitting converges linearly between the boxes)", "EasAdrSetFromOptions", adr->ts_max_newton_it, &adr->ts_max_newton_it, NULL));
    PetscCheck(adr->ts_max_newton_it >= 1 || adr->ts_max_newton_it == PETSC_DECIDE, PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_OUTOFRANGE, "-adr_ts_max_newton_it %" PetscInt_FMT " is invalid: expected a count >= 1", adr->ts_max_newton_it);
  }
  PetscCall(EasAdrOutputSetFromOptions_Private(adr, PetscOptionsObject));
  PetscOptionsEnd();
  PetscCall(EasKspSetFromOptions(adr->ksp));
  PetscCall(EasAdrFoldJacobi_Private(adr, PETSC_TRUE));
  if (!adr->setupcalled) {
    const char *trace;
    PetscCall(EasAdrMeterCreate_Private(adr));
    PetscCall(EasEnergyMeterSetFromOptions(adr->meter)); /* -eas_trace among them */
    PetscCall(EasEnergyMeterGetTrace(adr->meter, &trace));
    adr->trace = trace ? PETSC_TRUE : PETSC_FALSE;
  }
  PetscFunctionReturn(0);
}
