/*
  The permutation of a cubic box's unknowns (2 species interleaved, x
  fastest: eas's ADR order) that puts its axes in the order axes, fastest
  first: perm[new] = old, as an IS (what MatCreateSubMatrix and a PETSc
  matrix ordering take).  Written for the tests and benchmarks that give
  PETSc the order eas's -pc_ilu_axes factors in, independently of the
  library's own (src/solvers/bicgstab.c).
*/
#pragma once
#include <petscis.h>

static inline PetscErrorCode AxesPermutation(PetscInt n, const char axes[], IS *is)
{
  PetscInt *idx, ax[3], N = 2 * n * n * n;

  PetscFunctionBegin;
  for (PetscInt a = 0; a < 3; a++) {
    PetscCheck(axes[a] >= 'x' && axes[a] <= 'z', PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "axis order %s is invalid: expected a permutation of xyz (fastest first)", axes);
    ax[a] = axes[a] - 'x';
  }
  PetscCheck(ax[0] != ax[1] && ax[1] != ax[2] && ax[0] != ax[2] && axes[3] == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "axis order %s is invalid: expected a permutation of xyz (fastest first)", axes);
  PetscCall(PetscMalloc1(N, &idx));
  for (PetscInt c = 0; c < n; c++)
    for (PetscInt b = 0; b < n; b++)
      for (PetscInt a = 0; a < n; a++) {
        PetscInt ijk[3];
        ijk[ax[0]] = a;
        ijk[ax[1]] = b;
        ijk[ax[2]] = c;
        for (PetscInt s = 0; s < 2; s++) idx[s + 2 * (a + n * (b + n * c))] = s + 2 * (ijk[0] + n * (ijk[1] + n * ijk[2]));
      }
  PetscCall(ISCreateGeneral(PETSC_COMM_SELF, N, idx, PETSC_OWN_POINTER, is));
  PetscCall(ISSetPermutation(*is));
  PetscFunctionReturn(0);
}
