/*
  EasEnergyMeter: time and energy per phase and unit, the energy report
  and the CSV trace (docs/energy.md).

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
  Measured energy: the sensors of each node are read by the node's first
  rank (its "leader") at Start/Stop and at the outer Begin/End of each
  phase; a phase interval shorter than the sensors' update period is not
  claimed (its energy comes from the model, the figure is then "mixed").
*/
#include "energyimpl.h"
#include <unistd.h>

/* "eas: sensor <type>: Disabled: <reason>" lines printed so far by this
   process: every distinct line is printed once (by the first meter that
   prints it), not once per meter, and only by rank 0 of PETSC_COMM_WORLD.
   Static storage (no PetscMalloc, so -malloc_dump stays clean); forgotten
   at PetscFinalize. */
#define EAS_DISABLED_MAX 16
static char eas_disabled_line[EAS_DISABLED_MAX][600];
static int  eas_ndisabled = 0;

void EasEnergyResetDisabledLines(void)
{
  eas_ndisabled = 0;
}

/* Prints the meter's pending "Disabled" lines (world rank 0, each distinct
   line once per process) and forgets them. */
static PetscErrorCode MeterFlushDisabled(EasEnergyMeter m)
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < m->ndisabled; k++) {
    const char *line = m->disabled[k];
    PetscBool   seen = PETSC_FALSE;
    for (int i = 0; i < eas_ndisabled && !seen; i++) PetscCall(PetscStrcmp(line, eas_disabled_line[i], &seen));
    if (seen) continue;
    if (eas_ndisabled < EAS_DISABLED_MAX) PetscCall(PetscStrncpy(eas_disabled_line[eas_ndisabled++], line, sizeof(eas_disabled_line[0])));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s", line));
  }
  m->ndisabled = 0;
  PetscFunctionReturn(0);
}

/* Whether the meter's output was asked for: -eas_energy_view, -eas_trace or
   a sensor named explicitly (-eas_sensor rapl|nvml). */
static PetscErrorCode MeterAnnounce(EasEnergyMeter m, PetscBool *yes)
{
  PetscBool rapl, nvml;

  PetscFunctionBegin;
  PetscCall(PetscStrcmp(m->sensor_type, EAS_SENSOR_RAPL, &rapl));
  PetscCall(PetscStrcmp(m->sensor_type, EAS_SENSOR_NVML, &nvml));
  *yes = (m->view_set || m->trace_on || rapl || nvml) ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(0);
}

/* Records a "Disabled" line of this meter (printed by MeterFlushDisabled). */
static PetscErrorCode MeterAddDisabled(EasEnergyMeter m, const char type[], const char why[])
{
  PetscFunctionBegin;
  if (m->ndisabled >= EAS_METER_MAX_SENSORS) PetscFunctionReturn(0);
  PetscCall(PetscSNPrintf(m->disabled[m->ndisabled++], sizeof(m->disabled[0]), "eas: sensor %s: Disabled: %s\n", type, why));
  PetscFunctionReturn(0);
}

const char *const EasPhases[] = {"setup", "compute", "exchange", "transfers", "EasPhase", "EAS_PHASE_", NULL};

static PetscErrorCode MeterNow(EasEnergyMeter m, PetscLogDouble *t)
{
  PetscFunctionBegin;
  if (m->now)
    PetscCall((*m->now)(m->now_ctx, t));
  else
    PetscCall(PetscTime(t));
  PetscFunctionReturn(0);
}

/* Sum of all measured domains of this rank's sensors (leaders only). */
static PetscErrorCode MeterReadSensors(EasEnergyMeter m, PetscReal *E)
{
  PetscFunctionBegin;
  *E = 0;
  if (!m->node_leader) PetscFunctionReturn(0);
  if (m->sync && m->nsensors) PetscCall((*m->sync)(m->sync_ctx));
  for (PetscInt s = 0; s < m->nsensors; s++) {
    PetscReal e[EAS_SENSOR_MAX_DOMAINS];
    PetscInt  nd;
    PetscCall(EasSensorGetNumDomains(m->sensor[s], &nd));
    PetscCall(EasSensorRead(m->sensor[s], NULL, e));
    for (PetscInt d = 0; d < nd; d++) *E += e[d];
  }
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
  EasEnergyMeterSetBackend - sensor reads first wait for the backend's
  queued work (EasBackendSynchronize), so a GPU stream is synchronized.
@*/
PetscErrorCode EasEnergyMeterSetBackend(EasEnergyMeter m, EasBackend be)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(m, EAS_METER_CLASSID, 1);
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
static PetscReal UnitWeight(EasEnergyMeter m, PetscInt u)
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
  *w = UnitWeight(m, u);
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
  EasEnergyMeterSetTrace - opens the CSV trace (rank 0 writes); NULL closes it.
@*/
PetscErrorCode EasEnergyMeterSetTrace(EasEnergyMeter m, const char path[])
{
  PetscMPIInt rank;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(m, EAS_METER_CLASSID, 1);
  PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)m), &rank));
  if (m->trace) {
    PetscBool same = PETSC_FALSE;
    PetscCall(PetscFClose(PETSC_COMM_SELF, m->trace));
    if (path) PetscCall(PetscStrcmp(path, m->trace_path, &same));
    if (!m->trace_header && !same) (void)remove(m->trace_path); /* switched to another file before any row: leave no empty file */
  }
  m->trace        = NULL;
  m->trace_header = PETSC_FALSE;
  m->trace_on     = (path && path[0]) ? PETSC_TRUE : PETSC_FALSE;
  if (path && path[0] && rank == 0) {
    PetscCall(PetscFOpen(PETSC_COMM_SELF, path, "w", &m->trace));
    PetscCall(PetscStrncpy(m->trace_path, path, sizeof(m->trace_path)));
    PetscCheck(m->trace, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "-eas_trace %s: cannot open the file for writing", path);
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

/* Tries one sensor type on the node leaders; keeps it if every leader has it. */
static PetscErrorCode MeterTrySensor(EasEnergyMeter m, const char type[], PetscBool *ok, char why[], size_t len)
{
  MPI_Comm    comm = PetscObjectComm((PetscObject)m);
  EasSensor   s    = NULL;
  PetscMPIInt mine = 1, all;
  const char *w    = "";

  PetscFunctionBegin;
  if (m->node_leader) {
    PetscBool avail;
    PetscCall(EasSensorCreate(PETSC_COMM_SELF, &s));
    PetscCall(PetscObjectSetOptionsPrefix((PetscObject)s, ((PetscObject)m)->prefix));
    PetscCall(EasSensorSetType(s, type));
    PetscCall(EasSensorSetFromOptions(s));
    if (m->rapl_root[0]) PetscCall(EasSensorSetRaplRoot(s, m->rapl_root));
    PetscCall(EasSensorSetUp(s));
    PetscCall(EasSensorIsAvailable(s, &avail, &w));
    mine = avail ? 1 : 0;
  }
  PetscCallMPI(MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_LAND, comm));
  *ok    = all ? PETSC_TRUE : PETSC_FALSE;
  why[0] = 0;
  if (!all) {
    if (!mine)
      PetscCall(PetscStrncpy(why, w, len));
    else
      PetscCall(PetscStrncpy(why, "not available on every node", len));
    PetscCall(EasSensorDestroy(&s));
  } else if (s) {
    PetscReal up;
    m->sensor[m->nsensors++] = s;
    PetscCall(EasSensorGetUpdatePeriod(s, &up));
    m->update_period = PetscMax(m->update_period, up);
  }
  PetscFunctionReturn(0);
}

/*@C
  EasEnergyMeterSetUp - probes the sensors.  For each absent one there is a
  line "eas: sensor <type>: Disabled: <reason>", printed by rank 0 of
  PETSC_COMM_WORLD, each distinct line once per process: here when energy
  output was requested (-eas_energy_view, -eas_trace) or a sensor was named
  (-eas_sensor rapl|nvml), else before the first EasEnergyMeterView.
@*/
PetscErrorCode EasEnergyMeterSetUp(EasEnergyMeter m)
{
  MPI_Comm    comm;
  MPI_Comm    shm;
  PetscMPIInt srank;
  PetscBool   isauto, israpl, isnvml, ok;
  char        why[512];

  PetscFunctionBegin;
  PetscValidHeaderSpecific(m, EAS_METER_CLASSID, 1);
  if (m->setup) PetscFunctionReturn(0);
  m->setup = PETSC_TRUE;
  PetscCall(PetscObjectGetComm((PetscObject)m, &comm));
  PetscCallMPI(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shm));
  PetscCallMPI(MPI_Comm_rank(shm, &srank));
  PetscCallMPI(MPI_Comm_free(&shm));
  m->node_leader = srank == 0 ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(PetscStrcmp(m->sensor_type, "auto", &isauto));
  PetscCall(PetscStrcmp(m->sensor_type, "rapl", &israpl));
  PetscCall(PetscStrcmp(m->sensor_type, "nvml", &isnvml));
  if (isauto || israpl) {
    PetscCall(MeterTrySensor(m, EAS_SENSOR_RAPL, &ok, why, sizeof(why)));
    if (ok)
      m->cover_cpu = PETSC_TRUE;
    else
      PetscCall(MeterAddDisabled(m, EAS_SENSOR_RAPL, why));
    if (!ok && israpl) m->na = PETSC_TRUE;
  }
  if (isauto || isnvml) {
    PetscCall(MeterTrySensor(m, EAS_SENSOR_NVML, &ok, why, sizeof(why)));
    if (ok)
      m->cover_gpu = PETSC_TRUE;
    else
      PetscCall(MeterAddDisabled(m, EAS_SENSOR_NVML, why));
    if (!ok && isnvml) m->na = PETSC_TRUE;
  }
  {
    PetscBool announce = PETSC_FALSE;
    PetscCall(MeterAnnounce(m, &announce));
    if (announce) PetscCall(MeterFlushDisabled(m));
  }
  PetscFunctionReturn(0);
}

/*@C
  EasEnergyMeterStart - starts a new metered run (sets up the meter if
  needed): every figure restarts from zero; phases open at the call go on
  from now.
@*/
PetscErrorCode EasEnergyMeterStart(EasEnergyMeter m)
{
  PetscLogDouble t;
  PetscReal      E;

  PetscFunctionBegin;
  if (!m) PetscFunctionReturn(0);
  PetscValidHeaderSpecific(m, EAS_METER_CLASSID, 1);
  PetscCall(EasEnergyMeterSetUp(m));
  PetscCall(MeterNow(m, &t));
  PetscCall(MeterReadSensors(m, &E));
  for (PetscInt u = 0; u < m->nunits; u++)
    for (PetscInt p = 0; p < EAS_NUM_PHASES; p++) {
      m->unit[u].busy[p] = m->unit[u].work[p] = 0;
      m->unit[u].t0[p]                        = t;
    }
  for (PetscInt p = 0; p < EAS_NUM_PHASES; p++) {
    m->pwall[p] = m->pmeasE[p] = m->pclaimed[p] = 0;
    m->pt0[p]                                   = t;
    m->pE0[p]                                   = E;
  }
  m->awall        = 0;
  m->at0          = t;
  m->elapsed      = 0;
  m->Eacc         = 0;
  m->tstart       = t;
  m->Estart       = E;
  m->started      = PETSC_TRUE;
  m->stopped      = PETSC_FALSE;
  m->trace_t      = t;
  m->trace_E      = E;
  m->trace_Emodel = 0;
  PetscFunctionReturn(0);
}

/*@C
  EasEnergyMeterStop - closes the running window; figures stay until the
  next Start and accumulate again after EasEnergyMeterResume.
@*/
PetscErrorCode EasEnergyMeterStop(EasEnergyMeter m)
{
  PetscFunctionBegin;
  if (!m) PetscFunctionReturn(0);
  PetscValidHeaderSpecific(m, EAS_METER_CLASSID, 1);
  PetscCheck(m->started, PetscObjectComm((PetscObject)m), PETSC_ERR_ORDER, "EasEnergyMeterStop without EasEnergyMeterStart");
  if (m->stopped) PetscFunctionReturn(0);
  PetscCall(MeterNow(m, &m->tstop));
  PetscCall(MeterReadSensors(m, &m->Estop));
  /* phases still open: their time up to Stop counts, the rest after Resume */
  for (PetscInt u = 0; u < m->nunits; u++)
    for (PetscInt p = 0; p < EAS_NUM_PHASES; p++)
      if (m->unit[u].depth[p] > 0) m->unit[u].busy[p] += m->tstop - m->unit[u].t0[p];
  for (PetscInt p = 0; p < EAS_NUM_PHASES; p++) {
    if (m->pdepth[p] > 0) {
      const PetscReal dt = m->tstop - m->pt0[p];
      m->pwall[p] += dt;
      if (m->nsensors && dt >= m->update_period) {
        m->pmeasE[p] += m->Estop - m->pE0[p];
        m->pclaimed[p] += dt;
      }
    }
  }
  if (m->adepth > 0) m->awall += m->tstop - m->at0;
  m->elapsed += m->tstop - m->tstart;
  m->Eacc += m->Estop - m->Estart;
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
  PetscLogDouble t;
  PetscReal      E;

  PetscFunctionBegin;
  if (!m) PetscFunctionReturn(0);
  PetscValidHeaderSpecific(m, EAS_METER_CLASSID, 1);
  if (!m->started) {
    PetscCall(EasEnergyMeterStart(m));
    PetscFunctionReturn(0);
  }
  if (!m->stopped) PetscFunctionReturn(0);
  PetscCall(MeterNow(m, &t));
  PetscCall(MeterReadSensors(m, &E));
  for (PetscInt u = 0; u < m->nunits; u++)
    for (PetscInt p = 0; p < EAS_NUM_PHASES; p++) m->unit[u].t0[p] = t;
  for (PetscInt p = 0; p < EAS_NUM_PHASES; p++) {
    m->pt0[p] = t;
    m->pE0[p] = E;
  }
  m->at0     = t;
  m->tstart  = t;
  m->Estart  = E;
  m->stopped = PETSC_FALSE;
  m->trace_t = t; /* the next trace row covers the time since Resume */
  m->trace_E = E;
  PetscFunctionReturn(0);
}

/*@C
  EasEnergyMeterBegin - unit starts being busy in phase (NULL meter: no-op).
@*/
PetscErrorCode EasEnergyMeterBegin(EasEnergyMeter m, EasPhase p, PetscInt u)
{
  PetscLogDouble t;

  PetscFunctionBegin;
  if (!m) PetscFunctionReturn(0);
  PetscCheck(p >= 0 && p < EAS_NUM_PHASES, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "EasEnergyMeterBegin: phase %d is not an EasPhase", (int)p);
  PetscCheck(u >= 0 && u < m->nunits, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "EasEnergyMeterBegin: unit %" PetscInt_FMT " outside [0,%" PetscInt_FMT "): register units with EasEnergyMeterAddUnit", u, m->nunits);
  PetscCall(MeterNow(m, &t));
  if (m->unit[u].depth[p]++ == 0) m->unit[u].t0[p] = t;
  if (m->adepth++ == 0) m->at0 = t;
  if (m->pdepth[p]++ == 0) {
    m->pt0[p] = t;
    if (m->nsensors && !m->stopped) PetscCall(MeterReadSensors(m, &m->pE0[p]));
  }
  PetscFunctionReturn(0);
}

/*@C
  EasEnergyMeterEnd - unit stops being busy in phase after `work` elements.
@*/
PetscErrorCode EasEnergyMeterEnd(EasEnergyMeter m, EasPhase p, PetscInt u, PetscReal work)
{
  PetscLogDouble t;

  PetscFunctionBegin;
  if (!m) PetscFunctionReturn(0);
  PetscCheck(p >= 0 && p < EAS_NUM_PHASES, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "EasEnergyMeterEnd: phase %d is not an EasPhase", (int)p);
  PetscCheck(u >= 0 && u < m->nunits, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "EasEnergyMeterEnd: unit %" PetscInt_FMT " outside [0,%" PetscInt_FMT ")", u, m->nunits);
  PetscCheck(m->unit[u].depth[p] > 0 && m->pdepth[p] > 0, PETSC_COMM_SELF, PETSC_ERR_ORDER, "EasEnergyMeterEnd(%s, %s) without a matching EasEnergyMeterBegin", EasPhases[p], m->unit[u].name);
  PetscCall(MeterNow(m, &t));
  m->unit[u].work[p] += work;
  if (--m->unit[u].depth[p] == 0 && !m->stopped) m->unit[u].busy[p] += t - m->unit[u].t0[p]; /* no time counted while stopped */
  if (--m->adepth == 0 && !m->stopped) m->awall += t - m->at0;
  if (--m->pdepth[p] == 0 && !m->stopped) {
    const PetscReal dt = t - m->pt0[p];
    m->pwall[p] += dt;
    if (m->nsensors) {
      PetscReal E;
      PetscCall(MeterReadSensors(m, &E));
      if (dt >= m->update_period) { /* no energy claimed for an interval shorter than the update period */
        m->pmeasE[p] += E - m->pE0[p];
        m->pclaimed[p] += dt;
      }
    }
  }
  PetscFunctionReturn(0);
}

PetscErrorCode EasEnergyMeterGetPhase(EasEnergyMeter m, EasPhase p, PetscInt u, PetscReal *busy, PetscReal *work, PetscReal *t_el)
{
  PetscReal b = 0, w = 0;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(m, EAS_METER_CLASSID, 1);
  PetscCheck(p >= 0 && p < EAS_NUM_PHASES, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "phase %d is not an EasPhase", (int)p);
  PetscCheck(u >= -1 && u < m->nunits, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "unit %" PetscInt_FMT " outside [-1,%" PetscInt_FMT ")", u, m->nunits);
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
  *wall = m->pwall[p];
  PetscFunctionReturn(0);
}

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
    f = UnitWeight(m, u) * PetscMin(1.0, b / W);
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
  PetscLogDouble t;

  PetscFunctionBegin;
  PetscCheck(m->started, PetscObjectComm((PetscObject)m), PETSC_ERR_ORDER, "the meter was not started (EasEnergyMeterStart)");
  if (m->stopped)
    *T = m->elapsed;
  else {
    PetscCall(MeterNow(m, &t));
    *T = m->elapsed + (PetscReal)(t - m->tstart);
  }
  PetscFunctionReturn(0);
}

/* Run time of this rank outside every phase: T minus the union of all the
   phases' intervals (an open phase counts up to now). */
static PetscErrorCode MeterOutside(EasEnergyMeter m, PetscReal T, PetscReal *outside)
{
  PetscReal A = m->awall;

  PetscFunctionBegin;
  if (m->adepth > 0 && !m->stopped) {
    PetscLogDouble t;
    PetscCall(MeterNow(m, &t));
    A += (PetscReal)(t - m->at0);
  }
  *outside = PetscMax(0.0, T - A);
  PetscFunctionReturn(0);
}

/*@C
  EasEnergyMeterGetModelEnergy - this rank's modelled energy so far.
@*/
PetscErrorCode EasEnergyMeterGetModelEnergy(EasEnergyMeter m, PetscReal *E)
{
  PetscReal   T = 0, bc, bg;
  PetscMPIInt ppn;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(m, EAS_METER_CLASSID, 1);
  PetscCall(MeterElapsed(m, &T));
  PetscCall(MeterRanksPerNode(m, &ppn));
  WeightedBeta(m, -1, T, &bc, &bg);
  PetscCall(ModelEnergy(&m->prof, ppn, T, bc, bg, E));
  PetscFunctionReturn(0);
}

/*@C
  EasEnergyMeterGetSummary - global figures of the run (collective).
@*/
PetscErrorCode EasEnergyMeterGetSummary(EasEnergyMeter m, EasEnergySummary *S)
{
  MPI_Comm    comm;
  PetscMPIInt ppn;
  PetscReal   T = 0, bc, bg, outside = 0, loc[2 * EAS_NUM_PHASES + 3], glob[2 * EAS_NUM_PHASES + 3], tloc[EAS_NUM_PHASES + 2], tglob[EAS_NUM_PHASES + 2];
  PetscMPIInt claimed_loc, claimed[EAS_NUM_PHASES + 1], cl[EAS_NUM_PHASES + 1];
  PetscReal   Emodel_phase[EAS_NUM_PHASES];

  PetscFunctionBegin;
  PetscValidHeaderSpecific(m, EAS_METER_CLASSID, 1);
  PetscCall(PetscObjectGetComm((PetscObject)m, &comm));
  PetscCall(PetscMemzero(S, sizeof(*S)));
  PetscCall(MeterElapsed(m, &T));
  PetscCall(MeterRanksPerNode(m, &ppn));
  /* per phase: modelled energy of the unclaimed part + claimed measured energy */
  for (PetscInt p = 0; p < EAS_NUM_PHASES; p++) {
    PetscReal frac;
    WeightedBeta(m, p, m->pwall[p], &bc, &bg);
    PetscCall(ModelEnergy(&m->prof, ppn, m->pwall[p], bc, bg, &Emodel_phase[p]));
    frac                    = m->pwall[p] > 0 ? 1.0 - PetscMin(1.0, m->pclaimed[p] / m->pwall[p]) : 0.0;
    loc[p]                  = m->nsensors && m->node_leader ? m->pmeasE[p] + frac * Emodel_phase[p] * ppn : (m->nsensors ? 0.0 : Emodel_phase[p]);
    loc[EAS_NUM_PHASES + p] = Emodel_phase[p];
    claimed[p]              = (!m->nsensors || m->pwall[p] <= 0 || m->pclaimed[p] >= m->pwall[p] * (1 - 1e-12)) ? 1 : 0;
    tloc[p]                 = m->pwall[p];
  }
  WeightedBeta(m, -1, T, &bc, &bg);
  PetscCall(ModelEnergy(&m->prof, ppn, T, bc, bg, &loc[2 * EAS_NUM_PHASES])); /* model total */
  claimed_loc                 = (m->nsensors && T >= m->update_period) ? 1 : 0;
  loc[2 * EAS_NUM_PHASES + 1] = (m->nsensors && m->node_leader) ? m->Eacc : 0; /* closed windows */
  if (m->nsensors && m->node_leader && !m->stopped) {
    PetscReal E;
    PetscCall(MeterReadSensors(m, &E));
    loc[2 * EAS_NUM_PHASES + 1] += E - m->Estart;
  }
  /* outside every phase (no unit busy): the idle power only, in the model */
  PetscCall(MeterOutside(m, T, &outside));
  PetscCall(ModelEnergy(&m->prof, ppn, outside, 0, 0, &loc[2 * EAS_NUM_PHASES + 2]));
  tloc[EAS_NUM_PHASES]     = T;
  tloc[EAS_NUM_PHASES + 1] = outside;
  claimed[EAS_NUM_PHASES]  = claimed_loc;
  PetscCallMPI(MPI_Allreduce(loc, glob, 2 * EAS_NUM_PHASES + 3, MPIU_REAL, MPIU_SUM, comm));
  PetscCallMPI(MPI_Allreduce(tloc, tglob, EAS_NUM_PHASES + 2, MPIU_REAL, MPIU_MAX, comm));
  PetscCallMPI(MPI_Allreduce(claimed, cl, EAS_NUM_PHASES + 1, MPI_INT, MPI_LAND, comm));

  S->time         = tglob[EAS_NUM_PHASES];
  S->other_time   = tglob[EAS_NUM_PHASES + 1];
  S->model_energy = glob[2 * EAS_NUM_PHASES];
  S->valid        = m->na ? PETSC_FALSE : PETSC_TRUE;
  if (m->nsensors && cl[EAS_NUM_PHASES]) {
    /* measured total; parts not covered by a sensor (GPU without NVML, DRAM without a RAPL dram domain) are not added */
    S->energy   = glob[2 * EAS_NUM_PHASES + 1];
    S->measured = PETSC_TRUE;
  } else {
    S->energy   = S->model_energy;
    S->measured = PETSC_FALSE;
  }
  S->other_energy   = S->measured ? S->energy : glob[2 * EAS_NUM_PHASES + 2];
  S->other_measured = S->measured;
  for (PetscInt p = 0; p < EAS_NUM_PHASES; p++) {
    S->phase_time[p]     = tglob[p];
    S->phase_energy[p]   = m->nsensors ? glob[p] : glob[EAS_NUM_PHASES + p];
    S->phase_measured[p] = (m->nsensors && cl[p] && tglob[p] > 0) ? PETSC_TRUE : PETSC_FALSE;
    if (S->measured) S->other_energy -= S->phase_energy[p];                     /* measured: the sensors' remainder */
    if (tglob[p] > 0 && !S->phase_measured[p]) S->other_measured = PETSC_FALSE; /* the difference holds modelled parts */
  }
  if (S->other_energy < 0) S->other_energy = 0; /* overlapping phases (async) */
  /* the network switch of a cluster run (Vialle et al. eq. 1.34: + P_sw over T), modelled: no sensor covers it */
  S->switch_energy = m->nnodes > 1 ? m->prof.switch_ * S->time : 0;
  S->model_energy += S->switch_energy;
  if (!S->measured) S->energy += S->switch_energy;
  S->power = S->time > 0 ? S->energy / S->time : 0;
  S->edp   = S->energy * S->time;
  PetscFunctionReturn(0);
}

static const char *Label(PetscBool valid, PetscBool measured, PetscBool anysensor)
{
  if (!valid) return "n/a";
  if (measured) return "measured";
  return anysensor ? "mixed" : "modelled";
}

static PetscErrorCode PrintNum(char buf[], size_t len, PetscBool valid, PetscReal v)
{
  PetscFunctionBegin;
  if (valid)
    PetscCall(PetscSNPrintf(buf, len, "%12.5g", (double)v));
  else
    PetscCall(PetscSNPrintf(buf, len, "%12s", "n/a"));
  PetscFunctionReturn(0);
}

/* The report's figures gathered over the communicator (collective). */
typedef struct {
  EasEnergySummary S;
  PetscMPIInt      size;
  PetscInt         nnodes;
  PetscReal        pbusy[2][EAS_NUM_PHASES];                      /* busy seconds per kind (cpu, gpu) and phase, summed over ranks */
  PetscReal        ubusy[EAS_METER_MAX_UNITS];                    /* per unit, all phases, summed over ranks */
  PetscReal        uwork[EAS_METER_MAX_UNITS];                    /* compute work */
  PetscReal        ucomp[EAS_METER_MAX_UNITS];                    /* compute busy */
  PetscReal        uweight[EAS_METER_MAX_UNITS];                  /* mean over ranks */
  PetscReal        beta[2];                                       /* node busy fractions (mean over nodes) */
  PetscReal        beta_compute[2];                               /* the same, compute phase only */
  PetscReal        part[EAS_NUM_PHASES][EAS_METER_MAX_UNITS + 1]; /* modelled energy: [p][u] the unit's active part, [p][nunits] the idle part */
  PetscReal        PF, PI;                                        /* full-load and idle power summed over the nodes (computing kind) */
  PetscBool        gpu_computes;                                  /* the computing kind is the GPU */
  char             sensors[64];
} MeterReport;

static PetscErrorCode MeterGatherReport(EasEnergyMeter m, MeterReport *R)
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
    uloc[3 * nu + u] = UnitWeight(m, u);
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
      loc[p * (nu + 1) + u] = UnitWeight(m, u) * PetscMin(m->unit[u].busy[p], W) * PC;
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
  PetscFunctionReturn(0);
}

/* The report as CSV (-eas_energy_view :file.csv:ascii_csv): one value per
   row, columns record,phase,unit,quantity,value,source (docs/energy.md). */
static PetscErrorCode MeterViewCSV(EasEnergyMeter m, PetscViewer v, const MeterReport *R)
{
  const EasEnergySummary *S     = &R->S;
  const char             *any   = m->nsensors ? "mixed" : "modelled";
  PetscReal               alpha = 0;

  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(v, "record,phase,unit,quantity,value,source\n"));
  PetscCall(PetscViewerASCIIPrintf(v, "run,,,ranks,%d,\nrun,,,nodes,%" PetscInt_FMT ",\nrun,,,sensor,%s,\nrun,,,profile,%s,\n", (int)R->size, R->nnodes, R->sensors, m->prof_default ? "default" : "options"));
  PetscCall(PetscViewerASCIIPrintf(v, "profile,,,cpu_idle_W,%.10g,\nprofile,,,cpu_full_W,%.10g,\nprofile,,,gpu_idle_W,%.10g,\nprofile,,,gpu_full_W,%.10g,\nprofile,,,dram_W,%.10g,\nprofile,,,switch_W,%.10g,\n", (double)m->prof.cpu_idle, (double)m->prof.cpu_full, (double)m->prof.gpu_idle, (double)m->prof.gpu_full,
                                   (double)m->prof.dram, (double)m->prof.switch_));
  for (PetscInt p = 0; p <= EAS_NUM_PHASES; p++) {
    const PetscBool out  = p == EAS_NUM_PHASES ? PETSC_TRUE : PETSC_FALSE;
    const char     *name = out ? "unphased" : EasPhases[p];
    const PetscReal W = out ? S->other_time : S->phase_time[p], E = out ? S->other_energy : S->phase_energy[p];
    const char     *src = S->valid ? (((out ? S->other_measured : S->phase_measured[p]) ? "measured" : any)) : "n/a";
    PetscCall(PetscViewerASCIIPrintf(v, "phase,%s,,time_s,%.10g,\n", name, (double)W));
    if (!out) PetscCall(PetscViewerASCIIPrintf(v, "phase,%s,,cpu_busy_s,%.10g,\nphase,%s,,gpu_busy_s,%.10g,\n", name, (double)R->pbusy[0][p], name, (double)R->pbusy[1][p]));
    PetscCall(PetscViewerASCIIPrintf(v, "phase,%s,,share_of_T,%.10g,\n", name, (double)(S->time > 0 ? W / S->time : 0)));
    if (S->valid) PetscCall(PetscViewerASCIIPrintf(v, "phase,%s,,energy_J,%.10g,%s\nphase,%s,,power_W,%.10g,%s\n", name, (double)E, src, name, (double)(W > 0 ? E / W : 0), src));
  }
  PetscCall(PetscViewerASCIIPrintf(v, "total,,,time_s,%.10g,\n", (double)S->time));
  if (S->valid) PetscCall(PetscViewerASCIIPrintf(v, "total,,,energy_J,%.10g,%s\ntotal,,,power_W,%.10g,%s\ntotal,,,edp_Js,%.10g,%s\n", (double)S->energy, S->measured ? "measured" : "modelled", (double)S->power, S->measured ? "measured" : "modelled", (double)S->edp, S->measured ? "measured" : "modelled"));
  PetscCall(PetscViewerASCIIPrintf(v, "total,,,model_energy_J,%.10g,modelled\n", (double)S->model_energy));
  PetscCall(PetscViewerASCIIPrintf(v, "beta,,,cpu,%.10g,\nbeta,,,gpu,%.10g,\nbeta,,,compute_cpu,%.10g,\nbeta,,,compute_gpu,%.10g,\n", (double)R->beta[0], (double)R->beta[1], (double)R->beta_compute[0], (double)R->beta_compute[1]));
  for (PetscInt u = 0; u < m->nunits; u++) {
    char name[sizeof(m->unit[0].name)];
    PetscCall(PetscStrncpy(name, m->unit[u].name, sizeof(name)));
    for (char *c = name; *c; c++)
      if (*c == ',') *c = ';';
    PetscCall(PetscViewerASCIIPrintf(v, "unit,,%s,kind,%s,\n", name, m->unit[u].kind == EAS_UNIT_GPU ? "gpu" : "cpu"));
    PetscCall(PetscViewerASCIIPrintf(v, "unit,,%s,weight,%.10g,\nunit,,%s,busy_s,%.10g,\nunit,,%s,beta,%.10g,\nunit,,%s,work,%.10g,\nunit,,%s,t_el_s,%.10g,\n", name, (double)R->uweight[u], name, (double)R->ubusy[u], name, (double)(S->time > 0 ? R->ubusy[u] / (S->time * R->size) : 0), name, (double)R->uwork[u], name,
                                     (double)(R->uwork[u] > 0 ? R->ucomp[u] / R->uwork[u] : 0)));
    for (PetscInt p = 0; p < EAS_NUM_PHASES; p++) PetscCall(PetscViewerASCIIPrintf(v, "part,%s,%s,energy_J,%.10g,modelled\n", EasPhases[p], name, (double)R->part[p][u]));
  }
  for (PetscInt p = 0; p < EAS_NUM_PHASES; p++) PetscCall(PetscViewerASCIIPrintf(v, "part,%s,idle,energy_J,%.10g,modelled\n", EasPhases[p], (double)R->part[p][m->nunits]));
  PetscCall(PetscViewerASCIIPrintf(v, "part,unphased,idle,energy_J,%.10g,%s\n", (double)S->other_energy, S->other_measured ? "measured" : "modelled"));
  /* Vialle et al. eqs. 1.34-1.37 (EasModelClusterFrontierSync): a mode keeping the computing units
     busy all the time (beta = 1, e.g. async) beats this run's busy fraction beta in energy when its
     speedup T_this/T_that exceeds P(beta = 1)/P(beta); P_sw = 0: the meter's energies leave the switch out */
  {
    const PetscReal full = R->PF, idle = R->PI, b = R->beta_compute[R->gpu_computes ? 1 : 0];
    EasClusterPower A = {1, &full, &idle, 1.0}, B = {1, &full, &idle, PetscMin(1.0, b)};
    if (R->PF > 0) PetscCall(EasModelClusterFrontierSync(&A, &B, 0.0, &alpha));
    PetscCall(PetscViewerASCIIPrintf(v, "frontier,,,kind,%s,\nfrontier,,,nodes,%" PetscInt_FMT ",\nfrontier,,,beta,%.10g,\nfrontier,,,PF_W,%.10g,modelled\nfrontier,,,PI_W,%.10g,modelled\nfrontier,,,Psw_W,0,\nfrontier,,,alpha,%.10g,modelled\n", R->gpu_computes ? "gpu" : "cpu", R->nnodes, (double)B.beta, (double)R->PF, (double)R->PI, (double)alpha));
  }
  PetscFunctionReturn(0);
}

/*@C
  EasEnergyMeterView - the energy report: one row per phase, the time
  outside every phase ("unphased"), the total, then one row per unit.  Every
  energy is labelled measured, modelled, mixed (measured with modelled parts
  for intervals shorter than the sensor update period) or n/a.  With the
  viewer format PETSC_VIEWER_ASCII_CSV (-eas_energy_view :file.csv:ascii_csv)
  the same figures, and the modelled parts per phase and unit, as CSV
  (docs/energy.md).
@*/
PetscErrorCode EasEnergyMeterView(EasEnergyMeter m, PetscViewer viewer)
{
  MeterReport       R;
  EasEnergySummary *S = &R.S;
  PetscBool         isascii;
  PetscViewerFormat fmt;
  char              e[32], pw[32], edp[32];
  PetscReal         busy_cpu = 0, busy_gpu = 0;
  int               w = 10; /* width of the first column: the longest unit or phase name */

  PetscFunctionBegin;
  PetscValidHeaderSpecific(m, EAS_METER_CLASSID, 1);
  if (!viewer) PetscCall(PetscViewerASCIIGetStdout(PetscObjectComm((PetscObject)m), &viewer));
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &isascii));
  PetscCheck(isascii, PetscObjectComm((PetscObject)m), PETSC_ERR_SUP, "-eas_energy_view supports ASCII viewers only (the table, or CSV with the format ascii_csv)");
  PetscCall(MeterFlushDisabled(m)); /* energy output was asked for: say which sensors are missing */
  PetscCall(MeterGatherReport(m, &R));
  PetscCall(PetscViewerGetFormat(viewer, &fmt));
  if (fmt == PETSC_VIEWER_ASCII_CSV) {
    PetscCall(MeterViewCSV(m, viewer, &R));
    PetscFunctionReturn(0);
  }
  for (PetscInt u = 0; u < m->nunits; u++) {
    size_t len;
    PetscCall(PetscStrlen(m->unit[u].name, &len));
    w = PetscMax(w, (int)len);
  }

  PetscCall(PetscViewerASCIIPrintf(viewer, "eas energy report: %d rank(s) on %" PetscInt_FMT " node(s), sensor %s, profile %s\n", (int)R.size, R.nnodes, R.sensors, m->prof_default ? "default (share/eas/default_profile.opts)" : "from options"));
  PetscCall(PetscViewerASCIIPrintf(viewer, "%-*s %12s %12s %12s %12s %12s %12s %12s  %s\n", w, "phase", "time [s]", "cpu busy [s]", "gpu busy [s]", "share of T", "energy [J]", "power [W]", "EDP [J s]", "source"));
  for (PetscInt p = 0; p < EAS_NUM_PHASES; p++) {
    const PetscReal W = S->phase_time[p];
    PetscCall(PrintNum(e, sizeof(e), S->valid, S->phase_energy[p]));
    PetscCall(PrintNum(pw, sizeof(pw), S->valid, W > 0 ? S->phase_energy[p] / W : 0));
    PetscCall(PrintNum(edp, sizeof(edp), S->valid, S->phase_energy[p] * W));
    PetscCall(PetscViewerASCIIPrintf(viewer, "%-*s %12.5g %12.5g %12.5g %12.5g %s %s %s  %s\n", w, EasPhases[p], (double)W, (double)R.pbusy[0][p], (double)R.pbusy[1][p], (double)(S->time > 0 ? W / S->time : 0), e, pw, edp, W > 0 ? Label(S->valid, S->phase_measured[p], m->nsensors ? PETSC_TRUE : PETSC_FALSE) : "-"));
    busy_cpu += R.pbusy[0][p];
    busy_gpu += R.pbusy[1][p];
  }
  PetscCall(PrintNum(e, sizeof(e), S->valid, S->other_energy));
  PetscCall(PrintNum(pw, sizeof(pw), S->valid, S->other_time > 0 ? S->other_energy / S->other_time : 0));
  PetscCall(PrintNum(edp, sizeof(edp), S->valid, S->other_energy * S->other_time));
  PetscCall(PetscViewerASCIIPrintf(viewer, "%-*s %12.5g %12.5g %12.5g %12.5g %s %s %s  %s\n", w, "unphased", (double)S->other_time, 0.0, 0.0, (double)(S->time > 0 ? S->other_time / S->time : 0), e, pw, edp, S->other_time > 0 ? Label(S->valid, S->other_measured, m->nsensors ? PETSC_TRUE : PETSC_FALSE) : "-"));
  PetscCall(PrintNum(e, sizeof(e), S->valid, S->energy));
  PetscCall(PrintNum(pw, sizeof(pw), S->valid, S->power));
  PetscCall(PrintNum(edp, sizeof(edp), S->valid, S->edp));
  PetscCall(PetscViewerASCIIPrintf(viewer, "%-*s %12.5g %12.5g %12.5g %12.5g %s %s %s  %s\n", w, "total", (double)S->time, (double)busy_cpu, (double)busy_gpu, 1.0, e, pw, edp, Label(S->valid, S->measured, PETSC_FALSE)));
  PetscCall(PetscViewerASCIIPrintf(viewer, "unphased: run time outside every phase (no unit busy); its energy is %s\n", S->measured ? "the sensors' remainder" : "the idle power P_I over that time"));
  if (S->switch_energy > 0) PetscCall(PetscViewerASCIIPrintf(viewer, "network switch (Vialle et al. eq. 1.34, P_sw %g W over T on %d nodes): %.5g J modelled, %s\n", (double)m->prof.switch_, (int)m->nnodes, (double)S->switch_energy, S->measured ? "not in the measured total" : "in the total"));
  if (S->measured) PetscCall(PetscViewerASCIIPrintf(viewer, "model (Vialle et al. eqs. 1.16, 1.34) for comparison: %.5g J\n", (double)S->model_energy));
  /* node busy fraction: sum over the node's units of weight x busy fraction, mean over the nodes */
  PetscCall(PetscViewerASCIIPrintf(viewer, "busy fraction beta (Vialle et al. eq. 1.16, weighted by the units' node shares): cpu %.5g, gpu %.5g\n", (double)R.beta[0], (double)R.beta[1]));
  PetscCall(PetscViewerASCIIPrintf(viewer, "%-*s %-5s %12s %12s %12s %12s %14s\n", w, "unit", "kind", "weight [-]", "busy [s]", "beta [-]", "work [el]", "t_el [s/el]"));
  for (PetscInt u = 0; u < m->nunits; u++) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "%-*s %-5s %12.5g %12.5g %12.5g %12.5g %14.5g\n", w, m->unit[u].name, m->unit[u].kind == EAS_UNIT_GPU ? "gpu" : "cpu", (double)R.uweight[u], (double)R.ubusy[u], (double)(S->time > 0 ? R.ubusy[u] / (S->time * R.size) : 0), (double)R.uwork[u], (double)(R.uwork[u] > 0 ? R.ucomp[u] / R.uwork[u] : 0)));
  }
  for (PetscInt k = 0; k < m->nnotes; k++) PetscCall(PetscViewerASCIIPrintf(viewer, "%s\n", m->note[k]));
  PetscFunctionReturn(0);
}

/*@C
  EasEnergyMeterSetNote - a line at the end of the report, under key.
@*/
PetscErrorCode EasEnergyMeterSetNote(EasEnergyMeter m, const char key[], const char line[])
{
  PetscInt k;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(m, EAS_METER_CLASSID, 1);
  PetscValidCharPointer(key, 2);
  for (k = 0; k < m->nnotes; k++) {
    PetscBool same;
    PetscCall(PetscStrcmp(m->note_key[k], key, &same));
    if (same) break;
  }
  if (!line) { /* remove */
    if (k < m->nnotes) {
      for (PetscInt j = k + 1; j < m->nnotes; j++) {
        PetscCall(PetscStrncpy(m->note_key[j - 1], m->note_key[j], sizeof(m->note_key[0])));
        PetscCall(PetscStrncpy(m->note[j - 1], m->note[j], sizeof(m->note[0])));
      }
      m->nnotes--;
    }
    PetscFunctionReturn(0);
  }
  PetscCheck(k < EAS_METER_MAX_NOTES, PetscObjectComm((PetscObject)m), PETSC_ERR_ARG_OUTOFRANGE, "EasEnergyMeterSetNote: at most %d notes", EAS_METER_MAX_NOTES);
  PetscCall(PetscStrncpy(m->note_key[k], key, sizeof(m->note_key[0])));
  PetscCall(PetscStrncpy(m->note[k], line, sizeof(m->note[0])));
  if (k == m->nnotes) m->nnotes++;
  PetscFunctionReturn(0);
}

/*@C
  EasEnergyMeterViewFromOptions - the report when -eas_energy_view was given.
@*/
PetscErrorCode EasEnergyMeterViewFromOptions(EasEnergyMeter m)
{
  PetscFunctionBegin;
  if (!m) PetscFunctionReturn(0);
  PetscValidHeaderSpecific(m, EAS_METER_CLASSID, 1);
  if (!m->view_set || !m->viewer) PetscFunctionReturn(0);
  PetscCall(PetscViewerPushFormat(m->viewer, m->vformat));
  PetscCall(EasEnergyMeterView(m, m->viewer));
  PetscCall(PetscViewerPopFormat(m->viewer));
  PetscFunctionReturn(0);
}

/*@C
  EasEnergyTraceRow - one CSV row: it, shares and per-element times of each
  unit, predicted time/energy, measured time/energy since the previous row.
  Energy: the sensors' (node leaders' sum) when they cover the interval,
  else the model; collective when sensors are used.
@*/
PetscErrorCode EasEnergyTraceRow(EasEnergyMeter m, PetscInt it, PetscInt n, const PetscReal shares[], const PetscReal t_el[], PetscReal Tpred, PetscReal Epred)
{
  PetscLogDouble t;
  PetscReal      Em, Es = 0, dT, dE, loc[2], glob[2];
  PetscBool      measured;

  PetscFunctionBegin;
  if (!m) PetscFunctionReturn(0);
  PetscValidHeaderSpecific(m, EAS_METER_CLASSID, 1);
  if (!m->trace_on) PetscFunctionReturn(0); /* no trace (same on every rank) */
  PetscCheck(m->started, PetscObjectComm((PetscObject)m), PETSC_ERR_ORDER, "EasEnergyTraceRow: start the meter first (EasEnergyMeterStart)");
  PetscCall(MeterNow(m, &t));
  PetscCall(EasEnergyMeterGetModelEnergy(m, &Em));
  if (m->nsensors) PetscCall(MeterReadSensors(m, &Es));
  dT     = t - m->trace_t;
  loc[0] = Em - m->trace_Emodel;
  loc[1] = m->nsensors ? Es - m->trace_E : 0;
  PetscCallMPI(MPI_Allreduce(loc, glob, 2, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)m)));
  measured        = (m->nsensors && dT >= m->update_period) ? PETSC_TRUE : PETSC_FALSE;
  dE              = measured ? glob[1] : glob[0];
  m->trace_t      = t;
  m->trace_Emodel = Em;
  m->trace_E      = Es;
  if (m->trace) {
    if (!m->trace_header) {
      PetscCall(PetscFPrintf(PETSC_COMM_SELF, m->trace, "iteration"));
      for (PetscInt u = 0; u < n; u++) PetscCall(PetscFPrintf(PETSC_COMM_SELF, m->trace, ",share_%" PetscInt_FMT, u));
      for (PetscInt u = 0; u < n; u++) PetscCall(PetscFPrintf(PETSC_COMM_SELF, m->trace, ",t_el_%" PetscInt_FMT "_s", u));
      PetscCall(PetscFPrintf(PETSC_COMM_SELF, m->trace, ",time_pred_s,energy_pred_J,time_meas_s,energy_meas_J,energy_source\n"));
      m->trace_header = PETSC_TRUE;
    }
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, m->trace, "%" PetscInt_FMT, it));
    for (PetscInt u = 0; u < n; u++) PetscCall(PetscFPrintf(PETSC_COMM_SELF, m->trace, ",%.6g", (double)shares[u]));
    for (PetscInt u = 0; u < n; u++) PetscCall(PetscFPrintf(PETSC_COMM_SELF, m->trace, ",%.6g", (double)t_el[u]));
    if (Tpred >= 0 && !PetscIsNanReal(Tpred))
      PetscCall(PetscFPrintf(PETSC_COMM_SELF, m->trace, ",%.6g", (double)Tpred));
    else
      PetscCall(PetscFPrintf(PETSC_COMM_SELF, m->trace, ","));
    if (Epred >= 0 && !PetscIsNanReal(Epred))
      PetscCall(PetscFPrintf(PETSC_COMM_SELF, m->trace, ",%.6g", (double)Epred));
    else
      PetscCall(PetscFPrintf(PETSC_COMM_SELF, m->trace, ","));
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, m->trace, ",%.6g,%.6g,%s\n", (double)dT, (double)dE, measured ? "measured" : "modelled"));
  }
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
  for (PetscInt s = 0; s < m->nsensors; s++) PetscCall(EasSensorDestroy(&m->sensor[s]));
  if (m->trace) PetscCall(PetscFClose(PETSC_COMM_SELF, m->trace));
  PetscCall(PetscViewerDestroy(&m->viewer));
  PetscCall(EasBackendDestroy(&m->backend));
  PetscCall(PetscHeaderDestroy(meter));
  PetscFunctionReturn(0);
}
