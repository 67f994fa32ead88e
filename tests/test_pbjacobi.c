static const char help[] = "Point-block Jacobi on element-by-element operators with any dof per node (issue 10 C3,\n"
                           "issue 14): 8-node elements with dof = 10 (80x80 element matrices, 10x10 point blocks)\n"
                           "solved by CG with -pc_type pbjacobi, checked against PETSc KSPCG on the assembled matrix\n"
                           "(peer code); and a numerically singular point block (pivot at round-off level relative to\n"
                           "the block) must be refused with an error naming the node.\n"
                           "  -case blocks|singular\n";

#include <eas.h>

/* deterministic pseudo-random in [-1, 1) */
static PetscReal Rand(unsigned long long *s)
{
  *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
  return (PetscReal)((*s >> 11) * (1.0 / 9007199254740992.0)) * 2.0 - 1.0;
}

static PetscErrorCode CaseBlocks(EasBackend be)
{
  const PetscInt nen = 8, dof = 10, m = nen * dof, nel = 2, nnodes = 12;
  /* two hexahedra sharing the face of nodes 4..7 */
  const PetscInt     conn[16] = {0, 1, 2, 3, 4, 5, 6, 7, 4, 5, 6, 7, 8, 9, 10, 11};
  PetscScalar       *ael, *G;
  unsigned long long seed = 42;
  EasEbe             ebe;
  EasKsp             ksp;
  EasVec             x, b;
  PetscScalar       *ba;
  const PetscScalar *xa;
  KSPConvergedReason reason;
  PetscInt           its, pits;
  Mat                A;
  Vec                pb, px;
  KSP                pksp;
  PC                 pc;
  PetscReal          err = 0, nrm = 0;

  PetscFunctionBegin;
  /* A_e = G^T G + I: symmetric positive definite, fully coupled within an element */
  PetscCall(PetscMalloc2(nel * m * m, &ael, m * m, &G));
  for (PetscInt e = 0; e < nel; e++) {
    for (PetscInt i = 0; i < m * m; i++) G[i] = Rand(&seed);
    for (PetscInt i = 0; i < m; i++)
      for (PetscInt j = 0; j < m; j++) {
        PetscScalar sum = (i == j) ? 1.0 : 0.0;
        for (PetscInt k = 0; k < m; k++) sum += G[k * m + i] * G[k * m + j] / m;
        ael[(size_t)e * m * m + i * m + j] = sum;
      }
  }
  PetscCall(EasEbeCreate(PETSC_COMM_SELF, &ebe));
  PetscCall(EasEbeSetBackend(ebe, be));
  PetscCall(EasEbeSetElements(ebe, nel, nen, dof, nnodes, conn, ael));
  PetscCall(EasEbeCreateVecs(ebe, &x, &b));
  PetscCall(EasVecGetArrayWrite(b, &ba));
  for (PetscInt i = 0; i < nnodes * dof; i++) ba[i] = 1.0 + 0.5 * Rand(&seed);
  PetscCall(EasVecRestoreArrayWrite(b, &ba));
  PetscCall(EasKspCreate(PETSC_COMM_SELF, &ksp));
  PetscCall(EasKspSetType(ksp, EAS_CG));
  PetscCall(EasKspSetOperatorEbe(ksp, ebe));
  PetscCall(EasKspSetPCType(ksp, EAS_PCPBJACOBI));
  PetscCall(EasKspSetTolerances(ksp, 1e-12, 1e-50, PETSC_DEFAULT, 1000));
  PetscCall(EasKspSetFromOptions(ksp));
  PetscCall(EasKspSolve(ksp, b, x));
  PetscCall(EasKspGetConvergedReason(ksp, &reason));
  PetscCall(EasKspGetIterationNumber(ksp, &its));
  PetscCheck(reason > 0, PETSC_COMM_SELF, PETSC_ERR_NOT_CONVERGED, "eas CG + pbjacobi (dof 10) did not converge: %s", KSPConvergedReasons[reason]);
  /* the peer: PETSc KSPCG + PCPBJACOBI on the assembled matrix */
  PetscCall(EasEbeAssemble(ebe, &A));
  PetscCall(MatSetBlockSize(A, dof));
  PetscCall(MatCreateVecs(A, &px, &pb));
  PetscCall(EasEbeVecToPetsc(ebe, b, pb));
  PetscCall(KSPCreate(PETSC_COMM_SELF, &pksp));
  PetscCall(KSPSetOperators(pksp, A, A));
  PetscCall(KSPSetType(pksp, KSPCG));
  PetscCall(KSPGetPC(pksp, &pc));
  PetscCall(PCSetType(pc, PCPBJACOBI));
  PetscCall(KSPSetTolerances(pksp, 1e-12, 1e-50, PETSC_DEFAULT, 1000));
  PetscCall(KSPSolve(pksp, pb, px));
  PetscCall(KSPGetIterationNumber(pksp, &pits));
  PetscCall(EasVecGetArrayRead(x, &xa));
  {
    const PetscScalar *pa;
    PetscCall(VecGetArrayRead(px, &pa));
    for (PetscInt i = 0; i < nnodes * dof; i++) {
      err = PetscMax(err, PetscAbsScalar(xa[i] - pa[i]));
      nrm = PetscMax(nrm, PetscAbsScalar(pa[i]));
    }
    PetscCall(VecRestoreArrayRead(px, &pa));
  }
  PetscCall(EasVecRestoreArrayRead(x, &xa));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "dof 10, 80x80 element matrices: eas CG + pbjacobi %s in %" PetscInt_FMT " its, PETSc KSPCG + PCPBJACOBI %" PetscInt_FMT " its, max |x - x_petsc| / max |x_petsc| = %.2e\n", KSPConvergedReasons[reason], its, pits, (double)(err / nrm)));
  PetscCheck(err <= 1e-9 * nrm, PETSC_COMM_SELF, PETSC_ERR_PLIB, "eas and PETSc differ by %g (relative)", (double)(err / nrm));
  PetscCall(KSPDestroy(&pksp));
  PetscCall(VecDestroy(&px));
  PetscCall(VecDestroy(&pb));
  PetscCall(MatDestroy(&A));
  PetscCall(EasKspDestroy(&ksp));
  PetscCall(EasVecDestroy(&x));
  PetscCall(EasVecDestroy(&b));
  PetscCall(EasEbeDestroy(&ebe));
  PetscCall(PetscFree2(ael, G));
  PetscFunctionReturn(0);
}

/* one element, two nodes, dof 2: point blocks [[1, 1], [1, 1 + 1e-15]], singular to round-off */
static PetscErrorCode CaseSingular(EasBackend be)
{
  const PetscInt    conn[2] = {0, 1};
  const PetscScalar d = 1.0 + 1e-15, ael[16] = {1, 1, 0, 0, 1, d, 0, 0, 0, 0, 1, 1, 0, 0, 1, d};
  EasEbe            ebe;
  EasKsp            ksp;
  EasVec            x, b;

  PetscFunctionBegin;
  PetscCall(EasEbeCreate(PETSC_COMM_SELF, &ebe));
  PetscCall(EasEbeSetBackend(ebe, be));
  PetscCall(EasEbeSetElements(ebe, 1, 2, 2, 2, conn, ael));
  PetscCall(EasEbeCreateVecs(ebe, &x, &b));
  PetscCall(EasVecSet(b, 1.0));
  PetscCall(EasKspCreate(PETSC_COMM_SELF, &ksp));
  PetscCall(EasKspSetType(ksp, EAS_CG));
  PetscCall(EasKspSetOperatorEbe(ksp, ebe));
  PetscCall(EasKspSetPCType(ksp, EAS_PCPBJACOBI));
  PetscCall(EasKspSolve(ksp, b, x)); /* must fail at setup */
  PetscCall(EasKspDestroy(&ksp));
  PetscCall(EasVecDestroy(&x));
  PetscCall(EasVecDestroy(&b));
  PetscCall(EasEbeDestroy(&ebe));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  EasBackend        be;
  const char *const cases[] = {"blocks", "singular"};
  PetscInt          cs      = 0;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "pbjacobi test", "test");
  PetscCall(PetscOptionsEList("-case", "case", NULL, cases, 2, cases[0], &cs, NULL));
  PetscOptionsEnd();
  PetscCall(EasBackendCreateFromOptions(PETSC_COMM_SELF, NULL, &be));
  if (cs == 0)
    PetscCall(CaseBlocks(be));
  else
    PetscCall(CaseSingular(be));
  PetscCall(EasBackendDestroy(&be));
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    suffix: dof10
    args: -case blocks
    expect: dof 10, 80x80 element matrices: eas CG \+ pbjacobi CONVERGED_RTOL
  test:
    suffix: singular
    args: -case singular
    expect_error: Singular 2x2 diagonal block at node 0 \(pivot
TEST*/
