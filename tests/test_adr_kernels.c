static const char help[] = "Host test of the ADR assembly bodies shared by the CPU and CUDA backends (src/backends/kernels.h:\n"
                           "EasAdrKFunctionPoint, EasAdrKJacobianPoint): on a small box with random weights and state, the\n"
                           "9-diagonal (7 with -ny 1) DIA Jacobian must equal -dF/dx by central differences of the residual body (exact for\n"
                           "the quadratic diurnal and the linear reaction up to rounding), with zero-flux faces mirrored and\n"
                           "halo/Dirichlet faces held fixed; and the USER reaction path must reproduce the built-in one; the Jacobian with\n"
                           "right Jacobi folded in (EasAdrKInvDiagPoint, EasAdrKJacobianJacobiPoint) must be J's values column-scaled.\n"
                           "  -nx <3> -ny <4> -nz <2> -fold <6 flags, e.g. 1,0,0,1,1,0> -seed <1>\n";

#include <eas.h>
#include "backends/kernels.h"

typedef struct {
  EasAdrKParams P;
  int           n, ng;
  double       *w, *ghost, *xold, *xg, *Rv, *dRv, *F;
} Box;

/* xg from x: interior, fixed ghost values on dropped faces, mirror of the
   first interior neighbour on zero-flux faces (as EasAdr fills it). */
static void FillPadded(Box *B, const double *x)
{
  const int nx = B->P.nx, ny = B->P.ny, nz = B->P.nz, sy = nx + 2, sz = (nx + 2) * (ny + 2);
  for (int q = 0; q < B->ng / 2; q++) {
    B->xg[2 * q]     = B->ghost[2 * q];
    B->xg[2 * q + 1] = B->ghost[2 * q + 1];
  }
  for (int k = 0; k < nz; k++)
    for (int j = 0; j < ny; j++)
      for (int i = 0; i < nx; i++)
        for (int s = 0; s < 2; s++) B->xg[2 * ((i + 1) + sy * (j + 1) + sz * (k + 1)) + s] = x[2 * (i + nx * (j + ny * k)) + s];
  for (int f = 0; f < 6; f++) {
    const int d = f / 2, side = f % 2, nl[3] = {nx, ny, nz};
    if (!B->P.fold[f]) continue;
    for (int k = 0; k < nz; k++)
      for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
          int ijk[3] = {i, j, k}, g[3] = {i + 1, j + 1, k + 1}, m[3] = {i + 1, j + 1, k + 1};
          if (ijk[d] != (side ? nl[d] - 1 : 0)) continue;
          g[d] = side ? nl[d] + 1 : 0; /* the ghost plane */
          m[d] = side ? nl[d] - 1 : 2; /* padded index of the first interior neighbour */
          for (int s = 0; s < 2; s++) B->xg[2 * (g[0] + sy * g[1] + sz * g[2]) + s] = B->xg[2 * (m[0] + sy * m[1] + sz * m[2]) + s];
        }
  }
}

static void Residual(Box *B, const double *x, double *F)
{
  FillPadded(B, x);
  for (int p = 0; p < B->P.np; p++) {
    EasKScalar acc[3] = {0, 0, 0};
    EasAdrKFunctionPoint(p, &B->P, B->w, B->xg, B->xold, B->Rv, B->dRv, F, acc);
  }
}

/* Right Jacobi folded into the assembly (EasAdrKLocalCouplingsPoint, then
   EasAdrKInvDiagPoint, EasAdrKJacobianJacobiPoint and its (i, j, k) form,
   the CPU loop's, from those couplings): dinv
   must be 1 / the main diagonal of V (J's DIA values) and the scaled values
   V[d][r] dinv[r + off[d]], zero where the column leaves [0, n): the same
   products, so equal to rounding (hand-derived from V). */
static PetscErrorCode CheckJacobi(Box *B, const int *off, int nd, const double *V, double *maxerr)
{
  const int n     = B->n;
  int       dmain = -1;
  double   *dinv, *Vs, *Vi, *wl;
  float    *Vf;

  PetscFunctionBegin;
  PetscCall(PetscMalloc5(n, &dinv, 9 * n, &Vs, 9 * n, &Vi, 9 * n, &Vf, 7 * B->P.np, &wl));
  for (int p = 0; p < B->P.np; p++) EasAdrKLocalCouplingsPoint(p, &B->P, B->w, wl);
  for (int d = 0; d < nd; d++)
    if (off[d] == 0) dmain = d;
  for (int p = 0; p < B->P.np; p++) PetscCheck(!EasAdrKInvDiagPoint(p, &B->P, wl, B->dRv, dinv), PETSC_COMM_SELF, PETSC_ERR_PLIB, "zero diagonal at point %d", p);
  for (int p = 0; p < B->P.np; p++) EasAdrKJacobianJacobiPoint(p, &B->P, wl, B->dRv, dinv, Vs, NULL, n);
  for (int k = 0; k < B->P.nz; k++)
    for (int j = 0; j < B->P.ny; j++)
      for (int i = 0; i < B->P.nx; i++) EasAdrKJacobianJacobiPointIJK(i, j, k, &B->P, wl, B->dRv, dinv, Vi, Vf, n);
  *maxerr = 0;
  for (int r = 0; r < n; r++) {
    *maxerr = PetscMax(*maxerr, PetscAbsReal(dinv[r] * V[dmain * n + r] - 1.0));
    for (int d = 0; d < nd; d++) {
      const int    c   = r + off[d];
      const double ref = (c >= 0 && c < n) ? V[d * n + r] * (1.0 / V[dmain * n + c]) : 0.0;
      *maxerr          = PetscMax(*maxerr, PetscAbsReal(Vs[d * n + r] - ref) / (PetscAbsReal(ref) > 0 ? PetscAbsReal(ref) : 1.0));
      *maxerr          = PetscMax(*maxerr, PetscAbsReal(Vi[d * n + r] - Vs[d * n + r]));
      *maxerr          = PetscMax(*maxerr, Vf[d * n + r] == (float)Vi[d * n + r] ? 0.0 : 1.0); /* the float copy: the double rounded */
    }
  }
  PetscCall(PetscFree5(dinv, Vs, Vi, Vf, wl));
  PetscFunctionReturn(0);
}

static PetscErrorCode RunCase(Box *B, PetscRandom rnd, int reaction, double *maxerr, double *maxref, double *jacobi_err)
{
  const int  nx = B->P.nx, nxy = B->P.nx * B->P.ny, n = B->n, nd = B->P.ycoupled ? 9 : 7;
  const int  off9[9] = {-2 * nxy, -2 * nx, -2, -1, 0, 1, 2, 2 * nx, 2 * nxy}, off7[7] = {-2 * nxy, -2, -1, 0, 1, 2, 2 * nxy};
  const int *off = B->P.ycoupled ? off9 : off7; /* one y plane: no y couplings, 7 diagonals */
  double    *x, *xp, *Fp, *Fm, *V;

  PetscFunctionBegin;
  B->P.reaction = reaction;
  PetscCall(PetscMalloc5(n, &x, n, &xp, n, &Fp, n, &Fm, 9 * n, &V));
  for (int r = 0; r < n; r++) PetscCall(PetscRandomGetValueReal(rnd, &x[r]));
  Residual(B, x, B->F); /* also Rv, dRv at x */
  for (int p = 0; p < B->P.np; p++) EasAdrKJacobianPoint(p, &B->P, B->w, B->dRv, V, n);
  PetscCall(CheckJacobi(B, off, nd, V, jacobi_err));
  *maxerr = *maxref = 0;
  for (int c = 0; c < n; c++) {
    const double h = 1e-4;
    PetscCall(PetscArraycpy(xp, x, n));
    xp[c] = x[c] + h;
    Residual(B, xp, Fp);
    xp[c] = x[c] - h;
    Residual(B, xp, Fm);
    for (int r = 0; r < n; r++) {
      double fd = -(Fp[r] - Fm[r]) / (2 * h), dia = 0; /* J = -F' */
      for (int d = 0; d < nd; d++)
        if (c - r == off[d]) dia = V[d * n + r];
      *maxerr = PetscMax(*maxerr, PetscAbsReal(dia - fd));
      *maxref = PetscMax(*maxref, PetscAbsReal(fd));
    }
  }
  PetscCall(PetscFree5(x, xp, Fp, Fm, V));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Box         B;
  PetscRandom rnd;
  PetscInt    nx = 3, ny = 4, nz = 2, nfold = 6, fold[6] = {1, 0, 0, 1, 1, 0}, seed = 1, nfail = 0;
  double      err = 0, ref = 0, jerr = 0, *F2, *R2, *dR2, diff = 0;
  PetscBool   flg;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-nx", &nx, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-ny", &ny, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-nz", &nz, NULL));
  PetscCall(PetscOptionsGetIntArray(NULL, NULL, "-fold", fold, &nfold, &flg));
  if (!flg) nfold = 6;
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-seed", &seed, NULL));
  PetscCheck(nx >= 2 && (ny >= 2 || ny == 1) && nz >= 2, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-nx -ny -nz: expected >= 2 each (the mirror needs an interior neighbour), or -ny 1 (one plane)");
  PetscCall(PetscMemzero(&B, sizeof(B)));
  B.P.nx       = (EasKInt)nx;
  B.P.ny       = (EasKInt)ny;
  B.P.nz       = (EasKInt)nz;
  B.P.np       = (EasKInt)(nx * ny * nz);
  B.P.ycoupled = ny > 1;
  B.P.dt       = 0.7;
  B.P.L[0] = -1.0, B.P.L[1] = 0.3, B.P.L[2] = 0.2, B.P.L[3] = -2.0;
  B.P.q1c3 = 0.3, B.P.q2 = 0.2, B.P.q3 = 0.1, B.P.c3 = 1.0, B.P.q4 = 0.05;
  for (int f = 0; f < 6; f++) B.P.fold[f] = f < nfold ? (int)fold[f] : 0;
  B.n  = 2 * B.P.np;
  B.ng = 2 * (nx + 2) * (ny + 2) * (nz + 2);
  PetscCall(PetscMalloc7(6 * B.P.np, &B.w, B.ng, &B.ghost, B.n, &B.xold, B.ng, &B.xg, B.n, &B.Rv, 2 * B.n, &B.dRv, B.n, &B.F));
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, (unsigned long)seed));
  PetscCall(PetscRandomSeed(rnd));
  for (int i = 0; i < 6 * B.P.np; i++) PetscCall(PetscRandomGetValueReal(rnd, &B.w[i]));
  if (ny == 1)
    for (int i = 2 * B.P.np; i < 4 * B.P.np; i++) B.w[i] = 0; /* one plane: EasAdr sets no y transport */
  for (int i = 0; i < B.ng; i++) PetscCall(PetscRandomGetValueReal(rnd, &B.ghost[i]));
  for (int i = 0; i < B.n; i++) PetscCall(PetscRandomGetValueReal(rnd, &B.xold[i]));

  for (int reaction = EAS_ADRK_REACTION_LINEAR; reaction <= EAS_ADRK_REACTION_DIURNAL; reaction++) {
    PetscCall(RunCase(&B, rnd, reaction, &err, &ref, &jerr));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s reaction: J D^{-1} and D^{-1} assembled (folded Jacobi) vs J's values scaled: max rel err %.3e (tolerance 1e-15)\n", reaction == EAS_ADRK_REACTION_LINEAR ? "linear" : "diurnal", jerr));
    if (!(jerr <= 1e-15)) nfail++;
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s reaction, fold %d%d%d%d%d%d: max |J_dia - (-dF/dx)_fd| = %.3e (max entry %.3e, tolerance 1e-8 x max entry)\n", reaction == EAS_ADRK_REACTION_LINEAR ? "linear" : "diurnal", B.P.fold[0], B.P.fold[1], B.P.fold[2], B.P.fold[3], B.P.fold[4], B.P.fold[5], err, ref));
    if (!(err <= 1e-8 * ref)) nfail++;
  }
  /* USER: Rv, dRv from the diurnal evaluation above are inputs; F must match */
  PetscCall(PetscMalloc3(B.n, &F2, B.n, &R2, 2 * B.n, &dR2));
  PetscCall(PetscArraycpy(R2, B.Rv, B.n));
  PetscCall(PetscArraycpy(dR2, B.dRv, 2 * B.n));
  B.P.reaction = EAS_ADRK_REACTION_USER;
  for (int p = 0; p < B.P.np; p++) {
    EasKScalar acc[3] = {0, 0, 0};
    EasAdrKFunctionPoint(p, &B.P, B.w, B.xg, B.xold, R2, dR2, F2, acc);
  }
  B.P.reaction = EAS_ADRK_REACTION_DIURNAL;
  {
    double fn2[2] = {0, 0}, acc2[2] = {0, 0};
    for (int p = 0; p < B.P.np; p++) {
      EasKScalar acc[3] = {0, 0, 0};
      EasAdrKFunctionPoint(p, &B.P, B.w, B.xg, B.xold, B.Rv, B.dRv, B.F, acc);
      acc2[0] += acc[1];
      acc2[1] += acc[2];
    }
    for (int r = 0; r < B.n; r++) fn2[r % 2] += B.F[r] * B.F[r];
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "residual species norms from the body's sums: %.6e %.6e, from F: %.6e %.6e (tolerance 1e-14 relative)\n", PetscSqrtReal(acc2[0]), PetscSqrtReal(acc2[1]), PetscSqrtReal(fn2[0]), PetscSqrtReal(fn2[1])));
    for (int c = 0; c < 2; c++)
      if (!(PetscAbsReal(acc2[c] - fn2[c]) <= 1e-14 * fn2[c])) nfail++;
  }
  for (int r = 0; r < B.n; r++) diff = PetscMax(diff, PetscAbsReal(F2[r] - B.F[r]));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "user reaction path vs built-in: max |F_user - F_builtin| = %.3e (tolerance 0)\n", diff));
  if (diff != 0) nfail++;
  PetscCall(PetscFree3(F2, R2, dR2));
  PetscCheck(!nfail, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%" PetscInt_FMT " ADR kernel checks failed", nfail);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "adr kernel bodies ok\n"));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscFree7(B.w, B.ghost, B.xold, B.xg, B.Rv, B.dRv, B.F));
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    suffix: fold_mixed
    nsize: 1
    backends: none
    expect: linear reaction, fold 100110: max \|J_dia - \(-dF/dx\)_fd\|
    expect: diurnal reaction, fold 100110
    expect: diurnal reaction: J D\^\{-1\} and D\^\{-1\} assembled \(folded Jacobi\)
    expect: adr kernel bodies ok
  test:
    suffix: fold_all
    nsize: 1
    backends: none
    args: -nx 2 -ny 3 -nz 4 -fold 1,1,1,1,1,1 -seed 7
    expect: adr kernel bodies ok
  test:
    suffix: fold_none
    nsize: 1
    backends: none
    args: -nx 4 -ny 2 -nz 3 -fold 0,0,0,0,0,0 -seed 3
    expect: adr kernel bodies ok
  test:
    suffix: one_plane
    backends: none
    args: -nx 3 -ny 1 -nz 4 -fold 1,1,1,1,0,1 -seed 11
    expect: adr kernel bodies ok
TEST*/
