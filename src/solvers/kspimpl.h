/*
  Private declarations of EasKsp (layer solvers, docs/design.md): the
  solver object, the operator it iterates on, its package and log events.
*/
#pragma once

#include <eas/ksp.h>
#include "../mat/diaimpl.h"
#include "../mat/ebeimpl.h"

/* The operator seen by the Krylov methods (an EasDia or an EasEbe): local
   vector length n, of which the first nown entries are owned (counted in
   dot products; the rest are ghosts kept consistent by the operator). */
typedef struct {
  PetscInt   n, nown, bs;
  EasBackend be;
  PetscErrorCode (*mult)(EasKsp, EasVec x, EasVec y);
  PetscErrorCode (*diagonal)(EasKsp, EasVec d);
} EasKspOperator;

typedef struct _EasKspOps *EasKspOps;
struct _EasKspOps {
  PetscErrorCode (*setup)(EasKsp);
  /* optional: after new values of a DIA operator with the same pattern,
     recompute the value-dependent data in the existing storage (without it
     EasKspSetUp redoes the whole setup) */
  PetscErrorCode (*setup_values)(EasKsp);
  PetscErrorCode (*solve)(EasKsp, EasVec b, EasVec x);
  PetscErrorCode (*reset)(EasKsp);
  PetscErrorCode (*view)(EasKsp, PetscViewer);
};

/* An operator given by callbacks (EasKspSetOperatorShell): the adaptors
   above the solvers (src/petsc/: a distributed MATEASDIA or MATEASEBE) hand
   the Krylov methods their own product, diagonal and point blocks. */
typedef struct {
  PetscBool  set;
  EasBackend be;
  PetscInt   n, nown, bs;
  EasKspShellMultFn      mult;
  EasKspShellDiagonalFn  diagonal;
  EasKspShellBlockDiagFn blockdiagonal;
  void                  *ctx;
} EasKspShell;

#define EAS_KSP_MAXMON 4
/* Breakdown and pivot tests relative to the scale (PETSc's KSPBCGS model):
   BiCGStab stops with KSP_DIVERGED_BREAKDOWN when |(rhat, v)| <= tol ||rhat|| ||v||
   (likewise (t, s) and (rhat, r)); a point-block Jacobi block is singular when its
   largest pivot candidate is <= tol times the block's largest entry. */
#define EAS_KSP_BREAKDOWN_RTOL (100 * PETSC_MACHINE_EPSILON)

struct _p_EasKsp {
  PETSCHEADER(struct _EasKspOps);
  EasDia             A;
  EasEbe             ebe;   /* or an element-by-element operator (cg, pipecg) */
  EasKspShell        shell; /* or an operator given by callbacks (cg, pipecg) */
  EasKspOperator     op;    /* valid after SetUp */
  PetscScalar       *pbinv; /* point-block Jacobi: inverted dof x dof blocks, backend memory */
  EasDia             Ahat;  /* A D^{-1} for right Jacobi (column-scaled copy) */
  EasVec             dinv;  /* D^{-1} */
  /* -pc_type ilu (bicgstab.c): the factor (backend memory; the layout the
     backend's), the other iterate of the parallel factorization, the pair
     table of kernels/ilu.h EasIluEntry, the index of offset 0, the first
     row with an unusable pivot at the last factorization (-1: none), and
     the sweeps of the parallel form (EasKspSetILUSweeps) */
  PetscScalar       *ilu_f, *ilu_fwork;
  float             *ilu_ff;   /* -pc_ilu_precision single: the factor the solves read, rounded to float (NULL: ilu_f) */
  EasPrecision       ilu_prec; /* EasKspSetILUPrecision */
  PetscInt          *ilu_sub;
  PetscInt           ilu_dmain, ilu_zero_row, ilu_factor_sweeps, ilu_solve_sweeps;
  /* ILU(k), k = ilu_levels > 0 (-pc_factor_levels): the factor's own pattern,
     A's offsets and the level-k fill offsets of the stencil (ilu_k: its
     kernel view, val unused); ilu_amap[g]: the diagonal of A (or A') the
     factor's diagonal g starts from, -1 for a fill one (the pair table's
     amap); with k = 0 in A's order the factor has A's pattern */
  PetscInt           ilu_levels;
  EasDiaKernel       ilu_k;
  PetscInt          *ilu_off, *ilu_off_host, *ilu_amap;
  /* -pc_ilu_axes (EasKspSetILUAxes) on a box (EasKspSetILUGrid): the inner
     solve runs on A' = P A P' (ilu_Ap; P: the box's axes in that order,
     ilu_perm[new] = old and ilu_iperm in backend memory), whose values are
     gathered from A's through ilu_aidx (A''s ndiag x ld, -1: 0) before each
     factorization; b and x are permuted in and out once per solve */
  char               ilu_axes[4];
  PetscInt           ilu_dof, ilu_box[3];
  PetscInt          *ilu_fill; /* EasKspSetILUBlockFills: dof x dof within a point, then dof x dof between neighbours (NULL: all) */
  PetscInt          *ilu_perm, *ilu_iperm, *ilu_aidx;
  EasDia             ilu_Ap;
  char               pc_type[16];
  PetscBool          pc_type_option; /* -pc_type was given at the last EasKspSetFromOptions (its value is pc_type) */
  PetscReal          rtol, atol, dtol;
  PetscInt           max_it;
  PetscInt           pipecg_replace; /* pipecg: residual replacement every this many iterations (0: never) */
  PetscInt           nreplace;       /* replacements done in the last solve */
  PetscInt           its;
  PetscReal          rnorm, rnorm0;
  KSPConvergedReason reason;
  PetscBool          converged_reason_view, setupcalled;
  PetscObjectState   A_state, A_nzstate;         /* the DIA operator's states at the last setup */
  PetscInt           nsetup_full, nsetup_values; /* setups done: whole, values only */
  PetscBool          reuse_pc;                   /* EasKspSetReusePreconditioner: a values-only setup keeps the preconditioner */
  PetscInt           npc_builds;                 /* preconditioner builds (the full setups' and the values-only setups' that rebuilt it) */
  PetscViewer        reason_viewer;
  PetscInt           nmon;
  PetscErrorCode (*monitor[EAS_KSP_MAXMON])(EasKsp, PetscInt, PetscReal, void *);
  void *monctx[EAS_KSP_MAXMON];
  PetscErrorCode (*mondestroy[EAS_KSP_MAXMON])(void **);
  /* EasKspSetConvergenceTest: replaces the built-in test (NULL: built-in) */
  EasKspConvergenceTestFn converged;
  void                   *cnvctx;
  PetscErrorCode (*cnvdestroy)(void **);
  /* EasKspSetOperatorCoupling: off-process part of a distributed DIA operator (bicgstab) */
  EasKspCouplingFn coupling;
  void            *couplingctx;
  EasVec   work[12];
  PetscInt nwork;
  void    *data;
};

PETSC_INTERN PetscErrorCode EasKspCreate_BiCGStab(EasKsp);
PETSC_INTERN PetscErrorCode EasKspCreate_CG(EasKsp);
PETSC_INTERN PetscErrorCode EasKspCreate_PipeCG(EasKsp);
/* Builds the preconditioner of cg/pipecg: ksp->dinv = 1/diag (jacobi; ones
   for none; an existing dinv is refilled in place) or ksp->pbinv (pbjacobi).
   Errors: zero diagonal, singular block. */
PETSC_INTERN PetscErrorCode EasKspSetUpPC_Private(EasKsp);
/* z = M^{-1} r with the preconditioner of EasKspSetUpPC_Private. */
PETSC_INTERN PetscErrorCode EasKspApplyPC_Private(EasKsp, EasVec r, EasVec z);
/* Calls the monitors and applies the convergence test on rnorm at iteration
   its: sets ksp->reason (0 = keep going). */
PETSC_INTERN PetscErrorCode EasKspLogResidual_Private(EasKsp, PetscInt its, PetscReal rnorm);
/* Sum of local values over the solver's communicator (no-op on one process). */
PETSC_INTERN PetscErrorCode EasKspAllreduce_Private(EasKsp, PetscScalar *vals, PetscInt n);

/* The EasKsp package: its class and log events (called by EasKspCreate). */
PETSC_INTERN PetscErrorCode EasKspInitializePackage(void);
PETSC_INTERN PetscLogEvent  EAS_KspSetUp, EAS_KspSolve, EAS_IluSymbolic, EAS_IluFactor, EAS_IluApply, EAS_BcgsSweep1, EAS_BcgsSweep2, EAS_BcgsSweep3, EAS_CgUpdate, EAS_PipeCgUpdate, EAS_Allreduce;
