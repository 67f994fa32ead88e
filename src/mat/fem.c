/*
  Built-in structured hexahedral meshes for EasEbe: Q1 (8 nodes) and Q2 (27
  nodes) isoparametric Lagrange elements on the unit cube, or on the image
  of its grid under a user map (EasEbeSetMeshMap), with the element
  matrices of the Poisson and the linear elasticity operators by tensor
  Gauss quadrature with order+1 points per direction (exact for box
  elements with a constant material; docs/fem.md).  Q2 elasticity gives the
  81x81 element matrices of Lang-Rünger (sec. 5).
*/
#include "femimpl.h"
#include "core/size.h"

PETSC_INTERN PetscErrorCode EasEbeSetColors_Private(EasEbe, const PetscInt *, PetscInt);
PETSC_INTERN PetscErrorCode EasEbeReset_Private(EasEbe);

const char *const EasEbeBoundaries[] = {"default", "dirichlet", "clamped", "none", "EasEbeBoundary", "EAS_EBE_BC_", NULL};
const char *const EasEbeMaterials[]  = {"varying", "constant", "EasEbeMaterial", "EAS_EBE_MATERIAL_", NULL};

/* Gauss-Legendre nodes: Newton on the Legendre polynomial P_n from the
   Chebyshev-like guess cos(pi (i + 3/4) / (n + 1/2)); weights
   2 / ((1 - x^2) P_n'(x)^2). */
PetscErrorCode EasFemGauss_Private(PetscInt n, PetscReal x[], PetscReal w[])
{
  PetscFunctionBegin;
  PetscCheck(n >= 1 && n <= EAS_FEM_MAXQ, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Gauss rule with %" PetscInt_FMT " points: expected 1 to %d", n, EAS_FEM_MAXQ);
  for (PetscInt i = 0; i < n; i++) {
    PetscReal t = PetscCosReal(PETSC_PI * (i + 0.75) / (n + 0.5)), dp = 1;
    for (PetscInt it = 0; it < 100; it++) {
      PetscReal p0 = 1, p1 = t, dt;
      for (PetscInt k = 2; k <= n; k++) {
        const PetscReal p2 = ((2 * k - 1) * t * p1 - (k - 1) * p0) / k;
        p0                 = p1;
        p1                 = p2;
      }
      dp = n * (t * p1 - p0) / (t * t - 1);
      dt = p1 / dp;
      t -= dt;
      if (PetscAbsReal(dt) < 1e-16) break;
    }
    x[n - 1 - i] = t; /* ascending */
    w[n - 1 - i] = 2 / ((1 - t * t) * dp * dp);
  }
  PetscFunctionReturn(0);
}

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

void EasFemBasis_Private(PetscInt p, const PetscReal xi[3], PetscReal N[], PetscReal dN[][3])
{
  const PetscInt q = p + 1;
  PetscReal      Nx[3], Ny[3], Nz[3], dx[3], dy[3], dz[3];

  EasFemBasis1D(p, xi[0], Nx, dx);
  EasFemBasis1D(p, xi[1], Ny, dy);
  EasFemBasis1D(p, xi[2], Nz, dz);
  for (PetscInt c = 0; c < q; c++)
    for (PetscInt b = 0; b < q; b++)
      for (PetscInt a = 0; a < q; a++) {
        const PetscInt n = a + q * (b + q * c); /* node a + q b + q^2 c, x fastest */
        N[n]             = Nx[a] * Ny[b] * Nz[c];
        dN[n][0]         = dx[a] * Ny[b] * Nz[c];
        dN[n][1]         = Nx[a] * dy[b] * Nz[c];
        dN[n][2]         = Nx[a] * Ny[b] * dz[c];
      }
}

/* J_ij = dx_i/dxi_j = sum_a X_a,i dN_a,j; grad N_a = J^{-T} dN_a (J^{-1} by
   the adjugate). */
void EasFemGeometry_Private(PetscInt nen, const PetscReal X[][3], const PetscReal N[], const PetscReal dN[][3], PetscReal x[3], PetscReal *detJ, PetscReal grad[][3])
{
  PetscReal J[3][3] = {{0}}, A[3][3], det;

  x[0] = x[1] = x[2] = 0;
  for (PetscInt a = 0; a < nen; a++)
    for (PetscInt i = 0; i < 3; i++) {
      x[i] += N[a] * X[a][i];
      for (PetscInt j = 0; j < 3; j++) J[i][j] += X[a][i] * dN[a][j];
    }
  A[0][0] = J[1][1] * J[2][2] - J[1][2] * J[2][1]; /* adj(J) = det(J) J^{-1} */
  A[0][1] = J[0][2] * J[2][1] - J[0][1] * J[2][2];
  A[0][2] = J[0][1] * J[1][2] - J[0][2] * J[1][1];
  A[1][0] = J[1][2] * J[2][0] - J[1][0] * J[2][2];
  A[1][1] = J[0][0] * J[2][2] - J[0][2] * J[2][0];
  A[1][2] = J[0][2] * J[1][0] - J[0][0] * J[1][2];
  A[2][0] = J[1][0] * J[2][1] - J[1][1] * J[2][0];
  A[2][1] = J[0][1] * J[2][0] - J[0][0] * J[2][1];
  A[2][2] = J[0][0] * J[1][1] - J[0][1] * J[1][0];
  det     = J[0][0] * A[0][0] + J[0][1] * A[1][0] + J[0][2] * A[2][0];
  *detJ   = det;
  if (!grad) return;
  for (PetscInt a = 0; a < nen; a++)
    for (PetscInt i = 0; i < 3; i++) grad[a][i] = (det != 0) ? (A[0][i] * dN[a][0] + A[1][i] * dN[a][1] + A[2][i] * dN[a][2]) / det : 0; /* (J^{-1})_ji dN_a,j */
}

void EasFemMaterial_Private(EasEbeMaterial mat, const PetscReal x[3], PetscReal *c, PetscReal dc[3])
{
  if (mat == EAS_EBE_MATERIAL_CONSTANT) {
    *c = 1;
    if (dc) dc[0] = dc[1] = dc[2] = 0;
  } else {
    const PetscReal s = 3 * x[0] + 2 * x[1] + x[2];
    *c                = 1 + 0.5 * PetscSinReal(s);
    if (dc) {
      dc[0] = 1.5 * PetscCosReal(s);
      dc[1] = 1.0 * PetscCosReal(s);
      dc[2] = 0.5 * PetscCosReal(s);
    }
  }
}

void EasFemLame_Private(PetscReal *lambda, PetscReal *mu)
{
  const PetscReal nu = EAS_EBE_POISSON_RATIO;
  *lambda            = nu / ((1 + nu) * (1 - 2 * nu));
  *mu                = 1.0 / (2 * (1 + nu));
}

void EasFemElementCoordinates_Private(EasEbe ebe, PetscInt e, PetscReal X[][3])
{
  for (PetscInt a = 0; a < ebe->nen; a++)
    for (PetscInt i = 0; i < 3; i++) X[a][i] = ebe->xyz[3 * ebe->conn[e * ebe->nen + a] + i];
}

/* K_ab = int c grad N_a . grad N_b (poisson), or with lambda = c lambda_1,
   mu = c mu_1: K_(a,i)(b,j) = int lambda N_a,i N_b,j + mu N_a,j N_b,i +
   mu delta_ij grad N_a . grad N_b (elasticity: a(u,v) = int lambda div u
   div v + 2 mu eps(u):eps(v)).  Upper block triangle, then mirrored. */
PetscErrorCode EasFemElementMatrix_Private(EasEbe ebe, PetscInt e, const PetscReal X[][3], PetscScalar *K)
{
  const PetscInt p = ebe->order, q = p + 1, nen = q * q * q, dof = ebe->dof, m = nen * dof;
  PetscReal      g[EAS_FEM_MAXQ], w[EAS_FEM_MAXQ], N[27], dN[27][3], grad[27][3], lam1, mu1;

  PetscFunctionBegin;
  PetscCall(EasFemGauss_Private(q, g, w));
  EasFemLame_Private(&lam1, &mu1);
  PetscCall(PetscArrayzero(K, m * m));
  for (PetscInt iz = 0; iz < q; iz++)
    for (PetscInt iy = 0; iy < q; iy++)
      for (PetscInt ix = 0; ix < q; ix++) {
        const PetscReal xi[3] = {g[ix], g[iy], g[iz]};
        PetscReal       x[3], detJ, c, wt;
        EasFemBasis_Private(p, xi, N, dN);
        EasFemGeometry_Private(nen, X, N, dN, x, &detJ, grad);
        PetscCheck(detJ > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Inverted or degenerate element: local element %" PetscInt_FMT " has Jacobian determinant %g at the quadrature point (%g,%g,%g) (check the mesh map: its nodes must keep the grid's orientation)", e, (double)detJ, (double)x[0], (double)x[1], (double)x[2]);
        EasFemMaterial_Private(ebe->material, x, &c, NULL);
        wt = w[ix] * w[iy] * w[iz] * detJ * c;
        for (PetscInt a = 0; a < nen; a++)
          for (PetscInt b = a; b < nen; b++) {
            const PetscReal gg = grad[a][0] * grad[b][0] + grad[a][1] * grad[b][1] + grad[a][2] * grad[b][2];
            if (dof == 1)
              K[a * m + b] += wt * gg;
            else {
              const PetscReal lam = wt * lam1, mu = wt * mu1;
              for (PetscInt i = 0; i < 3; i++)
                for (PetscInt j = 0; j < 3; j++) K[(a * 3 + i) * m + b * 3 + j] += lam * grad[a][i] * grad[b][j] + mu * grad[a][j] * grad[b][i] + (i == j ? mu * gg : 0.0);
            }
          }
      }
  for (PetscInt a = 0; a < nen; a++)
    for (PetscInt b = a + 1; b < nen; b++)
      for (PetscInt i = 0; i < dof; i++)
        for (PetscInt j = 0; j < dof; j++) K[(b * dof + j) * m + a * dof + i] = K[(a * dof + i) * m + b * dof + j];
  PetscFunctionReturn(0);
}

EasEbeBoundary EasFemBoundary_Private(EasEbe ebe)
{
  if (ebe->bc != EAS_EBE_BC_DEFAULT) return ebe->bc;
  return ebe->problem == EAS_EBE_POISSON ? EAS_EBE_BC_DIRICHLET : EAS_EBE_BC_CLAMPED;
}

PetscBool EasFemNodeIsPrescribed_Private(EasEbe ebe, PetscInt n)
{
  const PetscInt p = ebe->order, NX = p * ebe->nx + 1, NY = p * ebe->ny + 1, NXY = NX * NY;
  const PetscInt gi = n % NX, gj = (n / NX) % NY, gk = n / NXY + ebe->grow0 / (NXY * ebe->dof);

  switch (EasFemBoundary_Private(ebe)) {
  case EAS_EBE_BC_DIRICHLET:
    return (PetscBool)(gi == 0 || gi == NX - 1 || gj == 0 || gj == NY - 1 || gk == 0 || gk == p * ebe->nz);
  case EAS_EBE_BC_CLAMPED:
    return (PetscBool)(gi == 0);
  default:
    return PETSC_FALSE;
  }
}

/* Builds the built-in mesh from the stored settings (EasEbeSetFromMesh
   arguments, boundary set, material, node map). */
static PetscErrorCode EasEbeBuildMesh_Private(EasEbe ebe)
{
  MPI_Comm      comm;
  PetscMPIInt   rank, size;
  EasEbeProblem prob = ebe->problem;
  PetscInt      p = ebe->order, q = p + 1, nx = ebe->nx, ny = ebe->ny, nz = ebe->nz, nen, dof, m, NX, NY, NXY, z0, z1, nlz, *color, nconn, nunk, ncoord;
  size_t        nael;
  PetscReal(*X)[3];

  PetscFunctionBegin;
  comm = PetscObjectComm((PetscObject)ebe);
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(EasEbeReset_Private(ebe));
  PetscCall(PetscObjectChangeTypeName((PetscObject)ebe, "mesh"));
  nen = q * q * q;
  dof = prob == EAS_EBE_POISSON ? 1 : 3;
  m   = nen * dof;
  /* every size product checked (core/size.h): PetscInt is 32-bit */
  PetscCall(EasIntMul(comm, "mesh nodes in x p*nx", &NX, p, nx));
  PetscCall(EasIntMul(comm, "mesh nodes in y p*ny", &NY, p, ny));
  NX += 1;
  NY += 1;
  PetscCall(EasIntMul(comm, "mesh nodes per z layer (p*nx+1)*(p*ny+1)", &NXY, NX, NY));
  PetscCall(EasIntMul(comm, "mesh node layers p*nz", &nunk, p, nz));
  PetscCall(EasIntMul(comm, "global unknowns (p*nx+1)*(p*ny+1)*(p*nz+1)*dof", &nunk, NX, NY, nunk + 1, dof));
  z0  = (PetscInt)(((PetscInt64)nz * rank) / size);
  z1  = (PetscInt)(((PetscInt64)nz * (rank + 1)) / size);
  nlz = p * (z1 - z0) + 1;

  PetscCall(EasIntMul(comm, "local elements nx*ny*nz_local", &ebe->nel, nx, ny, z1 - z0));
  PetscCall(EasIntMul(comm, "connectivity nel*nen", &nconn, ebe->nel, nen));
  PetscCall(EasSizeMul(comm, "element storage nel*m*m", sizeof(PetscScalar), &nael, ebe->nel, m, m));
  PetscCall(EasIntMul(comm, "node coordinates 3*nnodes", &ncoord, 3, nlz * NXY)); /* nlz*NXY <= the global node count, checked above; xyz is indexed 3*n in PetscInt */
  ebe->from_mesh     = PETSC_TRUE;
  ebe->nen           = nen;
  ebe->dof           = dof;
  ebe->nnodes        = nlz * NXY;
  ebe->nowned        = rank == size - 1 ? ebe->nnodes : ebe->nnodes - NXY;
  ebe->nglobal_nodes = NXY * (p * nz + 1);
  ebe->grow0         = p * z0 * NXY * dof;
  PetscCall(PetscMalloc1(ebe->nnodes, &ebe->l2g));
  PetscCall(PetscMalloc1(ncoord, &ebe->xyz));
  for (PetscInt k = 0; k < nlz; k++)
    for (PetscInt j = 0; j < NY; j++)
      for (PetscInt i = 0; i < NX; i++) {
        const PetscInt  n      = i + NX * (j + NY * k);
        const PetscInt  ijk[3] = {i, j, k + p * z0};
        const PetscReal xi[3]  = {(PetscReal)i / (p * nx), (PetscReal)j / (p * ny), (PetscReal)(k + p * z0) / (p * nz)};
        ebe->l2g[n]            = n + p * z0 * NXY;
        if (ebe->map)
          PetscCall((*ebe->map)(ijk, xi, ebe->xyz + 3 * n, ebe->mapctx));
        else
          PetscCall(PetscArraycpy(ebe->xyz + 3 * n, xi, 3));
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

  PetscCall(PetscMalloc1(PetscMax(nconn, 1), &ebe->conn));
  PetscCall(PetscMalloc1(PetscMax(nael, 1), &ebe->ael)); /* nel*m*m in size_t: 327311 Q2 elasticity elements (m = 81) pass 2^31 - 1 */
  PetscCall(PetscMalloc1(PetscMax(ebe->nel, 1), &color));
  PetscCall(PetscMalloc1(nen, &X));
  for (PetscInt ez = z0; ez < z1; ez++)
    for (PetscInt ey = 0; ey < ny; ey++)
      for (PetscInt ex = 0; ex < nx; ex++) {
        const PetscInt e = ex + nx * (ey + ny * (ez - z0));
        PetscInt      *c = ebe->conn + (size_t)e * nen;
        PetscScalar   *A = ebe->ael + (size_t)e * m * m;
        for (PetscInt cz = 0; cz < q; cz++)
          for (PetscInt cy = 0; cy < q; cy++)
            for (PetscInt cx = 0; cx < q; cx++) c[cx + q * (cy + q * cz)] = (p * ex + cx) + NX * ((p * ey + cy) + NY * (p * (ez - z0) + cz));
        EasFemElementCoordinates_Private(ebe, e, X);
        PetscCall(EasFemElementMatrix_Private(ebe, e, (const PetscReal(*)[3])X, A));
        /* prescribed unknowns: zero row and column, keep the diagonal */
        for (PetscInt a = 0; a < nen; a++) {
          if (!EasFemNodeIsPrescribed_Private(ebe, c[a])) continue;
          for (PetscInt k = 0; k < dof; k++) {
            const PetscInt    i = a * dof + k;
            const PetscScalar d = A[i * m + i];
            for (PetscInt j = 0; j < m; j++) A[i * m + j] = A[j * m + i] = 0.0;
            A[i * m + i] = d;
          }
        }
        color[e] = (ex % 2) + 2 * (ey % 2) + 4 * (ez % 2); /* same parity: no shared node */
      }
  PetscCall(PetscFree(X));
  PetscCall(EasEbeSetColors_Private(ebe, color, 8));
  PetscCall(PetscFree(color));
  PetscFunctionReturn(0);
}

/*@C
  EasEbeSetFromMesh - structured mesh of the unit cube (or of its image
  under EasEbeSetMeshMap), nx x ny x nz hexahedra of order 1 or 2,
  distributed in z-slabs over the communicator.  Poisson: -div(k grad u) = f;
  elasticity: -div sigma(u) = f with sigma = lambda tr(eps) I + 2 mu eps,
  E(x) and nu = EAS_EBE_POISSON_RATIO; material per EasEbeSetMeshMaterial
  (default k, E = 1 + 0.5 sin(3x + 2y + z) at the quadrature points).
  Prescribed unknowns (EasEbeSetMeshBoundary; default: the whole boundary
  for poisson, x = 0 for elasticity) are decoupled in every element (row
  and column zeroed, diagonal kept), so the assembled matrix stays
  symmetric positive definite; their values enter through EasEbeComputeRHS.
  Errors: order not 1 or 2, sizes < 1, fewer z layers than processes, an
  inverted element.
@*/
PetscErrorCode EasEbeSetFromMesh(EasEbe ebe, EasEbeProblem prob, PetscInt order, PetscInt nx, PetscInt ny, PetscInt nz)
{
  MPI_Comm    comm;
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  comm = PetscObjectComm((PetscObject)ebe);
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCheck(order == 1 || order == 2, comm, PETSC_ERR_ARG_OUTOFRANGE, "-fem_order %" PetscInt_FMT " is invalid: expected 1 (Q1, 8 nodes) or 2 (Q2, 27 nodes)", order);
  PetscCheck(prob == EAS_EBE_POISSON || prob == EAS_EBE_ELASTICITY, comm, PETSC_ERR_ARG_OUTOFRANGE, "Unknown EasEbeProblem %d: expected poisson or elasticity", (int)prob);
  PetscCheck(nx >= 1 && ny >= 1 && nz >= 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "EasEbeSetFromMesh: expected at least one element per direction, got %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT, nx, ny, nz);
  PetscCheck(nz >= size, comm, PETSC_ERR_ARG_OUTOFRANGE, "EasEbeSetFromMesh: %" PetscInt_FMT " element layers in z cannot be split over %d processes (need nz >= processes)", nz, size);
  PetscCheck(!ebe->setupcalled, comm, PETSC_ERR_ORDER, "EasEbeSetFromMesh: call before EasEbeSetUp()");
  ebe->problem = prob;
  ebe->order   = order;
  ebe->nx      = nx;
  ebe->ny      = ny;
  ebe->nz      = nz;
  PetscCall(EasEbeBuildMesh_Private(ebe));
  PetscFunctionReturn(0);
}

/* A changed setting rebuilds an existing built-in mesh (before SetUp). */
static PetscErrorCode EasEbeMeshSettingChanged_Private(EasEbe ebe, const char *fn)
{
  PetscFunctionBegin;
  PetscCheck(!ebe->setupcalled, PetscObjectComm((PetscObject)ebe), PETSC_ERR_ORDER, "%s: call before EasEbeSetUp()", fn);
  if (ebe->from_mesh) PetscCall(EasEbeBuildMesh_Private(ebe));
  PetscFunctionReturn(0);
}

/*@C
  EasEbeSetMeshBoundary - where the built-in mesh prescribes the unknowns.
  Errors: an unknown value, a call after EasEbeSetUp.
@*/
PetscErrorCode EasEbeSetMeshBoundary(EasEbe ebe, EasEbeBoundary bc)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  PetscCheck(bc >= EAS_EBE_BC_DEFAULT && bc <= EAS_EBE_BC_NONE, PetscObjectComm((PetscObject)ebe), PETSC_ERR_ARG_OUTOFRANGE, "Unknown EasEbeBoundary %d: expected default, dirichlet, clamped or none", (int)bc);
  ebe->bc = bc;
  PetscCall(EasEbeMeshSettingChanged_Private(ebe, "EasEbeSetMeshBoundary"));
  PetscFunctionReturn(0);
}

/*@C
  EasEbeGetMeshBoundary - the boundary set of the built-in mesh.
@*/
PetscErrorCode EasEbeGetMeshBoundary(EasEbe ebe, EasEbeBoundary *bc)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  *bc = ebe->from_mesh ? EasFemBoundary_Private(ebe) : ebe->bc;
  PetscFunctionReturn(0);
}

/*@C
  EasEbeSetMeshMaterial - the material of the built-in mesh.
  Errors: an unknown value, a call after EasEbeSetUp.
@*/
PetscErrorCode EasEbeSetMeshMaterial(EasEbe ebe, EasEbeMaterial mat)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  PetscCheck(mat == EAS_EBE_MATERIAL_VARYING || mat == EAS_EBE_MATERIAL_CONSTANT, PetscObjectComm((PetscObject)ebe), PETSC_ERR_ARG_OUTOFRANGE, "Unknown EasEbeMaterial %d: expected varying or constant", (int)mat);
  ebe->material = mat;
  PetscCall(EasEbeMeshSettingChanged_Private(ebe, "EasEbeSetMeshMaterial"));
  PetscFunctionReturn(0);
}

/*@C
  EasEbeSetMeshMap - user node coordinates of the built-in mesh (map of the
  grid nodes; NULL: the unit cube).  Errors: a call after EasEbeSetUp.
@*/
PetscErrorCode EasEbeSetMeshMap(EasEbe ebe, EasEbeMeshMapFn map, void *ctx)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  ebe->map    = map;
  ebe->mapctx = ctx;
  PetscCall(EasEbeMeshSettingChanged_Private(ebe, "EasEbeSetMeshMap"));
  PetscFunctionReturn(0);
}

/*@C
  EasEbeGetElement - local node numbers and element matrix of local element e.
  Errors: e out of range.
@*/
PetscErrorCode EasEbeGetElement(EasEbe ebe, PetscInt e, PetscInt nodes[], PetscScalar A[])
{
  const PetscInt m = ebe->nen * ebe->dof;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  PetscCheck(ebe->conn, PetscObjectComm((PetscObject)ebe), PETSC_ERR_ORDER, "EasEbeGetElement: no elements; call EasEbeSetElements() or EasEbeSetFromMesh() first");
  PetscCheck(e >= 0 && e < ebe->nel, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "EasEbeGetElement: element %" PetscInt_FMT " is not in [0, %" PetscInt_FMT ")", e, ebe->nel);
  if (nodes) PetscCall(PetscArraycpy(nodes, ebe->conn + (size_t)e * ebe->nen, ebe->nen));
  if (A) PetscCall(PetscArraycpy(A, ebe->ael + (size_t)e * m * m, m * m));
  PetscFunctionReturn(0);
}
