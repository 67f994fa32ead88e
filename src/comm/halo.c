/*
  Halo exchange of the six faces of a rank's box (docs/adr.md, Vialle et al.
  sec. 1.7.4 and Fig. 1.9).

  Synchronous: Irecv/Isend/Waitall on every outer iteration.
  Asynchronous: one receive posted per neighbour, progressed by MPI_Test
  polling between iterations or by a reception thread (MPI_THREAD_MULTIPLE,
  queue and ghosts under a mutex); a face is sent only when the previous send
  to that neighbour has completed, so there is never an unbounded queue.
  Received messages wait in a small queue until their (injected) release
  time; the newest released one becomes the ghost, older ones are discarded
  as stale.  At the end of a step the ranks exchange how many messages they
  sent, every expected message is drained, the spare receive is cancelled and
  every send completed: no request survives a time step.
*/
#include "commimpl.h"
#include <string.h>
#include <unistd.h>

PetscErrorCode EasHaloCreate(MPI_Comm comm, const PetscMPIInt nb[], const PetscInt count[], EasHalo *halo)
{
  EasHalo     h;
  PetscMPIInt rank;

  PetscFunctionBegin;
  PetscCall(PetscNew(&h));
  h->comm = comm;
  for (PetscInt f = 0; f < EAS_HALO_NFACE; f++) {
    h->nb[f]    = nb[f];
    h->count[f] = count[f];
    h->sreq[f] = h->rreq[f] = MPI_REQUEST_NULL;
    PetscCall(PetscCalloc1(PetscMax(count[f], 1), &h->sendbuf[f]));
    PetscCall(PetscCalloc1(PetscMax(count[f], 1), &h->ghost[f]));
    PetscCall(PetscCalloc1(PetscMax(count[f], 1), &h->used[f]));
    if (nb[f] == MPI_PROC_NULL) continue;
    PetscCall(PetscCalloc1(count[f], &h->rbuf[f]));
    for (PetscInt s = 0; s < EAS_HALO_QDEPTH; s++) PetscCall(PetscCalloc1(count[f], &h->q[f][s].buf));
  }
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(EasFaultsSetUp(&h->faults, rank));
  PetscCheck(!pthread_mutex_init(&h->lock, NULL), PETSC_COMM_SELF, PETSC_ERR_SYS, "pthread_mutex_init failed");
  *halo = h;
  PetscFunctionReturn(0);
}

PetscErrorCode EasHaloDestroy(EasHalo *halo)
{
  EasHalo h = *halo;

  PetscFunctionBegin;
  if (!h) PetscFunctionReturn(0);
  for (PetscInt f = 0; f < EAS_HALO_NFACE; f++) {
    PetscCheck(h->sreq[f] == MPI_REQUEST_NULL && h->rreq[f] == MPI_REQUEST_NULL, PETSC_COMM_SELF, PETSC_ERR_PLIB, "EasHaloDestroy: a request of face %" PetscInt_FMT " is still active", f);
    PetscCall(PetscFree(h->sendbuf[f]));
    PetscCall(PetscFree(h->ghost[f]));
    PetscCall(PetscFree(h->used[f]));
    PetscCall(PetscFree(h->rbuf[f]));
    for (PetscInt s = 0; s < EAS_HALO_QDEPTH; s++) PetscCall(PetscFree(h->q[f][s].buf));
  }
  pthread_mutex_destroy(&h->lock);
  PetscCall(PetscFree(*halo));
  PetscFunctionReturn(0);
}

/* Waits (sleeping in small slices) until MPI_Wtime() >= t. */
static void EasHaloSleepUntil(double t)
{
  for (double now = MPI_Wtime(); now < t; now = MPI_Wtime()) {
    double us = (t - now) * 1e6;
    usleep(us > 200 ? 100 : (useconds_t)(us > 1 ? us / 2 : 1));
  }
}

/*
  EasHaloExchangeSync - sendbuf -> ghost of every neighbour, blocking.  With
  fault injection the call returns only when every received message has been
  held back for its delay.
*/
PetscErrorCode EasHaloExchangeSync(EasHalo h, PetscBool with_faults)
{
  PetscFunctionBegin;
  PetscCall(EasHaloExchangeSyncFaces(h, 0, EAS_HALO_NFACE, with_faults));
  PetscFunctionReturn(0);
}

PetscErrorCode EasHaloExchangeSyncFaces(EasHalo h, PetscInt f0, PetscInt f1, PetscBool with_faults)
{
  double release = 0;

  PetscFunctionBegin;
  for (PetscInt f = f0; f < f1; f++)
    if (h->nb[f] != MPI_PROC_NULL) PetscCallMPI(MPI_Irecv(h->ghost[f], (PetscMPIInt)h->count[f], MPIU_SCALAR, h->nb[f], EAS_TAG_SYNC, h->comm, &h->rreq[f]));
  for (PetscInt f = f0; f < f1; f++)
    if (h->nb[f] != MPI_PROC_NULL) PetscCallMPI(MPI_Isend(h->sendbuf[f], (PetscMPIInt)h->count[f], MPIU_SCALAR, h->nb[f], EAS_TAG_SYNC, h->comm, &h->sreq[f]));
  for (PetscInt f = f0; f < f1; f++) {
    if (h->nb[f] == MPI_PROC_NULL) continue;
    PetscCallMPI(MPI_Wait(&h->rreq[f], MPI_STATUS_IGNORE));
    if (with_faults && EasFaultsActive(&h->faults)) release = PetscMax(release, EasFaultsReleaseTime(&h->faults, MPI_Wtime()));
  }
  PetscCallMPI(MPI_Waitall((PetscMPIInt)(f1 - f0), h->sreq + f0, MPI_STATUSES_IGNORE));
  if (release > 0) EasHaloSleepUntil(release);
  PetscFunctionReturn(0);
}

/* Posts the receive of face f (caller holds the lock in thread mode). */
static int EasHaloPost_Private(EasHalo h, PetscInt f)
{
  /* (MPI_Irecv): the raw MPI call, not PETSc's logging macro, which is not
     thread safe (this runs in the reception thread) */
  return (MPI_Irecv)(h->rbuf[f], (PetscMPIInt)h->count[f], MPIU_SCALAR, h->nb[f], EAS_TAG_ASYNC, h->comm, &h->rreq[f]);
}

/* Progresses the receptions: completed messages enter the queue with their
   release time; the receive is reposted while the queue has room.  Uses only
   MPI calls (safe in the reception thread).  Caller holds the lock. */
static int EasHaloProgress_Private(EasHalo h)
{
  for (PetscInt f = 0; f < EAS_HALO_NFACE; f++) {
    while (h->rreq[f] != MPI_REQUEST_NULL) {
      int flag = 0, err;
      err      = (MPI_Test)(&h->rreq[f], &flag, MPI_STATUS_IGNORE);
      if (err) return err;
      if (!flag) break;
      h->nrecv[f]++;
      h->msgs_recv++;
      {
        EasHaloSlot *s = &h->q[f][h->qlen[f]++];
        memcpy(s->buf, h->rbuf[f], (size_t)h->count[f] * sizeof(PetscScalar));
        s->release = EasFaultsReleaseTime(&h->faults, MPI_Wtime());
      }
      if (h->qlen[f] < EAS_HALO_QDEPTH) {
        err = EasHaloPost_Private(h, f);
        if (err) return err;
      }
    }
  }
  return 0;
}

/* Makes the newest released message of each face the ghost; the older ones
   are stale.  Reposts a receive held back by a full queue. */
static int EasHaloPublish_Private(EasHalo h)
{
  const double now = MPI_Wtime();

  for (PetscInt f = 0; f < EAS_HALO_NFACE; f++) {
    PetscInt k = -1;
    for (PetscInt s = 0; s < h->qlen[f]; s++)
      if (h->q[f][s].release <= now) k = s;
    if (k >= 0) {
      EasHaloSlot tmp[EAS_HALO_QDEPTH];
      PetscInt    m = 0;
      memcpy(h->ghost[f], h->q[f][k].buf, (size_t)h->count[f] * sizeof(PetscScalar));
      h->msgs_stale += k;
      h->phase_delivered += k + 1;
      h->fresh = PETSC_TRUE;
      /* rotate: the k+1 consumed buffers go to the back */
      for (PetscInt s = k + 1; s < h->qlen[f]; s++) tmp[m++] = h->q[f][s];
      for (PetscInt s = 0; s <= k; s++) tmp[m++] = h->q[f][s];
      for (PetscInt s = 0; s < EAS_HALO_QDEPTH; s++)
        if (s < m) h->q[f][s] = tmp[s];
      h->qlen[f] -= k + 1;
    }
    if (h->nb[f] != MPI_PROC_NULL && h->rreq[f] == MPI_REQUEST_NULL && h->qlen[f] < EAS_HALO_QDEPTH) {
      int err = EasHaloPost_Private(h, f);
      if (err) return err;
    }
  }
  return 0;
}

static void *EasHaloThread(void *arg)
{
  EasHalo h = (EasHalo)arg;

  for (;;) {
    int err, stop;
    pthread_mutex_lock(&h->lock);
    stop = h->thread_stop;
    err  = stop ? 0 : EasHaloProgress_Private(h);
    if (err) h->thread_err = (PetscErrorCode)err;
    pthread_mutex_unlock(&h->lock);
    if (stop || err) break;
    usleep(20);
  }
  return NULL;
}

/*
  EasHaloAsyncBegin - starts an asynchronous phase: one receive per
  neighbour, counters reset, reception thread started if requested.
*/
PetscErrorCode EasHaloAsyncBegin(EasHalo h)
{
  PetscFunctionBegin;
  h->fresh      = PETSC_FALSE;
  h->phase_sent = h->phase_delivered = 0;
  for (PetscInt f = 0; f < EAS_HALO_NFACE; f++) {
    h->nsent[f] = h->nrecv[f] = h->qlen[f] = 0;
    if (h->nb[f] != MPI_PROC_NULL) PetscCallMPI(EasHaloPost_Private(h, f));
  }
  if (h->use_thread) {
    h->thread_stop = PETSC_FALSE;
    h->thread_err  = 0;
    PetscCheck(!pthread_create(&h->thread, NULL, EasHaloThread, h), PETSC_COMM_SELF, PETSC_ERR_SYS, "-eas_async_thread: could not start the reception thread");
    h->thread_running = PETSC_TRUE;
  }
  PetscFunctionReturn(0);
}

/* EasHaloAsyncSendReady - whether face f may be sent (previous send done). */
PetscErrorCode EasHaloAsyncSendReady(EasHalo h, PetscInt f, PetscBool *ready)
{
  int flag = 1;

  PetscFunctionBegin;
  *ready = PETSC_FALSE;
  if (h->nb[f] == MPI_PROC_NULL) PetscFunctionReturn(0);
  if (h->sreq[f] != MPI_REQUEST_NULL) PetscCallMPI(MPI_Test(&h->sreq[f], &flag, MPI_STATUS_IGNORE));
  *ready = flag ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(0);
}

/* EasHaloAsyncSend - sends sendbuf[f]; the caller checked EasHaloAsyncSendReady(). */
PetscErrorCode EasHaloAsyncSend(EasHalo h, PetscInt f)
{
  PetscFunctionBegin;
  PetscCheck(h->sreq[f] == MPI_REQUEST_NULL, PETSC_COMM_SELF, PETSC_ERR_PLIB, "EasHaloAsyncSend: a send to face %" PetscInt_FMT " is still in flight", f);
  PetscCallMPI(MPI_Isend(h->sendbuf[f], (PetscMPIInt)h->count[f], MPIU_SCALAR, h->nb[f], EAS_TAG_ASYNC, h->comm, &h->sreq[f]));
  h->nsent[f]++;
  h->msgs_sent++;
  h->phase_sent++;
  PetscFunctionReturn(0);
}

/* EasHaloAsyncPoll - progresses receptions (unless the thread does) and
   publishes the released messages; h->fresh tells whether a ghost changed. */
PetscErrorCode EasHaloAsyncPoll(EasHalo h)
{
  int err = 0;

  PetscFunctionBegin;
  if (h->thread_running)
    pthread_mutex_lock(&h->lock);
  else
    err = EasHaloProgress_Private(h);
  if (!err) err = EasHaloPublish_Private(h);
  if (h->thread_running) {
    if (!err) err = h->thread_err;
    pthread_mutex_unlock(&h->lock);
  }
  PetscCallMPI(err);
  PetscFunctionReturn(0);
}

/* EasHaloCheckIdle - the invariant between phases: no request of the halo
   pending, no reception thread running. */
PetscErrorCode EasHaloCheckIdle(EasHalo h)
{
  PetscFunctionBegin;
  PetscCheck(!h->thread_running, PETSC_COMM_SELF, PETSC_ERR_PLIB, "halo: the reception thread is still running");
  for (PetscInt f = 0; f < EAS_HALO_NFACE; f++) PetscCheck(h->sreq[f] == MPI_REQUEST_NULL && h->rreq[f] == MPI_REQUEST_NULL, PETSC_COMM_SELF, PETSC_ERR_PLIB, "halo: a request of face %" PetscInt_FMT " is still pending (send %s, receive %s)", f, h->sreq[f] == MPI_REQUEST_NULL ? "done" : "pending", h->rreq[f] == MPI_REQUEST_NULL ? "done" : "pending");
  PetscFunctionReturn(0);
}

/*
  EasHaloAsyncEnd - ends an asynchronous phase with no request left: stops
  the thread, exchanges the numbers of messages sent, drains every expected
  message (those not yet visible count as stale), cancels the spare receives
  and completes the sends.  Collective over the neighbours.
*/
PetscErrorCode EasHaloAsyncEnd(EasHalo h)
{
  PetscInt    expect[EAS_HALO_NFACE];
  MPI_Request creq[2 * EAS_HALO_NFACE];

  PetscFunctionBegin;
  if (h->thread_running) {
    pthread_mutex_lock(&h->lock);
    h->thread_stop = PETSC_TRUE;
    pthread_mutex_unlock(&h->lock);
    PetscCheck(!pthread_join(h->thread, NULL), PETSC_COMM_SELF, PETSC_ERR_SYS, "-eas_async_thread: could not join the reception thread");
    h->thread_running = PETSC_FALSE;
    PetscCallMPI(h->thread_err);
  }
  for (PetscInt f = 0; f < 2 * EAS_HALO_NFACE; f++) creq[f] = MPI_REQUEST_NULL;
  for (PetscInt f = 0; f < EAS_HALO_NFACE; f++) {
    expect[f] = 0;
    if (h->nb[f] == MPI_PROC_NULL) continue;
    PetscCallMPI(MPI_Irecv(&expect[f], 1, MPIU_INT, h->nb[f], EAS_TAG_COUNT, h->comm, &creq[f]));
    PetscCallMPI(MPI_Isend(&h->nsent[f], 1, MPIU_INT, h->nb[f], EAS_TAG_COUNT, h->comm, &creq[EAS_HALO_NFACE + f]));
  }
  PetscCallMPI(MPI_Waitall(2 * EAS_HALO_NFACE, creq, MPI_STATUSES_IGNORE));
  for (PetscInt f = 0; f < EAS_HALO_NFACE; f++) {
    if (h->nb[f] == MPI_PROC_NULL) continue;
    h->msgs_stale += h->qlen[f];
    h->qlen[f] = 0;
    while (h->nrecv[f] < expect[f]) {
      if (h->rreq[f] == MPI_REQUEST_NULL) PetscCallMPI(EasHaloPost_Private(h, f));
      PetscCallMPI(MPI_Wait(&h->rreq[f], MPI_STATUS_IGNORE));
      h->nrecv[f]++;
      h->msgs_recv++;
      h->msgs_stale++;
    }
    if (h->rreq[f] != MPI_REQUEST_NULL) {
      MPI_Status st;
      int        cancelled;
      PetscCallMPI(MPI_Cancel(&h->rreq[f]));
      PetscCallMPI(MPI_Wait(&h->rreq[f], &st));
      PetscCallMPI(MPI_Test_cancelled(&st, &cancelled));
      PetscCheck(cancelled, PETSC_COMM_SELF, PETSC_ERR_PLIB, "EasHaloAsyncEnd: face %" PetscInt_FMT " received a message beyond the %" PetscInt_FMT " announced", f, expect[f]);
    }
  }
  PetscCallMPI(MPI_Waitall(EAS_HALO_NFACE, h->sreq, MPI_STATUSES_IGNORE));
  /* the end of the phase with every neighbour: a neighbour that returns
     first may start its next phase right away (a failed phase returns
     without a synchronous check, e.g. inside CVODE's step retries), and its
     first messages must not meet this rank's spare receives, cancelled only
     above */
  for (PetscInt f = 0; f < EAS_HALO_NFACE; f++) {
    if (h->nb[f] == MPI_PROC_NULL) continue;
    PetscCallMPI(MPI_Irecv(NULL, 0, MPI_BYTE, h->nb[f], EAS_TAG_DONE, h->comm, &creq[f]));
    PetscCallMPI(MPI_Isend(NULL, 0, MPI_BYTE, h->nb[f], EAS_TAG_DONE, h->comm, &creq[EAS_HALO_NFACE + f]));
  }
  PetscCallMPI(MPI_Waitall(2 * EAS_HALO_NFACE, creq, MPI_STATUSES_IGNORE));
  PetscCall(EasHaloCheckIdle(h));
  PetscFunctionReturn(0);
}

/*
  EasHaloGhostChange - how much the ghosts moved since the last iteration
  used them.  The asynchronous iterations use it to tell new information from
  noise: a neighbour that is itself converged keeps sending planes that
  differ from the used ones by less than the outer tolerance, and a local
  Newton step on them would move x by about as little (the box's response
  to its boundary values is bounded by them), so it is skipped.
*/
PetscErrorCode EasHaloGhostChange(EasHalo h, PetscInt ncomp, PetscReal change[])
{
  PetscReal d2[8] = {0}, g2[8] = {0};

  PetscFunctionBegin;
  PetscCheck(ncomp >= 1 && ncomp <= 8, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "EasHaloGhostChange: ncomp %" PetscInt_FMT ", expected 1..8", ncomp);
  for (PetscInt f = 0; f < EAS_HALO_NFACE; f++) {
    if (h->nb[f] == MPI_PROC_NULL) continue;
    for (PetscInt i = 0; i < h->count[f]; i++) {
      const PetscScalar g = h->ghost[f][i], dg = g - h->used[f][i];
      d2[i % ncomp] += PetscRealPart(dg * PetscConj(dg));
      g2[i % ncomp] += PetscRealPart(g * PetscConj(g));
    }
  }
  for (PetscInt c = 0; c < ncomp; c++) change[c] = g2[c] > 0 ? PetscSqrtReal(d2[c] / g2[c]) : PetscSqrtReal(d2[c]);
  PetscFunctionReturn(0);
}

PetscErrorCode EasHaloMarkUsed(EasHalo h)
{
  PetscFunctionBegin;
  for (PetscInt f = 0; f < EAS_HALO_NFACE; f++)
    if (h->nb[f] != MPI_PROC_NULL) PetscCall(PetscArraycpy(h->used[f], h->ghost[f], h->count[f]));
  PetscFunctionReturn(0);
}
