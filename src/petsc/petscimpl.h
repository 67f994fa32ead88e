#pragma once
/*
  The PETSc plug-in (include/eas/petsc.h, docs/petsc-plugin.md): a layer
  above the solvers, facing PETSc programs the way a driver faces users.
  It builds on eas's public API (include/eas.h) and PETSc's private
  headers, as PETSc's own matrix and Krylov types do.
*/
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter" /* PETSc's private headers */
#include <petsc/private/matimpl.h>
#include <petsc/private/kspimpl.h>
#include <petsc/private/hashmapij.h>
#pragma GCC diagnostic pop
#include <eas/petsc.h>
#include "backends/backend.h" /* EasBackendCopyDtoH/HtoD */
#include "vec/vecimpl.h"          /* EasVecGetBackend */

/* Entries (i, j, v) set on a rank for rows it does not own, sent to the
   owners at assembly (PETSc's MatStash is internal to libpetsc). */
typedef struct {
  PetscInt     n, max;
  PetscInt    *i, *j;
  PetscScalar *v;
} EasPetscStash;
PETSC_INTERN PetscErrorCode EasPetscStashPush(EasPetscStash *, PetscInt i, PetscInt j, PetscScalar v);
/* Collective: every entry goes to the owner of row i in map; on return the
   stash holds the entries this rank received, in rank order. */
PETSC_INTERN PetscErrorCode EasPetscStashExchange(MPI_Comm, PetscLayout map, EasPetscStash *);
PETSC_INTERN PetscErrorCode EasPetscStashDestroy(EasPetscStash *);
/* Collective: the rows of rows[n] (global, any rank's) that this rank owns,
   local, sorted, without repeats (caller frees). */
PETSC_INTERN PetscErrorCode EasPetscRowsToOwners(MPI_Comm, PetscLayout map, PetscInt n, const PetscInt rows[], PetscInt *nlocal, PetscInt **local);
/* The backend named by option (e.g. -mat_easdia_backend) under prefix,
   else by -eas_backend (default /cpu).  The policies' "auto" is refused here. */
PETSC_INTERN PetscErrorCode EasPetscBackendFromOptions(MPI_Comm, const char prefix[], const char option[], EasBackend *);
/* The plug-in's energy meter (-eas_energy_view at PetscFinalize): created at
   the first eas solve on comm, one unit per rank after be.  *unit < 0 when
   the solve is on a communicator the meter does not span (not metered). */
PETSC_INTERN PetscErrorCode EasPetscMeterGet(MPI_Comm, EasBackend be, EasEnergyMeter *, PetscInt *unit);

/* ---------------------------------------------------------------- MATEASDIA */
typedef struct {
  PetscInt    n, rstart;   /* local rows = local columns, first global row */
  EasBackend  be;
  EasDia      D;           /* the diagonal block; NULL until a pattern is known */
  PetscInt    ndiag;       /* D's offsets, ascending (borrowed from D) */
  const PetscInt *off;
  PetscScalar *val;        /* D's host values while checked out for assembly */
  PetscInt     ld;
  PetscBool    roworiented;
  /* couplings to other ranks' columns: CSR over the local rows, columns
     numbered into garray (the global columns, ascending) */
  PetscInt     nghost, *garray, *bi, *bj;
  PetscScalar *bv;
  PetscInt     ncrow, *crow; /* rows with couplings */
  Vec          lvec;         /* the ghost values */
  VecScatter   scat;         /* global -> lvec */
  Vec          xwrap;        /* a Vec of the row layout without an array (VecPlaceArray) */
  PetscScalar *hbuf;         /* host copies of x, y, a on device backends (3n) */
  PetscScalar *bvs;          /* bv scaled by the ghost columns' inverse diagonal (right Jacobi) */
  PetscObjectState bvs_state;
  /* entries outside the pattern, merged at the end of the assembly */
  PetscHMapIJ    pend;
  PetscInt       npend, maxpend, *pi, *pj;
  PetscScalar   *pv;
  EasPetscStash  stash;
  PetscReal      max_fill;
  PetscBool      from_dm;
  EasVec         ex, ey;     /* MatMult work */
  Vec            w;          /* MatMultAdd work */
} Mat_EasDia;

/* Adds the couplings of host arrays: y += C x~ (x~ exchanged: collective),
   dc (may be NULL) as in EasKspCouplingFn; scaled: by the ghost columns'
   inverse diagonal. */
PETSC_INTERN PetscErrorCode MatEasDiaCoupleHost_Private(Mat, PetscBool scaled, const PetscScalar *x, PetscScalar *y, const PetscScalar *a, PetscScalar dc[2]);
/* The couplings of A D^{-1} (right Jacobi), current with A's values. */
PETSC_INTERN PetscErrorCode MatEasDiaSetUpScaledCoupling_Private(Mat);
/* The EasKspCouplingFn of a MATEASDIA (ctx = the Mat). */
PETSC_INTERN PetscErrorCode MatEasDiaCoupling_Private(void *ctx, EasBackend be, PetscBool scaled, const PetscScalar *x, PetscScalar *y, const PetscScalar *a, PetscScalar dc[2]);
PETSC_INTERN PetscErrorCode MatCreate_EasDia(Mat);

/* ---------------------------------------------------------------- MATEASEBE */
typedef struct {
  PetscInt     nown, nghost, rstart; /* owned rows, other ranks' rows the elements touch */
  PetscInt     m, bs;                /* element order (rows per element), dof per node */
  PetscBool    roworiented;
  PetscInt     nel, maxel;
  PetscInt    *gidx;                 /* element rows, global (nel x m) */
  PetscScalar *ael;                  /* element matrices (nel x m x m, row-major) */
  PetscInt    *garray;               /* ghost rows, ascending */
  EasBackend   be;
  EasEbe       ebe;                  /* over the nown + nghost local rows; NULL without elements */
  PetscObjectState ebe_state;        /* of the element data the EasEbe was built from */
  PetscObjectState el_state;
  /* rows overwritten by MatZeroRows / MatZeroRowsColumns: y_i = diag_i x_i */
  PetscInt     nzr, *zr;             /* local owned rows, ascending */
  PetscScalar *zd;
  Vec          lvec;                 /* ghost rows */
  VecScatter   scat;                 /* global -> lvec */
  Vec          xwrap;                /* row layout, no array */
  EasVec       ex, ey;               /* local vectors (nown + nghost) */
  PetscBool    setup;
} Mat_EasEbe;

/* The EasKsp shell operator of a MATEASEBE (ctx = the Mat): local vectors
   are the owned rows followed by the ghost rows, kept consistent. */
PETSC_INTERN PetscErrorCode MatEasEbeShellMult_Private(void *ctx, EasVec x, EasVec y);
PETSC_INTERN PetscErrorCode MatEasEbeShellDiagonal_Private(void *ctx, EasVec d);
PETSC_INTERN PetscErrorCode MatEasEbeShellBlockDiagonal_Private(void *ctx, PetscScalar D[]);
/* Local vectors <-> a global Vec (owned rows; ghosts filled by the scatter). */
PETSC_INTERN PetscErrorCode MatEasEbeVecToLocal_Private(Mat, Vec, EasVec);
PETSC_INTERN PetscErrorCode MatEasEbeVecFromLocal_Private(Mat, EasVec, Vec);
PETSC_INTERN PetscErrorCode MatEasEbeSetUpOperator_Private(Mat);
PETSC_INTERN PetscErrorCode MatCreate_EasEbe(Mat);

PETSC_INTERN PetscErrorCode KSPCreate_EasBCGS(KSP);
PETSC_INTERN PetscErrorCode KSPCreate_EasCG(KSP);
