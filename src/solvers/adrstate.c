/*
  The state of EasAdr on its backend (docs/adr.md, "What crosses the bus").

  On a device backend the state x lives in backend memory (x_v) from the
  first outer iteration on: the Newton update (backend op adr_update), the
  packing of the halo planes (adr_pack) and the padded state the assembly
  reads (adr_pad: the box, the neighbours' planes, the Dirichlet values,
  the zero-flux mirrors) run there, with the kernel bodies of
  src/backends/kernels/adr.h that the CPU backends run as loops.  An outer
  iteration moves only
    down: the packed planes of the faces with a neighbour (what MPI sends),
    up:   the neighbours' planes (what MPI received),
  plus the scalars of the sums.  adr->x on the host is brought up to date
  only when host code reads it (EasAdrStateSyncHost_Private: the output,
  CVODE's vectors, user reaction callbacks); host code that writes it says
  so (EasAdrStateHostWritten_Private) and the backend copy is refreshed
  before the next backend op reads it.  On a host-memory backend x_v is not
  used: the ops run on adr->x itself.

  The halo description the ops read (EasAdrKHalo) is built from the halo's
  message sizes (count[f] = 2 depth na nb): nothing here assumes one plane.

  With an overlap (-adr_overlap d, restricted additive Schwarz: docs/adr.md)
  the box is the rank's own box extended by d planes on every face with a
  neighbour; a face's message holds the sender's d + 1 own planes next to
  it: d fill the receiver's overlap (in x, by adr_pad: the neighbours'
  latest values, which the update does not touch) and one its ghost plane.
*/
#include "adrimpl.h"

static void EasAdrGatherFaces(EasAdr, PetscScalar *, PetscScalar *);

/* The kernels' halo description from the halo's message sizes. */
static PetscErrorCode EasAdrHaloKernel(EasAdr adr, EasAdrKHalo *H)
{
  PetscFunctionBegin;
  H->nx  = (EasKInt)adr->nl[0];
  H->ny  = (EasKInt)adr->nl[1];
  H->nz  = (EasKInt)adr->nl[2];
  H->pad = 1; /* the padded state's ghost planes per side (EAS_ADR_PI, EasAdrKFunctionPointIJK) */
  H->pack_start[0] = H->fill_start[0] = 0;
  for (PetscInt f = 0; f < 6; f++) {
    const PetscInt plane = EasAdrFaceDimA(adr, f) * EasAdrFaceDimB(adr, f);
    PetscInt       depth = 0;
    H->skip[f]           = (EasKInt)adr->ov[f];
    if (adr->nb[f] != MPI_PROC_NULL) {
      PetscCheck(plane > 0 && adr->halo->count[f] % (2 * plane) == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "halo face %" PetscInt_FMT ": %" PetscInt_FMT " scalars per message are not whole planes of 2 x %" PetscInt_FMT " points", f, adr->halo->count[f], plane);
      depth = adr->halo->count[f] / (2 * plane);
      PetscCheck(depth == H->skip[f] + H->pad, PETSC_COMM_SELF, PETSC_ERR_PLIB, "halo face %" PetscInt_FMT ": %" PetscInt_FMT " planes per message, the overlap and the padded state take %d", f, depth, (int)(H->skip[f] + H->pad));
    }
    H->depth[f]          = (EasKInt)depth;
    H->kind[f]           = depth ? EAS_ADRK_FACE_HALO : (adr->bc == EAS_ADR_BC_DIRICHLET ? EAS_ADRK_FACE_DIRICHLET : EAS_ADRK_FACE_MIRROR);
    H->pack_start[f + 1] = H->pack_start[f] + (EasKIdx)depth * plane;
    H->fill_start[f + 1] = H->fill_start[f] + (EasKIdx)(depth ? depth - H->skip[f] : 1) * plane; /* the ghost planes: one across a boundary of the domain */
  }
  PetscFunctionReturn(0);
}

/* The backend objects of the state: x_v, the packed planes (down), the
   neighbours' planes (up), the Dirichlet values; called by
   EasAdrCreateBackendObjects_Private. */
PetscErrorCode EasAdrStateCreate_Private(EasAdr adr)
{
  PetscFunctionBegin;
  PetscCall(EasAdrHaloKernel(adr, &adr->hk));
  PetscCall(EasVecCreate(adr->be, adr->n, &adr->x_v));
  PetscCall(EasVecCreate(adr->be, PetscMax(2 * (PetscInt)adr->hk.pack_start[6], 1), &adr->planes_v));
  PetscCall(EasVecCreate(adr->be, PetscMax(2 * (PetscInt)adr->hk.pack_start[6], 1), &adr->ghosts_v));
  PetscCall(EasVecCreate(adr->be, PetscMax(2 * (PetscInt)adr->hk.fill_start[6], 1), &adr->bval_v));
  PetscCall(EasVecCreate(adr->be, adr->n, &adr->ewt_v));
  adr->x_dev_stale    = PETSC_TRUE; /* the host state is the one (initial condition, or the state before a move) */
  adr->x_host_stale   = PETSC_FALSE;
  adr->planes_current = PETSC_FALSE;
  adr->ghosts_padded  = PETSC_FALSE;
  PetscFunctionReturn(0);
}

/* Before the backend objects go (a move, the end): the state comes home. */
PetscErrorCode EasAdrStateDestroy_Private(EasAdr adr)
{
  PetscFunctionBegin;
  if (adr->x_v) PetscCall(EasAdrStateSyncHost_Private(adr));
  PetscCall(EasVecDestroy(&adr->x_v));
  PetscCall(EasVecDestroy(&adr->planes_v));
  PetscCall(EasVecDestroy(&adr->ghosts_v));
  PetscCall(EasVecDestroy(&adr->bval_v));
  PetscCall(EasVecDestroy(&adr->ewt_v));
  PetscFunctionReturn(0);
}

/* adr->x up to date on the host (a device backend's copy comes down if newer). */
PetscErrorCode EasAdrStateSyncHost_Private(EasAdr adr)
{
  const PetscScalar *xa;

  PetscFunctionBegin;
  if (!adr->device || !adr->x_host_stale) PetscFunctionReturn(0);
  PetscCall(EasVecGetArrayRead(adr->x_v, &xa));
  PetscCall(PetscArraycpy(adr->x, xa, adr->n));
  PetscCall(EasVecRestoreArrayRead(adr->x_v, &xa));
  adr->x_host_stale = PETSC_FALSE;
  PetscFunctionReturn(0);
}

/* adr->x was written on the host: the backend copy and the packed planes are stale. */
PetscErrorCode EasAdrStateHostWritten_Private(EasAdr adr)
{
  PetscFunctionBegin;
  adr->x_dev_stale    = PETSC_TRUE;
  adr->x_host_stale   = PETSC_FALSE;
  adr->planes_current = PETSC_FALSE;
  PetscFunctionReturn(0);
}

/* The state in backend memory, current (it goes up if the host's is newer);
   write: the caller changes it (the host copy and the planes become stale). */
static PetscErrorCode EasAdrStateBackend(EasAdr adr, PetscBool write, PetscScalar **x)
{
  PetscFunctionBegin;
  if (!adr->device) {
    *x = adr->x;
  } else {
    if (adr->x_dev_stale) {
      PetscScalar *xa;
      PetscCall(EasVecGetArrayWrite(adr->x_v, &xa));
      PetscCall(PetscArraycpy(xa, adr->x, adr->n));
      PetscCall(EasVecRestoreArrayWrite(adr->x_v, &xa));
      adr->x_dev_stale = PETSC_FALSE;
    }
    if (write) {
      PetscCall(EasVecGetBackendArray(adr->x_v, x));
      adr->x_host_stale = PETSC_TRUE;
    } else
      PetscCall(EasVecGetBackendArrayRead(adr->x_v, (const PetscScalar **)x));
  }
  if (write) adr->planes_current = PETSC_FALSE;
  PetscFunctionReturn(0);
}

/* x_old <- x where the state lives (implicit Euler's step start). */
PetscErrorCode EasAdrStateSave_Private(EasAdr adr)
{
  PetscFunctionBegin;
  if (adr->device && !adr->x_dev_stale) {
    PetscCall(EasVecCopy(adr->x_v, adr->xold_v));
    adr->xold_synced = PETSC_TRUE; /* the backend copy is the current one */
    adr->xold_stale  = PETSC_TRUE; /* and adr->xold is not */
  } else {
    PetscCall(PetscArraycpy(adr->xold, adr->x, adr->n));
    adr->xold_synced = PETSC_FALSE;
    adr->xold_stale  = PETSC_FALSE;
  }
  PetscFunctionReturn(0);
}

/* x <- x_old (a step undone). */
PetscErrorCode EasAdrStateRestore_Private(EasAdr adr)
{
  PetscFunctionBegin;
  if (adr->xold_stale) {
    PetscScalar *x;
    PetscCall(EasAdrStateBackend(adr, PETSC_TRUE, &x));
    PetscCall(EasVecCopy(adr->xold_v, adr->x_v));
  } else {
    PetscCall(PetscArraycpy(adr->x, adr->xold, adr->n));
    PetscCall(EasAdrStateHostWritten_Private(adr));
  }
  PetscFunctionReturn(0);
}

/* The packed planes of the current state on the host (packed on the backend
   and brought down once per change of the state). */
static PetscErrorCode EasAdrPlanes(EasAdr adr, const PetscScalar **planes)
{
  PetscFunctionBegin;
  if (!adr->planes_current && adr->hk.pack_start[6] > 0) {
    PetscScalar *x, *buf;
    PetscCall(EasAdrStateBackend(adr, PETSC_FALSE, &x));
    PetscCall(EasVecGetBackendArrayWrite(adr->planes_v, &buf));
    PetscCall((*adr->be->ops->adr_pack)(adr->be, &adr->hk, x, buf));
    adr->planes_current = PETSC_TRUE;
  }
  PetscCall(EasVecGetArrayRead(adr->planes_v, planes));
  PetscFunctionReturn(0);
}

PetscErrorCode EasAdrPackFace_Private(EasAdr adr, PetscInt f)
{
  const PetscScalar *planes;

  PetscFunctionBegin;
  if (adr->nb[f] == MPI_PROC_NULL) PetscFunctionReturn(0);
  PetscCall(EasAdrPlanes(adr, &planes));
  PetscCall(PetscArraycpy(adr->halo->sendbuf[f], planes + 2 * adr->hk.pack_start[f], adr->halo->count[f]));
  PetscCall(EasVecRestoreArrayRead(adr->planes_v, &planes));
  PetscFunctionReturn(0);
}

PetscErrorCode EasAdrPackFaces_Private(EasAdr adr)
{
  PetscFunctionBegin;
  for (PetscInt f = 0; f < 6; f++) PetscCall(EasAdrPackFace_Private(adr, f));
  PetscFunctionReturn(0);
}

/*
  EasAdrExchangeSync_Private - the neighbours' planes of the state x into the
  halo's ghosts, synchronously.  With an overlap and cuts in two or three
  directions (-adr_overlap_phased), one direction at a time, and between
  two directions adr_pad writes the planes received so far into x's
  overlap: the planes packed next carry them (a face's tangential extent is
  the whole box).  Three kinds of points take the diagonal neighbours'
  values through a face neighbour: a corner block of the box (the first
  face in the order -x, +x, -y, ... supplies it, EasAdrKOverlapSource), and
  the points of a ghost plane across another direction's overlap (the face
  that supplies the plane).  Each is current when its face goes after the
  other direction.  The order z, y, x and then again all but the last
  (2 cut directions: 3 rounds, 3: 5) gives every face a round after every
  other direction: eas's box step is then PCASM's on the same boxes
  (test_adr_overlap -peer_box: the same update norms in every iteration),
  where exchanging all faces at once leaves those points one outer
  iteration old.  DMDA's box-stencil ghost update goes direction by
  direction for the same reason.
*/
/* adr_pad on x (the state, or the stage's a): the neighbours' planes in the
   ghosts go up (and the Dirichlet values when they changed: !w_synced),
   the overlap's points of x are written from them and the padded state
   into adr->xg_v (*xg). */
static PetscErrorCode EasAdrPadInto(EasAdr adr, PetscScalar *x, const PetscScalar **xg)
{
  PetscScalar       *ghost, *bval = NULL, *xgd;
  const PetscScalar *gd, *bd;

  PetscFunctionBegin;
  if (adr->ghosts_padded) /* the ghosts and the Dirichlet values are where adr_pad reads them: the stage's pad of a = x put them there, nothing changed them since */
    adr->ghosts_padded = PETSC_FALSE;
  else if (adr->hk.pack_start[6] > 0 || !adr->w_synced) { /* one rank with the Dirichlet values current: nothing to gather */
    PetscCall(EasVecGetArrayWrite(adr->ghosts_v, &ghost));
    if (!adr->w_synced) PetscCall(EasVecGetArrayWrite(adr->bval_v, &bval));
    EasAdrGatherFaces(adr, ghost, bval);
    PetscCall(EasVecRestoreArrayWrite(adr->ghosts_v, &ghost));
    if (bval) PetscCall(EasVecRestoreArrayWrite(adr->bval_v, &bval));
  }
  PetscCall(EasVecGetBackendArrayRead(adr->ghosts_v, &gd));
  PetscCall(EasVecGetBackendArrayRead(adr->bval_v, &bd));
  PetscCall(EasVecGetBackendArrayWrite(adr->xg_v, &xgd));
  PetscCall((*adr->be->ops->adr_pad)(adr->be, &adr->hk, x, gd, bd, xgd));
  if (xg) *xg = xgd;
  PetscFunctionReturn(0);
}

/* The rounds of a synchronous exchange of the planes of a (NULL: the
   state x), as EasAdrExchangeSync_Private describes; a's overlap is not
   padded after the last round. */
static PetscErrorCode EasAdrExchangeRounds(EasAdr adr, PetscScalar *a, PetscBool with_faults)
{
  PetscInt dirs[3], ndir = 0, rounds = 1;

  PetscFunctionBegin;
  for (PetscInt d = 2; d >= 0; d--)
    if (adr->nb[2 * d] != MPI_PROC_NULL || adr->nb[2 * d + 1] != MPI_PROC_NULL) dirs[ndir++] = d;
  if (adr->overlap && adr->phased && ndir >= 2) rounds = 2 * ndir - 1;
  if (ndir) adr->stats.exchanges++;
  adr->ghosts_padded = PETSC_FALSE;
  for (PetscInt r = 0; r < rounds; r++) {
    const PetscInt f0 = rounds > 1 ? 2 * dirs[r % ndir] : 0, f1 = rounds > 1 ? f0 + 2 : 6;
    if (r) { /* the directions received so far into the overlap; the planes are repacked from it */
      if (a) PetscCall(EasAdrPadInto(adr, a, NULL));
      else {
        const PetscScalar *xg;
        PetscCall(EasAdrPadded_Private(adr, &xg));
        adr->planes_current = PETSC_FALSE;
      }
    }
    if (a) {
      PetscScalar       *buf;
      const PetscScalar *planes;
      PetscCall(EasVecGetBackendArrayWrite(adr->planes_v, &buf));
      PetscCall((*adr->be->ops->adr_pack)(adr->be, &adr->hk, a, buf));
      adr->planes_current = PETSC_FALSE; /* they hold a's planes */
      PetscCall(EasVecGetArrayRead(adr->planes_v, &planes));
      for (PetscInt f = f0; f < f1; f++)
        if (adr->nb[f] != MPI_PROC_NULL) PetscCall(PetscArraycpy(adr->halo->sendbuf[f], planes + 2 * adr->hk.pack_start[f], adr->halo->count[f]));
      PetscCall(EasVecRestoreArrayRead(adr->planes_v, &planes));
    } else
      for (PetscInt f = f0; f < f1; f++) PetscCall(EasAdrPackFace_Private(adr, f));
    PetscCall(EasHaloExchangeSyncFaces(adr->halo, f0, f1, with_faults));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode EasAdrExchangeSync_Private(EasAdr adr, PetscBool with_faults)
{
  PetscFunctionBegin;
  PetscCall(EasAdrExchangeRounds(adr, NULL, with_faults));
  PetscFunctionReturn(0);
}

PetscErrorCode EasAdrFaceChange_Private(EasAdr adr, PetscInt f, PetscReal ch[2])
{
  const PetscScalar *planes, *p, *buf = adr->halo->sendbuf[f];
  PetscReal          d2[2] = {0, 0}, p2[2] = {0, 0};

  PetscFunctionBegin;
  ch[0] = ch[1] = 0;
  if (adr->nb[f] == MPI_PROC_NULL) PetscFunctionReturn(0);
  PetscCall(EasAdrPlanes(adr, &planes));
  p = planes + 2 * adr->hk.pack_start[f];
  for (PetscInt i = 0; i < adr->halo->count[f]; i++) {
    const PetscScalar dv = p[i] - buf[i];
    d2[i % 2] += PetscRealPart(dv * PetscConj(dv));
    p2[i % 2] += PetscRealPart(p[i] * PetscConj(p[i]));
  }
  PetscCall(EasVecRestoreArrayRead(adr->planes_v, &planes));
  for (PetscInt s = 0; s < 2; s++) ch[s] = p2[s] > 0 ? PetscSqrtReal(d2[s] / p2[s]) : PetscSqrtReal(d2[s]);
  PetscFunctionReturn(0);
}

/* The own points between an own-point array and the box's array, row by
   row of the own box (to_box: own -> box, else box -> own). */
static PetscErrorCode EasAdrCopyOwnRows(EasAdr adr, PetscScalar *own, PetscScalar *box, PetscBool to_box)
{
  PetscFunctionBegin;
  if (!adr->overlap) { /* the box is the own box */
    if (to_box) PetscCall(PetscArraycpy(box, own, adr->n));
    else PetscCall(PetscArraycpy(own, box, adr->n));
    PetscFunctionReturn(0);
  }
  for (PetscInt k = 0; k < adr->nlo[2]; k++)
    for (PetscInt j = 0; j < adr->nlo[1]; j++) {
      const PetscInt o = adr->nlo[0] * (j + adr->nlo[1] * k), b = adr->ov[0] + adr->nl[0] * (j + adr->ov[2] + adr->nl[1] * (k + adr->ov[4]));
      if (to_box) PetscCall(PetscArraycpy(box + 2 * b, own + 2 * o, 2 * adr->nlo[0]));
      else PetscCall(PetscArraycpy(own + 2 * o, box + 2 * b, 2 * adr->nlo[0]));
    }
  PetscFunctionReturn(0);
}

PetscErrorCode EasAdrBoxFromOwn_Private(EasAdr adr, const PetscScalar *own, PetscScalar *box)
{
  PetscFunctionBegin;
  PetscCall(EasAdrCopyOwnRows(adr, (PetscScalar *)own, box, PETSC_TRUE)); /* own only read */
  PetscFunctionReturn(0);
}

PetscErrorCode EasAdrOwnFromBox_Private(EasAdr adr, const PetscScalar *box, PetscScalar *own)
{
  PetscFunctionBegin;
  PetscCall(EasAdrCopyOwnRows(adr, own, (PetscScalar *)box, PETSC_FALSE)); /* box only read */
  PetscFunctionReturn(0);
}

/* A global vector's own points (own) as the box's array (box, 2 np): its
   own points, the neighbours' on the overlap (one synchronous exchange of
   planes; the ghosts then hold this vector's) and, with an overlap, the
   padded state adr->xg of it.  Without an overlap box may be own (no copy). */
PetscErrorCode EasAdrBoxFromOwnHalo_Private(EasAdr adr, const PetscScalar *own, PetscScalar *box, PetscBool with_faults)
{
  PetscFunctionBegin;
  if (box != own) PetscCall(EasAdrBoxFromOwn_Private(adr, own, box));
  PetscCall(EasAdrPackFacesHost_Private(adr, box));
  if (adr->hk.pack_start[6] > 0) adr->stats.exchanges++;
  adr->ghosts_padded = PETSC_FALSE;
  PetscCall(EasHaloExchangeSync(adr->halo, with_faults));
  if (adr->overlap) PetscCall(EasAdrFillPaddedHost_Private(adr, box)); /* the overlap's planes into box (without one, the residual's caller fills xg) */
  adr->ghosts_current = PETSC_FALSE; /* they hold this vector's planes, not the state's */
  PetscFunctionReturn(0);
}

/*
  EasAdrStageOverlap_Private - the stage's a = adr->xold on the overlap's
  planes from the neighbours (their own points): pack a's planes, one
  synchronous exchange, adr_pad writes them into a (the padded state it
  also fills is scratch here, refilled by the next assembly).  On a device
  a stays there: only the planes cross the bus.  The ghosts then hold a's
  planes.  a_is_x: a equals the state on every point of the box (implicit
  Euler: x_old = x, the first iterate); the planes sent are then the
  state's, the exchange is also the one the stage's first outer iteration
  would make (ghosts_stage, ghosts_current: it makes none), and a step
  exchanges once per outer iteration, not once more.  Else (CVODE: a =
  ypred - rl1 zn1) the ghosts are not the state's.
*/
PetscErrorCode EasAdrStageOverlap_Private(EasAdr adr, PetscBool a_is_x)
{
  PetscScalar *a;

  PetscFunctionBegin;
  adr->ghosts_stage  = PETSC_FALSE;
  adr->ghosts_padded = PETSC_FALSE;
  if (!adr->overlap || adr->hk.pack_start[6] == 0) PetscFunctionReturn(0);
  if (!adr->device)
    a = adr->xold;
  else {
    if (!adr->xold_synced) { /* the host's a is the current one: up once */
      PetscScalar *va;
      PetscCall(EasVecGetArrayWrite(adr->xold_v, &va));
      PetscCall(PetscArraycpy(va, adr->xold, adr->n));
      PetscCall(EasVecRestoreArrayWrite(adr->xold_v, &va));
      adr->xold_synced = PETSC_TRUE;
    }
    PetscCall(EasVecGetBackendArray(adr->xold_v, &a));
    adr->xold_stale = PETSC_TRUE; /* written here: the host copy is older */
  }
  PetscCall(EasAdrMeterBegin(adr, EAS_PHASE_EXCHANGE));
  PetscCall(PetscLogEventBegin(EAS_AdrHalo, adr, 0, 0, 0));
  PetscCall(EasAdrExchangeRounds(adr, a, PETSC_TRUE));
  PetscCall(EasAdrPadInto(adr, a, NULL)); /* the padded state is scratch here, refilled by the next assembly */
  PetscCall(PetscLogEventEnd(EAS_AdrHalo, adr, 0, 0, 0));
  PetscCall(EasAdrMeterEnd(adr, EAS_PHASE_EXCHANGE, adr->halo_scalars));
  adr->ghosts_current = a_is_x;
  adr->ghosts_stage   = a_is_x;
  adr->ghosts_padded  = a_is_x; /* the pad above put them where the first iteration's pad reads them */
  PetscFunctionReturn(0);
}

/* The host array ghost of the neighbours' planes (the halo's ghosts, at the
   pack offsets) and, when bval, the Dirichlet values (at the fill offsets). */
static void EasAdrGatherFaces(EasAdr adr, PetscScalar *ghost, PetscScalar *bval)
{
  for (PetscInt f = 0; f < 6; f++) {
    if (adr->nb[f] != MPI_PROC_NULL) (void)PetscArraycpy(ghost + 2 * adr->hk.pack_start[f], adr->halo->ghost[f], adr->halo->count[f]);
    else if (bval && adr->bval[f]) (void)PetscArraycpy(bval + 2 * adr->hk.fill_start[f], adr->bval[f], 2 * (adr->hk.fill_start[f + 1] - adr->hk.fill_start[f]));
  }
}

/* Host x (a user's array, EasAdrComputeFunction and friends) packed into
   the halo's send buffers by the same body as the backends'. */
PetscErrorCode EasAdrPackFacesHost_Private(EasAdr adr, const PetscScalar *x)
{
  PetscScalar *buf;

  PetscFunctionBegin;
  PetscCall(EasVecGetArrayWrite(adr->planes_v, &buf));
  for (EasKIdx t = 0; t < adr->hk.pack_start[6]; t++) EasAdrKPackPoint(t, &adr->hk, x, buf);
  for (PetscInt f = 0; f < 6; f++)
    if (adr->nb[f] != MPI_PROC_NULL) PetscCall(PetscArraycpy(adr->halo->sendbuf[f], buf + 2 * adr->hk.pack_start[f], adr->halo->count[f]));
  PetscCall(EasVecRestoreArrayWrite(adr->planes_v, &buf));
  adr->planes_current = PETSC_FALSE; /* the buffer holds the user's planes */
  PetscFunctionReturn(0);
}

/* The padded state adr->xg on the host from host x and the current ghosts
   (the backends' body, EasAdrKPadPoint); with an overlap the body writes the
   neighbours' planes into x too (its callers pass box scratch then,
   EasAdrBoxFromOwnHalo_Private; without one x is only read). */
PetscErrorCode EasAdrFillPaddedHost_Private(EasAdr adr, const PetscScalar *x)
{
  PetscScalar  *ghost, *bval;
  const EasKIdx n = (EasKIdx)adr->np + adr->hk.fill_start[6];

  PetscFunctionBegin;
  PetscCall(EasVecGetArrayWrite(adr->ghosts_v, &ghost));
  PetscCall(EasVecGetArrayWrite(adr->bval_v, &bval));
  EasAdrGatherFaces(adr, ghost, bval);
  for (EasKIdx t = 0; t < n; t++) EasAdrKPadPoint(t, &adr->hk, (PetscScalar *)x, ghost, bval, adr->xg); /* writes x only on an overlap */
  PetscCall(EasVecRestoreArrayWrite(adr->bval_v, &bval));
  PetscCall(EasVecRestoreArrayWrite(adr->ghosts_v, &ghost));
  PetscFunctionReturn(0);
}

/* The padded state in backend memory for the assembly (backend op adr_pad):
   the neighbours' planes go up, the Dirichlet values when they changed
   (with w: !adr->w_synced), nothing else. */
PetscErrorCode EasAdrPadded_Private(EasAdr adr, const PetscScalar **xg)
{
  PetscScalar *x;

  PetscFunctionBegin;
  PetscCall(EasAdrStateBackend(adr, (PetscBool)(adr->overlap > 0), &x)); /* an overlap's points of x are the neighbours' (written by adr_pad) */
  PetscCall(EasAdrPadInto(adr, x, xg));
  PetscFunctionReturn(0);
}

/* The Newton update of the state (backend op adr_update, Vialle et al.
   eq. 1.45 with right Jacobi: x += c D^{-1} y, y in adr->dx): s[0..1] =
   ||dx_s||^2, s[2..3] = ||x_s||^2, *ws = sum (dx ewt)^2 with the stage's
   weights; keep: the update into stage.dx_host (n scalars down on a device:
   the synchronous iterations of a stage with a test only). */
PetscErrorCode EasAdrUpdate_Private(EasAdr adr, PetscBool keep, PetscReal s[4], PetscReal *ws)
{
  PetscScalar       *x, *y, sums[5];
  const PetscScalar *dinv = NULL, *ewt = NULL;

  PetscFunctionBegin;
  keep = (PetscBool)(keep && adr->stage.dx_host);
  if (adr->jac_fold) PetscCall(EasVecGetBackendArrayRead(adr->dinv, &dinv));
  if (adr->stage.ewt && !adr->device) ewt = adr->stage.ewt;
  else if (adr->stage.ewt) {
    if (!adr->stage.ewt_synced) {
      PetscScalar *e;
      PetscCall(EasVecGetArrayWrite(adr->ewt_v, &e));
      PetscCall(PetscArraycpy(e, adr->stage.ewt, adr->n));
      PetscCall(EasVecRestoreArrayWrite(adr->ewt_v, &e));
      adr->stage.ewt_synced = PETSC_TRUE;
    }
    PetscCall(EasVecGetBackendArrayRead(adr->ewt_v, &ewt));
  }
  if (keep)
    PetscCall(EasVecGetBackendArray(adr->dx, &y));
  else
    PetscCall(EasVecGetBackendArrayRead(adr->dx, (const PetscScalar **)&y)); /* not written: keep = false */
  PetscCall(EasAdrStateBackend(adr, PETSC_TRUE, &x));
  PetscCall((*adr->be->ops->adr_update)(adr->be, &adr->hk, adr->stage.dx_scale, dinv, y, x, ewt, keep, sums));
  for (PetscInt k = 0; k < 4; k++) s[k] = PetscRealPart(sums[k]);
  *ws = PetscRealPart(sums[4]);
  if (keep) {
    const PetscScalar *d;
    PetscCall(EasVecGetArrayRead(adr->dx, &d));
    PetscCall(EasAdrOwnFromBox_Private(adr, d, adr->stage.dx_host)); /* the own points' (CVODE's vector) */
    PetscCall(EasVecRestoreArrayRead(adr->dx, &d));
  }
  PetscFunctionReturn(0);
}
