/*
  Checked size and index products (issue 10, item 5).

  eas stores indices in PetscInt, 32-bit in the Debian PETSc build, so a
  product of sizes such as nel*m*m (element-matrix storage; 400000 Q2
  elasticity elements give 400000*81*81 = 2.6e9 > 2^31 - 1) wraps around
  when it is computed in PetscInt, and the buffer is silently undersized.
  Every size product of an allocation goes through one of these helpers:

  - EasSizeMul(comm, what, elsize, &count, f1, f2, ...): count = f1 f2 ...
    in size_t, for an allocation of count entries of elsize bytes; an error
    if a factor is negative or count*elsize overflows size_t.
  - EasIntMul(comm, what, &prod, f1, f2, ...): prod = f1 f2 ... in PetscInt,
    for a product that is itself used as a PetscInt (a vector length, a loop
    bound, a count passed on as PetscInt); an error if it exceeds
    PETSC_MAX_INT.

  The error names what and the sizes, e.g.
    element storage nel*m*m = 400000*81*81 overflows PetscInt (...)
  Kernel bodies index in 64-bit instead (EasKIdx, backends/kernels.h).
  Both helpers are inline so tests call them directly (tests/test_sizes.c
  checks them exactly at the boundary without allocating anything).
*/
#pragma once

#include <petscsys.h>
#include <stdint.h>

#define EAS_SIZE_MAXFACTORS 8

/* "f[0]*f[1]*..." into buf (the sizes an error names). */
static inline void EasSizeFactorsString_Private(PetscInt n, const PetscInt f[], char buf[], size_t len)
{
  size_t used = 0;

  buf[0] = 0;
  for (PetscInt k = 0; k < n && used + 1 < len; k++) {
    int w = snprintf(buf + used, len - used, k ? "*%" PetscInt_FMT : "%" PetscInt_FMT, f[k]);
    if (w < 0) break;
    used += (size_t)w;
  }
}

/* Returns 1 and sets *prod = f[0] ... f[n-1] when that product times elsize
   is at most limit, 0 otherwise; every step is checked by division before
   it multiplies, so nothing wraps (the callers reject negative factors). */
static inline int EasSizeMulFits_Private(PetscInt n, const PetscInt f[], uint64_t elsize, uint64_t limit, uint64_t *prod)
{
  uint64_t p = 1;

  for (PetscInt k = 0; k < n; k++) {
    const uint64_t a = (uint64_t)f[k];
    if (a && p > limit / a) return 0;
    p *= a;
  }
  if (elsize > 1 && p > limit / elsize) return 0;
  *prod = p;
  return 1;
}

/* EasSizeMul_Private - *count = f[0] ... f[n-1] in size_t, checked so that
   *count * elsize (the bytes of the allocation) fits in size_t.  Errors
   (PETSC_ERR_ARG_OUTOFRANGE) name what and the factors.  Use EasSizeMul(). */
static inline PetscErrorCode EasSizeMul_Private(MPI_Comm comm, const char what[], size_t elsize, PetscInt n, const PetscInt f[], size_t *count)
{
  char     buf[256];
  uint64_t p = 0;

  PetscFunctionBegin;
  PetscCheck(n >= 1 && n <= EAS_SIZE_MAXFACTORS, comm, PETSC_ERR_PLIB, "EasSizeMul: %" PetscInt_FMT " factors for %s, expected 1 to %d", n, what, EAS_SIZE_MAXFACTORS);
  EasSizeFactorsString_Private(n, f, buf, sizeof(buf));
  for (PetscInt k = 0; k < n; k++) PetscCheck(f[k] >= 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "%s = %s: negative size (a PetscInt product overflowed before it got here?)", what, buf);
  PetscCheck(EasSizeMulFits_Private(n, f, (uint64_t)elsize, (uint64_t)SIZE_MAX, &p), comm, PETSC_ERR_ARG_OUTOFRANGE, "%s = %s entries of %zu bytes overflows size_t (at most %zu bytes)", what, buf, elsize, (size_t)SIZE_MAX);
  *count = (size_t)p;
  PetscFunctionReturn(0);
}

/* EasIntMul_Private - *prod = f[0] ... f[n-1] as PetscInt, an error naming
   what and the factors when it exceeds PETSC_MAX_INT.  Use EasIntMul(). */
static inline PetscErrorCode EasIntMul_Private(MPI_Comm comm, const char what[], PetscInt n, const PetscInt f[], PetscInt *prod)
{
  char     buf[256];
  uint64_t p = 0;

  PetscFunctionBegin;
  PetscCheck(n >= 1 && n <= EAS_SIZE_MAXFACTORS, comm, PETSC_ERR_PLIB, "EasIntMul: %" PetscInt_FMT " factors for %s, expected 1 to %d", n, what, EAS_SIZE_MAXFACTORS);
  EasSizeFactorsString_Private(n, f, buf, sizeof(buf));
  for (PetscInt k = 0; k < n; k++) PetscCheck(f[k] >= 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "%s = %s: negative size (a PetscInt product overflowed before it got here?)", what, buf);
  PetscCheck(EasSizeMulFits_Private(n, f, 1, (uint64_t)PETSC_MAX_INT, &p), comm, PETSC_ERR_ARG_OUTOFRANGE, "%s = %s overflows PetscInt (%d-bit indices, at most %" PetscInt_FMT ")", what, buf, (int)(8 * sizeof(PetscInt)), (PetscInt)PETSC_MAX_INT);
  *prod = (PetscInt)p;
  PetscFunctionReturn(0);
}

/* Number of PetscInt arguments of a variadic call (1..EAS_SIZE_MAXFACTORS). */
#define EAS_SIZE_NARGS(...) ((PetscInt)(sizeof((PetscInt[]){__VA_ARGS__}) / sizeof(PetscInt)))

/* EasSizeMul(comm, what, elsize, &count, f1, f2, ...) - checked size_t product
   for an allocation of count entries of elsize bytes (see the top of this file). */
#define EasSizeMul(comm, what, elsize, count, ...) EasSizeMul_Private((comm), (what), (elsize), EAS_SIZE_NARGS(__VA_ARGS__), (const PetscInt[]){__VA_ARGS__}, (count))

/* EasIntMul(comm, what, &prod, f1, f2, ...) - checked PetscInt product (see
   the top of this file). */
#define EasIntMul(comm, what, prod, ...) EasIntMul_Private((comm), (what), EAS_SIZE_NARGS(__VA_ARGS__), (const PetscInt[]){__VA_ARGS__}, (prod))
