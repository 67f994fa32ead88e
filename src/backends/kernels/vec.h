/*
  Kernel bodies of the vector ops (kernels.h): y <- a x + b y.
*/
#pragma once

#include "types.h"

/* y <- a x + b y, one entry. */
static inline EAS_HOST_DEVICE EasKScalar EasAxpbyEntry(EasKScalar a, EasKScalar x, EasKScalar b, EasKScalar y)
{
  return a * x + b * y;
}
