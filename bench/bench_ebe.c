static const char help[] = "eas element-by-element operator: EBE apply GB/s vs STREAM triad, eas cg ms/it vs PETSc KSPCG on the\n"
                           "assembled AIJ matrix, and the heterogeneous efficiency (seed 003 eq. 3.6) of the split over two\n"
                           "CPU units of unequal speed, all measured in one run (one process).\n"
                           "  -problem poisson|elasticity -order 1|2 -n <elements per direction> -threads <t>\n"
                           "  -its <cg iterations per timing> -runs <timings, median> -reps <applies per timing>\n"
                           "  -stream_n <doubles> -split_slow <factor of unit 1> -split_solves <solves>\n"
                           "Bytes of one apply: the element matrices (8 m^2 per element), the connectivity (4 nen),\n"
                           "the gathered x (8 m) and the scattered y (read and write, 16 m).\n";

#include <eas.h>
#include <omp.h>

static int CmpReal(const void *a, const void *b)
{
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double Median(PetscInt n, double *v)
{
  qsort(v, (size_t)n, sizeof(double), CmpReal);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* nrep triads a = b + s c with t threads; returns the elapsed seconds */
static double Triad(PetscInt n, double *restrict a, const double *restrict b, const double *restrict c, int t, PetscInt nrep)
{
  const double s  = 3.0;
  double       t0 = omp_get_wtime();
  for (PetscInt r = 0; r < nrep; r++) {
#pragma omp parallel for schedule(static) num_threads(t)
    for (PetscInt i = 0; i < n; i++) a[i] = b[i] + s * c[i];
  }
  return omp_get_wtime() - t0;
}

int main(int argc, char **argv)
{
  PetscInt   prob = 1, order = 2, n = 8, threads = 1, its = 30, runs = 5, reps = 10, stream_n = 4000000, split_solves = 20, nel, nen, dof, nnodes, m;
  PetscReal  slow = 2.0;
  EasBackend be;
  EasEbe     ebe;
  EasVec     x, y, b;
  EasKsp     ksp;
  Mat        A;
  Vec        bp, xp;
  KSP        pksp;
  PC         ppc;
  double    *tv, *sa, *sb, *sc, t_apply, t_stream, gbs_eas, gbs_stream, bytes, ms_eas, ms_petsc;
  char       res[32];

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscOptionsBegin(PETSC_COMM_SELF, NULL, "bench_ebe", NULL);
  PetscCall(PetscOptionsEList("-problem", "poisson or elasticity", NULL, EasEbeProblems, 2, EasEbeProblems[prob], &prob, NULL));
  PetscCall(PetscOptionsInt("-order", "1 or 2", NULL, order, &order, NULL));
  PetscCall(PetscOptionsInt("-n", "elements per direction", NULL, n, &n, NULL));
  PetscCall(PetscOptionsInt("-threads", "OpenMP threads of eas and STREAM", NULL, threads, &threads, NULL));
  PetscCall(PetscOptionsInt("-its", "CG iterations per timing", NULL, its, &its, NULL));
  PetscCall(PetscOptionsInt("-runs", "timings (median)", NULL, runs, &runs, NULL));
  PetscCall(PetscOptionsInt("-reps", "applies per timing", NULL, reps, &reps, NULL));
  PetscCall(PetscOptionsInt("-stream_n", "STREAM array length", NULL, stream_n, &stream_n, NULL));
  PetscCall(PetscOptionsReal("-split_slow", "slowdown of split unit 1", NULL, slow, &slow, NULL));
  PetscCall(PetscOptionsInt("-split_solves", "solves of the split case", NULL, split_solves, &split_solves, NULL));
  PetscOptionsEnd();
  PetscCall(PetscMalloc1(runs, &tv));

  /* STREAM triad, same threads */
  PetscCall(PetscMalloc3(stream_n, &sa, stream_n, &sb, stream_n, &sc));
#pragma omp parallel for schedule(static) num_threads((int)threads)
  for (PetscInt i = 0; i < stream_n; i++) {
    sa[i] = 0;
    sb[i] = 1;
    sc[i] = 2;
  }
  (void)Triad(stream_n, sa, sb, sc, (int)threads, 1);
  for (PetscInt r = 0; r < runs; r++) tv[r] = Triad(stream_n, sa, sb, sc, (int)threads, 5) / 5;
  t_stream   = Median(runs, tv);
  gbs_stream = 24.0 * stream_n / t_stream * 1e-9;
  PetscCall(PetscFree3(sa, sb, sc));

  /* EBE apply */
  PetscCall(PetscSNPrintf(res, sizeof(res), threads > 1 ? "/cpu" : "/cpu/serial"));
  PetscCall(EasBackendCreate(PETSC_COMM_SELF, res, &be));
  PetscCall(EasBackendSetThreads(be, threads));
  PetscCall(EasEbeCreate(PETSC_COMM_SELF, &ebe));
  PetscCall(EasEbeSetBackend(ebe, be));
  PetscCall(EasEbeSetFromMesh(ebe, (EasEbeProblem)prob, order, n, n, n));
  PetscCall(EasEbeSetUp(ebe));
  PetscCall(EasEbeGetSizes(ebe, &nel, &nen, &dof, &nnodes, NULL));
  m = nen * dof;
  PetscCall(EasEbeCreateVecs(ebe, &x, &y));
  PetscCall(EasEbeCreateVecs(ebe, &b, NULL));
  PetscCall(EasVecSet(x, 1.0));
  PetscCall(EasEbeMult(ebe, x, y));
  for (PetscInt r = 0; r < runs; r++) {
    double t0 = omp_get_wtime();
    for (PetscInt k = 0; k < reps; k++) PetscCall(EasEbeMult(ebe, x, y));
    tv[r] = (omp_get_wtime() - t0) / reps;
  }
  t_apply = Median(runs, tv);
  bytes   = (double)nel * (8.0 * m * m + 4.0 * nen + 8.0 * m + 16.0 * m);
  gbs_eas = bytes / t_apply * 1e-9;
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "# %s Q%" PetscInt_FMT " n=%" PetscInt_FMT ": %" PetscInt_FMT " elements of %" PetscInt_FMT "x%" PetscInt_FMT ", %.1f MB per apply; STREAM triad %.2f GB/s (%" PetscInt_FMT " doubles), load average at start: see run.sh\n", EasEbeProblems[prob], order, n, nel, m, m, bytes * 1e-6, gbs_stream, stream_n));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "BENCH name=ebe_apply problem=%s order=%" PetscInt_FMT " n=%" PetscInt_FMT " threads=%" PetscInt_FMT " elements=%" PetscInt_FMT " apply_ms=%.3f eas_GBs=%.2f stream_GBs=%.2f ratio_stream=%.3f\n", EasEbeProblems[prob], order, n, threads, nel, t_apply * 1e3, gbs_eas, gbs_stream, gbs_eas / gbs_stream));

  /* cg per iteration vs PETSc KSPCG on the assembled matrix (Jacobi both) */
  PetscCall(EasEbeAssemble(ebe, &A));
  PetscCall(MatCreateVecs(A, &xp, &bp));
  PetscCall(VecSet(bp, 1.0));
  PetscCall(EasEbeVecFromPetsc(ebe, bp, b));
  PetscCall(EasKspCreate(PETSC_COMM_SELF, &ksp));
  PetscCall(EasKspSetType(ksp, EAS_CG));
  PetscCall(EasKspSetOperatorEbe(ksp, ebe));
  PetscCall(EasKspSetTolerances(ksp, 1e-30, 1e-300, PETSC_DEFAULT, its));
  PetscCall(EasKspSetUp(ksp));
  PetscCall(KSPCreate(PETSC_COMM_SELF, &pksp));
  PetscCall(KSPSetOperators(pksp, A, A));
  PetscCall(KSPSetType(pksp, KSPCG));
  PetscCall(KSPSetNormType(pksp, KSP_NORM_UNPRECONDITIONED));
  PetscCall(KSPGetPC(pksp, &ppc));
  PetscCall(PCSetType(ppc, PCJACOBI));
  PetscCall(KSPSetTolerances(pksp, 1e-30, 1e-300, PETSC_DEFAULT, its));
  PetscCall(KSPSetUp(pksp));
  for (PetscInt r = 0; r < runs; r++) {
    double t0 = omp_get_wtime();
    PetscCall(EasKspSolve(ksp, b, x));
    tv[r] = (omp_get_wtime() - t0) / its;
  }
  ms_eas = Median(runs, tv) * 1e3;
  for (PetscInt r = 0; r < runs; r++) {
    double t0 = omp_get_wtime();
    PetscCall(KSPSolve(pksp, bp, xp));
    tv[r] = (omp_get_wtime() - t0) / its;
  }
  ms_petsc = Median(runs, tv) * 1e3;
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "BENCH name=ebe_cg problem=%s order=%" PetscInt_FMT " n=%" PetscInt_FMT " threads=%" PetscInt_FMT " unknowns=%" PetscInt_FMT " eas_ms_per_it=%.3f petsc_ms_per_it=%.3f ratio_petsc=%.3f\n", EasEbeProblems[prob], order, n, threads, nnodes * dof, ms_eas, ms_petsc, ms_petsc / ms_eas));
  PetscCall(KSPDestroy(&pksp));
  PetscCall(VecDestroy(&xp));
  PetscCall(VecDestroy(&bp));
  PetscCall(MatDestroy(&A));
  PetscCall(EasKspDestroy(&ksp));

  /* split over two CPU units of one thread, unit 1 slowed by -split_slow:
     each unit alone on all elements (T_u), then the split (T_D), seed 003 eq. 3.6 */
  {
    EasBackend       u[2];
    double           Talone[2], TD, E_meas;
    PetscReal        E_model, Tdev[2];
    const PetscInt  *sh;
    const PetscReal *tel;

    PetscCall(EasBackendCreate(PETSC_COMM_SELF, "/cpu", &u[0]));
    PetscCall(EasBackendCreate(PETSC_COMM_SELF, "/cpu", &u[1]));
    PetscCall(EasBackendSetThreads(u[0], 1));
    PetscCall(EasBackendSetThreads(u[1], 1));
    for (PetscInt k = 0; k < 2; k++) { /* unit k alone (fixed split: all elements) */
      PetscCall(EasEbeSetSplitUnits(ebe, 1, &u[k]));
      PetscCall(EasEbeSetTestSlowdown(ebe, 0, k == 1 ? slow : 1.0));
      for (PetscInt r = 0; r < runs; r++) {
        double t0 = omp_get_wtime();
        for (PetscInt q = 0; q < reps; q++) PetscCall(EasEbeMult(ebe, x, y));
        tv[r] = (omp_get_wtime() - t0) / reps;
      }
      Talone[k] = Median(runs, tv);
    }
    PetscCall(EasEbeSetTestSlowdown(ebe, 0, 1.0));
    PetscCall(EasEbeSetTestSlowdown(ebe, 1, slow));
    PetscCall(EasEbeSetSplitUnits(ebe, 2, u));
    PetscCall(EasKspCreate(PETSC_COMM_SELF, &ksp));
    PetscCall(EasKspSetType(ksp, EAS_CG));
    PetscCall(EasKspSetOperatorEbe(ksp, ebe));
    PetscCall(EasKspSetTolerances(ksp, 1e-30, 1e-300, PETSC_DEFAULT, its));
    for (PetscInt s = 0; s < split_solves; s++) PetscCall(EasKspSolve(ksp, b, x));
    for (PetscInt r = 0; r < runs; r++) {
      double t0 = omp_get_wtime();
      for (PetscInt q = 0; q < reps; q++) PetscCall(EasEbeMult(ebe, x, y));
      tv[r] = (omp_get_wtime() - t0) / reps;
    }
    TD      = Median(runs, tv);
    Tdev[0] = Talone[0];
    Tdev[1] = Talone[1];
    PetscCall(EasModelHeterogeneousEfficiency(TD, 2, Tdev, &E_model));
    E_meas = E_model;
    PetscCall(EasEbeSplitGetState(ebe, NULL, &sh, &tel, NULL));
    E_model = -1.0; /* no split decision yet (too few applies): reported as -1 */
    if (tel[0] > 0 && tel[1] > 0) PetscCall(EasEbeSplitEfficiency(ebe, &E_model));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "BENCH name=ebe_split problem=%s order=%" PetscInt_FMT " n=%" PetscInt_FMT " units=2x1thread slow=%.2f shares=%" PetscInt_FMT "/%" PetscInt_FMT " T_alone_ms=%.3f/%.3f T_split_ms=%.3f E_measured=%.3f E_smoothed=%.3f\n", EasEbeProblems[prob], order, n, (double)slow, sh[0], sh[1], Talone[0] * 1e3, Talone[1] * 1e3, TD * 1e3, E_meas, (double)E_model));
    PetscCall(EasKspDestroy(&ksp));
    PetscCall(EasBackendDestroy(&u[0]));
    PetscCall(EasBackendDestroy(&u[1]));
  }
  PetscCall(EasVecDestroy(&x));
  PetscCall(EasVecDestroy(&y));
  PetscCall(EasVecDestroy(&b));
  PetscCall(EasEbeDestroy(&ebe));
  PetscCall(EasBackendDestroy(&be));
  PetscCall(PetscFree(tv));
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    suffix: smoke
    backends: none
    args: -n 3 -its 3 -runs 1 -reps 2 -stream_n 100000 -split_solves 2
    expect: BENCH name=ebe_apply problem=elasticity order=2 n=3
    expect: BENCH name=ebe_cg
    expect: BENCH name=ebe_split
TEST*/
