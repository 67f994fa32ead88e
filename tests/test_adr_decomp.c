static const char help[] = "Outer iterations per CVODE stage on several ranks against one rank (issue 21, item 5).\n"
                           "Kind of check: the same solver on one rank, where the multisplitting Newton is plain Newton\n"
                           "(no interface left to the halo), is the reference: on all ranks of the run, with the\n"
                           "decomposition of -adr_decomp (default auto: by coupling), the outer iterations per CVODE stage\n"
                           "(steps + error-test failures + nonlinear failures) must stay within -ratio_max of it.\n"
                           "  -n <32> -tfinal <14400> -ratio_max <1.5>\n";

#include <eas.h>

/* one CVODE solve of the diurnal problem on comm: outer iterations (max over ranks), stages, grid of ranks */
static PetscErrorCode Solve(MPI_Comm comm, PetscInt n, PetscReal tfinal, PetscInt *outer, PetscInt *stages, PetscInt dims[3])
{
  EasAdr                adr;
  EasAdrStats           st;
  EasAdrTSStats         ts;
  EasAdrConvergedReason reason;

  PetscFunctionBegin;
  PetscCall(EasAdrCreate(comm, &adr));
  PetscCall(EasAdrSetGrid(adr, n, n, n));
  PetscCall(EasAdrSetTimeStepType(adr, EAS_ADR_TS_CVODE));
  PetscCall(EasAdrSetFinalTime(adr, tfinal));
  PetscCall(EasAdrSetFromOptions(adr));
  PetscCall(EasAdrSetUp(adr));
  PetscCall(EasAdrSolve(adr, tfinal));
  PetscCall(EasAdrGetConvergedReason(adr, &reason));
  PetscCheck(reason > 0, comm, PETSC_ERR_NOT_CONVERGED, "eas ADR (cvode) did not converge: %s", EasAdrConvergedReasonName(reason));
  PetscCall(EasAdrGetStats(adr, &st));
  PetscCall(EasAdrGetTimeStepStats(adr, &ts));
  PetscCall(EasAdrGetDecomposition(adr, dims, NULL));
  *outer  = st.outer_its_max;
  *stages = ts.steps + ts.err_test_fails + ts.nonlin_conv_fails;
  PetscCall(EasAdrDestroy(&adr));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscInt    n = 32, res[2] = {0, 0}, outer, stages, dims[3], dims1[3];
  PetscReal   tfinal = 14400, ratio_max = 1.5, per1, per, ratio;
  PetscMPIInt rank, size;
  MPI_Comm    self0;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-tfinal", &tfinal, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-ratio_max", &ratio_max, NULL));
  /* the reference on rank 0 alone (the others wait); its own options: no -adr_decomp on one rank */
  PetscCallMPI(MPI_Comm_split(PETSC_COMM_WORLD, rank == 0 ? 0 : MPI_UNDEFINED, 0, &self0));
  if (rank == 0) {
    char      decomp[64];
    PetscBool has;
    PetscCall(PetscOptionsGetString(NULL, NULL, "-adr_decomp", decomp, sizeof(decomp), &has));
    if (has) PetscCall(PetscOptionsClearValue(NULL, "-adr_decomp"));
    PetscCall(Solve(self0, n, tfinal, &res[0], &res[1], dims1));
    if (has) PetscCall(PetscOptionsSetValue(NULL, "-adr_decomp", decomp));
    PetscCallMPI(MPI_Comm_free(&self0));
  }
  PetscCallMPI(MPI_Bcast(res, 2, MPIU_INT, 0, PETSC_COMM_WORLD));
  PetscCall(Solve(PETSC_COMM_WORLD, n, tfinal, &outer, &stages, dims));
  per1  = (PetscReal)res[0] / res[1];
  per   = (PetscReal)outer / stages;
  ratio = per / per1;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "diurnal %" PetscInt_FMT "^3, cvode to t = %g: 1 rank %" PetscInt_FMT " outer iterations in %" PetscInt_FMT " stages (%.2f per stage); %d ranks (%" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT ") %" PetscInt_FMT " in %" PetscInt_FMT " (%.2f per stage): ratio %.2f (at most %g)\n", n, (double)tfinal, res[0], res[1], (double)per1, size, dims[0], dims[1], dims[2], outer, stages, (double)per, (double)ratio, (double)ratio_max));
  PetscCheck(ratio <= ratio_max, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%d ranks take %.2f outer iterations per CVODE stage, %.2f x the %.2f of one rank: more than %g x", size, (double)per, (double)ratio, (double)per1, (double)ratio_max);
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    # issue 21, item 5: 4 ranks at 32^3 within 1.5 x one rank's outer iterations per stage (measured
    # 1.20 to t = 4 h, 1.35 over the day; the x-y cut 2,2,1 of MPI_Dims_create: 1.95 over the day)
    suffix: cvode_4ranks
    nsize: 4
    backends: /cpu/serial
    requires: sundials
    args: -n 32 -tfinal 14400
    expect: diurnal 32\^3, cvode to t = 14400\.?: 1 rank [0-9]+ outer iterations in [0-9]+ stages .*4 ranks \(1 x 4 x 1\)
  test:
    # the check can fail: a bound the counts do not meet (the x cut on 2 ranks, 8^3)
    suffix: bound_fails
    nsize: 2
    backends: /cpu/serial
    requires: sundials
    args: -n 8 -tfinal 3600 -adr_decomp 2,1,1 -adr_overlap 0 -ratio_max 1.0
    expect_error: 2 ranks take [0-9.]+ outer iterations per CVODE stage, [0-9.]+ x the [0-9.]+ of one rank: more than 1\.? x
TEST*/
