/*
  /cpu/memcheck: the vector ops, the CPU backend's after the checks.
*/
#include "memcheckimpl.h"

/* ------------------------------------------------------------------ vectors */

PetscErrorCode EasVecSet_Memcheck(EasBackend be, PetscInt n, PetscScalar alpha, PetscScalar *y)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;

  PetscFunctionBegin;
  EasMcCheck("set", "y", y, n * EAS_SC);
  PetscCall(mc->cpu.set(be, n, alpha, y));
  PetscFunctionReturn(0);
}

PetscErrorCode EasVecCopy_Memcheck(EasBackend be, PetscInt n, const PetscScalar *x, PetscScalar *y)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;

  PetscFunctionBegin;
  EasMcCheck("copy", "x", x, n * EAS_SC);
  EasMcCheck("copy", "y", y, n * EAS_SC);
  PetscCall(mc->cpu.copy(be, n, x, y));
  PetscFunctionReturn(0);
}

PetscErrorCode EasVecGather_Memcheck(EasBackend be, PetscInt n, const PetscInt *idx, const PetscScalar *x, PetscScalar *y)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;

  PetscFunctionBegin;
  EasMcCheck("gather", "idx", idx, n * sizeof(PetscInt));
  EasMcCheck("gather", "y", y, n * EAS_SC);
  for (PetscInt i = 0; i < n; i++) /* every source entry in x's allocation */
    if (idx[i] >= 0) EasMcCheck("gather", "x[idx]", x + idx[i], EAS_SC);
  PetscCall(mc->cpu.gather(be, n, idx, x, y));
  PetscFunctionReturn(0);
}

PetscErrorCode EasVecAXPBY_Memcheck(EasBackend be, PetscInt n, PetscScalar a, const PetscScalar *x, PetscScalar b, PetscScalar *y)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;

  PetscFunctionBegin;
  EasMcCheck("axpby", "x", x, n * EAS_SC);
  EasMcCheck("axpby", "y", y, n * EAS_SC);
  PetscCall(mc->cpu.axpby(be, n, a, x, b, y));
  PetscFunctionReturn(0);
}

PetscErrorCode EasVecPointwiseMult_Memcheck(EasBackend be, PetscInt n, const PetscScalar *x, const PetscScalar *y, PetscScalar *w)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;

  PetscFunctionBegin;
  EasMcCheck("pointwise_mult", "x", x, n * EAS_SC);
  EasMcCheck("pointwise_mult", "y", y, n * EAS_SC);
  EasMcCheck("pointwise_mult", "w", w, n * EAS_SC);
  PetscCall(mc->cpu.pointwise_mult(be, n, x, y, w));
  PetscFunctionReturn(0);
}

PetscErrorCode EasVecDot_Memcheck(EasBackend be, PetscInt n, const PetscScalar *x, const PetscScalar *y, PetscScalar *dot)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;

  PetscFunctionBegin;
  EasMemcheckSyncPoint(be);
  EasMcCheck("dot_local", "x", x, n * EAS_SC);
  EasMcCheck("dot_local", "y", y, n * EAS_SC);
  EasMcCheckHost("dot_local", "dot", dot, EAS_SC);
  PetscCall(mc->cpu.dot_local(be, n, x, y, dot));
  PetscFunctionReturn(0);
}
