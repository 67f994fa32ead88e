/*
  A fake NVML (libnvidia-ml) for the tests of the NVML energy sensor
  (src/energy/nvml.c): built by the Makefile as $(OBJDIR)/tests/libfake_nvml.so
  and loaded by the sensor through dlopen (-eas_nvml_library <path>), so the
  tests go through the real code path on a machine without a GPU.

  It exports the NVML entry points the sensor uses and is driven by
  environment variables read at nvmlInit_v2:
    FAKE_NVML_MODE     energy (default): nvmlDeviceGetTotalEnergyConsumption
                         counts P x (time since nvmlInit_v2) in mJ on top of an
                         arbitrary offset (only differences mean anything);
                       power: no energy counter (NVML_ERROR_NOT_SUPPORTED),
                         nvmlDeviceGetPowerUsage reports P (in mW) -> the
                         sensor samples and integrates (trapezoid rule);
                       initfail: nvmlInit_v2 fails (NVML_ERROR_DRIVER_NOT_LOADED);
                       nodev: nvmlDeviceGetCount_v2 reports 0 devices;
                       reset: as energy, but the counter restarts from 0 (a
                         driver reload) FAKE_NVML_RESET_AFTER seconds after
                         nvmlInit_v2 (default 0.15 s).
    FAKE_NVML_POWER    P in W (default 150).
    FAKE_NVML_POWER2, FAKE_NVML_SWITCH_AT
                       the power becomes FAKE_NVML_POWER2 W (default: P)
                       FAKE_NVML_SWITCH_AT seconds after nvmlInit_v2 (a
                       step, so a test can check that energy lands in the
                       phase that ran at each power).
    FAKE_NVML_DEVICES  number of devices (default 1, at most 4).
    FAKE_NVML_DELAY_MS every energy and power read sleeps this many
                       milliseconds (default 0), the value being that of the
                       middle of the call: a slow driver, as NVML's reads of
                       a busy H100 (issue 20: ~3.5 ms each), so a test can
                       see who pays for the reads.
    FAKE_NVML_READS    a file: at nvmlShutdown the fake appends one line
                       "reads <n> init_thread <m>": the energy and power reads
                       it answered, m of them on the thread that called
                       nvmlInit_v2 (the caller's thread of the sensor's SetUp;
                       the others came from sampler threads): a count taken
                       outside eas, for the meter's overhead tests.
  Time is CLOCK_MONOTONIC, the clock of the sensor (EasSensorNow), so a test
  can compare the measured energy with P x the elapsed time of its reads.
  Plain C, no PETSc: it stands for a vendor library.
*/
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef int   nvmlReturn_t;
typedef void *nvmlDevice_t;

#define NVML_SUCCESS 0
#define NVML_ERROR_UNINITIALIZED 1
#define NVML_ERROR_INVALID_ARGUMENT 2
#define NVML_ERROR_NOT_SUPPORTED 3
#define NVML_ERROR_DRIVER_NOT_LOADED 9
#define NVML_ERROR_UNKNOWN 999

enum { MODE_ENERGY,
       MODE_POWER,
       MODE_INITFAIL,
       MODE_NODEV,
       MODE_RESET };

static int    fake_mode = MODE_ENERGY, fake_init = 0, fake_ndev = 1;
static double fake_P = 150.0, fake_P2 = 150.0, fake_switch = 0, fake_t0 = 0, fake_reset_after = 0.15, fake_delay = 0;
static int    fake_dev[4];

/* Reads answered, and those asked by the thread that called nvmlInit_v2. */
static pthread_mutex_t fake_lock = PTHREAD_MUTEX_INITIALIZER;
static long            fake_reads, fake_reads_init;
static pthread_t       fake_init_thread;

static double FakeNow(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double EnvReal(const char *name, double dflt)
{
  const char *v = getenv(name);
  return (v && *v) ? strtod(v, NULL) : dflt;
}

static void FakeSleep(double seconds)
{
  struct timespec ts;

  if (seconds <= 0) return;
  ts.tv_sec  = (time_t)seconds;
  ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
  while (nanosleep(&ts, &ts)) {} /* resumed after a signal */
}

/* One energy or power read: counted, then the driver's delay; returns the
   time of the middle of the call (s since nvmlInit_v2), the time whose
   value the read answers (a real driver's reads are as old as about half
   their duration; taking the middle of the sleep as it really was, not as
   asked, keeps the fake's answer exact when the sleep overruns). */
static double FakeRead(void)
{
  const double t_in = FakeNow();

  pthread_mutex_lock(&fake_lock);
  fake_reads++;
  if (pthread_equal(pthread_self(), fake_init_thread)) fake_reads_init++;
  pthread_mutex_unlock(&fake_lock);
  FakeSleep(1e-3 * fake_delay);
  return 0.5 * (t_in + FakeNow()) - fake_t0;
}

nvmlReturn_t nvmlInit_v2(void)
{
  const char *m = getenv("FAKE_NVML_MODE");

  fake_mode = MODE_ENERGY;
  if (m && !strcmp(m, "power"))
    fake_mode = MODE_POWER;
  else if (m && !strcmp(m, "initfail"))
    fake_mode = MODE_INITFAIL;
  else if (m && !strcmp(m, "nodev"))
    fake_mode = MODE_NODEV;
  else if (m && !strcmp(m, "reset"))
    fake_mode = MODE_RESET;
  else if (m && *m && strcmp(m, "energy"))
    return NVML_ERROR_INVALID_ARGUMENT; /* a typo in the test */
  if (fake_mode == MODE_INITFAIL) return NVML_ERROR_DRIVER_NOT_LOADED;
  fake_P           = EnvReal("FAKE_NVML_POWER", 150.0);
  fake_P2          = EnvReal("FAKE_NVML_POWER2", fake_P);
  fake_switch      = EnvReal("FAKE_NVML_SWITCH_AT", 0);
  fake_reset_after = EnvReal("FAKE_NVML_RESET_AFTER", 0.15);
  fake_ndev        = (int)EnvReal("FAKE_NVML_DEVICES", 1);
  fake_delay       = EnvReal("FAKE_NVML_DELAY_MS", 0);
  if (fake_delay < 0) return NVML_ERROR_INVALID_ARGUMENT; /* a typo in the test */
  pthread_mutex_lock(&fake_lock);
  fake_reads       = 0;
  fake_reads_init  = 0;
  fake_init_thread = pthread_self();
  pthread_mutex_unlock(&fake_lock);
  if (fake_ndev < 0) fake_ndev = 0;
  if (fake_ndev > 4) fake_ndev = 4;
  fake_t0   = FakeNow();
  fake_init = 1;
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlShutdown(void)
{
  const char *path = getenv("FAKE_NVML_READS");

  if (!fake_init) return NVML_ERROR_UNINITIALIZED;
  fake_init = 0;
  if (path && *path) { /* appended: every sensor of the process (one per meter) adds its line */
    FILE *fp = fopen(path, "a");
    if (fp) {
      pthread_mutex_lock(&fake_lock);
      fprintf(fp, "reads %ld init_thread %ld\n", fake_reads, fake_reads_init);
      pthread_mutex_unlock(&fake_lock);
      fclose(fp);
    }
  }
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *n)
{
  if (!fake_init) return NVML_ERROR_UNINITIALIZED;
  if (!n) return NVML_ERROR_INVALID_ARGUMENT;
  *n = fake_mode == MODE_NODEV ? 0 : (unsigned int)fake_ndev;
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int i, nvmlDevice_t *dev)
{
  if (!fake_init) return NVML_ERROR_UNINITIALIZED;
  if (!dev || i >= (unsigned int)fake_ndev) return NVML_ERROR_INVALID_ARGUMENT;
  *dev = &fake_dev[i];
  return NVML_SUCCESS;
}

/* The power at t s after nvmlInit_v2 (W), and the energy since then (J). */
static double FakePower(double t)
{
  return (fake_switch > 0 && t >= fake_switch) ? fake_P2 : fake_P;
}

static double FakeEnergy(double t)
{
  if (fake_switch > 0 && t > fake_switch) return fake_P * fake_switch + fake_P2 * (t - fake_switch);
  return fake_P * t;
}

/* mJ since the (fake) driver load: the energy since nvmlInit_v2 plus an
   offset; in reset mode the counter starts again from 0 after
   fake_reset_after seconds. */
nvmlReturn_t nvmlDeviceGetTotalEnergyConsumption(nvmlDevice_t dev, unsigned long long *mj)
{
  double t;

  if (!fake_init) return NVML_ERROR_UNINITIALIZED;
  if (!dev || !mj) return NVML_ERROR_INVALID_ARGUMENT;
  if (fake_mode == MODE_POWER) return NVML_ERROR_NOT_SUPPORTED;
  t = FakeRead();
  if (fake_mode == MODE_RESET && t >= fake_reset_after)
    *mj = (unsigned long long)(1e3 * (FakeEnergy(t) - FakeEnergy(fake_reset_after)));
  else
    *mj = 987654321ULL + (unsigned long long)(1e3 * FakeEnergy(t));
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t dev, unsigned int *mw)
{
  if (!fake_init) return NVML_ERROR_UNINITIALIZED;
  if (!dev || !mw) return NVML_ERROR_INVALID_ARGUMENT;
  *mw = (unsigned int)(1e3 * FakePower(FakeRead()) + 0.5);
  return NVML_SUCCESS;
}

const char *nvmlErrorString(nvmlReturn_t rc)
{
  switch (rc) {
  case NVML_SUCCESS:
    return "Success";
  case NVML_ERROR_UNINITIALIZED:
    return "Uninitialized";
  case NVML_ERROR_INVALID_ARGUMENT:
    return "Invalid Argument";
  case NVML_ERROR_NOT_SUPPORTED:
    return "Not Supported";
  case NVML_ERROR_DRIVER_NOT_LOADED:
    return "Driver Not Loaded";
  default:
    return "Unknown Error";
  }
}
