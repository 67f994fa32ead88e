"""test_fortran: the Fortran interface (module eas, docs/fortran.md) gives the
answers of the C API.

examples/fortran/adrf.F90 (the ADR solver) and ebef.F90 (the element-by-
element operator: elements given by the program, the built-in mesh with its
manufactured solution, eas's CG) make the same calls as their C counterparts
adrc.c and ebec.c; each prints "result NAME VALUE" lines.  Both programs run
with the same options on every available backend (-eas_backend;
/cpu/memcheck on at most EAS_MEMCHECK_MAX_NP ranks); every result must be
equal: integers exactly, reals to 1e-12 relative.  The Fortran runs also
take -malloc_debug -malloc_dump (no leak through the interface).  Peer: the
C API of the same library; both programs also report convergence
(the ADR Newton reason, the CG reason and the discretization error, whose
size the C tests check against the manufactured solution).

  test_fortran.py --objdir OBJDIR --np N --example adr|ebe [options for both programs]
"""
import argparse
import os
import re
import shlex
import subprocess
import sys


def fail(msg):
    print(f"test_fortran: FAILED: {msg}")
    sys.exit(1)


def run(objdir, np_, exe, args):
    mpiexec = shlex.split(os.environ.get("MPIEXEC", "mpirun --oversubscribe"))
    cmd = mpiexec + ["-n", str(np_), os.path.join(objdir, "examples", "fortran", exe)] + args
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=dict(os.environ, OMP_NUM_THREADS="1"))
    if p.returncode != 0 or re.search(r"Total space allocated|bytes [A-Za-z_0-9]+\(\) (at|line)", p.stdout):
        print("$ " + " ".join(cmd))
        print(p.stdout, end="")
        fail(f"{exe}: exit code {p.returncode} or memory leaked")
    res = dict(re.findall(r"^result (\S+)\s+(\S+)\s*$", p.stdout, re.M))
    if not res:
        print(p.stdout, end="")
        fail(f"{exe}: no result lines")
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--objdir", required=True)
    ap.add_argument("--np", type=int, default=1)
    ap.add_argument("--example", required=True, choices=["adr", "ebe"])
    a, rest = ap.parse_known_args()
    if not os.path.exists(os.path.join(a.objdir, "examples", "fortran", a.example + "f")):
        fail(f"{a.example}f is not built (gfortran missing? make FORTRAN=1)")
    info = os.path.join(a.objdir, "examples", "eas_info")
    bes = [b for b in subprocess.run([info, "-available"], stdout=subprocess.PIPE, text=True).stdout.split() if b.startswith("/")]
    maxmem = int(os.environ.get("EAS_MEMCHECK_MAX_NP", "2"))
    for be in bes:
        if be == "/cpu/memcheck" and a.np > maxmem:
            continue
        args = rest + ["-eas_backend", be]
        rc = run(a.objdir, a.np, a.example + "c", args)
        rf = run(a.objdir, a.np, a.example + "f", args + ["-malloc_debug", "-malloc_dump"])
        if set(rc) != set(rf):
            fail(f"{be}: C results {sorted(rc)}, Fortran results {sorted(rf)}")
        worst = 0.0
        for k in rc:
            c, f = rc[k], rf[k]
            if re.fullmatch(r"-?\d+", c):
                if c != f:
                    fail(f"{be}: {k}: C {c}, Fortran {f}")
            else:
                c, f = float(c), float(f)
                d = abs(c - f) / max(abs(c), 1e-300)
                worst = max(worst, d)
                if d > 1e-12:
                    fail(f"{be}: {k}: C {c!r}, Fortran {f!r} (relative difference {d:.1e} > 1e-12)")
        print(f"{a.example} np={a.np} {be}: {len(rc)} results equal (largest relative difference of the reals {worst:.1e}); " + ", ".join(f"{k}={rc[k]}" for k in sorted(rc)))
    print(f"test_fortran: {a.example}, {a.np} rank(s): ok")


if __name__ == "__main__":
    main()

r"""
/*TEST
  test:
    suffix: adr
    nsize: 1 2 4
    backends: none
    args: --example adr -adr_n 8 -adr_steps 2
    expect: test_fortran: adr, [124] rank\(s\): ok
  test:
    suffix: ebe
    nsize: 1 2
    backends: none
    args: --example ebe -mesh_n 4
    expect: test_fortran: ebe, [12] rank\(s\): ok
  test:
    suffix: ebe_q2_pipecg
    nsize: 2
    backends: none
    args: --example ebe -mesh_n 2 -mesh_order 2 -ksp_type pipecg -pc_type jacobi
    expect: test_fortran: ebe, 2 rank\(s\): ok
TEST*/
"""
