/*
  Cache-line aligned host allocation (issue 13, item 4).

  PetscMalloc aligns to PETSC_MEMALIGN (16 B in the Debian build), and a
  large block comes from mmap with a 16 B header, so every array the CPU
  kernels stream started 16 B past a cache line: each 64 B vector load of
  the DIA values and each 64 B store of the result then straddles two cache
  lines.  Measured with a standalone copy of the DIA row loop (9 diagonals,
  n = 128, 2n^3 rows, one thread): 12.0 ms per SpMV with 64 B aligned
  arrays, 16.5 ms with the same arrays shifted by 16 B (read9, 9 read
  streams and 1 write: 9.1 and 10.8 ms).

  EasMallocAligned returns a block of `bytes` starting on a EAS_ALIGN_BYTES
  boundary, carved out of one PetscMalloc (so -malloc_dump still reports a
  leak, at the allocation's caller): the pointer PetscMalloc returned is kept
  in the 8 bytes just below the aligned start.  Free it with EasFreeAligned
  only (PetscFree of the aligned pointer is an error).
*/
#pragma once

#include <petscsys.h>
#include <stdint.h>

#define EAS_ALIGN_BYTES 64

/* *p = a block of bytes (>= 1) bytes aligned to EAS_ALIGN_BYTES; zeroed when zero is true */
static inline PetscErrorCode EasMallocAligned(size_t bytes, PetscBool zero, void **p)
{
  char     *raw;
  uintptr_t a;

  PetscFunctionBegin;
  PetscCall(PetscMalloc(bytes + EAS_ALIGN_BYTES + sizeof(void *), &raw));
  a                = ((uintptr_t)raw + sizeof(void *) + EAS_ALIGN_BYTES - 1) & ~(uintptr_t)(EAS_ALIGN_BYTES - 1);
  ((void **)a)[-1] = raw;
  if (zero) PetscCall(PetscMemzero((void *)a, bytes));
  *p = (void *)a;
  PetscFunctionReturn(0);
}

/* frees a block of EasMallocAligned and sets *p = NULL; NULL is a no-op */
static inline PetscErrorCode EasFreeAligned(void *p)
{
  void **pp = (void **)p;

  PetscFunctionBegin;
  if (*pp) {
    void *raw = ((void **)*pp)[-1];
    PetscCall(PetscFree(raw));
    *pp = NULL;
  }
  PetscFunctionReturn(0);
}
