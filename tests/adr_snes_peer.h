/*
  PETSc SNES as the peer of the eas ADR solver on one implicit Euler step of
  the same discretized system (EasAdrComputeFunction, EasAdrComputeJacobian:
  the whole coupled Jacobian in MPIAIJ), with eas's outer convergence test
  so that the two stop at the same place.  Used by test_adr_oracle,
  test_adr_ew and bench_adr (one definition, so the test and the benchmark
  compare against the same peer).
*/
#pragma once

#include <eas.h>
#include <petscsnes.h>

typedef struct {
  EasAdr    adr;
  PetscReal t, dt; /* the step's end time and size */
  PetscReal rtol;  /* the outer test: max_s ||dx_s|| / ||x_s|| <= rtol */
  Vec       Xold;  /* the state at the step's start */
} AdrPeerCtx;

/* F(x) = x_old - x + dt f(x, t) (Vialle et al. eq. 1.43), eas's residual. */
static PetscErrorCode AdrPeerFunction(SNES snes, Vec X, Vec F, void *ptr)
{
  AdrPeerCtx *c = (AdrPeerCtx *)ptr;

  PetscFunctionBegin;
  (void)snes;
  PetscCall(EasAdrComputeFunction(c->adr, c->t, c->dt, c->Xold, X, F));
  PetscFunctionReturn(0);
}

/* F'(x), assembled into P. */
static PetscErrorCode AdrPeerJacobian(SNES snes, Vec X, Mat J, Mat P, void *ptr)
{
  AdrPeerCtx *c = (AdrPeerCtx *)ptr;

  PetscFunctionBegin;
  (void)snes;
  (void)J;
  PetscCall(EasAdrComputeJacobian(c->adr, c->t, c->dt, X, P));
  PetscFunctionReturn(0);
}

/* eas's outer test, max_s ||dx_s|| / ||x_s|| <= rtol (the species' scales
   differ by 1e6, so one norm over both would be the larger species'); the
   SNES iteration limit as DIVERGED_MAX_IT. */
static PetscErrorCode AdrPeerConverged(SNES snes, PetscInt it, PetscReal xnorm, PetscReal snorm, PetscReal fnorm, SNESConvergedReason *reason, void *ptr)
{
  AdrPeerCtx *c = (AdrPeerCtx *)ptr;
  Vec         X, Y;
  PetscReal   nx[2], ny[2], rel = 0;
  PetscInt    maxit;

  PetscFunctionBegin;
  (void)xnorm;
  (void)snorm;
  *reason = PetscIsInfOrNanReal(fnorm) ? SNES_DIVERGED_FNORM_NAN : SNES_CONVERGED_ITERATING;
  if (it == 0 || *reason) PetscFunctionReturn(0);
  PetscCall(SNESGetSolution(snes, &X));
  PetscCall(SNESGetSolutionUpdate(snes, &Y));
  PetscCall(EasAdrSpeciesNorms(c->adr, X, nx));
  PetscCall(EasAdrSpeciesNorms(c->adr, Y, ny));
  for (PetscInt s = 0; s < 2; s++) rel = PetscMax(rel, ny[s] / nx[s]);
  PetscCall(SNESGetTolerances(snes, NULL, NULL, NULL, &maxit, NULL));
  if (rel <= c->rtol)
    *reason = SNES_CONVERGED_SNORM_RELATIVE;
  else if (it >= maxit)
    *reason = SNES_DIVERGED_MAX_IT;
  PetscFunctionReturn(0);
}

/* SNES configured as eas solves the step (c->adr set up, J from
   EasAdrCreateJacobianMat, c->rtol set): newtonls with full steps (basic
   line search), BiCGStab with right Jacobi on the unpreconditioned residual
   to krtol, and, with ew, Eisenstat-Walker with eas's parameters
   (EasAdrGetKspEWParameters).  The SNES rtol is c->rtol: only EW version 3
   reads it (its oversolving safeguard), where eas uses -adr_newton_rtol.
   prefix: the options prefix (NULL: none); SNESSetFromOptions is the
   caller's. */
static inline PetscErrorCode AdrPeerCreateSNES(AdrPeerCtx *c, Mat J, PetscReal krtol, PetscBool ew, const char prefix[], SNES *snes)
{
  SNESLineSearch ls;
  KSP            ksp;
  PC             pc;

  PetscFunctionBegin;
  PetscCall(SNESCreate(PETSC_COMM_WORLD, snes));
  if (prefix) PetscCall(SNESSetOptionsPrefix(*snes, prefix));
  PetscCall(SNESSetType(*snes, SNESNEWTONLS));
  PetscCall(SNESSetFunction(*snes, NULL, AdrPeerFunction, c));
  PetscCall(SNESSetJacobian(*snes, J, J, AdrPeerJacobian, c));
  PetscCall(SNESSetConvergenceTest(*snes, AdrPeerConverged, c, NULL));
  PetscCall(SNESSetTolerances(*snes, PETSC_DEFAULT, c->rtol, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT));
  PetscCall(SNESGetLineSearch(*snes, &ls));
  PetscCall(SNESLineSearchSetType(ls, SNESLINESEARCHBASIC)); /* eas takes full Newton steps */
  PetscCall(SNESGetKSP(*snes, &ksp));
  PetscCall(KSPSetType(ksp, KSPBCGS));
  PetscCall(KSPSetPCSide(ksp, PC_RIGHT));
  PetscCall(KSPSetNormType(ksp, KSP_NORM_UNPRECONDITIONED));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCJACOBI));
  PetscCall(KSPSetTolerances(ksp, krtol, 1e-50, 1e12, 2000));
  if (ew) {
    PetscInt  v;
    PetscReal r0, rm, g, a, a2, th;
    PetscCall(EasAdrGetKspEWParameters(c->adr, &v, &r0, &rm, &g, &a, &a2, &th));
    PetscCall(SNESKSPSetUseEW(*snes, PETSC_TRUE));
    PetscCall(SNESKSPSetParametersEW(*snes, v, r0, rm, g, a, a2, th));
  }
  PetscFunctionReturn(0);
}
