#!/bin/sh
# eas benchmarks: one BENCH line per case, eas vs an in-process bandwidth
# reference (triad and read9, bench/bandwidth.h) vs PETSc, all measured in the
# same process run (byte counts in bench/bench_dia.c, write allocate included).
#
#   sh bench/run.sh OBJDIR            (what `make bench` runs)
#
# Per grid size n (ADR gallery, 2n^3 rows) two cases, each using 2 cores:
#   1 rank,  -threads 1: eas, the reference and PETSc on one core each
#   2 ranks, -threads 2: PETSc on both ranks; eas and the reference with 2 OpenMP
#                        threads on rank 0 while rank 1 sleeps
# Environment: MPIEXEC (exported by make), EAS_BENCH_SIZES ("64 96 128"),
# EAS_BENCH_PRECISIONS ("double single": the values eas's SpMV and BiCGStab read),
# EAS_BENCH_RUNS (7: medians of that many timings), EAS_BENCH_ARGS (extra
# options for bench_dia).
set -u
OBJDIR=${1:-build}
MPIEXEC=${MPIEXEC:-mpirun $( [ "$(id -u)" = 0 ] && echo --allow-run-as-root) --oversubscribe --bind-to none}
SIZES=${EAS_BENCH_SIZES:-64 96 128}
PRECS=${EAS_BENCH_PRECISIONS:-double single}
RUNS=${EAS_BENCH_RUNS:-7}
EXTRA=${EAS_BENCH_ARGS:-}
EXE=$OBJDIR/bench/bench_dia
[ -x "$EXE" ] || { echo "bench/run.sh: $EXE is not built (make benches)" >&2; exit 1; }
LOG=$OBJDIR/bench/bench.log
: > "$LOG"

# BiCGStab iterations per timed solve: about 0.5-2 s per PETSc solve on one core
its_for() {
  if [ "$1" -le 64 ]; then echo 40; elif [ "$1" -le 96 ]; then echo 30; else echo 20; fi
}

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
echo "# eas bench_dia, $(date '+%Y-%m-%d %H:%M:%S %Z'), $(hostname), nproc $(nproc), ${cpu:-unknown CPU}"
echo "# load average at start: $(cut -d' ' -f1-3 /proc/loadavg) (other work on the machine skews the timings)"
echo "# MPIEXEC: $MPIEXEC; sizes: $SIZES; medians of $RUNS runs"
status=0
for n in $SIZES; do
  its=$(its_for "$n")
  for np in 1 2; do
    for prec in $PRECS; do
      echo "## n=$n, $np rank(s), eas and the reference with $np thread(s) on rank 0, $its BiCGStab iterations per solve, $prec values"
      out=$(OMP_NUM_THREADS=$np $MPIEXEC -n "$np" "$EXE" -n "$n" -threads "$np" -its "$its" -runs "$RUNS" -precision "$prec" $EXTRA 2>&1)
      rc=$?
      echo "$out"
      echo "$out" >> "$LOG"
      if [ $rc != 0 ] || ! echo "$out" | grep -q '^BENCH '; then
        echo "bench/run.sh: n=$n np=$np precision=$prec failed (exit $rc)" >&2
        status=1
      fi
    done
  done
done

echo
echo "# summary (targets: BiCGStab >= 2.2 x PETSc per iteration at n = 128): bytes as really moved (write allocate included), reference = read9 (9 read streams, 1 write) timed"
echo "# next to each kernel in the same process, per-run ratios, medians; \"bw\" = working set >= 4 x LLC (else partly"
echo "# cache-resident; \"?\" where no source gives a plausible LLC: give it, PETSC_OPTIONS=\"-bench_llc_mb MB\" make bench)"
echo "# cache-resident: no bandwidth claim). Targets at bandwidth: SpMV >= 0.95 ref, BiCGStab <= 1.15 bound, >= 2 x PETSc"
echo "# per iteration. A ratio above 1 at bandwidth means a wrong byte count (flagged COUNT?)."
awk '
  function v(k,   i, a) { for (i = 1; i <= NF; i++) { split($i, a, "="); if (a[1] == k) return a[2] } return "?" }
  function mark(ok) { return ok ? "ok" : "MISS" }
  function bw(at, ok, q) { if (at == "unknown") return "(LLC?)"; if (at != "yes") return "(cache)"; if (q > 1.05) return "COUNT?"; return mark(ok) }
  function perllc(ws, llc) { return llc + 0 > 0 ? sprintf("%.1f", ws / llc) : "?" } # llc_MB=unknown: bench/llc.h
  BEGIN { f = "%4s %3s %-6s | %7s %-3s %7s | %6s %6s | %6s %6s %-7s | %6s %6s | %8s %8s %8s | %6s %-4s | %6s %-7s\n"
          printf f, "n", "thr", "values", "SpMV ws", "", "BiCGS ws", "triad", "read9", "eas", "eas/", "", "PETSc", "SpMV", "eas", "PETSc", "bound", "PETSc/", "", "eas/", ""
          printf f, "", "", "", "/LLC", "bw", "/LLC", "GB/s", "GB/s", "GB/s", "ref", "", "GB/s", "eas/P", "ms/it", "ms/it", "ms/it", "eas", "", "bound", "" }
  /^# spmv eas\/petsc speed = / { sp = $6; next }
  /^BENCH / {
    rr = v("ratio_ref"); rp = v("ratio_petsc"); rb = v("ratio_bound"); llc = v("llc_MB")
    printf f, v("n"), v("threads"), v("precision"), perllc(v("ws_spmv_MB"), llc), v("at_bandwidth_spmv"), perllc(v("ws_bcgs_MB"), llc),
           v("stream_GBs"), v("ref_GBs"), v("eas_GBs"), rr, bw(v("at_bandwidth_spmv"), rr >= 0.95, rr), v("petsc_GBs"), sp,
           v("eas_ms_per_it"), v("petsc_ms_per_it"), v("bound_ms_per_it"), rp, mark(rp >= 2.0), rb, bw(v("at_bandwidth_bcgs"), rb <= 1.15, 1 / rb)
  }' "$LOG"

# ADR solver (issue 3): eas vs PETSc SNES+KSPBCGS per step on 1 rank; sync vs
# async time to solution with injected latency on 2 and 4 ranks.
if [ -x "$OBJDIR/bench/bench_adr" ]; then
  echo
  echo "## ADR: bench_adr (1 rank vs PETSc SNES; 2 and 4 ranks sync vs async, latency 0, 100 us, 1 ms, full and inexact inner solves; medians of 5; ILU(0) vs PCILU at 48^3, medians of 3)"
  for np in 1 2 4; do
    out=$(OMP_NUM_THREADS=1 $MPIEXEC -n "$np" "$OBJDIR/bench/bench_adr" -n ${EAS_BENCH_ADR_N:-24} -steps 3 -delays 0,100,1000 -reps 5 -inner full,inexact 2>&1) || status=1
    echo "$out" | grep -E '^(BENCH|#)'
  done
  # ILU(0) against PETSc's PCILU (issue 21 item 3): the sequential substitutions, one rank, one thread
  out=$(OMP_NUM_THREADS=1 $MPIEXEC -n 1 "$OBJDIR/bench/bench_adr" -n ${EAS_BENCH_ILU_N:-48} -steps 1 -reps 3 -ew 0 -jacobian double -pcs ilu -eas_backend /cpu/serial 2>&1) || status=1
  echo "$out" | grep -E '^(BENCH|#)'
fi

# ADR against its peer (issue 9): time to accuracy of eas (CVODE + the
# multisplitting Newton) vs CVODE + SPGMR + block-diagonal preconditioning,
# the diurnal problem, errors against a tight reference of the peer.
if [ -x "$OBJDIR/bench/bench_adr_peer" ] && "$OBJDIR/examples/eas_info" -features | grep -x sundials > /dev/null; then
  echo
  echo "## ADR vs its peer: bench_adr_peer (2D 40x1x40 on 1 rank, medians of 3; 3D 48^3 on 1 and 2 ranks, one run each)"
  out=$(OMP_NUM_THREADS=1 $MPIEXEC -n 1 "$OBJDIR/bench/bench_adr_peer" -nx 40 -ny 1 -nz 40 -reps 3 2>&1) || status=1
  echo "$out" | grep -E '^(BENCH|#)'
  for np in 1 2; do
    out=$(OMP_NUM_THREADS=1 $MPIEXEC -n "$np" "$OBJDIR/bench/bench_adr_peer" -nx 48 -ny 48 -nz 48 -reps ${EAS_BENCH_PEER_REPS:-1} -ref_rtol 1e-7 2>&1) || status=1
    echo "$out" | grep -E '^(BENCH|#)'
  done
  # Both codes' work-precision curves at 48^3 on 2 ranks (issue 21 item 5): eas's time at each of
  # the peer's errors, interpolated on eas's own curve (tools/eas-plot workprecision draws them).
  echo "## ADR vs its peer: work-precision curves, 3D 48^3 on 2 ranks, one run per point"
  out=$(OMP_NUM_THREADS=1 $MPIEXEC -n 2 "$OBJDIR/bench/bench_adr_peer" -nx 48 -ny 48 -nz 48 -reps 1 -ref_rtol 1e-7 -rtols 1e-5,7e-6,5e-6,3.5e-6,2.5e-6 2>&1) || status=1
  echo "$out" | grep -E '^(BENCH|#)'
fi

# Element-by-element PCG (issue 4): EBE apply vs STREAM, cg vs PETSc KSPCG, the split's efficiency.
if [ -x "$OBJDIR/bench/bench_ebe" ]; then
  echo
  echo "## EBE: bench_ebe"
  out=$(OMP_NUM_THREADS=2 $MPIEXEC -n 1 "$OBJDIR/bench/bench_ebe" 2>&1) || status=1
  echo "$out" | grep -E '^(BENCH|#)'
fi
# The energy meter's clock cost (issue 20 item 1): fem_pcg and adr3d with
# -eas_sensor model vs the fake NVML with a 5 ms read delay (the meter reads
# on its sampler thread only: target ratio <= 1.03).
if [ -f "$OBJDIR/tests/libfake_nvml.so" ]; then
  echo
  echo "## Energy meter: bench/meter_overhead.py (fem_pcg Q2 8^3, adr3d 24^3; medians of ${EAS_BENCH_METER_RUNS:-5} alternated pairs)"
  out=$(OMP_NUM_THREADS=2 MPIEXEC="$MPIEXEC" ${EAS_PYTHON:-/usr/bin/python3} bench/meter_overhead.py "$OBJDIR" --runs ${EAS_BENCH_METER_RUNS:-5} 2>&1) || status=1
  echo "$out" | grep -E '^(BENCH|#)'
fi
# The GPU (issue 10 item 3): DIA SpMV vs a device-to-device copy, BiCGStab
# ms/it vs its fused bound at the copy bandwidth, the EBE apply, the CPU+GPU
# split vs each unit alone; native and cuSPARSE SpMV.  Where no device is
# usable, one line says so (tools/gpu-verdict turns these into a verdict).
if [ -x "$OBJDIR/bench/bench_gpu" ]; then
  echo
  if "$OBJDIR/examples/eas_info" -features | grep -x cuda-device > /dev/null; then
    echo "## GPU: bench_gpu (ADR grid ${EAS_BENCH_GPU_N:-160}, Q2 elasticity ${EAS_BENCH_GPU_EBE_N:-16}^3; native and cusparse SpMV)"
    for mode in native cusparse; do
      out=$(OMP_NUM_THREADS=2 $MPIEXEC -n 1 "$OBJDIR/bench/bench_gpu" -n ${EAS_BENCH_GPU_N:-160} -ebe_n ${EAS_BENCH_GPU_EBE_N:-16} -threads 2 -eas_cuda_spmv $mode 2>&1) || status=1
      echo "$out" | grep -E '^(BENCH|#|CUDA device|  memory)'
      echo "$out" | grep -q '^BENCH name=gpu_ebe_split' || { echo "bench/run.sh: bench_gpu ($mode) gave no GPU BENCH lines" >&2; status=1; }
    done
  else
    echo "## GPU: no usable CUDA device here ($("$OBJDIR/examples/eas_info" -unavailable | grep '^/gpu/cuda' | sed 's|^/gpu/cuda: ||')); no GPU BENCH lines"
  fi
fi
# Energy to solution (issue 20 item 5): the ADR steps and the EBE CG on the
# device, on all CPU cores and as -eas_backend auto chooses (the policies read
# eas_calibrate's per-element times), time and energy labelled measured or
# modelled, and whether auto chose the measured winner.  Without a device: the
# CPU and auto only, at smaller sizes (this is the 2-core CI machine's case).
if [ -x "$OBJDIR/bench/bench_energy" ]; then
  echo
  if "$OBJDIR/examples/eas_info" -features | grep -x cuda-device > /dev/null; then
    en_adr=${EAS_BENCH_ENERGY_ADR_N:-96}; en_ebe=${EAS_BENCH_ENERGY_EBE_N:-32}
  else
    en_adr=${EAS_BENCH_ENERGY_ADR_N:-48}; en_ebe=${EAS_BENCH_ENERGY_EBE_N:-12}
  fi
  prof="$OBJDIR/bench/eas_profile.opts"
  echo "## Energy to solution: bench_energy (ADR ${en_adr}^3, 3 steps; Q2 elasticity ${en_ebe}^3 CG; profile from eas_calibrate)"
  "$OBJDIR/examples/eas_calibrate" -o "$prof" > /dev/null 2>&1 || status=1
  out=$($MPIEXEC -n 1 "$OBJDIR/bench/bench_energy" -adr_n $en_adr -ebe_n $en_ebe -runs ${EAS_BENCH_ENERGY_RUNS:-3} -options_file "$prof" 2>&1) || status=1
  echo "$out" | grep -E '^(BENCH|bench_energy)'
  [ "$(echo "$out" | grep -c '^BENCH name=energy_auto')" = 2 ] || { echo "bench/run.sh: bench_energy gave no verdict lines" >&2; status=1; }
fi
# PETSc's own tutorials through the plug-in (issue 23, docs/petsc-plugin.md):
# time per iteration of eas's solver against the plain PETSc run of the same
# program, alternately, medians; on the GPU too where a device is usable.
if [ -x "$OBJDIR/petsc-tutorials/ex45" ]; then
  echo
  echo "## PETSc tutorials through the plug-in: bench/petsc_tutorials.py"
  MPIEXEC="$MPIEXEC" ${PYTHON:-/usr/bin/python3} bench/petsc_tutorials.py "$OBJDIR" --np 1 --runs ${EAS_BENCH_TUTORIAL_RUNS:-3} || status=1
  if "$OBJDIR/examples/eas_info" -features | grep -x cuda-device > /dev/null; then
    MPIEXEC="$MPIEXEC" ${PYTHON:-/usr/bin/python3} bench/petsc_tutorials.py "$OBJDIR" --np 1 --runs ${EAS_BENCH_TUTORIAL_RUNS:-3} --backend /gpu/cuda || status=1
  fi
fi
exit $status
