static const char help[] = "Unit test of the asynchronous convergence detection (src/comm/detect.c) alone: EasDetect driven\n"
                           "by scripted local convergence flags, failure codes and halo message counters on the\n"
                           "ranks of a non-periodic Cartesian grid, one detection phase per scenario on the same\n"
                           "communicator.  Each scenario checks that every rank stops, with the same failure code,\n"
                           "the expected one, and (code 0) that no rank stopped before the last rank converged for\n"
                           "good and before the last halo message was delivered (times on the host's monotonic clock).\n"
                           "  -type iallreduce|decentralized  (default: both)  -random <20> random scenarios\n";

#include <eas.h>
#include "comm/commimpl.h"
#include <time.h>
#include <unistd.h>

static double Now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef enum {
  SC_STAGGERED,  /* rank r converges at call 5 + 7 r */
  SC_UNCONVERGE, /* all converged; the last rank un-converges for 20 calls after its first contribution / answer */
  SC_INTRANSIT,  /* all converged; a halo message from rank 0 to its neighbour is delivered only at call 60 */
  SC_FAIL,       /* nobody converges; rank 0 fails with code 1 and the last rank with code 3 at their first call */
  SC_LATE_FAIL,  /* all converged but the last rank, which fails with code 2 at call 40 */
  SC_TIMEOUT,    /* the last rank never converges nor fails: the others time out (0.3 s) with code 1 */
  SC_RANDOM,     /* the ADR model with random work: a rank is busy (not converged) for a random number of
                    calls at the start, sends "halo" messages to random neighbours while busy, and becomes
                    busy again for a few calls on half of the messages it receives (new information) */
  SC_NUM
} Scenario;
static const char *const ScNames[] = {"staggered", "unconverge-in-verification", "message-in-transit", "failures-1-and-3", "late-failure-2", "timeout", "random"};

typedef struct {
  int        code;
  double     t_stop, t_settled; /* stop; last moment the rank was not converged or had a message pending */
  PetscInt   calls;
  PetscInt64 resets, waves;
} Outcome;

#define TAG_WORK 99 /* the scenario's "halo" messages (the library's tags are 11..15) */

static uint64_t Rand(uint64_t *x)
{
  *x ^= *x << 13;
  *x ^= *x >> 7;
  *x ^= *x << 17;
  return *x >> 11;
}

static PetscErrorCode RunPhase(MPI_Comm cart, const PetscMPIInt nb[6], EasDetectType type, Scenario sc, PetscInt seed, Outcome *out)
{
  EasDetect   det;
  PetscMPIInt rank, size, dst = MPI_PROC_NULL;
  PetscBool   stop = PETSC_FALSE, unconv_done = PETSC_FALSE;
  PetscInt    unconv_left = 0, busy = 0, nhreq = 0;
  PetscInt64  hsent = 0, hdelivered = 0;
  MPI_Request hreq[512];
  int         hbuf = 0;
  uint64_t    rng  = 0x9E3779B97F4A7C15ull * (uint64_t)(seed + 1);
  int         code = 0;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(cart, &rank));
  PetscCallMPI(MPI_Comm_size(cart, &size));
  rng ^= (uint64_t)(rank + 1) * 0xBF58476D1CE4E5B9ull;
  /* SC_INTRANSIT: the receiver of rank 0's message, its first neighbour (itself on one rank) */
  for (PetscInt f = 0; f < 6 && dst == MPI_PROC_NULL; f++) dst = nb[f];
  if (dst == MPI_PROC_NULL) dst = rank;
  PetscCallMPI(MPI_Bcast(&dst, 1, MPI_INT, 0, cart));
  if (sc == SC_RANDOM) {
    rng ^= rng >> 31;
    rng *= 0x94D049BB133111EBull;
    busy = 10 + (PetscInt)((rng >> 33) % 60);
  }
  PetscCall(EasDetectBegin(&det, type, cart, nb));
  if (sc == SC_TIMEOUT)
    PetscCall(EasDetectSetTimeout(&det, 0.3, 1));
  else
    PetscCall(EasDetectSetTimeout(&det, 30, 1)); /* a stuck protocol fails the test instead of hanging it */
  out->t_settled = Now();
  out->calls     = 0;
  for (PetscInt call = 1; !stop; call++) {
    PetscBool  conv  = PETSC_TRUE;
    int        abort = 0;
    PetscInt64 sent = 0, delivered = 0;
    switch (sc) {
    case SC_STAGGERED:
      conv = (PetscBool)(call >= 5 + 7 * rank);
      break;
    case SC_UNCONVERGE:
      if (rank == size - 1 && !unconv_done) {
        /* after its first contribution (iallreduce: round 1 is in flight; a
           flip after the contribution to the deciding round may legitimately
           stop) or its first answer to a verification wave (never the
           deciding one: two waves are needed) */
        const PetscBool took_part = type == EAS_DETECT_IALLREDUCE ? (PetscBool)(det.inflight || det.rounds >= 1) : (PetscBool)(det.dc.answers >= 1);
        if (took_part && unconv_left == 0) unconv_left = 20;
        if (unconv_left > 0 && --unconv_left == 0) unconv_done = PETSC_TRUE;
        conv = (PetscBool)(unconv_left == 0);
      }
      break;
    case SC_INTRANSIT:
      /* rank 0 sent one message (to dst); dst delivers it at its call 60 */
      if (rank == 0) sent = 1;
      if (rank == dst) {
        delivered = call >= 60 ? 1 : 0;
        if (!delivered) out->t_settled = Now();
      }
      break;
    case SC_FAIL:
      conv = PETSC_FALSE;
      if (rank == 0) abort = 1;
      if (rank == size - 1) abort = 3;
      break;
    case SC_LATE_FAIL:
      if (rank == size - 1) {
        conv  = PETSC_FALSE;
        abort = call >= 40 ? 2 : 0;
      }
      break;
    case SC_TIMEOUT:
      if (rank == size - 1 && size > 1) conv = PETSC_FALSE;
      break;
    case SC_RANDOM: {
      int flag;
      for (;;) { /* receptions: half of them bring new information */
        MPI_Status st;
        int        v;
        PetscCallMPI(MPI_Iprobe(MPI_ANY_SOURCE, TAG_WORK, cart, &flag, &st));
        if (!flag) break;
        PetscCallMPI(MPI_Recv(&v, 1, MPI_INT, st.MPI_SOURCE, TAG_WORK, cart, MPI_STATUS_IGNORE));
        hdelivered++;
        if (Rand(&rng) & 1) busy = PetscMax(busy, 1 + (PetscInt)(Rand(&rng) % 5));
      }
      if (busy > 0) { /* working: sometimes sends new planes (until call 300, so that it ends) */
        const PetscMPIInt to = nb[Rand(&rng) % 6];
        if (to != MPI_PROC_NULL && call < 300 && Rand(&rng) % 3 == 0) {
          PetscCheck(nhreq < (PetscInt)(sizeof(hreq) / sizeof(hreq[0])), PETSC_COMM_SELF, PETSC_ERR_PLIB, "too many work messages");
          PetscCallMPI(MPI_Isend(&hbuf, 1, MPI_INT, to, TAG_WORK, cart, &hreq[nhreq++]));
          hsent++;
        }
        busy--;
        conv = PETSC_FALSE;
      }
      sent      = hsent;
      delivered = hdelivered;
    } break;
    default:
      SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "unknown scenario %d", (int)sc);
    }
    if (!conv) out->t_settled = Now();
    PetscCall(EasDetectProgress(&det, conv, abort, sent, delivered, &stop, &code));
    out->calls = call;
    if (!stop) usleep(50);
  }
  out->t_stop = Now();
  /* the detection stopped with every work message delivered: the sends are complete or completing */
  PetscCallMPI(MPI_Waitall((PetscMPIInt)nhreq, hreq, MPI_STATUSES_IGNORE));
  out->code   = code;
  out->resets = det.dc.resets;
  out->waves  = type == EAS_DETECT_IALLREDUCE ? det.rounds : det.dc.waves;
  PetscCall(EasDetectEnd(&det));
  PetscFunctionReturn(0);
}

static PetscErrorCode Check(MPI_Comm cart, EasDetectType type, Scenario sc, PetscInt seed, const Outcome *o, PetscInt *nfail)
{
  PetscMPIInt size;
  int         cmin, cmax, expect = 0;
  double      settled, stopped;
  PetscInt64  cnt[2] = {o->resets, o->waves};
  PetscBool   ok;
  char        name[64];

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(cart, &size));
  PetscCall(MPIU_Allreduce(&o->code, &cmin, 1, MPI_INT, MPI_MIN, cart));
  PetscCall(MPIU_Allreduce(&o->code, &cmax, 1, MPI_INT, MPI_MAX, cart));
  PetscCall(MPIU_Allreduce(&o->t_settled, &settled, 1, MPI_DOUBLE, MPI_MAX, cart));
  PetscCall(MPIU_Allreduce(&o->t_stop, &stopped, 1, MPI_DOUBLE, MPI_MIN, cart));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, cnt, 2, MPIU_INT64, MPI_SUM, cart));
  if (sc == SC_FAIL) expect = 3;
  if (sc == SC_LATE_FAIL) expect = 2;
  if (sc == SC_TIMEOUT) expect = size > 1 ? 1 : 0; /* one rank: it converges, nobody times out */
  ok = (PetscBool)(cmin == cmax && cmin == expect);
  if (expect == 0 && sc != SC_TIMEOUT) ok = (PetscBool)(ok && stopped > settled);
  if (sc == SC_UNCONVERGE && type == EAS_DETECT_DECENTRALIZED) ok = (PetscBool)(ok && cnt[0] >= 1);
  if (sc == SC_RANDOM)
    PetscCall(PetscSNPrintf(name, sizeof(name), "%s(seed %" PetscInt_FMT ")", ScNames[sc], seed));
  else
    PetscCall(PetscSNPrintf(name, sizeof(name), "%s", ScNames[sc]));
  PetscCall(PetscPrintf(cart, "%s %-28s on %d ranks: code %d..%d (expected %d on all); first stop %s last settling by %.3f ms; resets %" PetscInt64_FMT ", %s %" PetscInt64_FMT ": %s\n", EasDetectTypes[type], name, (int)size, cmin, cmax, expect, stopped > settled ? "after" : "BEFORE", 1e3 * PetscAbsReal(stopped - settled), cnt[0], type == EAS_DETECT_IALLREDUCE ? "rounds" : "waves", cnt[1], ok ? "ok" : "FAILED"));
  if (!ok) (*nfail)++;
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  MPI_Comm      cart;
  PetscMPIInt   size, dims[3] = {0, 0, 0}, periods[3] = {0, 0, 0}, nb[6];
  PetscInt      nrandom = 20, ntypes = 0, nfail = 0, nrun = 0;
  EasDetectType types[2];
  char          str[32];
  PetscBool     flg;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-random", &nrandom, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-type", str, sizeof(str), &flg));
  if (flg) {
    PetscBool m0, m1;
    PetscCall(PetscStrcmp(str, EasDetectTypes[0], &m0));
    PetscCall(PetscStrcmp(str, EasDetectTypes[1], &m1));
    PetscCheck(m0 || m1, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-type %s: expected iallreduce or decentralized", str);
    types[ntypes++] = m0 ? EAS_DETECT_IALLREDUCE : EAS_DETECT_DECENTRALIZED;
  } else {
    types[ntypes++] = EAS_DETECT_IALLREDUCE;
    types[ntypes++] = EAS_DETECT_DECENTRALIZED;
  }
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCallMPI(MPI_Dims_create(size, 3, dims));
  PetscCallMPI(MPI_Cart_create(PETSC_COMM_WORLD, 3, dims, periods, 0, &cart));
  for (int dir = 0; dir < 3; dir++) PetscCallMPI(MPI_Cart_shift(cart, dir, 1, &nb[2 * dir], &nb[2 * dir + 1]));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "grid %d x %d x %d ranks\n", dims[0], dims[1], dims[2]));
  for (PetscInt t = 0; t < ntypes; t++) {
    for (int sc = 0; sc < SC_NUM; sc++) {
      const PetscInt reps = sc == SC_RANDOM ? nrandom : 1;
      for (PetscInt seed = 1; seed <= reps; seed++) {
        Outcome o;
        PetscCall(RunPhase(cart, nb, types[t], (Scenario)sc, seed, &o));
        PetscCall(Check(cart, types[t], (Scenario)sc, seed, &o, &nfail));
        nrun++;
      }
    }
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "detection scenarios: %" PetscInt_FMT "/%" PetscInt_FMT " passed\n", nrun - nfail, nrun));
  PetscCallMPI(MPI_Comm_free(&cart));
  PetscCall(EasFinalize());
  return nfail ? 1 : 0;
}

/*TEST
  test:
    suffix: both
    nsize: 1 2 4
    backends: none
    expect: detection scenarios: 52/52 passed
  test:
    suffix: decentralized_3d
    nsize: 8
    backends: none
    args: -type decentralized -random 10
    expect: detection scenarios: 16/16 passed
TEST*/
