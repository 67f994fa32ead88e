!
!  ebef: eas's element-by-element operator driven from Fortran through module
!  eas (docs/fortran.md).  The same calls as its C counterpart ebec.c, whose
!  "result" lines it must reproduce to 1e-12 (tests/test_fortran.py):
!    1. elements given by the program (EasEbeSetElements, one process each):
!       a chain of ne two-node elements, element matrix = stiffness
!       [1 -1; -1 1]/h + mass h/6 [2 1; 1 2] (SPD), b = 1, solved by eas's CG
!       with Jacobi (EasKspSetOperatorEbe, EasKspSolve); its, residual and
!       the solution's entries summed;
!    2. the built-in mesh (EasEbeSetFromMesh, Poisson, Q1 or Q2, distributed
!       in z-slabs) with its manufactured solution: the right-hand side, a
!       solve (-ksp_type cg|pipecg, -pc_type), the discretization error;
!    and the energy report of the mesh operator (-eas_energy_view).
!
#include <petsc/finclude/petscsys.h>
program ebef
  use petscsys
  use eas
  implicit none
  type(tEasEbe) :: chain, mesh
  type(tEasKsp) :: ksp
  type(tEasVec) :: b, x
  type(tEasEnergyMeter) :: meter
  PetscErrorCode :: ierr
  integer(EAS_INT) :: ne, e, its, reason, order, n, nel, nen, dof, nnodes, nowned
  integer(EAS_INT), allocatable :: conn(:)
  real(8), allocatable :: ael(:), v(:)
  real(8) :: h, rnorm, err(2), nrm(2)
  PetscBool :: flg

  call EasInitialize(ierr)
  if (ierr /= 0) stop 1
  ! 1. the program's elements
  ne = 40
  PetscCallA(PetscOptionsGetInt(PETSC_NULL_OPTIONS, PETSC_NULL_CHARACTER, '-chain_n', ne, flg, ierr))
  h = 1.0d0 / ne
  allocate (conn(2 * ne), ael(4 * ne), v(ne + 1))
  do e = 0, ne - 1
    conn(2 * e + 1) = e
    conn(2 * e + 2) = e + 1
    ael(4 * e + 1:4 * e + 4) = [1.0d0 / h + 2.0d0 * h / 6.0d0, -1.0d0 / h + h / 6.0d0, -1.0d0 / h + h / 6.0d0, 1.0d0 / h + 2.0d0 * h / 6.0d0]
  end do
  PetscCallA(EasEbeCreate(PETSC_COMM_SELF, chain, ierr))
  PetscCallA(EasEbeSetElements(chain, ne, 2_EAS_INT, 1_EAS_INT, ne + 1, conn, ael, ierr))
  PetscCallA(EasEbeSetUp(chain, ierr))
  PetscCallA(EasEbeCreateVecs(chain, b, x, ierr))
  v = 1.0d0
  PetscCallA(EasVecSetValues(b, v, ierr))
  PetscCallA(EasKspCreate(PETSC_COMM_SELF, ksp, ierr))
  PetscCallA(EasKspSetType(ksp, EAS_CG, ierr))
  PetscCallA(EasKspSetPCType(ksp, EAS_PCJACOBI, ierr))
  PetscCallA(EasKspSetTolerances(ksp, 1.0d-12, PETSC_DEFAULT_REAL, PETSC_DEFAULT_REAL, PETSC_DEFAULT_INTEGER, ierr))
  PetscCallA(EasKspSetOperatorEbe(ksp, chain, ierr))
  PetscCallA(EasKspSolve(ksp, b, x, ierr))
  PetscCallA(EasKspGetIterationNumber(ksp, its, ierr))
  PetscCallA(EasKspGetResidualNorm(ksp, rnorm, ierr))
  PetscCallA(EasVecGetValues(x, v, ierr))
  call result_int('chain_its', its)
  call result_real('chain_rnorm', rnorm)
  call result_real('chain_sum', sum(v))
  call result_real('chain_weighted_sum', sum(v * [(real(e + 1, 8), e = 0, ne)]))
  PetscCallA(EasKspDestroy(ksp, ierr))
  PetscCallA(EasVecDestroy(b, ierr))
  PetscCallA(EasVecDestroy(x, ierr))
  PetscCallA(EasEbeDestroy(chain, ierr))
  ! 2. the built-in mesh and its manufactured solution
  order = 1
  n = 6
  PetscCallA(PetscOptionsGetInt(PETSC_NULL_OPTIONS, PETSC_NULL_CHARACTER, '-mesh_order', order, flg, ierr))
  PetscCallA(PetscOptionsGetInt(PETSC_NULL_OPTIONS, PETSC_NULL_CHARACTER, '-mesh_n', n, flg, ierr))
  PetscCallA(EasEbeCreate(PETSC_COMM_WORLD, mesh, ierr))
  PetscCallA(EasEbeSetFromMesh(mesh, EAS_EBE_POISSON, order, n, n, n, ierr))
  PetscCallA(EasEbeSetFromOptions(mesh, ierr))
  PetscCallA(EasEbeSetUp(mesh, ierr))
  PetscCallA(EasEbeGetSizes(mesh, nel, nen, dof, nnodes, nowned, ierr))
  PetscCallA(EasEbeCreateVecs(mesh, b, x, ierr))
  PetscCallA(EasEbeComputeRHSManufactured(mesh, b, ierr))
  PetscCallA(EasKspCreate(PETSC_COMM_WORLD, ksp, ierr))
  PetscCallA(EasKspSetType(ksp, EAS_CG, ierr))
  PetscCallA(EasKspSetTolerances(ksp, 1.0d-12, PETSC_DEFAULT_REAL, PETSC_DEFAULT_REAL, PETSC_DEFAULT_INTEGER, ierr))
  PetscCallA(EasKspSetOperatorEbe(ksp, mesh, ierr))
  PetscCallA(EasKspSetFromOptions(ksp, ierr))
  PetscCallA(EasKspSolve(ksp, b, x, ierr))
  PetscCallA(EasKspGetIterationNumber(ksp, its, ierr))
  PetscCallA(EasKspGetConvergedReason(ksp, reason, ierr))
  PetscCallA(EasEbeComputeErrorManufactured(mesh, x, err, nrm, ierr))
  call result_int('mesh_nen', nen)
  call result_int('mesh_its', its)
  call result_int('mesh_reason', reason)
  call result_real('mesh_err_l2', err(1))
  call result_real('mesh_err_energy', err(2))
  call result_real('mesh_norm_l2', nrm(1))
  PetscCallA(EasEbeGetEnergyMeter(mesh, meter, ierr))
  PetscCallA(EasEnergyMeterViewFromOptions(meter, ierr))
  PetscCallA(EasKspDestroy(ksp, ierr))
  PetscCallA(EasVecDestroy(b, ierr))
  PetscCallA(EasVecDestroy(x, ierr))
  PetscCallA(EasEbeDestroy(mesh, ierr))
  deallocate (conn, ael, v)
  call EasFinalize(ierr)

contains

  subroutine result_real(name, val)
    character(len=*), intent(in) :: name
    real(8), intent(in) :: val
    character(len=80) :: line
    write (line, '(a,1x,a,1x,es24.16e3)') 'result', name, val
    PetscCallA(PetscPrintf(PETSC_COMM_WORLD, trim(line)//new_line('a'), ierr))
  end subroutine

  subroutine result_int(name, val)
    character(len=*), intent(in) :: name
    integer(EAS_INT), intent(in) :: val
    character(len=80) :: line
    write (line, '(a,1x,a,1x,i0)') 'result', name, val
    PetscCallA(PetscPrintf(PETSC_COMM_WORLD, trim(line)//new_line('a'), ierr))
  end subroutine
end program ebef
