/*
  eas - energy-aware solvers.  Public API: opaque handles and functions only.

  eas is built on PETSc the way SLEPc is: every function returns a
  PetscErrorCode, objects are PetscObjects (so PetscObjectSetOptionsPrefix,
  -log_view object counts and -malloc_dump apply), options are read from the
  PETSc options database.

  This is the umbrella header of a program: it declares the library's
  entry points (layer init) and includes the public header of every layer,
  bottom to top (docs/design.md gives the layers and what may use what):
    core      eas/sys.h      version, MPI thread level, solver hooks
    backends  eas/backend.h  compute backends (resource strings, ops tables)
    vec       eas/vec.h      vectors on a backend
    comm      (none)         halo exchange and convergence detection of the
                             distributed solvers: private to the library
    energy    eas/energy.h   the source papers' models (pure functions)
              eas/meter.h    energy sensors, the energy meter, power profiles
    mat       eas/dia.h      DIA matrices
              eas/ebe.h      the element-by-element operator and its split
    solvers   eas/ksp.h      Krylov solvers (bicgstab, cg, pipecg)
              eas/adr.h      the advection-diffusion-reaction solver
    policy    eas/policy.h   the energy policies (backend choice, DVFS,
                             power budget), above the solvers
    init      eas.h          EasInitialize, EasFinalize, EasInitializePackage
  The library's own sources include the sub-headers of their layer and the
  layers below it, never this one.
*/
#pragma once

#include <eas/sys.h>
#include <eas/backend.h>
#include <eas/vec.h>
#include <eas/energy.h>
#include <eas/meter.h>
#include <eas/dia.h>
#include <eas/ebe.h>
#include <eas/ksp.h>
#include <eas/adr.h>
#include <eas/policy.h>

/* EasInitialize - initializes PETSc (if not yet done) and eas (every
   package, EasInitializePackage).  Asks MPI for MPI_THREAD_MULTIPLE when
   eas initializes MPI, since the asynchronous modes may use a reception
   thread; the level obtained is reported by EasGetMPIThreadLevel().
   Input: argc, argv, file (options file or NULL), help (or NULL). */
PETSC_EXTERN PetscErrorCode EasInitialize(int *argc, char ***argv, const char file[], const char help[]);
/* EasFinalize - finalizes eas, and PETSc if EasInitialize initialized it. */
PETSC_EXTERN PetscErrorCode EasFinalize(void);
/* EasInitializePackage - initializes every package of eas (classes, log
   events, and the energy policies' resolver of -eas_backend auto); called
   by EasInitialize.  Each Create function initializes its own package, so
   a program that calls PetscInitialize itself works without it, except for
   -eas_backend auto, which needs the policies' resolver: such a program
   calls EasInitializePackage after PetscInitialize. */
PETSC_EXTERN PetscErrorCode EasInitializePackage(void);
