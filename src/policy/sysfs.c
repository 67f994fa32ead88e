/*
  sysfs access of the DVFS and power-budget policies: cpufreq
  (<root>/cpu<N>/cpufreq/..., root /sys/devices/system/cpu or
  -eas_cpufreq_root) and powercap (constraint_0_power_limit_uw), and the
  restore registry.

  Every value written is first saved (its file's content before the first
  write) in a registry; the owner writes them back when it restores, and so
  do, for every owner, a SIGINT or SIGTERM handler (installed at the first
  save, chaining to the handler that was there, or re-raising the signal
  with the previous disposition), a PETSc error handler (pushed at the
  first save: the first error restores, then PETSc's traceback handler
  runs) and an atexit handler.  The signal path uses only open, write and
  close on paths and values prepared beforehand (async-signal-safe).

  Writable means: the file exists, has a write permission bit (sysfs marks
  an attribute without a store method 0444, and refuses writes even to
  root) and opens for writing.  Fake trees in the tests use the same rule.
*/
#define _GNU_SOURCE /* sched_getaffinity, CPU_SET */
#include "policyimpl.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#define EAS_SYSFS_MAX 1024

typedef struct {
  char path[PETSC_MAX_PATH_LEN];
  char value[64];
  int  owner;
} EasSysfsEntry;

static EasSysfsEntry         eas_saved[EAS_SYSFS_MAX];
static volatile sig_atomic_t eas_nsaved             = 0;
static int                   eas_next_owner         = 1;
static int                   eas_handlers_installed = 0, eas_eh_pushed = 0;
static struct sigaction      eas_old_int, eas_old_term;

/* async-signal-safe: write the saved values back, newest first, and forget them */
static void RestoreAllRaw(void)
{
  while (eas_nsaved > 0) {
    const EasSysfsEntry *e  = &eas_saved[eas_nsaved - 1];
    int                  fd = open(e->path, O_WRONLY | O_TRUNC);
    if (fd >= 0) {
      size_t len = 0;
      while (e->value[len]) len++;
      if (write(fd, e->value, len) < 0) { /* nothing more can be done here */
      }
      close(fd);
    }
    eas_nsaved = eas_nsaved - 1;
  }
}

static void SignalRestore(int sig)
{
  struct sigaction *old = sig == SIGINT ? &eas_old_int : &eas_old_term;

  RestoreAllRaw();
  if (!(old->sa_flags & SA_SIGINFO) && old->sa_handler == SIG_IGN) return;
  if (!(old->sa_flags & SA_SIGINFO) && old->sa_handler != SIG_DFL) { /* the application's handler */
    old->sa_handler(sig);
    return;
  }
  if (old->sa_flags & SA_SIGINFO) {
    old->sa_sigaction(sig, NULL, NULL);
    return;
  }
  sigaction(sig, old, NULL); /* the default action: terminate, as without eas */
  raise(sig);
}

static void ExitRestore(void)
{
  RestoreAllRaw();
}

static PetscErrorCode ErrorRestore(MPI_Comm comm, int line, const char *fun, const char *file, PetscErrorCode n, PetscErrorType p, const char *mess, void *ctx)
{
  if (p == PETSC_ERROR_INITIAL && eas_nsaved > 0) RestoreAllRaw(); /* the settings the policies changed */
  return PetscTraceBackErrorHandler(comm, line, fun, file, n, p, mess, ctx);
}

static PetscErrorCode InstallHandlers(void)
{
  PetscFunctionBegin;
  if (!eas_handlers_installed) {
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = SignalRestore;
    sigemptyset(&sa.sa_mask);
    PetscCheck(sigaction(SIGINT, &sa, &eas_old_int) == 0 && sigaction(SIGTERM, &sa, &eas_old_term) == 0, PETSC_COMM_SELF, PETSC_ERR_SYS, "sigaction failed: %s", strerror(errno));
    PetscCheck(atexit(ExitRestore) == 0, PETSC_COMM_SELF, PETSC_ERR_SYS, "atexit failed");
    eas_handlers_installed = 1;
  }
  if (!eas_eh_pushed) {
    PetscCall(PetscPushErrorHandler(ErrorRestore, NULL));
    eas_eh_pushed = 1;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode EasSysfsNewOwner(PetscInt *owner)
{
  PetscFunctionBegin;
  *owner = eas_next_owner++;
  PetscFunctionReturn(0);
}

PetscErrorCode EasSysfsSaved(PetscInt *n)
{
  PetscFunctionBegin;
  *n = (PetscInt)eas_nsaved;
  PetscFunctionReturn(0);
}

PetscErrorCode EasSysfsRead(const char path[], char buf[], size_t len, PetscBool *ok)
{
  FILE *f;

  PetscFunctionBegin;
  *ok    = PETSC_FALSE;
  buf[0] = 0;
  f      = fopen(path, "r");
  if (!f) PetscFunctionReturn(0);
  if (fgets(buf, (int)len, f)) {
    size_t l = strlen(buf);
    while (l > 0 && (buf[l - 1] == '\n' || buf[l - 1] == ' ')) buf[--l] = 0;
    *ok = PETSC_TRUE;
  }
  fclose(f);
  PetscFunctionReturn(0);
}

PetscErrorCode EasSysfsWritable(const char path[], PetscBool *writable, char why[], size_t len)
{
  struct stat st;
  int         fd;

  PetscFunctionBegin;
  *writable = PETSC_FALSE;
  if (stat(path, &st) != 0) {
    if (why) PetscCall(PetscSNPrintf(why, len, "%s: %s", path, strerror(errno)));
    PetscFunctionReturn(0);
  }
  if (!(st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH))) {
    if (why) PetscCall(PetscSNPrintf(why, len, "%s is read-only (mode %o)", path, (unsigned)(st.st_mode & 0777)));
    PetscFunctionReturn(0);
  }
  fd = open(path, O_WRONLY);
  if (fd < 0) {
    if (why) PetscCall(PetscSNPrintf(why, len, "%s: %s", path, strerror(errno)));
    PetscFunctionReturn(0);
  }
  close(fd);
  *writable = PETSC_TRUE;
  PetscFunctionReturn(0);
}

PetscErrorCode EasSysfsWrite(PetscInt owner, const char path[], const char value[], PetscBool *ok, char why[], size_t len)
{
  PetscBool w, known = PETSC_FALSE, rd;
  char      old[64];
  int       fd;
  size_t    n;

  PetscFunctionBegin;
  *ok = PETSC_FALSE;
  PetscCall(EasSysfsWritable(path, &w, why, len));
  if (!w) PetscFunctionReturn(0);
  for (PetscInt k = 0; k < (PetscInt)eas_nsaved && !known; k++) PetscCall(PetscStrcmp(eas_saved[k].path, path, &known));
  if (!known) {
    PetscCall(EasSysfsRead(path, old, sizeof(old), &rd));
    if (!rd) {
      if (why) PetscCall(PetscSNPrintf(why, len, "%s cannot be read, so it could not be restored", path));
      PetscFunctionReturn(0);
    }
    PetscCheck(eas_nsaved < EAS_SYSFS_MAX, PETSC_COMM_SELF, PETSC_ERR_MEM, "the sysfs restore registry is full (%d values)", EAS_SYSFS_MAX);
    PetscCall(InstallHandlers());
    PetscCall(PetscStrncpy(eas_saved[eas_nsaved].path, path, sizeof(eas_saved[0].path)));
    PetscCall(PetscStrncpy(eas_saved[eas_nsaved].value, old, sizeof(eas_saved[0].value)));
    eas_saved[eas_nsaved].owner = (int)owner;
    eas_nsaved                  = eas_nsaved + 1; /* complete before it is counted (signal safety) */
  }
  fd = open(path, O_WRONLY | O_TRUNC);
  if (fd < 0) {
    if (why) PetscCall(PetscSNPrintf(why, len, "%s: %s", path, strerror(errno)));
    PetscFunctionReturn(0);
  }
  PetscCall(PetscStrlen(value, &n));
  if (write(fd, value, n) != (ssize_t)n) {
    if (why) PetscCall(PetscSNPrintf(why, len, "%s: write failed: %s", path, strerror(errno)));
    close(fd);
    PetscFunctionReturn(0);
  }
  close(fd);
  *ok = PETSC_TRUE;
  PetscFunctionReturn(0);
}

PetscErrorCode EasSysfsRestore(PetscInt owner, PetscInt *n)
{
  PetscInt k, kept = 0, done = 0;

  PetscFunctionBegin;
  for (k = (PetscInt)eas_nsaved - 1; k >= 0; k--) { /* newest first */
    if (eas_saved[k].owner != (int)owner) continue;
    {
      int fd = open(eas_saved[k].path, O_WRONLY | O_TRUNC);
      if (fd >= 0) {
        size_t len;
        PetscCall(PetscStrlen(eas_saved[k].value, &len));
        if (write(fd, eas_saved[k].value, len) == (ssize_t)len) done++;
        close(fd);
      }
    }
  }
  for (k = 0; k < (PetscInt)eas_nsaved; k++) /* keep the other owners' entries, in order */
    if (eas_saved[k].owner != (int)owner) {
      if (kept != k) eas_saved[kept] = eas_saved[k];
      kept++;
    }
  eas_nsaved = (sig_atomic_t)kept;
  if (!kept && eas_eh_pushed) {
    PetscCall(PetscPopErrorHandler());
    eas_eh_pushed = 0;
  }
  if (n) *n = done;
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- cpufreq */

PetscErrorCode EasCpufreqAffinity(PetscInt max, PetscInt cores[], PetscInt *n)
{
  cpu_set_t set;

  PetscFunctionBegin;
  *n = 0;
  CPU_ZERO(&set);
  PetscCheck(sched_getaffinity(0, sizeof(set), &set) == 0, PETSC_COMM_SELF, PETSC_ERR_SYS, "sched_getaffinity failed: %s", strerror(errno));
  for (PetscInt c = 0; c < CPU_SETSIZE && *n < max; c++)
    if (CPU_ISSET(c, &set)) cores[(*n)++] = c;
  PetscFunctionReturn(0);
}

PetscErrorCode EasCpufreqCores(const char root[], PetscInt max, PetscInt cores[], PetscInt *n)
{
  DIR           *d;
  struct dirent *e;

  PetscFunctionBegin;
  *n = 0;
  d  = opendir(root);
  if (!d) PetscFunctionReturn(0);
  while ((e = readdir(d)) && *n < max) {
    char *end;
    long  c;
    if (strncmp(e->d_name, "cpu", 3) || !e->d_name[3]) continue;
    c = strtol(e->d_name + 3, &end, 10);
    if (*end || c < 0) continue;
    cores[(*n)++] = (PetscInt)c;
  }
  closedir(d);
  PetscCall(PetscSortInt(*n, cores));
  PetscFunctionReturn(0);
}

static int CompareDesc(const void *a, const void *b)
{
  const PetscReal x = *(const PetscReal *)a, y = *(const PetscReal *)b;
  return x < y ? 1 : (x > y ? -1 : 0);
}

PetscErrorCode EasCpufreqAvailable(const char root[], PetscInt c, PetscInt max, PetscReal kHz[], PetscInt *n)
{
  char      path[PETSC_MAX_PATH_LEN], buf[4096], *tok, *save = NULL;
  PetscBool ok;

  PetscFunctionBegin;
  *n = 0;
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/cpu%" PetscInt_FMT "/cpufreq/scaling_available_frequencies", root, c));
  PetscCall(EasSysfsRead(path, buf, sizeof(buf), &ok));
  if (!ok) PetscFunctionReturn(0);
  for (tok = strtok_r(buf, " \t", &save); tok && *n < max; tok = strtok_r(NULL, " \t", &save)) {
    char  *end;
    double v = strtod(tok, &end);
    if (end != tok && v > 0) kHz[(*n)++] = v;
  }
  qsort(kHz, (size_t)*n, sizeof(PetscReal), CompareDesc);
  PetscFunctionReturn(0);
}

static PetscReal ReadKHz(const char root[], PetscInt c, const char file[])
{
  char      path[PETSC_MAX_PATH_LEN], buf[64];
  PetscBool ok = PETSC_FALSE;

  if (PetscSNPrintf(path, sizeof(path), "%s/cpu%" PetscInt_FMT "/cpufreq/%s", root, c, file)) return 0;
  if (EasSysfsRead(path, buf, sizeof(buf), &ok) || !ok) return 0;
  return (PetscReal)atof(buf);
}

PetscErrorCode EasCpufreqLimits(const char root[], PetscInt c, PetscReal *fmin, PetscReal *fmax, PetscReal *fcur)
{
  PetscFunctionBegin;
  if (fmin) *fmin = ReadKHz(root, c, "cpuinfo_min_freq");
  if (fmax) *fmax = ReadKHz(root, c, "cpuinfo_max_freq");
  if (fcur) *fcur = ReadKHz(root, c, "scaling_cur_freq");
  PetscFunctionReturn(0);
}

PetscErrorCode EasCpufreqSet(PetscInt owner, const char root[], PetscInt c, PetscReal kHz, PetscBool *ok, PetscBool *missing, char how[], size_t hlen, char why[], size_t wlen)
{
  char        dir[PETSC_MAX_PATH_LEN], path[PETSC_MAX_PATH_LEN], gov[64], val[32];
  PetscBool   have_gov, userspace = PETSC_FALSE;
  struct stat st;

  PetscFunctionBegin;
  *ok      = PETSC_FALSE;
  *missing = PETSC_FALSE;
  PetscCall(PetscSNPrintf(dir, sizeof(dir), "%s/cpu%" PetscInt_FMT "/cpufreq", root, c));
  if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
    *missing = PETSC_TRUE;
    PetscCall(PetscSNPrintf(why, wlen, "%s: no cpufreq directory", dir));
    PetscFunctionReturn(0);
  }
  PetscCall(PetscSNPrintf(val, sizeof(val), "%.0f", (double)kHz));
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/scaling_governor", dir));
  PetscCall(EasSysfsRead(path, gov, sizeof(gov), &have_gov));
  if (have_gov) PetscCall(PetscStrcmp(gov, "userspace", &userspace));
  if (userspace) { /* the userspace governor runs the core at scaling_setspeed */
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/scaling_setspeed", dir));
    PetscCall(EasSysfsWrite(owner, path, val, ok, why, wlen));
    if (*ok) {
      PetscCall(PetscStrncpy(how, "scaling_setspeed (userspace governor)", hlen));
      PetscFunctionReturn(0);
    }
  }
  /* any other governor, or none readable: cap the frequency it may choose */
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/scaling_max_freq", dir));
  PetscCall(EasSysfsWrite(owner, path, val, ok, why, wlen));
  if (*ok) PetscCall(PetscSNPrintf(how, hlen, "scaling_max_freq (%s)", have_gov ? gov : "no governor file"));
  PetscFunctionReturn(0);
}

/*
  EasCpufreqSetFromOptions_Private - -eas_cpufreq_root and -eas_dvfs_freqs
  in the caller's options block, their one parser (DVFS and the power
  budget read both; manfreqs, manroot: the setters -help names): root holds the default shown and the tree read
  (*rootset); f[0] the default frequency shown, f[0..*n) the frequencies
  read (*fset; room for EAS_DVFS_MAX_FREQS), checked: at least one, each
  > 0 kHz.
*/
PetscErrorCode EasCpufreqSetFromOptions_Private(PetscOptionItems *PetscOptionsObject, const char manfreqs[], const char manroot[], char root[], size_t len, PetscBool *rootset, PetscReal f[], PetscInt *n, PetscBool *fset)
{
  MPI_Comm comm = PetscOptionsObject->comm;

  PetscFunctionBegin;
  *n = EAS_DVFS_MAX_FREQS;
  PetscCall(PetscOptionsRealArray("-eas_dvfs_freqs", "Available CPU frequencies in kHz (default: cpufreq's scaling_available_frequencies; the power budget uses the range f_min..f_max when cpufreq does not give it)", manfreqs, f, n, fset));
  if (*fset) {
    PetscCheck(*n >= 1, comm, PETSC_ERR_ARG_WRONG, "-eas_dvfs_freqs needs a list of frequencies in kHz, e.g. 2500000,2000000,1500000");
    for (PetscInt j = 0; j < *n; j++) PetscCheck(f[j] > 0 && !PetscIsInfOrNanReal(f[j]), comm, PETSC_ERR_ARG_OUTOFRANGE, "-eas_dvfs_freqs: entry %" PetscInt_FMT " = %g is invalid: expected frequencies in kHz > 0, e.g. 2500000,2000000,1500000", j, (double)f[j]);
  }
  PetscCall(PetscOptionsString("-eas_cpufreq_root", "cpufreq tree (tests use fake trees)", manroot, root, root, len, rootset));
  PetscFunctionReturn(0);
}
