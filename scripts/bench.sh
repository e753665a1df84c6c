#!/usr/bin/env bash
# scripts/bench.sh - `make bench`: our stack against the inbox one, side by
# side in one boot of Debian's stock kernel under QEMU.
#
# Builds our modules for the stock kernel and ib_kperf for the inbox stack
# (make -C ulp/kperf inbox, from nothing every run), stages two module trees (ours: updates/ over
# the distribution's kernel/; inbox: the distribution's kernel/ plus the
# inbox-built ib_kperf), boots the guest once with scripts/guest/bench.sh
# as its job (runs A=inbox, B=ours, alternating) and then prints the report
# (scripts/bench-report.py): tables, build/bench/bench.txt, bench.svg.
#
# Environment: BENCH_PAIRS (default 3), BENCH_QUICK=1 (a small subset, one
# pair), BENCH_TIMEOUT (seconds for the whole guest; default 2700, 900
# quick), BENCH_CMD_TIMEOUT (seconds per kperf command, default 120),
# BENCH_PERF=1 (a perf profile of one workload per run and topology, in
# build/bench/perf-*.txt), BENCH_OPS/BENCH_SIZES/BENCH_QPS (override the
# bandwidth workloads, e.g. BENCH_QUICK=1 BENCH_QPS="1 2").
set -euo pipefail
. "$(dirname "$0")/lib.sh"

quick=${BENCH_QUICK:-0}
pairs=${BENCH_PAIRS:-$([ "$quick" = 1 ] && echo 1 || echo 3)}
tmo=${BENCH_TIMEOUT:-$([ "$quick" = 1 ] && echo 900 || echo 2700)}
bdir=$RDMAOOT_TOP/build/bench
out=$RDMAOOT_TOP/build/out-bench

"$RDMAOOT_TOP/scripts/deps.sh"
kver=$(rdmaoot_stock_kver)
src=$(rdmaoot_sync_src stock)
rdmaoot_log "building our stack for $kver"
make -s -C "$src" KDIR="/lib/modules/$kver/build" modules
ours=$("$RDMAOOT_TOP/scripts/stage-modules.sh" stock "$RDMAOOT_TOP/build/stock")

rdmaoot_log "building ib_kperf against the inbox stack"
make -s -C "$RDMAOOT_TOP/ulp/kperf" KVER="$kver" inbox
rm -rf "$bdir/inbox-ko"
mkdir -p "$bdir/inbox-ko"
cp "$RDMAOOT_TOP/build/kperf-inbox/ib_kperf.ko" "$bdir/inbox-ko/"
# Only the inbox-built ib_kperf in updates/: everything else modprobe
# finds there is the distribution's.
inbox=$("$RDMAOOT_TOP/scripts/stage-modules.sh" stock "$bdir/inbox-ko")

job="BENCH_PAIRS=$pairs BENCH_QUICK=$quick BENCH_CMD_TIMEOUT=${BENCH_CMD_TIMEOUT:-120} BENCH_PERF=${BENCH_PERF:-0}"
# Lists travel comma-separated: the guest's job line is split on blanks.
for v in BENCH_OPS BENCH_SIZES BENCH_QPS; do
	[ -z "${!v:-}" ] || job="$job $v=$(printf '%s' "${!v}" | tr ' ' ,)"
done
job="$job BENCH_INBOX_ROOT='$inbox' BENCH_OURS_ROOT='$ours'"
job="$job bash '$RDMAOOT_TOP/scripts/guest/bench.sh' /run/rdmaoot"
t0=$(date +%s)
guest_ok=1
"$RDMAOOT_TOP/scripts/qemu-run.sh" stock "$ours" "$out" "$job" "$tmo" || guest_ok=0
rdmaoot_log "the guest ran $(($(date +%s) - t0)) s"
cp "$out/share/job.log" "$bdir/job.log" 2>/dev/null || true
[ -s "$out/share/bench-raw.txt" ] ||
	rdmaoot_die "no results (console: $out/console.log, log: $out/share/job.log)"
cp "$out/share/bench-raw.txt" "$bdir/raw.txt"
rm -f "$bdir"/perf-*.txt
cp "$out/share"/perf-*.txt "$bdir/" 2>/dev/null || true
python3 "$RDMAOOT_TOP/scripts/bench-report.py" "$bdir/raw.txt" --out "$bdir"
if [ $guest_ok = 0 ]; then
	rdmaoot_die "the guest did not finish: the report covers what it measured (console: $out/console.log)"
fi
