/*
  Private declarations of the vec layer (docs/design.md): the EasVec
  access in the backend's memory space that the matrices and solvers
  hand to the backend ops, and the vector log events.
*/
#pragma once

#include <eas/vec.h>
#include "../backends/backend.h"

/* Internal vector access in the backend's memory space (device for CUDA).
   Read: data made valid there; Write: the other copy marked stale. */
PETSC_INTERN PetscErrorCode EasVecGetBackendArrayRead(EasVec, const PetscScalar **);
PETSC_INTERN PetscErrorCode EasVecGetBackendArrayWrite(EasVec, PetscScalar **);
PETSC_INTERN PetscErrorCode EasVecGetBackendArray(EasVec, PetscScalar **);
PETSC_INTERN PetscErrorCode EasVecGetBackend(EasVec, EasBackend *);

/* The vec package: its log events (called by EasVecCreate). */
PETSC_INTERN PetscErrorCode EasVecInitializePackage(void);
PETSC_INTERN PetscLogEvent  EAS_VecOps, EAS_VecDot, EAS_HtoD, EAS_DtoH;
