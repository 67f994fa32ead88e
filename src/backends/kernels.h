/*
  Kernel bodies shared by the CPU (OpenMP) and CUDA backends.

  Each function computes one row (or one vector entry) and is compiled for the
  host by the C compiler and for the device by nvcc, so both backends run the
  same arithmetic.  The backends add only indexing, launch and reductions.
  Tests call these bodies on the host (tests/test_kernels.c).

  Only plain C types here: no PETSc, no CUDA runtime.
*/
#pragma once

/* One header per subject, in kernels/: */
#include "kernels/types.h"    /* EAS_HOST_DEVICE, EasKInt, EasKScalar, EasKIdx */
#include "kernels/vec.h"      /* vector ops */
#include "kernels/dia.h"      /* DIA rows, CSR rows, right Jacobi */
#include "kernels/bicgstab.h" /* the fused BiCGStab sweeps */
#include "kernels/ilu.h"      /* ILU(0) on the DIA pattern: factor entry, triangular rows */
#include "kernels/ebe.h"      /* the element-by-element operator */
#include "kernels/cg.h"       /* the fused CG updates */
#include "kernels/adr.h"      /* the ADR assembly */
