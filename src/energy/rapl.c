/*
  RAPL energy sensor through Linux powercap (docs/energy.md).

  Layout read (the real /sys/class/powercap is flat, with symlinks):
    <root>/intel-rapl:N/name             "package-N"
    <root>/intel-rapl:N/energy_uj        cumulative energy, uJ, wraps
    <root>/intel-rapl:N/max_energy_range_uj
    <root>/intel-rapl:N:M/name           "dram" (also looked for inside intel-rapl:N/)
  Any "<vendor>-rapl:" prefix is accepted.

  Accounting: increments of energy_uj between two polls; a negative
  increment is a wraparound and max_energy_range_uj is added; when that file
  cannot be read the sample is dropped (the interval's energy is lost, never
  reported negative).  An increment above max_power x elapsed time is
  implausible and dropped too.  A sampler thread polls every 10 ms
  (-eas_sensor_period_ms; the counters update about every millisecond) and
  at least 4 times per wrap period (range / max_power), so at most one wrap
  happens between polls.

  Unreadable files: as root, chmod 000 does not stop reads, so the sensor
  detects unreadability from the open()/read() error itself (EACCES for a
  user since Linux 5.10, EISDIR/EINVAL for a bad tree); tests use a directory
  in place of energy_uj and the EasSensorRaplSetReadFault() hook.
*/
#include "energyimpl.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

/* Reads one unsigned integer from a sysfs file; returns 0 or an errno.
   No PETSc calls (runs in the sampler thread). */
static int ReadU64(EasSensor s, const char path[], double *v)
{
  char    buf[64];
  ssize_t n;
  int     fd, err;
  char   *end;

  if (s->fault_errno) return s->fault_errno;
  fd = open(path, O_RDONLY);
  if (fd < 0) return errno;
  n   = read(fd, buf, sizeof(buf) - 1);
  err = errno;
  close(fd);
  if (n < 0) return err ? err : EIO;
  if (n == 0) return ENODATA;
  buf[n] = 0;
  errno  = 0;
  *v     = (double)strtoull(buf, &end, 10);
  if (end == buf || errno) return EINVAL;
  return 0;
}

static int ReadName(const char dir[], char name[], size_t len)
{
  char    path[PETSC_MAX_PATH_LEN];
  ssize_t n;
  int     fd;

  if (snprintf(path, sizeof(path), "%s/name", dir) >= (int)sizeof(path)) return ENAMETOOLONG;
  fd = open(path, O_RDONLY);
  if (fd < 0) return errno;
  n = read(fd, name, len - 1);
  close(fd);
  if (n <= 0) return EIO;
  name[n] = 0;
  while (n > 0 && (name[n - 1] == '\n' || name[n - 1] == ' ')) name[--n] = 0;
  return 0;
}

/* poll: mutex held; sysfs reads take microseconds, one time stamp for all. */
static void Poll_RAPL(EasSensor s, double *t)
{
  const double now = EasSensorNow();

  *t = now;
  for (PetscInt d = 0; d < s->ndomains; d++) {
    EasSensorDomain *dm = &s->dom[d];
    double           raw, delta, range, dt;
    int              err = ReadU64(s, dm->path, &raw);

    if (err) { /* unreadable now: drop the sample, keep the accumulated energy */
      s->dropped++;
      continue;
    }
    if (!dm->have_last) {
      dm->last_raw  = raw;
      dm->last_t    = now;
      dm->have_last = 1;
      continue;
    }
    delta = raw - dm->last_raw;
    dt    = now - dm->last_t;
    if (delta < 0) { /* wraparound */
      if (ReadU64(s, dm->range_path, &range) || range <= 0 || range < dm->last_raw) {
        s->dropped++; /* cannot correct it: drop rather than report a negative value */
        dm->last_raw = raw;
        dm->last_t   = now;
        continue;
      }
      delta += range;
    }
    /* plausibility: at most max_power over the elapsed time (at least one update period) */
    if (delta * 1e-6 > s->max_power * PetscMax(dt, s->update_period)) {
      s->dropped++;
      dm->last_raw = raw;
      dm->last_t   = now;
      continue;
    }
    dm->acc += delta * 1e-6; /* uJ -> J */
    dm->last_raw = raw;
    dm->last_t   = now;
  }
}

static PetscErrorCode AddDomain(EasSensor s, const char dir[], const char name[], EasDomainKind kind, char why[], size_t whylen)
{
  EasSensorDomain *dm;
  double           v;
  int              err;

  PetscFunctionBegin;
  if (s->ndomains >= EAS_SENSOR_MAX_DOMAINS) PetscFunctionReturn(0);
  dm = &s->dom[s->ndomains];
  PetscCall(PetscMemzero(dm, sizeof(*dm)));
  PetscCall(PetscSNPrintf(dm->path, sizeof(dm->path), "%s/energy_uj", dir));
  PetscCall(PetscSNPrintf(dm->range_path, sizeof(dm->range_path), "%s/max_energy_range_uj", dir));
  PetscCall(PetscStrncpy(dm->name, name, sizeof(dm->name)));
  dm->kind = kind;
  err      = ReadU64(s, dm->path, &v);
  if (err) { /* this domain is absent: remember why */
    if (!why[0]) PetscCall(PetscSNPrintf(why, whylen, "%s: %s%s", dm->path, strerror(err), err == EACCES ? " (energy_uj is readable by root only since Linux 5.10: run as root or chmod a+r it)" : ""));
    PetscFunctionReturn(0);
  }
  s->ndomains++;
  PetscFunctionReturn(0);
}

static PetscBool IsRaplEntry(const char *n, PetscInt *ncolons)
{
  const char *p = strstr(n, "-rapl:");
  PetscInt    c = 0;
  if (!p) return PETSC_FALSE;
  for (; *p; p++)
    if (*p == ':') c++;
  *ncolons = c;
  return PETSC_TRUE;
}

/* Finds package and dram domains and checks they can be read. */
PetscErrorCode EasSensorSetUp_RAPL(EasSensor s)
{
  DIR           *dir;
  struct dirent *de;
  char           why[512] = "", pkgdir[8][PETSC_MAX_PATH_LEN];
  PetscInt       npkg = 0, ndram = 0;
  double         minrange = -1;

  PetscFunctionBegin;
  s->ops->poll     = Poll_RAPL;
  s->update_period = 1e-3; /* RAPL counters update about every 1 ms */
  dir              = opendir(s->rapl_root);
  if (!dir) {
    PetscCall(PetscSNPrintf(s->why, sizeof(s->why), "cannot open %s: %s (no powercap/RAPL in this kernel, VM or container)", s->rapl_root, strerror(errno)));
    PetscFunctionReturn(0);
  }
  /* packages: one colon */
  while ((de = readdir(dir))) {
    PetscInt nc;
    char     d[PETSC_MAX_PATH_LEN], name[64];
    if (!IsRaplEntry(de->d_name, &nc) || nc != 1) continue;
    PetscCall(PetscSNPrintf(d, sizeof(d), "%s/%s", s->rapl_root, de->d_name));
    if (ReadName(d, name, sizeof(name)) || strncmp(name, "package", 7)) continue;
    if (npkg < 8) PetscCall(PetscStrncpy(pkgdir[npkg++], d, PETSC_MAX_PATH_LEN));
    PetscCall(AddDomain(s, d, name, EAS_DOMAIN_PACKAGE, why, sizeof(why)));
  }
  closedir(dir);
  /* dram: flat layout, then nested */
  dir = opendir(s->rapl_root);
  while (dir && (de = readdir(dir))) {
    PetscInt nc;
    char     d[PETSC_MAX_PATH_LEN], name[64], dname[32];
    if (!IsRaplEntry(de->d_name, &nc) || nc != 2) continue;
    PetscCall(PetscSNPrintf(d, sizeof(d), "%s/%s", s->rapl_root, de->d_name));
    if (ReadName(d, name, sizeof(name)) || strcmp(name, "dram")) continue;
    PetscCall(PetscSNPrintf(dname, sizeof(dname), "dram-%d", atoi(strchr(de->d_name, ':') + 1)));
    PetscCall(AddDomain(s, d, dname, EAS_DOMAIN_DRAM, why, sizeof(why)));
    ndram++;
  }
  if (dir) closedir(dir);
  for (PetscInt p = 0; p < npkg && !ndram; p++) {
    DIR *sub = opendir(pkgdir[p]);
    while (sub && (de = readdir(sub))) {
      PetscInt nc;
      char     d[PETSC_MAX_PATH_LEN], name[64], dname[32];
      if (!IsRaplEntry(de->d_name, &nc) || nc != 2) continue;
      PetscCall(PetscSNPrintf(d, sizeof(d), "%s/%s", pkgdir[p], de->d_name));
      if (ReadName(d, name, sizeof(name)) || strcmp(name, "dram")) continue;
      PetscCall(PetscSNPrintf(dname, sizeof(dname), "dram-%d", atoi(strchr(de->d_name, ':') + 1)));
      PetscCall(AddDomain(s, d, dname, EAS_DOMAIN_DRAM, why, sizeof(why)));
    }
    if (sub) closedir(sub);
  }
  if (!npkg) {
    PetscCall(PetscSNPrintf(s->why, sizeof(s->why), "no RAPL package domain under %s", s->rapl_root));
    s->ndomains = 0;
    PetscFunctionReturn(0);
  }
  {
    PetscBool anypkg = PETSC_FALSE;
    for (PetscInt d = 0; d < s->ndomains; d++)
      if (s->dom[d].kind == EAS_DOMAIN_PACKAGE) anypkg = PETSC_TRUE;
    if (!anypkg) {
      PetscCall(PetscSNPrintf(s->why, sizeof(s->why), "%s", why));
      s->ndomains = 0;
      PetscFunctionReturn(0);
    }
  }
  /* sampler period: 10 ms (-eas_sensor_period_ms), and at least 4 polls per wrap period (range / max_power) */
  for (PetscInt d = 0; d < s->ndomains; d++) {
    double r;
    if (!ReadU64(s, s->dom[d].range_path, &r) && r > 0 && (minrange < 0 || r < minrange)) minrange = r;
  }
  s->period_max = minrange > 0 ? PetscMax(0.25 * minrange * 1e-6 / s->max_power, 1e-3) : 0;
  PetscCall(EasSensorChoosePeriod(s, s->period_max > 0 ? PetscMin(0.01, s->period_max) : 0.01));
  if (why[0])
    PetscCall(PetscSNPrintf(s->why, sizeof(s->why), "partly available (%s)", why));
  else
    PetscCall(PetscSNPrintf(s->why, sizeof(s->why), "available"));
  s->available = PETSC_TRUE;
  PetscFunctionReturn(0);
}
