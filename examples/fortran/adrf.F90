!
!  adrf: the ADR solver driven from Fortran through module eas (docs/fortran.md).
!  The same calls as its C counterpart adrc.c, whose "result" lines it must
!  reproduce to 1e-12 (tests/test_fortran.py):
!    EasInitialize, EasAdrCreate, EasAdrSetFromOptions (-adr_*, -eas_*),
!    EasAdrSetUp, EasAdrGetLocalGrid, EasAdrSolve, EasAdrGetConvergedReason,
!    EasAdrGetTime, EasAdrGetStats, EasAdrGetLocalSolution (species sums),
!    EasAdrGetDM + DMDACreateNaturalVector + EasAdrGetSolutionNatural (norms
!    and a position-weighted sum of the natural-ordered solution), the
!    energy report (-eas_energy_view), EasFinalize.
!
#include <petsc/finclude/petscdmda.h>
program adrf
  use petscdmda
  use eas
  implicit none
  type(tEasAdr) :: adr
  type(EasAdrStats) :: st
  type(tEasEnergyMeter) :: meter
  type(tDM) :: dm
  type(tVec) :: X, W
  PetscErrorCode :: ierr
  integer(EAS_INT) :: reason, xs, ys, zs, nxl, nyl, nzl, i, lo, hi, nglob(3), inner
  real(8) :: t, loc(3), glob(3), n1, n2, wsum
  real(8), pointer :: sol(:)
  PetscScalar, pointer :: wa(:)

  call EasInitialize(ierr)
  if (ierr /= 0) stop 1
  PetscCallA(EasAdrCreate(PETSC_COMM_WORLD, adr, ierr))
  PetscCallA(EasAdrSetFromOptions(adr, ierr))
  PetscCallA(EasAdrSetUp(adr, ierr))
  PetscCallA(EasAdrGetLocalGrid(adr, xs, ys, zs, nxl, nyl, nzl, ierr))
  PetscCallA(EasAdrSolve(adr, PETSC_DEFAULT_REAL, ierr))
  PetscCallA(EasAdrGetConvergedReason(adr, reason, ierr))
  PetscCallA(EasAdrGetTime(adr, t, ierr))
  PetscCallA(EasAdrGetStats(adr, st, ierr))
  ! species sums and squares of this rank's box, summed over the ranks
  PetscCallA(EasAdrGetLocalSolution(adr, sol, ierr))
  loc(1) = sum(sol(1::2))
  loc(2) = sum(sol(2::2))
  loc(3) = sum(sol**2)
  call MPI_Allreduce(loc, glob, 3, MPI_DOUBLE_PRECISION, MPI_SUM, PETSC_COMM_WORLD, ierr)
  nglob(1) = nxl * nyl * nzl
  call MPI_Allreduce(nglob(1), nglob(2), 1, MPIU_INTEGER, MPI_SUM, PETSC_COMM_WORLD, ierr)
  call MPI_Allreduce(st%inner_its, inner, 1, MPIU_INTEGER, MPI_MAX, PETSC_COMM_WORLD, ierr)
  ! the natural-ordered solution: norms and sum_i x_i (i+1)/n (the position of every entry counts)
  PetscCallA(EasAdrGetDM(adr, dm, ierr))
  PetscCallA(DMDACreateNaturalVector(dm, X, ierr))
  PetscCallA(EasAdrGetSolutionNatural(adr, X, ierr))
  PetscCallA(VecNorm(X, NORM_1, n1, ierr))
  PetscCallA(VecNorm(X, NORM_2, n2, ierr))
  PetscCallA(VecDuplicate(X, W, ierr))
  PetscCallA(VecGetOwnershipRange(W, lo, hi, ierr))
  PetscCallA(VecGetArrayF90(W, wa, ierr))
  do i = lo, hi - 1
    wa(i - lo + 1) = real(i + 1, 8) / real(2 * nglob(2), 8)
  end do
  PetscCallA(VecRestoreArrayF90(W, wa, ierr))
  PetscCallA(VecDot(X, W, wsum, ierr))
  call result_int('reason', reason)
  call result_int('steps', st%steps)
  call result_int('outer_its_max', st%outer_its_max)
  call result_int('inner_its_max', inner)
  call result_real('t', t)
  call result_real('sum_c1', glob(1))
  call result_real('sum_c2', glob(2))
  call result_real('sum_sq', glob(3))
  call result_real('natural_norm1', n1)
  call result_real('natural_norm2', n2)
  call result_real('natural_weighted_sum', wsum)
  PetscCallA(EasAdrGetEnergyMeter(adr, meter, ierr))
  PetscCallA(EasEnergyMeterViewFromOptions(meter, ierr))
  PetscCallA(VecDestroy(W, ierr))
  PetscCallA(VecDestroy(X, ierr))
  PetscCallA(EasAdrDestroy(adr, ierr))
  call EasFinalize(ierr)

contains

  subroutine result_real(name, v)
    character(len=*), intent(in) :: name
    real(8), intent(in) :: v
    character(len=80) :: line
    write (line, '(a,1x,a,1x,es24.16e3)') 'result', name, v
    PetscCallA(PetscPrintf(PETSC_COMM_WORLD, trim(line)//new_line('a'), ierr))
  end subroutine

  subroutine result_int(name, v)
    character(len=*), intent(in) :: name
    integer(EAS_INT), intent(in) :: v
    character(len=80) :: line
    write (line, '(a,1x,a,1x,i0)') 'result', name, v
    PetscCallA(PetscPrintf(PETSC_COMM_WORLD, trim(line)//new_line('a'), ierr))
  end subroutine
end program adrf
