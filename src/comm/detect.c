/*
  Asynchronous global convergence detection (docs/adr.md, Vialle et al.
  sec. 1.7.4), two types behind one front (EasDetectBegin/Progress/End).

  iallreduce: the "simplified scheme" with a global reduction, which the
  paper found fastest on a local cluster.  Each rank contributes, to a
  non-blocking MPI_Iallreduce, whether it has been locally converged without
  interruption since its previous contribution (the persistence count is
  applied by the caller), and how many halo messages it has sent and
  delivered in this phase.  A round counts when every rank was converged and
  the global numbers of messages sent and delivered are equal; two
  consecutive such rounds with the same numbers end the iterations.  The
  counts are Mattern's four-counter termination test (F. Mattern, "Algorithms
  for distributed termination detection", Distributed Computing 2, 1987):
  without them a rank could vote converged while a neighbour's message that
  would wake it up is still in transit (delayed by the network or by
  -eas_comm_delay_us), and the synchronous check at the end of the step would
  fail.  A local failure (inner solver, NaN, iteration limit) is counted per
  code in the same message, so every rank stops at the same round with the
  same (largest) failure code.  At most one reduction is in flight and none
  is left when the ranks stop.

  decentralized: the general scheme of Vialle et al. ref. [5] (J. M. Bahi,
  S. Contassot-Vivier, R. Couturier, "An efficient and robust decentralized
  algorithm for detecting the global convergence in asynchronous iterative
  algorithms", VECPAR'08): no collective, only messages between neighbours.

  The graph.  The paper's election rule ("send your partial convergence to
  the last neighbour you have not heard from") needs a tree: on a cycle, e.g.
  the 2x2 grid of 4 ranks, no rank ever has all neighbours but one heard from.
  The tree is a fixed spanning tree of the Cartesian neighbour graph, known
  locally from the face neighbours of a non-periodic grid (comb): every rank
  keeps its z neighbours; the ranks of the plane z = 0 (no -z neighbour) also
  keep their y neighbours; those of the line y = z = 0 also their x
  neighbours.  Rank (i,j,k) reaches (i,j,0) along z, (i,0,0) along y, and
  the x line joins them all: connected, with nx ny nz - 1 edges.  What is
  dynamic, as in the paper, is the root (the "elected node") and the
  orientation of the edges, decided by the order in which the ranks converge.

  Local state.  ready = locally converged (the caller's persistent flag), or
  failed, or notified of a failure somewhere.  dirty = "not ready at some
  moment since this rank sent its partial convergence (or was elected)".

  Rules (all messages carry the phase number, checked on receipt; one tag,
  so the messages between two ranks are received in the order sent):
   1. PCV (partial convergence).  A ready rank that has not sent its PCV and
      has received a PCV from all its tree neighbours but one sends its PCV
      to that one (its parent; dirty := false).  A ready rank that has
      received a PCV from all its neighbours without having sent one is
      elected (root).  Two neighbours may send their PCVs to each other (the
      messages cross): both then have heard from everybody; the one with the
      larger rank is the root, the other one waits for it as for a parent.
      When every rank is ready there is exactly one root: each edge carries at
      least one PCV (an edge with none would have two ready ends that each
      need only it), n - 1 edges and one PCV per sender leave exactly one
      non-sender or one edge with two PCVs.
   2. Verification waves (echo on the tree rooted at the root).  The root
      sends VERIFY to all its neighbours; a rank forwards it to its children
      (all neighbours but its parent) and, once they all answered, sends
      ANSWER to its parent: ok = none of its subtree is dirty, the sums over
      the subtree of the halo messages sent and delivered in this phase, and
      the largest failure code.  The root, once all its children answered:
        - a failure code c > 0: STOP(c) down the tree (failure codes are
          sticky, so every rank that is notified before its PCV is covered);
        - ok, sent == delivered, and the previous wave was also all ok with
          the same numbers: STOP(0) down the tree.  Two consecutive waves are
          Mattern's four-counter test again: a single wave reads the counters
          at different times, and a message still in transit could wake up a
          rank that has answered and whose own message is counted as
          delivered by a rank that answers later;
        - ok but numbers different or sent != delivered (messages in transit,
          everybody still converged): another wave right away, the tree kept;
        - not ok: RESET down the tree (rule 3).
      A rank that stops has forwarded STOP to its children first.
   3. Reset (partial, the failing branches only).  There is no cancellation
      message: a rank that becomes unconverged after its PCV just becomes
      dirty, and the next wave finds it.  RESET goes down the whole tree
      (everybody learns that the wave is over); a rank forwards it, then:
        - a child whose subtree answered not ok: forget its PCV;
        - if its own subtree answered not ok: forget its own PCV (no parent,
          it will send a new one when ready and heard from all but one);
          the ranks whose subtree answered ok keep their PCV and parent:
          their subtree stayed converged, and they stay dirty-tracked;
        - forget a PCV received from the parent (only the crossing case: the
          parent is the root, and the root always forgets its own PCV);
        - the root stops being the root.
      The root is on every failing path, so every failing path is cut off and
      what remains is a consistent partial saturation (a kept PCV on an edge
      is known at both ends; no PCV is in flight during a wave or a reset).
      The election goes on from there; the root of the next wave can only be
      outside the kept subtrees (their ranks have a parent that will never
      send them a PCV).
   4. Failures.  A rank with a failure code (or that times out, see
      EasDetectSetTimeout) and every rank that hears of one sends NOTICE to
      each tree neighbour, once: a notified rank is ready from then on, so
      the election completes even where ranks would never converge, and the
      next wave carries the code to the root, which sends STOP(code): every
      rank stops with the same code, the largest the root saw.  A rank that
      answered a wave and fails afterwards may see that wave decide STOP(0):
      it stops with 0, as a failure after the deciding round does with
      iallreduce (in the ADR iterations a converged rank does not iterate, so
      it cannot fail).
  End of the phase: each rank tells each tree neighbour how many protocol
  messages it sent it (tag EAS_TAG_DETECT_COUNT) and receives the ones not
  yet received (NOTICEs that arrive after the STOP, or queued behind it),
  then completes its sends: no message or request is left for the next
  phase.
*/
#include "commimpl.h"
#include <stdint.h>

#define EAS_DETECT_STUCK_MIN 10.0 /* seconds: the least time a timeout code gets to reach every rank */

const char *const EasDetectTypes[] = {"iallreduce", "decentralized", NULL};

enum {
  DC_PCV = 1,
  DC_VERIFY,
  DC_ANSWER,
  DC_RESET,
  DC_STOP,
  DC_NOTICE
};
static const char *const DCNames[] = {"?", "PCV", "VERIFY", "ANSWER", "RESET", "STOP", "NOTICE"};

/* ---------------------------------------------------------------- phase numbers */

/* The phase number lives on the communicator (an MPI attribute holding the
   count itself, no allocation): every rank of it calls EasDetectBegin the
   same number of times, so the numbers agree without communication. */
static PetscMPIInt EasDetectKeyval = MPI_KEYVAL_INVALID;

static PetscErrorCode EasDetectKeyvalFree(void)
{
  PetscFunctionBegin;
  if (EasDetectKeyval != MPI_KEYVAL_INVALID) PetscCallMPI(MPI_Comm_free_keyval(&EasDetectKeyval));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasDetectNextSeq(MPI_Comm comm, PetscInt64 *seq)
{
  void    *val = NULL;
  int      found;
  intptr_t s = 0;

  PetscFunctionBegin;
  if (EasDetectKeyval == MPI_KEYVAL_INVALID) {
    PetscCallMPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &EasDetectKeyval, NULL));
    PetscCall(PetscRegisterFinalize(EasDetectKeyvalFree));
  }
  PetscCallMPI(MPI_Comm_get_attr(comm, EasDetectKeyval, &val, &found));
  if (found) s = (intptr_t)val;
  s++;
  PetscCallMPI(MPI_Comm_set_attr(comm, EasDetectKeyval, (void *)s));
  *seq = (PetscInt64)s;
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- front */

PetscErrorCode EasDetectBegin(EasDetect *d, EasDetectType type, MPI_Comm comm, const PetscMPIInt nb[])
{
  PetscFunctionBegin;
  PetscCall(PetscMemzero(d, sizeof(*d)));
  PetscCheck(type == EAS_DETECT_IALLREDUCE || type == EAS_DETECT_DECENTRALIZED, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "EasDetectBegin: unknown detection type %d", (int)type);
  d->type           = type;
  d->comm           = comm;
  d->req            = MPI_REQUEST_NULL;
  d->last_sent      = -1;
  d->last_delivered = -1;
  d->phase_start    = MPI_Wtime();
  PetscCall(EasDetectNextSeq(comm, &d->seq));
  if (type == EAS_DETECT_DECENTRALIZED) {
    EasDetectDC *dc = &d->dc;
    PetscBool    keep[EAS_DETECT_MAXNB];
    PetscCheck(nb, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "EasDetectBegin: the decentralized detection needs the face neighbours");
    PetscCallMPI(MPI_Comm_rank(comm, &dc->rank));
    /* the comb spanning tree (see the top of the file) */
    for (PetscInt f = 0; f < 6; f++) keep[f] = PETSC_FALSE;
    keep[4] = keep[5] = PETSC_TRUE;
    if (nb[4] == MPI_PROC_NULL) keep[2] = keep[3] = PETSC_TRUE;
    if (nb[4] == MPI_PROC_NULL && nb[2] == MPI_PROC_NULL) keep[0] = keep[1] = PETSC_TRUE;
    for (PetscInt f = 0; f < 6; f++) {
      if (!keep[f] || nb[f] == MPI_PROC_NULL) continue;
      PetscCheck(nb[f] != dc->rank, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "EasDetectBegin: rank %d is its own neighbour across face %" PetscInt_FMT ": the decentralized detection needs a non-periodic grid", (int)dc->rank, f);
      for (PetscInt i = 0; i < dc->nnb; i++) PetscCheck(dc->nb[i] != nb[f], PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "EasDetectBegin: rank %d appears twice among the neighbours of rank %d: the decentralized detection needs a non-periodic grid", (int)nb[f], (int)dc->rank);
      dc->nb[dc->nnb++] = nb[f];
    }
    dc->parent = -1;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode EasDetectSetTimeout(EasDetect *d, PetscReal seconds, int code)
{
  PetscFunctionBegin;
  PetscCheck(seconds > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "EasDetectSetTimeout: %g s is invalid: expected a time > 0", (double)seconds);
  PetscCheck(code >= 1 && code <= EAS_DETECT_NCODE, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "EasDetectSetTimeout: failure code %d outside 1..%d", code, EAS_DETECT_NCODE);
  d->timeout      = seconds;
  d->timeout_code = code;
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- iallreduce */

static PetscErrorCode EasDetectProgress_Iallreduce(EasDetect *d, PetscBool local_conv, int abort, PetscInt64 sent, PetscInt64 delivered)
{
  PetscFunctionBegin;
  if (!local_conv) d->changed = PETSC_TRUE;
  if (d->inflight) {
    int flag;
    PetscCallMPI(MPI_Test(&d->req, &flag, MPI_STATUS_IGNORE));
    if (!flag) PetscFunctionReturn(0);
    d->inflight = PETSC_FALSE;
    d->rounds++;
    for (int c = EAS_DETECT_NCODE; c >= 1; c--)
      if (d->recvv[2 + c] > 0) {
        d->stopped   = PETSC_TRUE;
        d->stop_code = c;
        PetscFunctionReturn(0);
      }
    if (d->recvv[0] == 0 && d->recvv[1] == d->recvv[2]) { /* all converged, nothing in transit */
      d->true_rounds    = (d->true_rounds > 0 && d->recvv[1] == d->last_sent && d->recvv[2] == d->last_delivered) ? d->true_rounds + 1 : 1;
      d->last_sent      = d->recvv[1];
      d->last_delivered = d->recvv[2];
    } else
      d->true_rounds = 0;
    if (d->true_rounds >= 2) {
      d->stopped = PETSC_TRUE;
      PetscFunctionReturn(0);
    }
  }
  /* next round: converged all along since the previous contribution */
  d->sendv[0] = (local_conv && !d->changed) ? 0 : 1;
  d->sendv[1] = sent;
  d->sendv[2] = delivered;
  for (int c = 1; c <= EAS_DETECT_NCODE; c++) d->sendv[2 + c] = abort == c ? 1 : 0;
  d->changed = PETSC_FALSE;
  PetscCallMPI(MPI_Iallreduce(d->sendv, d->recvv, 3 + EAS_DETECT_NCODE, MPIU_INT64, MPI_SUM, d->comm, &d->req));
  d->inflight = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- decentralized */

static PetscErrorCode DCSend(EasDetect *d, PetscInt i, PetscInt64 kind, PetscInt64 wave, PetscInt64 a, PetscInt64 b, PetscInt64 c, PetscInt64 e)
{
  EasDetectDC   *dc = &d->dc;
  EasDetectSend *s  = NULL;

  PetscFunctionBegin;
  /* a free slot (its previous send completed), else a new one */
  for (PetscInt k = 0; k < dc->nslots && !s; k++) {
    EasDetectSend *t = dc->sends[k];
    if (t->req != MPI_REQUEST_NULL) {
      int flag;
      PetscCallMPI(MPI_Test(&t->req, &flag, MPI_STATUS_IGNORE));
    }
    if (t->req == MPI_REQUEST_NULL) s = t;
  }
  if (!s) {
    EasDetectSend **more;
    PetscCall(PetscMalloc1(dc->nslots + 1, &more));
    if (dc->nslots) PetscCall(PetscArraycpy(more, dc->sends, dc->nslots));
    PetscCall(PetscFree(dc->sends));
    dc->sends = more;
    PetscCall(PetscNew(&s));
    s->req                  = MPI_REQUEST_NULL;
    dc->sends[dc->nslots++] = s;
  }
  s->buf[0] = kind;
  s->buf[1] = d->seq;
  s->buf[2] = wave;
  s->buf[3] = a;
  s->buf[4] = b;
  s->buf[5] = c;
  s->buf[6] = e;
  PetscCallMPI(MPI_Isend(s->buf, EAS_DETECT_MSGLEN, MPIU_INT64, dc->nb[i], EAS_TAG_DETECT, d->comm, &s->req));
  dc->nsend[i]++;
  dc->msgs++;
  PetscFunctionReturn(0);
}

static PetscBool DCIsChild(const EasDetectDC *dc, PetscInt i)
{
  return (PetscBool)(dc->root || i != dc->parent);
}

/* root: a new verification wave */
static PetscErrorCode DCStartWave(EasDetect *d)
{
  EasDetectDC *dc = &d->dc;

  PetscFunctionBegin;
  dc->wave++;
  dc->waves++;
  dc->in_wave = PETSC_TRUE;
  for (PetscInt i = 0; i < dc->nnb; i++) {
    dc->answered[i] = PETSC_FALSE;
    PetscCall(DCSend(d, i, DC_VERIFY, dc->wave, 0, 0, 0, 0));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode DCStop(EasDetect *d, int code)
{
  EasDetectDC *dc = &d->dc;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < dc->nnb; i++)
    if (DCIsChild(dc, i)) PetscCall(DCSend(d, i, DC_STOP, dc->wave, code, 0, 0, 0));
  d->stopped   = PETSC_TRUE;
  d->stop_code = code;
  PetscFunctionReturn(0);
}

/* rule 3 (see the top of the file) */
static PetscErrorCode DCReset(EasDetect *d)
{
  EasDetectDC *dc = &d->dc;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < dc->nnb; i++) {
    if (!DCIsChild(dc, i)) continue;
    PetscCall(DCSend(d, i, DC_RESET, dc->wave, 0, 0, 0, 0));
    if (!dc->child_ok[i]) dc->pcv_recv[i] = PETSC_FALSE;
  }
  if (dc->root) {
    dc->root     = PETSC_FALSE;
    dc->pcv_sent = PETSC_FALSE;
    dc->parent   = -1;
  } else {
    dc->pcv_recv[dc->parent] = PETSC_FALSE; /* set only when the parent (the root) sent us its PCV */
    if (!dc->my_ok) {
      dc->pcv_sent = PETSC_FALSE;
      dc->parent   = -1;
    }
  }
  dc->have_prev = PETSC_FALSE;
  dc->resets++;
  PetscFunctionReturn(0);
}

static PetscErrorCode DCNotice(EasDetect *d)
{
  EasDetectDC *dc = &d->dc;

  PetscFunctionBegin;
  dc->notified = PETSC_TRUE;
  if (dc->notice_sent) PetscFunctionReturn(0);
  dc->notice_sent = PETSC_TRUE;
  for (PetscInt i = 0; i < dc->nnb; i++) PetscCall(DCSend(d, i, DC_NOTICE, 0, dc->code, 0, 0, 0));
  PetscFunctionReturn(0);
}

static PetscErrorCode DCHandle(EasDetect *d, PetscInt i, const PetscInt64 m[])
{
  EasDetectDC *dc  = &d->dc;
  PetscMPIInt  src = dc->nb[i];

  PetscFunctionBegin;
  PetscCheck(m[1] == d->seq, PETSC_COMM_SELF, PETSC_ERR_PLIB, "decentralized detection: rank %d got %s of phase %" PetscInt64_FMT " from rank %d during phase %" PetscInt64_FMT, (int)dc->rank, m[0] >= 1 && m[0] <= DC_NOTICE ? DCNames[m[0]] : "?", m[1], (int)src, d->seq);
  switch (m[0]) {
  case DC_PCV:
    PetscCheck(!dc->pcv_recv[i] && !dc->in_wave, PETSC_COMM_SELF, PETSC_ERR_PLIB, "decentralized detection: rank %d got an unexpected PCV from rank %d", (int)dc->rank, (int)src);
    dc->pcv_recv[i] = PETSC_TRUE;
    break;
  case DC_VERIFY:
    PetscCheck(!dc->root && dc->pcv_sent && dc->parent == i && !dc->in_wave, PETSC_COMM_SELF, PETSC_ERR_PLIB, "decentralized detection: rank %d got VERIFY from rank %d, not its parent or in a wave", (int)dc->rank, (int)src);
    dc->wave    = m[2];
    dc->in_wave = PETSC_TRUE;
    for (PetscInt k = 0; k < dc->nnb; k++) {
      dc->answered[k] = PETSC_FALSE;
      if (DCIsChild(dc, k)) PetscCall(DCSend(d, k, DC_VERIFY, dc->wave, 0, 0, 0, 0));
    }
    break;
  case DC_ANSWER:
    PetscCheck(dc->in_wave && m[2] == dc->wave && DCIsChild(dc, i) && !dc->answered[i], PETSC_COMM_SELF, PETSC_ERR_PLIB, "decentralized detection: rank %d got an unexpected ANSWER (wave %" PetscInt64_FMT ") from rank %d", (int)dc->rank, m[2], (int)src);
    dc->answered[i]        = PETSC_TRUE;
    dc->child_ok[i]        = (PetscBool)(m[3] != 0);
    dc->child_sent[i]      = m[4];
    dc->child_delivered[i] = m[5];
    dc->child_code[i]      = (int)m[6];
    break;
  case DC_RESET:
    PetscCheck(!dc->root && dc->pcv_sent && dc->parent == i && !dc->in_wave, PETSC_COMM_SELF, PETSC_ERR_PLIB, "decentralized detection: rank %d got RESET from rank %d, not its parent or in a wave", (int)dc->rank, (int)src);
    PetscCall(DCReset(d));
    break;
  case DC_STOP:
    PetscCheck(!dc->root && dc->pcv_sent && dc->parent == i, PETSC_COMM_SELF, PETSC_ERR_PLIB, "decentralized detection: rank %d got STOP from rank %d, not its parent", (int)dc->rank, (int)src);
    PetscCall(DCStop(d, (int)m[3]));
    break;
  case DC_NOTICE:
    PetscCall(DCNotice(d));
    break;
  default:
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_PLIB, "decentralized detection: rank %d got an unknown message kind %" PetscInt64_FMT " from rank %d", (int)dc->rank, m[0], (int)src);
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode EasDetectProgress_Decentralized(EasDetect *d, PetscBool local_conv, int abort, PetscInt64 sent, PetscInt64 delivered)
{
  EasDetectDC *dc = &d->dc;
  PetscBool    ready;

  PetscFunctionBegin;
  dc->code = PetscMax(dc->code, abort);
  ready    = (PetscBool)(local_conv || dc->code > 0 || dc->notified);
  if ((dc->pcv_sent || dc->root) && !ready) dc->dirty = PETSC_TRUE;
  if (dc->code > 0) PetscCall(DCNotice(d));
  /* messages */
  while (!d->stopped) {
    int         flag;
    MPI_Message msg;
    MPI_Status  st;
    PetscInt64  m[EAS_DETECT_MSGLEN];
    PetscInt    i;
    PetscCallMPI(MPI_Improbe(MPI_ANY_SOURCE, EAS_TAG_DETECT, d->comm, &flag, &msg, &st));
    if (!flag) break;
    PetscCallMPI(MPI_Mrecv(m, EAS_DETECT_MSGLEN, MPIU_INT64, &msg, MPI_STATUS_IGNORE));
    for (i = 0; i < dc->nnb; i++)
      if (dc->nb[i] == st.MPI_SOURCE) break;
    PetscCheck(i < dc->nnb, PETSC_COMM_SELF, PETSC_ERR_PLIB, "decentralized detection: rank %d got a message from rank %d, not a tree neighbour", (int)dc->rank, (int)st.MPI_SOURCE);
    dc->nrecv[i]++;
    PetscCall(DCHandle(d, i, m));
    if (dc->notified) ready = PETSC_TRUE;
  }
  if (d->stopped) PetscFunctionReturn(0);
  /* rule 1: partial convergence and election */
  if (!dc->root && !dc->in_wave) {
    PetscInt cnt = 0, missing = -1;
    for (PetscInt i = 0; i < dc->nnb; i++) {
      if (dc->pcv_recv[i])
        cnt++;
      else
        missing = i;
    }
    if (!dc->pcv_sent && ready) {
      if (cnt == dc->nnb) {
        dc->root   = PETSC_TRUE;
        dc->parent = -1;
        dc->dirty  = PETSC_FALSE;
        dc->elections++;
        PetscCall(DCStartWave(d));
      } else if (cnt == dc->nnb - 1) {
        PetscCall(DCSend(d, missing, DC_PCV, 0, 0, 0, 0, 0));
        dc->pcv_sent = PETSC_TRUE;
        dc->parent   = missing;
        dc->dirty    = PETSC_FALSE;
      }
    } else if (dc->pcv_sent && cnt == dc->nnb && dc->nb[dc->parent] < dc->rank) { /* crossing PCVs: the larger rank is the root */
      dc->root   = PETSC_TRUE;
      dc->parent = -1;
      dc->elections++;
      PetscCall(DCStartWave(d));
    }
  }
  /* rule 2: our subtree has answered */
  if (dc->in_wave) {
    PetscBool  ok = (PetscBool)!dc->dirty, all = PETSC_TRUE;
    PetscInt64 S = sent, D = delivered;
    int        code = dc->code;
    for (PetscInt i = 0; i < dc->nnb; i++) {
      if (!DCIsChild(dc, i)) continue;
      if (!dc->answered[i]) {
        all = PETSC_FALSE;
        break;
      }
      ok = (PetscBool)(ok && dc->child_ok[i]);
      S += dc->child_sent[i];
      D += dc->child_delivered[i];
      code = PetscMax(code, dc->child_code[i]);
    }
    if (all) {
      dc->in_wave = PETSC_FALSE;
      dc->my_ok   = ok;
      dc->answers++;
      if (!dc->root)
        PetscCall(DCSend(d, dc->parent, DC_ANSWER, dc->wave, ok, S, D, code));
      else if (code > 0)
        PetscCall(DCStop(d, code));
      else if (!ok)
        PetscCall(DCReset(d));
      else if (S == D && dc->have_prev && S == dc->prev_sent && D == dc->prev_delivered)
        PetscCall(DCStop(d, 0));
      else {
        dc->have_prev      = (PetscBool)(S == D);
        dc->prev_sent      = S;
        dc->prev_delivered = D;
        PetscCall(DCStartWave(d));
      }
    }
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode EasDetectEnd_Decentralized(EasDetect *d)
{
  EasDetectDC *dc = &d->dc;
  PetscInt64   expect[EAS_DETECT_MAXNB];
  MPI_Request  creq[2 * EAS_DETECT_MAXNB];
  PetscInt64   drained = 0;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < dc->nnb; i++) {
    PetscCallMPI(MPI_Irecv(&expect[i], 1, MPIU_INT64, dc->nb[i], EAS_TAG_DETECT_COUNT, d->comm, &creq[i]));
    PetscCallMPI(MPI_Isend(&dc->nsend[i], 1, MPIU_INT64, dc->nb[i], EAS_TAG_DETECT_COUNT, d->comm, &creq[dc->nnb + i]));
  }
  PetscCallMPI(MPI_Waitall((PetscMPIInt)(2 * dc->nnb), creq, MPI_STATUSES_IGNORE));
  for (PetscInt i = 0; i < dc->nnb; i++) {
    PetscCheck(dc->nrecv[i] <= expect[i], PETSC_COMM_SELF, PETSC_ERR_PLIB, "decentralized detection: rank %d received %" PetscInt64_FMT " messages from rank %d, which sent %" PetscInt64_FMT, (int)dc->rank, dc->nrecv[i], (int)dc->nb[i], expect[i]);
    while (dc->nrecv[i] < expect[i]) {
      PetscInt64 m[EAS_DETECT_MSGLEN];
      PetscCallMPI(MPI_Recv(m, EAS_DETECT_MSGLEN, MPIU_INT64, dc->nb[i], EAS_TAG_DETECT, d->comm, MPI_STATUS_IGNORE));
      PetscCheck(m[1] == d->seq, PETSC_COMM_SELF, PETSC_ERR_PLIB, "decentralized detection: rank %d drained a message of phase %" PetscInt64_FMT " during phase %" PetscInt64_FMT, (int)dc->rank, m[1], d->seq);
      dc->nrecv[i]++;
      drained++;
    }
  }
  for (PetscInt k = 0; k < dc->nslots; k++) {
    PetscCallMPI(MPI_Wait(&dc->sends[k]->req, MPI_STATUS_IGNORE));
    PetscCall(PetscFree(dc->sends[k]));
  }
  PetscCall(PetscFree(dc->sends));
  dc->nslots = 0;
  PetscCall(PetscInfo(NULL, "decentralized detection, phase %" PetscInt64_FMT ", rank %d: stop code %d, %" PetscInt64_FMT " elections here, %" PetscInt64_FMT " waves started here, %" PetscInt64_FMT " answers, %" PetscInt64_FMT " resets, %" PetscInt64_FMT " messages sent, %" PetscInt64_FMT " drained at the end\n", d->seq, (int)dc->rank, d->stop_code, dc->elections, dc->waves, dc->answers, dc->resets, dc->msgs, drained));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- front */

PetscErrorCode EasDetectProgress(EasDetect *d, PetscBool local_conv, int abort, PetscInt64 sent, PetscInt64 delivered, PetscBool *stop, int *abort_out)
{
  PetscFunctionBegin;
  PetscCheck(abort >= 0 && abort <= EAS_DETECT_NCODE, PETSC_COMM_SELF, PETSC_ERR_PLIB, "EasDetectProgress: failure code %d outside 0..%d", abort, EAS_DETECT_NCODE);
  if (!d->stopped && d->timeout > 0) {
    const double now = MPI_Wtime();
    if (!d->timed_out && now - d->phase_start > d->timeout) {
      d->timed_out    = PETSC_TRUE;
      d->timed_out_at = now;
      PetscCall(PetscInfo(NULL, "convergence detection (%s), phase %" PetscInt64_FMT ": no decision %g s after the phase began > timeout %g s: raising failure code %d\n", EasDetectTypes[d->type], d->seq, now - d->phase_start, (double)d->timeout, d->timeout_code));
    }
    PetscCheck(!d->timed_out || now - d->timed_out_at <= PetscMax(d->timeout, EAS_DETECT_STUCK_MIN), PETSC_COMM_SELF, PETSC_ERR_PLIB, "convergence detection (%s), phase %" PetscInt64_FMT ": no decision %g s after this rank timed out (timeout %g s, then at least %g s for the failure to propagate): the detection protocol is stuck", EasDetectTypes[d->type], d->seq, now - d->timed_out_at, (double)d->timeout, (double)EAS_DETECT_STUCK_MIN);
  }
  if (d->timed_out) abort = PetscMax(abort, d->timeout_code);
  if (!d->stopped) {
    if (d->type == EAS_DETECT_IALLREDUCE)
      PetscCall(EasDetectProgress_Iallreduce(d, local_conv, abort, sent, delivered));
    else
      PetscCall(EasDetectProgress_Decentralized(d, local_conv, abort, sent, delivered));
  }
  *stop      = d->stopped;
  *abort_out = d->stopped ? d->stop_code : 0;
  PetscFunctionReturn(0);
}

PetscErrorCode EasDetectEnd(EasDetect *d)
{
  PetscFunctionBegin;
  PetscCheck(d->stopped, PETSC_COMM_SELF, PETSC_ERR_PLIB, "EasDetectEnd: no decision yet (call EasDetectProgress until it says stop)");
  if (d->type == EAS_DETECT_IALLREDUCE) {
    /* every rank stops on the same completed round: nothing can be in flight */
    PetscCheck(!d->inflight && d->req == MPI_REQUEST_NULL, PETSC_COMM_SELF, PETSC_ERR_PLIB, "EasDetectEnd: a convergence reduction is still in flight");
  } else
    PetscCall(EasDetectEnd_Decentralized(d));
  PetscFunctionReturn(0);
}
