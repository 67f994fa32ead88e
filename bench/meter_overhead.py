"""meter_overhead: the clock cost of measuring energy (issue 20 item 1).
fem_pcg and adr3d run with -eas_sensor model (no sensor) and with the fake
NVML whose every read takes FAKE_NVML_DELAY_MS (5 ms by default; an H100
under load takes about 3.5 ms), alternately, RUNS times each; the solve
times the drivers print are compared by the median of the per-pair ratios
(target: at most 1.03).  Also printed: the fake's own count of its reads
and the meter's phase boundaries (a meter that read at each boundary, as
before issue 20, made one read per boundary).

With --nvml system the runs read the machine's own NVML (a GPU machine's
driver, no injected delay; the read count is then not known, reads=n/a),
and --backend, --fem-n, --adr-n size the runs for a device, e.g.

  meter_overhead.py OBJDIR --nvml system --backend /gpu/cuda --fem-n 24 --adr-n 48

  meter_overhead.py OBJDIR [--runs 5] [--delay-ms 5] [--np 1] [--nvml fake|system] [--backend B] [--fem-n N] [--adr-n N]

One BENCH line per driver:
  BENCH name=meter_overhead driver=... delay_ms=5 runs=5 time_model_s=... time_nvml_s=... ratio=... target=1.03 reads=... reads_solver_thread=0 boundaries=...
"""
import argparse
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile

def cases(a):
    return {
        "fem_pcg": ["-fem_steps", "1", "-fem_n", str(a.fem_n), "-fem_problem", "elasticity", "-fem_order", "2", "-ksp_rtol", "1e-8"],
        "adr3d": ["-adr_n", str(a.adr_n), "-adr_steps", "3"],
    }


def solve_time(driver, out):
    if driver == "fem_pcg":
        ts = [float(v) for v in re.findall(r"^ +\d+ +\d+ +\d+ +\d+ +\d+ +[A-Z_]+ +([0-9.]+) ", out, re.M)]  # the summary's "solve s" column
    else:
        ts = [float(v) for v in re.findall(r"^  time ([0-9.]+) s, ", out, re.M)]
    if not ts:
        sys.exit(f"meter_overhead: no solve time in the output of {driver}:\n{out}")
    return sum(ts)


def run(a, driver, sensor_args, env):
    mpiexec = shlex.split(os.environ.get("MPIEXEC", "mpirun --oversubscribe"))
    backend = ["-eas_backend", a.backend] if a.backend else []
    cmd = mpiexec + ["-n", str(a.np), os.path.join(a.objdir, "examples", driver)] + cases(a)[driver] + backend + sensor_args + ["-eas_energy_view"]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    if p.returncode != 0:
        sys.exit(f"meter_overhead: {' '.join(cmd)} exited with {p.returncode}:\n{p.stdout}")
    return p.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("objdir")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--delay-ms", type=float, default=5.0)
    ap.add_argument("--np", type=int, default=1)
    ap.add_argument("--nvml", choices=["fake", "system"], default="fake")
    ap.add_argument("--backend", default="")
    ap.add_argument("--fem-n", type=int, default=8)
    ap.add_argument("--adr-n", type=int, default=24)
    a = ap.parse_args()
    for k, v in (("--runs", a.runs), ("--np", a.np), ("--fem-n", a.fem_n), ("--adr-n", a.adr_n)):
        if v < 1:
            sys.exit(f"meter_overhead: {k} {v}: expected a positive integer")
    lib = os.path.join(a.objdir, "tests", "libfake_nvml.so")
    fake = a.nvml == "fake"
    nvml_args = ["-eas_sensor", "nvml"] + (["-eas_nvml_library", lib] if fake else [])
    what = f"the fake NVML ({lib}) with a {a.delay_ms:g} ms read delay" if fake else "the system's NVML"
    print(f"# meter_overhead: -eas_sensor model vs {what}, backend {a.backend or 'default'}, {a.runs} runs each, alternated; median of the per-pair ratios of the drivers' solve times")
    for driver in cases(a):
        ratios, tm, tn = [], [], []
        reads = boundaries = solver = 0
        for _ in range(a.runs):
            out = run(a, driver, ["-eas_sensor", "model"], os.environ)
            tm.append(solve_time(driver, out))
            with tempfile.TemporaryDirectory() as tmp:
                rf = os.path.join(tmp, "reads")
                env = dict(os.environ, FAKE_NVML_DELAY_MS=str(a.delay_ms), FAKE_NVML_READS=rf) if fake else os.environ
                out = run(a, driver, nvml_args, env)
                counts = [tuple(map(int, m)) for m in re.findall(r"reads (\d+) init_thread (\d+)", open(rf).read())] if os.path.exists(rf) else []
            tn.append(solve_time(driver, out))
            ratios.append(tn[-1] / tm[-1])
            reads = sum(c[0] for c in counts)
            solver = sum(c[1] for c in counts)
            boundaries = sum(int(v) for v in re.findall(r"; (\d+) phase boundaries$", out, re.M))
        counted = (lambda v: str(v)) if fake else (lambda v: "n/a")
        print(f"BENCH name=meter_overhead driver={driver} np={a.np} nvml={a.nvml} backend={a.backend or 'default'} delay_ms={a.delay_ms if fake else 0:g} runs={a.runs} "
              f"time_model_s={statistics.median(tm):.4f} time_nvml_s={statistics.median(tn):.4f} ratio={statistics.median(ratios):.3f} target=1.03 "
              f"reads={counted(reads)} reads_solver_thread={counted(solver)} boundaries={boundaries}", flush=True)


if __name__ == "__main__":
    main()
