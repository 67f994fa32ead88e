/*
  The permutation of a cubic box's unknowns (2 species interleaved, x
  fastest: eas's ADR order) that puts its axes in the order axes, fastest
  first: perm[new] = old, as an IS (what MatCreateSubMatrix and a PETSc
  matrix ordering take).  Written for the tests and benchmarks that give
  PETSc the order eas's -pc_ilu_axes factors in, independently of the
  library's own (src/solvers/bicgstab.c).
*/
#pragma once
#include <petscmat.h>

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

/* The same permutation as a PETSc matrix ordering, "eas_axes"
   (AxesOrderingRegister): PETSc's PCILU with it factors the box's matrix
   in the order of eas's -pc_ilu_axes.  The box (axes_box points per
   direction, 2 species) and the axes are set by the caller before the
   factorization. */
static PetscInt axes_box      = 0;
static char     axes_order[8] = "xyz";

static inline PetscErrorCode AxesOrdering(Mat M, MatOrderingType type, IS *row, IS *col)
{
  PetscInt N;

  PetscFunctionBegin;
  (void)type;
  PetscCall(MatGetSize(M, &N, NULL));
  PetscCheck(2 * axes_box * axes_box * axes_box == N, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "eas_axes ordering: %" PetscInt_FMT " rows, not 2 n^3 of the box n = %" PetscInt_FMT, N, axes_box);
  PetscCall(AxesPermutation(axes_box, axes_order, row));
  PetscCall(ISDuplicate(*row, col));
  PetscCall(ISSetPermutation(*col));
  PetscFunctionReturn(0);
}

/* Registers "eas_axes" for a box of n points per direction, axes fastest first. */
static inline PetscErrorCode AxesOrderingRegister(PetscInt n, const char axes[])
{
  PetscFunctionBegin;
  axes_box = n;
  PetscCall(PetscStrncpy(axes_order, axes, sizeof(axes_order)));
  PetscCall(MatOrderingRegister("eas_axes", AxesOrdering));
  PetscFunctionReturn(0);
}
