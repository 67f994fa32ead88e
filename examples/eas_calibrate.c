static const char help[] = "eas_calibrate: small generic benchmarks (Vialle et al. sec. 1.5.2) that write a power profile.\n"
                           "On each available backend it measures the per-element (per-row) time of the DIA SpMV on the\n"
                           "\"adr\" gallery matrix and the per-element time of the EBE apply (Q1 Poisson mesh); where an\n"
                           "energy sensor exists it measures the idle power (sleeping) and the full power (SpMV loop).\n"
                           "Without a sensor the powers come from -eas_power_* or the built-in default profile (the papers' tables, docs/energy.md).\n"
                           "  -n <24>          ADR grid (2 n^3 rows)\n"
                           "  -ebe_n <12>      EBE mesh (n^3 Q1 elements), 0 to skip\n"
                           "  -reps <20>       SpMV/EBE repetitions per timing (best of 3 timings)\n"
                           "  -power_time <1>  seconds of idle and of full load for the power measurement\n"
                           "  -o <file>        profile to write (default eas_profile.opts); use it with -options_file\n\n";

#include <eas.h>

/* Best-of-3 time of reps SpMVs on backend res; t_el = time per row. */
static PetscErrorCode TimeDia(const char res[], PetscInt n, PetscInt reps, PetscReal *t_el, PetscReal *t_el_copy)
{
  EasBackend be;
  EasDia     A;
  EasVec     x, y;
  PetscInt   nrows, ndiag;
  PetscReal  best = PETSC_MAX_REAL;

  PetscFunctionBegin;
  PetscCall(EasBackendCreate(PETSC_COMM_SELF, res, &be));
  PetscCall(EasBackendSetFromOptions(be));
  PetscCall(EasDiaCreate(PETSC_COMM_SELF, &A));
  PetscCall(EasDiaSetBackend(A, be));
  PetscCall(EasDiaSetFromGallery(A, "adr", n));
  PetscCall(EasDiaSetUp(A));
  PetscCall(EasDiaGetSize(A, &nrows, &ndiag));
  PetscCall(EasDiaCreateVecs(A, &x, &y));
  PetscCall(EasVecSet(x, 1.0));
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
  PetscCall(EasVecDestroy(&x));
  PetscCall(EasVecDestroy(&y));
  PetscCall(EasDiaDestroy(&A));
  PetscCall(EasBackendDestroy(&be));
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

/* Average measured power over `secs` of sleeping (idle) or of SpMVs (full),
   with the meter m (its sensors are probed once). */
static PetscErrorCode MeasurePower(EasEnergyMeter m, PetscInt u, PetscBool full, PetscInt n, PetscReal secs, PetscReal *P, PetscBool *measured)
{
  EasEnergySummary S;

  PetscFunctionBegin;
  PetscCall(EasEnergyMeterStart(m));
  if (!full)
    PetscCall(PetscSleep(secs));
  else {
    PetscLogDouble t0, t;
    PetscReal      tel, tcopy;
    PetscCall(PetscTime(&t0));
    PetscCall(EasEnergyMeterBegin(m, EAS_PHASE_COMPUTE, u));
    do {
      PetscCall(TimeDia("/cpu", n, 5, &tel, &tcopy));
      PetscCall(PetscTime(&t));
    } while (t - t0 < secs);
    PetscCall(EasEnergyMeterEnd(m, EAS_PHASE_COMPUTE, u, 0));
  }
  PetscCall(EasEnergyMeterStop(m));
  PetscCall(EasEnergyMeterGetSummary(m, &S));
  *P        = S.power;
  *measured = S.measured;
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  const char     *names[] = {"/cpu/openmp", "/cpu/serial", "/gpu/cuda"};
  PetscInt        n = 24, ebe_n = 12, reps = 20, node, nnodes;
  PetscReal       secs = 1.0, tel[3] = {0, 0, 0}, tcopy[3] = {0, 0, 0}, tebe[3] = {0, 0, 0}, Pidle, Pfull;
  PetscBool       avail[3], midle = PETSC_FALSE, mfull = PETSC_FALSE, dflt;
  char            out[PETSC_MAX_PATH_LEN] = "eas_profile.opts", comment[4096], line[512];
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
  /* powers: measured where a sensor exists */
  {
    EasEnergyMeter m;
    PetscInt       u;
    PetscCall(EasEnergyMeterCreate(PETSC_COMM_SELF, &m));
    PetscCall(EasEnergyMeterSetFromOptions(m));
    PetscCall(EasEnergyMeterAddUnit(m, "cpu", EAS_UNIT_CPU, &u));
    PetscCall(MeasurePower(m, u, PETSC_FALSE, n, secs, &Pidle, &midle));
    PetscCall(MeasurePower(m, u, PETSC_TRUE, n, secs, &Pfull, &mfull));
    PetscCall(EasEnergyMeterDestroy(&m));
  }
  if (midle && mfull) {
    /* RAPL gives package + dram; the profile keeps dram at its value and the rest for the CPU */
    prof.cpu_idle = PetscMax(0.0, Pidle - prof.dram);
    prof.cpu_full = PetscMax(prof.cpu_idle, Pfull - prof.dram);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "measured power: idle %.4g W, full (SpMV) %.4g W\n", (double)Pidle, (double)Pfull));
    PetscCall(PetscSNPrintf(line, sizeof(line), "# measured: idle %.6g W, full %.6g W (sensor package+dram)\n", (double)Pidle, (double)Pfull));
  } else {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "no energy sensor: powers %s\n", dflt ? "from the built-in default profile (share/eas/default_profile.opts: Vialle et al. Table 1.1, Lang-Runger Table 2)" : "from the -eas_power_* options"));
    PetscCall(PetscSNPrintf(line, sizeof(line), "# no energy sensor: powers %s\n", dflt ? "from the default profile (Vialle et al. Table 1.1 means, Lang-Runger Table 2 dram)" : "from the -eas_power_* options"));
  }
  PetscCall(PetscStrlcat(comment, line, sizeof(comment)));
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
    expect: (no energy sensor: powers from the built-in default profile|measured power)
    expect: profile written to @TMP@/eas_calibrate_test.opts
  test:
    suffix: small_nogpu
    backends: none
    requires: !cuda-device
    args: -n 10 -ebe_n 4 -reps 4 -power_time 0.05 -o @TMP@/eas_calibrate_test_nogpu.opts
    expect: ^/gpu/cuda +skipped: (no CUDA device|CUDA module not loaded)
  test:
    suffix: small_gpu
    backends: none
    requires: cuda-device
    args: -n 10 -ebe_n 4 -reps 4 -power_time 0.05 -o @TMP@/eas_calibrate_test_gpu.opts
    expect: ^/gpu/cuda +DIA SpMV .* s/row .*EBE apply .* s/element
TEST*/
