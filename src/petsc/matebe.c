/*
  MATEASEBE: a PETSc matrix type that keeps the element matrices
  (include/eas/petsc.h, docs/petsc-plugin.md).

  Each MatSetValues(ADD_VALUES) of a square block whose rows are its
  columns is one element: its global rows and its dense matrix are kept on
  the rank that set it, never summed.  At the final assembly the rank's
  elements become an EasEbe (eas's element-by-element operator, src/mat)
  over the rank's local unknowns: its owned rows first, then the other
  ranks' rows its elements touch (ghosts, ascending), in point blocks of
  the matrix's block size.  y = A x is then: the ghost entries of x
  scattered in, eas's EBE apply (backend, storage and online split from
  the -ebe_* options), the ghost sums added to their owners.

  MatZeroRows and MatZeroRowsColumns keep the Dirichlet rows apart: after
  the apply, y_i = diag x_i on those rows (MatZeroRowsColumns also zeroes
  the rows and columns of the element matrices, which stay symmetric).
*/
#include "petscimpl.h"

/* ------------------------------------------------------------- assembly */

static PetscErrorCode MatSetValues_EasEbe(Mat A, PetscInt m, const PetscInt rows[], PetscInt n, const PetscInt cols[], const PetscScalar v[], InsertMode mode)
{
  Mat_EasEbe *a = (Mat_EasEbe *)A->data;
  PetscBool   roworiented;

  PetscFunctionBegin;
  if (!A->preallocated) PetscCall(MatSetUp(A));
  PetscCheck(mode == ADD_VALUES, PETSC_COMM_SELF, PETSC_ERR_SUP, "MATEASEBE keeps element matrices: MatSetValues needs ADD_VALUES (got INSERT_VALUES); assemble a MATAIJ to insert entries");
  PetscCheck(m == n && m > 0, PETSC_COMM_SELF, PETSC_ERR_SUP, "MATEASEBE keeps element matrices: MatSetValues needs a square block (got %" PetscInt_FMT " rows and %" PetscInt_FMT " columns)", m, n);
  for (PetscInt i = 0; i < m; i++) {
    PetscCheck(rows[i] == cols[i], PETSC_COMM_SELF, PETSC_ERR_SUP, "MATEASEBE keeps element matrices: the block's rows must be its columns (row %" PetscInt_FMT " is %" PetscInt_FMT ", column %" PetscInt_FMT " is %" PetscInt_FMT ")", i, rows[i], i, cols[i]);
    PetscCheck(rows[i] >= 0 && rows[i] < A->rmap->N, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "MATEASEBE: element row %" PetscInt_FMT " is outside [0, %" PetscInt_FMT ") (negative rows are not dropped: decouple them with MatZeroRowsColumns)", rows[i], A->rmap->N);
    if (a->bs > 1) PetscCheck(rows[i] % a->bs == i % a->bs && (i % a->bs == 0 || rows[i] == rows[i - 1] + 1), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "MATEASEBE with block size %" PetscInt_FMT ": an element's rows must be whole point blocks (row %" PetscInt_FMT " is %" PetscInt_FMT ")", a->bs, i, rows[i]);
  }
  if (!a->m) {
    PetscCheck(m % a->bs == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "MATEASEBE: an element of %" PetscInt_FMT " rows is not a number of point blocks of %" PetscInt_FMT, m, a->bs);
    a->m = m;
  }
  PetscCheck(m == a->m, PETSC_COMM_SELF, PETSC_ERR_SUP, "MATEASEBE: every element has the same number of rows (the first had %" PetscInt_FMT ", this one %" PetscInt_FMT ")", a->m, m);
  if (a->nel == a->maxel) {
    PetscInt     max = PetscMax(64, 2 * a->maxel), *gidx;
    PetscScalar *ael;
    size_t       nv;
    PetscCall(PetscIntMultError(max, m, NULL));
    nv = (size_t)max * m * m;
    PetscCall(PetscMalloc1((size_t)max * m, &gidx));
    PetscCall(PetscMalloc1(nv, &ael));
    PetscCall(PetscArraycpy(gidx, a->gidx, (size_t)a->nel * m));
    PetscCall(PetscArraycpy(ael, a->ael, (size_t)a->nel * m * m));
    PetscCall(PetscFree(a->gidx));
    PetscCall(PetscFree(a->ael));
    a->gidx  = gidx;
    a->ael   = ael;
    a->maxel = max;
  }
  roworiented = a->roworiented;
  for (PetscInt i = 0; i < m; i++) {
    a->gidx[(size_t)a->nel * m + i] = rows[i];
    for (PetscInt j = 0; j < m; j++) a->ael[((size_t)a->nel * m + i) * m + j] = v ? (roworiented ? v[i * m + j] : v[i + j * m]) : 0.0;
  }
  a->nel++;
  a->el_state++;
  PetscFunctionReturn(0);
}

/* The local numbering, the ghost scatter and the EasEbe (collective). */
static PetscErrorCode MatAssemblyEnd_EasEbe(Mat A, MatAssemblyType type)
{
  Mat_EasEbe *a = (Mat_EasEbe *)A->data;
  PetscInt    rend, ng = 0, *g;
  IS          from;
  Vec         gvec;

  PetscFunctionBegin;
  if (!A->preallocated) PetscCall(MatSetUp(A));
  if (type == MAT_FLUSH_ASSEMBLY) PetscFunctionReturn(0);
  rend = a->rstart + a->nown;
  PetscCall(PetscMalloc1(PetscMax((size_t)a->nel * a->m, 1), &g));
  for (size_t k = 0; k < (size_t)a->nel * a->m; k++)
    if (a->gidx[k] < a->rstart || a->gidx[k] >= rend) g[ng++] = a->gidx[k];
  PetscCall(PetscSortRemoveDupsInt(&ng, g));
  PetscCall(PetscFree(a->garray));
  a->garray = g;
  a->nghost = ng;
  PetscCall(VecScatterDestroy(&a->scat));
  PetscCall(VecDestroy(&a->lvec));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, ng, &a->lvec));
  PetscCall(ISCreateGeneral(PETSC_COMM_SELF, ng, a->garray, PETSC_COPY_VALUES, &from));
  PetscCall(VecCreateMPIWithArray(PetscObjectComm((PetscObject)A), 1, a->nown, A->rmap->N, NULL, &gvec));
  PetscCall(VecScatterCreate(gvec, from, a->lvec, NULL, &a->scat));
  PetscCall(VecDestroy(&gvec));
  PetscCall(ISDestroy(&from));
  PetscCall(EasVecDestroy(&a->ex));
  PetscCall(EasVecDestroy(&a->ey));
  PetscCall(EasVecCreate(a->be, a->nown + a->nghost, &a->ex));
  PetscCall(EasVecCreate(a->be, a->nown + a->nghost, &a->ey));
  a->ebe_state = -1; /* the EasEbe is (re)built at its first use */
  A->nonzerostate++;
  PetscFunctionReturn(0);
}

/* local row of global row r */
static inline PetscInt MatEasEbeLocalRow(const Mat_EasEbe *a, PetscInt r)
{
  PetscInt k;
  if (r >= a->rstart && r < a->rstart + a->nown) return r - a->rstart;
  PetscFindInt(r, a->nghost, a->garray, &k);
  return a->nown + k;
}

/* The EasEbe from the current elements (after an assembly or a change of
   the element values: MatZeroRowsColumns, MatScale). */
PetscErrorCode MatEasEbeSetUpOperator_Private(Mat A)
{
  Mat_EasEbe *a = (Mat_EasEbe *)A->data;
  PetscInt   *conn, nen;
  const char *prefix;

  PetscFunctionBegin;
  if (a->ebe_state == a->el_state) PetscFunctionReturn(0);
  PetscCall(EasEbeDestroy(&a->ebe));
  a->ebe_state = a->el_state;
  if (!a->nel || !(a->nown + a->nghost)) PetscFunctionReturn(0);
  nen = a->m / a->bs;
  PetscCall(PetscMalloc1((size_t)a->nel * nen, &conn));
  for (PetscInt e = 0; e < a->nel; e++)
    for (PetscInt p = 0; p < nen; p++) conn[(size_t)e * nen + p] = MatEasEbeLocalRow(a, a->gidx[(size_t)e * a->m + p * a->bs]) / a->bs;
  PetscCall(EasEbeCreate(PETSC_COMM_SELF, &a->ebe));
  PetscCall(MatGetOptionsPrefix(A, &prefix));
  PetscCall(EasEbeSetOptionsPrefix(a->ebe, prefix));
  PetscCall(EasEbeSetBackend(a->ebe, a->be));
  PetscCall(EasEbeSetElements(a->ebe, a->nel, nen, a->bs, (a->nown + a->nghost) / a->bs, conn, a->ael));
  { /* the elements in colour order (EasEbeGetColoring): the apply, one colour
       after the other, then reads them contiguously; PETSc's order of
       assembly interleaves the colours (4 in 2D, 8 in 3D) */
    const PetscInt *cptr, *cel;
    PetscInt        nc, *pconn, *pg;
    PetscScalar    *pael;
    const size_t    mm = (size_t)a->m * a->m;
    PetscCall(EasEbeGetColoring(a->ebe, &nc, &cptr, &cel));
    PetscCall(PetscMalloc3((size_t)a->nel * nen, &pconn, (size_t)a->nel * a->m, &pg, (size_t)a->nel * mm, &pael));
    for (PetscInt k = 0; k < a->nel; k++) {
      const PetscInt e = cel[k];
      PetscCall(PetscArraycpy(pconn + (size_t)k * nen, conn + (size_t)e * nen, nen));
      PetscCall(PetscArraycpy(pg + (size_t)k * a->m, a->gidx + (size_t)e * a->m, a->m));
      PetscCall(PetscArraycpy(pael + (size_t)k * mm, a->ael + (size_t)e * mm, mm));
    }
    PetscCall(PetscArraycpy(a->gidx, pg, (size_t)a->nel * a->m)); /* the Mat's own copy in the same order */
    PetscCall(PetscArraycpy(a->ael, pael, (size_t)a->nel * mm));
    PetscCall(EasEbeSetElements(a->ebe, a->nel, nen, a->bs, (a->nown + a->nghost) / a->bs, pconn, a->ael));
    PetscCall(PetscFree3(pconn, pg, pael));
  }
  PetscCall(PetscFree(conn));
  PetscCall(EasEbeSetFromOptions(a->ebe));
  PetscCall(EasEbeSetUp(a->ebe));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatSetUp_EasEbe(Mat A)
{
  Mat_EasEbe *a = (Mat_EasEbe *)A->data;

  PetscFunctionBegin;
  PetscCall(PetscLayoutSetUp(A->rmap));
  PetscCall(PetscLayoutSetUp(A->cmap));
  PetscCheck(A->rmap->N == A->cmap->N && A->rmap->n == A->cmap->n, PetscObjectComm((PetscObject)A), PETSC_ERR_SUP, "MATEASEBE needs a square matrix with the same row and column layout");
  a->nown   = A->rmap->n;
  a->rstart = A->rmap->rstart;
  PetscCall(MatGetBlockSize(A, &a->bs));
  if (!a->be) PetscCall(EasPetscBackendFromOptions(PetscObjectComm((PetscObject)A), ((PetscObject)A)->prefix, "-mat_easebe_backend", &a->be));
  PetscCall(VecCreateMPIWithArray(PetscObjectComm((PetscObject)A), 1, a->nown, A->rmap->N, NULL, &a->xwrap));
  A->preallocated = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/* --------------------------------------------------------- local vectors */

PetscErrorCode MatEasEbeVecToLocal_Private(Mat A, Vec v, EasVec e)
{
  Mat_EasEbe        *a = (Mat_EasEbe *)A->data;
  PetscScalar       *ea;
  const PetscScalar *va, *lv;

  PetscFunctionBegin;
  PetscCall(VecScatterBegin(a->scat, v, a->lvec, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(a->scat, v, a->lvec, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(EasVecGetArrayWrite(e, &ea));
  PetscCall(VecGetArrayRead(v, &va));
  PetscCall(PetscArraycpy(ea, va, a->nown));
  PetscCall(VecRestoreArrayRead(v, &va));
  PetscCall(VecGetArrayRead(a->lvec, &lv));
  PetscCall(PetscArraycpy(ea + a->nown, lv, a->nghost));
  PetscCall(VecRestoreArrayRead(a->lvec, &lv));
  PetscCall(EasVecRestoreArrayWrite(e, &ea));
  PetscFunctionReturn(0);
}

PetscErrorCode MatEasEbeVecFromLocal_Private(Mat A, EasVec e, Vec v)
{
  Mat_EasEbe        *a = (Mat_EasEbe *)A->data;
  const PetscScalar *ea;
  PetscScalar       *va;

  PetscFunctionBegin;
  PetscCall(EasVecGetArrayRead(e, &ea));
  PetscCall(VecGetArrayWrite(v, &va));
  PetscCall(PetscArraycpy(va, ea, a->nown));
  PetscCall(VecRestoreArrayWrite(v, &va));
  PetscCall(EasVecRestoreArrayRead(e, &ea));
  PetscFunctionReturn(0);
}

/* The element sums of host array ya (owned rows, then ghosts) made global:
   the ghosts added to their owners, the Dirichlet rows set to zd_i x_i (x
   local; NULL: zd_i), and the owners' sums sent back to the ghosts. */
static PetscErrorCode MatEasEbeFinishLocal(Mat A, const PetscScalar *xa, PetscScalar *ya)
{
  Mat_EasEbe  *a = (Mat_EasEbe *)A->data;
  PetscScalar *lv;

  PetscFunctionBegin;
  PetscCall(VecGetArrayWrite(a->lvec, &lv));
  PetscCall(PetscArraycpy(lv, ya + a->nown, a->nghost));
  PetscCall(VecRestoreArrayWrite(a->lvec, &lv));
  PetscCall(VecPlaceArray(a->xwrap, ya));
  PetscCall(VecScatterBegin(a->scat, a->lvec, a->xwrap, ADD_VALUES, SCATTER_REVERSE));
  PetscCall(VecScatterEnd(a->scat, a->lvec, a->xwrap, ADD_VALUES, SCATTER_REVERSE));
  for (PetscInt k = 0; k < a->nzr; k++) ya[a->zr[k]] = xa ? a->zd[k] * xa[a->zr[k]] : a->zd[k];
  PetscCall(VecScatterBegin(a->scat, a->xwrap, a->lvec, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(a->scat, a->xwrap, a->lvec, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecResetArray(a->xwrap));
  PetscCall(VecGetArrayRead(a->lvec, (const PetscScalar **)&lv));
  PetscCall(PetscArraycpy(ya + a->nown, lv, a->nghost));
  PetscCall(VecRestoreArrayRead(a->lvec, (const PetscScalar **)&lv));
  PetscFunctionReturn(0);
}

/* y = A x on consistent local vectors (the EasKsp shell operator). */
PetscErrorCode MatEasEbeShellMult_Private(void *ctx, EasVec x, EasVec y)
{
  Mat                A = (Mat)ctx;
  Mat_EasEbe        *a = (Mat_EasEbe *)A->data;
  const PetscScalar *xa;
  PetscScalar       *ya;

  PetscFunctionBegin;
  PetscCall(MatEasEbeSetUpOperator_Private(A));
  if (a->ebe) PetscCall(EasEbeMult(a->ebe, x, y));
  else PetscCall(EasVecSet(y, 0.0));
  PetscCall(EasVecGetArrayRead(x, &xa));
  PetscCall(EasVecGetArray(y, &ya));
  PetscCall(MatEasEbeFinishLocal(A, xa, ya));
  PetscCall(EasVecRestoreArray(y, &ya));
  PetscCall(EasVecRestoreArrayRead(x, &xa));
  PetscFunctionReturn(0);
}

PetscErrorCode MatEasEbeShellDiagonal_Private(void *ctx, EasVec d)
{
  Mat          A = (Mat)ctx;
  Mat_EasEbe  *a = (Mat_EasEbe *)A->data;
  PetscScalar *da;

  PetscFunctionBegin;
  PetscCall(MatEasEbeSetUpOperator_Private(A));
  if (a->ebe) PetscCall(EasEbeGetDiagonal(a->ebe, d));
  else PetscCall(EasVecSet(d, 0.0));
  PetscCall(EasVecGetArray(d, &da));
  PetscCall(MatEasEbeFinishLocal(A, NULL, da));
  PetscCall(EasVecRestoreArray(d, &da));
  PetscFunctionReturn(0);
}

/* The point blocks of the owned and ghost nodes (host, bs x bs each):
   element blocks summed, ghosts to owners and back through a node-block
   scatter, the Dirichlet rows replaced by zd on the diagonal. */
PetscErrorCode MatEasEbeShellBlockDiagonal_Private(void *ctx, PetscScalar D[])
{
  Mat          A = (Mat)ctx;
  Mat_EasEbe  *a = (Mat_EasEbe *)A->data;
  PetscInt     bs = a->bs, bs2 = bs * bs, nen = a->m / bs, nown = a->nown / bs, nghost = a->nghost / bs, *gn;
  Vec          gb, lb;
  IS           from;
  VecScatter   sc;
  PetscScalar *la;

  PetscFunctionBegin;
  PetscCall(PetscArrayzero(D, (size_t)(nown + nghost) * bs2));
  for (PetscInt e = 0; e < a->nel; e++)
    for (PetscInt p = 0; p < nen; p++) {
      const PetscInt     node = MatEasEbeLocalRow(a, a->gidx[(size_t)e * a->m + p * bs]) / bs;
      const PetscScalar *Ae   = a->ael + (size_t)e * a->m * a->m;
      for (PetscInt i = 0; i < bs; i++)
        for (PetscInt j = 0; j < bs; j++) D[(size_t)node * bs2 + i * bs + j] += Ae[(p * bs + i) * a->m + p * bs + j];
    }
  PetscCall(PetscMalloc1(PetscMax(nghost, 1), &gn));
  for (PetscInt k = 0; k < nghost; k++) gn[k] = a->garray[k * bs] / bs;
  PetscCall(ISCreateBlock(PETSC_COMM_SELF, bs2, nghost, gn, PETSC_OWN_POINTER, &from));
  PetscCall(VecCreateMPIWithArray(PetscObjectComm((PetscObject)A), 1, nown * bs2, PETSC_DECIDE, D, &gb));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, nghost * bs2, &lb));
  PetscCall(VecScatterCreate(gb, from, lb, NULL, &sc));
  PetscCall(VecGetArrayWrite(lb, &la));
  PetscCall(PetscArraycpy(la, D + (size_t)nown * bs2, (size_t)nghost * bs2));
  PetscCall(VecRestoreArrayWrite(lb, &la));
  PetscCall(VecScatterBegin(sc, lb, gb, ADD_VALUES, SCATTER_REVERSE));
  PetscCall(VecScatterEnd(sc, lb, gb, ADD_VALUES, SCATTER_REVERSE));
  for (PetscInt k = 0; k < a->nzr; k++) { /* Dirichlet row i: its block row is zd e_i */
    const PetscInt node = a->zr[k] / bs, i = a->zr[k] % bs;
    for (PetscInt j = 0; j < bs; j++) D[(size_t)node * bs2 + i * bs + j] = (i == j) ? a->zd[k] : 0.0;
  }
  PetscCall(VecScatterBegin(sc, gb, lb, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(sc, gb, lb, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecGetArrayRead(lb, (const PetscScalar **)&la));
  PetscCall(PetscArraycpy(D + (size_t)nown * bs2, la, (size_t)nghost * bs2));
  PetscCall(VecRestoreArrayRead(lb, (const PetscScalar **)&la));
  PetscCall(VecScatterDestroy(&sc));
  PetscCall(VecDestroy(&lb));
  PetscCall(VecDestroy(&gb));
  PetscCall(ISDestroy(&from));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatMult_EasEbe(Mat A, Vec x, Vec y)
{
  Mat_EasEbe *a = (Mat_EasEbe *)A->data;

  PetscFunctionBegin;
  PetscCall(MatEasEbeVecToLocal_Private(A, x, a->ex));
  PetscCall(MatEasEbeShellMult_Private(A, a->ex, a->ey));
  PetscCall(MatEasEbeVecFromLocal_Private(A, a->ey, y));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatMultAdd_EasEbe(Mat A, Vec x, Vec y, Vec z)
{
  Vec w;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(y, &w));
  PetscCall(MatMult_EasEbe(A, x, w));
  PetscCall(VecWAXPY(z, 1.0, w, y));
  PetscCall(VecDestroy(&w));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatGetDiagonal_EasEbe(Mat A, Vec d)
{
  Mat_EasEbe *a = (Mat_EasEbe *)A->data;

  PetscFunctionBegin;
  PetscCall(MatEasEbeShellDiagonal_Private(A, a->ey));
  PetscCall(MatEasEbeVecFromLocal_Private(A, a->ey, d));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------- Dirichlet rows */

/* Adds the owned rows lr[] to the Dirichlet rows with value diag. */
static PetscErrorCode MatEasEbeAddDirichlet(Mat_EasEbe *a, PetscInt nl, const PetscInt lr[], PetscScalar diag)
{
  PetscInt    *zr, n = 0, i = 0, j = 0;
  PetscScalar *zd;

  PetscFunctionBegin;
  PetscCall(PetscMalloc2(a->nzr + nl + 1, &zr, a->nzr + nl + 1, &zd));
  while (i < a->nzr || j < nl) { /* merge of two ascending lists, the new value wins */
    if (j >= nl || (i < a->nzr && a->zr[i] < lr[j])) {
      zr[n]   = a->zr[i];
      zd[n++] = a->zd[i++];
    } else {
      if (i < a->nzr && a->zr[i] == lr[j]) i++;
      zr[n]   = lr[j++];
      zd[n++] = diag;
    }
  }
  PetscCall(PetscFree2(a->zr, a->zd));
  a->zr  = zr;
  a->zd  = zd;
  a->nzr = n;
  PetscFunctionReturn(0);
}

/* b_i = diag x_i on the zeroed rows (owned, local) */
static PetscErrorCode MatEasEbeFixRHS(PetscInt nl, const PetscInt lr[], PetscScalar diag, Vec x, Vec b)
{
  const PetscScalar *xa;
  PetscScalar       *ba;

  PetscFunctionBegin;
  if (!x || !b) PetscFunctionReturn(0);
  PetscCall(VecGetArrayRead(x, &xa));
  PetscCall(VecGetArray(b, &ba));
  for (PetscInt k = 0; k < nl; k++) ba[lr[k]] = diag * xa[lr[k]];
  PetscCall(VecRestoreArray(b, &ba));
  PetscCall(VecRestoreArrayRead(x, &xa));
  PetscFunctionReturn(0);
}

/* The rows zeroed, diag on their diagonal: the element matrices stay as
   they are; after each apply y_i = diag x_i on these rows. */
static PetscErrorCode MatZeroRows_EasEbe(Mat A, PetscInt nr, const PetscInt rows[], PetscScalar diag, Vec x, Vec b)
{
  Mat_EasEbe *a = (Mat_EasEbe *)A->data;
  PetscInt    nl, *lr;

  PetscFunctionBegin;
  PetscCall(EasPetscRowsToOwners(PetscObjectComm((PetscObject)A), A->rmap, nr, rows, &nl, &lr));
  PetscCall(MatEasEbeFixRHS(nl, lr, diag, x, b));
  PetscCall(MatEasEbeAddDirichlet(a, nl, lr, diag));
  PetscCall(PetscFree(lr));
  PetscCall(PetscObjectStateIncrease((PetscObject)A));
  PetscFunctionReturn(0);
}

/* Dirichlet rows and columns: b -= A(:, Z) x_Z, b_Z = diag x_Z, then the rows
   and columns of Z zeroed in every element matrix (symmetric ones stay so)
   and y_i = diag x_i on Z after each apply. */
static PetscErrorCode MatZeroRowsColumns_EasEbe(Mat A, PetscInt nr, const PetscInt rows[], PetscScalar diag, Vec x, Vec b)
{
  Mat_EasEbe        *a = (Mat_EasEbe *)A->data;
  PetscInt           nl, *lr;
  Vec                flag;
  PetscScalar       *fa;
  const PetscScalar *lf;

  PetscFunctionBegin;
  PetscCall(EasPetscRowsToOwners(PetscObjectComm((PetscObject)A), A->rmap, nr, rows, &nl, &lr));
  PetscCall(MatCreateVecs(A, &flag, NULL));
  if (x && b) { /* b -= A x_Z with x_Z = x on Z, 0 elsewhere */
    Vec xz, t;
    PetscCall(VecDuplicate(flag, &xz));
    PetscCall(VecDuplicate(flag, &t));
    PetscCall(VecGetArray(xz, &fa));
    {
      const PetscScalar *xa;
      PetscCall(VecGetArrayRead(x, &xa));
      for (PetscInt k = 0; k < nl; k++) fa[lr[k]] = xa[lr[k]];
      PetscCall(VecRestoreArrayRead(x, &xa));
    }
    PetscCall(VecRestoreArray(xz, &fa));
    PetscCall(MatMult_EasEbe(A, xz, t));
    PetscCall(VecAXPY(b, -1.0, t));
    PetscCall(VecDestroy(&xz));
    PetscCall(VecDestroy(&t));
    PetscCall(MatEasEbeFixRHS(nl, lr, diag, x, b));
  }
  /* which local rows (owned and ghost) are in Z */
  PetscCall(VecGetArray(flag, &fa));
  for (PetscInt k = 0; k < nl; k++) fa[lr[k]] = 1.0;
  PetscCall(VecRestoreArray(flag, &fa));
  PetscCall(VecScatterBegin(a->scat, flag, a->lvec, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(a->scat, flag, a->lvec, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecGetArrayRead(flag, (const PetscScalar **)&fa));
  PetscCall(VecGetArrayRead(a->lvec, &lf));
  for (PetscInt e = 0; e < a->nel; e++) {
    PetscScalar *Ae = a->ael + (size_t)e * a->m * a->m;
    for (PetscInt i = 0; i < a->m; i++) {
      const PetscInt l  = MatEasEbeLocalRow(a, a->gidx[(size_t)e * a->m + i]);
      const PetscBool z = (l < a->nown ? fa[l] : lf[l - a->nown]) != 0.0 ? PETSC_TRUE : PETSC_FALSE;
      if (!z) continue;
      for (PetscInt j = 0; j < a->m; j++) Ae[i * a->m + j] = Ae[j * a->m + i] = 0.0;
    }
  }
  PetscCall(VecRestoreArrayRead(a->lvec, &lf));
  PetscCall(VecRestoreArrayRead(flag, (const PetscScalar **)&fa));
  PetscCall(VecDestroy(&flag));
  PetscCall(MatEasEbeAddDirichlet(a, nl, lr, diag));
  PetscCall(PetscFree(lr));
  a->el_state++;
  PetscCall(PetscObjectStateIncrease((PetscObject)A));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- other */

/* The assembled sum as an AIJ matrix (for checking and for PETSc's
   preconditioners): the elements added, the Dirichlet rows set. */
static PetscErrorCode MatEasEbeToAIJ(Mat A, MatType type, Mat *B)
{
  Mat_EasEbe *a = (Mat_EasEbe *)A->data;
  Mat         C, pre;
  PetscInt   *zg;

  PetscFunctionBegin;
  PetscCall(MatCreate(PetscObjectComm((PetscObject)A), &pre));
  PetscCall(MatSetSizes(pre, A->rmap->n, A->cmap->n, A->rmap->N, A->cmap->N));
  PetscCall(MatSetBlockSizesFromMats(pre, A, A));
  PetscCall(MatSetType(pre, MATPREALLOCATOR));
  PetscCall(MatSetUp(pre));
  for (PetscInt e = 0; e < a->nel; e++) PetscCall(MatSetValues(pre, a->m, a->gidx + (size_t)e * a->m, a->m, a->gidx + (size_t)e * a->m, a->ael + (size_t)e * a->m * a->m, ADD_VALUES));
  for (PetscInt k = 0; k < a->nzr; k++) {
    const PetscInt r = a->zr[k] + a->rstart;
    PetscCall(MatSetValue(pre, r, r, 0.0, ADD_VALUES));
  }
  PetscCall(MatAssemblyBegin(pre, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(pre, MAT_FINAL_ASSEMBLY));
  PetscCall(MatCreate(PetscObjectComm((PetscObject)A), &C));
  PetscCall(MatSetSizes(C, A->rmap->n, A->cmap->n, A->rmap->N, A->cmap->N));
  PetscCall(MatSetBlockSizesFromMats(C, A, A));
  PetscCall(MatSetType(C, type));
  PetscCall(MatPreallocatorPreallocate(pre, PETSC_TRUE, C));
  PetscCall(MatDestroy(&pre));
  PetscCall(MatSetOption(C, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  for (PetscInt e = 0; e < a->nel; e++) PetscCall(MatSetValues(C, a->m, a->gidx + (size_t)e * a->m, a->m, a->gidx + (size_t)e * a->m, a->ael + (size_t)e * a->m * a->m, ADD_VALUES));
  PetscCall(MatAssemblyBegin(C, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(C, MAT_FINAL_ASSEMBLY));
  PetscCall(PetscMalloc1(PetscMax(a->nzr, 1), &zg));
  for (PetscInt k = 0; k < a->nzr; k++) zg[k] = a->zr[k] + a->rstart;
  PetscCall(MatZeroRows(C, a->nzr, zg, 0.0, NULL, NULL));
  for (PetscInt k = 0; k < a->nzr; k++) PetscCall(MatSetValue(C, zg[k], zg[k], a->zd[k], INSERT_VALUES));
  PetscCall(MatAssemblyBegin(C, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(C, MAT_FINAL_ASSEMBLY));
  PetscCall(PetscFree(zg));
  *B = C;
  PetscFunctionReturn(0);
}

static PetscErrorCode MatConvert_EasEbe_AIJ(Mat A, MatType type, MatReuse reuse, Mat *B)
{
  Mat C;

  PetscFunctionBegin;
  PetscCall(MatEasEbeToAIJ(A, type, &C));
  if (reuse == MAT_INPLACE_MATRIX) PetscCall(MatHeaderReplace(A, &C));
  else if (reuse == MAT_REUSE_MATRIX) {
    PetscCall(MatCopy(C, *B, DIFFERENT_NONZERO_PATTERN));
    PetscCall(MatDestroy(&C));
  } else *B = C;
  PetscFunctionReturn(0);
}

/* PETSc's PCPBJACOBI asks for the inverted point blocks (the eas path of
   KSPEASCG inverts its own): the owned blocks, inverted by the AIJ sum's
   MatInvertBlockDiagonal. */
static PetscErrorCode MatInvertBlockDiagonal_EasEbe(Mat A, const PetscScalar **values)
{
  Mat C;

  PetscFunctionBegin;
  PetscCall(MatEasEbeToAIJ(A, MATAIJ, &C));
  PetscCall(PetscObjectCompose((PetscObject)A, "EasEbeAIJForBlocks", (PetscObject)C)); /* keeps the inverted blocks alive with A */
  PetscCall(MatInvertBlockDiagonal(C, values));
  PetscCall(MatDestroy(&C));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatZeroEntries_EasEbe(Mat A)
{
  Mat_EasEbe *a = (Mat_EasEbe *)A->data;

  PetscFunctionBegin;
  a->nel = 0; /* the zero matrix: no elements, no Dirichlet rows */
  a->nzr = 0;
  a->el_state++;
  PetscFunctionReturn(0);
}

static PetscErrorCode MatScale_EasEbe(Mat A, PetscScalar s)
{
  Mat_EasEbe *a = (Mat_EasEbe *)A->data;

  PetscFunctionBegin;
  for (size_t k = 0; k < (size_t)a->nel * a->m * a->m; k++) a->ael[k] *= s;
  for (PetscInt k = 0; k < a->nzr; k++) a->zd[k] *= s;
  a->el_state++;
  PetscFunctionReturn(0);
}

static PetscErrorCode MatSetOption_EasEbe(Mat A, MatOption op, PetscBool flg)
{
  Mat_EasEbe *a = (Mat_EasEbe *)A->data;

  PetscFunctionBegin;
  if (op == MAT_ROW_ORIENTED) a->roworiented = flg;
  else PetscCall(PetscInfo(A, "MATEASEBE: option %s ignored\n", MatOptions[op]));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatView_EasEbe(Mat A, PetscViewer viewer)
{
  Mat_EasEbe       *a = (Mat_EasEbe *)A->data;
  PetscBool         ascii;
  PetscViewerFormat format;
  Mat               C;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  if (ascii) {
    PetscCall(PetscViewerGetFormat(viewer, &format));
    if (format == PETSC_VIEWER_ASCII_INFO || format == PETSC_VIEWER_ASCII_INFO_DETAIL) {
      PetscInt    nel = a->nel, ntot, nzr = a->nzr, nztot;
      const char *res;
      PetscCall(MPIU_Allreduce(&nel, &ntot, 1, MPIU_INT, MPI_SUM, PetscObjectComm((PetscObject)A)));
      PetscCall(MPIU_Allreduce(&nzr, &nztot, 1, MPIU_INT, MPI_SUM, PetscObjectComm((PetscObject)A)));
      PetscCall(EasBackendGetResource(a->be, &res));
      PetscCall(PetscViewerASCIIPrintf(viewer, "eas element-by-element on %s: %" PetscInt_FMT " element matrices of order %" PetscInt_FMT " (point blocks of %" PetscInt_FMT "), %" PetscInt_FMT " Dirichlet rows\n", res, ntot, a->m, a->bs, nztot));
      if (a->ebe && format == PETSC_VIEWER_ASCII_INFO_DETAIL) {
        PetscViewer sv;
        PetscCall(PetscViewerGetSubViewer(viewer, PETSC_COMM_SELF, &sv));
        PetscCall(EasEbeView(a->ebe, sv));
        PetscCall(PetscViewerRestoreSubViewer(viewer, PETSC_COMM_SELF, &sv));
      }
      PetscFunctionReturn(0);
    }
  }
  PetscCall(MatEasEbeToAIJ(A, MATAIJ, &C));
  PetscCall(PetscObjectSetName((PetscObject)C, ((PetscObject)A)->name));
  PetscCall(MatView(C, viewer));
  PetscCall(MatDestroy(&C));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatSetFromOptions_EasEbe(Mat A, PetscOptionItems *PetscOptionsObject)
{
  Mat_EasEbe *a = (Mat_EasEbe *)A->data;
  char        res[256];
  PetscBool   flg;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "MATEASEBE options (eas element-by-element; -ebe_* for the operator)");
  PetscCall(PetscOptionsString("-mat_easebe_backend", "eas backend of the element apply (default: -eas_backend)", "MatCreate_EasEbe", "", res, sizeof(res), &flg));
  PetscOptionsHeadEnd();
  if (flg && !a->be) PetscCall(EasBackendCreate(PetscObjectComm((PetscObject)A), res, &a->be));
  if (flg && a->be) PetscCall(EasBackendSetFromOptions(a->be));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatDestroy_EasEbe(Mat A)
{
  Mat_EasEbe *a = (Mat_EasEbe *)A->data;

  PetscFunctionBegin;
  PetscCall(EasEbeDestroy(&a->ebe));
  PetscCall(EasVecDestroy(&a->ex));
  PetscCall(EasVecDestroy(&a->ey));
  PetscCall(EasBackendDestroy(&a->be));
  PetscCall(PetscFree(a->gidx));
  PetscCall(PetscFree(a->ael));
  PetscCall(PetscFree(a->garray));
  PetscCall(PetscFree2(a->zr, a->zd));
  PetscCall(VecDestroy(&a->lvec));
  PetscCall(VecDestroy(&a->xwrap));
  PetscCall(VecScatterDestroy(&a->scat));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatConvert_easebe_aij_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatConvert_easebe_seqaij_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatConvert_easebe_mpiaij_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatEasEbeGetLocalEbe_C", NULL));
  PetscCall(PetscFree(A->data));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatEasEbeGetLocalEbe_EasEbe(Mat A, EasEbe *ebe)
{
  PetscFunctionBegin;
  PetscCall(MatEasEbeSetUpOperator_Private(A));
  *ebe = ((Mat_EasEbe *)A->data)->ebe;
  PetscFunctionReturn(0);
}

/*@C
  MatEasEbeGetLocalEbe - this rank's element operator of a MATEASEBE (borrowed).
@*/
PetscErrorCode MatEasEbeGetLocalEbe(Mat A, EasEbe *ebe)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscUseMethod(A, "MatEasEbeGetLocalEbe_C", (Mat, EasEbe *), (A, ebe));
  PetscFunctionReturn(0);
}

/*MC
  MATEASEBE - "easebe": element matrices kept, eas's EBE apply (include/eas/petsc.h).
  Options: -mat_easebe_backend, the EasEbe's -ebe_storage, -ebe_split_units, ...
M*/
PetscErrorCode MatCreate_EasEbe(Mat A)
{
  Mat_EasEbe *a;

  PetscFunctionBegin;
  PetscCall(EasInitializePackage());
  PetscCall(PetscNew(&a));
  A->data        = a;
  a->roworiented = PETSC_TRUE;
  a->bs          = 1;
  a->ebe_state   = -1;
  PetscCall(PetscMemzero(A->ops, sizeof(struct _MatOps)));
  A->ops->setvalues           = MatSetValues_EasEbe;
  A->ops->mult                = MatMult_EasEbe;
  A->ops->multadd             = MatMultAdd_EasEbe;
  A->ops->getdiagonal         = MatGetDiagonal_EasEbe;
  A->ops->assemblyend         = MatAssemblyEnd_EasEbe;
  A->ops->setoption           = MatSetOption_EasEbe;
  A->ops->zeroentries         = MatZeroEntries_EasEbe;
  A->ops->zerorows            = MatZeroRows_EasEbe;
  A->ops->zerorowscolumns     = MatZeroRowsColumns_EasEbe;
  A->ops->setup               = MatSetUp_EasEbe;
  A->ops->scale               = MatScale_EasEbe;
  A->ops->destroy             = MatDestroy_EasEbe;
  A->ops->view                = MatView_EasEbe;
  A->ops->setfromoptions      = MatSetFromOptions_EasEbe;
  A->ops->invertblockdiagonal = MatInvertBlockDiagonal_EasEbe;
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatConvert_easebe_aij_C", MatConvert_EasEbe_AIJ));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatConvert_easebe_seqaij_C", MatConvert_EasEbe_AIJ));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatConvert_easebe_mpiaij_C", MatConvert_EasEbe_AIJ));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatEasEbeGetLocalEbe_C", MatEasEbeGetLocalEbe_EasEbe));
  PetscCall(PetscObjectChangeTypeName((PetscObject)A, MATEASEBE));
  /* sizes set before the type: the layout now, so MatGetOwnershipRange
     works before the first MatSetValues (PETSc's preallocation calls, which
     set it up for AIJ, do nothing here) */
  if (A->rmap->n >= 0 || A->rmap->N >= 0) {
    PetscCall(PetscLayoutSetUp(A->rmap));
    PetscCall(PetscLayoutSetUp(A->cmap));
  }
  PetscFunctionReturn(0);
}
