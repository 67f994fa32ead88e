/*
  Asynchronous global convergence detection (DESIGN.md sec. 4, seed 000
  sec. 1.7.4: the "simplified scheme" with a global reduction, which the
  paper found fastest on a local cluster).

  Each rank contributes, to a non-blocking MPI_Iallreduce, whether it has
  been locally converged without interruption since its previous
  contribution (the persistence count is applied by the caller), and how
  many halo messages it has sent and delivered in this phase.  A round
  counts when every rank was converged and the global numbers of messages
  sent and delivered are equal; two consecutive such rounds with the same
  numbers end the iterations.  The counts are Mattern's four-counter
  termination test (F. Mattern, "Algorithms for distributed termination
  detection", Distributed Computing 2, 1987): without them a rank could
  vote converged while a neighbour's message that would wake it up is
  still in transit (delayed by the network or by -eas_comm_delay_us), and
  the synchronous check at the end of the step would fail.  A local failure
  (inner solver, NaN, iteration limit) is counted per code in the same
  message, so every rank stops at the same round with the same (largest)
  failure code.  At most one reduction is in flight and none is left when
  the ranks stop.
*/
#include "commimpl.h"

PetscErrorCode EasDetectBegin(EasDetect *d, MPI_Comm comm)
{
  PetscFunctionBegin;
  d->comm           = comm;
  d->req            = MPI_REQUEST_NULL;
  d->inflight       = PETSC_FALSE;
  d->true_rounds    = 0;
  d->rounds         = 0;
  d->changed        = PETSC_FALSE;
  d->last_sent      = -1;
  d->last_delivered = -1;
  PetscFunctionReturn(0);
}

PetscErrorCode EasDetectProgress(EasDetect *d, PetscBool local_conv, int abort, PetscInt64 sent, PetscInt64 delivered, PetscBool *stop, int *abort_out)
{
  PetscFunctionBegin;
  *stop      = PETSC_FALSE;
  *abort_out = 0;
  PetscCheck(abort >= 0 && abort <= EAS_DETECT_NCODE, PETSC_COMM_SELF, PETSC_ERR_PLIB, "EasDetectProgress: failure code %d outside 0..%d", abort, EAS_DETECT_NCODE);
  if (!local_conv) d->changed = PETSC_TRUE;
  if (d->inflight) {
    int flag;
    PetscCallMPI(MPI_Test(&d->req, &flag, MPI_STATUS_IGNORE));
    if (!flag) PetscFunctionReturn(0);
    d->inflight = PETSC_FALSE;
    d->rounds++;
    for (int c = EAS_DETECT_NCODE; c >= 1; c--)
      if (d->recvv[2 + c] > 0) {
        *stop      = PETSC_TRUE;
        *abort_out = c;
        PetscFunctionReturn(0);
      }
    if (d->recvv[0] == 0 && d->recvv[1] == d->recvv[2]) { /* all converged, nothing in transit */
      d->true_rounds    = (d->true_rounds > 0 && d->recvv[1] == d->last_sent && d->recvv[2] == d->last_delivered) ? d->true_rounds + 1 : 1;
      d->last_sent      = d->recvv[1];
      d->last_delivered = d->recvv[2];
    } else d->true_rounds = 0;
    if (d->true_rounds >= 2) {
      *stop = PETSC_TRUE;
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

PetscErrorCode EasDetectEnd(EasDetect *d)
{
  PetscFunctionBegin;
  /* every rank stops on the same completed round: nothing can be in flight */
  PetscCheck(!d->inflight && d->req == MPI_REQUEST_NULL, PETSC_COMM_SELF, PETSC_ERR_PLIB, "EasDetectEnd: a convergence reduction is still in flight");
  PetscFunctionReturn(0);
}
