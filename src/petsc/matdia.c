/*
  MATEASDIA: a PETSc matrix type stored in eas's DIA format
  (include/eas/petsc.h, docs/petsc-plugin.md).

  Each rank holds its rows [rstart, rstart + n).  The couplings among its
  own columns (the square diagonal block) live in an EasDia on the
  matrix's backend, val[d*ld + i] = A[rstart+i][rstart+i+off[d]]; the
  couplings to other ranks' columns live in a small CSR part on the host
  (like the off-diagonal block of MPIAIJ), applied after a scatter of the
  ghost values.  The diagonals come from a DMDA's stencil when the matrix
  is made by DMCreateMatrix (-dm_mat_type easdia), else from the entries of
  the first assembly; entries outside the pattern set later are merged at
  the end of their assembly (the pattern grows).
*/
#include "petscimpl.h"
#include <petscdmda.h>

/* ------------------------------------------------------------ pattern */

/* index of offset o in the ascending offsets, or -1 */
static inline PetscInt MatEasDiaFindOffset(const Mat_EasDia *a, PetscInt o)
{
  PetscInt lo = 0, hi = a->ndiag - 1;
  while (lo <= hi) {
    const PetscInt mid = (lo + hi) / 2;
    if (a->off[mid] == o) return mid;
    if (a->off[mid] < o) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/* position of global column gcol in row lr of the coupling part, or -1 */
static inline PetscInt MatEasDiaFindCoupling(const Mat_EasDia *a, PetscInt lr, PetscInt gcol)
{
  PetscInt g, lo, hi;
  if (!a->nghost || PetscFindInt(gcol, a->nghost, a->garray, &g) || g < 0) return -1;
  lo = a->bi[lr];
  hi = a->bi[lr + 1] - 1;
  while (lo <= hi) { /* bj ascending within a row */
    const PetscInt mid = (lo + hi) / 2;
    if (a->bj[mid] == g) return mid;
    if (a->bj[mid] < g) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

static PetscErrorCode MatEasDiaCheckOut(Mat_EasDia *a)
{
  PetscFunctionBegin;
  if (a->D && !a->val) PetscCall(EasDiaGetValuesWrite(a->D, &a->val, &a->ld));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatEasDiaCheckIn(Mat_EasDia *a)
{
  PetscFunctionBegin;
  if (a->val) PetscCall(EasDiaRestoreValuesWrite(a->D, &a->val));
  PetscFunctionReturn(0);
}

/* Sets the pattern of D to the ndiag offsets (D created on first use). */
static PetscErrorCode MatEasDiaSetPattern(Mat A, PetscInt ndiag, const PetscInt off[])
{
  Mat_EasDia *a = (Mat_EasDia *)A->data;
  const char *prefix;

  PetscFunctionBegin;
  if (!a->D) {
    PetscCall(EasDiaCreate(PETSC_COMM_SELF, &a->D));
    PetscCall(MatGetOptionsPrefix(A, &prefix));
    PetscCall(EasDiaSetOptionsPrefix(a->D, prefix));
    PetscCall(EasDiaSetBackend(a->D, a->be));
    PetscCall(EasDiaSetMaxFill(a->D, a->max_fill));
  }
  PetscCall(EasDiaSetPattern(a->D, a->n, ndiag, off));
  PetscCall(EasDiaGetSize(a->D, NULL, &a->ndiag));
  PetscCall(EasDiaGetOffsets(a->D, &a->off));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatEasDiaPendingPush(Mat_EasDia *a, PetscInt lr, PetscInt gcol, PetscScalar v, InsertMode mode)
{
  PetscHashIJKey key = {lr, gcol};
  PetscInt       k;

  PetscFunctionBegin;
  PetscCall(PetscHMapIJGet(a->pend, key, &k));
  if (k >= 0) {
    a->pv[k] = (mode == ADD_VALUES) ? a->pv[k] + v : v;
    PetscFunctionReturn(0);
  }
  if (a->npend == a->maxpend) {
    PetscInt     max = PetscMax(256, 2 * a->maxpend), *pi, *pj;
    PetscScalar *pv;
    PetscCall(PetscMalloc3(max, &pi, max, &pj, max, &pv));
    PetscCall(PetscArraycpy(pi, a->pi, a->npend));
    PetscCall(PetscArraycpy(pj, a->pj, a->npend));
    PetscCall(PetscArraycpy(pv, a->pv, a->npend));
    PetscCall(PetscFree3(a->pi, a->pj, a->pv));
    a->pi      = pi;
    a->pj      = pj;
    a->pv      = pv;
    a->maxpend = max;
  }
  a->pi[a->npend] = lr;
  a->pj[a->npend] = gcol;
  a->pv[a->npend] = v;
  PetscCall(PetscHMapIJSet(a->pend, key, a->npend));
  a->npend++;
  PetscFunctionReturn(0);
}

/* One entry of a local row: into D, the coupling part, or the pending set. */
static PetscErrorCode MatEasDiaSetLocal(Mat A, PetscInt lr, PetscInt gcol, PetscScalar v, InsertMode mode)
{
  Mat_EasDia *a = (Mat_EasDia *)A->data;
  PetscInt    k;

  PetscFunctionBegin;
  if (gcol >= a->rstart && gcol < a->rstart + a->n) {
    if (a->D && (k = MatEasDiaFindOffset(a, gcol - a->rstart - lr)) >= 0) {
      PetscScalar *p;
      PetscCall(MatEasDiaCheckOut(a));
      p  = &a->val[(size_t)k * a->ld + lr];
      *p = (mode == ADD_VALUES) ? *p + v : v;
      PetscFunctionReturn(0);
    }
  } else if ((k = MatEasDiaFindCoupling(a, lr, gcol)) >= 0) {
    a->bv[k] = (mode == ADD_VALUES) ? a->bv[k] + v : v;
    PetscFunctionReturn(0);
  }
  PetscCall(MatEasDiaPendingPush(a, lr, gcol, v, mode));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatSetValues_EasDia(Mat A, PetscInt m, const PetscInt rows[], PetscInt n, const PetscInt cols[], const PetscScalar v[], InsertMode mode)
{
  Mat_EasDia *a = (Mat_EasDia *)A->data;
  PetscInt    N = A->cmap->N;

  PetscFunctionBegin;
  if (!A->preallocated) PetscCall(MatSetUp(A));
  for (PetscInt i = 0; i < m; i++) {
    const PetscInt row = rows[i];
    if (row < 0) continue;
    PetscCheck(row < A->rmap->N, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "MATEASDIA: row %" PetscInt_FMT " is outside [0, %" PetscInt_FMT ")", row, A->rmap->N);
    for (PetscInt j = 0; j < n; j++) {
      const PetscInt    col = cols[j];
      const PetscScalar val = v ? (a->roworiented ? v[i * n + j] : v[i + j * m]) : 0.0;
      if (col < 0) continue;
      PetscCheck(col < N, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "MATEASDIA: column %" PetscInt_FMT " is outside [0, %" PetscInt_FMT ")", col, N);
      if (row >= a->rstart && row < a->rstart + a->n) PetscCall(MatEasDiaSetLocal(A, row - a->rstart, col, val, mode));
      else {
        PetscCheck(!A->nooffprocentries, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "MATEASDIA: row %" PetscInt_FMT " is another rank's and MAT_NO_OFF_PROC_ENTRIES is set", row);
        PetscCall(EasPetscStashPush(&a->stash, row, col, val));
      }
    }
  }
  PetscFunctionReturn(0);
}

/* Builds the ghost scatter of the coupling part (collective). */
static PetscErrorCode MatEasDiaSetUpScatter(Mat A)
{
  Mat_EasDia *a = (Mat_EasDia *)A->data;
  IS          from;
  Vec         gvec;

  PetscFunctionBegin;
  PetscCall(VecScatterDestroy(&a->scat));
  PetscCall(VecDestroy(&a->lvec));
  PetscCall(PetscFree(a->bvs));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, a->nghost, &a->lvec));
  PetscCall(ISCreateGeneral(PETSC_COMM_SELF, a->nghost, a->garray, PETSC_COPY_VALUES, &from));
  PetscCall(VecCreateMPIWithArray(PetscObjectComm((PetscObject)A), 1, A->cmap->n, A->cmap->N, NULL, &gvec));
  PetscCall(VecScatterCreate(gvec, from, a->lvec, NULL, &a->scat));
  PetscCall(VecDestroy(&gvec));
  PetscCall(ISDestroy(&from));
  PetscFunctionReturn(0);
}

/* Merges the pending entries into a pattern that holds them (the old
   offsets and couplings kept, values carried over). */
static PetscErrorCode MatEasDiaMergePending(Mat A)
{
  Mat_EasDia        *a = (Mat_EasDia *)A->data;
  PetscInt           nold = a->ndiag, ldold = a->ld, nd = 0, *off, ng = 0, *gcols, *cnt, *bi, *bj;
  PetscInt           nb_old = a->nghost ? a->bi[a->n] : 0;
  PetscScalar       *vold = NULL, *bv;
  PetscInt          *offold = NULL;
  const PetscScalar *cur;

  PetscFunctionBegin;
  /* the old values of D (host) */
  if (a->D) {
    PetscInt ld;
    PetscCall(MatEasDiaCheckIn(a));
    PetscCall(EasDiaGetValuesRead(a->D, &cur, &ld));
    ldold = ld;
    PetscCall(PetscMalloc2((size_t)nold * ldold, &vold, nold, &offold));
    PetscCall(PetscArraycpy(vold, cur, (size_t)nold * ldold));
    PetscCall(PetscArraycpy(offold, a->off, nold));
    PetscCall(EasDiaRestoreValuesRead(a->D, &cur));
  }
  /* offsets: old ones and those of the pending local entries */
  PetscCall(PetscMalloc1(nold + a->npend + 1, &off));
  for (PetscInt d = 0; d < nold; d++) off[nd++] = offold[d];
  for (PetscInt k = 0; k < a->npend; k++)
    if (a->pj[k] >= a->rstart && a->pj[k] < a->rstart + a->n) off[nd++] = a->pj[k] - a->rstart - a->pi[k];
  if (!nd) off[nd++] = 0; /* the zero matrix keeps its main diagonal */
  PetscCall(PetscSortRemoveDupsInt(&nd, off));
  /* ghost columns: old ones and those of the pending coupling entries */
  PetscCall(PetscMalloc1(a->nghost + a->npend + 1, &gcols));
  for (PetscInt g = 0; g < a->nghost; g++) gcols[ng++] = a->garray[g];
  for (PetscInt k = 0; k < a->npend; k++)
    if (!(a->pj[k] >= a->rstart && a->pj[k] < a->rstart + a->n)) gcols[ng++] = a->pj[k];
  PetscCall(PetscSortRemoveDupsInt(&ng, gcols));
  /* the coupling part: old entries renumbered, pending ones added */
  PetscCall(PetscCalloc1(a->n + 1, &cnt));
  for (PetscInt r = 0; r < a->n && a->nghost; r++) cnt[r] += a->bi[r + 1] - a->bi[r];
  for (PetscInt k = 0; k < a->npend; k++)
    if (!(a->pj[k] >= a->rstart && a->pj[k] < a->rstart + a->n)) cnt[a->pi[k]]++;
  PetscCall(PetscMalloc1(a->n + 1, &bi));
  bi[0] = 0;
  for (PetscInt r = 0; r < a->n; r++) bi[r + 1] = bi[r] + cnt[r];
  PetscCall(PetscMalloc2(PetscMax(bi[a->n], 1), &bj, PetscMax(bi[a->n], 1), &bv));
  for (PetscInt r = 0; r < a->n; r++) cnt[r] = bi[r];
  for (PetscInt r = 0; r < a->n && a->nghost; r++)
    for (PetscInt k = a->bi[r]; k < a->bi[r + 1]; k++) {
      PetscInt g;
      PetscCall(PetscFindInt(a->garray[a->bj[k]], ng, gcols, &g));
      bj[cnt[r]]   = g;
      bv[cnt[r]++] = a->bv[k];
    }
  for (PetscInt k = 0; k < a->npend; k++)
    if (!(a->pj[k] >= a->rstart && a->pj[k] < a->rstart + a->n)) {
      PetscInt g;
      PetscCall(PetscFindInt(a->pj[k], ng, gcols, &g));
      bj[cnt[a->pi[k]]]   = g;
      bv[cnt[a->pi[k]]++] = a->pv[k];
    }
  for (PetscInt r = 0; r < a->n; r++) PetscCall(PetscSortIntWithScalarArray(bi[r + 1] - bi[r], bj + bi[r], bv + bi[r]));
  (void)nb_old;
  PetscCall(PetscFree(a->garray));
  PetscCall(PetscFree(a->bi));
  PetscCall(PetscFree2(a->bj, a->bv));
  PetscCall(PetscFree(a->crow));
  PetscCall(PetscFree(a->bvs)); /* the scaled couplings follow the new pattern at the next solve */
  a->garray = gcols;
  a->nghost = ng;
  a->bi     = bi;
  a->bj     = bj;
  a->bv     = bv;
  a->ncrow  = 0;
  PetscCall(PetscMalloc1(PetscMax(a->n, 1), &a->crow));
  for (PetscInt r = 0; r < a->n; r++)
    if (bi[r + 1] > bi[r]) a->crow[a->ncrow++] = r;
  PetscCall(PetscFree(cnt));
  /* D with the new offsets, old values carried over, pending ones added */
  if (a->n) {
    PetscCall(MatEasDiaSetPattern(A, nd, off));
    PetscCall(MatEasDiaCheckOut(a));
    for (PetscInt d = 0; d < nold; d++) {
      const PetscInt k = MatEasDiaFindOffset(a, offold[d]);
      for (PetscInt i = 0; i < a->n; i++) a->val[(size_t)k * a->ld + i] = vold[(size_t)d * ldold + i];
    }
    for (PetscInt k = 0; k < a->npend; k++)
      if (a->pj[k] >= a->rstart && a->pj[k] < a->rstart + a->n) {
        const PetscInt d = MatEasDiaFindOffset(a, a->pj[k] - a->rstart - a->pi[k]);
        a->val[(size_t)d * a->ld + a->pi[k]] = a->pv[k];
      }
  }
  PetscCall(PetscFree2(vold, offold));
  PetscCall(PetscFree(off));
  PetscCall(PetscHMapIJClear(a->pend));
  a->npend = 0;
  PetscFunctionReturn(0);
}

/* DIA fill of the local block: stored entries / nonzero entries (the
   measure of EasDiaSetMaxFill). */
static PetscErrorCode MatEasDiaCheckFill(Mat A)
{
  Mat_EasDia        *a = (Mat_EasDia *)A->data;
  const PetscScalar *v;
  PetscInt           ld;
  PetscCount         nnz = 0;
  PetscReal          fill = 0, fmax;
  MPI_Comm           comm = PetscObjectComm((PetscObject)A);

  PetscFunctionBegin;
  if (a->D && a->n) {
    PetscCall(MatEasDiaCheckIn(a));
    PetscCall(EasDiaGetValuesRead(a->D, &v, &ld));
    for (PetscInt d = 0; d < a->ndiag; d++)
      for (PetscInt i = 0; i < a->n; i++) nnz += (v[(size_t)d * ld + i] != 0.0);
    PetscCall(EasDiaRestoreValuesRead(a->D, &v));
    fill = (PetscReal)a->ndiag * a->n / (PetscReal)PetscMax(nnz, 1);
  }
  PetscCall(MPIU_Allreduce(&fill, &fmax, 1, MPIU_REAL, MPIU_MAX, comm));
  PetscCheck(fmax <= a->max_fill, comm, PETSC_ERR_ARG_OUTOFRANGE, "MATEASDIA: DIA fill %.3g (largest over the ranks; here %" PetscInt_FMT " diagonals x %" PetscInt_FMT " rows for %" PetscCount_FMT " nonzeros) exceeds -dia_max_fill %g: the pattern is not banded enough for DIA storage; use MATAIJ (-mat_type aij, -dm_mat_type aij) or raise -dia_max_fill",
             (double)fmax, a->ndiag, a->n, nnz, (double)a->max_fill);
  PetscFunctionReturn(0);
}

static PetscErrorCode MatAssemblyBegin_EasDia(Mat A, MatAssemblyType type)
{
  PetscFunctionBegin;
  (void)A;
  (void)type;
  PetscFunctionReturn(0);
}

static PetscErrorCode MatAssemblyEnd_EasDia(Mat A, MatAssemblyType type)
{
  Mat_EasDia *a    = (Mat_EasDia *)A->data;
  MPI_Comm    comm = PetscObjectComm((PetscObject)A);
  InsertMode  mode = A->insertmode, all;
  PetscInt    grow[2], any[2];

  PetscFunctionBegin;
  if (!A->preallocated) PetscCall(MatSetUp(A));
  PetscCall(MPIU_Allreduce((PetscEnum *)&mode, (PetscEnum *)&all, 1, MPIU_ENUM, MPI_BOR, comm));
  PetscCheck(all != (ADD_VALUES | INSERT_VALUES), comm, PETSC_ERR_ARG_WRONGSTATE, "MATEASDIA: some ranks inserted values and others added them in the same assembly");
  if (!A->nooffprocentries) {
    PetscCall(EasPetscStashExchange(comm, A->rmap, &a->stash));
    for (PetscInt k = 0; k < a->stash.n; k++) PetscCall(MatEasDiaSetLocal(A, a->stash.i[k] - a->rstart, a->stash.j[k], a->stash.v[k], all == NOT_SET_VALUES ? ADD_VALUES : all));
    PetscCall(EasPetscStashDestroy(&a->stash));
  }
  /* a new pattern anywhere: every rank merges its pending entries, and the
     ghost scatter is rebuilt (collective) when a rank has new ghost columns */
  grow[0] = (a->npend || !a->D) ? 1 : 0;
  grow[1] = 0;
  for (PetscInt k = 0; k < a->npend; k++)
    if (!(a->pj[k] >= a->rstart && a->pj[k] < a->rstart + a->n) && MatEasDiaFindCoupling(a, a->pi[k], a->pj[k]) < 0) grow[1] = 1;
  PetscCall(MPIU_Allreduce(grow, any, 2, MPIU_INT, MPI_MAX, comm));
  if (grow[0]) {
    PetscCall(MatEasDiaMergePending(A));
    A->nonzerostate++;
  }
  if (any[0]) {
    PetscInt ng = a->nghost, total;
    PetscCall(MPIU_Allreduce(&ng, &total, 1, MPIU_INT, MPI_SUM, comm));
    if (!total) {
      PetscCall(VecScatterDestroy(&a->scat));
      PetscCall(VecDestroy(&a->lvec));
    } else if (any[1] || !a->scat) PetscCall(MatEasDiaSetUpScatter(A));
  }
  if (type == MAT_FINAL_ASSEMBLY) PetscCall(MatEasDiaCheckFill(A));
  PetscCall(MatEasDiaCheckIn(a));
  PetscFunctionReturn(0);
}

/* DMDA stencil -> offsets in the rank's local numbering (the DMDA numbers
   a rank's points x fastest, dof interleaved, inside its box). */
static PetscErrorCode MatEasDiaOffsetsFromDMDA(Mat A, DM da, PetscInt *nd, PetscInt **off)
{
  PetscInt         dim, dof, s, xm, ym, zm, k = 0, sz, sy;
  DMDAStencilType  st;
  DMBoundaryType   bx, by, bz;

  PetscFunctionBegin;
  PetscCall(DMDAGetInfo(da, &dim, NULL, NULL, NULL, NULL, NULL, NULL, &dof, &s, &bx, &by, &bz, &st));
  PetscCall(DMDAGetCorners(da, NULL, NULL, NULL, &xm, &ym, &zm));
  PetscCheck(bx != DM_BOUNDARY_PERIODIC && by != DM_BOUNDARY_PERIODIC && bz != DM_BOUNDARY_PERIODIC, PetscObjectComm((PetscObject)A), PETSC_ERR_SUP, "MATEASDIA: periodic DMDA boundaries couple the rank's first and last points: the diagonals are discovered at assembly instead");
  sy = dim > 1 ? s : 0;
  sz = dim > 2 ? s : 0;
  PetscCall(PetscMalloc1((2 * s + 1) * (2 * sy + 1) * (2 * sz + 1) * (2 * dof - 1), off));
  for (PetscInt kz = -sz; kz <= sz; kz++)
    for (PetscInt ky = -sy; ky <= sy; ky++)
      for (PetscInt kx = -s; kx <= s; kx++) {
        const PetscInt nnzdir = (kx != 0) + (ky != 0) + (kz != 0);
        if (st == DMDA_STENCIL_STAR && nnzdir > 1) continue;
        for (PetscInt c = -(dof - 1); c <= dof - 1; c++) (*off)[k++] = dof * (kx + xm * (ky + ym * kz)) + c;
      }
  *nd = k;
  PetscCall(PetscSortRemoveDupsInt(nd, *off));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatSetUp_EasDia(Mat A)
{
  Mat_EasDia *a = (Mat_EasDia *)A->data;
  DM          dm;
  PetscBool   isda = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(PetscLayoutSetUp(A->rmap));
  PetscCall(PetscLayoutSetUp(A->cmap));
  PetscCheck(A->rmap->n == A->cmap->n && A->rmap->rstart == A->cmap->rstart, PetscObjectComm((PetscObject)A), PETSC_ERR_SUP, "MATEASDIA needs square local blocks (each rank's rows = its columns); got %" PetscInt_FMT " rows and %" PetscInt_FMT " columns here: use MATAIJ", A->rmap->n, A->cmap->n);
  a->n      = A->rmap->n;
  a->rstart = A->rmap->rstart;
  if (!a->be) PetscCall(EasPetscBackendFromOptions(PetscObjectComm((PetscObject)A), ((PetscObject)A)->prefix, "-mat_easdia_backend", &a->be));
  if (!a->pend) PetscCall(PetscHMapIJCreate(&a->pend));
  PetscCall(MatGetDM(A, &dm));
  if (dm) PetscCall(PetscObjectTypeCompare((PetscObject)dm, DMDA, &isda));
  if (isda && !a->D && a->n) {
    PetscInt *off, nd;
    PetscCall(MatEasDiaOffsetsFromDMDA(A, dm, &nd, &off));
    PetscCall(MatEasDiaSetPattern(A, nd, off));
    PetscCall(PetscFree(off));
    a->from_dm = PETSC_TRUE;
    PetscCall(PetscInfo(A, "MATEASDIA: %" PetscInt_FMT " diagonals preallocated from the DMDA stencil\n", nd));
  }
  PetscCall(PetscCalloc1(a->n + 1, &a->bi));
  PetscCall(VecCreateMPIWithArray(PetscObjectComm((PetscObject)A), 1, a->n, A->rmap->N, NULL, &a->xwrap));
  A->preallocated = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/* -------------------------------------------------------------- products */

static PetscErrorCode MatEasDiaWork(Mat A)
{
  Mat_EasDia *a = (Mat_EasDia *)A->data;

  PetscFunctionBegin;
  if (!a->ex) PetscCall(EasDiaCreateVecs(a->D, &a->ex, &a->ey));
  PetscFunctionReturn(0);
}

PetscErrorCode MatEasDiaCoupleHost_Private(Mat A, PetscBool scaled, const PetscScalar *x, PetscScalar *y, const PetscScalar *av, PetscScalar dc[2])
{
  Mat_EasDia        *a = (Mat_EasDia *)A->data;
  const PetscScalar *lv, *bv = scaled ? a->bvs : a->bv;
  PetscScalar        d0 = 0, d1 = 0;

  PetscFunctionBegin;
  if (dc) dc[0] = dc[1] = 0.0;
  if (!a->scat) PetscFunctionReturn(0); /* no couplings on any rank */
  PetscCheck(!scaled || a->bvs, PETSC_COMM_SELF, PETSC_ERR_PLIB, "MATEASDIA: scaled couplings not set up");
  PetscCall(VecPlaceArray(a->xwrap, x));
  PetscCall(VecScatterBegin(a->scat, a->xwrap, a->lvec, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(a->scat, a->xwrap, a->lvec, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecResetArray(a->xwrap));
  PetscCall(VecGetArrayRead(a->lvec, &lv));
  for (PetscInt c = 0; c < a->ncrow; c++) {
    const PetscInt r = a->crow[c];
    PetscScalar    w = 0;
    for (PetscInt k = a->bi[r]; k < a->bi[r + 1]; k++) w += bv[k] * lv[a->bj[k]];
    if (dc) {
      d0 += av[r] * w;
      d1 += (2.0 * y[r] + w) * w;
    }
    y[r] += w;
  }
  PetscCall(VecRestoreArrayRead(a->lvec, &lv));
  if (dc) {
    dc[0] = d0;
    dc[1] = d1;
  }
  PetscCall(PetscLogFlops(2.0 * (a->nghost ? a->bi[a->n] : 0)));
  PetscFunctionReturn(0);
}

/* bvs = bv scaled by the inverse diagonal of the ghost columns (the
   couplings of A D^{-1} for right Jacobi); redone when A's values changed.
   Collective. */
PetscErrorCode MatEasDiaSetUpScaledCoupling_Private(Mat A)
{
  Mat_EasDia        *a = (Mat_EasDia *)A->data;
  PetscObjectState   st;
  Vec                d;
  const PetscScalar *lv;

  PetscFunctionBegin;
  if (!a->scat) PetscFunctionReturn(0);
  PetscCall(PetscObjectStateGet((PetscObject)A, &st));
  if (a->bvs && st == a->bvs_state) PetscFunctionReturn(0);
  if (!a->bvs) PetscCall(PetscMalloc1(PetscMax(a->bi[a->n], 1), &a->bvs));
  PetscCall(MatCreateVecs(A, NULL, &d));
  PetscCall(MatGetDiagonal(A, d));
  PetscCall(VecScatterBegin(a->scat, d, a->lvec, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(a->scat, d, a->lvec, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecDestroy(&d));
  PetscCall(VecGetArrayRead(a->lvec, &lv));
  for (PetscInt k = 0; k < a->bi[a->n]; k++) {
    PetscCheck(lv[a->bj[k]] != 0.0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Zero diagonal entry at row %" PetscInt_FMT ": -pc_type jacobi needs a nonzero diagonal (use -pc_type none)", a->garray[a->bj[k]]);
    a->bvs[k] = a->bv[k] / lv[a->bj[k]];
  }
  PetscCall(VecRestoreArrayRead(a->lvec, &lv));
  a->bvs_state = st;
  PetscFunctionReturn(0);
}

/* The EasKspCouplingFn: on a device backend x, y, a cross to the host and y
   back (three vector copies per product: docs/petsc-plugin.md). */
PetscErrorCode MatEasDiaCoupling_Private(void *ctx, EasBackend be, PetscBool scaled, const PetscScalar *x, PetscScalar *y, const PetscScalar *av, PetscScalar dc[2])
{
  Mat         A = (Mat)ctx;
  Mat_EasDia *a = (Mat_EasDia *)A->data;
  PetscBool   host;
  size_t      bytes = sizeof(PetscScalar) * (size_t)a->n;

  PetscFunctionBegin;
  PetscCall(EasBackendIsHost(be, &host));
  if (host) {
    PetscCall(MatEasDiaCoupleHost_Private(A, scaled, x, y, av, dc));
    PetscFunctionReturn(0);
  }
  if (!a->hbuf) PetscCall(PetscMalloc1(3 * PetscMax(a->n, 1), &a->hbuf));
  PetscCall(EasBackendCopyDtoH(be, a->hbuf, x, bytes));
  PetscCall(EasBackendCopyDtoH(be, a->hbuf + a->n, y, bytes));
  PetscCall(EasBackendCopyDtoH(be, a->hbuf + 2 * a->n, av, bytes));
  PetscCall(MatEasDiaCoupleHost_Private(A, scaled, a->hbuf, a->hbuf + a->n, a->hbuf + 2 * a->n, dc));
  PetscCall(EasBackendCopyHtoD(be, y, a->hbuf + a->n, bytes));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatMult_EasDia(Mat A, Vec x, Vec y)
{
  Mat_EasDia        *a = (Mat_EasDia *)A->data;
  const PetscScalar *xa;
  PetscScalar       *ya;

  PetscFunctionBegin;
  if (!a->n) { /* no rows here; the couplings' scatter is still collective */
    PetscCall(VecGetArrayRead(x, &xa));
    PetscCall(VecGetArray(y, &ya));
    if (a->scat) PetscCall(MatEasDiaCoupleHost_Private(A, PETSC_FALSE, xa, ya, NULL, NULL));
    PetscCall(VecRestoreArrayRead(x, &xa));
    PetscCall(VecRestoreArray(y, &ya));
    PetscFunctionReturn(0);
  }
  PetscCall(MatEasDiaWork(A));
  PetscCall(EasVecCopyFromVec(a->ex, x));
  PetscCall(EasDiaMult(a->D, a->ex, a->ey));
  PetscCall(EasVecCopyToVec(a->ey, y));
  if (a->scat) {
    PetscCall(VecGetArrayRead(x, &xa));
    PetscCall(VecGetArray(y, &ya));
    PetscCall(MatEasDiaCoupleHost_Private(A, PETSC_FALSE, xa, ya, NULL, NULL));
    PetscCall(VecRestoreArrayRead(x, &xa));
    PetscCall(VecRestoreArray(y, &ya));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode MatMultAdd_EasDia(Mat A, Vec x, Vec y, Vec z)
{
  Mat_EasDia *a = (Mat_EasDia *)A->data;

  PetscFunctionBegin;
  if (!a->w) PetscCall(VecDuplicate(y, &a->w));
  PetscCall(MatMult_EasDia(A, x, a->w));
  PetscCall(VecWAXPY(z, 1.0, a->w, y));
  PetscFunctionReturn(0);
}

/* y = A^T x: the block's transpose product, and the couplings' transpose
   added to the ghost columns' owners (reverse scatter). */
static PetscErrorCode MatMultTranspose_EasDia(Mat A, Vec x, Vec y)
{
  Mat_EasDia        *a = (Mat_EasDia *)A->data;
  const PetscScalar *xa;
  PetscScalar       *lv;

  PetscFunctionBegin;
  if (a->n) {
    PetscCall(MatEasDiaWork(A));
    PetscCall(EasVecCopyFromVec(a->ex, x));
    PetscCall(EasDiaMultTranspose(a->D, a->ex, a->ey));
    PetscCall(EasVecCopyToVec(a->ey, y));
  }
  if (!a->scat) PetscFunctionReturn(0);
  PetscCall(VecSet(a->lvec, 0.0));
  PetscCall(VecGetArrayRead(x, &xa));
  PetscCall(VecGetArray(a->lvec, &lv));
  for (PetscInt r = 0; r < a->n; r++)
    for (PetscInt k = a->bi[r]; k < a->bi[r + 1]; k++) lv[a->bj[k]] += a->bv[k] * xa[r];
  PetscCall(VecRestoreArray(a->lvec, &lv));
  PetscCall(VecRestoreArrayRead(x, &xa));
  PetscCall(VecScatterBegin(a->scat, a->lvec, y, ADD_VALUES, SCATTER_REVERSE));
  PetscCall(VecScatterEnd(a->scat, a->lvec, y, ADD_VALUES, SCATTER_REVERSE));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatGetDiagonal_EasDia(Mat A, Vec d)
{
  Mat_EasDia *a = (Mat_EasDia *)A->data;

  PetscFunctionBegin;
  if (!a->n) PetscFunctionReturn(0);
  PetscCall(MatEasDiaWork(A));
  PetscCall(EasDiaGetDiagonal(a->D, a->ex));
  PetscCall(EasVecCopyToVec(a->ex, d));
  PetscFunctionReturn(0);
}

/* --------------------------------------------------------------- values */

/* Applies f to every stored value (D and couplings): scale, zero. */
static PetscErrorCode MatEasDiaScaleValues(Mat A, PetscScalar s)
{
  Mat_EasDia *a = (Mat_EasDia *)A->data;

  PetscFunctionBegin;
  if (a->D) {
    PetscCall(MatEasDiaCheckOut(a));
    for (size_t k = 0; k < (size_t)a->ndiag * a->ld; k++) a->val[k] *= s;
    PetscCall(MatEasDiaCheckIn(a));
  }
  for (PetscInt k = 0; a->nghost && k < a->bi[a->n]; k++) a->bv[k] *= s;
  PetscFunctionReturn(0);
}

static PetscErrorCode MatScale_EasDia(Mat A, PetscScalar s)
{
  PetscFunctionBegin;
  PetscCall(MatEasDiaScaleValues(A, s));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatZeroEntries_EasDia(Mat A)
{
  PetscFunctionBegin;
  PetscCall(MatEasDiaScaleValues(A, 0.0));
  PetscFunctionReturn(0);
}

/* A + s I: in place when the main diagonal is stored, else through the
   assembly (the pattern grows by the main diagonal). */
static PetscErrorCode MatShift_EasDia(Mat A, PetscScalar s)
{
  Mat_EasDia *a = (Mat_EasDia *)A->data;
  PetscInt    d = a->D ? MatEasDiaFindOffset(a, 0) : -1, has = d >= 0 || !a->n, all;

  PetscFunctionBegin;
  PetscCall(MPIU_Allreduce(&has, &all, 1, MPIU_INT, MPI_MIN, PetscObjectComm((PetscObject)A)));
  if (all) {
    if (a->n) {
      PetscCall(MatEasDiaCheckOut(a));
      for (PetscInt i = 0; i < a->n; i++) a->val[(size_t)d * a->ld + i] += s;
      PetscCall(MatEasDiaCheckIn(a));
    }
    PetscFunctionReturn(0);
  }
  for (PetscInt i = a->rstart; i < a->rstart + a->n; i++) PetscCall(MatSetValues_EasDia(A, 1, &i, 1, &i, &s, ADD_VALUES));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* Dirichlet rows: the rows zeroed, diag on their diagonal, b = diag x there. */
static PetscErrorCode MatZeroRows_EasDia(Mat A, PetscInt nr, const PetscInt rows[], PetscScalar diag, Vec x, Vec b)
{
  Mat_EasDia *a = (Mat_EasDia *)A->data;
  PetscInt    nl, *lr;

  PetscFunctionBegin;
  PetscCall(EasPetscRowsToOwners(PetscObjectComm((PetscObject)A), A->rmap, nr, rows, &nl, &lr));
  if (x && b) {
    const PetscScalar *xa;
    PetscScalar       *ba;
    PetscCall(VecGetArrayRead(x, &xa));
    PetscCall(VecGetArray(b, &ba));
    for (PetscInt k = 0; k < nl; k++) ba[lr[k]] = diag * xa[lr[k]];
    PetscCall(VecRestoreArrayRead(x, &xa));
    PetscCall(VecRestoreArray(b, &ba));
  }
  if (diag != 0.0 && a->D && MatEasDiaFindOffset(a, 0) < 0 && nl) {
    /* the main diagonal is not stored: grow the pattern through the assembly */
    for (PetscInt k = 0; k < nl; k++) PetscCall(MatEasDiaPendingPush(a, lr[k], lr[k] + a->rstart, 0.0, INSERT_VALUES));
  }
  {
    PetscInt grow = a->npend > 0, any;
    PetscCall(MPIU_Allreduce(&grow, &any, 1, MPIU_INT, MPI_MAX, PetscObjectComm((PetscObject)A)));
    if (any) {
      PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
      PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
    }
  }
  if (a->D) {
    const PetscInt d0 = MatEasDiaFindOffset(a, 0);
    PetscCall(MatEasDiaCheckOut(a));
    for (PetscInt k = 0; k < nl; k++) {
      for (PetscInt d = 0; d < a->ndiag; d++) a->val[(size_t)d * a->ld + lr[k]] = 0.0;
      if (d0 >= 0) a->val[(size_t)d0 * a->ld + lr[k]] = diag;
    }
    PetscCall(MatEasDiaCheckIn(a));
  }
  for (PetscInt k = 0; k < nl && a->nghost; k++)
    for (PetscInt j = a->bi[lr[k]]; j < a->bi[lr[k] + 1]; j++) a->bv[j] = 0.0;
  PetscCall(PetscFree(lr));
  PetscFunctionReturn(0);
}

/* Row access (MatGetRow; MatConvert_Basic to AIJ goes through it): the
   stored entries of the row, nonzero or on the main diagonal, columns
   ascending. */
static PetscErrorCode MatGetRow_EasDia(Mat A, PetscInt row, PetscInt *nz, PetscInt **idx, PetscScalar **v)
{
  Mat_EasDia        *a  = (Mat_EasDia *)A->data;
  const PetscInt     lr = row - a->rstart;
  const PetscScalar *val;
  PetscInt           ld, cnt = 0, nb;
  PetscInt          *cols;
  PetscScalar       *vals;

  PetscFunctionBegin;
  PetscCheck(lr >= 0 && lr < a->n, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "MATEASDIA: MatGetRow of row %" PetscInt_FMT " that this rank does not own", row);
  nb = a->nghost ? a->bi[lr + 1] - a->bi[lr] : 0;
  PetscCall(PetscMalloc2(a->ndiag + nb + 1, &cols, a->ndiag + nb + 1, &vals));
  if (a->D) {
    PetscCall(MatEasDiaCheckIn(a));
    PetscCall(EasDiaGetValuesRead(a->D, &val, &ld));
    for (PetscInt d = 0; d < a->ndiag; d++) {
      const PetscInt c = lr + a->off[d];
      if (c < 0 || c >= a->n) continue;
      if (val[(size_t)d * ld + lr] == 0.0 && a->off[d] != 0) continue;
      cols[cnt]   = c + a->rstart;
      vals[cnt++] = val[(size_t)d * ld + lr];
    }
    PetscCall(EasDiaRestoreValuesRead(a->D, &val));
  }
  for (PetscInt k = 0; k < nb; k++) {
    cols[cnt]   = a->garray[a->bj[a->bi[lr] + k]];
    vals[cnt++] = a->bv[a->bi[lr] + k];
  }
  PetscCall(PetscSortIntWithScalarArray(cnt, cols, vals));
  if (nz) *nz = cnt;
  if (idx) *idx = cols;
  if (v) *v = vals;
  if (!idx && !v) PetscCall(PetscFree2(cols, vals));
  else if (!idx || !v) SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "MATEASDIA: MatGetRow needs both the columns and the values, or neither");
  PetscFunctionReturn(0);
}

static PetscErrorCode MatRestoreRow_EasDia(Mat A, PetscInt row, PetscInt *nz, PetscInt **idx, PetscScalar **v)
{
  PetscFunctionBegin;
  (void)A;
  (void)row;
  (void)nz;
  if (idx && v) PetscCall(PetscFree2(*idx, *v));
  PetscFunctionReturn(0);
}

/* The same pattern in a new MATEASDIA (values copied or zero). */
static PetscErrorCode MatDuplicate_EasDia(Mat A, MatDuplicateOption op, Mat *B)
{
  Mat_EasDia *a = (Mat_EasDia *)A->data, *b;
  Mat         C;

  PetscFunctionBegin;
  PetscCall(MatCreate(PetscObjectComm((PetscObject)A), &C));
  PetscCall(MatSetSizes(C, A->rmap->n, A->cmap->n, A->rmap->N, A->cmap->N));
  PetscCall(PetscObjectSetOptionsPrefix((PetscObject)C, ((PetscObject)A)->prefix));
  PetscCall(MatSetType(C, MATEASDIA));
  b = (Mat_EasDia *)C->data;
  PetscCall(PetscObjectReference((PetscObject)a->be));
  b->be       = a->be;
  b->max_fill = a->max_fill;
  PetscCall(MatSetUp(C));
  if (a->D) {
    PetscCall(MatEasDiaSetPattern(C, a->ndiag, a->off));
    if (op == MAT_COPY_VALUES) {
      const PetscScalar *v;
      PetscInt           ld;
      PetscCall(MatEasDiaCheckIn(a));
      PetscCall(EasDiaGetValuesRead(a->D, &v, &ld));
      PetscCall(MatEasDiaCheckOut(b));
      PetscCall(PetscArraycpy(b->val, v, (size_t)a->ndiag * ld));
      PetscCall(MatEasDiaCheckIn(b));
      PetscCall(EasDiaRestoreValuesRead(a->D, &v));
    }
  }
  b->nghost = a->nghost;
  b->ncrow  = a->ncrow;
  PetscCall(PetscArraycpy(b->bi, a->bi, a->n + 1));
  PetscCall(PetscMalloc1(PetscMax(a->nghost, 1), &b->garray));
  PetscCall(PetscArraycpy(b->garray, a->garray, a->nghost));
  PetscCall(PetscMalloc2(PetscMax(a->bi[a->n], 1), &b->bj, PetscMax(a->bi[a->n], 1), &b->bv));
  PetscCall(PetscArraycpy(b->bj, a->bj, a->bi[a->n]));
  if (op == MAT_COPY_VALUES) PetscCall(PetscArraycpy(b->bv, a->bv, a->bi[a->n]));
  else PetscCall(PetscArrayzero(b->bv, a->bi[a->n]));
  PetscCall(PetscMalloc1(PetscMax(a->n, 1), &b->crow));
  PetscCall(PetscArraycpy(b->crow, a->crow, a->ncrow));
  if (a->scat) {
    PetscCall(VecScatterCopy(a->scat, &b->scat));
    PetscCall(VecDuplicate(a->lvec, &b->lvec));
  }
  C->assembled    = PETSC_TRUE;
  C->preallocated = PETSC_TRUE;
  C->nonzerostate = A->nonzerostate;
  *B              = C;
  PetscFunctionReturn(0);
}

/* B <- A: values only when B is a MATEASDIA with A's pattern, else by rows. */
static PetscErrorCode MatCopy_EasDia(Mat A, Mat B, MatStructure str)
{
  Mat_EasDia *a = (Mat_EasDia *)A->data, *b = NULL;
  PetscBool   same, ok = PETSC_FALSE;

  PetscFunctionBegin;
  (void)str; /* the pattern is compared, not trusted */
  PetscCall(PetscObjectTypeCompare((PetscObject)B, MATEASDIA, &same));
  if (same) {
    b  = (Mat_EasDia *)B->data;
    ok = (PetscBool)(a->n == b->n && a->ndiag == b->ndiag && a->nghost == b->nghost && (!a->n || (a->D && b->D)));
    for (PetscInt d = 0; ok && d < a->ndiag; d++) ok = (PetscBool)(a->off[d] == b->off[d]);
    for (PetscInt g = 0; ok && g < a->nghost; g++) ok = (PetscBool)(a->garray[g] == b->garray[g]);
    for (PetscInt r = 0; ok && a->nghost && r <= a->n; r++) ok = (PetscBool)(a->bi[r] == b->bi[r]);
  }
  {
    PetscBool all;
    PetscCall(MPIU_Allreduce(&ok, &all, 1, MPIU_BOOL, MPI_LAND, PetscObjectComm((PetscObject)A)));
    ok = all;
  }
  if (!ok) { /* B's own assembly, row by row */
    PetscCall(MatZeroEntries(B));
    for (PetscInt r = A->rmap->rstart; r < A->rmap->rend; r++) {
      PetscInt     nz, *cols;
      PetscScalar *vals;
      PetscCall(MatGetRow_EasDia(A, r, &nz, &cols, &vals));
      PetscCall(MatSetValues(B, 1, &r, nz, cols, vals, INSERT_VALUES));
      PetscCall(MatRestoreRow_EasDia(A, r, &nz, &cols, &vals));
    }
    PetscCall(MatAssemblyBegin(B, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(B, MAT_FINAL_ASSEMBLY));
    PetscFunctionReturn(0);
  }
  if (a->D) {
    const PetscScalar *v;
    PetscInt           ld;
    PetscCall(MatEasDiaCheckIn(a));
    PetscCall(EasDiaGetValuesRead(a->D, &v, &ld));
    PetscCall(MatEasDiaCheckOut(b));
    PetscCall(PetscArraycpy(b->val, v, (size_t)a->ndiag * ld));
    PetscCall(MatEasDiaCheckIn(b));
    PetscCall(EasDiaRestoreValuesRead(a->D, &v));
  }
  if (a->nghost) {
    PetscCall(PetscArraycpy(b->bj, a->bj, a->bi[a->n]));
    PetscCall(PetscArraycpy(b->bv, a->bv, a->bi[a->n]));
  }
  PetscCall(PetscObjectStateIncrease((PetscObject)B));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatSetOption_EasDia(Mat A, MatOption op, PetscBool flg)
{
  Mat_EasDia *a = (Mat_EasDia *)A->data;

  PetscFunctionBegin;
  if (op == MAT_ROW_ORIENTED) a->roworiented = flg;
  else PetscCall(PetscInfo(A, "MATEASDIA: option %s ignored\n", MatOptions[op]));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatView_EasDia(Mat A, PetscViewer viewer)
{
  Mat_EasDia       *a = (Mat_EasDia *)A->data;
  PetscBool         ascii;
  PetscViewerFormat format;
  Mat               B;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  if (ascii) {
    PetscCall(PetscViewerGetFormat(viewer, &format));
    if (format == PETSC_VIEWER_ASCII_INFO || format == PETSC_VIEWER_ASCII_INFO_DETAIL) {
      const char *res;
      PetscInt    nghost = a->nghost, ng, ndiag = a->ndiag, nd;
      PetscCall(MPIU_Allreduce(&nghost, &ng, 1, MPIU_INT, MPI_SUM, PetscObjectComm((PetscObject)A)));
      PetscCall(MPIU_Allreduce(&ndiag, &nd, 1, MPIU_INT, MPI_MAX, PetscObjectComm((PetscObject)A)));
      PetscCall(EasBackendGetResource(a->be, &res));
      PetscCall(PetscViewerASCIIPrintf(viewer, "eas DIA blocks on %s: up to %" PetscInt_FMT " diagonals per rank%s, %" PetscInt_FMT " ghost columns over the ranks\n", res, nd, a->from_dm ? " (from the DMDA stencil)" : "", ng));
      PetscFunctionReturn(0);
    }
  }
  /* every other format: the same entries as an AIJ matrix */
  PetscCall(MatConvert(A, MATAIJ, MAT_INITIAL_MATRIX, &B)); /* PETSc's row-by-row converter (MatGetRow) */
  PetscCall(PetscObjectSetName((PetscObject)B, ((PetscObject)A)->name));
  PetscCall(MatView(B, viewer));
  PetscCall(MatDestroy(&B));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatSetFromOptions_EasDia(Mat A, PetscOptionItems *PetscOptionsObject)
{
  Mat_EasDia *a = (Mat_EasDia *)A->data;
  char        res[256];
  PetscBool   flg;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "MATEASDIA options (eas DIA storage)");
  PetscCall(PetscOptionsString("-mat_easdia_backend", "eas backend of the DIA blocks (default: -eas_backend)", "MatCreate_EasDia", "", res, sizeof(res), &flg));
  PetscCall(PetscOptionsReal("-dia_max_fill", "Largest DIA storage / nonzeros accepted", "EasDiaSetMaxFill", a->max_fill, &a->max_fill, NULL));
  PetscCheck(a->max_fill >= 1.0, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_OUTOFRANGE, "-dia_max_fill %g is invalid: expected a real number >= 1 (DIA storage / nonzeros)", (double)a->max_fill);
  PetscOptionsHeadEnd();
  if (flg && !a->be) PetscCall(EasBackendCreate(PetscObjectComm((PetscObject)A), res, &a->be));
  if (a->D) PetscCall(EasDiaSetMaxFill(a->D, a->max_fill));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatDestroy_EasDia(Mat A)
{
  Mat_EasDia *a = (Mat_EasDia *)A->data;

  PetscFunctionBegin;
  PetscCall(MatEasDiaCheckIn(a));
  PetscCall(EasDiaDestroy(&a->D));
  PetscCall(EasVecDestroy(&a->ex));
  PetscCall(EasVecDestroy(&a->ey));
  PetscCall(EasBackendDestroy(&a->be));
  PetscCall(PetscFree(a->garray));
  PetscCall(PetscFree(a->bi));
  PetscCall(PetscFree2(a->bj, a->bv));
  PetscCall(PetscFree(a->crow));
  PetscCall(PetscFree(a->bvs));
  PetscCall(PetscFree(a->hbuf));
  PetscCall(VecDestroy(&a->lvec));
  PetscCall(VecDestroy(&a->xwrap));
  PetscCall(VecDestroy(&a->w));
  PetscCall(VecScatterDestroy(&a->scat));
  PetscCall(PetscHMapIJDestroy(&a->pend));
  PetscCall(PetscFree3(a->pi, a->pj, a->pv));
  PetscCall(EasPetscStashDestroy(&a->stash));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatEasDiaGetLocalDia_C", NULL));
  PetscCall(PetscFree(A->data));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatEasDiaGetLocalDia_EasDia(Mat A, EasDia *D)
{
  PetscFunctionBegin;
  *D = ((Mat_EasDia *)A->data)->D;
  PetscFunctionReturn(0);
}

/*@C
  MatEasDiaGetLocalDia - this rank's DIA block of a MATEASDIA (borrowed).
@*/
PetscErrorCode MatEasDiaGetLocalDia(Mat A, EasDia *D)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscUseMethod(A, "MatEasDiaGetLocalDia_C", (Mat, EasDia *), (A, D));
  PetscFunctionReturn(0);
}

/*MC
  MATEASDIA - "easdia": eas's DIA storage (include/eas/petsc.h).
  Options: -mat_easdia_backend </cpu|/cpu/serial|/gpu/cuda|...>, -dia_max_fill <3>.
M*/
PetscErrorCode MatCreate_EasDia(Mat A)
{
  Mat_EasDia *a;

  PetscFunctionBegin;
  PetscCall(EasInitializePackage());
  PetscCall(PetscNew(&a));
  A->data        = a;
  a->roworiented = PETSC_TRUE;
  a->max_fill    = 3.0;
  PetscCall(PetscMemzero(A->ops, sizeof(struct _MatOps)));
  A->ops->setvalues       = MatSetValues_EasDia;
  A->ops->getrow          = MatGetRow_EasDia;
  A->ops->restorerow      = MatRestoreRow_EasDia;
  A->ops->mult            = MatMult_EasDia;
  A->ops->multadd         = MatMultAdd_EasDia;
  A->ops->multtranspose   = MatMultTranspose_EasDia;
  A->ops->getdiagonal     = MatGetDiagonal_EasDia;
  A->ops->assemblybegin   = MatAssemblyBegin_EasDia;
  A->ops->assemblyend     = MatAssemblyEnd_EasDia;
  A->ops->setoption       = MatSetOption_EasDia;
  A->ops->zeroentries     = MatZeroEntries_EasDia;
  A->ops->zerorows        = MatZeroRows_EasDia;
  A->ops->setup           = MatSetUp_EasDia;
  A->ops->duplicate       = MatDuplicate_EasDia;
  A->ops->copy            = MatCopy_EasDia;
  A->ops->scale           = MatScale_EasDia;
  A->ops->shift           = MatShift_EasDia;
  A->ops->destroy         = MatDestroy_EasDia;
  A->ops->view            = MatView_EasDia;
  A->ops->setfromoptions  = MatSetFromOptions_EasDia;
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatEasDiaGetLocalDia_C", MatEasDiaGetLocalDia_EasDia));
  PetscCall(PetscObjectChangeTypeName((PetscObject)A, MATEASDIA));
  /* sizes set before the type: the layout now, so MatGetOwnershipRange
     works before the first MatSetValues (PETSc's preallocation calls, which
     set it up for AIJ, do nothing here) */
  if (A->rmap->n >= 0 || A->rmap->N >= 0) {
    PetscCall(PetscLayoutSetUp(A->rmap));
    PetscCall(PetscLayoutSetUp(A->cmap));
  }
  PetscFunctionReturn(0);
}
