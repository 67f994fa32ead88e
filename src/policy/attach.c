/*
  The energy policies attached to the solvers through their hooks
  (include/eas/sys.h): the online backend choice (EasPolicyAttachAdr,
  EasPolicyAttachEbe; attached by the resolver of -eas_backend auto,
  resolve.c) and the hardware policies, DVFS and the power budget
  (EasPolicyAttachAdrFromOptions, EasPolicyAttachEbeFromOptions).  The
  solvers know nothing of these: they call the hooks at fixed points and
  the policies read the solvers' meters and act through public setters.
*/
#include "policyimpl.h"

/* ------------------------------------------------- online backend choice */

typedef struct {
  EasPolicy      pol;
  PetscInt       interval, since, moves;
  PetscBool      warned;
  PetscBool      cold; /* the interval after a move: its time is the move's cold start, not the unit's rate */
  PetscReal      busy0, work0;
  PetscLogDouble t0;
  PetscReal      E0, Tc0; /* energy and compute-phase wall time at the start of the solve */
} AdrPolicyCtx;

static PetscErrorCode AdrPolicyCtxDestroy(void **ctx)
{
  AdrPolicyCtx *c = (AdrPolicyCtx *)*ctx;

  PetscFunctionBegin;
  PetscCall(EasPolicyDestroy(&c->pol));
  PetscCall(PetscFree(c));
  *ctx = NULL;
  PetscFunctionReturn(0);
}

/*
  After a converged step: every interval steps, the compute time per row and
  BiCGStab iteration of the solver since the previous update (its meter's
  compute phase; max over ranks, so every rank gets the same answer) goes to
  EasPolicyUpdate, with the work of the solve re-estimated from the measured
  inner iterations per step; an answer of the other kind moves the solver
  (collective).  The first interval after a move is not a measurement of the
  new unit (first touch of its arrays, its first kernels, a thread team
  started): that update keeps the unit's previous figure, so a cold start
  cannot send the solver back and forth (seen on an H100 with 8 threads
  per rank: GPU -> CPU -> GPU in 4 steps).  At the start and end of the
  solve: predicted against measured time and energy.
*/
static PetscErrorCode AdrPolicyHook(PetscObject obj, const EasHookInfo *info, void *ctx)
{
  EasAdr           adr  = (EasAdr)obj;
  AdrPolicyCtx    *c    = (AdrPolicyCtx *)ctx;
  MPI_Comm         comm = PetscObjectComm(obj);
  EasEnergyMeter   meter;
  EasEnergySummary S;
  EasBackend       be;
  PetscBool        host;
  PetscInt         moves;

  PetscFunctionBegin;
  PetscCall(EasAdrGetEnergyMeter(adr, &meter));
  if (info->point == EAS_HOOK_SOLVE_BEGIN) {
    PetscCall(EasEnergyMeterGetSummary(meter, &S));
    c->E0  = S.energy;
    c->Tc0 = S.phase_time[EAS_PHASE_COMPUTE];
    PetscCall(PetscTime(&c->t0));
    if (c->moves < 0) { /* the first solve: measure from here */
      PetscCall(EasAdrGetBackendMoves(adr, &c->moves));
      PetscCall(EasEnergyMeterGetPhase(meter, EAS_PHASE_COMPUTE, -1, &c->busy0, &c->work0, NULL));
    }
    PetscFunctionReturn(0);
  }
  if (info->point == EAS_HOOK_SOLVE_END) { /* predicted (for this solve's work, at the latest rates) against measured */
    PetscLogDouble t1;
    PetscReal      T;
    PetscCall(PetscTime(&t1));
    T = (PetscReal)(t1 - c->t0);
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &T, 1, MPIU_REAL, MPIU_MAX, comm));
    PetscCall(EasEnergyMeterGetSummary(meter, &S));
    PetscCall(EasPolicySetMeasured(c->pol, T, S.valid ? S.energy - c->E0 : -1, S.measured));
    PetscCall(EasEnergySummaryGetSource(&S, &c->pol->Esource)); /* measured+modelled where the sensors cover some kinds only */
    PetscCall(EasPolicyView(c->pol, NULL));
    /* the prediction models the compute only (Lang-Runger): say how much of the run that was */
    PetscCall(PetscPrintf(comm, "EasPolicy: the compute phase took %.4g s (max over ranks) of the measured %.4g s; the rest (exchanges, assembly, Newton updates) is not in the predicted T\n", (double)(S.phase_time[EAS_PHASE_COMPUTE] - c->Tc0), (double)T));
    PetscFunctionReturn(0);
  }
  if (info->point != EAS_HOOK_STEP) PetscFunctionReturn(0);
  PetscCall(EasAdrGetBackendMoves(adr, &moves));
  if (moves != c->moves) { /* moved by someone else: measure the new unit from now on, after its cold start */
    c->moves = moves;
    PetscCall(EasEnergyMeterGetPhase(meter, EAS_PHASE_COMPUTE, -1, &c->busy0, &c->work0, NULL));
    c->since = 0;
    c->cold  = PETSC_TRUE;
  }
  if (++c->since < c->interval) PetscFunctionReturn(0);
  c->since = 0;
  {
    PetscReal   busy, work, loc[2], glob[2];
    PetscInt    nxl, nyl, nzl, gits;
    EasAdrStats st;
    PetscBool   changed, want_gpu;
    const char *res;

    PetscCall(EasEnergyMeterGetPhase(meter, EAS_PHASE_COMPUTE, -1, &busy, &work, NULL));
    PetscCall(EasAdrGetLocalGrid(adr, NULL, NULL, NULL, &nxl, &nyl, &nzl));
    loc[0]   = work > c->work0 ? (busy - c->busy0) / (work - c->work0) : 0; /* s per row and iteration */
    loc[1]   = 2.0 * nxl * nyl * nzl;
    c->busy0 = busy;
    c->work0 = work;
    PetscCall(MPIU_Allreduce(loc, glob, 2, MPIU_REAL, MPIU_MAX, comm));
    if (c->cold) { /* the cold start of the unit: no new figure for it */
      glob[0] = -1;
      c->cold = PETSC_FALSE;
    } else if (glob[0] <= 0)
      PetscFunctionReturn(0);
    /* the run's work (the steps of this EasAdrSolve): rows x inner iterations at the measured rate */
    PetscCall(EasAdrGetStats(adr, &st));
    PetscCall(MPIU_Allreduce(&st.inner_its, &gits, 1, MPIU_INT, MPI_MAX, comm));
    {
      const PetscReal per_step = st.steps > 0 ? (PetscReal)gits / st.steps : 1;
      const PetscInt  nsteps   = info->nsteps > 0 ? info->nsteps : PetscMax(info->steps, 1);
      PetscCall(EasPolicySetWork(c->pol, glob[1], PetscMax(1.0, per_step * nsteps)));
    }
    PetscCall(EasAdrGetBackend(adr, &be));
    PetscCall(EasBackendIsHost(be, &host));
    PetscCall(EasPolicyUpdate(c->pol, host ? glob[0] : -1, host ? -1 : glob[0], &changed, &res)); /* -1: keep the unit's previous figure */
    want_gpu = (PetscBool)(res[0] != '/' || strcmp(res, "/cpu") != 0);                            /* the device (or the hybrid, which the ADR runs on the device) */
    if (want_gpu == host) {
      const char *target = want_gpu ? c->pol->device : "/cpu", *why = NULL;
      PetscBool   ok, ok_all;
      PetscCall(EasBackendIsAvailable(target, &ok, &why));
      /* decided together: a rank whose node has no device keeps every rank where it is (a move is collective) */
      PetscCall(MPIU_Allreduce(&ok, &ok_all, 1, MPIU_BOOL, MPI_LAND, comm));
      if (ok && !ok_all) why = "not usable on every rank";
      if (!ok_all) {
        const char *cur;
        PetscCall(EasBackendGetResource(be, &cur));
        if (changed || !c->warned) PetscCall(PetscPrintf(comm, "EasAdr: the policy prefers %s but it is not usable here (%s): staying on %s\n", target, why ? why : "unavailable", cur));
        c->warned = PETSC_TRUE; /* said once per answer */
      } else {
        EasBackend nb;
        PetscCall(EasBackendCreate(PETSC_COMM_SELF, target, &nb));
        PetscCall(PetscObjectSetOptionsPrefix((PetscObject)nb, ((PetscObject)adr)->prefix));
        PetscCall(EasBackendSetFromOptions(nb));
        PetscCall(EasAdrSetBackend(adr, nb));
        PetscCall(EasBackendDestroy(&nb));
        PetscCall(EasAdrGetBackendMoves(adr, &c->moves)); /* the new unit is measured from now on */
        PetscCall(EasEnergyMeterGetPhase(meter, EAS_PHASE_COMPUTE, -1, &c->busy0, &c->work0, NULL));
        c->cold = PETSC_TRUE;
        PetscCall(PetscPrintf(comm, "EasAdr: moved to %s after step %" PetscInt_FMT " (policy update %" PetscInt_FMT ")\n", target, info->steps, c->pol->nupdates));
      }
    }
  }
  PetscFunctionReturn(0);
}

/*@C
  EasPolicyAttachAdr - online backend choice for an ADR solver (see
  include/eas/policy.h).
@*/
PetscErrorCode EasPolicyAttachAdr(EasPolicy pol, EasAdr adr, PetscInt interval)
{
  AdrPolicyCtx *c;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(pol, EAS_POLICY_CLASSID, 1);
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 2);
  PetscCheck(interval >= 1, PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_OUTOFRANGE, "EasPolicyAttachAdr: interval %" PetscInt_FMT " is invalid: expected a number of time steps >= 1 (-adr_policy_interval)", interval);
  PetscCheck(pol->decided, PetscObjectComm((PetscObject)pol), PETSC_ERR_ORDER, "EasPolicyAttachAdr: the policy has not decided yet (EasPolicyChooseBackend)");
  PetscCall(PetscNew(&c));
  PetscCall(PetscObjectReference((PetscObject)pol));
  c->pol        = pol;
  c->interval   = interval;
  c->moves      = -1; /* baseline at the first step */
  pol->nupdates = pol->nchanges = 0;
  PetscCall(EasAdrAddHook(adr, AdrPolicyHook, c, AdrPolicyCtxDestroy));
  PetscFunctionReturn(0);
}

typedef struct {
  EasPolicy      pol;
  PetscInt       interval;
  PetscInt       nup0, nch0; /* the policy's updates and changes at the start of the solve */
  PetscLogDouble t0;
  PetscReal      E0; /* the meter's modelled energy of this rank at the start of the solve */
} EbePolicyCtx;

static PetscErrorCode EbePolicyCtxDestroy(void **ctx)
{
  EbePolicyCtx *c = (EbePolicyCtx *)*ctx;

  PetscFunctionBegin;
  PetscCall(EasPolicyDestroy(&c->pol));
  PetscCall(PetscFree(c));
  *ctx = NULL;
  PetscFunctionReturn(0);
}

/* After the first iteration and every interval iterations: the measured
   per-element times of the meter's compute phase (cumulative busy/work of
   each unit; the units of one kind run concurrently, so the kind's time per
   element is 1/sum_u(1/t_u)), max over ranks, fed to EasPolicyUpdate
   (which prints a changed answer) and kept for the next operator's choice
   (eas_policy_ebe_memory).  At the end of the solve: the online decisions
   of the solve, and predicted against measured time and energy (modelled
   from the busy times, as the prediction; summed over the ranks). */
static PetscErrorCode EbePolicyHook(PetscObject obj, const EasHookInfo *info, void *ctx)
{
  EasEbe         ebe  = (EasEbe)obj;
  EbePolicyCtx  *c    = (EbePolicyCtx *)ctx;
  MPI_Comm       comm = PetscObjectComm(obj);
  EasEnergyMeter meter;
  PetscInt       nu;
  PetscReal      rate[2] = {0, 0}, t[2];
  PetscBool      changed;
  const char    *res;

  PetscFunctionBegin;
  PetscCall(EasEbeGetEnergyMeter(ebe, &meter));
  if (info->point == EAS_HOOK_SOLVE_BEGIN) {
    PetscCall(EasPolicyGetUpdates(c->pol, &c->nup0, &c->nch0, NULL));
    PetscCall(EasEnergyMeterGetModelEnergy(meter, &c->E0));
    PetscCall(PetscTime(&c->t0));
    PetscFunctionReturn(0);
  }
  if (info->point == EAS_HOOK_SOLVE_END) {
    PetscLogDouble t1;
    PetscReal      TE[2];
    PetscInt       nup, nch, nel;
    const char    *latest;
    PetscCall(PetscTime(&t1));
    PetscCall(EasEnergyMeterGetModelEnergy(meter, &TE[1]));
    TE[0] = (PetscReal)(t1 - c->t0);
    TE[1] -= c->E0;
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &TE[0], 1, MPIU_REAL, MPIU_MAX, comm));
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &TE[1], 1, MPIU_REAL, MPIU_SUM, comm));
    PetscCall(EasPolicyGetUpdates(c->pol, &nup, &nch, &latest));
    PetscCall(PetscPrintf(comm, "EasEbe: %" PetscInt_FMT " online decision(s) during the solve, %" PetscInt_FMT " changed the answer; latest %s%s\n", nup - c->nup0, nch - c->nch0, latest ? latest : "(none: too few iterations)", nch > c->nch0 ? " (used by the next operator's choice)" : ""));
    PetscCall(EasPolicySetMeasured(c->pol, TE[0], TE[1], PETSC_FALSE));
    PetscCall(EasPolicyView(c->pol, NULL));
    PetscCall(EasEbeGetSizes(ebe, &nel, NULL, NULL, NULL, NULL));
    eas_policy_ebe_memory.nglobal = (PetscReal)nel;
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &eas_policy_ebe_memory.nglobal, 1, MPIU_REAL, MPIU_SUM, comm));
    eas_policy_ebe_memory.its = (PetscReal)info->its;
    PetscFunctionReturn(0);
  }
  if (info->point != EAS_HOOK_ITERATION || info->its < 1) PetscFunctionReturn(0);
  if (info->its != 1 && info->its % c->interval) PetscFunctionReturn(0);
  PetscCall(EasEnergyMeterGetNumUnits(meter, &nu));
  for (PetscInt u = 0; u < nu; u++) {
    PetscReal   tel;
    EasUnitKind kind;
    PetscCall(EasEnergyMeterGetUnitInfo(meter, u, NULL, &kind));
    PetscCall(EasEnergyMeterGetPhase(meter, EAS_PHASE_COMPUTE, u, NULL, NULL, &tel));
    if (tel > 0) rate[kind == EAS_UNIT_GPU ? 1 : 0] += 1.0 / tel; /* elements per second of the unit */
  }
  for (PetscInt k = 0; k < 2; k++) t[k] = rate[k] > 0 ? 1.0 / rate[k] : -1.0; /* <= 0: keep the policy's value */
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, t, 2, MPIU_REAL, MPIU_MAX, comm));   /* the slowest rank decides; same answer everywhere */
  PetscCall(EasPolicyUpdate(c->pol, t[0], t[1], &changed, &res));
  for (PetscInt k = 0; k < 2; k++)
    if (t[k] > 0) eas_policy_ebe_memory.t_el[k] = t[k];
  PetscCall(PetscInfo(ebe, "online policy after iteration %" PetscInt_FMT ": t_el cpu %g s, gpu %g s -> %s%s\n", info->its, (double)t[0], (double)t[1], res, changed ? " (changed)" : ""));
  PetscFunctionReturn(0);
}

/*@C
  EasPolicyAttachEbe - online backend choice during the Krylov solves of
  an EBE operator (see include/eas/policy.h).
@*/
PetscErrorCode EasPolicyAttachEbe(EasPolicy pol, EasEbe ebe, PetscInt interval)
{
  EbePolicyCtx  *c;
  EasEnergyMeter meter;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(pol, EAS_POLICY_CLASSID, 1);
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 2);
  PetscCheck(pol->decided, PetscObjectComm((PetscObject)pol), PETSC_ERR_ORDER, "EasPolicyAttachEbe: the policy has not decided yet (EasPolicyChooseBackend)");
  PetscCall(EasEbeGetEnergyMeter(ebe, &meter)); /* the policy reads its compute phase */
  PetscCall(PetscNew(&c));
  PetscCall(PetscObjectReference((PetscObject)pol));
  c->pol        = pol;
  c->interval   = interval > 0 ? interval : 10;
  pol->nupdates = pol->nchanges = 0;
  PetscCall(EasEbeAddHook(ebe, EbePolicyHook, c, EbePolicyCtxDestroy));
  PetscFunctionReturn(0);
}

/* ------------------------------------------------- DVFS and power budget */

typedef struct {
  EasDvfs        dvfs;   /* NULL: none */
  EasPowerBudget budget; /* NULL: none */
  PetscInt       warmup; /* windows (ADR steps, EBE iterations) measured before deciding */
  PetscBool      adr;    /* the solver is an EasAdr (windows are steps), else an EasEbe (iterations) */
  PetscBool      decided;
  PetscReal      wall0[EAS_NUM_PHASES];
  PetscReal      E0, Edec;
  PetscInt       wdec;
  PetscBool      measured;
} HwCtx;

static PetscErrorCode HwCtxDestroy(void **ctx)
{
  HwCtx *c = (HwCtx *)*ctx;

  PetscFunctionBegin;
  PetscCall(EasDvfsDestroy(&c->dvfs)); /* restores what they changed */
  PetscCall(EasPowerBudgetDestroy(&c->budget));
  PetscCall(PetscFree(c));
  *ctx = NULL;
  PetscFunctionReturn(0);
}

static PetscErrorCode HwMeter(PetscObject obj, PetscBool adr, EasEnergyMeter *m)
{
  PetscFunctionBegin;
  if (adr)
    PetscCall(EasAdrGetEnergyMeter((EasAdr)obj, m));
  else
    PetscCall(EasEbeGetEnergyMeter((EasEbe)obj, m));
  PetscFunctionReturn(0);
}

/*
  The hardware policies' hook.  At the start of a solve: this rank's wall
  time of each meter phase and the energy so far.  After -eas_dvfs_warmup
  windows (ADR steps, EBE Krylov iterations): each rank's computation time
  T_comp (setup, compute and transfer phases: frequency-dependent work) and
  communication time T_comm (exchange phase), per window, feed EPSA
  (Fanfakh, Alg. EPSA and eq. fi) and the power budget (Ribeiro eq. 5.6
  with the per-window compute time as r~ N).  At the end: the energy per
  window before and after the decision gives the measured saving (with a
  sensor), the settings are restored, and the saving line goes to the
  meter's report and to stdout.
*/
static PetscErrorCode HwHook(PetscObject obj, const EasHookInfo *info, void *ctx)
{
  HwCtx           *c    = (HwCtx *)ctx;
  MPI_Comm         comm = PetscObjectComm(obj);
  EasEnergyMeter   meter;
  EasEnergySummary S;
  const PetscInt   w = c->adr ? info->steps : info->its;

  PetscFunctionBegin;
  PetscCall(HwMeter(obj, c->adr, &meter));
  if (info->point == EAS_HOOK_SOLVE_BEGIN) {
    for (PetscInt p = 0; p < EAS_NUM_PHASES; p++) PetscCall(EasEnergyMeterGetPhaseWall(meter, (EasPhase)p, &c->wall0[p]));
    PetscCall(EasEnergyMeterGetSummary(meter, &S));
    c->E0      = S.energy;
    c->decided = PETSC_FALSE;
    PetscFunctionReturn(0);
  }
  if (info->point == EAS_HOOK_SOLVE_END) {
    if (c->decided) {
      const PetscReal after = (PetscReal)(w - c->wdec);
      PetscCall(EasEnergyMeterGetSummary(meter, &S));
      if (c->dvfs) {
        const char *line;
        PetscCall(EasDvfsSetSaving(c->dvfs, after, (c->Edec - c->E0) / c->wdec, after > 0 ? (S.energy - c->Edec) / after : -1, (PetscBool)(S.measured && !S.modelled_cpu && c->measured)));
        PetscCall(EasDvfsGetSavingLine(c->dvfs, &line));
        PetscCall(EasEnergyMeterSetNote(meter, "dvfs", line));
        PetscCall(PetscPrintf(comm, "%s\n", line));
        PetscCall(EasDvfsRestore(c->dvfs));
      }
      if (c->budget) PetscCall(EasPowerBudgetRestore(c->budget));
    }
    c->decided = PETSC_FALSE;
    PetscFunctionReturn(0);
  }
  if (c->decided || (c->adr ? info->point != EAS_HOOK_STEP : info->point != EAS_HOOK_ITERATION) || w < c->warmup) PetscFunctionReturn(0);
  {
    PetscReal wall[EAS_NUM_PHASES], Tcomp, Tcomm;
    PetscBool gpu = PETSC_FALSE;
    PetscInt  nu;
    for (PetscInt p = 0; p < EAS_NUM_PHASES; p++) {
      PetscCall(EasEnergyMeterGetPhaseWall(meter, (EasPhase)p, &wall[p]));
      wall[p] -= c->wall0[p];
    }
    Tcomp = (wall[EAS_PHASE_SETUP] + wall[EAS_PHASE_COMPUTE] + wall[EAS_PHASE_TRANSFER]) / w;
    Tcomm = wall[EAS_PHASE_EXCHANGE] / w;
    PetscCall(EasEnergyMeterGetNumUnits(meter, &nu));
    for (PetscInt u = 0; u < nu; u++) {
      EasUnitKind kind;
      PetscReal   b;
      PetscCall(EasEnergyMeterGetUnitInfo(meter, u, NULL, &kind));
      PetscCall(EasEnergyMeterGetPhase(meter, EAS_PHASE_COMPUTE, u, &b, NULL, NULL));
      if (kind == EAS_UNIT_GPU && b > 0) gpu = PETSC_TRUE;
    }
    PetscCall(EasEnergyMeterGetSummary(meter, &S));
    c->Edec     = S.energy;
    c->measured = S.measured;
    c->wdec     = w;
    c->decided  = PETSC_TRUE;
    if (c->dvfs) PetscCall(EasDvfsDecide(c->dvfs, Tcomp, Tcomm));
    if (c->budget) PetscCall(EasPowerBudgetDecide(c->budget, Tcomp, gpu));
  }
  PetscFunctionReturn(0);
}

/* DVFS and budget objects from the solver's options; NULL when off. */
static PetscErrorCode HwCreate(PetscObject obj, PetscBool adr, HwCtx **ctx)
{
  MPI_Comm    comm = PetscObjectComm(obj);
  const char *prefix;
  HwCtx      *c;
  EasDvfsMode mode;
  PetscReal   W;

  PetscFunctionBegin;
  *ctx = NULL;
  PetscCall(PetscObjectGetOptionsPrefix(obj, &prefix));
  PetscCall(PetscNew(&c));
  c->adr    = adr;
  c->warmup = adr ? 1 : 5;
  PetscCall(EasDvfsCreate(comm, &c->dvfs));
  PetscCall(PetscObjectSetOptionsPrefix((PetscObject)c->dvfs, prefix));
  c->dvfs->warmup = c->warmup;
  PetscCall(PetscStrncpy(c->dvfs->window, adr ? "step" : "iteration", sizeof(c->dvfs->window)));
  PetscCall(EasDvfsSetFromOptions(c->dvfs));
  c->warmup = c->dvfs->warmup;
  PetscCall(EasDvfsGetMode(c->dvfs, &mode));
  if (mode == EAS_DVFS_OFF) PetscCall(EasDvfsDestroy(&c->dvfs));
  PetscCall(EasPowerBudgetCreate(comm, &c->budget));
  PetscCall(PetscObjectSetOptionsPrefix((PetscObject)c->budget, prefix));
  PetscCall(EasPowerBudgetSetFromOptions(c->budget));
  PetscCall(EasPowerBudgetGetBudget(c->budget, &W));
  if (W <= 0) PetscCall(EasPowerBudgetDestroy(&c->budget));
  if (c->dvfs && c->budget) {
    PetscBool apply = (PetscBool)(mode == EAS_DVFS_APPLY && c->budget->apply);
    PetscCheck(!apply, comm, PETSC_ERR_ARG_INCOMP, "-eas_dvfs apply and -eas_power_budget both set the CPU frequencies: give one of them, or -eas_dvfs report (or -eas_power_budget_apply 0)");
  }
  if (!c->dvfs && !c->budget) {
    PetscCall(PetscFree(c));
    PetscFunctionReturn(0);
  }
  *ctx = c;
  PetscFunctionReturn(0);
}

/*@C
  EasPolicyAttachAdrFromOptions - -eas_dvfs and -eas_power_budget for an
  ADR solver (see include/eas/policy.h; -eas_backend auto is chosen at
  EasAdrSetUp, through the backend registry: resolve.c).
@*/
PetscErrorCode EasPolicyAttachAdrFromOptions(EasAdr adr)
{
  HwCtx *hw;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCall(EasPolicyInitializePackage());
  PetscCall(HwCreate((PetscObject)adr, PETSC_TRUE, &hw));
  if (hw) PetscCall(EasAdrAddHook(adr, HwHook, hw, HwCtxDestroy));
  PetscFunctionReturn(0);
}

/*@C
  EasPolicyAttachEbeFromOptions - -eas_dvfs and -eas_power_budget for the
  Krylov solves over an EBE operator (see include/eas/policy.h).
@*/
PetscErrorCode EasPolicyAttachEbeFromOptions(EasEbe ebe)
{
  HwCtx         *hw;
  EasEnergyMeter meter;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  PetscCall(EasPolicyInitializePackage());
  PetscCall(HwCreate((PetscObject)ebe, PETSC_FALSE, &hw));
  if (!hw) PetscFunctionReturn(0);
  PetscCall(EasEbeGetEnergyMeter(ebe, &meter)); /* the times come from its phases */
  PetscCall(EasEbeAddHook(ebe, HwHook, hw, HwCtxDestroy));
  PetscFunctionReturn(0);
}
