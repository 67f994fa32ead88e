#pragma once
/*
  eas/meter.h - energy sensors, the energy meter and report, the power
  profile and the automatic backend choice (docs/energy.md).

  Sensors
    EasSensor reads cumulative energies of hardware domains:
      "rapl"  Linux powercap (package and dram domains; wraparound through
              max_energy_range_uj; -eas_rapl_root for a fake tree in tests);
      "nvml"  NVIDIA NVML loaded with dlopen("libnvidia-ml.so.1"): total energy
              counter when the device has one, else power samples integrated
              by the trapezoid rule (Vialle et al. sec. 1.4.1).
    A sampler thread owns each sensor: every sampler period (-eas_sensor_period_ms:
    20 ms for NVML, 10 ms for RAPL and at least 4 polls per wrap period) it
    reads every domain and keeps a sample (time, cumulative energy).  The
    meter integrates those samples over its phases; it never reads a sensor
    in the caller's thread (issue 20: an NVML read takes milliseconds).
    A sensor that cannot be used is not an error: EasSensorSetUp() leaves it
    unavailable with a one-line reason (EasSensorIsAvailable), as PAPI prints
    "Disabled: reason"; a meter prints each distinct such line once per
    process (the first meter that meets it).  The "model" energy is computed by the meter from the
    power profile and the measured busy times (Vialle et al. eqs. 1.16, 1.33).

  Meter (EasEnergyMeter)
    Time per phase (setup, compute, exchange, transfers) and per unit, busy
    fraction beta, energy (measured where a sensor covers it, modelled
    otherwise, each figure labelled), average power and EDP.
    A solver wires it like this (all calls are cheap no-ops on a NULL meter):
        EasEnergyMeterCreate(comm, &m); EasEnergyMeterSetFromOptions(m);
        EasEnergyMeterAddUnit(m, "cpu", EAS_UNIT_CPU, &ucpu);
        EasEnergyMeterStart(m);
        EasEnergyMeterBegin(m, EAS_PHASE_SETUP, ucpu); ... End(m, EAS_PHASE_SETUP, ucpu, 0);
        per iteration:
          EasEnergyMeterBegin(m, EAS_PHASE_COMPUTE, ucpu); matvec...;
          EasEnergyMeterEnd(m, EAS_PHASE_COMPUTE, ucpu, nelements_done);
          EasEnergyMeterBegin(m, EAS_PHASE_EXCHANGE, ucpu); MPI...; End(...)
          EasEnergyTraceRow(m, it, nunits, shares, t_el, Tpred, Epred);
        EasEnergyMeterStop(m); EasEnergyMeterViewFromOptions(m); Destroy(&m).
    Stop ... Resume pauses the meter (e.g. between solves): T and the busy
    times count only the running windows.
    Units and weights: a unit's weight w in (0,1] is the fraction of its
    node's CPU (CPU unit: threads / cores) or GPU it occupies; the modelled
    busy fraction of a kind is beta = sum_u w_u busy_u / T (Vialle et al. eq.
    1.16 with the units' P_C scaled by their share), and each rank pays
    1/ppn of the node's idle power.  Unset weights are 1/ppn (the unit is
    its rank's whole share of the node).
*/
#include <petscsys.h>
#include <petscviewer.h>
#include <eas/backend.h> /* EasEnergyMeterSetBackend */
#include <eas/energy.h>

/* ============================================================ sensors */

typedef struct _p_EasSensor *EasSensor;
PETSC_EXTERN PetscClassId    EAS_SENSOR_CLASSID;

typedef const char *EasSensorType;
#define EAS_SENSOR_RAPL "rapl"
#define EAS_SENSOR_NVML "nvml"

/* Kinds of energy domains a sensor reports. */
typedef enum {
  EAS_DOMAIN_PACKAGE, /* CPU package (RAPL) */
  EAS_DOMAIN_DRAM,    /* DRAM (RAPL) */
  EAS_DOMAIN_GPU      /* one GPU board (NVML) */
} EasDomainKind;

/* EasSensorCreate - a sensor on comm (its type is set with EasSensorSetType). */
PETSC_EXTERN PetscErrorCode EasSensorCreate(MPI_Comm, EasSensor *);
/* EasSensorSetType - "rapl" or "nvml".  Errors: any other name. */
PETSC_EXTERN PetscErrorCode EasSensorSetType(EasSensor, EasSensorType);
/* EasSensorGetType - the sensor's type ("rapl" or "nvml"; NULL before
   EasSensorSetType). */
PETSC_EXTERN PetscErrorCode EasSensorGetType(EasSensor, EasSensorType *);
/* EasSensorSetRaplRoot - powercap root directory (default /sys/class/powercap). */
PETSC_EXTERN PetscErrorCode EasSensorSetRaplRoot(EasSensor, const char root[]);
/* EasSensorSetNvmlLibrary - the NVML library name (default libnvidia-ml.so.1). */
PETSC_EXTERN PetscErrorCode EasSensorSetNvmlLibrary(EasSensor, const char lib[]);
/* EasSensorSetSynchronize - a callback run before every read (e.g. waiting
   for the caller's CUDA stream, so the energy read covers the queued work);
   EasSensorSetBackend is the same with EasBackendSynchronize. */
PETSC_EXTERN PetscErrorCode EasSensorSetSynchronize(EasSensor, PetscErrorCode (*)(void *), void *);
/* EasSensorSetFromOptions - -eas_rapl_root <dir>, -eas_rapl_max_power <W>
   (plausibility bound per domain, default 2000), -eas_sensor_period_ms <ms>
   (EasSensorSetSamplerPeriod), -eas_nvml_library <name>. */
PETSC_EXTERN PetscErrorCode EasSensorSetFromOptions(EasSensor);
/* EasSensorSetSamplerPeriod - the sampler thread's period in seconds
   (PETSC_DECIDE: 20 ms for NVML, 10 ms for RAPL): one read per period, the
   meter's resolution in time (docs/energy.md).  Errors: outside [0.1 ms,
   60 s]; at SetUp, a RAPL period above a quarter of the wrap period. */
PETSC_EXTERN PetscErrorCode EasSensorSetSamplerPeriod(EasSensor, PetscReal period);
/* EasSensorSetUp - probes the hardware and starts the sampler thread.
   An absent or unreadable sensor is NOT an error: the sensor is marked
   unavailable with a reason (EasSensorIsAvailable). */
PETSC_EXTERN PetscErrorCode EasSensorSetUp(EasSensor);
/* EasSensorIsAvailable - whether the sensor reads energies; why (may be
   NULL) points to a one-line reason owned by the sensor. */
PETSC_EXTERN PetscErrorCode EasSensorIsAvailable(EasSensor, PetscBool *, const char *why[]);
/* EasSensorGetNumDomains, EasSensorGetDomain - the domains read (name like
   "package-0", "dram-0", "gpu-0", and kind). */
PETSC_EXTERN PetscErrorCode EasSensorGetNumDomains(EasSensor, PetscInt *);
PETSC_EXTERN PetscErrorCode EasSensorGetDomain(EasSensor, PetscInt, const char *name[], EasDomainKind *);
/* EasSensorRead - polls now, in the caller's thread (after the synchronize
   callback), and returns the energy accumulated per domain since SetUp (J;
   ndomains entries) and the time of the read (s, CLOCK_MONOTONIC: the
   middle of the library call).  A domain whose sample had to be dropped
   keeps its previous value (never a negative or implausible increment).
   The meter does not call it (it reads the sampler's samples). */
PETSC_EXTERN PetscErrorCode EasSensorRead(EasSensor, PetscLogDouble *t, PetscReal E[]);
/* EasSensorGetReadCounts - polls of the hardware so far on the caller's
   thread (EasSensorRead) and on the sampler thread (either may be NULL). */
PETSC_EXTERN PetscErrorCode EasSensorGetReadCounts(EasSensor, PetscInt *caller, PetscInt *sampler);
/* EasSensorGetUpdatePeriod - the sensor's update period (s): energy of a
   shorter interval is not claimed as measured. */
PETSC_EXTERN PetscErrorCode EasSensorGetUpdatePeriod(EasSensor, PetscReal *);
/* EasSensorGetSamplerPeriod - the sampler thread's polling period (s). */
PETSC_EXTERN PetscErrorCode EasSensorGetSamplerPeriod(EasSensor, PetscReal *);
/* EasSensorGetDroppedSamples - samples dropped (wrap without a readable
   max_energy_range_uj, implausible increments, read errors). */
PETSC_EXTERN PetscErrorCode EasSensorGetDroppedSamples(EasSensor, PetscInt *);
/* EasSensorView - the type, state (available or why not), domains and
   periods. */
PETSC_EXTERN PetscErrorCode EasSensorView(EasSensor, PetscViewer);
/* EasSensorDestroy - stops the sampler thread and frees the sensor. */
PETSC_EXTERN PetscErrorCode EasSensorDestroy(EasSensor *);

/* EasEnergyTrapezoid - energy of n >= 1 power samples P[i] (W) at increasing
   times t[i] (s), trapezoid rule (Vialle et al. sec. 1.4.1):
   E = sum_i (t[i+1]-t[i]) (P[i]+P[i+1])/2.  Errors: n <= 0, decreasing
   times, negative power. */
PETSC_EXTERN PetscErrorCode EasEnergyTrapezoid(PetscInt n, const PetscReal t[], const PetscReal P[], PetscReal *E);
/* EasTrapezoid: the name before 0.2 of EasEnergyTrapezoid (deprecated since
   0.2; removed in 0.3). */
#define EasTrapezoid(...) PETSC_DEPRECATED_MACRO("GCC warning \"Use EasEnergyTrapezoid() (deprecated since 0.2; removed in 0.3)\"") EasEnergyTrapezoid(__VA_ARGS__)

/* ============================================================ profile */

/* EasPowerProfileGetFromOptions - the node's power profile from the
   -eas_power_* keys (docs/energy.md, docs/options.md): -eas_power_cpu_idle,
   -eas_power_cpu_full, -eas_power_gpu_idle, -eas_power_gpu_full,
   -eas_power_dram, -eas_power_switch (W).  Each key takes one value or a
   comma-separated list with one value per node (heterogeneous clusters);
   node is this process's node index (EasGetNodeIndex).  A key that is
   absent keeps the built-in default (share/eas/default_profile.opts).
   -eas_power_profile <file> inserts a profile file first.
   Output: prof, and from_defaults (may be NULL) = PETSC_TRUE when no key
   was given.  Errors: negative value, full < idle, a list shorter than the
   number of nodes. */
PETSC_EXTERN PetscErrorCode EasPowerProfileGetFromOptions(MPI_Comm, const char prefix[], PetscInt node, PetscInt nnodes, EasPowerProfile *prof, PetscBool *from_defaults);
/* EasPowerProfileDefault - the built-in default profile (same values as
   share/eas/default_profile.opts). */
PETSC_EXTERN PetscErrorCode EasPowerProfileDefault(EasPowerProfile *);
/* EasPowerProfileWrite - writes prof as a PETSc options file, with comment
   lines (may be NULL) at the top. */
PETSC_EXTERN PetscErrorCode EasPowerProfileWrite(const EasPowerProfile *, const char comment[], FILE *);
/* EasGetNodeIndex - index of this process's shared-memory node among the
   nodes of comm, and the number of nodes. */
PETSC_EXTERN PetscErrorCode EasGetNodeIndex(MPI_Comm, PetscInt *node, PetscInt *nnodes);

/* ============================================================ meter */

typedef struct _p_EasEnergyMeter *EasEnergyMeter;
PETSC_EXTERN PetscClassId         EAS_METER_CLASSID;

typedef enum {
  EAS_PHASE_SETUP,
  EAS_PHASE_COMPUTE,
  EAS_PHASE_EXCHANGE,
  EAS_PHASE_TRANSFER,
  EAS_NUM_PHASES
} EasPhase;
PETSC_EXTERN const char *const EasPhases[];

typedef enum {
  EAS_UNIT_CPU,
  EAS_UNIT_GPU
} EasUnitKind;

/* EasEnergyMeterCreate - a meter on comm (collective). */
PETSC_EXTERN PetscErrorCode EasEnergyMeterCreate(MPI_Comm, EasEnergyMeter *);
/* EasEnergyMeterSetOptionsPrefix - prefix of the meter's options
   (-<prefix>eas_sensor, ...). */
PETSC_EXTERN PetscErrorCode EasEnergyMeterSetOptionsPrefix(EasEnergyMeter, const char[]);
/* EasEnergyMeterSetFromOptions - -eas_sensor auto|rapl|nvml|model (default
   auto), -eas_rapl_root, the profile keys (EasPowerProfileGetFromOptions),
   -eas_energy_view [:file[:format]], -eas_trace <file.csv> and
   -eas_node_cores <n>. */
PETSC_EXTERN PetscErrorCode EasEnergyMeterSetFromOptions(EasEnergyMeter);
/* EasEnergyMeterSetSensorType - "auto", "rapl", "nvml" or "model". */
PETSC_EXTERN PetscErrorCode EasEnergyMeterSetSensorType(EasEnergyMeter, const char[]);
/* EasEnergyMeterSetProfile - the power profile of the model (default:
   from options, else the built-in default). */
PETSC_EXTERN PetscErrorCode EasEnergyMeterSetProfile(EasEnergyMeter, const EasPowerProfile *);
/* EasEnergyMeterGetProfile - the power profile of the model in use (a copy).
   */
PETSC_EXTERN PetscErrorCode EasEnergyMeterGetProfile(EasEnergyMeter, EasPowerProfile *);
/* EasEnergyMeterSetSynchronize - callback run at Stop, so that the running
   window covers the caller's queued work (e.g. a wrapper of
   EasBackendSynchronize). */
PETSC_EXTERN PetscErrorCode EasEnergyMeterSetSynchronize(EasEnergyMeter, PetscErrorCode (*)(void *), void *);
/* EasEnergyMeterSetBackend - the same with EasBackendSynchronize(be), and
   the GPU units' boundaries become timer marks on be's queue (resolved
   later, never waited for; the meter keeps a reference to be). */
PETSC_EXTERN PetscErrorCode EasEnergyMeterSetBackend(EasEnergyMeter, EasBackend);
/* EasEnergyMeterAddUnit - registers a compute unit ("cpu", "gpu0", ...);
   returns its index.  At most 8 units. */
PETSC_EXTERN PetscErrorCode EasEnergyMeterAddUnit(EasEnergyMeter, const char name[], EasUnitKind, PetscInt *unit);
/* EasEnergyMeterGetNumUnits - the number of registered units. */
PETSC_EXTERN PetscErrorCode EasEnergyMeterGetNumUnits(EasEnergyMeter, PetscInt *n);
/* EasEnergyMeterGetUnitInfo - name and kind of a registered unit (either may be NULL). */
PETSC_EXTERN PetscErrorCode EasEnergyMeterGetUnitInfo(EasEnergyMeter, PetscInt unit, const char *name[], EasUnitKind *kind);
/* EasEnergyMeterSetUnitWeight - unit's weight w: the fraction of its
   node's CPU (CPU unit) or GPU (GPU unit) it occupies, e.g. threads/cores.
   Errors: unit not registered; w outside (0,1] (the message names w). */
PETSC_EXTERN PetscErrorCode EasEnergyMeterSetUnitWeight(EasEnergyMeter, PetscInt unit, PetscReal w);
/* EasEnergyMeterGetUnitWeight - unit's weight (1/ppn when never set). */
PETSC_EXTERN PetscErrorCode EasEnergyMeterGetUnitWeight(EasEnergyMeter, PetscInt unit, PetscReal *w);
/* EasEnergyMeterSetNodeCores - cores per node used by
   EasEnergyMeterSetUnitWeightsFromThreads (-eas_node_cores; PETSC_DECIDE:
   the online processors of this node).  Errors: cores < 1. */
PETSC_EXTERN PetscErrorCode EasEnergyMeterSetNodeCores(EasEnergyMeter, PetscInt cores);
/* EasEnergyMeterSetUnitWeightsFromThreads - collective: sets the weight of
   every registered unit from threads[u] (one entry per unit: the threads
   of a CPU unit, any value > 0 for a GPU unit; 0 leaves the unit's weight
   alone and does not count it).  CPU unit: threads[u] / max(C, T_node), C = cores of the
   node, T_node = threads of all the CPU units of the node's ranks (an
   oversubscribed node gives each thread its fair share, the weights of the
   node then sum to 1).  GPU unit: 1 / (GPU units of the node's ranks): they
   share the node's GPU (eas uses device 0; the profile's gpu powers are one
   GPU's).  Errors: threads[u] < 0. */
PETSC_EXTERN PetscErrorCode EasEnergyMeterSetUnitWeightsFromThreads(EasEnergyMeter, const PetscInt threads[]);
/* EasEnergyMeterSetUp - probes the sensors (one line per absent sensor,
   each distinct line once per process). */
PETSC_EXTERN PetscErrorCode EasEnergyMeterSetUp(EasEnergyMeter);
/* EasEnergyMeterStart, EasEnergyMeterStop, EasEnergyMeterResume - the
   metered run.  Start begins a
   new run (every figure from zero); Stop closes the running window (a
   second Stop is a no-op); Resume opens a new window after Stop, figures
   accumulating on the previous ones (Start when never started, no-op while
   running).  T is the sum of the windows; Begin/End time outside them is
   not counted (a phase open at Stop counts up to Stop and again from
   Resume).  Errors: Stop before Start. */
PETSC_EXTERN PetscErrorCode EasEnergyMeterStart(EasEnergyMeter);
PETSC_EXTERN PetscErrorCode EasEnergyMeterStop(EasEnergyMeter);
PETSC_EXTERN PetscErrorCode EasEnergyMeterResume(EasEnergyMeter);
/* EasEnergyMeterBegin, EasEnergyMeterEnd - unit is busy in phase between
   the calls; work = elements (or rows) processed, for per-element times.  Phases of
   different units may overlap (hybrid runs); a phase's wall time counts
   the union.  The calls record a time and nothing else: the host clock, or
   for a GPU unit a timer mark on the meter's backend (EasEnergyMeterSetBackend),
   resolved at a later natural synchronization; no sensor read, no device
   synchronization.  Measured energy: each sampling interval's energy is
   apportioned to the phases by their busy time in it (docs/energy.md). */
PETSC_EXTERN PetscErrorCode EasEnergyMeterBegin(EasEnergyMeter, EasPhase, PetscInt unit);
PETSC_EXTERN PetscErrorCode EasEnergyMeterEnd(EasEnergyMeter, EasPhase, PetscInt unit, PetscReal work);
/* EasEnergyMeterGetPhase - this rank's totals of one phase and unit (unit
   -1: all units): busy time (s), work, and per-element time (busy/work, 0
   when no work). */
PETSC_EXTERN PetscErrorCode EasEnergyMeterGetPhase(EasEnergyMeter, EasPhase, PetscInt unit, PetscReal *busy, PetscReal *work, PetscReal *t_el);

/* EasEnergyMeterGetPhaseWall - this rank's wall time of a phase so far
   (the union of its units' busy intervals; concurrent units count once). */
PETSC_EXTERN PetscErrorCode EasEnergyMeterGetPhaseWall(EasEnergyMeter, EasPhase, PetscReal *wall);

/* Summary of a metered run, global over the communicator (figures summed
   over ranks/nodes for energy, max over ranks for times). */
typedef struct {
  PetscReal time;                           /* T (s) */
  PetscReal phase_time[EAS_NUM_PHASES];     /* wall time of each phase (s) */
  PetscReal phase_energy[EAS_NUM_PHASES];   /* J */
  PetscBool phase_measured[EAS_NUM_PHASES]; /* from the sensors' samples */
  PetscBool phase_apportioned[EAS_NUM_PHASES]; /* measured, but over 1% of the phase's time was in intervals shorter
                                                   than the resolution: its energy is its time's share of sampling intervals */
  PetscReal other_time;   /* "unphased": run time outside every phase, no unit busy (s, max over ranks) */
  PetscReal other_energy; /* its energy: modelled, the idle power P_I over that time; measured, the sensors' energy apportioned to it (J) */
  PetscBool other_measured, other_apportioned;
  PetscReal energy;        /* total, J; measured: the sum of the rows (phases and unphased), the sensors' energy over the running windows */
  PetscBool measured;      /* total from sensors (all of it, or with modelled_cpu/modelled_gpu the kinds they cover) */
  PetscBool apportioned;   /* measured, T shorter than the resolution */
  PetscReal resolution;    /* the sensors' resolution in time: the longest sampler or update period (s; 0: modelled) */
  PetscInt  reads_caller;  /* sensor reads on the solvers' threads (EasSensorRead; the meter makes none), summed over the node leaders */
  PetscInt  reads_sampler; /* sensor reads on the sampler threads, summed over the node leaders */
  PetscInt  boundaries;    /* Begin/End calls since Start (max over ranks): what reads at the boundaries would have cost */
  PetscBool valid;         /* PETSC_FALSE: n/a (explicit sensor absent) */
  PetscReal model_energy;  /* the model's total (Vialle et al. eq. 1.16, plus the switch), J */
  PetscReal switch_energy; /* the network switch, P_sw T when the run spans > 1 node (Vialle et al. eq. 1.34; modelled, in the total unless measured), J */
  PetscReal power, edp;    /* average power (W) and E*T (J s) */
  /* Sensors covering only some kinds (measured true): the energies of the others are the model's (Vialle et al.
     eq. 1.16 with the covered kinds' powers zeroed), added to every row and to the total (docs/energy.md, "Mixed") */
  PetscBool modelled_cpu;    /* CPU package and DRAM modelled: no RAPL (a CPU always exists) */
  PetscBool modelled_gpu;    /* GPU modelled: a GPU unit registered, no NVML */
  PetscReal modelled_energy; /* the model's part of energy (J): 0 unless modelled_cpu or modelled_gpu */
} EasEnergySummary;

/* EasEnergySummaryGetSource - the label of the summary's total: "n/a",
   "modelled", "measured" or "measured+modelled" (sensors cover some kinds,
   the model the others: modelled_cpu, modelled_gpu). */
PETSC_EXTERN PetscErrorCode EasEnergySummaryGetSource(const EasEnergySummary *, const char *label[]);

/* EasEnergyMeterGetSummary - the run's figures (collective). */
PETSC_EXTERN PetscErrorCode EasEnergyMeterGetSummary(EasEnergyMeter, EasEnergySummary *);
/* EasEnergyMeterGetModelEnergy - modelled energy of this rank's node share
   from the profile and the weighted busy times (Vialle et al. eq. 1.16; eq. 1.33
   for one unit; EasModelProfileShareEnergy with idle share 1/ppn) over the
   running windows so far (not collective). */
PETSC_EXTERN PetscErrorCode EasEnergyMeterGetModelEnergy(EasEnergyMeter, PetscReal *E);
/* EasEnergyMeterView - the report table (collective); ASCII viewers only. */
PETSC_EXTERN PetscErrorCode EasEnergyMeterView(EasEnergyMeter, PetscViewer);
/* EasEnergyMeterSetNote - a line printed at the end of the report (e.g. a
   policy's predicted and measured saving), under key: a later note with
   the same key replaces it, a NULL line removes it.  At most 8 notes. */
PETSC_EXTERN PetscErrorCode EasEnergyMeterSetNote(EasEnergyMeter, const char key[], const char line[]);
/* EasEnergyMeterViewFromOptions - the report if -eas_energy_view was given. */
PETSC_EXTERN PetscErrorCode EasEnergyMeterViewFromOptions(EasEnergyMeter);
/* EasEnergyMeterSetTrace - opens a CSV trace (rank 0 writes; NULL closes). */
PETSC_EXTERN PetscErrorCode EasEnergyMeterSetTrace(EasEnergyMeter, const char path[]);
/* EasEnergyMeterGetTrace - the trace file (-eas_trace), NULL when none. */
PETSC_EXTERN PetscErrorCode EasEnergyMeterGetTrace(EasEnergyMeter, const char *path[]);
/* EasEnergyTraceRow - one trace row for iteration it: nunits shares
   (elements or rows per unit) and per-element times t_el (s), the predicted
   time and energy of the iteration (NaN or < 0 when none); the measured time
   and energy since the previous row (or Start) are added by the meter
   (energy measured when sensors cover it, plus the model of the kinds they
   do not cover, else modelled; column source: measured, measured+modelled
   or modelled).
   No-op without a trace. */
PETSC_EXTERN PetscErrorCode EasEnergyTraceRow(EasEnergyMeter, PetscInt it, PetscInt nunits, const PetscReal shares[], const PetscReal t_el[], PetscReal Tpred, PetscReal Epred);
/* EasEnergyMeterDestroy - stops the sensors, closes the trace and frees the
   meter. */
PETSC_EXTERN PetscErrorCode EasEnergyMeterDestroy(EasEnergyMeter *);
