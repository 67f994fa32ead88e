/*
  Private structures of the energy module (sensors, meter, policy).
*/
#pragma once

#include <eas/meter.h>
#include "testing.h" /* the test hooks defined here (sensor.c, meter.c) */
#include <petsc/private/petscimpl.h>
#include <pthread.h>
#include "backends/backend.h" /* EasBackendMark, EasHostClock */

#define EAS_SENSOR_MAX_DOMAINS 16
#define EAS_METER_MAX_UNITS 8
#define EAS_METER_MAX_SENSORS 2
#define EAS_METER_MAX_NOTES 8
#define EAS_METER_MAX_MARKS 1024 /* device marks a meter leaves unresolved at most (then it waits for the oldest) */

/* One energy domain of a sensor.  Written by the sampler thread and by
   EasSensorRead under the sensor's mutex. */
typedef struct {
  char          name[32];
  EasDomainKind kind;
  char          path[PETSC_MAX_PATH_LEN];       /* RAPL: .../energy_uj */
  char          range_path[PETSC_MAX_PATH_LEN]; /* RAPL: .../max_energy_range_uj */
  double        last_raw;                       /* last raw counter (uJ for RAPL, mJ for NVML energy) */
  double        last_t;                         /* time of last_raw (s) */
  double        acc;                            /* accumulated energy since SetUp (J) */
  double        last_P;                         /* NVML power sampling: last power (W) */
  int           have_last;                      /* last_raw/last_P valid */
  void         *dev;                            /* NVML device handle */
  int           use_power;                      /* NVML: integrate power samples */
} EasSensorDomain;

typedef struct _EasSensorOps *EasSensorOps;
struct _EasSensorOps {
  PetscErrorCode (*setup)(EasSensor);
  /* one read of every domain, each stamped with the middle of its library
     call; *t: the middle of the whole poll.  Mutex held; no PETSc calls. */
  void (*poll)(EasSensor, double *t);
  PetscErrorCode (*destroy)(EasSensor);
};

/* Samples kept per sensor: (time, cumulative energy of all domains) pairs,
   oldest overwritten (about 80 s at the default 20 ms). */
#define EAS_SENSOR_RING 4096

struct _p_EasSensor {
  PETSCHEADER(struct _EasSensorOps);
  char            type[16];
  char            rapl_root[PETSC_MAX_PATH_LEN];
  char            nvml_lib[PETSC_MAX_PATH_LEN];
  PetscBool       setup, available;
  char            why[512];
  PetscInt        ndomains;
  EasSensorDomain dom[EAS_SENSOR_MAX_DOMAINS];
  PetscReal       max_power;      /* plausibility bound per domain (W) */
  PetscReal       period_set;     /* -eas_sensor_period_ms (s); 0: the type's default */
  PetscReal       period_max;     /* the type's bound (RAPL: a quarter of the wrap period); 0: none */
  PetscReal       sampler_period; /* s */
  PetscReal       update_period;  /* s */
  PetscInt        dropped;
  int             fault_errno; /* test hook */
  PetscErrorCode (*sync)(void *);
  void *sync_ctx;
  /* sampler thread; mutex: the domains' state, the schedule, the polls */
  pthread_t       thread;
  pthread_mutex_t mutex;
  pthread_cond_t  cond;
  int             thread_running, stop, kick; /* kick: a sample asked for now (EasSensorWaitSample) */
  PetscInt64      reads_sampler, reads_caller; /* polls on the sampler thread, on the caller's (EasSensorRead) */
  /* the samples, published under ring_mutex (taken inside mutex, never the other way) */
  pthread_mutex_t ring_mutex;
  pthread_cond_t  ring_cond;
  PetscLogDouble  ring_t[EAS_SENSOR_RING];
  PetscReal       ring_E[EAS_SENSOR_RING];
  PetscInt64      nsamples; /* published (read without the lock: __atomic) */
  void           *data;     /* type-specific (NVML library) */
};

PETSC_INTERN PetscErrorCode EasSensorSetUp_RAPL(EasSensor);
PETSC_INTERN PetscErrorCode EasSensorSetUp_NVML(EasSensor);
PETSC_INTERN double         EasSensorNow(void);
PETSC_INTERN PetscErrorCode EasSensorStartThread(EasSensor);
/* The type's sampler period: the option's (-eas_sensor_period_ms) or dflt,
   checked against the type's bound s->period_max (RAPL). */
PETSC_INTERN PetscErrorCode EasSensorChoosePeriod(EasSensor, PetscReal dflt);
/* Samples of the sensor from index *next on, at most max, oldest first:
   times (EasHostClock) and cumulative energies (J, all domains); *next
   moves past them.  *lost: samples overwritten before they were read (the
   reader lagged more than EAS_SENSOR_RING samples; the next one then spans
   the gap: cumulative energies lose resolution, not joules). */
PETSC_INTERN PetscErrorCode EasSensorGetSamples(EasSensor, PetscInt64 *next, PetscInt max, PetscLogDouble t[], PetscReal E[], PetscInt *n, PetscInt64 *lost);
/* Index past the newest sample (no lock: for a cheap "anything new?"). */
PETSC_INTERN PetscInt64 EasSensorNumSamples(EasSensor);
/* Waits until a sample at or after time t exists, asking the sampler for
   one at once; *ok = PETSC_FALSE after a timeout of a second (the reads
   hang): the newest sample is then older than t. */
PETSC_INTERN PetscErrorCode EasSensorWaitSample(EasSensor, PetscLogDouble t, PetscBool *ok);
PETSC_INTERN PetscErrorCode EasEnergyInitializePackage(void);
/* energyopts.c: the energy options several objects read, parsed there only */
PETSC_INTERN PetscErrorCode EasCriterionSetFromOptions_Private(PetscOptionItems *, const char manpage[], EasCriterion *, PetscBool *set);
PETSC_INTERN PetscErrorCode EasRaplRootSetFromOptions_Private(PetscOptionItems *, const char manpage[], char root[], size_t len, PetscBool *set);
PETSC_INTERN PetscErrorCode EasEnergyOutputRequested_Private(PetscObject, PetscBool *trace, PetscBool *view);
/* calibrate.c: the keys of the -eas_power_profile file under prefix (*fileopts NULL without one; destroy it) */
PETSC_INTERN PetscErrorCode EasPowerProfileGetFile_Private(MPI_Comm, const char prefix[], PetscOptions *fileopts);
/* Forgets which "Disabled: reason" lines were printed (at PetscFinalize). */
PETSC_INTERN void EasEnergyResetDisabledLines(void);

/* Meter */
typedef struct {
  char           name[32];
  EasUnitKind    kind;
  PetscReal      busy[EAS_NUM_PHASES], work[EAS_NUM_PHASES];
  PetscLogDouble t0[EAS_NUM_PHASES];
  PetscInt       depth[EAS_NUM_PHASES];  /* processed (metertimeline.c) */
  PetscInt       rdepth[EAS_NUM_PHASES]; /* recorded (checked at the calls) */
  PetscReal      weight;                 /* fraction of the node's CPU (GPU) the unit occupies; 0: unset (1/ppn) */
} EasMeterUnit;

/* A boundary the meter recorded (meter.c), processed in time order once its
   time is known (metertimeline.c): a device unit's boundaries are timer
   marks on its backend's queue, resolved at a later natural
   synchronization; the others are the host clock at the call. */
typedef enum {
  EAS_METER_EV_BEGIN,
  EAS_METER_EV_END,
  EAS_METER_EV_START,
  EAS_METER_EV_STOP,
  EAS_METER_EV_RESUME
} EasMeterEventKind;

typedef struct {
  EasBackendMark    mark;
  PetscInt64        seq; /* order of recording (ties) */
  EasMeterEventKind kind;
  EasPhase          phase;
  PetscInt          unit;
  PetscReal         work;
} EasMeterEvent;

/* The apportioning of one sensor's samples (metertimeline.c).  Power is
   taken constant between two consecutive samples; the energy of the
   sampling interval is shared by the time each phase was busy in it
   (units busy in several phases at once: by the number of units in each),
   the time outside every phase going to "unphased" and the time outside
   the running windows to nothing.  So the phases and the unphased row add
   up to the sensor's energy over the running windows. */
#define EAS_METER_TAU_UNPHASED EAS_NUM_PHASES
#define EAS_METER_TAU_OUTSIDE (EAS_NUM_PHASES + 1)
#define EAS_METER_SBUF 64
typedef struct {
  PetscInt64     next;                          /* the sensor's next sample to fetch */
  PetscLogDouble bt[EAS_METER_SBUF];            /* fetched, not yet consumed */
  PetscReal      bE[EAS_METER_SBUF];
  PetscInt       nb, ib;
  PetscBool      have;                          /* a sample consumed */
  PetscLogDouble ts;                            /* the last consumed sample's time */
  PetscReal      Es;                            /* and cumulative energy */
  PetscLogDouble tacc;                          /* tau covers [ts, tacc] */
  PetscReal      tau[EAS_NUM_PHASES + 2];       /* seconds of the open sampling interval: per phase, unphased, outside */
  PetscReal      E[EAS_NUM_PHASES + 1];         /* energy of the running windows per phase and unphased (J) */
  PetscInt64     nsamples, nlost;               /* samples consumed in the running windows, samples overwritten unread */
} EasMeterAcc;

struct _p_EasEnergyMeter {
  PETSCHEADER(int);
  char            sensor_type[16];
  char            rapl_root[PETSC_MAX_PATH_LEN];
  EasPowerProfile prof;
  PetscBool       prof_set, prof_default;
  PetscInt        nunits;
  EasMeterUnit    unit[EAS_METER_MAX_UNITS];
  /* sensors actually used (measured) */
  PetscInt       nsensors;
  EasSensor      sensor[EAS_METER_MAX_SENSORS];
  PetscBool      cover_cpu, cover_gpu; /* measured coverage (every node) */
  PetscBool      na;                   /* explicit sensor absent: energies n/a */
  PetscReal      resolution;           /* max over the sensors used of their sampler and update periods (s) */
  PetscBool      node_leader;          /* this rank reads the node's sensors */
  PetscBool      setup, started, stopped; /* recorded: the calls so far */
  /* the timeline (metertimeline.c): events waiting for their time or their turn */
  EasMeterEvent *ev;
  PetscInt       nev, evcap;
  PetscInt64     seq;
  PetscInt64     nboundaries; /* Begin/End recorded since Start (the report's count) */
  PetscInt       nmarks;  /* unresolved device marks among them */
  PetscLogDouble tproc;   /* processed up to this time */
  PetscBool      running; /* processed: inside a running window */
  PetscInt       cnt[EAS_NUM_PHASES]; /* processed: units busy in each phase */
  EasMeterAcc    acc[EAS_METER_MAX_SENSORS];
  /* processed figures */
  PetscLogDouble tstart, tstop; /* the current (or last) running window */
  PetscReal      elapsed;       /* run time of the closed windows (Stop ... Resume) */
  PetscMPIInt    ppn;
  PetscMPIInt    nnodes; /* nodes of the communicator (cached at Create): the switch power counts when > 1 */ /* ranks on this node (cached at Create) */
  PetscInt       node_cores;                                                                                  /* cores of the node; <= 0: sysconf */
  /* phase wall time: union over units */
  PetscInt       pdepth[EAS_NUM_PHASES];
  PetscLogDouble pt0[EAS_NUM_PHASES];
  PetscReal      pwall[EAS_NUM_PHASES];
  PetscReal      pshort[EAS_NUM_PHASES]; /* wall time in intervals shorter than the resolution (their energy is apportioned) */
  /* union over every phase and unit: the time outside it is the report's "unphased" row */
  PetscInt       adepth;
  PetscLogDouble at0, ut0; /* the union's current interval; the current unphased gap */
  PetscReal      awall, ushort;
  /* trace */
  FILE          *trace;
  char           trace_path[PETSC_MAX_PATH_LEN];
  PetscBool      trace_header, trace_on;
  PetscLogDouble trace_t;
  PetscReal      trace_E, trace_Emodel, trace_Ecomp; /* sensors', model's, the model's part of the uncovered kinds (mixed) */
  /* "Disabled" lines of this meter's sensors, printed at SetUp only when
     energy output was requested or a sensor was named, else at View */
  char     disabled[EAS_METER_MAX_SENSORS][600];
  PetscInt ndisabled;
  /* view */
  PetscViewer       viewer;
  PetscViewerFormat vformat;
  PetscBool         view_set;
  /* clock */
  PetscErrorCode (*now)(void *, PetscLogDouble *);
  void *now_ctx;
  PetscErrorCode (*sync)(void *);
  void      *sync_ctx;
  EasBackend backend; /* reference kept by EasEnergyMeterSetBackend: its timer marks time the GPU units */
  /* report notes (EasEnergyMeterSetNote) */
  PetscInt nnotes;
  char     note_key[EAS_METER_MAX_NOTES][32];
  char     note[EAS_METER_MAX_NOTES][512];
};

/* Meter internals shared by its files: meter.c (the object, its options,
   the timing state machine), metersensors.c (probing and reading the
   sensors, the "Disabled" lines), meteraccount.c (modelled and measured
   energy, the summary, the report's figures), meterview.c (the report:
   table or CSV) and metertrace.c (the CSV trace). */

/* The report's figures gathered over the communicator (meteraccount.c,
   printed by meterview.c). */
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
  char             modelled[16]; /* the kinds the model adds to the sensors: "cpu+dram", "gpu", "cpu+dram+gpu" or "" */
  char             source[160]; /* the total's source in words, e.g. "measured (nvml: gpu) + modelled (cpu, dram: no RAPL)" */
} EasMeterReport;

/* The meter's clock (EasEnergyMeterSetTimeFunction, else EasHostClock). */
PETSC_INTERN PetscErrorCode EasMeterNow(EasEnergyMeter, PetscLogDouble *);
/* The weight of unit u (its default 1/ppn when unset). */
PETSC_INTERN PetscReal EasMeterUnitWeight(EasEnergyMeter, PetscInt);
/* Records a boundary (unit u's device mark for a GPU unit of a meter with a
   device backend, else the clock now) and processes what can be
   (metertimeline.c). */
PETSC_INTERN PetscErrorCode EasMeterRecord(EasEnergyMeter, EasMeterEventKind, EasPhase, PetscInt unit, PetscReal work);
/* Processes the events whose time is known, in time order, and the samples
   up to now; wait: waits for every device mark (Stop, Destroy). */
PETSC_INTERN PetscErrorCode EasMeterFlush(EasEnergyMeter, PetscBool wait);
/* Processes the events pending, if any (no clock reading otherwise). */
PETSC_INTERN PetscErrorCode EasMeterFlushEvents(EasEnergyMeter);
/* This rank's sensors' energy (node leaders; 0 elsewhere) per phase and
   unphased ([EAS_NUM_PHASES]) over the running windows up to now (or the
   last Stop): asks the samplers for the sample that closes it. */
PETSC_INTERN PetscErrorCode EasMeterSensorEnergy(EasEnergyMeter, PetscReal E[EAS_NUM_PHASES + 1]);
/* Prints the meter's pending "Disabled" lines and forgets them. */
PETSC_INTERN PetscErrorCode EasMeterFlushDisabled(EasEnergyMeter);
/* The complement profile of a meter whose sensors cover only some kinds: the
   profile with the covered kinds' powers zeroed (RAPL: cpu_idle, cpu_full,
   dram; NVML, or no GPU unit on any rank: gpu_idle, gpu_full); mcpu, mgpu:
   the kinds left to the model (both false without sensors or with both
   kinds covered).  Collective. */
PETSC_INTERN PetscErrorCode EasMeterComplementProfile(EasEnergyMeter, EasPowerProfile *, PetscBool *mcpu, PetscBool *mgpu);
/* This rank's model energy so far (Vialle et al. eq. 1.16) of the kinds no
   sensor covers; *mixed: there are such kinds (else *E = 0).  Collective. */
PETSC_INTERN PetscErrorCode EasMeterComplementEnergy(EasEnergyMeter, PetscBool *mixed, PetscReal *E);
/* The report's figures gathered over the communicator (collective). */
PETSC_INTERN PetscErrorCode EasMeterGatherReport(EasEnergyMeter, EasMeterReport *);
