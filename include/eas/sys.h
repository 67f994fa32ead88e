#pragma once
/*
  eas/sys.h - the ground floor of eas (layer core, docs/design.md): the
  PETSc it is built on, the version, the MPI thread level and the hook
  types through which a solver calls the layers above it.

  eas is built on PETSc the way SLEPc is: every function returns a
  PetscErrorCode, objects are PetscObjects (so PetscObjectSetOptionsPrefix,
  -log_view object counts and -malloc_dump apply), options are read from the
  PETSc options database.
*/
#include <petscsys.h>
#include <petscviewer.h>

#if defined(PETSC_USE_COMPLEX) || !defined(PETSC_USE_REAL_DOUBLE)
#  error "eas needs a real, double precision PETSc"
#endif

PETSC_EXTERN const char EasVersion[];

/* EasGetMPIThreadLevel - the MPI thread level provided (MPI_THREAD_*). */
PETSC_EXTERN PetscErrorCode EasGetMPIThreadLevel(PetscMPIInt *);

/* ---------------------------------------------------------------- hooks */

/* Layers depend downward only (docs/design.md: core < backends < vec <
   comm < energy < mat < solvers < policy < init < drivers): where a solver
   needs a decision from a layer above it (the energy policies of
   include/eas/policy.h: DVFS, power budget, the online backend choice),
   that layer attaches a hook and the solver calls it at fixed points, on
   every rank (hooks may be collective).
     EAS_HOOK_SOLVE_BEGIN  start of EasAdrSolve, or of EasKspSolve on an EasEbe
     EAS_HOOK_ITERATION    EasEbe: after each Krylov (cg, pipecg) iteration
     EAS_HOOK_STEP         EasAdr: after each converged time step (beuler) or
                           output segment (cvode); the solver may be moved
                           (EasAdrSetBackend) or reconfigured there
     EAS_HOOK_SOLVE_END    end of the solve (also when it did not converge) */
typedef enum {
  EAS_HOOK_SOLVE_BEGIN,
  EAS_HOOK_ITERATION,
  EAS_HOOK_STEP,
  EAS_HOOK_SOLVE_END
} EasHookPoint;
PETSC_EXTERN const char *const EasHookPoints[];

/* What a hook is told. */
typedef struct {
  EasHookPoint point;
  PetscInt     its;    /* iterations of the current solve so far: Krylov iterations (EasEbe), outer iterations (EasAdr, max over ranks) */
  PetscInt     steps;  /* EasAdr: converged time steps of the current EasAdrSolve; 0 for an EasEbe */
  PetscInt     nsteps; /* EasAdr: time steps the current EasAdrSolve is expected to take (PETSC_DECIDE: unknown, cvode); 0 for an EasEbe */
} EasHookInfo;

/* A hook: solver is the EasAdr or EasEbe calling it. */
typedef PetscErrorCode (*EasHookFn)(PetscObject solver, const EasHookInfo *info, void *ctx);
