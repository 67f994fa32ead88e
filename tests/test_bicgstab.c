static const char help[] = "eas BiCGStab against PETSc KSPBCGS (right preconditioning, unpreconditioned norm) on the same\n"
                           "systems: the 3D two-species ADR Jacobian and a random banded matrix.  With several processes\n"
                           "the system is block diagonal, one EasDia per process, so the global reductions are tested.\n"
                           "Kind of check: peer code (PETSc KSPBCGS; with -pc_type ilu PETSc's PCILU, levels -pc_factor_levels\n"
                           "(0), natural ordering, on each process's block: PCBJACOBI with one ILU block per process on several).\n"
                           "  -problem adr|random  -n <grid or rows>  -its_tol <2>  -its_rtol <0: allowed relative difference\n"
                           "  of the iteration counts, added to -its_tol>  -sol_tol <1e-6>\n"
                           "  -fixed_its <k>: both solvers stop after k iterations (DIVERGED_ITS); their iterates, which depend\n"
                           "  on every preconditioner application, are compared (-sol_tol), not the converged answers\n"
                           "  -ref: also solve on the backend of the options prefixed ref_ (e.g. -ref_eas_cpu_ilu_blocks 0)\n"
                           "  and require the same counts and iterates within -ref_tol <1e-12> (two layouts of one algorithm)\n";

#include <eas.h>
#include "axes_perm.h" /* AxesPermutation, AxesOrderingRegister */

/* Random diagonally dominant nonsymmetric banded matrix as SeqAIJ. */
static PetscErrorCode RandomSystem(PetscInt n, PetscRandom rnd, Mat *M)
{
  const PetscInt off[7] = {-9, -3, -1, 0, 1, 4, 10};

  PetscFunctionBegin;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n, n, 7, NULL, M));
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt d = 0; d < 7; d++) {
      const PetscInt j = i + off[d];
      PetscScalar    v;
      if (j < 0 || j >= n) continue;
      PetscCall(PetscRandomGetValue(rnd, &v));
      if (off[d] == 0) v = 4.5 + v; /* in [3.5, 5.5]: diagonally dominant, so the iteration counts do not hinge on rounding */
      PetscCall(MatSetValue(*M, i, j, v, INSERT_VALUES));
    }
  PetscCall(MatAssemblyBegin(*M, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*M, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* The block diagonal global MPIAIJ whose local block is the SeqAIJ Mloc. */
static PetscErrorCode GlobalBlockDiagonal(Mat Mloc, Mat *M)
{
  PetscInt n, rstart;

  PetscFunctionBegin;
  PetscCall(MatGetSize(Mloc, &n, NULL));
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, n, n, PETSC_DETERMINE, PETSC_DETERMINE, 9, NULL, 0, NULL, M));
  PetscCall(MatGetOwnershipRange(*M, &rstart, NULL));
  for (PetscInt i = 0; i < n; i++) {
    PetscInt           nc, gi = i + rstart, gcols[64];
    const PetscInt    *cols;
    const PetscScalar *vals;
    PetscCall(MatGetRow(Mloc, i, &nc, &cols, &vals));
    PetscCheck(nc <= 64, PETSC_COMM_SELF, PETSC_ERR_PLIB, "row too long");
    for (PetscInt c = 0; c < nc; c++) gcols[c] = cols[c] + rstart;
    PetscCall(MatSetValues(*M, 1, &gi, nc, gcols, vals, INSERT_VALUES));
    PetscCall(MatRestoreRow(Mloc, i, &nc, &cols, &vals));
  }
  PetscCall(MatAssemblyBegin(*M, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*M, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* eas BiCGStab on A (the ADR box n^3 when n > 0, for -pc_ilu_axes), the
   solver's options from the database: x = the solution of A x = b. */
static PetscErrorCode EasSolve(EasDia A, PetscInt n, PetscReal rtol, PetscInt max_it, PetscBool species_fills, PetscBool dfill_zero, Vec b, Vec x, PetscInt *its, KSPConvergedReason *reason)
{
  EasKsp eksp;
  EasVec ex, eb;

  PetscFunctionBegin;
  PetscCall(EasKspCreate(PETSC_COMM_WORLD, &eksp));
  PetscCall(EasKspSetOperator(eksp, A));
  PetscCall(EasKspSetTolerances(eksp, rtol, PETSC_DEFAULT, PETSC_DEFAULT, max_it));
  if (n > 0) { /* the gallery's box, for -pc_ilu_axes */
    const PetscInt box[3] = {n, n, n};
    PetscCall(EasKspSetILUGrid(eksp, 2, box));
  }
  if (species_fills || dfill_zero) { /* the ADR's structure: neighbours couple the same species; the random problem has no box (an error) */
    const PetscInt ofill[4] = {1, 0, 0, 1}, dfill[4] = {0, 1, 1, 1};
    PetscCall(EasKspSetILUBlockFills(eksp, dfill_zero ? dfill : NULL, ofill));
  }
  PetscCall(EasKspSetFromOptions(eksp));
  PetscCall(EasDiaCreateVecs(A, &ex, &eb));
  PetscCall(EasVecCopyFromVec(eb, b));
  PetscCall(EasKspSolve(eksp, eb, ex));
  PetscCall(EasKspGetIterationNumber(eksp, its));
  PetscCall(EasKspGetConvergedReason(eksp, reason));
  PetscCall(EasVecCopyToVec(ex, x));
  PetscCall(EasKspDestroy(&eksp));
  PetscCall(EasVecDestroy(&ex));
  PetscCall(EasVecDestroy(&eb));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  char               problem[16] = "adr", pc[16] = "jacobi";
  PetscInt           n = 16, its_eas, its_petsc, its_tol = 2, nloc, fixed_its = 0, max_it = 2000;
  PetscReal          sol_tol = 1e-6, ref_tol = 1e-12, rtol = 1e-8, rel, xnorm, rres_eas, rres_petsc, bnorm, its_rtol = 0;
  PetscMPIInt        rank, size;
  PetscRandom        rnd;
  PetscBool          isadr, species_fills = PETSC_FALSE, dfill_zero = PETSC_FALSE, ref = PETSC_FALSE;
  EasBackend         be;
  EasDia             A;
  Mat                Mloc, M;
  Vec                b, x, xe, r;
  KSP                ksp;
  PC                 ppc;
  KSPConvergedReason reason_eas, reason_petsc;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "test_bicgstab options", NULL);
  PetscCall(PetscOptionsString("-problem", "adr or random", NULL, problem, problem, sizeof(problem), NULL));
  PetscCall(PetscOptionsInt("-n", "grid points per direction (adr) or rows (random)", NULL, n, &n, NULL));
  PetscCall(PetscOptionsInt("-its_tol", "allowed difference of iteration counts", NULL, its_tol, &its_tol, NULL));
  PetscCall(PetscOptionsReal("-its_rtol", "allowed relative difference of iteration counts (added to -its_tol)", NULL, its_rtol, &its_rtol, NULL));
  PetscCall(PetscOptionsReal("-sol_tol", "allowed relative difference of the solutions", NULL, sol_tol, &sol_tol, NULL));
  PetscCall(PetscOptionsInt("-fixed_its", "stop both solvers after this many iterations and compare the iterates (0: solve to rtol)", NULL, fixed_its, &fixed_its, NULL));
  PetscCheck(fixed_its >= 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-fixed_its %" PetscInt_FMT ": expected an iteration count >= 0", fixed_its);
  if (fixed_its) {
    rtol   = 1e-30;
    max_it = fixed_its;
  }
  PetscCall(PetscOptionsBool("-ref", "solve again on the backend of the options prefixed ref_ and compare (same counts, iterates within -ref_tol)", NULL, ref, &ref, NULL));
  PetscCall(PetscOptionsReal("-ref_tol", "allowed relative difference of the -ref solve's iterate", NULL, ref_tol, &ref_tol, NULL));
  PetscCall(PetscOptionsBool("-ilu_species_fills", "EasKspSetILUBlockFills: neighbours couple the same species only (the ADR's transport)", NULL, species_fills, &species_fills, NULL));
  PetscCall(PetscOptionsBool("-ilu_dfill_zero", "EasKspSetILUBlockFills with dfill[0][0] = 0 (an error)", NULL, dfill_zero, &dfill_zero, NULL));
  PetscOptionsEnd();
  PetscCall(PetscStrcmp(problem, "adr", &isadr));
  {
    char axes[8] = "xyz"; /* PETSc's "eas_axes": the order of eas's -pc_ilu_axes (the same option) */
    PetscCall(PetscOptionsGetString(NULL, NULL, "-pc_ilu_axes", axes, sizeof(axes), NULL));
    PetscCall(AxesOrderingRegister(isadr ? n : 0, axes));
  }

  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 100 + rank));
  PetscCall(PetscRandomSeed(rnd));
  PetscCall(PetscRandomSetInterval(rnd, -1.0, 1.0));

  /* the local block, as EasDia and as SeqAIJ */
  PetscCall(EasBackendCreateFromOptions(PETSC_COMM_SELF, NULL, &be));
  PetscCall(EasDiaCreate(PETSC_COMM_SELF, &A));
  PetscCall(EasDiaSetBackend(A, be));
  PetscCall(EasDiaSetFromOptions(A));
  if (isadr) {
    PetscCall(EasDiaSetFromGallery(A, "adr", n));
    PetscCall(EasDiaConvertToMat(A, &Mloc));
  } else {
    PetscCall(RandomSystem(n, rnd, &Mloc));
    PetscCall(EasDiaSetFromMat(A, Mloc));
  }
  PetscCall(GlobalBlockDiagonal(Mloc, &M));
  PetscCall(MatGetLocalSize(M, &nloc, NULL));

  /* right-hand side: random */
  PetscCall(MatCreateVecs(M, &x, &b));
  PetscCall(VecDuplicate(x, &xe));
  PetscCall(VecDuplicate(x, &r));
  PetscCall(VecSetRandom(b, rnd));
  PetscCall(VecNorm(b, NORM_2, &bnorm));

  /* eas */
  PetscCall(EasSolve(A, isadr ? n : 0, rtol, max_it, species_fills, dfill_zero, b, xe, &its_eas, &reason_eas));
  if (ref) { /* the same solve on a second backend (-ref_eas_backend, -ref_eas_...): the same iterates */
    EasBackend         rbe;
    EasDia             rA;
    Vec                xr;
    PetscInt           its_ref;
    KSPConvergedReason reason_ref;
    PetscReal          rnorm;
    PetscCall(EasBackendCreateFromOptions(PETSC_COMM_SELF, "ref_", &rbe));
    PetscCall(EasDiaCreate(PETSC_COMM_SELF, &rA));
    PetscCall(EasDiaSetBackend(rA, rbe));
    PetscCall(EasDiaSetFromMat(rA, Mloc));
    PetscCall(VecDuplicate(x, &xr));
    PetscCall(EasSolve(rA, isadr ? n : 0, rtol, max_it, species_fills, dfill_zero, b, xr, &its_ref, &reason_ref));
    PetscCall(VecAXPY(xr, -1.0, xe));
    PetscCall(VecNorm(xr, NORM_2, &rnorm));
    PetscCall(VecNorm(xe, NORM_2, &rel));
    rnorm /= rel;
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  against the -ref_ backend: %s after %" PetscInt_FMT " its (eas %" PetscInt_FMT "); ||x_eas - x_ref|| / ||x_eas|| = %.3e (allowed %.0e)\n", KSPConvergedReasons[reason_ref], its_ref, its_eas, (double)rnorm, (double)ref_tol));
    PetscCheck(its_ref == its_eas && reason_ref == reason_eas && rnorm <= ref_tol, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "the -ref_ backend's solve differs from eas's");
    PetscCall(VecDestroy(&xr));
    PetscCall(EasDiaDestroy(&rA));
    PetscCall(EasBackendDestroy(&rbe));
  }

  /* PETSc: same method, same preconditioner side and norm */
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOptionsPrefix(ksp, "petsc_"));
  PetscCall(KSPSetOperators(ksp, M, M));
  PetscCall(KSPSetType(ksp, KSPBCGS));
  PetscCall(KSPGetPC(ksp, &ppc));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-pc_type", pc, sizeof(pc), NULL));
  PetscCall(KSPSetPCSide(ksp, PC_RIGHT));
  PetscCall(KSPSetNormType(ksp, KSP_NORM_UNPRECONDITIONED));
  PetscCall(KSPSetTolerances(ksp, rtol, PETSC_DEFAULT, PETSC_DEFAULT, max_it));
  PetscCall(KSPSetFromOptions(ksp));
  {
    PetscBool ilu;
    PetscCall(PetscStrcmp(pc, "ilu", &ilu));
    if (ilu && size > 1) { /* one ILU(0) block per process: the local blocks eas factors */
      KSP     *sub;
      PC       spc;
      PetscInt nsub;
      PetscCall(PCSetType(ppc, PCBJACOBI));
      PetscCall(KSPSetOperators(ksp, M, M));
      PetscCall(KSPSetUp(ksp));
      PetscCall(PCBJacobiGetSubKSP(ppc, &nsub, NULL, &sub));
      PetscCall(KSPGetPC(sub[0], &spc));
      PetscCall(PCSetType(spc, PCILU));
      ppc = spc;
    } else
      PetscCall(PCSetType(ppc, pc));
    if (ilu) {
      PetscInt levels = 0; /* eas reads the same option (EasKspSetILULevels) */
      PetscCall(PetscOptionsGetInt(NULL, NULL, "-pc_factor_levels", &levels, NULL));
      PetscCall(PCFactorSetLevels(ppc, levels));
      PetscCall(PCFactorSetMatOrderingType(ppc, isadr ? "eas_axes" : MATORDERINGNATURAL));
    }
  }
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, &its_petsc));
  PetscCall(KSPGetConvergedReason(ksp, &reason_petsc));

  /* true residuals and difference of the solutions */
  PetscCall(MatMult(M, xe, r));
  PetscCall(VecAYPX(r, -1.0, b));
  PetscCall(VecNorm(r, NORM_2, &rres_eas));
  PetscCall(MatMult(M, x, r));
  PetscCall(VecAYPX(r, -1.0, b));
  PetscCall(VecNorm(r, NORM_2, &rres_petsc));
  PetscCall(VecNorm(x, NORM_2, &xnorm));
  PetscCall(VecAXPY(xe, -1.0, x));
  PetscCall(VecNorm(xe, NORM_2, &rel));
  rel /= xnorm;
  rres_eas /= bnorm;
  rres_petsc /= bnorm;

  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "problem %s n=%" PetscInt_FMT " ranks=%d rows/rank=%" PetscInt_FMT " pc=%s rtol=%g\n", problem, n, size, nloc, pc, (double)rtol));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  eas   : %s after %" PetscInt_FMT " its, true rel residual %.3e\n", KSPConvergedReasons[reason_eas], its_eas, (double)rres_eas));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  PETSc : %s after %" PetscInt_FMT " its, true rel residual %.3e\n", KSPConvergedReasons[reason_petsc], its_petsc, (double)rres_petsc));
  its_tol += (PetscInt)(its_rtol * its_petsc);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  iterations differ by %" PetscInt_FMT " (allowed %" PetscInt_FMT "); ||x_eas - x_petsc|| / ||x_petsc|| = %.3e (allowed %.0e)\n", PetscAbsInt(its_eas - its_petsc), its_tol, (double)rel, (double)sol_tol));
  if (fixed_its) /* both stopped by the count, after the same number of iterations */
    PetscCheck(reason_eas == KSP_DIVERGED_ITS && reason_petsc == KSP_DIVERGED_ITS && its_eas == fixed_its && its_petsc == fixed_its, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "-fixed_its %" PetscInt_FMT ": a solver stopped otherwise", fixed_its);
  else {
    PetscCheck(reason_eas > 0 && reason_petsc > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "a solver did not converge");
    PetscCheck(PetscAbsInt(its_eas - its_petsc) <= its_tol, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "iteration counts differ by more than %" PetscInt_FMT, its_tol);
    PetscCheck(rres_eas <= 1.1 * rtol, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "eas true residual %g above rtol %g", (double)rres_eas, (double)rtol);
  }
  PetscCheck(rel <= sol_tol, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "solutions differ by %g > %g", (double)rel, (double)sol_tol);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "eas BiCGStab matches PETSc KSPBCGS\n"));

  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&xe));
  PetscCall(VecDestroy(&r));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&M));
  PetscCall(MatDestroy(&Mloc));
  PetscCall(EasDiaDestroy(&A));
  PetscCall(EasBackendDestroy(&be));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    suffix: adr16
    nsize: 1 2 4
    args: -problem adr -n 16
    expect: eas BiCGStab matches PETSc KSPBCGS
  test:
    suffix: adr16_csr
    nsize: 1 2
    backends: /cpu/memcheck
    args: -problem adr -n 16 -eas_memcheck_spmv csr
    expect: eas BiCGStab matches PETSc KSPBCGS
  test:
    suffix: adr32
    nsize: 1 2
    args: -problem adr -n 32
    expect: eas BiCGStab matches PETSc KSPBCGS
  test:
    suffix: adr48
    nsize: 1
    args: -problem adr -n 48 -ksp_converged_reason
    expect: Linear solve converged due to CONVERGED_RTOL
    expect: eas BiCGStab matches PETSc KSPBCGS
  test:
    suffix: random
    nsize: 1 2 4
    args: -problem random -n 3000
    expect: eas BiCGStab matches PETSc KSPBCGS
  test:
    suffix: random_none
    nsize: 1 2
    args: -problem random -n 2000 -pc_type none -ksp_monitor
    expect: 0 KSP Residual norm
    expect: eas BiCGStab matches PETSc KSPBCGS
  test:
    # issue 21 item 3, peer code: exact ILU(0) on the CPU against PETSc PCILU (levels 0, natural
    # ordering; on several ranks PCBJACOBI with one ILU(0) block per rank): counts within 10 % (+1)
    suffix: adr16_ilu
    nsize: 1 2
    backends: cpu
    args: -problem adr -n 16 -pc_type ilu -its_tol 1 -its_rtol 0.1
    expect: pc=ilu
    expect: eas BiCGStab matches PETSc KSPBCGS
  test:
    suffix: adr24_ilu_dt
    nsize: 1
    backends: cpu
    args: -problem adr -n 24 -dia_gallery_dt 28800 -pc_type ilu -its_tol 1 -its_rtol 0.1
    expect: eas BiCGStab matches PETSc KSPBCGS
  test:
    suffix: random_ilu
    nsize: 1 2
    backends: cpu
    args: -problem random -n 3000 -pc_type ilu -its_tol 1 -its_rtol 0.1
    expect: eas BiCGStab matches PETSc KSPBCGS
  test:
    # the parallel form (Chow and Patel; /cpu/memcheck runs what CUDA runs) converges to the exact
    # factor and solves: with enough sweeps its counts are PETSc's PCILU's
    suffix: adr16_ilu_parallel
    nsize: 1 2
    backends: /cpu/memcheck
    args: -problem adr -n 16 -pc_type ilu -pc_ilu_factor_sweeps 20 -pc_ilu_solve_sweeps 40 -its_tol 1 -its_rtol 0.1
    expect: eas BiCGStab matches PETSc KSPBCGS
  test:
    # the same on a GPU: the CUDA kernels of the parallel form (the launches memcheck emulates)
    suffix: adr16_ilu_cuda
    nsize: 1
    backends: /gpu/cuda
    requires: cuda-device
    args: -problem adr -n 16 -pc_type ilu -pc_ilu_factor_sweeps 20 -pc_ilu_solve_sweeps 40 -its_tol 1 -its_rtol 0.1
    expect: eas BiCGStab matches PETSc KSPBCGS
  test:
    # ILU(k) (-pc_factor_levels k, issue 21 item 3): the factor on A's offsets and their level-k fill, against
    # PETSc PCILU with the same levels (natural ordering): the same counts exactly
    suffix: adr16_ilu_levels
    nsize: 1 2
    backends: /cpu/serial
    args: -problem adr -n 16 -pc_type ilu -pc_factor_levels 2 -its_tol 0 -ksp_view
    expect: ILU\(2\) on 37 offsets \(the operator's 9 and their level-2 fill\), exact
    expect: eas BiCGStab matches PETSc KSPBCGS
  test:
    # the CPU's substitutions in blocks of 16 rows (ILU(2), 37 offsets: every offset but -2 -1 1 2 at least
    # 16 rows away): 2 x 15^3 = 6750 rows, so the first interior row is not on a block boundary and the last 14
    # rows are no whole block (read by rows).  Peer: PETSc's counts exactly; and the same solve with the
    # factor by rows (-ref_eas_cpu_ilu_blocks 0): the same counts and iterates to rounding (a wrong
    # column in one row per block moved them by 3e-10)
    suffix: adr15_ilu2_blocks
    nsize: 1
    backends: /cpu/serial /cpu/openmp
    args: -problem adr -n 15 -dia_gallery_dt 28800 -pc_type ilu -pc_factor_levels 2 -its_tol 0 -info :sys -ref -ref_eas_backend /cpu/serial -ref_eas_cpu_ilu_blocks 0
    expect: ILU factor on 37 offsets laid out in blocks of 16 rows \(421 whole blocks, 14 rows by rows\)
    expect: against the -ref_ backend: CONVERGED_RTOL
    expect: eas BiCGStab matches PETSc KSPBCGS
  test:
    # the same with the factor read in float (the blocks convert 4 values at a time), z-lines innermost
    suffix: adr15_ilu2_blocks_single
    nsize: 1
    backends: /cpu/serial
    args: -problem adr -n 15 -dia_gallery_dt 28800 -pc_type ilu -pc_factor_levels 2 -pc_ilu_axes zxy -ilu_species_fills -pc_ilu_precision single -its_tol 1 -info :sys -ref -ref_eas_backend /cpu/serial -ref_eas_cpu_ilu_blocks 0
    expect: ILU factor on 37 offsets laid out in blocks of 16 rows \(421 whole blocks, 14 rows by rows\)
    expect: against the -ref_ backend: CONVERGED_RTOL
    expect: eas BiCGStab matches PETSc KSPBCGS
  test:
    # ILU(1) with the ADR's block fills, z-lines innermost: 19 offsets, blocked from 16 on (the rows it is
    # compared with are then the factor by diagonals)
    suffix: adr15_ilu1_blocks
    nsize: 1
    backends: /cpu/openmp
    args: -problem adr -n 15 -dia_gallery_dt 28800 -pc_type ilu -pc_factor_levels 1 -pc_ilu_axes zxy -ilu_species_fills -its_tol 0 -info :sys -ref -ref_eas_backend /cpu/serial -ref_eas_cpu_ilu_blocks 0
    expect: ILU factor on 19 offsets laid out in blocks of 16 rows \(421 whole blocks, 14 rows by rows\)
    expect: against the -ref_ backend: CONVERGED_RTOL
    expect: eas BiCGStab matches PETSc KSPBCGS
  test:
    # -fixed_its: the iterates after 2 iterations, which depend on every application: rows against blocks
    # to rounding; PETSc's to 1e-4 only, its ILU(2) being another factor than eas's on the DIA offsets
    # (PETSc's levels are an entry's, eas's a diagonal's): 3e-7 apart after one iteration, 3e-6 after two
    suffix: adr15_ilu2_blocks_its
    nsize: 1
    backends: /cpu/serial
    args: -problem adr -n 15 -dia_gallery_dt 28800 -pc_type ilu -pc_factor_levels 2 -fixed_its 2 -sol_tol 1e-4 -ref -ref_eas_backend /cpu/serial -ref_eas_cpu_ilu_blocks 0
    expect: against the -ref_ backend: DIVERGED_ITS after 2 its
    expect: eas BiCGStab matches PETSc KSPBCGS
  test:
    # the same for ILU(1) zxy with the block fills and ILU(2) zxy in float: the blocked layout's factor is
    # made 4 rows at a time (the far pairs side by side, cpu.c EasIluFactorRows), the rows layout's one row at
    # a time; a factor that drops one far pair per entry moves the iterates after 2 iterations by 3e-5
    suffix: adr15_ilu1_group_its
    nsize: 1
    backends: /cpu/serial
    args: -problem adr -n 15 -dia_gallery_dt 28800 -pc_type ilu -pc_factor_levels 1 -pc_ilu_axes zxy -ilu_species_fills -fixed_its 2 -sol_tol 1e-4 -ref -ref_eas_backend /cpu/serial -ref_eas_cpu_ilu_blocks 0
    expect: against the -ref_ backend: DIVERGED_ITS after 2 its
    expect: eas BiCGStab matches PETSc KSPBCGS
  test:
    suffix: adr15_ilu2_group_its_single
    nsize: 1
    backends: /cpu/serial
    args: -problem adr -n 15 -dia_gallery_dt 28800 -pc_type ilu -pc_factor_levels 2 -pc_ilu_axes zxy -ilu_species_fills -pc_ilu_precision single -fixed_its 2 -sol_tol 1e-4 -ref -ref_eas_backend /cpu/serial -ref_eas_cpu_ilu_blocks 0
    expect: against the -ref_ backend: DIVERGED_ITS after 2 its
    expect: eas BiCGStab matches PETSc KSPBCGS
  test:
    suffix: fixed_its_negative
    nsize: 1
    backends: /cpu/serial
    args: -problem adr -n 6 -fixed_its -1
    expect_error: -fixed_its -1: expected an iteration count >= 0
  test:
    suffix: adr24_ilu1_dt
    nsize: 1
    backends: /cpu/serial
    args: -problem adr -n 24 -dia_gallery_dt 28800 -pc_type ilu -pc_factor_levels 1 -its_tol 0
    expect: eas BiCGStab matches PETSc KSPBCGS
  test:
    suffix: random_ilu2
    nsize: 1
    backends: /cpu/openmp
    args: -problem random -n 3000 -pc_type ilu -pc_factor_levels 2 -its_tol 1
    expect: eas BiCGStab matches PETSc KSPBCGS
  test:
    # the parallel form on the larger pattern (what CUDA runs), enough sweeps: PETSc's counts
    suffix: adr16_ilu2_parallel
    nsize: 1 2
    backends: /cpu/memcheck
    args: -problem adr -n 16 -pc_type ilu -pc_factor_levels 2 -pc_ilu_factor_sweeps 20 -pc_ilu_solve_sweeps 40 -its_tol 1 -its_rtol 0.1
    expect: eas BiCGStab matches PETSc KSPBCGS
  test:
    suffix: adr16_ilu2_cuda
    nsize: 1
    backends: /gpu/cuda
    requires: cuda-device
    args: -problem adr -n 16 -pc_type ilu -pc_factor_levels 2 -pc_ilu_factor_sweeps 20 -pc_ilu_solve_sweeps 40 -its_tol 1 -its_rtol 0.1
    expect: eas BiCGStab matches PETSc KSPBCGS
  test:
    # -pc_ilu_axes zxy: the factor of P A P' (z-lines innermost), against PETSc PCILU with the same ordering
    # (MatOrderingRegister "eas_axes": the same permutation) and levels: the same counts exactly
    suffix: adr16_ilu_axes
    nsize: 1 2
    backends: /cpu/openmp
    args: -problem adr -n 16 -pc_type ilu -pc_ilu_axes zxy -pc_factor_levels 2 -its_tol 0 -ksp_view
    expect: ILU\(2\) of P A P' \(axes zxy\) on 47 offsets, exact
    expect: eas BiCGStab matches PETSc KSPBCGS
  test:
    # EasKspSetILUBlockFills (the ADR's: neighbours couple the same species): the zeros DIA stores
    # between a point's species and its neighbour's other species, and their fill, leave the pattern
    # (47 -> 37 offsets); PETSc's AIJ holds no such entries: the same counts exactly
    suffix: adr16_ilu_axes_fills
    nsize: 1 2
    backends: /cpu/serial
    args: -problem adr -n 16 -pc_type ilu -pc_ilu_axes zxy -pc_factor_levels 2 -ilu_species_fills -its_tol 0 -ksp_view
    expect: ILU\(2\) of P A P' \(axes zxy\) on 37 offsets, exact
  test:
    # the factor read in float (-pc_ilu_precision single), PETSc's in double: the same counts to one
    # iteration (the preconditioner differs by the rounding only), the same answer to the tolerance
    suffix: adr16_ilu_single
    nsize: 1 2
    backends: cpu /cpu/memcheck
    args: -problem adr -n 16 -pc_type ilu -pc_ilu_axes zxy -pc_factor_levels 2 -ilu_species_fills -pc_ilu_precision single -pc_ilu_factor_sweeps 20 -pc_ilu_solve_sweeps 40 -its_tol 1 -its_rtol 0.1 -ksp_view
    expect: ILU\(2\) of P A P' \(axes zxy\) on 37 offsets, .*factor read in single
    expect: eas BiCGStab matches PETSc KSPBCGS
  test:
    suffix: adr16_ilu0_single
    nsize: 1
    backends: cpu
    args: -problem adr -n 16 -pc_type ilu -pc_ilu_precision single -its_tol 1
    expect: eas BiCGStab matches PETSc KSPBCGS
  test:
    suffix: adr16_ilu_single_cuda
    nsize: 1
    backends: /gpu/cuda
    requires: cuda-device
    args: -problem adr -n 16 -pc_type ilu -pc_ilu_axes zxy -pc_factor_levels 2 -pc_ilu_precision single -pc_ilu_factor_sweeps 20 -pc_ilu_solve_sweeps 40 -its_tol 1 -its_rtol 0.1
    expect: eas BiCGStab matches PETSc KSPBCGS
  test:
    suffix: ilu_bad_precision
    nsize: 1
    backends: /cpu/serial
    args: -problem adr -n 8 -pc_type ilu -pc_ilu_precision half
    expect_error: -pc_ilu_precision
  test:
    suffix: adr16_ilu_axes_fills_parallel
    nsize: 1
    backends: /cpu/memcheck
    args: -problem adr -n 16 -pc_type ilu -pc_ilu_axes yzx -pc_factor_levels 1 -ilu_species_fills -pc_ilu_factor_sweeps 20 -pc_ilu_solve_sweeps 40 -its_tol 1 -its_rtol 0.1
  test:
    suffix: ilu_fills_no_box
    nsize: 1
    backends: /cpu/serial
    args: -problem random -n 300 -pc_type ilu -ilu_species_fills
    expect_error: EasKspSetILUBlockFills: call EasKspSetILUGrid first
  test:
    suffix: ilu_fills_no_pivot
    nsize: 1
    backends: /cpu/serial
    args: -problem adr -n 8 -pc_type ilu -ilu_dfill_zero
    expect_error: EasKspSetILUBlockFills: dfill\[0\]\[0\] is 0: expected every unknown to couple to itself
  test:
    suffix: adr16_ilu_axes_yzx
    nsize: 1
    backends: /cpu/serial
    args: -problem adr -n 16 -pc_type ilu -pc_ilu_axes yzx -pc_factor_levels 1 -its_tol 0
    expect: eas BiCGStab matches PETSc KSPBCGS
  test:
    suffix: adr16_ilu_axes_parallel
    nsize: 1 2
    backends: /cpu/memcheck
    args: -problem adr -n 16 -pc_type ilu -pc_ilu_axes zxy -pc_factor_levels 2 -pc_ilu_factor_sweeps 20 -pc_ilu_solve_sweeps 40 -its_tol 1 -its_rtol 0.1
    expect: eas BiCGStab matches PETSc KSPBCGS
  test:
    suffix: adr16_ilu_axes_cuda
    nsize: 1
    backends: /gpu/cuda
    requires: cuda-device
    args: -problem adr -n 16 -pc_type ilu -pc_ilu_axes zxy -pc_factor_levels 2 -pc_ilu_factor_sweeps 20 -pc_ilu_solve_sweeps 40 -its_tol 1 -its_rtol 0.1
    expect: eas BiCGStab matches PETSc KSPBCGS
  test:
    suffix: ilu_axes_no_box
    nsize: 1
    backends: /cpu/serial
    args: -problem random -n 300 -pc_type ilu -pc_ilu_axes zxy
    expect_error: -pc_ilu_axes zxy needs the operator's box \(EasKspSetILUGrid
  test:
    suffix: ilu_axes_bad
    nsize: 1
    backends: /cpu/serial
    args: -problem adr -n 8 -pc_type ilu -pc_ilu_axes zzy
    expect_error: -pc_ilu_axes zzy is invalid: expected a permutation of xyz
  test:
    suffix: ilu_levels_negative
    nsize: 1
    backends: /cpu/serial
    args: -problem adr -n 8 -pc_type ilu -pc_factor_levels -1
    expect_error: -pc_factor_levels -1 is invalid: expected a level of fill >= 0
  test:
    suffix: ilu_levels_cap
    nsize: 1
    backends: /cpu/serial
    args: -problem adr -n 16 -pc_type ilu -pc_factor_levels 8
    expect_error: -pc_factor_levels 8: the fill pattern has more than 255 offsets
  test:
    suffix: adr16_cusparse
    nsize: 1 2
    backends: /gpu/cuda
    requires: cuda-device
    args: -problem adr -n 16 -eas_cuda_spmv cusparse
    expect: eas BiCGStab matches PETSc KSPBCGS
TEST*/
