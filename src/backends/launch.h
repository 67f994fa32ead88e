/*
  Launch geometry of the CUDA kernels, in plain C so that it is unit-tested
  on the host (tests/test_cuda_host.c) and used unchanged by the CUDA
  backend (cudaimpl.h EasCudaBlocks).

  Every CUDA kernel walks its index range with a grid-stride loop (thread t
  handles t, t + S, t + 2S, ... with S = blocks * threads), so the block
  count may be capped without skipping work: an n larger than the grid
  simply gives each thread several entries.
*/
#pragma once

#include <stddef.h>
#include <stdint.h>

/* Blocks of a grid-stride launch over n items with block threads per block:
   ceil(n / block), at most cap, at least 1 (n <= 0 gives 1: the kernels'
   loops then do nothing, and a zero-block launch would be a CUDA error). */
static inline unsigned EasLaunchBlocks(int64_t n, unsigned block, unsigned cap)
{
  const uint64_t b = n > 0 ? ((uint64_t)n + block - 1) / block : 1;
  return (unsigned)(b < (uint64_t)cap ? b : (uint64_t)cap);
}

/* Entries of [0,n) that thread t of a grid of blocks x block threads handles
   in the grid-stride loop (what the unit test checks sums to n). */
static inline int64_t EasLaunchThreadShare(int64_t n, unsigned blocks, unsigned block, uint64_t t)
{
  const uint64_t stride = (uint64_t)blocks * block;
  if (n <= 0 || t >= (uint64_t)n) return 0;
  return (int64_t)(((uint64_t)n - 1 - t) / stride + 1);
}
