/*
  Private structures of the energy policies (include/eas/policy.h): the
  backend choice, DVFS by EPSA, the power budget, and the sysfs access
  (cpufreq and powercap) with its restore registry.
*/
#pragma once

#include <eas/policy.h>
#include "../energy/energyimpl.h" /* the energy options several objects read (-eas_criterion, -eas_rapl_root, the profile file) */
#include <petsc/private/petscimpl.h>

PETSC_INTERN PetscLogEvent EAS_PolicyChoose, EAS_DvfsDecide, EAS_PowerBudgetDecide;

/* -eas_backend auto (resolve.c): the resolver the package registers with
   the backend registry (EasBackendAutoResolver, src/backends/backend.h). */
PETSC_INTERN PetscErrorCode EasPolicyResolveBackend_Private(PetscObject obj, MPI_Comm comm, EasBackend *be);
/* What the online EBE choices of this process measured (attach.c writes,
   resolve.c reads): per-element times of the CPU [0] and the device [1]
   (<= 0: none), the iterations and global elements of the last solve; a
   later operator's choice starts from them. */
typedef struct {
  PetscReal t_el[2];
  PetscReal its, nglobal;
} EasPolicyEbeMemory;
PETSC_INTERN EasPolicyEbeMemory eas_policy_ebe_memory;
/* EasPolicyChooseEbe_Private - chooses for the operator and creates its
   backend on comm in *be (the hybrid: /cpu, with the split units set on
   ebe); EasPolicyConfigureEbe sets it on the operator. */
PETSC_INTERN PetscErrorCode EasPolicyChooseEbe_Private(EasPolicy, EasEbe, MPI_Comm, EasBackend *);

/* Backend choice */
struct _p_EasPolicy {
  PETSCHEADER(int);
  EasCriterion        crit;
  EasWorkload         workload;
  EasPolicyInput      in;
  EasPolicyPrediction pred;
  PetscBool           decided, work_set, have_pred, gpu_forced;
  char                device[64]; /* the device candidate's resource */
  const char         *gpu_why;
  char                resource[64]; /* the latest answer */
  char                explanation[1024];
  PetscInt            ndecisions, nupdates, nchanges;
  PetscReal           Tmeas, Emeas;
  PetscBool           have_meas, Emeasured;
  const char         *Esource; /* the label of Emeas: measured, modelled or measured+modelled (a static string) */
};

/* DVFS */
#define EAS_DVFS_MAX_FREQS 64
struct _p_EasDvfs {
  PETSCHEADER(int);
  EasDvfsMode     mode;
  char            root[PETSC_MAX_PATH_LEN];
  PetscInt        nfreq;
  PetscReal       freq[EAS_DVFS_MAX_FREQS]; /* kHz, as given or read */
  PetscBool       freq_set, powers_set;
  PetscReal       Pdyn, Pstatic;
  PetscInt        warmup;
  EasDvfsDecision dec;
  PetscInt        owner; /* sysfs registry owner id */
  PetscReal       windows, Ebefore, Eafter;
  PetscBool       Emeasured, have_saving;
  char            saving[512];
  char            window[32]; /* "iteration" (EBE) or "step" (ADR): the measured window */
};

/* Power budget */
struct _p_EasPowerBudget {
  PETSCHEADER(int);
  PetscReal              budget; /* W, 0: off */
  PetscReal              alpha[2];
  PetscBool              apply;
  char                   rapl_root[PETSC_MAX_PATH_LEN];
  char                   cpufreq_root[PETSC_MAX_PATH_LEN];
  PetscInt               nfreq;
  PetscReal              freq[EAS_DVFS_MAX_FREQS]; /* kHz */
  EasPowerBudgetDecision dec;
  PetscInt               owner;
};

/* ---------------------------------------------------------------- sysfs */

/* EasSysfsRead - the first line of a file (trailing newline removed);
 *ok false when it cannot be read (not an error). */
PETSC_INTERN PetscErrorCode EasSysfsRead(const char path[], char buf[], size_t len, PetscBool *ok);
/* EasSysfsWritable - whether path exists, has a write permission bit (a
   sysfs attribute without a store method is 0444, even for root) and opens
   for writing; why (may be NULL) receives the reason when not. */
PETSC_INTERN PetscErrorCode EasSysfsWritable(const char path[], PetscBool *writable, char why[], size_t len);
/* EasSysfsWrite - saves the file's current content in the restore registry
   under owner (only the first time the path is saved: the original value
   wins), then writes value; *ok false (why filled) when it cannot write. */
PETSC_INTERN PetscErrorCode EasSysfsWrite(PetscInt owner, const char path[], const char value[], PetscBool *ok, char why[], size_t len);
/* EasSysfsNewOwner - an owner id for the registry. */
PETSC_INTERN PetscErrorCode EasSysfsNewOwner(PetscInt *owner);
/* EasSysfsRestore - writes back every value saved by owner, newest first
   (n: how many); the registry forgets them. */
PETSC_INTERN PetscErrorCode EasSysfsRestore(PetscInt owner, PetscInt *n);
/* EasSysfsSaved - how many values the registry holds (all owners). */
PETSC_INTERN PetscErrorCode EasSysfsSaved(PetscInt *n);

/* the highest core number + 1 the policies handle (cpu_set_t's CPU_SETSIZE) */
#define EAS_CPU_MAX 1024

/* cpufreq: the cores of this process's affinity (n <= max). */
PETSC_INTERN PetscErrorCode EasCpufreqAffinity(PetscInt max, PetscInt cores[], PetscInt *n);
/* cpufreq: the available frequencies (kHz, descending) of core c under root:
   scaling_available_frequencies, else none (*n = 0). */
PETSC_INTERN PetscErrorCode EasCpufreqAvailable(const char root[], PetscInt c, PetscInt max, PetscReal kHz[], PetscInt *n);
/* cpufreq: the limits cpuinfo_min_freq, cpuinfo_max_freq and the current
   scaling_cur_freq of core c (kHz, 0 when unreadable). */
PETSC_INTERN PetscErrorCode EasCpufreqLimits(const char root[], PetscInt c, PetscReal *fmin, PetscReal *fmax, PetscReal *fcur);
/* cpufreq: sets core c to f kHz: scaling_setspeed under the userspace
   governor, else scaling_max_freq; how says which, *ok false (why) when
   neither is writable or the core has no cpufreq directory (*missing). */
PETSC_INTERN PetscErrorCode EasCpufreqSet(PetscInt owner, const char root[], PetscInt c, PetscReal kHz, PetscBool *ok, PetscBool *missing, char how[], size_t hlen, char why[], size_t wlen);
/* -eas_dvfs_freqs and -eas_cpufreq_root in the caller's options block
   (their one parser; see sysfs.c). */
PETSC_INTERN PetscErrorCode EasCpufreqSetFromOptions_Private(PetscOptionItems *, const char manfreqs[], const char manroot[], char root[], size_t len, PetscBool *rootset, PetscReal f[], PetscInt *n, PetscBool *fset);
/* cpufreq: the cores cpu<N> present under root (n <= max). */
PETSC_INTERN PetscErrorCode EasCpufreqCores(const char root[], PetscInt max, PetscInt cores[], PetscInt *n);
