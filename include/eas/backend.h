#pragma once
/*
  eas/backend.h - compute backends (layer backends, docs/design.md): a
  backend is a named ops table selected by a resource string, as in
  libCEED.  Everything above (vectors, matrices, solvers) runs through it.
*/
#include <eas/sys.h>

PETSC_EXTERN PetscClassId EAS_BACKEND_CLASSID;

/* A backend is a named ops table selected by a resource string, as in
   libCEED: "/cpu" (OpenMP, alias "/cpu/openmp"), "/cpu/serial" (one thread),
   "/gpu/cuda" (alias "/gpu"). */
typedef struct _p_EasBackend *EasBackend;

/* EasBackendCreate - creates the backend named by resource.
   Errors: PETSC_ERR_ARG_UNKNOWN_TYPE for an unknown name (the message lists
   the known ones), PETSC_ERR_SUP_SYS with "CUDA module not loaded (...)" when
   the CUDA module (libeas-cuda.so, beside libeas or at $EAS_CUDA_MODULE) or
   the CUDA libraries it needs are missing, and with "no CUDA device" when it
   loads but no device can be used. */
PETSC_EXTERN PetscErrorCode EasBackendCreate(MPI_Comm, const char resource[], EasBackend *);
/* EasBackendCreateFromOptions - the backend named by -eas_backend (default
   /cpu).  The registry is the one parser of -eas_backend: an EasAdr, EasEbe
   or EasDia without a backend reads it the same way at its SetUp, where
   "auto" is resolved for the solver by the energy policies (the resolver
   their package registers with the registry; include/eas/policy.h).
   Errors: "auto" here (no solver to choose for). */
PETSC_EXTERN PetscErrorCode EasBackendCreateFromOptions(MPI_Comm, const char prefix[], EasBackend *);
/* EasBackendSetFromOptions - -eas_threads, -eas_cuda_spmv native|cusparse. */
PETSC_EXTERN PetscErrorCode EasBackendSetFromOptions(EasBackend);
/* EasBackendGetResource - the resource string the backend was created from
   ("/cpu", "/gpu/cuda", ...; borrowed). */
PETSC_EXTERN PetscErrorCode EasBackendGetResource(EasBackend, const char *[]);
/* EasBackendIsHost - whether the backend's memory is the host's (CPU
   backends) rather than a device's. */
PETSC_EXTERN PetscErrorCode EasBackendIsHost(EasBackend, PetscBool *host);
/* EasBackendSetThreads - number of OpenMP threads of a CPU backend (>= 1). */
PETSC_EXTERN PetscErrorCode EasBackendSetThreads(EasBackend, PetscInt);
/* EasBackendGetThreads - the number of OpenMP threads of a CPU backend (1 for
   a device backend). */
PETSC_EXTERN PetscErrorCode EasBackendGetThreads(EasBackend, PetscInt *);
/* EasBackendSynchronize - waits for all queued work of the backend. */
PETSC_EXTERN PetscErrorCode EasBackendSynchronize(EasBackend);
/* EasBackendGetTransferBytes - bytes copied host->device and device->host. */
PETSC_EXTERN PetscErrorCode EasBackendGetTransferBytes(EasBackend, PetscLogDouble *htod, PetscLogDouble *dtoh);
/* EasBackendGetTimerWaits - how many times the library's timer marks made
   the host wait for the backend's queue (a mark queried before the queue
   reached it; 0 on a CPU backend, whose marks are reached when recorded). */
PETSC_EXTERN PetscErrorCode EasBackendGetTimerWaits(EasBackend, PetscInt64 *);
/* EasBackendView - prints the backend, its transfer counts and its own data
   (threads, device). */
PETSC_EXTERN PetscErrorCode EasBackendView(EasBackend, PetscViewer);
/* EasBackendDestroy - drops a reference; frees the backend at the last one
   (*be set to NULL). */
PETSC_EXTERN PetscErrorCode EasBackendDestroy(EasBackend *);
/* EasBackendList - prints every known backend with its state (available,
   not compiled in, no device). */
PETSC_EXTERN PetscErrorCode EasBackendList(MPI_Comm, PetscViewer);
/* EasBackendDeviceView - the CUDA module (its native code and PTX) and each
   CUDA device: compute capability, and whether the module holds native code
   for it; says so where there is no module or no device. */
PETSC_EXTERN PetscErrorCode EasBackendDeviceView(MPI_Comm, PetscViewer);
/* EasBackendIsAvailable - whether resource names a backend usable here;
   reason (may be NULL) receives a static string saying why not. */
PETSC_EXTERN PetscErrorCode EasBackendIsAvailable(const char resource[], PetscBool *, const char *reason[]);
/* EasHasFeature - whether an optional part is present: "sundials" (compiled
   in: CVODE time stepping, -adr_ts_type cvode), "cuda" (the CUDA module
   libeas-cuda.so and the CUDA libraries it needs load), "cuda-device" (and
   /gpu/cuda is usable: a device and its driver, see EasBackendIsAvailable).
   Unknown names: false. */
PETSC_EXTERN PetscErrorCode EasHasFeature(const char name[], PetscBool *has);

/* Element matrix storage (-ebe_storage, EasEbeSetStorage in eas/ebe.h):
   the formats every backend's element-by-element kernels read, per
   element of order m = nen*dof (declared here, below the EBE operator,
   because the backends implement one kernel body per format). */
typedef enum {
  EAS_EBE_STORAGE_FULL,            /* m^2 doubles, row-major */
  EAS_EBE_STORAGE_SYMMETRIC,       /* the upper triangle packed, m(m+1)/2 doubles */
  EAS_EBE_STORAGE_SINGLE,          /* m^2 floats (vectors and sums double) */
  EAS_EBE_STORAGE_SYMMETRIC_SINGLE /* m(m+1)/2 floats */
} EasEbeStorage;
