/*
  EasAdr on its backend: the objects that live there (local Jacobian,
  inner solver, vectors, assembly arrays), moves between backends between
  time steps, the energy meter and the rank's unit in it, and the online
  backend policy (-eas_backend auto, EasAdrSetPolicy).
*/
#include "adrimpl.h"

/* Creates the meter with the solver's prefix (collective). */
PetscErrorCode EasAdrMeterCreate_Private(EasAdr adr)
{
  const char *prefix;

  PetscFunctionBegin;
  if (adr->meter) PetscFunctionReturn(0);
  PetscCall(PetscObjectGetOptionsPrefix((PetscObject)adr, &prefix));
  PetscCall(EasEnergyMeterCreate(PetscObjectComm((PetscObject)adr), &adr->meter));
  PetscCall(EasEnergyMeterSetOptionsPrefix(adr->meter, prefix));
  PetscFunctionReturn(0);
}

/*@C
  EasAdrGetEnergyMeter - the solver's energy meter (created here on first
  request; the reference is borrowed).  See include/eas/adr.h for the
  phases and work counts.
@*/
PetscErrorCode EasAdrGetEnergyMeter(EasAdr adr, EasEnergyMeter *meter)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscValidPointer(meter, 2);
  PetscCall(EasAdrMeterCreate_Private(adr));
  *meter = adr->meter;
  PetscFunctionReturn(0);
}

/* The objects that live on the backend: the local Jacobian (9 offsets, 7 with one y plane,
   values refilled in place each Newton iteration), the inner solver's
   operator, b and dx, and the assembly kernels' arrays. */
PetscErrorCode EasAdrCreateBackendObjects_Private(EasAdr adr)
{
  PetscInt off[9], nd = 0, dmain = 0;

  PetscFunctionBegin;
  { /* with one y plane (2D) the +-2nx (y) couplings do not exist: 7 offsets (EasAdrKJacobianPoint) */
    const PetscInt nx = adr->nl[0], nxy = adr->nl[0] * adr->nl[1];
    const PetscInt o[9] = {-2 * nxy, -2 * nx, -2, -1, 0, 1, 2, 2 * nx, 2 * nxy};
    for (PetscInt d = 0; d < 9; d++) {
      if (adr->N[1] == 1 && (d == 1 || d == 7)) continue;
      if (o[d] == 0) dmain = nd;
      off[nd++] = o[d];
    }
  }
  adr->jac_valid = PETSC_FALSE;
  PetscCall(EasDiaCreate(PETSC_COMM_SELF, &adr->J));
  PetscCall(EasDiaSetBackend(adr->J, adr->be));
  PetscCall(EasDiaSetPattern(adr->J, adr->n, nd, off));
  { /* the identity until the first Newton iteration fills it */
    PetscScalar *v;
    PetscInt     ld;
    PetscCall(EasDiaGetValuesWrite(adr->J, &v, &ld));
    for (PetscInt r = 0; r < adr->n; r++) v[dmain * (size_t)ld + r] = 1.0;
    PetscCall(EasDiaRestoreValuesWrite(adr->J, &v));
  }
  PetscCall(EasDiaSetUp(adr->J));
  PetscCall(EasKspSetOperator(adr->ksp, adr->J));
  PetscCall(EasDiaCreateVecs(adr->J, &adr->dx, &adr->b));
  PetscCall(EasVecCreate(adr->be, 2 * (adr->nl[0] + 2) * (adr->nl[1] + 2) * (adr->nl[2] + 2), &adr->xg_v));
  PetscCall(EasVecCreate(adr->be, adr->n, &adr->xold_v));
  PetscCall(EasVecCreate(adr->be, 6 * adr->np, &adr->w_v));
  PetscCall(EasVecCreate(adr->be, 2 * adr->np, &adr->Rv_v));
  PetscCall(EasVecCreate(adr->be, 4 * adr->np, &adr->dRv_v));
  adr->device   = adr->be->host_is_device ? PETSC_FALSE : PETSC_TRUE;
  adr->w_synced = adr->xold_synced = PETSC_FALSE;
  PetscFunctionReturn(0);
}

PetscErrorCode EasAdrDestroyBackendObjects_Private(EasAdr adr)
{
  PetscFunctionBegin;
  PetscCall(EasVecDestroy(&adr->b));
  PetscCall(EasVecDestroy(&adr->dx));
  PetscCall(EasDiaDestroy(&adr->J));
  PetscCall(EasVecDestroy(&adr->xg_v));
  PetscCall(EasVecDestroy(&adr->xold_v));
  PetscCall(EasVecDestroy(&adr->w_v));
  PetscCall(EasVecDestroy(&adr->Rv_v));
  PetscCall(EasVecDestroy(&adr->dRv_v));
  PetscFunctionReturn(0);
}

/* The rank's meter unit for the current backend kind (a move to the other
   kind adds a unit, so the energy of each part of the run is charged to
   what ran it) and the units' node weights (collective, meter.h). */
PetscErrorCode EasAdrMeterUnit_Private(EasAdr adr)
{
  PetscInt nmu, threads[8];

  PetscFunctionBegin;
  { /* unit_kind[0]: cpu, [1]: gpu; -1 until first used */
    const PetscInt kind = adr->device ? 1 : 0;
    if (adr->unit_kind[kind] < 0) PetscCall(EasEnergyMeterAddUnit(adr->meter, adr->device ? "gpu" : "cpu", adr->device ? EAS_UNIT_GPU : EAS_UNIT_CPU, &adr->unit_kind[kind]));
    adr->unit = adr->unit_kind[kind];
  }
  /* The rank's unit and its node share (collective).  Every rank pays
     1/ppn of the node's idle power (as the meter always did); the active
     power by the unit's weight: CPU threads/max(cores, threads of the
     node's ranks), GPU 1/(GPU ranks of the node).  When the ranks fill the
     node (ppn x threads >= cores, e.g. one single-thread rank per core or
     the default OMP threads = cores per rank) this is 1/ppn, the former
     charge, and the node's sum is seed 000 eq. 1.16; a node left partly
     idle (one single-thread rank on 2 cores) is charged threads/cores of
     P_C(cpu) instead of all of it. */
  PetscCall(EasEnergyMeterGetNumUnits(adr->meter, &nmu));
  PetscCheck(nmu <= 8, PetscObjectComm((PetscObject)adr), PETSC_ERR_PLIB, "the ADR meter has %" PetscInt_FMT " units, at most 8 expected", nmu);
  for (PetscInt u = 0; u < nmu; u++) threads[u] = 0; /* other units keep their weights */
  threads[adr->unit] = adr->device ? 1 : PetscMax(adr->be->threads, 1);
  PetscCall(EasEnergyMeterSetUnitWeightsFromThreads(adr->meter, threads));
  PetscCall(EasEnergyMeterSetBackend(adr->meter, adr->be));
  PetscFunctionReturn(0);
}

/*@C
  EasAdrSetBackend - the backend of the local Jacobians, the assembly and
  the inner solves.  Before EasAdrSetUp it only records the choice; after
  it, between time steps, it moves the solver (collective: every rank
  calls it): the Jacobian, the inner solver's operator and vectors are
  rebuilt on be, the host state (x, xold, the coefficients) carries over,
  and the energy meter charges the rest of the run to a unit of be's kind.
@*/
PetscErrorCode EasAdrSetBackend(EasAdr adr, EasBackend be)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscValidHeaderSpecific(be, EAS_BACKEND_CLASSID, 2);
  if (be == adr->be) PetscFunctionReturn(0);
  PetscCall(PetscObjectReference((PetscObject)be));
  if (adr->setupcalled) {
    PetscCall(PetscLogEventBegin(EAS_AdrMove, adr, 0, 0, 0));
    PetscCall(EasAdrDestroyBackendObjects_Private(adr));
    PetscCall(EasBackendDestroy(&adr->be));
    adr->be = be;
    PetscCall(EasAdrCreateBackendObjects_Private(adr));
    PetscCall(EasAdrMeterUnit_Private(adr));
    adr->pol_unit  = adr->unit; /* the policy measures this unit from now on */
    adr->pol_since = 0;
    PetscCall(EasEnergyMeterGetPhase(adr->meter, EAS_PHASE_COMPUTE, adr->unit, &adr->pol_busy0, &adr->pol_work0, NULL));
    adr->moves++;
    PetscCall(PetscInfo(adr, "moved to backend %s\n", be->resource));
    PetscCall(PetscLogEventEnd(EAS_AdrMove, adr, 0, 0, 0));
  } else {
    PetscCall(EasBackendDestroy(&adr->be));
    adr->be = be;
  }
  PetscFunctionReturn(0);
}

/*@C
  EasAdrSetPolicy - attaches an online backend-choice policy (see
  include/eas/adr.h).
@*/
PetscErrorCode EasAdrSetPolicy(EasAdr adr, EasPolicy pol, PetscInt interval)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCheck(interval >= 1, PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_OUTOFRANGE, "EasAdrSetPolicy: interval %" PetscInt_FMT " is invalid: expected a number of time steps >= 1 (-adr_policy_interval)", interval);
  if (pol) {
    EasPolicyPrediction pred;
    PetscCall(EasPolicyGetPrediction(pol, &pred)); /* errors when it has not decided */
    PetscCall(PetscObjectReference((PetscObject)pol));
  }
  PetscCall(EasPolicyDestroy(&adr->policy));
  adr->policy       = pol;
  adr->pol_interval = interval;
  adr->pol_since    = 0;
  adr->pol_unit     = -1;
  PetscFunctionReturn(0);
}

PetscErrorCode EasAdrGetPolicyState(EasAdr adr, PetscInt *nupdates, PetscInt *nchanges, PetscInt *nmoves, const char *resource[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  if (nupdates) *nupdates = adr->pol_updates;
  if (nchanges) *nchanges = adr->pol_changes;
  if (nmoves) *nmoves = adr->moves;
  if (resource) *resource = adr->pol_resource;
  PetscFunctionReturn(0);
}

/*
  EasAdrPolicyStep_Private - after a converged step: every pol_interval
  steps, the compute time per row and BiCGStab iteration of the current
  unit since the previous update (max over ranks, so every rank gets the
  same answer) goes to EasPolicyUpdate, with the work of the nsteps-step
  solve re-estimated from the measured inner iterations per step; an
  answer of the other kind moves the solver (collective).
*/
PetscErrorCode EasAdrPolicyStep_Private(EasAdr adr, PetscInt nsteps)
{
  MPI_Comm    comm = PetscObjectComm((PetscObject)adr);
  PetscReal   busy, work, loc[2], glob[2];
  PetscBool   changed, want_gpu;
  const char *res;

  PetscFunctionBegin;
  if (!adr->policy || !adr->meter) PetscFunctionReturn(0);
  if (adr->pol_unit != adr->unit) { /* the unit's compute phase holds only this solver's inner solves */
    adr->pol_unit  = adr->unit;
    adr->pol_busy0 = adr->pol_work0 = 0;
  }
  if (++adr->pol_since < adr->pol_interval) PetscFunctionReturn(0);
  adr->pol_since = 0;
  PetscCall(EasEnergyMeterGetPhase(adr->meter, EAS_PHASE_COMPUTE, adr->unit, &busy, &work, NULL));
  loc[0]         = work > adr->pol_work0 ? (busy - adr->pol_busy0) / (work - adr->pol_work0) : 0; /* s per row and iteration */
  loc[1]         = (PetscReal)adr->n;
  adr->pol_busy0 = busy;
  adr->pol_work0 = work;
  PetscCall(MPIU_Allreduce(loc, glob, 2, MPIU_REAL, MPIU_MAX, comm));
  if (glob[0] <= 0) PetscFunctionReturn(0);
  {
    /* the run's work (nsteps of this EasAdrSolve): rows x inner iterations at the measured rate, so the
       final prediction compares with the measured run */
    PetscInt  lits = adr->stats.inner_its, gits;
    PetscReal per_step;
    PetscCall(MPIU_Allreduce(&lits, &gits, 1, MPIU_INT, MPI_MAX, comm));
    per_step = adr->stats.steps > 0 ? (PetscReal)gits / adr->stats.steps : 1;
    PetscCall(EasPolicySetWork(adr->policy, glob[1], PetscMax(1.0, per_step * PetscMax(nsteps, 1))));
  }
  PetscCall(EasPolicyUpdate(adr->policy, adr->device ? -1 : glob[0], adr->device ? glob[0] : -1, &changed, &res));
  adr->pol_updates++;
  if (changed) adr->pol_changes++;
  adr->pol_resource = res;
  want_gpu          = (PetscBool)(res[1] == 'g' || res[0] == 'h'); /* /gpu/cuda or hybrid: the GPU drives */
  if (want_gpu != adr->device) {
    const char *target = want_gpu ? "/gpu/cuda" : "/cpu", *why = NULL;
    PetscBool   ok, ok_all;
    PetscCall(EasBackendIsAvailable(target, &ok, &why));
    /* decided together: a rank whose node has no device keeps every rank
       where it is (a move is collective, and the decomposition is shared) */
    PetscCall(MPIU_Allreduce(&ok, &ok_all, 1, MPIU_BOOL, MPI_LAND, comm));
    if (ok && !ok_all) why = "not usable on every rank";
    ok = ok_all;
    if (!ok) {
      if (changed || !adr->pol_warned) PetscCall(PetscPrintf(comm, "EasAdr: the policy prefers %s but it is not usable here (%s): staying on %s\n", target, why ? why : "unavailable", adr->be->resource));
      adr->pol_warned = PETSC_TRUE; /* said once per answer */
    } else {
      EasBackend nb;
      PetscCall(EasBackendCreate(PETSC_COMM_SELF, target, &nb));
      PetscCall(PetscObjectSetOptionsPrefix((PetscObject)nb, ((PetscObject)adr)->prefix));
      PetscCall(EasBackendSetFromOptions(nb));
      PetscCall(EasAdrSetBackend(adr, nb));
      PetscCall(EasBackendDestroy(&nb));
      PetscCall(PetscPrintf(comm, "EasAdr: moved to %s from step %" PetscInt_FMT " on (policy update %" PetscInt_FMT ")\n", target, adr->stats.steps + 1, adr->pol_updates));
    }
  }
  PetscFunctionReturn(0);
}

/*
  -eas_backend auto (DESIGN.md sec. 6): a policy on the solver's
  communicator (the -eas_criterion, profile and -eas_power_* options under
  the solver's prefix) predicts cpu and gpu for the run before it starts:
  work = this rank's rows (max over ranks) x an estimate of the inner
  iterations (-adr_policy_its_per_step, default 100, times the steps; the
  first update replaces it with the measured rate), per-row times from the
  profile.  It prints its choice, the backend is created on it, and the
  policy stays attached (EasAdrSetPolicy, -adr_policy_interval).
*/
PetscErrorCode EasAdrPolicyCreate_Private(EasAdr adr)
{
  MPI_Comm    comm = PetscObjectComm((PetscObject)adr);
  EasPolicy   pol;
  const char *chosen;
  PetscInt    nmax, interval = 1, steps;
  PetscReal   its = 100;

  PetscFunctionBegin;
  PetscOptionsBegin(comm, ((PetscObject)adr)->prefix, "EasAdr -eas_backend auto", "EasAdr");
  PetscCall(PetscOptionsInt("-adr_policy_interval", "-eas_backend auto: time steps between online decisions", "EasAdrSetPolicy", interval, &interval, NULL));
  PetscCall(PetscOptionsReal("-adr_policy_its_per_step", "-eas_backend auto: inner iterations per step assumed before the first one is measured", "EasAdrSetPolicy", its, &its, NULL));
  PetscOptionsEnd();
  PetscCheck(its > 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "-adr_policy_its_per_step %g is invalid: expected a number of iterations > 0", (double)its);
  steps = adr->max_steps > 0 ? adr->max_steps : (PetscInt)PetscCeilReal((adr->tfinal - adr->t0) / adr->dt - 1e-9);
  { /* the decomposition is not built yet: rows per rank of an even split */
    PetscMPIInt size;
    PetscCallMPI(MPI_Comm_size(comm, &size));
    nmax = (PetscInt)PetscCeilReal(2.0 * adr->N[0] * adr->N[1] * adr->N[2] / size);
  }
  PetscCall(EasPolicyCreate(comm, &pol));
  PetscCall(PetscObjectSetOptionsPrefix((PetscObject)pol, ((PetscObject)adr)->prefix));
  PetscCall(EasPolicySetFromOptions(pol));
  PetscCall(EasPolicySetCandidates(pol, PETSC_TRUE, PETSC_TRUE, PETSC_FALSE)); /* the ADR runs each rank on one backend: no split */
  PetscCall(EasPolicySetWork(pol, (PetscReal)nmax, its * PetscMax(steps, 1)));
  PetscCall(EasPolicyChooseBackend(pol, &chosen, NULL)); /* prints the choice and its predicted numbers */
  PetscCall(EasBackendCreate(PETSC_COMM_SELF, chosen, &adr->be));
  PetscCall(PetscObjectSetOptionsPrefix((PetscObject)adr->be, ((PetscObject)adr)->prefix));
  PetscCall(EasBackendSetFromOptions(adr->be));
  PetscCall(EasAdrSetPolicy(adr, pol, interval));
  PetscCall(EasPolicyDestroy(&pol));
  adr->policy_auto  = PETSC_TRUE;
  adr->pol_resource = chosen;
  PetscFunctionReturn(0);
}
