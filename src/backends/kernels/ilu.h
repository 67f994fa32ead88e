/*
  Kernel bodies of ILU(0) on the DIA pattern (kernels.h; -pc_type ilu,
  src/solvers/bicgstab.c): one entry of the factor, one row of each
  triangular solve.  The factors share A's offsets and leading dimension in
  one ndiag x ld array f: the diagonals below dmain (the index of offset 0)
  hold L (unit lower, its 1s not stored), dmain and above hold U, whose
  diagonal is stored inverted, 1/u_ii (as PETSc's factors: the substitution
  then multiplies where it would divide, off the critical path of the
  row-to-row recurrence).  Where entry (row i, diagonal d) of f is, is the
  backend's choice (an EasIluLayout, private to its ilu_factor and
  ilu_apply): by diagonals (as A: a launch's threads, one per row, read
  consecutive entries) or by rows with L and U apart (a row's L entries
  side by side, and its U entries: the forward and backward substitutions
  each read one stream and only their own triangle, and the rows k that
  the factorization of row i reads are a few cache lines each, not nd).
*/
#pragma once

#include "types.h"
#include "bicgstab.h"

/* Where entry (row i, diagonal d) of the factor is (the header): L
   (d < dm) at i rl + d s, U (d >= dm) at b + i ru + (d - dm) s. */
typedef struct {
  EasKInt dm, rl, ru, s;
  EasKIdx b;
} EasIluLayout;

static inline EAS_HOST_DEVICE_INLINE EasKIdx EasIluAt(EasIluLayout L, EasKInt d, EasKIdx i)
{
  return d < L.dm ? i * L.rl + (EasKIdx)d * L.s : L.b + i * L.ru + (EasKIdx)(d - L.dm) * L.s;
}

/* By diagonals, as A: entry (i, d) at d ld + i. */
static inline EAS_HOST_DEVICE_INLINE EasIluLayout EasIluLayoutByDiagonals(EasKInt dm, EasKInt ld)
{
  EasIluLayout L;
  L.dm = dm;
  L.rl = L.ru = 1;
  L.s         = ld;
  L.b         = (EasKIdx)dm * ld;
  return L;
}

/* By rows, L and U apart: row i's dm L entries at i dm, its nd - dm U
   entries (the diagonal first) at dm ld + i (nd - dm); ld >= n rows. */
static inline EAS_HOST_DEVICE_INLINE EasIluLayout EasIluLayoutByRows(EasKInt nd, EasKInt dm, EasKInt ld)
{
  EasIluLayout L;
  L.dm = dm;
  L.rl = dm;
  L.ru = nd - dm;
  L.s  = 1;
  L.b  = (EasKIdx)dm * ld;
  return L;
}

/* The pair table pt of a factor on nd offsets (EasIluPairTable,
   src/solvers/bicgstab.c): pt[g] .. pt[g+1] (g < nd) delimit entry g's
   pairs, pt[nd] is the table's length, pt[nd+1+g] (EasIluAMap) is the
   diagonal of A's values that the factor's diagonal g starts from (-1: a
   fill diagonal, 0), and the pairs follow. */
static inline EAS_HOST_DEVICE_INLINE const EasKInt *EasIluAMap(const EasKInt *pt, EasKInt nd)
{
  return pt + nd + 1;
}

/* Entry (i, i+off[g]) of the ILU(0) factor (Chow and Patel eq. 2.2):
     l_ij = (a_ij - sum_{k<j} l_ik u_kj) / u_jj   (g < dmain, j < i)
     u_ij =  a_ij - sum_{k<i} l_ik u_kj           (g > dmain; g = dmain: 1/u_ii)
   the sums over the pattern's k = i+off[d] with off[d] < min(off[g], 0)
   whose u_kj is in the pattern too, at diagonal e (off[e] = off[g] -
   off[d]) of row k.  Those (d, e) pairs are listed in the pair table pt:
   entry g's are pt[t] = d, pt[t+1] = e for t = pt[g], pt[g] + 2, ...,
   pt[g+1] - 2, d ascending, so the sum visits only the stored products (a
   stencil's ILU(k) stores a few of the nd x dmain candidates).  a: A's
   values (leading dimension lda; a_ij on A's diagonal EasIluAMap(pt,
   nd)[g], or 0), f: the factor's current values (layout lay).  Columns
   outside [0,n) give 0.  guard 0: an interior row (every column in
   [0,n)), the column tests compiled out. */
static inline EAS_HOST_DEVICE EasKScalar EasIluEntry(EasKInt i, EasKInt g, int guard, EasKInt n, EasKInt nd, EasKInt dmain, const EasKInt *off, const EasKInt *pt, const EasKScalar *a, EasKInt lda, const EasKScalar *f, EasIluLayout lay)
{
  const EasKIdx j  = (EasKIdx)i + off[g];
  const EasKInt ag = EasIluAMap(pt, nd)[g];
  EasKScalar    s;
  if (guard && (j < 0 || j >= n)) return 0.0;
  s = ag >= 0 ? a[(EasKIdx)ag * lda + i] : 0.0;
  for (EasKInt t = pt[g]; t < pt[g + 1]; t += 2) {
    const EasKInt d = pt[t], e = pt[t + 1];
    const EasKIdx k = (EasKIdx)i + off[d];
    if (guard && k < 0) continue;
    s -= f[EasIluAt(lay, d, i)] * f[EasIluAt(lay, e, k)];
  }
  return g < dmain ? s * f[EasIluAt(lay, dmain, j)] : (g == dmain ? 1.0 / s : s);
}

/* The pair table resolved to a layout, for the interior rows
   (EasIluEntryInterior): the pair pt[t], pt[t+1] = (d, e) of any entry
   becomes po[t - pt[0]] = d s, where l_ik is from row i's L base i rl, and
   po[t - pt[0] + 1] = off[d] ru + (e - dm) s, where u_kj (k = i + off[d])
   is from row i's U base b + i ru (EasIluAt; e > dm: a pair's u_kj is
   never a diagonal).  pt[nd] - pt[0] entries. */
static inline void EasIluPairPlaces(EasIluLayout lay, EasKInt nd, const EasKInt *off, const EasKInt *pt, EasKIdx *po)
{
  for (EasKInt t = pt[0]; t < pt[nd]; t += 2) {
    po[t - pt[0]]     = (EasKIdx)pt[t] * lay.s;
    po[t - pt[0] + 1] = (EasKIdx)off[pt[t]] * lay.ru + (EasKIdx)(pt[t + 1] - lay.dm) * lay.s;
  }
}

/* EasIluEntry in an interior row i (every column in [0,n)), its pairs
   through their places po (EasIluPairPlaces) from the row's bases fl = f +
   i rl (L) and fu = f + b + i ru (U): the same sums in the same order,
   without the table's indices, the column tests and the layout's index
   arithmetic per pair.  a_ij: A's value (0 for a fill entry). */
static inline EAS_HOST_DEVICE_INLINE EasKScalar EasIluEntryInterior(EasKInt g, EasKInt dmain, const EasKInt *off, const EasKInt *pt, const EasKIdx *po, EasKScalar a_ij, const EasKScalar *fl, const EasKScalar *fu, EasIluLayout lay)
{
  EasKScalar     s = a_ij;
  const EasKIdx *q = po + (pt[g] - pt[0]), *qe = po + (pt[g + 1] - pt[0]);
  for (; q < qe; q += 2) s -= fl[q[0]] * fu[q[1]];
  return g < dmain ? s * fu[(EasKIdx)off[g] * lay.ru] : (g == dmain ? 1.0 / s : s);
}

/* The starting guess of the parallel iteration at entry (i, i+off[g]) (Chow
   and Patel Section 3.2: L and U the lower and upper parts of A, L scaled
   to a unit diagonal): a_ij / a_jj below the diagonal, 1/a_ii on it, a_ij
   above (A's values through EasIluAMap, as EasIluEntry). */
static inline EAS_HOST_DEVICE EasKScalar EasIluInitialEntry(EasKInt i, EasKInt g, EasKInt n, EasKInt nd, EasKInt dmain, const EasKInt *off, const EasKInt *pt, const EasKScalar *a, EasKInt lda)
{
  const EasKIdx  j  = (EasKIdx)i + off[g];
  const EasKInt *am = EasIluAMap(pt, nd);
  EasKScalar     v;
  if (j < 0 || j >= n) return 0.0;
  v = am[g] >= 0 ? a[(EasKIdx)am[g] * lda + i] : 0.0;
  return g < dmain ? v / a[(EasKIdx)am[dmain] * lda + j] : (g == dmain ? 1.0 / v : v);
}

/* The substitution row bodies, written once for each precision of the
   factor's values (-pc_ilu_precision, EasKspSetILUPrecision):
   EAS_ILU_ROW_BODIES(SUF, VT) defines EasIluLowerRow##SUF,
   EasIluUpperRow##SUF and EasIluDiagEntry##SUF for a factor f of type VT;
   the vectors and the sums stay EasKScalar (double) in both.  Instantiated
   below for double (no suffix) and float (suffix _F).

   EasIluLowerRow: row i of L y = x: x_i - sum_{off[d]<0} l_{i,i+off[d]}
   y_{i+off[d]}.  In place in ascending rows (y's earlier rows final):
   forward substitution; from the previous iterate y^k: one Jacobi sweep
   y^{k+1} = x - (L - I) y^k.
   EasIluUpperRow: row i of U z = y: (y_i - sum_{off[d]>0} u_{i,i+off[d]}
   z_{i+off[d]}) / u_ii (times the stored 1/u_ii).  In place in descending
   rows: backward substitution; from z^k: one Jacobi sweep z^{k+1} = D^{-1}
   (y - (U - D) z^k).
   EasIluDiagEntry: z^0 = D^{-1} y of the parallel backward solve, entry i
   (f's diagonal holds 1/u_ii).
   guard 0: an interior row (every column in [0,n)), the test compiled out. */
#define EAS_ILU_ROW_BODIES(SUF, VT)                                                                                                                                                                                            \
  static inline EAS_HOST_DEVICE_INLINE EasKScalar EasIluLowerRow##SUF(EasKInt i, int guard, EasKInt dmain, const EasKInt *off, const VT *f, EasIluLayout lay, const EasKScalar *x, const EasKScalar *y)                        \
  {                                                                                                                                                                                                                            \
    EasKScalar s = x[i];                                                                                                                                                                                                       \
    for (EasKInt d = 0; d < dmain; d++) {                                                                                                                                                                                      \
      const EasKIdx j = (EasKIdx)i + off[d];                                                                                                                                                                                   \
      if (!guard || j >= 0) s -= (EasKScalar)f[EasIluAt(lay, d, i)] * y[j];                                                                                                                                                    \
    }                                                                                                                                                                                                                          \
    return s;                                                                                                                                                                                                                  \
  }                                                                                                                                                                                                                            \
  static inline EAS_HOST_DEVICE_INLINE EasKScalar EasIluUpperRow##SUF(EasKInt i, int guard, EasKInt n, EasKInt nd, EasKInt dmain, const EasKInt *off, const VT *f, EasIluLayout lay, const EasKScalar *y, const EasKScalar *z) \
  {                                                                                                                                                                                                                            \
    EasKScalar s = y[i];                                                                                                                                                                                                       \
    for (EasKInt d = dmain + 1; d < nd; d++) {                                                                                                                                                                                 \
      const EasKIdx j = (EasKIdx)i + off[d];                                                                                                                                                                                   \
      if (!guard || j < n) s -= (EasKScalar)f[EasIluAt(lay, d, i)] * z[j];                                                                                                                                                     \
    }                                                                                                                                                                                                                          \
    return s * (EasKScalar)f[EasIluAt(lay, dmain, i)];                                                                                                                                                                         \
  }                                                                                                                                                                                                                            \
  static inline EAS_HOST_DEVICE_INLINE EasKScalar EasIluDiagEntry##SUF(EasKInt i, EasKInt dmain, const VT *f, EasIluLayout lay, const EasKScalar *y)                                                                           \
  {                                                                                                                                                                                                                            \
    return y[i] * (EasKScalar)f[EasIluAt(lay, dmain, i)];                                                                                                                                                                      \
  }
/* clang-format off */
EAS_ILU_ROW_BODIES(, EasKScalar)
EAS_ILU_ROW_BODIES(_F, float)
/* clang-format on */

/* The factor's values rounded to float (-pc_ilu_precision single), entry k:
   rounded to nearest, as the DIA's single-precision copy. */
static inline EAS_HOST_DEVICE_INLINE float EasIluSingleEntry(EasKScalar v)
{
  return (float)v;
}

/* The input of a preconditioner application, entry i, formed on the fly
   (the BiCGStab sweeps, bicgstab.h): form 1: p_i = r_i + c1 (p_i - c2 v_i)
   (the direction, EasBcgsDirection), form 2: p_i = r_i - c1 v_i (s,
   EasBcgsSEntry), form 0: p_i as given.  Returns the new p_i. */
static inline EAS_HOST_DEVICE_INLINE EasKScalar EasIluInputEntry(EasKInt i, int form, EasKScalar c1, EasKScalar c2, const EasKScalar *r, const EasKScalar *v, const EasKScalar *p)
{
  if (form == 1) return EasBcgsDirection(r[i], p[i], v[i], c1, c2);
  if (form == 2) return EasBcgsSEntry(r[i], v[i], c1);
  return p[i];
}

/* A pivot the factor cannot use, from its stored inverse 1/u_ii: u_ii = 0
   (1/u_ii infinite), or not finite (a diverged parallel iteration). */
static inline EAS_HOST_DEVICE_INLINE int EasIluBadPivot(EasKScalar uinv)
{
  return !(uinv != 0.0 && uinv - uinv == 0.0);
}
