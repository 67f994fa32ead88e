/*
  The types of the shared kernel bodies (kernels.h) and EAS_HOST_DEVICE, which
  compiles a body for the host (C compiler) and, under nvcc, for the device.
  Only plain C types here: no PETSc, no CUDA runtime.
*/
#pragma once

#if defined(__CUDACC__)
#  define EAS_HOST_DEVICE __host__ __device__
#else
#  define EAS_HOST_DEVICE
#endif

/* EAS_HOST_DEVICE and always inlined: the small bodies that sit inside a
   hot row loop (an index, one entry), which the host compiler would
   otherwise call out of line where a loop is instantiated for many
   compile-time sizes (the CPU's ILU dispatch). */
#if defined(__CUDACC__)
#  define EAS_HOST_DEVICE_INLINE __host__ __device__ /* nvcc inlines bodies this small */
#else
#  define EAS_HOST_DEVICE_INLINE __attribute__((always_inline))
#endif

#include <stddef.h>

/* Index type of the kernels; equal to PetscInt in the Debian (32-bit) build,
   checked at compile time in backend.h.  Row, point, node and element
   numbers are EasKInt. */
typedef int    EasKInt;
typedef double EasKScalar;
/* Offsets into arrays whose length is a product of sizes (diagonal d of a
   DIA matrix at d*ld, face f of the ADR weights at f*np, element e's matrix
   at e*m*m, the padded ADR box) are EasKIdx, 64-bit on 64-bit hosts and
   devices: such a product passes 2^31 - 1 long before the row count does
   (9 diagonals of 2.4e8 rows, 6 faces of 3.6e8 points; issue 10, M2). */
typedef ptrdiff_t EasKIdx;
