"""test_bench_tutorials: bench/petsc_tutorials.py on small grids, one run,
so that make bench's tutorial lines do not rot: each of the four PETSc
tutorials gives one BENCH line with PETSc's and eas's time per iteration,
the same iteration count for both, eas's GB/s and the read9 reference
timed in the same run (bench_ref on the same ranks), and the ratio of the
two where eas counts its bytes per row.  On the small grids the working
set is in the cache (the LLC is given: -bench_llc_mb 32), so at_bandwidth
must say "no" and no ratio is a bandwidth claim; the fields, not the
speeds, are checked (timings are the benchmark's business).

  test_bench_tutorials.py --objdir OBJDIR --np N
"""
import argparse
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--objdir", required=True)
    ap.add_argument("--np", type=int, default=1)
    a = ap.parse_args()
    if not os.path.exists(os.path.join(a.objdir, "petsc-tutorials", "ex2")):
        print(f"test_bench_tutorials: FAILED: {a.objdir}/petsc-tutorials is not built (make tutorials)")
        sys.exit(1)
    cmd = [sys.executable, os.path.join(HERE, "..", "bench", "petsc_tutorials.py"), a.objdir, "--np", str(a.np), "--runs", "1", "--its", "5", "--small"]
    env = dict(os.environ, PETSC_OPTIONS=(os.environ.get("PETSC_OPTIONS", "") + " -bench_llc_mb 32").strip())
    print("$ " + " ".join(cmd), flush=True)
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    print(p.stdout)
    if p.returncode != 0:
        print(f"test_bench_tutorials: FAILED: petsc_tutorials.py exited with {p.returncode}")
        sys.exit(1)
    for tut in ("ex45", "ex50", "ex2", "ex3"):
        m = re.search(rf"^BENCH petsc_tutorial={tut} np={a.np} .* its=5 petsc_ms_per_it=[0-9.]+ eas_ms_per_it=[0-9.]+ petsc_over_eas=[0-9.]+ "
                      r"eas_bytes_per_row=(\S+) eas_GBs=(\S+) read9_GBs=([0-9.]+) eas_over_read9=(\S+) llc_MB=32\.0 llc_from=option at_bandwidth=(\S+)", p.stdout, re.M)
        if not m:
            print(f"test_bench_tutorials: FAILED: no complete BENCH line for {tut}")
            sys.exit(1)
        bpr, gbs, r9, ratio, atbw = m.groups()
        if float(r9) <= 0:
            print(f"test_bench_tutorials: FAILED: {tut}: read9 {r9} GB/s")
            sys.exit(1)
        if tut == "ex3":  # CG on element matrices: no bytes per row
            ok = bpr == gbs == ratio == atbw == "n/a"
        else:
            ok = float(bpr) > 0 and abs(float(ratio) - float(gbs) / float(r9)) <= 0.03 * float(ratio) + 0.01 and atbw == "no"
        if not ok:
            print(f"test_bench_tutorials: FAILED: {tut}: bytes/row {bpr}, eas {gbs} GB/s, read9 {r9}, ratio {ratio}, at_bandwidth {atbw}")
            sys.exit(1)
    print(f"test_bench_tutorials: {a.np} rank(s): ok")


if __name__ == "__main__":
    main()

r"""
/*TEST
  test:
    suffix: small
    nsize: 1 2
    backends: none
    expect: test_bench_tutorials: [12] rank\(s\): ok
TEST*/
"""
