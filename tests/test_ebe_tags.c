static const char help[] = "Two EBE operators exchanging their interface sums at the same time (issue 14): the\n"
                           "exchanges are started and completed in opposite orders on neighbouring ranks, with\n"
                           "different data; each operator must get exactly the sums of a one-at-a-time exchange.\n"
                           "With a fixed tag on the shared communicator, the second operator's message would be\n"
                           "matched by the first one's receive.  Kind of check: the one-at-a-time exchange is the\n"
                           "reference (the same code with no concurrency).\n";

/* drives the exchange's internal API (PETSC_INTERN): links the static library */
#include <eas.h>
#include "../src/mat/ebeimpl.h"

static PetscErrorCode Fill(PetscScalar *a, PetscInt n, PetscReal base, PetscMPIInt rank)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < n; i++) a[i] = base * (1 + rank) + i;
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  EasEbe       A, B;
  PetscInt     n, nnodes, dof;
  PetscScalar *a1, *b1, *a2, *b2;
  PetscMPIInt  rank, size;
  MPI_Request  ra[4], rb[4];
  PetscReal    diff = 0;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(EasEbeCreate(PETSC_COMM_WORLD, &A));
  PetscCall(EasEbeCreate(PETSC_COMM_WORLD, &B));
  PetscCall(EasEbeSetFromMesh(A, EAS_EBE_POISSON, 1, 4, 4, 4));
  PetscCall(EasEbeSetFromMesh(B, EAS_EBE_POISSON, 1, 4, 4, 4));
  PetscCall(EasEbeSetUp(A));
  PetscCall(EasEbeSetUp(B));
  PetscCall(EasEbeGetSizes(A, NULL, NULL, &dof, &nnodes, NULL));
  n = nnodes * dof;
  PetscCall(PetscMalloc4(n, &a1, n, &b1, n, &a2, n, &b2));
  /* reference: one operator at a time */
  PetscCall(Fill(a1, n, 1.0, rank));
  PetscCall(Fill(b1, n, -1000.0, rank));
  PetscCall(EasEbeExchange_Private(A, a1, dof));
  PetscCall(EasEbeExchange_Private(B, b1, dof));
  /* both at once, in opposite orders on even and odd ranks */
  PetscCall(Fill(a2, n, 1.0, rank));
  PetscCall(Fill(b2, n, -1000.0, rank));
  if (rank % 2 == 0) {
    PetscCall(EasEbeExchangeBegin_Private(A, a2, dof, ra));
    PetscCall(EasEbeExchangeBegin_Private(B, b2, dof, rb));
  } else {
    PetscCall(EasEbeExchangeBegin_Private(B, b2, dof, rb));
    PetscCall(EasEbeExchangeBegin_Private(A, a2, dof, ra));
  }
  PetscCall(EasEbeExchangeEnd_Private(B, b2, dof, rb));
  PetscCall(EasEbeExchangeEnd_Private(A, a2, dof, ra));
  for (PetscInt i = 0; i < n; i++) diff = PetscMax(diff, PetscMax(PetscAbsScalar(a2[i] - a1[i]), PetscAbsScalar(b2[i] - b1[i])));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &diff, 1, MPIU_REAL, MPIU_MAX, PETSC_COMM_WORLD));
  PetscCheck(diff == 0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "concurrent exchanges of two operators differ from one-at-a-time ones by %g: messages crossed", (double)diff);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "two EBE operators exchanging at once on %d ranks: identical to one at a time\n", (int)size));
  PetscCall(PetscFree4(a1, b1, a2, b2));
  PetscCall(EasEbeDestroy(&A));
  PetscCall(EasEbeDestroy(&B));
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    suffix: concurrent
    nsize: 2 4
    backends: none
    expect: identical to one at a time
TEST*/
