static const char help[] = "eas ADR multisplitting-Newton (sync and async) against PETSc SNES newtonls + KSPBCGS on the\n"
                           "same discretized nonlinear system of every implicit Euler step (EasAdrComputeFunction /\n"
                           "EasAdrComputeJacobian, the whole coupled Jacobian in MPIAIJ).  After the steps, the two\n"
                           "solutions must agree in the species-scaled norm max_s ||x_s - y_s|| / ||y_s||.\n"
                           "  -tol <1e-6>  -oracle_snes_* -oracle_ksp_* options for the oracle\n";

#include <eas.h>
#include <petscsnes.h>

#include "adr_snes_peer.h"

int main(int argc, char **argv)
{
  EasAdr                adr;
  EasAdrConvergedReason reason;
  EasAdrStats           st;
  AdrPeerCtx            c;
  SNES                  snes;
  KSP                   ksp;
  PC                    pc;
  Mat                   J;
  Vec                   X, Xe, D;
  PetscReal             t0, tend, dt, tol = 1e-6, nd[2], nr[2], rel = 0;
  PetscInt              steps, snes_its = 0, lin_its = 0;
  PetscMPIInt           size;
  const char           *mode;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-tol", &tol, NULL));
  PetscCall(EasAdrCreate(PETSC_COMM_WORLD, &adr));
  PetscCall(EasAdrSetNewtonTolerances(adr, 1e-10, PETSC_DEFAULT));
  PetscCall(EasAdrSetMaxSteps(adr, 3));
  PetscCall(EasAdrSetFromOptions(adr));
  PetscCall(EasAdrSetUp(adr));
  PetscCall(EasAdrCreateGlobalVec(adr, &X));
  PetscCall(VecDuplicate(X, &Xe));
  PetscCall(VecDuplicate(X, &D));
  PetscCall(VecDuplicate(X, &c.Xold));
  PetscCall(EasAdrGetSolution(adr, X)); /* initial condition */
  PetscCall(EasAdrGetTime(adr, &t0));
  PetscCall(EasAdrGetTimeStep(adr, &dt));

  /* eas */
  PetscCall(EasAdrSolve(adr, PETSC_DEFAULT));
  PetscCall(EasAdrGetConvergedReason(adr, &reason));
  PetscCheck(reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "eas ADR did not converge: %s", EasAdrConvergedReasonName(reason));
  PetscCall(EasAdrGetStats(adr, &st));
  PetscCall(EasAdrGetTime(adr, &tend));
  PetscCall(EasAdrGetSolution(adr, Xe));
  mode = reason == EAS_ADR_CONVERGED_ASYNC ? "async" : "sync";

  /* PETSc SNES newtonls + KSPBCGS on the same steps */
  c.adr  = adr;
  c.rtol = 1e-12; /* tighter than eas: the oracle answer to compare against */
  c.dt   = dt;
  PetscCall(EasAdrCreateJacobianMat(adr, &J));
  PetscCall(SNESCreate(PETSC_COMM_WORLD, &snes));
  PetscCall(SNESSetOptionsPrefix(snes, "oracle_"));
  PetscCall(SNESSetType(snes, SNESNEWTONLS));
  PetscCall(SNESSetFunction(snes, NULL, AdrPeerFunction, &c));
  PetscCall(SNESSetJacobian(snes, J, J, AdrPeerJacobian, &c));
  PetscCall(SNESSetConvergenceTest(snes, AdrPeerConverged, &c, NULL));
  PetscCall(SNESSetTolerances(snes, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT, 50, PETSC_DEFAULT));
  {
    SNESLineSearch ls; /* concentrations reach 1e12: no cap on the step length */
    PetscCall(SNESGetLineSearch(snes, &ls));
    PetscCall(SNESLineSearchSetTolerances(ls, PETSC_DEFAULT, 1e300, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT));
  }
  PetscCall(SNESGetKSP(snes, &ksp));
  PetscCall(KSPSetType(ksp, KSPBCGS));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCJACOBI));
  PetscCall(KSPSetTolerances(ksp, 1e-12, 1e-300, PETSC_DEFAULT, 5000));
  PetscCall(SNESSetFromOptions(snes));
  steps = (PetscInt)PetscCeilReal((tend - t0) / dt - 1e-9);
  for (PetscInt k = 0; k < steps; k++) {
    SNESConvergedReason sr;
    PetscInt            its, lits;
    c.t  = PetscMin(t0 + (k + 1) * dt, tend);
    c.dt = c.t - (t0 + k * dt);
    PetscCall(VecCopy(X, c.Xold));
    PetscCall(SNESSolve(snes, NULL, X));
    PetscCall(SNESGetConvergedReason(snes, &sr));
    PetscCheck(sr > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "the PETSc oracle did not converge at step %" PetscInt_FMT ": %s", k, SNESConvergedReasons[sr]);
    PetscCall(SNESGetIterationNumber(snes, &its));
    PetscCall(SNESGetLinearSolveIterations(snes, &lits));
    snes_its += its;
    lin_its += lits;
  }

  /* species-scaled relative difference */
  PetscCall(VecWAXPY(D, -1.0, X, Xe));
  PetscCall(EasAdrSpeciesNorms(adr, D, nd));
  PetscCall(EasAdrSpeciesNorms(adr, X, nr));
  for (PetscInt s = 0; s < 2; s++) rel = PetscMax(rel, nd[s] / nr[s]);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%" PetscInt_FMT " steps to t = %g on %d ranks, mode %s: eas outer %" PetscInt_FMT " (max rank) inner %" PetscInt_FMT "; PETSc SNES %" PetscInt_FMT " Newton, %" PetscInt_FMT " BCGS iterations\n", steps, (double)tend, size, mode, st.outer_its_max, st.inner_its, snes_its, lin_its));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "species-scaled relative difference max_s ||x_s - y_s||/||y_s|| = %.3e (tolerance %g)\n", (double)rel, (double)tol));
  PetscCheck(rel <= tol, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "eas ADR and PETSc SNES differ by %g > %g", (double)rel, (double)tol);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "eas ADR matches PETSc SNES\n"));

  PetscCall(SNESDestroy(&snes));
  PetscCall(MatDestroy(&J));
  PetscCall(VecDestroy(&X));
  PetscCall(VecDestroy(&Xe));
  PetscCall(VecDestroy(&D));
  PetscCall(VecDestroy(&c.Xold));
  PetscCall(EasAdrDestroy(&adr));
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    suffix: diurnal
    nsize: 1 2 4
    args: -adr_n 10 -adr_steps 3
    expect: eas ADR matches PETSc SNES
  test:
    suffix: diurnal_async
    nsize: 2 4
    backends: /cpu/openmp
    args: -adr_n 10 -adr_steps 3 -eas_mode async
    expect: mode async
    expect: eas ADR matches PETSc SNES
  test:
    suffix: transport
    nsize: 1 2 4
    backends: /cpu/openmp
    args: -adr_problem transport -adr_n 10 -adr_steps 3
    expect: eas ADR matches PETSc SNES
  test:
    suffix: transport_async
    nsize: 2 4
    backends: /cpu/serial
    args: -adr_problem transport -adr_n 10 -adr_steps 3 -eas_mode async -adr_advection central
    expect: mode async
    expect: eas ADR matches PETSc SNES
  test:
    suffix: diurnal_cusparse
    nsize: 1 2
    backends: /gpu/cuda
    requires: cuda-device
    args: -adr_n 10 -adr_steps 3 -eas_cuda_spmv cusparse
    expect: eas ADR matches PETSc SNES
  test:
    suffix: diurnal_async_gpu
    nsize: 2
    backends: /gpu/cuda
    requires: cuda-device
    args: -adr_n 10 -adr_steps 3 -eas_mode async
    expect: mode async
    expect: eas ADR matches PETSc SNES
TEST*/
