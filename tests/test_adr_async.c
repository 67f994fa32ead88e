static const char help[] = "eas ADR asynchronous multisplitting-Newton under injected delay and jitter: for each of\n"
                           "-seeds <20> jitter seeds the run must terminate, converge, and give the synchronous answer\n"
                           "within -tol <1e-6> (species-scaled); every MPI request is freed at the end of each step\n"
                           "(checked by the halo and detection layers) and -malloc_dump must be clean.\n"
                           "  -delay_us <50> -jitter_us <300>  (passed as -eas_comm_delay_us / -eas_comm_jitter_us)\n";

#include <eas.h>

static PetscErrorCode RunOnce(PetscBool async, PetscInt seed, PetscReal delay, PetscReal jitter, Vec X, EasAdrStats *st, EasAdrConvergedReason *reason)
{
  EasAdr adr;
  char   buf[64];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(buf, sizeof(buf), "%" PetscInt_FMT, seed));
  PetscCall(PetscOptionsSetValue(NULL, "-eas_comm_seed", buf));
  PetscCall(PetscSNPrintf(buf, sizeof(buf), "%g", async ? (double)delay : 0.0));
  PetscCall(PetscOptionsSetValue(NULL, "-eas_comm_delay_us", buf));
  PetscCall(PetscSNPrintf(buf, sizeof(buf), "%g", async ? (double)jitter : 0.0));
  PetscCall(PetscOptionsSetValue(NULL, "-eas_comm_jitter_us", buf));
  PetscCall(EasAdrCreate(PETSC_COMM_WORLD, &adr));
  PetscCall(EasAdrSetNewtonTolerances(adr, 1e-10, PETSC_DEFAULT));
  PetscCall(EasAdrSetMaxSteps(adr, 2));
  PetscCall(EasAdrSetFromOptions(adr));
  PetscCall(EasAdrSetMode(adr, async ? EAS_ADR_ASYNC : EAS_ADR_SYNC));
  PetscCall(EasAdrSolve(adr, PETSC_DEFAULT));
  PetscCall(EasAdrGetConvergedReason(adr, reason));
  PetscCall(EasAdrGetStats(adr, st));
  PetscCall(EasAdrGetSolution(adr, X));
  PetscCall(EasAdrDestroy(&adr));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  EasAdr                adr;
  EasAdrStats           st;
  EasAdrConvergedReason reason;
  Vec                   Xs, Xa, D;
  PetscInt              seeds = 20, pass = 0, outer_max = 0;
  PetscReal             tol = 1e-6, delay = 50, jitter = 300, worst = 0;
  PetscInt64            stale = 0, sent = 0, skipped = 0, checks = 0, failed = 0;
  PetscMPIInt           size;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-seeds", &seeds, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-tol", &tol, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-delay_us", &delay, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-jitter_us", &jitter, NULL));
  /* layout only */
  PetscCall(EasAdrCreate(PETSC_COMM_WORLD, &adr));
  PetscCall(EasAdrSetFromOptions(adr));
  PetscCall(EasAdrSetUp(adr));
  PetscCall(EasAdrCreateGlobalVec(adr, &Xs));
  PetscCall(VecDuplicate(Xs, &Xa));
  PetscCall(VecDuplicate(Xs, &D));

  PetscCall(RunOnce(PETSC_FALSE, 1, 0, 0, Xs, &st, &reason));
  PetscCheck(reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "the synchronous reference did not converge: %s", EasAdrConvergedReasonName(reason));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "sync reference: %" PetscInt_FMT " outer iterations, %s\n", st.outer_its_max, EasAdrConvergedReasonName(reason)));
  for (PetscInt seed = 1; seed <= seeds; seed++) {
    PetscReal  nd[2], nr[2], rel = 0;
    PetscInt64 m[3];
    PetscCall(RunOnce(PETSC_TRUE, seed, delay, jitter, Xa, &st, &reason));
    PetscCheck(reason == EAS_ADR_CONVERGED_ASYNC || (size == 1 && reason > 0), PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "seed %" PetscInt_FMT ": the async run did not converge: %s", seed, EasAdrConvergedReasonName(reason));
    PetscCall(VecWAXPY(D, -1.0, Xs, Xa));
    PetscCall(EasAdrSpeciesNorms(adr, D, nd));
    PetscCall(EasAdrSpeciesNorms(adr, Xs, nr));
    for (PetscInt s = 0; s < 2; s++) rel = PetscMax(rel, nd[s] / nr[s]);
    m[0] = st.msgs_sent;
    m[1] = st.msgs_stale;
    m[2] = st.halo_skipped;
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, m, 3, MPIU_INT64, MPI_SUM, PETSC_COMM_WORLD));
    sent += m[0];
    stale += m[1];
    skipped += m[2];
    checks += st.sync_checks;
    failed += st.check_failures;
    outer_max = PetscMax(outer_max, st.outer_its_max);
    worst     = PetscMax(worst, rel);
    PetscCheck(rel <= tol, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "seed %" PetscInt_FMT ": async differs from sync by %g > %g", seed, (double)rel, (double)tol);
    pass++;
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "async with delay %g us + jitter U(0,%g) us on %d ranks: %" PetscInt_FMT "/%" PetscInt_FMT " seeds passed; worst species-scaled difference to sync %.3e (tolerance %g); max outer iterations %" PetscInt_FMT "; messages sent %" PetscInt64_FMT ", stale %" PetscInt64_FMT ", too small to iterate on %" PetscInt64_FMT "; synchronous checks %" PetscInt64_FMT ", failed %" PetscInt64_FMT "\n", (double)delay, (double)jitter, size, pass, seeds, (double)worst, (double)tol, outer_max, sent, stale, skipped, checks, failed));
  PetscCall(VecDestroy(&Xs));
  PetscCall(VecDestroy(&Xa));
  PetscCall(VecDestroy(&D));
  PetscCall(EasAdrDestroy(&adr));
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    suffix: jitter
    nsize: 2 4
    backends: /cpu/serial /cpu/memcheck
    args: -adr_problem transport -adr_n 8
    expect: 20/20 seeds passed
  test:
    suffix: diurnal_thread
    nsize: 2
    backends: /cpu/serial
    args: -adr_n 8 -eas_async_thread -seeds 5 -delay_us 100 -jitter_us 100
    expect: 5/5 seeds passed
  test:
    suffix: lag_jacobian
    nsize: 2 4
    backends: /cpu/serial /cpu/memcheck
    args: -adr_n 8 -adr_lag_jacobian 3 -adr_ksp_max_it 2 -seeds 5 -delay_us 100 -jitter_us 300
    expect: 5/5 seeds passed
  test:
    suffix: decentralized
    nsize: 2 4
    backends: /cpu/serial /cpu/memcheck
    args: -adr_problem transport -adr_n 8 -eas_async_detect decentralized
    expect: 20/20 seeds passed
  test:
    suffix: decentralized_diurnal
    nsize: 2 4
    backends: /cpu/serial
    args: -adr_n 8 -eas_async_detect decentralized -seeds 10 -delay_us 200 -jitter_us 500
    expect: 10/10 seeds passed
  test:
    suffix: decentralized_thread
    nsize: 2 4
    backends: /cpu/serial
    args: -adr_n 8 -eas_async_thread -eas_async_detect decentralized -seeds 5 -delay_us 100 -jitter_us 100
    expect: 5/5 seeds passed
  test:
    suffix: decentralized_transport_thread
    nsize: 4
    backends: /cpu/serial
    args: -adr_problem transport -adr_n 8 -eas_async_thread -eas_async_detect decentralized -seeds 5
    expect: 5/5 seeds passed
  test:
    suffix: jitter_gpu
    nsize: 2
    backends: /gpu/cuda
    requires: cuda-device
    args: -adr_problem transport -adr_n 8 -seeds 5
    expect: 5/5 seeds passed
TEST*/
