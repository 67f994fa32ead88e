static const char help[] = "Single-precision Newton Jacobian of the ADR solver (-adr_jacobian_precision single).\n"
                           "Kind of check: the same problem solved twice in one run, with the local Jacobian's values\n"
                           "(and its Jacobi-scaled copy) read in double and in single precision by the inner BiCGStab:\n"
                           "the solutions must agree within -tol (10 x the Newton tolerance) and, in sync mode, the Newton\n"
                           "(outer) iterations within -its_tol per step: Newton tolerates the approximate Jacobian.\n"
                           "  Async: the outer counts follow the message timing (no bound between two runs holds under every\n"
                           "  schedule), so they are reported; the solution and the convergence are asserted.\n"
                           "  -tol <1e-7> -its_tol <1> -steps <3>\n";

#include <eas.h>

/* one eas solve; the solution into X, outer iterations (max over ranks) and inner (sum) */
static PetscErrorCode Solve(EasPrecision prec, PetscInt steps, Vec *X, PetscInt *outer, PetscInt *inner, EasAdr *keep)
{
  EasAdr                adr;
  EasAdrStats           st;
  EasAdrConvergedReason reason;

  PetscFunctionBegin;
  PetscCall(EasAdrCreate(PETSC_COMM_WORLD, &adr));
  PetscCall(EasAdrSetMaxSteps(adr, steps));
  PetscCall(EasAdrSetFromOptions(adr));
  PetscCall(EasAdrSetJacobianPrecision(adr, prec));
  PetscCall(EasAdrSetUp(adr));
  PetscCall(EasAdrSolve(adr, PETSC_DEFAULT));
  PetscCall(EasAdrGetConvergedReason(adr, &reason));
  PetscCheck(reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "eas ADR (%s Jacobian) did not converge: %s", EasPrecisions[prec], EasAdrConvergedReasonName(reason));
  PetscCall(EasAdrGetStats(adr, &st));
  *outer = st.outer_its_max;
  PetscCall(MPIU_Allreduce(&st.inner_its, inner, 1, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD));
  PetscCall(EasAdrCreateGlobalVec(adr, X));
  PetscCall(EasAdrGetSolution(adr, *X));
  if (keep)
    *keep = adr;
  else
    PetscCall(EasAdrDestroy(&adr));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  EasAdr      adr;
  Vec         X0, X1, D;
  PetscInt    o0, i0, o1, i1, steps = 3, its_tol = 1;
  PetscReal   tol = 1e-7, nd[2], nr[2], rel = 0;
  PetscMPIInt size;
  EasAdrMode  mode;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-tol", &tol, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-steps", &steps, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-its_tol", &its_tol, NULL));
  PetscCall(Solve(EAS_PRECISION_DOUBLE, steps, &X0, &o0, &i0, NULL));
  PetscCall(Solve(EAS_PRECISION_SINGLE, steps, &X1, &o1, &i1, &adr));
  PetscCall(EasAdrGetMode(adr, &mode, NULL));
  PetscCall(VecDuplicate(X0, &D));
  PetscCall(VecWAXPY(D, -1.0, X0, X1));
  PetscCall(EasAdrSpeciesNorms(adr, D, nd));
  PetscCall(EasAdrSpeciesNorms(adr, X0, nr));
  for (PetscInt s = 0; s < 2; s++) rel = PetscMax(rel, nd[s] / nr[s]);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%d rank(s), %" PetscInt_FMT " steps: double Jacobian outer %" PetscInt_FMT " inner %" PetscInt_FMT "; single Jacobian outer %" PetscInt_FMT " inner %" PetscInt_FMT "\n", size, steps, o0, i0, o1, i1));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "species-scaled relative difference max_s ||x_s - y_s||/||y_s|| = %.3e (tolerance %g)\n", (double)rel, (double)tol));
  PetscCheck(rel <= tol, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "the single-Jacobian solution differs by %g > %g", (double)rel, (double)tol);
  if (mode == EAS_ADR_ASYNC) {
    /* Async outer counts are a statistic of the message timing: ~85-110 for either precision on
       4 ranks over 2 cores, with a second mode at ~150-165 in about one run in five, and wider
       under load or pinned to one core; a band from a few samples (the test's former -spread,
       up to 6 samples) still failed in CI.  No relation between two runs' counts holds under
       every schedule, so they are reported; what does hold is asserted: both converged (Solve)
       and the solutions agree.  The effect of the single Jacobian on Newton's iterations is
       asserted in the sync cases, where the counts are deterministic. */
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "single-precision Jacobian: same solution; async outer iterations %" PetscInt_FMT " (double) and %" PetscInt_FMT " (single) reported, not compared (they follow the message timing)\n", o0, o1));
  } else {
    PetscCheck(PetscAbsInt(o1 - o0) <= its_tol * steps, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "outer iterations %" PetscInt_FMT " (single) vs %" PetscInt_FMT " (double): more than %" PetscInt_FMT " per step apart", o1, o0, its_tol);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "single-precision Jacobian: same Newton iterations and solution\n"));
  }
  PetscCall(VecDestroy(&X0));
  PetscCall(VecDestroy(&X1));
  PetscCall(VecDestroy(&D));
  PetscCall(EasAdrDestroy(&adr));
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    suffix: diurnal
    nsize: 1 2 4
    backends: all
    args: -adr_n 12 -steps 3
    expect: single-precision Jacobian: same Newton iterations and solution
  test:
    suffix: transport
    nsize: 1 2 4
    backends: /cpu/serial /cpu/memcheck
    args: -adr_problem transport -adr_n 12 -steps 3
    expect: single-precision Jacobian: same Newton iterations and solution
  test:
    suffix: diurnal_async
    nsize: 2 4
    backends: /cpu/serial /cpu/memcheck
    args: -adr_n 12 -steps 3 -eas_mode async
    expect: single-precision Jacobian: same solution; async outer iterations [0-9]+ \(double\) and [0-9]+ \(single\) reported
  test:
    suffix: transport_async
    nsize: 2 4
    backends: /cpu/serial /cpu/memcheck
    args: -adr_problem transport -adr_n 12 -steps 3 -eas_mode async -adr_advection central
    expect: single-precision Jacobian: same solution; async outer iterations [0-9]+ \(double\) and [0-9]+ \(single\) reported
  test:
    suffix: csr_refused
    backends: /cpu/memcheck
    args: -adr_n 6 -steps 1 -eas_memcheck_spmv csr
    expect_error: Single-precision DIA values \(-adr_jacobian_precision single, EasDiaSetPrecision\) are read by the DIA kernels only
  test:
    suffix: gpu
    nsize: 1 2
    backends: /gpu/cuda
    requires: cuda-device
    args: -adr_n 12 -steps 3
    expect: single-precision Jacobian: same Newton iterations and solution
  test:
    suffix: transport_async_gpu
    nsize: 2
    backends: /gpu/cuda
    requires: cuda-device
    args: -adr_problem transport -adr_n 12 -steps 3 -eas_mode async -adr_advection central
    expect: single-precision Jacobian: same solution; async outer iterations [0-9]+ \(double\) and [0-9]+ \(single\) reported
  test:
    suffix: bad
    backends: none
    args: -adr_n 6 -steps 1 -adr_jacobian_precision half
    expect_error: Unknown value "half" for -adr_jacobian_precision: expected double or single
TEST*/
