#pragma once
/*
  eas/petsc.h - eas inside unmodified PETSc programs (docs/petsc-plugin.md).

  libeas is a PETSc plug-in: run any PETSc program with
      -dll_append /path/to/libeas.so
  (or link it with libeas and call nothing: the library adds itself to
  PETSc's -dll_append list when it is loaded before PetscInitialize), and
  PETSc gains the matrix types MATEASDIA and MATEASEBE and the Krylov
  types KSPEASBCGS and KSPEASCG:
      -dm_mat_type easdia -ksp_type easbcgs      (DMDA programs)
      -mat_type easdia -ksp_type easbcgs         (MatSetValues programs)
      -mat_type easebe -ksp_type eascg           (element-by-element assembly)
  Options: -mat_easdia_backend, -mat_easebe_backend (default -eas_backend),
  -dia_max_fill, the -ebe_* options of the element operator (storage,
  split), -ksp_eascg_type cg|pipecg, -eas_energy_view (the report at
  PetscFinalize).
*/
#include <eas.h>

/* MATEASDIA - eas's DIA storage behind the ordinary PETSc assembly: one
   DIA block per rank for the couplings inside the rank's rows and columns
   (on -mat_easdia_backend), plus a CSR part for the couplings to other
   ranks' columns.  Diagonals preallocated from a DMDA's stencil, else
   discovered at assembly; a pattern whose DIA fill exceeds -dia_max_fill
   is refused. */
#define MATEASDIA "easdia"
/* MATEASEBE - element-by-element: each MatSetValues(ADD_VALUES) of a square
   block (same rows and columns) is kept as that element's matrix; MatMult
   is eas's EBE apply (every backend, the online split, every storage). */
#define MATEASEBE "easebe"
/* KSPEASBCGS - eas's fused BiCGStab (right Jacobi or none) on a MATEASDIA;
   PETSc's KSPBCGS on any other operator (a note under -info). */
#define KSPEASBCGS "easbcgs"
/* KSPEASCG - eas's CG or pipelined CG (-ksp_eascg_type cg|pipecg; Jacobi,
   point-block Jacobi or none) on a MATEASDIA or MATEASEBE; PETSc's KSPCG
   (KSPPIPECG) on any other operator. */
#define KSPEASCG "eascg"

/* EasPetscRegisterAll - registers the types above with PETSc (MatRegister,
   KSPRegister) and eas's classes and log events (EasInitializePackage; no
   second PetscInitialize).  Idempotent.  Called by PETSc through
   PetscDLLibraryRegister_eas when libeas is loaded with -dll_append. */
PETSC_EXTERN PetscErrorCode EasPetscRegisterAll(void);
/* PetscDLLibraryRegister_eas - called by PETSc when it loads libeas
   (-dll_append /path/to/libeas.so): EasPetscRegisterAll. */
PETSC_EXTERN PetscErrorCode PetscDLLibraryRegister_eas(void);

/* MatEasDiaGetLocalDia - this rank's DIA block of a MATEASDIA (borrowed;
   NULL before the first assembly). */
PETSC_EXTERN PetscErrorCode MatEasDiaGetLocalDia(Mat, EasDia *);
/* MatEasEbeGetLocalEbe - this rank's element operator of a MATEASEBE
   (borrowed; NULL before the first assembly or without elements): its
   local unknowns are the rank's owned rows, then the other ranks' rows its
   elements touch. */
PETSC_EXTERN PetscErrorCode MatEasEbeGetLocalEbe(Mat, EasEbe *);
