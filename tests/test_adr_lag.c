static const char help[] = "The ADR lags: the inner preconditioner's (-adr_lag_preconditioner, EasAdrSetLagPreconditioner)\n"
                           "and the local Jacobian's (-adr_lag_jacobian, EasAdrSetLagJacobian).\n"
                           "Kind of check: peer code, PETSc SNES newtonls + KSPBCGS (right) + PCILU (or PCJACOBI with\n"
                           "-adr_pc_type jacobi) with SNESSetLagPreconditioner and SNESSetLagJacobian at the same lags\n"
                           "(eas's -1 is SNES's -2), levels and ordering, on the same discretized system (one rank, where\n"
                           "the multisplitting Newton is Newton): per step the same Newton iterations, the same BiCGStab\n"
                           "iterations (+-1, or 5 %), the same number of Jacobians (PETSc's SNESJacobianEval events) and\n"
                           "of ILU factorizations (MatLUFactorNum events); and rules derived by hand from SNES's lags\n"
                           "(a Jacobian at Newton iterations 0, kj, 2kj, ... of each solve; a factorization at those of\n"
                           "them that are also multiples of kp; -1: only the first ever): ceil(n_step / kj) Jacobians and\n"
                           "ceil(n_step / lcm(kj, kp)) factorizations in a step of n_step Newton iterations.  The\n"
                           "solutions agree to -tol.\n"
                           "  -lag <3> (kp) -jac_lag <1> (kj) -steps <3> -tol <1e-7> -switch_to_cvode (after EasAdrSetUp,\n"
                           "  which a lag other than 1 refuses); the ILU settings are eas's\n"
                           "  -adr_pc_factor_levels, -adr_pc_ilu_axes\n";

#include <eas.h>
#include <petscsnes.h>

#include "adr_snes_peer.h"
#include "axes_perm.h"

/* A PETSc event's count so far: MatLUFactorNum (numeric factorizations), SNESJacobianEval (Jacobians) */
static PetscErrorCode PetscEventCount(const char name[], PetscInt *n)
{
  PetscLogEvent      ev;
  PetscEventPerfInfo info;

  PetscFunctionBegin;
  PetscCall(PetscLogEventGetId(name, &ev));
  PetscCall(PetscLogEventGetPerfInfo(0, ev, &info));
  *n = info.count;
  PetscFunctionReturn(0);
}

/* The rebuilds SNES's lag rule gives in a solve of nn Newton iterations at
   iterations 0, k, 2k, ... (k > 0); k = -1: only the solve's first (first). */
static PetscInt LagRule(PetscInt nn, PetscInt k, PetscBool first)
{
  if (k < 0) return first && nn > 0 ? 1 : 0;
  return (nn + k - 1) / k;
}

static PetscInt Gcd(PetscInt a, PetscInt b)
{
  while (b) {
    PetscInt t = a % b;
    a          = b;
    b          = t;
  }
  return a;
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
  PetscInt              lag = 3, jlag = 1, kmaxit = 0, steps = 3, levels = 0, nf0, nf1, nj0, nj1, rule_total = 0, jrule_total = 0;
  PetscReal             tol = 1e-7, t0, dt, krtol = 1e-8, nd[2], nr[2], rel = 0;
  char                  axes[8] = "xyz", pctype[16] = "ilu";
  PetscBool             ilu;
  PetscMPIInt           size;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscLogDefaultBegin()); /* PETSc's factorizations are counted from its events */
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCheck(size == 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "test_adr_lag: one rank (the multisplitting Newton is PETSc's Newton only on one rank)");
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-lag", &lag, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-jac_lag", &jlag, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-adr_pc_type", pctype, sizeof(pctype), NULL));
  PetscCall(PetscStrcmp(pctype, "ilu", &ilu));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-steps", &steps, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-tol", &tol, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-adr_pc_factor_levels", &levels, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-adr_pc_ilu_axes", axes, sizeof(axes), NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-adr_ksp_rtol", &krtol, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-adr_ksp_max_it", &kmaxit, NULL));

  /* eas: the lags through their setters (the options are read too: -adr_lag_preconditioner, -adr_lag_jacobian) */
  PetscCall(EasAdrCreate(PETSC_COMM_WORLD, &adr));
  PetscCall(EasAdrSetMaxSteps(adr, steps));
  PetscCall(EasAdrSetFromOptions(adr));
  PetscCall(EasAdrSetLagPreconditioner(adr, lag));
  PetscCall(EasAdrSetLagJacobian(adr, jlag));
  {
    PetscInt got, jgot;
    PetscCall(EasAdrGetLagPreconditioner(adr, &got));
    PetscCall(EasAdrGetLagJacobian(adr, &jgot));
    PetscCheck(got == lag && jgot == jlag, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "EasAdrGetLagPreconditioner, EasAdrGetLagJacobian give %" PetscInt_FMT ", %" PetscInt_FMT " after setting %" PetscInt_FMT ", %" PetscInt_FMT, got, jgot, lag, jlag);
  }
  PetscCall(EasAdrSetUp(adr));
  {
    PetscBool sw = PETSC_FALSE;
    PetscCall(PetscOptionsGetBool(NULL, NULL, "-switch_to_cvode", &sw, NULL));
    if (sw) PetscCall(EasAdrSetTimeStepType(adr, EAS_ADR_TS_CVODE)); /* after EasAdrSetUp: refused while the Jacobian is lagged */
  }
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
  PetscCall(SNESSetLagJacobian(snes, jlag == -1 ? -2 : jlag)); /* SNES's -1 never builds one at all */
  PetscCall(SNESGetKSP(snes, &pksp));
  if (kmaxit > 0) { /* inexact Newton: k BiCGStab iterations per Newton iteration, an unfinished solve accepted (as eas's) */
    PetscCall(KSPSetTolerances(pksp, krtol, PETSC_DEFAULT, PETSC_DEFAULT, kmaxit));
    PetscCall(SNESSetMaxLinearSolveFailures(snes, PETSC_MAX_INT));
  }
  PetscCall(KSPGetPC(pksp, &ppc));
  PetscCall(PCSetType(ppc, ilu ? PCILU : PCJACOBI));
  if (!ilu)
    PetscCheck(!strcmp(pctype, "jacobi"), PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-adr_pc_type %s: the peer has ilu or jacobi", pctype);
  else
  PetscCall(PCFactorSetLevels(ppc, levels));
  if (ilu && strcmp(axes, "xyz")) {
    PetscInt nx, ny, nz;
    PetscCall(EasAdrGetGrid(padr, &nx, &ny, &nz));
    PetscCheck(nx == ny && ny == nz, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-adr_pc_ilu_axes: the peer's ordering needs a cube (-adr_n)");
    PetscCall(AxesOrderingRegister(nx, axes));
    PetscCall(PCFactorSetMatOrderingType(ppc, "eas_axes"));
  } else if (ilu)
    PetscCall(PCFactorSetMatOrderingType(ppc, MATORDERINGNATURAL));

  PetscCall(EasAdrGetStats(adr, &st0));
  PetscCall(PetscEventCount("MatLUFactorNum", &nf0));
  PetscCall(PetscEventCount("SNESJacobianEval", &nj0));
  for (PetscInt k = 0; k < steps; k++) {
    PetscInt            its, lits, nn, ni, nb, nj, rule, jrule;
    SNESConvergedReason sr;
    PetscCall(EasAdrStep(adr));
    PetscCall(EasAdrGetConvergedReason(adr, &reason));
    PetscCheck(reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "eas ADR with -adr_lag_preconditioner %" PetscInt_FMT " did not converge at step %" PetscInt_FMT ": %s", lag, k, EasAdrConvergedReasonName(reason));
    PetscCall(EasAdrGetStats(adr, &st1));
    nn  = st1.outer_its - st0.outer_its;
    ni  = st1.inner_its - st0.inner_its;
    nb  = st1.pc_builds - st0.pc_builds;
    nj  = st1.jacobians - st0.jacobians;
    st0 = st1;
    c.t = t0 + (k + 1) * dt;
    PetscCall(VecCopy(X, c.Xold));
    PetscCall(SNESSolve(snes, NULL, X));
    PetscCall(SNESGetConvergedReason(snes, &sr));
    PetscCheck(sr > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "PETSc SNES with -snes_lag_preconditioner %" PetscInt_FMT " did not converge at step %" PetscInt_FMT ": %s", lag, k, SNESConvergedReasons[sr]);
    PetscCall(SNESGetIterationNumber(snes, &its));
    PetscCall(SNESGetLinearSolveIterations(snes, &lits));
    PetscCall(PetscEventCount("MatLUFactorNum", &nf1));
    PetscCall(PetscEventCount("SNESJacobianEval", &nj1));
    /* SNES's rules: a Jacobian at the Newton iterations i of the solve with i % kj == 0 (-1: the first one ever), a
       factorization at those with i % kp == 0 too, i.e. at the multiples of lcm(kj, kp) (-1: the first one ever) */
    jrule = LagRule(nn, jlag, (PetscBool)(k == 0 || jlag > 0));
    if (jlag < 0 || lag < 0)
      rule = k == 0 ? 1 : 0;
    else
      rule = LagRule(nn, jlag / Gcd(jlag, lag) * lag, PETSC_TRUE);
    if (!ilu) rule = 0; /* Jacobi: no factorization */
    rule_total += rule;
    jrule_total += jrule;
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "step %" PetscInt_FMT ": eas Newton %" PetscInt_FMT " inner %" PetscInt_FMT " Jacobians %" PetscInt_FMT " ILU factorizations %" PetscInt_FMT "; PETSc Newton %" PetscInt_FMT " inner %" PetscInt_FMT " Jacobians %" PetscInt_FMT " factorizations %" PetscInt_FMT "; the lags' rules %" PetscInt_FMT ", %" PetscInt_FMT "\n", k, nn, ni, nj, ilu ? nb : 0, its, lits, nj1 - nj0, nf1 - nf0, jrule, rule));
    /* the inner counts to one iteration or 5 %: eas's and PETSc's residuals agree to rounding, not bitwise, and a
       BiCGStab count on a threshold moves by one (also at lag 1) */
    PetscCheck(nn == its && PetscAbsInt(ni - lits) <= PetscMax(1, lits / 20), PETSC_COMM_WORLD, PETSC_ERR_PLIB, "step %" PetscInt_FMT ": eas (Newton %" PetscInt_FMT ", inner %" PetscInt_FMT ") differs from PETSc SNES with the same lag (Newton %" PetscInt_FMT ", inner %" PetscInt_FMT ")", k, nn, ni, its, lits);
    PetscCheck(nj == nj1 - nj0 && nj == jrule, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "step %" PetscInt_FMT ": eas assembled %" PetscInt_FMT " Jacobians, PETSc %" PetscInt_FMT ", the lag's rule says %" PetscInt_FMT, k, nj, nj1 - nj0, jrule);
    PetscCheck(!ilu || (nb == nf1 - nf0 && nb == rule), PETSC_COMM_WORLD, PETSC_ERR_PLIB, "step %" PetscInt_FMT ": eas factored %" PetscInt_FMT " times, PETSc %" PetscInt_FMT ", the lag's rule says %" PetscInt_FMT, k, nb, nf1 - nf0, rule);
    nf0 = nf1;
    nj0 = nj1;
  }
  PetscCall(EasAdrGetSolution(adr, Y));
  PetscCall(VecWAXPY(D, -1.0, X, Y));
  PetscCall(EasAdrSpeciesNorms(adr, D, nd));
  PetscCall(EasAdrSpeciesNorms(adr, X, nr));
  for (PetscInt s = 0; s < 2; s++) rel = PetscMax(rel, nd[s] / nr[s]);
  PetscCheck(rel <= tol, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "the solutions differ by %g > %g (species-scaled, relative)", (double)rel, (double)tol);
  if (jlag != 1) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Jacobian lag %" PetscInt_FMT ": %" PetscInt_FMT " Jacobians in %" PetscInt_FMT " steps, as PETSc's and the rule's\n", jlag, jrule_total, steps));
  if (ilu)
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "lag %" PetscInt_FMT ", ILU(%" PetscInt_FMT ") %s: %" PetscInt_FMT " factorizations in %" PetscInt_FMT " steps, as PETSc's and the rule's; solutions %.1e apart\n", lag, levels, axes, rule_total, steps, (double)rel));
  else
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: solutions %.1e apart\n", pctype, (double)rel));
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
  test:
    suffix: jac3
    nsize: 1
    backends: /cpu/serial /cpu/openmp
    args: -adr_n 12 -adr_pc_type ilu -adr_dt 3600 -lag 1 -jac_lag 3
    expect: Jacobian lag 3: [0-9]+ Jacobians in 3 steps, as PETSc's and the rule's
  test:
    suffix: jac2_lag3
    nsize: 1
    backends: /cpu/serial
    args: -adr_n 12 -adr_pc_type ilu -adr_dt 3600 -lag 3 -jac_lag 2 -steps 4
    expect: factorizations in 4 steps, as PETSc's and the rule's
  test:
    suffix: jac_never
    nsize: 1
    backends: /cpu/serial
    args: -adr_n 12 -adr_pc_type ilu -adr_dt 3600 -lag 1 -jac_lag -1
    expect: Jacobian lag -1: 1 Jacobians in 3 steps
  test:
    suffix: jac_jacobi
    nsize: 1
    backends: /cpu/serial /cpu/memcheck
    args: -adr_n 12 -adr_pc_type jacobi -adr_dt 3600 -lag 1 -jac_lag 2
    expect: Jacobian lag 2: [0-9]+ Jacobians in 3 steps, as PETSc's and the rule's
  test:
    suffix: jac_inexact
    nsize: 1
    backends: /cpu/serial
    args: -adr_n 12 -adr_pc_type jacobi -lag 1 -jac_lag 100 -adr_ksp_max_it 2
    expect: Jacobian lag 100: 3 Jacobians in 3 steps, as PETSc's and the rule's
  test:
    suffix: bad_jac_lag
    nsize: 1
    backends: /cpu/serial
    args: -adr_n 6 -adr_pc_type ilu -jac_lag 0 -steps 1
    expect_error: -adr_lag_jacobian 0 is invalid: expected 1
  test:
    suffix: jac_lag_cvode
    nsize: 1
    backends: /cpu/serial
    requires: sundials
    args: -adr_n 6 -adr_pc_type ilu -adr_ts_type cvode -adr_lag_jacobian 2 -lag 1 -steps 1
    expect_error: -adr_lag_jacobian 2 applies to -adr_ts_type beuler
  test:
    suffix: jac_lag_switch_cvode
    nsize: 1
    backends: /cpu/serial
    requires: sundials
    args: -adr_n 6 -adr_pc_type ilu -lag 1 -jac_lag 3 -switch_to_cvode -steps 1
    expect_error: -adr_lag_jacobian 3 applies to -adr_ts_type beuler
TEST*/
