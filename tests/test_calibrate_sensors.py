"""test_calibrate_sensors: eas_calibrate measures each sensor's own kinds
(issue 20 item 5): RAPL's package and dram domains give cpu_idle, cpu_full
and dram, NVML's GPU gives gpu_idle and gpu_full (only where /gpu/cuda is
usable: else the profile's stay, and the output says so), and nothing is
attributed to a kind the sensor does not cover (before, NVML's GPU board
power became the CPU's).

Checked against fakes whose powers this script sets, outside eas: a
powercap tree under a temporary directory whose counters a thread of this
script advances at P_PKG and P_DRAM watts (CLOCK_MONOTONIC, the sensors'
clock), and the fake NVML library (tests/fake_nvml.c) at FAKE_NVML_POWER.
The profile file eas_calibrate writes must hold
  cpu_idle, cpu_full = P_PKG, dram = P_DRAM (within 3 % plus the writer's
    staleness: its longest gap x 2 / the measuring time),
  gpu_idle, gpu_full = P_GPU within 3 % where /gpu/cuda is usable, else the
    built-in default's (share/eas/default_profile.opts, read here),
  comment lines naming the sensor of each measured field;
and a full power below its idle one (the fakes' powers do not depend on
the load, so either order can come out) is kept as measured with a
warning line, never clamped.

  test_calibrate_sensors.py --objdir OBJDIR [--gpu]   (--gpu: /gpu/cuda usable, the GPU powers measured)
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import threading
import time

P_PKG, P_DRAM, P_GPU = 40.0, 5.0, 150.0  # W
SECS = 0.3  # -power_time


def fail(msg):
    print(f"test_calibrate_sensors: FAILED: {msg}")
    sys.exit(1)


class Writer(threading.Thread):
    """The fake RAPL hardware: energy_uj of package-0 and dram advanced every 0.5 ms (temp + rename)."""

    def __init__(self, root):
        super().__init__(daemon=True)
        self.dirs = []
        for d, name, P in (("intel-rapl:0", "package-0", P_PKG), ("intel-rapl:0:0", "dram", P_DRAM)):
            path = os.path.join(root, d)
            os.mkdir(path)
            with open(os.path.join(path, "name"), "w") as f:
                f.write(name + "\n")
            with open(os.path.join(path, "max_energy_range_uj"), "w") as f:
                f.write("1000000000000\n")
            self.dirs.append((path, P))
        self.t0 = time.monotonic()
        self.maxgap = 0.0
        self.stop = threading.Event()
        self.write(self.t0)

    def write(self, t):
        for path, P in self.dirs:
            tmp = os.path.join(path, ".energy_uj.w")
            with open(tmp, "w") as f:
                f.write("%.0f\n" % (1e6 + 1e6 * P * (t - self.t0)))
            os.rename(tmp, os.path.join(path, "energy_uj"))

    def run(self):
        last = self.t0
        while not self.stop.is_set():
            t = time.monotonic()
            self.maxgap = max(self.maxgap, t - last)
            self.write(t)
            last = t
            time.sleep(0.0005)


def default_profile():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    prof = {}
    for line in open(os.path.join(root, "share", "eas", "default_profile.opts")):
        m = re.match(r"^-eas_power_(\w+) ([0-9.e+-]+)$", line.strip())
        if m:
            prof[m.group(1)] = float(m.group(2))
    return prof


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--objdir", required=True)
    ap.add_argument("--np", type=int, default=1)
    ap.add_argument("--gpu", action="store_true")
    a = ap.parse_args()
    lib = os.path.join(os.path.abspath(a.objdir), "tests", "libfake_nvml.so")
    exe = os.path.join(a.objdir, "examples", "eas_calibrate")
    dflt = default_profile()
    with tempfile.TemporaryDirectory() as tmp:
        root = os.path.join(tmp, "powercap")
        os.mkdir(root)
        out = os.path.join(tmp, "profile.opts")
        w = Writer(root)
        w.start()
        env = dict(os.environ, FAKE_NVML_MODE="energy", FAKE_NVML_POWER=str(P_GPU))
        cmd = [exe, "-n", "8", "-ebe_n", "0", "-reps", "2", "-power_time", str(SECS), "-eas_rapl_root", root,
               "-eas_nvml_library", lib, "-o", out]
        print("$ FAKE_NVML_POWER=%g " % P_GPU + " ".join(cmd), flush=True)
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        w.stop.set()
        w.join()
        print(p.stdout, end="")
        if p.returncode != 0:
            fail(f"eas_calibrate exited with {p.returncode}")
        text = open(out).read()
    print("--- " + out + "\n" + text, end="")
    prof = {m.group(1): float(m.group(2)) for m in re.finditer(r"^-eas_power_(\w+) ([0-9.e+-]+)$", text, re.M)}
    tol = 0.03 + 2 * w.maxgap / SECS
    print(f"test_calibrate_sensors: the writer's longest gap {1e3 * w.maxgap:.3g} ms: tolerance {tol:.3g}")

    def close(key, want):
        if key not in prof:
            fail(f"no -eas_power_{key} in the profile")
        if abs(prof[key] / want - 1) > tol:
            fail(f"-eas_power_{key} {prof[key]} W, expected {want} W within {tol:.3g}")
        print(f"test_calibrate_sensors: {key} {prof[key]:.6g} W vs the fake's {want:g} W")

    def warned(sensor, kind):
        """full < idle: kept as measured, with a warning line in the output and in the file."""
        below = prof[kind + "_full"] < prof[kind + "_idle"]
        line = re.search(rf"^warning \({sensor}\): the {kind}'s measured full power", p.stdout, re.M)
        if below != bool(line):
            fail(f"{kind} full {prof[kind + '_full']} W, idle {prof[kind + '_idle']} W: the warning line is {'missing' if below else 'there without cause'}")

    close("cpu_idle", P_PKG)
    close("cpu_full", P_PKG)
    close("dram", P_DRAM)
    warned("rapl", "cpu")
    if not re.search(r"^# measured power \(rapl\): cpu idle [0-9.e+-]+ W, full [0-9.e+-]+ W, dram [0-9.e+-]+ W", text, re.M):
        fail("the profile's comments do not say RAPL measured cpu and dram")
    if a.gpu:
        close("gpu_idle", P_GPU)
        close("gpu_full", P_GPU)
        warned("nvml", "gpu")
        if not re.search(r"^# measured power \(nvml\): gpu idle [0-9.e+-]+ W, full [0-9.e+-]+ W", text, re.M):
            fail("the profile's comments do not say NVML measured the gpu powers")
    else:
        if "NVML present but /gpu/cuda unusable: the gpu powers stay the profile's" not in p.stdout:
            fail("no line saying NVML is present but /gpu/cuda unusable")
        for key in ("gpu_idle", "gpu_full"):
            if prof.get(key) != dflt[key]:
                fail(f"-eas_power_{key} {prof.get(key)} W: expected the default profile's {dflt[key]} W (no usable /gpu/cuda)")
            print(f"test_calibrate_sensors: {key} {prof[key]:g} W = the default profile's")
    if prof.get("switch") != dflt["switch"]:
        fail(f"-eas_power_switch {prof.get('switch')}: no sensor measures it, expected the default's {dflt['switch']}")
    print("test_calibrate_sensors: ok")


if __name__ == "__main__":
    main()

r"""
/*TEST
  test:
    suffix: nogpu
    requires: !cuda-device
    backends: none
    expect: test_calibrate_sensors: ok
  test:
    suffix: gpu
    requires: cuda-device
    backends: none
    args: --gpu
    expect: test_calibrate_sensors: ok
TEST*/
"""
