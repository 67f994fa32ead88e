/*
  CPU backend: OpenMP loops around the shared kernel bodies (kernels.h).
  Backend memory is host memory, so vectors never copy.
*/
#include "../backend.h"
#include <omp.h>
#include <string.h>

/* Every parallel region uses the backend's thread count. */
#define EAS_OMP_THREADS(be) num_threads((int)(be)->threads)

static PetscErrorCode EasMalloc_CPU(EasBackend be, size_t bytes, void **p)
{
  PetscFunctionBegin;
  (void)be;
  PetscCall(PetscMalloc(bytes, p));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasFree_CPU(EasBackend be, void *p)
{
  PetscFunctionBegin;
  (void)be;
  PetscCall(PetscFree(p));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasCopyMem_CPU(EasBackend be, void *dst, const void *src, size_t bytes)
{
  PetscFunctionBegin;
  (void)be;
  if (bytes) PetscCall(PetscMemcpy(dst, src, bytes));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasVecSet_CPU(EasBackend be, PetscInt n, PetscScalar alpha, PetscScalar *y)
{
  PetscFunctionBegin;
#pragma omp parallel for schedule(static) EAS_OMP_THREADS(be)
  for (PetscInt i = 0; i < n; i++) y[i] = alpha;
  PetscFunctionReturn(0);
}

static PetscErrorCode EasVecCopy_CPU(EasBackend be, PetscInt n, const PetscScalar *x, PetscScalar *y)
{
  PetscFunctionBegin;
#pragma omp parallel for schedule(static) EAS_OMP_THREADS(be)
  for (PetscInt i = 0; i < n; i++) y[i] = x[i];
  PetscFunctionReturn(0);
}

static PetscErrorCode EasVecAXPBY_CPU(EasBackend be, PetscInt n, PetscScalar a, const PetscScalar *x, PetscScalar b, PetscScalar *y)
{
  PetscFunctionBegin;
#pragma omp parallel for schedule(static) EAS_OMP_THREADS(be)
  for (PetscInt i = 0; i < n; i++) y[i] = EasAxpbyEntry(a, x[i], b, y[i]);
  PetscCall(PetscLogFlops(3.0 * n));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasVecPointwiseMult_CPU(EasBackend be, PetscInt n, const PetscScalar *x, const PetscScalar *y, PetscScalar *w)
{
  PetscFunctionBegin;
#pragma omp parallel for schedule(static) EAS_OMP_THREADS(be)
  for (PetscInt i = 0; i < n; i++) w[i] = x[i] * y[i];
  PetscCall(PetscLogFlops(1.0 * n));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasVecDot_CPU(EasBackend be, PetscInt n, const PetscScalar *x, const PetscScalar *y, PetscScalar *dot)
{
  PetscScalar sum = 0.0;

  PetscFunctionBegin;
#pragma omp parallel for schedule(static) reduction(+ \
                                                    : sum) EAS_OMP_THREADS(be)
  for (PetscInt i = 0; i < n; i++) sum += x[i] * y[i];
  *dot = sum;
  PetscCall(PetscLogFlops(2.0 * n));
  PetscFunctionReturn(0);
}

/* y = A x: guarded rows at both ends, index-check-free interior rows. */
static PetscErrorCode EasDiaMult_CPU(EasBackend be, const EasDiaKernel *A, const PetscScalar *x, PetscScalar *y)
{
  const PetscInt     n = A->n, nd = A->ndiag, ld = A->ld, lo = A->lo, hi = A->hi;
  const PetscInt    *off = A->off;
  const PetscScalar *val = A->val;

  PetscFunctionBegin;
#pragma omp parallel EAS_OMP_THREADS(be)
  {
#pragma omp for schedule(static) nowait
    for (PetscInt i = 0; i < lo; i++) y[i] = EasDiaRowGuarded(i, n, nd, off, val, ld, x);
#pragma omp for schedule(static) nowait
    for (PetscInt i = lo; i < hi; i++) y[i] = EasDiaRowInterior(i, nd, off, val, ld, x);
#pragma omp for schedule(static)
    for (PetscInt i = hi; i < n; i++) y[i] = EasDiaRowGuarded(i, n, nd, off, val, ld, x);
  }
  PetscCall(PetscLogFlops(2.0 * nd * n));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasDiaMultTranspose_CPU(EasBackend be, const EasDiaKernel *A, const PetscScalar *x, PetscScalar *y)
{
  const PetscInt n = A->n, nd = A->ndiag, ld = A->ld;

  PetscFunctionBegin;
#pragma omp parallel for schedule(static) EAS_OMP_THREADS(be)
  for (PetscInt i = 0; i < n; i++) y[i] = EasDiaRowTranspose(i, n, nd, A->off, A->val, ld, x);
  PetscCall(PetscLogFlops(2.0 * nd * n));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasBcgsSweep1_CPU(EasBackend be, const EasDiaKernel *A, PetscScalar beta, PetscScalar omega, const PetscScalar *r, const PetscScalar *p_old, const PetscScalar *v_old, const PetscScalar *rhat, PetscScalar *p_new, PetscScalar *v_new, PetscScalar *dot)
{
  const PetscInt n = A->n, nd = A->ndiag, ld = A->ld;
  PetscScalar    sum = 0.0;

  PetscFunctionBegin;
#pragma omp parallel for schedule(static) reduction(+ \
                                                    : sum) EAS_OMP_THREADS(be)
  for (PetscInt i = 0; i < n; i++) {
    PetscScalar pi;
    /* p <- r + beta (p - omega v);  v <- A p;  (rhat, v) */
    const PetscScalar vi = EasBcgsSweep1Row(i, n, nd, A->off, A->val, ld, beta, omega, r, p_old, v_old, &pi);
    p_new[i]             = pi;
    v_new[i]             = vi;
    sum += rhat[i] * vi;
  }
  *dot = sum;
  PetscCall(PetscLogFlops((2.0 * nd + 6.0) * n));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasBcgsSweep2_CPU(EasBackend be, const EasDiaKernel *A, PetscScalar alpha, const PetscScalar *r, const PetscScalar *v, PetscScalar *s, PetscScalar *t, PetscScalar dots[2])
{
  const PetscInt n = A->n, nd = A->ndiag, ld = A->ld;
  PetscScalar    ts = 0.0, tt = 0.0;

  PetscFunctionBegin;
#pragma omp parallel for schedule(static) reduction(+ \
                                                    : ts, tt) EAS_OMP_THREADS(be)
  for (PetscInt i = 0; i < n; i++) {
    PetscScalar si;
    /* s <- r - alpha v;  t <- A s;  (t, s), (t, t) */
    const PetscScalar ti = EasBcgsSweep2Row(i, n, nd, A->off, A->val, ld, alpha, r, v, &si);
    s[i]                 = si;
    t[i]                 = ti;
    ts += ti * si;
    tt += ti * ti;
  }
  dots[0] = ts;
  dots[1] = tt;
  PetscCall(PetscLogFlops((2.0 * nd + 6.0) * n));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasBcgsSweep3_CPU(EasBackend be, PetscInt n, PetscScalar alpha, PetscScalar omega, PetscScalar *x, const PetscScalar *p, const PetscScalar *s, const PetscScalar *t, const PetscScalar *rhat, PetscScalar *r, PetscScalar dots[2])
{
  PetscScalar rr = 0.0, hr = 0.0;

  PetscFunctionBegin;
#pragma omp parallel for schedule(static) reduction(+ \
                                                    : rr, hr) EAS_OMP_THREADS(be)
  for (PetscInt i = 0; i < n; i++) {
    /* x <- x + alpha p + omega s;  r <- s - omega t;  (rhat, r), (r, r) */
    const PetscScalar ri = EasBcgsSweep3Entry(i, alpha, omega, x, p, s, t);
    r[i]                 = ri;
    hr += rhat[i] * ri;
    rr += ri * ri;
  }
  dots[0] = hr;
  dots[1] = rr;
  PetscCall(PetscLogFlops(10.0 * n));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasBackendView_CPU(EasBackend be, PetscViewer viewer)
{
  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "OpenMP threads: %" PetscInt_FMT " (omp_get_max_threads %d)\n", be->threads, omp_get_max_threads()));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasBackendInit_CPU_Private(EasBackend be, PetscInt threads)
{
  PetscFunctionBegin;
  be->host_is_device          = PETSC_TRUE;
  be->threads                 = threads;
  be->ops->malloc             = EasMalloc_CPU;
  be->ops->free               = EasFree_CPU;
  be->ops->copy_htod          = EasCopyMem_CPU;
  be->ops->copy_dtoh          = EasCopyMem_CPU;
  be->ops->set                = EasVecSet_CPU;
  be->ops->copy               = EasVecCopy_CPU;
  be->ops->axpby              = EasVecAXPBY_CPU;
  be->ops->pointwise_mult     = EasVecPointwiseMult_CPU;
  be->ops->dot_local          = EasVecDot_CPU;
  be->ops->dia_mult           = EasDiaMult_CPU;
  be->ops->dia_mult_transpose = EasDiaMultTranspose_CPU;
  be->ops->bcgs_sweep1        = EasBcgsSweep1_CPU;
  be->ops->bcgs_sweep2        = EasBcgsSweep2_CPU;
  be->ops->bcgs_sweep3        = EasBcgsSweep3_CPU;
  be->ops->view               = EasBackendView_CPU;
  PetscFunctionReturn(0);
}

/* "/cpu": OpenMP with omp_get_max_threads() threads (OMP_NUM_THREADS) unless -eas_threads. */
PetscErrorCode EasBackendInit_CPU(EasBackend be)
{
  PetscFunctionBegin;
  PetscCall(EasBackendInit_CPU_Private(be, (PetscInt)omp_get_max_threads()));
  PetscFunctionReturn(0);
}

/* "/cpu/serial": the same kernels on one thread. */
PetscErrorCode EasBackendInit_CPUSerial(EasBackend be)
{
  PetscFunctionBegin;
  PetscCall(EasBackendInit_CPU_Private(be, 1));
  PetscFunctionReturn(0);
}
