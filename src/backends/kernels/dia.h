/*
  Kernel bodies of DIA matrices (kernels.h): the row of y = A x and of
  y = A^T x in each value precision, the float copy, the CSR rows of the
  backend-private copies, right Jacobi (D^{-1} and the column scaling A D^{-1}).
*/
#pragma once

#include "types.h"

/* The DIA row bodies, written once for each value precision (-adr_jacobian_precision,
   EasDiaSetPrecision): EAS_DIA_ROW_BODIES(SUF, VT) defines EasDiaRowGuarded##SUF,
   EasDiaRowInterior##SUF and EasDiaRowTranspose##SUF for values of type VT;
   the vectors and the sums stay EasKScalar (double) in both.  Instantiated
   below for double (no suffix) and float (suffix _F).

   EasDiaRowGuarded: row i of y = A x for DIA storage val[d*ld + i] =
   A[i][i+off[d]], all diagonals read in one row loop (docs/performance.md,
   bench_dia); columns outside [0,n) are skipped, for the first and last rows.
   EasDiaRowInterior: the same for an interior row, every i+off[d] in [0,n).
   EasDiaRowTranspose: row i of y = A^T x by index arithmetic (Vialle et al.
   Fig. 1.8): (A^T x)_i = sum_d A[i-off[d]][i] x[i-off[d]] = sum_d
   val[d*ld + i-off[d]] x[i-off[d]]. */
#define EAS_DIA_ROW_BODIES(SUF, VT)                                                                                                                                         \
  static inline EAS_HOST_DEVICE EasKScalar EasDiaRowGuarded##SUF(EasKInt i, EasKInt n, EasKInt ndiag, const EasKInt *off, const VT *val, EasKInt ld, const EasKScalar *x)   \
  {                                                                                                                                                                         \
    EasKScalar sum = 0.0;                                                                                                                                                   \
    for (EasKInt d = 0; d < ndiag; d++) {                                                                                                                                   \
      const EasKIdx j = (EasKIdx)i + off[d];                                                                                                                                \
      if (j >= 0 && j < n) sum += (EasKScalar)val[(EasKIdx)d * ld + i] * x[j];                                                                                              \
    }                                                                                                                                                                       \
    return sum;                                                                                                                                                             \
  }                                                                                                                                                                         \
  static inline EAS_HOST_DEVICE EasKScalar EasDiaRowInterior##SUF(EasKInt i, EasKInt ndiag, const EasKInt *off, const VT *val, EasKInt ld, const EasKScalar *x)             \
  {                                                                                                                                                                         \
    EasKScalar sum = 0.0;                                                                                                                                                   \
    for (EasKInt d = 0; d < ndiag; d++) sum += (EasKScalar)val[(EasKIdx)d * ld + i] * x[i + off[d]];                                                                        \
    return sum;                                                                                                                                                             \
  }                                                                                                                                                                         \
  static inline EAS_HOST_DEVICE EasKScalar EasDiaRowTranspose##SUF(EasKInt i, EasKInt n, EasKInt ndiag, const EasKInt *off, const VT *val, EasKInt ld, const EasKScalar *x) \
  {                                                                                                                                                                         \
    EasKScalar sum = 0.0;                                                                                                                                                   \
    for (EasKInt d = 0; d < ndiag; d++) {                                                                                                                                   \
      const EasKIdx k = (EasKIdx)i - off[d];                                                                                                                                \
      if (k >= 0 && k < n) sum += (EasKScalar)val[(EasKIdx)d * ld + k] * x[k];                                                                                              \
    }                                                                                                                                                                       \
    return sum;                                                                                                                                                             \
  }
/* clang-format off */
EAS_DIA_ROW_BODIES(, EasKScalar)
EAS_DIA_ROW_BODIES(_F, float)
/* clang-format on */

/* Single-precision values (EasDiaSetPrecision): entry i of the float copy,
   rounded to nearest. */
static inline EAS_HOST_DEVICE float EasDiaSingleEntry(EasKScalar v)
{
  return (float)v;
}

/* Row i of y = A x for a CSR matrix (the backend-private copy of a DIA
   matrix that /cpu/memcheck's csr mode multiplies; zero-based indices). */
static inline EAS_HOST_DEVICE EasKScalar EasCsrRow(EasKInt i, const EasKInt *rowptr, const EasKInt *colind, const EasKScalar *val, const EasKScalar *x)
{
  EasKScalar sum = 0.0;
  for (EasKInt k = rowptr[i]; k < rowptr[i + 1]; k++) sum += val[k] * x[colind[k]];
  return sum;
}

/* Row i's share of y = A^T x for a CSR matrix: y[j] += A[i][j] x[i] over
   row i's columns j (a scatter: rows in sequence, or atomics). */
static inline EAS_HOST_DEVICE void EasCsrRowTransposeScatter(EasKInt i, const EasKInt *rowptr, const EasKInt *colind, const EasKScalar *val, const EasKScalar *x, EasKScalar *y)
{
  for (EasKInt k = rowptr[i]; k < rowptr[i + 1]; k++) y[colind[k]] += val[k] * x[i];
}

/* Right Jacobi (bicgstab.c): entry i of D^{-1} from the main diagonal
   vmain; a zero diagonal gives 0 and returns 1 (the caller reports it). */
static inline EAS_HOST_DEVICE int EasDiaInvDiagEntry(EasKInt i, const EasKScalar *vmain, EasKScalar *dinv)
{
  const EasKScalar d = vmain[i];
  dinv[i]            = d != 0.0 ? 1.0 / d : 0.0;
  return d == 0.0;
}

/* Row i of B = A diag(s), the column-scaled copy A D^{-1}: B[i][i+off[d]] =
   A[i][i+off[d]] s[i+off[d]], zero where the column is outside [0,n). */
static inline EAS_HOST_DEVICE void EasDiaColumnScaleRow(EasKInt i, EasKInt n, EasKInt ndiag, const EasKInt *off, const EasKScalar *val, EasKInt ld, const EasKScalar *s, EasKScalar *out)
{
  for (EasKInt d = 0; d < ndiag; d++) {
    const EasKIdx j          = (EasKIdx)i + off[d];
    out[(EasKIdx)d * ld + i] = (j >= 0 && j < n) ? val[(EasKIdx)d * ld + i] * s[j] : 0.0;
  }
}
