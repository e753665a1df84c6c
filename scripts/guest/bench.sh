#!/bin/bash
# scripts/guest/bench.sh SHARE - guest side of `make bench`: the same
# ib_kperf workloads, and Debian's userspace perftest (ib_write_bw,
# ib_send_lat; scripts/guest/bench-perftest.sh), on the inbox RDMA stack
# (A) and on ours (B), in alternating runs A B A B ..., each run on
# freshly loaded modules.
#
# Every measurement appends one line to SHARE/bench-raw.txt:
#   raw stack=<inbox|ours> pair=<n> topo=<loop|veth|none> work=<name>
#       size=<bytes> qps=<n> txA=<pkts> txB=<pkts> cpu=<busy/total,...>
#       retry= rnr= dup= oos= drop= softnet= :: <result line>
# (txA/txB: packets the two veth ends sent during the measurement). A
# measurement that fails keeps its failed result line (with its reason);
# nothing aborts the bench but a stack that cannot be unloaded.
#
# Environment (set by scripts/bench.sh):
#   BENCH_INBOX_ROOT  module root with the distribution's modules in kernel/
#                     and the inbox-built ib_kperf (modprobe -d)
#   BENCH_OURS_ROOT   module root with ours in updates/ (modprobe -d)
#   BENCH_PAIRS       A/B pairs (default 3; 1 with BENCH_QUICK=1)
#   BENCH_QUICK=1     a small subset of the workloads, for development
#   BENCH_CMD_TIMEOUT seconds one kperf command may take (default 120)
#   BENCH_OPS, BENCH_SIZES, BENCH_QPS  override the operations, sizes
#                     (bytes) and QP counts of the bandwidth workloads
#   BENCH_PERF=1      also profile one write bandwidth measurement per run
#                     and topology (perf, cpu-clock): SHARE/perf-*.txt
set -u
SHARE=${1:-/run/rdmaoot}
RAW=$SHARE/bench-raw.txt
KPERF="$RDMAOOT_TOP/scripts/kperf"
PTRUN="$RDMAOOT_TOP/scripts/guest/bench-perftest.sh"
QUICK=${BENCH_QUICK:-0}
PAIRS=${BENCH_PAIRS:-$([ "$QUICK" = 1 ] && echo 1 || echo 3)}
CMD_TMO=${BENCH_CMD_TIMEOUT:-120}
# Modules of either stack; none may be left loaded when the other loads.
RDMA_MODS="ib_kperf rdma_rxe rdma_ucm rdma_cm iw_cm ib_cm ib_umad ib_uverbs ib_core"

# The veth pair: both ends in this namespace (the inbox rxe of 6.1 works
# only in the initial one), traffic between them forced over the wire.
VA=bvA VB=bvB
MACA=02:00:00:00:00:0a MACB=02:00:00:00:00:0b
IPA=10.99.0.1 IPB=10.99.0.2
# The IPv4-mapped RoCE v2 GIDs of the two addresses, as sysfs prints them.
GIDA=0000:0000:0000:0000:0000:ffff:0a63:0001
GIDB=0000:0000:0000:0000:0000:ffff:0a63:0002
NETMTU=1500

log() { printf '[bench %s] %s\n' "$(date +%H:%M:%S)" "$*"; }

# --- the network -------------------------------------------------------

# Policy routing so that 10.99.0.1 -> .2 leaves through bvA and comes in
# on bvB (and the reverse), instead of being delivered through lo: a
# table per direction, rules for locally sent packets (oif, and iif lo
# for sockets not bound to a device) ahead of the local table.
net_routes() {
	ip route add "$IPB" dev "$VA" src "$IPA" table 201
	ip route add "$IPA" dev "$VB" src "$IPB" table 202
	ip rule add pref 20 from "$IPA" to "$IPB" oif "$VA" lookup 201
	ip rule add pref 21 from "$IPB" to "$IPA" oif "$VB" lookup 202
	ip rule add pref 22 iif lo from "$IPA" to "$IPB" lookup 201
	ip rule add pref 23 iif lo from "$IPB" to "$IPA" lookup 202
	ip rule add pref 150 lookup local
	ip rule del pref 0 lookup local
}

# Packets for a local address arriving on a wire: accept them, and do
# not drop them for coming in on the "wrong" interface.
net_sysctls() {
	local i
	for i in all default lo "$VA" "$VB"; do
		sysctl -qw "net.ipv4.conf.$i.accept_local=1"
		sysctl -qw "net.ipv4.conf.$i.rp_filter=0"
	done
}

net_setup() {
	ip link add "$VA" address "$MACA" type veth peer name "$VB" address "$MACB" &&
	ip link set "$VA" mtu "$NETMTU" && ip link set "$VB" mtu "$NETMTU" &&
	ip addr add "$IPA/24" dev "$VA" && ip addr add "$IPB/24" dev "$VB" &&
	ip link set "$VA" up && ip link set "$VB" up &&
	ip neigh replace "$IPB" lladdr "$MACB" dev "$VA" nud permanent &&
	ip neigh replace "$IPA" lladdr "$MACA" dev "$VB" nud permanent &&
	net_routes && net_sysctls
}

txp() { cat "/sys/class/net/$1/statistics/tx_packets"; }

# --- where the time goes (sampled around every measurement) ---------------

# cpu_ticks: "busy/total" jiffies (USER_HZ) per CPU, comma-separated, from
# /proc/stat; busy is everything but idle and iowait.
cpu_ticks() {
	awk '$1 ~ /^cpu[0-9]+$/ {
		t = 0
		for (i = 2; i <= NF; i++)
			t += $i
		printf "%s%d/%d", sep, t - $5 - $6, t
		sep = ","
	}' /proc/stat
}

# cpu_delta BEFORE AFTER: the per-CPU difference of two cpu_ticks samples.
cpu_delta() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		n = split(a, x, ","); split(b, y, ",")
		for (i = 1; i <= n; i++) {
			split(x[i], p, "/"); split(y[i], q, "/")
			printf "%s%d/%d", sep, q[1] - p[1], q[2] - p[2]
			sep = ","
		}
	}'
}

# hw_sum NAME...: the sum of those hw_counters over rxe0 and rxe1 (a
# counter a stack does not have counts 0).
hw_sum() {
	local d n f s=0
	for d in rxe0 rxe1; do
		for n in "$@"; do
			for f in /sys/class/infiniband/$d/ports/1/hw_counters/$n; do
				[ -r "$f" ] && s=$((s + $(cat "$f")))
			done
		done
	done
	echo "$s"
}

# counters: the events that say a transfer went wrong, as "k=v" words:
# retries, RNR NAKs (sent and received), duplicate and out-of-sequence
# requests, packets the receive path dropped (ours counts them by cause),
# and the network stack's own backlog drops (softnet_stat, 2nd column).
counters() {
	local sn=0 x
	while read -r _ x _; do
		sn=$((sn + 16#$x))
	done < /proc/net/softnet_stat
	echo "retry=$(hw_sum completer_retry_err) rnr=$(hw_sum rcvd_rnr_err send_rnr_err)" \
		"dup=$(hw_sum duplicate_request) oos=$(hw_sum out_of_seq_request rcvd_seq_err)" \
		"drop=$(hw_sum 'rcvd_drop_*') softnet=$sn"
}

# counters_delta BEFORE AFTER: per word, after minus before.
counters_delta() {
	local a b k v out=
	for b in $2; do
		k=${b%%=*} v=${b#*=}
		for a in $1; do
			[ "${a%%=*}" = "$k" ] && v=$((v - ${a#*=}))
		done
		out="$out $k=$v"
	done
	echo "${out# }"
}

# --- the stacks ----------------------------------------------------------

stack_root() { [ "$1" = inbox ] && echo "$BENCH_INBOX_ROOT" || echo "$BENCH_OURS_ROOT"; }

loaded_rdma_mods() {
	local m
	for m in $RDMA_MODS; do
		[ -d "/sys/module/$m" ] && printf '%s ' "$m"
	done
}

# v2_gid_index IBDEV GID: the index at which port 1 of IBDEV lists GID as
# a RoCE v2 GID (perftest's -x); fails when it does not.
v2_gid_index() {
	local d=/sys/class/infiniband/$1/ports/1 f
	for f in "$d"/gids/*; do
		[ "$(cat "$f" 2>/dev/null)" = "$2" ] || continue
		[ "$(cat "$d/gid_attrs/types/${f##*/}" 2>/dev/null)" = "RoCE v2" ] || continue
		echo "${f##*/}"
		return 0
	done
	return 1
}
has_v2_gid() { v2_gid_index "$@" > /dev/null; }

wait_for() {
	local n=$(($1 * 10))
	shift
	until "$@"; do
		n=$((n - 1))
		[ $n -gt 0 ] || return 1
		sleep 0.1
	done
}

# stack_load STACK: its ib_core, rdma_rxe, ib_kperf and ib_uverbs, and
# rxe0 (bvA), rxe1 (bvB); GIXA/GIXB are their RoCE v2 GIDs' indexes.
# Says in $WHY what went wrong.
stack_load() {
	local root left
	root=$(stack_root "$1")
	left=$(loaded_rdma_mods)
	[ -z "$left" ] || { WHY="modules still loaded: $left"; return 1; }
	modprobe -d "$root" rdma_rxe || { WHY="modprobe rdma_rxe failed"; return 1; }
	modprobe -d "$root" ib_kperf || { WHY="modprobe ib_kperf failed"; return 1; }
	modprobe -d "$root" ib_uverbs || { WHY="modprobe ib_uverbs failed"; return 1; }
	log "$1: ib_core $(modinfo -b "$root" -F filename ib_core), taint rdma_rxe=$(cat /sys/module/rdma_rxe/taint) ib_core=$(cat /sys/module/ib_core/taint)"
	rdma link add rxe0 type rxe netdev "$VA" || { WHY="rdma link add rxe0 failed"; return 1; }
	rdma link add rxe1 type rxe netdev "$VB" || { WHY="rdma link add rxe1 failed"; return 1; }
	wait_for 10 has_v2_gid rxe0 "$GIDA" || { WHY="rxe0 has no GID for $IPA"; return 1; }
	wait_for 10 has_v2_gid rxe1 "$GIDB" || { WHY="rxe1 has no GID for $IPB"; return 1; }
	GIXA=$(v2_gid_index rxe0 "$GIDA") GIXB=$(v2_gid_index rxe1 "$GIDB")
}

# stack_unload: the links and every RDMA module, whichever stack they are.
stack_unload() {
	local m
	rdma link delete rxe1 2>/dev/null
	rdma link delete rxe0 2>/dev/null
	for m in $RDMA_MODS; do
		[ -d "/sys/module/$m" ] && rmmod "$m"
	done
	m=$(loaded_rdma_mods)
	[ -z "$m" ] || { log "cannot unload: $m"; return 1; }
}

# --- measurements --------------------------------------------------------

# record STACK PAIR TOPO WORK SIZE QPS TXA TXB RESULT [EXTRA]: EXTRA are
# more "k=v" tags (cpu=, the counters' deltas).
record() {
	printf 'raw stack=%s pair=%s topo=%s work=%s size=%s qps=%s txA=%s txB=%s%s :: %s\n' \
		"$1" "$2" "$3" "$4" "$5" "$6" "$7" "$8" "${10:+ ${10}}" "$9" >> "$RAW"
}

# measure TOPO WORK SIZE QPS COMMAND...: one command (scripts/kperf, or
# bench-perftest.sh) that prints a "result ..." line; that line (or a
# made-up failed one) goes to the raw file.
measure() {
	local topo=$1 work=$2 size=$3 qps=$4 a0 b0 out rc res c0 c1 n0 n1
	shift 4
	a0=$(txp "$VA") b0=$(txp "$VB")
	n0=$(counters) c0=$(cpu_ticks)
	out=$(timeout -s KILL "$CMD_TMO" "$@" 2>&1)
	rc=$?
	c1=$(cpu_ticks) n1=$(counters)
	res=$(printf '%s\n' "$out" | grep '^result ' | tail -n 1)
	if [ -z "$res" ]; then
		res="result status=fail errno=0 reason=\"no result (exit $rc): $(printf '%s' "$out" | tr '\n"' ' _' | cut -c1-160)\""
	fi
	record "$STACK" "$PAIR" "$topo" "$work" "$size" "$qps" \
		$(($(txp "$VA") - a0)) $(($(txp "$VB") - b0)) "$res" \
		"cpu=$(cpu_delta "$c0" "$c1") $(counters_delta "$n0" "$n1")"
	case $res in
	*status=ok*) ;;
	*) log "$STACK $topo $work size=$size qps=$qps: ${res##*status=}" ;;
	esac
}

# Operations per measurement (all QPs together), chosen so that one takes
# about a second under TCG at the inbox stack's rates; queue depth per QP.
total_msgs() {
	case $1 in
	64) echo 16000 ;;
	4096) echo 8000 ;;
	65536) echo 800 ;;
	*) echo 50 ;;
	esac
}
depth_for() {
	case $1 in
	64 | 4096) echo 32 ;;
	65536) echo 16 ;;
	*) echo 4 ;;
	esac
}

topo_args() { [ "$1" = loop ] && echo "dev=rxe0" || echo "dev=rxe0 peer=rxe1"; }

bw_one() {
	local topo=$1 op=$2 size=$3 qps=$4 iters
	iters=$(($(total_msgs "$size") / qps))
	[ "$iters" -ge 1 ] || iters=1
	measure "$topo" "$op" "$size" "$qps" "$KPERF" mode=bw $(topo_args "$topo") \
		qp=rc op="$op" size="$size" qps="$qps" \
		depth="$(depth_for "$size")" iters="$iters"
}

lat_one() {
	measure "$1" "$2_lat" 64 1 "$KPERF" mode=lat $(topo_args "$1") qp=rc op="$2" \
		size=64 iters="$LAT_ITERS"
}

# user_one TOPO PROGRAM SIZE: Debian's perftest over libibverbs' rxe
# provider, a server and a client process: on loop both on rxe0 (TCP
# exchange through lo), on veth the server on rxe1 and the client on
# rxe0 (the exchange and the RDMA traffic both over the veth). Work names
# are the programs'; bandwidth runs as many bytes as ib_kperf's.
PT_PORT=18700
user_one() {
	local topo=$1 prog=$2 size=$3 iters sdev=rxe0 sgix=$GIXA addr=127.0.0.1
	[ "$topo" = veth ] && sdev=rxe1 sgix=$GIXB addr=$IPB
	case $prog in
	*_bw) iters=$(total_msgs "$size") ;;
	*) iters=$PT_LAT_ITERS ;;
	esac
	PT_PORT=$((PT_PORT + 3))
	measure "$topo" "$prog" "$size" 1 bash "$PTRUN" "$prog" "$iters" "$size" \
		"$sdev" "$sgix" rxe0 "$GIXA" "$addr" "$PT_PORT"
}

# The workloads of one run.
workloads() {
	local topo op size qps
	for topo in loop veth; do
		for op in $OPS; do
			for size in $SIZES; do
				for qps in $QPS; do
					bw_one "$topo" "$op" "$size" "$qps"
				done
			done
		done
		lat_one "$topo" send
		lat_one "$topo" write
		for size in $PT_SIZES; do
			user_one "$topo" ib_write_bw "$size"
		done
		user_one "$topo" ib_send_lat 64
	done
	measure none memcpy "$MEMCPY_SIZE" 1 "$KPERF" mode=memcpy size="$MEMCPY_SIZE" \
		iters="$MEMCPY_ITERS"
}

# profile TOPO: a flat kernel profile of 64 KiB RC writes, 1 QP (all
# CPUs; TCG has no PMU, so the cpu-clock software event), reported while
# the modules are loaded so that their symbols resolve.
profile() {
	local data=/tmp/perf-$STACK-$1.data txt=$SHARE/perf-$STACK-$PAIR-$1.txt
	perf record -q -e cpu-clock -F 2000 -a -o "$data" -- \
		"$KPERF" mode=bw $(topo_args "$1") qp=rc op=write size=65536 \
		depth=16 iters=800 > "$txt.out" 2>&1
	perf report -i "$data" --stdio --no-children --sort dso,sym \
		--percent-limit 0.5 > "$txt" 2>/dev/null
	rm -f "$data"
}

# One run: load STACK, measure, unload. Returns 1 when the stack could
# not be unloaded (the bench cannot go on).
run_stack() {
	STACK=$1 PAIR=$2
	log "=== pair $PAIR: $STACK"
	WHY=
	if stack_load "$STACK"; then
		workloads
		if [ "${BENCH_PERF:-0}" = 1 ]; then
			profile loop
			profile veth
		fi
	else
		log "$STACK: $WHY"
		record "$STACK" "$PAIR" none load 0 0 0 0 \
			"result status=fail errno=0 reason=\"$WHY\""
	fi
	stack_unload
}

set_workloads() {
	if [ "$QUICK" = 1 ]; then
		OPS="write send" SIZES="4096 65536" QPS=1
		LAT_ITERS=3000 MEMCPY_ITERS=32
		PT_SIZES=65536 PT_LAT_ITERS=500
	else
		OPS="write read send" SIZES="64 4096 65536 1048576" QPS="1 2 8"
		LAT_ITERS=10000 MEMCPY_ITERS=96
		PT_SIZES="4096 65536" PT_LAT_ITERS=1000
	fi
	# A narrower (or wider) selection for development.
	# (comma- or blank-separated).
	OPS=${BENCH_OPS:-$OPS} SIZES=${BENCH_SIZES:-$SIZES} QPS=${BENCH_QPS:-$QPS}
	OPS=${OPS//,/ } SIZES=${SIZES//,/ } QPS=${QPS//,/ }
	MEMCPY_SIZE=16777216
}

main() {
	local p t0
	t0=$(date +%s)
	: > "$RAW"
	set_workloads
	log "pairs=$PAIRS quick=$QUICK kernel=$(uname -r) cpus=$(nproc)"
	echo "meta pairs=$PAIRS quick=$QUICK kernel=$(uname -r) cpus=$(nproc) netmtu=$NETMTU clk_tck=$(getconf CLK_TCK 2>/dev/null || echo 100)" >> "$RAW"
	net_setup || { log "cannot set up the veth pair"; return 1; }
	for p in $(seq 1 "$PAIRS"); do
		run_stack inbox "$p" || return 1
		run_stack ours "$p" || return 1
	done
	echo "meta seconds=$(($(date +%s) - t0))" >> "$RAW"
	log "done in $(($(date +%s) - t0)) s"
}

main
