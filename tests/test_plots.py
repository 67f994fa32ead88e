"""test_plots: tools/eas-plot renders each figure from the fixed inputs in
tests/data/plots (a fem_pcg trace of 3 meshes, two adr3d energy reports in
CSV, bench_adr and bench_dia/bench_ebe BENCH lines, all from real runs) and
the files are checked: the PNG exists and is a PNG of the requested size,
the SVG is well-formed XML of the requested size and holds the expected
number of data series (the distinct "series:<name>" ids eas-plot sets on
every data artist), counted from the inputs by hand:
  split    2 units x 3 meshes x 2 per-iteration panels + 2 units x 2 per-mesh panels = 16
  energy   idle + 1 unit (stacked) + the phase totals = 3
  latency  2 groups (full, inexact) x sync/async x 2 panels = 8
  frontier the frontier curve, the 1/beta bound, the measured point = 3
  bench    4 bandwidths (eas, read9, triad, PETSc) + 3 ratios + 2 EBE ratio series
           (apply / read9 and PETSc / eas cg, one point per element storage) = 9
  workprecision  eas's curve, the peer's, eas at the peer's errors = 3
The frontier case also feeds a report whose frontier value was altered: the
plot must refuse it, since the curve drawn in Python must agree with the
value EasModelClusterFrontierSync wrote (the formula is not duplicated
silently).

  test_plots.py --objdir OBJDIR --np 1 --plot NAME --series N
"""
import argparse
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DATA = os.path.join(HERE, "data", "plots")
TOOL = os.path.join(ROOT, "tools", "eas-plot")

INPUTS = {
    "split": ["fem.0.csv", "fem.1.csv", "fem.2.csv"],
    "energy": ["adr_sync.csv"],
    "latency": ["bench_adr.log"],
    "frontier": ["adr_sync.csv", "adr_async.csv"],
    "bench": ["bench.log"],
    "workprecision": ["bench_adr_peer.log"],
}


def fail(msg):
    print(f"test_plots: FAILED: {msg}")
    sys.exit(1)


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if len(head) < 24 or head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        fail(f"{path} is not a PNG file")
    return struct.unpack(">II", head[16:24])


def svg_series(path):
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        fail(f"{path} is not well-formed XML: {e}")
    if not root.tag.endswith("svg"):
        fail(f"{path}: root element {root.tag}, expected svg")
    names = set()
    for el in root.iter():
        i = el.get("id", "")
        if i.startswith("series:"):
            names.add(i.split(":")[1])
    return root.get("width"), root.get("height"), names


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    print("$ " + " ".join(cmd))
    print(p.stdout, end="")
    return p


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--objdir", required=True)
    ap.add_argument("--np", type=int, default=1)
    ap.add_argument("--plot", required=True, choices=sorted(INPUTS))
    ap.add_argument("--series", type=int, required=True)
    ap.add_argument("--mismatch", action="store_true", help="frontier: alter the C frontier value, expect a refusal")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="eas_plots_")
    try:
        inputs = [os.path.join(DATA, f) for f in INPUTS[a.plot]]
        if a.mismatch:
            bad = os.path.join(tmp, "adr_sync_altered.csv")
            with open(inputs[0]) as f, open(bad, "w") as g:
                for line in f:
                    if line.startswith("frontier,,,alpha,"):
                        v = float(line.split(",")[4])
                        line = f"frontier,,,alpha,{v * 1.01:.10g},modelled\n"
                    g.write(line)
            inputs[0] = bad
            p = run([sys.executable, TOOL, a.plot] + inputs + ["-o", os.path.join(tmp, a.plot)])
            if p.returncode == 0 or "the formulas disagree" not in p.stdout:
                fail("an altered frontier value was not refused")
            print("test_plots: frontier: an altered EasModelClusterFrontierSync value is refused: ok")
            return 0
        out = os.path.join(tmp, a.plot)
        p = run([sys.executable, TOOL, a.plot] + inputs + ["-o", out, "--width", "10", "--height", "6"])
        if p.returncode != 0:
            fail(f"eas-plot {a.plot} exited with {p.returncode}")
        for ext in ("png", "svg"):
            if not os.path.isfile(f"{out}.{ext}") or os.path.getsize(f"{out}.{ext}") == 0:
                fail(f"{out}.{ext} was not written")
        w, h = png_size(out + ".png")
        if (w, h) != (1000, 600):
            fail(f"PNG is {w}x{h}, expected 1000x600 (10 x 6 in at 100 dpi)")
        sw, sh, names = svg_series(out + ".svg")
        if (sw, sh) != ("720pt", "432pt"):
            fail(f"SVG is {sw} x {sh}, expected 720pt x 432pt")
        if len(names) != a.series:
            fail(f"SVG has {len(names)} data series {sorted(names)}, expected {a.series}")
        print(f"test_plots: {a.plot}: PNG {w}x{h}, SVG {sw} x {sh}, {len(names)} data series (expected {a.series}): ok")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

r"""
/*TEST
  test:
    suffix: split
    backends: none
    args: --plot split --series 16
    expect: split: PNG 1000x600, SVG 720pt x 432pt, 16 data series
  test:
    suffix: energy
    backends: none
    args: --plot energy --series 3
    expect: energy: PNG 1000x600, SVG 720pt x 432pt, 3 data series
  test:
    suffix: latency
    backends: none
    args: --plot latency --series 8
    expect: latency: PNG 1000x600, SVG 720pt x 432pt, 8 data series
  test:
    suffix: frontier
    backends: none
    args: --plot frontier --series 3
    expect: frontier: PNG 1000x600, SVG 720pt x 432pt, 3 data series
  test:
    suffix: frontier_mismatch
    backends: none
    args: --plot frontier --series 3 --mismatch
    expect: eas-plot frontier: .*the formulas disagree
    expect: an altered EasModelClusterFrontierSync value is refused: ok
  test:
    suffix: bench
    backends: none
    args: --plot bench --series 9
    expect: bench: PNG 1000x600, SVG 720pt x 432pt, 9 data series
  test:
    suffix: workprecision
    backends: none
    args: --plot workprecision --series 3
    expect: workprecision: PNG 1000x600, SVG 720pt x 432pt, 3 data series
TEST*/
"""
