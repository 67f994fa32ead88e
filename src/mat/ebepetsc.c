/*
  The EBE operator seen from PETSc, for the oracles (tests against PETSc's
  KSP) and for output: the assembled AIJ matrix in the global numbering
  and the copies between an operator's vectors and PETSc Vecs of that
  layout.
*/
#include "ebeimpl.h"

/*@C
  EasEbeAssemble - the assembled AIJ matrix (global numbering) for oracles.
@*/
PetscErrorCode EasEbeAssemble(EasEbe ebe, Mat *A)
{
  const PetscInt m = ebe->nen * ebe->dof, nloc = ebe->nowned * ebe->dof;
  PetscInt       nz, N                         = ebe->nglobal_nodes * ebe->dof, idx[EAS_EBE_MAXM];

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  nz = ebe->from_mesh ? (ebe->order == 1 ? 27 : 125) * ebe->dof : PetscMin(N, 8 * m);
  PetscCall(MatCreate(PetscObjectComm((PetscObject)ebe), A));
  PetscCall(MatSetSizes(*A, nloc, nloc, N, N));
  PetscCall(MatSetType(*A, MATAIJ));
  PetscCall(MatSetBlockSize(*A, ebe->dof));
  PetscCall(MatSeqAIJSetPreallocation(*A, PetscMin(nz, N), NULL));
  PetscCall(MatMPIAIJSetPreallocation(*A, PetscMin(nz, nloc), NULL, PetscMin(nz, N), NULL));
  PetscCall(MatSetOption(*A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  for (PetscInt e = 0; e < ebe->nel; e++) {
    for (PetscInt a = 0; a < ebe->nen; a++)
      for (PetscInt k = 0; k < ebe->dof; k++) idx[a * ebe->dof + k] = ebe->l2g[ebe->conn[e * ebe->nen + a]] * ebe->dof + k;
    PetscCall(MatSetValues(*A, m, idx, m, idx, ebe->ael + (size_t)e * m * m, ADD_VALUES));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

PetscErrorCode EasEbeVecToPetsc(EasEbe ebe, EasVec v, Vec x)
{
  const PetscScalar *va;
  PetscScalar       *xa;
  PetscInt           nl;

  PetscFunctionBegin;
  PetscCall(EasEbeCheckVec_Private(ebe, v, "v"));
  PetscCall(VecGetLocalSize(x, &nl));
  PetscCheck(nl == ebe->nowned * ebe->dof, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "EasEbeVecToPetsc: Vec has %" PetscInt_FMT " local entries, expected %" PetscInt_FMT " (owned nodes x dof)", nl, ebe->nowned * ebe->dof);
  PetscCall(EasVecGetArrayRead(v, &va));
  PetscCall(VecGetArrayWrite(x, &xa));
  PetscCall(PetscArraycpy(xa, va, nl));
  PetscCall(VecRestoreArrayWrite(x, &xa));
  PetscCall(EasVecRestoreArrayRead(v, &va));
  PetscFunctionReturn(0);
}

PetscErrorCode EasEbeVecFromPetsc(EasEbe ebe, Vec x, EasVec v)
{
  const PetscScalar *xa;
  PetscScalar       *va;
  PetscInt           nl;

  PetscFunctionBegin;
  PetscCall(EasEbeCheckVec_Private(ebe, v, "v"));
  PetscCall(VecGetLocalSize(x, &nl));
  PetscCheck(nl == ebe->nowned * ebe->dof, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "EasEbeVecFromPetsc: Vec has %" PetscInt_FMT " local entries, expected %" PetscInt_FMT " (owned nodes x dof)", nl, ebe->nowned * ebe->dof);
  PetscCall(VecGetArrayRead(x, &xa));
  PetscCall(EasVecGetArrayWrite(v, &va));
  PetscCall(PetscArraycpy(va, xa, nl));
  for (PetscInt i = nl; i < ebe->nnodes * ebe->dof; i++) va[i] = 0.0;
  PetscCall(EasEbeExchange_Private(ebe, va, ebe->dof)); /* ghosts: 0 + owner's value */
  PetscCall(EasVecRestoreArrayWrite(v, &va));
  PetscCall(VecRestoreArrayRead(x, &xa));
  PetscFunctionReturn(0);
}
