/*
  Communication layer of the distributed solvers (DESIGN.md sec. 4, seed 000
  sec. 1.7.4): halo exchange of the six faces of a rank's box, synchronous
  (Isend/Irecv/Waitall) or asynchronous (non-blocking sends with at most one
  in flight per neighbour, receptions progressed by MPI_Test polling or by a
  reception thread), fault injection (delay and jitter on delivery), and
  asynchronous global convergence detection.

  Private to the library: solvers include this header, users never do.
*/
#pragma once

#include <eas.h>
#include <petsc/private/petscimpl.h>
#include <pthread.h>

#define EAS_HALO_NFACE 6
#define EAS_HALO_QDEPTH 8 /* received messages held back per neighbour */

/* Tags on the solver's private (duplicated) communicator. */
enum {
  EAS_TAG_ASYNC = 11,
  EAS_TAG_SYNC  = 12,
  EAS_TAG_COUNT = 13
};

/* Fault injection: each received message is made visible only after
   delay + U(0, jitter) microseconds of wall clock (faults.c). */
typedef struct {
  PetscReal delay_us, jitter_us;
  PetscInt  seed;
  uint64_t  state; /* xorshift64* state, one stream per rank */
} EasFaults;

PETSC_INTERN PetscErrorCode EasFaultsSetUp(EasFaults *, PetscMPIInt rank);
/* Release time (seconds, MPI_Wtime clock) of a message received at `now`. */
PETSC_INTERN double EasFaultsReleaseTime(EasFaults *, double now);
PETSC_INTERN PetscBool EasFaultsActive(const EasFaults *);

/* One received message waiting for its release time. */
typedef struct {
  PetscScalar *buf;
  double       release;
} EasHaloSlot;

typedef struct _n_EasHalo *EasHalo;
struct _n_EasHalo {
  MPI_Comm    comm; /* Cartesian communicator (owned by the caller) */
  PetscMPIInt nb[EAS_HALO_NFACE];
  PetscInt    count[EAS_HALO_NFACE]; /* scalars per face message */
  PetscScalar *sendbuf[EAS_HALO_NFACE];
  PetscScalar *ghost[EAS_HALO_NFACE]; /* the values the iterations see */
  MPI_Request  sreq[EAS_HALO_NFACE], rreq[EAS_HALO_NFACE];
  PetscScalar *rbuf[EAS_HALO_NFACE];  /* buffer of the posted receive */
  EasHaloSlot  q[EAS_HALO_NFACE][EAS_HALO_QDEPTH];
  PetscInt     qlen[EAS_HALO_NFACE];
  PetscInt     nsent[EAS_HALO_NFACE], nrecv[EAS_HALO_NFACE]; /* async messages in this step */
  PetscBool    fresh;                                        /* a new ghost became visible */
  EasFaults    faults;
  /* statistics (cumulative) */
  PetscInt64 msgs_sent, msgs_recv, msgs_stale;
  /* reception thread */
  PetscBool       use_thread, thread_running, thread_stop;
  pthread_t       thread;
  pthread_mutex_t lock;
  PetscErrorCode  thread_err;
};

/* nb[f]: neighbour rank across face f (-x,+x,-y,+y,-z,+z) or MPI_PROC_NULL;
   count[f]: scalars per message. */
PETSC_INTERN PetscErrorCode EasHaloCreate(MPI_Comm, const PetscMPIInt nb[], const PetscInt count[], EasHalo *);
PETSC_INTERN PetscErrorCode EasHaloDestroy(EasHalo *);
/* Synchronous exchange of sendbuf into ghost (delay emulated after arrival). */
PETSC_INTERN PetscErrorCode EasHaloExchangeSync(EasHalo, PetscBool with_faults);
/* Asynchronous step: Begin posts the receives (and starts the reception
   thread), Send sends face f when the previous send to that neighbour has
   completed (returns whether it was sent), Poll progresses receptions and
   publishes released messages, End drains every message of the step, cancels
   the spare receives and completes the sends: no request is left. */
PETSC_INTERN PetscErrorCode EasHaloAsyncBegin(EasHalo);
PETSC_INTERN PetscErrorCode EasHaloAsyncSendReady(EasHalo, PetscInt f, PetscBool *);
PETSC_INTERN PetscErrorCode EasHaloAsyncSend(EasHalo, PetscInt f);
PETSC_INTERN PetscErrorCode EasHaloAsyncPoll(EasHalo);
PETSC_INTERN PetscErrorCode EasHaloAsyncEnd(EasHalo);

/* Asynchronous global convergence detection by non-blocking MPI_Iallreduce
   (two consecutive all-true rounds with no local change in between). */
typedef struct {
  MPI_Comm    comm;
  MPI_Request req;
  PetscBool   inflight;
  int         sendv[2], recvv[2]; /* [not converged, abort code] reduced with MPI_MAX */
  PetscInt    true_rounds;
  PetscInt    rounds;
  PetscBool   changed; /* local flag went false since the last contribution */
} EasDetect;

PETSC_INTERN PetscErrorCode EasDetectBegin(EasDetect *, MPI_Comm);
/* local_conv: the rank's persistent local flag; abort: a local failure code
   (0 none).  On return *stop says that all ranks agreed to stop (same round
   on every rank) and *abort is the largest failure code. */
PETSC_INTERN PetscErrorCode EasDetectProgress(EasDetect *, PetscBool local_conv, int abort, PetscBool *stop, int *abort_out);
PETSC_INTERN PetscErrorCode EasDetectEnd(EasDetect *);
