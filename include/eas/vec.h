#pragma once
/*
  eas/vec.h - vectors on a backend (layer vec, docs/design.md).
*/
#include <petscvec.h>
#include <eas/backend.h>

/* A vector on a backend that knows where its valid data is (host, device or
   both) and copies lazily; every copy is counted in the backend's transfer
   bytes and logged with PetscLogCpuToGpu/PetscLogGpuToCpu. */
typedef struct _p_EasVec *EasVec;

/* EasVecCreate - a vector of n local entries on the backend (zeroed). */
PETSC_EXTERN PetscErrorCode EasVecCreate(EasBackend, PetscInt n, EasVec *);
PETSC_EXTERN PetscErrorCode EasVecDuplicate(EasVec, EasVec *);
PETSC_EXTERN PetscErrorCode EasVecDestroy(EasVec *);
PETSC_EXTERN PetscErrorCode EasVecGetSize(EasVec, PetscInt *);
/* Host access: Read leaves the device copy valid, Write marks it invalid
   without copying, plain Get does both. */
PETSC_EXTERN PetscErrorCode EasVecGetArray(EasVec, PetscScalar **);
PETSC_EXTERN PetscErrorCode EasVecRestoreArray(EasVec, PetscScalar **);
PETSC_EXTERN PetscErrorCode EasVecGetArrayRead(EasVec, const PetscScalar **);
PETSC_EXTERN PetscErrorCode EasVecRestoreArrayRead(EasVec, const PetscScalar **);
PETSC_EXTERN PetscErrorCode EasVecGetArrayWrite(EasVec, PetscScalar **);
PETSC_EXTERN PetscErrorCode EasVecRestoreArrayWrite(EasVec, PetscScalar **);
PETSC_EXTERN PetscErrorCode EasVecSet(EasVec, PetscScalar);
PETSC_EXTERN PetscErrorCode EasVecCopy(EasVec x, EasVec y);                                /* y <- x */
PETSC_EXTERN PetscErrorCode EasVecAXPBY(EasVec y, PetscScalar a, PetscScalar b, EasVec x); /* y <- a x + b y */
PETSC_EXTERN PetscErrorCode EasVecPointwiseMult(EasVec w, EasVec x, EasVec y);             /* w <- x .* y */
PETSC_EXTERN PetscErrorCode EasVecDot(EasVec x, EasVec y, PetscScalar *);                  /* local (sequential) */
PETSC_EXTERN PetscErrorCode EasVecNorm(EasVec x, PetscReal *);                             /* 2-norm, local */
/* Copy to/from a PETSc Vec of the same local size. */
PETSC_EXTERN PetscErrorCode EasVecCopyFromVec(EasVec, Vec);
PETSC_EXTERN PetscErrorCode EasVecCopyToVec(EasVec, Vec);
