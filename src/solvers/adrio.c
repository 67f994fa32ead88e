/*
  The ADR solution out, through PETSc's viewers: a DMDA describing the grid
  (dof 2: c1, c2; uniform coordinates of the grid points), so that VecView
  of a DMDA vector writes ParaView's structured VTK (.vts), PETSc binary in
  natural ordering (VecLoad reads it into any DMDA layout) or HDF5 where
  PETSc has it; the values at a few points (-adr_monitor_points); and the
  output times (-adr_output_interval) at which EasAdrSolve shows both.

  Layouts: the solver's global layout (EasAdrCreateGlobalVec) holds each
  rank's box in rank order of its Cartesian communicator (z fastest over
  the process grid), a DMDA numbers its processes x fastest.  The DMDA
  lives on a communicator with the ranks renumbered x fastest, so each
  rank's part of a DMDA vector is its box in the same local order as the
  solver's (i fastest, then j, k; species interleaved): copying the local
  arrays moves a solution between the two.
*/
#include "adrimpl.h"
#include <ctype.h>

/*@C
  EasAdrGetDM - a DMDA describing the solver's grid (borrowed; created at
  first request after EasAdrSetUp): dof 2 (fields "c1", "c2"), the solver's
  decomposition, uniform coordinates of the grid points.  Its global vectors
  (DMCreateGlobalVector) have the solver's local layout on every rank:
  EasAdrGetSolution/EasAdrSetSolution accept them, VecView writes them in
  natural ordering (binary, HDF5) or as ParaView's .vts (VTK).
@*/
PetscErrorCode EasAdrGetDM(EasAdr adr, DM *da)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCall(EasAdrCheckSetUp_Private(adr, "EasAdrGetDM"));
  if (!adr->da) {
    PetscInt   *l[3];
    PetscMPIInt key = adr->cc[0] + adr->dims[0] * (adr->cc[1] + adr->dims[1] * adr->cc[2]);
    PetscReal   c0[3], c1[3];
    PetscCallMPI(MPI_Comm_split(adr->cart, 0, key, &adr->da_comm)); /* ranks x fastest, as DMDA numbers them */
    for (PetscInt d = 0; d < 3; d++) {
      PetscCall(PetscMalloc1(adr->dims[d], &l[d]));
      for (PetscInt p = 0; p < adr->dims[d]; p++) l[d][p] = adr->starts[d][p + 1] - adr->starts[d][p];
      c0[d] = adr->lo[d] + adr->shift[d] * adr->h[d];
      c1[d] = adr->lo[d] + (adr->N[d] - 1 + adr->shift[d]) * adr->h[d];
    }
    PetscCall(DMDACreate3d(adr->da_comm, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, adr->N[0], adr->N[1], adr->N[2], adr->dims[0], adr->dims[1], adr->dims[2], 2, 0, l[0], l[1], l[2], &adr->da));
    for (PetscInt d = 0; d < 3; d++) PetscCall(PetscFree(l[d]));
    PetscCall(DMSetUp(adr->da));
    PetscCall(DMDASetFieldName(adr->da, 0, "c1"));
    PetscCall(DMDASetFieldName(adr->da, 1, "c2"));
    PetscCall(DMDASetUniformCoordinates(adr->da, c0[0], c1[0], c0[1], c1[1], c0[2], c1[2]));
    PetscCall(PetscObjectSetName((PetscObject)adr->da, "adr_grid"));
    {
      PetscInt xs, ys, zs, xm, ym, zm;
      PetscCall(DMDAGetCorners(adr->da, &xs, &ys, &zs, &xm, &ym, &zm));
      PetscCheck(xs == adr->xso[0] && ys == adr->xso[1] && zs == adr->xso[2] && xm == adr->nlo[0] && ym == adr->nlo[1] && zm == adr->nlo[2], PETSC_COMM_SELF, PETSC_ERR_PLIB, "EasAdrGetDM: the DMDA's box of this rank differs from the solver's");
    }
  }
  *da = adr->da;
  PetscFunctionReturn(0);
}

/*@C
  EasAdrGetSolutionNatural - the solution in natural ordering: X (from
  DMDACreateNaturalVector on EasAdrGetDM's DMDA) gets c_s at grid point
  (i, j, k) in entry s + 2 (i + nx (j + ny k)).  Collective.
@*/
PetscErrorCode EasAdrGetSolutionNatural(EasAdr adr, Vec X)
{
  DM  da;
  Vec G;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscValidHeaderSpecific(X, VEC_CLASSID, 2);
  PetscCall(EasAdrGetDM(adr, &da));
  PetscCall(DMGetGlobalVector(da, &G));
  PetscCall(EasAdrGetSolution(adr, G));
  PetscCall(DMDAGlobalToNaturalBegin(da, G, INSERT_VALUES, X));
  PetscCall(DMDAGlobalToNaturalEnd(da, G, INSERT_VALUES, X));
  PetscCall(DMRestoreGlobalVector(da, &G));
  PetscFunctionReturn(0);
}

/* "x,y,z;x,y,z;..." -> 3 npoints coordinates */
static PetscErrorCode EasAdrParsePoints(EasAdr adr, const char str[])
{
  PetscInt    n = 1, k = 0;
  const char *p;

  PetscFunctionBegin;
  for (p = str; *p; p++)
    if (*p == ';') n++;
  PetscCall(PetscFree(adr->points));
  PetscCall(PetscFree(adr->point_idx));
  PetscCall(PetscMalloc1((size_t)3 * n, &adr->points)); /* n points, counted in the string */
  p = str;
  while (*p) {
    char  *end;
    double v;
    while (isspace((unsigned char)*p)) p++;
    if (!*p) break;
    v = strtod(p, &end);
    PetscCheck(end != p && k < 3 * n, PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_WRONG, "-adr_monitor_points \"%s\" is invalid: expected points \"x,y,z;x,y,z;...\" (three numbers per point)", str);
    adr->points[k++] = (PetscReal)v;
    p                = end;
    while (isspace((unsigned char)*p)) p++;
    if (*p == ',' || *p == ';') {
      PetscCheck((*p == ';') == (k % 3 == 0), PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_WRONG, "-adr_monitor_points \"%s\" is invalid: expected points \"x,y,z;x,y,z;...\" (three numbers per point)", str);
      p++;
    } else
      PetscCheck(!*p, PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_WRONG, "-adr_monitor_points \"%s\" is invalid: expected points \"x,y,z;x,y,z;...\" (three numbers per point)", str);
  }
  PetscCheck(k == 3 * n && k > 0, PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_WRONG, "-adr_monitor_points \"%s\" is invalid: expected points \"x,y,z;x,y,z;...\" (three numbers per point)", str);
  adr->npoints = n;
  PetscFunctionReturn(0);
}

PetscErrorCode EasAdrOutputSetFromOptions_Private(EasAdr adr, PetscOptionItems *PetscOptionsObject)
{
  char      str[PETSC_MAX_PATH_LEN] = "";
  PetscBool flg;

  PetscFunctionBegin;
  PetscCall(PetscOptionsReal("-adr_output_interval", "Output times (monitor points, solution viewer) every this much time in EasAdrSolve (0: at the end only)", "EasAdrSolve", adr->output_interval, &adr->output_interval, NULL));
  PetscCheck(adr->output_interval >= 0, PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_OUTOFRANGE, "-adr_output_interval %g is invalid: expected a time > 0, or 0 for the end of each solve only", (double)adr->output_interval);
  PetscCall(PetscOptionsString("-adr_monitor_points", "Print c1 and c2 at the grid points nearest to \"x,y,z;x,y,z;...\" at every output time", "EasAdrSolve", str, str, sizeof(str), &flg));
  if (flg) PetscCall(EasAdrParsePoints(adr, str));
  /* the viewer itself is opened at the first output, on the DMDA's communicator:
     a viewer on the solver's communicator would order the ranks' parts by
     its rank numbering, not the DMDA's */
  str[0] = 0;
  PetscCall(PetscOptionsString("-adr_view_solution", "Write the solution at every output time through a PETSc viewer (vtk:file.vts, binary:file, hdf5:file.h5)", "EasAdrGetDM", str, str, sizeof(str), &flg));
  if (flg) {
    PetscCall(PetscViewerDestroy(&adr->sol_viewer));
    adr->sol_view = PETSC_TRUE;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode EasAdrOutputDestroy_Private(EasAdr adr)
{
  PetscFunctionBegin;
  PetscCall(PetscViewerDestroy(&adr->sol_viewer));
  PetscCall(PetscFree(adr->points));
  PetscCall(PetscFree(adr->point_idx));
  PetscCall(DMDestroy(&adr->da));
  if (adr->da_comm != MPI_COMM_NULL) PetscCallMPI(MPI_Comm_free(&adr->da_comm));
  PetscFunctionReturn(0);
}

/* c1, c2 at the monitor points, gathered on rank 0 from their owners. */
static PetscErrorCode EasAdrMonitorPoints(EasAdr adr)
{
  MPI_Comm   comm = PetscObjectComm((PetscObject)adr);
  PetscReal *v;

  PetscFunctionBegin;
  if (!adr->point_idx) { /* nearest grid points, once the grid is known */
    PetscCall(PetscMalloc1((size_t)3 * adr->npoints, &adr->point_idx));
    for (PetscInt q = 0; q < adr->npoints; q++)
      for (PetscInt d = 0; d < 3; d++) {
        const PetscReal x = adr->points[3 * q + d];
        PetscCheck(x >= adr->lo[d] && x <= adr->hi[d], comm, PETSC_ERR_ARG_OUTOFRANGE, "-adr_monitor_points: point %" PetscInt_FMT " has %c = %g outside the box [%g, %g]", q + 1, (char)('x' + d), (double)x, (double)adr->lo[d], (double)adr->hi[d]);
        adr->point_idx[3 * q + d] = adr->N[d] == 1 ? 0 : PetscMin(adr->N[d] - 1, PetscMax(0, (PetscInt)PetscFloorReal((x - adr->lo[d]) / adr->h[d] - adr->shift[d] + 0.5)));
      }
  }
  PetscCall(PetscCalloc1((size_t)2 * adr->npoints, &v));
  PetscCall(EasAdrStateSyncHost_Private(adr));
  for (PetscInt q = 0; q < adr->npoints; q++) {
    const PetscInt *g    = adr->point_idx + 3 * q;
    PetscBool       mine = PETSC_TRUE;
    for (PetscInt d = 0; d < 3; d++)
      if (g[d] < adr->xso[d] || g[d] >= adr->xso[d] + adr->nlo[d]) mine = PETSC_FALSE; /* its owner (an overlap's planes hold copies) */
    if (mine) {
      const PetscInt p = (g[0] - adr->xs[0]) + adr->nl[0] * ((g[1] - adr->xs[1]) + adr->nl[1] * (g[2] - adr->xs[2]));
      v[2 * q]         = PetscRealPart(adr->x[2 * p]);
      v[2 * q + 1]     = PetscRealPart(adr->x[2 * p + 1]);
    }
  }
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, v, 2 * adr->npoints, MPIU_REAL, MPIU_SUM, comm)); /* each point has one owner */
  for (PetscInt q = 0; q < adr->npoints; q++) {
    const PetscInt *g = adr->point_idx + 3 * q;
    PetscReal       xyz[3];
    EasAdrCoordinates(adr, g[0], g[1], g[2], xyz);
    PetscCall(PetscPrintf(comm, "  t %-12.6g point (%g, %g, %g) -> grid (%" PetscInt_FMT ", %" PetscInt_FMT ", %" PetscInt_FMT ") at (%g, %g, %g): c1 %.10e c2 %.10e\n", (double)adr->t, (double)adr->points[3 * q], (double)adr->points[3 * q + 1], (double)adr->points[3 * q + 2], g[0], g[1], g[2], (double)xyz[0], (double)xyz[1], (double)xyz[2], (double)v[2 * q], (double)v[2 * q + 1]));
  }
  PetscCall(PetscFree(v));
  PetscFunctionReturn(0);
}

/* At an output time: the monitor points and the solution viewer. */
PetscErrorCode EasAdrOutput_Private(EasAdr adr)
{
  PetscFunctionBegin;
  if (adr->npoints) PetscCall(EasAdrMonitorPoints(adr));
  if (adr->sol_view) {
    DM   da;
    Vec  G;
    char name[64];
    PetscCall(EasAdrGetDM(adr, &da));
    if (!adr->sol_viewer) {
      PetscBool flg;
      PetscCall(PetscOptionsGetViewer(adr->da_comm, ((PetscObject)adr)->options, ((PetscObject)adr)->prefix, "-adr_view_solution", &adr->sol_viewer, &adr->sol_format, &flg));
      PetscCheck(flg && adr->sol_viewer, PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_WRONG, "-adr_view_solution: expected a viewer, e.g. vtk:c.vts, binary:c.bin or hdf5:c.h5");
    }
    PetscCall(DMCreateGlobalVector(da, &G)); /* a new Vec each time: the VTK viewer keeps a reference until it writes */
    PetscCall(EasAdrGetSolution(adr, G));
    PetscCall(PetscSNPrintf(name, sizeof(name), "c_t%g", (double)adr->t));
    PetscCall(PetscObjectSetName((PetscObject)G, name));
    PetscCall(PetscViewerPushFormat(adr->sol_viewer, adr->sol_format));
    PetscCall(VecView(G, adr->sol_viewer));
    PetscCall(PetscViewerPopFormat(adr->sol_viewer));
    PetscCall(VecDestroy(&G));
  }
  PetscFunctionReturn(0);
}
