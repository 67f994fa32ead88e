/*
  The C side of eas's Fortran interface (module eas, src/fortran/eas.F90,
  docs/fortran.md): Fortran binds to the public C functions directly
  (bind(C), handles as type(c_ptr)), except where a Fortran value has no C
  interoperable form: a communicator (a Fortran MPI integer), converted here
  with MPI_Comm_f2c.  No Fortran runtime is needed to build libeas.
*/
#include <eas.h>

PETSC_EXTERN PetscErrorCode EasFortranKspCreate(MPI_Fint comm, EasKsp *ksp);
PETSC_EXTERN PetscErrorCode EasFortranDiaCreate(MPI_Fint comm, EasDia *A);
PETSC_EXTERN PetscErrorCode EasFortranAdrCreate(MPI_Fint comm, EasAdr *adr);
PETSC_EXTERN PetscErrorCode EasFortranEbeCreate(MPI_Fint comm, EasEbe *ebe);

/* EasFortranKspCreate - EasKspCreate on the communicator of a Fortran MPI handle. */
PetscErrorCode EasFortranKspCreate(MPI_Fint comm, EasKsp *ksp)
{
  return EasKspCreate(MPI_Comm_f2c(comm), ksp);
}

/* EasFortranDiaCreate - EasDiaCreate on the communicator of a Fortran MPI handle. */
PetscErrorCode EasFortranDiaCreate(MPI_Fint comm, EasDia *A)
{
  return EasDiaCreate(MPI_Comm_f2c(comm), A);
}

/* EasFortranAdrCreate - EasAdrCreate on the communicator of a Fortran MPI handle. */
PetscErrorCode EasFortranAdrCreate(MPI_Fint comm, EasAdr *adr)
{
  return EasAdrCreate(MPI_Comm_f2c(comm), adr);
}

/* EasFortranEbeCreate - EasEbeCreate on the communicator of a Fortran MPI handle. */
PetscErrorCode EasFortranEbeCreate(MPI_Fint comm, EasEbe *ebe)
{
  return EasEbeCreate(MPI_Comm_f2c(comm), ebe);
}
