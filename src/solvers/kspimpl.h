#pragma once

#include "../mat/diaimpl.h"

typedef struct _EasKspOps *EasKspOps;
struct _EasKspOps {
  PetscErrorCode (*setup)(EasKsp);
  PetscErrorCode (*solve)(EasKsp, EasVec b, EasVec x);
  PetscErrorCode (*reset)(EasKsp);
  PetscErrorCode (*view)(EasKsp, PetscViewer);
};

#define EAS_KSP_MAXMON 4

struct _p_EasKsp {
  PETSCHEADER(struct _EasKspOps);
  EasDia             A;
  EasDia             Ahat; /* A D^{-1} for right Jacobi (column-scaled copy) */
  EasVec             dinv; /* D^{-1} */
  char               pc_type[16];
  PetscReal          rtol, atol, dtol;
  PetscInt           max_it;
  PetscInt           its;
  PetscReal          rnorm, rnorm0;
  KSPConvergedReason reason;
  PetscBool          converged_reason_view, setupcalled;
  PetscViewer        reason_viewer;
  PetscInt           nmon;
  PetscErrorCode (*monitor[EAS_KSP_MAXMON])(EasKsp, PetscInt, PetscReal, void *);
  void *monctx[EAS_KSP_MAXMON];
  PetscErrorCode (*mondestroy[EAS_KSP_MAXMON])(void **);
  EasVec   work[8];
  PetscInt nwork;
  void    *data;
};

PETSC_INTERN PetscErrorCode EasKspCreate_BiCGStab(EasKsp);
/* Calls the monitors and applies the convergence test on rnorm at iteration
   its: sets ksp->reason (0 = keep going). */
PETSC_INTERN PetscErrorCode EasKspLogResidual_Private(EasKsp, PetscInt its, PetscReal rnorm);
/* Sum of local values over the solver's communicator (no-op on one process). */
PETSC_INTERN PetscErrorCode EasKspAllreduce_Private(EasKsp, PetscScalar *vals, PetscInt n);
