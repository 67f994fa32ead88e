/*
  Kernel bodies of the vector ops (kernels.h): y <- a x + b y.
*/
#pragma once

#include "types.h"

/* y_i <- x_{idx_i} (0 where idx_i < 0), one entry: a permutation of a
   vector, or a gather from a longer one. */
static inline EAS_HOST_DEVICE EasKScalar EasGatherEntry(EasKIdx i, const EasKInt *idx, const EasKScalar *x)
{
  return idx[i] >= 0 ? x[idx[i]] : 0.0;
}

/* y <- a x + b y, one entry. */
static inline EAS_HOST_DEVICE EasKScalar EasAxpbyEntry(EasKScalar a, EasKScalar x, EasKScalar b, EasKScalar y)
{
  return a * x + b * y;
}
