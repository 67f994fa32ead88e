/*
  The process set-up of eas (layer core): PETSc and MPI with the thread
  level the asynchronous modes need, the node-local rank, the version.
  The packages above initialize themselves (docs/design.md); EasInitialize
  (src/init) calls this first.
*/
#include "sysimpl.h"
#include <petsc/private/petscimpl.h> /* PetscValidIntPointer */

const char EasVersion[] = "eas 0.1.0";

static PetscBool   eas_initialized_petsc = PETSC_FALSE;
static PetscMPIInt eas_thread_level      = MPI_THREAD_SINGLE;
static PetscMPIInt eas_node_rank = -1, eas_node_size = 0; /* node-local rank in PETSC_COMM_WORLD, set by EasInitialize */

/*
  EasSysInitialize_Private - initializes PETSc when it has not been.

  When eas initializes MPI it asks for MPI_THREAD_MULTIPLE (the asynchronous
  modes may run a reception thread, docs/adr.md); the level granted is
  kept and returned by EasGetMPIThreadLevel().  When the caller initialized
  MPI or PETSc before, the level is queried.
*/
PetscErrorCode EasSysInitialize_Private(int *argc, char ***argv, const char file[], const char help[])
{
  PetscBool   petsc_up;
  PetscMPIInt mpi_up;

  PetscCall(PetscInitialized(&petsc_up));
  if (!petsc_up) {
    PetscCallMPI(MPI_Initialized(&mpi_up));
    if (!mpi_up) PETSC_MPI_THREAD_REQUIRED = MPI_THREAD_MULTIPLE;
    PetscCall(PetscInitialize(argc, argv, file, help));
    eas_initialized_petsc = PETSC_TRUE;
  }
  PetscFunctionBegin;
  PetscCallMPI(MPI_Query_thread(&eas_thread_level));
  if (eas_node_rank < 0) { /* the rank within its node, for the device of /gpu/cuda (EasCudaDeviceSelect) */
    MPI_Comm node;
    PetscCallMPI(MPI_Comm_split_type(PETSC_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
    PetscCallMPI(MPI_Comm_rank(node, &eas_node_rank));
    PetscCallMPI(MPI_Comm_size(node, &eas_node_size));
    PetscCallMPI(MPI_Comm_free(&node));
  }
  PetscFunctionReturn(0);
}

/*
  EasGetNodeRank - this process's rank among the PETSC_COMM_WORLD ranks of
  its node (MPI_Comm_split_type with MPI_COMM_TYPE_SHARED, computed by
  EasInitialize), and their number; -1 and 0 when EasInitialize was not
  called (a program that initialized PETSc itself).
*/
PetscErrorCode EasGetNodeRank(PetscMPIInt *rank, PetscMPIInt *size)
{
  PetscFunctionBegin;
  *rank = eas_node_rank;
  *size = eas_node_size;
  PetscFunctionReturn(0);
}

/* EasSysFinalize_Private - finalizes PETSc if EasSysInitialize_Private started it. */
PetscErrorCode EasSysFinalize_Private(void)
{
  if (eas_initialized_petsc) {
    eas_initialized_petsc = PETSC_FALSE;
    PetscCall(PetscFinalize());
  }
  return 0;
}

#define EAS_MAX_PACKAGES 16
static PetscBool *eas_package_flag[EAS_MAX_PACKAGES];
static int        eas_npackages = 0;

static PetscErrorCode EasPackagesFinalize(void)
{
  for (int i = 0; i < eas_npackages; i++) *eas_package_flag[i] = PETSC_FALSE;
  eas_npackages = 0;
  return 0;
}

PetscErrorCode EasPackageInitialized_Private(PetscBool *flag)
{
  PetscFunctionBegin;
  PetscCheck(eas_npackages < EAS_MAX_PACKAGES, PETSC_COMM_SELF, PETSC_ERR_PLIB, "more than %d eas packages", EAS_MAX_PACKAGES);
  if (!eas_npackages) PetscCall(PetscRegisterFinalize(EasPackagesFinalize));
  eas_package_flag[eas_npackages++] = flag;
  *flag                             = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/*@C
  EasGetMPIThreadLevel - the MPI thread level provided (MPI_THREAD_SINGLE ..
  MPI_THREAD_MULTIPLE).
@*/
PetscErrorCode EasGetMPIThreadLevel(PetscMPIInt *level)
{
  PetscFunctionBegin;
  PetscValidIntPointer(level, 1);
  *level = eas_thread_level;
  PetscFunctionReturn(0);
}
