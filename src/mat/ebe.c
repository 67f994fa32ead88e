/*
  EasEbe: the element-by-element operator y = sum_e el2o(A_e o2el(x))
  (docs/ebe.md, Lang-Rünger Alg. 1), its colouring, interface
  exchange between ranks, diagonals, assembly for the PETSc oracle.
  The built-in meshes are in fem.c, the split of the element work over
  compute units in ebesplit.c, its energy meter in ebemeter.c.
*/
#include "ebeimpl.h"
#include "core/size.h"

const char *const EasEbeProblems[]   = {"poisson", "elasticity", "EasEbeProblem", "EAS_EBE_", NULL};
const char *const EasEbeModes[]      = {"sync", "async", "EasEbeMode", "EAS_EBE_", NULL};
const char *const EasEbeSplitTypes[] = {"auto", "fixed", "EasEbeSplitType", "EAS_EBE_SPLIT_", NULL};

PetscClassId  EAS_EBE_CLASSID;
PetscLogEvent EAS_EbeApply, EAS_EbeSetUp, EAS_EbeExchange, EAS_EbeDiagonal, EAS_EbeSplit;

static PetscBool eas_ebe_package_initialized = PETSC_FALSE;

/*
  EasEbeInitializePackage - the EasEbe class and its log events.  Called by
  EasEbeCreate.
*/
PetscErrorCode EasEbeInitializePackage(void)
{
  PetscFunctionBegin;
  if (eas_ebe_package_initialized) PetscFunctionReturn(0);
  PetscCall(EasPackageInitialized_Private(&eas_ebe_package_initialized)); /* cleared at PetscFinalize */
  PetscCall(PetscClassIdRegister("EAS EBE", &EAS_EBE_CLASSID));
  PetscCall(PetscLogEventRegister("EasEbeApply", EAS_EBE_CLASSID, &EAS_EbeApply));
  PetscCall(PetscLogEventRegister("EasEbeSetUp", EAS_EBE_CLASSID, &EAS_EbeSetUp));
  PetscCall(PetscLogEventRegister("EasEbeExchange", EAS_EBE_CLASSID, &EAS_EbeExchange));
  PetscCall(PetscLogEventRegister("EasEbeDiagonal", EAS_EBE_CLASSID, &EAS_EbeDiagonal));
  PetscCall(PetscLogEventRegister("EasEbeSplit", EAS_EBE_CLASSID, &EAS_EbeSplit));
  PetscFunctionReturn(0);
}

/*@C
  EasEbeCreate - an empty element-by-element operator on comm.
@*/
PetscErrorCode EasEbeCreate(MPI_Comm comm, EasEbe *ebe)
{
  EasEbe e;

  PetscFunctionBegin;
  PetscValidPointer(ebe, 2);
  PetscCall(EasEbeInitializePackage());
  PetscCall(PetscHeaderCreate(e, EAS_EBE_CLASSID, "EasEbe", "eas element-by-element operator", "EBE", comm, EasEbeDestroy, EasEbeView));
  PetscCall(PetscObjectGetNewTag((PetscObject)e, &e->tag)); /* no cross-match with another operator's or the user's messages */
  e->nbr[0] = e->nbr[1] = MPI_PROC_NULL;
  e->mode               = EAS_EBE_SYNC;
  e->warp_rows          = 4;
  PetscCall(EasEbeSplitCreate_Private(e));
  *ebe = e;
  PetscFunctionReturn(0);
}

PETSC_INTERN PetscErrorCode EasEbeReset_Private(EasEbe);
/* Frees the data of the elements and the backend view (not the options). */
PetscErrorCode EasEbeReset_Private(EasEbe ebe)
{
  EasBackend be = ebe->be;

  PetscFunctionBegin;
  if (be && !be->host_is_device) {
    if (ebe->k.conn) PetscCall((*be->ops->free)(be, (void *)ebe->k.conn));
    if (ebe->k.ael) PetscCall((*be->ops->free)(be, (void *)ebe->k.ael));
    if (ebe->k.aels) PetscCall((*be->ops->free)(be, (void *)ebe->k.aels));
    if (ebe->k.color_elem) PetscCall((*be->ops->free)(be, (void *)ebe->k.color_elem));
  }
  PetscCall(PetscMemzero(&ebe->k, sizeof(ebe->k)));
  PetscCall(PetscFree(ebe->aels));
  PetscCall(PetscFree(ebe->conn));
  PetscCall(PetscFree(ebe->ael));
  PetscCall(PetscFree(ebe->color_ptr));
  PetscCall(PetscFree(ebe->color_elem));
  PetscCall(PetscFree(ebe->xyz));
  PetscCall(PetscFree(ebe->l2g));
  for (int s = 0; s < 2; s++) {
    PetscCall(PetscFree(ebe->ifc[s]));
    PetscCall(PetscFree(ebe->sbuf[s]));
    PetscCall(PetscFree(ebe->rbuf[s]));
    ebe->nifc[s] = 0;
    ebe->nbr[s]  = MPI_PROC_NULL;
  }
  PetscCall(EasVecDestroy(&ebe->scratch));
  ebe->nel = ebe->nnodes = ebe->nowned = 0;
  ebe->setupcalled                     = PETSC_FALSE;
  PetscFunctionReturn(0);
}

PetscErrorCode EasEbeSetBackend(EasEbe ebe, EasBackend be)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  PetscValidHeaderSpecific(be, EAS_BACKEND_CLASSID, 2);
  PetscCheck(!ebe->setupcalled, PetscObjectComm((PetscObject)ebe), PETSC_ERR_ORDER, "EasEbeSetBackend: call before EasEbeSetUp()");
  PetscCall(PetscObjectReference((PetscObject)be));
  PetscCall(EasBackendDestroy(&ebe->be));
  ebe->be = be;
  PetscFunctionReturn(0);
}

PetscErrorCode EasEbeGetBackend(EasEbe ebe, EasBackend *be)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  *be = ebe->be;
  PetscFunctionReturn(0);
}

PetscErrorCode EasEbeSetOptionsPrefix(EasEbe ebe, const char prefix[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  PetscCall(PetscObjectSetOptionsPrefix((PetscObject)ebe, prefix));
  PetscFunctionReturn(0);
}

/* Greedy colouring: each element takes the lowest colour not used by an
   element sharing one of its nodes (a 64-bit mask of used colours per node). */
static PetscErrorCode EasEbeColorGreedy_Private(EasEbe ebe, PetscInt *color)
{
  PetscInt64 *mask;

  PetscFunctionBegin;
  PetscCall(PetscCalloc1(PetscMax(ebe->nnodes, 1), &mask));
  ebe->ncolors = 0;
  for (PetscInt e = 0; e < ebe->nel; e++) {
    PetscInt64 used = 0;
    PetscInt   c    = 0;
    for (PetscInt a = 0; a < ebe->nen; a++) used |= mask[ebe->conn[e * ebe->nen + a]];
    while (c < 64 && (used >> c) & 1) c++;
    PetscCheck(c < 64, PETSC_COMM_SELF, PETSC_ERR_SUP, "EasEbe colouring: element %" PetscInt_FMT " needs more than 64 colours (a node shared by too many elements)", e);
    color[e] = c;
    for (PetscInt a = 0; a < ebe->nen; a++) mask[ebe->conn[e * ebe->nen + a]] |= ((PetscInt64)1) << c;
    ebe->ncolors = PetscMax(ebe->ncolors, c + 1);
  }
  PetscCall(PetscFree(mask));
  PetscFunctionReturn(0);
}

/* Colour lists from color[e] (counting sort; ascending elements per colour). */
PETSC_INTERN PetscErrorCode EasEbeSetColors_Private(EasEbe, const PetscInt *, PetscInt);
PetscErrorCode              EasEbeSetColors_Private(EasEbe ebe, const PetscInt *color, PetscInt ncolors)
{
  PetscInt *pos;

  PetscFunctionBegin;
  ebe->ncolors = ncolors;
  PetscCall(PetscFree(ebe->color_ptr));
  PetscCall(PetscFree(ebe->color_elem));
  PetscCall(PetscCalloc1(ncolors + 1, &ebe->color_ptr));
  PetscCall(PetscMalloc1(PetscMax(ebe->nel, 1), &ebe->color_elem));
  PetscCall(PetscMalloc1(ncolors, &pos));
  for (PetscInt e = 0; e < ebe->nel; e++) ebe->color_ptr[color[e] + 1]++;
  for (PetscInt c = 0; c < ncolors; c++) ebe->color_ptr[c + 1] += ebe->color_ptr[c];
  for (PetscInt c = 0; c < ncolors; c++) pos[c] = ebe->color_ptr[c];
  for (PetscInt e = 0; e < ebe->nel; e++) ebe->color_elem[pos[color[e]]++] = e;
  PetscCall(PetscFree(pos));
  PetscFunctionReturn(0);
}

/*@C
  EasEbeSetElements - the user path: nel elements, nen nodes each, dof per
  node, nnodes nodes, connectivity conn[nel*nen] and element matrices
  ael[nel*m*m] (m = nen*dof, row-major).  One process only.
  Errors: sizes out of range, a node index out of range, a node repeated in
  an element (the message names the element, the vertex and the node).
@*/
PetscErrorCode EasEbeSetElements(EasEbe ebe, PetscInt nel, PetscInt nen, PetscInt dof, PetscInt nnodes, const PetscInt conn[], const PetscScalar ael[])
{
  MPI_Comm    comm;
  PetscMPIInt size;
  PetscInt    m = nen * dof, *color, nconn, nunk;
  size_t      nael;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  comm = PetscObjectComm((PetscObject)ebe);
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCheck(size == 1, comm, PETSC_ERR_SUP, "EasEbeSetElements: the user path is one process (communicator of size 1); got %d processes", size);
  PetscCheck(nel >= 0 && nen > 0 && dof > 0 && nnodes > 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "EasEbeSetElements: expected nel >= 0, nen > 0, dof > 0, nnodes > 0; got nel=%" PetscInt_FMT " nen=%" PetscInt_FMT " dof=%" PetscInt_FMT " nnodes=%" PetscInt_FMT, nel, nen, dof, nnodes);
  PetscCheck(m <= EAS_EBE_MAXM, comm, PETSC_ERR_SUP, "EasEbeSetElements: element matrices of order nen*dof = %" PetscInt_FMT " exceed the supported %d", m, EAS_EBE_MAXM);
  PetscCheck(nel == 0 || (conn && ael), comm, PETSC_ERR_ARG_NULL, "EasEbeSetElements: NULL connectivity or element matrices");
  /* the sizes before the arrays are read (core/size.h; docs/design.md, Limits) */
  PetscCall(EasIntMul(comm, "EasEbeSetElements: connectivity nel*nen", &nconn, nel, nen));
  PetscCall(EasIntMul(comm, "EasEbeSetElements: unknowns nnodes*dof", &nunk, nnodes, dof));
  PetscCall(EasSizeMul(comm, "EasEbeSetElements: element storage nel*m*m", sizeof(PetscScalar), &nael, nel, m, m));
  for (PetscInt e = 0; e < nel; e++) {
    for (PetscInt a = 0; a < nen; a++) {
      const PetscInt v = conn[e * nen + a];
      PetscCheck(v >= 0 && v < nnodes, comm, PETSC_ERR_ARG_OUTOFRANGE, "Inconsistent connectivity: element %" PetscInt_FMT " vertex %" PetscInt_FMT " has node %" PetscInt_FMT ", expected a node index in [0, %" PetscInt_FMT ")", e, a, v, nnodes);
      for (PetscInt b = 0; b < a; b++) PetscCheck(conn[e * nen + b] != v, comm, PETSC_ERR_ARG_WRONG, "Inconsistent connectivity: element %" PetscInt_FMT " lists node %" PetscInt_FMT " twice (vertices %" PetscInt_FMT " and %" PetscInt_FMT ")", e, v, b, a);
    }
  }
  PetscCall(EasEbeReset_Private(ebe));
  ebe->nel    = nel;
  ebe->nen    = nen;
  ebe->dof    = dof;
  ebe->nnodes = ebe->nowned = nnodes;
  ebe->nglobal_nodes        = nnodes;
  ebe->from_mesh            = PETSC_FALSE;
  PetscCall(PetscMalloc1(PetscMax(nconn, 1), &ebe->conn));
  PetscCall(PetscMalloc1(PetscMax(nael, 1), &ebe->ael)); /* nel*m*m in size_t (issue 10, C2) */
  PetscCall(PetscArraycpy(ebe->conn, conn, nconn));
  PetscCall(PetscArraycpy(ebe->ael, ael, nael));
  PetscCall(PetscObjectChangeTypeName((PetscObject)ebe, "user"));
  PetscCall(PetscMalloc1(nnodes, &ebe->l2g));
  for (PetscInt i = 0; i < nnodes; i++) ebe->l2g[i] = i;
  ebe->grow0       = 0;
  ebe->ifc_e[0][0] = 0;
  ebe->ifc_e[0][1] = 0;
  ebe->ifc_e[1][0] = nel;
  ebe->ifc_e[1][1] = nel;
  PetscCall(PetscMalloc1(PetscMax(nel, 1), &color));
  PetscCall(EasEbeColorGreedy_Private(ebe, color));
  PetscCall(EasEbeSetColors_Private(ebe, color, ebe->ncolors));
  PetscCall(PetscFree(color));
  PetscFunctionReturn(0);
}

PetscErrorCode EasEbeSetMode(EasEbe ebe, EasEbeMode mode)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  ebe->mode = mode;
  PetscFunctionReturn(0);
}

/*@C
  EasEbeSetFromOptions - -ebe_mode sync|async, -ebe_view and the split
  options (see include/eas/ebe.h).
@*/
PetscErrorCode EasEbeSetFromOptions(EasEbe ebe)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  PetscObjectOptionsBegin((PetscObject)ebe);
  {
    PetscEnum st  = (PetscEnum)ebe->storage;
    PetscBool flg = PETSC_FALSE;
    PetscCall(PetscOptionsEnum("-ebe_storage", "Element matrix storage the apply reads: full, symmetric (upper triangle packed), single (float), symmetric_single (default: symmetric when every element matrix is)", "EasEbeSetStorage", EasEbeStorages, st, &st, &flg));
    if (flg) PetscCall(EasEbeSetStorage(ebe, (EasEbeStorage)st));
  }
  {
    PetscBool det = ebe->deterministic, flg = PETSC_FALSE;
    PetscCall(PetscOptionsBool("-ebe_deterministic", "Device apply colour by colour (bitwise reproducible sums) instead of one launch with an atomic scatter", "EasEbeSetDeterministic", det, &det, &flg));
    if (flg) PetscCall(EasEbeSetDeterministic(ebe, det));
  }
  {
    PetscEnum lay = (PetscEnum)ebe->device_layout;
    PetscBool flg = PETSC_FALSE;
    PetscCall(PetscOptionsEnum("-ebe_device_layout", "Device kernel: warp (a group of lanes per element, rows read coalesced) or lanes (a thread per element, values interleaved by 32 elements)", "EasEbeSetDeviceLayout", EasEbeDeviceLayouts, lay, &lay, &flg));
    if (flg) PetscCall(EasEbeSetDeviceLayout(ebe, (EasEbeDeviceLayout)lay));
  }
  {
    PetscInt  wr  = ebe->warp_rows;
    PetscBool flg = PETSC_FALSE;
    PetscCall(PetscOptionsInt("-ebe_warp_rows", "Device warp kernel: rows of an element matrix loaded before their sums, 4 or 8 (loads in flight against registers; elements of order <= 8: 4)", "EasEbeSetWarpRows", wr, &wr, &flg));
    if (flg) PetscCall(EasEbeSetWarpRows(ebe, wr));
  }
  PetscCall(PetscOptionsEnum("-ebe_mode", "Interface exchange: sync (blocking) or async (overlapped with interior elements)", "EasEbeSetMode", EasEbeModes, (PetscEnum)ebe->mode, (PetscEnum *)&ebe->mode, NULL));
  PetscCall(EasEbeSplitSetFromOptions_Private(ebe, PetscOptionsObject));
  {
    PetscBool want = PETSC_FALSE, tr, vw;
    PetscCall(PetscOptionsBool("-ebe_energy_meter", "Meter the energy of the operator and of its solves (also on with -eas_trace or -eas_energy_view)", "EasEbeGetEnergyMeter", want, &want, NULL));
    PetscCall(EasEnergyOutputRequested_Private((PetscObject)ebe, &tr, &vw)); /* the meter parses them, once it exists */
    ebe->trace = tr;
    if (want || tr || vw) {
      EasEnergyMeter m;
      PetscCall(EasEbeGetEnergyMeter(ebe, &m));
    }
  }
  PetscOptionsEnd();
  if (ebe->meter) PetscCall(EasEnergyMeterSetFromOptions(ebe->meter));
  PetscFunctionReturn(0);
}

/*@C
  EasEbeSetUp - backend copies of the elements, exchange buffers, split.
  Errors: no elements set.
@*/
PetscErrorCode EasEbeSetUp(EasEbe ebe)
{
  EasBackend be;
  PetscInt   m;
  MPI_Comm   comm = PetscObjectComm((PetscObject)ebe);
  size_t     nconn, nael, nbuf[2];

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  if (ebe->setupcalled) PetscFunctionReturn(0);
  PetscCheck(ebe->conn, PetscObjectComm((PetscObject)ebe), PETSC_ERR_ORDER, "EasEbeSetUp: no elements; call EasEbeSetElements() or EasEbeSetFromMesh() first");
  PetscCall(PetscLogEventBegin(EAS_EbeSetUp, ebe, 0, 0, 0));
  if (!ebe->be) PetscCall(EasBackendCreateFor_Private((PetscObject)ebe, PETSC_COMM_SELF, &ebe->be)); /* -eas_backend auto: the energy policies' resolver (it may also set split units) */
  be = ebe->be;
  /* the energy meter first: SetUp itself is the setup phase (as EasAdr) */
  if (ebe->meter) {
    PetscCall(EasEbeMeterSetUp_Private(ebe));
    PetscCall(EasEnergyMeterSetBackend(ebe->meter, be));
    PetscCall(EasEnergyMeterStart(ebe->meter));
    PetscCall(EasEbeMeterBegin_Private(ebe, EAS_PHASE_SETUP));
  }
  PetscCheck(be->ops->ebe_apply && be->ops->ebe_diagonal, PETSC_COMM_SELF, PETSC_ERR_SUP, "Backend %s has no element-by-element kernels", be->resource);
  m = ebe->nen * ebe->dof;
  PetscCall(EasSizeMul(comm, "EBE connectivity nel*nen", sizeof(PetscInt), &nconn, ebe->nel, ebe->nen));
  PetscCall(EasSizeMul(comm, "EBE element storage nel*m*m", sizeof(PetscScalar), &nael, ebe->nel, m, m));
  for (int s = 0; s < 2; s++) PetscCall(EasSizeMul(comm, "EBE exchange buffer nifc*dof*dof", sizeof(PetscScalar), &nbuf[s], ebe->nifc[s], ebe->dof, ebe->dof));
  ebe->k.nel             = ebe->nel;
  ebe->k.nen             = ebe->nen;
  ebe->k.dof             = ebe->dof;
  ebe->k.nnodes          = ebe->nnodes;
  ebe->k.ncolors         = ebe->ncolors;
  ebe->k.color_ptr       = ebe->color_ptr;
  ebe->k.color_elem_host = ebe->color_elem;
  if (be->host_is_device) {
    ebe->k.conn       = ebe->conn;
    ebe->k.ael        = ebe->ael;
    ebe->k.color_elem = ebe->color_elem;
  } else {
    void *p;
    PetscCall((*be->ops->malloc)(be, sizeof(PetscInt) * PetscMax(nconn, 1), &p));
    PetscCall(EasBackendCopyHtoD(be, p, ebe->conn, sizeof(PetscInt) * nconn));
    ebe->k.conn = (const PetscInt *)p;
    PetscCall((*be->ops->malloc)(be, sizeof(PetscScalar) * PetscMax(nael, 1), &p));
    PetscCall(EasBackendCopyHtoD(be, p, ebe->ael, sizeof(PetscScalar) * nael));
    ebe->k.ael = (const PetscScalar *)p;
    PetscCall((*be->ops->malloc)(be, sizeof(PetscInt) * PetscMax(ebe->nel, 1), &p));
    PetscCall(EasBackendCopyHtoD(be, p, ebe->color_elem, sizeof(PetscInt) * ebe->nel));
    ebe->k.color_elem = (const PetscInt *)p;
  }
  PetscCall(EasEbeStorageSetUp_Private(ebe));
  for (int s = 0; s < 2; s++) {
    PetscCall(PetscFree(ebe->sbuf[s]));
    PetscCall(PetscFree(ebe->rbuf[s]));
    PetscCall(PetscMalloc1(PetscMax(nbuf[s], 1), &ebe->sbuf[s]));
    PetscCall(PetscMalloc1(PetscMax(nbuf[s], 1), &ebe->rbuf[s]));
  }
  ebe->setupcalled = PETSC_TRUE;
  /* the split covers all local elements, or the interior ones in async mode
     (on a host backend: EasEbeMult's async path; a device operator's
     exchange goes through the host copy after all elements) */
  if (ebe->mode == EAS_EBE_ASYNC && be->host_is_device)
    PetscCall(EasEbeSplitSetUp_Private(ebe, ebe->ifc_e[0][1], ebe->ifc_e[1][0]));
  else
    PetscCall(EasEbeSplitSetUp_Private(ebe, 0, ebe->nel));
  PetscCall(EasEbeMeterSetUp_Private(ebe)); /* units the split setup may have added */
  PetscCall(EasEbeMeterEnd_Private(ebe, EAS_PHASE_SETUP, 0));
  PetscCall(PetscLogEventEnd(EAS_EbeSetUp, ebe, 0, 0, 0));
  PetscCall(PetscObjectViewFromOptions((PetscObject)ebe, NULL, "-ebe_view"));
  PetscFunctionReturn(0);
}

PetscErrorCode EasEbeGetSizes(EasEbe ebe, PetscInt *nel, PetscInt *nen, PetscInt *dof, PetscInt *nnodes, PetscInt *nowned)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  if (nel) *nel = ebe->nel;
  if (nen) *nen = ebe->nen;
  if (dof) *dof = ebe->dof;
  if (nnodes) *nnodes = ebe->nnodes;
  if (nowned) *nowned = ebe->nowned;
  PetscFunctionReturn(0);
}

PetscErrorCode EasEbeGetColors(EasEbe ebe, PetscInt *ncolors)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  *ncolors = ebe->ncolors;
  PetscFunctionReturn(0);
}

/*@C
  EasEbeGetColoring - the element colouring of the local elements (borrowed):
  colour c holds the elements color_elem[color_ptr[c] .. color_ptr[c+1]),
  ascending, c < ncolors.  Any argument may be NULL.
@*/
PetscErrorCode EasEbeGetColoring(EasEbe ebe, PetscInt *ncolors, const PetscInt *color_ptr[], const PetscInt *color_elem[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  if (ncolors) *ncolors = ebe->ncolors;
  if (color_ptr) *color_ptr = ebe->color_ptr;
  if (color_elem) *color_elem = ebe->color_elem;
  PetscFunctionReturn(0);
}

PetscErrorCode EasEbeGetNodeCoordinates(EasEbe ebe, const PetscReal *xyz[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  *xyz = ebe->xyz;
  PetscFunctionReturn(0);
}

PetscErrorCode EasEbeCreateVecs(EasEbe ebe, EasVec *x, EasVec *y)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  PetscCall(EasEbeSetUp(ebe));
  if (x) PetscCall(EasVecCreate(ebe->be, ebe->nnodes * ebe->dof, x));
  if (y) PetscCall(EasVecCreate(ebe->be, ebe->nnodes * ebe->dof, y));
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------ exchange */

PetscErrorCode EasEbeExchangeBegin_Private(EasEbe ebe, const PetscScalar *a, PetscInt bs, MPI_Request req[4])
{
  MPI_Comm comm = PetscObjectComm((PetscObject)ebe);

  PetscFunctionBegin;
  for (int s = 0; s < 4; s++) req[s] = MPI_REQUEST_NULL;
  for (int s = 0; s < 2; s++) {
    const PetscInt ni = ebe->nifc[s];
    PetscInt       cnt;
    PetscMPIInt    mcnt;
    if (ebe->nbr[s] == MPI_PROC_NULL) continue;
    PetscCall(EasIntMul(comm, "EBE exchange count nifc*bs", &cnt, ni, bs)); /* bs = dof*dof for point blocks */
    PetscCall(PetscMPIIntCast(cnt, &mcnt));
    for (PetscInt i = 0; i < ni; i++)
      for (PetscInt k = 0; k < bs; k++) ebe->sbuf[s][i * bs + k] = a[(size_t)ebe->ifc[s][i] * bs + k];
    PetscCallMPI(MPI_Irecv(ebe->rbuf[s], mcnt, MPIU_SCALAR, ebe->nbr[s], ebe->tag, comm, &req[2 * s]));
    PetscCallMPI(MPI_Isend(ebe->sbuf[s], mcnt, MPIU_SCALAR, ebe->nbr[s], ebe->tag, comm, &req[2 * s + 1]));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode EasEbeExchangeEnd_Private(EasEbe ebe, PetscScalar *a, PetscInt bs, MPI_Request req[4])
{
  PetscFunctionBegin;
  PetscCallMPI(MPI_Waitall(4, req, MPI_STATUSES_IGNORE));
  for (int s = 0; s < 2; s++) {
    if (ebe->nbr[s] == MPI_PROC_NULL) continue;
    for (PetscInt i = 0; i < ebe->nifc[s]; i++)
      for (PetscInt k = 0; k < bs; k++) a[(size_t)ebe->ifc[s][i] * bs + k] += ebe->rbuf[s][i * bs + k];
  }
  PetscFunctionReturn(0);
}

/* Interface sums both ways: afterwards both sides hold the full sums. */
PetscErrorCode EasEbeExchange_Private(EasEbe ebe, PetscScalar *a, PetscInt bs)
{
  MPI_Request req[4];

  PetscFunctionBegin;
  if (ebe->nbr[0] == MPI_PROC_NULL && ebe->nbr[1] == MPI_PROC_NULL) PetscFunctionReturn(0);
  PetscCall(PetscLogEventBegin(EAS_EbeExchange, 0, 0, 0, 0));
  PetscCall(EasEbeMeterBegin_Private(ebe, EAS_PHASE_EXCHANGE));
  PetscCall(EasEbeExchangeBegin_Private(ebe, a, bs, req));
  PetscCall(EasEbeExchangeEnd_Private(ebe, a, bs, req));
  PetscCall(EasEbeMeterEnd_Private(ebe, EAS_PHASE_EXCHANGE, 0));
  PetscCall(PetscLogEventEnd(EAS_EbeExchange, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/* Elements [e0,e1) on the split units when the range is the split's, else
   on the operator's backend. */
static PetscErrorCode EasEbeApplyLocal_Private(EasEbe ebe, PetscInt e0, PetscInt e1, const PetscScalar *x, PetscScalar *y)
{
  EasEbeSplit *sp = ebe->split;

  PetscFunctionBegin;
  if (e1 <= e0) PetscFunctionReturn(0);
  if (sp->nunits > 0 && sp->e0 == e0 && sp->e1 == e1)
    PetscCall(EasEbeSplitApply_Private(ebe, x, y));
  else {
    PetscCall(EasEbeMeterBegin_Private(ebe, EAS_PHASE_COMPUTE)); /* no split: the driver unit is the backend's unit */
    PetscCall((*ebe->be->ops->ebe_apply)(ebe->be, &ebe->k, e0, e1, x, y));
    PetscCall(EasEbeMeterEnd_Private(ebe, EAS_PHASE_COMPUTE, (PetscReal)(e1 - e0)));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode EasEbeCheckVec_Private(EasEbe ebe, EasVec v, const char *name)
{
  PetscInt   n;
  EasBackend be;

  PetscFunctionBegin;
  PetscCall(EasVecGetSize(v, &n));
  PetscCall(EasVecGetBackend(v, &be));
  PetscCheck(n == ebe->nnodes * ebe->dof, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "EasEbe: vector %s has %" PetscInt_FMT " entries, expected nnodes*dof = %" PetscInt_FMT " (use EasEbeCreateVecs())", name, n, ebe->nnodes * ebe->dof);
  PetscCheck(be == ebe->be, PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "EasEbe: vector %s is not on the operator's backend %s (use EasEbeCreateVecs())", name, ebe->be->resource);
  PetscFunctionReturn(0);
}

/*@C
  EasEbeMult - y = A x.  sync: all local elements, then the blocking
  interface exchange; async: interface elements first, non-blocking exchange
  of their sums overlapped with the interior elements (docs/ebe.md).
@*/
PetscErrorCode EasEbeMult(EasEbe ebe, EasVec x, EasVec y)
{
  EasBackend         be;
  const PetscScalar *xa;
  PetscScalar       *ya;
  const PetscInt     n      = ebe->nnodes * ebe->dof;
  const PetscBool    hasnbr = (PetscBool)(ebe->nbr[0] != MPI_PROC_NULL || ebe->nbr[1] != MPI_PROC_NULL);

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  PetscCall(EasEbeSetUp(ebe));
  PetscCall(EasEbeCheckVec_Private(ebe, x, "x"));
  PetscCall(EasEbeCheckVec_Private(ebe, y, "y"));
  PetscCheck(x != y, PETSC_COMM_SELF, PETSC_ERR_ARG_IDN, "EasEbeMult: x and y must be different vectors");
  be = ebe->be;
  PetscCall(PetscLogEventBegin(EAS_EbeApply, ebe, 0, 0, 0));
  PetscCall(EasVecGetBackendArrayRead(x, &xa));
  PetscCall(EasVecGetBackendArrayWrite(y, &ya));
  PetscCall((*be->ops->set)(be, n, 0.0, ya));
  if (!hasnbr) {
    PetscCall(EasEbeApplyLocal_Private(ebe, 0, ebe->nel, xa, ya));
  } else if (ebe->mode == EAS_EBE_SYNC || !be->host_is_device) {
    PetscScalar *h;
    PetscCall(EasEbeApplyLocal_Private(ebe, 0, ebe->nel, xa, ya));
    if (be->host_is_device)
      PetscCall(EasEbeExchange_Private(ebe, ya, ebe->dof));
    else {
      PetscCall(EasVecGetArray(y, &h)); /* device backends: the exchange goes through the host copy */
      PetscCall(EasEbeExchange_Private(ebe, h, ebe->dof));
      PetscCall(EasVecRestoreArray(y, &h));
    }
  } else {
    MPI_Request    req[4];
    const PetscInt a = ebe->ifc_e[0][1], b = ebe->ifc_e[1][0];
    /* interface elements, then their sums travel while the interior is computed */
    PetscCall(EasEbeMeterBegin_Private(ebe, EAS_PHASE_COMPUTE));
    PetscCall((*be->ops->ebe_apply)(be, &ebe->k, 0, a, xa, ya));
    PetscCall((*be->ops->ebe_apply)(be, &ebe->k, b, ebe->nel, xa, ya));
    PetscCall(EasEbeMeterEnd_Private(ebe, EAS_PHASE_COMPUTE, (PetscReal)(a + ebe->nel - b)));
    PetscCall(PetscLogEventBegin(EAS_EbeExchange, 0, 0, 0, 0));
    PetscCall(EasEbeMeterBegin_Private(ebe, EAS_PHASE_EXCHANGE));
    PetscCall(EasEbeExchangeBegin_Private(ebe, ya, ebe->dof, req));
    PetscCall(EasEbeMeterEnd_Private(ebe, EAS_PHASE_EXCHANGE, 0));
    PetscCall(PetscLogEventEnd(EAS_EbeExchange, 0, 0, 0, 0));
    PetscCall(EasEbeApplyLocal_Private(ebe, a, b, xa, ya));
    PetscCall(PetscLogEventBegin(EAS_EbeExchange, 0, 0, 0, 0));
    PetscCall(EasEbeMeterBegin_Private(ebe, EAS_PHASE_EXCHANGE));
    PetscCall(EasEbeExchangeEnd_Private(ebe, ya, ebe->dof, req));
    PetscCall(EasEbeMeterEnd_Private(ebe, EAS_PHASE_EXCHANGE, 0));
    PetscCall(PetscLogEventEnd(EAS_EbeExchange, 0, 0, 0, 0));
  }
  PetscCall(PetscLogEventEnd(EAS_EbeApply, ebe, 0, 0, 0));
  PetscFunctionReturn(0);
}

/*@C
  EasEbeMultAddRange - y += sum over local elements [e0,e1) of A_e x, on the
  operator's backend, without exchange and without the split.
@*/
PetscErrorCode EasEbeMultAddRange(EasEbe ebe, PetscInt e0, PetscInt e1, EasVec x, EasVec y)
{
  const PetscScalar *xa;
  PetscScalar       *ya;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  PetscCall(EasEbeSetUp(ebe));
  PetscCheck(0 <= e0 && e0 <= e1 && e1 <= ebe->nel, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "EasEbeMultAddRange: range [%" PetscInt_FMT ", %" PetscInt_FMT ") is not inside [0, %" PetscInt_FMT ")", e0, e1, ebe->nel);
  PetscCall(EasEbeCheckVec_Private(ebe, x, "x"));
  PetscCall(EasEbeCheckVec_Private(ebe, y, "y"));
  PetscCall(EasVecGetBackendArrayRead(x, &xa));
  PetscCall(EasVecGetBackendArray(y, &ya));
  PetscCall(PetscLogEventBegin(EAS_EbeApply, ebe, 0, 0, 0));
  PetscCall((*ebe->be->ops->ebe_apply)(ebe->be, &ebe->k, e0, e1, xa, ya));
  PetscCall(PetscLogEventEnd(EAS_EbeApply, ebe, 0, 0, 0));
  PetscFunctionReturn(0);
}

/*@C
  EasEbeGetDiagonal - d = diag(A) from the element diagonals (exchanged).
@*/
PetscErrorCode EasEbeGetDiagonal(EasEbe ebe, EasVec d)
{
  PetscScalar *da;
  EasBackend   be;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  PetscCall(EasEbeSetUp(ebe));
  PetscCall(EasEbeCheckVec_Private(ebe, d, "d"));
  be = ebe->be;
  PetscCall(PetscLogEventBegin(EAS_EbeDiagonal, ebe, 0, 0, 0));
  PetscCall(EasVecGetBackendArrayWrite(d, &da));
  PetscCall((*be->ops->set)(be, ebe->nnodes * ebe->dof, 0.0, da));
  PetscCall((*be->ops->ebe_diagonal)(be, &ebe->k, 0, ebe->nel, 1, da));
  PetscCall(EasVecGetArray(d, &da));
  PetscCall(EasEbeExchange_Private(ebe, da, ebe->dof));
  PetscCall(EasVecRestoreArray(d, &da));
  PetscCall(PetscLogEventEnd(EAS_EbeDiagonal, ebe, 0, 0, 0));
  PetscFunctionReturn(0);
}

PetscErrorCode EasEbeGetPointBlockDiagonal_Private(EasEbe ebe, PetscScalar **D)
{
  const PetscInt bs = ebe->dof;
  size_t         nd;

  PetscFunctionBegin;
  PetscCall(EasSizeMul(PetscObjectComm((PetscObject)ebe), "point-block diagonal nnodes*dof*dof", sizeof(PetscScalar), &nd, ebe->nnodes, bs, bs));
  PetscCall(PetscCalloc1(PetscMax(nd, 1), D));
  for (PetscInt e = 0; e < ebe->nel; e++) EasEbeElementDiagonal(e, ebe->nen, ebe->dof, bs, ebe->conn, ebe->ael, *D);
  PetscCall(EasEbeExchange_Private(ebe, *D, bs * bs));
  PetscFunctionReturn(0);
}

/*@C
  EasEbeCheckSymmetric - every element matrix symmetric to rtol (relative to
  its largest entry).  Errors: PETSC_ERR_ARG_WRONG naming the element and the
  entry.
@*/
PetscErrorCode EasEbeCheckSymmetric(EasEbe ebe, PetscReal rtol)
{
  const PetscInt m = ebe->nen * ebe->dof;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  for (PetscInt e = 0; e < ebe->nel; e++) {
    const PetscScalar *A    = ebe->ael + (size_t)e * m * m;
    PetscReal          amax = 0.0;
    for (PetscInt i = 0; i < m * m; i++) amax = PetscMax(amax, PetscAbsScalar(A[i]));
    for (PetscInt i = 0; i < m; i++)
      for (PetscInt j = 0; j < i; j++)
        PetscCheck(PetscAbsScalar(A[i * m + j] - A[j * m + i]) <= rtol * amax, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Non-symmetric element matrix: element %" PetscInt_FMT " has A[%" PetscInt_FMT "][%" PetscInt_FMT "] = %g but A[%" PetscInt_FMT "][%" PetscInt_FMT "] = %g; cg and pipecg need symmetric element matrices", e, i, j, (double)A[i * m + j], j, i, (double)A[j * m + i]);
  }
  PetscFunctionReturn(0);
}

/*@C
  EasEbeView - sizes, colours, mode, backend and split.
@*/
PetscErrorCode EasEbeView(EasEbe ebe, PetscViewer viewer)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  if (!viewer) PetscCall(PetscViewerASCIIGetStdout(PetscObjectComm((PetscObject)ebe), &viewer));
  PetscCall(PetscObjectPrintClassNamePrefixType((PetscObject)ebe, viewer));
  PetscCall(PetscViewerASCIIPushTab(viewer));
  if (ebe->from_mesh) {
    EasEbeBoundary bc;
    PetscCall(EasEbeGetMeshBoundary(ebe, &bc));
    PetscCall(PetscViewerASCIIPrintf(viewer, "built-in mesh: %s, Q%" PetscInt_FMT ", %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT " elements, boundary %s, material %s%s\n", EasEbeProblems[ebe->problem], ebe->order, ebe->nx, ebe->ny, ebe->nz, EasEbeBoundaries[bc], EasEbeMaterials[ebe->material], ebe->map ? ", mapped nodes" : ""));
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "elements (rank 0): %" PetscInt_FMT ", %" PetscInt_FMT " nodes x %" PetscInt_FMT " dof (%" PetscInt_FMT "x%" PetscInt_FMT " element matrices), %" PetscInt_FMT " colours\n", ebe->nel, ebe->nen, ebe->dof, ebe->nen * ebe->dof, ebe->nen * ebe->dof, ebe->ncolors));
  PetscCall(PetscViewerASCIIPrintf(viewer, "nodes (rank 0): %" PetscInt_FMT " local, %" PetscInt_FMT " owned; global %" PetscInt_FMT "; interface exchange %s\n", ebe->nnodes, ebe->nowned, ebe->nglobal_nodes, EasEbeModes[ebe->mode]));
  PetscCall(PetscViewerASCIIPrintf(viewer, "element storage the apply reads: %s%s\n", EasEbeStorages[ebe->storage], ebe->setupcalled ? "" : (ebe->storage_set ? " (set)" : " (chosen at setup: symmetric when every element matrix is)")));
  if (ebe->setupcalled && ebe->be->ebe_lanes > 1) {
    const char *scatter = ebe->k.deterministic ? "colour by colour (-ebe_deterministic)" : "atomic, one launch per apply";
    if (ebe->k.lanes > 1)
      PetscCall(PetscViewerASCIIPrintf(viewer, "device layout: lanes, a thread per element, elements interleaved in batches of %" PetscInt_FMT "; scatter %s\n", ebe->k.lanes, scatter));
    else
      PetscCall(PetscViewerASCIIPrintf(viewer, "device layout: warp, %d lanes per element, element values contiguous, %" PetscInt_FMT " rows in flight; scatter %s\n", (int)EasEbeWarpWidth((EasKInt)(ebe->nen * ebe->dof)), EasEbeWarpWidth((EasKInt)(ebe->nen * ebe->dof)) == 32 ? ebe->k.warp_rows : 4, scatter)); /* the rows the kernel uses: 4 for 8-lane groups */
  }
  PetscCall(EasEbeSplitView_Private(ebe, viewer));
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscFunctionReturn(0);
}

PetscErrorCode EasEbeDestroy(EasEbe *ebe)
{
  PetscFunctionBegin;
  if (!*ebe) PetscFunctionReturn(0);
  PetscValidHeaderSpecific(*ebe, EAS_EBE_CLASSID, 1);
  if (--((PetscObject)(*ebe))->refct > 0) {
    *ebe = NULL;
    PetscFunctionReturn(0);
  }
  PetscCall(EasEbeSplitDestroy_Private(*ebe));
  PetscCall(EasEnergyMeterDestroy(&(*ebe)->meter));
  PetscCall(EasHookListDestroy(&(*ebe)->hooks));
  PetscCall(EasEbeReset_Private(*ebe));
  PetscCall(EasBackendDestroy(&(*ebe)->be));
  PetscCall(PetscHeaderDestroy(ebe));
  PetscFunctionReturn(0);
}

/*@C
  EasEbeAddHook - attaches a hook of a layer above (include/eas/ebe.h).
@*/
PetscErrorCode EasEbeAddHook(EasEbe ebe, EasHookFn fn, void *ctx, PetscErrorCode (*destroy)(void **))
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  PetscCall(EasHookListAdd(PetscObjectComm((PetscObject)ebe), &ebe->hooks, fn, ctx, destroy));
  PetscFunctionReturn(0);
}

PetscErrorCode EasEbeCallHooks_Private(EasEbe ebe, EasHookPoint point, PetscInt its)
{
  EasHookInfo info;

  PetscFunctionBegin;
  if (!ebe || !ebe->hooks.n) PetscFunctionReturn(0);
  info.point  = point;
  info.its    = its;
  info.steps  = 0;
  info.nsteps = 0;
  PetscCall(EasHookListCall(&ebe->hooks, (PetscObject)ebe, &info));
  PetscFunctionReturn(0);
}
