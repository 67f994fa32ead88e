/*
  Fields on the built-in hexahedral meshes of EasEbe (docs/fem.md): nodal
  interpolation, the load vector (body force and prescribed values, by
  lifting), the discretization error in the L2 and energy norms, and the
  manufactured solution of the built-in problems with its body force.
*/
#include "femimpl.h"

static PetscErrorCode EasEbeCheckMesh_Private(EasEbe ebe, EasVec v, const char *fn)
{
  PetscInt n;

  PetscFunctionBegin;
  PetscCheck(ebe->from_mesh, PetscObjectComm((PetscObject)ebe), PETSC_ERR_ARG_WRONGSTATE, "%s: needs a built-in mesh (EasEbeSetFromMesh()); the user path has no geometry", fn);
  PetscCall(EasEbeSetUp(ebe));
  if (v) {
    PetscCall(EasVecGetSize(v, &n));
    PetscCheck(n == ebe->nnodes * ebe->dof, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "%s: vector has %" PetscInt_FMT " entries, expected nnodes*dof = %" PetscInt_FMT " (use EasEbeCreateVecs())", fn, n, ebe->nnodes * ebe->dof);
  }
  PetscFunctionReturn(0);
}

/*@C
  EasEbeInterpolate - nodal values of u at every local node.
@*/
PetscErrorCode EasEbeInterpolate(EasEbe ebe, EasEbeFieldFn u, void *ctx, EasVec x)
{
  PetscScalar *xa;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  PetscCall(EasEbeCheckMesh_Private(ebe, x, "EasEbeInterpolate"));
  PetscCall(EasVecGetArrayWrite(x, &xa));
  for (PetscInt n = 0; n < ebe->nnodes; n++) PetscCall((*u)(ebe->xyz + 3 * n, xa + n * ebe->dof, NULL, ctx));
  PetscCall(EasVecRestoreArrayWrite(x, &xa));
  PetscFunctionReturn(0);
}

/*@C
  EasEbeComputeRHS - load vector b of a built-in mesh from the body force f
  and the prescribed values g (see include/eas/ebe.h).
@*/
PetscErrorCode EasEbeComputeRHS(EasEbe ebe, EasEbeFieldFn f, EasEbeFieldFn g, void *ctx, EasVec b)
{
  const PetscInt p = ebe->order, nq = p + 2, nen = ebe->nen, dof = ebe->dof, m = nen * dof;
  PetscReal      gx[EAS_FEM_MAXQ], gw[EAS_FEM_MAXQ], N[27], dN[27][3], X[27][3];
  PetscScalar   *ba, *G, *K, fe[EAS_EBE_MAXM];
  PetscBool     *fix;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  PetscCall(EasEbeCheckMesh_Private(ebe, b, "EasEbeComputeRHS"));
  PetscCall(EasFemGauss_Private(nq, gx, gw));
  PetscCall(PetscMalloc3(ebe->nnodes, &fix, (size_t)ebe->nnodes * dof, &G, (size_t)m * m, &K));
  for (PetscInt n = 0; n < ebe->nnodes; n++) { /* g at the prescribed nodes */
    fix[n] = EasFemNodeIsPrescribed_Private(ebe, n);
    for (PetscInt k = 0; k < dof; k++) G[n * dof + k] = 0;
    if (fix[n] && g) PetscCall((*g)(ebe->xyz + 3 * n, G + n * dof, NULL, ctx));
  }
  PetscCall(EasVecGetArrayWrite(b, &ba));
  for (PetscInt i = 0; i < ebe->nnodes * dof; i++) ba[i] = 0;
  for (PetscInt e = 0; e < ebe->nel; e++) {
    const PetscInt *c   = ebe->conn + e * nen;
    PetscBool       any = PETSC_FALSE;

    EasFemElementCoordinates_Private(ebe, e, X);
    for (PetscInt i = 0; i < m; i++) fe[i] = 0;
    if (f) /* fe_(a,k) = int f_k N_a */
      for (PetscInt iz = 0; iz < nq; iz++)
        for (PetscInt iy = 0; iy < nq; iy++)
          for (PetscInt ix = 0; ix < nq; ix++) {
            const PetscReal xi[3] = {gx[ix], gx[iy], gx[iz]};
            PetscReal       x[3], detJ;
            PetscScalar     fv[3];
            EasFemBasis_Private(p, xi, N, dN);
            EasFemGeometry_Private(nen, (const PetscReal(*)[3])X, N, (const PetscReal(*)[3])dN, x, &detJ, NULL);
            PetscCall((*f)(x, fv, NULL, ctx));
            for (PetscInt a = 0; a < nen; a++)
              for (PetscInt k = 0; k < dof; k++) fe[a * dof + k] += gw[ix] * gw[iy] * gw[iz] * detJ * N[a] * fv[k];
          }
    for (PetscInt a = 0; a < nen; a++) any = (PetscBool)(any || fix[c[a]]);
    if (any && g) PetscCall(EasFemElementMatrix_Private(ebe, e, (const PetscReal(*)[3])X, K)); /* undecoupled K for the lifting */
    for (PetscInt a = 0; a < nen; a++)
      for (PetscInt k = 0; k < dof; k++) {
        const PetscInt i = a * dof + k;
        if (fix[c[a]]) { /* A_ii g_i: the diagonal the decoupled element kept */
          if (g) ba[c[a] * dof + k] += K[i * m + i] * G[c[a] * dof + k];
        } else {
          PetscScalar s = fe[i];
          if (any && g)
            for (PetscInt bb = 0; bb < nen; bb++)
              if (fix[c[bb]])
                for (PetscInt l = 0; l < dof; l++) s -= K[i * m + bb * dof + l] * G[c[bb] * dof + l];
          ba[c[a] * dof + k] += s;
        }
      }
  }
  PetscCall(EasEbeExchange_Private(ebe, ba, dof)); /* interface sums: consistent ghosts */
  PetscCall(EasVecRestoreArrayWrite(b, &ba));
  PetscCall(PetscFree3(fix, G, K));
  PetscFunctionReturn(0);
}

/*@C
  EasEbeComputeError - L2 and energy-norm errors of x against u on a
  built-in mesh (see include/eas/ebe.h).
@*/
PetscErrorCode EasEbeComputeError(EasEbe ebe, EasVec x, EasEbeFieldFn u, void *ctx, PetscReal err[2], PetscReal nrm[2])
{
  const PetscInt     p = ebe->order, nq = p + 3, nen = ebe->nen, dof = ebe->dof;
  PetscReal          gx[EAS_FEM_MAXQ], gw[EAS_FEM_MAXQ], N[27], dN[27][3], grad[27][3], X[27][3], lam1, mu1, s[4] = {0, 0, 0, 0};
  const PetscScalar *xa;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  PetscCall(EasEbeCheckMesh_Private(ebe, x, "EasEbeComputeError"));
  PetscCall(EasFemGauss_Private(nq, gx, gw));
  EasFemLame_Private(&lam1, &mu1);
  PetscCall(EasVecGetArrayRead(x, &xa));
  for (PetscInt e = 0; e < ebe->nel; e++) {
    const PetscInt *c = ebe->conn + e * nen;
    EasFemElementCoordinates_Private(ebe, e, X);
    for (PetscInt iz = 0; iz < nq; iz++)
      for (PetscInt iy = 0; iy < nq; iy++)
        for (PetscInt ix = 0; ix < nq; ix++) {
          const PetscReal xi[3] = {gx[ix], gx[iy], gx[iz]};
          PetscReal       xq[3], detJ, w, cm, e2 = 0, u2 = 0, E2 = 0, U2 = 0;
          PetscScalar     ue[3], due[9], uh[3] = {0, 0, 0}, duh[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0}, de[9];
          EasFemBasis_Private(p, xi, N, dN);
          EasFemGeometry_Private(nen, (const PetscReal(*)[3])X, N, (const PetscReal(*)[3])dN, xq, &detJ, grad);
          w = gw[ix] * gw[iy] * gw[iz] * detJ;
          for (PetscInt a = 0; a < nen; a++)
            for (PetscInt k = 0; k < dof; k++) {
              const PetscScalar v = xa[c[a] * dof + k];
              uh[k] += N[a] * v;
              for (PetscInt j = 0; j < 3; j++) duh[3 * k + j] += grad[a][j] * v;
            }
          PetscCall((*u)(xq, ue, due, ctx));
          for (PetscInt k = 0; k < dof; k++) {
            e2 += PetscSqr(ue[k] - uh[k]);
            u2 += PetscSqr(ue[k]);
          }
          for (PetscInt i = 0; i < 3 * dof; i++) de[i] = due[i] - duh[i];
          EasFemMaterial_Private(ebe->material, xq, &cm, NULL);
          if (dof == 1) {
            for (PetscInt j = 0; j < 3; j++) {
              E2 += cm * PetscSqr(de[j]);
              U2 += cm * PetscSqr(due[j]);
            }
          } else { /* lambda (div)^2 + 2 mu eps:eps */
            E2 = cm * lam1 * PetscSqr(de[0] + de[4] + de[8]);
            U2 = cm * lam1 * PetscSqr(due[0] + due[4] + due[8]);
            for (PetscInt i = 0; i < 3; i++)
              for (PetscInt j = 0; j < 3; j++) {
                E2 += 2 * cm * mu1 * PetscSqr(0.5 * (de[3 * i + j] + de[3 * j + i]));
                U2 += 2 * cm * mu1 * PetscSqr(0.5 * (due[3 * i + j] + due[3 * j + i]));
              }
          }
          s[0] += w * e2;
          s[1] += w * E2;
          s[2] += w * u2;
          s[3] += w * U2;
        }
  }
  PetscCall(EasVecRestoreArrayRead(x, &xa));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, s, 4, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)ebe)));
  err[0] = PetscSqrtReal(s[0]);
  err[1] = PetscSqrtReal(s[1]);
  if (nrm) {
    nrm[0] = PetscSqrtReal(s[2]);
    nrm[1] = PetscSqrtReal(s[3]);
  }
  PetscFunctionReturn(0);
}

/* ------------------------------------------------ manufactured solution */

/* u_k(x) = prod_d sin(A[k][d] x_d + B[k][d]): smooth, not zero on the
   boundary, each component different (poisson uses k = 0). */
static const PetscReal EAS_MMS_A[3][3] = {
    {2.0, 1.5, 1.0},
    {1.0, 2.0, 1.5},
    {1.5, 1.0, 2.0}};
static const PetscReal EAS_MMS_B[3][3] = {
    {0.5, 0.3, 0.7},
    {0.2, 0.9, 0.4},
    {1.1, 0.6, 0.1}};

/* Value, gradient and Hessian of component k at x. */
static void EasMmsComponent(PetscInt k, const PetscReal x[3], PetscReal *u, PetscReal du[3], PetscReal H[3][3])
{
  PetscReal s[3], c[3], a[3];

  for (PetscInt d = 0; d < 3; d++) {
    a[d] = EAS_MMS_A[k][d];
    s[d] = PetscSinReal(a[d] * x[d] + EAS_MMS_B[k][d]);
    c[d] = PetscCosReal(a[d] * x[d] + EAS_MMS_B[k][d]);
  }
  *u    = s[0] * s[1] * s[2];
  du[0] = a[0] * c[0] * s[1] * s[2];
  du[1] = a[1] * s[0] * c[1] * s[2];
  du[2] = a[2] * s[0] * s[1] * c[2];
  for (PetscInt d = 0; d < 3; d++)
    for (PetscInt e = 0; e < 3; e++) {
      if (d == e)
        H[d][e] = -a[d] * a[d] * *u;
      else {
        const PetscInt f = 3 - d - e;
        H[d][e]          = a[d] * a[e] * c[d] * c[e] * s[f];
      }
    }
}

static PetscErrorCode EasMmsSolution(const PetscReal x[3], PetscScalar u[], PetscScalar du[], void *ctx)
{
  EasEbe ebe = (EasEbe)ctx;

  PetscFunctionBegin;
  for (PetscInt k = 0; k < ebe->dof; k++) {
    PetscReal v, g[3], H[3][3];
    EasMmsComponent(k, x, &v, g, H);
    u[k] = v;
    if (du)
      for (PetscInt j = 0; j < 3; j++) du[3 * k + j] = g[j];
  }
  PetscFunctionReturn(0);
}

/* poisson: f = -div(c grad u) = -(grad c . grad u + c lap u);
   elasticity (lambda = c lambda_1, mu = c mu_1): f_i = -d_j sigma_ij =
   -[d_i lambda div u + lambda d_i div u + d_j mu (d_j u_i + d_i u_j) + mu (lap u_i + d_i div u)]. */
static PetscErrorCode EasMmsForce(const PetscReal x[3], PetscScalar f[], PetscScalar du[], void *ctx)
{
  EasEbe    ebe = (EasEbe)ctx;
  PetscReal cm, dc[3], v[3], g[3][3], H[3][3][3];

  PetscFunctionBegin;
  (void)du;
  EasFemMaterial_Private(ebe->material, x, &cm, dc);
  for (PetscInt k = 0; k < ebe->dof; k++) EasMmsComponent(k, x, &v[k], g[k], H[k]);
  if (ebe->dof == 1) {
    f[0] = -(dc[0] * g[0][0] + dc[1] * g[0][1] + dc[2] * g[0][2] + cm * (H[0][0][0] + H[0][1][1] + H[0][2][2]));
  } else {
    PetscReal lam1, mu1, div = g[0][0] + g[1][1] + g[2][2];
    EasFemLame_Private(&lam1, &mu1);
    for (PetscInt i = 0; i < 3; i++) {
      const PetscReal ddiv = H[0][i][0] + H[1][i][1] + H[2][i][2], lap = H[i][0][0] + H[i][1][1] + H[i][2][2];
      PetscReal       t = lam1 * (dc[i] * div + cm * ddiv) + mu1 * cm * (lap + ddiv);
      for (PetscInt j = 0; j < 3; j++) t += mu1 * dc[j] * (g[i][j] + g[j][i]);
      f[i] = -t;
    }
  }
  PetscFunctionReturn(0);
}

/*@C
  EasEbeGetManufacturedSolution - the manufactured solution of the built-in
  problem and its body force (ctx: the EasEbe).
  Errors: not a built-in mesh.
@*/
PetscErrorCode EasEbeGetManufacturedSolution(EasEbe ebe, EasEbeFieldFn *u, EasEbeFieldFn *f, void **ctx)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  PetscCheck(ebe->from_mesh, PetscObjectComm((PetscObject)ebe), PETSC_ERR_ARG_WRONGSTATE, "EasEbeGetManufacturedSolution: needs a built-in mesh (EasEbeSetFromMesh())");
  if (u) *u = EasMmsSolution;
  if (f) *f = EasMmsForce;
  if (ctx) *ctx = (void *)ebe;
  PetscFunctionReturn(0);
}
