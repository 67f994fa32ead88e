/*
  Private declarations of the core layer (docs/design.md): what the
  library's front door (src/init) and the CUDA module loader need of the
  process set-up done here.
*/
#pragma once

#include <eas/sys.h>

/* EasSysInitialize_Private - PETSc (initialized here, asking MPI for
   MPI_THREAD_MULTIPLE, when it was not), the MPI thread level and the
   node-local rank; the system part of EasInitialize. */
PETSC_INTERN PetscErrorCode EasSysInitialize_Private(int *argc, char ***argv, const char file[], const char help[]);
/* EasSysFinalize_Private - PetscFinalize when EasSysInitialize_Private
   initialized PETSc. */
PETSC_INTERN PetscErrorCode EasSysFinalize_Private(void);
/* EasPackageInitialized_Private - marks a package initialized (*flag =
   PETSC_TRUE) and has PetscFinalize clear the mark, so that a program that
   initializes PETSc again initializes the package again: the end of every
   XxxInitializePackage's "only once" (docs/design.md, "Packages"). */
PETSC_INTERN PetscErrorCode EasPackageInitialized_Private(PetscBool *flag);
/* EasGetNodeRank - the node-local rank in PETSC_COMM_WORLD and the ranks of
   the node (-1 and 0 before EasInitialize). */
PETSC_INTERN PetscErrorCode EasGetNodeRank(PetscMPIInt *rank, PetscMPIInt *size);
