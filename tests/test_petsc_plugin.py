"""test_petsc_plugin: eas inside PETSc's own tutorials (docs/petsc-plugin.md).

PETSc's tutorials ksp/tutorials/ex45 (3D Laplacian, DMDA), ex50 (2D Poisson,
DMDA, Neumann: singular, consistent), ex2 (MatSetValues) and ex3 (bilinear
elements, MatSetValues of 4x4 element blocks, MatZeroRows), built unmodified
from Debian's libpetsc3.18-dev-examples (make check builds them into
OBJDIR/petsc-tutorials), are run twice on the same grid:

  PETSc    the plain run: -ksp_type bcgs -ksp_pc_side right (ex45, ex50, ex2)
           or -ksp_type cg -ksp_norm_type unpreconditioned (ex3), -pc_type jacobi
  eas      -dll_append OBJDIR/lib/libeas.so with -dm_mat_type easdia
           -ksp_type easbcgs (ex45, ex50), -mat_type easdia -ksp_type easbcgs
           (ex2), -mat_type easebe -ksp_type eascg (ex3), on every available
           backend (-eas_backend; /cpu/memcheck on at most EAS_MEMCHECK_MAX_NP
           ranks), and for ex3 also with the online split of the element work
           (-ebe_split_units /cpu:1,/cpu:1; with a CUDA device /gpu/cuda,/cpu:1)
           and with -ksp_eascg_type pipecg.  ex2-linked (ex2 linked with libeas,
           no -dll_append) checks that linking alone registers the types;
           ex2-cg runs eas's CG (-ksp_type eascg) on ex2's MATEASDIA against
           PETSc's CG.

Each eas run must print that eas's solver ran (-info: "KSPEASBCGS: eas's
fused BiCGStab" / "KSPEASCG: eas's CG"), converge with the iteration count of
the PETSc run (within 10 % for BiCGStab, whose rounding differs; equal for
CG), and reach PETSc's solution (-ksp_view_solution binary:FILE) to the
solver tolerance, with -ksp_rtol 1e-10: BiCGStab (the DIA product sums each
row in PETSc's order) within 10 rtol ||x_PETSc||; CG on the element matrices
(the EBE apply sums a row's element contributions in another order, which
CG amplifies) within 2 kappa rtol ||x_PETSc||, the bound on the distance of
two solutions each within kappa rtol of the exact one, kappa = the
preconditioned operator's condition number estimated by PETSc's CG
(-ksp_compute_singularvalues, Lanczos) in the plain run.  Peer: PETSc's KSPBCGS and KSPCG on its AIJ assembly of the same
program.  Runs of eas also take -malloc_debug -malloc_dump (no leak).

  test_petsc_plugin.py --objdir OBJDIR --np N --tutorial ex45|ex50|ex2|ex3|ex2-linked|ex2-cg
"""
import argparse
import math
import os
import re
import shlex
import struct
import subprocess
import sys
import tempfile

VEC_FILE_CLASSID = 1211214
RTOL = 1e-10

# grid options and the two command lines of each tutorial
CASES = {
    "ex45": dict(grid=["-da_grid_x", "17", "-da_grid_y", "17", "-da_grid_z", "17"],
                 petsc=["-ksp_type", "bcgs", "-ksp_pc_side", "right"],
                 eas=["-dm_mat_type", "easdia", "-ksp_type", "easbcgs"], cg=False),
    "ex50": dict(grid=["-da_grid_x", "65", "-da_grid_y", "65"],
                 petsc=["-ksp_type", "bcgs", "-ksp_pc_side", "right"],
                 eas=["-dm_mat_type", "easdia", "-ksp_type", "easbcgs"], cg=False),
    "ex2": dict(grid=["-m", "40", "-n", "40"],
                petsc=["-ksp_type", "bcgs", "-ksp_pc_side", "right"],
                eas=["-mat_type", "easdia", "-ksp_type", "easbcgs"], cg=False),
    "ex3": dict(grid=["-m", "32"],
                petsc=["-ksp_type", "cg", "-ksp_norm_type", "unpreconditioned"],
                eas=["-mat_type", "easebe", "-ksp_type", "eascg"], cg=True),
}
CASES["ex2-linked"] = dict(CASES["ex2"])
# eas's CG on a MATEASDIA (ex2's matrix is symmetric positive definite)
CASES["ex2-cg"] = dict(grid=CASES["ex2"]["grid"], petsc=CASES["ex3"]["petsc"],
                       eas=["-mat_type", "easdia", "-ksp_type", "eascg"], cg=True, exe="ex2")


def fail(msg):
    print(f"test_petsc_plugin: FAILED: {msg}")
    sys.exit(1)


def run(objdir, np_, exe, args, tmp, tag):
    mpiexec = shlex.split(os.environ.get("MPIEXEC", "mpirun --oversubscribe"))
    sol = os.path.join(tmp, tag + ".bin")
    cmd = mpiexec + ["-n", str(np_), os.path.join(objdir, "petsc-tutorials", exe)] + args + [
        "-ksp_rtol", str(RTOL), "-ksp_converged_reason", "-ksp_view_solution", "binary:" + sol]
    env = dict(os.environ, OMP_NUM_THREADS="1")
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    if p.returncode != 0:
        print("$ " + " ".join(cmd))
        print(p.stdout, end="")
        fail(f"{tag}: exit code {p.returncode}")
    m = re.search(r"Linear solve converged due to (\S+) iterations (\d+)", p.stdout)
    if not m:
        print("$ " + " ".join(cmd))
        print(p.stdout, end="")
        fail(f"{tag}: the solve did not converge")
    if re.search(r"Total space allocated|bytes [A-Za-z_0-9]+\(\) (at|line)", p.stdout):
        print(p.stdout, end="")
        fail(f"{tag}: memory leaked (-malloc_dump)")
    return cmd, p.stdout, int(m.group(2)), read_vec(sol)


def read_vec(path):
    with open(path, "rb") as f:
        data = f.read()
    cid, n = struct.unpack(">ii", data[:8])
    if cid != VEC_FILE_CLASSID or len(data) < 8 + 8 * n:
        fail(f"{path}: not a PETSc binary Vec")
    return struct.unpack(f">{n}d", data[8:8 + 8 * n])


def backends(objdir):
    out = subprocess.run([os.path.join(objdir, "examples", "eas_info"), "-available"], stdout=subprocess.PIPE, text=True).stdout
    feats = subprocess.run([os.path.join(objdir, "examples", "eas_info"), "-features"], stdout=subprocess.PIPE, text=True).stdout.split()
    return [b for b in out.split() if b.startswith("/")], "cuda-device" in feats


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--objdir", required=True)
    ap.add_argument("--np", type=int, default=1)
    ap.add_argument("--tutorial", required=True, choices=sorted(CASES))
    a = ap.parse_args()
    case = CASES[a.tutorial]
    exe = case.get("exe", a.tutorial)
    lib = os.path.abspath(os.path.join(a.objdir, "lib", "libeas.so"))
    plugin = [] if exe.endswith("-linked") else ["-dll_append", lib]
    maxmem = int(os.environ.get("EAS_MEMCHECK_MAX_NP", "2"))
    bes, gpu = backends(a.objdir)
    with tempfile.TemporaryDirectory() as tmp:
        _, outp, its_p, xp = run(a.objdir, a.np, exe.replace("-linked", ""), case["grid"] + case["petsc"] + ["-pc_type", "jacobi"] + (["-ksp_compute_singularvalues"] if case["cg"] else []), tmp, "petsc")
        nx = math.sqrt(sum(v * v for v in xp))
        bound = 10 * RTOL
        if case["cg"]:
            m = re.search(r"max/min (\S+)", outp)
            if not m:
                fail("the PETSc CG run printed no condition estimate (-ksp_compute_singularvalues)")
            bound = 2 * float(m.group(1)) * RTOL
            print(f"{a.tutorial} np={a.np}: kappa of the Jacobi-preconditioned operator (PETSc's CG estimate) {float(m.group(1)):.4g}")
        variants = []
        for be in bes:
            if be == "/cpu/memcheck" and a.np > maxmem:
                continue
            variants.append((be, ["-eas_backend", be]))
        if case["cg"] and exe == "ex3":
            variants.append(("/cpu split /cpu:1,/cpu:1", ["-eas_backend", "/cpu", "-ebe_split_units", "/cpu:1,/cpu:1"]))
            if gpu:
                variants.append(("/cpu split /gpu/cuda,/cpu:1", ["-eas_backend", "/cpu", "-ebe_split_units", "/gpu/cuda,/cpu:1"]))
            variants.append(("/cpu pipecg", ["-eas_backend", "/cpu", "-ksp_eascg_type", "pipecg"]))
        for name, extra in variants:
            tag = "eas" + re.sub(r"[^A-Za-z0-9]", "_", name)
            cmd, out, its_e, xe = run(a.objdir, a.np, exe, case["grid"] + plugin + case["eas"] + ["-pc_type", "jacobi", "-info", ":ksp", "-malloc_debug", "-malloc_dump"] + extra, tmp, tag)
            want = "KSPEASCG: eas's" if case["cg"] else "KSPEASBCGS: eas's fused BiCGStab"
            if want not in out:
                print("$ " + " ".join(cmd))
                print(out, end="")
                fail(f"{name}: eas's solver did not run (no '{want}' under -info)")
            if len(xe) != len(xp):
                fail(f"{name}: solution of {len(xe)} entries, PETSc's has {len(xp)}")
            diff = math.sqrt(sum((u - v) ** 2 for u, v in zip(xe, xp))) / nx
            if case["cg"] and "pipecg" not in name:
                ok_its = its_e == its_p
            else:  # BiCGStab (and pipelined CG, whose recurrences round differently): within 10 %
                ok_its = abs(its_e - its_p) <= max(1, 0.1 * its_p)
            ok_x = diff <= bound
            print(f"{a.tutorial} np={a.np} {name}: iterations {its_e} (PETSc {its_p}), |x - x_PETSc|/|x_PETSc| = {diff:.2e} (bound {bound:.1e}): {'ok' if ok_its and ok_x else 'FAIL'}")
            if not ok_its or not ok_x:
                print("$ " + " ".join(cmd))
                fail(f"{name}: iterations {its_e} vs {its_p}, difference {diff:.2e}")
    print(f"test_petsc_plugin: {a.tutorial}, {a.np} rank(s): ok")


if __name__ == "__main__":
    main()

r"""
/*TEST
  test:
    suffix: ex45
    nsize: 1 2 4
    backends: none
    args: --tutorial ex45
    expect: test_petsc_plugin: ex45, [124] rank\(s\): ok
  test:
    suffix: ex50
    nsize: 1 2 4
    backends: none
    args: --tutorial ex50
    expect: test_petsc_plugin: ex50, [124] rank\(s\): ok
  test:
    suffix: ex2
    nsize: 1 2 4
    backends: none
    args: --tutorial ex2
    expect: test_petsc_plugin: ex2, [124] rank\(s\): ok
  test:
    suffix: ex2_linked
    nsize: 2
    backends: none
    args: --tutorial ex2-linked
    expect: test_petsc_plugin: ex2-linked, 2 rank\(s\): ok
  test:
    suffix: ex2_cg
    nsize: 1 4
    backends: none
    args: --tutorial ex2-cg
    expect: test_petsc_plugin: ex2-cg, [14] rank\(s\): ok
  test:
    suffix: ex3
    nsize: 1 2 4
    backends: none
    args: --tutorial ex3
    expect: test_petsc_plugin: ex3, [124] rank\(s\): ok
TEST*/
"""
