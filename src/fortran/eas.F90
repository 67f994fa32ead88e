!
!  module eas: eas's driver API for Fortran (docs/fortran.md), in PETSc's
!  Fortran style: subroutines end with the error code ierr, handles are
!  opaque derived types (type(tEasAdr) :: adr), communicators are Fortran MPI
!  handles (PETSC_COMM_WORLD from petscsys), PETSc objects are PETSc's own
!  Fortran types (type(tVec), type(tDM)).  Fortran 2003 bind(C) interfaces to
!  the public C functions of include/eas.h; arrays are Fortran arrays
!  (copied, or borrowed as pointers where the C function lends memory).
!
!      use eas
!      type(tEasAdr) :: adr
!      call EasInitialize(ierr)
!      call EasAdrCreate(PETSC_COMM_WORLD, adr, ierr)
!      call EasAdrSetFromOptions(adr, ierr)
!      call EasAdrSetUp(adr, ierr)
!      call EasAdrSolve(adr, PETSC_DEFAULT_REAL, ierr)
!      call EasAdrDestroy(adr, ierr)
!      call EasFinalize(ierr)
!
!  Indices passed to C (element connectivity, DIA offsets) are C's: 0-based.
!
#include "petsc/finclude/petscdmda.h"
module eas
  use, intrinsic :: iso_c_binding
  use petscdmda
  implicit none
  private

  ! C's PetscInt (32 or 64 bits, as PETSc was configured); PetscReal and
  ! PetscScalar are C doubles (eas needs a real, double precision PETSc)
#if defined(PETSC_USE_64BIT_INDICES)
  integer, parameter, public :: EAS_INT = c_int64_t
#else
  integer, parameter, public :: EAS_INT = c_int
#endif

  ! ----------------------------------------------------------- handles
  type, public :: tEasKsp
    type(c_ptr) :: v = c_null_ptr
  end type
  type, public :: tEasDia
    type(c_ptr) :: v = c_null_ptr
  end type
  type, public :: tEasVec
    type(c_ptr) :: v = c_null_ptr
  end type
  type, public :: tEasAdr
    type(c_ptr) :: v = c_null_ptr
  end type
  type, public :: tEasEbe
    type(c_ptr) :: v = c_null_ptr
  end type
  type, public :: tEasEnergyMeter
    type(c_ptr) :: v = c_null_ptr
  end type

  ! EasAdrStats of include/eas/adr.h (cumulative over EasAdrSolve calls)
  type, public, bind(C) :: EasAdrStats
    integer(EAS_INT) :: steps, outer_its, outer_its_max, inner_its, sync_checks, check_failures, halo_skipped
    integer(c_int64_t) :: msgs_sent, msgs_recv, msgs_stale
    real(c_double) :: time_solve
    integer(EAS_INT) :: pc_builds, exchanges, jacobians
  end type

  ! EasEnergySummary of include/eas/meter.h (PetscBool fields as integers: 1 true)
  type, public, bind(C) :: EasEnergySummary
    real(c_double) :: time, phase_time(4), phase_energy(4)
    integer(c_int) :: phase_measured(4)
    real(c_double) :: other_time, other_energy
    integer(c_int) :: other_measured
    real(c_double) :: energy
    integer(c_int) :: measured, valid
    real(c_double) :: model_energy, switch_energy, power, edp
  end type

  ! ------------------------------------------------------ constants
  character(len=*), parameter, public :: EAS_BICGSTAB = 'bicgstab', EAS_CG = 'cg', EAS_PIPECG = 'pipecg'
  character(len=*), parameter, public :: EAS_PCNONE = 'none', EAS_PCJACOBI = 'jacobi', EAS_PCPBJACOBI = 'pbjacobi'
  integer(c_int), parameter, public :: EAS_EBE_POISSON = 0, EAS_EBE_ELASTICITY = 1
  integer(c_int), parameter, public :: EAS_ADR_CONVERGED_ITERATING = 0, EAS_ADR_CONVERGED_DX = 1, EAS_ADR_CONVERGED_ASYNC = 2
  integer(c_int), parameter, public :: EAS_ADR_DIVERGED_MAX_IT = -1, EAS_ADR_DIVERGED_INNER = -2, EAS_ADR_DIVERGED_NANORINF = -3
  integer(c_int), parameter, public :: EAS_ADR_DIVERGED_ASYNC_CHECK = -4, EAS_ADR_DIVERGED_TS = -5

  public :: EasInitialize, EasFinalize
  public :: EasVecGetSize, EasVecGetValues, EasVecSetValues, EasVecNorm, EasVecDestroy
  public :: EasDiaCreate, EasDiaSetFromOptions, EasDiaSetDiagonals, EasDiaSetFromGallery, EasDiaSetUp, EasDiaGetSize
  public :: EasDiaCreateVecs, EasDiaMult, EasDiaDestroy
  public :: EasKspCreate, EasKspSetType, EasKspSetOperator, EasKspSetOperatorEbe, EasKspSetPCType, EasKspSetTolerances
  public :: EasKspSetFromOptions, EasKspSetUp, EasKspSolve, EasKspGetConvergedReason, EasKspGetIterationNumber
  public :: EasKspGetResidualNorm, EasKspDestroy
  public :: EasAdrCreate, EasAdrSetFromOptions, EasAdrSetUp, EasAdrGetLocalGrid, EasAdrSolve, EasAdrGetLocalSolution
  public :: EasAdrGetTime, EasAdrGetConvergedReason, EasAdrGetStats, EasAdrGetSolutionNatural, EasAdrGetDM
  public :: EasAdrGetEnergyMeter, EasAdrDestroy
  public :: EasEbeCreate, EasEbeSetElements, EasEbeSetFromMesh, EasEbeSetFromOptions, EasEbeSetUp, EasEbeGetSizes
  public :: EasEbeCreateVecs, EasEbeMult, EasEbeComputeRHSManufactured, EasEbeComputeErrorManufactured
  public :: EasEbeGetEnergyMeter, EasEbeDestroy
  public :: EasEnergyMeterStop, EasEnergyMeterViewFromOptions, EasEnergyMeterGetSummary

  ! ------------------------------------------ the C functions (include/eas.h)
  interface
    integer(c_int) function c_EasInitialize(argc, argv, file, help) bind(C, name='EasInitialize')
      import :: c_int, c_ptr, EAS_INT, c_double
      type(c_ptr), value :: argc, argv, file, help
    end function
    integer(c_int) function c_EasFinalize() bind(C, name='EasFinalize')
      import :: c_int
    end function
    integer(c_int) function c_EasVecGetSize(v, n) bind(C, name='EasVecGetSize')
      import :: c_int, c_ptr, EAS_INT, c_double
      type(c_ptr), value :: v
      integer(EAS_INT) :: n
    end function
    integer(c_int) function c_EasVecGetArray(v, a) bind(C, name='EasVecGetArray')
      import :: c_int, c_ptr, EAS_INT, c_double
      type(c_ptr), value :: v
      type(c_ptr) :: a
    end function
    integer(c_int) function c_EasVecRestoreArray(v, a) bind(C, name='EasVecRestoreArray')
      import :: c_int, c_ptr, EAS_INT, c_double
      type(c_ptr), value :: v
      type(c_ptr) :: a
    end function
    integer(c_int) function c_EasVecNorm(v, nrm) bind(C, name='EasVecNorm')
      import :: c_int, c_ptr, EAS_INT, c_double
      type(c_ptr), value :: v
      real(c_double) :: nrm
    end function
    integer(c_int) function c_EasVecDestroy(v) bind(C, name='EasVecDestroy')
      import :: c_int, c_ptr, EAS_INT, c_double
      type(c_ptr) :: v
    end function
    integer(c_int) function c_EasDiaSetDiagonals(A, n, ndiag, off, val) bind(C, name='EasDiaSetDiagonals')
      import :: c_int, c_ptr, EAS_INT, c_double
      type(c_ptr), value :: A
      integer(EAS_INT), value :: n, ndiag
      integer(EAS_INT) :: off(*)
      real(c_double) :: val(*)
    end function
    integer(c_int) function c_EasDiaSetFromGallery(A, name, n) bind(C, name='EasDiaSetFromGallery')
      import :: c_int, c_ptr, c_char, EAS_INT
      type(c_ptr), value :: A
      character(kind=c_char) :: name(*)
      integer(EAS_INT), value :: n
    end function
    integer(c_int) function c_EasDiaGetSize(A, n, ndiag) bind(C, name='EasDiaGetSize')
      import :: c_int, c_ptr, EAS_INT, c_double
      type(c_ptr), value :: A
      integer(EAS_INT) :: n, ndiag
    end function
    integer(c_int) function c_EasKspSetTolerances(ksp, rtol, atol, dtol, maxit) bind(C, name='EasKspSetTolerances')
      import :: c_int, c_ptr, EAS_INT, c_double
      type(c_ptr), value :: ksp
      real(c_double), value :: rtol, atol, dtol
      integer(EAS_INT), value :: maxit
    end function
    integer(c_int) function c_EasAdrSolve(adr, t) bind(C, name='EasAdrSolve')
      import :: c_int, c_ptr, EAS_INT, c_double
      type(c_ptr), value :: adr
      real(c_double), value :: t
    end function
    integer(c_int) function c_EasAdrGetLocalGrid(adr, xs, ys, zs, nxl, nyl, nzl) bind(C, name='EasAdrGetLocalGrid')
      import :: c_int, c_ptr, EAS_INT, c_double
      type(c_ptr), value :: adr
      integer(EAS_INT) :: xs, ys, zs, nxl, nyl, nzl
    end function
    integer(c_int) function c_EasAdrGetLocalSolution(adr, x, n) bind(C, name='EasAdrGetLocalSolution')
      import :: c_int, c_ptr, EAS_INT, c_double
      type(c_ptr), value :: adr
      type(c_ptr) :: x
      integer(EAS_INT) :: n
    end function
    integer(c_int) function c_EasAdrGetStats(adr, st) bind(C, name='EasAdrGetStats')
      import :: c_int, c_ptr, EasAdrStats
      type(c_ptr), value :: adr
      type(EasAdrStats) :: st
    end function
    integer(c_int) function c_EasEbeSetElements(ebe, nel, nen, dof, nnodes, conn, ael) bind(C, name='EasEbeSetElements')
      import :: c_int, c_ptr, EAS_INT, c_double
      type(c_ptr), value :: ebe
      integer(EAS_INT), value :: nel, nen, dof, nnodes
      integer(EAS_INT) :: conn(*)
      real(c_double) :: ael(*)
    end function
    integer(c_int) function c_EasEbeSetFromMesh(ebe, problem, order, nx, ny, nz) bind(C, name='EasEbeSetFromMesh')
      import :: c_int, c_ptr, EAS_INT, c_double
      type(c_ptr), value :: ebe
      integer(c_int), value :: problem
      integer(EAS_INT), value :: order, nx, ny, nz
    end function
    integer(c_int) function c_EasEbeGetSizes(ebe, nel, nen, dof, nnodes, nowned) bind(C, name='EasEbeGetSizes')
      import :: c_int, c_ptr, EAS_INT, c_double
      type(c_ptr), value :: ebe
      integer(EAS_INT) :: nel, nen, dof, nnodes, nowned
    end function
    integer(c_int) function c_EasEbeGetManufacturedSolution(ebe, u, f, ctx) bind(C, name='EasEbeGetManufacturedSolution')
      import :: c_int, c_ptr, c_funptr, c_double
      type(c_ptr), value :: ebe
      type(c_funptr) :: u, f
      type(c_ptr) :: ctx
    end function
    integer(c_int) function c_EasEbeComputeRHS(ebe, f, g, ctx, b) bind(C, name='EasEbeComputeRHS')
      import :: c_int, c_ptr, c_funptr, c_double
      type(c_ptr), value :: ebe, ctx, b
      type(c_funptr), value :: f, g
    end function
    integer(c_int) function c_EasEbeComputeError(ebe, x, u, ctx, err, nrm) bind(C, name='EasEbeComputeError')
      import :: c_int, c_ptr, c_funptr, c_double
      type(c_ptr), value :: ebe, x, ctx
      type(c_funptr), value :: u
      real(c_double) :: err(2), nrm(2)
    end function
    integer(c_int) function c_EasEnergyMeterGetSummary(m, S) bind(C, name='EasEnergyMeterGetSummary')
      import :: c_int, c_ptr, EasEnergySummary
      type(c_ptr), value :: m
      type(EasEnergySummary) :: S
    end function
  end interface
  ! signatures shared by several C functions (bound by name below)
  abstract interface
    integer(c_int) function c_h1(h) bind(C)
      import :: c_int, c_ptr, EAS_INT, c_double
      type(c_ptr), value :: h
    end function
    integer(c_int) function c_create(comm, h) bind(C)
      import :: c_int, c_ptr, EAS_INT, c_double
      integer(c_int), value :: comm
      type(c_ptr) :: h
    end function
    integer(c_int) function c_destroy(h) bind(C)
      import :: c_int, c_ptr, EAS_INT, c_double
      type(c_ptr) :: h
    end function
    integer(c_int) function c_vecs(h, x, y) bind(C)
      import :: c_int, c_ptr, EAS_INT, c_double
      type(c_ptr), value :: h
      type(c_ptr) :: x, y
    end function
    integer(c_int) function c_h3(h, x, y) bind(C)
      import :: c_int, c_ptr, EAS_INT, c_double
      type(c_ptr), value :: h, x, y
    end function
    integer(c_int) function c_h2(h, x) bind(C)
      import :: c_int, c_ptr, EAS_INT, c_double
      type(c_ptr), value :: h, x
    end function
    integer(c_int) function c_hstr(h, s) bind(C)
      import :: c_int, c_ptr, c_char, EAS_INT
      type(c_ptr), value :: h
      character(kind=c_char) :: s(*)
    end function
    integer(c_int) function c_hint(h, i) bind(C)
      import :: c_int, c_ptr, EAS_INT, c_double
      type(c_ptr), value :: h
      integer(EAS_INT) :: i
    end function
    integer(c_int) function c_hreal(h, r) bind(C)
      import :: c_int, c_ptr, EAS_INT, c_double
      type(c_ptr), value :: h
      real(c_double) :: r
    end function
    integer(c_int) function c_hout(h, o) bind(C)
      import :: c_int, c_ptr, EAS_INT, c_double
      type(c_ptr), value :: h
      type(c_ptr) :: o
    end function
    integer(c_int) function c_henum(h, e) bind(C)
      import :: c_int, c_ptr, EAS_INT, c_double
      type(c_ptr), value :: h
      integer(c_int) :: e
    end function
  end interface

  ! the C names bound to the generic interfaces above
  procedure(c_create), bind(C, name='EasFortranKspCreate') :: c_EasKspCreate
  procedure(c_create), bind(C, name='EasFortranDiaCreate') :: c_EasDiaCreate
  procedure(c_create), bind(C, name='EasFortranAdrCreate') :: c_EasAdrCreate
  procedure(c_create), bind(C, name='EasFortranEbeCreate') :: c_EasEbeCreate
  procedure(c_destroy), bind(C, name='EasKspDestroy') :: c_EasKspDestroy
  procedure(c_destroy), bind(C, name='EasDiaDestroy') :: c_EasDiaDestroy
  procedure(c_destroy), bind(C, name='EasAdrDestroy') :: c_EasAdrDestroy
  procedure(c_destroy), bind(C, name='EasEbeDestroy') :: c_EasEbeDestroy
  procedure(c_h1), bind(C, name='EasDiaSetFromOptions') :: c_EasDiaSetFromOptions
  procedure(c_h1), bind(C, name='EasDiaSetUp') :: c_EasDiaSetUp
  procedure(c_h1), bind(C, name='EasKspSetFromOptions') :: c_EasKspSetFromOptions
  procedure(c_h1), bind(C, name='EasKspSetUp') :: c_EasKspSetUp
  procedure(c_h1), bind(C, name='EasAdrSetFromOptions') :: c_EasAdrSetFromOptions
  procedure(c_h1), bind(C, name='EasAdrSetUp') :: c_EasAdrSetUp
  procedure(c_h1), bind(C, name='EasEbeSetFromOptions') :: c_EasEbeSetFromOptions
  procedure(c_h1), bind(C, name='EasEbeSetUp') :: c_EasEbeSetUp
  procedure(c_h1), bind(C, name='EasEnergyMeterStop') :: c_EasEnergyMeterStop
  procedure(c_h1), bind(C, name='EasEnergyMeterViewFromOptions') :: c_EasEnergyMeterViewFromOptions
  procedure(c_vecs), bind(C, name='EasDiaCreateVecs') :: c_EasDiaCreateVecs
  procedure(c_vecs), bind(C, name='EasEbeCreateVecs') :: c_EasEbeCreateVecs
  procedure(c_h3), bind(C, name='EasDiaMult') :: c_EasDiaMult
  procedure(c_h3), bind(C, name='EasEbeMult') :: c_EasEbeMult
  procedure(c_h3), bind(C, name='EasKspSolve') :: c_EasKspSolve
  procedure(c_h2), bind(C, name='EasKspSetOperator') :: c_EasKspSetOperator
  procedure(c_h2), bind(C, name='EasKspSetOperatorEbe') :: c_EasKspSetOperatorEbe
  procedure(c_h2), bind(C, name='EasAdrGetSolutionNatural') :: c_EasAdrGetSolutionNatural
  procedure(c_hstr), bind(C, name='EasKspSetType') :: c_EasKspSetType
  procedure(c_hstr), bind(C, name='EasKspSetPCType') :: c_EasKspSetPCType
  procedure(c_henum), bind(C, name='EasKspGetConvergedReason') :: c_EasKspGetConvergedReason
  procedure(c_hint), bind(C, name='EasKspGetIterationNumber') :: c_EasKspGetIterationNumber
  procedure(c_henum), bind(C, name='EasAdrGetConvergedReason') :: c_EasAdrGetConvergedReason
  procedure(c_hreal), bind(C, name='EasKspGetResidualNorm') :: c_EasKspGetResidualNorm
  procedure(c_hreal), bind(C, name='EasAdrGetTime') :: c_EasAdrGetTime
  procedure(c_hout), bind(C, name='EasAdrGetDM') :: c_EasAdrGetDM
  procedure(c_hout), bind(C, name='EasAdrGetEnergyMeter') :: c_EasAdrGetEnergyMeter
  procedure(c_hout), bind(C, name='EasEbeGetEnergyMeter') :: c_EasEbeGetEnergyMeter

contains

  ! PETSc's object of a PETSc Fortran handle (its first field is the C pointer)
  type(c_ptr) function petsc_ptr(addr)
    PetscFortranAddr, intent(in) :: addr
    petsc_ptr = transfer(addr, petsc_ptr)
  end function

  ! ------------------------------------------------------------- core
  !> EasInitialize - PETSc (PetscInitialize, the command line read by PETSc's
  !> Fortran interface) and then eas.
  subroutine EasInitialize(ierr)
    PetscErrorCode, intent(out) :: ierr
    call PetscInitialize(ierr)
    if (ierr /= 0) return
    ierr = c_EasInitialize(c_null_ptr, c_null_ptr, c_null_ptr, c_null_ptr)
  end subroutine

  !> EasFinalize - eas, then PETSc.
  subroutine EasFinalize(ierr)
    PetscErrorCode, intent(out) :: ierr
    ierr = c_EasFinalize()
    if (ierr /= 0) return
    call PetscFinalize(ierr)
  end subroutine

  ! -------------------------------------------------------------- vectors
  !> EasVecGetSize - local length.
  subroutine EasVecGetSize(v, n, ierr)
    type(tEasVec), intent(in) :: v
    integer(EAS_INT), intent(out) :: n
    PetscErrorCode, intent(out) :: ierr
    ierr = c_EasVecGetSize(v%v, n)
  end subroutine

  !> EasVecGetValues - x(1:n) = the vector's n local entries (host copy).
  subroutine EasVecGetValues(v, x, ierr)
    type(tEasVec), intent(in) :: v
    real(c_double), intent(inout) :: x(:)
    PetscErrorCode, intent(out) :: ierr
    call vec_access(v, x, .false., ierr)
  end subroutine

  !> EasVecSetValues - the vector's n local entries = x(1:n).
  subroutine EasVecSetValues(v, x, ierr)
    type(tEasVec), intent(in) :: v
    real(c_double), intent(inout) :: x(:)
    PetscErrorCode, intent(out) :: ierr
    call vec_access(v, x, .true., ierr)
  end subroutine

  subroutine vec_access(v, x, set, ierr)
    type(tEasVec), intent(in) :: v
    real(c_double), intent(inout) :: x(:)
    logical, intent(in) :: set
    PetscErrorCode, intent(out) :: ierr
    integer(EAS_INT) :: n
    type(c_ptr) :: p
    real(c_double), pointer :: a(:)
    ierr = c_EasVecGetSize(v%v, n)
    if (ierr /= 0) return
    if (size(x) < n) then
      ierr = 60 ! PETSC_ERR_ARG_SIZ: x shorter than the vector
      return
    end if
    ierr = c_EasVecGetArray(v%v, p)
    if (ierr /= 0) return
    call c_f_pointer(p, a, [n])
    if (set) then
      a(1:n) = x(1:n)
    else
      x(1:n) = a(1:n)
    end if
    ierr = c_EasVecRestoreArray(v%v, p)
  end subroutine

  !> EasVecNorm - local 2-norm.
  subroutine EasVecNorm(v, nrm, ierr)
    type(tEasVec), intent(in) :: v
    real(c_double), intent(out) :: nrm
    PetscErrorCode, intent(out) :: ierr
    ierr = c_EasVecNorm(v%v, nrm)
  end subroutine

  subroutine EasVecDestroy(v, ierr)
    type(tEasVec), intent(inout) :: v
    PetscErrorCode, intent(out) :: ierr
    ierr = c_EasVecDestroy(v%v)
  end subroutine

  ! ------------------------------------------------------------------ DIA
  !> EasDiaCreate - an empty DIA matrix on comm (one process: PETSC_COMM_SELF).
  subroutine EasDiaCreate(comm, A, ierr)
    MPI_Comm, intent(in) :: comm
    type(tEasDia), intent(out) :: A
    PetscErrorCode, intent(out) :: ierr
    ierr = c_EasDiaCreate(comm, A%v)
  end subroutine

  subroutine EasDiaSetFromOptions(A, ierr)
    type(tEasDia), intent(in) :: A
    PetscErrorCode, intent(out) :: ierr
    ierr = c_EasDiaSetFromOptions(A%v)
  end subroutine

  !> EasDiaSetDiagonals - n rows, ndiag offsets off(1:ndiag), values
  !> val(d*n + i + 1) = A(i, i + off(d+1)) (0-based i, d: C's layout).
  subroutine EasDiaSetDiagonals(A, n, ndiag, off, val, ierr)
    type(tEasDia), intent(in) :: A
    integer(EAS_INT), intent(in) :: n, ndiag
    integer(EAS_INT), intent(in) :: off(*)
    real(c_double), intent(in) :: val(*)
    PetscErrorCode, intent(out) :: ierr
    integer(EAS_INT) :: o(ndiag)
    real(c_double), allocatable :: w(:)
    o = off(1:ndiag)
    allocate (w(n * ndiag))
    w = val(1:n * ndiag)
    ierr = c_EasDiaSetDiagonals(A%v, n, ndiag, o, w)
  end subroutine

  !> EasDiaSetFromGallery - a built-in matrix ("adr": the ADR Jacobian on an n^3 grid).
  subroutine EasDiaSetFromGallery(A, name, n, ierr)
    type(tEasDia), intent(in) :: A
    character(len=*), intent(in) :: name
    integer(EAS_INT), intent(in) :: n
    PetscErrorCode, intent(out) :: ierr
    ierr = c_EasDiaSetFromGallery(A%v, trim(name)//c_null_char, n)
  end subroutine

  subroutine EasDiaSetUp(A, ierr)
    type(tEasDia), intent(in) :: A
    PetscErrorCode, intent(out) :: ierr
    ierr = c_EasDiaSetUp(A%v)
  end subroutine

  subroutine EasDiaGetSize(A, n, ndiag, ierr)
    type(tEasDia), intent(in) :: A
    integer(EAS_INT), intent(out) :: n, ndiag
    PetscErrorCode, intent(out) :: ierr
    ierr = c_EasDiaGetSize(A%v, n, ndiag)
  end subroutine

  subroutine EasDiaCreateVecs(A, x, y, ierr)
    type(tEasDia), intent(in) :: A
    type(tEasVec), intent(out) :: x, y
    PetscErrorCode, intent(out) :: ierr
    ierr = c_EasDiaCreateVecs(A%v, x%v, y%v)
  end subroutine

  !> EasDiaMult - y = A x.
  subroutine EasDiaMult(A, x, y, ierr)
    type(tEasDia), intent(in) :: A
    type(tEasVec), intent(in) :: x, y
    PetscErrorCode, intent(out) :: ierr
    ierr = c_EasDiaMult(A%v, x%v, y%v)
  end subroutine

  subroutine EasDiaDestroy(A, ierr)
    type(tEasDia), intent(inout) :: A
    PetscErrorCode, intent(out) :: ierr
    ierr = c_EasDiaDestroy(A%v)
  end subroutine

  ! ---------------------------------------------------------------- Krylov
  subroutine EasKspCreate(comm, ksp, ierr)
    MPI_Comm, intent(in) :: comm
    type(tEasKsp), intent(out) :: ksp
    PetscErrorCode, intent(out) :: ierr
    ierr = c_EasKspCreate(comm, ksp%v)
  end subroutine

  !> EasKspSetType - EAS_BICGSTAB, EAS_CG or EAS_PIPECG.
  subroutine EasKspSetType(ksp, type, ierr)
    type(tEasKsp), intent(in) :: ksp
    character(len=*), intent(in) :: type
    PetscErrorCode, intent(out) :: ierr
    ierr = c_EasKspSetType(ksp%v, trim(type)//c_null_char)
  end subroutine

  subroutine EasKspSetOperator(ksp, A, ierr)
    type(tEasKsp), intent(in) :: ksp
    type(tEasDia), intent(in) :: A
    PetscErrorCode, intent(out) :: ierr
    ierr = c_EasKspSetOperator(ksp%v, A%v)
  end subroutine

  subroutine EasKspSetOperatorEbe(ksp, ebe, ierr)
    type(tEasKsp), intent(in) :: ksp
    type(tEasEbe), intent(in) :: ebe
    PetscErrorCode, intent(out) :: ierr
    ierr = c_EasKspSetOperatorEbe(ksp%v, ebe%v)
  end subroutine

  !> EasKspSetPCType - EAS_PCNONE, EAS_PCJACOBI or EAS_PCPBJACOBI.
  subroutine EasKspSetPCType(ksp, type, ierr)
    type(tEasKsp), intent(in) :: ksp
    character(len=*), intent(in) :: type
    PetscErrorCode, intent(out) :: ierr
    ierr = c_EasKspSetPCType(ksp%v, trim(type)//c_null_char)
  end subroutine

  subroutine EasKspSetTolerances(ksp, rtol, atol, dtol, maxit, ierr)
    type(tEasKsp), intent(in) :: ksp
    real(c_double), intent(in) :: rtol, atol, dtol
    integer(EAS_INT), intent(in) :: maxit
    PetscErrorCode, intent(out) :: ierr
    ierr = c_EasKspSetTolerances(ksp%v, rtol, atol, dtol, maxit)
  end subroutine

  subroutine EasKspSetFromOptions(ksp, ierr)
    type(tEasKsp), intent(in) :: ksp
    PetscErrorCode, intent(out) :: ierr
    ierr = c_EasKspSetFromOptions(ksp%v)
  end subroutine

  subroutine EasKspSetUp(ksp, ierr)
    type(tEasKsp), intent(in) :: ksp
    PetscErrorCode, intent(out) :: ierr
    ierr = c_EasKspSetUp(ksp%v)
  end subroutine

  !> EasKspSolve - A x = b from a zero initial guess.
  subroutine EasKspSolve(ksp, b, x, ierr)
    type(tEasKsp), intent(in) :: ksp
    type(tEasVec), intent(in) :: b, x
    PetscErrorCode, intent(out) :: ierr
    ierr = c_EasKspSolve(ksp%v, b%v, x%v)
  end subroutine

  !> EasKspGetConvergedReason - PETSc's KSPConvergedReason values.
  subroutine EasKspGetConvergedReason(ksp, reason, ierr)
    type(tEasKsp), intent(in) :: ksp
    integer(EAS_INT), intent(out) :: reason
    PetscErrorCode, intent(out) :: ierr
    integer(c_int) :: r
    ierr = c_EasKspGetConvergedReason(ksp%v, r)
    reason = r
  end subroutine

  subroutine EasKspGetIterationNumber(ksp, its, ierr)
    type(tEasKsp), intent(in) :: ksp
    integer(EAS_INT), intent(out) :: its
    PetscErrorCode, intent(out) :: ierr
    ierr = c_EasKspGetIterationNumber(ksp%v, its)
  end subroutine

  subroutine EasKspGetResidualNorm(ksp, rnorm, ierr)
    type(tEasKsp), intent(in) :: ksp
    real(c_double), intent(out) :: rnorm
    PetscErrorCode, intent(out) :: ierr
    ierr = c_EasKspGetResidualNorm(ksp%v, rnorm)
  end subroutine

  subroutine EasKspDestroy(ksp, ierr)
    type(tEasKsp), intent(inout) :: ksp
    PetscErrorCode, intent(out) :: ierr
    ierr = c_EasKspDestroy(ksp%v)
  end subroutine

  ! ------------------------------------------------------------------ ADR
  subroutine EasAdrCreate(comm, adr, ierr)
    MPI_Comm, intent(in) :: comm
    type(tEasAdr), intent(out) :: adr
    PetscErrorCode, intent(out) :: ierr
    ierr = c_EasAdrCreate(comm, adr%v)
  end subroutine

  subroutine EasAdrSetFromOptions(adr, ierr)
    type(tEasAdr), intent(in) :: adr
    PetscErrorCode, intent(out) :: ierr
    ierr = c_EasAdrSetFromOptions(adr%v)
  end subroutine

  subroutine EasAdrSetUp(adr, ierr)
    type(tEasAdr), intent(in) :: adr
    PetscErrorCode, intent(out) :: ierr
    ierr = c_EasAdrSetUp(adr%v)
  end subroutine

  !> EasAdrGetLocalGrid - this rank's box: first global indices (0-based) and sizes.
  subroutine EasAdrGetLocalGrid(adr, xs, ys, zs, nxl, nyl, nzl, ierr)
    type(tEasAdr), intent(in) :: adr
    integer(EAS_INT), intent(out) :: xs, ys, zs, nxl, nyl, nzl
    PetscErrorCode, intent(out) :: ierr
    ierr = c_EasAdrGetLocalGrid(adr%v, xs, ys, zs, nxl, nyl, nzl)
  end subroutine

  !> EasAdrSolve - time steps to t_final (PETSC_DEFAULT_REAL: the final time
  !> or the number of steps set by the options).
  subroutine EasAdrSolve(adr, t_final, ierr)
    type(tEasAdr), intent(in) :: adr
    real(c_double), intent(in) :: t_final
    PetscErrorCode, intent(out) :: ierr
    ierr = c_EasAdrSolve(adr%v, t_final)
  end subroutine

  !> EasAdrGetLocalSolution - x => the rank's 2 nxl nyl nzl values (borrowed,
  !> read only; species interleaved: x(1 + s + 2 p) for point p, species s).
  subroutine EasAdrGetLocalSolution(adr, x, ierr)
    type(tEasAdr), intent(in) :: adr
    real(c_double), pointer, intent(out) :: x(:)
    PetscErrorCode, intent(out) :: ierr
    type(c_ptr) :: p
    integer(EAS_INT) :: n
    ierr = c_EasAdrGetLocalSolution(adr%v, p, n)
    if (ierr /= 0) return
    call c_f_pointer(p, x, [n])
  end subroutine

  subroutine EasAdrGetTime(adr, t, ierr)
    type(tEasAdr), intent(in) :: adr
    real(c_double), intent(out) :: t
    PetscErrorCode, intent(out) :: ierr
    ierr = c_EasAdrGetTime(adr%v, t)
  end subroutine

  !> EasAdrGetConvergedReason - EAS_ADR_CONVERGED_* or EAS_ADR_DIVERGED_*.
  subroutine EasAdrGetConvergedReason(adr, reason, ierr)
    type(tEasAdr), intent(in) :: adr
    integer(EAS_INT), intent(out) :: reason
    PetscErrorCode, intent(out) :: ierr
    integer(c_int) :: r
    ierr = c_EasAdrGetConvergedReason(adr%v, r)
    reason = r
  end subroutine

  subroutine EasAdrGetStats(adr, stats, ierr)
    type(tEasAdr), intent(in) :: adr
    type(EasAdrStats), intent(out) :: stats
    PetscErrorCode, intent(out) :: ierr
    ierr = c_EasAdrGetStats(adr%v, stats)
  end subroutine

  !> EasAdrGetSolutionNatural - X (from DMDACreateNaturalVector of EasAdrGetDM's
  !> DMDA) = the solution in natural ordering.  Collective.
  subroutine EasAdrGetSolutionNatural(adr, X, ierr)
    type(tEasAdr), intent(in) :: adr
    type(tVec), intent(in) :: X
    PetscErrorCode, intent(out) :: ierr
    ierr = c_EasAdrGetSolutionNatural(adr%v, petsc_ptr(X%v))
  end subroutine

  !> EasAdrGetDM - the solver's DMDA (borrowed), after EasAdrSetUp.
  subroutine EasAdrGetDM(adr, dm, ierr)
    type(tEasAdr), intent(in) :: adr
    type(tDM), intent(out) :: dm
    PetscErrorCode, intent(out) :: ierr
    type(c_ptr) :: p
    ierr = c_EasAdrGetDM(adr%v, p)
    dm%v = transfer(p, dm%v)
  end subroutine

  !> EasAdrGetEnergyMeter - the solver's energy meter (borrowed).
  subroutine EasAdrGetEnergyMeter(adr, m, ierr)
    type(tEasAdr), intent(in) :: adr
    type(tEasEnergyMeter), intent(out) :: m
    PetscErrorCode, intent(out) :: ierr
    ierr = c_EasAdrGetEnergyMeter(adr%v, m%v)
  end subroutine

  subroutine EasAdrDestroy(adr, ierr)
    type(tEasAdr), intent(inout) :: adr
    PetscErrorCode, intent(out) :: ierr
    ierr = c_EasAdrDestroy(adr%v)
  end subroutine

  ! ------------------------------------------------------------------ EBE
  subroutine EasEbeCreate(comm, ebe, ierr)
    MPI_Comm, intent(in) :: comm
    type(tEasEbe), intent(out) :: ebe
    PetscErrorCode, intent(out) :: ierr
    ierr = c_EasEbeCreate(comm, ebe%v)
  end subroutine

  !> EasEbeSetElements - the user path (one process): nel elements of nen nodes,
  !> dof unknowns per node, nnodes nodes; conn(e*nen + a + 1) the 0-based node
  !> of vertex a of element e; ael(e*m*m + i*m + j + 1) = A_e(i, j) (row-major,
  !> m = nen*dof).  The data are copied.
  subroutine EasEbeSetElements(ebe, nel, nen, dof, nnodes, conn, ael, ierr)
    type(tEasEbe), intent(in) :: ebe
    integer(EAS_INT), intent(in) :: nel, nen, dof, nnodes
    integer(EAS_INT), intent(in) :: conn(*)
    real(c_double), intent(in) :: ael(*)
    PetscErrorCode, intent(out) :: ierr
    integer(EAS_INT), allocatable :: c(:)
    real(c_double), allocatable :: a(:)
    allocate (c(max(nel * nen, 1)), a(max(nel * (nen * dof)**2, 1)))
    c(1:nel * nen) = conn(1:nel * nen)
    a(1:nel * (nen * dof)**2) = ael(1:nel * (nen * dof)**2)
    ierr = c_EasEbeSetElements(ebe%v, nel, nen, dof, nnodes, c, a)
  end subroutine

  !> EasEbeSetFromMesh - the built-in hexahedral mesh of the unit cube:
  !> problem EAS_EBE_POISSON or EAS_EBE_ELASTICITY, order 1 or 2, nx x ny x nz elements.
  subroutine EasEbeSetFromMesh(ebe, problem, order, nx, ny, nz, ierr)
    type(tEasEbe), intent(in) :: ebe
    integer(c_int), intent(in) :: problem
    integer(EAS_INT), intent(in) :: order, nx, ny, nz
    PetscErrorCode, intent(out) :: ierr
    ierr = c_EasEbeSetFromMesh(ebe%v, problem, order, nx, ny, nz)
  end subroutine

  subroutine EasEbeSetFromOptions(ebe, ierr)
    type(tEasEbe), intent(in) :: ebe
    PetscErrorCode, intent(out) :: ierr
    ierr = c_EasEbeSetFromOptions(ebe%v)
  end subroutine

  subroutine EasEbeSetUp(ebe, ierr)
    type(tEasEbe), intent(in) :: ebe
    PetscErrorCode, intent(out) :: ierr
    ierr = c_EasEbeSetUp(ebe%v)
  end subroutine

  subroutine EasEbeGetSizes(ebe, nel, nen, dof, nnodes, nowned, ierr)
    type(tEasEbe), intent(in) :: ebe
    integer(EAS_INT), intent(out) :: nel, nen, dof, nnodes, nowned
    PetscErrorCode, intent(out) :: ierr
    ierr = c_EasEbeGetSizes(ebe%v, nel, nen, dof, nnodes, nowned)
  end subroutine

  subroutine EasEbeCreateVecs(ebe, x, y, ierr)
    type(tEasEbe), intent(in) :: ebe
    type(tEasVec), intent(out) :: x, y
    PetscErrorCode, intent(out) :: ierr
    ierr = c_EasEbeCreateVecs(ebe%v, x%v, y%v)
  end subroutine

  !> EasEbeMult - y = A x.
  subroutine EasEbeMult(ebe, x, y, ierr)
    type(tEasEbe), intent(in) :: ebe
    type(tEasVec), intent(in) :: x, y
    PetscErrorCode, intent(out) :: ierr
    ierr = c_EasEbeMult(ebe%v, x%v, y%v)
  end subroutine

  !> EasEbeComputeRHSManufactured - b for the built-in mesh's manufactured
  !> solution (EasEbeGetManufacturedSolution): its body force, its boundary values.
  subroutine EasEbeComputeRHSManufactured(ebe, b, ierr)
    type(tEasEbe), intent(in) :: ebe
    type(tEasVec), intent(in) :: b
    PetscErrorCode, intent(out) :: ierr
    type(c_funptr) :: u, f
    type(c_ptr) :: ctx
    ierr = c_EasEbeGetManufacturedSolution(ebe%v, u, f, ctx)
    if (ierr /= 0) return
    ierr = c_EasEbeComputeRHS(ebe%v, f, u, ctx, b%v)
  end subroutine

  !> EasEbeComputeErrorManufactured - err = (L2, energy) error of x against the
  !> manufactured solution, nrm = the same norms of the solution.  Collective.
  subroutine EasEbeComputeErrorManufactured(ebe, x, err, nrm, ierr)
    type(tEasEbe), intent(in) :: ebe
    type(tEasVec), intent(in) :: x
    real(c_double), intent(out) :: err(2), nrm(2)
    PetscErrorCode, intent(out) :: ierr
    type(c_funptr) :: u, f
    type(c_ptr) :: ctx
    ierr = c_EasEbeGetManufacturedSolution(ebe%v, u, f, ctx)
    if (ierr /= 0) return
    ierr = c_EasEbeComputeError(ebe%v, x%v, u, ctx, err, nrm)
  end subroutine

  !> EasEbeGetEnergyMeter - the operator's energy meter (borrowed; created on first request).
  subroutine EasEbeGetEnergyMeter(ebe, m, ierr)
    type(tEasEbe), intent(in) :: ebe
    type(tEasEnergyMeter), intent(out) :: m
    PetscErrorCode, intent(out) :: ierr
    ierr = c_EasEbeGetEnergyMeter(ebe%v, m%v)
  end subroutine

  subroutine EasEbeDestroy(ebe, ierr)
    type(tEasEbe), intent(inout) :: ebe
    PetscErrorCode, intent(out) :: ierr
    ierr = c_EasEbeDestroy(ebe%v)
  end subroutine

  ! --------------------------------------------------------------- energy
  subroutine EasEnergyMeterStop(m, ierr)
    type(tEasEnergyMeter), intent(in) :: m
    PetscErrorCode, intent(out) :: ierr
    ierr = c_EasEnergyMeterStop(m%v)
  end subroutine

  !> EasEnergyMeterViewFromOptions - the energy report when -eas_energy_view was given.
  subroutine EasEnergyMeterViewFromOptions(m, ierr)
    type(tEasEnergyMeter), intent(in) :: m
    PetscErrorCode, intent(out) :: ierr
    ierr = c_EasEnergyMeterViewFromOptions(m%v)
  end subroutine

  !> EasEnergyMeterGetSummary - the run's figures (collective).
  subroutine EasEnergyMeterGetSummary(m, S, ierr)
    type(tEasEnergyMeter), intent(in) :: m
    type(EasEnergySummary), intent(out) :: S
    PetscErrorCode, intent(out) :: ierr
    ierr = c_EasEnergyMeterGetSummary(m%v, S)
  end subroutine
end module eas
