static const char help[] = "eas_calibrate: small generic benchmarks (Vialle et al. sec. 1.5.2) that write a power profile.\n"
                           "On each available backend it measures the per-element (per-row) time of the DIA SpMV on the\n"
                           "\"adr\" gallery matrix and the per-element time of the EBE apply (Q1 Poisson mesh); where an\n"
                           "energy sensor exists it measures the idle power (sleeping) and the full power (SpMV loop) of the kinds its domains\n"
                           "cover: RAPL the CPU package and DRAM (SpMV on /cpu), NVML the GPU (SpMV on /gpu/cuda, where usable).  The\n"
                           "powers no sensor measures come from -eas_power_* or the built-in default profile (the papers' tables,\n"
                           "docs/energy.md).  Sensors: -eas_rapl_root <dir>, -eas_nvml_library <lib> (EasSensorSetFromOptions).\n"
                           "  -n <24>          ADR grid (2 n^3 rows)\n"
                           "  -ebe_n <12>      EBE mesh (n^3 Q1 elements), 0 to skip\n"
                           "  -reps <20>       SpMV/EBE repetitions per timing (best of 3 timings)\n"
                           "  -power_time <1>  seconds of idle and of full load for the power measurement\n"
                           "  -o <file>        profile to write (default eas_profile.opts); use it with -options_file\n\n";

#include <eas.h>

/* The "adr" gallery matrix of grid n on backend res, and x = 1, y. */
static PetscErrorCode DiaOpen(const char res[], PetscInt n, EasBackend *be, EasDia *A, EasVec *x, EasVec *y)
{
  PetscFunctionBegin;
  PetscCall(EasBackendCreate(PETSC_COMM_SELF, res, be));
  PetscCall(EasBackendSetFromOptions(*be));
  PetscCall(EasDiaCreate(PETSC_COMM_SELF, A));
  PetscCall(EasDiaSetBackend(*A, *be));
  PetscCall(EasDiaSetFromGallery(*A, "adr", n));
  PetscCall(EasDiaSetUp(*A));
  PetscCall(EasDiaCreateVecs(*A, x, y));
  PetscCall(EasVecSet(*x, 1.0));
  PetscFunctionReturn(0);
}

static PetscErrorCode DiaClose(EasBackend *be, EasDia *A, EasVec *x, EasVec *y)
{
  PetscFunctionBegin;
  PetscCall(EasVecDestroy(x));
  PetscCall(EasVecDestroy(y));
  PetscCall(EasDiaDestroy(A));
  PetscCall(EasBackendDestroy(be));
  PetscFunctionReturn(0);
}

/* Best-of-3 time of reps SpMVs on backend res; t_el = time per row. */
static PetscErrorCode TimeDia(const char res[], PetscInt n, PetscInt reps, PetscReal *t_el, PetscReal *t_el_copy)
{
  EasBackend be;
  EasDia     A;
  EasVec     x, y;
  PetscInt   nrows, ndiag;
  PetscReal  best = PETSC_MAX_REAL;

  PetscFunctionBegin;
  PetscCall(DiaOpen(res, n, &be, &A, &x, &y));
  PetscCall(EasDiaGetSize(A, &nrows, &ndiag));
  PetscCall(EasDiaMult(A, x, y)); /* warm-up */
  for (int k = 0; k < 3; k++) {
    PetscLogDouble t0, t1;
    PetscCall(EasBackendSynchronize(be));
    PetscCall(PetscTime(&t0));
    for (PetscInt r = 0; r < reps; r++) PetscCall(EasDiaMult(A, x, y));
    PetscCall(EasBackendSynchronize(be));
    PetscCall(PetscTime(&t1));
    best = PetscMin(best, (PetscReal)(t1 - t0));
  }
  *t_el      = best / ((PetscReal)reps * nrows);
  *t_el_copy = 0;
  {
    PetscLogDouble htod0, htod1, t0, t1;
    PetscScalar   *a;
    PetscReal      nrm;
    PetscCall(EasBackendGetTransferBytes(be, &htod0, NULL));
    PetscCall(EasVecGetArrayWrite(x, &a)); /* host write: the next device use copies x */
    a[0] = 1.0;
    PetscCall(EasVecRestoreArrayWrite(x, &a));
    PetscCall(PetscTime(&t0));
    PetscCall(EasVecNorm(x, &nrm));
    PetscCall(EasBackendSynchronize(be));
    PetscCall(PetscTime(&t1));
    PetscCall(EasBackendGetTransferBytes(be, &htod1, NULL));
    /* a row of the matrix and of x: (ndiag + 1) doubles, at the measured copy speed */
    if (htod1 > htod0) *t_el_copy = (PetscReal)(t1 - t0) / (htod1 - htod0) * 8.0 * (ndiag + 1);
  }
  PetscCall(DiaClose(&be, &A, &x, &y));
  PetscFunctionReturn(0);
}

/* Best-of-3 time of reps EBE applies (whole local range) per element. */
static PetscErrorCode TimeEbe(const char res[], PetscInt n, PetscInt reps, PetscReal *t_el)
{
  EasBackend be;
  EasEbe     E;
  EasVec     x, y;
  PetscInt   nel;
  PetscReal  best = PETSC_MAX_REAL;

  PetscFunctionBegin;
  PetscCall(EasBackendCreate(PETSC_COMM_SELF, res, &be));
  PetscCall(EasBackendSetFromOptions(be));
  PetscCall(EasEbeCreate(PETSC_COMM_SELF, &E));
  PetscCall(EasEbeSetBackend(E, be));
  PetscCall(EasEbeSetFromMesh(E, EAS_EBE_POISSON, 1, n, n, n));
  PetscCall(EasEbeSetUp(E));
  PetscCall(EasEbeGetSizes(E, &nel, NULL, NULL, NULL, NULL));
  PetscCall(EasEbeCreateVecs(E, &x, &y));
  PetscCall(EasVecSet(x, 1.0));
  PetscCall(EasEbeMultAddRange(E, 0, nel, x, y));
  for (int k = 0; k < 3; k++) {
    PetscLogDouble t0, t1;
    PetscCall(EasBackendSynchronize(be));
    PetscCall(PetscTime(&t0));
    for (PetscInt r = 0; r < reps; r++) PetscCall(EasEbeMultAddRange(E, 0, nel, x, y));
    PetscCall(EasBackendSynchronize(be));
    PetscCall(PetscTime(&t1));
    best = PetscMin(best, (PetscReal)(t1 - t0));
  }
  *t_el = best / ((PetscReal)reps * nel);
  PetscCall(EasVecDestroy(&x));
  PetscCall(EasVecDestroy(&y));
  PetscCall(EasEbeDestroy(&E));
  PetscCall(EasBackendDestroy(&be));
  PetscFunctionReturn(0);
}

/* Average power (W) by domain kind of sensor s over secs of sleeping (res NULL) or of DIA SpMVs on backend res:
   P[EAS_DOMAIN_PACKAGE] and P[EAS_DOMAIN_DRAM] summed over the sockets, P[EAS_DOMAIN_GPU] the first GPU
   alone (the profile's gpu powers are one GPU's; eas uses device 0).  The reads bracket the work only: the
   backend and the matrix are set up before, the device synchronized before the last read. */
static PetscErrorCode SensorPower(EasSensor s, const char res[], PetscInt n, PetscReal secs, PetscReal P[3])
{
  EasBackend     be = NULL;
  EasDia         A  = NULL;
  EasVec         x = NULL, y = NULL;
  PetscInt       nd;
  PetscReal     *E0, *E1;
  PetscLogDouble t0, t1, start, now;
  PetscBool      gpu_seen = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(EasSensorGetNumDomains(s, &nd));
  PetscCall(PetscMalloc2(nd, &E0, nd, &E1));
  if (res) {
    PetscCall(DiaOpen(res, n, &be, &A, &x, &y));
    PetscCall(EasDiaMult(A, x, y)); /* warm-up: uploads and first kernels before the first read */
    PetscCall(EasBackendSynchronize(be));
  }
  PetscCall(EasSensorRead(s, &t0, E0));
  if (!res) PetscCall(PetscSleep(secs));
  else {
    PetscCall(PetscTime(&start));
    do {
      for (int k = 0; k < 10; k++) PetscCall(EasDiaMult(A, x, y));
      PetscCall(EasBackendSynchronize(be));
      PetscCall(PetscTime(&now));
    } while (now - start < secs);
  }
  PetscCall(EasSensorRead(s, &t1, E1));
  P[0] = P[1] = P[2] = 0;
  for (PetscInt d = 0; d < nd; d++) {
    EasDomainKind kind;
    PetscCall(EasSensorGetDomain(s, d, NULL, &kind));
    if (kind == EAS_DOMAIN_GPU && gpu_seen) continue;
    if (kind == EAS_DOMAIN_GPU) gpu_seen = PETSC_TRUE;
    P[kind] += t1 > t0 ? (E1[d] - E0[d]) / (PetscReal)(t1 - t0) : 0;
  }
  PetscCall(PetscFree2(E0, E1));
  PetscCall(DiaClose(&be, &A, &x, &y));
  PetscFunctionReturn(0);
}

/* A sensor of type set up from the options (-eas_rapl_root, -eas_nvml_library); NULL with why when it is unavailable. */
static PetscErrorCode SensorOpen(const char type[], EasSensor *s, char why[], size_t len)
{
  PetscBool   avail;
  const char *w;

  PetscFunctionBegin;
  PetscCall(EasSensorCreate(PETSC_COMM_SELF, s));
  PetscCall(EasSensorSetType(*s, type));
  PetscCall(EasSensorSetFromOptions(*s));
  PetscCall(EasSensorSetUp(*s));
  PetscCall(EasSensorIsAvailable(*s, &avail, &w));
  if (!avail) {
    PetscCall(PetscStrncpy(why, w, len));
    PetscCall(EasSensorDestroy(s));
  }
  PetscFunctionReturn(0);
}

/* A measured full power below the idle one is kept (a real measurement, noisy), with a warning line. */
static PetscErrorCode WarnFullBelowIdle(const char sensor[], const char kind[], PetscReal idle, PetscReal full, char comment[], size_t len)
{
  char line[512];

  PetscFunctionBegin;
  if (full >= idle) PetscFunctionReturn(0);
  PetscCall(PetscSNPrintf(line, sizeof(line), "warning (%s): the %s's measured full power %.4g W is below its idle power %.4g W (noise, or a load that did not reach it: a longer -power_time); both kept, and -eas_power_profile refuses full < idle until one is edited\n", sensor, kind, (double)full, (double)idle));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s", line));
  PetscCall(PetscStrlcat(comment, "# ", len));
  PetscCall(PetscStrlcat(comment, line, len));
  PetscFunctionReturn(0);
}

/* The powers each sensor measures replace the profile's: RAPL (package, dram) over a sleep and over the
   CPU SpMV loop -> cpu_idle, cpu_full, dram; NVML (the first GPU) over a sleep and over an SpMV loop on
   /gpu/cuda -> gpu_idle, gpu_full (only where /gpu/cuda is usable).  The lines printed and the profile's
   comments say which sensor gave which field. */
static PetscErrorCode MeasurePowers(PetscInt n, PetscReal secs, PetscBool gpu_usable, PetscBool dflt, EasPowerProfile *prof, char comment[], size_t len)
{
  const char *from = dflt ? "the built-in default profile (share/eas/default_profile.opts: Vialle et al. Table 1.1, Lang-Runger Table 2)" : "the -eas_power_* options";
  EasSensor   s;
  char        why[512], line[1024];
  PetscReal   Pi[3], Pf[3];

  PetscFunctionBegin;
  PetscCall(SensorOpen(EAS_SENSOR_RAPL, &s, why, sizeof(why)));
  if (s) {
    PetscInt  nd;
    PetscBool dram = PETSC_FALSE;
    PetscCall(EasSensorGetNumDomains(s, &nd));
    for (PetscInt d = 0; d < nd; d++) {
      EasDomainKind kind;
      PetscCall(EasSensorGetDomain(s, d, NULL, &kind));
      if (kind == EAS_DOMAIN_DRAM) dram = PETSC_TRUE;
    }
    PetscCall(SensorPower(s, NULL, n, secs, Pi));
    PetscCall(SensorPower(s, "/cpu", n, secs, Pf));
    PetscCall(EasSensorDestroy(&s));
    prof->cpu_idle = Pi[EAS_DOMAIN_PACKAGE];
    prof->cpu_full = Pf[EAS_DOMAIN_PACKAGE];
    if (dram) prof->dram = Pf[EAS_DOMAIN_DRAM]; /* the model's constant DRAM power: its power under the SpMV load */
    if (dram) PetscCall(PetscSNPrintf(line, sizeof(line), "measured power (rapl): cpu idle %.4g W, full %.4g W, dram %.4g W (idle %.4g W)\n", (double)Pi[EAS_DOMAIN_PACKAGE], (double)Pf[EAS_DOMAIN_PACKAGE], (double)Pf[EAS_DOMAIN_DRAM], (double)Pi[EAS_DOMAIN_DRAM]));
    else PetscCall(PetscSNPrintf(line, sizeof(line), "measured power (rapl): cpu idle %.4g W, full %.4g W; no dram domain: dram %.4g W from %s\n", (double)Pi[EAS_DOMAIN_PACKAGE], (double)Pf[EAS_DOMAIN_PACKAGE], (double)prof->dram, from));
  } else PetscCall(PetscSNPrintf(line, sizeof(line), "no RAPL (%s): cpu and dram powers from %s\n", why, from));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s", line));
  PetscCall(PetscStrlcat(comment, "# ", len));
  PetscCall(PetscStrlcat(comment, line, len));
  PetscCall(WarnFullBelowIdle("rapl", "cpu", prof->cpu_idle, prof->cpu_full, comment, len));

  PetscCall(SensorOpen(EAS_SENSOR_NVML, &s, why, sizeof(why)));
  if (s && gpu_usable) {
    PetscCall(SensorPower(s, NULL, n, secs, Pi));
    PetscCall(SensorPower(s, "/gpu/cuda", n, secs, Pf));
    prof->gpu_idle = Pi[EAS_DOMAIN_GPU];
    prof->gpu_full = Pf[EAS_DOMAIN_GPU];
    PetscCall(PetscSNPrintf(line, sizeof(line), "measured power (nvml): gpu idle %.4g W, full %.4g W\n", (double)Pi[EAS_DOMAIN_GPU], (double)Pf[EAS_DOMAIN_GPU]));
  } else if (s) PetscCall(PetscSNPrintf(line, sizeof(line), "NVML present but /gpu/cuda unusable: the gpu powers stay the profile's, from %s\n", from));
  else PetscCall(PetscSNPrintf(line, sizeof(line), "no NVML (%s): gpu powers from %s\n", why, from));
  PetscCall(EasSensorDestroy(&s));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s", line));
  PetscCall(PetscStrlcat(comment, "# ", len));
  PetscCall(PetscStrlcat(comment, line, len));
  PetscCall(WarnFullBelowIdle("nvml", "gpu", prof->gpu_idle, prof->gpu_full, comment, len));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  const char     *names[] = {"/cpu/openmp", "/cpu/serial", "/gpu/cuda"};
  PetscInt        n = 24, ebe_n = 12, reps = 20, node, nnodes;
  PetscReal       secs = 1.0, tel[3] = {0, 0, 0}, tcopy[3] = {0, 0, 0}, tebe[3] = {0, 0, 0};
  PetscBool       avail[3], dflt;
  char            out[PETSC_MAX_PATH_LEN] = "eas_profile.opts", comment[8192], line[512];
  EasPowerProfile prof;
  PetscMPIInt     rank;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "eas_calibrate options", "Sys");
  PetscCall(PetscOptionsInt("-n", "ADR grid of the SpMV benchmark", NULL, n, &n, NULL));
  PetscCall(PetscOptionsInt("-ebe_n", "EBE mesh (n^3 Q1 elements), 0 to skip", NULL, ebe_n, &ebe_n, NULL));
  PetscCall(PetscOptionsInt("-reps", "Repetitions per timing", NULL, reps, &reps, NULL));
  PetscCall(PetscOptionsReal("-power_time", "Seconds of idle and of full load for the power measurement", NULL, secs, &secs, NULL));
  PetscCall(PetscOptionsString("-o", "Profile file to write", NULL, out, out, sizeof(out), NULL));
  PetscOptionsEnd();
  PetscCheck(n >= 2 && reps >= 1 && secs > 0 && ebe_n >= 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-n >= 2, -reps >= 1, -power_time > 0 and -ebe_n >= 0 expected");

  PetscCall(EasGetNodeIndex(PETSC_COMM_WORLD, &node, &nnodes));
  PetscCall(EasPowerProfileGetFromOptions(PETSC_COMM_WORLD, NULL, node, nnodes, &prof, &dflt));
  PetscCall(PetscSNPrintf(comment, sizeof(comment), "# eas power profile written by eas_calibrate (Vialle et al. sec. 1.5.2: small generic benchmarks)\n# DIA SpMV on the adr gallery matrix, n = %" PetscInt_FMT " (%" PetscInt_FMT " rows); EBE apply on %" PetscInt_FMT "^3 Q1 Poisson elements\n", n, 2 * n * n * n, ebe_n));
  for (int b = 0; b < 3; b++) {
    const char *why;
    PetscCall(EasBackendIsAvailable(names[b], &avail[b], &why));
    if (!avail[b]) {
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-12s skipped: %s\n", names[b], why));
      PetscCall(PetscSNPrintf(line, sizeof(line), "# %s skipped: %s\n", names[b], why));
      PetscCall(PetscStrlcat(comment, line, sizeof(comment)));
      continue;
    }
    PetscCall(TimeDia(names[b], n, reps, &tel[b], &tcopy[b]));
    if (ebe_n > 0) PetscCall(TimeEbe(names[b], ebe_n, PetscMax(1, reps / 4), &tebe[b]));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-12s DIA SpMV %.4g s/row (%.3g GB/s at 88 B/row)", names[b], (double)tel[b], (double)(88.0 / tel[b] * 1e-9)));
    if (ebe_n > 0) PetscCall(PetscPrintf(PETSC_COMM_WORLD, ", EBE apply %.4g s/element", (double)tebe[b]));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\n"));
    PetscCall(PetscSNPrintf(line, sizeof(line), "# %s: DIA SpMV %.6g s/row, EBE %.6g s/element\n", names[b], (double)tel[b], (double)tebe[b]));
    PetscCall(PetscStrlcat(comment, line, sizeof(comment)));
  }
  /* powers: measured by each sensor for the kinds of its domains, the profile's for the rest */
  PetscCall(MeasurePowers(n, secs, avail[2], dflt, &prof, comment, sizeof(comment)));
  if (rank == 0) {
    FILE *fp;
    PetscCall(PetscFOpen(PETSC_COMM_SELF, out, "w", &fp));
    PetscCall(EasPowerProfileWrite(&prof, comment, fp));
    /* the whole CPU: the faster CPU backend */
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "# -eas_calib_t_el_cpu from %s\n-eas_calib_t_el_cpu %.6g\n", tel[1] > 0 && tel[1] < tel[0] ? names[1] : names[0], (double)(tel[1] > 0 && tel[1] < tel[0] ? tel[1] : tel[0])));
    if (avail[2]) {
      PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "-eas_calib_t_el_gpu %.6g\n", (double)tel[2]));
      PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "-eas_calib_t_el_copy %.6g\n", (double)tcopy[2]));
    }
    if (ebe_n > 0) {
      PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "-eas_calib_ebe_t_el_cpu %.6g\n", (double)(tebe[1] > 0 && tebe[1] < tebe[0] ? tebe[1] : tebe[0])));
      if (avail[2]) PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "-eas_calib_ebe_t_el_gpu %.6g\n", (double)tebe[2]));
    }
    PetscCall(PetscFClose(PETSC_COMM_SELF, fp));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "profile written to %s (use it with -options_file %s)\n", out, out));
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    suffix: small
    backends: none
    args: -n 10 -ebe_n 4 -reps 4 -power_time 0.05 -o @TMP@/eas_calibrate_test.opts
    expect: ^/cpu/openmp +DIA SpMV .* s/row .*EBE apply .* s/element
    expect: (no RAPL .*: cpu and dram powers from the built-in default profile|measured power \(rapl\))
    expect: (no NVML .*: gpu powers from the built-in default profile|NVML present but /gpu/cuda unusable|measured power \(nvml\))
    expect: profile written to @TMP@/eas_calibrate_test.opts
  test:
    suffix: small_nogpu
    backends: none
    requires: !cuda-device
    args: -n 10 -ebe_n 4 -reps 4 -power_time 0.05 -o @TMP@/eas_calibrate_test_nogpu.opts
    expect: ^/gpu/cuda +skipped: (no CUDA device|CUDA module not loaded)
  test:
    suffix: nvml_fake_nogpu
    backends: none
    requires: !cuda-device
    args: -n 8 -ebe_n 0 -reps 2 -power_time 0.05 -eas_rapl_root @TMP@ -eas_nvml_library @OBJDIR@/tests/libfake_nvml.so -o @TMP@/p.opts
    expect: ^no RAPL \(.*\): cpu and dram powers from the built-in default profile
    expect: ^NVML present but /gpu/cuda unusable: the gpu powers stay the profile's, from the built-in default profile
    expect_count: 0 ^measured power
  test:
    suffix: small_gpu
    backends: none
    requires: cuda-device
    args: -n 10 -ebe_n 4 -reps 4 -power_time 0.05 -o @TMP@/eas_calibrate_test_gpu.opts
    expect: ^/gpu/cuda +DIA SpMV .* s/row .*EBE apply .* s/element
TEST*/
