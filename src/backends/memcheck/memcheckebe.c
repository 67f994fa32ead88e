/*
  /cpu/memcheck: the element-by-element ops and the fused CG updates after
  the checks, and the EBE split's asynchronous unit on a worker thread with
  a stream's semantics.
*/
#include "memcheckimpl.h"
#include "../launch.h" /* EasLaunchBlocks: the CUDA backend's grid */
#include <string.h>
#include <time.h>

static double EasMemcheckClock(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ------------------------------------------------------------------ EBE and CG */

/* One launch of the CUDA apply kernel over [k0,k1) (ebe.cu
   EasEbeApplyLanesKernel), run on the host: its body, EasEbeApplyThread,
   for every (block, thread) of the CUDA backend's grid (EAS_EBE_BLOCK
   threads a block, the same block count, the same grid-stride loop).  An
   atomic launch runs its blocks on the backend's threads at once, so the
   scatter's atomic sums really race (kernels/ebe.h EasKAtomicAdd); a
   colour's launch runs them in order. */
static void EasMemcheckEbeLaunch(const EasEbeKernel *K, int atomic, PetscInt k0, PetscInt k1, const PetscScalar *x, PetscScalar *y, int threads)
{
  const EasKIdx  n      = EasEbeApplyThreads(atomic, k0, k1);
  const unsigned nb     = EasLaunchBlocks((int64_t)n, EAS_EBE_BLOCK, EAS_EBE_MAX_BLOCKS);
  const EasKIdx  stride = (EasKIdx)nb * EAS_EBE_BLOCK;
  const EasKInt *cel    = K->color_elem;
  const EasKInt *conn   = K->conn;
  const void    *vals   = K->aels;
  const EasKInt  nen = K->nen, dof = K->dof;
  const int      st = (int)K->storage;

#pragma omp parallel for num_threads(atomic ? threads : 1) schedule(dynamic)
  for (unsigned b = 0; b < nb; b++)
    for (unsigned t = 0; t < EAS_EBE_BLOCK; t++)
      for (EasKIdx gid = (EasKIdx)b * EAS_EBE_BLOCK + t; gid < n; gid += stride) EasEbeApplyThread(gid, atomic, k0, k1, cel, nen, dof, conn, st, vals, x, y);
}

/* Group w of a launch of the CUDA warp kernel (ebe.cu
   EasEbeApplyWarpKernel), run on the host: the kernel's pieces
   (kernels/ebe.h "warp kernel") with a loop over the G lanes of the group
   where the device runs them at once, and EasEbeWarpSumHost where it
   shuffles.  Row by row: the device loads EAS_EBE_WROWS rows before their
   sums, which changes no sum's order, so the results are the device's
   bits up to the order of the atomic scatter. */
static void EasMemcheckEbeWarpGroup(const EasEbeKernel *K, EasKIdx w, int atomic, EasKInt k0, const PetscScalar *x, PetscScalar *y)
{
  const int      st  = (int)K->storage;
  const int      sym = st == EAS_EBE_ST_SYMMETRIC || st == EAS_EBE_ST_SYMMETRIC_SINGLE, f32 = st == EAS_EBE_ST_SINGLE || st == EAS_EBE_ST_SYMMETRIC_SINGLE;
  const EasKInt  nen = K->nen, dof = K->dof, m = nen * dof, G = EasEbeWarpWidth(m);
  const EasKIdx  nv   = sym ? (EasKIdx)m * (m + 1) / 2 : (EasKIdx)m * m;
  const EasKInt  e    = EasEbeWarpElement(w, atomic, k0, K->color_elem);
  const EasKInt *c    = K->conn + (EasKIdx)e * nen;
  const void    *vals = st == EAS_EBE_ST_FULL ? (const void *)K->ael : K->aels;
  EasKScalar     xr[EAS_EBE_WARP][EAS_EBE_WSLOTS], yr[EAS_EBE_WARP][EAS_EBE_WSLOTS], a[EAS_EBE_WSLOTS], p[EAS_EBE_WARP];
  EasKInt        off = 0; /* row i's offset, walked as the device walks it */

  for (EasKInt g = 0; g < G; g++) EasEbeWarpGather(g, G, m, dof, c, x, xr[g], yr[g]); /* o2el */
  for (EasKInt i = 0; i < m; off += EasEbeWarpRowStep(i, m, sym), i++) {
    const EasKScalar xi = xr[i % G][i / G]; /* the device's __shfl_sync */
    for (EasKInt g = 0; g < G; g++) {
      if (f32)
        EasEbeWarpLoad_F(g, G, i, m, sym, (const float *)vals + (EasKIdx)e * nv + off, a);
      else
        EasEbeWarpLoad(g, G, i, m, sym, (const EasKScalar *)vals + (EasKIdx)e * nv + off, a);
      p[g] = EasEbeWarpUse(g, G, i, sym, a, xi, xr[g], yr[g]);
    }
    EasEbeWarpSumHost(G, p);
    for (EasKInt g = 0; g < G; g++) EasEbeWarpOwnerAdd(g, G, i, p[g], yr[g]);
  }
  for (EasKInt g = 0; g < G; g++) EasEbeWarpScatter(g, G, m, dof, c, yr[g], atomic, y); /* el2o */
}

/* One launch of the warp kernel over [k0,k1): the groups of an atomic
   launch on the backend's threads at once (the scatter's atomic sums race,
   as on the device), a colour's in order. */
static void EasMemcheckEbeWarpLaunch(const EasEbeKernel *K, int atomic, PetscInt k0, PetscInt k1, const PetscScalar *x, PetscScalar *y, int threads)
{
#pragma omp parallel for num_threads(atomic ? threads : 1) schedule(dynamic, 16)
  for (PetscInt w = 0; w < k1 - k0; w++) EasMemcheckEbeWarpGroup(K, (EasKIdx)w, atomic, (EasKInt)k0, x, y);
}

/* The element range [e0,e1) as the CUDA backend applies it: one atomic
   launch, or with -ebe_deterministic one per colour; the warp kernel on the
   host layout (lanes 1), the thread-per-element kernel on the lanes
   layout.  threads: the atomic launches' host threads. */
static void EasMemcheckEbeApplyRange(const EasEbeKernel *K, PetscInt e0, PetscInt e1, const PetscScalar *x, PetscScalar *y, int threads)
{
  if (!K->deterministic) {
    if (K->lanes > 1)
      EasMemcheckEbeLaunch(K, 1, e0, e1, x, y, threads);
    else
      EasMemcheckEbeWarpLaunch(K, 1, e0, e1, x, y, threads);
    return;
  }
  for (PetscInt c = 0; c < K->ncolors; c++) {
    PetscInt k0, k1;
    EasEbeColorSlice(K, c, e0, e1, &k0, &k1);
    if (k1 <= k0) continue;
    if (K->lanes > 1)
      EasMemcheckEbeLaunch(K, 0, k0, k1, x, y, 1);
    else
      EasMemcheckEbeWarpLaunch(K, 0, k0, k1, x, y, 1);
  }
}

/* The operator's elements as the CUDA backend applies them
   (EasMemcheckEbeApplyRange), after the checks. */
PetscErrorCode EasEbeApply_Memcheck(EasBackend be, const EasEbeKernel *K, PetscInt e0, PetscInt e1, const PetscScalar *x, PetscScalar *y)
{
  const size_t n = (size_t)K->nnodes * K->dof;

  PetscFunctionBegin;
  PetscCall(EasMemcheckCheckEbe(be, "ebe_apply", K, PETSC_TRUE));
  EasMcCheck("ebe_apply", "x", x, n * EAS_SC);
  EasMcCheck("ebe_apply", "y", y, n * EAS_SC);
  PetscCheck(K->lanes == 1 || K->lanes == EAS_EBE_LANES, PETSC_COMM_SELF, PETSC_ERR_PLIB, "/cpu/memcheck: ebe_apply: layout of %" PetscInt_FMT " lanes, the kernels' are 1 (warp) and %d", K->lanes, EAS_EBE_LANES);
  EasMemcheckEbeApplyRange(K, e0, e1, x, y, (int)PetscMax(be->threads, 1));
  PetscFunctionReturn(0);
}

PetscErrorCode EasEbeDiagonal_Memcheck(EasBackend be, const EasEbeKernel *K, PetscInt e0, PetscInt e1, PetscInt bs, PetscScalar *d)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;

  PetscFunctionBegin;
  PetscCall(EasMemcheckCheckEbe(be, "ebe_diagonal", K, PETSC_FALSE));
  EasMcCheck("ebe_diagonal", "d", d, (size_t)K->nnodes * K->dof * bs * EAS_SC);
  PetscCall(mc->cpu.ebe_diagonal(be, K, e0, e1, bs, d));
  PetscFunctionReturn(0);
}

PetscErrorCode EasBlockMult_Memcheck(EasBackend be, PetscInt nb, PetscInt bs, const PetscScalar *B, const PetscScalar *x, PetscScalar *y)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;

  PetscFunctionBegin;
  EasMcCheck("block_mult", "B", B, (size_t)nb * bs * bs * EAS_SC);
  EasMcCheck("block_mult", "x", x, (size_t)nb * bs * EAS_SC);
  EasMcCheck("block_mult", "y", y, (size_t)nb * bs * EAS_SC);
  PetscCall(mc->cpu.block_mult(be, nb, bs, B, x, y));
  PetscFunctionReturn(0);
}

PetscErrorCode EasCgUpdate_Memcheck(EasBackend be, PetscInt n, PetscInt nown, PetscScalar alpha, const PetscScalar *p, const PetscScalar *q, const PetscScalar *dinv, PetscScalar *x, PetscScalar *r, PetscScalar *z, PetscScalar dots[2])
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;

  PetscFunctionBegin;
  EasMemcheckSyncPoint(be);
  PetscCheck(0 <= nown && nown <= n, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "/cpu/memcheck: cg_update: nown %" PetscInt_FMT " outside [0, n = %" PetscInt_FMT "]", nown, n);
  EasMcCheck("cg_update", "p", p, n * EAS_SC);
  EasMcCheck("cg_update", "q", q, n * EAS_SC);
  if (dinv) EasMcCheck("cg_update", "dinv", dinv, n * EAS_SC);
  EasMcCheck("cg_update", "x", x, n * EAS_SC);
  EasMcCheck("cg_update", "r", r, n * EAS_SC);
  EasMcCheck("cg_update", "z", z, n * EAS_SC);
  PetscCall(mc->cpu.cg_update(be, n, nown, alpha, p, q, dinv, x, r, z, dots));
  PetscFunctionReturn(0);
}

PetscErrorCode EasPipeCgUpdate_Memcheck(EasBackend be, PetscInt n, PetscInt nown, PetscScalar alpha, PetscScalar beta, const PetscScalar *dinv, PetscScalar *z, PetscScalar *q, PetscScalar *s, PetscScalar *p, PetscScalar *x, PetscScalar *r, PetscScalar *u, PetscScalar *w, PetscScalar *m, const PetscScalar *nv, PetscScalar dots[3])
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;

  PetscFunctionBegin;
  EasMemcheckSyncPoint(be);
  PetscCheck(0 <= nown && nown <= n, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "/cpu/memcheck: pipecg_update: nown %" PetscInt_FMT " outside [0, n = %" PetscInt_FMT "]", nown, n);
  if (dinv) EasMcCheck("pipecg_update", "dinv", dinv, n * EAS_SC);
  EasMcCheck("pipecg_update", "z", z, n * EAS_SC);
  EasMcCheck("pipecg_update", "q", q, n * EAS_SC);
  EasMcCheck("pipecg_update", "s", s, n * EAS_SC);
  EasMcCheck("pipecg_update", "p", p, n * EAS_SC);
  EasMcCheck("pipecg_update", "x", x, n * EAS_SC);
  EasMcCheck("pipecg_update", "r", r, n * EAS_SC);
  EasMcCheck("pipecg_update", "u", u, n * EAS_SC);
  EasMcCheck("pipecg_update", "w", w, n * EAS_SC);
  EasMcCheck("pipecg_update", "m", m, n * EAS_SC);
  EasMcCheck("pipecg_update", "nv", nv, n * EAS_SC);
  PetscCall(mc->cpu.pipecg_update(be, n, nown, alpha, beta, dinv, z, q, s, p, x, r, u, w, m, nv, dots));
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------ the asynchronous unit (worker thread) */

/* The unit's work, as a device stream would do it: x up, y = 0, the
   device's kernel over [e0,e1), y down.  Plain C on the worker (no
   PETSc calls: PETSc is not thread-safe). */
static void EasMemcheckRunJob(EasBackend_Memcheck *mc)
{
  const EasMemcheckJob *j = &mc->job;
  const EasEbeKernel   *K = &j->K;

  mc->t0 = EasMemcheckClock();
  memcpy(j->x_dev, j->x_host, (size_t)j->n * sizeof(PetscScalar));
  for (PetscInt i = 0; i < j->n; i++) j->y_dev[i] = 0.0;
  EasMemcheckEbeApplyRange(K, j->e0, j->e1, j->x_dev, j->y_dev, 1); /* the device's kernel, one host thread */
  memcpy(j->y_host, j->y_dev, (size_t)j->n * sizeof(PetscScalar));
  mc->t1 = EasMemcheckClock();
}

static void *EasMemcheckWorker(void *arg)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)arg;

  pthread_mutex_lock(&mc->mutex);
  for (;;) {
    while (!mc->job_queued && !mc->quit) pthread_cond_wait(&mc->cond, &mc->mutex);
    if (mc->quit) break;
    pthread_mutex_unlock(&mc->mutex);
    EasMemcheckRunJob(mc);
    pthread_mutex_lock(&mc->mutex);
    mc->job_queued = 0;
    mc->job_done   = 1;
    pthread_cond_broadcast(&mc->cond);
  }
  pthread_mutex_unlock(&mc->mutex);
  return NULL;
}

PetscErrorCode EasEbeUnitBegin_Memcheck(EasBackend be, const EasEbeKernel *K, PetscInt e0, PetscInt e1, PetscInt n, const PetscScalar *x_host, PetscScalar *x_dev, PetscScalar *y_dev, PetscScalar *y_host)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;

  PetscFunctionBegin;
  /* every check on this thread, before the worker touches anything */
  PetscCall(EasMemcheckCheckEbe(be, "ebe_unit_begin", K, PETSC_TRUE));
  EasMcCheck("ebe_unit_begin", "x_dev", x_dev, n * EAS_SC);
  EasMcCheck("ebe_unit_begin", "y_dev", y_dev, n * EAS_SC);
  EasMcCheckHost("ebe_unit_begin", "x_host", x_host, n * EAS_SC);
  EasMcCheckHost("ebe_unit_begin", "y_host", y_host, n * EAS_SC);
  PetscCall(EasUnitBegin_Shared(be, &mc->unit, &mc->staging, K, e0, e1, n, x_host, y_host));
  if (!mc->thread_started) {
    PetscCheck(!pthread_create(&mc->thread, NULL, EasMemcheckWorker, mc), PETSC_COMM_SELF, PETSC_ERR_SYS, "/cpu/memcheck: pthread_create failed for the unit's worker thread");
    mc->thread_started = PETSC_TRUE;
  }
  pthread_mutex_lock(&mc->mutex);
  mc->job.K      = *K;
  mc->job.e0     = e0;
  mc->job.e1     = e1;
  mc->job.n      = n;
  mc->job.x_host = x_host;
  mc->job.x_dev  = x_dev;
  mc->job.y_dev  = y_dev;
  mc->job.y_host = y_host;
  mc->job_done   = 0;
  mc->job_queued = 1;
  pthread_cond_broadcast(&mc->cond);
  pthread_mutex_unlock(&mc->mutex);
  mc->ncopies_htod++;
  mc->ncopies_dtoh++;
  mc->raw_htod += (PetscLogDouble)n * EAS_SC;
  mc->raw_dtoh += (PetscLogDouble)n * EAS_SC;
  PetscFunctionReturn(0);
}

/* Waits for the worker (if a unit is queued). */
void EasMemcheckWait(EasBackend_Memcheck *mc)
{
  if (!mc->thread_started) return;
  pthread_mutex_lock(&mc->mutex);
  while (mc->job_queued) pthread_cond_wait(&mc->cond, &mc->mutex);
  pthread_mutex_unlock(&mc->mutex);
}

PetscErrorCode EasEbeUnitEnd_Memcheck(EasBackend be, PetscLogDouble *seconds)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;

  PetscFunctionBegin;
  EasMemcheckSyncPoint(be);
  *seconds = 0.0;
  PetscCall(EasUnitEnd_Shared(be, &mc->unit));
  EasMemcheckWait(mc);
  mc->have_interval = PETSC_TRUE;
  *seconds          = mc->t1 - mc->t0;
  PetscFunctionReturn(0);
}

PetscErrorCode EasMemcheckGetUnitInterval(EasBackend be, double *t0, double *t1)
{
  EasBackend_Memcheck *mc;
  PetscBool            match;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(be, EAS_BACKEND_CLASSID, 1);
  PetscCall(PetscStrcmp(be->resource, "/cpu/memcheck", &match));
  PetscCheck(match, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "EasMemcheckGetUnitInterval: backend %s is not /cpu/memcheck", be->resource);
  mc = (EasBackend_Memcheck *)be->data;
  PetscCheck(mc->have_interval, PETSC_COMM_SELF, PETSC_ERR_ORDER, "EasMemcheckGetUnitInterval: no asynchronous unit has finished yet");
  *t0 = mc->t0;
  *t1 = mc->t1;
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------ the split on the device operator */

/* The gathers and scatter-adds of a host unit's list (backend.h ebe_gather
   ...), as the CUDA backend's transfer stream runs them: the shared bodies
   (kernels/ebe.h) over the list, then the copy, each at once on the calling
   thread (an emulation: the figures are not PCIe's), counted exactly and
   timed on the host clock.  The ordering CUDA needs is checked: a scatter
   (which reuses the staging buffers) only after the host waited for the
   gathers' copies. */
PetscErrorCode EasEbeGather_Memcheck(EasBackend be, PetscInt n, const PetscInt *idx, const PetscScalar *x, PetscScalar *buf, PetscScalar *host)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;
  double               t0;

  PetscFunctionBegin;
  PetscCall(EasXferBook_Shared(be, &mc->staging, "ebe_gather", host, n, PETSC_FALSE));
  if (!n) PetscFunctionReturn(0);
  EasMcCheck("ebe_gather", "idx", idx, (size_t)n * EAS_IN);
  EasMcCheck("ebe_gather", "buf", buf, (size_t)n * EAS_SC);
  EasMcCheck("ebe_gather", "x", x, EAS_SC); /* its length is the operator's: the list's entries are checked by the split's setup */
  t0 = EasMemcheckClock();
  for (PetscInt i = 0; i < n; i++) EasEbeGatherEntry(i, idx, x, buf);
  memcpy(host, buf, (size_t)n * EAS_SC);
  mc->xfer_t += EasMemcheckClock() - t0;
  mc->ncopies_dtoh++;
  mc->raw_dtoh += (PetscLogDouble)n * EAS_SC;
  mc->gather_pending = PETSC_TRUE;
  PetscFunctionReturn(0);
}

PetscErrorCode EasEbeGatherWait_Memcheck(EasBackend be)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;

  PetscFunctionBegin;
  EasMemcheckSyncPoint(be);
  mc->gather_pending = PETSC_FALSE;
  PetscFunctionReturn(0);
}

PetscErrorCode EasEbeScatter_Memcheck(EasBackend be, PetscInt n, const PetscInt *idx, const PetscScalar *host, PetscScalar *buf, PetscScalar *y)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;
  double               t0;

  PetscFunctionBegin;
  PetscCheck(!mc->gather_pending, PETSC_COMM_SELF, PETSC_ERR_ORDER, "/cpu/memcheck: ebe_scatter while a gather's copy may be in flight: call ebe_gather_wait first (the host computes from the gathered values)");
  PetscCall(EasXferBook_Shared(be, &mc->staging, "ebe_scatter", host, n, PETSC_TRUE));
  if (!n) PetscFunctionReturn(0);
  EasMcCheck("ebe_scatter", "idx", idx, (size_t)n * EAS_IN);
  EasMcCheck("ebe_scatter", "buf", buf, (size_t)n * EAS_SC);
  EasMcCheck("ebe_scatter", "y", y, EAS_SC);
  t0 = EasMemcheckClock();
  memcpy(buf, host, (size_t)n * EAS_SC);
  for (PetscInt i = 0; i < n; i++) EasEbeScatterAddEntry(i, idx, buf, y);
  mc->xfer_t += EasMemcheckClock() - t0;
  mc->ncopies_htod++;
  mc->raw_htod += (PetscLogDouble)n * EAS_SC;
  PetscFunctionReturn(0);
}

PetscErrorCode EasEbeXferTime_Memcheck(EasBackend be, PetscLogDouble *seconds)
{
  EasBackend_Memcheck *mc = (EasBackend_Memcheck *)be->data;

  PetscFunctionBegin;
  EasMemcheckSyncPoint(be);
  *seconds   = (PetscLogDouble)mc->xfer_t;
  mc->xfer_t = 0.0;
  PetscFunctionReturn(0);
}
