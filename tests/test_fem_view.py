"""test_fem_view: fem_pcg -fem_view_solution writes the solution field of the
last mesh through PETSc's viewers, and this test reads it back.

fem_pcg solves the built-in manufactured problem (docs/fem.md): component k
of the exact field is u_k = prod_d sin(A[k][d] x_d + B[k][d]), imposed as
Dirichlet data on the whole boundary, with the body force that it solves.
So the field read back must equal u on the boundary nodes up to the solver
tolerance, and be within the discretization error of u inside (manufactured
solution; it also checks the node ordering and the geometry of the DMDA).  Two runs on the same mesh:
  vtk:sol.vts   parsed here (XML StructuredGrid, raw appended data, one
                Piece per rank): WholeExtent = the node grid (order n + 1
                points per direction, max(n, ranks) elements in z), point
                coordinates on the uniform grid of the unit cube, the field
  binary:sol    PETSc's binary Vec (the DMDA's natural ordering, dof
                interleaved), read as VecLoad would: identical to the VTK field

  test_fem_view.py --objdir OBJDIR --np N --problem poisson|elasticity --order 1|2 --n 3 [--interior-tol 0.05]
"""
import argparse
import math
import os
import re
import shlex
import shutil
import struct
import subprocess
import sys
import tempfile

VEC_FILE_CLASSID = 1211214


# the manufactured solution of src/mat/femfields.c (EAS_MMS_A, EAS_MMS_B), written out again here
MMS_A = [[2.0, 1.5, 1.0], [1.0, 2.0, 1.5], [1.5, 1.0, 2.0]]
MMS_B = [[0.5, 0.3, 0.7], [0.2, 0.9, 0.4], [1.1, 0.6, 0.1]]


def fail(msg):
    print(f"test_fem_view: FAILED: {msg}")
    sys.exit(1)


def run_fem(objdir, np_, args):
    mpiexec = shlex.split(os.environ.get("MPIEXEC", "mpirun --oversubscribe"))
    cmd = mpiexec + ["-n", str(np_), os.path.join(objdir, "examples", "fem_pcg")] + args
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    print("$ " + " ".join(cmd))
    print(p.stdout, end="")
    if p.returncode != 0:
        fail(f"fem_pcg exited with {p.returncode}")


def read_vts(path):
    """Returns (whole extent, {name: {(i,j,k): tuple}}) from a PETSc .vts with raw appended data."""
    with open(path, "rb") as f:
        data = f.read()
    mark = data.find(b'<AppendedData encoding="raw">')
    if mark < 0:
        fail(f"{path}: no raw AppendedData")
    head = data[:mark].decode()
    raw = data[data.index(b"_", mark) + 1:]
    if 'byte_order="LittleEndian"' not in head:
        fail(f"{path}: expected LittleEndian data")
    whole = [int(v) for v in re.search(r'WholeExtent="([^"]+)"', head).group(1).split()]
    fields = {}
    for piece in re.finditer(r'<Piece Extent="([^"]+)">(.*?)</Piece>', head, re.S):
        ext = [int(v) for v in piece.group(1).split()]
        pts = [(i, j, k) for k in range(ext[4], ext[5] + 1) for j in range(ext[2], ext[3] + 1) for i in range(ext[0], ext[1] + 1)]
        for arr in re.finditer(r"<DataArray ([^>]*)/>", piece.group(2)):
            at = dict(re.findall(r'(\w+)="([^"]*)"', arr.group(1)))
            if at.get("type") != "Float64" or at.get("format") != "appended":
                fail(f"{path}: unexpected DataArray {at}")
            nc, off = int(at["NumberOfComponents"]), int(at["offset"])
            (nbytes,) = struct.unpack_from("<I", raw, off)
            if nbytes != 8 * nc * len(pts):
                fail(f"{path}: DataArray {at['Name']} holds {nbytes} bytes, expected {8 * nc * len(pts)}")
            vals = struct.unpack_from(f"<{nc * len(pts)}d", raw, off + 4)
            d = fields.setdefault(at["Name"], {})
            for m, p in enumerate(pts):
                d[p] = vals[m * nc:(m + 1) * nc]
    return whole, fields


def read_petsc_binary_vec(path):
    with open(path, "rb") as f:
        data = f.read()
    cls, n = struct.unpack_from(">ii", data, 0)
    if cls != VEC_FILE_CLASSID:
        fail(f"{path}: class id {cls}, expected the Vec class id {VEC_FILE_CLASSID}")
    if len(data) != 8 + 8 * n:
        fail(f"{path}: {len(data)} bytes for {n} entries")
    return struct.unpack_from(f">{n}d", data, 8)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--objdir", required=True)
    ap.add_argument("--np", type=int, default=1)
    ap.add_argument("--problem", default="poisson", choices=["poisson", "elasticity"])
    ap.add_argument("--order", type=int, default=1)
    ap.add_argument("--n", type=int, default=3)
    ap.add_argument("--interior-tol", dest="interior_tol", type=float, default=0.05, help="max nodal error inside, relative to max |u|")
    a = ap.parse_args()
    dof = 1 if a.problem == "poisson" else 3
    N = [a.order * a.n + 1, a.order * a.n + 1, a.order * max(a.n, a.np) + 1]
    tmp = tempfile.mkdtemp(prefix="eas_femview_")
    try:
        base = ["-fem_steps", "1", "-fem_n", str(a.n), "-fem_problem", a.problem, "-fem_order", str(a.order), "-ksp_rtol", "1e-12"]
        vts, binf = os.path.join(tmp, "sol.vts"), os.path.join(tmp, "sol.bin")
        run_fem(a.objdir, a.np, base + ["-fem_view_solution", f"vtk:{vts}"])
        run_fem(a.objdir, a.np, base + ["-fem_view_solution", f"binary:{binf}"])
        whole, fields = read_vts(vts)
        if whole != [0, N[0] - 1, 0, N[1] - 1, 0, N[2] - 1]:
            fail(f"WholeExtent {whole}, expected the node grid {N[0]} x {N[1]} x {N[2]}")
        npts = N[0] * N[1] * N[2]
        pos = fields.pop("Position", None)
        if pos is None or len(pos) != npts:
            fail(f"the pieces cover {0 if pos is None else len(pos)} points, expected {npts}")
        names = sorted(fields)
        want = ["solution.temperature"] if dof == 1 else [f"solution.displacement_{c}" for c in "xyz"]
        if names != sorted(want):
            fail(f"fields {names}, expected {want}")
        geo = 0.0
        errb = 0.0
        err = 0.0
        big = 0.0
        for (i, j, k), xyz in pos.items():
            h = (i / (N[0] - 1), j / (N[1] - 1), k / (N[2] - 1))
            geo = max(geo, max(abs(xyz[c] - h[c]) for c in range(3)))
            onb = i in (0, N[0] - 1) or j in (0, N[1] - 1) or k in (0, N[2] - 1)
            for c, name in enumerate(want):
                u = fields[name][(i, j, k)][0]
                ex = math.prod(math.sin(MMS_A[c][d] * h[d] + MMS_B[c][d]) for d in range(3))
                if onb:
                    errb = max(errb, abs(u - ex))
                else:
                    err = max(err, abs(u - ex))
                big = max(big, abs(ex))
        print(f"test_fem_view: VTK: {npts} points, max coordinate error {geo:.3g}, max |u - u_exact| {errb:.3g} on the boundary, {err:.3g} inside (max |u_exact| {big:.3g})")
        if geo > 1e-12:
            fail(f"coordinates off the uniform grid by {geo:.3g}")
        if errb > 1e-9 * big:
            fail(f"the boundary values differ from the Dirichlet data by {errb:.3g}")
        if err > a.interior_tol * big:
            fail(f"the interior differs from the manufactured solution by {err:.3g}, more than the discretization error allows ({a.interior_tol} relative)")
        vec = read_petsc_binary_vec(binf)
        if len(vec) != npts * dof:
            fail(f"binary Vec of {len(vec)} entries, expected {npts * dof}")
        diff = 0.0
        for (i, j, k) in pos:
            m = i + N[0] * (j + N[1] * k)
            for c, name in enumerate(want):
                diff = max(diff, abs(vec[m * dof + c] - fields[name][(i, j, k)][0]))
        print(f"test_fem_view: binary Vec: {len(vec)} entries in natural ordering, max difference to the VTK field {diff:.3g}")
        if diff != 0.0:
            fail("the binary and VTK fields differ")
        print(f"test_fem_view: {a.problem} Q{a.order}, {a.np} rank(s): ok")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

r"""
/*TEST
  test:
    suffix: poisson_q1
    nsize: 1 2
    backends: none
    args: --problem poisson --order 1 --n 3
    expect: test_fem_view: poisson Q1, [12] rank\(s\): ok
  test:
    suffix: elasticity_q2
    nsize: 2
    backends: none
    args: --problem elasticity --order 2 --n 2 --interior-tol 0.01
    expect: test_fem_view: elasticity Q2, 2 rank\(s\): ok
TEST*/
"""
