static const char help[] = "eas ADR -eas_mode auto (docs/energy.md).  Threshold rule: the first step runs sync, then the\n"
                           "measured exchange share of that step picks sync or async; each branch is forced with the threshold\n"
                           "(0: async whenever any exchange time was measured; 1: always sync).  Frontier rule (the default):\n"
                           "one sync and one async trial step, then Vialle et al. eq. 1.50 on their metered T and Pbar; the\n"
                           "decision must follow alpha = T_sync/T_async against Pbar_async/Pbar_sync (energy) or 1 (time).\n"
                           "Every answer must match the sync run within -tol <1e-6> (species-scaled), with -steps <3> steps.\n";

#include <eas.h>

static PetscErrorCode Run(EasAdrMode mode, PetscReal thr, EasCriterion crit, PetscInt steps, EasAdrAutoInfo *ai, Vec X, PetscBool *decided, PetscReal *share, EasAdrMode *used, EasAdrConvergedReason *reason)
{
  EasAdr adr;

  PetscFunctionBegin;
  PetscCall(EasAdrCreate(PETSC_COMM_WORLD, &adr));
  PetscCall(EasAdrSetNewtonTolerances(adr, 1e-10, PETSC_DEFAULT));
  PetscCall(EasAdrSetMaxSteps(adr, steps));
  PetscCall(EasAdrSetFromOptions(adr));
  PetscCall(EasAdrSetMode(adr, mode));
  if (thr >= 0) {
    PetscCall(EasAdrSetModeAutoRule(adr, EAS_ADR_AUTO_THRESHOLD));
    PetscCall(EasAdrSetModeAutoThreshold(adr, thr));
  } else {
    PetscCall(EasAdrSetModeAutoRule(adr, EAS_ADR_AUTO_FRONTIER));
    PetscCall(EasAdrSetModeAutoCriterion(adr, crit));
  }
  PetscCall(EasAdrSolve(adr, PETSC_DEFAULT));
  PetscCall(EasAdrGetModeAutoInfo(adr, ai));
  PetscCall(EasAdrGetConvergedReason(adr, reason));
  PetscCall(EasAdrGetModeAutoDecision(adr, decided, share, used));
  PetscCall(EasAdrGetSolution(adr, X));
  PetscCall(EasAdrDestroy(&adr));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  EasAdr                adr;
  EasAdrConvergedReason reason;
  EasAdrMode            used;
  Vec                   Xs, Xa, D;
  PetscBool             decided, flg;
  PetscReal             tol = 1e-6, share, thr_user = -1;
  PetscInt              steps = 3;
  EasAdrAutoInfo        ai;
  PetscMPIInt           size;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-tol", &tol, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-steps", &steps, NULL));
  /* a user threshold (error cases) goes through the options of every solver */
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-eas_mode_auto_threshold", &thr_user, &flg));
  PetscCall(EasAdrCreate(PETSC_COMM_WORLD, &adr)); /* layout only */
  PetscCall(EasAdrSetFromOptions(adr));
  PetscCall(EasAdrSetUp(adr));
  PetscCall(EasAdrCreateGlobalVec(adr, &Xs));
  PetscCall(VecDuplicate(Xs, &Xa));
  PetscCall(VecDuplicate(Xs, &D));

  PetscCall(Run(EAS_ADR_SYNC, -1, EAS_CRITERION_ENERGY, steps, &ai, Xs, &decided, &share, &used, &reason));
  PetscCheck(reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "the sync reference did not converge: %s", EasAdrConvergedReasonName(reason));
  PetscCheck(!decided && used == EAS_ADR_SYNC, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "sync mode must not run the auto decision");
  for (PetscInt c = 0; c < 2; c++) {
    const PetscReal thr = c == 0 ? 0.0 : 1.0;
    PetscReal       nd[2], nr[2], rel = 0;
    EasAdrMode      expect;
    PetscCall(Run(EAS_ADR_AUTO, thr, EAS_CRITERION_ENERGY, steps, &ai, Xa, &decided, &share, &used, &reason));
    PetscCheck(reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "auto, threshold %g: did not converge: %s", (double)thr, EasAdrConvergedReasonName(reason));
    PetscCheck(decided, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "auto, threshold %g: no decision after the first step", (double)thr);
    PetscCheck(share > 0 && share <= 1, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "auto: the measured exchange share %g is not in (0, 1]", (double)share);
    expect = c == 0 ? EAS_ADR_ASYNC : EAS_ADR_SYNC;
    PetscCheck(used == expect, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "auto, threshold %g, share %g: chose %s, expected %s", (double)thr, (double)share, used == EAS_ADR_ASYNC ? "async" : "sync", expect == EAS_ADR_ASYNC ? "async" : "sync");
    PetscCheck(size == 1 || used != EAS_ADR_ASYNC || reason == EAS_ADR_CONVERGED_ASYNC, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "auto chose async but the last step ended %s", EasAdrConvergedReasonName(reason));
    PetscCall(VecWAXPY(D, -1.0, Xs, Xa));
    PetscCall(EasAdrSpeciesNorms(adr, D, nd));
    PetscCall(EasAdrSpeciesNorms(adr, Xs, nr));
    for (PetscInt s = 0; s < 2; s++) rel = PetscMax(rel, nd[s] / nr[s]);
    PetscCheck(rel <= tol, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "auto (threshold %g, %s) differs from sync by %g > %g", (double)thr, used == EAS_ADR_ASYNC ? "async" : "sync", (double)rel, (double)tol);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "auto on %d ranks, threshold %g: share %s 0 -> %s (last step %s); species-scaled difference to sync %.3e <= %g\n", size, (double)thr, share > 0 ? ">" : "=", used == EAS_ADR_ASYNC ? "async" : "sync", EasAdrConvergedReasonName(reason), (double)rel, (double)tol));
  }
  for (PetscInt c = 0; c < 2 && size > 1; c++) { /* the frontier rule under the energy and the time criteria */
    const EasCriterion crit = c == 0 ? EAS_CRITERION_ENERGY : EAS_CRITERION_TIME;
    PetscReal          nd[2], nr[2], rel = 0, alpha, frontier;
    EasAdrMode         expect;
    PetscCall(Run(EAS_ADR_AUTO, -1, crit, steps, &ai, Xa, &decided, &share, &used, &reason));
    PetscCheck(reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "auto (frontier, %s): did not converge: %s", EasCriterions[crit], EasAdrConvergedReasonName(reason));
    PetscCheck(decided && ai.decided && ai.rule == EAS_ADR_AUTO_FRONTIER, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "auto (frontier, %s): no decision after the two trial steps", EasCriterions[crit]);
    PetscCheck(ai.T[0] > 0 && ai.T[1] > 0 && ai.E[0] > 0 && ai.E[1] > 0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "auto (frontier): trial steps without metered time or energy");
    /* eq. 1.50 by hand from the trial steps' metered T and E */
    alpha    = ai.T[0] / ai.T[1];
    frontier = crit == EAS_CRITERION_TIME ? 1.0 : (ai.E[1] / ai.T[1]) / (ai.E[0] / ai.T[0]);
    expect   = alpha > frontier ? EAS_ADR_ASYNC : EAS_ADR_SYNC;
    PetscCheck(PetscAbsReal(ai.alpha - alpha) <= 1e-12 * alpha && PetscAbsReal(ai.frontier - frontier) <= 1e-12 * frontier, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "auto (frontier, %s): alpha %g, frontier %g; by hand %g, %g", EasCriterions[crit], (double)ai.alpha, (double)ai.frontier, (double)alpha, (double)frontier);
    PetscCheck(used == expect, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "auto (frontier, %s): alpha %g vs frontier %g: chose %s", EasCriterions[crit], (double)alpha, (double)frontier, used == EAS_ADR_ASYNC ? "async" : "sync");
    PetscCall(VecWAXPY(D, -1.0, Xs, Xa));
    PetscCall(EasAdrSpeciesNorms(adr, D, nd));
    PetscCall(EasAdrSpeciesNorms(adr, Xs, nr));
    for (PetscInt s = 0; s < 2; s++) rel = PetscMax(rel, nd[s] / nr[s]);
    PetscCheck(rel <= tol, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "auto (frontier) differs from sync by %g > %g", (double)rel, (double)tol);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "auto on %d ranks, frontier rule, criterion %s: decision follows eq. 1.50 (alpha vs frontier, compared exactly); species-scaled difference to sync %.3e <= %g\n", size, EasCriterions[crit], (double)rel, (double)tol));
  }
  PetscCall(VecDestroy(&Xs));
  PetscCall(VecDestroy(&Xa));
  PetscCall(VecDestroy(&D));
  PetscCall(EasAdrDestroy(&adr));
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    suffix: diurnal
    nsize: 1 2
    backends: /cpu/serial
    args: -adr_n 8 -eas_sensor model
    expect: threshold 0\.?: share > 0 -> async .*difference to sync [0-9.e+-]+ <= 1e-06
    expect: threshold 1\.?: share > 0 -> sync .*difference to sync [0-9.e+-]+ <= 1e-06
  test:
    suffix: frontier
    nsize: 2
    backends: /cpu/serial
    args: -adr_n 8 -eas_sensor model
    expect: frontier rule, criterion energy: decision follows eq. 1.50
    expect: frontier rule, criterion time: decision follows eq. 1.50
  test:
    suffix: transport
    nsize: 4
    backends: /cpu/serial
    args: -adr_problem transport -adr_n 8 -eas_sensor model
    expect: threshold 0\.?: share > 0 -> async \(last step CONVERGED_ASYNC\)
    expect: threshold 1\.?: share > 0 -> sync \(last step CONVERGED_DX\)
  test:
    suffix: bad_threshold
    backends: none
    args: -eas_mode_auto_threshold -0.1
    expect_error: -eas_mode_auto_threshold -0.1 is invalid: expected a share of the step time in \[0, 1\]
TEST*/
