/*
  EasEnergyMeter: accounting.  The modelled energy of this rank (Vialle et al.
  eq. 1.16 with the units' weighted busy fractions), the run's summary
  (measured where the sensors claim an interval, else modelled) and the
  figures of the report gathered over the communicator (meterview.c
  prints them).
*/
#include "energyimpl.h"

/* Ranks on this node (the model charges each rank 1/ppn of the node's idle power). */
static PetscErrorCode MeterRanksPerNode(EasEnergyMeter m, PetscMPIInt *ppn)
{
  PetscFunctionBegin;
  *ppn = m->ppn;
  PetscFunctionReturn(0);
}

/* Modelled energy of this rank over a wall time W with its weighted busy
   fractions (Vialle et al. eq. 1.16 through EasModelProfileShareEnergy). */
static PetscErrorCode ModelEnergy(const EasPowerProfile *prof, PetscMPIInt ppn, PetscReal W, PetscReal bcpu, PetscReal bgpu, PetscReal *E)
{
  PetscFunctionBegin;
  *E = 0;
  if (W <= 0) PetscFunctionReturn(0);
  PetscCall(EasModelProfileShareEnergy(prof, W, 1.0 / (PetscReal)ppn, bcpu, bgpu, E)); /* Vialle et al. eq. (1.16): W (P_I/ppn + beta_cpu P_C(cpu) + beta_gpu P_C(gpu)) */
  PetscFunctionReturn(0);
}

/* Busy seconds by unit kind (phase p, or all phases when p < 0), unweighted. */
static void BusyByKind(EasEnergyMeter m, PetscInt p, PetscReal *bcpu, PetscReal *bgpu)
{
  *bcpu = *bgpu = 0;
  for (PetscInt u = 0; u < m->nunits; u++)
    for (PetscInt q = 0; q < EAS_NUM_PHASES; q++)
      if (p < 0 || p == q) {
        if (m->unit[u].kind == EAS_UNIT_GPU)
          *bgpu += m->unit[u].busy[q];
        else
          *bcpu += m->unit[u].busy[q];
      }
}

/* This rank's contributions to its node's busy fractions over a wall time W:
   beta = sum_u w_u min(1, busy_u/W) per kind, capped at 1 (phase p, or all
   phases when p < 0). */
static void WeightedBeta(EasEnergyMeter m, PetscInt p, PetscReal W, PetscReal *bcpu, PetscReal *bgpu)
{
  *bcpu = *bgpu = 0;
  if (W <= 0) return;
  for (PetscInt u = 0; u < m->nunits; u++) {
    PetscReal b = 0, f;
    for (PetscInt q = 0; q < EAS_NUM_PHASES; q++)
      if (p < 0 || p == q) b += m->unit[u].busy[q];
    f = EasMeterUnitWeight(m, u) * PetscMin(1.0, b / W);
    if (m->unit[u].kind == EAS_UNIT_GPU)
      *bgpu += f;
    else
      *bcpu += f;
  }
  *bcpu = PetscMin(1.0, *bcpu);
  *bgpu = PetscMin(1.0, *bgpu);
}

static PetscErrorCode MeterElapsed(EasEnergyMeter m, PetscReal *T)
{
  PetscFunctionBegin;
  PetscCheck(m->started, PetscObjectComm((PetscObject)m), PETSC_ERR_ORDER, "the meter was not started (EasEnergyMeterStart)");
  PetscCall(EasMeterFlush(m, PETSC_FALSE));
  *T = m->elapsed + (m->running ? (PetscReal)(m->tproc - m->tstart) : 0);
  PetscFunctionReturn(0);
}

/* Run time of this rank outside every phase: T minus the union of all the
   phases' intervals (an open phase counts up to the processed time). */
static PetscErrorCode MeterOutside(EasEnergyMeter m, PetscReal T, PetscReal *outside)
{
  PetscReal A = m->awall;

  PetscFunctionBegin;
  if (m->adepth > 0 && m->running) A += (PetscReal)(m->tproc - m->at0);
  *outside = PetscMax(0.0, T - A);
  PetscFunctionReturn(0);
}

/* The short part of the unphased time so far (the open gap counts). */
static PetscReal MeterUnphasedShort(EasEnergyMeter m)
{
  PetscReal u = m->ushort;
  if (m->running && m->adepth == 0 && m->tproc - m->ut0 < m->resolution) u += (PetscReal)(m->tproc - m->ut0);
  return u;
}

/* This rank's modelled energy so far with the powers of prof (the meter's, or its complement). */
static PetscErrorCode MeterModelEnergy(EasEnergyMeter m, const EasPowerProfile *prof, PetscReal *E)
{
  PetscReal   T = 0, bc, bg;
  PetscMPIInt ppn;

  PetscFunctionBegin;
  PetscCall(MeterElapsed(m, &T));
  PetscCall(MeterRanksPerNode(m, &ppn));
  WeightedBeta(m, -1, T, &bc, &bg);
  PetscCall(ModelEnergy(prof, ppn, T, bc, bg, E));
  PetscFunctionReturn(0);
}

/*@C
  EasEnergyMeterGetModelEnergy - this rank's modelled energy so far.
@*/
PetscErrorCode EasEnergyMeterGetModelEnergy(EasEnergyMeter m, PetscReal *E)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(m, EAS_METER_CLASSID, 1);
  PetscCall(MeterModelEnergy(m, &m->prof, E));
  PetscFunctionReturn(0);
}

PetscErrorCode EasMeterComplementProfile(EasEnergyMeter m, EasPowerProfile *prof, PetscBool *mcpu, PetscBool *mgpu)
{
  PetscMPIInt gpu = 0;

  PetscFunctionBegin;
  *prof = m->prof;
  *mcpu = *mgpu = PETSC_FALSE;
  if (m->cover_cpu || m->cover_gpu) { /* the same on every rank: so is the reduction */
    for (PetscInt u = 0; u < m->nunits; u++)
      if (m->unit[u].kind == EAS_UNIT_GPU) gpu = 1;
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &gpu, 1, MPI_INT, MPI_LOR, PetscObjectComm((PetscObject)m)));
    *mcpu = m->cover_cpu ? PETSC_FALSE : PETSC_TRUE; /* a CPU always exists */
    *mgpu = (!m->cover_gpu && gpu) ? PETSC_TRUE : PETSC_FALSE;
  }
  if (!*mcpu) prof->cpu_idle = prof->cpu_full = prof->dram = 0;
  if (!*mgpu) prof->gpu_idle = prof->gpu_full = 0;
  PetscFunctionReturn(0);
}

PetscErrorCode EasMeterComplementEnergy(EasEnergyMeter m, PetscBool *mixed, PetscReal *E)
{
  EasPowerProfile prof;
  PetscBool       mcpu, mgpu;

  PetscFunctionBegin;
  PetscCall(EasMeterComplementProfile(m, &prof, &mcpu, &mgpu));
  *mixed = (PetscBool)(mcpu || mgpu);
  *E     = 0;
  if (*mixed) PetscCall(MeterModelEnergy(m, &prof, E));
  PetscFunctionReturn(0);
}

/*@C
  EasEnergySummaryGetSource - the label of a summary's total.
@*/
PetscErrorCode EasEnergySummaryGetSource(const EasEnergySummary *S, const char *label[])
{
  PetscFunctionBegin;
  PetscValidPointer(S, 1);
  PetscValidPointer(label, 2);
  if (!S->valid) *label = "n/a";
  else if (!S->measured) *label = "modelled";
  else *label = (S->modelled_cpu || S->modelled_gpu) ? "measured+modelled" : "measured";
  PetscFunctionReturn(0);
}

/*@C
  EasEnergyMeterGetSummary - global figures of the run (collective).
  Measured: the node leaders' sensors' energy apportioned to the phases
  (metertimeline.c), summed over the nodes; the rows add up to the total.
  Sensors covering only some kinds (NVML without RAPL, RAPL without NVML
  with a GPU unit): each row and the total add the model's energy of the
  other kinds (Vialle et al. eq. 1.16 with the covered kinds' powers
  zeroed; the total's counted once over T, like the modelled total).
@*/
PetscErrorCode EasEnergyMeterGetSummary(EasEnergyMeter m, EasEnergySummary *S)
{
  enum { NL = 2 * EAS_NUM_PHASES + 6 };
  MPI_Comm        comm;
  PetscMPIInt     ppn;
  const PetscBool sensors = (PetscBool)(m->cover_cpu || m->cover_gpu); /* the same on every rank */
  EasPowerProfile cprof;                                               /* the complement: the kinds no sensor covers */
  PetscBool       mcpu, mgpu, mixed;
  PetscReal       T = 0, bc, bg, outside = 0, loc[NL], glob[NL], tloc[2 * EAS_NUM_PHASES + 4], tglob[2 * EAS_NUM_PHASES + 4];
  PetscReal       Emodel_phase[EAS_NUM_PHASES], Ecomp, Es[EAS_NUM_PHASES + 1], reads[2] = {0, 0};

  PetscFunctionBegin;
  PetscValidHeaderSpecific(m, EAS_METER_CLASSID, 1);
  PetscCall(PetscObjectGetComm((PetscObject)m, &comm));
  PetscCall(PetscMemzero(S, sizeof(*S)));
  PetscCall(MeterElapsed(m, &T));
  PetscCall(MeterRanksPerNode(m, &ppn));
  PetscCall(EasMeterSensorEnergy(m, Es)); /* node leaders: the sensors'; 0 elsewhere */
  PetscCall(MeterOutside(m, T, &outside));
  PetscCall(EasMeterComplementProfile(m, &cprof, &mcpu, &mgpu));
  mixed                      = (PetscBool)(mcpu || mgpu);
  loc[2 * EAS_NUM_PHASES + 4] = 0; /* the sensors' energy over the running windows */
  for (PetscInt p = 0; p < EAS_NUM_PHASES; p++) {
    WeightedBeta(m, p, m->pwall[p], &bc, &bg);
    PetscCall(ModelEnergy(&m->prof, ppn, m->pwall[p], bc, bg, &Emodel_phase[p]));
    Ecomp = 0;
    if (mixed) PetscCall(ModelEnergy(&cprof, ppn, m->pwall[p], bc, bg, &Ecomp)); /* eq. 1.16, the uncovered kinds only */
    loc[p]                   = sensors ? Es[p] + Ecomp : Emodel_phase[p];
    loc[EAS_NUM_PHASES + p]  = Emodel_phase[p];
    tloc[p]                  = m->pwall[p];
    tloc[EAS_NUM_PHASES + p] = m->pwall[p] > 0 ? m->pshort[p] / m->pwall[p] : 0; /* share of the phase's time in short intervals */
    loc[2 * EAS_NUM_PHASES + 4] += Es[p];
  }
  loc[2 * EAS_NUM_PHASES + 4] += Es[EAS_NUM_PHASES];
  WeightedBeta(m, -1, T, &bc, &bg);
  PetscCall(ModelEnergy(&m->prof, ppn, T, bc, bg, &loc[2 * EAS_NUM_PHASES])); /* model total */
  loc[2 * EAS_NUM_PHASES + 5] = 0;
  if (mixed) PetscCall(ModelEnergy(&cprof, ppn, T, bc, bg, &loc[2 * EAS_NUM_PHASES + 5])); /* the model's part of the total, overlapping phases counted once */
  /* outside every phase (no unit busy): the sensors' share (and the uncovered kinds' idle power), or the idle power only in the model */
  Ecomp = 0;
  if (mixed) PetscCall(ModelEnergy(&cprof, ppn, outside, 0, 0, &Ecomp));
  if (sensors)
    loc[2 * EAS_NUM_PHASES + 1] = Es[EAS_NUM_PHASES] + Ecomp;
  else
    PetscCall(ModelEnergy(&m->prof, ppn, outside, 0, 0, &loc[2 * EAS_NUM_PHASES + 1]));
  for (PetscInt k = 0; k < m->nsensors; k++) {
    PetscInt c, smp;
    PetscCall(EasSensorGetReadCounts(m->sensor[k], &c, &smp));
    reads[0] += c;
    reads[1] += smp;
  }
  loc[2 * EAS_NUM_PHASES + 2]  = reads[0];
  loc[2 * EAS_NUM_PHASES + 3]  = reads[1];
  tloc[2 * EAS_NUM_PHASES]     = T;
  tloc[2 * EAS_NUM_PHASES + 1] = outside;
  tloc[2 * EAS_NUM_PHASES + 2] = outside > 0 ? MeterUnphasedShort(m) / outside : 0;
  tloc[2 * EAS_NUM_PHASES + 3] = (PetscReal)m->nboundaries;
  PetscCallMPI(MPI_Allreduce(loc, glob, NL, MPIU_REAL, MPIU_SUM, comm));
  PetscCallMPI(MPI_Allreduce(tloc, tglob, 2 * EAS_NUM_PHASES + 4, MPIU_REAL, MPIU_MAX, comm));

  S->time            = tglob[2 * EAS_NUM_PHASES];
  S->other_time      = tglob[2 * EAS_NUM_PHASES + 1];
  S->model_energy    = glob[2 * EAS_NUM_PHASES];
  S->valid           = m->na ? PETSC_FALSE : PETSC_TRUE;
  S->measured        = sensors;
  S->modelled_cpu    = mcpu;
  S->modelled_gpu    = mgpu;
  S->modelled_energy = glob[2 * EAS_NUM_PHASES + 5];
  S->resolution      = sensors ? m->resolution : 0;
  S->reads_caller    = (PetscInt)glob[2 * EAS_NUM_PHASES + 2];
  S->reads_sampler   = (PetscInt)glob[2 * EAS_NUM_PHASES + 3];
  S->boundaries      = (PetscInt)tglob[2 * EAS_NUM_PHASES + 3];
  /* apportioned: more than 1% of the time in intervals shorter than the resolution */
  S->apportioned       = (PetscBool)(sensors && S->time < m->resolution);
  S->other_energy      = glob[2 * EAS_NUM_PHASES + 1];
  S->other_measured    = sensors;
  S->other_apportioned = (PetscBool)(sensors && tglob[2 * EAS_NUM_PHASES + 2] > 0.01);
  for (PetscInt p = 0; p < EAS_NUM_PHASES; p++) {
    S->phase_time[p]        = tglob[p];
    S->phase_energy[p]      = glob[p];
    S->phase_measured[p]    = (PetscBool)(sensors && tglob[p] > 0);
    S->phase_apportioned[p] = (PetscBool)(sensors && tglob[EAS_NUM_PHASES + p] > 0.01);
  }
  /* measured: the sensors' energy over the windows (the sum of their rows), plus the model's part of the
     uncovered kinds; modelled: the model's total (overlapping phases are counted once) */
  S->energy = sensors ? glob[2 * EAS_NUM_PHASES + 4] + S->modelled_energy : S->model_energy;
  /* the network switch of a cluster run (Vialle et al. eq. 1.34: + P_sw over T), modelled: no sensor covers it */
  S->switch_energy = m->nnodes > 1 ? m->prof.switch_ * S->time : 0;
  S->model_energy += S->switch_energy;
  if (!S->measured) S->energy += S->switch_energy;
  S->power = S->time > 0 ? S->energy / S->time : 0;
  S->edp   = S->energy * S->time;
  PetscFunctionReturn(0);
}

PetscErrorCode EasMeterGatherReport(EasEnergyMeter m, EasMeterReport *R)
{
  MPI_Comm        comm = PetscObjectComm((PetscObject)m);
  const PetscInt  nu   = m->nunits;
  PetscReal       T = 0, loc[EAS_NUM_PHASES * (EAS_METER_MAX_UNITS + 1)], pw[2] = {0, 0};
  PetscReal       uloc[4 * EAS_METER_MAX_UNITS], uglob[4 * EAS_METER_MAX_UNITS], bloc[4], bglob[4], kloc[2 * EAS_NUM_PHASES];
  PetscMPIInt     ppn;
  const PetscReal PI = m->prof.cpu_idle + m->prof.gpu_idle + m->prof.dram;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(R, sizeof(*R)));
  PetscCall(EasEnergyMeterGetSummary(m, &R->S));
  PetscCallMPI(MPI_Comm_size(comm, &R->size));
  PetscCall(EasGetNodeIndex(comm, NULL, &R->nnodes));
  PetscCall(MeterElapsed(m, &T));
  PetscCall(MeterRanksPerNode(m, &ppn));
  for (PetscInt u = 0; u < nu; u++) {
    uloc[u] = 0;
    for (PetscInt p = 0; p < EAS_NUM_PHASES; p++) uloc[u] += m->unit[u].busy[p];
    uloc[nu + u]     = m->unit[u].work[EAS_PHASE_COMPUTE];
    uloc[2 * nu + u] = m->unit[u].busy[EAS_PHASE_COMPUTE];
    uloc[3 * nu + u] = EasMeterUnitWeight(m, u);
  }
  if (nu) PetscCallMPI(MPI_Allreduce(uloc, uglob, (PetscMPIInt)(4 * nu), MPIU_REAL, MPIU_SUM, comm));
  for (PetscInt u = 0; u < nu; u++) {
    R->ubusy[u]   = uglob[u];
    R->uwork[u]   = uglob[nu + u];
    R->ucomp[u]   = uglob[2 * nu + u];
    R->uweight[u] = uglob[3 * nu + u] / R->size;
  }
  WeightedBeta(m, -1, T, &bloc[0], &bloc[1]);                /* this rank's share of its node's beta */
  WeightedBeta(m, EAS_PHASE_COMPUTE, T, &bloc[2], &bloc[3]); /* computing only */
  PetscCallMPI(MPI_Allreduce(bloc, bglob, 4, MPIU_REAL, MPIU_SUM, comm));
  for (PetscInt k = 0; k < 2; k++) {
    R->beta[k]         = bglob[k] / R->nnodes;
    R->beta_compute[k] = bglob[2 + k] / R->nnodes;
  }
  for (PetscInt p = 0; p < EAS_NUM_PHASES; p++) BusyByKind(m, p, &kloc[p], &kloc[EAS_NUM_PHASES + p]);
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, kloc, 2 * EAS_NUM_PHASES, MPIU_REAL, MPIU_SUM, comm));
  for (PetscInt p = 0; p < EAS_NUM_PHASES; p++) {
    R->pbusy[0][p] = kloc[p];
    R->pbusy[1][p] = kloc[EAS_NUM_PHASES + p];
  }
  /* eq. 1.16 split into parts: phase p of wall time W costs W P_I/ppn (idle part) plus, for each unit,
     w_u min(busy_u, W) P_C(kind) (its active part); the parts add up to the phase's modelled energy
     unless a kind's busy fraction is capped at 1 */
  for (PetscInt p = 0; p < EAS_NUM_PHASES; p++) {
    const PetscReal W = m->pwall[p];
    for (PetscInt u = 0; u < nu; u++) {
      const PetscReal PC    = m->unit[u].kind == EAS_UNIT_GPU ? m->prof.gpu_full - m->prof.gpu_idle : m->prof.cpu_full - m->prof.cpu_idle;
      loc[p * (nu + 1) + u] = EasMeterUnitWeight(m, u) * PetscMin(m->unit[u].busy[p], W) * PC;
    }
    PetscCall(ModelEnergy(&m->prof, ppn, W, 0, 0, &loc[p * (nu + 1) + nu]));
  }
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, loc, (PetscMPIInt)(EAS_NUM_PHASES * (nu + 1)), MPIU_REAL, MPIU_SUM, comm));
  for (PetscInt p = 0; p < EAS_NUM_PHASES; p++)
    for (PetscInt u = 0; u <= nu; u++) R->part[p][u] = loc[p * (nu + 1) + u];
  /* the computing kind and the node powers of the frontier, summed over the nodes (leaders) */
  {
    PetscReal g     = R->pbusy[1][EAS_PHASE_COMPUTE];
    R->gpu_computes = g > 0 ? PETSC_TRUE : PETSC_FALSE;
  }
  if (m->node_leader) {
    pw[0] = PI + (R->gpu_computes ? m->prof.gpu_full - m->prof.gpu_idle : m->prof.cpu_full - m->prof.cpu_idle);
    pw[1] = PI;
  }
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, pw, 2, MPIU_REAL, MPIU_SUM, comm));
  R->PF = pw[0];
  R->PI = pw[1];
  for (PetscInt s = 0; s < m->nsensors; s++) {
    PetscCall(PetscStrlcat(R->sensors, s ? "+" : "", sizeof(R->sensors)));
    PetscCall(PetscStrlcat(R->sensors, m->sensor[s]->type, sizeof(R->sensors)));
  }
  if (!m->nsensors) PetscCall(PetscStrncpy(R->sensors, m->na ? "none (n/a)" : "model", sizeof(R->sensors)));
  if (!R->S.valid || !R->S.measured) PetscCall(PetscStrncpy(R->source, R->S.valid ? "modelled" : "n/a", sizeof(R->source)));
  else {
    const char *covered = m->cover_cpu ? (m->cover_gpu ? "cpu, dram, gpu" : "cpu, dram") : "gpu";
    PetscCall(PetscSNPrintf(R->source, sizeof(R->source), "measured (%s: %s)", R->sensors, covered));
    if (R->S.modelled_cpu) PetscCall(PetscStrlcat(R->source, " + modelled (cpu, dram: no RAPL)", sizeof(R->source)));
    if (R->S.modelled_gpu) PetscCall(PetscStrlcat(R->source, " + modelled (gpu: no NVML)", sizeof(R->source)));
  }
  PetscCall(PetscSNPrintf(R->modelled, sizeof(R->modelled), "%s%s%s", R->S.modelled_cpu ? "cpu+dram" : "", R->S.modelled_cpu && R->S.modelled_gpu ? "+" : "", R->S.modelled_gpu ? "gpu" : ""));
  PetscFunctionReturn(0);
}
