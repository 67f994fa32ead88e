#!/usr/bin/env python3
"""petsc_tutorials: one BENCH line per PETSc tutorial, eas through the
plug-in against the plain PETSc run of the same program (docs/petsc-plugin.md).

PETSc's ksp/tutorials ex45 (3D Laplacian, DMDA), ex50 (2D Poisson, DMDA), ex2
(MatSetValues) and ex3 (bilinear elements), as make builds them into
OBJDIR/petsc-tutorials, on grids where the vectors leave the cache:

  PETSc  -ksp_type bcgs -ksp_pc_side right -pc_type jacobi (cg -ksp_norm_type
         unpreconditioned for ex3)
  eas    -dll_append libeas.so -{dm_,}mat_type easdia -ksp_type easbcgs
         (easebe / eascg for ex3) -pc_type jacobi

Both run exactly ITS iterations (-ksp_max_it ITS -ksp_rtol 1e-30: the same
work; the tests compare convergence), alternately, RUNS times each; the time
per iteration is PETSc's KSPSolve event (-log_view, setup excluded; the
initial residual of a nonzero guess included for both) over ITS; medians.
eas's bytes per row are the ones its BiCGStab counts (-eas_ksp_view); the
GB/s follow from them (none for CG on element matrices: eas's EBE apply
reads element matrices, not rows).  The bandwidth reference is timed in the
same run: OBJDIR/bench/bench_ref (read9: 9 read streams and 1 write, the DIA
SpMV's access shape, bench/bandwidth.h) on the same ranks with one thread
each, after each pair of runs; eas_over_read9 is eas's GB/s over its median,
at_bandwidth says whether eas's working set (rows x bytes per row) is at
least 4 x the last-level cache (else part of it may sit in the cache and the
ratio is no bandwidth claim; "unknown" where the LLC is).  On /gpu/cuda the
host's read9 bounds nothing: n/a (bench_gpu times a device copy instead).

  python3 bench/petsc_tutorials.py OBJDIR [--np N] [--runs R] [--its ITS] [--small] [--backend /cpu|/gpu/cuda]
"""
import argparse
import os
import re
import shlex
import statistics
import subprocess
import sys

GRIDS = {
    "ex45": ["-da_grid_x", "65", "-da_grid_y", "65", "-da_grid_z", "65"],
    "ex50": ["-da_grid_x", "1025", "-da_grid_y", "1025"],
    "ex2": ["-m", "1000", "-n", "1000"],
    "ex3": ["-m", "700"],
}
SMALL = {
    "ex45": ["-da_grid_x", "17", "-da_grid_y", "17", "-da_grid_z", "17"],
    "ex50": ["-da_grid_x", "65", "-da_grid_y", "65"],
    "ex2": ["-m", "40", "-n", "40"],
    "ex3": ["-m", "32"],
}


def run(objdir, np_, exe, args):
    mpiexec = shlex.split(os.environ.get("MPIEXEC", "mpirun --oversubscribe"))
    cmd = mpiexec + ["-n", str(np_), os.path.join(objdir, "petsc-tutorials", exe)] + args
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=dict(os.environ, OMP_NUM_THREADS="1"))
    if p.returncode != 0:
        print(p.stdout)
        sys.exit(f"petsc_tutorials: {' '.join(cmd)} exited with {p.returncode}")
    solve = re.search(r"^KSPSolve\s+\d+\s+\S+\s+(\S+)", p.stdout, re.M)
    its = re.search(r"Linear solve (?:converged|did not converge) due to \S+ iterations (\d+)", p.stdout)
    rows = re.search(r"rows=(\d+)", p.stdout)
    bpr = re.search(r"\(([0-9.]+) bytes/row counted", p.stdout)
    if not solve or not its:
        print(p.stdout)
        sys.exit(f"petsc_tutorials: no KSPSolve time or iteration count in {' '.join(cmd)}")
    return float(solve.group(1)), int(its.group(1)), int(rows.group(1)) if rows else 0, float(bpr.group(1)) if bpr else None


def reference(objdir, np_):
    """read9 GB/s of np_ ranks at once, one thread each (bench_ref), and the LLC it used"""
    mpiexec = shlex.split(os.environ.get("MPIEXEC", "mpirun --oversubscribe"))
    cmd = mpiexec + ["-n", str(np_), os.path.join(objdir, "bench", "bench_ref"), "-threads", "1", "-runs", "3", "-reps", "3"]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=dict(os.environ, OMP_NUM_THREADS="1"))
    m = re.search(r"^BENCH name=reference .* read9_GBs=([0-9.]+) .* llc_MB=(\S+) llc_from=(\S+)", p.stdout, re.M)
    if p.returncode != 0 or not m:
        print(p.stdout)
        sys.exit(f"petsc_tutorials: {' '.join(cmd)} exited with {p.returncode} or printed no reference line")
    llc = float(m.group(2)) * 1e6 if m.group(2) != "unknown" else 0.0
    return float(m.group(1)), llc, m.group(3)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("objdir")
    ap.add_argument("--np", type=int, default=1)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--its", type=int, default=100)
    ap.add_argument("--small", action="store_true", help="small grids (smoke test)")
    ap.add_argument("--backend", default="/cpu", help="eas's backend (-eas_backend); PETSc runs on the CPU")
    a = ap.parse_args()
    lib = os.path.abspath(os.path.join(a.objdir, "lib", "libeas.so"))
    common = ["-pc_type", "jacobi", "-ksp_max_it", str(a.its), "-ksp_rtol", "1e-30", "-ksp_converged_reason", "-log_view", "-ksp_view", "::ascii_info"]
    grids = SMALL if a.small else GRIDS
    status = 0
    # The read9 reference, measured once per run index and shared by the four
    # tutorials (the same ranks, the same invocation): -runs references, not
    # 4 x -runs (bench_ref streams 850 MB per rank, seconds each).
    refs = [reference(a.objdir, a.np) for _ in range(a.runs)]
    for tut in ("ex45", "ex50", "ex2", "ex3"):
        cg = tut == "ex3"
        petsc = grids[tut] + (["-ksp_type", "cg", "-ksp_norm_type", "unpreconditioned"] if cg else ["-ksp_type", "bcgs", "-ksp_pc_side", "right"]) + common
        matopt = "-mat_type" if tut in ("ex2", "ex3") else "-dm_mat_type"
        eas = grids[tut] + ["-dll_append", lib, matopt, "easebe" if cg else "easdia", "-ksp_type", "eascg" if cg else "easbcgs", "-eas_ksp_view", "-eas_backend", a.backend] + (["-eas_threads", "1"] if a.backend.startswith("/cpu") else []) + common
        tp, te, tr = [], [], []
        for r in range(a.runs):
            t, itp, rows, _ = run(a.objdir, a.np, tut, petsc)
            tp.append(t / itp)
            t, ite, _, bpr = run(a.objdir, a.np, tut, eas)
            te.append(t / ite)
            r9, llc, llc_from = refs[r]
            tr.append(r9)
        mp, me, mr = statistics.median(tp), statistics.median(te), statistics.median(tr)
        if bpr and a.backend.startswith("/gpu"):
            gbs, ratio, atbw = f"{bpr * rows / me / 1e9:.2f}", "n/a", "n/a"  # a host reference bounds no device
        elif bpr:
            ws = bpr * rows
            gbs = f"{ws / me / 1e9:.2f}"
            ratio = f"{ws / me / 1e9 / mr:.3f}"
            atbw = ("yes" if ws >= 4 * llc else "no") if llc > 0 else "unknown"
        else:
            gbs = ratio = atbw = "n/a"
        print(f"BENCH petsc_tutorial={tut} np={a.np} eas_backend={a.backend} rows={rows} its={ite} petsc_ms_per_it={1e3 * mp:.3f} eas_ms_per_it={1e3 * me:.3f} "
              f"petsc_over_eas={mp / me:.2f} eas_bytes_per_row={bpr if bpr else 'n/a'} eas_GBs={gbs} read9_GBs={mr:.2f} eas_over_read9={ratio} "
              f"llc_MB={f'{llc * 1e-6:.1f}' if llc > 0 else 'unknown'} llc_from={llc_from} at_bandwidth={atbw} "
              f"range_petsc_ms={1e3 * min(tp):.3f}..{1e3 * max(tp):.3f} range_eas_ms={1e3 * min(te):.3f}..{1e3 * max(te):.3f} runs={a.runs}")
        if ite != itp:
            print(f"petsc_tutorials: {tut}: eas ran {ite} iterations, PETSc {itp} (expected {a.its} each)")
            status = 1
    sys.exit(status)


if __name__ == "__main__":
    main()
