/*
  Fault injection for the halo exchange (docs/adr.md): a received
  message is held back from the iterations until delay + U(0, jitter)
  microseconds of wall clock have passed since its arrival, emulating a slow
  network.  The jitter draws come from a seeded xorshift64* generator, one
  stream per rank (-eas_comm_seed), so runs are reproducible.
*/
#include "commimpl.h"

/*
  EasFaultsSetUp - seeds the generator of this rank from faults->seed.
*/
PetscErrorCode EasFaultsSetUp(EasFaults *f, PetscMPIInt rank)
{
  uint64_t s;

  PetscFunctionBegin;
  PetscCheck(f->delay_us >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-eas_comm_delay_us %g is invalid: expected a delay in microseconds >= 0", (double)f->delay_us);
  PetscCheck(f->jitter_us >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-eas_comm_jitter_us %g is invalid: expected a jitter in microseconds >= 0", (double)f->jitter_us);
  /* splitmix64 of (seed, rank): distinct, well-mixed streams */
  s        = (uint64_t)f->seed * 0x9E3779B97F4A7C15ULL + (uint64_t)rank * 0xBF58476D1CE4E5B9ULL + 0x94D049BB133111EBULL;
  s        = (s ^ (s >> 30)) * 0xBF58476D1CE4E5B9ULL;
  s        = (s ^ (s >> 27)) * 0x94D049BB133111EBULL;
  s        = s ^ (s >> 31);
  f->state = s ? s : 0x2545F4914F6CDD1DULL;
  PetscFunctionReturn(0);
}

PetscBool EasFaultsActive(const EasFaults *f)
{
  return (PetscBool)(f->delay_us > 0 || f->jitter_us > 0);
}

/* uniform in [0, 1) from xorshift64* */
static double EasFaultsUniform(EasFaults *f)
{
  uint64_t x = f->state;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  f->state = x;
  return (double)((x * 0x2545F4914F6CDD1DULL) >> 11) * (1.0 / 9007199254740992.0);
}

double EasFaultsReleaseTime(EasFaults *f, double now)
{
  double us = f->delay_us;
  if (f->jitter_us > 0) us += f->jitter_us * EasFaultsUniform(f);
  return now + 1e-6 * us;
}
