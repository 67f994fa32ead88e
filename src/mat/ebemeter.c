/*
  The energy meter of an EasEbe (docs/energy.md, include/eas/ebe.h): one
  meter unit per split unit (or the operator's backend) and a driver unit
  for the host thread's exchanges, reductions and vector work; the phases
  the operator and the Krylov solvers open on it; one trace row per Krylov
  iteration (-eas_trace) with the split's shares and per-element times.
*/
#include "ebeimpl.h"

/*@C
  EasEbeSetEnergyMeter - meters the operator with m (reference taken; NULL
  removes it).  See include/eas/ebe.h for the units and phases.
@*/
PetscErrorCode EasEbeSetEnergyMeter(EasEbe ebe, EasEnergyMeter m)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  if (m) PetscValidHeaderSpecific(m, EAS_METER_CLASSID, 2);
  if (m) PetscCall(PetscObjectReference((PetscObject)m));
  PetscCall(EasEnergyMeterDestroy(&ebe->meter));
  ebe->meter   = m;
  ebe->nmunits = 0;
  ebe->mdriver = 0;
  if (m && ebe->setupcalled) {
    PetscCall(EasEbeMeterSetUp_Private(ebe));
    PetscCall(EasEnergyMeterStart(m));
  }
  PetscFunctionReturn(0);
}

/*@C
  EasEbeGetEnergyMeter - the operator's meter, created on first request
  (borrowed reference).
@*/
PetscErrorCode EasEbeGetEnergyMeter(EasEbe ebe, EasEnergyMeter *m)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  PetscValidPointer(m, 2);
  if (!ebe->meter) {
    EasEnergyMeter nm;
    PetscCall(EasEnergyMeterCreate(PetscObjectComm((PetscObject)ebe), &nm));
    PetscCall(EasEnergyMeterSetOptionsPrefix(nm, ((PetscObject)ebe)->prefix));
    PetscCall(EasEbeSetEnergyMeter(ebe, nm));
    PetscCall(EasEnergyMeterDestroy(&nm));
  }
  *m = ebe->meter;
  PetscFunctionReturn(0);
}

/* Registers the meter units missing so far (one per split unit, or one for
   the operator's backend) and the driver unit; ranks per node.  Collective:
   the units' weights (fraction of the node's CPU or GPU each occupies,
   EasEnergyMeterSetUnitWeightsFromThreads) come from the thread count of
   each CPU unit's backend over the node's cores, so the modelled CPU
   energy of a small thread group is its share, not the whole CPU's. */
PetscErrorCode EasEbeMeterSetUp_Private(EasEbe ebe)
{
  EasEbeSplit   *sp = ebe->split;
  const PetscInt U  = PetscMax(sp->nunits, 1);

  PetscFunctionBegin;
  if (!ebe->meter) PetscFunctionReturn(0);
  for (PetscInt u = ebe->nmunits; u < U; u++) {
    char       name[64];
    EasBackend b    = sp->nunits ? sp->unit[u] : ebe->be;
    PetscBool  host = sp->nunits ? sp->is_host[u] : b->host_is_device;
    PetscCall(PetscSNPrintf(name, sizeof(name), "u%" PetscInt_FMT ":%s", u, b->resource));
    PetscCall(EasEnergyMeterAddUnit(ebe->meter, name, host ? EAS_UNIT_CPU : EAS_UNIT_GPU, &ebe->munit[u]));
    ebe->tr_busy[u] = ebe->tr_work[u] = ebe->tr_tel[u] = 0;
  }
  ebe->nmunits = PetscMax(ebe->nmunits, U);
  {
    PetscInt nmu, threads[EAS_EBE_MAXUNITS];
    PetscCall(EasEnergyMeterGetNumUnits(ebe->meter, &nmu));
    PetscCheck(nmu <= EAS_EBE_MAXUNITS, PetscObjectComm((PetscObject)ebe), PETSC_ERR_PLIB, "the EBE meter has %" PetscInt_FMT " units, at most %d expected", nmu, EAS_EBE_MAXUNITS);
    for (PetscInt v = 0; v < nmu; v++) threads[v] = 0; /* units not of this operator keep their weights */
    for (PetscInt u = 0; u < U; u++) {
      EasBackend b           = sp->nunits ? sp->unit[u] : ebe->be;
      threads[ebe->munit[u]] = PetscMax(b->threads, 1);
    }
    PetscCall(EasEnergyMeterSetUnitWeightsFromThreads(ebe->meter, threads));
  }
  ebe->mdriver = ebe->munit[0];
  for (PetscInt u = 0; u < sp->nunits; u++)
    if (sp->is_host[u]) {
      ebe->mdriver = ebe->munit[u];
      break;
    }
  {
    MPI_Comm shm;
    PetscCallMPI(MPI_Comm_split_type(PetscObjectComm((PetscObject)ebe), MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shm));
    PetscCallMPI(MPI_Comm_size(shm, &ebe->ppn));
    PetscCallMPI(MPI_Comm_free(&shm));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode EasEbeMeterBegin_Private(EasEbe ebe, EasPhase p)
{
  PetscFunctionBegin;
  if (!ebe || !ebe->meter || !ebe->nmunits) PetscFunctionReturn(0);
  if (ebe->msetup && p == EAS_PHASE_EXCHANGE) PetscFunctionReturn(0); /* phases of the driver never nest */
  PetscCall(EasEnergyMeterBegin(ebe->meter, p, ebe->mdriver));
  if (p == EAS_PHASE_SETUP) ebe->msetup = PETSC_TRUE;
  PetscFunctionReturn(0);
}

PetscErrorCode EasEbeMeterEnd_Private(EasEbe ebe, EasPhase p, PetscReal work)
{
  PetscFunctionBegin;
  if (!ebe || !ebe->meter || !ebe->nmunits) PetscFunctionReturn(0);
  if (ebe->msetup && p == EAS_PHASE_EXCHANGE) PetscFunctionReturn(0);
  PetscCall(EasEnergyMeterEnd(ebe->meter, p, ebe->mdriver, work));
  if (p == EAS_PHASE_SETUP) ebe->msetup = PETSC_FALSE;
  PetscFunctionReturn(0);
}

/*
  One -eas_trace row per Krylov iteration (collective).  Per unit: elements
  done since the previous row (its share; rank 0's) and the measured
  per-element time (meter compute busy / elements).  Predicted time: the
  split model max_u t_u n_u (Ribeiro eq. 4.4 with the split's smoothed
  per-element times t_u, the balanced prediction after a move; the previous
  row's measured t_u before any decision, or without a split) plus the mean
  non-apply time of the previous rows; max over ranks.  Predicted energy:
  Vialle et al. eq. 1.16 (EasModelProfileShareEnergy) with the meter's profile
  and the predicted busy fractions of the units weighted by their node
  shares (EasEnergyMeterGetUnitWeight; the non-apply time on the driver
  unit), 1/ppn of the node's idle power per rank, summed over ranks.  No
  prediction on the first row.
*/
PetscErrorCode EasEbeEnergyTraceRow_Private(EasEbe ebe)
{
  EasEbeSplit   *sp;
  PetscInt       U;
  PetscReal      share[EAS_EBE_MAXUNITS], tel[EAS_EBE_MAXUNITS], dbusy[EAS_EBE_MAXUNITS], busy, work, Tapply = 0, Tmeas_apply = 0, pred[2] = {-1, -1}, gpred[2];
  PetscLogDouble now;

  PetscFunctionBegin;
  if (!ebe || !ebe->meter || !ebe->trace || !ebe->nmunits) PetscFunctionReturn(0);
  sp = ebe->split;
  U  = PetscMax(sp->nunits, 1);
  PetscCall(PetscTime(&now));
  for (PetscInt u = 0; u < U; u++) {
    PetscCall(EasEnergyMeterGetPhase(ebe->meter, EAS_PHASE_COMPUTE, ebe->munit[u], &busy, &work, NULL));
    dbusy[u] = busy - ebe->tr_busy[u];
    share[u] = work - ebe->tr_work[u];
    if (share[u] <= 0) share[u] = sp->nunits ? (PetscReal)sp->shares[u] : (PetscReal)ebe->nel;
    tel[u]          = work - ebe->tr_work[u] > 0 ? dbusy[u] / (work - ebe->tr_work[u]) : 0;
    ebe->tr_busy[u] = busy;
    ebe->tr_work[u] = work;
    Tmeas_apply     = PetscMax(Tmeas_apply, dbusy[u]);
  }
  if (ebe->tr_rows > 0) {
    PetscReal       bc = 0, bg = 0, Tp;
    EasPowerProfile prof;
    PetscReal       w[EAS_EBE_MAXUNITS], b[EAS_EBE_MAXUNITS];
    for (PetscInt u = 0; u < U; u++) {
      const PetscReal tu = (sp->nunits && sp->t_el[u] > 0) ? sp->t_el[u] : ebe->tr_tel[u];
      const PetscReal nu = sp->nunits ? (PetscReal)sp->shares[u] : (PetscReal)ebe->nel;
      b[u]               = tu * nu;
      Tapply             = PetscMax(Tapply, b[u]);
      if (ebe->munit[u] == ebe->mdriver) b[u] += ebe->tr_over / ebe->tr_rows; /* the host thread's vector work and reductions */
      PetscCall(EasEnergyMeterGetUnitWeight(ebe->meter, ebe->munit[u], &w[u]));
    }
    Tp = Tapply + ebe->tr_over / ebe->tr_rows;
    if (Tp > 0) {
      for (PetscInt u = 0; u < U; u++) {
        const PetscBool gpu = sp->nunits ? !sp->is_host[u] : !ebe->be->host_is_device;
        if (gpu)
          bg += w[u] * PetscMin(1.0, b[u] / Tp);
        else
          bc += w[u] * PetscMin(1.0, b[u] / Tp);
      }
      PetscCall(EasEnergyMeterGetProfile(ebe->meter, &prof));
      PetscCall(EasModelProfileShareEnergy(&prof, Tp, 1.0 / (PetscReal)ebe->ppn, PetscMin(1.0, bc), PetscMin(1.0, bg), &pred[1])); /* Vialle et al. eq. (1.16) */
      pred[0] = Tp;
    }
  }
  PetscCall(MPIU_Allreduce(&pred[0], &gpred[0], 1, MPIU_REAL, MPIU_MAX, PetscObjectComm((PetscObject)ebe)));
  PetscCall(MPIU_Allreduce(&pred[1], &gpred[1], 1, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)ebe)));
  if (gpred[0] < 0 || ebe->tr_rows == 0) gpred[0] = gpred[1] = -1; /* no prediction */
  PetscCall(EasEnergyTraceRow(ebe->meter, ebe->tr_it++, U, share, tel, gpred[0], gpred[1]));
  if (ebe->tr_t > 0) {
    ebe->tr_over += PetscMax(0.0, (PetscReal)(now - ebe->tr_t) - Tmeas_apply);
    ebe->tr_rows++;
  }
  for (PetscInt u = 0; u < U; u++) ebe->tr_tel[u] = tel[u];
  ebe->tr_t = now;
  PetscFunctionReturn(0);
}
