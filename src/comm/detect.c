/*
  Asynchronous global convergence detection (DESIGN.md sec. 4, seed 000
  sec. 1.7.4: the "simplified scheme", valid under bounded communication
  delays, which the paper found fastest on a local cluster).

  Each rank contributes, to a non-blocking MPI_Iallreduce, whether it has
  been locally converged without interruption since its previous
  contribution (the persistence count is applied by the caller).  A round
  whose result is all-true counts; two consecutive all-true rounds end the
  iterations.  A local failure (inner solver, NaN, iteration limit) is
  reduced with MPI_MAX in the same message, so every rank stops at the same
  round with the same failure code.  At most one reduction is in flight and
  none is left when the ranks stop.
*/
#include "commimpl.h"

PetscErrorCode EasDetectBegin(EasDetect *d, MPI_Comm comm)
{
  PetscFunctionBegin;
  d->comm        = comm;
  d->req         = MPI_REQUEST_NULL;
  d->inflight    = PETSC_FALSE;
  d->true_rounds = 0;
  d->rounds      = 0;
  d->changed     = PETSC_FALSE;
  PetscFunctionReturn(0);
}

PetscErrorCode EasDetectProgress(EasDetect *d, PetscBool local_conv, int abort, PetscBool *stop, int *abort_out)
{
  PetscFunctionBegin;
  *stop      = PETSC_FALSE;
  *abort_out = 0;
  if (!local_conv) d->changed = PETSC_TRUE;
  if (d->inflight) {
    int flag;
    PetscCallMPI(MPI_Test(&d->req, &flag, MPI_STATUS_IGNORE));
    if (!flag) PetscFunctionReturn(0);
    d->inflight = PETSC_FALSE;
    d->rounds++;
    if (d->recvv[1] > 0) {
      *stop      = PETSC_TRUE;
      *abort_out = d->recvv[1];
      PetscFunctionReturn(0);
    }
    d->true_rounds = d->recvv[0] == 0 ? d->true_rounds + 1 : 0;
    if (d->true_rounds >= 2) {
      *stop = PETSC_TRUE;
      PetscFunctionReturn(0);
    }
  }
  /* next round: converged all along since the previous contribution */
  d->sendv[0] = (local_conv && !d->changed) ? 0 : 1;
  d->sendv[1] = abort;
  d->changed  = PETSC_FALSE;
  PetscCallMPI(MPI_Iallreduce(d->sendv, d->recvv, 2, MPI_INT, MPI_MAX, d->comm, &d->req));
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
