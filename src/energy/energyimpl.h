/*
  Private structures of the energy module (sensors, meter, policy).
*/
#pragma once

#include <eas/meter.h>
#include "testing.h" /* the test hooks defined here (sensor.c, meter.c) */
#include <petsc/private/petscimpl.h>
#include <pthread.h>

#define EAS_SENSOR_MAX_DOMAINS 16
#define EAS_METER_MAX_UNITS 8
#define EAS_METER_MAX_SENSORS 2
#define EAS_METER_MAX_NOTES 8

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
  int (*poll)(EasSensor, double now); /* sampler thread and Read, mutex held; no PETSc calls */
  PetscErrorCode (*destroy)(EasSensor);
};

struct _p_EasSensor {
  PETSCHEADER(struct _EasSensorOps);
  char            type[16];
  char            rapl_root[PETSC_MAX_PATH_LEN];
  char            nvml_lib[PETSC_MAX_PATH_LEN];
  PetscBool       setup, available;
  char            why[512];
  PetscInt        ndomains;
  EasSensorDomain dom[EAS_SENSOR_MAX_DOMAINS];
  PetscReal       max_power; /* plausibility bound per domain (W) */
  PetscReal       poll_max;  /* sampler period upper bound (s) */
  PetscReal       sampler_period;
  PetscReal       update_period; /* s */
  PetscInt        dropped;
  int             fault_errno; /* test hook */
  PetscErrorCode (*sync)(void *);
  void *sync_ctx;
  /* sampler thread */
  pthread_t       thread;
  pthread_mutex_t mutex;
  pthread_cond_t  cond;
  int             thread_running, stop;
  void           *data; /* type-specific (NVML library) */
};

PETSC_INTERN PetscErrorCode EasSensorSetUp_RAPL(EasSensor);
PETSC_INTERN PetscErrorCode EasSensorSetUp_NVML(EasSensor);
PETSC_INTERN double         EasSensorNow(void);
PETSC_INTERN PetscErrorCode EasSensorStartThread(EasSensor);
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
  PetscInt       depth[EAS_NUM_PHASES];
  PetscReal      weight; /* fraction of the node's CPU (GPU) the unit occupies; 0: unset (1/ppn) */
} EasMeterUnit;

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
  PetscBool      cover_cpu, cover_gpu; /* measured coverage */
  PetscBool      na;                   /* explicit sensor absent: energies n/a */
  PetscReal      update_period;        /* max over the sensors used */
  PetscBool      node_leader;          /* this rank reads the node's sensors */
  PetscBool      setup, started, stopped;
  PetscLogDouble tstart, tstop; /* the current (or last) running window */
  PetscReal      elapsed;       /* run time of the closed windows (Stop ... Resume) */
  PetscReal      Eacc;          /* measured energy of the closed windows */
  PetscMPIInt    ppn;
  PetscMPIInt    nnodes; /* nodes of the communicator (cached at Create): the switch power counts when > 1 */ /* ranks on this node (cached at Create) */
  PetscInt       node_cores;                                                                                  /* cores of the node; <= 0: sysconf */
  /* phase wall time: union over units */
  PetscInt       pdepth[EAS_NUM_PHASES];
  PetscLogDouble pt0[EAS_NUM_PHASES];
  PetscReal      pwall[EAS_NUM_PHASES];
  PetscReal      pE0[EAS_NUM_PHASES];      /* measured energy at the phase's outer Begin */
  PetscReal      pmeasE[EAS_NUM_PHASES];   /* claimed measured energy */
  PetscReal      pclaimed[EAS_NUM_PHASES]; /* wall time of the claimed intervals */
  /* union over every phase and unit: the time outside it is the report's "unphased" row */
  PetscInt       adepth;
  PetscLogDouble at0;
  PetscReal      awall;
  PetscReal      Estart; /* measured energy at Start */
  PetscReal      Estop;
  /* trace */
  FILE          *trace;
  char           trace_path[PETSC_MAX_PATH_LEN];
  PetscBool      trace_header, trace_on;
  PetscLogDouble trace_t;
  PetscReal      trace_E, trace_Emodel;
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
  EasBackend backend; /* reference kept by EasEnergyMeterSetBackend */
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
} EasMeterReport;

/* The meter's clock (EasEnergyMeterSetTimeFunction, else PetscTime). */
PETSC_INTERN PetscErrorCode EasMeterNow(EasEnergyMeter, PetscLogDouble *);
/* The weight of unit u (its default 1/ppn when unset). */
PETSC_INTERN PetscReal EasMeterUnitWeight(EasEnergyMeter, PetscInt);
/* Sum of all measured domains of this rank's sensors (node leaders; 0 elsewhere). */
PETSC_INTERN PetscErrorCode EasMeterReadSensors(EasEnergyMeter, PetscReal *);
/* Prints the meter's pending "Disabled" lines and forgets them. */
PETSC_INTERN PetscErrorCode EasMeterFlushDisabled(EasEnergyMeter);
/* The report's figures gathered over the communicator (collective). */
PETSC_INTERN PetscErrorCode EasMeterGatherReport(EasEnergyMeter, EasMeterReport *);
