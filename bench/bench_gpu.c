static const char help[] = "GPU benchmarks of eas on /gpu/cuda, each against a reference measured in the same run:\n"
                           "DIA SpMV GB/s vs a device-to-device copy, BiCGStab ms per iteration vs its fused byte bound at the\n"
                           "copy bandwidth, the EBE apply GB/s in every storage, atomic and colour by colour, vs a copy of the\n"
                           "same byte count, and the CPU+GPU split of the EBE apply vs each unit\n"
                           "alone (heterogeneous efficiency, Ribeiro eq. 3.6): with the operator on the host (whole vectors cross)\n"
                           "and with the operator on the device (gpu_ebe_split_device: only the CPU unit's gather list crosses;\n"
                           "its time against the faster unit alone, or split_declined; the bytes per apply counted by the backend\n"
                           "and a host<->device copy of the same bytes timed in the same run).  On /cpu/memcheck the figures are\n"
                           "an emulation's (host memcpy), not meaningful as speeds.  Without a usable device it says so and exits 0.\n"
                           "  -n <grid>          ADR gallery grid of the DIA cases (2n^3 rows; default 128)\n"
                           "  -its <k>           BiCGStab iterations per timed solve (rtol = atol = 0; default 50)\n"
                           "  -reps <k>          products per timing (default 20)\n"
                           "  -runs <r>          timings per quantity, median reported (default 5)\n"
                           "  -ebe_n <n>         EBE mesh: n^3 Q2 elasticity elements (default 16)\n"
                           "  -ebe <bool>        the EBE lines (default true; false: the DIA lines only)\n"
                           "  -ebe_apply_n <n>   the apply lines' mesh, if another (default -ebe_n; the splits stay on -ebe_n)\n"
                           "  -threads <t>       OpenMP threads of the CPU unit of the split (default 2)\n"
                           "  -split_solves <k>  cg solves that balance the split before it is timed (default 10)\n"
                           "  -eas_cuda_spmv native|cusparse  the DIA kernel (a backend option)\n"
                           "  -device <resource> the backend measured (default /gpu/cuda; a CPU backend runs the same code\n"
                           "                     on the host: the no-GPU test of this program)\n";

/*
  Byte counts (the same as bench_dia.c and bench_ebe.c):
    device-to-device copy  16 B per entry (read + write)
    eas DIA SpMV           8 ndiag + 16 B per row
    eas BiCGStab           EAS_BCGS_BYTES_PER_ROW(ndiag) per row and iteration (the fused bound)
    EBE apply              the storage's values (8 m^2 full, 4 m(m+1) symmetric, 4 m^2 single,
                           2 m(m+1) symmetric_single) + 4 nen B per element + 24 B per dof (x read,
                           y read and written once: the compulsory traffic); its copy reference
                           moves the same number of bytes (issue 20: it was measured on the mesh's
                           vectors, a smaller size, and flattered the ratio).  bytes_elem counts the
                           gathers and scatters per element too (8 m + 16 m B), as the figures
                           before 2026-11-27 did: mostly cache traffic (the full storage read at
                           1.02 x a copy with it on an H200)
  Every timing ends with EasBackendSynchronize, so it covers the kernels, not
  only their launch.  The reference of each ratio (the copy) is measured in
  the same process, interleaved with the quantity, medians of -runs.
*/
#include <eas.h>
#include <eas/ebe.h>
#include "backends/backend.h" /* EAS_BCGS_BYTES_PER_ROW */
#include "bandwidth.h"        /* EasBenchMedian */

/* Seconds per call of reps device-to-device copies y <- x (synchronized). */
static PetscErrorCode TimeCopy(EasBackend be, EasVec x, EasVec y, PetscInt reps, double *t)
{
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  PetscCall(EasBackendSynchronize(be));
  PetscCall(PetscTime(&t0));
  for (PetscInt k = 0; k < reps; k++) PetscCall(EasVecCopy(x, y));
  PetscCall(EasBackendSynchronize(be));
  PetscCall(PetscTime(&t1));
  *t = (t1 - t0) / reps;
  PetscFunctionReturn(0);
}

/* Seconds per EBE apply (synchronized). */
static PetscErrorCode TimeEbe(EasEbe ebe, EasBackend be, EasVec x, EasVec y, PetscInt reps, double *t)
{
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  PetscCall(EasBackendSynchronize(be));
  PetscCall(PetscTime(&t0));
  for (PetscInt k = 0; k < reps; k++) PetscCall(EasEbeMult(ebe, x, y));
  PetscCall(EasBackendSynchronize(be));
  PetscCall(PetscTime(&t1));
  *t = (t1 - t0) / reps;
  PetscFunctionReturn(0);
}

/* The device kernels the apply lines compare (EasEbeSetDeviceLayout,
   EasEbeSetWarpRows); the first is the default. */
static const struct {
  const char        *name;
  EasEbeDeviceLayout layout;
  PetscInt           rows;
} KERNELS[] = {
    {"warp", EAS_EBE_DEVICE_LAYOUT_WARP, 4},
    {"warp8", EAS_EBE_DEVICE_LAYOUT_WARP, 8},
    {"lanes", EAS_EBE_DEVICE_LAYOUT_LANES, 4}};

/* An EBE operator on be: Q2 elasticity on ne^3 elements, x = 1; storage
   st (< 0: the default), -ebe_deterministic det and the device kernel kern
   (an index of KERNELS). */
static PetscErrorCode CreateEbeKernel(EasBackend be, PetscInt ne, PetscInt st, PetscBool det, PetscInt kern, EasEbe *ebe, EasVec *x, EasVec *y, EasVec *b)
{
  PetscFunctionBegin;
  PetscCall(EasEbeCreate(PETSC_COMM_SELF, ebe));
  PetscCall(EasEbeSetBackend(*ebe, be));
  PetscCall(EasEbeSetFromMesh(*ebe, EAS_EBE_ELASTICITY, 2, ne, ne, ne));
  if (st >= 0) PetscCall(EasEbeSetStorage(*ebe, (EasEbeStorage)st));
  PetscCall(EasEbeSetDeterministic(*ebe, det));
  PetscCall(EasEbeSetDeviceLayout(*ebe, KERNELS[kern].layout));
  PetscCall(EasEbeSetWarpRows(*ebe, KERNELS[kern].rows));
  PetscCall(EasEbeSetUp(*ebe));
  PetscCall(EasEbeCreateVecs(*ebe, x, y));
  if (b) PetscCall(EasEbeCreateVecs(*ebe, b, NULL));
  PetscCall(EasVecSet(*x, 1.0));
  if (b) PetscCall(EasVecSet(*b, 1.0));
  PetscFunctionReturn(0);
}

/* The same with the default device kernel. */
static PetscErrorCode CreateEbe(EasBackend be, PetscInt ne, PetscInt st, PetscBool det, EasEbe *ebe, EasVec *x, EasVec *y, EasVec *b)
{
  PetscFunctionBegin;
  PetscCall(CreateEbeKernel(be, ne, st, det, 0, ebe, x, y, b));
  PetscFunctionReturn(0);
}

/* Splits ebe over units u0 (device) and u1 (CPU) and balances the split
   with solves cg solves of its iterations (b, x: the operator's vectors). */
static PetscErrorCode BalanceSplit(EasEbe ebe, EasBackend u0, EasBackend u1, PetscInt its, PetscInt solves, EasVec b, EasVec x)
{
  EasBackend u[2] = {u0, u1};
  EasKsp     ksp;

  PetscFunctionBegin;
  PetscCall(EasEbeSetSplitUnits(ebe, 2, u));
  PetscCall(EasKspCreate(PETSC_COMM_SELF, &ksp));
  PetscCall(EasKspSetType(ksp, EAS_CG));
  PetscCall(EasKspSetOperatorEbe(ksp, ebe));
  PetscCall(EasKspSetTolerances(ksp, 1e-30, 1e-300, PETSC_DEFAULT, its));
  for (PetscInt s = 0; s < solves; s++) PetscCall(EasKspSolve(ksp, b, x));
  PetscCall(EasKspDestroy(&ksp));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  char        device[64] = "/gpu/cuda";
  PetscInt    n = 128, its = 50, reps = 20, runs = 5, ebe_n = 16, ebe_apply_n = -1, threads = 2, split_solves = 10;
  PetscBool   ok, do_ebe = PETSC_TRUE;
  const char *why;
  EasBackend  be;
  double     *tv, *tc;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscOptionsBegin(PETSC_COMM_SELF, NULL, "bench_gpu", NULL);
  PetscCall(PetscOptionsInt("-n", "ADR gallery grid of the DIA cases", NULL, n, &n, NULL));
  PetscCall(PetscOptionsInt("-its", "BiCGStab iterations per timed solve", NULL, its, &its, NULL));
  PetscCall(PetscOptionsInt("-reps", "products per timing", NULL, reps, &reps, NULL));
  PetscCall(PetscOptionsInt("-runs", "timings per quantity (median)", NULL, runs, &runs, NULL));
  PetscCall(PetscOptionsInt("-ebe_n", "EBE mesh: n^3 Q2 elasticity elements", NULL, ebe_n, &ebe_n, NULL));
  PetscCall(PetscOptionsBool("-ebe", "The EBE lines (apply and splits); false: the DIA lines only", NULL, do_ebe, &do_ebe, NULL));
  PetscCall(PetscOptionsInt("-ebe_apply_n", "The apply lines' mesh, if another than -ebe_n", NULL, ebe_apply_n, &ebe_apply_n, NULL));
  PetscCall(PetscOptionsInt("-threads", "OpenMP threads of the CPU unit of the split", NULL, threads, &threads, NULL));
  PetscCall(PetscOptionsInt("-split_solves", "cg solves balancing the split before it is timed", NULL, split_solves, &split_solves, NULL));
  PetscCall(PetscOptionsString("-device", "Backend measured (a CPU backend: the same code on the host)", NULL, device, device, sizeof(device), NULL));
  PetscOptionsEnd();
  if (ebe_apply_n < 0) ebe_apply_n = ebe_n;
  PetscCheck(n >= 2 && its >= 1 && reps >= 1 && runs >= 1 && ebe_n >= 1 && ebe_apply_n >= 1 && threads >= 1 && split_solves >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "bench_gpu: expected -n >= 2, -its, -reps, -runs, -ebe_n, -ebe_apply_n, -threads >= 1 and -split_solves >= 0");

  PetscCall(EasBackendIsAvailable(device, &ok, &why));
  if (!ok) {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "bench_gpu: %s is not usable here: %s; no GPU BENCH lines\n", device, why));
    PetscCall(EasFinalize());
    return 0;
  }
  PetscCall(PetscMalloc2(runs, &tv, runs, &tc));
  PetscCall(EasBackendCreate(PETSC_COMM_SELF, device, &be));
  PetscCall(EasBackendSetFromOptions(be));
  PetscCall(EasBackendView(be, PETSC_VIEWER_STDOUT_SELF));

  /* DIA SpMV and BiCGStab vs the device-to-device copy */
  {
    EasDia      A;
    EasVec      x, y, b, sol;
    EasKsp      ksp;
    PetscInt    N, ndiag;
    double      t_spmv, t_copy, t_bcgs, gbs_spmv, gbs_copy, bound_ms;
    const char *mode     = "native";
    PetscBool   cusparse = PETSC_FALSE;
    char        str[16];

    PetscCall(PetscOptionsGetString(NULL, NULL, "-eas_cuda_spmv", str, sizeof(str), &cusparse));
    if (cusparse) mode = str;
    PetscCall(EasDiaCreate(PETSC_COMM_SELF, &A));
    PetscCall(EasDiaSetBackend(A, be));
    PetscCall(EasDiaSetFromGallery(A, "adr", n));
    PetscCall(EasDiaSetUp(A));
    PetscCall(EasDiaGetSize(A, &N, &ndiag));
    PetscCall(EasDiaCreateVecs(A, &x, &y));
    PetscCall(EasVecSet(x, 1.0));
    PetscCall(EasDiaMult(A, x, y)); /* warm-up (and the CSR copy in cusparse mode) */
    PetscCall(TimeCopy(be, x, y, 1, &t_copy));
    for (PetscInt r = 0; r < runs; r++) {
      PetscLogDouble t0, t1;
      PetscCall(EasBackendSynchronize(be));
      PetscCall(PetscTime(&t0));
      for (PetscInt k = 0; k < reps; k++) PetscCall(EasDiaMult(A, x, y));
      PetscCall(EasBackendSynchronize(be));
      PetscCall(PetscTime(&t1));
      tv[r] = (t1 - t0) / reps;
      PetscCall(TimeCopy(be, x, y, reps, &tc[r]));
    }
    t_spmv   = EasBenchMedian(runs, tv);
    t_copy   = EasBenchMedian(runs, tc);
    gbs_spmv = (8.0 * ndiag + 16.0) * N / t_spmv * 1e-9;
    gbs_copy = 16.0 * N / t_copy * 1e-9;
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "BENCH name=gpu_dia_spmv device=%s mode=%s n=%" PetscInt_FMT " rows=%" PetscInt_FMT " ndiag=%" PetscInt_FMT " spmv_ms=%.4f spmv_GBs=%.2f copy_GBs=%.2f ratio_copy=%.3f\n", device, mode, n, N, ndiag, t_spmv * 1e3, gbs_spmv, gbs_copy, gbs_spmv / gbs_copy));

    PetscCall(EasDiaCreateVecs(A, &b, &sol));
    PetscCall(EasDiaMult(A, x, b)); /* b = A 1 */
    PetscCall(EasKspCreate(PETSC_COMM_SELF, &ksp));
    PetscCall(EasKspSetType(ksp, EAS_BICGSTAB));
    PetscCall(EasKspSetOperator(ksp, A));
    PetscCall(EasKspSetPCType(ksp, EAS_PCJACOBI));
    PetscCall(EasKspSetTolerances(ksp, 0.0, 0.0, PETSC_DEFAULT, 2));
    PetscCall(EasKspSetUp(ksp));
    PetscCall(EasKspSolve(ksp, b, sol)); /* warm-up */
    PetscCall(EasKspSetTolerances(ksp, 0.0, 0.0, PETSC_DEFAULT, its));
    for (PetscInt r = 0; r < runs; r++) {
      PetscLogDouble t0, t1;
      PetscCall(EasVecSet(sol, 0.0));
      PetscCall(EasBackendSynchronize(be));
      PetscCall(PetscTime(&t0));
      PetscCall(EasKspSolve(ksp, b, sol));
      PetscCall(EasBackendSynchronize(be));
      PetscCall(PetscTime(&t1));
      tv[r] = (t1 - t0) / its;
    }
    t_bcgs   = EasBenchMedian(runs, tv);
    bound_ms = EAS_BCGS_BYTES_PER_ROW(ndiag) * N / (gbs_copy * 1e9) * 1e3;
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "BENCH name=gpu_bicgstab device=%s mode=%s n=%" PetscInt_FMT " rows=%" PetscInt_FMT " ms_per_it=%.4f bound_ms_per_it=%.4f ratio_bound=%.3f\n", device, mode, n, N, t_bcgs * 1e3, bound_ms, t_bcgs * 1e3 / bound_ms));
    PetscCall(EasKspDestroy(&ksp));
    PetscCall(EasVecDestroy(&b));
    PetscCall(EasVecDestroy(&sol));
    PetscCall(EasVecDestroy(&x));
    PetscCall(EasVecDestroy(&y));
    PetscCall(EasDiaDestroy(&A));
  }

  /* EBE apply on the GPU vs the copy, and the CPU+GPU split vs each unit alone */
  if (do_ebe) {
    EasEbe          eg, ec, es;
    EasVec          xg, yg, xc, yc, xs, ys, bs;
    EasBackend      cpu;
    PetscInt        nel, nen, dof, nnodes, m;
    double          t_gpu = 0.0, t_cpu, t_split, t_copy, bytes, bytes_elem, t_ideal;
    const PetscInt *sh;

    /* every storage, atomic and colour by colour, each against a copy of
       its own byte count (the copy's vectors hold bytes/16 entries), with
       the default kernel; on a device the other kernels of KERNELS on the
       symmetric atomic apply (the verdict's), warp8 on the full one too */
    PetscBool host;
    PetscCall(EasBackendIsHost(be, &host));
    for (PetscInt kern = 0; kern < (host ? 1 : (PetscInt)PETSC_STATIC_ARRAY_LENGTH(KERNELS)); kern++)
      for (PetscInt s = EAS_EBE_STORAGE_FULL; s <= EAS_EBE_STORAGE_SYMMETRIC_SINGLE; s++)
        for (int det = 0; det < 2; det++) {
          EasVec   cx, cy;
          PetscInt ncopy;
          double   t_apply, gbs_apply, gbs_copy;
          if (kern > 0 && (det || !(s == EAS_EBE_STORAGE_SYMMETRIC || (kern == 1 && s == EAS_EBE_STORAGE_FULL)))) continue; /* the other kernels: symmetric atomic; warp8 full atomic too */
          PetscCall(CreateEbeKernel(be, ebe_apply_n, s, (PetscBool)det, kern, &eg, &xg, &yg, NULL));
          PetscCall(EasEbeGetSizes(eg, &nel, &nen, &dof, &nnodes, NULL));
          m = nen * dof;
          /* the bytes that must cross the memory bus: the storage's values (the padding of the device layout is not
             read) and the connectivity once per element, x read and y read and written once per dof.  The per-element
             gathers and scatters (8 m + 16 m B per element) come from the cache for the most part: counted with
             them, the full storage read at 1.02 x a copy on an H200 (bytes_elem, ratio_copy_elem: the count before) */
          bytes      = (double)nel * (EasEbeStorageBytes((EasEbeStorage)s, m) + 4.0 * nen) + 24.0 * nnodes * dof;
          bytes_elem = (double)nel * (EasEbeStorageBytes((EasEbeStorage)s, m) + 4.0 * nen + 8.0 * m + 16.0 * m);
          ncopy      = (PetscInt)(bytes / 16.0 + 0.5);
          PetscCall(EasVecCreate(be, ncopy, &cx));
          PetscCall(EasVecDuplicate(cx, &cy));
          PetscCall(EasVecSet(cx, 1.0));
          PetscCall(EasVecCopy(cx, cy));     /* warm-up */
          PetscCall(EasEbeMult(eg, xg, yg)); /* warm-up */
          for (PetscInt r = 0; r < runs; r++) {
            PetscCall(TimeEbe(eg, be, xg, yg, reps, &tv[r]));
            PetscCall(TimeCopy(be, cx, cy, reps, &tc[r]));
          }
          t_apply   = EasBenchMedian(runs, tv);
          t_copy    = EasBenchMedian(runs, tc);
          gbs_apply = bytes / t_apply * 1e-9;
          gbs_copy  = 16.0 * ncopy / t_copy * 1e-9;
          PetscCall(PetscPrintf(PETSC_COMM_SELF, "BENCH name=gpu_ebe_apply device=%s kernel=%s default=%s problem=elasticity order=2 n=%" PetscInt_FMT " storage=%s deterministic=%s elements=%" PetscInt_FMT " bytes=%.0f apply_ms=%.4f apply_GBs=%.2f copy_bytes=%.0f copy_GBs=%.2f ratio_copy=%.3f bytes_elem=%.0f ratio_copy_elem=%.3f\n", device, host ? "host" : KERNELS[kern].name, kern == 0 ? "yes" : "no", ebe_apply_n, EasEbeStorages[s], det ? "yes" : "no", nel, bytes, t_apply * 1e3, gbs_apply, 16.0 * ncopy, gbs_copy, gbs_apply / gbs_copy, bytes_elem, bytes_elem / t_apply * 1e-9 / gbs_copy));
          PetscCall(EasVecDestroy(&cx));
          PetscCall(EasVecDestroy(&cy));
          if (kern == 0 && s == EAS_EBE_STORAGE_SYMMETRIC && !det) t_gpu = t_apply; /* the GPU unit alone: the default storage of these symmetric elements, the default scatter */
          PetscCall(EasVecDestroy(&xg));
          PetscCall(EasVecDestroy(&yg));
          PetscCall(EasEbeDestroy(&eg));
        }

    if (ebe_apply_n != ebe_n) { /* the GPU unit alone on the splits' mesh */
      PetscCall(CreateEbe(be, ebe_n, -1, PETSC_FALSE, &eg, &xg, &yg, NULL));
      PetscCall(EasEbeMult(eg, xg, yg)); /* warm-up */
      for (PetscInt r = 0; r < runs; r++) PetscCall(TimeEbe(eg, be, xg, yg, reps, &tv[r]));
      t_gpu = EasBenchMedian(runs, tv);
      PetscCall(EasVecDestroy(&xg));
      PetscCall(EasVecDestroy(&yg));
      PetscCall(EasEbeDestroy(&eg));
    }
    /* the CPU unit alone, the split after cg solves balanced it (Lang-Rünger Alg. 2: ebe_unit_begin/end) */
    PetscCall(EasBackendCreate(PETSC_COMM_SELF, "/cpu", &cpu));
    PetscCall(EasBackendSetThreads(cpu, threads));
    PetscCall(CreateEbe(cpu, ebe_n, -1, PETSC_FALSE, &ec, &xc, &yc, NULL));
    PetscCall(CreateEbe(cpu, ebe_n, -1, PETSC_FALSE, &es, &xs, &ys, &bs));
    PetscCall(BalanceSplit(es, be, cpu, its, split_solves, bs, xs));
    PetscCall(EasVecSet(xs, 1.0));
    for (PetscInt r = 0; r < runs; r++) {
      PetscCall(TimeEbe(ec, cpu, xc, yc, reps, &tc[r]));
      PetscCall(TimeEbe(es, cpu, xs, ys, reps, &tv[r]));
    }
    t_cpu   = EasBenchMedian(runs, tc);
    t_split = EasBenchMedian(runs, tv);
    t_ideal = 1.0 / (1.0 / t_gpu + 1.0 / t_cpu); /* both units busy all the time, no cost of sharing */
    PetscCall(EasEbeSplitGetState(es, NULL, &sh, NULL, NULL));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "BENCH name=gpu_ebe_split device=%s problem=elasticity order=2 n=%" PetscInt_FMT " units=gpu+cpu:%" PetscInt_FMT " shares=%" PetscInt_FMT "/%" PetscInt_FMT " decision=%s gpu_alone_ms=%.4f cpu_alone_ms=%.4f split_ms=%.4f speedup_vs_gpu=%.3f split_over_best=%.3f efficiency=%.3f\n", device, ebe_n, threads, sh[0], sh[1], sh[0] && sh[1] ? "split" : "declined", t_gpu * 1e3, t_cpu * 1e3, t_split * 1e3, t_gpu / t_split, t_split / PetscMin(t_gpu, t_cpu), t_ideal / t_split));
    { /* the operator on the device (issue 20 item 4): its vectors stay there, the CPU unit gets its gather list only */
      EasEbe         ed;
      EasVec         xd, yd, bd;
      EasBackend     ud;
      const char    *res;
      PetscLogDouble h0, d0, h1, d1;
      double         t_dsplit, t_best, t_ref, per;
      PetscScalar   *hbuf, *dbuf;
      PetscInt       nper;

      PetscCall(CreateEbe(be, ebe_n, -1, PETSC_FALSE, &ed, &xd, &yd, &bd));
      PetscCall(EasBackendGetResource(be, &res));
      PetscCall(EasBackendCreate(PETSC_COMM_SELF, res, &ud)); /* the device unit: the operator's backend */
      PetscCall(BalanceSplit(ed, ud, cpu, its, split_solves, bd, xd));
      PetscCall(EasVecSet(xd, 1.0));
      PetscCall(EasEbeMult(ed, xd, yd)); /* warm-up */
      PetscCall(EasBackendGetTransferBytes(be, &h0, &d0));
      for (PetscInt r = 0; r < runs; r++) PetscCall(TimeEbe(ed, be, xd, yd, reps, &tv[r]));
      PetscCall(EasBackendGetTransferBytes(be, &h1, &d1));
      t_dsplit = EasBenchMedian(runs, tv);
      per      = (h1 - h0 + d1 - d0) / (runs * reps); /* counted by the backend: 2 x 8 x the gather lists */
      /* the reference: the same bytes copied down and up (pageable, synchronous: what the pinned stream hides at best) */
      nper = (PetscInt)(per / 16.0 + 0.5);
      PetscCall(PetscMalloc1(PetscMax(nper, 1), &hbuf));
      PetscCall((*be->ops->malloc)(be, sizeof(PetscScalar) * PetscMax(nper, 1), (void **)&dbuf));
      for (PetscInt i = 0; i < nper; i++) hbuf[i] = 1.0;
      for (PetscInt r = 0; r < runs; r++) {
        PetscLogDouble t0, t1;
        PetscCall(EasBackendSynchronize(be));
        PetscCall(PetscTime(&t0));
        for (PetscInt k = 0; k < reps; k++) {
          PetscCall(EasBackendCopyHtoD(be, dbuf, hbuf, sizeof(PetscScalar) * nper));
          PetscCall(EasBackendCopyDtoH(be, hbuf, dbuf, sizeof(PetscScalar) * nper));
        }
        PetscCall(PetscTime(&t1));
        tc[r] = (t1 - t0) / reps;
      }
      t_ref = EasBenchMedian(runs, tc);
      PetscCall((*be->ops->free)(be, dbuf));
      PetscCall(PetscFree(hbuf));
      t_best = PetscMin(t_gpu, t_cpu);
      PetscCall(EasEbeSplitGetState(ed, NULL, &sh, NULL, NULL));
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "BENCH name=gpu_ebe_split_device device=%s problem=elasticity order=2 n=%" PetscInt_FMT " units=gpu+cpu:%" PetscInt_FMT " shares=%" PetscInt_FMT "/%" PetscInt_FMT " decision=%s gpu_alone_ms=%.4f cpu_alone_ms=%.4f split_ms=%.4f split_over_best=%.3f bytes_per_apply=%.0f xfer_ref_ms=%.4f xfer_ref_GBs=%.2f\n", device, ebe_n, threads, sh[0], sh[1], sh[0] && sh[1] ? "split" : "split_declined", t_gpu * 1e3, t_cpu * 1e3, t_dsplit * 1e3, t_dsplit / t_best, per, t_ref * 1e3, t_ref > 0 ? per / t_ref * 1e-9 : 0.0));
      PetscCall(EasBackendDestroy(&ud));
      PetscCall(EasVecDestroy(&xd));
      PetscCall(EasVecDestroy(&yd));
      PetscCall(EasVecDestroy(&bd));
      PetscCall(EasEbeDestroy(&ed));
    }
    PetscCall(EasVecDestroy(&xs));
    PetscCall(EasVecDestroy(&ys));
    PetscCall(EasVecDestroy(&bs));
    PetscCall(EasVecDestroy(&xc));
    PetscCall(EasVecDestroy(&yc));
    PetscCall(EasEbeDestroy(&es));
    PetscCall(EasEbeDestroy(&ec));
    PetscCall(EasBackendDestroy(&cpu));
  }
  PetscCall(EasBackendDestroy(&be));
  PetscCall(PetscFree2(tv, tc));
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    suffix: nodevice
    backends: none
    requires: !cuda-device
    args: -n 8 -runs 1 -reps 1
    expect: bench_gpu: /gpu/cuda is not usable here: (no CUDA device|CUDA module not loaded)
  test:
    suffix: host
    backends: none
    args: -device /cpu/serial -n 8 -its 3 -runs 1 -reps 2 -ebe_n 2 -threads 1 -split_solves 2
    expect: BENCH name=gpu_dia_spmv device=/cpu/serial mode=native n=8 rows=1024 ndiag=9 .* ratio_copy=[0-9.]+
    expect: BENCH name=gpu_bicgstab device=/cpu/serial .* ratio_bound=[0-9.]+
    expect: BENCH name=gpu_ebe_apply device=/cpu/serial kernel=host default=yes .* storage=symmetric deterministic=no elements=8
    expect_count: 8 BENCH name=gpu_ebe_apply
    expect: BENCH name=gpu_ebe_split device=/cpu/serial .* shares=[0-9]+/[0-9]+ decision=(split|declined) .* split_over_best=[0-9.]+ efficiency=[0-9.]+
  test:
    suffix: memcheck
    backends: none
    args: -device /cpu/memcheck -n 8 -its 3 -runs 1 -reps 2 -ebe_n 2 -threads 1 -split_solves 2
    expect: BENCH name=gpu_bicgstab device=/cpu/memcheck .* ratio_bound=[0-9.]+
    expect: BENCH name=gpu_ebe_apply device=/cpu/memcheck kernel=warp default=yes .* storage=symmetric_single deterministic=yes elements=8
    expect: BENCH name=gpu_ebe_apply device=/cpu/memcheck kernel=lanes default=no .* storage=symmetric deterministic=no elements=8
    expect: BENCH name=gpu_ebe_apply device=/cpu/memcheck kernel=warp8 default=no .* storage=symmetric deterministic=no elements=8
    expect_count: 11 BENCH name=gpu_ebe_apply device=/cpu/memcheck .* ratio_copy=[0-9.]+
    expect: BENCH name=gpu_ebe_split device=/cpu/memcheck .* shares=[0-9]+/[0-9]+ .* efficiency=[0-9.]+
    # the operator on memcheck: the split or split_declined, its bytes counted (the times are an emulation's)
    expect: BENCH name=gpu_ebe_split_device device=/cpu/memcheck .* decision=(split|split_declined) .* split_over_best=[0-9.]+ bytes_per_apply=[0-9]+ xfer_ref_ms=[0-9.]+
  test:
    suffix: smoke
    backends: none
    requires: cuda-device
    args: -n 16 -its 5 -runs 1 -reps 2 -ebe_n 3 -split_solves 2
    expect: BENCH name=gpu_dia_spmv device=/gpu/cuda mode=native
    expect: BENCH name=gpu_bicgstab
    expect: BENCH name=gpu_ebe_apply
    expect: BENCH name=gpu_ebe_split .* efficiency=[0-9.]+
    expect: BENCH name=gpu_ebe_split_device device=/gpu/cuda .* decision=(split|split_declined) .* split_over_best=[0-9.]+ bytes_per_apply=[0-9]+
  test:
    suffix: smoke_cusparse
    backends: none
    requires: cuda-device
    args: -n 16 -its 5 -runs 1 -reps 2 -ebe false -eas_cuda_spmv cusparse
    expect: BENCH name=gpu_dia_spmv device=/gpu/cuda mode=cusparse
    expect: BENCH name=gpu_bicgstab device=/gpu/cuda mode=cusparse
    expect_count: 0 BENCH name=gpu_ebe
  test:
    suffix: dia_only
    backends: none
    args: -device /cpu/serial -n 8 -its 3 -runs 1 -reps 1 -ebe false
    expect: BENCH name=gpu_bicgstab device=/cpu/serial
    expect_count: 0 BENCH name=gpu_ebe
TEST*/
