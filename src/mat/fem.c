/*
  Built-in structured hexahedral meshes for EasEbe: Q1 (8 nodes) and Q2 (27
  nodes) Lagrange elements on the unit cube, element matrices of the Poisson
  and the linear elasticity operators by tensor Gauss quadrature (2 and 3
  points per direction: exact for these polynomial integrands on a box).
  Q2 elasticity gives the 81x81 element matrices of seed 001 (sec. 5).
*/
#include "ebeimpl.h"

PETSC_INTERN PetscErrorCode EasEbeSetColors_Private(EasEbe, const PetscInt *, PetscInt);
PETSC_INTERN PetscErrorCode EasEbeReset_Private(EasEbe);

/* 1D Lagrange basis of order p (1 or 2) on [-1,1] at nodes -1,(0),1: values
   and derivatives at xi. */
static void EasFemBasis1D(PetscInt p, PetscReal xi, PetscReal N[3], PetscReal dN[3])
{
  if (p == 1) {
    N[0]  = 0.5 * (1 - xi);
    N[1]  = 0.5 * (1 + xi);
    dN[0] = -0.5;
    dN[1] = 0.5;
  } else {
    N[0]  = 0.5 * xi * (xi - 1);
    N[1]  = 1 - xi * xi;
    N[2]  = 0.5 * xi * (xi + 1);
    dN[0] = xi - 0.5;
    dN[1] = -2 * xi;
    dN[2] = xi + 0.5;
  }
}

/* Reference element matrix of a box element h[3]: Poisson (dof 1,
   K_ab = int grad N_a . grad N_b) or elasticity with Lame lambda, mu (dof 3,
   K_(a,i)(b,j) = int lambda N_a,i N_b,j + mu N_a,j N_b,i + mu delta_ij grad N_a . grad N_b). */
static PetscErrorCode EasFemElementMatrix(EasEbeProblem prob, PetscInt p, const PetscReal h[3], PetscReal lambda, PetscReal mu, PetscScalar *K)
{
  const PetscInt   q = p + 1, nen = q * q * q, dof = prob == EAS_EBE_POISSON ? 1 : 3, m = nen * dof;
  const PetscReal  g2[2] = {-0.57735026918962576451, 0.57735026918962576451}, w2[2] = {1, 1};
  const PetscReal  g3[3] = {-0.77459666924148337704, 0, 0.77459666924148337704}, w3[3] = {5.0 / 9, 8.0 / 9, 5.0 / 9};
  const PetscReal *g = p == 1 ? g2 : g3, *w = p == 1 ? w2 : w3, detJ = h[0] * h[1] * h[2] / 8.0;
  PetscReal        grad[27][3];

  PetscFunctionBegin;
  PetscCall(PetscArrayzero(K, m * m));
  for (PetscInt iz = 0; iz < q; iz++)
    for (PetscInt iy = 0; iy < q; iy++)
      for (PetscInt ix = 0; ix < q; ix++) {
        PetscReal Nx[3], Ny[3], Nz[3], dx[3], dy[3], dz[3], wt = w[ix] * w[iy] * w[iz] * detJ;
        EasFemBasis1D(p, g[ix], Nx, dx);
        EasFemBasis1D(p, g[iy], Ny, dy);
        EasFemBasis1D(p, g[iz], Nz, dz);
        for (PetscInt c = 0; c < q; c++)
          for (PetscInt b = 0; b < q; b++)
            for (PetscInt a = 0; a < q; a++) {
              const PetscInt n = a + q * (b + q * c); /* node a + q b + q^2 c, x fastest */
              grad[n][0]       = dx[a] * Ny[b] * Nz[c] * 2.0 / h[0];
              grad[n][1]       = Nx[a] * dy[b] * Nz[c] * 2.0 / h[1];
              grad[n][2]       = Nx[a] * Ny[b] * dz[c] * 2.0 / h[2];
            }
        for (PetscInt a = 0; a < nen; a++)
          for (PetscInt b = 0; b < nen; b++) {
            const PetscReal gg = grad[a][0] * grad[b][0] + grad[a][1] * grad[b][1] + grad[a][2] * grad[b][2];
            if (dof == 1)
              K[a * m + b] += wt * gg;
            else
              for (PetscInt i = 0; i < 3; i++)
                for (PetscInt j = 0; j < 3; j++) K[(a * 3 + i) * m + b * 3 + j] += wt * (lambda * grad[a][i] * grad[b][j] + mu * grad[a][j] * grad[b][i] + (i == j ? mu * gg : 0.0));
          }
      }
  PetscFunctionReturn(0);
}

/*@C
  EasEbeSetFromMesh - structured mesh of the unit cube, nx x ny x nz
  hexahedra of order 1 or 2, distributed in z-slabs over the communicator.
  Poisson: coefficient k(x) = 1 + 0.5 sin(3x + 2y + z) per element,
  Dirichlet u = 0 on the whole boundary.  Elasticity: E(x) = 1 + 0.5 sin(..),
  nu = 0.3, clamped (u = 0) at x = 0.  Dirichlet unknowns are decoupled in
  every element (row and column zeroed, diagonal kept), so the assembled
  matrix stays symmetric positive definite.
  Errors: order not 1 or 2, sizes < 1, fewer z layers than processes.
@*/
PetscErrorCode EasEbeSetFromMesh(EasEbe ebe, EasEbeProblem prob, PetscInt order, PetscInt nx, PetscInt ny, PetscInt nz)
{
  MPI_Comm     comm;
  PetscMPIInt  rank, size;
  PetscInt     p = order, q = order + 1, nen, dof, m, NX, NY, NXY, z0, z1, nlz, *color;
  PetscReal    h[3];
  PetscScalar *Kref;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  comm = PetscObjectComm((PetscObject)ebe);
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCheck(order == 1 || order == 2, comm, PETSC_ERR_ARG_OUTOFRANGE, "-fem_order %" PetscInt_FMT " is invalid: expected 1 (Q1, 8 nodes) or 2 (Q2, 27 nodes)", order);
  PetscCheck(prob == EAS_EBE_POISSON || prob == EAS_EBE_ELASTICITY, comm, PETSC_ERR_ARG_OUTOFRANGE, "Unknown EasEbeProblem %d: expected poisson or elasticity", (int)prob);
  PetscCheck(nx >= 1 && ny >= 1 && nz >= 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "EasEbeSetFromMesh: expected at least one element per direction, got %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT, nx, ny, nz);
  PetscCheck(nz >= size, comm, PETSC_ERR_ARG_OUTOFRANGE, "EasEbeSetFromMesh: %" PetscInt_FMT " element layers in z cannot be split over %d processes (need nz >= processes)", nz, size);
  PetscCall(EasEbeReset_Private(ebe));
  PetscCall(PetscObjectChangeTypeName((PetscObject)ebe, "mesh"));
  nen  = q * q * q;
  dof  = prob == EAS_EBE_POISSON ? 1 : 3;
  m    = nen * dof;
  NX   = p * nx + 1;
  NY   = p * ny + 1;
  NXY  = NX * NY;
  z0   = (PetscInt)(((PetscInt64)nz * rank) / size);
  z1   = (PetscInt)(((PetscInt64)nz * (rank + 1)) / size);
  nlz  = p * (z1 - z0) + 1;
  h[0] = 1.0 / nx;
  h[1] = 1.0 / ny;
  h[2] = 1.0 / nz;

  ebe->from_mesh     = PETSC_TRUE;
  ebe->problem       = prob;
  ebe->order         = order;
  ebe->nx            = nx;
  ebe->ny            = ny;
  ebe->nz            = nz;
  ebe->nel           = nx * ny * (z1 - z0);
  ebe->nen           = nen;
  ebe->dof           = dof;
  ebe->nnodes        = nlz * NXY;
  ebe->nowned        = rank == size - 1 ? ebe->nnodes : ebe->nnodes - NXY;
  ebe->nglobal_nodes = NXY * (p * nz + 1);
  ebe->grow0         = p * z0 * NXY * dof;
  PetscCall(PetscMalloc1(ebe->nnodes, &ebe->l2g));
  PetscCall(PetscMalloc1(3 * ebe->nnodes, &ebe->xyz));
  for (PetscInt k = 0; k < nlz; k++)
    for (PetscInt j = 0; j < NY; j++)
      for (PetscInt i = 0; i < NX; i++) {
        const PetscInt n    = i + NX * (j + NY * k);
        ebe->l2g[n]         = n + p * z0 * NXY;
        ebe->xyz[3 * n + 0] = (PetscReal)i / (p * nx);
        ebe->xyz[3 * n + 1] = (PetscReal)j / (p * ny);
        ebe->xyz[3 * n + 2] = (PetscReal)(k + p * z0) / (p * nz);
      }
  /* neighbours and interface node layers (bottom: local layer 0, top: the last) */
  if (rank > 0) {
    ebe->nbr[0]  = rank - 1;
    ebe->nifc[0] = NXY;
    PetscCall(PetscMalloc1(NXY, &ebe->ifc[0]));
    for (PetscInt i = 0; i < NXY; i++) ebe->ifc[0][i] = i;
  }
  if (rank < size - 1) {
    ebe->nbr[1]  = rank + 1;
    ebe->nifc[1] = NXY;
    PetscCall(PetscMalloc1(NXY, &ebe->ifc[1]));
    for (PetscInt i = 0; i < NXY; i++) ebe->ifc[1][i] = ebe->nnodes - NXY + i;
  }
  /* interface elements: the first and the last element layers */
  ebe->ifc_e[0][0] = 0;
  ebe->ifc_e[0][1] = rank > 0 ? PetscMin(nx * ny, ebe->nel) : 0;
  ebe->ifc_e[1][0] = rank < size - 1 ? PetscMax(ebe->nel - nx * ny, ebe->ifc_e[0][1]) : ebe->nel;
  ebe->ifc_e[1][1] = ebe->nel;

  PetscCall(PetscMalloc1(PetscMax(ebe->nel * nen, 1), &ebe->conn));
  PetscCall(PetscMalloc1(PetscMax(ebe->nel * m * m, 1), &ebe->ael));
  PetscCall(PetscMalloc1(PetscMax(ebe->nel, 1), &color));
  PetscCall(PetscMalloc1(m * m, &Kref));
  /* elasticity: E = 1, nu = 0.3 scaled per element below */
  {
    const PetscReal nu = 0.3, lambda = nu / ((1 + nu) * (1 - 2 * nu)), mu = 1.0 / (2 * (1 + nu));
    PetscCall(EasFemElementMatrix(prob, p, h, lambda, mu, Kref));
  }
  for (PetscInt ez = z0; ez < z1; ez++)
    for (PetscInt ey = 0; ey < ny; ey++)
      for (PetscInt ex = 0; ex < nx; ex++) {
        const PetscInt  e  = ex + nx * (ey + ny * (ez - z0));
        PetscInt       *c  = ebe->conn + e * nen;
        PetscScalar    *A  = ebe->ael + (size_t)e * m * m;
        const PetscReal xc = (ex + 0.5) * h[0], yc = (ey + 0.5) * h[1], zc = (ez + 0.5) * h[2];
        const PetscReal kc = 1.0 + 0.5 * PetscSinReal(3 * xc + 2 * yc + zc);
        for (PetscInt cz = 0; cz < q; cz++)
          for (PetscInt cy = 0; cy < q; cy++)
            for (PetscInt cx = 0; cx < q; cx++) c[cx + q * (cy + q * cz)] = (p * ex + cx) + NX * ((p * ey + cy) + NY * (p * (ez - z0) + cz));
        for (PetscInt i = 0; i < m * m; i++) A[i] = kc * Kref[i];
        /* Dirichlet unknowns: zero row and column, keep the diagonal */
        for (PetscInt a = 0; a < nen; a++) {
          const PetscInt gi = p * ex + a % q, gj = p * ey + (a / q) % q, gk = p * ez + a / (q * q);
          PetscBool      fixed;
          if (prob == EAS_EBE_POISSON)
            fixed = (PetscBool)(gi == 0 || gi == NX - 1 || gj == 0 || gj == NY - 1 || gk == 0 || gk == p * nz);
          else
            fixed = (PetscBool)(gi == 0);
          if (!fixed) continue;
          for (PetscInt k = 0; k < dof; k++) {
            const PetscInt    i = a * dof + k;
            const PetscScalar d = A[i * m + i];
            for (PetscInt j = 0; j < m; j++) A[i * m + j] = A[j * m + i] = 0.0;
            A[i * m + i] = d;
          }
        }
        color[e] = (ex % 2) + 2 * (ey % 2) + 4 * (ez % 2); /* same parity: no shared node */
      }
  PetscCall(PetscFree(Kref));
  PetscCall(EasEbeSetColors_Private(ebe, color, 8));
  PetscCall(PetscFree(color));
  PetscFunctionReturn(0);
}
