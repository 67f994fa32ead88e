/*
  The benches' last-level cache (issue 24): its size decides whether a working
  set is "at bandwidth" (bandwidth.h), so where it comes from is said, and a
  size no source gives plausibly is "unknown", never a guess.

  Sources, in order; the first plausible one is taken:
    option   -bench_llc_mb <MB>  (10^6 bytes, as the BENCH lines print it);
             the tests pass it, so their verdict is the same on every machine
    sysfs    <root>/devices/system/cpu/cpu0/cache/index<k>/{level,type,size,
             shared_cpu_list}: the highest level that is not an instruction
             cache (root /sys, or -bench_sysfs_root <dir>: fake trees)
    hwloc    the cache object of that level covering the first PU, in hwloc's
             topology of this machine (or of -bench_hwloc_xml <file>); only
             where eas was built with hwloc (hwloc.h found: EAS_HAVE_HWLOC)
    sysconf  _SC_LEVEL{4,3,2}_CACHE_SIZE, the highest non-zero, for the
             online CPUs (glibc reads it from CPUID)
  -bench_llc_from sysfs,hwloc,sysconf chooses among the last three (tests: a
  fake tree and nothing of the machine's).

  Plausible: above 0, at most EAS_BENCH_LLC_MAX (1 GiB: one socket's cache
  instance) and, where the source says how many CPUs share it, at most
  EAS_BENCH_LLC_MAX_PER_CPU (64 MiB) per CPU.  The largest real ones are
  about 48 MiB per core (EPYC 9184X, 768 MiB L3 for 16 cores; 3D V-Cache
  parts 12 MiB per core); a 2-core VM on an AMD host was seen reporting, in
  CPUID and hwloc, an L3 of 508 MiB per CPU (the host's sum), and no sysfs
  cache directory: that gives "unknown".
*/
#include <petscsys.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#if defined(EAS_HAVE_HWLOC)
#  include <hwloc.h>
#endif

#define EAS_BENCH_LLC_MAX (1024.0 * 1024.0 * 1024.0)
#define EAS_BENCH_LLC_MAX_PER_CPU (64.0 * 1024.0 * 1024.0)

typedef enum {
  EAS_BENCH_LLC_SYSFS,
  EAS_BENCH_LLC_HWLOC,
  EAS_BENCH_LLC_SYSCONF
} EasBenchLLCSource;
static const char *const EasBenchLLCSources[] = {"sysfs", "hwloc", "sysconf", "EasBenchLLCSource", "EAS_BENCH_LLC_", NULL};

typedef struct {
  double bytes;       /* 0: unknown */
  int    level;       /* 0: not said (the option) */
  int    ncpus;       /* CPUs sharing it, as the source says; 0: not said */
  char   source[16];  /* option, sysfs, hwloc, sysconf; unknown */
  char   notes[1024]; /* what the sources not taken said */
} EasBenchLLC;

/* The number of CPUs in a list such as "0-7,16-23"; 0 when it cannot be parsed. */
static inline int EasBenchCpuListCount(const char *s)
{
  int n = 0;
  while (*s && *s != '\n') {
    char *e;
    long  a = strtol(s, &e, 10), b = a;
    if (e == s || a < 0) return 0;
    s = e;
    if (*s == '-') {
      b = strtol(s + 1, &e, 10);
      if (e == s + 1 || b < a) return 0;
      s = e;
    }
    n += (int)(b - a + 1);
    if (*s == ',')
      s++;
    else if (*s && *s != '\n')
      return 0;
  }
  return n;
}

/* The first line of dir/name (at most len - 1 characters, newline removed); 0 when it cannot be read. */
static inline int EasBenchReadLine(const char *dir, const char *name, char *buf, size_t len)
{
  char  path[PETSC_MAX_PATH_LEN + 64];
  FILE *f;
  int   ok;

  if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path) || !(f = fopen(path, "r"))) return 0;
  ok = fgets(buf, (int)len, f) != NULL;
  fclose(f);
  if (ok) buf[strcspn(buf, "\n")] = 0;
  return ok;
}

static inline void EasBenchNote(EasBenchLLC *llc, const char *fmt, ...)
{
  size_t  l = strlen(llc->notes);
  va_list ap;

  if (l + 3 >= sizeof(llc->notes)) return;
  if (l) {
    strcpy(llc->notes + l, "; ");
    l += 2;
  }
  va_start(ap, fmt);
  vsnprintf(llc->notes + l, sizeof(llc->notes) - l, fmt, ap);
  va_end(ap);
}

/* sysfs: the highest data or unified cache level of cpu0 under root */
static inline void EasBenchLLCSysfs(const char *root, double *bytes, int *level, int *ncpus, EasBenchLLC *llc)
{
  char dir[PETSC_MAX_PATH_LEN + 64];
  int  found = 0;

  *bytes = 0;
  *level = *ncpus = 0;
  for (int k = 0; k < 32; k++) {
    char   type[32] = "", size[32] = "", lev[16] = "", shared[256] = "";
    double b;
    char   unit = 0;
    int    l;

    if (snprintf(dir, sizeof(dir), "%s/devices/system/cpu/cpu0/cache/index%d", root, k) >= (int)sizeof(dir) || !EasBenchReadLine(dir, "level", lev, sizeof(lev))) break;
    found = 1;
    if (EasBenchReadLine(dir, "type", type, sizeof(type)) && !strcmp(type, "Instruction")) continue;
    if (!EasBenchReadLine(dir, "size", size, sizeof(size)) || sscanf(size, "%lf%c", &b, &unit) < 1 || (l = atoi(lev)) <= *level) continue;
    b *= unit == 'K' ? 1024.0 : unit == 'M' ? 1024.0 * 1024.0
                            : unit == 'G'   ? 1024.0 * 1024.0 * 1024.0
                                            : 1.0;
    *level = l;
    *bytes = b;
    *ncpus = EasBenchReadLine(dir, "shared_cpu_list", shared, sizeof(shared)) ? EasBenchCpuListCount(shared) : 0;
  }
  if (!found)
    EasBenchNote(llc, "sysfs: no %s/devices/system/cpu/cpu0/cache/index0/level", root);
  else if (!*level)
    EasBenchNote(llc, "sysfs: no data or unified cache with a size");
}

/* hwloc: the highest data or unified cache level, its object covering the first PU */
static inline void EasBenchLLCHwloc(const char *xml, double *bytes, int *level, int *ncpus, EasBenchLLC *llc)
{
  *bytes = 0;
  *level = *ncpus = 0;
#if defined(EAS_HAVE_HWLOC)
  {
    hwloc_topology_t       topo;
    const hwloc_obj_type_t types[] = {HWLOC_OBJ_L5CACHE, HWLOC_OBJ_L4CACHE, HWLOC_OBJ_L3CACHE, HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L1CACHE};

    if (hwloc_topology_init(&topo)) {
      EasBenchNote(llc, "hwloc: hwloc_topology_init failed");
      return;
    }
    if ((xml && xml[0] && hwloc_topology_set_xml(topo, xml)) || hwloc_topology_load(topo)) {
      EasBenchNote(llc, "hwloc: cannot load the topology%s%s", xml && xml[0] ? " of " : "", xml && xml[0] ? xml : "");
      hwloc_topology_destroy(topo);
      return;
    }
    for (size_t t = 0; t < sizeof(types) / sizeof(types[0]) && !*level; t++) {
      hwloc_obj_t o = hwloc_get_obj_by_type(topo, types[t], 0);
      if (!o) continue;
      *bytes = (double)o->attr->cache.size;
      *level = (int)o->attr->cache.depth;
      *ncpus = o->cpuset ? hwloc_bitmap_weight(o->cpuset) : 0;
    }
    if (!*level) EasBenchNote(llc, "hwloc: no data or unified cache in the topology");
    hwloc_topology_destroy(topo);
  }
#else
  (void)xml;
  EasBenchNote(llc, "hwloc: not compiled in (no hwloc.h at build time)");
#endif
}

/* sysconf: the highest level with a non-zero size, shared at most by the online CPUs */
static inline void EasBenchLLCSysconf(double *bytes, int *level, int *ncpus, EasBenchLLC *llc)
{
  *bytes = 0;
  *level = *ncpus = 0;
#if defined(_SC_LEVEL3_CACHE_SIZE)
  {
    const int names[] = {_SC_LEVEL4_CACHE_SIZE, _SC_LEVEL3_CACHE_SIZE, _SC_LEVEL2_CACHE_SIZE};
    for (int k = 0; k < 3 && !*level; k++) {
      long v = sysconf(names[k]);
      if (v > 0) {
        *bytes = (double)v;
        *level = 4 - k;
      }
    }
    *ncpus = (int)PetscMax(0, sysconf(_SC_NPROCESSORS_ONLN));
  }
#endif
  if (!*level) EasBenchNote(llc, "sysconf: no cache size");
}

/* Whether bytes shared by ncpus (0: not said) is a plausible last-level cache; if not, *why says why. */
static inline int EasBenchLLCPlausible(double bytes, int ncpus, const char **why)
{
  *why = NULL;
  if (!(bytes > 0))
    *why = "0 bytes";
  else if (bytes > EAS_BENCH_LLC_MAX)
    *why = "above 1 GiB";
  else if (ncpus > 0 && bytes / ncpus > EAS_BENCH_LLC_MAX_PER_CPU)
    *why = "above 64 MiB per CPU";
  return *why == NULL;
}

/*
  EasBenchLLCDetect - the last-level cache, from the first plausible source
  (the comment at the top); llc->bytes = 0 and source "unknown" when none is,
  llc->notes saying what each source said.  Options: -bench_llc_mb,
  -bench_sysfs_root, -bench_llc_from, -bench_hwloc_xml.
*/
static inline PetscErrorCode EasBenchLLCDetect(EasBenchLLC *llc)
{
  PetscReal mb                       = 0;
  PetscBool set                      = PETSC_FALSE, from_set;
  char      root[PETSC_MAX_PATH_LEN] = "/sys", xml[PETSC_MAX_PATH_LEN] = "";
  PetscEnum from[3] = {(PetscEnum)EAS_BENCH_LLC_SYSFS, (PetscEnum)EAS_BENCH_LLC_HWLOC, (PetscEnum)EAS_BENCH_LLC_SYSCONF};
  PetscInt  nfrom   = 3;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(llc, sizeof(*llc)));
  PetscOptionsBegin(PETSC_COMM_SELF, NULL, "Last-level cache of the benchmarks (bench/llc.h)", NULL);
  PetscCall(PetscOptionsReal("-bench_llc_mb", "Size of the last-level cache in MB (10^6 bytes); unset: detected", NULL, mb, &mb, &set));
  PetscCall(PetscOptionsString("-bench_sysfs_root", "Root of the sysfs tree the cache is read from", NULL, root, root, sizeof(root), NULL));
  PetscCall(PetscOptionsEnumArray("-bench_llc_from", "Sources tried, in order, when -bench_llc_mb is not given", NULL, EasBenchLLCSources, from, &nfrom, &from_set));
  PetscCall(PetscOptionsString("-bench_hwloc_xml", "hwloc reads this XML topology instead of the machine's", NULL, xml, xml, sizeof(xml), NULL));
  PetscOptionsEnd();
  if (!from_set) nfrom = 3;
  if (set) {
    PetscCheck(mb > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-bench_llc_mb %g: expected a cache size in MB (10^6 bytes) above 0", (double)mb);
    llc->bytes = (double)mb * 1e6;
    PetscCall(PetscStrncpy(llc->source, "option", sizeof(llc->source)));
    PetscFunctionReturn(0);
  }
  for (PetscInt k = 0; k < nfrom; k++) {
    double      b   = 0;
    int         lev = 0, nc = 0;
    const char *why;

    if (from[k] == (PetscEnum)EAS_BENCH_LLC_SYSFS)
      EasBenchLLCSysfs(root, &b, &lev, &nc, llc);
    else if (from[k] == (PetscEnum)EAS_BENCH_LLC_HWLOC)
      EasBenchLLCHwloc(xml, &b, &lev, &nc, llc);
    else
      EasBenchLLCSysconf(&b, &lev, &nc, llc);
    if (!lev) continue; /* the source said nothing (noted) */
    if (!EasBenchLLCPlausible(b, nc, &why)) {
      EasBenchNote(llc, "%s: L%d %.1f MB for %d CPU%s, not plausible (%s)", EasBenchLLCSources[from[k]], lev, b * 1e-6, nc, nc == 1 ? "" : "s", why);
      continue;
    }
    llc->bytes = b;
    llc->level = lev;
    llc->ncpus = nc;
    PetscCall(PetscStrncpy(llc->source, EasBenchLLCSources[from[k]], sizeof(llc->source)));
    PetscFunctionReturn(0);
  }
  PetscCall(PetscStrncpy(llc->source, "unknown", sizeof(llc->source)));
  PetscFunctionReturn(0);
}

/* "L3 33.6 MB (sysfs, 8 CPUs)", "40.0 MB (-bench_llc_mb)" or "unknown (what the sources said; give -bench_llc_mb)" */
static inline void EasBenchLLCString(const EasBenchLLC *llc, char *buf, size_t len)
{
  if (llc->bytes <= 0)
    snprintf(buf, len, "unknown (%s; give -bench_llc_mb)", llc->notes[0] ? llc->notes : "no source");
  else if (!strcmp(llc->source, "option"))
    snprintf(buf, len, "%.*f MB (-bench_llc_mb)", llc->bytes >= 1e6 ? 1 : 3, llc->bytes * 1e-6);
  else if (llc->ncpus > 0)
    snprintf(buf, len, "L%d %.1f MB (%s, %d CPU%s)", llc->level, llc->bytes * 1e-6, llc->source, llc->ncpus, llc->ncpus == 1 ? "" : "s");
  else
    snprintf(buf, len, "L%d %.1f MB (%s)", llc->level, llc->bytes * 1e-6, llc->source);
}
