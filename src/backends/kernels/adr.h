/*
  Kernel bodies of the ADR assembly (kernels.h, docs/adr.md): the parameters,
  the reaction, the residual of implicit Euler, the Jacobian and the Jacobian
  with right Jacobi folded in, one point each.
*/
#pragma once

#include "types.h"
#include "dia.h"

/* Parameters of the ADR residual and Jacobian kernels (src/solvers/adr.c,
   docs/adr.md): the rank's box, the step, the built-in reaction and
   how each face of the box is closed. */
enum { EAS_ADRK_REACTION_USER    = 0,
       EAS_ADRK_REACTION_LINEAR  = 1,
       EAS_ADRK_REACTION_DIURNAL = 2 };
typedef struct {
  EasKInt    nx, ny, nz, np; /* box points per direction, np = nx ny nz */
  EasKScalar dt;
  int        reaction;             /* EAS_ADRK_REACTION_*; USER: Rv, dRv are inputs */
  EasKScalar L[4];                 /* linear: R = L c (row-major) */
  EasKScalar q1c3, q2, q3, c3, q4; /* diurnal at the step's time: q1 c3, q2, q3(t), c3, q4(t) */
  int        fold[6];              /* face f (-x,+x,-y,+y,-z,+z) at the box edge is zero-flux: its weight goes to the opposite neighbour (else the coupling leaves the local block: halo or Dirichlet) */
  EasKInt    skip[6];              /* -adr_overlap: the box's planes on face f that are a neighbour's points (0: none); the residual's sums count the rank's own points only */
  int        ycoupled;             /* 0: one y plane (2D), the Jacobian has 7 diagonals (no +-2nx) */
  const EasKScalar *rw;            /* NULL, or the inner system in the error weights (a backend array, 2 np): F's rows and
                                      J D^{-1}'s scaled by rw, D^{-1} by 1/rw (EasAdrKInvDiagPoint), so that the inner
                                      solver's residual is W r and its norm CVODE's weighted one (-adr_ts_eps_lin) */
} EasAdrKParams;

/* Reaction R(c) and its Jacobian dR[2*i + j] = dR_i/dc_j at one point.
   Diurnal kinetics (docs/adr.md, Vialle et al. sec. 1.8):
   R1 = -q1 c3 c1 - q2 c1 c2 + 2 q3 c3 + q4 c2,  R2 = q1 c3 c1 - q2 c1 c2 - q4 c2. */
static inline EAS_HOST_DEVICE void EasAdrKReaction(const EasAdrKParams *P, EasKScalar c1, EasKScalar c2, EasKScalar *R, EasKScalar *dR)
{
  if (P->reaction == EAS_ADRK_REACTION_LINEAR) {
    R[0] = P->L[0] * c1 + P->L[1] * c2;
    R[1] = P->L[2] * c1 + P->L[3] * c2;
    for (int e = 0; e < 4; e++) dR[e] = P->L[e];
  } else {
    R[0]  = -P->q1c3 * c1 - P->q2 * c1 * c2 + 2.0 * P->q3 * P->c3 + P->q4 * c2;
    R[1]  = P->q1c3 * c1 - P->q2 * c1 * c2 - P->q4 * c2;
    dR[0] = -P->q1c3 - P->q2 * c2;
    dR[1] = -P->q2 * c1 + P->q4;
    dR[2] = P->q1c3 - P->q2 * c2;
    dR[3] = -P->q2 * c1 - P->q4;
  }
}

/* Residual of implicit Euler at local point p (Vialle et al. eq. 1.43):
   F_s = xold_s - c_s + dt (sum_f w_f (c_s,nb(f) - c_s) + R_s(c)), both
   species.  xg: the state on the padded box (nx+2)(ny+2)(nz+2) x 2 with the
   faces filled (halo, Dirichlet values or zero-flux mirror); w[f*np + p]: the
   transport weights (Vialle et al. eq. 1.40 discretized).  Built-in reactions
   write Rv, dRv at p; USER reads them.  Adds to acc[0] F_1 + F_2 + dR_11 +
   dR_22, a finiteness probe (NaN or Inf anywhere makes the sum so), and to
   acc[1], acc[2] the squares F_1^2, F_2^2 (the species norms of the
   residual) at the rank's own points (not on the planes of an overlap,
   P->skip). */
/* The point (i, j, k) of the box, p = i + nx (j + ny k): the CPU loops run
   over i, j, k (no division per point), the CUDA kernels over p
   (EasAdrKFunctionPoint below). */
static inline EAS_HOST_DEVICE void EasAdrKFunctionPointIJK(EasKInt i, EasKInt j, EasKInt k, const EasAdrKParams *P, const EasKScalar *w, const EasKScalar *xg, const EasKScalar *xold, EasKScalar *Rv, EasKScalar *dRv, EasKScalar *F, EasKScalar acc[3])
{
  /* offsets in EasKIdx: f*np, 4p and the padded box pass 2^31 - 1 first */
  const EasKInt nx = P->nx, ny = P->ny;
  const EasKIdx np = P->np, q = (EasKIdx)i + (EasKIdx)nx * (j + (EasKIdx)ny * k);
  const EasKIdx sy = nx + 2, sz = (EasKIdx)(nx + 2) * (ny + 2);
  const EasKIdx Q      = (i + 1) + sy * (j + 1) + sz * (k + 1);
  const EasKIdx nbq[6] = {Q - 1, Q + 1, Q - sy, Q + sy, Q - sz, Q + sz};
  const int     own    = i >= P->skip[0] && i < nx - P->skip[1] && j >= P->skip[2] && j < ny - P->skip[3] && k >= P->skip[4] && k < P->nz - P->skip[5];
  if (P->reaction != EAS_ADRK_REACTION_USER) EasAdrKReaction(P, xg[2 * Q], xg[2 * Q + 1], Rv + 2 * q, dRv + 4 * q);
  for (int s = 0; s < 2; s++) {
    const EasKScalar c  = xg[2 * Q + s];
    EasKScalar       tr = 0.0, Fs;
    for (int f = 0; f < 6; f++) tr += w[f * np + q] * (xg[2 * nbq[f] + s] - c);
    Fs = xold[2 * q + s] - c + P->dt * (tr + Rv[2 * q + s]);
    acc[0] += Fs + dRv[4 * q + 3 * s];
    if (own) acc[1 + s] += Fs * Fs; /* the sums are of F itself, weighted or not */
    F[2 * q + s] = P->rw ? Fs * P->rw[2 * q + s] : Fs;
  }
}

static inline EAS_HOST_DEVICE void EasAdrKFunctionPoint(EasKInt p, const EasAdrKParams *P, const EasKScalar *w, const EasKScalar *xg, const EasKScalar *xold, EasKScalar *Rv, EasKScalar *dRv, EasKScalar *F, EasKScalar acc[3])
{
  EasAdrKFunctionPointIJK(p % P->nx, (p / P->nx) % P->ny, p / (P->nx * P->ny), P, w, xg, xold, Rv, dRv, F, acc);
}

/* Rows 2p and 2p+1 of the local Jacobian J = I - dt f'_ll (Vialle et al.
   eq. 1.45, Fig. 1.7) in DIA storage with the 9 offsets -2nxny, -2nx, -2,
   -1, 0, 1, 2, 2nx, 2nxny (diagonals 0..8), or with one y plane
   (ycoupled = 0) the 7 offsets -2nx, -2, -1, 0, 1, 2, 2nx (0..6): the
   couplings that leave the box are dropped (halo: the multisplitting;
   Dirichlet: known values), a zero-flux face's weight is folded onto the
   opposite neighbour (mirror). */
/* The local couplings of point p: eff[f] the weight of the coupling across
   face f inside the box (a zero-flux face's weight folded onto the opposite
   neighbour, the mirror), *wsum the sum of all six weights, and bit f of
   the return value set when face f's coupling leaves the box (halo or
   Dirichlet: not in the local block). */
static inline EAS_HOST_DEVICE int EasAdrKLocalWeightsIJK(EasKInt i, EasKInt j, EasKInt k, const EasAdrKParams *P, const EasKScalar *w, EasKScalar eff[6], EasKScalar *wsum)
{
  const EasKInt nx = P->nx, ny = P->ny, nz = P->nz;
  const EasKIdx np = P->np, p = (EasKIdx)i + (EasKIdx)nx * (j + (EasKIdx)ny * k);
  const EasKInt ijk[3] = {i, j, k}, nl[3] = {nx, ny, nz};
  int           out = 0;

  *wsum = 0.0;
  for (int f = 0; f < 6; f++) eff[f] = 0.0;
  for (int f = 0; f < 6; f++) {
    const int        d = f / 2, side = f % 2;
    const int        edge = side ? (ijk[d] == nl[d] - 1) : (ijk[d] == 0);
    const EasKScalar wf   = w[f * np + p]; /* f np in EasKIdx */
    *wsum += wf;
    if (!edge)
      eff[f] += wf;
    else if (P->fold[f])
      eff[f ^ 1] += wf;
    else
      out |= 1 << f;
  }
  return out;
}

static inline EAS_HOST_DEVICE int EasAdrKLocalWeights(EasKInt p, const EasAdrKParams *P, const EasKScalar *w, EasKScalar eff[6], EasKScalar *wsum)
{
  return EasAdrKLocalWeightsIJK(p % P->nx, (p / P->nx) % P->ny, p / (P->nx * P->ny), P, w, eff, wsum);
}

/* The values of rows 2p + s (s = 0, 1) in the order of the 9 offsets
   -2nxny, -2nx, -2, -1, 0, 1, 2, 2nx, 2nxny (entries 1 and 7, the y
   couplings, are zero and not stored with one y plane). */
static inline EAS_HOST_DEVICE void EasAdrKJacobianRowsIJK(EasKInt i, EasKInt j, EasKInt k, const EasAdrKParams *P, const EasKScalar *w, const EasKScalar *dRv, EasKScalar v[2][9])
{
  const EasKScalar dt = P->dt;
  const EasKIdx    q  = (EasKIdx)i + (EasKIdx)P->nx * (j + (EasKIdx)P->ny * k); /* dRv at 4p: EasKIdx */
  EasKScalar       eff[6], wsum;

  (void)EasAdrKLocalWeightsIJK(i, j, k, P, w, eff, &wsum);
  for (int s = 0; s < 2; s++) {
    v[s][0] = -dt * eff[4];
    v[s][1] = -dt * eff[2];
    v[s][2] = -dt * eff[0];
    v[s][3] = s == 1 ? -dt * dRv[4 * q + 2] : 0.0;
    v[s][4] = 1.0 + dt * wsum - dt * dRv[4 * q + 3 * s];
    v[s][5] = s == 0 ? -dt * dRv[4 * q + 1] : 0.0;
    v[s][6] = -dt * eff[1];
    v[s][7] = -dt * eff[3];
    v[s][8] = -dt * eff[5];
  }
}

static inline EAS_HOST_DEVICE void EasAdrKJacobianPoint(EasKInt p, const EasAdrKParams *P, const EasKScalar *w, const EasKScalar *dRv, EasKScalar *V, EasKInt ldv)
{
  const EasKIdx ld = ldv, q = p; /* diagonal d at d*ld: EasKIdx */
  const int     y = P->ycoupled ? 1 : 0;
  EasKScalar    v[2][9];

  EasAdrKJacobianRowsIJK(p % P->nx, (p / P->nx) % P->ny, p / (P->nx * P->ny), P, w, dRv, v);
  for (int s = 0; s < 2; s++) {
    const EasKIdx r = 2 * q + s;
    for (int e = 0, d = 0; e < 9; e++) /* d: the stored diagonal (the y couplings skipped without them) */
      if (y || (e != 1 && e != 7)) V[(EasKIdx)(d++) * ld + r] = v[s][e];
  }
}

/* The couplings of J = I - dt f'_ll at point p that do not change within
   a run of the coefficients (they depend on the weights w and the box, not
   on the state or dt), written once when w changes
   (src/solvers/adrassemble.c) so that every Newton iteration's assembly
   reads them instead of recomputing the box edges and the zero-flux folds:
   wl[e np + p], e = 0..6, are eff[4], eff[2], eff[0], eff[1], eff[3],
   eff[5] (the -z, -y, -x, +x, +y, +z couplings inside the box,
   EasAdrKLocalWeightsIJK) and wsum, the sum of the six weights.  Row 2p + s
   of J is then -dt wl[0..2] on offsets -2nxny, -2nx, -2, 1 + dt wl[6] -
   dt dR_ss on 0, -dt wl[3..5] on 2, 2nx, 2nxny, and -dt dR_s,1-s on -1 or
   +1: the values EasAdrKJacobianRowsIJK computes, in its operations. */
static inline EAS_HOST_DEVICE void EasAdrKLocalCouplingsPointIJK(EasKInt i, EasKInt j, EasKInt k, const EasAdrKParams *P, const EasKScalar *w, EasKScalar *wl)
{
  const EasKIdx np = P->np, q = (EasKIdx)i + (EasKIdx)P->nx * (j + (EasKIdx)P->ny * k);
  EasKScalar    eff[6], wsum;

  (void)EasAdrKLocalWeightsIJK(i, j, k, P, w, eff, &wsum);
  wl[0 * np + q] = eff[4];
  wl[1 * np + q] = eff[2];
  wl[2 * np + q] = eff[0];
  wl[3 * np + q] = eff[1];
  wl[4 * np + q] = eff[3];
  wl[5 * np + q] = eff[5];
  wl[6 * np + q] = wsum;
}

static inline EAS_HOST_DEVICE void EasAdrKLocalCouplingsPoint(EasKInt p, const EasAdrKParams *P, const EasKScalar *w, EasKScalar *wl)
{
  EasAdrKLocalCouplingsPointIJK(p % P->nx, (p / P->nx) % P->ny, p / (P->nx * P->ny), P, w, wl);
}

/* Right Jacobi folded into the assembly (src/solvers/adrassemble.c): entries
   2p, 2p + 1 of D^{-1}, the inverse of the main diagonal of J =
   I - dt f'_ll at point p, 1 + dt sum_f w_f - dt dR_ss (the value
   EasAdrKJacobianRowsIJK puts on offset 0; wl from
   EasAdrKLocalCouplingsPoint); a zero diagonal gives 0 and returns 1 (the
   caller reports the row). */
static inline EAS_HOST_DEVICE int EasAdrKInvDiagPoint(EasKInt p, const EasAdrKParams *P, const EasKScalar *wl, const EasKScalar *dRv, EasKScalar *dinv)
{
  const EasKScalar dt = P->dt;
  const EasKIdx    np = P->np, q = p;
  const EasKScalar wsum = wl[6 * np + q];
  int              zero = 0;

  for (int s = 0; s < 2; s++) {
    const EasKScalar d = 1.0 + dt * wsum - dt * dRv[4 * q + 3 * s];
    dinv[2 * q + s]    = d != 0.0 ? 1.0 / (P->rw ? d * P->rw[2 * q + s] : d) : 0.0; /* weighted: the column scaling 1/rw too */
    zero |= d == 0.0;
  }
  return zero;
}

/* One entry of J D^{-1}: v dinv[c] for the column c = r + off inside
   [0, n), else 0 (as EasDiaColumnScaleRow), at position `at` of the DIA
   values, and rounded to float into Vf when it is not NULL.  inner: the
   column is known to be inside (a row of an inner z plane), no test. */
static inline EAS_HOST_DEVICE void EasAdrKScaledEntry(EasKScalar v, EasKIdx r, EasKIdx off, EasKIdx n, const EasKScalar *dinv, EasKScalar *V, float *Vf, EasKIdx at, int inner)
{
  const EasKIdx    c   = r + off;
  const EasKScalar val = (inner || (c >= 0 && c < n)) ? v * dinv[c] : 0.0;
  V[at]                = val;
  if (Vf) Vf[at] = EasDiaSingleEntry(val); /* single precision: the float copy, written here instead of by a pass over V */
}

/* Rows 2p, 2p + 1 of J D^{-1} (right Jacobi, the operator the inner
   BiCGStab iterates on) in J's DIA storage: entry (r, c) is
   rw[r] J[r][c] dinv[c] (rw = P->rw, 1 without; dinv then holds
   1/(rw d)), zero where c = r + offset is outside [0, 2np) (as
   EasDiaColumnScaleRow); J's entries from the constant couplings wl
   (EasAdrKLocalCouplingsPoint) and the reaction Jacobian dRv, the values
   and operations of EasAdrKJacobianRowsIJK; dinv from EasAdrKInvDiagPoint
   at every point.  Vf (single precision, else NULL): the same entries
   rounded to float.  inner = 1 only for 0 < k < nz - 1, where every column
   r + offset is inside [0, 2np) (the CPU loop passes it as a constant, so
   the inner planes' rows are computed without the column tests);
   EasAdrKJacobianJacobiPointIJK passes 0. */
static inline EAS_HOST_DEVICE void EasAdrKJacobianJacobiPointIJKInner(EasKInt i, EasKInt j, EasKInt k, const EasAdrKParams *P, const EasKScalar *wl, const EasKScalar *dRv, const EasKScalar *dinv, EasKScalar *V, float *Vf, EasKInt ldv, int inner)
{
  const EasKIdx    ld = ldv, np = P->np, q = (EasKIdx)i + (EasKIdx)P->nx * (j + (EasKIdx)P->ny * k), n = 2 * np, nx2 = 2 * (EasKIdx)P->nx, nxy2 = nx2 * P->ny;
  const EasKScalar dt = P->dt, mdt = -dt;
  const EasKScalar zm = mdt * wl[q], ym = mdt * wl[np + q], xm = mdt * wl[2 * np + q], xp = mdt * wl[3 * np + q], yp = mdt * wl[4 * np + q], zp = mdt * wl[5 * np + q], wsum = wl[6 * np + q];
  const EasKScalar d0 = 1.0 + dt * wsum - dt * dRv[4 * q], d1 = 1.0 + dt * wsum - dt * dRv[4 * q + 3];
  const EasKScalar c01 = -dt * dRv[4 * q + 1], c10 = -dt * dRv[4 * q + 2];
  const EasKIdx    r0 = 2 * q, r1 = r0 + 1;
  const EasKScalar w0 = P->rw ? P->rw[r0] : 1.0, w1 = P->rw ? P->rw[r1] : 1.0; /* the rows' weights (dinv carries the columns' 1/rw) */
  EasKIdx          d = 0;                                                      /* the stored diagonal (the y couplings skipped without them) */

  /* offsets -2nxny, -2nx, -2, -1, 0, 1, 2, 2nx, 2nxny: rows r0 (species 1) and r1 (species 2) */
  EasAdrKScaledEntry(w0 * zm, r0, -nxy2, n, dinv, V, Vf, d * ld + r0, inner);
  EasAdrKScaledEntry(w1 * zm, r1, -nxy2, n, dinv, V, Vf, d * ld + r1, inner);
  d++;
  if (P->ycoupled) {
    EasAdrKScaledEntry(w0 * ym, r0, -nx2, n, dinv, V, Vf, d * ld + r0, inner);
    EasAdrKScaledEntry(w1 * ym, r1, -nx2, n, dinv, V, Vf, d * ld + r1, inner);
    d++;
  }
  EasAdrKScaledEntry(w0 * xm, r0, -2, n, dinv, V, Vf, d * ld + r0, inner);
  EasAdrKScaledEntry(w1 * xm, r1, -2, n, dinv, V, Vf, d * ld + r1, inner);
  d++;
  EasAdrKScaledEntry(0.0, r0, -1, n, dinv, V, Vf, d * ld + r0, inner);
  EasAdrKScaledEntry(w1 * c10, r1, -1, n, dinv, V, Vf, d * ld + r1, inner);
  d++;
  EasAdrKScaledEntry(w0 * d0, r0, 0, n, dinv, V, Vf, d * ld + r0, inner);
  EasAdrKScaledEntry(w1 * d1, r1, 0, n, dinv, V, Vf, d * ld + r1, inner);
  d++;
  EasAdrKScaledEntry(w0 * c01, r0, 1, n, dinv, V, Vf, d * ld + r0, inner);
  EasAdrKScaledEntry(0.0, r1, 1, n, dinv, V, Vf, d * ld + r1, inner);
  d++;
  EasAdrKScaledEntry(w0 * xp, r0, 2, n, dinv, V, Vf, d * ld + r0, inner);
  EasAdrKScaledEntry(w1 * xp, r1, 2, n, dinv, V, Vf, d * ld + r1, inner);
  d++;
  if (P->ycoupled) {
    EasAdrKScaledEntry(w0 * yp, r0, nx2, n, dinv, V, Vf, d * ld + r0, inner);
    EasAdrKScaledEntry(w1 * yp, r1, nx2, n, dinv, V, Vf, d * ld + r1, inner);
    d++;
  }
  EasAdrKScaledEntry(w0 * zp, r0, nxy2, n, dinv, V, Vf, d * ld + r0, inner);
  EasAdrKScaledEntry(w1 * zp, r1, nxy2, n, dinv, V, Vf, d * ld + r1, inner);
}

static inline EAS_HOST_DEVICE void EasAdrKJacobianJacobiPointIJK(EasKInt i, EasKInt j, EasKInt k, const EasAdrKParams *P, const EasKScalar *wl, const EasKScalar *dRv, const EasKScalar *dinv, EasKScalar *V, float *Vf, EasKInt ldv)
{
  EasAdrKJacobianJacobiPointIJKInner(i, j, k, P, wl, dRv, dinv, V, Vf, ldv, 0);
}

static inline EAS_HOST_DEVICE void EasAdrKJacobianJacobiPoint(EasKInt p, const EasAdrKParams *P, const EasKScalar *wl, const EasKScalar *dRv, const EasKScalar *dinv, EasKScalar *V, float *Vf, EasKInt ldv)
{
  EasAdrKJacobianJacobiPointIJK(p % P->nx, (p / P->nx) % P->ny, p / (P->nx * P->ny), P, wl, dRv, dinv, V, Vf, ldv);
}

/* ------------------------------------------------------------------ the padded state and the halo planes on the backend

   The halo description of a rank's box (docs/adr.md, "What crosses the
   bus"): which faces have a neighbour, how many planes each face message
   holds (its depth, from the halo's message sizes: nothing here assumes one
   plane), and how the faces without one are closed.  Two flat index spaces
   over face points (a, b, l), a and b across the face (x faces: j, k; y
   faces: i, k; z faces: i, j), l the plane counted from the box's edge
   outward (0 is the boundary plane of the box, or the ghost plane next to
   it):
     pack: the planes of the faces with a neighbour, face f's points from
           pack_start[f]; the packed buffer holds (s, a, b, l) at
           2 (pack_start[f] + a + na (b + nb l)) + s, the layout of the halo's
           messages, so a neighbour's packed face is this rank's ghosts;
     fill: the ghost planes of every face (depth planes where a neighbour
           sends them, one plane on a boundary of the domain: the stencil
           reads one point across it), face f's from fill_start[f]; the
           Dirichlet values of face f are at 2 (fill_start[f] + a + na b) + s.
   The padded state xg has pad ghost planes on every side:
   (nx + 2 pad)(ny + 2 pad)(nz + 2 pad) x 2. */
enum { EAS_ADRK_FACE_HALO      = 0,
       EAS_ADRK_FACE_DIRICHLET = 1,
       EAS_ADRK_FACE_MIRROR    = 2 };
typedef struct {
  EasKInt nx, ny, nz, pad;
  EasKInt depth[6];      /* planes per face message (0: no neighbour on that face) */
  EasKInt skip[6];       /* -adr_overlap: the box's planes on face f that are the neighbour's points (restricted additive
                            Schwarz: the box is the rank's own box extended by them); depth = skip + pad where a neighbour is */
  int     kind[6];       /* EAS_ADRK_FACE_*: how the ghost planes of face f are filled */
  EasKIdx pack_start[7]; /* cumulative face points of the packed planes; pack_start[6] in all */
  EasKIdx fill_start[7]; /* cumulative face points of the ghost planes; fill_start[6] in all */
} EasAdrKHalo;

/* The box's extent across face f: na (a), nb (b). */
static inline EAS_HOST_DEVICE void EasAdrKFaceDims(const EasAdrKHalo *H, int f, EasKInt *na, EasKInt *nb)
{
  *na = f / 2 == 0 ? H->ny : H->nx;
  *nb = f / 2 == 2 ? H->ny : H->nz;
}

/* Point t of a flat face index space (start: pack_start or fill_start) as
   face f (the return value) and (a, b, l). */
static inline EAS_HOST_DEVICE int EasAdrKFaceLocate(const EasAdrKHalo *H, const EasKIdx start[7], EasKIdx t, EasKInt *a, EasKInt *b, EasKInt *l)
{
  int     f = 0;
  EasKInt na, nb;
  EasKIdx r;
  while (f < 5 && t >= start[f + 1]) f++;
  EasAdrKFaceDims(H, f, &na, &nb);
  r  = t - start[f];
  *a = (EasKInt)(r % na);
  *b = (EasKInt)((r / na) % nb);
  *l = (EasKInt)(r / ((EasKIdx)na * nb));
  return f;
}

/* (i, j, k) of face point (a, b) at coordinate c along the face's normal. */
static inline EAS_HOST_DEVICE void EasAdrKFaceIJK(int f, EasKInt a, EasKInt b, EasKInt c, EasKInt ijk[3])
{
  const int d         = f / 2;
  ijk[d]              = c;
  ijk[d == 0 ? 1 : 0] = a;
  ijk[d == 2 ? 1 : 2] = b;
}

/* Pack point t in [0, pack_start[6]): plane l of face f of the rank's own
   points in x (l planes in from the own box's edge: skip[f] + l from the
   box's) into buf. */
static inline EAS_HOST_DEVICE void EasAdrKPackPoint(EasKIdx t, const EasAdrKHalo *H, const EasKScalar *x, EasKScalar *buf)
{
  const EasKInt n[3] = {H->nx, H->ny, H->nz};
  EasKInt       a, b, l, ijk[3];
  const int     f = EasAdrKFaceLocate(H, H->pack_start, t, &a, &b, &l);
  EasKIdx       p;
  l += H->skip[f]; /* the rank's own planes: an overlap's are the neighbour's */
  EasAdrKFaceIJK(f, a, b, f % 2 ? n[f / 2] - 1 - l : l, ijk);
  p              = ijk[0] + (EasKIdx)n[0] * (ijk[1] + (EasKIdx)n[1] * ijk[2]);
  buf[2 * t]     = x[2 * p];
  buf[2 * t + 1] = x[2 * p + 1];
}

/* Whether box point ijk is on the planes of an overlap (a neighbour's
   point: the first face in the order -x, +x, -y, ... whose overlap holds
   it, a corner's), and then where its value is in the neighbours' planes
   (*src, at the pack offsets: plane l of the message is l planes out from
   the own box's edge). */
static inline EAS_HOST_DEVICE int EasAdrKOverlapSource(const EasAdrKHalo *H, const EasKInt ijk[3], EasKIdx *src)
{
  const EasKInt n[3] = {H->nx, H->ny, H->nz};
  for (int e = 0; e < 6; e++) {
    const int d = e / 2;
    EasKInt   l, na, nb;
    if (!H->skip[e]) continue; /* no overlap on this face (always without one) */
    l = e % 2 ? ijk[d] - (n[d] - H->skip[e]) : H->skip[e] - 1 - ijk[d];
    if (l < 0) continue;
    EasAdrKFaceDims(H, e, &na, &nb);
    *src = H->pack_start[e] + ijk[d == 0 ? 1 : 0] + (EasKIdx)na * (ijk[d == 2 ? 1 : 2] + (EasKIdx)nb * l);
    return 1;
  }
  return 0;
}

/* The padded state xg at point t in [0, np + fill_start[6]): the box's
   points first (from x), then the ghost planes: a neighbour's (its packed
   planes in ghost, at the pack offsets), the Dirichlet values bval, or for
   zero flux the mirror of the interior point as far inside (plane l mirrors
   the box's plane l + 1: the mirror of the first interior neighbour, Vialle
   et al. eq. 1.40 with a zero normal flux; in a box one plane thick that
   neighbour is the opposite ghost plane, and with zero flux on both sides,
   as in 2D, the point itself, whose weights are zero).  With an overlap
   (skip), a box point on the planes of face f's overlap is the neighbour's:
   its value comes from the neighbour's planes (plane l of the message is l
   planes out from the own box's edge; the first face in the order -x, +x,
   -y, ... where the point is in two overlaps, a corner) into xg and into
   x (the restriction: the rank keeps its own points of its solution, the
   others are the neighbours' latest), and a ghost plane l of such a face is
   message plane skip + l.  Reads x only at points no point of the launch
   writes (a zero-flux mirror of a point on an overlap's planes reads that
   point's value from ghost, as the point does): the points are independent
   (one launch).  Before this, the mirrors at the edges where an overlap
   meets a closed boundary read x while the launch wrote it: a race, which
   changed the outer iterations with the thread count (issue 21, found on
   an H200: 9 against PCASM's 7).  EasAdrKPadBoxPointIJK is the box points'
   body by (i, j, k), for a CPU loop over rows without a division per
   point (EasAdrPad_CPU); the flat index maps onto it. */
static inline EAS_HOST_DEVICE void EasAdrKPadBoxPointIJK(EasKInt i, EasKInt j, EasKInt k, const EasAdrKHalo *H, EasKScalar *x, const EasKScalar *ghost, EasKScalar *xg)
{
  const EasKInt g  = H->pad;
  const EasKIdx sy = H->nx + 2 * g, sz = (EasKIdx)sy * (H->ny + 2 * g);
  const EasKIdx t = i + (EasKIdx)H->nx * (j + (EasKIdx)H->ny * k), Q = (i + g) + sy * (j + g) + sz * (k + g);
  const EasKInt ijk[3] = {i, j, k};
  EasKIdx       src    = 0;
  if (EasAdrKOverlapSource(H, ijk, &src)) { /* in an overlap: the neighbour's point */
    x[2 * t]     = ghost[2 * src];
    x[2 * t + 1] = ghost[2 * src + 1];
  }
  xg[2 * Q]     = x[2 * t];
  xg[2 * Q + 1] = x[2 * t + 1];
}

static inline EAS_HOST_DEVICE void EasAdrKPadPoint(EasKIdx t, const EasAdrKHalo *H, EasKScalar *x, const EasKScalar *ghost, const EasKScalar *bval, EasKScalar *xg)
{
  const EasKInt n[3] = {H->nx, H->ny, H->nz}, g = H->pad;
  const EasKIdx np = (EasKIdx)n[0] * n[1] * n[2], sy = n[0] + 2 * g, sz = (EasKIdx)sy * (n[1] + 2 * g);
  EasKInt       ijk[3];
  EasKIdx       Q, src = 0;
  if (t < np) { /* a box point */
    EasAdrKPadBoxPointIJK((EasKInt)(t % n[0]), (EasKInt)((t / n[0]) % n[1]), (EasKInt)(t / ((EasKIdx)n[0] * n[1])), H, x, ghost, xg);
    return;
  }
  {
    EasKInt           a, b, l, na, nb;
    const int         f = EasAdrKFaceLocate(H, H->fill_start, t - np, &a, &b, &l), d = f / 2, side = f % 2;
    const EasKScalar *from = x;
    EasAdrKFaceDims(H, f, &na, &nb);
    EasAdrKFaceIJK(f, a, b, side ? n[d] + l : -1 - l, ijk);
    Q      = (ijk[0] + g) + sy * (ijk[1] + g) + sz * (ijk[2] + g);
    int fs = f; /* the face whose data fills this ghost point */
    if (H->kind[f] == EAS_ADRK_FACE_MIRROR) {
      const EasKInt m = side ? n[d] - 2 - l : 1 + l;
      if (m >= 0 && m < n[d])
        fs = -1; /* the mirrored point is in the box */
      else if (H->kind[f ^ 1] != EAS_ADRK_FACE_MIRROR) {
        fs = f ^ 1; /* a box of one plane: the mirror is the opposite ghost plane */
        l  = m < 0 ? -1 - m : m - n[d];
      } else
        fs = -2; /* one plane closed on both sides: its own value (zero flux both ways) */
      if (fs < 0) {
        ijk[d] = fs == -1 ? m : 0;
        if (EasAdrKOverlapSource(H, ijk, &src))
          from = ghost; /* the mirrored point is on an overlap's planes: the value the launch writes there (reading x would race with that write) */
        else {
          from = x;
          src  = ijk[0] + (EasKIdx)n[0] * (ijk[1] + (EasKIdx)n[1] * ijk[2]);
        }
      }
    }
    if (fs >= 0 && H->kind[fs] == EAS_ADRK_FACE_HALO) {
      from = ghost;
      src  = H->pack_start[fs] + a + (EasKIdx)na * (b + (EasKIdx)nb * (l + H->skip[fs]));
    } else if (fs >= 0) {
      from = bval;
      src  = H->fill_start[fs] + a + (EasKIdx)na * b;
    }
    xg[2 * Q]     = from[2 * src];
    xg[2 * Q + 1] = from[2 * src + 1];
  }
}

/* The Newton update at point p (msnewton.c, Vialle et al. eq. 1.45 solved
   for y with right Jacobi, dx = D^{-1} y): for both species i = 2p + s,
   d = c dinv_i y_i (dinv NULL: D = I; c != 1: a kept Jacobian's factor),
   x_i += d; acc[s] += d^2, acc[2 + s] += x_i^2, acc[4] += (d ewt_i)^2 (ewt
   NULL: none); keep: y_i = d (the update itself, for the stage's test). */
static inline EAS_HOST_DEVICE void EasAdrKUpdatePoint(EasKIdx p, EasKScalar c, const EasKScalar *dinv, EasKScalar *y, EasKScalar *x, const EasKScalar *ewt, int keep, EasKScalar acc[5])
{
  for (int s = 0; s < 2; s++) {
    const EasKIdx i = 2 * p + s;
    EasKScalar    d = dinv ? dinv[i] * y[i] : y[i];
    if (c != 1.0) d = c * d;
    x[i] += d;
    acc[s] += d * d;
    acc[2 + s] += x[i] * x[i];
    if (ewt) acc[4] += d * d * ewt[i] * ewt[i];
    if (keep) y[i] = d;
  }
}

/* Whether box point (i, j, k), or p, is the rank's own (not on the planes
   of an overlap). */
static inline EAS_HOST_DEVICE int EasAdrKOwnPointIJK(const EasAdrKHalo *H, EasKInt i, EasKInt j, EasKInt k)
{
  return i >= H->skip[0] && i < H->nx - H->skip[1] && j >= H->skip[2] && j < H->ny - H->skip[3] && k >= H->skip[4] && k < H->nz - H->skip[5];
}

static inline EAS_HOST_DEVICE int EasAdrKOwnPoint(const EasAdrKHalo *H, EasKIdx p)
{
  return EasAdrKOwnPointIJK(H, (EasKInt)(p % H->nx), (EasKInt)((p / H->nx) % H->ny), (EasKInt)(p / ((EasKIdx)H->nx * H->ny)));
}

/* With an overlap (restricted additive Schwarz) the update of a point that
   is not the rank's own (own = 0) is dropped: x keeps the neighbour's value
   there and the sums count own points only; keep: its y is 0. */
static inline EAS_HOST_DEVICE void EasAdrKUpdatePointOwn(EasKIdx p, int own, EasKScalar c, const EasKScalar *dinv, EasKScalar *y, EasKScalar *x, const EasKScalar *ewt, int keep, EasKScalar acc[5])
{
  if (own)
    EasAdrKUpdatePoint(p, c, dinv, y, x, ewt, keep, acc);
  else if (keep)
    y[2 * p] = y[2 * p + 1] = 0.0;
}
