static const char help[] = "Energy sensors on fake powercap trees (normal, wraparound, wraparound without max_energy_range_uj,\n"
                           "unreadable files, a missing domain, implausible jumps), NVML absent, the trapezoid rule,\n"
                           "-eas_sensor auto/rapl on this machine, and NVML through a fake libnvidia-ml (tests/fake_nvml.c,\n"
                           "dlopen'ed from the directory of this program: energy counter, power samples, init failure, no\n"
                           "device, counter reset).\n"
                           "  -case normal|wrap|wrap_norange|eacces|missing|plausible|nvml_absent|trapezoid|meter|nvml_fake\n"
                           "  (the meter on the sensors' samples: test_meter_sampler.c)\n"
                           "  -fake_mode energy|power|initfail|nodev|reset -fake_power <W> (case nvml_fake)\n\n"
                           "Unreadable files: tests run as root, where chmod 000 does not stop reads, so the EACCES case\n"
                           "uses (1) a directory in place of energy_uj (read fails with EISDIR), (2) the fault hook\n"
                           "EasSensorRaplSetReadFault(EACCES), and (3) chmod 000 when not run as root.\n";

#include <eas.h>
#include "energy/testing.h" /* test hooks (not installed) */
#include "sensorfakes.h"      /* fake powercap trees, the fake NVML's path */
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

static PetscInt nchecks = 0;

#define CHECK_CLOSE(a, b, tol, what)                                                                                                                                    \
  do {                                                                                                                                                                  \
    PetscReal a_ = (a), b_ = (b);                                                                                                                                       \
    PetscCheck(PetscAbsReal(a_ - b_) <= (tol), PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: got %.12g, expected %.12g (tol %g)", what, (double)a_, (double)b_, (double)(tol)); \
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %s: %.9g == %.9g (tol %g)\n", what, (double)a_, (double)b_, (double)(tol)));                                              \
    nchecks++;                                                                                                                                                          \
  } while (0)

static PetscErrorCode OpenRapl(const char root[], EasSensor *s)
{
  PetscFunctionBegin;
  PetscCall(EasSensorCreate(PETSC_COMM_SELF, s));
  PetscCall(EasSensorSetType(*s, EAS_SENSOR_RAPL));
  {
    EasSensorType type;
    PetscBool     same;
    PetscCall(EasSensorGetType(*s, &type));
    PetscCall(PetscStrcmp(type, EAS_SENSOR_RAPL, &same));
    PetscCheck(same, PETSC_COMM_SELF, PETSC_ERR_PLIB, "EasSensorGetType gives %s after EasSensorSetType(%s)", type ? type : "(null)", EAS_SENSOR_RAPL);
  }
  PetscCall(EasSensorSetFromOptions(*s));
  PetscCall(EasSensorSetRaplRoot(*s, root));
  PetscCall(EasSensorSetUp(*s));
  PetscFunctionReturn(0);
}

static PetscErrorCode ExpectUnavailable(EasSensor s, const char substr[])
{
  PetscBool   avail, found;
  const char *why;
  PetscFunctionBegin;
  PetscCall(EasSensorIsAvailable(s, &avail, &why));
  found = strstr(why, substr) ? PETSC_TRUE : PETSC_FALSE;
  PetscCheck(!avail && found, PETSC_COMM_SELF, PETSC_ERR_PLIB, "expected an unavailable sensor whose reason contains \"%s\"; got %s: %s", substr, avail ? "available" : "unavailable", why);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  unavailable as expected: Disabled: %s\n", why));
  nchecks++;
  PetscFunctionReturn(0);
}

static PetscErrorCode CaseNormal(void)
{
  char        root[PETSC_MAX_PATH_LEN], pkg[PETSC_MAX_PATH_LEN], dr[PETSC_MAX_PATH_LEN];
  EasSensor   s;
  PetscReal   E[16], period;
  PetscInt    nd, dropped;
  const char *name;

  PetscFunctionBegin;
  PetscCall(MakeTree(root, sizeof(root), PETSC_TRUE, PETSC_TRUE, pkg, dr));
  PetscCall(OpenRapl(root, &s));
  PetscCall(EasSensorGetNumDomains(s, &nd));
  PetscCheck(nd == 2, PETSC_COMM_SELF, PETSC_ERR_PLIB, "expected 2 domains (package, dram), got %" PetscInt_FMT, nd);
  PetscCall(EasSensorGetDomain(s, 0, &name, NULL));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  domains: %s", name));
  PetscCall(EasSensorGetDomain(s, 1, &name, NULL));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, ", %s\n", name));
  PetscCall(EasSensorGetSamplerPeriod(s, &period));
  PetscCheck(period <= 0.25 * 10.0 / 2000.0 + 1e-3, PETSC_COMM_SELF, PETSC_ERR_PLIB, "sampler period %g s exceeds a quarter of the wrap period", (double)period);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  sampler period %g s <= wrap period / 4 (10 J / 2000 W / 4, floor 1 ms)\n", (double)period));
  for (int k = 1; k <= 5; k++) {
    PetscCall(SetEnergy(pkg, 1000000 + k * 400000.0)); /* +0.4 J per step */
    PetscCall(SetEnergy(dr, 500000 + k * 100000.0));   /* +0.1 J per step */
    PetscCall(PetscSleep(0.002));
  }
  PetscCall(EasSensorRead(s, NULL, E));
  CHECK_CLOSE(E[0], 2.0, 1e-9, "normal: package energy (J)");
  CHECK_CLOSE(E[1], 0.5, 1e-9, "normal: dram energy (J)");
  PetscCall(EasSensorGetDroppedSamples(s, &dropped));
  PetscCheck(dropped == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "dropped %" PetscInt_FMT " samples, expected 0", dropped);
  PetscCall(EasSensorView(s, PETSC_VIEWER_STDOUT_SELF));
  PetscCall(EasSensorDestroy(&s));
  PetscCall(RemoveTree(root));
  PetscFunctionReturn(0);
}

static PetscErrorCode CaseWrap(PetscBool range)
{
  char      root[PETSC_MAX_PATH_LEN], pkg[PETSC_MAX_PATH_LEN], dr[PETSC_MAX_PATH_LEN];
  EasSensor s;
  PetscReal E[16];
  PetscInt  dropped;

  PetscFunctionBegin;
  PetscCall(MakeTree(root, sizeof(root), PETSC_FALSE, range, pkg, dr));
  PetscCall(OpenRapl(root, &s));
  PetscCall(SetEnergy(pkg, 9800000)); /* +8.8 J over > 5 ms is plausible with -eas_rapl_max_power */
  PetscCall(PetscSleep(0.01));
  PetscCall(EasSensorRead(s, NULL, E));
  CHECK_CLOSE(E[0], 8.8, 1e-9, "before the wrap (J)");
  PetscCall(SetEnergy(pkg, 300000)); /* wrapped: 10 J range, +0.5 J */
  PetscCall(PetscSleep(0.002));
  PetscCall(EasSensorRead(s, NULL, E));
  PetscCall(EasSensorGetDroppedSamples(s, &dropped));
  if (range) {
    CHECK_CLOSE(E[0], 9.3, 1e-9, "after the wrap, max_energy_range_uj = 10 J added (J)");
    PetscCheck(dropped == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "dropped %" PetscInt_FMT ", expected 0", dropped);
  } else {
    CHECK_CLOSE(E[0], 8.8, 1e-9, "wrap without max_energy_range_uj: sample dropped, energy kept (J)");
    PetscCheck(dropped == 1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "dropped %" PetscInt_FMT ", expected 1", dropped);
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  dropped samples: 1 (never a negative increment)\n"));
  }
  PetscCall(SetEnergy(pkg, 700000)); /* normal increment after the wrap: +0.4 J */
  PetscCall(PetscSleep(0.002));
  PetscCall(EasSensorRead(s, NULL, E));
  CHECK_CLOSE(E[0], range ? 9.7 : 9.2, 1e-9, "increment after the wrap counted (J)");
  PetscCall(EasSensorDestroy(&s));
  PetscCall(RemoveTree(root));
  PetscFunctionReturn(0);
}

static PetscErrorCode CaseEacces(void)
{
  char      root[PETSC_MAX_PATH_LEN], pkg[PETSC_MAX_PATH_LEN], dr[PETSC_MAX_PATH_LEN], path[PETSC_MAX_PATH_LEN];
  EasSensor s;
  PetscReal E[16];
  PetscInt  dropped;

  PetscFunctionBegin;
  /* (1) a directory in place of energy_uj */
  PetscCall(MakeTree(root, sizeof(root), PETSC_FALSE, PETSC_TRUE, pkg, dr));
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/energy_uj", pkg));
  PetscCheck(unlink(path) == 0 && mkdir(path, 0755) == 0, PETSC_COMM_SELF, PETSC_ERR_SYS, "cannot replace %s", path);
  PetscCall(OpenRapl(root, &s));
  PetscCall(ExpectUnavailable(s, "Is a directory"));
  PetscCall(EasSensorDestroy(&s));
  PetscCall(RemoveTree(root));
  /* (2) the fault hook: EACCES on every read from SetUp on */
  PetscCall(MakeTree(root, sizeof(root), PETSC_FALSE, PETSC_TRUE, pkg, dr));
  PetscCall(EasSensorCreate(PETSC_COMM_SELF, &s));
  PetscCall(EasSensorSetType(s, EAS_SENSOR_RAPL));
  PetscCall(EasSensorSetRaplRoot(s, root));
  PetscCall(EasSensorRaplSetReadFault(s, EACCES));
  PetscCall(EasSensorSetUp(s));
  PetscCall(ExpectUnavailable(s, "Permission denied"));
  PetscCall(EasSensorDestroy(&s));
  /* (3) EACCES in the middle of a run: the samples are dropped, the energy kept */
  PetscCall(OpenRapl(root, &s));
  PetscCall(SetEnergy(pkg, 1500000));
  PetscCall(PetscSleep(0.002));
  PetscCall(EasSensorRead(s, NULL, E));
  PetscCall(EasSensorRaplSetReadFault(s, EACCES));
  PetscCall(SetEnergy(pkg, 1900000));
  PetscCall(PetscSleep(0.002));
  PetscCall(EasSensorRead(s, NULL, E));
  PetscCall(EasSensorGetDroppedSamples(s, &dropped));
  CHECK_CLOSE(E[0], 0.5, 1e-9, "EACCES during the run: energy kept (J)");
  PetscCheck(dropped >= 1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "expected dropped samples, got %" PetscInt_FMT, dropped);
  PetscCall(EasSensorRaplSetReadFault(s, 0));
  PetscCall(EasSensorRead(s, NULL, E));
  CHECK_CLOSE(E[0], 0.9, 1e-9, "readable again: increment since the last good sample counted (J)");
  PetscCall(EasSensorDestroy(&s));
  /* (4) chmod 000, effective only when not root */
  if (geteuid() != 0) {
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/energy_uj", pkg));
    PetscCheck(chmod(path, 0) == 0, PETSC_COMM_SELF, PETSC_ERR_SYS, "chmod %s", path);
    PetscCall(OpenRapl(root, &s));
    PetscCall(ExpectUnavailable(s, "Permission denied"));
    PetscCall(EasSensorDestroy(&s));
  } else
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  chmod 000 case skipped: running as root (reads are not blocked)\n"));
  PetscCall(RemoveTree(root));
  PetscFunctionReturn(0);
}

static PetscErrorCode CaseMissing(void)
{
  char      root[PETSC_MAX_PATH_LEN], pkg[PETSC_MAX_PATH_LEN], dr[PETSC_MAX_PATH_LEN], path[PETSC_MAX_PATH_LEN];
  EasSensor s;
  PetscInt  nd;

  PetscFunctionBegin;
  /* no dram domain: the package alone */
  PetscCall(MakeTree(root, sizeof(root), PETSC_FALSE, PETSC_TRUE, pkg, dr));
  PetscCall(OpenRapl(root, &s));
  PetscCall(EasSensorGetNumDomains(s, &nd));
  PetscCheck(nd == 1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "expected the package domain alone, got %" PetscInt_FMT " domains", nd);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  no dram domain: 1 domain (package-0)\n"));
  nchecks++;
  PetscCall(EasSensorDestroy(&s));
  /* dram listed but its energy_uj missing: package kept, reason recorded */
  PetscCall(RemoveTree(root));
  PetscCall(MakeTree(root, sizeof(root), PETSC_TRUE, PETSC_TRUE, pkg, dr));
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/energy_uj", dr));
  PetscCheck(unlink(path) == 0, PETSC_COMM_SELF, PETSC_ERR_SYS, "unlink %s", path);
  PetscCall(OpenRapl(root, &s));
  PetscCall(EasSensorGetNumDomains(s, &nd));
  PetscCheck(nd == 1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "expected 1 readable domain, got %" PetscInt_FMT, nd);
  PetscCall(EasSensorView(s, PETSC_VIEWER_STDOUT_SELF));
  nchecks++;
  PetscCall(EasSensorDestroy(&s));
  /* no package at all */
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/name", pkg));
  PetscCall(WriteFile(pkg, "name", "psys"));
  PetscCall(OpenRapl(root, &s));
  PetscCall(ExpectUnavailable(s, "no RAPL package domain"));
  PetscCall(EasSensorDestroy(&s));
  PetscCall(RemoveTree(root));
  /* no tree */
  PetscCall(OpenRapl("/nonexistent/powercap", &s));
  PetscCall(ExpectUnavailable(s, "cannot open /nonexistent/powercap"));
  PetscCall(EasSensorDestroy(&s));
  PetscFunctionReturn(0);
}

static PetscErrorCode CasePlausible(void)
{
  char      root[PETSC_MAX_PATH_LEN], pkg[PETSC_MAX_PATH_LEN], dr[PETSC_MAX_PATH_LEN];
  EasSensor s;
  PetscReal E[16];
  PetscInt  dropped;
  char      v[64];

  PetscFunctionBegin;
  PetscCall(MakeTree(root, sizeof(root), PETSC_FALSE, PETSC_FALSE, pkg, dr));
  PetscCall(OpenRapl(root, &s));
  PetscCall(PetscSNPrintf(v, sizeof(v), "%.0f", 1e6 + 5e9)); /* +5000 J in milliseconds: implausible */
  PetscCall(WriteFile(pkg, "energy_uj", v));
  PetscCall(PetscSleep(0.002));
  PetscCall(EasSensorRead(s, NULL, E));
  PetscCall(EasSensorGetDroppedSamples(s, &dropped));
  CHECK_CLOSE(E[0], 0.0, 1e-12, "implausible jump (5000 J in ms, bound -eas_rapl_max_power) dropped (J)");
  PetscCheck(dropped == 1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "dropped %" PetscInt_FMT ", expected 1", dropped);
  PetscCall(EasSensorDestroy(&s));
  PetscCall(RemoveTree(root));
  PetscFunctionReturn(0);
}

static PetscErrorCode CaseNvmlAbsent(void)
{
  EasSensor   s;
  PetscBool   avail;
  const char *why;

  PetscFunctionBegin;
  PetscCall(EasSensorCreate(PETSC_COMM_SELF, &s));
  PetscCall(EasSensorSetType(s, EAS_SENSOR_NVML));
  PetscCall(EasSensorSetNvmlLibrary(s, "libnvidia-ml-absent-for-test.so.1"));
  PetscCall(EasSensorSetUp(s));
  PetscCall(ExpectUnavailable(s, "cannot load libnvidia-ml-absent-for-test.so.1"));
  PetscCall(EasSensorDestroy(&s));
  /* the real library name: absent here; on a GPU machine just report */
  PetscCall(EasSensorCreate(PETSC_COMM_SELF, &s));
  PetscCall(EasSensorSetType(s, EAS_SENSOR_NVML));
  PetscCall(EasSensorSetUp(s));
  PetscCall(EasSensorIsAvailable(s, &avail, &why));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  nvml with libnvidia-ml.so.1: %s\n", avail ? "available" : why));
  PetscCall(EasSensorDestroy(&s));
  PetscFunctionReturn(0);
}

static PetscErrorCode CaseTrapezoid(void)
{
  const PetscReal t[5] = {0, 0.3, 0.6, 1.0, 1.5}, P[5] = {100, 200, 200, 150, 150};
  PetscReal       E;

  PetscFunctionBegin;
  PetscCall(EasEnergyTrapezoid(5, t, P, &E));
  /* 0.3*150 + 0.3*200 + 0.4*175 + 0.5*150 = 45 + 60 + 70 + 75 = 250 J */
  CHECK_CLOSE(E, 250.0, 1e-12, "trapezoid rule over 5 samples (J), by hand 250");
  PetscFunctionReturn(0);
}

/*
  NVML through the fake library (real dlopen path of src/energy/nvml.c).
  The fake draws a constant P watts from nvmlInit_v2 on (CLOCK_MONOTONIC,
  the sensor's clock).  Tolerances:
   - sensor, power samples: every read polls at its own time stamp t and the
     trapezoid rule of a constant power is exact, so E(t2) - E(t1) must be
     P (t2 - t1) to rounding (1e-9 J);
   - sensor, energy counter: the fake reads its clock just after the
     sensor's time stamp (the same poll) and counts whole mJ: 1 mJ per read
     plus P x 20 ms (one sampler period) per read for a thread descheduled
     between the two clock readings on a loaded 2-core machine;
   - meter: the sampler's samples apportioned to the phases (metertimeline.c);
     with a constant power, P x the sampling interval's time per phase, so
     the total over the running window is P x T, to the fake's whole mJ and
     the stamp of each read (the middle of the call): within 1 %.
  A 10 ms phase, shorter than NVML's 0.1 s update period, is labelled
  "apportioned" (its energy is its time's share of a sampling interval).
*/
static PetscErrorCode CaseNvmlFake(const char mode[], PetscReal P)
{
  char            lib[PETSC_MAX_PATH_LEN], pw[32];
  EasSensor       s;
  PetscBool       avail, isenergy, ispower, isreset, isinitfail, isnodev;
  const char     *why;
  PetscLogDouble  t1, t2, t3;
  PetscReal       E1, E2, E3, up;
  PetscInt        dropped;
  const PetscReal tol_sensor = 1e-3 + 0.02 * P, tol_meter = 0.01;

  PetscFunctionBegin;
  PetscCall(FakeNvmlPath(lib, sizeof(lib)));
  PetscCall(PetscStrcmp(mode, "energy", &isenergy));
  PetscCall(PetscStrcmp(mode, "power", &ispower));
  PetscCall(PetscStrcmp(mode, "reset", &isreset));
  PetscCall(PetscStrcmp(mode, "initfail", &isinitfail));
  PetscCall(PetscStrcmp(mode, "nodev", &isnodev));
  PetscCheck(isenergy || ispower || isreset || isinitfail || isnodev, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "-fake_mode %s: expected energy, power, reset, initfail or nodev", mode);
  PetscCall(PetscSNPrintf(pw, sizeof(pw), "%.17g", (double)P));
  PetscCheck(setenv("FAKE_NVML_MODE", mode, 1) == 0 && setenv("FAKE_NVML_POWER", pw, 1) == 0 && setenv("FAKE_NVML_RESET_AFTER", "0.2", 1) == 0, PETSC_COMM_SELF, PETSC_ERR_SYS, "setenv failed");
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  fake NVML %s, mode %s, P = %g W\n", lib, mode, (double)P));

  /* the sensor alone */
  PetscCall(EasSensorCreate(PETSC_COMM_SELF, &s));
  PetscCall(EasSensorSetType(s, EAS_SENSOR_NVML));
  PetscCall(EasSensorSetFromOptions(s)); /* -eas_sensor_period_ms */
  PetscCall(EasSensorSetNvmlLibrary(s, lib));
  PetscCall(EasSensorSetUp(s));
  if (isinitfail || isnodev) {
    PetscCall(ExpectUnavailable(s, isinitfail ? "nvmlInit failed: Driver Not Loaded" : "NVML sees no GPU"));
    PetscCall(EasSensorDestroy(&s));
  } else {
    PetscCall(EasSensorIsAvailable(s, &avail, &why));
    PetscCheck(avail, PETSC_COMM_SELF, PETSC_ERR_PLIB, "the fake NVML sensor must be available: %s", why);
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  sensor nvml: %s\n", why));
    PetscCheck(strstr(why, ispower ? "power samples, trapezoid rule" : "total energy counter"), PETSC_COMM_SELF, PETSC_ERR_PLIB, "mode %s: unexpected method: %s", mode, why);
    PetscCall(EasSensorGetUpdatePeriod(s, &up));
    CHECK_CLOSE(up, 0.1, 0, "NVML update period (s)");
    PetscCall(EasSensorRead(s, &t1, &E1));
    PetscCall(PetscSleep(isreset ? 0.3 : 0.25)); /* reset: past the counter's restart at 0.2 s */
    PetscCall(EasSensorRead(s, &t2, &E2));
    if (isreset) {
      /* the read after the restart sees a smaller counter: the sample is dropped, never negative */
      PetscCall(EasSensorGetDroppedSamples(s, &dropped));
      CHECK_CLOSE((PetscReal)dropped, 1, 0, "dropped samples after the counter reset");
      /* the counter restarted 0.2 s after nvmlInit_v2 (before t1): at most P x 0.2 s was counted by a
         sampler poll between t1 and the restart, the rest of the interval is lost, never negative */
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "  interval with the reset: %g J over %g s, in [0, P x 0.2 s = %g J]\n", (double)(E2 - E1), (double)(t2 - t1), (double)(P * 0.2)));
      PetscCheck(E2 - E1 >= 0 && E2 - E1 <= P * 0.2, PETSC_COMM_SELF, PETSC_ERR_PLIB, "energy over the interval with the reset: %g J, expected in [0, %g] J", (double)(E2 - E1), (double)(P * 0.2));
      nchecks++;
      PetscCall(PetscSleep(0.15));
      PetscCall(EasSensorRead(s, &t3, &E3));
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "  after the reset: %g J over %g s, P x t = %g J\n", (double)(E3 - E2), (double)(t3 - t2), (double)(P * (t3 - t2))));
      CHECK_CLOSE(E3 - E2, P * (t3 - t2), tol_sensor, "energy counted again after the reset (J) vs P x elapsed");
    } else {
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "  sensor: %g J over %g s (sensor clock), P x t = %g J\n", (double)(E2 - E1), (double)(t2 - t1), (double)(P * (t2 - t1))));
      CHECK_CLOSE(E2 - E1, P * (t2 - t1), ispower ? 1e-9 : tol_sensor, ispower ? "trapezoid-integrated energy (J) vs P x elapsed" : "energy counter difference (J) vs P x elapsed");
      PetscCall(EasSensorGetDroppedSamples(s, &dropped));
      CHECK_CLOSE((PetscReal)dropped, 0, 0, "dropped samples");
    }
    PetscCall(EasSensorDestroy(&s));
  }
  if (isreset) PetscFunctionReturn(0);

  /* the meter with -eas_sensor nvml: a 0.3 s phase is measured, a 10 ms one apportioned */
  {
    EasEnergyMeter   m;
    EasEnergySummary S;
    EasPowerProfile  prof;
    PetscInt         u;
    PetscReal        Pm;
    PetscCall(PetscOptionsSetValue(NULL, "-eas_nvml_library", lib));
    PetscCall(EasEnergyMeterCreate(PETSC_COMM_SELF, &m));
    PetscCall(EasEnergyMeterSetFromOptions(m));
    PetscCall(EasEnergyMeterSetSensorType(m, "nvml"));
    PetscCall(EasEnergyMeterAddUnit(m, "gpu0", EAS_UNIT_GPU, &u));
    PetscCall(EasEnergyMeterStart(m)); /* initfail/nodev: prints the Disabled line */
    PetscCall(EasEnergyMeterBegin(m, EAS_PHASE_COMPUTE, u));
    PetscCall(PetscSleep(0.3));
    PetscCall(EasEnergyMeterEnd(m, EAS_PHASE_COMPUTE, u, 1000));
    PetscCall(EasEnergyMeterBegin(m, EAS_PHASE_EXCHANGE, u));
    PetscCall(PetscSleep(0.01));
    PetscCall(EasEnergyMeterEnd(m, EAS_PHASE_EXCHANGE, u, 0));
    PetscCall(EasEnergyMeterStop(m));
    PetscCall(EasEnergyMeterGetSummary(m, &S));
    PetscCall(EasEnergyMeterView(m, PETSC_VIEWER_STDOUT_SELF));
    PetscCall(EasEnergyMeterGetProfile(m, &prof));
    Pm = prof.cpu_idle + prof.dram; /* no RAPL: the model adds the idle CPU and DRAM (Vialle et al. eq. 1.16; one rank, the GPU unit alone busy) */
    if (isinitfail || isnodev) {
      PetscCheck(!S.valid, PETSC_COMM_SELF, PETSC_ERR_PLIB, "-eas_sensor nvml without NVML: the figures must be n/a");
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "  meter: -eas_sensor nvml unavailable, figures n/a\n"));
      nchecks++;
    } else {
      PetscCheck(S.measured && S.phase_measured[EAS_PHASE_COMPUTE] && !S.phase_apportioned[EAS_PHASE_COMPUTE] && S.phase_apportioned[EAS_PHASE_EXCHANGE], PETSC_COMM_SELF, PETSC_ERR_PLIB, "expected a measured total and compute phase and an apportioned 10 ms exchange (measured %d %d, apportioned %d %d)", (int)S.measured, (int)S.phase_measured[EAS_PHASE_COMPUTE], (int)S.phase_apportioned[EAS_PHASE_COMPUTE], (int)S.phase_apportioned[EAS_PHASE_EXCHANGE]);
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "  meter: compute %g J over %g s, P x W = %g J; total %g J over %g s, P x T = %g J, each with the model's idle CPU and DRAM (%g W); the %g s exchange is apportioned (update period 0.1 s)\n", (double)S.phase_energy[EAS_PHASE_COMPUTE], (double)S.phase_time[EAS_PHASE_COMPUTE], (double)(P * S.phase_time[EAS_PHASE_COMPUTE]), (double)S.energy, (double)S.time, (double)(P * S.time), (double)Pm, (double)S.phase_time[EAS_PHASE_EXCHANGE]));
      CHECK_CLOSE(S.modelled_energy / (Pm * S.time), 1, 1e-9, "the model's part / ((cpu_idle + dram) x T) (CPU and DRAM modelled, no RAPL)");
      CHECK_CLOSE((S.phase_energy[EAS_PHASE_COMPUTE] - Pm * S.phase_time[EAS_PHASE_COMPUTE]) / (P * S.phase_time[EAS_PHASE_COMPUTE]), 1, tol_meter, "measured compute phase (less the model's part) / (P x its wall time)");
      CHECK_CLOSE((S.energy - S.modelled_energy) / (P * S.time), 1, tol_meter, "measured total (less the model's part) / (P x T) (closure)");
      CHECK_CLOSE((PetscReal)S.reads_caller, 0, 0, "sensor reads on the solver's thread");
    }
    PetscCall(EasEnergyMeterDestroy(&m));
  }
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  char      cs[32] = "normal";
  PetscBool isc;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-case", cs, sizeof(cs), NULL));
  PetscCall(PetscOptionsSetValue(NULL, "-eas_rapl_max_power", "2000"));
  PetscCall(PetscStrcmp(cs, "normal", &isc));
  if (isc) PetscCall(CaseNormal());
  PetscCall(PetscStrcmp(cs, "wrap", &isc));
  if (isc) {
    PetscCall(PetscOptionsSetValue(NULL, "-eas_rapl_max_power", "1e6"));
    PetscCall(CaseWrap(PETSC_TRUE));
  }
  PetscCall(PetscStrcmp(cs, "wrap_norange", &isc));
  if (isc) {
    PetscCall(PetscOptionsSetValue(NULL, "-eas_rapl_max_power", "1e6"));
    PetscCall(CaseWrap(PETSC_FALSE));
  }
  PetscCall(PetscStrcmp(cs, "eacces", &isc));
  if (isc) PetscCall(CaseEacces());
  PetscCall(PetscStrcmp(cs, "missing", &isc));
  if (isc) PetscCall(CaseMissing());
  PetscCall(PetscStrcmp(cs, "plausible", &isc));
  if (isc) PetscCall(CasePlausible());
  PetscCall(PetscStrcmp(cs, "nvml_absent", &isc));
  if (isc) PetscCall(CaseNvmlAbsent());
  PetscCall(PetscStrcmp(cs, "trapezoid", &isc));
  if (isc) PetscCall(CaseTrapezoid());
  PetscCall(PetscStrcmp(cs, "nvml_fake", &isc));
  if (isc) {
    char      mode[32] = "energy";
    PetscReal P        = 150;
    PetscCall(PetscOptionsGetString(NULL, NULL, "-fake_mode", mode, sizeof(mode), NULL));
    PetscCall(PetscOptionsGetReal(NULL, NULL, "-fake_power", &P, NULL));
    PetscCheck(P > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-fake_power %g: expected a power > 0 W", (double)P);
    PetscCall(CaseNvmlFake(mode, P));
  }
  PetscCall(PetscStrcmp(cs, "meter", &isc));
  if (isc) { /* -eas_sensor from the command line, report to stdout; -meters <k> meters in turn
                 (the "Disabled" lines are printed by the first only) */
    EasEnergyMeter m;
    PetscInt       u, nmeters = 1;
    PetscCall(PetscOptionsGetInt(NULL, NULL, "-meters", &nmeters, NULL));
    for (PetscInt k = 0; k < nmeters; k++) {
      PetscCall(EasEnergyMeterCreate(PETSC_COMM_WORLD, &m));
      PetscCall(EasEnergyMeterSetFromOptions(m));
      PetscCall(EasEnergyMeterAddUnit(m, "cpu", EAS_UNIT_CPU, &u));
      {
        EasBackend be;
        PetscCall(EasBackendCreate(PETSC_COMM_WORLD, "/cpu/serial", &be));
        PetscCall(EasEnergyMeterSetBackend(m, be)); /* reads wait for the backend */
        PetscCall(EasBackendDestroy(&be));
      }
      PetscCall(EasEnergyMeterStart(m));
      PetscCall(EasEnergyMeterBegin(m, EAS_PHASE_COMPUTE, u));
      PetscCall(PetscSleep(0.01));
      PetscCall(EasEnergyMeterEnd(m, EAS_PHASE_COMPUTE, u, 1000));
      PetscCall(EasEnergyMeterStop(m));
      PetscCall(EasEnergyMeterView(m, PETSC_VIEWER_STDOUT_WORLD));
      PetscCall(EasEnergyMeterDestroy(&m));
    }
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "case %s: %" PetscInt_FMT " checks passed\n", cs, nchecks));
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    suffix: normal
    backends: none
    args: -case normal
    expect: case normal: 2 checks passed
  test:
    suffix: wrap
    backends: none
    args: -case wrap
    expect: case wrap: 3 checks passed
  test:
    suffix: wrap_norange
    backends: none
    args: -case wrap_norange
    expect: dropped samples: 1
    expect: case wrap_norange: 3 checks passed
  test:
    suffix: eacces
    backends: none
    args: -case eacces
    expect: Disabled: .*energy_uj: Is a directory
    expect: Disabled: .*energy_uj: Permission denied
    expect: case eacces: [45] checks passed
  test:
    suffix: missing
    backends: none
    args: -case missing
    expect: partly available
    expect: Disabled: no RAPL package domain
    expect: case missing: 4 checks passed
  test:
    suffix: plausible
    backends: none
    args: -case plausible
    expect: case plausible: 1 checks passed
  test:
    suffix: nvml_absent
    backends: none
    args: -case nvml_absent
    expect: Disabled: cannot load libnvidia-ml-absent-for-test.so.1
    expect: case nvml_absent: 1 checks passed
  test:
    suffix: trapezoid
    backends: none
    args: -case trapezoid
    expect: case trapezoid: 1 checks passed
  test:
    suffix: auto
    nsize: 1 2
    backends: none
    requires: !cuda-device
    args: -case meter -eas_sensor auto -eas_rapl_root /nonexistent/powercap
    expect: ^eas: sensor rapl: Disabled: cannot open /nonexistent/powercap
    expect: ^eas: sensor nvml: Disabled: cannot load libnvidia-ml.so.1
    expect: sensor model, profile default
    expect: ^total .* modelled$
  test:
    suffix: disabled_once
    nsize: 1 2
    backends: none
    requires: !cuda-device
    args: -case meter -meters 3 -eas_sensor auto -eas_rapl_root /nonexistent/powercap
    expect_count: 1 ^eas: sensor rapl: Disabled: cannot open /nonexistent/powercap
    expect_count: 1 ^eas: sensor nvml: Disabled: cannot load libnvidia-ml.so.1
    expect_count: 3 ^eas energy report: .* sensor model, profile default
  test:
    suffix: nvml_fake_energy
    backends: none
    args: -case nvml_fake -fake_mode energy -fake_power 150
    expect: sensor nvml: available \(total energy counter\)
    expect: energy counter difference \(J\) vs P x elapsed
    expect: sensor nvml, profile default
    expect: ^compute .* measured\+modelled$
    expect: ^exchange .* apportioned\+modelled$
    expect: ^total .* measured\+modelled$
    expect: ^source of the energies: measured \(nvml: gpu\) \+ modelled \(cpu, dram: no RAPL\)$
    expect: ^sensor reads: [0-9]+ on the sampler thread\(s\), 0 on the solver's thread
    expect: case nvml_fake: 7 checks passed
  test:
    suffix: nvml_fake_power
    backends: none
    args: -case nvml_fake -fake_mode power -fake_power 87.5
    expect: sensor nvml: available \(power samples, trapezoid rule\)
    expect: trapezoid-integrated energy \(J\) vs P x elapsed
    expect: ^compute .* measured\+modelled$
    expect: ^exchange .* apportioned\+modelled$
    expect: case nvml_fake: 7 checks passed
  test:
    suffix: nvml_fake_initfail
    backends: none
    args: -case nvml_fake -fake_mode initfail
    expect: unavailable as expected: Disabled: nvmlInit failed: Driver Not Loaded
    expect: ^eas: sensor nvml: Disabled: nvmlInit failed: Driver Not Loaded
    expect: case nvml_fake: 2 checks passed
  test:
    suffix: nvml_fake_nodev
    backends: none
    args: -case nvml_fake -fake_mode nodev
    expect: unavailable as expected: Disabled: NVML sees no GPU
    expect: ^eas: sensor nvml: Disabled: NVML sees no GPU
    expect: case nvml_fake: 2 checks passed
  test:
    suffix: nvml_fake_reset
    backends: none
    args: -case nvml_fake -fake_mode reset -eas_sensor_period_ms 5000
    expect: dropped samples after the counter reset: 1 == 1
    expect: interval with the reset: [0-9.e+-]+ J over
    expect: energy counted again after the reset
    expect: case nvml_fake: 4 checks passed
  test:
    suffix: rapl_na
    backends: none
    args: -case meter -eas_sensor rapl -eas_rapl_root /nonexistent/powercap
    expect: ^eas: sensor rapl: Disabled: cannot open
    expect: ^total .*n/a .*n/a .*n/a  n/a$
  test:
    suffix: auto_gpu
    nsize: 1 2
    backends: none
    requires: cuda-device
    args: -case meter -eas_sensor auto -eas_rapl_root /nonexistent/powercap
    expect: ^eas: sensor rapl: Disabled: cannot open /nonexistent/powercap
    expect_count: 0 sensor nvml: Disabled: cannot load libnvidia-ml.so.1
    expect: ^total
TEST*/
