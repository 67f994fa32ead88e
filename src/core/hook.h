/*
  Hook lists (include/eas/sys.h, "hooks"): the functions that layers above a
  solver attached to it, called in the order they were added.
*/
#pragma once

#include <eas/sys.h>

#define EAS_MAX_HOOKS 8

typedef struct {
  PetscInt  n;
  EasHookFn fn[EAS_MAX_HOOKS];
  void     *ctx[EAS_MAX_HOOKS];
  PetscErrorCode (*destroy[EAS_MAX_HOOKS])(void **);
} EasHookList;

/* EasHookListAdd - appends fn (ctx, destroy(&ctx) at EasHookListDestroy).
   Errors: more than EAS_MAX_HOOKS hooks. */
PETSC_INTERN PetscErrorCode EasHookListAdd(MPI_Comm, EasHookList *, EasHookFn, void *ctx, PetscErrorCode (*destroy)(void **));
/* EasHookListCall - calls every hook with info (no-op on an empty list). */
PETSC_INTERN PetscErrorCode EasHookListCall(EasHookList *, PetscObject solver, const EasHookInfo *info);
/* EasHookListDestroy - destroys the contexts and empties the list. */
PETSC_INTERN PetscErrorCode EasHookListDestroy(EasHookList *);
