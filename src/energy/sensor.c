/*
  EasSensor: the generic layer of the energy sensors (docs/energy.md):
  object lifecycle, the sampler thread and its samples, reads, and the
  trapezoid rule.  The types live in rapl.c (powercap) and nvml.c
  (dlopen'ed NVML).

  The sampler thread owns the sensor: every sampler period (20 ms for NVML,
  10 ms for RAPL; -eas_sensor_period_ms) it reads every domain and
  publishes one sample, (time, cumulative energy of all domains), into a
  ring that the meters read without waiting (issue 20: a read of NVML on a
  busy GPU takes milliseconds, so no read belongs in the solver's thread).
  A meter that needs the energy up to a given time (its summary) asks the
  thread for a sample at once.  EasSensorRead, the direct read, polls in the
  caller's thread; its reads are counted apart (EasSensorGetReadCounts).
*/
#include "energyimpl.h"
#include "backends/backend.h" /* EasHostClock */
#include <errno.h>
#include <time.h>

PetscClassId  EAS_SENSOR_CLASSID, EAS_METER_CLASSID;
PetscLogEvent EAS_SensorRead;

static PetscBool eas_energy_package_initialized = PETSC_FALSE;

static PetscErrorCode EasEnergyFinalizePackage(void)
{
  PetscFunctionBegin;
  eas_energy_package_initialized = PETSC_FALSE;
  EasEnergyResetDisabledLines();
  PetscFunctionReturn(0);
}

/* EasEnergyInitializePackage - class ids and log events of the energy
   module; called by its Create functions. */
PetscErrorCode EasEnergyInitializePackage(void)
{
  PetscFunctionBegin;
  if (eas_energy_package_initialized) PetscFunctionReturn(0);
  eas_energy_package_initialized = PETSC_TRUE;
  PetscCall(PetscClassIdRegister("EAS Sensor", &EAS_SENSOR_CLASSID));
  PetscCall(PetscClassIdRegister("EAS EnergyMeter", &EAS_METER_CLASSID));
  PetscCall(PetscLogEventRegister("EasSensorRead", EAS_SENSOR_CLASSID, &EAS_SensorRead));
  PetscCall(PetscRegisterFinalize(EasEnergyFinalizePackage));
  PetscFunctionReturn(0);
}

/* The host clock (EasHostClock, CLOCK_MONOTONIC): the sensors', their
   sampler threads' and the meter's. */
double EasSensorNow(void)
{
  return (double)EasHostClock();
}

/*@C
  EasSensorCreate - creates a sensor; set its type with EasSensorSetType().
@*/
PetscErrorCode EasSensorCreate(MPI_Comm comm, EasSensor *sensor)
{
  EasSensor s;

  PetscFunctionBegin;
  PetscValidPointer(sensor, 2);
  PetscCall(EasEnergyInitializePackage());
  PetscCall(PetscHeaderCreate(s, EAS_SENSOR_CLASSID, "EasSensor", "eas energy sensor", "Sys", comm, EasSensorDestroy, EasSensorView));
  PetscCall(PetscStrncpy(s->rapl_root, "/sys/class/powercap", sizeof(s->rapl_root)));
  PetscCall(PetscStrncpy(s->nvml_lib, "libnvidia-ml.so.1", sizeof(s->nvml_lib)));
  s->max_power = 2000.0;
  pthread_mutex_init(&s->mutex, NULL);
  pthread_cond_init(&s->cond, NULL);
  pthread_mutex_init(&s->ring_mutex, NULL);
  pthread_cond_init(&s->ring_cond, NULL);
  *sensor = s;
  PetscFunctionReturn(0);
}

/*@C
  EasSensorSetType - "rapl" or "nvml".
@*/
PetscErrorCode EasSensorSetType(EasSensor s, EasSensorType type)
{
  PetscBool rapl, nvml;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(s, EAS_SENSOR_CLASSID, 1);
  PetscCheck(!s->setup, PetscObjectComm((PetscObject)s), PETSC_ERR_ORDER, "EasSensorSetType must be called before EasSensorSetUp");
  PetscCall(PetscStrcmp(type, EAS_SENSOR_RAPL, &rapl));
  PetscCall(PetscStrcmp(type, EAS_SENSOR_NVML, &nvml));
  PetscCheck(rapl || nvml, PetscObjectComm((PetscObject)s), PETSC_ERR_ARG_UNKNOWN_TYPE, "Unknown sensor type \"%s\": expected rapl or nvml", type ? type : "(null)");
  PetscCall(PetscStrncpy(s->type, type, sizeof(s->type)));
  PetscCall(PetscObjectChangeTypeName((PetscObject)s, type));
  s->ops->setup = rapl ? EasSensorSetUp_RAPL : EasSensorSetUp_NVML;
  PetscFunctionReturn(0);
}

PetscErrorCode EasSensorGetType(EasSensor s, EasSensorType *type)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(s, EAS_SENSOR_CLASSID, 1);
  *type = s->type;
  PetscFunctionReturn(0);
}

/*@C
  EasSensorSetRaplRoot - the powercap root (default /sys/class/powercap).
@*/
PetscErrorCode EasSensorSetRaplRoot(EasSensor s, const char root[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(s, EAS_SENSOR_CLASSID, 1);
  PetscCheck(root && root[0], PetscObjectComm((PetscObject)s), PETSC_ERR_ARG_NULL, "-eas_rapl_root: expected a directory name");
  PetscCall(PetscStrncpy(s->rapl_root, root, sizeof(s->rapl_root)));
  PetscFunctionReturn(0);
}

/*@C
  EasSensorSetNvmlLibrary - the NVML shared library (default libnvidia-ml.so.1).
@*/
PetscErrorCode EasSensorSetNvmlLibrary(EasSensor s, const char lib[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(s, EAS_SENSOR_CLASSID, 1);
  PetscCheck(lib && lib[0], PetscObjectComm((PetscObject)s), PETSC_ERR_ARG_NULL, "-eas_nvml_library: expected a library name");
  PetscCall(PetscStrncpy(s->nvml_lib, lib, sizeof(s->nvml_lib)));
  PetscFunctionReturn(0);
}

/*@C
  EasSensorSetSynchronize - callback run before every read (stream sync).
@*/
PetscErrorCode EasSensorSetSynchronize(EasSensor s, PetscErrorCode (*sync)(void *), void *ctx)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(s, EAS_SENSOR_CLASSID, 1);
  s->sync     = sync;
  s->sync_ctx = ctx;
  PetscFunctionReturn(0);
}

/*@C
  EasSensorRaplSetReadFault - test hook: later reads fail with errno err.
@*/
PetscErrorCode EasSensorRaplSetReadFault(EasSensor s, int err)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(s, EAS_SENSOR_CLASSID, 1);
  pthread_mutex_lock(&s->mutex);
  s->fault_errno = err;
  pthread_mutex_unlock(&s->mutex);
  PetscFunctionReturn(0);
}

/*@C
  EasSensorSetSamplerPeriod - the sampler thread's period (s; PETSC_DECIDE:
  the type's default, 20 ms for NVML and 10 ms for RAPL).
@*/
PetscErrorCode EasSensorSetSamplerPeriod(EasSensor s, PetscReal period)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(s, EAS_SENSOR_CLASSID, 1);
  PetscCheck(!s->setup, PetscObjectComm((PetscObject)s), PETSC_ERR_ORDER, "-eas_sensor_period_ms must be set before EasSensorSetUp");
  if (period == (PetscReal)PETSC_DECIDE) {
    s->period_set = 0;
    PetscFunctionReturn(0);
  }
  PetscCheck(period >= 1e-4 && period <= 60, PetscObjectComm((PetscObject)s), PETSC_ERR_ARG_OUTOFRANGE, "-eas_sensor_period_ms %g is invalid: expected a period from 0.1 to 60000 ms", (double)(1e3 * period));
  s->period_set = period;
  PetscFunctionReturn(0);
}

/* The type's period: the option's or dflt, within the type's bound. */
PetscErrorCode EasSensorChoosePeriod(EasSensor s, PetscReal dflt)
{
  PetscFunctionBegin;
  s->sampler_period = s->period_set > 0 ? s->period_set : dflt;
  PetscCheck(!(s->period_max > 0) || s->sampler_period <= s->period_max, PetscObjectComm((PetscObject)s), PETSC_ERR_ARG_OUTOFRANGE, "-eas_sensor_period_ms %g is too long for the %s sensor: at most %g ms (a quarter of the counters' wrap period at -eas_rapl_max_power %g W)", (double)(1e3 * s->sampler_period), s->type, (double)(1e3 * s->period_max), (double)s->max_power);
  PetscFunctionReturn(0);
}

/*@C
  EasSensorSetFromOptions - -eas_rapl_root, -eas_rapl_max_power,
  -eas_sensor_period_ms, -eas_nvml_library.
@*/
PetscErrorCode EasSensorSetFromOptions(EasSensor s)
{
  char      buf[PETSC_MAX_PATH_LEN];
  PetscBool flg;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(s, EAS_SENSOR_CLASSID, 1);
  PetscObjectOptionsBegin((PetscObject)s);
  PetscCall(PetscStrncpy(buf, s->rapl_root, sizeof(buf)));
  PetscCall(EasRaplRootSetFromOptions_Private(PetscOptionsObject, "EasSensorSetRaplRoot", buf, sizeof(buf), &flg));
  if (flg) PetscCall(EasSensorSetRaplRoot(s, buf));
  PetscCall(PetscOptionsReal("-eas_rapl_max_power", "Plausibility bound of one RAPL domain (W)", "EasSensorSetFromOptions", s->max_power, &s->max_power, NULL));
  PetscCheck(s->max_power > 0, PetscObjectComm((PetscObject)s), PETSC_ERR_ARG_OUTOFRANGE, "-eas_rapl_max_power %g: expected a power > 0 W", (double)s->max_power);
  {
    PetscReal ms = s->period_set > 0 ? 1e3 * s->period_set : 0;
    PetscCall(PetscOptionsReal("-eas_sensor_period_ms", "Sampler thread's period (ms; 0: 20 for NVML, 10 for RAPL): the meter's resolution in time, one read per period", "EasSensorSetSamplerPeriod", ms, &ms, &flg));
    if (flg) PetscCall(EasSensorSetSamplerPeriod(s, ms == 0 ? (PetscReal)PETSC_DECIDE : 1e-3 * ms));
  }
  PetscCall(PetscOptionsString("-eas_nvml_library", "NVML library to dlopen", "EasSensorSetNvmlLibrary", s->nvml_lib, buf, sizeof(buf), &flg));
  if (flg) PetscCall(EasSensorSetNvmlLibrary(s, buf));
  PetscOptionsEnd();
  PetscFunctionReturn(0);
}

/*@C
  EasSensorSetUp - probes the sensor; absence is not an error.
@*/
PetscErrorCode EasSensorSetUp(EasSensor s)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(s, EAS_SENSOR_CLASSID, 1);
  if (s->setup) PetscFunctionReturn(0);
  PetscCheck(s->ops->setup, PetscObjectComm((PetscObject)s), PETSC_ERR_ORDER, "EasSensorSetType must be called before EasSensorSetUp");
  s->setup = PETSC_TRUE;
  PetscCall((*s->ops->setup)(s));
  if (s->available) {
    PetscBool ok;
    PetscCall(EasSensorStartThread(s));
    PetscCall(EasSensorWaitSample(s, 0, &ok)); /* the first sample, before any meter starts */
    PetscCheck(ok, PETSC_COMM_SELF, PETSC_ERR_LIB, "the %s sensor's first read did not return within a second", s->type);
  }
  PetscFunctionReturn(0);
}

/* One poll and its sample published; mutex held. */
static void PollAndPublish(EasSensor s)
{
  double    t;
  PetscReal E = 0;

  s->ops->poll(s, &t);
  for (PetscInt d = 0; d < s->ndomains; d++) E += s->dom[d].acc;
  pthread_mutex_lock(&s->ring_mutex);
  {
    const PetscInt64 n = s->nsamples;
    if (n > 0 && t < s->ring_t[(n - 1) % EAS_SENSOR_RING]) t = s->ring_t[(n - 1) % EAS_SENSOR_RING]; /* times never decrease */
    s->ring_t[n % EAS_SENSOR_RING] = t;
    s->ring_E[n % EAS_SENSOR_RING] = E;
    __atomic_store_n(&s->nsamples, n + 1, __ATOMIC_RELEASE);
  }
  pthread_cond_broadcast(&s->ring_cond);
  pthread_mutex_unlock(&s->ring_mutex);
}

/* Absolute CLOCK_REALTIME deadline dt seconds from now (pthread_cond_timedwait). */
static struct timespec Deadline(double dt)
{
  struct timespec ts;
  double          wake;

  clock_gettime(CLOCK_REALTIME, &ts);
  wake       = (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec + dt;
  ts.tv_sec  = (time_t)wake;
  ts.tv_nsec = (long)((wake - (double)ts.tv_sec) * 1e9);
  return ts;
}

/* The sampler: a poll every period on a fixed schedule (the read's own
   duration does not stretch it; a late poll is not made up), and one at
   once when asked (kick). */
static void *SamplerMain(void *arg)
{
  EasSensor s    = (EasSensor)arg;
  double    next = EasSensorNow();

  pthread_mutex_lock(&s->mutex);
  while (!s->stop) {
    const double now = EasSensorNow();
    if (s->kick || now >= next) {
      s->kick = 0;
      PollAndPublish(s);
      s->reads_sampler++;
      if (now >= next) next += s->sampler_period;
      if (next <= EasSensorNow()) next = EasSensorNow() + s->sampler_period; /* behind the schedule: skip, do not catch up */
      continue;
    }
    {
      const struct timespec ts = Deadline(next - now);
      (void)pthread_cond_timedwait(&s->cond, &s->mutex, &ts);
    }
  }
  pthread_mutex_unlock(&s->mutex);
  return NULL;
}

/* EasSensorStartThread - starts the sampler, which polls every
   sampler_period seconds (set by the type, at least once per wrap period). */
PetscErrorCode EasSensorStartThread(EasSensor s)
{
  PetscFunctionBegin;
  PetscCheck(s->sampler_period > 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "sampler period not set");
  s->stop = 0;
  PetscCheck(pthread_create(&s->thread, NULL, SamplerMain, s) == 0, PETSC_COMM_SELF, PETSC_ERR_SYS, "cannot start the %s sampler thread: %s", s->type, strerror(errno));
  s->thread_running = 1;
  PetscFunctionReturn(0);
}

PetscInt64 EasSensorNumSamples(EasSensor s)
{
  return __atomic_load_n(&s->nsamples, __ATOMIC_ACQUIRE);
}

PetscErrorCode EasSensorGetSamples(EasSensor s, PetscInt64 *next, PetscInt max, PetscLogDouble t[], PetscReal E[], PetscInt *n, PetscInt64 *lost)
{
  PetscFunctionBegin;
  *n    = 0;
  *lost = 0;
  if (EasSensorNumSamples(s) <= *next) PetscFunctionReturn(0);
  pthread_mutex_lock(&s->ring_mutex);
  if (s->nsamples - *next > EAS_SENSOR_RING) { /* overwritten before they were read */
    *lost = s->nsamples - EAS_SENSOR_RING - *next;
    *next = s->nsamples - EAS_SENSOR_RING;
  }
  for (; *next < s->nsamples && *n < max; (*next)++, (*n)++) {
    t[*n] = s->ring_t[*next % EAS_SENSOR_RING];
    E[*n] = s->ring_E[*next % EAS_SENSOR_RING];
  }
  pthread_mutex_unlock(&s->ring_mutex);
  PetscFunctionReturn(0);
}

PetscErrorCode EasSensorWaitSample(EasSensor s, PetscLogDouble t, PetscBool *ok)
{
  const double tmax = EasSensorNow() + 1.0;

  PetscFunctionBegin;
  *ok = PETSC_TRUE;
  for (;;) {
    PetscBool have;
    pthread_mutex_lock(&s->ring_mutex);
    have = (PetscBool)(s->nsamples > 0 && s->ring_t[(s->nsamples - 1) % EAS_SENSOR_RING] >= t);
    pthread_mutex_unlock(&s->ring_mutex);
    if (have) break;
    if (EasSensorNow() > tmax) {
      *ok = PETSC_FALSE;
      PetscCall(PetscInfo(s, "no %s sample at or after t = %g s within a second: the reads hang\n", s->type, (double)t));
      break;
    }
    pthread_mutex_lock(&s->mutex); /* ask for a sample now (the thread may be inside a poll: then after it) */
    s->kick = 1;
    pthread_cond_signal(&s->cond);
    pthread_mutex_unlock(&s->mutex);
    pthread_mutex_lock(&s->ring_mutex);
    if (!(s->nsamples > 0 && s->ring_t[(s->nsamples - 1) % EAS_SENSOR_RING] >= t)) {
      const struct timespec ts = Deadline(0.05);
      (void)pthread_cond_timedwait(&s->ring_cond, &s->ring_mutex, &ts);
    }
    pthread_mutex_unlock(&s->ring_mutex);
  }
  PetscFunctionReturn(0);
}

PetscErrorCode EasSensorIsAvailable(EasSensor s, PetscBool *avail, const char *why[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(s, EAS_SENSOR_CLASSID, 1);
  PetscCheck(s->setup, PetscObjectComm((PetscObject)s), PETSC_ERR_ORDER, "call EasSensorSetUp first");
  *avail = s->available;
  if (why) *why = s->why;
  PetscFunctionReturn(0);
}

PetscErrorCode EasSensorGetNumDomains(EasSensor s, PetscInt *n)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(s, EAS_SENSOR_CLASSID, 1);
  *n = s->available ? s->ndomains : 0;
  PetscFunctionReturn(0);
}

PetscErrorCode EasSensorGetDomain(EasSensor s, PetscInt d, const char *name[], EasDomainKind *kind)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(s, EAS_SENSOR_CLASSID, 1);
  PetscCheck(d >= 0 && d < s->ndomains, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "domain %" PetscInt_FMT " outside [0,%" PetscInt_FMT ")", d, s->ndomains);
  if (name) *name = s->dom[d].name;
  if (kind) *kind = s->dom[d].kind;
  PetscFunctionReturn(0);
}

/*@C
  EasSensorRead - synchronizes (callback), polls and returns the cumulative
  energy of every domain since SetUp (J) and the time of the read (s).
@*/
PetscErrorCode EasSensorRead(EasSensor s, PetscLogDouble *t, PetscReal E[])
{
  double now;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(s, EAS_SENSOR_CLASSID, 1);
  PetscCheck(s->setup && s->available, PetscObjectComm((PetscObject)s), PETSC_ERR_ORDER, "EasSensorRead: the %s sensor is not available: %s", s->type, s->setup ? s->why : "not set up");
  PetscCall(PetscLogEventBegin(EAS_SensorRead, 0, 0, 0, 0));
  if (s->sync) PetscCall((*s->sync)(s->sync_ctx)); /* the caller's stream, so queued work is counted */
  pthread_mutex_lock(&s->mutex);
  PollAndPublish(s);
  s->reads_caller++;
  for (PetscInt d = 0; d < s->ndomains; d++) E[d] = s->dom[d].acc;
  pthread_mutex_lock(&s->ring_mutex);
  now = s->ring_t[(s->nsamples - 1) % EAS_SENSOR_RING];
  pthread_mutex_unlock(&s->ring_mutex);
  pthread_mutex_unlock(&s->mutex);
  if (t) *t = now;
  PetscCall(PetscLogEventEnd(EAS_SensorRead, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

PetscErrorCode EasSensorGetUpdatePeriod(EasSensor s, PetscReal *p)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(s, EAS_SENSOR_CLASSID, 1);
  *p = s->update_period;
  PetscFunctionReturn(0);
}

PetscErrorCode EasSensorGetSamplerPeriod(EasSensor s, PetscReal *p)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(s, EAS_SENSOR_CLASSID, 1);
  *p = s->sampler_period;
  PetscFunctionReturn(0);
}

/*@C
  EasSensorGetReadCounts - polls of the sensor's hardware so far: on the
  caller's thread (EasSensorRead) and on the sampler thread.
@*/
PetscErrorCode EasSensorGetReadCounts(EasSensor s, PetscInt *caller, PetscInt *sampler)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(s, EAS_SENSOR_CLASSID, 1);
  pthread_mutex_lock(&s->mutex);
  if (caller) *caller = (PetscInt)s->reads_caller;
  if (sampler) *sampler = (PetscInt)s->reads_sampler;
  pthread_mutex_unlock(&s->mutex);
  PetscFunctionReturn(0);
}

PetscErrorCode EasSensorGetDroppedSamples(EasSensor s, PetscInt *n)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(s, EAS_SENSOR_CLASSID, 1);
  pthread_mutex_lock(&s->mutex);
  *n = s->dropped;
  pthread_mutex_unlock(&s->mutex);
  PetscFunctionReturn(0);
}

/*@C
  EasSensorView - type, state, domains and periods.
@*/
PetscErrorCode EasSensorView(EasSensor s, PetscViewer viewer)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(s, EAS_SENSOR_CLASSID, 1);
  if (!viewer) PetscCall(PetscViewerASCIIGetStdout(PetscObjectComm((PetscObject)s), &viewer));
  PetscCall(PetscViewerASCIIPrintf(viewer, "EasSensor %s: %s\n", s->type, !s->setup ? "not set up" : s->why));
  if (s->setup && s->available) {
    PetscInt dropped, caller, sampler;
    PetscCall(PetscViewerASCIIPushTab(viewer));
    for (PetscInt d = 0; d < s->ndomains; d++) PetscCall(PetscViewerASCIIPrintf(viewer, "domain %s\n", s->dom[d].name));
    PetscCall(EasSensorGetDroppedSamples(s, &dropped)); /* the sampler writes them: under its mutex */
    PetscCall(EasSensorGetReadCounts(s, &caller, &sampler));
    PetscCall(PetscViewerASCIIPrintf(viewer, "update period %g s, sampler period %g s, dropped samples %" PetscInt_FMT "; reads: %" PetscInt_FMT " on the sampler thread, %" PetscInt_FMT " on the caller's\n", (double)s->update_period, (double)s->sampler_period, dropped, sampler, caller));
    PetscCall(PetscViewerASCIIPopTab(viewer));
  }
  PetscFunctionReturn(0);
}

/*@C
  EasSensorDestroy - stops the sampler thread and frees the sensor.
@*/
PetscErrorCode EasSensorDestroy(EasSensor *sensor)
{
  EasSensor s;

  PetscFunctionBegin;
  if (!*sensor) PetscFunctionReturn(0);
  s = *sensor;
  PetscValidHeaderSpecific(s, EAS_SENSOR_CLASSID, 1);
  if (--((PetscObject)s)->refct > 0) {
    *sensor = NULL;
    PetscFunctionReturn(0);
  }
  if (s->thread_running) {
    pthread_mutex_lock(&s->mutex);
    s->stop = 1;
    pthread_cond_signal(&s->cond);
    pthread_mutex_unlock(&s->mutex);
    pthread_join(s->thread, NULL);
    s->thread_running = 0;
  }
  if (s->ops->destroy) PetscCall((*s->ops->destroy)(s));
  pthread_mutex_destroy(&s->mutex);
  pthread_cond_destroy(&s->cond);
  pthread_mutex_destroy(&s->ring_mutex);
  pthread_cond_destroy(&s->ring_cond);
  PetscCall(PetscHeaderDestroy(sensor));
  PetscFunctionReturn(0);
}

/*@C
  EasEnergyTrapezoid - trapezoid rule over power samples (Vialle et al. sec. 1.4.1).
@*/
PetscErrorCode EasEnergyTrapezoid(PetscInt n, const PetscReal t[], const PetscReal P[], PetscReal *E)
{
  PetscReal e = 0;

  PetscFunctionBegin;
  PetscCheck(n > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "n = %" PetscInt_FMT " samples: expected n > 0", n);
  PetscCheck(t && P && E, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "t, P and E must not be NULL");
  for (PetscInt i = 0; i < n; i++) {
    PetscCheck(P[i] >= 0 && !PetscIsInfOrNanReal(P[i]), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "P[%" PetscInt_FMT "] = %g must be a finite power >= 0 W", i, (double)P[i]);
    if (i) {
      PetscCheck(t[i] >= t[i - 1], PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "t[%" PetscInt_FMT "] = %g < t[%" PetscInt_FMT "] = %g: sample times must not decrease", i, (double)t[i], i - 1, (double)t[i - 1]);
      e += 0.5 * (t[i] - t[i - 1]) * (P[i] + P[i - 1]); /* Vialle et al. sec. 1.4.1: trapezoidal rule */
    }
  }
  *E = e;
  PetscFunctionReturn(0);
}
