"""test_cuda_module: the CUDA backend is a loadable module (issue 10 item 4).

Checks, with the real files of the build tree (a peer-free check of the
packaging: readelf and the programs' own output):
  1. libeas.so.0.1.0 has the SONAME libeas.so.0, libeas.so -> libeas.so.0 ->
     libeas.so.0.1.0, and NEEDS no CUDA library (libcudart, libcusparse,
     libcublas): libeas loads where there is no CUDA toolkit;
  2. "built with nvcc, used without the module": a copy of libeas without the
     module beside it (LD_LIBRARY_PATH takes it before the build tree), and
     EAS_CUDA_MODULE naming a missing file: eas_info reports /gpu/cuda "not
     available" with the reason (CUDA module not loaded, where it looked),
     -require /gpu/cuda fails saying so, and a CPU solve (ex1) still runs;
     "without the CUDA toolkit": a stand-in module beside that libeas whose
     library (standing for libcudart) is removed: the loader's message is the
     reason; a module of another eas build (ABI 999) is refused;
  3. when the module was built (CUDA=1, feature "cuda"): it NEEDS the CUDA
     libraries and exports EasCudaModuleGet only; loaded, /gpu/cuda is either
     usable (feature cuda-device) or "no CUDA device (...)".

  test_cuda_module.py --objdir OBJDIR --np 1
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile


def run(cmd, env=None):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, stdin=subprocess.DEVNULL)
    return p.returncode, p.stdout


def fail(msg):
    print("FAILED: " + msg)
    sys.exit(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--objdir", required=True)
    ap.add_argument("--np", type=int, default=1)
    a = ap.parse_args()
    lib = os.path.abspath(os.path.join(a.objdir, "lib"))
    info = os.path.abspath(os.path.join(a.objdir, "examples", "eas_info"))
    ex1 = os.path.abspath(os.path.join(a.objdir, "examples", "ex1"))
    mpiexec = os.environ.get("MPIEXEC", "mpirun").split()

    # 1. SONAME, links, no CUDA dependency
    real = os.path.join(lib, "libeas.so.0.1.0")
    if os.readlink(os.path.join(lib, "libeas.so")) != "libeas.so.0" or os.readlink(os.path.join(lib, "libeas.so.0")) != "libeas.so.0.1.0":
        fail("libeas.so -> libeas.so.0 -> libeas.so.0.1.0 links missing")
    rc, dyn = run(["readelf", "-d", real])
    if rc != 0:
        fail("readelf -d failed:\n" + dyn)
    if "Library soname: [libeas.so.0]" not in dyn:
        fail("libeas.so.0.1.0 has no SONAME libeas.so.0:\n" + dyn)
    needed = [l.split("[")[1].rstrip("]") for l in dyn.splitlines() if "(NEEDED)" in l]
    cuda_needed = [n for n in needed if any(k in n for k in ("cudart", "cusparse", "cublas", "libcuda"))]
    if cuda_needed:
        fail("libeas NEEDS CUDA libraries: " + ", ".join(cuda_needed))
    print("libeas.so.0.1.0: SONAME libeas.so.0, NEEDED " + ", ".join(needed) + ": no CUDA library")

    # 2. the module hidden: a copy of libeas alone, and EAS_CUDA_MODULE at a missing file
    tmp = tempfile.mkdtemp(prefix="eas_nomod_")
    try:
        for f in ("libeas.so.0.1.0",):
            shutil.copy2(os.path.join(lib, f), tmp)
        os.symlink("libeas.so.0.1.0", os.path.join(tmp, "libeas.so.0"))
        # the caller's path without the directories that hold the module (a GPU machine's run puts the build's lib there)
        keep = [d for d in os.environ.get("LD_LIBRARY_PATH", "").split(":") if d and not os.path.exists(os.path.join(d, "libeas-cuda.so"))]
        env = dict(os.environ, LD_LIBRARY_PATH=":".join([tmp] + keep), OMP_NUM_THREADS="1")
        env.pop("EAS_CUDA_MODULE", None)
        rc, out = run([info, "-unavailable"], env)
        want = "/gpu/cuda: CUDA module not loaded (libeas-cuda.so;"
        if rc != 0 or want not in out or tmp + "/libeas-cuda.so: not found" not in out:
            fail("module hidden beside a copy of libeas: eas_info -unavailable should say %r and where it looked (%s), got (%d):\n%s" % (want, tmp, rc, out))
        print("module hidden (libeas copied to a directory without it): " + out.strip())
        rc, out = run([info, "-require", "/gpu/cuda"], env)
        if rc == 0 or "Backend /gpu/cuda is not usable: CUDA module not loaded" not in out:
            fail("eas_info -require /gpu/cuda without the module should fail with the reason, got (%d):\n%s" % (rc, out))
        rc, out = run(mpiexec + ["-n", "1", ex1, "-n", "16", "-eas_backend", "/cpu"], env)
        if rc != 0 or "CONVERGED" not in out.upper():
            fail("ex1 on /cpu without the CUDA module (%d):\n%s" % (rc, out))
        print("ex1 on /cpu without the module: runs")
        env2 = dict(os.environ, EAS_CUDA_MODULE=os.path.join(tmp, "nothere", "libeas-cuda.so"))
        rc, out = run([info, "-unavailable"], env2)
        if rc != 0 or "CUDA module not loaded (EAS_CUDA_MODULE=%s/nothere/libeas-cuda.so)" % tmp not in out:
            fail("EAS_CUDA_MODULE at a missing file: got (%d):\n%s" % (rc, out))
        print("EAS_CUDA_MODULE at a missing file: " + out.strip())
        # a module whose CUDA libraries are missing (the toolkit absent): a
        # stand-in module NEEDING a library that was removed after linking;
        # and a module from another eas (ABI number differs)
        cc = os.environ.get("CC", "cc")
        dep = os.path.join(tmp, "libeas_fake_cudart.so")
        with open(os.path.join(tmp, "dep.c"), "w") as f:
            f.write("int eas_fake_cudart(void) { return 1; }\n")
        with open(os.path.join(tmp, "mod.c"), "w") as f:
            f.write("int eas_fake_cudart(void);\nstruct m { int abi; };\nstatic struct m mod = {999};\n"
                    "const struct m *EasCudaModuleGet(void) { return eas_fake_cudart() ? &mod : 0; }\n")
        for cmd in ([cc, "-shared", "-fPIC", "-o", dep, os.path.join(tmp, "dep.c")],
                    [cc, "-shared", "-fPIC", "-o", os.path.join(tmp, "libeas-cuda.so"), os.path.join(tmp, "mod.c"), "-L" + tmp, "-leas_fake_cudart", "-Wl,-rpath," + tmp]):
            rc, out = run(cmd)
            if rc != 0:
                fail("building the stand-in module: %s\n%s" % (" ".join(cmd), out))
        rc, out = run([info, "-unavailable"], env)
        if rc != 0 or "/gpu/cuda: CUDA module not loaded" not in out or "libeas-cuda.so was built for another eas (module ABI 999" not in out:
            fail("a module from another eas should be refused with its ABI, got (%d):\n%s" % (rc, out))
        print("module from another eas: refused (module ABI 999)")
        os.remove(dep)
        rc, out = run([info, "-unavailable"], env)
        if rc != 0 or "libeas-cuda.so cannot be loaded: libeas_fake_cudart.so: cannot open shared object file" not in out:
            fail("a module whose libraries are missing should report the loader's message, got (%d):\n%s" % (rc, out))
        print("module whose CUDA libraries are missing: " + out.strip())
    finally:
        shutil.rmtree(tmp)

    # 3. the module itself, where it was built
    rc, feats = run([info, "-features"])
    feats = feats.split()
    mod = os.path.join(lib, "libeas-cuda.so")
    if "cuda" in feats:
        rc, dyn = run(["readelf", "-d", mod])
        if "libcudart" not in dyn or "libcusparse" not in dyn or "libcublas" in dyn:
            fail("libeas-cuda.so should NEED libcudart and libcusparse, not libcublas:\n" + dyn)
        rc, syms = run(["nm", "-D", "--defined-only", mod])
        exported = [l.split()[-1] for l in syms.splitlines() if l.split() and l.split()[-2] in ("T", "D", "R", "B") and not l.split()[-1].startswith("_")]
        if exported != ["EasCudaModuleGet"]:
            fail("libeas-cuda.so should export EasCudaModuleGet only, exports: " + " ".join(exported))
        rc, out = run([info, "-unavailable"])
        if "cuda-device" in feats:
            print("CUDA module loaded; /gpu/cuda usable (cuda-device)")
        elif "/gpu/cuda: no CUDA device (" not in out:
            fail("module loaded without a device: expected 'no CUDA device (...)', got:\n" + out)
        else:
            print("CUDA module loaded (NEEDS libcudart, libcusparse; exports EasCudaModuleGet); " + out.strip())
    else:
        if os.path.exists(mod):
            fail("%s exists but the module does not load here" % mod)
        print("CUDA module not built here (CUDA=0)")
    print("test_cuda_module: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())

r"""
/*TEST
  test:
    suffix: packaging
    backends: none
    expect: SONAME libeas.so.0, NEEDED .*: no CUDA library
    expect: module hidden \(libeas copied to a directory without it\): /gpu/cuda: CUDA module not loaded
    expect: ex1 on /cpu without the module: runs
    expect: module from another eas: refused \(module ABI 999\)
    expect: module whose CUDA libraries are missing: .*cannot open shared object file
    expect: test_cuda_module: ok
TEST*/
"""
