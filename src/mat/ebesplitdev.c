/*
  The split of the EBE element work with the operator on a device backend
  (issue 20 item 4; docs/ebe.md "Split on a device operator").

  The operator's x and y stay in device memory.  The device unit is the
  operator's backend: it applies its contiguous share of the elements on the
  device-resident data (the op ebe_apply, the operator's own layout).  A host
  (CPU) unit u takes the elements [start_u, start_u + n_u); at setup, and
  again whenever the shares move, it gets a gather list: the sorted distinct
  dofs its elements touch (L_u entries), with its elements' connectivity
  renumbered into that list.  Per apply

    1. the device gathers x at each host unit's list and copies it into a
       pinned host buffer, on a transfer queue of its own (CUDA: a second
       stream) that waits only for x (op ebe_gather);
    2. the device unit's elements are queued on the operator's queue (they
       run while the copies travel and the CPU computes: Lang-Rünger Alg. 2);
    3. each host unit computes its elements from the gathered values into a
       partial y of the list's length (its own threads, as on a host
       operator);
    4. the partial results go back through pinned buffers and are
       scatter-added into y on the device after the device unit's elements,
       in unit order (op ebe_scatter): the list's dofs are distinct, so the
       result does not depend on timing.

  Bytes crossing per apply: 2 x 8 x sum_u L_u (x at the list down, the
  partial y up), nothing else; L_u grows with the CPU share (a box mesh's
  share of k element layers of nx x ny Q1 elements touches
  (nx+1)(ny+1)(k+1) nodes), where the host-operator split moves the whole
  vector twice.  The measured time of 1 and 4 per host element is the
  transfer charge t_x of the decision (ebesplit.c step 3b, Lang-Rünger
  eq. 22 with t_el,cpu -> t_el,cpu + t_x).
*/
#include "ebeimpl.h"
#include <omp.h>

/* Frees the gather lists and their buffers of host unit u. */
static PetscErrorCode EasEbeSplitDeviceFreeUnit(EasEbe ebe, PetscInt u)
{
  EasEbeSplit *sp = ebe->split;
  EasBackend   be = ebe->be;

  PetscFunctionBegin;
  if (sp->gidx_dev[u]) PetscCall((*be->ops->free)(be, sp->gidx_dev[u]));
  if (sp->gbuf_dev[u]) PetscCall((*be->ops->free)(be, sp->gbuf_dev[u]));
  sp->gidx_dev[u] = NULL;
  sp->gbuf_dev[u] = NULL;
  PetscCall(EasBackendHostFree(be, (void **)&sp->gx_host[u]));
  PetscCall(EasBackendHostFree(be, (void **)&sp->gy_host[u]));
  sp->glen[u] = 0;
  PetscFunctionReturn(0);
}

PetscErrorCode EasEbeSplitDeviceFree_Private(EasEbe ebe)
{
  EasEbeSplit *sp = ebe->split;

  PetscFunctionBegin;
  if (!sp->on_device) PetscFunctionReturn(0);
  for (PetscInt u = 0; u < EAS_EBE_MAXUNITS; u++) {
    PetscCall(EasEbeSplitDeviceFreeUnit(ebe, u));
    PetscCall(PetscFree(sp->lconn[u]));
  }
  PetscCall(PetscFree(sp->aels_host));
  sp->on_device = PETSC_FALSE;
  PetscFunctionReturn(0);
}

PetscErrorCode EasEbeSplitDeviceSetUp_Private(EasEbe ebe)
{
  EasEbeSplit *sp   = ebe->split;
  EasBackend   be   = ebe->be;
  PetscInt     ndev = 0;
  PetscBool    same;

  PetscFunctionBegin;
  PetscCheck(be->ops->ebe_gather && be->ops->ebe_gather_wait && be->ops->ebe_scatter && be->ops->ebe_xfer_time, PetscObjectComm((PetscObject)ebe), PETSC_ERR_SUP, "-ebe_split_units on an operator on %s: the backend has no gather/scatter ops for a split", be->resource);
  for (PetscInt u = 0; u < sp->nunits; u++) {
    if (sp->is_host[u]) continue;
    PetscCall(PetscStrcmp(sp->unit[u]->resource, be->resource, &same));
    PetscCheck(same, PetscObjectComm((PetscObject)ebe), PETSC_ERR_ARG_INCOMP, "-ebe_split_units: unit %" PetscInt_FMT " (%s) is a device unit, but the operator is on %s: with the operator on a device, its one device unit is the operator's backend (e.g. -eas_backend %s -ebe_split_units %s,/cpu:1)", u, sp->unit[u]->resource, be->resource, be->resource, be->resource);
    sp->dev_unit = u;
    ndev++;
  }
  PetscCheck(ndev == 1, PetscObjectComm((PetscObject)ebe), PETSC_ERR_ARG_WRONG, "-ebe_split_units: with the operator on %s, exactly one unit must be %s (the device unit computing on the operator's memory), %" PetscInt_FMT " given", be->resource, be->resource, ndev);
  PetscCall(PetscMemzero(sp->glen, sizeof(sp->glen)));
  sp->on_device = PETSC_TRUE;
  PetscCall(EasEbePackStorage_Private(ebe, &sp->aels_host)); /* the host units read the storage the device reads, in the host layout */
  for (PetscInt u = 0; u < sp->nunits; u++)
    if (sp->is_host[u]) PetscCall(PetscCalloc1(PetscMax((size_t)ebe->nel * ebe->nen, 1), &sp->lconn[u]));
  PetscFunctionReturn(0);
}

/* Host unit u's gather list for its current elements: the sorted distinct
   nodes they touch (map: node -> position, -1 if untouched), its dofs node
   by node, and the connectivity renumbered into it; uploaded to the
   operator's backend with staging buffers of its length. */
static PetscErrorCode EasEbeSplitDeviceBuildList(EasEbe ebe, PetscInt u, PetscInt *map)
{
  EasEbeSplit   *sp = ebe->split;
  EasBackend     be = ebe->be;
  const PetscInt e0 = sp->start[u], e1 = e0 + sp->shares[u], nen = ebe->nen, dof = ebe->dof;
  PetscInt       nl = 0, *gidx;
  EasEbeKernel  *K  = &sp->hk[u];

  PetscFunctionBegin;
  PetscCall(EasEbeSplitDeviceFreeUnit(ebe, u));
  for (PetscInt i = 0; i < ebe->nnodes; i++) map[i] = -1;
  for (PetscInt e = e0; e < e1; e++)
    for (PetscInt a = 0; a < nen; a++) map[ebe->conn[(size_t)e * nen + a]] = 0;
  for (PetscInt i = 0; i < ebe->nnodes; i++)
    if (map[i] >= 0) map[i] = nl++; /* ascending: the list is sorted */
  sp->glen[u] = nl * dof;
  PetscCall(PetscMalloc1(PetscMax(sp->glen[u], 1), &gidx));
  for (PetscInt i = 0; i < ebe->nnodes; i++)
    if (map[i] >= 0)
      for (PetscInt c = 0; c < dof; c++) gidx[map[i] * dof + c] = i * dof + c;
  for (PetscInt e = e0; e < e1; e++)
    for (PetscInt a = 0; a < nen; a++) sp->lconn[u][(size_t)e * nen + a] = map[ebe->conn[(size_t)e * nen + a]];
  PetscCall((*be->ops->malloc)(be, sizeof(PetscInt) * PetscMax(sp->glen[u], 1), (void **)&sp->gidx_dev[u]));
  PetscCall((*be->ops->malloc)(be, sizeof(PetscScalar) * PetscMax(sp->glen[u], 1), (void **)&sp->gbuf_dev[u]));
  PetscCall(EasBackendCopyHtoD(be, sp->gidx_dev[u], gidx, sizeof(PetscInt) * sp->glen[u])); /* once per move, not per apply */
  PetscCall(PetscFree(gidx));
  PetscCall(EasBackendHostAlloc(be, sizeof(PetscScalar) * PetscMax(sp->glen[u], 1), (void **)&sp->gx_host[u]));
  PetscCall(EasBackendHostAlloc(be, sizeof(PetscScalar) * PetscMax(sp->glen[u], 1), (void **)&sp->gy_host[u]));
  /* the unit's kernel: the operator's elements and storage in the host layout, over the list */
  *K                 = ebe->k;
  K->conn            = sp->lconn[u];
  K->nnodes          = nl;
  K->ael             = ebe->ael;
  K->aels            = sp->aels_host;
  K->lanes           = 1;
  K->color_elem      = ebe->color_elem;
  K->color_elem_host = ebe->color_elem;
  K->ctx             = NULL;
  PetscFunctionReturn(0);
}

PetscErrorCode EasEbeSplitDeviceShares_Private(EasEbe ebe)
{
  EasEbeSplit *sp = ebe->split;
  PetscInt    *map;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(PetscMax(ebe->nnodes, 1), &map));
  for (PetscInt u = 0; u < sp->nunits; u++)
    if (sp->is_host[u]) PetscCall(EasEbeSplitDeviceBuildList(ebe, u, map));
  PetscCall(PetscFree(map));
  PetscFunctionReturn(0);
}

/* The device unit's time of an apply left pending (no host unit held
   elements): its marks resolved without waiting when the queue has passed
   them (the caller's reductions synchronize it), or after a wait, into that
   apply's window slot. */
PetscErrorCode EasEbeSplitDeviceResolve_Private(EasEbe ebe, PetscBool wait)
{
  EasEbeSplit   *sp = ebe->split;
  const PetscInt U = sp->nunits, d = sp->dev_unit;
  PetscReal      tu;

  PetscFunctionBegin;
  if (!sp->pend) PetscFunctionReturn(0);
  PetscCall(EasBackendTimerQuery(ebe->be, &sp->pend_m0, wait));
  PetscCall(EasBackendTimerQuery(ebe->be, &sp->pend_m1, wait));
  if (!sp->pend_m1.resolved) PetscFunctionReturn(0); /* the queue has not reached it; read at the next call */
  sp->pend = PETSC_FALSE;
  if (sp->pend_virtual) PetscFunctionReturn(0); /* the slot holds the test's virtual time */
  tu                               = (PetscReal)(sp->pend_m1.t - sp->pend_m0.t) * sp->pend_spike;
  sp->busy[sp->pend_slot * U + d]  = tu;
  sp->count[sp->pend_slot * U + d] = sp->pend_count;
  sp->t_unit[d]                    = tu;
  sp->t_raw[d]                     = sp->pend_count ? tu / sp->pend_count : 0.0;
  PetscFunctionReturn(0);
}

PetscErrorCode EasEbeSplitDeviceApply_Private(EasEbe ebe, const PetscScalar *x, PetscScalar *y, PetscReal t[], PetscReal *xfer)
{
  EasEbeSplit    *sp = ebe->split;
  EasBackend      be = ebe->be;
  const PetscInt  U = sp->nunits, d = sp->dev_unit, n = ebe->nnodes * ebe->dof;
  const PetscBool metered = (PetscBool)(ebe->meter && ebe->nmunits >= U);
  PetscInt        hostu[EAS_EBE_MAXUNITS], nhost = 0, nhel = 0;
  PetscErrorCode  merr[EAS_EBE_MAXUNITS] = {0};
  EasBackendMark  m0, m1;
  PetscLogDouble  tx;

  PetscFunctionBegin;
  /* the previous apply's device time, if pending: its marks are passed by now unless the caller queued this apply
     right behind it without reading anything back (then wait: the marks must be read in order) */
  PetscCall(EasEbeSplitDeviceResolve_Private(ebe, PETSC_TRUE));
  for (PetscInt u = 0; u < U; u++) {
    t[u] = 0.0;
    if (!sp->is_host[u] || !sp->shares[u]) continue;
    hostu[nhost++] = u;
    nhel += sp->shares[u];
    if (sp->slow[u] > 1.0 && !sp->sbuf[u]) PetscCall(PetscMalloc1(PetscMax(n, 1), &sp->sbuf[u]));
  }
  if (!nhost) {
    /* the device unit alone (a declined split): its elements between two marks, read later (EasEbeSplitDeviceResolve_Private).
       Waiting for them here made the host block on every apply and the device idle until the next launch: 1.075x the
       time of the GPU alone on an H200 (docs/performance.md) */
    if (sp->shares[d]) {
      if (metered) PetscCall(EasEnergyMeterBegin(ebe->meter, EAS_PHASE_COMPUTE, ebe->munit[d]));
      PetscCall(EasBackendTimerRecord(be, &sp->pend_m0));
      PetscCall((*be->ops->ebe_apply)(be, &ebe->k, sp->start[d], sp->start[d] + sp->shares[d], x, y));
      PetscCall(EasBackendTimerRecord(be, &sp->pend_m1));
      if (metered) PetscCall(EasEnergyMeterEnd(ebe->meter, EAS_PHASE_COMPUTE, ebe->munit[d], (PetscReal)sp->shares[d]));
      sp->pend = PETSC_TRUE;
      t[d]     = -1.0; /* pending */
    }
    *xfer = -1.0;
    PetscFunctionReturn(0);
  }
  /* 1. x at the lists, down on the transfer queue */
  for (PetscInt h = 0; h < nhost; h++) PetscCall((*be->ops->ebe_gather)(be, sp->glen[hostu[h]], sp->gidx_dev[hostu[h]], x, sp->gbuf_dev[hostu[h]], sp->gx_host[hostu[h]]));
  /* 2. the device unit's elements on the operator's queue, between two timer marks */
  if (sp->shares[d]) {
    if (metered) PetscCall(EasEnergyMeterBegin(ebe->meter, EAS_PHASE_COMPUTE, ebe->munit[d]));
    PetscCall(EasBackendTimerRecord(be, &m0));
    PetscCall((*be->ops->ebe_apply)(be, &ebe->k, sp->start[d], sp->start[d] + sp->shares[d], x, y));
    PetscCall(EasBackendTimerRecord(be, &m1));
  }
  /* 3. the host units from the gathered values, on their threads */
  PetscCall((*be->ops->ebe_gather_wait)(be));
#pragma omp parallel num_threads((int)nhost)
  for (PetscInt h = omp_get_thread_num(); h < nhost; h += omp_get_num_threads()) {
    const PetscInt u = hostu[h];
    if (metered) { /* the meter is not thread-safe: one thread at a time */
#pragma omp critical(eas_ebe_meter)
      merr[u] = EasEnergyMeterBegin(ebe->meter, EAS_PHASE_COMPUTE, ebe->munit[u]);
    }
    for (PetscInt i = 0; i < sp->glen[u]; i++) sp->gy_host[u][i] = 0.0;
    t[u] = (PetscReal)EasEbeSplitRunHostUnit_Private(ebe, u, &sp->hk[u], sp->gx_host[u], sp->gy_host[u]);
    if (metered && !merr[u]) {
#pragma omp          critical(eas_ebe_meter)
      merr[u] = EasEnergyMeterEnd(ebe->meter, EAS_PHASE_COMPUTE, ebe->munit[u], (PetscReal)sp->shares[u]);
             }
           }
           for (PetscInt u = 0; u < U; u++) PetscCall(merr[u]);
  /* 4. the partial results up and scatter-added after the device unit's elements, in unit order */
           for (PetscInt h = 0; h < nhost; h++) PetscCall((*be->ops->ebe_scatter)(be, sp->glen[hostu[h]], sp->gidx_dev[hostu[h]], sp->gy_host[hostu[h]], sp->gbuf_dev[hostu[h]], y));
  PetscCall((*be->ops->ebe_xfer_time)(be, &tx));
           if (sp->shares[d]) { /* the host units' work overlapped the device's: this wait is for the slower side */
    PetscCall(EasBackendTimerQuery(be, &m0, PETSC_TRUE));
    PetscCall(EasBackendTimerQuery(be, &m1, PETSC_TRUE));
    t[d] = (PetscReal)(m1.t - m0.t);
    if (metered) PetscCall(EasEnergyMeterEnd(ebe->meter, EAS_PHASE_COMPUTE, ebe->munit[d], (PetscReal)sp->shares[d]));
  }
  PetscCall(PetscLogFlops(2.0 * ebe->nen * ebe->dof * ebe->nen * ebe->dof * nhel)); /* the host units' (the backend logs its own) */
           *xfer = nhel > 0 ? (PetscReal)tx / nhel : -1.0;
           PetscFunctionReturn(0);
}
