#!/bin/sh
# make plots: short runs of the drivers and benchmarks (about a minute on 2
# cores), then tools/eas-plot renders the six figures (five without SUNDIALS) into OBJDIR/plots
# (PNG and SVG; docs/plots.md says what each shows) and the README's two
# into docs/img.
#
#   sh tools/plots.sh OBJDIR [PYTHON]
#
# Environment: MPIEXEC (exported by make).  Every figure is measured in this
# run on this machine (energies modelled unless a sensor is present).
set -eu
OBJDIR=${1:?usage: plots.sh OBJDIR [PYTHON]}
PYTHON=${2:-/usr/bin/python3}
MPIEXEC=${MPIEXEC:-mpirun $( [ "$(id -u)" = 0 ] && echo --allow-run-as-root) --oversubscribe --bind-to none}
OUT=$OBJDIR/plots
PLOT="$PYTHON tools/eas-plot"
mkdir -p "$OUT"
rm -f "$OUT"/*.csv "$OUT"/*.log

run() { # log command...
  log=$1
  shift
  echo "  RUN  $*"
  "$@" > "$log" 2>&1 || { echo "plots.sh: failed, see $log" >&2; tail -n 20 "$log" >&2; exit 1; }
}

# (a) the EBE split over two CPU units on growing meshes, one trace per mesh
run "$OUT/fem_pcg.log" env OMP_NUM_THREADS=2 $MPIEXEC -n 1 "$OBJDIR/examples/fem_pcg" -fem_steps 4 -fem_n 4 -fem_grow 2 -fem_order 2 \
  -ebe_split_units /cpu:1,/cpu:1 -ebe_rebalance_interval 5 -eas_trace "$OUT/fem.csv"
# (b), (d) the ADR solver, sync and async, 1 ms injected latency, inexact inner solves, energy reports in CSV
for mode in sync async; do
  run "$OUT/adr_$mode.log" env OMP_NUM_THREADS=1 $MPIEXEC -n 2 "$OBJDIR/examples/adr3d" -adr_n 16 -adr_steps 3 -adr_progress 0 \
    -eas_mode $mode -eas_comm_delay_us 1000 -adr_ksp_max_it 2 -eas_energy_view ":$OUT/adr_$mode.csv:ascii_csv"
done
# (c) sync against async by injected latency
run "$OUT/bench_adr.log" env OMP_NUM_THREADS=1 $MPIEXEC -n 2 "$OBJDIR/bench/bench_adr" -n 16 -steps 2 -delays 0,100,1000 -reps 3 -inner full,inexact
# (e) bandwidths and ratios: bench_dia at two sizes on 1 and 2 threads, bench_ebe
: > "$OUT/bench.log"
for n in 32 48; do
  for t in 1 2; do
    run "$OUT/bench_dia_${n}_${t}.log" env OMP_NUM_THREADS=$t $MPIEXEC -n $t "$OBJDIR/bench/bench_dia" -n $n -threads $t -its 10 -runs 3
    cat "$OUT/bench_dia_${n}_${t}.log" >> "$OUT/bench.log"
  done
done
run "$OUT/bench_ebe.log" env OMP_NUM_THREADS=2 $MPIEXEC -n 1 "$OBJDIR/bench/bench_ebe" -n 4 -its 10 -runs 3 -split_solves 3
cat "$OUT/bench_ebe.log" >> "$OUT/bench.log"
# (f) work-precision: eas and its CVODE peer on the 2D diurnal problem at five tolerances (SUNDIALS builds)
WP=
if "$OBJDIR/examples/eas_info" -features | grep -x sundials > /dev/null; then
  run "$OUT/bench_adr_peer.log" env OMP_NUM_THREADS=1 $MPIEXEC -n 1 "$OBJDIR/bench/bench_adr_peer" -nx 40 -ny 1 -nz 40 -reps 1 -ref_rtol 1e-8 -rtols 3e-4,1e-4,3e-5,1e-5,3e-6
  WP=workprecision
fi

$PLOT split "$OUT"/fem.[0-9]*.csv -o "$OUT/split"
$PLOT energy "$OUT/adr_sync.csv" -o "$OUT/energy"
$PLOT latency "$OUT/bench_adr.log" -o "$OUT/latency"
$PLOT frontier "$OUT/adr_sync.csv" "$OUT/adr_async.csv" -o "$OUT/frontier"
$PLOT bench "$OUT/bench.log" -o "$OUT/bench"
[ -z "$WP" ] || $PLOT workprecision "$OUT/bench_adr_peer.log" -o "$OUT/workprecision"
# The README's two figures, small PNGs committed under docs/img (800 x 480
# pixels at eas-plot's 100 dpi, tens of KB each): regenerated here, from this run.
IMG=$(dirname "$0")/../docs/img
$PLOT split "$OUT"/fem.[0-9]*.csv -o "$IMG/split" --format png --width 8 --height 4.8
$PLOT frontier "$OUT/adr_sync.csv" "$OUT/adr_async.csv" -o "$IMG/frontier" --format png --width 8 --height 4.8
echo "plots: $OUT/{split,energy,latency,frontier,bench${WP:+,$WP}}.{png,svg}, docs/img/{split,frontier}.png"
