/*
  Initialization, class ids and log events.
*/
#include "../backends/backend.h"

const char EasVersion[] = "eas 0.1.0";

PetscClassId  EAS_BACKEND_CLASSID, EAS_DIA_CLASSID, EAS_KSP_CLASSID;
PetscClassId  EAS_EBE_CLASSID;
PetscLogEvent EAS_EbeApply, EAS_EbeSetUp, EAS_EbeExchange, EAS_EbeDiagonal, EAS_EbeSplit, EAS_CgUpdate, EAS_PipeCgUpdate;

PetscLogEvent EAS_DiaMult, EAS_DiaMultTranspose, EAS_DiaSetUp, EAS_DiaConvert;
PetscLogEvent EAS_VecOps, EAS_VecDot, EAS_HtoD, EAS_DtoH, EAS_Allreduce;
PetscLogEvent EAS_KspSetUp, EAS_KspSolve, EAS_BcgsSweep1, EAS_BcgsSweep2, EAS_BcgsSweep3;

static PetscBool   eas_package_initialized = PETSC_FALSE;
static PetscBool   eas_initialized_petsc   = PETSC_FALSE;
static PetscMPIInt eas_thread_level        = MPI_THREAD_SINGLE;
static PetscMPIInt eas_node_rank = -1, eas_node_size = 0; /* node-local rank in PETSC_COMM_WORLD, set by EasInitialize */

static PetscErrorCode EasFinalizePackage(void)
{
  PetscFunctionBegin;
  eas_package_initialized = PETSC_FALSE;
  PetscFunctionReturn(0);
}

/*@C
  EasInitializePackage - registers the eas classes and log events.  Called by
  every Create function; safe to call more than once.
@*/
PetscErrorCode EasInitializePackage(void)
{
  PetscFunctionBegin;
  if (eas_package_initialized) PetscFunctionReturn(0);
  eas_package_initialized = PETSC_TRUE;
  PetscCall(PetscClassIdRegister("EAS Backend", &EAS_BACKEND_CLASSID));
  PetscCall(PetscClassIdRegister("EAS DIA", &EAS_DIA_CLASSID));
  PetscCall(PetscClassIdRegister("EAS KSP", &EAS_KSP_CLASSID));

  PetscCall(PetscLogEventRegister("EasDiaMult", EAS_DIA_CLASSID, &EAS_DiaMult));
  PetscCall(PetscLogEventRegister("EasDiaMultT", EAS_DIA_CLASSID, &EAS_DiaMultTranspose));
  PetscCall(PetscLogEventRegister("EasDiaSetUp", EAS_DIA_CLASSID, &EAS_DiaSetUp));
  PetscCall(PetscLogEventRegister("EasDiaConvert", EAS_DIA_CLASSID, &EAS_DiaConvert));
  PetscCall(PetscLogEventRegister("EasVecOps", EAS_BACKEND_CLASSID, &EAS_VecOps));
  PetscCall(PetscLogEventRegister("EasVecDot", EAS_BACKEND_CLASSID, &EAS_VecDot));
  PetscCall(PetscLogEventRegister("EasCopyHtoD", EAS_BACKEND_CLASSID, &EAS_HtoD));
  PetscCall(PetscLogEventRegister("EasCopyDtoH", EAS_BACKEND_CLASSID, &EAS_DtoH));
  PetscCall(PetscLogEventRegister("EasAllreduce", EAS_BACKEND_CLASSID, &EAS_Allreduce));
  PetscCall(PetscLogEventRegister("EasKspSetUp", EAS_KSP_CLASSID, &EAS_KspSetUp));
  PetscCall(PetscLogEventRegister("EasKspSolve", EAS_KSP_CLASSID, &EAS_KspSolve));
  PetscCall(PetscLogEventRegister("EasBcgsSweep1", EAS_KSP_CLASSID, &EAS_BcgsSweep1));
  PetscCall(PetscLogEventRegister("EasBcgsSweep2", EAS_KSP_CLASSID, &EAS_BcgsSweep2));
  PetscCall(PetscLogEventRegister("EasBcgsSweep3", EAS_KSP_CLASSID, &EAS_BcgsSweep3));
  PetscCall(PetscClassIdRegister("EAS EBE", &EAS_EBE_CLASSID));
  PetscCall(PetscLogEventRegister("EasEbeApply", EAS_EBE_CLASSID, &EAS_EbeApply));
  PetscCall(PetscLogEventRegister("EasEbeSetUp", EAS_EBE_CLASSID, &EAS_EbeSetUp));
  PetscCall(PetscLogEventRegister("EasEbeExchange", EAS_EBE_CLASSID, &EAS_EbeExchange));
  PetscCall(PetscLogEventRegister("EasEbeDiagonal", EAS_EBE_CLASSID, &EAS_EbeDiagonal));
  PetscCall(PetscLogEventRegister("EasEbeSplit", EAS_EBE_CLASSID, &EAS_EbeSplit));
  PetscCall(PetscLogEventRegister("EasCgUpdate", EAS_KSP_CLASSID, &EAS_CgUpdate));
  PetscCall(PetscLogEventRegister("EasPipeCgUpdate", EAS_KSP_CLASSID, &EAS_PipeCgUpdate));
  PetscCall(PetscRegisterFinalize(EasFinalizePackage));
  PetscFunctionReturn(0);
}

/*@C
  EasInitialize - initializes PETSc when it has not been, then eas.

  When eas initializes MPI it asks for MPI_THREAD_MULTIPLE (the asynchronous
  modes may run a reception thread, docs/adr.md); the level granted is
  kept and returned by EasGetMPIThreadLevel().  When the caller initialized
  MPI or PETSc before, the level is queried.

  Input: argc, argv (may be NULL), file (options file or NULL), help (or NULL).
@*/
PetscErrorCode EasInitialize(int *argc, char ***argv, const char file[], const char help[])
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
  PetscCall(EasInitializePackage());
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

/*@C
  EasFinalize - finalizes eas, and PETSc if EasInitialize() started it.
@*/
PetscErrorCode EasFinalize(void)
{
  if (eas_initialized_petsc) {
    eas_initialized_petsc = PETSC_FALSE;
    PetscCall(PetscFinalize());
  }
  return 0;
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
