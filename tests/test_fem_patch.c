static const char help[] = "Patch tests of the built-in elements on a distorted mesh (issue 15 item 2): a linear field (poisson) or\n"
                           "displacement (elasticity), imposed as Dirichlet data on the whole boundary, is reproduced at every node\n"
                           "to round-off; with -quadratic a quadratic field with its (constant) body force, which Q2 reproduces on\n"
                           "straight-edged hexahedra (the controls: Q1, or curved Q2, cannot, and must fail).  Constant material; solved with eas cg.  The check is a manufactured solution.\n"
                           "  -problem poisson|elasticity -order 1|2 -n <elements per direction> -distort <amp> -curved <amp>\n"
                           "  -quadratic -tol <relative nodal error bound> -mirror (an inverted mesh, refused)\n";

#include <eas.h>
#include "fem_distort.h"

/* u_k = c_k + L_kj x_j (+ Q_kij x_i x_j): a general linear field (strain and
   rotation) and a general quadratic one */
typedef struct {
  PetscInt  dof;
  PetscBool quadratic;
  PetscReal c[3], L[3][3], Q[3][3][3];
} Field;

static PetscErrorCode Exact(const PetscReal x[3], PetscScalar u[], PetscScalar du[], void *ctx)
{
  const Field *F = (const Field *)ctx;

  PetscFunctionBegin;
  for (PetscInt k = 0; k < F->dof; k++) {
    u[k] = F->c[k];
    for (PetscInt j = 0; j < 3; j++) {
      u[k] += F->L[k][j] * x[j];
      if (du) du[3 * k + j] = F->L[k][j];
    }
    if (F->quadratic)
      for (PetscInt i = 0; i < 3; i++)
        for (PetscInt j = 0; j < 3; j++) {
          u[k] += F->Q[k][i][j] * x[i] * x[j];
          if (du) {
            du[3 * k + i] += F->Q[k][i][j] * x[j];
            du[3 * k + j] += F->Q[k][i][j] * x[i];
          }
        }
  }
  PetscFunctionReturn(0);
}

/* constant body force of the quadratic field, material k = E = 1:
   poisson f = -lap u; elasticity f_i = -(lambda d_i div u + mu (lap u_i + d_i div u)),
   with d_i d_j u_k = Q_kij + Q_kji */
static PetscErrorCode Force(const PetscReal x[3], PetscScalar f[], PetscScalar du[], void *ctx)
{
  const Field    *F = (const Field *)ctx;
  PetscReal       H[3][3][3], lam, mu;
  const PetscReal nu = EAS_EBE_POISSON_RATIO;

  PetscFunctionBegin;
  (void)x;
  (void)du;
  lam = nu / ((1 + nu) * (1 - 2 * nu));
  mu  = 1.0 / (2 * (1 + nu));
  for (PetscInt k = 0; k < 3; k++)
    for (PetscInt i = 0; i < 3; i++)
      for (PetscInt j = 0; j < 3; j++) H[k][i][j] = F->quadratic ? F->Q[k][i][j] + F->Q[k][j][i] : 0;
  if (F->dof == 1)
    f[0] = -(H[0][0][0] + H[0][1][1] + H[0][2][2]);
  else
    for (PetscInt i = 0; i < 3; i++) {
      const PetscReal ddiv = H[0][i][0] + H[1][i][1] + H[2][i][2], lap = H[i][0][0] + H[i][1][1] + H[i][2][2];
      f[i] = -(lam * ddiv + mu * (lap + ddiv));
    }
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  EasEbe             ebe;
  EasKsp             ksp;
  EasVec             b, x, xe;
  PetscInt           prob = 0, order = 1, n = 3, its, nnodes, dof;
  PetscReal          tol = 1e-10, err[2], nrm[2], dmax = 0, umax = 0;
  PetscBool          quadratic = PETSC_FALSE;
  KSPConvergedReason reason;
  FemDistort         D;
  Field              F;
  PetscMPIInt        size;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  D.amp    = 0.2;
  D.curved = 0;
  D.mirror = PETSC_FALSE;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "FEM patch test", NULL);
  PetscCall(PetscOptionsEList("-problem", "poisson or elasticity", NULL, EasEbeProblems, 2, EasEbeProblems[0], &prob, NULL));
  PetscCall(PetscOptionsInt("-order", "1 or 2", NULL, order, &order, NULL));
  PetscCall(PetscOptionsInt("-n", "elements per direction", NULL, n, &n, NULL));
  PetscCall(PetscOptionsReal("-distort", "interior vertices moved by up to this fraction of h", NULL, D.amp, &D.amp, NULL));
  PetscCall(PetscOptionsReal("-curved", "interior Q2 mid-nodes moved by up to this fraction of h", NULL, D.curved, &D.curved, NULL));
  PetscCall(PetscOptionsBool("-mirror", "map x to 1 - x (inverts every element: must be refused)", NULL, D.mirror, &D.mirror, NULL));
  PetscCall(PetscOptionsBool("-quadratic", "a quadratic field with its body force", NULL, quadratic, &quadratic, NULL));
  PetscCall(PetscOptionsReal("-tol", "relative nodal error bound", NULL, tol, &tol, NULL));
  PetscOptionsEnd();
  D.order = order;
  D.n[0] = D.n[1] = n;
  D.n[2]          = PetscMax(n, size);
  F.dof           = prob == 0 ? 1 : 3;
  F.quadratic     = quadratic;
  for (PetscInt k = 0; k < 3; k++) { /* fixed, generic coefficients */
    F.c[k] = 0.3 + 0.2 * k;
    for (PetscInt j = 0; j < 3; j++) {
      F.L[k][j] = 0.1 * (k + 1) - 0.25 * j + (k == j ? 0.5 : 0.0);
      for (PetscInt i = 0; i < 3; i++) F.Q[k][i][j] = 0.05 * ((k + 2 * i + 3 * j) % 5) - 0.1;
    }
  }

  PetscCall(EasEbeCreate(PETSC_COMM_WORLD, &ebe));
  PetscCall(EasEbeSetMeshBoundary(ebe, EAS_EBE_BC_DIRICHLET));
  PetscCall(EasEbeSetMeshMaterial(ebe, EAS_EBE_MATERIAL_CONSTANT));
  PetscCall(EasEbeSetMeshMap(ebe, FemDistortMap, &D));
  PetscCall(EasEbeSetFromMesh(ebe, (EasEbeProblem)prob, order, D.n[0], D.n[1], D.n[2]));
  PetscCall(EasEbeSetFromOptions(ebe));
  PetscCall(EasEbeSetUp(ebe));
  PetscCall(EasEbeGetSizes(ebe, NULL, NULL, &dof, &nnodes, NULL));
  PetscCall(EasEbeCreateVecs(ebe, &b, &x));
  PetscCall(EasEbeCreateVecs(ebe, &xe, NULL));
  PetscCall(EasEbeComputeRHS(ebe, quadratic ? Force : NULL, Exact, &F, b));
  PetscCall(EasKspCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(EasKspSetType(ksp, EAS_CG));
  PetscCall(EasKspSetOperatorEbe(ksp, ebe));
  PetscCall(EasKspSetTolerances(ksp, 1e-14, 0, PETSC_DEFAULT, 5000));
  PetscCall(EasKspSetFromOptions(ksp));
  PetscCall(EasKspSolve(ksp, b, x));
  PetscCall(EasKspGetConvergedReason(ksp, &reason));
  PetscCall(EasKspGetIterationNumber(ksp, &its));
  /* nodal error against the exact field, every local node */
  PetscCall(EasEbeInterpolate(ebe, Exact, &F, xe));
  {
    const PetscScalar *xa, *ea;
    PetscReal          buf[2];
    PetscCall(EasVecGetArrayRead(x, &xa));
    PetscCall(EasVecGetArrayRead(xe, &ea));
    for (PetscInt i = 0; i < nnodes * dof; i++) {
      dmax = PetscMax(dmax, PetscAbsScalar(xa[i] - ea[i]));
      umax = PetscMax(umax, PetscAbsScalar(ea[i]));
    }
    PetscCall(EasVecRestoreArrayRead(x, &xa));
    PetscCall(EasVecRestoreArrayRead(xe, &ea));
    buf[0] = dmax;
    buf[1] = umax;
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, buf, 2, MPIU_REAL, MPIU_MAX, PETSC_COMM_WORLD));
    dmax = buf[0];
    umax = buf[1];
  }
  PetscCall(EasEbeComputeError(ebe, x, Exact, &F, err, nrm));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s Q%" PetscInt_FMT " patch test, %s field, distorted mesh (%g h%s): cg %s in %" PetscInt_FMT " its; max nodal error %.2e relative, L2 %.2e, energy %.2e relative\n", EasEbeProblems[prob], order, quadratic ? "quadratic" : "linear", (double)D.amp,
                        D.curved > 0 ? ", curved Q2" : "", KSPConvergedReasons[reason], its, (double)(dmax / umax), (double)(err[0] / nrm[0]), (double)(err[1] / nrm[1])));
  PetscCheck(dmax <= tol * umax, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "Patch test failed: nodal error %.3e relative > %.1e", (double)(dmax / umax), (double)tol);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "patch test passed\n"));
  PetscCall(EasVecDestroy(&b));
  PetscCall(EasVecDestroy(&x));
  PetscCall(EasVecDestroy(&xe));
  PetscCall(EasKspDestroy(&ksp));
  PetscCall(EasEbeDestroy(&ebe));
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    suffix: poisson_q1
    nsize: 1 2
    args: -problem poisson -order 1 -n 4
    expect: patch test passed
  test:
    suffix: poisson_q2
    nsize: 1 2
    args: -problem poisson -order 2 -n 3 -curved 0.1
    expect: patch test passed
  test:
    suffix: elasticity_q1
    nsize: 1 2
    args: -problem elasticity -order 1 -n 4 -pc_type pbjacobi
    expect: patch test passed
  test:
    suffix: elasticity_q2
    nsize: 1 2
    args: -problem elasticity -order 2 -n 3 -curved 0.1 -pc_type pbjacobi
    expect: linear field
    expect: patch test passed
  test:
    suffix: elasticity_q2_quadratic
    nsize: 1 2
    args: -problem elasticity -order 2 -n 3 -quadratic -pc_type pbjacobi
    expect: quadratic field
    expect: patch test passed
  test:
    suffix: poisson_q2_quadratic
    args: -problem poisson -order 2 -n 3 -quadratic
    expect: patch test passed
  test:
    suffix: control_q1_quadratic
    backends: /cpu/serial
    args: -problem poisson -order 1 -n 3 -quadratic
    expect_error: Patch test failed: nodal error
  test:
    suffix: control_q2_curved_quadratic
    backends: /cpu/serial
    args: -problem elasticity -order 2 -n 2 -quadratic -curved 0.1 -pc_type pbjacobi
    expect_error: Patch test failed: nodal error
  test:
    suffix: inverted
    nsize: 1 2
    backends: /cpu/serial
    args: -problem poisson -order 1 -n 2 -mirror
    expect_error: Inverted or degenerate element: local element 0 has Jacobian determinant -
TEST*/
