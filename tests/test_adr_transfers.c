static const char help[] = "What the ADR solver moves between host and device per outer iteration (docs/adr.md, \"What crosses the bus\").\n"
                           "Kind of check: exact counts. /cpu/memcheck copies every host<->device transfer explicitly and counts its\n"
                           "bytes (and errors at its destruction if a copy bypassed the count); the reference is the halo's own\n"
                           "message sizes, what MPI sends and receives. On every rank, over the steps after the first (which uploads\n"
                           "the coefficients and the initial state once):\n"
                           "  beuler:  bytes <= outer iterations x (halo bytes + 1 KB), halo bytes = 8 x (scalars sent + received)\n"
                           "           per exchange; with an overlap (-adr_overlap, default 1 on several ranks) each stage's\n"
                           "           a = x_old on the overlap is the neighbours': one more exchange of planes per stage in\n"
                           "           async mode, none in sync mode (x = x_old: it is the first outer iteration's);\n"
                           "  cvode:   bytes <= outer iterations x (halo bytes + 1 KB) + CVODE's test iterations x 16 n\n"
                           "           + stages x 24 n (n = the rank's unknowns: per stage a, the initial guess and the error\n"
                           "           weights go up; per synchronous iteration under CVODE's test the update and the state\n"
                           "           come down for its host nvector_parallel vectors).\n"
                           "The same problem is solved on /cpu (host memory, no transfers, memcheck's thread count): the solutions\n"
                           "must agree to -tol, and in sync mode the outer and inner iterations must be equal (the same arithmetic).\n"
                           "  -steps <4> -tol <1e-12>\n";

#include <eas.h>
#include "solvers/adrimpl.h" /* the halo's message sizes: the reference the transfers are bounded by */

typedef struct {
  PetscLogDouble bytes;                       /* host<->device over the measured steps, this rank */
  PetscInt       outer, inner, nni, stages;   /* over the measured steps, this rank */
  PetscReal      halo_bytes;                  /* per exchange, this rank */
  PetscInt       n;                           /* unknowns of the rank */
  PetscInt       overlap_exchanges;           /* -adr_overlap: the steps' exchanges of a's planes */
  PetscLogDouble bytes_all;                   /* from SetUp to the end */
  PetscInt       outer_all;                   /* from SetUp to the end */
} Count;

static PetscErrorCode Counts(EasAdr adr, EasBackend be, PetscLogDouble *bytes, PetscInt *outer, PetscInt *inner, PetscInt *nni, PetscInt *stages)
{
  PetscLogDouble h, d;
  EasAdrStats    st;
  EasAdrTSStats  ts;
  EasAdrTSType   type;

  PetscFunctionBegin;
  PetscCall(EasBackendGetTransferBytes(be, &h, &d));
  *bytes = h + d;
  PetscCall(EasAdrGetStats(adr, &st));
  *outer = st.outer_its;
  *inner = st.inner_its;
  PetscCall(EasAdrGetTimeStepType(adr, &type));
  *nni = *stages = 0;
  if (type == EAS_ADR_TS_CVODE) {
    PetscCall(EasAdrGetTimeStepStats(adr, &ts));
    *nni    = ts.nonlin_its;                                        /* CVODE's test calls: the synchronous iterations under it */
    *stages = ts.steps + ts.err_test_fails + ts.nonlin_conv_fails; /* each attempt of a step solves one stage */
  }
  PetscFunctionReturn(0);
}

/* steps time steps on resource; the solution into X; with counts: the transfers of steps 2.. */
static PetscErrorCode Run(const char resource[], PetscInt *threads, PetscInt steps, Vec *X, Count *c)
{
  EasAdr                adr;
  EasBackend            be;
  EasAdrConvergedReason reason;
  PetscLogDouble        b0, b1;
  PetscInt              o0, o1, i0, i1, n0, n1, s0, s1;

  PetscFunctionBegin;
  PetscCall(EasBackendCreate(PETSC_COMM_WORLD, resource, &be));
  if (*threads > 0) PetscCall(EasBackendSetThreads(be, *threads)); /* the memcheck run's: the same arithmetic */
  else PetscCall(EasBackendGetThreads(be, threads));
  PetscCall(EasAdrCreate(PETSC_COMM_WORLD, &adr));
  PetscCall(EasAdrSetFromOptions(adr));
  PetscCall(EasAdrSetBackend(adr, be));
  PetscCall(EasAdrSetUp(adr));
  PetscCall(EasAdrStep(adr));
  PetscCall(Counts(adr, be, &b0, &o0, &i0, &n0, &s0));
  for (PetscInt k = 1; k < steps; k++) {
    PetscCall(EasAdrStep(adr));
    PetscCall(EasAdrGetConvergedReason(adr, &reason));
    PetscCheck(reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "%s: step %" PetscInt_FMT " did not converge: %s", resource, k + 1, EasAdrConvergedReasonName(reason));
  }
  PetscCall(Counts(adr, be, &b1, &o1, &i1, &n1, &s1));
  c->bytes     = b1 - b0;
  c->outer     = o1 - o0;
  c->inner     = i1;
  c->nni       = n1 - n0;
  c->stages    = s1 - s0;
  c->n         = adr->n;
  c->overlap_exchanges = !adr->overlap ? 0 : (adr->ts_type == EAS_ADR_TS_CVODE ? c->stages : (adr->mode == EAS_ADR_ASYNC ? steps - 1 : 0)); /* one more exchange, of a's planes, per stage; sync beuler: a = x, it is the first outer iteration's */
  c->bytes_all = b1;
  c->outer_all = o1;
  c->halo_bytes = 0;
  for (PetscInt f = 0; f < 6; f++)
    if (adr->nb[f] != MPI_PROC_NULL) c->halo_bytes += 2.0 * (PetscReal)adr->halo->count[f] * sizeof(PetscScalar); /* sent and received */
  PetscCall(EasAdrCreateGlobalVec(adr, X));
  PetscCall(EasAdrGetSolution(adr, *X));
  PetscCall(EasAdrDestroy(&adr));
  PetscCall(EasBackendDestroy(&be));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Count        dev, ref;
  Vec          Xd, Xr;
  PetscInt     steps = 4, threads = 0;
  PetscReal    tol = 1e-12, nd, nr, bound, slack, worst = 0, gworst;
  PetscMPIInt  rank, size;
  EasAdrMode   mode = EAS_ADR_SYNC;
  EasAdrTSType type = EAS_ADR_TS_BEULER;
  int          ok, gok;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-steps", &steps, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-tol", &tol, NULL));
  PetscCheck(steps >= 2, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-steps %" PetscInt_FMT ": at least 2 (the first step is not measured)", steps);
  PetscCall(Run("/cpu/memcheck", &threads, steps, &Xd, &dev));
  PetscCall(Run("/cpu", &threads, steps, &Xr, &ref));
  {
    EasAdr adr; /* the options' mode and stepper, as the runs read them */
    PetscCall(EasAdrCreate(PETSC_COMM_WORLD, &adr));
    PetscCall(EasAdrSetFromOptions(adr));
    PetscCall(EasAdrGetMode(adr, &mode, NULL));
    PetscCall(EasAdrGetTimeStepType(adr, &type));
    PetscCall(EasAdrDestroy(&adr));
  }
  /* the bound, on every rank */
  slack = 1024.0 * dev.outer + (PetscReal)dev.nni * 16.0 * dev.n + (PetscReal)dev.stages * 24.0 * dev.n;
  bound = (dev.outer + dev.overlap_exchanges) * dev.halo_bytes + slack;
  ok    = dev.bytes <= bound;
  if (dev.outer > 0) worst = (dev.bytes - dev.nni * 16.0 * dev.n - dev.stages * 24.0 * dev.n - (dev.outer + dev.overlap_exchanges) * dev.halo_bytes) / dev.outer;
  PetscCall(PetscSynchronizedPrintf(PETSC_COMM_WORLD, "[%d] steps 2-%" PetscInt_FMT ": %.0f bytes host<->device in %" PetscInt_FMT " outer iterations (%.1f per iteration); halo %.0f bytes per exchange; %s%" PetscInt_FMT " test iterations, %" PetscInt_FMT " stages, n %" PetscInt_FMT "; bound %.0f; whole run %.0f bytes in %" PetscInt_FMT " outer iterations\n", rank, steps, dev.bytes, dev.outer, dev.outer ? dev.bytes / dev.outer : 0.0, dev.halo_bytes, type == EAS_ADR_TS_CVODE ? "CVODE: " : "", dev.nni, dev.stages, dev.n, bound, dev.bytes_all, dev.outer_all));
  PetscCall(PetscSynchronizedFlush(PETSC_COMM_WORLD, PETSC_STDOUT));
  PetscCallMPI(MPI_Allreduce(&ok, &gok, 1, MPI_INT, MPI_MIN, PETSC_COMM_WORLD));
  PetscCallMPI(MPI_Allreduce(&worst, &gworst, 1, MPIU_REAL, MPI_MAX, PETSC_COMM_WORLD));
  PetscCheck(gok, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "more bytes crossed than the halo planes + 1 KB per outer iteration (see the per-rank lines)");
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "transfers within the bound on every rank: at most %.1f bytes per outer iteration beyond the halo planes (and the stated CVODE terms), 1024 allowed\n", (double)gworst));
  /* the same answer as the host backend */
  PetscCall(VecAXPY(Xd, -1.0, Xr));
  PetscCall(VecNorm(Xd, NORM_INFINITY, &nd));
  PetscCall(VecNorm(Xr, NORM_INFINITY, &nr));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "/cpu/memcheck against /cpu: max |x - x_ref| / max |x_ref| = %.3e (tolerance %g)\n", (double)(nd / nr), (double)tol));
  PetscCheck(nd <= tol * nr, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "the device-resident solution differs from the host backend's by %g > %g (relative)", (double)(nd / nr), (double)tol);
  if (mode == EAS_ADR_SYNC || size == 1) {
    PetscInt d[2] = {dev.outer, dev.inner}, r[2] = {ref.outer, ref.inner}, gd[2], gr[2];
    PetscCallMPI(MPI_Allreduce(d, gd, 2, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD));
    PetscCallMPI(MPI_Allreduce(r, gr, 2, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD));
    PetscCheck(gd[0] == gr[0] && gd[1] == gr[1], PETSC_COMM_WORLD, PETSC_ERR_PLIB, "iterations differ: memcheck outer %" PetscInt_FMT " inner %" PetscInt_FMT ", serial outer %" PetscInt_FMT " inner %" PetscInt_FMT, gd[0], gd[1], gr[0], gr[1]);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "same outer and inner iterations as /cpu\n"));
  } else
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "async: outer iterations follow the message timing, reported not compared\n"));
  PetscCall(VecDestroy(&Xd));
  PetscCall(VecDestroy(&Xr));
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    suffix: beuler
    nsize: 1 2 4
    backends: none
    args: -adr_n 10 -steps 4
    expect: transfers within the bound on every rank
    expect: same outer and inner iterations as /cpu
  test:
    suffix: beuler_transport
    nsize: 2
    backends: none
    args: -adr_problem transport -adr_n 10 -steps 3
    expect: transfers within the bound on every rank
    expect: same outer and inner iterations as /cpu
  test:
    suffix: beuler_async
    nsize: 2 4
    backends: none
    args: -adr_n 10 -steps 4 -eas_mode async -tol 1e-6
    expect: transfers within the bound on every rank
  test:
    suffix: beuler_overlap
    nsize: 2 4
    backends: none
    args: -adr_n 12 -steps 4 -adr_overlap 2
    expect: transfers within the bound on every rank
    expect: same outer and inner iterations as /cpu
  test:
    suffix: beuler_overlap_async
    nsize: 2 4
    backends: none
    args: -adr_n 10 -steps 4 -adr_overlap 1 -eas_mode async -tol 1e-6
    expect: transfers within the bound on every rank
  test:
    suffix: cvode
    nsize: 1 2 4
    backends: none
    requires: sundials
    args: -adr_ny 1 -adr_nx 10 -adr_nz 10 -adr_ts_type cvode -steps 6
    expect: transfers within the bound on every rank
    expect: same outer and inner iterations as /cpu
  test:
    suffix: cvode_async
    nsize: 2 4
    backends: none
    requires: sundials
    args: -adr_ny 1 -adr_nx 10 -adr_nz 10 -adr_ts_type cvode -steps 6 -eas_mode async -tol 1e-4
    expect: transfers within the bound on every rank
TEST*/
