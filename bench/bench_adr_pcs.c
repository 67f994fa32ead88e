static const char help[] = "bench_adr_pcs: which inner preconditioner keeps the BiCGStab iterations flat as the ADR grid is refined\n"
                           "(issue 21 item 3, docs/adr.md \"What flattens the growth\").  For each n of -ns, the diurnal\n"
                           "problem's implicit Euler Jacobian at its initial state and step -adr_dt (EasAdrComputeJacobian,\n"
                           "one rank), reordered with the axes -order fastest first (xyz: eas's own order; zxy: z-lines\n"
                           "innermost, xz-planes contiguous), solved by PETSc's KSPBCGS with right preconditioning to\n"
                           "-rtol on the unpreconditioned residual from a random right-hand side, with the PETSc\n"
                           "preconditioner of the options (-pc_type, -pc_factor_levels, -pc_bjacobi_blocks, ...; the\n"
                           "peer here is PETSc itself).  One line per n:\n"
                           "BENCH name=adr_pcs n=<n> dt=<s> order=<axes> pc=<type> levels=<k> its=<iterations> reason=<KSPConvergedReason> setup_ms= solve_ms=\n"
                           "then the growth its(n_last)/its(n_first).  -pc_type bjacobi -pc_bjacobi_blocks plane (xz-planes with -order\n"
                           "zxy or xzy) or line (lines of the fastest axis) sets the blocks from n.\n"
                           "  -ns <16,32,64> -order <xyz> -rtol <1e-8> -maxit <5000> -adr_dt <s> or -cfl <c: c times the default step h_x/|V|>\n";

#include <eas.h>
#include <petscksp.h>
#include "../tests/axes_perm.h" /* AxesPermutation */

int main(int argc, char **argv)
{
  PetscInt    ns[8] = {16, 32, 64}, nn = 3, maxit = 5000, first = -1, last = -1;
  PetscReal   rtol = 1e-8, cfl = 0;
  char        ord[8] = "xyz", blocks[16] = "";
  PetscMPIInt size;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCheck(size == 1, PETSC_COMM_WORLD, PETSC_ERR_SUP, "bench_adr_pcs runs on one rank (the preconditioners are compared on one rank's Jacobian)");
  {
    PetscInt  m = 8;
    PetscBool flg;
    PetscCall(PetscOptionsGetIntArray(NULL, NULL, "-ns", ns, &m, &flg));
    if (flg) nn = m;
  }
  PetscCall(PetscOptionsGetString(NULL, NULL, "-order", ord, sizeof(ord), NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-rtol", &rtol, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-cfl", &cfl, NULL));
  PetscCheck(cfl >= 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-cfl %g is invalid: expected a Courant number > 0 (0: the step of -adr_dt)", (double)cfl);
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-maxit", &maxit, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-pc_bjacobi_blocks", blocks, sizeof(blocks), NULL));
  for (PetscInt i = 0; i < nn; i++) {
    const PetscInt     n = ns[i];
    EasAdr             adr;
    Mat                J, Jp;
    Vec                X, b, y;
    KSP                ksp;
    PC                 pc;
    IS                 is;
    PetscRandom        rnd;
    PetscReal          t0, dt;
    PetscInt           its, levels = 0;
    PetscLogDouble     s0, s1, s2;
    PCType             type;
    KSPConvergedReason reason;
    char               nstr[32];

    PetscCheck(n >= 4, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-ns: %" PetscInt_FMT " is invalid: expected grid sizes >= 4", n);
    PetscCall(PetscSNPrintf(nstr, sizeof(nstr), "%" PetscInt_FMT, n));
    PetscCall(PetscOptionsSetValue(NULL, "-adr_n", nstr));
    if (!strcmp(blocks, "plane") || !strcmp(blocks, "line")) { /* blocks of xz-planes or lines of the fastest axis, from n */
      PetscCall(PetscSNPrintf(nstr, sizeof(nstr), "%" PetscInt_FMT, !strcmp(blocks, "plane") ? n : n * n));
      PetscCall(PetscOptionsSetValue(NULL, "-pc_bjacobi_blocks", nstr));
    }
    PetscCall(EasAdrCreate(PETSC_COMM_WORLD, &adr));
    PetscCall(EasAdrSetFromOptions(adr));
    PetscCall(EasAdrSetUp(adr));
    PetscCall(EasAdrCreateGlobalVec(adr, &X));
    PetscCall(EasAdrGetSolution(adr, X));
    PetscCall(EasAdrGetTime(adr, &t0));
    PetscCall(EasAdrGetTimeStep(adr, &dt));
    if (cfl > 0) dt *= cfl; /* the default step is h_x/|V| (Courant number 1 in x): a fixed Courant number as n grows */
    PetscCall(EasAdrCreateJacobianMat(adr, &J));
    PetscCall(EasAdrComputeJacobian(adr, t0 + dt, dt, X, J)); /* I - dt dF/dX at the initial state, as eas's first Newton iteration */
    PetscCall(AxesPermutation(n, ord, &is));
    PetscCall(MatCreateSubMatrix(J, is, is, MAT_INITIAL_MATRIX, &Jp));
    PetscCall(MatCreateVecs(Jp, &b, &y));
    PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
    PetscCall(PetscRandomSetSeed(rnd, 21));
    PetscCall(PetscRandomSeed(rnd));
    PetscCall(VecSetRandom(b, rnd));
    PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
    PetscCall(KSPSetOperators(ksp, Jp, Jp));
    PetscCall(KSPSetType(ksp, KSPBCGS));
    PetscCall(KSPSetPCSide(ksp, PC_RIGHT));
    PetscCall(KSPSetNormType(ksp, KSP_NORM_UNPRECONDITIONED));
    PetscCall(KSPSetTolerances(ksp, rtol, 1e-50, 1e12, maxit));
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PCSetType(pc, PCILU));
    PetscCall(KSPSetFromOptions(ksp));
    PetscCall(PetscTime(&s0));
    PetscCall(KSPSetUp(ksp));
    PetscCall(PetscTime(&s1));
    PetscCall(KSPSolve(ksp, b, y));
    PetscCall(PetscTime(&s2));
    PetscCall(KSPGetIterationNumber(ksp, &its));
    PetscCall(KSPGetConvergedReason(ksp, &reason));
    PetscCall(PCGetType(pc, &type));
    PetscCall(PetscOptionsGetInt(NULL, NULL, "-pc_factor_levels", &levels, NULL));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "BENCH name=adr_pcs n=%" PetscInt_FMT " dt=%g order=%s pc=%s levels=%" PetscInt_FMT " its=%" PetscInt_FMT " reason=%s setup_ms=%.3f solve_ms=%.3f\n", n, (double)dt, ord, type, levels, its, KSPConvergedReasons[reason], 1e3 * (s1 - s0), 1e3 * (s2 - s1)));
    if (reason > 0) {
      if (first < 0) first = its;
      last = its;
    }
    PetscCall(KSPDestroy(&ksp));
    PetscCall(PetscRandomDestroy(&rnd));
    PetscCall(VecDestroy(&b));
    PetscCall(VecDestroy(&y));
    PetscCall(ISDestroy(&is));
    PetscCall(MatDestroy(&Jp));
    PetscCall(MatDestroy(&J));
    PetscCall(VecDestroy(&X));
    PetscCall(EasAdrDestroy(&adr));
  }
  if (first > 0) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "growth its(n=%" PetscInt_FMT ")/its(n=%" PetscInt_FMT ") = %.2f\n", ns[nn - 1], ns[0], (double)last / first));
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    suffix: ilu_orders
    backends: none
    # a smoke run of the study (its figures: docs/adr.md, at 16, 32 and 64)
    args: -ns 8 -adr_dt 3600 -order zxy -pc_type ilu -pc_factor_levels 2
    expect: BENCH name=adr_pcs n=8 dt=3600\.? order=zxy pc=ilu levels=2 its=[0-9]+ reason=CONVERGED_RTOL
  test:
    suffix: plane_blocks
    backends: none
    args: -ns 8,12 -adr_dt 3600 -order zxy -pc_type bjacobi -pc_bjacobi_blocks plane -sub_pc_type lu
    expect_count: 2 BENCH name=adr_pcs n=(8|12) dt=3600\.? order=zxy pc=bjacobi levels=0 its=[0-9]+ reason=CONVERGED_RTOL
    expect: growth its\(n=12\)/its\(n=8\) = [0-9.]+
  test:
    suffix: bad_order
    backends: none
    args: -ns 8 -order xxz
    expect_error: axis order xxz is invalid: expected a permutation of xyz
TEST*/
