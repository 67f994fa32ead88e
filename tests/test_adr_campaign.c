static const char help[] = "Fault campaign of the asynchronous ADR solver (issue 14): for every combination of the\n"
                           "convergence detection (iallreduce, decentralized), the reception (polling, thread) and\n"
                           "-eas_async_halo_rtol (1, 0), -seeds runs with injected delay + jitter on every halo message\n"
                           "must terminate with CONVERGED_ASYNC and give the synchronous answer within -tol\n"
                           "(species-scaled 2-norms).  Prints one line per combination and a total.\n"
                           "  -seeds <10> -tol <1e-8> -delay_us <1000> -jitter_us <5000>\n"
                           "  -detects iallreduce,decentralized -threads 0,1 -halo_rtols 1,0\n"
                           "  -case campaign (above) | livelock | error\n"
                           "  livelock: every run uses an outer tolerance below round-off (-adr_newton_rtol 1e-17), so\n"
                           "    no rank ever converges: each must still end the step with DIVERGED_MAX_IT on every rank\n"
                           "    (bounded by -eas_async_max_it or by -eas_async_detect_timeout).\n"
                           "  error: a linear reaction given as a user callback that fails on rank -error_rank at its\n"
                           "    -error_call-th call: every rank's EasAdrSolve must return an error (the failing rank its\n"
                           "    own, the others 'an error on another rank'); then the same solver, the callback\n"
                           "    repaired, must solve again and match the synchronous answer (a request or message left\n"
                           "    over from the failed step would be matched by the next one).  Run under valgrind too.\n"
                           "Kind of check: the synchronous multisplitting Newton on the same system is the reference\n"
                           "(it checks that asynchronism changes the path, not the answer), and termination is the point.\n";

#include <eas.h>

typedef struct {
  PetscInt   runs, converged;
  PetscReal  worst, wall;
  PetscInt   outer_max;
  PetscInt64 sent, skipped, checks, failed;
} Tally;

static PetscErrorCode SetOpt(const char name[], const char fmt[], double v)
{
  char buf[64];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(buf, sizeof(buf), fmt, v));
  PetscCall(PetscOptionsSetValue(NULL, name, buf));
  PetscFunctionReturn(0);
}

/* One run of the problem set by the command line; async with the given
   detection, reception, halo threshold and fault seed, or the sync reference. */
static PetscErrorCode RunOnce(PetscBool async, const char detect[], PetscBool thread, PetscReal halo_rtol, PetscInt seed, PetscReal delay, PetscReal jitter, Vec X, EasAdrStats *st, EasAdrConvergedReason *reason)
{
  EasAdr adr;

  PetscFunctionBegin;
  {
    char buf[32];
    PetscCall(PetscSNPrintf(buf, sizeof(buf), "%" PetscInt_FMT, seed));
    PetscCall(PetscOptionsSetValue(NULL, "-eas_comm_seed", buf));
  }
  PetscCall(SetOpt("-eas_comm_delay_us", "%g", async ? (double)delay : 0.0));
  PetscCall(SetOpt("-eas_comm_jitter_us", "%g", async ? (double)jitter : 0.0));
  PetscCall(SetOpt("-eas_async_halo_rtol", "%g", (double)halo_rtol));
  PetscCall(PetscOptionsSetValue(NULL, "-eas_async_detect", detect));
  PetscCall(PetscOptionsSetValue(NULL, "-eas_async_thread", thread ? "1" : "0"));
  PetscCall(EasAdrCreate(PETSC_COMM_WORLD, &adr));
  PetscCall(EasAdrSetFromOptions(adr));
  PetscCall(EasAdrSetMode(adr, async ? EAS_ADR_ASYNC : EAS_ADR_SYNC));
  PetscCall(EasAdrSolve(adr, PETSC_DEFAULT));
  PetscCall(EasAdrGetConvergedReason(adr, reason));
  PetscCall(EasAdrGetStats(adr, st));
  PetscCall(EasAdrGetSolution(adr, X));
  PetscCall(EasAdrDestroy(&adr));
  PetscFunctionReturn(0);
}

/* a linear reaction R = L c as a user callback that fails once, on one rank */
typedef struct {
  PetscMPIInt rank, fail_rank;
  PetscInt    calls, fail_call;
  PetscReal   L[4];
} FailCtx;

static PetscErrorCode FailingReaction(PetscReal t, const PetscReal xyz[3], const PetscScalar c[2], PetscScalar R[2], PetscScalar dR[4], void *vctx)
{
  FailCtx *ctx = (FailCtx *)vctx;

  PetscFunctionBeginUser;
  (void)t;
  (void)xyz;
  PetscCheck(!(ctx->rank == ctx->fail_rank && ++ctx->calls == ctx->fail_call), PETSC_COMM_SELF, PETSC_ERR_USER, "injected failure of the reaction callback (call %" PetscInt_FMT " on rank %d)", ctx->calls, (int)ctx->rank);
  R[0]  = ctx->L[0] * c[0] + ctx->L[1] * c[1];
  R[1]  = ctx->L[2] * c[0] + ctx->L[3] * c[1];
  dR[0] = ctx->L[0];
  dR[1] = ctx->L[1];
  dR[2] = ctx->L[2];
  dR[3] = ctx->L[3];
  PetscFunctionReturn(0);
}

/* every rank's reason, checked equal to want */
static PetscErrorCode CheckAllReasons(EasAdrConvergedReason r, EasAdrConvergedReason want, const char what[])
{
  PetscInt    v[2] = {-(PetscInt)r, (PetscInt)r};
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, v, 2, MPIU_INT, MPI_MAX, PETSC_COMM_WORLD));
  PetscCheck(-v[0] == v[1] && v[1] == (PetscInt)want, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: the ranks' reasons range from %s to %s, expected %s on every rank", what, EasAdrConvergedReasonName((EasAdrConvergedReason)-v[0]), EasAdrConvergedReasonName((EasAdrConvergedReason)v[1]), EasAdrConvergedReasonName(want));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: all %d ranks %s\n", what, size, EasAdrConvergedReasonName(want)));
  PetscFunctionReturn(0);
}

static PetscErrorCode CaseLivelock(void)
{
  const char *detects[2] = {"iallreduce", "decentralized"};

  PetscFunctionBegin;
  for (PetscInt id = 0; id < 2; id++)
    for (PetscInt bound = 0; bound < 2; bound++) { /* 0: the iteration bound, 1: the timeout */
      EasAdr                adr;
      EasAdrConvergedReason r;
      EasAdrStats           st;
      char                  what[128];
      double                t0 = MPI_Wtime();
      PetscCall(PetscOptionsSetValue(NULL, "-eas_async_detect", detects[id]));
      PetscCall(PetscOptionsSetValue(NULL, "-eas_async_max_it", bound ? "100000000" : "40"));
      PetscCall(PetscOptionsSetValue(NULL, "-eas_async_detect_timeout", bound ? "1" : "120"));
      PetscCall(EasAdrCreate(PETSC_COMM_WORLD, &adr));
      PetscCall(EasAdrSetFromOptions(adr));
      PetscCall(EasAdrSetNewtonTolerances(adr, 1e-17, PETSC_DEFAULT)); /* below round-off: never converged */
      PetscCall(EasAdrSetMode(adr, EAS_ADR_ASYNC));
      PetscCall(EasAdrSolve(adr, PETSC_DEFAULT));
      PetscCall(EasAdrGetConvergedReason(adr, &r));
      PetscCall(EasAdrGetStats(adr, &st));
      PetscCall(PetscSNPrintf(what, sizeof(what), "livelock, detect %s, bound by %s (max outer its %" PetscInt_FMT ", %.1f s)", detects[id], bound ? "the timeout 1 s" : "-eas_async_max_it 40", st.outer_its_max, MPI_Wtime() - t0));
      PetscCall(CheckAllReasons(r, EAS_ADR_DIVERGED_MAX_IT, what));
      PetscCheck(bound || st.outer_its_max <= 40 + 1, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%" PetscInt_FMT " local iterations beyond the bound 40 (+1 synchronous exchange)", st.outer_its_max);
      PetscCall(EasAdrDestroy(&adr));
    }
  PetscFunctionReturn(0);
}

static PetscErrorCode CaseError(PetscReal tol)
{
  EasAdr                ref, adr;
  EasAdrConvergedReason r;
  FailCtx               ok = {0, -1, 0, -1, {-1.0, 0.5, 0.25, -2.0}}, bad = ok;
  PetscErrorCode        ierr;
  PetscInt              nerr, fail_rank = 1;
  PetscMPIInt           size;
  Vec                   Xs, X, D;
  PetscReal             nd[2], nr[2], rel = 0, t0, dt, T;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &bad.rank));
  ok.rank       = bad.rank;
  bad.fail_call = 2000; /* a few outer iterations into the first step */
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-error_rank", &fail_rank, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-error_call", &bad.fail_call, NULL));
  bad.fail_rank = (PetscMPIInt)fail_rank;
  /* the synchronous reference with the callback that never fails */
  PetscCall(EasAdrCreate(PETSC_COMM_WORLD, &ref));
  PetscCall(EasAdrSetFromOptions(ref));
  PetscCall(EasAdrSetReaction(ref, FailingReaction, &ok));
  PetscCall(EasAdrSetMode(ref, EAS_ADR_SYNC));
  PetscCall(EasAdrSetUp(ref));
  PetscCall(EasAdrGetTime(ref, &t0));
  PetscCall(EasAdrGetTimeStep(ref, &dt));
  T = t0 + 2 * dt;
  PetscCall(EasAdrSolve(ref, T));
  PetscCall(EasAdrGetConvergedReason(ref, &r));
  PetscCheck(r > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "the synchronous reference did not converge: %s", EasAdrConvergedReasonName(r));
  PetscCall(EasAdrCreateGlobalVec(ref, &Xs));
  PetscCall(VecDuplicate(Xs, &X));
  PetscCall(VecDuplicate(Xs, &D));
  PetscCall(EasAdrGetSolution(ref, Xs));
  PetscCall(EasAdrSpeciesNorms(ref, Xs, nr));
  /* async, the callback failing once on one rank */
  PetscCall(EasAdrCreate(PETSC_COMM_WORLD, &adr));
  PetscCall(EasAdrSetFromOptions(adr));
  PetscCall(EasAdrSetReaction(adr, FailingReaction, &bad));
  PetscCall(EasAdrSetMode(adr, EAS_ADR_ASYNC));
  ierr = EasAdrSolve(adr, T);
  nerr = ierr ? 1 : 0;
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &nerr, 1, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD));
  PetscCheck(nerr == size, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "the failure injected on rank %d returned an error on %" PetscInt_FMT " of %d ranks: every rank must", (int)bad.fail_rank, nerr, (int)size);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "error: the failure injected on rank %d returned an error on all %d ranks\n", (int)bad.fail_rank, (int)size));
  /* the same solver again, the callback repaired: it continues from its last converged step */
  bad.fail_call = -1;
  PetscCall(EasAdrSolve(adr, T));
  PetscCall(EasAdrGetConvergedReason(adr, &r));
  PetscCall(CheckAllReasons(r, EAS_ADR_CONVERGED_ASYNC, "error: the solver reused after the failure"));
  PetscCall(EasAdrGetSolution(adr, X));
  PetscCall(VecWAXPY(D, -1.0, Xs, X));
  PetscCall(EasAdrSpeciesNorms(adr, D, nd));
  for (PetscInt s = 0; s < 2; s++) rel = PetscMax(rel, nd[s] / nr[s]);
  PetscCheck(rel <= tol, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "the reused solver differs from the synchronous answer by %g > %g", (double)rel, (double)tol);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "error: reused solver matches sync (difference %.2e <= %g)\n", (double)rel, (double)tol));
  PetscCall(VecDestroy(&Xs));
  PetscCall(VecDestroy(&X));
  PetscCall(VecDestroy(&D));
  PetscCall(EasAdrDestroy(&adr));
  PetscCall(EasAdrDestroy(&ref));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  EasAdr                adr;
  EasAdrStats           st;
  EasAdrConvergedReason reason;
  Vec                   Xs, Xa, D;
  PetscInt              seeds = 10, nd = 2, nt = 2, nh = 2, total = 0, total_ok = 0;
  PetscReal             tol = 1e-8, delay = 1000, jitter = 5000, halo_rtols[2] = {1, 0}, worst = 0, nr[2];
  PetscInt              threads[2] = {0, 1};
  char                 *detects[2] = {NULL, NULL};
  PetscMPIInt           size;
  double                t_all;
  PetscBool             set;
  const char *const     cases[] = {"campaign", "livelock", "error"};
  PetscInt              cs      = 0;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Asynchronous fault campaign", "test");
  PetscCall(PetscOptionsEList("-case", "what to run", NULL, cases, 3, cases[0], &cs, NULL));
  PetscCall(PetscOptionsInt("-seeds", "fault seeds per combination", NULL, seeds, &seeds, NULL));
  PetscCall(PetscOptionsReal("-tol", "largest species-scaled difference to the synchronous answer", NULL, tol, &tol, NULL));
  PetscCall(PetscOptionsReal("-delay_us", "injected delay per halo message (us)", NULL, delay, &delay, NULL));
  PetscCall(PetscOptionsReal("-jitter_us", "injected jitter per halo message (us)", NULL, jitter, &jitter, NULL));
  PetscCall(PetscOptionsStringArray("-detects", "detections to run", NULL, detects, &nd, &set));
  if (!set) nd = 2;
  PetscCall(PetscOptionsIntArray("-threads", "reception thread off/on (0,1)", NULL, threads, &nt, &set));
  if (!set) nt = 2;
  PetscCall(PetscOptionsRealArray("-halo_rtols", "values of -eas_async_halo_rtol", NULL, halo_rtols, &nh, &set));
  if (!set) nh = 2;
  PetscOptionsEnd();
  if (!detects[0]) { /* default list */
    PetscCall(PetscStrallocpy("iallreduce", &detects[0]));
    PetscCall(PetscStrallocpy("decentralized", &detects[1]));
    nd = 2;
  }
  PetscCheck(seeds >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-seeds %" PetscInt_FMT ": expected >= 1", seeds);
  if (cs != 0) {
    if (cs == 1)
      PetscCall(CaseLivelock());
    else
      PetscCall(CaseError(tol));
    for (PetscInt id = 0; id < nd; id++) PetscCall(PetscFree(detects[id]));
    PetscCall(EasFinalize());
    return 0;
  }

  /* layout and the synchronous reference */
  PetscCall(EasAdrCreate(PETSC_COMM_WORLD, &adr));
  PetscCall(EasAdrSetFromOptions(adr));
  PetscCall(EasAdrSetUp(adr));
  PetscCall(EasAdrCreateGlobalVec(adr, &Xs));
  PetscCall(VecDuplicate(Xs, &Xa));
  PetscCall(VecDuplicate(Xs, &D));
  PetscCall(RunOnce(PETSC_FALSE, "iallreduce", PETSC_FALSE, 1, 1, 0, 0, Xs, &st, &reason));
  PetscCheck(reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "the synchronous reference did not converge: %s", EasAdrConvergedReasonName(reason));
  PetscCall(EasAdrSpeciesNorms(adr, Xs, nr));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "sync reference on %d ranks: %" PetscInt_FMT " steps, %" PetscInt_FMT " outer iterations, %s\n", size, st.steps, st.outer_its_max, EasAdrConvergedReasonName(reason)));

  t_all = MPI_Wtime();
  for (PetscInt id = 0; id < nd; id++)
    for (PetscInt it = 0; it < nt; it++)
      for (PetscInt ih = 0; ih < nh; ih++) {
        Tally T = {0, 0, 0, 0, 0, 0, 0, 0, 0};
        T.wall  = MPI_Wtime();
        for (PetscInt seed = 1; seed <= seeds; seed++) {
          PetscReal  ndf[2], rel = 0;
          PetscInt64 m[2];
          PetscCall(RunOnce(PETSC_TRUE, detects[id], threads[it] ? PETSC_TRUE : PETSC_FALSE, halo_rtols[ih], seed, delay, jitter, Xa, &st, &reason));
          PetscCall(VecWAXPY(D, -1.0, Xs, Xa));
          PetscCall(EasAdrSpeciesNorms(adr, D, ndf));
          for (PetscInt s = 0; s < 2; s++) rel = PetscMax(rel, ndf[s] / nr[s]);
          m[0] = st.msgs_sent;
          m[1] = st.halo_skipped;
          PetscCall(MPIU_Allreduce(MPI_IN_PLACE, m, 2, MPIU_INT64, MPI_SUM, PETSC_COMM_WORLD));
          T.runs++;
          if ((reason == EAS_ADR_CONVERGED_ASYNC || (size == 1 && reason > 0)) && rel <= tol)
            T.converged++;
          else
            PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  FAILED: detect %s thread %" PetscInt_FMT " halo_rtol %g seed %" PetscInt_FMT ": %s, difference to sync %.3e\n", detects[id], threads[it], (double)halo_rtols[ih], seed, EasAdrConvergedReasonName(reason), (double)rel));
          T.worst     = PetscMax(T.worst, rel);
          T.outer_max = PetscMax(T.outer_max, st.outer_its_max);
          T.sent += m[0];
          T.skipped += m[1];
          T.checks += st.sync_checks;
          T.failed += st.check_failures;
        }
        T.wall = MPI_Wtime() - T.wall;
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "detect %-13s thread %" PetscInt_FMT " halo_rtol %-3g: %" PetscInt_FMT "/%" PetscInt_FMT " terminated and match sync; worst difference %.2e; max outer its %" PetscInt_FMT "; messages %" PetscInt64_FMT ", too small to iterate on %" PetscInt64_FMT "; sync checks %" PetscInt64_FMT " (failed %" PetscInt64_FMT "); %.1f s\n", detects[id], threads[it], (double)halo_rtols[ih], T.converged, T.runs, (double)T.worst, T.outer_max, T.sent, T.skipped, T.checks, T.failed, T.wall));
        total += T.runs;
        total_ok += T.converged;
        worst = PetscMax(worst, T.worst);
      }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "campaign: delay %g us + jitter U(0,%g) us on %d ranks: %" PetscInt_FMT "/%" PetscInt_FMT " runs passed (tolerance %g, worst %.2e) in %.1f s\n", (double)delay, (double)jitter, size, total_ok, total, (double)tol, (double)worst, MPI_Wtime() - t_all));
  for (PetscInt id = 0; id < nd; id++) PetscCall(PetscFree(detects[id]));
  PetscCall(VecDestroy(&Xs));
  PetscCall(VecDestroy(&Xa));
  PetscCall(VecDestroy(&D));
  PetscCall(EasAdrDestroy(&adr));
  PetscCall(EasFinalize());
  return total_ok == total ? 0 : 1;
}

/*TEST
  test:
    suffix: faults
    nsize: 4
    backends: /cpu/serial
    args: -adr_problem transport -adr_n 16 -adr_steps 2 -adr_newton_rtol 1e-10
    expect: campaign: .* 80/80 runs passed
  test:
    suffix: livelock
    nsize: 2 4
    backends: /cpu/serial
    args: -case livelock -adr_problem transport -adr_n 16 -adr_steps 1 -adr_ksp_max_it 20
    expect_count: 4 ^livelock, detect .*: all [24] ranks DIVERGED_MAX_IT
  test:
    suffix: error
    nsize: 2 4
    backends: all
    args: -case error -adr_problem transport -adr_n 8 -adr_newton_rtol 1e-10 -tol 1e-8 -eas_comm_delay_us 100 -eas_comm_jitter_us 500
    expect: error: the failure injected on rank 1 returned an error on all [24] ranks
    expect: error: the solver reused after the failure: all [24] ranks CONVERGED_ASYNC
    expect: error: reused solver matches sync
TEST*/
