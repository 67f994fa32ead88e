/*
  /cpu/memcheck: DIA products (the CPU ops, or with -eas_memcheck_spmv csr the
  private CSR copy, the path of -eas_cuda_spmv cusparse), the fused BiCGStab
  sweeps and right Jacobi, after the checks.
*/
#include "memcheckimpl.h"

/* Per-matrix data (EasDiaKernel.ctx): the CSR copy, in backend memory. */
typedef struct {
  PetscBool    built;
  PetscInt     nnz;
  PetscInt    *rowptr, *colind;
  PetscScalar *vals;
} EasDiaCtx_Memcheck;

/* ------------------------------------------------------------------ DIA and its private CSR copy */

static PetscErrorCode EasDiaCtxFree_Memcheck(EasBackend be, EasDiaCtx_Memcheck *ctx)
{
  PetscFunctionBegin;
  PetscCall(EasFree_Memcheck(be, ctx->rowptr));
  PetscCall(EasFree_Memcheck(be, ctx->colind));
  PetscCall(EasFree_Memcheck(be, ctx->vals));
  PetscCall(PetscMemzero(ctx, sizeof(*ctx)));
  PetscFunctionReturn(0);
}

/* The CSR copy in backend memory: built on the host by the shared code
   (devcommon.c, as the CUDA backend's cuSPARSE copy is), then uploaded. */
static PetscErrorCode EasDiaBuildCSR_Memcheck(EasBackend be, const EasDiaKernel *A, EasDiaCtx_Memcheck *ctx)
{
  PetscInt    *rowptr, *colind, nnz;
  PetscScalar *vals;

  PetscFunctionBegin;
  PetscCall(EasDiaCtxFree_Memcheck(be, ctx));
  PetscCall(EasDiaBuildCSRHost(be, A, &nnz, &rowptr, &colind, &vals));
  PetscCall(EasMalloc_Memcheck(be, (size_t)(A->n + 1) * EAS_IN, (void **)&ctx->rowptr));
  PetscCall(EasMalloc_Memcheck(be, (size_t)nnz * EAS_IN, (void **)&ctx->colind));
  PetscCall(EasMalloc_Memcheck(be, (size_t)nnz * EAS_SC, (void **)&ctx->vals));
  PetscCall(EasBackendCopyHtoD(be, ctx->rowptr, rowptr, (size_t)(A->n + 1) * EAS_IN));
  PetscCall(EasBackendCopyHtoD(be, ctx->colind, colind, (size_t)nnz * EAS_IN));
  PetscCall(EasBackendCopyHtoD(be, ctx->vals, vals, (size_t)nnz * EAS_SC));
  PetscCall(PetscFree(rowptr));
  PetscCall(PetscFree(colind));
  PetscCall(PetscFree(vals));
  ctx->nnz   = nnz;
  ctx->built = PETSC_TRUE;
  PetscCall(PetscInfo(be, "CSR copy: n %" PetscInt_FMT ", %" PetscInt_FMT " offsets, nnz %" PetscInt_FMT "\n", A->n, A->ndiag, nnz));
  PetscFunctionReturn(0);
}

PetscErrorCode EasDiaSetUp_Memcheck(EasBackend be, EasDiaKernel *A)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;
  EasDiaCtx_Memcheck  *ctx;

  PetscFunctionBegin;
  PetscCall(EasMemcheckCheckDia(be, "dia_setup", A));
  if (A->ctx) {
    ctx = (EasDiaCtx_Memcheck *)A->ctx;
    PetscCall(EasDiaCtxFree_Memcheck(be, ctx));
  } else {
    PetscCall(PetscNew(&ctx));
    A->ctx = ctx;
  }
  if (mc->mode == EAS_MEMCHECK_SPMV_CSR && A->n > 0) PetscCall(EasDiaBuildCSR_Memcheck(be, A, ctx));
  PetscFunctionReturn(0);
}

PetscErrorCode EasDiaDestroy_Memcheck(EasBackend be, EasDiaKernel *A)
{
  PetscFunctionBegin;
  if (A->ctx) {
    PetscCall(EasDiaCtxFree_Memcheck(be, (EasDiaCtx_Memcheck *)A->ctx));
    PetscCall(PetscFree(A->ctx));
  }
  PetscFunctionReturn(0);
}

/* The CSR copy for a csr-mode product (built now if the mode was switched
   after dia_setup), or NULL for the DIA kernels. */
static PetscErrorCode EasDiaGetCSR_Memcheck(EasBackend be, const EasDiaKernel *A, EasDiaCtx_Memcheck **csr)
{
  EasBackend_Memcheck *mc  = (EasBackend_Memcheck *)be->data;
  EasDiaCtx_Memcheck  *ctx = (EasDiaCtx_Memcheck *)A->ctx;

  PetscFunctionBegin;
  *csr = NULL;
  if (mc->mode != EAS_MEMCHECK_SPMV_CSR || A->n <= 0) PetscFunctionReturn(0);
  PetscCheck(ctx, PETSC_COMM_SELF, PETSC_ERR_ORDER, "/cpu/memcheck: a DIA product on a matrix not set up by dia_setup");
  /* the CSR copy holds double values, as -eas_cuda_spmv cusparse's (docs/adr.md) */
  PetscCheck(!A->valf, PETSC_COMM_SELF, PETSC_ERR_SUP, "Single-precision DIA values (-adr_jacobian_precision single, EasDiaSetPrecision) are read by the DIA kernels only, not by the CSR copy of -eas_memcheck_spmv csr: use -eas_memcheck_spmv native, or -adr_jacobian_precision double");
  if (!ctx->built) PetscCall(EasDiaBuildCSR_Memcheck(be, A, ctx));
  EasMcCheck("csr", "rowptr", ctx->rowptr, (size_t)(A->n + 1) * EAS_IN);
  EasMcCheck("csr", "colind", ctx->colind, (size_t)ctx->nnz * EAS_IN);
  EasMcCheck("csr", "vals", ctx->vals, (size_t)ctx->nnz * EAS_SC);
  *csr = ctx;
  PetscFunctionReturn(0);
}

static void EasCsrMult_Memcheck(EasBackend be, PetscInt n, const EasDiaCtx_Memcheck *csr, const PetscScalar *x, PetscScalar *y)
{
#pragma omp parallel for schedule(static) num_threads((int)be->threads)
  for (PetscInt i = 0; i < n; i++) y[i] = EasCsrRow(i, csr->rowptr, csr->colind, csr->vals, x);
}

PetscErrorCode EasDiaMult_Memcheck(EasBackend be, const EasDiaKernel *A, const PetscScalar *x, PetscScalar *y)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;
  EasDiaCtx_Memcheck  *csr;

  PetscFunctionBegin;
  PetscCall(EasMemcheckCheckDia(be, "dia_mult", A));
  EasMcCheck("dia_mult", "x", x, A->n * EAS_SC);
  EasMcCheck("dia_mult", "y", y, A->n * EAS_SC);
  PetscCall(EasDiaGetCSR_Memcheck(be, A, &csr));
  if (csr) {
    EasCsrMult_Memcheck(be, A->n, csr, x, y);
    PetscCall(PetscLogFlops(2.0 * csr->nnz));
  } else
    PetscCall(mc->cpu.dia_mult(be, A, x, y));
  PetscFunctionReturn(0);
}

/* valf = (float) val (EasDiaSetPrecision): the CPU op after the checks. */
PetscErrorCode EasDiaSingle_Memcheck(EasBackend be, const EasDiaKernel *A, float *valf)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;

  PetscFunctionBegin;
  EasMcCheck("dia_single", "A->off", A->off, (size_t)A->ndiag * EAS_IN);
  EasMcCheck("dia_single", "A->val", A->val, (size_t)A->ndiag * A->ld * EAS_SC);
  EasMcCheck("dia_single", "valf", valf, (size_t)A->ndiag * A->ld * sizeof(float));
  PetscCall(mc->cpu.dia_single(be, A, valf));
  PetscFunctionReturn(0);
}

PetscErrorCode EasDiaMultTranspose_Memcheck(EasBackend be, const EasDiaKernel *A, const PetscScalar *x, PetscScalar *y)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;
  EasDiaCtx_Memcheck  *csr;

  PetscFunctionBegin;
  PetscCall(EasMemcheckCheckDia(be, "dia_mult_transpose", A));
  EasMcCheck("dia_mult_transpose", "x", x, A->n * EAS_SC);
  EasMcCheck("dia_mult_transpose", "y", y, A->n * EAS_SC);
  PetscCall(EasDiaGetCSR_Memcheck(be, A, &csr));
  if (csr) {
    for (PetscInt i = 0; i < A->n; i++) y[i] = 0.0;
    for (PetscInt i = 0; i < A->n; i++) EasCsrRowTransposeScatter(i, csr->rowptr, csr->colind, csr->vals, x, y);
    PetscCall(PetscLogFlops(2.0 * csr->nnz));
  } else
    PetscCall(mc->cpu.dia_mult_transpose(be, A, x, y));
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------ fused BiCGStab sweeps */

/* csr mode: the update, the CSR product and the dots as separate passes
   (as the CUDA backend does in cusparse mode). */
PetscErrorCode EasBcgsSweep1_Memcheck(EasBackend be, const EasDiaKernel *A, PetscScalar beta, PetscScalar omega, const PetscScalar *r, const PetscScalar *p_old, const PetscScalar *v_old, const PetscScalar *rhat, PetscScalar *p_new, PetscScalar *v_new, PetscScalar dots[2])
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;
  const PetscInt       n  = A->n;
  EasDiaCtx_Memcheck  *csr;

  PetscFunctionBegin;
  EasMemcheckSyncPoint(be);
  PetscCall(EasMemcheckCheckDia(be, "bcgs_sweep1", A));
  EasMcCheck("bcgs_sweep1", "r", r, n * EAS_SC);
  EasMcCheck("bcgs_sweep1", "p_old", p_old, n * EAS_SC);
  EasMcCheck("bcgs_sweep1", "v_old", v_old, n * EAS_SC);
  EasMcCheck("bcgs_sweep1", "rhat", rhat, n * EAS_SC);
  EasMcCheck("bcgs_sweep1", "p_new", p_new, n * EAS_SC);
  EasMcCheck("bcgs_sweep1", "v_new", v_new, n * EAS_SC);
  PetscCall(EasDiaGetCSR_Memcheck(be, A, &csr));
  if (csr) {
    for (PetscInt i = 0; i < n; i++) p_new[i] = EasBcgsDirection(r[i], p_old[i], v_old[i], beta, omega);
    EasCsrMult_Memcheck(be, n, csr, p_new, v_new);
    PetscCall(mc->cpu.dot_local(be, n, rhat, v_new, &dots[0]));
    PetscCall(mc->cpu.dot_local(be, n, v_new, v_new, &dots[1]));
    PetscCall(PetscLogFlops(2.0 * csr->nnz + 4.0 * n));
  } else
    PetscCall(mc->cpu.bcgs_sweep1(be, A, beta, omega, r, p_old, v_old, rhat, p_new, v_new, dots));
  PetscFunctionReturn(0);
}

PetscErrorCode EasBcgsSweep2_Memcheck(EasBackend be, const EasDiaKernel *A, PetscScalar alpha, const PetscScalar *r, const PetscScalar *v, PetscScalar *s, PetscScalar *t, PetscScalar dots[3])
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;
  const PetscInt       n  = A->n;
  EasDiaCtx_Memcheck  *csr;

  PetscFunctionBegin;
  EasMemcheckSyncPoint(be);
  PetscCall(EasMemcheckCheckDia(be, "bcgs_sweep2", A));
  EasMcCheck("bcgs_sweep2", "r", r, n * EAS_SC);
  EasMcCheck("bcgs_sweep2", "v", v, n * EAS_SC);
  EasMcCheck("bcgs_sweep2", "s", s, n * EAS_SC);
  EasMcCheck("bcgs_sweep2", "t", t, n * EAS_SC);
  PetscCall(EasDiaGetCSR_Memcheck(be, A, &csr));
  if (csr) {
    for (PetscInt i = 0; i < n; i++) s[i] = EasBcgsSEntry(r[i], v[i], alpha);
    EasCsrMult_Memcheck(be, n, csr, s, t);
    PetscCall(mc->cpu.dot_local(be, n, t, s, &dots[0]));
    PetscCall(mc->cpu.dot_local(be, n, t, t, &dots[1]));
    PetscCall(mc->cpu.dot_local(be, n, s, s, &dots[2]));
    PetscCall(PetscLogFlops(2.0 * csr->nnz + 2.0 * n));
  } else
    PetscCall(mc->cpu.bcgs_sweep2(be, A, alpha, r, v, s, t, dots));
  PetscFunctionReturn(0);
}

PetscErrorCode EasBcgsSweep3_Memcheck(EasBackend be, PetscInt n, PetscScalar alpha, PetscScalar omega, PetscScalar *x, const PetscScalar *p, const PetscScalar *s, const PetscScalar *t, const PetscScalar *rhat, PetscScalar *r, PetscScalar dots[2])
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;

  PetscFunctionBegin;
  EasMemcheckSyncPoint(be);
  EasMcCheck("bcgs_sweep3", "x", x, n * EAS_SC);
  EasMcCheck("bcgs_sweep3", "p", p, n * EAS_SC);
  EasMcCheck("bcgs_sweep3", "s", s, n * EAS_SC);
  EasMcCheck("bcgs_sweep3", "t", t, n * EAS_SC);
  EasMcCheck("bcgs_sweep3", "rhat", rhat, n * EAS_SC);
  EasMcCheck("bcgs_sweep3", "r", r, n * EAS_SC);
  PetscCall(mc->cpu.bcgs_sweep3(be, n, alpha, omega, x, p, s, t, rhat, r, dots));
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------ right Jacobi */

PetscErrorCode EasDiaJacobi_Memcheck(EasBackend be, const EasDiaKernel *A, PetscInt dmain, PetscScalar *dinv, PetscScalar *bval, PetscInt *zero_row)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;

  PetscFunctionBegin;
  EasMemcheckSyncPoint(be);
  PetscCheck(0 <= dmain && dmain < A->ndiag, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "/cpu/memcheck: dia_jacobi: dmain %" PetscInt_FMT " outside [0, %" PetscInt_FMT ")", dmain, A->ndiag);
  PetscCall(EasMemcheckCheckDia(be, "dia_jacobi", A));
  EasMcCheck("dia_jacobi", "dinv", dinv, A->n * EAS_SC);
  EasMcCheck("dia_jacobi", "bval", bval, (size_t)A->ndiag * A->ld * EAS_SC);
  PetscCall(mc->cpu.dia_jacobi(be, A, dmain, dinv, bval, zero_row));
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------ ILU(0), the device form */

/* The parallel form a device runs (kernels/ilu.h, Chow and Patel): every
   row of a sweep reads only the previous iterate, so the host loops below
   are what the CUDA kernels do over (block, thread), in the same order of
   launches: the starting guess, `sweeps` factor sweeps (new iterate into
   fwork, copied back to f), the pivot scan, and with ff the rounding to
   float. */
PetscErrorCode EasIluFactor_Memcheck(EasBackend be, const EasDiaKernel *F, const EasDiaKernel *A, const PetscInt *pt, PetscInt dmain, PetscInt sweeps, PetscScalar *f, PetscScalar *fwork, float *ff, PetscInt *zero_row)
{
  const PetscInt n = F->n, nd = F->ndiag, ld = F->ld;
  const size_t   bytes = (size_t)nd * ld * EAS_SC;
  PetscInt       zr    = n;

  PetscFunctionBegin;
  PetscCheck(0 <= dmain && dmain < nd && sweeps >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "/cpu/memcheck: ilu_factor: dmain %" PetscInt_FMT " outside [0, %" PetscInt_FMT ") or sweeps %" PetscInt_FMT " < 0", dmain, nd, sweeps);
  PetscCheck(F->n == A->n, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "/cpu/memcheck: ilu_factor: the factor's %" PetscInt_FMT " rows and A's %" PetscInt_FMT " differ", F->n, A->n);
  EasMcCheck("ilu_factor", "F->off", F->off, (size_t)nd * EAS_IN);
  PetscCall(EasMemcheckCheckDia(be, "ilu_factor", A));
  EasMcCheck("ilu_factor", "pt", pt, (size_t)(2 * nd + 1) * EAS_IN);
  PetscCheck(pt[nd] >= 2 * nd + 1 && (pt[nd] - 2 * nd - 1) % 2 == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_CORRUPT, "/cpu/memcheck: ilu_factor: the pair table's length %" PetscInt_FMT " is not 2 nd + 1 + 2 x pairs", pt[nd]);
  EasMcCheck("ilu_factor", "pt", pt, (size_t)pt[nd] * EAS_IN);
  for (PetscInt g = 0; g < nd; g++) PetscCheck(EasIluAMap(pt, nd)[g] < A->ndiag && (g != dmain || EasIluAMap(pt, nd)[g] >= 0), PETSC_COMM_SELF, PETSC_ERR_ARG_CORRUPT, "/cpu/memcheck: ilu_factor: the factor's diagonal %" PetscInt_FMT " maps to A's %" PetscInt_FMT " of %" PetscInt_FMT, g, EasIluAMap(pt, nd)[g], A->ndiag);
  EasMcCheck("ilu_factor", "f", f, bytes);
  EasMcCheck("ilu_factor", "fwork", fwork, bytes);
#pragma omp parallel for schedule(static) num_threads((int)be->threads)
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt g = 0; g < nd; g++) f[(size_t)g * ld + i] = EasIluInitialEntry(i, g, n, nd, dmain, F->off, pt, A->val, A->ld);
  for (PetscInt s = 0; s < sweeps; s++) {
#pragma omp parallel for schedule(static) num_threads((int)be->threads)
    for (PetscInt i = 0; i < n; i++)
      for (PetscInt g = 0; g < nd; g++) fwork[(size_t)g * ld + i] = EasIluEntry(i, g, 1, n, nd, dmain, F->off, pt, A->val, A->ld, f, EasIluLayoutByDiagonals(dmain, ld));
#pragma omp parallel for schedule(static) num_threads((int)be->threads)
    for (PetscInt i = 0; i < n; i++)
      for (PetscInt g = 0; g < nd; g++) f[(size_t)g * ld + i] = fwork[(size_t)g * ld + i];
  }
#pragma omp parallel for schedule(static) num_threads((int)be->threads) reduction(min \
                                                                                  : zr)
  for (PetscInt i = 0; i < n; i++)
    if (EasIluBadPivot(f[(size_t)dmain * ld + i])) zr = PetscMin(zr, i);
  *zero_row = zr < n ? zr : -1;
  if (ff) {
    EasMcCheck("ilu_factor", "ff", ff, (size_t)nd * ld * sizeof(float));
#pragma omp parallel for schedule(static) num_threads((int)be->threads)
    for (PetscInt i = 0; i < n; i++)
      for (PetscInt g = 0; g < nd; g++) ff[(size_t)g * ld + i] = EasIluSingleEntry(f[(size_t)g * ld + i]);
  }
  PetscCall(PetscLogFlops((double)(pt[nd] - 2 * nd - 1 + 2 * nd) * n * sweeps)); /* a multiply-add per pair, a division or inverse per entry */
  PetscFunctionReturn(0);
}

/* z = U^{-1} L^{-1} p by Jacobi sweeps (Chow and Patel Section 4): the
   input entry, then `sweeps` sweeps y^{k+1} = p - (L - I) y^k from y^0 = p,
   then z^0 = D^{-1} y and `sweeps` sweeps z^{k+1} = D^{-1} (y - (U - D) z^k);
   the iterates alternate between z and the two halves of work. */
PetscErrorCode EasIluApply_Memcheck(EasBackend be, const EasDiaKernel *A, const PetscScalar *f, const float *ff, PetscInt dmain, PetscInt sweeps, PetscInt form, PetscScalar c1, PetscScalar c2, const PetscScalar *r, const PetscScalar *v, PetscScalar *p, PetscScalar *z, PetscScalar *work)
{
  const PetscInt     n = A->n, nd = A->ndiag, ld = A->ld;
  PetscScalar       *buf[3] = {z, work, work + n};
  const PetscScalar *y, *zold;
  PetscInt           yi = -1, zi;

  PetscFunctionBegin;
  PetscCheck(0 <= dmain && dmain < nd && sweeps >= 0 && 0 <= form && form <= 2, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "/cpu/memcheck: ilu_apply: dmain %" PetscInt_FMT ", sweeps %" PetscInt_FMT " or form %" PetscInt_FMT " out of range", dmain, sweeps, form);
  EasMcCheck("ilu_apply", "A->off", A->off, (size_t)nd * EAS_IN); /* the factor's pattern: its values are f */
  if (ff)
    EasMcCheck("ilu_apply", "ff", ff, (size_t)nd * ld * sizeof(float));
  else
    EasMcCheck("ilu_apply", "f", f, (size_t)nd * ld * EAS_SC);
  if (form) {
    EasMcCheck("ilu_apply", "r", r, n * EAS_SC);
    EasMcCheck("ilu_apply", "v", v, n * EAS_SC);
  }
  EasMcCheck("ilu_apply", "p", p, n * EAS_SC);
  EasMcCheck("ilu_apply", "z", z, n * EAS_SC);
  EasMcCheck("ilu_apply", "work", work, 2 * n * EAS_SC);
  if (form) {
#pragma omp parallel for schedule(static) num_threads((int)be->threads)
    for (PetscInt i = 0; i < n; i++) p[i] = EasIluInputEntry(i, (int)form, c1, c2, r, v, p);
  }
  /* L y = p: y^0 = p, then into work halves 1, 2, 1, ... */
  y = p;
  for (PetscInt s = 0; s < sweeps; s++) {
    const PetscInt o = yi == 1 ? 2 : 1;
#pragma omp parallel for schedule(static) num_threads((int)be->threads)
    for (PetscInt i = 0; i < n; i++) buf[o][i] = ff ? EasIluLowerRow_F(i, 1, dmain, A->off, ff, EasIluLayoutByDiagonals(dmain, ld), p, y) : EasIluLowerRow(i, 1, dmain, A->off, f, EasIluLayoutByDiagonals(dmain, ld), p, y);
    y  = buf[o];
    yi = o;
  }
  /* U z = y: z^0 = D^{-1} y in a buffer y does not use, then alternate, ending in z */
  zi = (sweeps % 2 == 0) ? 0 : (yi == 1 ? 2 : 1);
#pragma omp parallel for schedule(static) num_threads((int)be->threads)
  for (PetscInt i = 0; i < n; i++) buf[zi][i] = ff ? EasIluDiagEntry_F(i, dmain, ff, EasIluLayoutByDiagonals(dmain, ld), y) : EasIluDiagEntry(i, dmain, f, EasIluLayoutByDiagonals(dmain, ld), y);
  for (PetscInt s = 0; s < sweeps; s++) {
    const PetscInt o = (zi == 0) ? (yi == 1 ? 2 : 1) : 0;
    zold             = buf[zi];
#pragma omp parallel for schedule(static) num_threads((int)be->threads)
    for (PetscInt i = 0; i < n; i++) buf[o][i] = ff ? EasIluUpperRow_F(i, 1, n, nd, dmain, A->off, ff, EasIluLayoutByDiagonals(dmain, ld), y, zold) : EasIluUpperRow(i, 1, n, nd, dmain, A->off, f, EasIluLayoutByDiagonals(dmain, ld), y, zold);
    zi = o;
  }
  PetscCheck(zi == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "/cpu/memcheck: ilu_apply: the last iterate is not in z");
  PetscCall(PetscLogFlops((2.0 * nd + 2.0) * n * (sweeps + 1)));
  PetscFunctionReturn(0);
}
