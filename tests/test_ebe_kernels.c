static const char help[] = "Host tests of the EBE and CG kernel bodies shared by the CPU and CUDA backends (src/backends/kernels.h)\n"
                           "against dense references (hand-derived numbers: the dense product), every element storage\n"
                           "(full, packed symmetric, double, float) for element orders 1..81; the device layout (elements\n"
                           "interleaved by warps) through the CUDA apply kernel's body run over (block, thread), atomic and\n"
                           "per colour, against the host layout's body to 1e-14 relative (max norm).  -trials <k>\n";

#include <eas.h>
#include "backends/kernels.h"
#include "backends/launch.h" /* EasLaunchBlocks: the CUDA grid */

/* The device layout (EasEbeLaneBase) and the CUDA apply kernel's body
   (EasEbeApplyThread) run over every (block, thread) of its grid, against
   the host layout's body element after element: nel elements not a
   multiple of the batch, a range [e0,e1) starting inside a batch, every
   storage; atomic (one launch) and per colour (three colours, elements
   e % 3).  Counts the checks and the failures. */
static PetscErrorCode CheckLanes(PetscRandom rnd, int nen, int dof, PetscInt *nchecks, PetscInt *nfail)
{
  const int nel = 70, e0 = 5, e1 = 67, nnodes = 60, m = nen * dof, L = EAS_EBE_LANES;
  const int npad = (nel + L - 1) / L * L;
  int      *conn, cel[70], cptr[4];
  double   *A, *x, *yref, *y, *vd, *ld;
  float    *vf, *lf;

  PetscFunctionBegin;
  PetscCall(PetscMalloc4(nel * nen, &conn, (size_t)nel * m * m, &A, nnodes * dof, &x, nnodes * dof, &yref));
  PetscCall(PetscMalloc5(nnodes * dof, &y, (size_t)nel * m * m, &vd, (size_t)nel * m * m, &vf, (size_t)npad * m * m, &ld, (size_t)npad * m * m, &lf));
  for (int e = 0; e < nel; e++)
    for (int a = 0; a < nen; a++) conn[e * nen + a] = (7 * a + 13 * e) % nnodes; /* distinct within an element */
  for (int e = 0; e < nel; e++)
    for (int i = 0; i < m; i++)
      for (int j = 0; j <= i; j++) {
        PetscCall(PetscRandomGetValueReal(rnd, &A[((size_t)e * m + i) * m + j]));
        A[((size_t)e * m + j) * m + i] = A[((size_t)e * m + i) * m + j];
      }
  for (int i = 0; i < nnodes * dof; i++) PetscCall(PetscRandomGetValueReal(rnd, &x[i]));
  for (int c = 0, k = 0; c < 3; c++) { /* colours e % 3, ascending inside a colour */
    cptr[c] = k;
    for (int e = c; e < nel; e += 3) cel[k++] = e;
    cptr[c + 1] = k;
  }
  for (int st = EAS_EBE_ST_FULL; st <= EAS_EBE_ST_SYMMETRIC_SINGLE; st++) {
    const int     single = st == EAS_EBE_ST_SINGLE || st == EAS_EBE_ST_SYMMETRIC_SINGLE;
    const int     sym    = st == EAS_EBE_ST_SYMMETRIC || st == EAS_EBE_ST_SYMMETRIC_SINGLE;
    const EasKIdx nv     = sym ? (EasKIdx)m * (m + 1) / 2 : (EasKIdx)m * m;
    const double  tol    = 1e-14;
    for (int e = 0; e < nel; e++) /* host layout, then the device layout of the same values */
      for (int i = 0; i < m; i++)
        for (int j = sym ? i : 0; j < m; j++) {
          const EasKIdx k = sym ? EasEbeSymRowStart(i, m) + (j - i) : (EasKIdx)i * m + j;
          const EasKIdx l = EasEbeLaneBase(e, nv, L) + k * L;
          (*nchecks)++;
          if (l < 0 || l >= (EasKIdx)npad * nv) (*nfail)++; /* inside the padded batches */
          vd[e * nv + k] = ld[l] = A[((size_t)e * m + i) * m + j];
          vf[e * nv + k] = lf[l] = (float)A[((size_t)e * m + i) * m + j];
        }
    for (int i = 0; i < nnodes * dof; i++) yref[i] = 0.0;
    for (int e = e0; e < e1; e++) EasEbeElementApplyStorage(e, -1, nen, dof, conn, st, vd, single ? (const void *)vf : (const void *)vd, x, yref);
    for (int atomic = 0; atomic < 2; atomic++) {
      const void *vals = single ? (const void *)lf : (const void *)ld;
      for (int i = 0; i < nnodes * dof; i++) y[i] = 0.0;
      for (int c = 0; c < (atomic ? 1 : 3); c++) {
        int k0 = e0, k1 = e1; /* atomic: the element range; else colour c's slice of [e0,e1) */
        if (!atomic) {
          for (k0 = cptr[c]; k0 < cptr[c + 1] && cel[k0] < e0; k0++) { }
          for (k1 = k0; k1 < cptr[c + 1] && cel[k1] < e1; k1++) { }
        }
        const EasKIdx  n  = EasEbeApplyThreads(atomic, k0, k1);
        const unsigned nb = EasLaunchBlocks((int64_t)n, EAS_EBE_BLOCK, 2); /* a capped grid: the grid-stride loop covers the rest */
        for (unsigned b = 0; b < nb; b++)
          for (unsigned t = 0; t < EAS_EBE_BLOCK; t++)
            for (EasKIdx gid = (EasKIdx)b * EAS_EBE_BLOCK + t; gid < n; gid += (EasKIdx)nb * EAS_EBE_BLOCK) EasEbeApplyThread(gid, atomic, k0, k1, cel, nen, dof, conn, st, vals, x, y);
      }
      double err = 0.0, ref = 0.0; /* max norms: the bodies' SIMD sums round in another order on the host */
      for (int i = 0; i < nnodes * dof; i++) {
        err = PetscMax(err, PetscAbsReal(y[i] - yref[i]));
        ref = PetscMax(ref, PetscAbsReal(yref[i]));
      }
      (*nchecks)++;
      if (!(err <= tol * ref)) (*nfail)++;
    }
  }
  PetscCall(PetscFree4(conn, A, x, yref));
  PetscCall(PetscFree5(y, vd, vf, ld, lf));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscInt     trials = 3, nfail = 0, nchecks = 0;
  PetscRandom  rnd;
  const double tol = 1e-13;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-trials", &trials, NULL));
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 99));
  PetscCall(PetscRandomSeed(rnd));
  PetscCall(PetscRandomSetInterval(rnd, -1.0, 1.0));
  for (PetscInt trial = 0; trial < trials; trial++) {
    const int nen = trial % 2 ? 27 : 8, dof = trial == 2 ? 3 : 1, m = nen * dof, nnodes = 40, nel = 3;
    int       conn[3 * 27];
    double   *A, *x, *y, *yref, *d, *dref, *B, *by;

    PetscCall(PetscMalloc4(nel * m * m, &A, nnodes * dof, &x, nnodes * dof, &y, nnodes * dof, &yref));
    PetscCall(PetscMalloc4(nnodes * dof * dof, &d, nnodes * dof * dof, &dref, nnodes * dof * dof, &B, nnodes * dof, &by));
    for (int e = 0; e < nel; e++)
      for (int a = 0; a < nen; a++) conn[e * nen + a] = (7 * a + 13 * e) % nnodes; /* distinct within an element for nen <= 40 */
    for (int i = 0; i < nel * m * m; i++) PetscCall(PetscRandomGetValueReal(rnd, &A[i]));
    for (int i = 0; i < nnodes * dof; i++) {
      PetscCall(PetscRandomGetValueReal(rnd, &x[i]));
      y[i] = yref[i] = 0.5;
    }
    for (int i = 0; i < nnodes * dof * dof; i++) {
      PetscCall(PetscRandomGetValueReal(rnd, &B[i]));
      d[i] = dref[i] = 0.0;
    }
    for (int e = 0; e < nel; e++) {
      EasEbeElementApply(e, nen, dof, conn, A, x, y, e + 1 < nel ? A + (long)(e + 1) * m * m : NULL); /* with the prefetch of the next element */
      EasEbeElementDiagonal(e, nen, dof, dof, conn, A, d);
      /* dense reference: y += P_e^T A_e P_e x */
      for (int i = 0; i < m; i++) {
        double s = 0;
        for (int j = 0; j < m; j++) s += A[(long)e * m * m + i * m + j] * x[conn[e * nen + j / dof] * dof + j % dof];
        yref[conn[e * nen + i / dof] * dof + i % dof] += s;
      }
      for (int a = 0; a < nen; a++)
        for (int k = 0; k < dof; k++)
          for (int l = 0; l < dof; l++) dref[conn[e * nen + a] * dof * dof + k * dof + l] += A[(long)e * m * m + (a * dof + k) * m + a * dof + l];
    }
    for (int i = 0; i < nnodes * dof; i++, nchecks++)
      if (PetscAbsReal(y[i] - yref[i]) > tol * (1 + PetscAbsReal(yref[i]))) nfail++;
    for (int i = 0; i < nnodes * dof * dof; i++, nchecks++)
      if (PetscAbsReal(d[i] - dref[i]) > tol * (1 + PetscAbsReal(dref[i]))) nfail++;
    /* point-block product */
    for (int b = 0; b < nnodes; b++) EasBlockMultEntry(b, dof, B, x, by);
    for (int b = 0; b < nnodes; b++)
      for (int k = 0; k < dof; k++, nchecks++) {
        double s = 0;
        for (int l = 0; l < dof; l++) s += B[b * dof * dof + k * dof + l] * x[b * dof + l];
        if (PetscAbsReal(by[b * dof + k] - s) > tol * (1 + PetscAbsReal(s))) nfail++;
      }
    /* CG and pipelined CG updates, one entry */
    {
      double p[1] = {0.3}, q[1] = {-0.7}, dv[1] = {2.0}, xx[1] = {1.0}, r[1] = {0.25}, z[1] = {0}, alpha = 0.4, beta = 0.6;
      double ri = EasCgUpdateEntry(0, alpha, p, q, dv, xx, r, z);
      nchecks += 3;
      if (PetscAbsReal(xx[0] - (1.0 + 0.4 * 0.3)) > tol) nfail++;
      if (PetscAbsReal(ri - (0.25 + 0.4 * 0.7)) > tol) nfail++;
      if (PetscAbsReal(z[0] - 2.0 * ri) > tol) nfail++;
      {
        double       zz[1] = {1}, qq[1] = {2}, ss[1] = {3}, pp[1] = {4}, x2[1] = {5}, rr[1] = {6}, uu[1] = {7}, ww[1] = {8}, mm[1] = {9}, nv[1] = {10};
        const double z1 = 10 + beta * 1, q1 = 9 + beta * 2, s1 = 8 + beta * 3, p1 = 7 + beta * 4;
        const double x1 = 5 + alpha * p1, r1 = 6 - alpha * s1, u1 = 7 - alpha * q1, w1 = 8 - alpha * z1;
        EasPipeCgUpdateEntry(0, alpha, beta, dv, zz, qq, ss, pp, x2, rr, uu, ww, mm, nv);
        nchecks += 9;
        if (PetscAbsReal(zz[0] - z1) > tol) nfail++;
        if (PetscAbsReal(qq[0] - q1) > tol) nfail++;
        if (PetscAbsReal(ss[0] - s1) > tol) nfail++;
        if (PetscAbsReal(pp[0] - p1) > tol) nfail++;
        if (PetscAbsReal(x2[0] - x1) > tol) nfail++;
        if (PetscAbsReal(rr[0] - r1) > tol) nfail++;
        if (PetscAbsReal(uu[0] - u1) > tol) nfail++;
        if (PetscAbsReal(ww[0] - w1) > tol) nfail++;
        if (PetscAbsReal(mm[0] - 2.0 * w1) > tol) nfail++;
      }
    }
    PetscCall(PetscFree4(A, x, y, yref));
    PetscCall(PetscFree4(d, dref, B, by));
  }
  /* element storages (kernels_ebe.h): every order m = nen dof from 1 to 81
     (every m mod 4, so the full kernel's groups of four rows end every way),
     a random symmetric element packed by rows (EasEbeSymRowStart), applied in
     each storage (its point-block diagonal from the full values), against the dense
     reference; tol for double, 1e-6 relative to sum |a_ij x_j| for float */
  for (int dof = 1; dof <= 3; dof += 2)
    for (int nen = 1; nen * dof <= EAS_EBE_MAXM && nen <= 40; nen++) {
      const int m = nen * dof, nnodes = 40;
      int       conn[40];
      double   *A, *x, *yref, *ascale, *y, *d, *dref;
      float    *vf;
      double   *vd;

      PetscCall(PetscMalloc5(m * m, &A, nnodes * dof, &x, nnodes * dof, &yref, nnodes * dof, &ascale, nnodes * dof, &y));
      PetscCall(PetscMalloc4(nnodes * dof * dof, &d, nnodes * dof * dof, &dref, m * m, &vf, m * m, &vd));
      for (int a = 0; a < nen; a++) conn[a] = (7 * a + 3) % nnodes;
      for (int i = 0; i < m; i++)
        for (int j = 0; j <= i; j++) {
          PetscCall(PetscRandomGetValueReal(rnd, &A[i * m + j]));
          A[j * m + i] = A[i * m + j];
        }
      for (int i = 0; i < nnodes * dof; i++) {
        PetscCall(PetscRandomGetValueReal(rnd, &x[i]));
        yref[i] = ascale[i] = 0.0;
      }
      for (int i = 0; i < nnodes * dof * dof; i++) dref[i] = 0.0;
      for (int i = 0; i < m; i++) {
        const int gi = conn[i / dof] * dof + i % dof;
        for (int j = 0; j < m; j++) {
          yref[gi] += A[i * m + j] * x[conn[j / dof] * dof + j % dof];
          ascale[gi] += PetscAbsReal(A[i * m + j] * x[conn[j / dof] * dof + j % dof]);
        }
      }
      for (int a = 0; a < nen; a++)
        for (int k = 0; k < dof; k++)
          for (int l = 0; l < dof; l++) dref[conn[a] * dof * dof + k * dof + l] += A[(a * dof + k) * m + a * dof + l];
      for (int i = 0; i < nnodes * dof * dof; i++) d[i] = 0.0;
      EasEbeElementDiagonal(0, nen, dof, dof, conn, A, d);
      for (int i = 0; i < nnodes * dof * dof; i++, nchecks++)
        if (PetscAbsReal(d[i] - dref[i]) > tol * (1 + PetscAbsReal(dref[i]))) nfail++;
      for (int st = EAS_EBE_ST_FULL; st <= EAS_EBE_ST_SYMMETRIC_SINGLE; st++) {
        const int    single = st == EAS_EBE_ST_SINGLE || st == EAS_EBE_ST_SYMMETRIC_SINGLE;
        const int    sym    = st == EAS_EBE_ST_SYMMETRIC || st == EAS_EBE_ST_SYMMETRIC_SINGLE;
        const double rt     = single ? 1e-6 : tol;
        for (int i = 0; i < m; i++)
          for (int j = sym ? i : 0; j < m; j++) {
            const EasKIdx k = sym ? EasEbeSymRowStart(i, m) + (j - i) : (EasKIdx)i * m + j;
            if (k < 0 || k >= (sym ? (EasKIdx)m * (m + 1) / 2 : (EasKIdx)m * m)) nfail++; /* inside the element's values */
            vd[k] = A[i * m + j];
            vf[k] = (float)A[i * m + j];
          }
        for (int i = 0; i < nnodes * dof; i++) y[i] = 0.0;
        EasEbeElementApplyStorage(0, -1, nen, dof, conn, st, A, single ? (const void *)vf : (const void *)vd, x, y);
        for (int i = 0; i < nnodes * dof; i++, nchecks++)
          if (PetscAbsReal(y[i] - yref[i]) > rt * (1 + ascale[i])) nfail++;
      }
      PetscCall(PetscFree5(A, x, yref, ascale, y));
      PetscCall(PetscFree4(d, dref, vf, vd));
    }
  PetscCall(CheckLanes(rnd, 8, 1, &nchecks, &nfail));
  PetscCall(CheckLanes(rnd, 27, 3, &nchecks, &nfail));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "EBE/CG kernel bodies: %" PetscInt_FMT " checks against dense references, %" PetscInt_FMT " failures (tol %.0e)\n", nchecks, nfail, tol));
  PetscCheck(nfail == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%" PetscInt_FMT " kernel checks failed", nfail);
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    backends: none
    expect: EBE/CG kernel bodies: [0-9]+ checks against dense references, 0 failures
TEST*/
