/*
  EasEnergyMeter: its sensors.  Probing at SetUp (a sensor type is kept when
  every node leader has it), reading them (the node leaders), and the
  "Disabled" lines of the absent ones, each distinct line printed once per
  process.
*/
#include "energyimpl.h"

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
PetscErrorCode EasMeterFlushDisabled(EasEnergyMeter m)
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

/* Records a "Disabled" line of this meter (printed by EasMeterFlushDisabled). */
static PetscErrorCode MeterAddDisabled(EasEnergyMeter m, const char type[], const char why[])
{
  PetscFunctionBegin;
  if (m->ndisabled >= EAS_METER_MAX_SENSORS) PetscFunctionReturn(0);
  PetscCall(PetscSNPrintf(m->disabled[m->ndisabled++], sizeof(m->disabled[0]), "eas: sensor %s: Disabled: %s\n", type, why));
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
  } else {
    PetscReal res = 0, up, sp;
    if (s) {
      m->sensor[m->nsensors++] = s;
      PetscCall(EasSensorGetUpdatePeriod(s, &up));
      PetscCall(EasSensorGetSamplerPeriod(s, &sp));
      res = PetscMax(up, sp);
    }
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &res, 1, MPIU_REAL, MPIU_MAX, comm)); /* the same labels on every rank */
    m->resolution = PetscMax(m->resolution, res);
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
  PetscCheck(!m->now || !(m->cover_cpu || m->cover_gpu), comm, PETSC_ERR_ARG_INCOMP, "EasEnergyMeterSetTimeFunction: a synthetic clock cannot time the samples of the %s sensor: use -eas_sensor model with it", m->cover_cpu ? "rapl" : "nvml");
  {
    PetscBool announce = PETSC_FALSE;
    PetscCall(MeterAnnounce(m, &announce));
    if (announce) PetscCall(EasMeterFlushDisabled(m));
  }
  PetscFunctionReturn(0);
}
