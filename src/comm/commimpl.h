/*
  Communication layer of the distributed solvers (docs/adr.md, Vialle et al.
  sec. 1.7.4): halo exchange of the six faces of a rank's box, synchronous
  (Isend/Irecv/Waitall) or asynchronous (non-blocking sends with at most one
  in flight per neighbour, receptions progressed by MPI_Test polling or by a
  reception thread), fault injection (delay and jitter on delivery), and
  asynchronous global convergence detection.

  Private to the library: solvers include this header, users never do.
*/
#pragma once

#include <eas/sys.h>
#include <petsc/private/petscimpl.h>
#include <pthread.h>

/* EasCaptureError(ierr, call) - ierr = call without returning, so that a
   distributed solver can make a local failure collective (every rank learns
   of it and completes its requests) before it returns the error.  In PETSc
   debug builds the function stack of the failed call is unwound to the
   caller's depth (PETSc leaves it on an error return). */
#if defined(PETSC_USE_DEBUG) && !defined(PETSC_HAVE_THREADSAFETY)
#  define EasCaptureError(ierr, call)                                                         \
    do {                                                                                      \
      const int eas_depth_ = petscstack.currentsize;                                          \
      (ierr)               = (call);                                                          \
      if ((ierr) && petscstack.currentsize > eas_depth_) petscstack.currentsize = eas_depth_; \
    } while (0)
#else
#  define EasCaptureError(ierr, call) ((ierr) = (call))
#endif

#define EAS_HALO_NFACE 6
#define EAS_HALO_QDEPTH 8 /* received messages held back per neighbour */

/* Tags on the solver's private (duplicated) communicator. */
enum {
  EAS_TAG_ASYNC        = 11,
  EAS_TAG_SYNC         = 12,
  EAS_TAG_COUNT        = 13,
  EAS_TAG_DETECT       = 14, /* decentralized detection: protocol messages */
  EAS_TAG_DETECT_COUNT = 15, /* decentralized detection: final per-neighbour message counts */
  EAS_TAG_DONE         = 16  /* halo: end of an asynchronous phase on both sides */
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
PETSC_INTERN double    EasFaultsReleaseTime(EasFaults *, double now);
PETSC_INTERN PetscBool EasFaultsActive(const EasFaults *);

/* One received message waiting for its release time. */
typedef struct {
  PetscScalar *buf;
  double       release;
} EasHaloSlot;

typedef struct _n_EasHalo *EasHalo;
struct _n_EasHalo {
  MPI_Comm     comm; /* Cartesian communicator (owned by the caller) */
  PetscMPIInt  nb[EAS_HALO_NFACE];
  PetscInt     count[EAS_HALO_NFACE]; /* scalars per face message */
  PetscScalar *sendbuf[EAS_HALO_NFACE];
  PetscScalar *ghost[EAS_HALO_NFACE]; /* the values the iterations see */
  PetscScalar *used[EAS_HALO_NFACE];  /* the ghosts the last iteration used (async) */
  MPI_Request  sreq[EAS_HALO_NFACE], rreq[EAS_HALO_NFACE];
  PetscScalar *rbuf[EAS_HALO_NFACE]; /* buffer of the posted receive */
  EasHaloSlot  q[EAS_HALO_NFACE][EAS_HALO_QDEPTH];
  PetscInt     qlen[EAS_HALO_NFACE];
  PetscInt     nsent[EAS_HALO_NFACE], nrecv[EAS_HALO_NFACE]; /* async messages in this step */
  PetscInt64   phase_sent, phase_delivered;                  /* this phase: sent, made visible or discarded */
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
/* EasHaloExchangeSyncFaces - the same for the faces f0 <= f < f1 only. */
PETSC_INTERN PetscErrorCode EasHaloExchangeSyncFaces(EasHalo, PetscInt f0, PetscInt f1, PetscBool with_faults);
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
/* Errors unless the halo is idle: no request pending, no thread running
   (checked at the end of every asynchronous phase). */
PETSC_INTERN PetscErrorCode EasHaloCheckIdle(EasHalo);
/* Relative change of the ghosts since EasHaloMarkUsed, per component of
   ncomp interleaved components: change[c] = ||ghost_c - used_c||_2 /
   ||ghost_c||_2 over all faces (absolute when ||ghost_c|| = 0). */
PETSC_INTERN PetscErrorCode EasHaloGhostChange(EasHalo, PetscInt ncomp, PetscReal change[]);
/* Records the current ghosts as the ones an iteration used. */
PETSC_INTERN PetscErrorCode EasHaloMarkUsed(EasHalo);

/* Asynchronous global convergence detection (detect.c), two types behind
   one front:
   iallreduce:    non-blocking MPI_Iallreduce rounds: two consecutive rounds in
                  which every rank was converged all along, and in which the
                  global numbers of halo messages sent and delivered were equal
                  and unchanged (no message in transit);
   decentralized: messages between neighbours only, on a spanning tree of the
                  Cartesian neighbour graph: dynamic election of a root by
                  partial-convergence messages, then verification waves from
                  the root (Bahi, Contassot-Vivier, Couturier, VECPAR'08; the
                  rules are in detect.c). */
#define EAS_DETECT_NCODE 4  /* failure codes 1..EAS_DETECT_NCODE */
#define EAS_DETECT_MAXNB 6  /* tree neighbours of a rank (at most its 6 faces) */
#define EAS_DETECT_MSGLEN 7 /* int64 words per protocol message */
typedef enum {
  EAS_DETECT_IALLREDUCE,
  EAS_DETECT_DECENTRALIZED
} EasDetectType;
PETSC_INTERN const char *const EasDetectTypes[]; /* "iallreduce", "decentralized", NULL */

typedef struct {
  MPI_Request req;
  PetscInt64  buf[EAS_DETECT_MSGLEN];
} EasDetectSend;

/* state of the decentralized protocol on one rank (indices i are positions
   in nb[], the rank's tree neighbours) */
typedef struct {
  PetscMPIInt rank;
  PetscInt    nnb;
  PetscMPIInt nb[EAS_DETECT_MAXNB];
  PetscBool   pcv_recv[EAS_DETECT_MAXNB]; /* partial convergence received from nb[i] */
  PetscBool   pcv_sent;                   /* sent ours to nb[parent] */
  PetscInt    parent;                     /* -1: none (not in the tree yet, or root) */
  PetscBool   root;                       /* elected */
  PetscBool   dirty;                      /* not ready at some point since pcv_sent / election */
  PetscBool   notified, notice_sent;      /* a failure is known: ready from now on */
  int         code;                       /* largest failure code known here */
  /* verification wave */
  PetscBool  in_wave;
  PetscInt64 wave;
  PetscBool  answered[EAS_DETECT_MAXNB], child_ok[EAS_DETECT_MAXNB];
  PetscInt64 child_sent[EAS_DETECT_MAXNB], child_delivered[EAS_DETECT_MAXNB];
  int        child_code[EAS_DETECT_MAXNB];
  PetscBool  my_ok; /* our subtree's answer to the last wave */
  /* root: the previous all-positive wave with no message in transit */
  PetscBool  have_prev;
  PetscInt64 prev_sent, prev_delivered;
  /* messages */
  PetscInt64      nsend[EAS_DETECT_MAXNB], nrecv[EAS_DETECT_MAXNB];
  EasDetectSend **sends; /* slots allocated one by one: MPI owns a buffer until its send completes */
  PetscInt        nslots;
  /* statistics of the phase */
  PetscInt64 waves, answers, resets, elections, msgs;
} EasDetectDC;

typedef struct {
  EasDetectType type;
  MPI_Comm      comm;
  PetscInt64    seq; /* phase number on this communicator (same on every rank) */
  PetscBool     stopped;
  int           stop_code;
  /* safety net (EasDetectSetTimeout) */
  PetscReal timeout;
  int       timeout_code;
  PetscBool timed_out;
  double    phase_start, timed_out_at;
  /* iallreduce */
  MPI_Request req;
  PetscBool   inflight;
  PetscInt64  sendv[3 + EAS_DETECT_NCODE], recvv[3 + EAS_DETECT_NCODE]; /* [not converged, sent, delivered, ranks failing with code 1..] summed */
  PetscInt64  last_sent, last_delivered;                                /* global counts of the previous all-true round */
  PetscInt    true_rounds;
  PetscInt    rounds;
  PetscBool   changed; /* local flag went false since the last contribution */
  /* decentralized */
  EasDetectDC dc;
} EasDetect;

/* Starts a detection phase on comm (the Cartesian communicator of the halo;
   every rank of comm calls it the same number of times).  nb[6]: the face
   neighbours (-x,+x,-y,+y,-z,+z, MPI_PROC_NULL at the boundary) of a
   non-periodic Cartesian grid; used by the decentralized type only (NULL
   allowed for iallreduce). */
PETSC_INTERN PetscErrorCode EasDetectBegin(EasDetect *, EasDetectType, MPI_Comm, const PetscMPIInt nb[]);
/* Safety net: a rank on which no decision has come `seconds` of wall clock
   after the phase began (EasDetectBegin; local flag changes never restart
   the clock) raises failure code `code` (so every rank stops with it); if
   no decision comes within another max(`seconds`, 10 s), EasDetectProgress
   errors out (protocol failure).
   seconds > 0; code in 1..EAS_DETECT_NCODE. */
PETSC_INTERN PetscErrorCode EasDetectSetTimeout(EasDetect *, PetscReal seconds, int code);
/* local_conv: the rank's persistent local flag; abort: a local failure code
   (0 none, 1..EAS_DETECT_NCODE); sent, delivered: the halo messages this
   rank sent and delivered (made visible or discarded) in this phase.  On
   return *stop says that all ranks agreed to stop and *abort_out is the
   largest failure code (the same on every rank).  A rank that is locally
   converged must not send halo messages (the in-transit test relies on it). */
PETSC_INTERN PetscErrorCode EasDetectProgress(EasDetect *, PetscBool local_conv, int abort, PetscInt64 sent, PetscInt64 delivered, PetscBool *stop, int *abort_out);
/* After *stop: completes every request and receives every protocol message
   of the phase (collective over the tree neighbours); nothing is left. */
PETSC_INTERN PetscErrorCode EasDetectEnd(EasDetect *);
