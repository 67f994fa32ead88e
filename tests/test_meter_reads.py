"""test_meter_reads: fem_pcg and adr3d metered by NVML through the fake
library with a slow driver (FAKE_NVML_DELAY_MS: each read takes that long,
as NVML's reads of a busy H100 take about 3.5 ms, issue 20) make a number
of sensor reads bounded by their run time, whatever their number of phases,
and none on the solver's thread; their reports close (the rows add up to
the total, and the total is the fake's P x T within 1 %).

Counts, not times: the fake counts the reads it answers (FAKE_NVML_READS,
outside eas) and those on the thread that called nvmlInit_v2 (the
solver's): on the solver's thread only the sensor's setup probes the
device (one read, two where it has no energy counter).  The bound on the sampler's reads is one per sampler period of
the process's wall time (measured here, an upper bound that holds on any
machine) plus 4 per sensor (its first sample and the summaries' closing
ones).  Each driver runs at two sizes: the larger has several times the
phase boundaries, and the reads on the solver's thread stay at the probe (a meter
that read at each boundary, before issue 20, made one read per boundary:
printed next to the counts).  The clock ratio against -eas_sensor model is
a benchmark (bench/meter_overhead.py), not a test.

  test_meter_reads.py --objdir OBJDIR --np N --driver fem_pcg|adr3d [--delay-ms 5]
"""
import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time

P = 150.0      # W: the fake's power (FAKE_NVML_POWER)
PERIOD = 0.02  # s: NVML's default sampler period

RUNS = {
    "fem_pcg": [["-fem_steps", "1", "-fem_n", "3", "-fem_problem", "poisson", "-fem_order", "1"],
                ["-fem_steps", "1", "-fem_n", "6", "-fem_problem", "elasticity", "-fem_order", "2", "-ksp_rtol", "1e-8"]],
    "adr3d": [["-adr_n", "16", "-adr_steps", "1"],
              ["-adr_n", "16", "-adr_steps", "4"]],
}


def fail(msg):
    print(f"test_meter_reads: FAILED: {msg}")
    sys.exit(1)


def run(objdir, np_, driver, args, delay):
    lib = os.path.join(objdir, "tests", "libfake_nvml.so")
    if not os.access(lib, os.R_OK):
        fail(f"{lib} is missing: make tests builds it")
    with tempfile.TemporaryDirectory() as tmp:
        reads_file = os.path.join(tmp, "reads")
        env = dict(os.environ, FAKE_NVML_MODE="energy", FAKE_NVML_POWER=str(P), FAKE_NVML_DELAY_MS=str(delay), FAKE_NVML_READS=reads_file)
        mpiexec = shlex.split(os.environ.get("MPIEXEC", "mpirun --oversubscribe"))
        cmd = mpiexec + ["-n", str(np_), os.path.join(objdir, "examples", driver)] + args + [
            "-eas_sensor", "nvml", "-eas_nvml_library", lib, "-eas_energy_view"]
        print("$ FAKE_NVML_DELAY_MS=%g " % delay + " ".join(cmd), flush=True)
        t0 = time.monotonic()
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        wall = time.monotonic() - t0
        print(p.stdout, end="")
        if p.returncode != 0:
            fail(f"{driver} exited with {p.returncode}")
        lines = open(reads_file).read().split("\n") if os.path.exists(reads_file) else []
    counts = [tuple(int(v) for v in re.match(r"reads (\d+) init_thread (\d+)$", l).groups()) for l in lines if l]
    if not counts:
        fail("the fake NVML counted no reads: was the nvml sensor used?")
    return p.stdout, wall, counts


def check_reports(out, np_):
    """Each report: the rows add up to the total; the total less the model's part of the kinds NVML
    does not cover (the CPU and DRAM: no RAPL; its "measured+modelled:" line) is P x T within 1 % (on
    one rank: on several, T is the longest rank's window and the sensor integrates over its node
    leader's, so it is at most P x T); its reads line."""
    reports = out.split("eas energy report:")[1:]
    if not reports:
        fail("no energy report (-eas_energy_view)")
    boundaries = reads_solver = 0
    for r in reports:
        if "sensor nvml" not in r.split("\n")[0]:
            fail("a report is not measured by the nvml sensor: " + r.split("\n")[0])
        rows = {}
        for m in re.finditer(r"^(setup|compute|exchange|transfers|unphased|total) +([0-9.e+-]+) +\S+ +\S+ +\S+ +([0-9.e+-]+) .*  (\S+)$", r, re.M):
            rows[m.group(1)] = (float(m.group(2)), float(m.group(3)), m.group(4))
        if "total" not in rows:
            fail("no total row in the report")
        T, E, label = rows["total"]
        parts = sum(v[1] for k, v in rows.items() if k != "total")
        if label not in ("measured+modelled", "apportioned+modelled"):
            fail(f"total labelled {label}, expected measured+modelled or apportioned+modelled (NVML alone: the CPU and DRAM modelled)")
        if abs(parts - E) > 1e-3 * E:  # the rows print 5 digits
            fail(f"rows add up to {parts} J, total {E} J")
        m = re.search(r"^measured\+modelled: .* \(cpu\+dram\) over its time and busy fractions: ([0-9.e+-]+) J of the total", r, re.M)
        if not m:
            fail("no 'measured+modelled:' line giving the model's part")
        Es = E - float(m.group(1))  # the sensor's part
        if (abs(Es / (P * T) - 1) if np_ == 1 else Es / (P * T) - 1) > 0.01:
            fail(f"closure: total {E} J less the model's {m.group(1)} J vs P x T = {P * T} J ({T} s): off by more than 1 %")
        print(f"test_meter_reads: closure: rows {parts:.6g} J, total {E:.6g} J, of which modelled {m.group(1)} J; P x T {P * T:.6g} J: ratio {Es / (P * T):.5f}")
        m = re.search(r"^sensor reads: (\d+) on the sampler thread\(s\), (\d+) on the solver's thread; (\d+) phase boundaries$", r, re.M)
        if not m:
            fail("no 'sensor reads' line in a measured report")
        reads_solver += int(m.group(2))
        boundaries += int(m.group(3))
    return len(reports), boundaries, reads_solver


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--objdir", required=True)
    ap.add_argument("--np", type=int, default=1)
    ap.add_argument("--driver", choices=sorted(RUNS), required=True)
    ap.add_argument("--delay-ms", type=float, default=5.0)
    a = ap.parse_args()
    seen = []
    for args in RUNS[a.driver]:
        out, wall, counts = run(a.objdir, a.np, a.driver, args, a.delay_ms)
        nrep, boundaries, reads_solver = check_reports(out, a.np)
        reads = sum(c[0] for c in counts)
        init = sum(c[1] for c in counts)
        bound = int(wall / PERIOD) + 4 * len(counts)
        print(f"test_meter_reads: {a.driver} {' '.join(args)}: {boundaries} phase boundaries in {nrep} report(s); "
              f"the fake NVML answered {reads} reads ({a.delay_ms:g} ms each) from {len(counts)} sensor(s) in {wall:.2f} s "
              f"(bound {bound}), {init} on the solver's thread; a read per boundary would be {boundaries}")
        if init > 2 * len(counts) or reads_solver != 0:
            fail(f"{init} reads (fake's count), {reads_solver} (eas's EasSensorRead) on the solver's thread: expected at most the setup's probe (2 per sensor) and 0")
        if reads > bound:
            fail(f"{reads} reads in {wall:.2f} s: more than one per {PERIOD} s sampler period + 4 per sensor ({bound})")
        seen.append(boundaries)
    if not seen[1] >= 2 * seen[0]:
        fail(f"the larger run has {seen[1]} boundaries, the smaller {seen[0]}: the test needs at least twice as many")
    print(f"test_meter_reads: {a.driver}, {a.np} rank(s): ok")


if __name__ == "__main__":
    main()

r"""
/*TEST
  test:
    suffix: fem_pcg
    nsize: 1 2
    backends: none
    args: --driver fem_pcg
    expect: test_meter_reads: fem_pcg, [12] rank\(s\): ok
  test:
    suffix: adr3d
    nsize: 1 2
    backends: none
    args: --driver adr3d
    expect: test_meter_reads: adr3d, [12] rank\(s\): ok
TEST*/
"""
