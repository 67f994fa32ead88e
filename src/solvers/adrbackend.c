/*
  EasAdr on its backend: the objects that live there (local Jacobian,
  inner solver, vectors, assembly arrays), moves between backends between
  time steps, the energy meter and the rank's unit in it, and the hooks of
  the layers above (include/eas/sys.h: the energy policies of
  include/eas/policy.h choose and move the backend through them; the
  solver never calls them itself).
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
  PetscCall(EasDiaSetPrecision(adr->J, adr->jac_prec)); /* -adr_jacobian_precision; A D^{-1} inherits it */
  {                                                     /* the identity until the first Newton iteration fills it */
    PetscScalar *v;
    PetscInt     ld;
    PetscCall(EasDiaGetValuesWrite(adr->J, &v, &ld));
    for (PetscInt r = 0; r < adr->n; r++) v[dmain * (size_t)ld + r] = 1.0;
    PetscCall(EasDiaRestoreValuesWrite(adr->J, &v));
  }
  PetscCall(EasDiaSetUp(adr->J));
  PetscCall(EasKspSetOperator(adr->ksp, adr->J));
  PetscCall(EasKspSetILUGrid(adr->ksp, 2, adr->nl)); /* the box, for -adr_pc_ilu_axes */
  {                                                  /* transport couples a species to itself at the neighbours, the reaction both at a point */
    const PetscInt ofill[4] = {1, 0, 0, 1};
    PetscCall(EasKspSetILUBlockFills(adr->ksp, NULL, ofill));
  }
  PetscCall(EasDiaCreateVecs(adr->J, &adr->dx, &adr->b));
  PetscCall(EasVecCreate(adr->be, 2 * (adr->nl[0] + 2) * (adr->nl[1] + 2) * (adr->nl[2] + 2), &adr->xg_v));
  PetscCall(EasVecCreate(adr->be, adr->n, &adr->xold_v));
  PetscCall(EasVecCreate(adr->be, adr->n, &adr->dinv));
  PetscCall(EasVecCreate(adr->be, 6 * adr->np, &adr->w_v));
  PetscCall(EasVecCreate(adr->be, 7 * adr->np, &adr->wl_v));
  PetscCall(EasVecCreate(adr->be, 2 * adr->np, &adr->Rv_v));
  PetscCall(EasVecCreate(adr->be, 4 * adr->np, &adr->dRv_v));
  PetscCall(EasVecCreate(adr->be, 2 * adr->np, &adr->rw_v));
  adr->jac_rw = PETSC_FALSE;
  adr->device   = adr->be->host_is_device ? PETSC_FALSE : PETSC_TRUE;
  adr->w_synced = adr->xold_synced = adr->xold_stale = PETSC_FALSE;
  PetscCall(EasAdrStateCreate_Private(adr));
  PetscFunctionReturn(0);
}

PetscErrorCode EasAdrDestroyBackendObjects_Private(EasAdr adr)
{
  PetscFunctionBegin;
  PetscCall(EasAdrStateDestroy_Private(adr)); /* the state comes home first */
  if (adr->xold_stale) {                      /* and x_old, which a step in progress restores */
    const PetscScalar *xo;
    PetscCall(EasVecGetArrayRead(adr->xold_v, &xo));
    PetscCall(PetscArraycpy(adr->xold, xo, adr->n));
    PetscCall(EasVecRestoreArrayRead(adr->xold_v, &xo));
    adr->xold_stale = PETSC_FALSE;
  }
  PetscCall(EasVecDestroy(&adr->b));
  PetscCall(EasVecDestroy(&adr->dx));
  PetscCall(EasDiaDestroy(&adr->J));
  PetscCall(EasVecDestroy(&adr->xg_v));
  PetscCall(EasVecDestroy(&adr->xold_v));
  PetscCall(EasVecDestroy(&adr->dinv));
  PetscCall(EasVecDestroy(&adr->w_v));
  PetscCall(EasVecDestroy(&adr->wl_v));
  PetscCall(EasVecDestroy(&adr->Rv_v));
  PetscCall(EasVecDestroy(&adr->dRv_v));
  PetscCall(EasVecDestroy(&adr->rw_v));
  adr->jac_rw = PETSC_FALSE;
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
     charge, and the node's sum is Vialle et al. eq. 1.16; a node left partly
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
  EasAdrAddHook - attaches a hook of a layer above the solver (see
  include/eas/sys.h): called on every rank at the start of EasAdrSolve, after
  each converged step (beuler) or output segment (cvode), and at the end of
  EasAdrSolve; destroy(&ctx) runs at EasAdrDestroy.  Collective: every rank
  adds the same hooks in the same order.
@*/
PetscErrorCode EasAdrAddHook(EasAdr adr, EasHookFn fn, void *ctx, PetscErrorCode (*destroy)(void **))
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCall(EasHookListAdd(PetscObjectComm((PetscObject)adr), &adr->hooks, fn, ctx, destroy));
  PetscFunctionReturn(0);
}

/* Calls the hooks at point (collective: outer iterations max over ranks). */
PetscErrorCode EasAdrCallHooks_Private(EasAdr adr, EasHookPoint point, PetscInt steps, PetscInt nsteps)
{
  EasHookInfo info;

  PetscFunctionBegin;
  if (!adr->hooks.n) PetscFunctionReturn(0);
  info.point  = point;
  info.steps  = steps;
  info.nsteps = nsteps;
  PetscCall(MPIU_Allreduce(&adr->stats.outer_its, &info.its, 1, MPIU_INT, MPI_MAX, PetscObjectComm((PetscObject)adr)));
  info.its -= adr->hook_its0;
  if (point == EAS_HOOK_SOLVE_BEGIN) {
    adr->hook_its0 += info.its;
    info.its = 0;
  }
  PetscCall(EasHookListCall(&adr->hooks, (PetscObject)adr, &info));
  PetscFunctionReturn(0);
}

/*@C
  EasAdrGetBackendMoves - the number of moves between backends after
  EasAdrSetUp (EasAdrSetBackend between steps).
@*/
PetscErrorCode EasAdrGetBackendMoves(EasAdr adr, PetscInt *moves)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscValidIntPointer(moves, 2);
  *moves = adr->moves;
  PetscFunctionReturn(0);
}
