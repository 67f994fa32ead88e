/*
  The library's front door (layer init, docs/design.md): EasInitialize,
  EasFinalize and EasInitializePackage.  Each package initializes itself
  (XxxInitializePackage, called by its Create functions and registered
  with PetscRegisterFinalize); this layer, above all of them, initializes
  every one at EasInitialize, so that -log_view lists every class and
  event and the energy policies register their resolver of -eas_backend
  auto with the backend registry before any solver is set up.
*/
#include <eas.h>
#include "../core/sysimpl.h"
#include "../solvers/adrimpl.h"
#include "../energy/energyimpl.h"
#include "../policy/policyimpl.h"

/*@C
  EasInitializePackage - initializes every package of eas, bottom to top.
  Safe to call more than once.
@*/
PetscErrorCode EasInitializePackage(void)
{
  PetscFunctionBegin;
  PetscCall(EasBackendInitializePackage());
  PetscCall(EasVecInitializePackage());
  PetscCall(EasEnergyInitializePackage());
  PetscCall(EasDiaInitializePackage());
  PetscCall(EasEbeInitializePackage());
  PetscCall(EasKspInitializePackage());
  PetscCall(EasAdrInitializePackage());
  PetscCall(EasPolicyInitializePackage());
  PetscFunctionReturn(0);
}

/*@C
  EasInitialize - initializes PETSc when it has not been (asking MPI for
  MPI_THREAD_MULTIPLE, EasGetMPIThreadLevel), then every package of eas.

  Input: argc, argv (may be NULL), file (options file or NULL), help (or NULL).
@*/
PetscErrorCode EasInitialize(int *argc, char ***argv, const char file[], const char help[])
{
  PetscCall(EasSysInitialize_Private(argc, argv, file, help));
  PetscFunctionBegin;
  PetscCall(EasInitializePackage());
  PetscFunctionReturn(0);
}

/*@C
  EasFinalize - finalizes eas, and PETSc if EasInitialize() started it.
@*/
PetscErrorCode EasFinalize(void)
{
  return EasSysFinalize_Private();
}
