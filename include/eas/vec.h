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
/* EasVecDuplicate - a new zero vector of the same length on the same backend.
   */
PETSC_EXTERN PetscErrorCode EasVecDuplicate(EasVec, EasVec *);
/* EasVecDestroy - frees the vector (*v set to NULL; NULL is fine). */
PETSC_EXTERN PetscErrorCode EasVecDestroy(EasVec *);
/* EasVecGetSize - the number of local entries. */
PETSC_EXTERN PetscErrorCode EasVecGetSize(EasVec, PetscInt *);
/* EasVecGetArray, EasVecRestoreArray - the host array, read-write: copied
   from the device when the host copy is stale; after the restore the
   device copy is stale. */
PETSC_EXTERN PetscErrorCode EasVecGetArray(EasVec, PetscScalar **);
PETSC_EXTERN PetscErrorCode EasVecRestoreArray(EasVec, PetscScalar **);
/* EasVecGetArrayRead, EasVecRestoreArrayRead - the host array for reading:
   copied from the device when stale; both copies stay valid. */
PETSC_EXTERN PetscErrorCode EasVecGetArrayRead(EasVec, const PetscScalar **);
PETSC_EXTERN PetscErrorCode EasVecRestoreArrayRead(EasVec, const PetscScalar **);
/* EasVecGetArrayWrite, EasVecRestoreArrayWrite - the host array to
   overwrite entirely: nothing is copied; after the restore the device copy
   is stale. */
PETSC_EXTERN PetscErrorCode EasVecGetArrayWrite(EasVec, PetscScalar **);
PETSC_EXTERN PetscErrorCode EasVecRestoreArrayWrite(EasVec, PetscScalar **);
/* EasVecSet - every entry <- a (on the backend, where the data is). */
PETSC_EXTERN PetscErrorCode EasVecSet(EasVec, PetscScalar);
/* EasVecCopy - y <- x (same length and backend). */
PETSC_EXTERN PetscErrorCode EasVecCopy(EasVec x, EasVec y);
/* EasVecAXPBY - y <- a x + b y (same length and backend). */
PETSC_EXTERN PetscErrorCode EasVecAXPBY(EasVec y, PetscScalar a, PetscScalar b, EasVec x);
/* EasVecPointwiseMult - w <- x .* y, entry by entry (same length and
   backend). */
PETSC_EXTERN PetscErrorCode EasVecPointwiseMult(EasVec w, EasVec x, EasVec y);
/* EasVecDot - the local (sequential) dot product (x, y): the caller sums over
   ranks. */
PETSC_EXTERN PetscErrorCode EasVecDot(EasVec x, EasVec y, PetscScalar *);
/* EasVecNorm - the local (sequential) 2-norm of x. */
PETSC_EXTERN PetscErrorCode EasVecNorm(EasVec x, PetscReal *);
/* EasVecCopyFromVec - copies a PETSc Vec of the same local size into v.
   Errors: another local size. */
PETSC_EXTERN PetscErrorCode EasVecCopyFromVec(EasVec, Vec);
/* EasVecCopyToVec - copies v into a PETSc Vec of the same local size.
   Errors: another local size. */
PETSC_EXTERN PetscErrorCode EasVecCopyToVec(EasVec, Vec);
