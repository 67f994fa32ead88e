/*
  Ribeiro: heterogeneous speedup and efficiency, the performance index of
  a window, balanced shares, amortized migration, and the power budget
  (ch. 5).

  No global state, no I/O; inputs validated with the checks of modelsimpl.h
  (include/eas/energy.h documents every function, docs/models.md gives the
  equations and docs/references.md the papers).
*/
#include "modelsimpl.h"

/* ============================================================ Ribeiro */

PetscErrorCode EasModelHeterogeneousSpeedup(PetscReal Tref, PetscReal TD, PetscReal *S)
{
  PetscFunctionBegin;
  EasCheckTime(Tref, "Tref");
  EasCheckTime(TD, "TD");
  EasCheckNull(S, "S");
  *S = Tref / TD; /* Ribeiro eq. (3.5) */
  PetscFunctionReturn(0);
}

PetscErrorCode EasModelHeterogeneousEfficiency(PetscReal TD, PetscInt n, const PetscReal Tdev[], PetscReal *E)
{
  PetscReal cap = 0;

  PetscFunctionBegin;
  EasCheckTime(TD, "TD");
  EasCheckSize(n, "n (number of devices)");
  PetscCall(CheckTimeArray(n, Tdev, PETSC_FALSE, "Tdev"));
  EasCheckNull(E, "E");
  for (PetscInt i = 0; i < n; i++) cap += 1.0 / Tdev[i]; /* Ribeiro eq. (3.6): C*_D / W */
  *E = (1.0 / TD) / cap;                                 /* Ribeiro eq. (3.6) */
  PetscFunctionReturn(0);
}

PetscErrorCode EasModelWindowIndex(PetscInt n, const PetscReal busy[], const PetscInt count[], PetscReal *r)
{
  PetscReal b = 0, c = 0;

  PetscFunctionBegin;
  EasCheckSize(n, "n (iterations in the window)");
  PetscCall(CheckTimeArray(n, busy, PETSC_TRUE, "busy"));
  PetscCall(CheckCountArray(n, count, "count"));
  EasCheckNull(r, "r");
  for (PetscInt k = 0; k < n; k++) {
    b += busy[k];             /* Ribeiro eq. (4.1) numerators */
    c += (PetscReal)count[k]; /* Ribeiro eq. (4.1) denominators */
  }
  PetscCheck(c > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "sum of count[] = 0: the window must contain work");
  *r = b / c; /* Ribeiro eq. (4.1), count-weighted window average */
  PetscFunctionReturn(0);
}

PetscErrorCode EasModelWindowIndexQuantile(PetscInt n, const PetscReal busy[], const PetscInt count[], PetscReal q, PetscReal *r)
{
  PetscReal v[64], pos;
  PetscInt  m = 0, k0;

  PetscFunctionBegin;
  EasCheckSize(n, "n (iterations in the window)");
  PetscCheck(n <= 64, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "n = %" PetscInt_FMT ": the window holds at most 64 iterations", n);
  PetscCheck(q >= 0.0 && q <= 1.0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "q = %g: expected a quantile in [0, 1]", (double)q);
  PetscCall(CheckTimeArray(n, busy, PETSC_TRUE, "busy"));
  PetscCall(CheckCountArray(n, count, "count"));
  EasCheckNull(r, "r");
  for (PetscInt k = 0; k < n; k++)
    if (count[k] > 0) v[m++] = busy[k] / (PetscReal)count[k]; /* Ribeiro eq. (4.1) */
  PetscCheck(m > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "sum of count[] = 0: the window must contain work");
  PetscCall(PetscSortReal(m, v));
  pos = q * (m - 1);
  k0  = (PetscInt)PetscFloorReal(pos);
  *r  = (k0 + 1 < m) ? v[k0] + (pos - k0) * (v[k0 + 1] - v[k0]) : v[m - 1]; /* robust to spikes */
  PetscFunctionReturn(0);
}

PetscErrorCode EasModelWindowIndexMedian(PetscInt n, const PetscReal busy[], const PetscInt count[], PetscReal *r)
{
  PetscFunctionBegin;
  PetscCall(EasModelWindowIndexQuantile(n, busy, count, 0.5, r));
  PetscFunctionReturn(0);
}

PetscErrorCode EasModelBalancedShares(PetscInt n, const PetscReal rate[], PetscInt N, PetscInt shares[])
{
  PetscReal inv = 0;
  PetscInt  sum = 0;

  PetscFunctionBegin;
  EasCheckSize(n, "n (number of units)");
  PetscCall(CheckTimeArray(n, rate, PETSC_FALSE, "rate"));
  PetscCheck(N >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "N = %" PetscInt_FMT " (work units) must be >= 0", N);
  EasCheckNull(shares, "shares");
  for (PetscInt u = 0; u < n; u++) inv += 1.0 / rate[u];
  for (PetscInt u = 0; u < n; u++) {
    const PetscReal real = (PetscReal)N * (1.0 / rate[u]) / inv; /* Ribeiro eq. (4.4): r_u n_u equal, sum n_u = N */
    shares[u]            = (PetscInt)PetscFloorReal(real);
    sum += shares[u];
  }
  /* rounding guard: never more than N in total */
  while (sum > N) {
    PetscInt  worst = -1;
    PetscReal tw    = -1;
    for (PetscInt u = 0; u < n; u++)
      if (shares[u] > 0 && rate[u] * shares[u] > tw) {
        tw    = rate[u] * shares[u];
        worst = u;
      }
    shares[worst]--;
    sum--;
  }
  /* the remaining (< n) units, one at a time, to the unit finishing first with it: min-max optimal */
  while (sum < N) {
    PetscInt  bestu = 0;
    PetscReal tb    = rate[0] * (shares[0] + 1);
    for (PetscInt u = 1; u < n; u++)
      if (rate[u] * (shares[u] + 1) < tb) {
        tb    = rate[u] * (shares[u] + 1);
        bestu = u;
      }
    shares[bestu]++;
    sum++;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode EasModelMigrationAmortized(PetscInt n, const PetscReal rate[], const PetscInt Ncur[], const PetscInt Nnew[], PetscReal remaining, PetscReal cost, PetscBool *migrate, PetscReal *Tbar, PetscReal *Tdist)
{
  PetscReal tb = 0, td = 0;

  PetscFunctionBegin;
  EasCheckSize(n, "n (number of units)");
  PetscCall(CheckTimeArray(n, rate, PETSC_FALSE, "rate"));
  PetscCall(CheckCountArray(n, Ncur, "Ncur"));
  PetscCall(CheckCountArray(n, Nnew, "Nnew"));
  EasCheckNonNeg(remaining, "remaining (iterations left)");
  EasCheckTimeNonNeg(cost, "cost (migration time)");
  EasCheckNull(migrate, "migrate");
  for (PetscInt u = 0; u < n; u++) {
    tb = PetscMax(tb, rate[u] * (PetscReal)Ncur[u]); /* Ribeiro eq. (4.5) */
    td = PetscMax(td, rate[u] * (PetscReal)Nnew[u]); /* Ribeiro eq. (4.6) */
  }
  *migrate = (remaining * tb > cost + remaining * td) ? PETSC_TRUE : PETSC_FALSE; /* Ribeiro eq. (4.7), (4.8) */
  if (Tbar) *Tbar = tb;
  if (Tdist) *Tdist = td;
  PetscFunctionReturn(0);
}

/* ------------------------------------------------ power budget (Ribeiro ch. 5) */

static PetscErrorCode CheckPowerUnit(const EasPowerUnit *u, PetscInt p)
{
  PetscFunctionBegin;
  PetscCheck(!PetscIsInfOrNanReal(u->rate) && u->rate > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "units[%" PetscInt_FMT "].rate = %g must be a time per work unit > 0 s", p, (double)u->rate);
  PetscCheck(!PetscIsInfOrNanReal(u->fcap) && u->fcap > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "units[%" PetscInt_FMT "].fcap = %g must be a frequency > 0", p, (double)u->fcap);
  PetscCheck(!PetscIsInfOrNanReal(u->work) && u->work >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "units[%" PetscInt_FMT "].work = %g must be >= 0", p, (double)u->work);
  PetscCheck(u->nlevels >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "units[%" PetscInt_FMT "].nlevels = %" PetscInt_FMT " must be >= 0 (0: linear Phi, eq. 5.9)", p, u->nlevels);
  if (u->nlevels == 0) {
    PetscCheck(!PetscIsInfOrNanReal(u->tdp) && u->tdp > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "units[%" PetscInt_FMT "].tdp = %g must be a power > 0 W", p, (double)u->tdp);
    PetscCheck(!PetscIsInfOrNanReal(u->fmin) && u->fmin > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "units[%" PetscInt_FMT "].fmin = %g must be a frequency > 0", p, (double)u->fmin);
    PetscCheck(!PetscIsInfOrNanReal(u->fmax) && u->fmax >= u->fcap && u->fcap >= u->fmin, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "units[%" PetscInt_FMT "]: need fmin <= fcap <= fmax, got fmin = %g, fcap = %g, fmax = %g", p, (double)u->fmin, (double)u->fcap,
               (double)u->fmax);
  } else {
    EasCheckNull(u->levelPower, "units[].levelPower");
    EasCheckNull(u->levelFreq, "units[].levelFreq");
    for (PetscInt l = 0; l < u->nlevels; l++) {
      PetscCheck(!PetscIsInfOrNanReal(u->levelPower[l]) && u->levelPower[l] >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "units[%" PetscInt_FMT "].levelPower[%" PetscInt_FMT "] = %g must be a finite power >= 0 W", p, l, (double)u->levelPower[l]);
      PetscCheck(!PetscIsInfOrNanReal(u->levelFreq[l]) && u->levelFreq[l] > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "units[%" PetscInt_FMT "].levelFreq[%" PetscInt_FMT "] = %g must be a frequency > 0", p, l, (double)u->levelFreq[l]);
    }
  }
  PetscFunctionReturn(0);
}

/* T_p at frequency f, Ribeiro eq. (5.6) with Phi(W) = f */
static inline PetscReal UnitTimeAtFreq(const EasPowerUnit *u, PetscReal f)
{
  return u->rate * u->fcap * u->work / f; /* Ribeiro eq. (5.6) */
}

/* the least power of a linear unit meeting T <= Z (Z > 0): W = c/Z clamped to Wmin, c = rate fcap work tdp/fmax */
static inline PetscReal LinearC(const EasPowerUnit *u)
{
  return u->rate * u->fcap * u->work * u->tdp / u->fmax; /* Ribeiro eqs. (5.6), (5.9) solved for W */
}
static inline PetscReal LinearWmin(const EasPowerUnit *u)
{
  return u->fmin * u->tdp / u->fmax; /* Ribeiro eq. (5.9): Phi(W) = fmin */
}

/* least power of unit u meeting T_u <= Z; returns PETSC_FALSE if no allowed power does.
   Also returns the time and frequency reached. */
static PetscBool UnitLeastPower(const EasPowerUnit *u, PetscReal Z, PetscReal *W, PetscReal *T, PetscReal *f)
{
  if (u->nlevels == 0) {
    const PetscReal Wmin = LinearWmin(u), c = LinearC(u);
    PetscReal       w;

    if (u->work == 0)
      w = Wmin;
    else {
      if (!(Z > 0)) return PETSC_FALSE;
      w = PetscMax(c / Z, Wmin);
      if (w > u->tdp) {
        /* tolerate rounding at the fastest setting */
        if (UnitTimeAtFreq(u, u->fmax) <= Z)
          w = u->tdp;
        else
          return PETSC_FALSE;
      }
    }
    *W = w;
    *f = u->fmax * w / u->tdp; /* Ribeiro eq. (5.9) */
    *T = UnitTimeAtFreq(u, *f);
    return PETSC_TRUE;
  } else {
    PetscInt best = -1;
    for (PetscInt l = 0; l < u->nlevels; l++) {
      const PetscReal t = UnitTimeAtFreq(u, u->levelFreq[l]);
      if (t <= Z && (best < 0 || u->levelPower[l] < u->levelPower[best] || (u->levelPower[l] == u->levelPower[best] && u->levelFreq[l] > u->levelFreq[best]))) best = l;
    }
    if (best < 0) return PETSC_FALSE;
    *W = u->levelPower[best];
    *f = u->levelFreq[best];
    *T = UnitTimeAtFreq(u, *f);
    return PETSC_TRUE;
  }
}

/* schedule for target time Z: W_p(Z) for every unit; time = max achieved, power = sum */
static PetscBool ScheduleAt(PetscInt P, const EasPowerUnit units[], PetscReal Z, PetscReal W[], PetscReal f[], PetscReal *time, PetscReal *power)
{
  PetscReal t = 0, s = 0;
  for (PetscInt p = 0; p < P; p++) {
    PetscReal w, tp, fp;
    if (!UnitLeastPower(&units[p], Z, &w, &tp, &fp)) return PETSC_FALSE;
    if (W) W[p] = w;
    if (f) f[p] = fp;
    t = PetscMax(t, tp); /* Ribeiro eq. (5.3) */
    s += w;              /* ||W||_1 */
  }
  *time  = t;
  *power = s;
  return PETSC_TRUE;
}

static int CompareReal(const void *a, const void *b)
{
  const PetscReal x = *(const PetscReal *)a, y = *(const PetscReal *)b;
  return (x > y) - (x < y);
}

PetscErrorCode EasModelPowerBudget(PetscInt P, const EasPowerUnit units[], PetscReal budget, PetscReal alpha1, PetscReal alpha2, PetscReal W[], PetscReal freq[], EasPowerBudgetResult *res)
{
  PetscReal *cand, Zfast = 0, Zslow = 0, Zcap = 0, Zhi, Zlo, time, power, bestZ, bestObj = PETSC_MAX_REAL;
  PetscInt   ncand = 0, nlev = 0;
  PetscBool  anyLinear = PETSC_FALSE, ok;

  PetscFunctionBegin;
  EasCheckSize(P, "P (number of units)");
  EasCheckNull(units, "units");
  for (PetscInt p = 0; p < P; p++) PetscCall(CheckPowerUnit(&units[p], p));
  EasCheckPositive(budget, "budget (W)");
  EasCheckNonNeg(alpha1, "alpha1");
  EasCheckNonNeg(alpha2, "alpha2");
  PetscCheck(alpha1 + alpha2 > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "alpha1 = %g and alpha2 = %g must not both be 0", (double)alpha1, (double)alpha2);
  EasCheckNull(W, "W");
  EasCheckNull(res, "res");

  /* Range of useful target times Z.
     Zfast: every unit at its fastest setting; Zslow: every unit at its least power (beyond, W(Z) is constant);
     Zcap = T(W^cap) = max_p rate_p work_p, the constraint T(W) <= T(W^cap) of Ribeiro eq. (5.7). */
  for (PetscInt p = 0; p < P; p++) {
    const EasPowerUnit *u = &units[p];
    PetscReal           tfast, tslow;
    if (u->nlevels == 0) {
      anyLinear = PETSC_TRUE;
      tfast     = UnitTimeAtFreq(u, u->fmax);
      tslow     = UnitTimeAtFreq(u, u->fmin);
    } else {
      PetscInt lmin = 0;
      tfast         = PETSC_MAX_REAL;
      for (PetscInt l = 0; l < u->nlevels; l++) {
        tfast = PetscMin(tfast, UnitTimeAtFreq(u, u->levelFreq[l]));
        if (u->levelPower[l] < u->levelPower[lmin] || (u->levelPower[l] == u->levelPower[lmin] && u->levelFreq[l] > u->levelFreq[lmin])) lmin = l;
      }
      tslow = UnitTimeAtFreq(u, u->levelFreq[lmin]);
      nlev += u->nlevels;
    }
    Zfast = PetscMax(Zfast, tfast);
    Zslow = PetscMax(Zslow, tslow);
    Zcap  = PetscMax(Zcap, UnitTimeAtFreq(u, u->fcap)); /* Ribeiro eq. (5.6) at f = fcap (= rate work; same expression as the level times, so a level at fcap matches exactly) */
  }
  res->tcap     = Zcap;
  res->feasible = PETSC_FALSE;
  Zhi           = PetscMin(Zslow, Zcap);

  /* least-power settings, returned when infeasible */
  (void)ScheduleAt(P, units, PETSC_MAX_REAL, W, freq, &time, &power);
  res->time      = time;
  res->power     = power;
  res->objective = alpha1 * time + alpha2 * power;
  if (Zhi < Zfast) PetscFunctionReturn(0); /* the caps are faster than any allowed setting */
  if (Zhi == 0) {                          /* no work at all: least power is optimal */
    res->feasible = (power <= budget) ? PETSC_TRUE : PETSC_FALSE;
    PetscFunctionReturn(0);
  }
  ok = ScheduleAt(P, units, Zhi, NULL, NULL, &time, &power);
  if (!ok || power > budget) PetscFunctionReturn(0); /* even the slowest allowed schedule exceeds the budget */

  /* candidate breakpoints: the level times of the tabular units inside [Zfast, Zhi], plus the ends */
  PetscCall(PetscMalloc1(nlev + 2, &cand));
  cand[ncand++] = Zfast;
  cand[ncand++] = Zhi;
  for (PetscInt p = 0; p < P; p++) {
    const EasPowerUnit *u = &units[p];
    for (PetscInt l = 0; l < u->nlevels; l++) {
      const PetscReal t = UnitTimeAtFreq(u, u->levelFreq[l]);
      if (t > Zfast && t < Zhi) cand[ncand++] = t;
    }
  }
  qsort(cand, (size_t)ncand, sizeof(PetscReal), CompareReal);

  /* Bisection on Z for the least Z meeting the budget: sum_p W_p(Z) is non-increasing in Z.
     First over the sorted breakpoints (the tabular part is constant between them), then inside one piece. */
  {
    PetscInt lo = 0, hi = ncand - 1; /* budget met at cand[hi] */
    ok = ScheduleAt(P, units, cand[0], NULL, NULL, &time, &power);
    if (ok && power <= budget)
      Zlo = cand[0];
    else {
      PetscReal a, b;
      while (hi - lo > 1) { /* invariant: budget violated (or infeasible) at cand[lo], met at cand[hi] */
        const PetscInt mid = (lo + hi) / 2;
        ok                 = ScheduleAt(P, units, cand[mid], NULL, NULL, &time, &power);
        if (ok && power <= budget)
          hi = mid;
        else
          lo = mid;
      }
      a = cand[lo];
      b = cand[hi];
      if (anyLinear) { /* inside (a, b] only the linear units change, continuously */
        for (PetscInt it = 0; it < 200 && b - a > 4 * PETSC_MACHINE_EPSILON * b; it++) {
          const PetscReal mid = 0.5 * (a + b);
          ok                  = ScheduleAt(P, units, mid, NULL, NULL, &time, &power);
          if (ok && power <= budget)
            b = mid;
          else
            a = mid;
        }
      }
      Zlo = b;
    }
  }

  /* Minimise G(Z) = alpha1 T(W(Z)) + alpha2 ||W(Z)||_1 on [Zlo, Zhi] (Ribeiro eq. (5.7)).
     On each piece [a,b] between breakpoints the tabular powers are constant and, for Z below
     Zlin = max over linear units of their time at least power, G = alpha1 Z + alpha2 (K + sum_lin max(c_p/Z, Wmin_p)),
     convex in Z: bisection on the sign of G'(Z) = alpha1 - alpha2 sum_{c_p/Z > Wmin_p} c_p/Z^2. */
  {
    PetscReal Zlin = 0;
    for (PetscInt p = 0; p < P; p++)
      if (units[p].nlevels == 0 && units[p].work > 0) Zlin = PetscMax(Zlin, LinearC(&units[p]) / LinearWmin(&units[p]));
    bestZ = Zlo;
    for (PetscInt i = -1; i < ncand; i++) {
      PetscReal a    = (i < 0) ? Zlo : cand[i], b, pts[3];
      PetscInt  npts = 0;
      if (a < Zlo || a > Zhi) continue;
      b = Zhi;
      for (PetscInt j = i + 1; j < ncand; j++)
        if (cand[j] > a) {
          b = PetscMin(cand[j], Zhi);
          break;
        }
      pts[npts++] = a;
      pts[npts++] = b;
      if (anyLinear && Zlin > a) {
        PetscReal lo = a, hi = PetscMin(b, Zlin);
        for (PetscInt it = 0; it < 200 && hi - lo > 4 * PETSC_MACHINE_EPSILON * hi; it++) {
          const PetscReal mid = 0.5 * (lo + hi);
          PetscReal       d   = alpha1;
          for (PetscInt p = 0; p < P; p++) {
            if (units[p].nlevels == 0 && units[p].work > 0) {
              const PetscReal c = LinearC(&units[p]);
              if (c / mid > LinearWmin(&units[p])) d -= alpha2 * c / (mid * mid); /* derivative of alpha2 c/Z */
            }
          }
          if (d >= 0)
            hi = mid;
          else
            lo = mid;
        }
        pts[npts++] = hi;
      }
      for (PetscInt k = 0; k < npts; k++) {
        PetscReal G;
        if (!ScheduleAt(P, units, pts[k], NULL, NULL, &time, &power)) continue;
        if (power > budget) continue;
        if (time > Zcap * (1 + 8 * PETSC_MACHINE_EPSILON)) continue;
        G = alpha1 * time + alpha2 * power; /* Ribeiro eq. (5.7) objective */
        if (G < bestObj) {
          bestObj = G;
          bestZ   = pts[k];
        }
      }
    }
  }
  PetscCall(PetscFree(cand));
  if (bestObj == PETSC_MAX_REAL) PetscFunctionReturn(0);
  (void)ScheduleAt(P, units, bestZ, W, freq, &time, &power);
  res->feasible  = PETSC_TRUE;
  res->time      = time;
  res->power     = power;
  res->objective = alpha1 * time + alpha2 * power;
  PetscFunctionReturn(0);
}

PetscErrorCode EasModelPowerUnitTime(const EasPowerUnit *u, PetscReal W, PetscReal *T, PetscReal *f)
{
  PetscReal freq = -1;

  PetscFunctionBegin;
  EasCheckNull(u, "u");
  PetscCall(CheckPowerUnit(u, 0));
  EasCheckPower(W, "W");
  EasCheckNull(T, "T");
  if (u->nlevels == 0) {
    const PetscReal Wmin = LinearWmin(u);
    PetscCheck(W >= Wmin * (1 - 8 * PETSC_MACHINE_EPSILON) && W <= u->tdp * (1 + 8 * PETSC_MACHINE_EPSILON), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "W = %g must lie in [fmin tdp/fmax, tdp] = [%g, %g]", (double)W, (double)Wmin, (double)u->tdp);
    freq = u->fmax * W / u->tdp; /* Ribeiro eq. (5.9) */
  } else {
    for (PetscInt l = 0; l < u->nlevels; l++)
      if (u->levelPower[l] == W) {
        freq = u->levelFreq[l];
        break;
      }
    PetscCheck(freq > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "W = %g is not one of the unit's level powers", (double)W);
  }
  *T = UnitTimeAtFreq(u, freq); /* Ribeiro eq. (5.6) */
  if (f) *f = freq;
  PetscFunctionReturn(0);
}
