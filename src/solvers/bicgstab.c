/*
  BiCGStab (van der Vorst 1992) with right Jacobi preconditioning, in three
  fused sweeps per iteration.

  Right Jacobi is applied by solving (A D^{-1}) y = b with the column-scaled
  copy Ahat = A D^{-1} built at setup (and refilled in place when only the
  operator's values change, EasKspSetUp), then x = D^{-1} y: the iteration
  then costs exactly what unpreconditioned BiCGStab costs, and the residual
  b - Ahat y equals the true residual b - A x.

  Per iteration (backend.h): sweep 1 forms p and v = Ahat p, sweep 2 forms s
  and t = Ahat s, sweep 3 updates x and r.  With the 9-offset DIA matrix of
  the ADR problem that is 2 x 72 B of matrix and 17 vector passes of 8 B:
  280 B per row (docs/performance.md, bench_dia).  On a backend whose sweeps
  update in place (be->bcgs_inplace: the CPU) p and v overwrite their old
  values and s overwrites r (r_{i-1} is dead once s = r_{i-1} - alpha v is
  formed; sweep 3 then writes r_i = s - omega t over s): only t is written
  without being read first, 288 B moved per row instead of 320, and three
  work vectors fewer.

  Right ILU (-pc_type ilu; M = L U, the incomplete factors in A's DIA
  pattern, or with -pc_factor_levels k on its level-k fill, kernels/ilu.h):
  the same iteration on A M^{-1}, with y = M x; with -pc_ilu_axes the
  whole iteration runs on A' = P A P', b and x permuted in and out.
  Each operator application A M^{-1} q is the backend's ilu_apply, which
  forms q on the fly (the direction p in sweep 1, s in sweep 2) and
  returns z = M^{-1} q, then z's product with A and the sweep's dots; sweep 3
  is unchanged (it updates y and r), and x = M^{-1} y at the end.  p, v and
  s = r are updated in place on every backend (each entry of q is formed
  from its own row before the solve reads it).  On the CPU backends the
  factorization and the substitutions are exact and sequential (a row reads
  the rows before it); on /cpu/memcheck and CUDA they are Chow and Patel's
  parallel iterations with EasKspSetILUSweeps() sweeps.
*/
#include "kspimpl.h"

enum { W_R,
       W_RHAT,
       W_P0,
       W_P1,
       W_V0,
       W_V1,
       W_S,
       W_T,
       W_Z,  /* ilu: M^{-1} q */
       W_IW, /* ilu: 2n of work for the parallel triangular solves */
       W_N };

/* Right Jacobi from the operator's current values: dinv = D^{-1} and
   Ahat = A D^{-1}, both in their existing storage.  The first time both are
   built on the host from A's host values (Ahat allocated and uploaded);
   afterwards, when only the values changed, the backend's dia_jacobi op
   recomputes them where A's values are (the shared bodies of kernels.h: on
   a GPU no matrix crosses the bus), else the host path repeats. */
static PetscErrorCode EasKspBiCGStabJacobi(EasKsp ksp)
{
  EasDia       A = ksp->A;
  PetscInt     n = A->n;
  PetscScalar *da;
  EasBackend   be;

  PetscFunctionBegin;
  PetscCall(EasDiaGetBackend(A, &be));
  if (!ksp->dinv) PetscCall(EasVecCreate(ksp->op.be, n, &ksp->dinv));
  if (ksp->Ahat && be->ops->dia_jacobi) {
    const EasDiaKernel *k;
    PetscScalar        *dv, *bval;
    PetscInt            dmain = -1, zr;
    for (PetscInt d = 0; d < A->ndiag; d++)
      if (A->off[d] == 0) dmain = d;
    PetscCheck(dmain >= 0, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_WRONG, "Zero diagonal entry at row 0 (no main diagonal stored): -pc_type jacobi needs a nonzero diagonal (use -pc_type none)");
    PetscCall(EasDiaGetKernelDouble_Private(A, &k)); /* A's backend copy up to date (dia_jacobi reads the double values) */
    PetscCall(EasVecGetBackendArrayWrite(ksp->dinv, &dv));
    PetscCall(EasDiaGetBackendValuesWrite_Private(ksp->Ahat, &bval, NULL));
    PetscCall((*be->ops->dia_jacobi)(be, k, dmain, dv, bval, &zr));
    PetscCall(EasDiaRestoreBackendValuesWrite_Private(ksp->Ahat, &bval));
    PetscCheck(zr < 0, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_WRONG, "Zero diagonal entry at row %" PetscInt_FMT ": -pc_type jacobi needs a nonzero diagonal (use -pc_type none)", zr);
    PetscFunctionReturn(0);
  }
  /* D^{-1}; a zero diagonal entry is an error, not a silent 1 */
  PetscCall(EasDiaGetDiagonal(A, ksp->dinv));
  PetscCall(EasVecGetArray(ksp->dinv, &da));
  for (PetscInt i = 0; i < n; i++) {
    if (da[i] == 0.0) {
      PetscCall(EasVecRestoreArray(ksp->dinv, &da));
      SETERRQ(PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_WRONG, "Zero diagonal entry at row %" PetscInt_FMT ": -pc_type jacobi needs a nonzero diagonal (use -pc_type none)", i);
    }
    da[i] = 1.0 / da[i];
  }
  if (!ksp->Ahat)
    PetscCall(EasDiaDuplicateColumnScaled_Private(A, da, &ksp->Ahat));
  else
    PetscCall(EasDiaColumnScaleValues_Private(A, da, ksp->Ahat));
  PetscCall(EasVecRestoreArray(ksp->dinv, &da));
  PetscCall(EasDiaSetUp(ksp->Ahat)); /* first time: allocate and copy; later: copy in place */
  PetscFunctionReturn(0);
}

/* The off-process part of a distributed DIA operator (EasKspSetOperatorCoupling):
   y += C x~ after the sweep formed y = A x locally, and the sweep's first two
   dot products (a, y), (y, y) corrected by (a, w) and 2 (y, w) + (w, w). */
static PetscErrorCode EasKspBiCGStabCouple(EasKsp ksp, EasBackend be, const PetscScalar *x, PetscScalar *y, const PetscScalar *a, PetscScalar dots[])
{
  PetscScalar dc[2] = {0, 0};

  PetscFunctionBegin;
  if (!ksp->coupling) PetscFunctionReturn(0);
  PetscCall((*ksp->coupling)(ksp->couplingctx, be, ksp->Ahat ? PETSC_TRUE : PETSC_FALSE, x, y, a, dc));
  dots[0] += dc[0];
  dots[1] += dc[1];
  PetscFunctionReturn(0);
}

/* The pair table of kernels/ilu.h EasIluEntry for the ascending offsets off
   (nd, off[dmain] = 0): pt[g] .. pt[g+1] the positions of entry g's pairs
   (d, e), d < min(g, dmain) ascending and off[e] = off[g] - off[d] in the
   pattern; pt[nd] the table's length; pt[nd+1+g] = amap[g], the diagonal
   of A's values the factor's diagonal g starts from (-1: a fill diagonal);
   the pairs after. */
static PetscErrorCode EasIluPairTable(PetscInt nd, PetscInt dmain, const PetscInt *off, const PetscInt *amap, PetscInt **pt)
{
  PetscInt *t = NULL;

  PetscFunctionBegin;
  for (PetscInt pass = 0; pass < 2; pass++) { /* count, then fill */
    PetscInt m = 2 * nd + 1;
    for (PetscInt g = 0; g < nd; g++) {
      if (pass) t[g] = m;
      for (PetscInt d = 0; d < dmain && d < g; d++) {
        PetscInt e;
        for (e = 0; e < nd && (PetscInt64)off[e] != (PetscInt64)off[g] - off[d]; e++) {}
        if (e == nd) continue;
        if (pass) {
          t[m]     = d;
          t[m + 1] = e;
        }
        m += 2;
      }
    }
    if (!pass)
      PetscCall(PetscMalloc1(m, &t));
    else
      t[nd] = m;
  }
  for (PetscInt g = 0; g < nd; g++) t[nd + 1 + g] = amap[g];
  *pt = t;
  PetscFunctionReturn(0);
}

/* The factor's pattern of ILU(k) (k = ksp->ilu_levels > 0) from A's
   offsets: level 0 for A's, then o = o_l + o_u (o_l < 0 < o_u, both in the
   pattern) at level lev(o_l) + lev(o_u) + 1 while that is <= k, to a fixed
   point: the symbolic ILU(k) of a row whose pattern is the stencil (an
   entry's level is the shortest path through lower-numbered columns,
   Saad, Iterative Methods, Sec. 10.3.3), so the interior rows have PETSc
   PCILU's pattern.  Offsets with |o| >= n have no entry and are left out.
   Sorted ascending in off (count *nf); amap[g]: the diagonal of A with
   the factor's offset off[g], -1 for a fill offset. */
static PetscErrorCode EasIluFillPattern(EasKsp ksp, PetscInt n, PetscInt nd, const PetscInt *aoff, PetscInt k, PetscInt *nf, PetscInt **off, PetscInt **amap)
{
  enum { MAXF = 255 };
  PetscInt  o[MAXF], lev[MAXF], m = 0, *idx;
  PetscBool changed = PETSC_TRUE;

  PetscFunctionBegin;
  for (PetscInt d = 0; d < nd; d++) {
    o[m]     = aoff[d];
    lev[m++] = 0;
  }
  while (changed) {
    changed = PETSC_FALSE;
    for (PetscInt a = 0; a < m; a++)
      for (PetscInt b = 0; b < m; b++) {
        PetscInt s, l, e;
        if (o[a] >= 0 || o[b] <= 0) continue;
        s = o[a] + o[b];
        l = lev[a] + lev[b] + 1;
        if (l > k || s <= -n || s >= n) continue;
        for (e = 0; e < m && o[e] != s; e++) {}
        if (e < m) {
          if (l < lev[e]) {
            lev[e]  = l;
            changed = PETSC_TRUE;
          }
          continue;
        }
        PetscCheck(m < MAXF, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_OUTOFRANGE, "-pc_factor_levels %" PetscInt_FMT ": the fill pattern has more than %d offsets; expected a smaller level of fill", k, (int)MAXF);
        o[m]     = s;
        lev[m++] = l;
        changed  = PETSC_TRUE;
      }
  }
  PetscCall(PetscSortInt(m, o));
  PetscCall(PetscMalloc2(m, off, m, amap));
  PetscCall(PetscArraycpy(*off, o, m));
  idx = *amap;
  for (PetscInt e = 0; e < m; e++) {
    idx[e] = -1;
    for (PetscInt d = 0; d < nd; d++)
      if (o[e] == aoff[d]) idx[e] = d;
  }
  *nf = m;
  PetscFunctionReturn(0);
}

/* A's entries between neighbouring points of the box (dof unknowns per
   point, x fastest), each as its row i' = iperm[i] and offset o' = iperm[j]
   - iperm[i] in the permuted order.  Without aidx: collects the distinct o'
   into so (*ns of them); with it: aidx[e ldp + i'] = d ld + i, e the index
   of o' in so (the diagonals of P A P', leading dimension ldp).  The point displacement of diagonal d from species s
   is fixed, and so is its o' (iperm is linear in the coordinates): a row
   takes it when the neighbour is inside the box; a displacement that is
   not a neighbour's (|dx|, |dy| or |dz| > 1: a coupling across the box's
   wrap) is not a stencil entry and is left out, and so is a (d, s) the
   block fills exclude (fill: EasKspSetILUBlockFills, NULL: all). */
static PetscErrorCode EasIluPermutedWalk(MPI_Comm comm, PetscInt n, PetscInt dof, const PetscInt nb[3], const PetscInt *fill, PetscInt nd, const PetscInt *off, const PetscInt *iperm, PetscInt ld, PetscInt *so, PetscInt *ns, PetscInt ldp, PetscInt *aidx)
{
  PetscFunctionBegin;
  for (PetscInt d = 0; d < nd; d++)
    for (PetscInt s = 0; s < dof; s++) {
      const PetscInt q = s + off[d], D = q >= 0 ? q / dof : -((-q + dof - 1) / dof); /* floor(q / dof): the point displacement */
      PetscInt       dxyz[3], r = D, e = -1, t = q - D * dof;                        /* t: the unknown of the column's point */
      if (fill && !fill[(D ? dof * dof : 0) + s * dof + t]) continue;                /* a coupling the block fills exclude (EasKspSetILUBlockFills): zeros, left out */
      /* D = dx + nb0 (dy + nb1 dz), |dx|, |dy|, |dz| <= 1: unique where nb0, nb1 >= 3; else the box is too thin to tell, and the rows decide one by one below */
      if (nb[0] >= 3 && nb[1] >= 3) {
        dxyz[0] = ((r % nb[0]) + nb[0] + 1) % nb[0] - 1;
        r       = (r - dxyz[0]) / nb[0];
        dxyz[1] = ((r % nb[1]) + nb[1] + 1) % nb[1] - 1;
        dxyz[2] = (r - dxyz[1]) / nb[1];
        if (PetscAbsInt(dxyz[2]) > 1) continue; /* no neighbour's displacement */
      } else
        dxyz[0] = dxyz[1] = dxyz[2] = PETSC_MAX_INT;
      for (PetscInt z = 0; z < nb[2]; z++)
        for (PetscInt y = 0; y < nb[1]; y++)
          for (PetscInt x = 0; x < nb[0]; x++) {
            const PetscInt i = s + dof * (x + nb[0] * (y + nb[1] * z)), j = i + off[d];
            PetscInt       o;
            if (j < 0 || j >= n) continue;
            if (dxyz[0] != PETSC_MAX_INT) {
              if (x + dxyz[0] < 0 || x + dxyz[0] >= nb[0] || y + dxyz[1] < 0 || y + dxyz[1] >= nb[1] || z + dxyz[2] < 0 || z + dxyz[2] >= nb[2]) continue;
            } else {
              const PetscInt pj = j / dof;
              if (PetscAbsInt(x - pj % nb[0]) > 1 || PetscAbsInt(y - (pj / nb[0]) % nb[1]) > 1 || PetscAbsInt(z - pj / (nb[0] * nb[1])) > 1) continue; /* across the box's wrap */
            }
            o = iperm[j] - iperm[i];
            if (e < 0 || so[e] != o) /* the same o' for the whole (d, s) on a box >= 3 wide; looked up again otherwise */
              for (e = 0; e < *ns && so[e] != o; e++) {}
            if (aidx) {
              aidx[(size_t)e * ldp + iperm[i]] = d * ld + i;
              continue;
            }
            if (e == *ns) {
              PetscCheck(*ns < 255, comm, PETSC_ERR_ARG_OUTOFRANGE, "-pc_ilu_axes: the permuted operator has more than 255 offsets (is it a stencil on the box of EasKspSetILUGrid?)");
              so[(*ns)++] = o;
            }
          }
    }
  PetscFunctionReturn(0);
}

/* The factor's own pattern (ILU(k), -pc_ilu_axes): the offsets
   ksp->ilu_off_host (nf, ascending) up to the backend and the kernel view
   ilu_k of the pattern the factorization and the solves run on (its val
   unused: the factor starts from A's values through the pair table's
   amap, kernels/ilu.h). */
static PetscErrorCode EasIluKernelView(EasKsp ksp, EasBackend be, PetscInt n, PetscInt ld, PetscInt nf)
{
  EasDiaKernel   *f   = &ksp->ilu_k;
  const PetscInt *off = ksp->ilu_off_host;

  PetscFunctionBegin;
  PetscCall((*be->ops->malloc)(be, sizeof(PetscInt) * nf, (void **)&ksp->ilu_off));
  PetscCall(EasBackendCopyHtoD(be, ksp->ilu_off, off, sizeof(PetscInt) * nf));
  PetscCall(PetscMemzero(f, sizeof(*f)));
  f->n        = n;
  f->ndiag    = nf;
  f->ld       = ld;
  f->lo       = PetscMin(-off[0], n); /* rows [lo,hi): every column in [0,n) */
  f->hi       = PetscMax(n - off[nf - 1], f->lo);
  f->off      = ksp->ilu_off;
  f->off_host = off;
  PetscFunctionReturn(0);
}

/* -pc_ilu_axes: the permutation of the box (ilu_perm[new] = old, the axes
   in ksp->ilu_axes, fastest first), A' = P A P' (ilu_Ap: a DIA matrix on
   the offsets of A's couplings between neighbouring points in the new
   order, its values gathered from A's through ilu_aidx, -1: 0), the
   factor's pattern (A''s offsets and their level-k fill,
   EasIluFillPattern) and its kernel view ilu_k; all in backend memory.
   The inner solve runs in the new order on A' (EasKspSolve_BiCGStab).
   Couplings between points that are not neighbours on the box (across
   its wrap) are not stencil entries: left out, as are those the block
   fills exclude. */
static PetscErrorCode EasIluPermutedPattern(EasKsp ksp, EasDia A, EasBackend be)
{
  const PetscInt  dof = ksp->ilu_dof, *nb = ksp->ilu_box, n = A->n, ld = A->ld, nd = A->ndiag;
  PetscInt        ax[3], m[3], *perm, *iperm, *aidx, so[255], ns = 0, nf, *sof, *samap, ldp;
  MPI_Comm        comm = PetscObjectComm((PetscObject)ksp);
  const PetscInt *off  = A->off;

  PetscFunctionBegin;
  PetscCheck(dof > 0, comm, PETSC_ERR_ORDER, "-pc_ilu_axes %s needs the operator's box (EasKspSetILUGrid; EasAdr sets its own)", ksp->ilu_axes);
  PetscCheck((PetscInt64)dof * nb[0] * nb[1] * nb[2] == n, comm, PETSC_ERR_ARG_SIZ, "-pc_ilu_axes: the box %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT " with %" PetscInt_FMT " unknowns per point (EasKspSetILUGrid) has not the operator's %" PetscInt_FMT " rows", nb[0], nb[1], nb[2], dof, n);
  for (PetscInt a = 0; a < 3; a++) {
    ax[a] = ksp->ilu_axes[a] - 'x';
    m[a]  = nb[ax[a]];
  }
  PetscCall(PetscMalloc2(n, &perm, n, &iperm));
  for (PetscInt c = 0; c < m[2]; c++)
    for (PetscInt b = 0; b < m[1]; b++)
      for (PetscInt a = 0; a < m[0]; a++) {
        PetscInt ijk[3];
        ijk[ax[0]] = a;
        ijk[ax[1]] = b;
        ijk[ax[2]] = c;
        for (PetscInt s = 0; s < dof; s++) perm[s + dof * (a + m[0] * (b + m[1] * c))] = s + dof * (ijk[0] + nb[0] * (ijk[1] + nb[1] * ijk[2]));
      }
  for (PetscInt i = 0; i < n; i++) iperm[perm[i]] = i;
  PetscCall(EasIluPermutedWalk(comm, n, dof, nb, ksp->ilu_fill, nd, off, iperm, ld, so, &ns, 0, NULL)); /* A''s offsets */
  PetscCall(PetscSortInt(ns, so));
  PetscCall(EasDiaCreate(PETSC_COMM_SELF, &ksp->ilu_Ap));
  PetscCall(EasDiaSetBackend(ksp->ilu_Ap, be));
  PetscCall(EasDiaSetPattern(ksp->ilu_Ap, n, ns, so));
  PetscCall(EasDiaSetUp(ksp->ilu_Ap));
  ldp = ksp->ilu_Ap->ld;
  PetscCheck((PetscInt64)ns * ldp < PETSC_MAX_INT, comm, PETSC_ERR_ARG_OUTOFRANGE, "-pc_ilu_axes: P A P''s %" PetscInt_FMT " x %" PetscInt_FMT " values overflow a 32-bit index", ns, ldp);
  PetscCall(EasIluFillPattern(ksp, n, ns, so, ksp->ilu_levels, &nf, &sof, &samap)); /* A''s offsets and their fill; samap[g]: A''s diagonal of the factor's g */
  PetscCall(PetscMalloc1((size_t)ns * ldp, &aidx));
  for (size_t t = 0; t < (size_t)ns * ldp; t++) aidx[t] = -1;
  PetscCall(EasIluPermutedWalk(comm, n, dof, nb, ksp->ilu_fill, nd, off, iperm, ld, so, &ns, ldp, aidx)); /* where each entry of A' is in A's values */
  ksp->ilu_off_host = sof;
  ksp->ilu_amap     = samap;
  PetscCall(EasIluKernelView(ksp, be, n, ld, nf));
  PetscCall((*be->ops->malloc)(be, sizeof(PetscInt) * (size_t)ns * ldp, (void **)&ksp->ilu_aidx));
  PetscCall(EasBackendCopyHtoD(be, ksp->ilu_aidx, aidx, sizeof(PetscInt) * (size_t)ns * ldp));
  PetscCall((*be->ops->malloc)(be, sizeof(PetscInt) * n, (void **)&ksp->ilu_perm));
  PetscCall(EasBackendCopyHtoD(be, ksp->ilu_perm, perm, sizeof(PetscInt) * n));
  PetscCall((*be->ops->malloc)(be, sizeof(PetscInt) * n, (void **)&ksp->ilu_iperm));
  PetscCall(EasBackendCopyHtoD(be, ksp->ilu_iperm, iperm, sizeof(PetscInt) * n));
  PetscCall(PetscFree(aidx));
  PetscCall(PetscFree2(perm, iperm));
  PetscFunctionReturn(0);
}

/* The kernel view of the factor's pattern: A's own for ILU(0) in A's
   order, else ilu_k. */
static inline const EasDiaKernel *EasKspILUKernel(EasKsp ksp, const EasDiaKernel *k)
{
  return ksp->ilu_levels > 0 || ksp->ilu_Ap ? &ksp->ilu_k : k;
}

/* ILU(k) from the operator's current values into ksp->ilu_f.  The first
   time (the symbolic part): the factor's pattern (A's own for k = 0 in A's
   order; else its kernel view ilu_k, with -pc_ilu_axes of A' = P A P'),
   the index of offset 0, the pair table of EasIluEntry (EasIluPairTable,
   with the map from the factor's diagonals to A's or A''s) and the factor
   storage; every time: A''s values gathered from A's, then, with factor,
   the factorization on the backend (its ILU(0) on the factor's pattern is
   ILU(k); without, the factor of earlier values is kept:
   EasKspSetReusePreconditioner).  An unusable pivot is kept in
   ilu_zero_row: the solve then stops with KSP_DIVERGED_PC_FAILED. */
static PetscErrorCode EasKspBiCGStabILU(EasKsp ksp, PetscBool factor)
{
  EasDia              A = ksp->A;
  EasBackend          be;
  const EasDiaKernel *k, *ka, *kf;
  PetscInt            nd;
  size_t              fbytes;
  PetscBool           permuted;

  PetscFunctionBegin;
  PetscCall(EasDiaGetBackend(A, &be));
  PetscCall(EasDiaGetKernelDouble_Private(A, &k)); /* A's backend copy up to date */
  permuted = (PetscBool)(strcmp(ksp->ilu_axes, "xyz") != 0);
  if (!ksp->ilu_f) { /* the symbolic part, once per pattern (PETSc's MatILUFactorSymbolic) */
    PetscInt       *pt = NULL, *amap = NULL;
    const PetscInt *off = A->off;
    PetscCheck(be->ops->ilu_factor && be->ops->ilu_apply, PetscObjectComm((PetscObject)ksp), PETSC_ERR_SUP, "-pc_type ilu: backend %s has no ILU(0) (use -pc_type jacobi)", be->resource);
    PetscCall(PetscLogEventBegin(EAS_IluSymbolic, ksp, 0, 0, 0));
    nd = A->ndiag;
    if (permuted) {
      PetscCheck(be->ops->gather, PetscObjectComm((PetscObject)ksp), PETSC_ERR_SUP, "-pc_ilu_axes: backend %s cannot permute vectors (no gather op)", be->resource);
      PetscCall(EasIluPermutedPattern(ksp, A, be));
      nd   = ksp->ilu_k.ndiag;
      off  = ksp->ilu_off_host;
      amap = ksp->ilu_amap;
    } else if (ksp->ilu_levels > 0) {
      PetscCall(EasIluFillPattern(ksp, A->n, A->ndiag, A->off, ksp->ilu_levels, &nd, &ksp->ilu_off_host, &ksp->ilu_amap));
      PetscCall(EasIluKernelView(ksp, be, A->n, A->ld, nd));
      off  = ksp->ilu_off_host;
      amap = ksp->ilu_amap;
    } else { /* ILU(0) in A's own pattern: the factor's diagonal g starts from A's g */
      PetscCall(PetscMalloc2(nd, &ksp->ilu_off_host, nd, &ksp->ilu_amap));
      PetscCall(PetscArraycpy(ksp->ilu_off_host, A->off, nd));
      for (PetscInt g = 0; g < nd; g++) ksp->ilu_amap[g] = g;
      amap = ksp->ilu_amap;
    }
    ksp->ilu_dmain = -1;
    for (PetscInt d = 0; d < nd; d++)
      if (off[d] == 0) ksp->ilu_dmain = d;
    PetscCheck(ksp->ilu_dmain >= 0, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_WRONG, "-pc_type ilu needs the main diagonal in the operator's pattern (offset 0 is not stored; use -pc_type none)");
    PetscCall(EasIluPairTable(nd, ksp->ilu_dmain, off, amap, &pt));
    PetscCall((*be->ops->malloc)(be, sizeof(PetscInt) * pt[nd], (void **)&ksp->ilu_sub));
    PetscCall(EasBackendCopyHtoD(be, ksp->ilu_sub, pt, sizeof(PetscInt) * pt[nd]));
    PetscCall(PetscFree(pt));
    fbytes = sizeof(PetscScalar) * (size_t)nd * A->ld;
    PetscCall((*be->ops->malloc)(be, fbytes, (void **)&ksp->ilu_f));
    if (nd >= be->ilu_work_nd) PetscCall((*be->ops->malloc)(be, fbytes, (void **)&ksp->ilu_fwork)); /* the backend's scratch: the other iterate of the parallel form, written whole by each factorization (no set: the first one touches it); the CPU factors in place */
    if (ksp->ilu_prec == EAS_PRECISION_SINGLE) PetscCall((*be->ops->malloc)(be, sizeof(float) * (size_t)nd * A->ld, (void **)&ksp->ilu_ff)); /* the factor the solves read (ilu_f is then the backend's scratch: on the CPU the factor in double, rounded into ilu_ff) */
    PetscCall(PetscLogEventEnd(EAS_IluSymbolic, ksp, 0, 0, 0));
  }
  ka = k;
  kf = EasKspILUKernel(ksp, k);
  if (permuted) { /* A' = P A P''s values, gathered from A's */
    PetscScalar *V;
    PetscInt     ldp;
    PetscCall(EasDiaGetBackendValuesWrite_Private(ksp->ilu_Ap, &V, &ldp));
    PetscCall((*be->ops->gather)(be, ksp->ilu_Ap->ndiag * ldp, ksp->ilu_aidx, k->val, V));
    PetscCall(EasDiaRestoreBackendValuesWrite_Private(ksp->ilu_Ap, &V));
    PetscCall(EasDiaGetKernelDouble_Private(ksp->ilu_Ap, &ka));
  }
  if (!factor) PetscFunctionReturn(0);
  PetscCall(PetscLogEventBegin(EAS_IluFactor, ksp, 0, 0, 0));
  PetscCall((*be->ops->ilu_factor)(be, kf, ka, ksp->ilu_sub, ksp->ilu_dmain, ksp->ilu_factor_sweeps, ksp->ilu_f, ksp->ilu_fwork, ksp->ilu_ff, &ksp->ilu_zero_row));
  PetscCall(PetscLogEventEnd(EAS_IluFactor, ksp, 0, 0, 0));
  if (ksp->ilu_zero_row >= 0) PetscCall(PetscInfo(ksp, "ILU(%" PetscInt_FMT "): zero or non-finite pivot in row %" PetscInt_FMT "; the solves stop with DIVERGED_PC_FAILED\n", ksp->ilu_levels, ksp->ilu_zero_row));
  PetscFunctionReturn(0);
}

/* z = M^{-1} q with q formed first as ilu_apply's form says (1: q <- r + c1
   (q - c2 v), the direction; 2: q <- r - c1 v).  With -pc_ilu_axes the
   whole solve runs in the permuted order (EasKspSolve_BiCGStab), so q, z
   and the factor are all of P A P'. */
static PetscErrorCode EasKspILUApply(EasKsp ksp, const EasDiaKernel *k, PetscInt form, PetscScalar c1, PetscScalar c2, const PetscScalar *r, const PetscScalar *v, PetscScalar *q, PetscScalar *z, PetscScalar *work)
{
  EasBackend be = ksp->op.be;

  PetscFunctionBegin;
  PetscCall((*be->ops->ilu_apply)(be, EasKspILUKernel(ksp, k), ksp->ilu_f, ksp->ilu_ff, ksp->ilu_dmain, ksp->ilu_solve_sweeps, form, c1, c2, r, v, q, z, work));
  PetscFunctionReturn(0);
}

/* ilu, one operator application of a sweep: q = the input of form (1: the
   direction p, 2: s = r - alpha v, formed in place in q), z = M^{-1} q,
   out = A z; dots[0] = (u, out), dots[1] = (out, out), and with nd = 3
   dots[2] = (q, q): sweep 1's and sweep 2's dots (backend.h). */
static PetscErrorCode EasKspBiCGStabILUSweep(EasKsp ksp, const EasDiaKernel *k, PetscInt form, PetscScalar c1, PetscScalar c2, const PetscScalar *r, const PetscScalar *v, PetscScalar *q, PetscScalar *z, PetscScalar *work, PetscScalar *out, const PetscScalar *u, PetscInt nd, PetscScalar dots[])
{
  EasBackend be = ksp->op.be;
  PetscInt   n  = k->n;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(EAS_IluApply, 0, 0, 0, 0));
  PetscCall(EasKspILUApply(ksp, k, form, c1, c2, r, v, q, z, work));
  PetscCall(PetscLogEventEnd(EAS_IluApply, 0, 0, 0, 0));
  if (be->ops->dia_mult_dots) /* the product and its dot products in one pass */
    PetscCall((*be->ops->dia_mult_dots)(be, k, z, out, u, q, nd, dots));
  else {
    PetscCall((*be->ops->dia_mult)(be, k, z, out));
    PetscCall((*be->ops->dot_local)(be, n, u, out, &dots[0]));
    PetscCall((*be->ops->dot_local)(be, n, out, out, &dots[1]));
    if (nd > 2) PetscCall((*be->ops->dot_local)(be, n, q, q, &dots[2]));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode EasKspSetUp_BiCGStab(EasKsp ksp)
{
  EasBackend be;
  PetscBool  jacobi, ilu;
  PetscInt   n;

  PetscFunctionBegin;
  PetscCheck(ksp->A, PetscObjectComm((PetscObject)ksp), PETSC_ERR_SUP, "-ksp_type bicgstab needs a DIA operator (EasKspSetOperator); use -ksp_type cg or pipecg with an element-by-element operator");
  PetscCall(PetscStrcmp(ksp->pc_type, EAS_PCPBJACOBI, &jacobi));
  PetscCheck(!jacobi, PetscObjectComm((PetscObject)ksp), PETSC_ERR_SUP, "-pc_type pbjacobi is not available with -ksp_type bicgstab (use jacobi or none)");
  PetscCall(EasDiaGetBackend(ksp->A, &be));
  n = ksp->A->n;
  PetscCall(PetscStrcmp(ksp->pc_type, EAS_PCILU, &ilu));
  for (PetscInt i = 0; i < W_N; i++) {
    if ((be->bcgs_inplace || ilu) && (i == W_P1 || i == W_V1 || i == W_S)) continue; /* p, v, s = r in place */
    if (!ilu && (i == W_Z || i == W_IW)) continue;
    PetscCall(EasVecCreate(be, i == W_IW ? 2 * n : n, &ksp->work[i]));
  }
  ksp->nwork = W_N;
  PetscCall(PetscStrcmp(ksp->pc_type, EAS_PCJACOBI, &jacobi));
  if (jacobi) PetscCall(EasKspBiCGStabJacobi(ksp));
  /* ILU(0) factors this rank's block only; a coupled (distributed) DIA operator would need the off-process part in the preconditioned products */
  PetscCheck(!ilu || !ksp->coupling, PetscObjectComm((PetscObject)ksp), PETSC_ERR_SUP, "-pc_type ilu is not available on a DIA operator with an off-process part (EasKspSetOperatorCoupling: a distributed MATEASDIA); use -pc_type jacobi");
  if (ilu) PetscCall(EasKspBiCGStabILU(ksp, PETSC_TRUE));
  PetscFunctionReturn(0);
}

/* Same pattern, new values: the work vectors stay; with Jacobi, dinv and
   Ahat are recomputed in place, with ILU the factor (a numeric refactor
   in the same storage, e.g. every Newton iteration of EasAdr), else the
   operator's own backend copy is refreshed.  With
   EasKspSetReusePreconditioner the preconditioner stays: Ahat = A D^{-1}
   with the kept D^{-1}; the ILU factor kept, A' regathered. */
static PetscErrorCode EasKspSetUpValues_BiCGStab(EasKsp ksp)
{
  PetscFunctionBegin;
  if (ksp->Ahat && ksp->reuse_pc) {
    const PetscScalar *da;
    PetscCall(EasVecGetArrayRead(ksp->dinv, &da));
    PetscCall(EasDiaColumnScaleValues_Private(ksp->A, da, ksp->Ahat));
    PetscCall(EasVecRestoreArrayRead(ksp->dinv, &da));
    PetscCall(EasDiaSetUp(ksp->Ahat));
  } else if (ksp->Ahat)
    PetscCall(EasKspBiCGStabJacobi(ksp));
  else if (ksp->ilu_f)
    PetscCall(EasKspBiCGStabILU(ksp, (PetscBool)!ksp->reuse_pc));
  else
    PetscCall(EasDiaSetUp(ksp->A));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasKspSolve_BiCGStab(EasKsp ksp, EasVec b, EasVec x)
{
  EasDia              A = ksp->Ahat ? ksp->Ahat : (ksp->ilu_Ap ? ksp->ilu_Ap : ksp->A); /* -pc_ilu_axes: the whole solve on A' = P A P' */
  EasBackend          be;
  const EasDiaKernel *k = NULL;
  EasVec             *w = ksp->work;
  PetscScalar        *r, *rhat, *p[2], *v[2], *s, *t, *xa, *z = NULL, *iw = NULL, dots[3], rho, rho_old = 1, alpha = 1, omega = 1, beta = 0, rv;
  PetscReal           rnorm, hnorm;
  const PetscReal     tol = EAS_KSP_BREAKDOWN_RTOL;
  PetscInt            cur = 0, n   = A->n;
  PetscBool           inplace, ilu = ksp->ilu_f ? PETSC_TRUE : PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(EasDiaGetBackend(A, &be));
  inplace = (PetscBool)(be->bcgs_inplace || ilu);
  if (ilu && ksp->ilu_zero_row >= 0) { /* the factorization failed: a reason, as PETSc's PCILU gives */
    PetscCall(EasVecSet(x, 0.0));
    ksp->reason = KSP_DIVERGED_PC_FAILED;
    ksp->its    = 0;
    PetscCall(PetscInfo(ksp, "ILU(0) has a zero or non-finite pivot in row %" PetscInt_FMT ": no solve\n", ksp->ilu_zero_row));
    PetscFunctionReturn(0);
  }
  PetscCall(EasDiaGetKernel_Private(A, &k));
  /* x <- 0;  r <- b (-pc_ilu_axes: r <- P b);  rhat <- r;  p = v = 0 */
  PetscCall(EasVecSet(x, 0.0));
  if (ksp->ilu_Ap) {
    const PetscScalar *ba;
    PetscCall(EasVecGetBackendArrayRead(b, &ba));
    PetscCall(EasVecGetBackendArrayWrite(w[W_R], &r));
    PetscCall((*be->ops->gather)(be, n, ksp->ilu_perm, ba, r));
  } else
    PetscCall(EasVecCopy(b, w[W_R]));
  PetscCall(EasVecCopy(w[W_R], w[W_RHAT]));
  PetscCall(EasVecSet(w[W_P0], 0.0));
  PetscCall(EasVecSet(w[W_V0], 0.0));
  PetscCall(EasVecGetBackendArray(x, &xa));
  PetscCall(EasVecGetBackendArray(w[W_R], &r));
  PetscCall(EasVecGetBackendArray(w[W_RHAT], &rhat));
  PetscCall(EasVecGetBackendArray(w[W_P0], &p[0]));
  PetscCall(EasVecGetBackendArray(w[W_V0], &v[0]));
  if (inplace) { /* p_new = p_old, v_new = v_old, s = r (backend.h, bcgs_inplace) */
    p[1] = p[0];
    v[1] = v[0];
    s    = r;
  } else {
    PetscCall(EasVecGetBackendArray(w[W_P1], &p[1]));
    PetscCall(EasVecGetBackendArray(w[W_V1], &v[1]));
    PetscCall(EasVecGetBackendArray(w[W_S], &s));
  }
  PetscCall(EasVecGetBackendArray(w[W_T], &t));
  if (ilu) {
    PetscCall(EasVecGetBackendArray(w[W_Z], &z));
    PetscCall(EasVecGetBackendArray(w[W_IW], &iw));
  }

  /* rho = (rhat, r) = ||r||^2 */
  PetscCall(PetscLogEventBegin(EAS_VecDot, 0, 0, 0, 0));
  PetscCall((*be->ops->dot_local)(be, n, r, r, &rho));
  PetscCall(PetscLogEventEnd(EAS_VecDot, 0, 0, 0, 0));
  PetscCall(EasKspAllreduce_Private(ksp, &rho, 1));
  rnorm = PetscSqrtReal(PetscAbsScalar(rho));
  hnorm = rnorm; /* ||rhat|| */
  PetscCall(EasKspLogResidual_Private(ksp, 0, rnorm));

  for (PetscInt it = 1; !ksp->reason; it++) {
    const PetscInt nxt = ilu ? cur : 1 - cur;

    /* p <- r + beta (p - omega v);  v <- A p (ilu: v <- A M^{-1} p);  rv = (rhat, v), ||v||^2 */
    PetscCall(PetscLogEventBegin(EAS_BcgsSweep1, 0, 0, 0, 0));
    if (ilu)
      PetscCall(EasKspBiCGStabILUSweep(ksp, k, 1, beta, omega, r, v[cur], p[cur], z, iw, v[cur], rhat, 2, dots));
    else
      PetscCall((*be->ops->bcgs_sweep1)(be, k, beta, omega, r, p[cur], v[cur], rhat, p[nxt], v[nxt], dots));
    PetscCall(PetscLogEventEnd(EAS_BcgsSweep1, 0, 0, 0, 0));
    PetscCall(EasKspBiCGStabCouple(ksp, be, p[nxt], v[nxt], rhat, dots)); /* v += C p~ (distributed DIA) */
    PetscCall(EasKspAllreduce_Private(ksp, dots, 2));
    rv = dots[0];
    if (PetscIsInfOrNanScalar(rv) || PetscIsInfOrNanScalar(dots[1])) {
      ksp->reason = KSP_DIVERGED_NANORINF;
      ksp->its    = it;
      break;
    }
    /* breakdown: rhat orthogonal to v = A p, |(rhat, v)| <= eps^2 ||rhat|| ||v||.  As p shrinks with r,
       (rhat, A p) legitimately becomes small relative to ||rhat|| ||A p|| (rhat = r_0 is fixed), as
       (rhat, r) does below: a cosine of 100 eps stopped the 16^3 diurnal run at dt 3600 after a
       10^-7 reduction, where PETSc's KSPBCGS (exact-zero test) converged. */
    if (PetscAbsScalar(rv) <= PETSC_MACHINE_EPSILON * PETSC_MACHINE_EPSILON * hnorm * PetscSqrtReal(PetscAbsScalar(dots[1]))) {
      ksp->reason = KSP_DIVERGED_BREAKDOWN;
      ksp->its    = it;
      PetscCall(PetscInfo(ksp, "BiCGStab breakdown at iteration %" PetscInt_FMT ": |(rhat, A p)| = %g <= %g ||rhat|| ||A p||\n", it, (double)PetscAbsScalar(rv), (double)tol));
      break;
    }
    alpha = rho / rv; /* alpha = rho / (rhat, v) */

    /* s <- r - alpha v;  t <- A s (ilu: t <- A M^{-1} s);  omega = (t, s) / (t, t), ||s||^2 */
    PetscCall(PetscLogEventBegin(EAS_BcgsSweep2, 0, 0, 0, 0));
    if (ilu)
      PetscCall(EasKspBiCGStabILUSweep(ksp, k, 2, alpha, 0.0, r, v[nxt], s, z, iw, t, s, 3, dots));
    else
      PetscCall((*be->ops->bcgs_sweep2)(be, k, alpha, r, v[nxt], s, t, dots));
    PetscCall(PetscLogEventEnd(EAS_BcgsSweep2, 0, 0, 0, 0));
    PetscCall(EasKspBiCGStabCouple(ksp, be, s, t, s, dots)); /* t += C s~: (t, s), (t, t) corrected */
    PetscCall(EasKspAllreduce_Private(ksp, dots, 3));
    if (dots[2] == 0.0)
      omega = 0.0; /* s = 0: x += alpha p is exact, the residual test below ends the solve */
    else if (PetscAbsScalar(dots[0]) <= tol * PetscSqrtReal(PetscAbsScalar(dots[1]) * PetscAbsScalar(dots[2]))) {
      /* breakdown (stagnation): t = A s (numerically) orthogonal to s, |(t, s)| <= tol ||t|| ||s|| */
      ksp->reason = KSP_DIVERGED_BREAKDOWN;
      ksp->its    = it;
      PetscCall(PetscInfo(ksp, "BiCGStab breakdown at iteration %" PetscInt_FMT ": |(A s, s)| = %g <= %g ||A s|| ||s||\n", it, (double)PetscAbsScalar(dots[0]), (double)tol));
      break;
    } else
      omega = dots[0] / dots[1];

    /* x <- x + alpha p + omega s;  r <- s - omega t;  rho = (rhat, r), ||r||^2 */
    PetscCall(PetscLogEventBegin(EAS_BcgsSweep3, 0, 0, 0, 0));
    PetscCall((*be->ops->bcgs_sweep3)(be, n, alpha, omega, xa, p[nxt], s, t, rhat, r, dots));
    PetscCall(PetscLogEventEnd(EAS_BcgsSweep3, 0, 0, 0, 0));
    PetscCall(EasKspAllreduce_Private(ksp, dots, 2));
    rnorm = PetscSqrtReal(PetscAbsScalar(dots[1]));
    PetscCall(EasKspLogResidual_Private(ksp, it, rnorm));
    if (ksp->reason) break;

    rho_old = rho;
    rho     = dots[0];
    /* breakdown: omega = 0, or rhat orthogonal to r: |(rhat, r)| <= eps^2 ||rhat|| ||r|| (a cosine
       far below round-off: as r shrinks, (rhat, r) legitimately becomes small relative to
       ||rhat|| ||r||, so this test is not the tol of the two above) */
    if (omega == 0.0 || PetscAbsScalar(rho) <= PETSC_MACHINE_EPSILON * PETSC_MACHINE_EPSILON * hnorm * rnorm) {
      ksp->reason = KSP_DIVERGED_BREAKDOWN;
      ksp->its    = it;
      PetscCall(PetscInfo(ksp, "BiCGStab breakdown at iteration %" PetscInt_FMT ": omega = %g, |(rhat, r)| = %g\n", it, (double)omega, (double)PetscAbsScalar(rho)));
      break;
    }
    beta = (rho / rho_old) * (alpha / omega); /* beta = (rho_i / rho_{i-1}) (alpha / omega) */
    cur  = nxt;
  }
  /* x = D^{-1} y for right Jacobi, x = M^{-1} y for ILU (t is free now) */
  if (ksp->dinv) PetscCall(EasVecPointwiseMult(x, ksp->dinv, x));
  if (ilu) {
    PetscCall(PetscLogEventBegin(EAS_IluApply, 0, 0, 0, 0));
    PetscCall(EasKspILUApply(ksp, k, 0, 0.0, 0.0, NULL, NULL, xa, t, iw));
    PetscCall(PetscLogEventEnd(EAS_IluApply, 0, 0, 0, 0));
    if (ksp->ilu_Ap)
      PetscCall((*be->ops->gather)(be, n, ksp->ilu_iperm, t, xa)); /* x = P' x' */
    else
      PetscCall(EasVecCopy(w[W_T], x));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode EasKspView_BiCGStab(EasKsp ksp, PetscViewer viewer)
{
  EasPrecision prec    = EAS_PRECISION_DOUBLE;
  EasDia       A       = ksp->Ahat ? ksp->Ahat : ksp->A;
  PetscInt     nd      = 9;
  PetscBool    inplace = PETSC_FALSE;

  PetscFunctionBegin;
  if (A) {
    EasBackend be;
    PetscCall(EasDiaGetPrecision(A, &prec));
    PetscCall(EasDiaGetBackend(A, &be));
    nd      = A->ndiag;
    inplace = be->bcgs_inplace;
  }
  /* the byte count follows the values the sweeps read (EasDiaSetPrecision) */
  PetscCall(PetscViewerASCIIPrintf(viewer, "BiCGStab, three fused sweeps per iteration (%g bytes/row counted, %g moved with the write allocates, with %" PetscInt_FMT " offsets and %s values%s)\n", EAS_BCGS_BYTES_PER_ROW_PREC(nd, prec == EAS_PRECISION_SINGLE ? 4.0 : 8.0), EAS_BCGS_BYTES_MOVED_PER_ROW_BE(nd, prec == EAS_PRECISION_SINGLE ? 4.0 : 8.0, inplace), nd, EasPrecisions[prec], inplace ? ", p, v, r updated in place" : ""));
  if (ksp->ilu_f) {
    EasBackend be = ksp->op.be;
    char       pat[64];
    PetscInt   fnd;
    if (ksp->ilu_perm)
      PetscCall(PetscSNPrintf(pat, sizeof(pat), "of P A P' (axes %s) on %" PetscInt_FMT " offsets", ksp->ilu_axes, ksp->ilu_k.ndiag));
    else if (ksp->ilu_levels > 0)
      PetscCall(PetscSNPrintf(pat, sizeof(pat), "on %" PetscInt_FMT " offsets (the operator's %" PetscInt_FMT " and their level-%" PetscInt_FMT " fill)", ksp->ilu_k.ndiag, ksp->A->ndiag, ksp->ilu_levels));
    else
      PetscCall(PetscStrncpy(pat, "in the operator's DIA pattern", sizeof(pat)));
    PetscCall(EasKspGetILUOffsets(ksp, &fnd, NULL));
    if (be->ilu_iterative)
      PetscCall(PetscViewerASCIIPrintf(viewer, "ILU(%" PetscInt_FMT ") %s, parallel form (Chow-Patel): %" PetscInt_FMT " factor sweeps, %" PetscInt_FMT " Jacobi sweeps per triangular solve; factor read in %s\n", ksp->ilu_levels, pat, ksp->ilu_factor_sweeps, ksp->ilu_solve_sweeps, EasPrecisions[ksp->ilu_prec]));
    else
      PetscCall(PetscViewerASCIIPrintf(viewer, "ILU(%" PetscInt_FMT ") %s, exact (sequential factorization and substitutions); factor read in %s, %g bytes/row moved per application\n", ksp->ilu_levels, pat, EasPrecisions[ksp->ilu_prec], EAS_ILU_APPLY_BYTES_MOVED_PER_ROW(fnd, ksp->ilu_prec == EAS_PRECISION_SINGLE ? 4.0 : 8.0)));
    if (ksp->ilu_zero_row >= 0) PetscCall(PetscViewerASCIIPrintf(viewer, "ILU(%" PetscInt_FMT ") failed: zero or non-finite pivot in row %" PetscInt_FMT "\n", ksp->ilu_levels, ksp->ilu_zero_row));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode EasKspCreate_BiCGStab(EasKsp ksp)
{
  PetscFunctionBegin;
  ksp->ops->setup        = EasKspSetUp_BiCGStab;
  ksp->ops->setup_values = EasKspSetUpValues_BiCGStab;
  ksp->ops->solve        = EasKspSolve_BiCGStab;
  ksp->ops->view         = EasKspView_BiCGStab;
  PetscFunctionReturn(0);
}
