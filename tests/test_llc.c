static const char help[] = "The benchmarks' last-level cache detection (bench/llc.h) on fake sysfs trees and hwloc topologies.\n"
                           "  -case present|noshare|absent|implausible|hwloc|order|option|machine\n";

/*
  Hand-derived cases (issue 24): the tests create sysfs trees
  (<root>/devices/system/cpu/cpu0/cache/index<k>/{level,type,size,shared_cpu_list})
  and hwloc XML topologies, point the detection at them (-bench_sysfs_root,
  -bench_hwloc_xml, -bench_llc_from: nothing of the machine's), and compare
  with the sizes written: 32768K = 33554432 B; 520192K = 508 MiB for one CPU
  (what CPUID and hwloc say on a 2-core AMD VM) is above 64 MiB per CPU;
  2097152K = 2 GiB is above 1 GiB; 0K is 0.  "at bandwidth" is "yes" from
  4 x LLC bytes up, "no" one byte below, "unknown" for an unknown LLC.
  -case machine: this machine's sources (or what the command line points
  at): the answer is plausible with its source, or "unknown" (CI runs it
  with the sysfs cache hidden).
*/
#include <eas.h>
#include <errno.h>
#include <sys/stat.h>
#include "../bench/bandwidth.h"

static PetscInt nchecks = 0;

#define CHECK(cond, ...) \
  do { \
    PetscCheck(cond, PETSC_COMM_SELF, PETSC_ERR_PLIB, __VA_ARGS__); \
    nchecks++; \
  } while (0)

static PetscErrorCode MkdirP(const char path[])
{
  char p[PETSC_MAX_PATH_LEN];

  PetscFunctionBegin;
  PetscCall(PetscStrncpy(p, path, sizeof(p)));
  for (char *s = p + 1; *s; s++) {
    if (*s != '/') continue;
    *s = 0;
    PetscCheck(mkdir(p, 0755) == 0 || errno == EEXIST, PETSC_COMM_SELF, PETSC_ERR_SYS, "mkdir %s", p);
    *s = '/';
  }
  PetscCheck(mkdir(p, 0755) == 0 || errno == EEXIST, PETSC_COMM_SELF, PETSC_ERR_SYS, "mkdir %s", p);
  PetscFunctionReturn(0);
}

static PetscErrorCode WriteFile(const char dir[], const char name[], const char text[])
{
  char  path[PETSC_MAX_PATH_LEN];
  FILE *f;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/%s", dir, name));
  f = fopen(path, "w");
  PetscCheck(f, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot write %s", path);
  fprintf(f, "%s\n", text);
  fclose(f);
  PetscFunctionReturn(0);
}

/* index<k> of cpu0 under root; shared NULL: no shared_cpu_list */
static PetscErrorCode AddCache(const char root[], int k, const char level[], const char type[], const char size[], const char *shared)
{
  char dir[PETSC_MAX_PATH_LEN];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(dir, sizeof(dir), "%s/devices/system/cpu/cpu0/cache/index%d", root, k));
  PetscCall(MkdirP(dir));
  PetscCall(WriteFile(dir, "level", level));
  PetscCall(WriteFile(dir, "type", type));
  PetscCall(WriteFile(dir, "size", size));
  if (shared) PetscCall(WriteFile(dir, "shared_cpu_list", shared));
  PetscFunctionReturn(0);
}

/* A tree as Linux writes it for a core with L1d, L1i, L2 and an L3 of l3size shared by l3shared */
static PetscErrorCode MakeTree(const char base[], const char name[], const char l3size[], const char *l3shared, char root[])
{
  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(root, PETSC_MAX_PATH_LEN, "%s/%s", base, name));
  PetscCall(AddCache(root, 0, "1", "Data", "48K", "0"));
  PetscCall(AddCache(root, 1, "1", "Instruction", "32K", "0"));
  PetscCall(AddCache(root, 2, "2", "Unified", "1024K", "0"));
  if (l3size) PetscCall(AddCache(root, 3, "3", "Unified", l3size, l3shared));
  PetscFunctionReturn(0);
}

/* An hwloc XML topology: one package, an L3 of bytes over npu PUs, each PU with its own L2 (1 MiB) */
static PetscErrorCode MakeXml(const char base[], const char name[], long long bytes, int npu, char file[])
{
  FILE              *f;
  const unsigned int mask = (1u << npu) - 1;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(file, PETSC_MAX_PATH_LEN, "%s/%s", base, name));
  f = fopen(file, "w");
  PetscCheck(f, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot write %s", file);
  fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE topology SYSTEM \"hwloc2.dtd\">\n<topology version=\"2.0\">\n");
  fprintf(f, "<object type=\"Machine\" os_index=\"0\" cpuset=\"0x%08x\" complete_cpuset=\"0x%08x\" allowed_cpuset=\"0x%08x\" nodeset=\"0x1\" complete_nodeset=\"0x1\" allowed_nodeset=\"0x1\" gp_index=\"1\">\n", mask, mask, mask);
  fprintf(f, "<object type=\"Package\" os_index=\"0\" cpuset=\"0x%08x\" complete_cpuset=\"0x%08x\" nodeset=\"0x1\" complete_nodeset=\"0x1\" gp_index=\"2\">\n", mask, mask);
  fprintf(f, "<object type=\"NUMANode\" os_index=\"0\" cpuset=\"0x%08x\" complete_cpuset=\"0x%08x\" nodeset=\"0x1\" complete_nodeset=\"0x1\" gp_index=\"3\" local_memory=\"1073741824\"/>\n", mask, mask);
  fprintf(f, "<object type=\"L3Cache\" cpuset=\"0x%08x\" complete_cpuset=\"0x%08x\" nodeset=\"0x1\" complete_nodeset=\"0x1\" gp_index=\"4\" cache_size=\"%lld\" depth=\"3\" cache_linesize=\"64\" cache_associativity=\"16\" cache_type=\"0\">\n", mask, mask, bytes);
  for (int p = 0; p < npu; p++) {
    fprintf(f, "<object type=\"L2Cache\" cpuset=\"0x%08x\" complete_cpuset=\"0x%08x\" nodeset=\"0x1\" complete_nodeset=\"0x1\" gp_index=\"%d\" cache_size=\"1048576\" depth=\"2\" cache_linesize=\"64\" cache_associativity=\"8\" cache_type=\"0\">\n", 1u << p, 1u << p, 10 + 2 * p);
    fprintf(f, "<object type=\"PU\" os_index=\"%d\" cpuset=\"0x%08x\" complete_cpuset=\"0x%08x\" nodeset=\"0x1\" complete_nodeset=\"0x1\" gp_index=\"%d\"/>\n</object>\n", p, 1u << p, 1u << p, 11 + 2 * p);
  }
  fprintf(f, "</object>\n</object>\n</object>\n</topology>\n");
  fclose(f);
  PetscFunctionReturn(0);
}

/* The detection with these options only (NULL: not given), the options cleared after */
static PetscErrorCode Detect(const char *root, const char *from, const char *xml, const char *mb, EasBenchLLC *llc)
{
  const char *names[] = {"-bench_sysfs_root", "-bench_llc_from", "-bench_hwloc_xml", "-bench_llc_mb"};
  const char *vals[]  = {root, from, xml, mb};
  char        s[1200];

  PetscFunctionBegin;
  for (int k = 0; k < 4; k++) PetscCall(PetscOptionsClearValue(NULL, names[k]));
  for (int k = 0; k < 4; k++)
    if (vals[k]) PetscCall(PetscOptionsSetValue(NULL, names[k], vals[k]));
  PetscCall(EasBenchLLCDetect(llc));
  for (int k = 0; k < 4; k++) PetscCall(PetscOptionsClearValue(NULL, names[k]));
  EasBenchLLCString(llc, s, sizeof(s));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  [%s%s%s%s%s%s%s] last-level cache: %s\n", root ? "root " : "", root ? strrchr(root, '/') + 1 : "", from ? " from " : "", from ? from : "", xml ? " xml " : "", xml ? strrchr(xml, '/') + 1 : "", mb ? " -bench_llc_mb" : "", s));
  PetscFunctionReturn(0);
}

static PetscErrorCode Expect(const EasBenchLLC *llc, double bytes, int level, int ncpus, const char source[], const char *note)
{
  PetscFunctionBegin;
  CHECK(llc->bytes == bytes && llc->level == level && llc->ncpus == ncpus, "got %.0f B, L%d, %d CPUs; expected %.0f B, L%d, %d CPUs", llc->bytes, llc->level, llc->ncpus, bytes, level, ncpus);
  CHECK(!strcmp(llc->source, source), "source %s, expected %s", llc->source, source);
  if (note) CHECK(strstr(llc->notes, note), "the notes '%s' do not say '%s'", llc->notes, note);
  PetscFunctionReturn(0);
}

/* at bandwidth from 4 x LLC bytes up; "unknown" for an unknown LLC */
static PetscErrorCode ExpectAtBandwidth(const EasBenchLLC *llc)
{
  EasBenchRef ref;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(&ref, sizeof(ref)));
  ref.llc = *llc;
  if (llc->bytes > 0) {
    CHECK(!strcmp(EasBenchAtBandwidth(&ref, 4 * llc->bytes), "yes") && !strcmp(EasBenchAtBandwidth(&ref, 4 * llc->bytes - 1), "no"), "at bandwidth is not yes at 4 x LLC and no below");
  } else {
    CHECK(!strcmp(EasBenchAtBandwidth(&ref, 1e12), "unknown") && !strcmp(EasBenchAtBandwidth(&ref, 1), "unknown"), "an unknown LLC does not give 'unknown'");
  }
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  char        base[] = "/tmp/eas_llc_XXXXXX", root[PETSC_MAX_PATH_LEN], root2[PETSC_MAX_PATH_LEN], xml[PETSC_MAX_PATH_LEN], xml2[PETSC_MAX_PATH_LEN], cmd[PETSC_MAX_PATH_LEN + 16];
  char        c[32] = "present";
  EasBenchLLC llc;
  PetscBool   hwloc = PETSC_FALSE, eq;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscOptionsBegin(PETSC_COMM_SELF, NULL, "test_llc", NULL);
  PetscCall(PetscOptionsString("-case", "present, noshare, absent, implausible, hwloc, order, option, machine", NULL, c, c, sizeof(c), NULL));
  PetscOptionsEnd();
#if defined(EAS_HAVE_HWLOC)
  hwloc = PETSC_TRUE;
#endif
  PetscCheck(mkdtemp(base), PETSC_COMM_SELF, PETSC_ERR_SYS, "mkdtemp failed");

  PetscCall(PetscStrcmp(c, "present", &eq));
  if (eq) { /* L3 32768K shared by CPUs 0-7: 33554432 B, 8 CPUs; the instruction cache skipped */
    PetscCall(MakeTree(base, "present", "32768K", "0-7", root));
    PetscCall(Detect(root, "sysfs", NULL, NULL, &llc));
    PetscCall(Expect(&llc, 33554432.0, 3, 8, "sysfs", NULL));
    PetscCall(ExpectAtBandwidth(&llc));
    PetscCall(MakeTree(base, "l2only", NULL, NULL, root)); /* no L3: the L2, 1024K, shared by CPU 0 */
    PetscCall(Detect(root, "sysfs", NULL, NULL, &llc));
    PetscCall(Expect(&llc, 1048576.0, 2, 1, "sysfs", NULL));
  }
  PetscCall(PetscStrcmp(c, "noshare", &eq));
  if (eq) { /* no shared_cpu_list: the CPU count is not said, only the 1 GiB bound applies (512 MiB passes) */
    PetscCall(MakeTree(base, "noshare", "524288K", NULL, root));
    PetscCall(Detect(root, "sysfs", NULL, NULL, &llc));
    PetscCall(Expect(&llc, 536870912.0, 3, 0, "sysfs", NULL));
  }
  PetscCall(PetscStrcmp(c, "absent", &eq));
  if (eq) { /* cpu0 without a cache directory (the VM of issue 24), and a root that does not exist */
    PetscCall(PetscSNPrintf(root, sizeof(root), "%s/absent/devices/system/cpu/cpu0", base));
    PetscCall(MkdirP(root));
    PetscCall(PetscSNPrintf(root, sizeof(root), "%s/absent", base));
    PetscCall(Detect(root, "sysfs", NULL, NULL, &llc));
    PetscCall(Expect(&llc, 0, 0, 0, "unknown", "sysfs: no "));
    PetscCall(ExpectAtBandwidth(&llc));
    PetscCall(PetscSNPrintf(root, sizeof(root), "%s/nonexistent", base));
    PetscCall(Detect(root, "sysfs", NULL, NULL, &llc));
    PetscCall(Expect(&llc, 0, 0, 0, "unknown", "sysfs: no "));
  }
  PetscCall(PetscStrcmp(c, "implausible", &eq));
  if (eq) {
    PetscCall(MakeTree(base, "percpu", "520192K", "0", root)); /* 508 MiB for one CPU */
    PetscCall(Detect(root, "sysfs", NULL, NULL, &llc));
    PetscCall(Expect(&llc, 0, 0, 0, "unknown", "not plausible (above 64 MiB per CPU)"));
    PetscCall(ExpectAtBandwidth(&llc));
    PetscCall(MakeTree(base, "huge", "2097152K", "0-63", root)); /* 2 GiB for 64 CPUs: 32 MiB each, but above 1 GiB */
    PetscCall(Detect(root, "sysfs", NULL, NULL, &llc));
    PetscCall(Expect(&llc, 0, 0, 0, "unknown", "not plausible (above 1 GiB)"));
    PetscCall(MakeTree(base, "zero", "0K", "0-7", root));
    PetscCall(Detect(root, "sysfs", NULL, NULL, &llc));
    PetscCall(Expect(&llc, 0, 0, 0, "unknown", "not plausible (0 bytes)"));
    PetscCall(PetscSNPrintf(root, sizeof(root), "%s/ionly", base)); /* only an instruction cache */
    PetscCall(AddCache(root, 0, "1", "Instruction", "32K", "0"));
    PetscCall(Detect(root, "sysfs", NULL, NULL, &llc));
    PetscCall(Expect(&llc, 0, 0, 0, "unknown", "sysfs: no data or unified cache"));
    PetscCall(MakeTree(base, "edge", "1048576K", "0-15", root)); /* exactly 1 GiB, 64 MiB per CPU: plausible */
    PetscCall(Detect(root, "sysfs", NULL, NULL, &llc));
    PetscCall(Expect(&llc, 1073741824.0, 3, 16, "sysfs", NULL));
  }
  PetscCall(PetscStrcmp(c, "hwloc", &eq));
  if (eq) {
    PetscCall(MakeXml(base, "ok.xml", 33554432LL, 8, xml));
    PetscCall(MakeXml(base, "vm.xml", 532676608LL, 1, xml2)); /* the VM's: 508 MiB per PU */
    PetscCall(Detect(NULL, "hwloc", xml, NULL, &llc));
    if (hwloc) PetscCall(Expect(&llc, 33554432.0, 3, 8, "hwloc", NULL));
    else PetscCall(Expect(&llc, 0, 0, 0, "unknown", "hwloc: not compiled in"));
    PetscCall(Detect(NULL, "hwloc", xml2, NULL, &llc));
    PetscCall(Expect(&llc, 0, 0, 0, "unknown", hwloc ? "hwloc: L3 532.7 MB for 1 CPU, not plausible (above 64 MiB per CPU)" : "hwloc: not compiled in"));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "hwloc %s\n", hwloc ? "compiled in: the XML topologies read" : "not compiled in: said so"));
  }
  PetscCall(PetscStrcmp(c, "order", &eq));
  if (eq) { /* the first plausible source wins; the option before all */
    PetscCall(MakeTree(base, "present", "32768K", "0-7", root));
    PetscCall(MakeTree(base, "percpu", "520192K", "0", root2));
    PetscCall(MakeXml(base, "ok.xml", 16777216LL, 4, xml));
    PetscCall(Detect(root, "sysfs,hwloc", xml, NULL, &llc));
    PetscCall(Expect(&llc, 33554432.0, 3, 8, "sysfs", NULL));
    PetscCall(Detect(root, "hwloc,sysfs", xml, NULL, &llc));
    if (hwloc) PetscCall(Expect(&llc, 16777216.0, 3, 4, "hwloc", NULL));
    else PetscCall(Expect(&llc, 33554432.0, 3, 8, "sysfs", "hwloc: not compiled in"));
    PetscCall(Detect(root2, "sysfs,hwloc", xml, NULL, &llc)); /* sysfs implausible: the next source */
    if (hwloc) PetscCall(Expect(&llc, 16777216.0, 3, 4, "hwloc", "sysfs: L3 532.7 MB for 1 CPU, not plausible"));
    else PetscCall(Expect(&llc, 0, 0, 0, "unknown", "sysfs: L3 532.7 MB for 1 CPU, not plausible"));
    PetscCall(Detect(root2, "sysfs,hwloc", xml, "40", &llc));
    PetscCall(Expect(&llc, 40e6, 0, 0, "option", NULL));
    PetscCall(ExpectAtBandwidth(&llc));
  }
  PetscCall(PetscStrcmp(c, "option", &eq));
  if (eq) { /* -bench_llc_mb must be above 0: an error naming it */
    PetscCall(PetscOptionsSetValue(NULL, "-bench_llc_mb", "0"));
    PetscCall(EasBenchLLCDetect(&llc));
  }
  PetscCall(PetscStrcmp(c, "machine", &eq));
  if (eq) { /* whatever this machine (or the command line) gives: plausible with its source, or unknown */
    const char *why;
    char        s[1200];
    PetscCall(EasBenchLLCDetect(&llc));
    EasBenchLLCString(&llc, s, sizeof(s));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "this machine's last-level cache: %s\n", s));
    if (llc.bytes > 0) CHECK(EasBenchLLCPlausible(llc.bytes, llc.ncpus, &why) && (!strcmp(llc.source, "option") || !strcmp(llc.source, "sysfs") || !strcmp(llc.source, "hwloc") || !strcmp(llc.source, "sysconf")), "an implausible LLC (%s) or no source (%s) was taken", why, llc.source);
    else CHECK(!strcmp(llc.source, "unknown") && llc.notes[0], "an unknown LLC without its source 'unknown' and what the sources said");
    PetscCall(ExpectAtBandwidth(&llc));
  }
  PetscCall(PetscSNPrintf(cmd, sizeof(cmd), "rm -rf '%s'", base));
  PetscCheck(system(cmd) == 0, PETSC_COMM_SELF, PETSC_ERR_SYS, "cannot remove %s", base);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "test_llc %s: %" PetscInt_FMT " checks passed\n", c, nchecks));
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    suffix: present
    backends: none
    args: -case present
    expect: L3 33.6 MB \(sysfs, 8 CPUs\)
    expect: test_llc present: 5 checks passed
  test:
    suffix: noshare
    backends: none
    args: -case noshare
    expect: L3 536.9 MB \(sysfs\)
    expect: test_llc noshare: 2 checks passed
  test:
    suffix: absent
    backends: none
    args: -case absent
    expect: last-level cache: unknown \(sysfs: no /tmp/eas_llc_[A-Za-z0-9]+/absent/devices/system/cpu/cpu0/cache/index0/level; give -bench_llc_mb\)
    expect: test_llc absent: 7 checks passed
  test:
    suffix: implausible
    backends: none
    args: -case implausible
    expect: unknown \(sysfs: L3 532.7 MB for 1 CPU, not plausible \(above 64 MiB per CPU\)
    expect: unknown \(sysfs: L3 2147.5 MB for 64 CPUs, not plausible \(above 1 GiB\)
    expect: unknown \(sysfs: L3 0.0 MB for 8 CPUs, not plausible \(0 bytes\)
    expect: L3 1073.7 MB \(sysfs, 16 CPUs\)
    expect: test_llc implausible: 15 checks passed
  test:
    suffix: hwloc
    backends: none
    args: -case hwloc
    expect: hwloc (compiled in: the XML topologies read|not compiled in: said so)
    expect: test_llc hwloc: [56] checks passed
  test:
    suffix: order
    backends: none
    args: -case order
    expect: last-level cache: 40.0 MB \(-bench_llc_mb\)
    expect: test_llc order: 1[01] checks passed
  test:
    suffix: option
    backends: none
    args: -case option
    expect_error: -bench_llc_mb 0\.?: expected a cache size in MB \(10\^6 bytes\) above 0
  test:
    suffix: machine
    backends: none
    args: -case machine
    expect: this machine's last-level cache: (L[1-9] [0-9.]+ MB \((sysfs|hwloc|sysconf)|unknown \()
    expect: test_llc machine: 2 checks passed
TEST*/
