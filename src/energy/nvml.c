/*
  NVML energy sensor, loaded at run time with dlopen (docs/energy.md):
  no build-time dependency; an absent library or device makes the sensor
  unavailable with the reason.

  Per GPU: nvmlDeviceGetTotalEnergyConsumption (mJ since driver load) where
  the device supports it; otherwise nvmlDeviceGetPowerUsage (mW) integrated
  by the trapezoid rule (Vialle et al. sec. 1.4.1).  The sampler thread
  reads every 20 ms (-eas_sensor_period_ms), each value stamped with the
  middle of its call (a read of a busy GPU takes milliseconds); the meter
  never reads in the caller's thread.  NVML's energy and power figures are
  refreshed about every 100 ms (update period): the meter labels energy of
  shorter phase intervals "apportioned".
*/
#include "energyimpl.h"
#include <dlfcn.h>

/* The few NVML declarations used (nvml.h is not needed to build). */
typedef int   nvmlReturn_t;
typedef void *nvmlDevice_t;
#define EAS_NVML_SUCCESS 0
#define EAS_NVML_ERROR_NOT_SUPPORTED 3
typedef nvmlReturn_t (*nvmlInit_t)(void);
typedef nvmlReturn_t (*nvmlShutdown_t)(void);
typedef nvmlReturn_t (*nvmlDeviceGetCount_t)(unsigned int *);
typedef nvmlReturn_t (*nvmlDeviceGetHandleByIndex_t)(unsigned int, nvmlDevice_t *);
typedef nvmlReturn_t (*nvmlDeviceGetTotalEnergyConsumption_t)(nvmlDevice_t, unsigned long long *);
typedef nvmlReturn_t (*nvmlDeviceGetPowerUsage_t)(nvmlDevice_t, unsigned int *);
typedef const char *(*nvmlErrorString_t)(nvmlReturn_t);

typedef struct {
  void                                 *lib;
  nvmlShutdown_t                        shutdown;
  nvmlDeviceGetTotalEnergyConsumption_t energy;
  nvmlDeviceGetPowerUsage_t             power;
  int                                   initialized;
} EasNvml;

static void Poll_NVML(EasSensor s, double *t)
{
  EasNvml     *nv = (EasNvml *)s->data;
  const double t0 = EasSensorNow();
  double       tsum = 0;
  int          nread = 0;

  for (PetscInt d = 0; d < s->ndomains; d++) {
    EasSensorDomain *dm = &s->dom[d];
    const double     a  = EasSensorNow();
    double           now;
    if (!dm->use_power) {
      unsigned long long mj;
      const int          ok = nv->energy((nvmlDevice_t)dm->dev, &mj) == EAS_NVML_SUCCESS;
      now                   = 0.5 * (a + EasSensorNow()); /* the value of the middle of the call */
      if (!ok) {
        s->dropped++;
        continue;
      }
      if (!dm->have_last) {
        dm->last_raw  = (double)mj;
        dm->have_last = 1;
      } else if ((double)mj >= dm->last_raw) {
        dm->acc += ((double)mj - dm->last_raw) * 1e-3; /* mJ -> J */
        dm->last_raw = (double)mj;
      } else {
        s->dropped++; /* counter reset (driver reload): drop */
        dm->last_raw = (double)mj;
      }
      dm->last_t = now;
    } else {
      unsigned int mw;
      double       P;
      const int    ok = nv->power((nvmlDevice_t)dm->dev, &mw) == EAS_NVML_SUCCESS;
      now             = 0.5 * (a + EasSensorNow());
      if (!ok) {
        s->dropped++;
        continue;
      }
      P = 1e-3 * (double)mw;
      if (dm->have_last && now > dm->last_t) dm->acc += 0.5 * (now - dm->last_t) * (dm->last_P + P); /* Vialle et al. sec. 1.4.1: trapezoid rule */
      dm->last_P    = P;
      dm->last_t    = now;
      dm->have_last = 1;
    }
    tsum += now;
    nread++;
  }
  *t = nread ? tsum / nread : 0.5 * (t0 + EasSensorNow()); /* the sample's time: its values' (one device: exactly its stamp) */
}

static PetscErrorCode Destroy_NVML(EasSensor s)
{
  EasNvml *nv = (EasNvml *)s->data;

  PetscFunctionBegin;
  if (nv) {
    if (nv->initialized && nv->shutdown) nv->shutdown();
    if (nv->lib) dlclose(nv->lib);
  }
  PetscCall(PetscFree(s->data));
  PetscFunctionReturn(0);
}

PetscErrorCode EasSensorSetUp_NVML(EasSensor s)
{
  EasNvml                     *nv;
  nvmlInit_t                   init;
  nvmlDeviceGetCount_t         count;
  nvmlDeviceGetHandleByIndex_t handle;
  nvmlErrorString_t            errstr;
  unsigned int                 ndev = 0;
  nvmlReturn_t                 rc;
  PetscBool                    anypower = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(PetscNew(&nv));
  s->data          = nv;
  s->ops->destroy  = Destroy_NVML;
  s->ops->poll     = Poll_NVML;
  s->update_period = 0.1;
  nv->lib          = dlopen(s->nvml_lib, RTLD_NOW | RTLD_LOCAL);
  if (!nv->lib) {
    const char *e = dlerror();
    PetscCall(PetscSNPrintf(s->why, sizeof(s->why), "cannot load %s (%s): no NVIDIA driver", s->nvml_lib, e ? e : "not found"));
    PetscFunctionReturn(0);
  }
  init         = (nvmlInit_t)dlsym(nv->lib, "nvmlInit_v2");
  nv->shutdown = (nvmlShutdown_t)dlsym(nv->lib, "nvmlShutdown");
  count        = (nvmlDeviceGetCount_t)dlsym(nv->lib, "nvmlDeviceGetCount_v2");
  handle       = (nvmlDeviceGetHandleByIndex_t)dlsym(nv->lib, "nvmlDeviceGetHandleByIndex_v2");
  nv->energy   = (nvmlDeviceGetTotalEnergyConsumption_t)dlsym(nv->lib, "nvmlDeviceGetTotalEnergyConsumption");
  nv->power    = (nvmlDeviceGetPowerUsage_t)dlsym(nv->lib, "nvmlDeviceGetPowerUsage");
  errstr       = (nvmlErrorString_t)dlsym(nv->lib, "nvmlErrorString");
  if (!init || !count || !handle || !nv->power) {
    PetscCall(PetscSNPrintf(s->why, sizeof(s->why), "%s lacks nvmlInit_v2/nvmlDeviceGetCount_v2/nvmlDeviceGetHandleByIndex_v2/nvmlDeviceGetPowerUsage", s->nvml_lib));
    PetscFunctionReturn(0);
  }
  if ((rc = init()) != EAS_NVML_SUCCESS) {
    PetscCall(PetscSNPrintf(s->why, sizeof(s->why), "nvmlInit failed: %s", errstr ? errstr(rc) : "error"));
    PetscFunctionReturn(0);
  }
  nv->initialized = 1;
  if ((rc = count(&ndev)) != EAS_NVML_SUCCESS || ndev == 0) {
    PetscCall(PetscSNPrintf(s->why, sizeof(s->why), "NVML sees no GPU%s%s", rc ? ": " : "", rc && errstr ? errstr(rc) : ""));
    PetscFunctionReturn(0);
  }
  for (unsigned int i = 0; i < ndev && s->ndomains < EAS_SENSOR_MAX_DOMAINS; i++) {
    EasSensorDomain   *dm = &s->dom[s->ndomains];
    nvmlDevice_t       dev;
    unsigned long long mj;
    unsigned int       mw;

    if (handle(i, &dev) != EAS_NVML_SUCCESS) continue;
    PetscCall(PetscMemzero(dm, sizeof(*dm)));
    PetscCall(PetscSNPrintf(dm->name, sizeof(dm->name), "gpu-%u", i));
    dm->kind      = EAS_DOMAIN_GPU;
    dm->dev       = dev;
    dm->use_power = !(nv->energy && nv->energy(dev, &mj) == EAS_NVML_SUCCESS);
    if (dm->use_power && nv->power(dev, &mw) != EAS_NVML_SUCCESS) continue; /* neither: skip the device */
    if (dm->use_power) anypower = PETSC_TRUE;
    s->ndomains++;
  }
  if (!s->ndomains) {
    PetscCall(PetscSNPrintf(s->why, sizeof(s->why), "no GPU reports energy or power through NVML"));
    PetscFunctionReturn(0);
  }
  PetscCall(EasSensorChoosePeriod(s, 0.02)); /* 20 ms: the meter's resolution, and the trapezoid rule's step for power samples */
  s->available = PETSC_TRUE;
  PetscCall(PetscSNPrintf(s->why, sizeof(s->why), "available (%s)", anypower ? "power samples, trapezoid rule" : "total energy counter"));
  PetscFunctionReturn(0);
}
