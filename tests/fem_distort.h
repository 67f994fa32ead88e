/*
  A distorted mesh for the FEM tests through the public node map
  (EasEbeSetMeshMap): the interior element vertices of the unit-cube grid
  are moved by up to amp * h in each direction (a fixed pseudo-random pattern
  of the vertex indices); the boundary vertices stay.  Q2 nodes between
  vertices sit at the trilinear image of their position (straight-edged
  hexahedra), unless curved > 0 moves them too (by up to curved * h), which
  bends the Q2 elements.
*/
#pragma once
#include <eas.h>

typedef struct {
  PetscInt  order, n[3]; /* elements per direction */
  PetscReal amp, curved;
  PetscBool mirror; /* x -> 1 - x: every element inverted (an error case) */
} FemDistort;

/* deterministic value in [-1,1] of an integer triple and a direction */
static inline PetscReal FemDistortHash(PetscInt i, PetscInt j, PetscInt k, PetscInt d)
{
  unsigned long long h    = 1469598103934665603ULL;
  const PetscInt     v[4] = {i, j, k, d};
  for (int s = 0; s < 4; s++) {
    h ^= (unsigned long long)(v[s] + 7919);
    h *= 1099511628211ULL;
    h ^= h >> 29;
  }
  return 2.0 * (double)(h % 1000003ULL) / 1000002.0 - 1.0;
}

/* position of vertex (vi,vj,vk) of the element grid */
static inline void FemDistortVertex(const FemDistort *D, PetscInt vi, PetscInt vj, PetscInt vk, PetscReal x[3])
{
  const PetscInt  v[3]     = {vi, vj, vk};
  const PetscBool interior = (PetscBool)(vi > 0 && vi < D->n[0] && vj > 0 && vj < D->n[1] && vk > 0 && vk < D->n[2]);
  for (PetscInt d = 0; d < 3; d++) {
    const PetscReal h = 1.0 / D->n[d];
    x[d]              = v[d] * h + (interior ? D->amp * h * FemDistortHash(vi, vj, vk, d) : 0.0);
  }
}

/* EasEbeMeshMapFn: vertices as above; Q2 nodes at the trilinear image */
static PetscErrorCode FemDistortMap(const PetscInt ijk[3], const PetscReal xi[3], PetscReal x[3], void *ctx)
{
  const FemDistort *D = (const FemDistort *)ctx;
  const PetscInt    p = D->order;
  PetscInt          lo[3], odd = 0;

  PetscFunctionBegin;
  (void)xi;
  for (PetscInt d = 0; d < 3; d++) {
    lo[d] = ijk[d] / p;
    if (ijk[d] % p) odd = 1;
  }
  x[0] = x[1] = x[2] = 0;
  { /* average of the vertices around the node: 1, 2, 4 or 8 of them */
    PetscInt cnt = 0;
    for (PetscInt c = 0; c <= (ijk[2] % p ? 1 : 0); c++)
      for (PetscInt b = 0; b <= (ijk[1] % p ? 1 : 0); b++)
        for (PetscInt a = 0; a <= (ijk[0] % p ? 1 : 0); a++) {
          PetscReal v[3];
          FemDistortVertex(D, lo[0] + a, lo[1] + b, lo[2] + c, v);
          for (PetscInt d = 0; d < 3; d++) x[d] += v[d];
          cnt++;
        }
    for (PetscInt d = 0; d < 3; d++) x[d] /= cnt;
  }
  if (D->mirror) x[0] = 1 - x[0];
  if (odd && D->curved > 0) { /* interior Q2 nodes off the trilinear image */
    PetscBool interior = PETSC_TRUE;
    for (PetscInt d = 0; d < 3; d++) interior = (PetscBool)(interior && ijk[d] > 0 && ijk[d] < p * D->n[d]);
    if (interior)
      for (PetscInt d = 0; d < 3; d++) x[d] += D->curved * FemDistortHash(ijk[0] + 1000, ijk[1], ijk[2], d) / D->n[d];
  }
  PetscFunctionReturn(0);
}
