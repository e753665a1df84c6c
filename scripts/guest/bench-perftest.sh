#!/bin/bash
# scripts/guest/bench-perftest.sh - one userspace perftest measurement for
# `make bench` (scripts/guest/bench.sh), printed as an ib_kperf-style
# result line so that the bench records and reports it like the others:
#
#   bench-perftest.sh PROGRAM ITERS SIZE SDEV SGID CDEV CGID ADDR PORT
#
# Runs Debian's PROGRAM (ib_write_bw or ib_send_lat) as a server on SDEV
# (GID index SGID) and as a client on CDEV (GID index CGID) that finds the
# server over TCP at ADDR:PORT, ITERS iterations of SIZE bytes, and prints
#
#   result mode=bw bytes=<size*iters> mbps=<MB/s, 10^6> status=ok
#   result mode=lat lat_med=<us> lat_avg=<us> status=ok
#
# or "result ... status=fail reason=..." when no results table came out.
# perftest reports MB as 2^20 bytes; the bench's unit is 10^6 bytes.
# A run that failed for one of perftest's own reasons (its clock
# calibration, scripts/guest/perftest.sh) is repeated, at most three
# times; each repeat is an "info" line. Exit status 0 with a result of
# status=ok, 1 otherwise.
set -u

. "${BASH_SOURCE[0]%/*}/perftest.sh"

[ $# = 9 ] || { echo "usage: $0 PROGRAM ITERS SIZE SDEV SGID CDEV CGID ADDR PORT" >&2; exit 2; }
PROG=$1 ITERS=$2 SIZE=$3 SDEV=$4 SGID=$5 CDEV=$6 CGID=$7 ADDR=$8 PORT=$9
OUT=$(mktemp -d /tmp/bench-pt.XXXXXX)
trap 'rm -rf "$OUT"' EXIT

case $PROG in
*_bw) MODE=bw ;;
*_lat) MODE=lat ;;
*) echo "$0: $PROG is neither a _bw nor a _lat program" >&2; exit 2 ;;
esac

listening() { ss -ltnH "sport = :$1" 2>/dev/null | grep -q .; }

# run_pair PORT: server and client; 0 when the client printed its table.
run_pair() {
	local port=$1 spid n=50 rc=0
	"$PROG" -d "$SDEV" -x "$SGID" -p "$port" -n "$ITERS" -s "$SIZE" > "$OUT/server" 2>&1 &
	spid=$!
	until listening "$port"; do
		n=$((n - 1))
		[ $n -gt 0 ] && kill -0 "$spid" 2>/dev/null || break
		sleep 0.1
	done
	"$PROG" -d "$CDEV" -x "$CGID" -p "$port" -n "$ITERS" -s "$SIZE" "$ADDR" > "$OUT/client" 2>&1 || rc=$?
	# a server whose client failed may wait for ever
	n=50
	while kill -0 "$spid" 2>/dev/null && [ $n -gt 0 ]; do
		n=$((n - 1))
		sleep 0.1
	done
	kill "$spid" 2>/dev/null
	wait "$spid" 2>/dev/null
	[ "$rc" = 0 ] && pt_has_results "$OUT/client" "$ITERS"
}

fail() {
	printf 'result mode=%s status=fail errno=0 reason="%s"\n' "$MODE" "$(printf '%s' "$*" | tr '\n"' ' _' | cut -c1-160)"
	exit 1
}

try=1
until run_pair $((PORT + try - 1)); do
	why=$(pt_rerun_reason "$OUT/server" "$OUT/client") ||
		fail "$PROG failed: $(grep -v '^[ -]*$' "$OUT/client" | tail -n 2)"
	[ $try -lt 3 ] || fail "$PROG: $why (3 runs)"
	echo "info $PROG: $why (run $try), again"
	try=$((try + 1))
done

# The client's table line: size, iterations, then the figures. bw: peak,
# average (MiB/s), message rate; lat: min, max, typical, average, ...
row=$(grep -E "^ *$SIZE +$ITERS " "$OUT/client" | tail -n 1)
set -- $row
if [ "$MODE" = bw ]; then
	[ $# -ge 4 ] || fail "$PROG: no bandwidth in \"$row\""
	awk -v s="$SIZE" -v n="$ITERS" -v avg="$4" 'BEGIN {
		if (avg + 0 <= 0 || avg == "inf")
			exit 1
		printf "result mode=bw bytes=%d mbps=%.3f status=ok\n", s * n, avg * 1.048576
	}' || fail "$PROG: average bandwidth \"$4\""
else
	[ $# -ge 6 ] || fail "$PROG: no latency in \"$row\""
	awk -v typ="$5" -v avg="$6" 'BEGIN {
		if (typ + 0 <= 0 || typ == "inf")
			exit 1
		printf "result mode=lat lat_med=%.3f lat_avg=%.3f status=ok\n", typ, avg
	}' || fail "$PROG: typical latency \"$5\""
fi
