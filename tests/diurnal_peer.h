/*
  An independent implementation of the diurnal problem (the peer code of
  tests/test_adr_cvode.c and bench/bench_adr.c): SUNDIALS CVODE with its
  own Newton iteration, the SPGMR Krylov solver and the 2x2 block-diagonal
  preconditioner of cvDiurnal, on nvector_parallel with the grid split in
  z-slabs over the ranks.  It shares no code with eas: the right-hand side
  is written here from the problem's definition (docs/adr.md), as in
  SUNDIALS' cvDiurnal_kry example (read, not copied):

    dc_s/dt = Kh d2c_s/dx2 + V dc_s/dx + Kh d2c_s/dy2 + d/dz (Kv(z) dc_s/dz) + R_s(c, t)
    R_1 = -q1 c3 c1 - q2 c1 c2 + 2 q3(t) c3 + q4(t) c2,  R_2 = q1 c3 c1 - q2 c1 c2 - q4(t) c2
    Kh = 4e-6, V = 1e-3, Kv(z) = 1e-8 exp(z/5), q1 = 1.63e-16, q2 = 4.66e-16, c3 = 3.7e16,
    q3 = exp(-22.62/s), q4 = exp(-7.601/s) for s = sin(pi t/43200) > 0, else 0;
    box [0,20] x [0,20] x [30,50], mx x my x mz points with the boundary planes,
    zero flux by reflection, central differences (Kv at the half points);
    my = 1: one plane y = 10, no y terms (cvDiurnal exactly, its y being our z);
    c_1 = 1e6 a(x) a(y) b(z), c_2 = 1e12 a(x) a(y) b(z), a(u) = 1 - (0.1u-1)^2 + (0.1u-1)^4/2,
    b(z) = 1 - (0.1z-4)^2 + (0.1z-4)^4/2 (a(10) = 1, so my = 1 has no y factor).

  Unknowns interleaved as eas's: index = s + 2 (i + mx (j + my k)) within a slab.
*/
#pragma once
#include <mpi.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cvode/cvode.h>
#include <nvector/nvector_parallel.h>
#include <sunlinsol/sunlinsol_spgmr.h>

typedef struct {
  MPI_Comm comm;
  int      rank, size;
  int      mx, my, mz, zs, nzl; /* global points; this rank's first z plane and planes */
  double   dx, dy, dz, ymid;
  double  *dn, *up; /* ghost planes below and above the slab (2 mx my each) */
  double  *P;       /* block-diagonal preconditioner: 4 entries per point, LU'd in place */
  double   q3, q4;  /* rates at the last right-hand side */
  long int rhs_evals;
} DiurnalPeer;

#define DP_KH 4.0e-6
#define DP_V 1.0e-3
#define DP_KV0 1.0e-8
#define DP_Q1 1.63e-16
#define DP_Q2 4.66e-16
#define DP_C3 3.7e16

static double DiurnalPeerA(double u)
{
  const double w = 0.1 * u - 1.0;
  return 1.0 - w * w + 0.5 * w * w * w * w;
}
static double DiurnalPeerB(double z)
{
  const double w = 0.1 * z - 4.0;
  return 1.0 - w * w + 0.5 * w * w * w * w;
}
static void DiurnalPeerRates(double t, double *q3, double *q4)
{
  const double s = sin(M_PI / 43200.0 * t);
  *q3            = s > 0 ? exp(-22.62 / s) : 0.0;
  *q4            = s > 0 ? exp(-7.601 / s) : 0.0;
}

/* z-slabs: rank r owns planes [zs, zs + nzl) */
static int DiurnalPeerCreate(MPI_Comm comm, int mx, int my, int mz, DiurnalPeer **out)
{
  DiurnalPeer *p = (DiurnalPeer *)calloc(1, sizeof(DiurnalPeer));
  int          q, r;
  if (!p) return 1;
  p->comm = comm;
  (void)MPI_Comm_rank(comm, &p->rank);
  (void)MPI_Comm_size(comm, &p->size);
  p->mx = mx, p->my = my, p->mz = mz;
  q = mz / p->size, r = mz % p->size;
  p->zs   = p->rank * q + (p->rank < r ? p->rank : r);
  p->nzl  = q + (p->rank < r ? 1 : 0);
  p->dx   = 20.0 / (mx - 1);
  p->dy   = my > 1 ? 20.0 / (my - 1) : 20.0;
  p->dz   = 20.0 / (mz - 1);
  p->ymid = 10.0;
  p->dn   = (double *)calloc(2 * (size_t)mx * my, sizeof(double));
  p->up   = (double *)calloc(2 * (size_t)mx * my, sizeof(double));
  p->P    = (double *)calloc(4 * (size_t)mx * my * p->nzl, sizeof(double));
  *out    = p;
  return (p->dn && p->up && p->P) ? 0 : 1;
}

static void DiurnalPeerDestroy(DiurnalPeer **p)
{
  if (!*p) return;
  free((*p)->dn);
  free((*p)->up);
  free((*p)->P);
  free(*p);
  *p = NULL;
}

static sunindextype DiurnalPeerLocalSize(const DiurnalPeer *p)
{
  return 2 * (sunindextype)p->mx * p->my * p->nzl;
}

static void DiurnalPeerInitial(const DiurnalPeer *p, double *u)
{
  for (int k = 0; k < p->nzl; k++)
    for (int j = 0; j < p->my; j++)
      for (int i = 0; i < p->mx; i++) {
        const double x = i * p->dx, y = p->my > 1 ? j * p->dy : p->ymid, z = 30.0 + (p->zs + k) * p->dz;
        const double prof = DiurnalPeerA(x) * DiurnalPeerA(y) * DiurnalPeerB(z);
        const size_t q    = (size_t)i + (size_t)p->mx * (j + (size_t)p->my * k);
        u[2 * q]          = 1.0e6 * prof;
        u[2 * q + 1]      = 1.0e12 * prof;
      }
}

/* the slab's bottom and top planes to the neighbours, their planes into dn/up */
static void DiurnalPeerExchange(DiurnalPeer *p, const double *u)
{
  const int   plane = 2 * p->mx * p->my;
  const int   below = p->rank > 0 ? p->rank - 1 : MPI_PROC_NULL, above = p->rank < p->size - 1 ? p->rank + 1 : MPI_PROC_NULL;
  MPI_Request req[4];
  (void)MPI_Irecv(p->dn, plane, MPI_DOUBLE, below, 1, p->comm, &req[0]);
  (void)MPI_Irecv(p->up, plane, MPI_DOUBLE, above, 2, p->comm, &req[1]);
  (void)MPI_Isend((void *)u, plane, MPI_DOUBLE, below, 2, p->comm, &req[2]);
  (void)MPI_Isend((void *)(u + (size_t)plane * (p->nzl - 1)), plane, MPI_DOUBLE, above, 1, p->comm, &req[3]);
  (void)MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
}

/* c at (i, j, local plane k), k in [-1, nzl], with the mirror at the box's faces */
static double DiurnalPeerC(const DiurnalPeer *p, const double *u, int s, int i, int j, int k)
{
  const int gk = p->zs + k;
  if (i < 0) i = 1;
  if (i >= p->mx) i = p->mx - 2;
  if (p->my > 1) {
    if (j < 0) j = 1;
    if (j >= p->my) j = p->my - 2;
  }
  if (gk < 0) k += 2; /* mirror: plane 1 */
  if (gk >= p->mz) k -= 2;
  if (k < 0) return p->dn[s + 2 * (i + p->mx * j)];
  if (k >= p->nzl) return p->up[s + 2 * (i + p->mx * j)];
  return u[s + 2 * ((size_t)i + (size_t)p->mx * (j + (size_t)p->my * k))];
}

static int DiurnalPeerRHS(realtype t, N_Vector U, N_Vector Udot, void *ud)
{
  DiurnalPeer  *p  = (DiurnalPeer *)ud;
  const double *u  = N_VGetArrayPointer(U);
  double       *f  = N_VGetArrayPointer(Udot);
  const double  hd = DP_KH / (p->dx * p->dx), ha = DP_V / (2 * p->dx), yd = p->my > 1 ? DP_KH / (p->dy * p->dy) : 0.0;
  DiurnalPeerRates(t, &p->q3, &p->q4);
  DiurnalPeerExchange(p, u);
  p->rhs_evals++;
  for (int k = 0; k < p->nzl; k++) {
    const double z = 30.0 + (p->zs + k) * p->dz, kdn = DP_KV0 * exp((z - 0.5 * p->dz) / 5.0) / (p->dz * p->dz), kup = DP_KV0 * exp((z + 0.5 * p->dz) / 5.0) / (p->dz * p->dz);
    for (int j = 0; j < p->my; j++)
      for (int i = 0; i < p->mx; i++) {
        const size_t q  = (size_t)i + (size_t)p->mx * (j + (size_t)p->my * k);
        const double c1 = u[2 * q], c2 = u[2 * q + 1];
        const double r1 = -DP_Q1 * DP_C3 * c1 - DP_Q2 * c1 * c2 + 2 * p->q3 * DP_C3 + p->q4 * c2;
        const double r2 = DP_Q1 * DP_C3 * c1 - DP_Q2 * c1 * c2 - p->q4 * c2;
        for (int s = 0; s < 2; s++) {
          const double c = u[2 * q + s], cl = DiurnalPeerC(p, u, s, i - 1, j, k), cr = DiurnalPeerC(p, u, s, i + 1, j, k);
          const double cd = DiurnalPeerC(p, u, s, i, j, k - 1), cu = DiurnalPeerC(p, u, s, i, j, k + 1);
          double       v = hd * (cr - 2 * c + cl) + ha * (cr - cl) + kup * (cu - c) - kdn * (c - cd);
          if (p->my > 1) v += yd * (DiurnalPeerC(p, u, s, i, j + 1, k) - 2 * c + DiurnalPeerC(p, u, s, i, j - 1, k));
          f[2 * q + s] = v + (s == 0 ? r1 : r2);
        }
      }
  }
  return 0;
}

/* P = I - gamma J_bd, J_bd: the reaction Jacobian plus the diagonal of the
   transport at each point (cvDiurnal's block-diagonal preconditioner). */
static int DiurnalPeerPrecSetup(realtype t, N_Vector U, N_Vector fu, booleantype jok, booleantype *jcur, realtype gamma, void *ud)
{
  DiurnalPeer  *p  = (DiurnalPeer *)ud;
  const double *u  = N_VGetArrayPointer(U);
  const double  hd = DP_KH / (p->dx * p->dx), yd = p->my > 1 ? DP_KH / (p->dy * p->dy) : 0.0;
  double        q3, q4;
  (void)fu;
  (void)jok;
  DiurnalPeerRates(t, &q3, &q4);
  for (int k = 0; k < p->nzl; k++) {
    const double z = 30.0 + (p->zs + k) * p->dz, kdn = DP_KV0 * exp((z - 0.5 * p->dz) / 5.0) / (p->dz * p->dz), kup = DP_KV0 * exp((z + 0.5 * p->dz) / 5.0) / (p->dz * p->dz);
    const double diag = -2 * hd - 2 * yd - kup - kdn;
    for (int j = 0; j < p->my; j++)
      for (int i = 0; i < p->mx; i++) {
        const size_t q  = (size_t)i + (size_t)p->mx * (j + (size_t)p->my * k);
        const double c1 = u[2 * q], c2 = u[2 * q + 1];
        double      *B   = p->P + 4 * q;
        const double j11 = -DP_Q1 * DP_C3 - DP_Q2 * c2 + diag, j12 = -DP_Q2 * c1 + q4, j21 = DP_Q1 * DP_C3 - DP_Q2 * c2, j22 = -DP_Q2 * c1 - q4 + diag;
        B[0] = 1 - gamma * j11, B[1] = -gamma * j12, B[2] = -gamma * j21, B[3] = 1 - gamma * j22;
      }
  }
  *jcur = SUNTRUE;
  return 0;
}

static int DiurnalPeerPrecSolve(realtype t, N_Vector U, N_Vector fu, N_Vector R, N_Vector Z, realtype gamma, realtype delta, int lr, void *ud)
{
  DiurnalPeer  *p = (DiurnalPeer *)ud;
  const double *r = N_VGetArrayPointer(R);
  double       *z = N_VGetArrayPointer(Z);
  const size_t  n = (size_t)p->mx * p->my * p->nzl;
  (void)t, (void)U, (void)fu, (void)gamma, (void)delta, (void)lr;
  for (size_t q = 0; q < n; q++) { /* 2x2 solve by Cramer's rule */
    const double *B = p->P + 4 * q, det = B[0] * B[3] - B[1] * B[2];
    z[2 * q]     = (B[3] * r[2 * q] - B[1] * r[2 * q + 1]) / det;
    z[2 * q + 1] = (B[0] * r[2 * q + 1] - B[2] * r[2 * q]) / det;
  }
  return 0;
}

/* CVODE (BDF, its Newton, SPGMR + the block-diagonal preconditioner) from
   t = 0 through the nout output times; out[o] gets the slab's state at
   touts[o] (each DiurnalPeerLocalSize long).  Returns 0 on success; *sec is
   the wall time of the integration (the rank's), *steps CVODE's steps. */
static int DiurnalPeerRun(DiurnalPeer *p, double rtol, double atol, int nout, const double *touts, double **out, double *sec, long int *steps)
{
  SUNContext      ctx;
  N_Vector        u;
  SUNLinearSolver LS;
  void           *cv;
  double          t    = 0, t0;
  int             flag = 0;
  MPI_Comm        comm = p->comm;
  if (SUNContext_Create((void *)&comm, &ctx)) return 1;
  u = N_VNew_Parallel(p->comm, DiurnalPeerLocalSize(p), 2 * (sunindextype)p->mx * p->my * p->mz, ctx);
  DiurnalPeerInitial(p, N_VGetArrayPointer(u));
  cv = CVodeCreate(CV_BDF, ctx);
  LS = SUNLinSol_SPGMR(u, SUN_PREC_LEFT, 0, ctx);
  (void)MPI_Barrier(p->comm);
  t0 = MPI_Wtime();
  flag |= CVodeInit(cv, DiurnalPeerRHS, 0.0, u);
  flag |= CVodeSetUserData(cv, p);
  flag |= CVodeSStolerances(cv, rtol, atol);
  flag |= CVodeSetMaxNumSteps(cv, 1000000);
  flag |= CVodeSetLinearSolver(cv, LS, NULL);
  flag |= CVodeSetPreconditioner(cv, DiurnalPeerPrecSetup, DiurnalPeerPrecSolve);
  for (int o = 0; o < nout && flag >= 0; o++) {
    flag = CVodeSetStopTime(cv, touts[o]);
    if (flag >= 0) flag = CVode(cv, touts[o], u, &t, CV_NORMAL);
    if (flag >= 0 && out && out[o]) memcpy(out[o], N_VGetArrayPointer(u), sizeof(double) * (size_t)DiurnalPeerLocalSize(p));
  }
  *sec = MPI_Wtime() - t0;
  CVodeGetNumSteps(cv, steps);
  CVodeFree(&cv);
  SUNLinSolFree(LS);
  N_VDestroy(u);
  SUNContext_Free(&ctx);
  return flag < 0 ? 1 : 0;
}
