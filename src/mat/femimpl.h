#pragma once
/*
  Private helpers of the built-in hexahedral meshes (fem.c: element
  matrices and the generator; femfields.c: loads, interpolation, errors and
  the manufactured solution).  Reference element [-1,1]^3, node
  a = a0 + q a1 + q^2 a2 (q = order + 1, x fastest) at the 1D positions
  -1, (0,) 1.
*/
#include "ebeimpl.h"

#define EAS_FEM_MAXQ 6 /* Gauss points per direction */

/* Gauss-Legendre rule with n (1..EAS_FEM_MAXQ) points on [-1,1]. */
PETSC_INTERN PetscErrorCode EasFemGauss_Private(PetscInt n, PetscReal x[], PetscReal w[]);
/* Q_p basis (p = 1, 2) at the reference point xi: N[a] and dN[a][j] = dN_a/dxi_j. */
PETSC_INTERN void EasFemBasis_Private(PetscInt p, const PetscReal xi[3], PetscReal N[], PetscReal dN[][3]);
/* Isoparametric map of an element with nodes X[nen][3] at a point with basis
   N, dN: x = sum_a N_a X_a, det J and the physical gradients grad[a][i]. */
PETSC_INTERN void EasFemGeometry_Private(PetscInt nen, const PetscReal X[][3], const PetscReal N[], const PetscReal dN[][3], PetscReal x[3], PetscReal *detJ, PetscReal grad[][3]);
/* Material factor c (k or E) at x and its gradient dc (may be NULL). */
PETSC_INTERN void EasFemMaterial_Private(EasEbeMaterial, const PetscReal x[3], PetscReal *c, PetscReal dc[3]);
/* Lame parameters of E = 1 and EAS_EBE_POISSON_RATIO. */
PETSC_INTERN void EasFemLame_Private(PetscReal *lambda, PetscReal *mu);
/* Node coordinates X[nen][3] of local element e of a built-in mesh. */
PETSC_INTERN void EasFemElementCoordinates_Private(EasEbe, PetscInt e, PetscReal X[][3]);
/* The element matrix (without boundary conditions) of an element with node
   coordinates X, Gauss quadrature with order+1 points per direction; e is
   only named in errors (non-positive Jacobian). */
PETSC_INTERN PetscErrorCode EasFemElementMatrix_Private(EasEbe, PetscInt e, const PetscReal X[][3], PetscScalar K[]);
/* The boundary set in force (EAS_EBE_BC_DEFAULT resolved by the problem). */
PETSC_INTERN EasEbeBoundary EasFemBoundary_Private(EasEbe);
/* Whether local node n of a built-in mesh is prescribed. */
PETSC_INTERN PetscBool EasFemNodeIsPrescribed_Private(EasEbe, PetscInt n);
