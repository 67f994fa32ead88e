static const char help[] = "The built-in element matrices against an independent closed form (issue 15 item 4).\n"
                           "On a box element hx x hy x hz the integrals int d_i N_a d_j N_b of the tensor-product Lagrange basis are\n"
                           "products of exact 1D integrals (rational numbers, worked out by hand below: no quadrature).  Poisson:\n"
                           "K = sum_i G_ii; elasticity in the engineering (Voigt) form K_ab = B_a^T D B_b with the 6x6 isotropic\n"
                           "matrix D of E, nu (not the index form fem.c uses).  Q1 Laplace on a cube also against the textbook\n"
                           "values h (1/3, 0, -1/12, -1/12) for nodes 0, 1, 2, 3 coordinates apart.\n"
                           "  -problem poisson|elasticity -order 1|2 -nx -ny -nz (elements: h = 1/n per direction) -tol <rel>\n";

#include <eas.h>

/* 1D matrices on [0,h] of the Lagrange basis at 0,h (Q1) or 0,h/2,h (Q2):
   M_ab = int N_a N_b, S_ab = int N_a' N_b', C_ab = int N_a' N_b; entries
   as multiples of h, 1/h and 1. */
static const PetscReal M1[2][2] = {
    {2.0 / 6, 1.0 / 6},
    {1.0 / 6, 2.0 / 6}};
static const PetscReal S1[2][2] = {
    {1, -1},
    {-1, 1}};
static const PetscReal C1[2][2] = {
    {-0.5, -0.5},
    {0.5, 0.5}};
static const PetscReal M2[3][3] = {
    {4.0 / 30, 2.0 / 30, -1.0 / 30},
    {2.0 / 30, 16.0 / 30, 2.0 / 30},
    {-1.0 / 30, 2.0 / 30, 4.0 / 30}};
static const PetscReal S2[3][3] = {
    {7.0 / 3, -8.0 / 3, 1.0 / 3},
    {-8.0 / 3, 16.0 / 3, -8.0 / 3},
    {1.0 / 3, -8.0 / 3, 7.0 / 3}};
static const PetscReal C2[3][3] = {
    {-1.0 / 2, -2.0 / 3, 1.0 / 6},
    {2.0 / 3, 0, -2.0 / 3},
    {-1.0 / 6, 2.0 / 3, 1.0 / 2}};

/* G(d,e)_ab = int d_d N_a d_e N_b over the box: per direction s the factor
   is S (d = e = s), C_(a_s b_s) (s = d only), C_(b_s a_s) (s = e only), M. */
static PetscReal G(PetscInt p, const PetscReal h[3], PetscInt d, PetscInt e, PetscInt a, PetscInt b)
{
  const PetscInt q = p + 1, ia[3] = {a % q, (a / q) % q, a / (q * q)}, ib[3] = {b % q, (b / q) % q, b / (q * q)};
  PetscReal      v = 1;
  for (PetscInt s = 0; s < 3; s++) {
    const PetscInt  i = ia[s], j = ib[s];
    const PetscReal m = p == 1 ? M1[i][j] : M2[i][j], st = p == 1 ? S1[i][j] : S2[i][j], cij = p == 1 ? C1[i][j] : C2[i][j], cji = p == 1 ? C1[j][i] : C2[j][i];
    if (s == d && s == e)
      v *= st / h[s];
    else if (s == d)
      v *= cij;
    else if (s == e)
      v *= cji;
    else
      v *= m * h[s];
  }
  return v;
}

int main(int argc, char **argv)
{
  EasEbe       ebe;
  PetscInt     prob = 0, order = 1, n[3] = {2, 3, 4}, nn = 3, nen, dof, m, nodes[27];
  PetscReal    tol = 1e-13, h[3], diff = 0, amax = 0, cube = -1;
  PetscBool    set;
  PetscScalar *K, *R;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "FEM reference element test", NULL);
  PetscCall(PetscOptionsEList("-problem", "poisson or elasticity", NULL, EasEbeProblems, 2, EasEbeProblems[0], &prob, NULL));
  PetscCall(PetscOptionsInt("-order", "1 or 2", NULL, order, &order, NULL));
  PetscCall(PetscOptionsIntArray("-n", "elements per direction nx,ny,nz", NULL, n, &nn, &set));
  PetscCall(PetscOptionsReal("-tol", "relative tolerance", NULL, tol, &tol, NULL));
  PetscOptionsEnd();
  PetscCheck(!set || nn == 3, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-n expects nx,ny,nz");
  for (PetscInt d = 0; d < 3; d++) h[d] = 1.0 / n[d];

  PetscCall(EasEbeCreate(PETSC_COMM_WORLD, &ebe));
  PetscCall(EasEbeSetMeshBoundary(ebe, EAS_EBE_BC_NONE));
  PetscCall(EasEbeSetMeshMaterial(ebe, EAS_EBE_MATERIAL_CONSTANT));
  PetscCall(EasEbeSetFromMesh(ebe, (EasEbeProblem)prob, order, n[0], n[1], n[2]));
  PetscCall(EasEbeGetSizes(ebe, NULL, &nen, &dof, NULL, NULL));
  m = nen * dof;
  PetscCall(PetscMalloc2(m * m, &K, m * m, &R));
  PetscCall(EasEbeGetElement(ebe, 0, nodes, K));
  if (dof == 1) {
    for (PetscInt a = 0; a < nen; a++)
      for (PetscInt b = 0; b < nen; b++) R[a * m + b] = G(order, h, 0, 0, a, b) + G(order, h, 1, 1, a, b) + G(order, h, 2, 2, a, b);
  } else {
    /* strains (xx, yy, zz, yz, xz, xy) = B u; B_a row r, column i is d_dr N_a or 0 */
    const PetscReal E = 1, nu = EAS_EBE_POISSON_RATIO, f = E / ((1 + nu) * (1 - 2 * nu));
    const PetscInt  Bd[6][3] = {
         {0, -1, -1},
         {-1, 1, -1},
         {-1, -1, 2},
         {-1, 2, 1},
         {2, -1, 0},
         {1, 0, -1}}; /* derivative index or -1 */
    PetscReal D[6][6] = {{0}};
    for (PetscInt r = 0; r < 3; r++) {
      for (PetscInt s = 0; s < 3; s++) D[r][s] = f * (r == s ? 1 - nu : nu);
      D[r + 3][r + 3] = f * (1 - 2 * nu) / 2; /* = mu */
    }
    for (PetscInt a = 0; a < nen; a++)
      for (PetscInt b = 0; b < nen; b++)
        for (PetscInt i = 0; i < 3; i++)
          for (PetscInt j = 0; j < 3; j++) {
            PetscReal s = 0;
            for (PetscInt r = 0; r < 6; r++)
              for (PetscInt t = 0; t < 6; t++)
                if (Bd[r][i] >= 0 && Bd[t][j] >= 0 && D[r][t] != 0) s += D[r][t] * G(order, h, Bd[r][i], Bd[t][j], a, b);
            R[(3 * a + i) * m + 3 * b + j] = s;
          }
  }
  for (PetscInt i = 0; i < m * m; i++) {
    diff = PetscMax(diff, PetscAbsScalar(K[i] - R[i]));
    amax = PetscMax(amax, PetscAbsScalar(R[i]));
  }
  if (dof == 1 && order == 1 && n[0] == n[1] && n[1] == n[2]) { /* the textbook cube values */
    const PetscReal v[4] = {1.0 / 3, 0, -1.0 / 12, -1.0 / 12};
    cube                 = 0;
    for (PetscInt a = 0; a < 8; a++)
      for (PetscInt b = 0; b < 8; b++) {
        const PetscInt dist = (a % 2 != b % 2) + ((a / 2) % 2 != (b / 2) % 2) + (a / 4 != b / 4);
        cube                = PetscMax(cube, PetscAbsScalar(K[a * m + b] - h[0] * v[dist]) / (h[0] / 3));
      }
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s Q%" PetscInt_FMT " element %" PetscInt_FMT "x%" PetscInt_FMT " on a %g x %g x %g box: max |K - K_closed form| / max |K_closed form| = %.2e\n", EasEbeProblems[prob], order, m, m, (double)h[0], (double)h[1], (double)h[2], (double)(diff / amax)));
  if (cube >= 0) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Q1 Laplace on a cube of side h against h (1/3, 0, -1/12, -1/12): max relative difference %.2e\n", (double)cube));
  PetscCheck(diff <= tol * amax && cube <= tol, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "The element matrix differs from the closed form: %.3e (cube values %.3e) > %.1e", (double)(diff / amax), (double)cube, (double)tol);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "reference check passed\n"));
  PetscCall(PetscFree2(K, R));
  PetscCall(EasEbeDestroy(&ebe));
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    suffix: poisson_q1_cube
    backends: none
    args: -problem poisson -order 1 -n 2,2,2
    expect: Q1 Laplace on a cube
    expect: reference check passed
  test:
    suffix: poisson_q1
    backends: none
    args: -problem poisson -order 1
    expect: reference check passed
  test:
    suffix: poisson_q2
    backends: none
    args: -problem poisson -order 2
    expect: reference check passed
  test:
    suffix: elasticity_q1
    backends: none
    args: -problem elasticity -order 1
    expect: reference check passed
  test:
    suffix: elasticity_q2
    backends: none
    args: -problem elasticity -order 2
    expect: reference check passed
TEST*/
