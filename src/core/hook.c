/*
  Hook lists: how a solver calls the layers above it without depending on
  them (include/eas/sys.h, "hooks").
*/
#include "hook.h"

const char *const EasHookPoints[] = {"solve_begin", "iteration", "step", "solve_end", "EasHookPoint", "EAS_HOOK_", NULL};

PetscErrorCode EasHookListAdd(MPI_Comm comm, EasHookList *l, EasHookFn fn, void *ctx, PetscErrorCode (*destroy)(void **))
{
  PetscFunctionBegin;
  PetscCheck(fn, comm, PETSC_ERR_ARG_NULL, "the hook function must not be NULL");
  PetscCheck(l->n < EAS_MAX_HOOKS, comm, PETSC_ERR_ARG_OUTOFRANGE, "at most %d hooks per solver", EAS_MAX_HOOKS);
  l->fn[l->n]      = fn;
  l->ctx[l->n]     = ctx;
  l->destroy[l->n] = destroy;
  l->n++;
  PetscFunctionReturn(0);
}

PetscErrorCode EasHookListCall(EasHookList *l, PetscObject solver, const EasHookInfo *info)
{
  PetscFunctionBegin;
  for (PetscInt h = 0; h < l->n; h++) PetscCall((*l->fn[h])(solver, info, l->ctx[h]));
  PetscFunctionReturn(0);
}

PetscErrorCode EasHookListDestroy(EasHookList *l)
{
  PetscFunctionBegin;
  for (PetscInt h = 0; h < l->n; h++)
    if (l->destroy[h]) PetscCall((*l->destroy[h])(&l->ctx[h]));
  l->n = 0;
  PetscFunctionReturn(0);
}
