/*
  /cpu/memcheck: the ADR assembly ops, the CPU backend's after the checks.
*/
#include "memcheckimpl.h"

PetscErrorCode EasAdrFunction_Memcheck(EasBackend be, const EasAdrKParams *P, const PetscScalar *w, const PetscScalar *xg, const PetscScalar *xold, PetscScalar *Rv, PetscScalar *dRv, PetscScalar *F, PetscScalar sums[3])
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;
  const size_t         np = (size_t)P->np;

  PetscFunctionBegin;
  EasMemcheckSyncPoint(be);
  EasMcCheck("adr_function", "w", w, 6 * np * EAS_SC);
  EasMcCheck("adr_function", "xg", xg, 2 * (size_t)(P->nx + 2) * (P->ny + 2) * (P->nz + 2) * EAS_SC);
  EasMcCheck("adr_function", "xold", xold, 2 * np * EAS_SC);
  EasMcCheck("adr_function", "Rv", Rv, 2 * np * EAS_SC);
  EasMcCheck("adr_function", "dRv", dRv, 4 * np * EAS_SC);
  EasMcCheck("adr_function", "F", F, 2 * np * EAS_SC);
  PetscCall(mc->cpu.adr_function(be, P, w, xg, xold, Rv, dRv, F, sums));
  PetscFunctionReturn(0);
}

PetscErrorCode EasAdrJacobian_Memcheck(EasBackend be, const EasAdrKParams *P, const PetscScalar *w, const PetscScalar *dRv, PetscScalar *V, PetscInt ld)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;
  const size_t         np = (size_t)P->np;

  PetscFunctionBegin;
  EasMcCheck("adr_jacobian", "w", w, 6 * np * EAS_SC);
  EasMcCheck("adr_jacobian", "dRv", dRv, 4 * np * EAS_SC);
  EasMcCheck("adr_jacobian", "V", V, (size_t)(P->ycoupled ? 9 : 7) * ld * EAS_SC);
  PetscCall(mc->cpu.adr_jacobian(be, P, w, dRv, V, ld));
  PetscFunctionReturn(0);
}

PetscErrorCode EasAdrJacobianJacobi_Memcheck(EasBackend be, const EasAdrKParams *P, const PetscScalar *wl, const PetscScalar *dRv, PetscScalar *dinv, PetscScalar *V, float *Vf, PetscInt ld, PetscInt *zero_row)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;
  const size_t         np = (size_t)P->np;

  PetscFunctionBegin;
  EasMemcheckSyncPoint(be);
  PetscCheck(ld >= 2 * P->np, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "/cpu/memcheck: adr_jacobian_jacobi: ld %" PetscInt_FMT " below the 2 np = %" PetscInt_FMT " rows", ld, 2 * (PetscInt)P->np);
  EasMcCheck("adr_jacobian_jacobi", "wl", wl, 7 * np * EAS_SC);
  EasMcCheck("adr_jacobian_jacobi", "dRv", dRv, 4 * np * EAS_SC);
  EasMcCheck("adr_jacobian_jacobi", "dinv", dinv, 2 * np * EAS_SC);
  EasMcCheck("adr_jacobian_jacobi", "V", V, (size_t)(P->ycoupled ? 9 : 7) * ld * EAS_SC);
  if (Vf) EasMcCheck("adr_jacobian_jacobi", "Vf", Vf, (size_t)(P->ycoupled ? 9 : 7) * ld * sizeof(float));
  PetscCall(mc->cpu.adr_jacobian_jacobi(be, P, wl, dRv, dinv, V, Vf, ld, zero_row));
  PetscFunctionReturn(0);
}

PetscErrorCode EasAdrPack_Memcheck(EasBackend be, const EasAdrKHalo *H, const PetscScalar *x, PetscScalar *buf)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;

  PetscFunctionBegin;
  EasMcCheck("adr_pack", "x", x, 2 * (size_t)H->nx * H->ny * H->nz * EAS_SC);
  EasMcCheck("adr_pack", "buf", buf, 2 * (size_t)H->pack_start[6] * EAS_SC);
  PetscCall(mc->cpu.adr_pack(be, H, x, buf));
  PetscFunctionReturn(0);
}

PetscErrorCode EasAdrPad_Memcheck(EasBackend be, const EasAdrKHalo *H, PetscScalar *x, const PetscScalar *ghost, const PetscScalar *bval, PetscScalar *xg)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;
  const size_t         g  = (size_t)H->pad;

  PetscFunctionBegin;
  EasMcCheck("adr_pad", "x", x, 2 * (size_t)H->nx * H->ny * H->nz * EAS_SC);
  EasMcCheck("adr_pad", "ghost", ghost, 2 * (size_t)H->pack_start[6] * EAS_SC);
  EasMcCheck("adr_pad", "bval", bval, 2 * (size_t)H->fill_start[6] * EAS_SC);
  EasMcCheck("adr_pad", "xg", xg, 2 * (H->nx + 2 * g) * (H->ny + 2 * g) * (H->nz + 2 * g) * EAS_SC);
  (void)mc;
  /* a launch's points have no order on a device: run them backwards (the
     CPU runs them forwards), so that a body reading what another point of
     the launch writes gives another answer here, deterministically (the
     zero-flux mirrors of an overlap's points did, issue 21) */
  for (EasKIdx t = (EasKIdx)H->nx * H->ny * H->nz + H->fill_start[6] - 1; t >= 0; t--) EasAdrKPadPoint(t, H, x, ghost, bval, xg);
  PetscFunctionReturn(0);
}

PetscErrorCode EasAdrUpdate_Memcheck(EasBackend be, const EasAdrKHalo *H, PetscScalar c, const PetscScalar *dinv, PetscScalar *y, PetscScalar *x, const PetscScalar *ewt, PetscBool keep, PetscScalar sums[5])
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;
  const size_t         np = (size_t)H->nx * H->ny * H->nz;

  PetscFunctionBegin;
  if (dinv) EasMcCheck("adr_update", "dinv", dinv, 2 * (size_t)np * EAS_SC);
  EasMcCheck("adr_update", "y", y, 2 * (size_t)np * EAS_SC);
  EasMcCheck("adr_update", "x", x, 2 * (size_t)np * EAS_SC);
  if (ewt) EasMcCheck("adr_update", "ewt", ewt, 2 * (size_t)np * EAS_SC);
  PetscCall(mc->cpu.adr_update(be, H, c, dinv, y, x, ewt, keep, sums));
  PetscFunctionReturn(0);
}
