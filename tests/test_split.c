static const char help[] = "The online EBE work split on two CPU units of unequal speed (one slowed by -ebe_test_slowdown):\n"
                           "shares converge (unit times within 10%), heterogeneous efficiency (Ribeiro eq. 3.6) >= 0.9,\n"
                           "no oscillation over 50 solves, a single timing spike does not move the split.\n"
                           "  -n <Q2 elements per direction> -warm <solves> -solves <solves> -view_trace -csv <file>\n";

#include <eas.h>
#include "mat/testing.h" /* test hooks (not installed) */

/* Asserted with -assert_timing (virtual clock), reported otherwise. */
#define TIMING_CHECK(strict, cond, ...)                                                                          \
  do {                                                                                                           \
    if (strict)                                                                                                  \
      PetscCheck(cond, PETSC_COMM_SELF, PETSC_ERR_PLIB, __VA_ARGS__);                                            \
    else if (!(cond))                                                                                            \
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "  (reported, not asserted: criterion not met on real clocks)\n")); \
  } while (0)

int main(int argc, char **argv)
{
  EasEbe           ebe;
  EasKsp           ksp;
  EasVec           b, x;
  PetscInt         n = 12, warm = 12, solves = 50, nu, nel, nd0, nm0, nd1, nm1, reversals = 0, lastdir = 0, smin, smax, prev, ntr0;
  const PetscInt  *sh;
  const PetscReal *tel, *tun;
  PetscReal        T0, T1, imb, E, noise, maxnoise = 0.20;
  PetscBool        strict;
  PetscReal        noise2 = 0.0, noises[64];
  PetscBool        view = PETSC_FALSE, assert_timing = PETSC_FALSE;
  char             csv[PETSC_MAX_PATH_LEN] = "";

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-warm", &warm, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-solves", &solves, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-view_trace", &view, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-csv", csv, sizeof(csv), NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-max_noise", &maxnoise, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-assert_timing", &assert_timing, NULL));

  PetscCall(EasEbeCreate(PETSC_COMM_SELF, &ebe));
  PetscCall(EasEbeSetFromMesh(ebe, EAS_EBE_POISSON, 2, n, n, n));
  PetscCall(EasEbeSetFromOptions(ebe));
  PetscCall(EasEbeSetUp(ebe));
  PetscCall(EasEbeGetSizes(ebe, &nel, NULL, NULL, NULL, NULL));
  PetscCall(EasEbeSplitGetState(ebe, &nu, &sh, &tel, &tun));
  PetscCheck(nu == 2, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "this test needs two units (-ebe_split_units /cpu:1,/cpu:1)");
  PetscCall(EasKspCreate(PETSC_COMM_SELF, &ksp));
  PetscCall(EasKspSetType(ksp, EAS_CG));
  PetscCall(EasKspSetOperatorEbe(ksp, ebe));
  PetscCall(EasKspSetTolerances(ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, 30));
  PetscCall(EasKspSetFromOptions(ksp));
  PetscCall(EasEbeCreateVecs(ebe, &b, &x));
  PetscCall(EasVecSet(b, 1.0));

  /* 1. convergence of the shares */
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "start: shares %" PetscInt_FMT " / %" PetscInt_FMT " of %" PetscInt_FMT " elements\n", sh[0], sh[1], nel));
  for (PetscInt s = 0; s < warm; s++) PetscCall(EasKspSolve(ksp, b, x));
  T0  = tel[0] * sh[0];
  T1  = tel[1] * sh[1];
  imb = PetscAbsReal(T0 - T1) / PetscMax(T0, T1);
  PetscCall(EasEbeSplitEfficiency(ebe, &E));
  PetscCall(EasEbeSplitGetDecisionCount(ebe, &nd0, &nm0));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "after %" PetscInt_FMT " solves: shares %" PetscInt_FMT " / %" PetscInt_FMT ", t_el %.3e / %.3e s (ratio %.2f), unit times %.3e / %.3e s, imbalance %.1f%% (<= 10%%), %" PetscInt_FMT " decisions, %" PetscInt_FMT " moves\n", warm, sh[0], sh[1], (double)tel[0],
                        (double)tel[1], (double)(tel[1] / tel[0]), (double)T0, (double)T1, (double)(100 * imb), nd0, nm0));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "heterogeneous efficiency (Ribeiro eq. 3.6) %.3f (>= 0.9)\n", (double)E));
  PetscCheck(nm0 >= 1 && sh[0] > sh[1], PETSC_COMM_SELF, PETSC_ERR_PLIB, "the split did not move elements to the faster unit 0");
  /* real clocks on a shared 2-core machine: the timing criteria are asserted
     only when the window's timing noise allows a 10% judgement */
  PetscCall(EasEbeSplitGetNoise(ebe, &noise));
  /* the repository rule is never to assert wall times in tests: with real
     clocks the criteria are reported; with -ebe_test_virtual_time (times from
     a model, with a reproducible jitter) they are asserted (-assert_timing) */
  strict = (PetscBool)(assert_timing && noise <= maxnoise);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "timing noise (IQR/median of the window) %.1f%%: %s\n", (double)(100 * noise), strict ? "criteria asserted" : (assert_timing ? "too noisy: criteria reported, not asserted" : "criteria reported (real clocks), not asserted")));
  TIMING_CHECK(strict, imb <= 0.10, "unit times differ by %.1f%% > 10%%", (double)(100 * imb));
  TIMING_CHECK(strict, E >= 0.9, "heterogeneous efficiency %.3f < 0.9", (double)E);

  /* 2. no oscillation: direction reversals of the share of unit 0 */
  smin = smax = prev = sh[0];
  for (PetscInt s = 0; s < solves; s++) {
    PetscCall(EasKspSolve(ksp, b, x));
    if (sh[0] != prev) {
      const PetscInt dir = sh[0] > prev ? 1 : -1;
      if (lastdir && dir != lastdir) reversals++;
      lastdir = dir;
    }
    prev = sh[0];
    smin = PetscMin(smin, sh[0]);
    smax = PetscMax(smax, sh[0]);
    PetscCall(EasEbeSplitGetNoise(ebe, &noise));
    if (s < 64) noises[s] = noise;
  }
  if (solves > 0) { /* median noise over these solves */
    const PetscInt ns = PetscMin(solves, 64);
    PetscCall(PetscSortReal(ns, noises));
    noise2 = noises[ns / 2];
  }
  PetscCall(EasEbeSplitGetDecisionCount(ebe, &nd1, &nm1));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "over %" PetscInt_FMT " more solves: %" PetscInt_FMT " decisions, %" PetscInt_FMT " moves, %" PetscInt_FMT " reversals (<= 2), share of unit 0 in [%" PetscInt_FMT ", %" PetscInt_FMT "] (spread %.1f%% <= 10%%)\n", solves, nd1 - nd0, nm1 - nm0, reversals, smin, smax, (double)(100.0 * (smax - smin) / nel)));
  if (strict && noise2 > maxnoise) {
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "median timing noise %.1f%% during these solves: criteria reported, not asserted\n", (double)(100 * noise2)));
    strict = PETSC_FALSE;
  }
  TIMING_CHECK(strict, reversals <= 2 && smax - smin <= 0.10 * nel, "the split oscillates");

  /* 3. a single spike (x20 on unit 0, which would make a plain mean over the
     window ~3x larger and push elements away from unit 0) is ignored by the
     median: the smoothed time of unit 0 stays put and its share does not drop */
  {
    const PetscInt  s0 = sh[0];
    const PetscReal t0 = tel[0];
    PetscInt        ntr1, nm2;
    PetscCall(EasEbeSplitGetDecisionCount(ebe, &ntr0, &nm1));
    PetscCall(EasEbeSplitInjectSpike(ebe, 0, 20.0));
    PetscCall(EasKspSolve(ksp, b, x));
    PetscCall(EasEbeSplitGetDecisionCount(ebe, &ntr1, &nm2));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "spike x20 on unit 0: %" PetscInt_FMT " decisions after it, smoothed t_el of unit 0 %.3e -> %.3e s (x%.2f), share of unit 0 %" PetscInt_FMT " -> %" PetscInt_FMT "\n", ntr1 - ntr0, (double)t0, (double)tel[0], (double)(tel[0] / t0), s0, sh[0]));
    PetscCheck(ntr1 > ntr0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "no decision was taken after the spike");
    TIMING_CHECK(strict, tel[0] < 1.5 * t0 && sh[0] >= s0 - nel / 100, "a single spike moved the split");
  }
  if (view) PetscCall(EasEbeSplitViewTrace(ebe, PETSC_VIEWER_STDOUT_SELF));
  if (csv[0]) PetscCall(EasEbeSplitDumpTrace(ebe, csv));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, strict ? "split test passed\n" : "split test passed (timing criteria reported, not asserted)\n"));
  PetscCall(EasVecDestroy(&b));
  PetscCall(EasVecDestroy(&x));
  PetscCall(EasKspDestroy(&ksp));
  PetscCall(EasEbeDestroy(&ebe));
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    suffix: two_units
    backends: none
    args: -ebe_split_units /cpu:1,/cpu:1 -ebe_test_slowdown 1:2 -ebe_rebalance_interval 10 -ebe_split_thread_clock
    expect: heterogeneous efficiency
    expect: split test passed
  test:
    suffix: virtual
    backends: none
    args: -n 6 -ebe_split_units /cpu:1,/cpu:1 -ebe_test_slowdown 1:2 -ebe_test_virtual_time 1e-6 -ebe_rebalance_interval 10 -view_trace -assert_timing
    expect: after 12 solves: shares 14[0-4] / 7[2-6], t_el 1.000e-06 / 2.000e-06
    expect: imbalance [0-5]\.[0-9]%
    expect: 0 moves, 0 reversals
    expect: spike x20 on unit 0: [1-9][0-9]* decisions after it, smoothed t_el of unit 0 1.000e-06 -> 1.000e-06 s .x1.00., share of unit 0 (14[0-4]) -> \1
    expect: split test passed$
  test:
    suffix: virtual_jitter
    backends: none
    args: -n 6 -ebe_split_units /cpu:1,/cpu:1 -ebe_test_slowdown 1:2 -ebe_test_virtual_time 1e-6 -ebe_test_virtual_noise 0.1 -assert_timing -max_noise 1
    expect: criteria asserted
    expect: split test passed$
  test:
    suffix: fixed
    backends: none
    args: -n 5 -warm 2 -solves 0 -ebe_split_units /cpu:1,/cpu:1 -ebe_split fixed -ebe_gpu_share 0.25
    expect_error: the split did not move elements to the faster unit 0
TEST*/
