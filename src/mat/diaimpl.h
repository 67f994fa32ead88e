/*
  Private declarations of EasDia (layer mat, docs/design.md): the object,
  its package, and the value accessors in backend memory that the ADR
  assembly and the Krylov solvers use.
*/
#pragma once

#include <eas/dia.h>
#include "../vec/vecimpl.h"

struct _p_EasDia {
  PETSCHEADER(int);
  EasBackend   be;
  PetscInt     n, ndiag, ld;
  PetscInt    *off; /* host, ascending */
  PetscScalar *val; /* host, val[d*ld + i], zero outside the matrix */
  PetscReal    max_fill;
  PetscBool    setupcalled;
  EasDiaKernel k; /* backend view, valid after SetUp */
  /* value precision (EasDiaSetPrecision): single keeps, in backend memory,
     a float copy of the values that the multiply and BiCGStab kernels read
     (k.valf), made from val when the kernel view is asked for after the
     values changed (valf_state: the object state it was made at) */
  EasPrecision     prec;
  float           *valf;
  PetscObjectState valf_state;
  PetscBool        valf_written; /* checked out with the backend values for a kernel that writes both (EasDiaGetBackendValuesWriteSingle_Private) */
  /* Values and pattern: every change of the values increases the object
     state (PetscObjectStateGet); a new pattern (n, offsets) also increases
     nonzerostate.  A solver that built data from the values compares both
     (EasKspSetUp). */
  PetscObjectState nonzerostate;
  PetscBool        dev_stale;  /* the backend copy is older than the host values */
  PetscBool        host_stale; /* the host values are older than the backend copy (a kernel wrote it) */
  PetscInt         values_out; /* 1: checked out for writing, 2: for reading, 3: backend values for writing */
};

/* Leading dimension for n rows: a multiple of 8 (64-byte lines) that is not
   a multiple of 512, so consecutive diagonals do not alias in 4 KiB pages
   (README.md, Measured figures: 15% at n = 128).  Computed in 64-bit; the
   kernels take it as EasKInt, so n is at most EAS_DIA_MAX_ROWS: the largest
   multiple of 8 below 2^31 - 1 is 2^31 - 8 = 2147483640, not a multiple of
   512, so n = 2147483640 gives ld = n and n = 2147483641 would need 2^31. */
PETSC_INTERN PetscInt64 EasDiaLeadingDimension(PetscInt n);
#define EAS_DIA_MAX_ROWS 2147483640
/* Builds the DIA storage from row-wise (i, j, v) triplets after checking the
   fill bound; used by the Mat and Matrix Market converters. what names the
   source in errors. */
PETSC_INTERN PetscErrorCode EasDiaSetFromTriplets_Private(EasDia, PetscInt n, PetscCount nnz, const PetscInt *row, const PetscInt *col, const PetscScalar *v, const char what[]);
PETSC_INTERN PetscErrorCode EasDiaGetKernel_Private(EasDia, const EasDiaKernel **);
/* The kernel view without making the single-precision copy current: for
   kernels that read only the double values (the Jacobi scaling). */
PETSC_INTERN PetscErrorCode EasDiaGetKernelDouble_Private(EasDia, const EasDiaKernel **);
/* B = A diag(s): column j scaled by s[j] (host array of n entries); B gets
   A's backend.  Used for right Jacobi preconditioning, A D^{-1}. */
PETSC_INTERN PetscErrorCode EasDiaDuplicateColumnScaled_Private(EasDia A, const PetscScalar *s, EasDia *B);
/* Values only: B <- A diag(s) for a B with A's pattern (made by
   EasDiaDuplicateColumnScaled_Private); B's backend copy is refreshed at
   its next use. */
PETSC_INTERN PetscErrorCode EasDiaColumnScaleValues_Private(EasDia A, const PetscScalar *s, EasDia B);
/* B takes A's size, offsets and values without copying (B keeps its
   backend and fill bound); A is left empty, as after EasDiaCreate. */
PETSC_INTERN PetscErrorCode EasDiaMove_Private(EasDia A, EasDia B);
/* dia.c, for diavalues.c: the float copy of the values is out of date; the
   backend's private data of the kernel view (dia_setup) rebuilt. */
PETSC_INTERN PetscErrorCode EasDiaMarkSingleStale_Private(EasDia);
PETSC_INTERN PetscErrorCode EasDiaBackendSetUp_Private(EasDia);
/* Brings the host values up to date after a kernel wrote the backend copy
   (EasDiaRestoreBackendValuesWrite_Private on a device backend). */
PETSC_INTERN PetscErrorCode EasDiaSyncHost_Private(EasDia A);

/* Values in backend memory for an in-place rewrite (same pattern); Restore
   brings the host copy up to date and rebuilds the backend's private data. */
PETSC_INTERN PetscErrorCode EasDiaGetBackendValuesWrite_Private(EasDia, PetscScalar **val, PetscInt *ld);
PETSC_INTERN PetscErrorCode EasDiaGetBackendValuesWriteSingle_Private(EasDia, PetscScalar **val, float **valf, PetscInt *ld);
PETSC_INTERN PetscErrorCode EasDiaRestoreBackendValuesWrite_Private(EasDia, PetscScalar **val);

/* The EasDia package: its class and log events (called by EasDiaCreate). */
PETSC_INTERN PetscErrorCode EasDiaInitializePackage(void);
PETSC_INTERN PetscLogEvent  EAS_DiaMult, EAS_DiaMultTranspose, EAS_DiaSetUp, EAS_DiaConvert;
