static const char help[] = "The ADR inner preconditioner's lag (-adr_lag_preconditioner, EasAdrSetLagPreconditioner).\n"
                           "Kind of check: peer code, PETSc SNES newtonls + KSPBCGS (right) + PCILU with\n"
                           "SNESSetLagPreconditioner at the same lag, levels and ordering, on the same discretized system\n"
                           "(one rank, where the multisplitting Newton is Newton): per step the same Newton iterations,\n"
                           "the same BiCGStab iterations (+-1, or 5 %) and the same number of ILU factorizations (PETSc's\n"
                           "MatLUFactorNum events); and a rule derived by hand from SNES's lag (rebuild at Newton\n"
                           "iterations 0, k, 2k, ... of each solve; -1: only the first ever): ceil(n_step / k)\n"
                           "factorizations in a step of n_step Newton iterations.  The solutions agree to -tol.\n"
                           "  -lag <3> -steps <3> -tol <1e-7>; the ILU settings are eas's -adr_pc_factor_levels, -adr_pc_ilu_axes\n";

#include <eas.h>
#include <petscsnes.h>

#include "adr_snes_peer.h"
#include "axes_perm.h"

/* MatLUFactorNum events so far (PETSc's numeric factorizations) */
static PetscErrorCode PetscFactorizations(PetscInt *n)
{
  PetscLogEvent      ev;
  PetscEventPerfInfo info;

  PetscFunctionBegin;
  PetscCall(PetscLogEventGetId("MatLUFactorNum", &ev));
  PetscCall(PetscLogEventGetPerfInfo(0, ev, &info));
  *n = info.count;
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  EasAdr                adr, padr;
  EasAdrConvergedReason reason;
  EasAdrStats           st0, st1;
  AdrPeerCtx            c;
  SNES                  snes;
  KSP                   pksp;
  PC                    ppc;
  Mat                   J;
  Vec                   X, Y, D;
  PetscInt              lag = 3, steps = 3, levels = 0, nf0, nf1, rule_total = 0;
  PetscReal             tol = 1e-7, t0, dt, krtol = 1e-8, nd[2], nr[2], rel = 0;
  char                  axes[8] = "xyz";
  PetscMPIInt           size;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscLogDefaultBegin()); /* PETSc's factorizations are counted from its events */
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCheck(size == 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "test_adr_lag: one rank (the multisplitting Newton is PETSc's Newton only on one rank)");
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-lag", &lag, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-steps", &steps, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-tol", &tol, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-adr_pc_factor_levels", &levels, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-adr_pc_ilu_axes", axes, sizeof(axes), NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-adr_ksp_rtol", &krtol, NULL));

  /* eas: ILU, the lag through its setter (the option is read too: -adr_lag_preconditioner) */
  PetscCall(EasAdrCreate(PETSC_COMM_WORLD, &adr));
  PetscCall(EasAdrSetMaxSteps(adr, steps));
  PetscCall(EasAdrSetFromOptions(adr));
  PetscCall(EasAdrSetLagPreconditioner(adr, lag));
  {
    PetscInt got;
    PetscCall(EasAdrGetLagPreconditioner(adr, &got));
    PetscCheck(got == lag, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "EasAdrGetLagPreconditioner gives %" PetscInt_FMT " after EasAdrSetLagPreconditioner(%" PetscInt_FMT ")", got, lag);
  }
  PetscCall(EasAdrSetUp(adr));
  PetscCall(EasAdrGetTime(adr, &t0));
  PetscCall(EasAdrGetTimeStep(adr, &dt));

  /* the peer on the same system from the same initial state */
  PetscCall(EasAdrCreate(PETSC_COMM_WORLD, &padr));
  PetscCall(EasAdrSetFromOptions(padr));
  PetscCall(EasAdrSetUp(padr));
  PetscCall(EasAdrCreateGlobalVec(padr, &X));
  PetscCall(VecDuplicate(X, &c.Xold));
  PetscCall(VecDuplicate(X, &Y));
  PetscCall(VecDuplicate(X, &D));
  PetscCall(EasAdrGetSolution(padr, X));
  c.adr  = padr;
  c.dt   = dt;
  c.rtol = 1e-8;
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-adr_newton_rtol", &c.rtol, NULL));
  PetscCall(EasAdrCreateJacobianMat(padr, &J));
  PetscCall(AdrPeerCreateSNES(&c, J, krtol, PETSC_FALSE, NULL, &snes));
  PetscCall(SNESSetLagPreconditioner(snes, lag));
  PetscCall(SNESGetKSP(snes, &pksp));
  PetscCall(KSPGetPC(pksp, &ppc));
  PetscCall(PCSetType(ppc, PCILU));
  PetscCall(PCFactorSetLevels(ppc, levels));
  if (strcmp(axes, "xyz")) {
    PetscInt nx, ny, nz;
    PetscCall(EasAdrGetGrid(padr, &nx, &ny, &nz));
    PetscCheck(nx == ny && ny == nz, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-adr_pc_ilu_axes: the peer's ordering needs a cube (-adr_n)");
    PetscCall(AxesOrderingRegister(nx, axes));
    PetscCall(PCFactorSetMatOrderingType(ppc, "eas_axes"));
  } else
    PetscCall(PCFactorSetMatOrderingType(ppc, MATORDERINGNATURAL));

  PetscCall(EasAdrGetStats(adr, &st0));
  PetscCall(PetscFactorizations(&nf0));
  for (PetscInt k = 0; k < steps; k++) {
    PetscInt            its, lits, nn, ni, nb, rule;
    SNESConvergedReason sr;
    PetscCall(EasAdrStep(adr));
    PetscCall(EasAdrGetConvergedReason(adr, &reason));
    PetscCheck(reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "eas ADR with -adr_lag_preconditioner %" PetscInt_FMT " did not converge at step %" PetscInt_FMT ": %s", lag, k, EasAdrConvergedReasonName(reason));
    PetscCall(EasAdrGetStats(adr, &st1));
    nn  = st1.outer_its - st0.outer_its;
    ni  = st1.inner_its - st0.inner_its;
    nb  = st1.pc_builds - st0.pc_builds;
    st0 = st1;
    c.t = t0 + (k + 1) * dt;
    PetscCall(VecCopy(X, c.Xold));
    PetscCall(SNESSolve(snes, NULL, X));
    PetscCall(SNESGetConvergedReason(snes, &sr));
    PetscCheck(sr > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "PETSc SNES with -snes_lag_preconditioner %" PetscInt_FMT " did not converge at step %" PetscInt_FMT ": %s", lag, k, SNESConvergedReasons[sr]);
    PetscCall(SNESGetIterationNumber(snes, &its));
    PetscCall(SNESGetLinearSolveIterations(snes, &lits));
    PetscCall(PetscFactorizations(&nf1));
    /* SNES's rule: a factorization at the Newton iterations i of the solve with i % lag == 0; -1: the first one ever */
    rule = lag > 0 ? (nn + lag - 1) / lag : (k == 0 ? 1 : 0);
    rule_total += rule;
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "step %" PetscInt_FMT ": eas Newton %" PetscInt_FMT " inner %" PetscInt_FMT " ILU factorizations %" PetscInt_FMT "; PETSc Newton %" PetscInt_FMT " inner %" PetscInt_FMT " factorizations %" PetscInt_FMT "; the lag's rule %" PetscInt_FMT "\n", k, nn, ni, nb, its, lits, nf1 - nf0, rule));
    /* the inner counts to one iteration or 5 %: eas's and PETSc's residuals agree to rounding, not bitwise, and a
       BiCGStab count on a threshold moves by one (also at lag 1) */
    PetscCheck(nn == its && PetscAbsInt(ni - lits) <= PetscMax(1, lits / 20), PETSC_COMM_WORLD, PETSC_ERR_PLIB, "step %" PetscInt_FMT ": eas (Newton %" PetscInt_FMT ", inner %" PetscInt_FMT ") differs from PETSc SNES with the same lag (Newton %" PetscInt_FMT ", inner %" PetscInt_FMT ")", k, nn, ni, its, lits);
    PetscCheck(nb == nf1 - nf0 && nb == rule, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "step %" PetscInt_FMT ": eas factored %" PetscInt_FMT " times, PETSc %" PetscInt_FMT ", the lag's rule says %" PetscInt_FMT, k, nb, nf1 - nf0, rule);
    nf0 = nf1;
  }
  PetscCall(EasAdrGetSolution(adr, Y));
  PetscCall(VecWAXPY(D, -1.0, X, Y));
  PetscCall(EasAdrSpeciesNorms(adr, D, nd));
  PetscCall(EasAdrSpeciesNorms(adr, X, nr));
  for (PetscInt s = 0; s < 2; s++) rel = PetscMax(rel, nd[s] / nr[s]);
  PetscCheck(rel <= tol, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "the solutions differ by %g > %g (species-scaled, relative)", (double)rel, (double)tol);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "lag %" PetscInt_FMT ", ILU(%" PetscInt_FMT ") %s: %" PetscInt_FMT " factorizations in %" PetscInt_FMT " steps, as PETSc's and the rule's; solutions %.1e apart\n", lag, levels, axes, rule_total, steps, (double)rel));
  PetscCall(SNESDestroy(&snes));
  PetscCall(MatDestroy(&J));
  PetscCall(VecDestroy(&X));
  PetscCall(VecDestroy(&Y));
  PetscCall(VecDestroy(&D));
  PetscCall(VecDestroy(&c.Xold));
  PetscCall(EasAdrDestroy(&padr));
  PetscCall(EasAdrDestroy(&adr));
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    suffix: lag3
    nsize: 1
    backends: /cpu/serial /cpu/openmp
    args: -adr_n 12 -adr_pc_type ilu -adr_dt 3600 -lag 3
    expect: factorizations in 3 steps, as PETSc's and the rule's
  test:
    suffix: lag2_ilu2_zxy
    nsize: 1
    backends: /cpu/serial
    args: -adr_n 12 -adr_pc_type ilu -adr_pc_factor_levels 2 -adr_pc_ilu_axes zxy -adr_dt 3600 -lag 2
    expect: lag 2, ILU\(2\) zxy: [0-9]+ factorizations in 3 steps, as PETSc's
  test:
    suffix: never
    nsize: 1
    backends: /cpu/serial
    args: -adr_n 12 -adr_pc_type ilu -adr_dt 3600 -lag -1
    expect: lag -1, ILU\(0\) xyz: 1 factorizations in 3 steps
  test:
    suffix: every
    nsize: 1
    backends: /cpu/serial
    args: -adr_n 12 -adr_pc_type ilu -adr_dt 3600 -lag 1 -steps 2
    expect: lag 1, ILU\(0\) xyz
  test:
    suffix: bad_lag
    nsize: 1
    backends: /cpu/serial
    args: -adr_n 6 -adr_pc_type ilu -lag 0 -steps 1
    expect_error: -adr_lag_preconditioner 0 is invalid: expected 1
  test:
    suffix: lag_jacobi
    nsize: 1
    backends: /cpu/serial
    args: -adr_n 6 -adr_pc_type jacobi -lag 2 -steps 1
    expect_error: -adr_lag_preconditioner 2 needs -adr_pc_type ilu
TEST*/
