/*
  EasEnergyMeter: time and energy per phase and unit, the energy report
  and the CSV trace (docs/energy.md).  This file: the object, its options
  and the timing state machine (Start, Stop, Resume, Begin, End); the
  sensors are probed and read in metersensors.c, the energies accounted in
  meteraccount.c, the report printed by meterview.c and the trace written
  by metertrace.c (shared internals in energyimpl.h).

  Time: each unit's busy time per phase (Begin/End), a phase's wall time is
  the union over units, T = the sum of the running windows [Start or
  Resume, Stop] (busy time outside them is not counted).
  Modelled energy (Vialle et al. eq. 1.16; eq. 1.33 for one unit): each unit u
  has a weight w_u, the fraction of its node's CPU (or GPU) it occupies
  (EasEnergyMeterSetUnitWeight; EasEnergyMeterSetUnitWeightsFromThreads
  derives it from thread counts; default 1/ppn, ppn = ranks on the node:
  the unit stands for its rank's whole share).  A rank's busy fraction of
  a kind is beta = sum_u w_u min(1, busy_u/T) (capped at 1): its
  contribution to the node's beta.  Every rank is charged 1/ppn of the
  node's idle power, so its modelled energy is
    E = T (P_I/ppn + beta_cpu P_C(cpu) + beta_gpu P_C(gpu))
  with P_I = cpu_idle + gpu_idle + dram, P_C(u) = u_full - u_idle
  (EasModelProfileShareEnergy); summed over the node's ranks it is the
  node's eq. 1.16 with the weighted busy fractions.
  Measured energy (issue 20): the sensors of each node belong to the
  node's first rank (its "leader"); a sampler thread per sensor reads it
  every sampler period and keeps (time, cumulative energy) samples.  The
  boundaries (Start, Stop, Resume, Begin, End) only record times: the host
  clock, or for a GPU unit a timer mark on the backend's queue resolved at
  a later natural synchronization (metertimeline.c); no boundary reads a
  sensor or waits for a device.  The leader apportions each sampling
  interval's energy to the phases by the time they were busy in it, so the
  phases and the unphased row add up to the sensors' energy over the
  running windows; a phase whose intervals are mostly shorter than the
  resolution (sampler or update period) is labelled "apportioned".
*/
#include "energyimpl.h"
#include <unistd.h>

const char *const EasPhases[] = {"setup", "compute", "exchange", "transfers", "EasPhase", "EAS_PHASE_", NULL};

PetscErrorCode EasMeterNow(EasEnergyMeter m, PetscLogDouble *t)
{
  PetscFunctionBegin;
  if (m->now)
    PetscCall((*m->now)(m->now_ctx, t));
  else
    *t = EasHostClock(); /* the sensors' samples are on this clock */
  PetscFunctionReturn(0);
}

/*@C
  EasEnergyMeterCreate - a meter (sensor auto, default profile).
@*/
PetscErrorCode EasEnergyMeterCreate(MPI_Comm comm, EasEnergyMeter *meter)
{
  EasEnergyMeter m;

  PetscFunctionBegin;
  PetscValidPointer(meter, 2);
  PetscCall(EasEnergyInitializePackage());
  PetscCall(PetscHeaderCreate(m, EAS_METER_CLASSID, "EasEnergyMeter", "eas energy meter", "Sys", comm, EasEnergyMeterDestroy, EasEnergyMeterView));
  PetscCall(PetscStrncpy(m->sensor_type, "auto", sizeof(m->sensor_type)));
  PetscCall(EasPowerProfileDefault(&m->prof));
  m->prof_default = PETSC_TRUE;
  {
    MPI_Comm    shm;
    PetscMPIInt srank, leader;
    PetscCallMPI(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shm));
    PetscCallMPI(MPI_Comm_size(shm, &m->ppn));
    PetscCallMPI(MPI_Comm_rank(shm, &srank));
    PetscCallMPI(MPI_Comm_free(&shm));
    leader = srank ? 0 : 1;
    PetscCallMPI(MPI_Allreduce(&leader, &m->nnodes, 1, MPI_INT, MPI_SUM, comm));
  }
  *meter = m;
  PetscFunctionReturn(0);
}

PetscErrorCode EasEnergyMeterSetOptionsPrefix(EasEnergyMeter m, const char prefix[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(m, EAS_METER_CLASSID, 1);
  PetscCall(PetscObjectSetOptionsPrefix((PetscObject)m, prefix));
  PetscFunctionReturn(0);
}

/*@C
  EasEnergyMeterSetSensorType - auto, rapl, nvml or model.
@*/
PetscErrorCode EasEnergyMeterSetSensorType(EasEnergyMeter m, const char type[])
{
  const char *ok[]  = {"auto", "rapl", "nvml", "model"};
  PetscBool   match = PETSC_FALSE;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(m, EAS_METER_CLASSID, 1);
  for (int i = 0; i < 4 && !match; i++) PetscCall(PetscStrcmp(type, ok[i], &match));
  PetscCheck(match, PetscObjectComm((PetscObject)m), PETSC_ERR_ARG_UNKNOWN_TYPE, "-eas_sensor %s: expected auto, rapl, nvml or model", type ? type : "(null)");
  PetscCheck(!m->setup, PetscObjectComm((PetscObject)m), PETSC_ERR_ORDER, "-eas_sensor must be set before EasEnergyMeterSetUp");
  PetscCall(PetscStrncpy(m->sensor_type, type, sizeof(m->sensor_type)));
  PetscFunctionReturn(0);
}

PetscErrorCode EasEnergyMeterSetProfile(EasEnergyMeter m, const EasPowerProfile *p)
{
  PetscReal E;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(m, EAS_METER_CLASSID, 1);
  PetscCall(EasModelProfileEnergy(p, 1.0, 0.0, 0.0, &E)); /* validates */
  m->prof         = *p;
  m->prof_set     = PETSC_TRUE;
  m->prof_default = PETSC_FALSE;
  PetscFunctionReturn(0);
}

PetscErrorCode EasEnergyMeterGetProfile(EasEnergyMeter m, EasPowerProfile *p)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(m, EAS_METER_CLASSID, 1);
  *p = m->prof;
  PetscFunctionReturn(0);
}

PetscErrorCode EasEnergyMeterSetSynchronize(EasEnergyMeter m, PetscErrorCode (*sync)(void *), void *ctx)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(m, EAS_METER_CLASSID, 1);
  m->sync     = sync;
  m->sync_ctx = ctx;
  PetscFunctionReturn(0);
}

static PetscErrorCode MeterSyncBackend(void *ctx)
{
  PetscFunctionBegin;
  PetscCall(EasBackendSynchronize((EasBackend)ctx));
  PetscFunctionReturn(0);
}

/*@C
  EasEnergyMeterSetBackend - the backend of the meter's GPU units: their
  Begin/End are timer marks on its queue (resolved later, never waited
  for), and Stop waits for its queued work (EasBackendSynchronize).
@*/
PetscErrorCode EasEnergyMeterSetBackend(EasEnergyMeter m, EasBackend be)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(m, EAS_METER_CLASSID, 1);
  if (m->nmarks) PetscCall(EasMeterFlush(m, PETSC_TRUE)); /* the old backend's marks */
  if (be) PetscCall(PetscObjectReference((PetscObject)be));
  PetscCall(EasBackendDestroy(&m->backend));
  m->backend = be;
  PetscCall(EasEnergyMeterSetSynchronize(m, be ? MeterSyncBackend : NULL, be));
  PetscFunctionReturn(0);
}

PetscErrorCode EasEnergyMeterSetTimeFunction(EasEnergyMeter m, PetscErrorCode (*now)(void *, PetscLogDouble *), void *ctx)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(m, EAS_METER_CLASSID, 1);
  m->now     = now;
  m->now_ctx = ctx;
  PetscFunctionReturn(0);
}

/*@C
  EasEnergyMeterAddUnit - registers a compute unit; unit receives its index.
@*/
PetscErrorCode EasEnergyMeterAddUnit(EasEnergyMeter m, const char name[], EasUnitKind kind, PetscInt *unit)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(m, EAS_METER_CLASSID, 1);
  PetscCheck(m->nunits < EAS_METER_MAX_UNITS, PetscObjectComm((PetscObject)m), PETSC_ERR_ARG_OUTOFRANGE, "EasEnergyMeterAddUnit: at most %d units", EAS_METER_MAX_UNITS);
  PetscCall(PetscMemzero(&m->unit[m->nunits], sizeof(m->unit[0])));
  PetscCall(PetscStrncpy(m->unit[m->nunits].name, name, sizeof(m->unit[0].name)));
  m->unit[m->nunits].kind = kind;
  if (unit) *unit = m->nunits;
  m->nunits++;
  PetscFunctionReturn(0);
}

/*@C
  EasEnergyMeterGetNumUnits - number of registered units.
@*/
PetscErrorCode EasEnergyMeterGetNumUnits(EasEnergyMeter m, PetscInt *n)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(m, EAS_METER_CLASSID, 1);
  PetscValidIntPointer(n, 2);
  *n = m->nunits;
  PetscFunctionReturn(0);
}

/* The weight of unit u (its default 1/ppn when unset). */
PetscReal EasMeterUnitWeight(EasEnergyMeter m, PetscInt u)
{
  return m->unit[u].weight > 0 ? m->unit[u].weight : 1.0 / (PetscReal)m->ppn;
}

/*@C
  EasEnergyMeterSetUnitWeight - the fraction w in (0,1] of its node's CPU
  (CPU unit) or GPU (GPU unit) that unit occupies.
@*/
PetscErrorCode EasEnergyMeterGetUnitInfo(EasEnergyMeter m, PetscInt u, const char *name[], EasUnitKind *kind)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(m, EAS_METER_CLASSID, 1);
  PetscCheck(u >= 0 && u < m->nunits, PetscObjectComm((PetscObject)m), PETSC_ERR_ARG_OUTOFRANGE, "EasEnergyMeterGetUnitInfo: unit %" PetscInt_FMT " is not registered (%" PetscInt_FMT " units)", u, m->nunits);
  if (name) *name = m->unit[u].name;
  if (kind) *kind = m->unit[u].kind;
  PetscFunctionReturn(0);
}

PetscErrorCode EasEnergyMeterSetUnitWeight(EasEnergyMeter m, PetscInt u, PetscReal w)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(m, EAS_METER_CLASSID, 1);
  PetscCheck(u >= 0 && u < m->nunits, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "EasEnergyMeterSetUnitWeight: unit %" PetscInt_FMT " outside [0,%" PetscInt_FMT "): register units with EasEnergyMeterAddUnit", u, m->nunits);
  PetscCheck(w > 0 && w <= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "EasEnergyMeterSetUnitWeight: weight w = %g of unit %s is invalid: expected w in (0,1], the fraction of the node's %s the unit occupies", (double)w, m->unit[u].name, m->unit[u].kind == EAS_UNIT_GPU ? "GPU" : "CPU");
  m->unit[u].weight = w;
  PetscFunctionReturn(0);
}

/*@C
  EasEnergyMeterGetUnitWeight - the weight of unit u (1/ppn when unset).
@*/
PetscErrorCode EasEnergyMeterGetUnitWeight(EasEnergyMeter m, PetscInt u, PetscReal *w)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(m, EAS_METER_CLASSID, 1);
  PetscValidRealPointer(w, 3);
  PetscCheck(u >= 0 && u < m->nunits, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "EasEnergyMeterGetUnitWeight: unit %" PetscInt_FMT " outside [0,%" PetscInt_FMT ")", u, m->nunits);
  *w = EasMeterUnitWeight(m, u);
  PetscFunctionReturn(0);
}

/*@C
  EasEnergyMeterSetNodeCores - cores of a node for
  EasEnergyMeterSetUnitWeightsFromThreads (PETSC_DECIDE: the online
  processors, sysconf(_SC_NPROCESSORS_ONLN)).
@*/
PetscErrorCode EasEnergyMeterSetNodeCores(EasEnergyMeter m, PetscInt cores)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(m, EAS_METER_CLASSID, 1);
  PetscCheck(cores >= 1 || cores == PETSC_DECIDE, PetscObjectComm((PetscObject)m), PETSC_ERR_ARG_OUTOFRANGE, "-eas_node_cores %" PetscInt_FMT " is invalid: expected a number of cores >= 1", cores);
  m->node_cores = cores;
  PetscFunctionReturn(0);
}

/*@C
  EasEnergyMeterSetUnitWeightsFromThreads - weights of every unit from the
  threads of the CPU units, collective (see include/eas/meter.h).
@*/
PetscErrorCode EasEnergyMeterSetUnitWeightsFromThreads(EasEnergyMeter m, const PetscInt threads[])
{
  MPI_Comm shm;
  PetscInt loc[2] = {0, 0}, node[2], C;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(m, EAS_METER_CLASSID, 1);
  if (m->nunits) PetscValidIntPointer(threads, 2);
  for (PetscInt u = 0; u < m->nunits; u++) {
    PetscCheck(threads[u] >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "EasEnergyMeterSetUnitWeightsFromThreads: threads[%" PetscInt_FMT "] = %" PetscInt_FMT " of unit %s is invalid: expected >= 1 (0 leaves the unit alone)", u, threads[u], m->unit[u].name);
    if (!threads[u]) continue;
    if (m->unit[u].kind == EAS_UNIT_GPU)
      loc[1]++;
    else
      loc[0] += threads[u];
  }
  PetscCallMPI(MPI_Comm_split_type(PetscObjectComm((PetscObject)m), MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shm));
  PetscCallMPI(MPI_Allreduce(loc, node, 2, MPIU_INT, MPI_SUM, shm));
  PetscCallMPI(MPI_Comm_free(&shm));
  C = m->node_cores > 0 ? m->node_cores : (PetscInt)sysconf(_SC_NPROCESSORS_ONLN);
  if (C < 1) C = 1;
  for (PetscInt u = 0; u < m->nunits; u++) {
    if (!threads[u]) continue;
    /* a CPU unit drives threads/C of the node's cores; more threads than cores (oversubscribed): each gets its fair share threads/T_node */
    if (m->unit[u].kind == EAS_UNIT_GPU)
      m->unit[u].weight = 1.0 / (PetscReal)node[1]; /* the node's GPU units share its GPU (device 0) */
    else
      m->unit[u].weight = (PetscReal)threads[u] / (PetscReal)PetscMax(C, node[0]);
  }
  PetscFunctionReturn(0);
}

/*@C
  EasEnergyMeterSetFromOptions - -eas_sensor, -eas_rapl_root, the profile
  keys, -eas_energy_view [:file[:format]], -eas_trace <file.csv>.
@*/
PetscErrorCode EasEnergyMeterSetFromOptions(EasEnergyMeter m)
{
  MPI_Comm    comm;
  const char *prefix;
  char        type[16], trace[PETSC_MAX_PATH_LEN] = "";
  PetscBool   flg, tflg, dflt;
  PetscInt    node, nnodes;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(m, EAS_METER_CLASSID, 1);
  PetscCall(PetscObjectGetComm((PetscObject)m, &comm));
  PetscCall(PetscObjectGetOptionsPrefix((PetscObject)m, &prefix));
  PetscCall(PetscStrncpy(type, m->sensor_type, sizeof(type)));
  PetscObjectOptionsBegin((PetscObject)m);
  PetscCall(PetscOptionsString("-eas_sensor", "Energy sensor: auto, rapl, nvml or model", "EasEnergyMeterSetSensorType", type, type, sizeof(type), &flg));
  if (flg) PetscCall(EasEnergyMeterSetSensorType(m, type));
  PetscCall(PetscOptionsString("-eas_rapl_root", "powercap root of the RAPL sensor", "EasSensorSetRaplRoot", m->rapl_root, m->rapl_root, sizeof(m->rapl_root), NULL));
  PetscCall(PetscOptionsName("-eas_energy_view", "Print the energy report at the end ([:file[:format]]; :file.csv:ascii_csv writes CSV)", "EasEnergyMeterView", NULL));
  PetscCall(PetscOptionsString("-eas_trace", "CSV trace, one row per iteration", "EasEnergyTraceRow", trace, trace, sizeof(trace), &tflg));
  {
    PetscInt cores = m->node_cores > 0 ? m->node_cores : PETSC_DECIDE;
    PetscCall(PetscOptionsInt("-eas_node_cores", "Cores of a node, for the units' weights (default: online processors)", "EasEnergyMeterSetNodeCores", cores, &cores, &flg));
    if (flg) PetscCall(EasEnergyMeterSetNodeCores(m, cores));
  }
  PetscOptionsEnd();
  if (!m->prof_set) {
    PetscCall(EasGetNodeIndex(comm, &node, &nnodes));
    PetscCall(EasPowerProfileGetFromOptions(comm, prefix, node, nnodes, &m->prof, &dflt));
    m->prof_default = dflt;
  }
  PetscCall(PetscViewerDestroy(&m->viewer));
  PetscCall(PetscOptionsGetViewer(comm, ((PetscObject)m)->options, prefix, "-eas_energy_view", &m->viewer, &m->vformat, &m->view_set));
  if (tflg) PetscCall(EasEnergyMeterSetTrace(m, trace));
  PetscFunctionReturn(0);
}

/*@C
  EasEnergyMeterStart - starts a new metered run (sets up the meter if
  needed): every figure restarts from zero; phases open at the call go on
  from now.
@*/
PetscErrorCode EasEnergyMeterStart(EasEnergyMeter m)
{
  PetscFunctionBegin;
  if (!m) PetscFunctionReturn(0);
  PetscValidHeaderSpecific(m, EAS_METER_CLASSID, 1);
  PetscCall(EasEnergyMeterSetUp(m));
  PetscCall(EasMeterRecord(m, EAS_METER_EV_START, EAS_PHASE_SETUP, -1, 0)); /* processed at once unless device marks are pending */
  m->started      = PETSC_TRUE;
  m->stopped      = PETSC_FALSE;
  m->trace_t      = m->tstart;
  m->trace_E      = 0;
  m->trace_Emodel = 0;
  m->trace_Ecomp  = 0;
  PetscFunctionReturn(0);
}

/*@C
  EasEnergyMeterStop - closes the running window; figures stay until the
  next Start and accumulate again after EasEnergyMeterResume.  Waits for the
  backend's queued work (EasEnergyMeterSetBackend), so the window covers it.
@*/
PetscErrorCode EasEnergyMeterStop(EasEnergyMeter m)
{
  PetscFunctionBegin;
  if (!m) PetscFunctionReturn(0);
  PetscValidHeaderSpecific(m, EAS_METER_CLASSID, 1);
  PetscCheck(m->started, PetscObjectComm((PetscObject)m), PETSC_ERR_ORDER, "EasEnergyMeterStop without EasEnergyMeterStart");
  if (m->stopped) PetscFunctionReturn(0);
  if (m->sync) PetscCall((*m->sync)(m->sync_ctx)); /* the end of the run: the device's queued work is in it */
  PetscCall(EasMeterRecord(m, EAS_METER_EV_STOP, EAS_PHASE_SETUP, -1, 0));
  if (m->nev) PetscCall(EasMeterFlush(m, PETSC_TRUE)); /* the device marks before Stop, waited for */
  m->stopped = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/*@C
  EasEnergyMeterResume - opens a new running window after Stop: time,
  busy times and energies accumulate on the previous figures (Start if the
  meter never ran; no-op while running).
@*/
PetscErrorCode EasEnergyMeterResume(EasEnergyMeter m)
{
  PetscFunctionBegin;
  if (!m) PetscFunctionReturn(0);
  PetscValidHeaderSpecific(m, EAS_METER_CLASSID, 1);
  if (!m->started) {
    PetscCall(EasEnergyMeterStart(m));
    PetscFunctionReturn(0);
  }
  if (!m->stopped) PetscFunctionReturn(0);
  PetscCall(EasMeterRecord(m, EAS_METER_EV_RESUME, EAS_PHASE_SETUP, -1, 0));
  m->stopped = PETSC_FALSE;
  m->trace_t = m->tstart; /* the next trace row covers the time since Resume */
  m->trace_E = 0;
  for (PetscInt k = 0; k < m->nsensors; k++)
    for (PetscInt p = 0; p <= EAS_NUM_PHASES; p++) m->trace_E += m->acc[k].E[p];
  PetscFunctionReturn(0);
}

/*@C
  EasEnergyMeterBegin - unit starts being busy in phase (NULL meter: no-op).
  Records the time (a GPU unit's: a timer mark on the backend's queue) and
  never reads a sensor or waits for a device.
@*/
PetscErrorCode EasEnergyMeterBegin(EasEnergyMeter m, EasPhase p, PetscInt u)
{
  PetscFunctionBegin;
  if (!m) PetscFunctionReturn(0);
  PetscCheck(p >= 0 && p < EAS_NUM_PHASES, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "EasEnergyMeterBegin: phase %d is not an EasPhase", (int)p);
  PetscCheck(u >= 0 && u < m->nunits, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "EasEnergyMeterBegin: unit %" PetscInt_FMT " outside [0,%" PetscInt_FMT "): register units with EasEnergyMeterAddUnit", u, m->nunits);
  m->unit[u].rdepth[p]++;
  PetscCall(EasMeterRecord(m, EAS_METER_EV_BEGIN, p, u, 0));
  PetscFunctionReturn(0);
}

/*@C
  EasEnergyMeterEnd - unit stops being busy in phase after `work` elements.
@*/
PetscErrorCode EasEnergyMeterEnd(EasEnergyMeter m, EasPhase p, PetscInt u, PetscReal work)
{
  PetscFunctionBegin;
  if (!m) PetscFunctionReturn(0);
  PetscCheck(p >= 0 && p < EAS_NUM_PHASES, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "EasEnergyMeterEnd: phase %d is not an EasPhase", (int)p);
  PetscCheck(u >= 0 && u < m->nunits, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "EasEnergyMeterEnd: unit %" PetscInt_FMT " outside [0,%" PetscInt_FMT ")", u, m->nunits);
  PetscCheck(m->unit[u].rdepth[p] > 0, PETSC_COMM_SELF, PETSC_ERR_ORDER, "EasEnergyMeterEnd(%s, %s) without a matching EasEnergyMeterBegin", EasPhases[p], m->unit[u].name);
  m->unit[u].rdepth[p]--;
  PetscCall(EasMeterRecord(m, EAS_METER_EV_END, p, u, work));
  PetscFunctionReturn(0);
}

PetscErrorCode EasEnergyMeterGetPhase(EasEnergyMeter m, EasPhase p, PetscInt u, PetscReal *busy, PetscReal *work, PetscReal *t_el)
{
  PetscReal b = 0, w = 0;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(m, EAS_METER_CLASSID, 1);
  PetscCheck(p >= 0 && p < EAS_NUM_PHASES, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "phase %d is not an EasPhase", (int)p);
  PetscCheck(u >= -1 && u < m->nunits, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "unit %" PetscInt_FMT " outside [-1,%" PetscInt_FMT ")", u, m->nunits);
  PetscCall(EasMeterFlushEvents(m)); /* what is known so far (a device unit's marks not yet reached are not) */
  for (PetscInt v = 0; v < m->nunits; v++)
    if (u < 0 || v == u) {
      b += m->unit[v].busy[p];
      w += m->unit[v].work[p];
    }
  if (busy) *busy = b;
  if (work) *work = w;
  if (t_el) *t_el = w > 0 ? b / w : 0;
  PetscFunctionReturn(0);
}

/*@C
  EasEnergyMeterGetPhaseWall - this rank's wall time of phase p (closed intervals).
@*/
PetscErrorCode EasEnergyMeterGetPhaseWall(EasEnergyMeter m, EasPhase p, PetscReal *wall)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(m, EAS_METER_CLASSID, 1);
  PetscCheck(p >= 0 && p < EAS_NUM_PHASES, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "phase %d is not an EasPhase", (int)p);
  PetscValidRealPointer(wall, 3);
  PetscCall(EasMeterFlushEvents(m));
  *wall = m->pwall[p];
  PetscFunctionReturn(0);
}

/*@C
  EasEnergyMeterDestroy - stops the sensors, closes the trace, frees.
@*/
PetscErrorCode EasEnergyMeterDestroy(EasEnergyMeter *meter)
{
  EasEnergyMeter m;

  PetscFunctionBegin;
  if (!*meter) PetscFunctionReturn(0);
  m = *meter;
  PetscValidHeaderSpecific(m, EAS_METER_CLASSID, 1);
  if (--((PetscObject)m)->refct > 0) {
    *meter = NULL;
    PetscFunctionReturn(0);
  }
  PetscCall(EasMeterFlush(m, PETSC_TRUE)); /* every device mark resolved: the backend holds none of ours */
  PetscCall(PetscFree(m->ev));
  for (PetscInt s = 0; s < m->nsensors; s++) PetscCall(EasSensorDestroy(&m->sensor[s]));
  if (m->trace) PetscCall(PetscFClose(PETSC_COMM_SELF, m->trace));
  PetscCall(PetscViewerDestroy(&m->viewer));
  PetscCall(EasBackendDestroy(&m->backend));
  PetscCall(PetscHeaderDestroy(meter));
  PetscFunctionReturn(0);
}
