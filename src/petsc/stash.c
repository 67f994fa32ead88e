/*
  Entries and rows sent to the ranks that own them (the plug-in's matrices
  accept MatSetValues and MatZeroRows on any rank's rows, as PETSc's do).
  PETSc's own MatStash is internal to libpetsc, so the exchange is done
  here: counts with MPI_Alltoall, entries with MPI_Alltoallv.
*/
#include "petscimpl.h"

PetscErrorCode EasPetscStashPush(EasPetscStash *s, PetscInt i, PetscInt j, PetscScalar v)
{
  PetscFunctionBegin;
  if (s->n == s->max) {
    PetscInt     max = PetscMax(64, 2 * s->max), *ni, *nj;
    PetscScalar *nv;
    PetscCall(PetscMalloc3(max, &ni, max, &nj, max, &nv));
    PetscCall(PetscArraycpy(ni, s->i, s->n));
    PetscCall(PetscArraycpy(nj, s->j, s->n));
    PetscCall(PetscArraycpy(nv, s->v, s->n));
    PetscCall(PetscFree3(s->i, s->j, s->v));
    s->i   = ni;
    s->j   = nj;
    s->v   = nv;
    s->max = max;
  }
  s->i[s->n] = i;
  s->j[s->n] = j;
  s->v[s->n] = v;
  s->n++;
  PetscFunctionReturn(0);
}

PetscErrorCode EasPetscStashDestroy(EasPetscStash *s)
{
  PetscFunctionBegin;
  PetscCall(PetscFree3(s->i, s->j, s->v));
  s->n = s->max = 0;
  PetscFunctionReturn(0);
}

/* counts[r] -> displacements; errors when a count passes an MPI int */
static PetscErrorCode EasPetscDispls(MPI_Comm comm, PetscMPIInt size, const PetscMPIInt cnt[], PetscMPIInt dsp[], PetscInt *total)
{
  PetscInt64 t = 0;

  PetscFunctionBegin;
  for (PetscMPIInt r = 0; r < size; r++) {
    PetscCheck(t <= PETSC_MPI_INT_MAX, comm, PETSC_ERR_ARG_OUTOFRANGE, "More than %d off-process entries to exchange in one assembly", PETSC_MPI_INT_MAX);
    dsp[r] = (PetscMPIInt)t;
    t += cnt[r];
  }
  PetscCheck(t <= PETSC_MPI_INT_MAX, comm, PETSC_ERR_ARG_OUTOFRANGE, "More than %d off-process entries to exchange in one assembly", PETSC_MPI_INT_MAX);
  *total = (PetscInt)t;
  PetscFunctionReturn(0);
}

PetscErrorCode EasPetscStashExchange(MPI_Comm comm, PetscLayout map, EasPetscStash *s)
{
  PetscMPIInt  size, *scnt, *rcnt, *sdsp, *rdsp;
  PetscInt    *owner, *si, *sj, *ri, *rj, nsend, nrecv;
  PetscScalar *sv, *rv;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(PetscCalloc4(size, &scnt, size, &rcnt, size, &sdsp, size, &rdsp));
  PetscCall(PetscMalloc1(PetscMax(s->n, 1), &owner));
  for (PetscInt k = 0; k < s->n; k++) {
    PetscMPIInt r;
    PetscCall(PetscLayoutFindOwner(map, s->i[k], &r));
    owner[k] = r;
    scnt[r]++;
  }
  PetscCallMPI(MPI_Alltoall(scnt, 1, MPI_INT, rcnt, 1, MPI_INT, comm));
  PetscCall(EasPetscDispls(comm, size, scnt, sdsp, &nsend));
  PetscCall(EasPetscDispls(comm, size, rcnt, rdsp, &nrecv));
  PetscCall(PetscMalloc3(PetscMax(nsend, 1), &si, PetscMax(nsend, 1), &sj, PetscMax(nsend, 1), &sv));
  PetscCall(PetscMalloc3(PetscMax(nrecv, 1), &ri, PetscMax(nrecv, 1), &rj, PetscMax(nrecv, 1), &rv));
  for (PetscInt k = 0; k < s->n; k++) { /* packed by owner, in the order set */
    const PetscInt p = sdsp[owner[k]]++;
    si[p]            = s->i[k];
    sj[p]            = s->j[k];
    sv[p]            = s->v[k];
  }
  PetscCall(EasPetscDispls(comm, size, scnt, sdsp, &nsend));
  PetscCallMPI(MPI_Alltoallv(si, scnt, sdsp, MPIU_INT, ri, rcnt, rdsp, MPIU_INT, comm));
  PetscCallMPI(MPI_Alltoallv(sj, scnt, sdsp, MPIU_INT, rj, rcnt, rdsp, MPIU_INT, comm));
  PetscCallMPI(MPI_Alltoallv(sv, scnt, sdsp, MPIU_SCALAR, rv, rcnt, rdsp, MPIU_SCALAR, comm));
  PetscCall(PetscFree3(si, sj, sv));
  PetscCall(PetscFree3(s->i, s->j, s->v));
  PetscCall(PetscFree(owner));
  PetscCall(PetscFree4(scnt, rcnt, sdsp, rdsp));
  s->i   = ri;
  s->j   = rj;
  s->v   = rv;
  s->n   = nrecv;
  s->max = PetscMax(nrecv, 1);
  PetscFunctionReturn(0);
}

PetscErrorCode EasPetscRowsToOwners(MPI_Comm comm, PetscLayout map, PetscInt n, const PetscInt rows[], PetscInt *nlocal, PetscInt **local)
{
  EasPetscStash s = {0};
  PetscInt      k = 0;

  PetscFunctionBegin;
  for (PetscInt r = 0; r < n; r++) {
    PetscCheck(rows[r] >= 0 && rows[r] < map->N, comm, PETSC_ERR_ARG_OUTOFRANGE, "Row %" PetscInt_FMT " to zero is outside [0, %" PetscInt_FMT ")", rows[r], map->N);
    PetscCall(EasPetscStashPush(&s, rows[r], 0, 0.0));
  }
  PetscCall(EasPetscStashExchange(comm, map, &s));
  PetscCall(PetscMalloc1(PetscMax(s.n, 1), local));
  for (PetscInt r = 0; r < s.n; r++) (*local)[r] = s.i[r] - map->rstart;
  PetscCall(PetscSortRemoveDupsInt(&s.n, *local));
  k = s.n;
  PetscCall(EasPetscStashDestroy(&s));
  *nlocal = k;
  PetscFunctionReturn(0);
}
