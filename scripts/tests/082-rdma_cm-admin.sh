# rdma_cm's administration on rdma_rxe, as with the inbox stack:
# (a) configfs: mkdir rdma_cm/rxe0 makes ports/1 with default_roce_mode
# ("RoCE v2" on rxe) and default_roce_tos (0); both take what 6.1 takes
# and refuse the rest (an unknown GID type or one the port lacks, a TOS
# past 255, a device rdma_cm does not know); the TOS written there is what a connection made
# from rxe0 without a TOS of its own carries on the wire (the IPv4 header
# of its RoCE v2 packets across the veth). (b) rdma res show cm_id lists
# ib_kperf's rping server listening on rxe1's address (LISTEN, ps TCP,
# ib_kperf as owner, src-addr 10.77.0.2:7174), then, while an rping
# client is connected, both ends of the connection (CONNECT, their QP
# numbers, RC, both addresses); when they are done, nothing is listed.
TEST_TIMEOUT=300
[ "${RDMAOOT_KIND:-stock}" = debug ] && TEST_TIMEOUT=900

. "$RDMAOOT_TOP/scripts/guest/rxe-pair.sh"

CFS=/sys/kernel/config/rdma_cm
RPING_PORT=7174
OUTDIR=/tmp/082
RPING_PID=
CLIENT_PID=
DUMP_PID=

test_setup() {
	rxe_pair_setup
	command -v tcpdump >/dev/null || t_skip "tcpdump is not installed"
	mkdir -p "$OUTDIR"
}

test_cleanup() {
	local p
	for p in $DUMP_PID $CLIENT_PID $RPING_PID; do
		kill -KILL "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	# a directory holds rdma_cm (configfs takes its module)
	rmdir "$CFS/rxe0" 2>/dev/null
	rxe_pair_cleanup
}

# ---- (a) configfs ----------------------------------------------------------

cfs_mounted() { grep -q ' /sys/kernel/config configfs ' /proc/mounts; }

# cfs_write FILE VALUE: must be taken. cfs_refused FILE VALUE: must not.
cfs_write() {
	echo "+ echo '$2' > $1"
	echo "$2" > "$1" || t_fail "writing '$2' to $1 failed"
}

cfs_refused() {
	echo "+ echo '$2' > $1 (must fail)"
	if (echo "$2" > "$1") 2>/dev/null; then
		t_fail "writing '$2' to $1 was taken"
	fi
	t_log "'$2' refused by ${1##*/}"
}

cfs_files() {
	local p=$CFS/rxe0/ports/1
	cfs_mounted || t_run mount -t configfs configfs /sys/kernel/config
	[ -d "$CFS" ] || t_fail "no $CFS with rdma_cm loaded"
	echo "+ mkdir $CFS/nosuchdev (must fail)"
	mkdir "$CFS/nosuchdev" 2>/dev/null && t_fail "mkdir of a device rdma_cm does not know worked"
	t_run mkdir "$CFS/rxe0"
	t_eq "ports of rxe0" "1" "$(ls "$CFS/rxe0/ports")"
	t_eq "files of port 1" "default_roce_mode default_roce_tos" "$(ls "$p" | tr '\n' ' ' | sed 's/ $//')"
	t_eq "rxe0's default RoCE mode" "RoCE v2" "$(cat "$p/default_roce_mode")"
	t_eq "rxe0's default TOS" "0" "$(cat "$p/default_roce_tos")"

	# rxe's port has RoCE v2 GIDs only (RDMA_CORE_PORT_IBA_ROCE_UDP_ENCAP,
	# as in 6.1): v1 is a GID type it lacks, refused as 6.1 refuses it
	cfs_write "$p/default_roce_mode" "RoCE v2"
	t_eq "mode after writing v2" "RoCE v2" "$(cat "$p/default_roce_mode")"
	cfs_refused "$p/default_roce_mode" "IB/RoCE v1"
	cfs_refused "$p/default_roce_mode" "RoCE v3"
	cfs_refused "$p/default_roce_mode" "IB"
	t_eq "mode after refused writes" "RoCE v2" "$(cat "$p/default_roce_mode")"

	cfs_write "$p/default_roce_tos" 0x48
	t_eq "TOS after writing 0x48" "72" "$(cat "$p/default_roce_tos")"
	cfs_refused "$p/default_roce_tos" 256
	cfs_refused "$p/default_roce_tos" tos
	t_eq "TOS after refused writes" "72" "$(cat "$p/default_roce_tos")"
	# the other end stays at its own defaults
	t_run mkdir "$CFS/rxe1"
	t_eq "rxe1's default TOS" "0" "$(cat "$CFS/rxe1/ports/1/default_roce_tos")"
	t_run rmdir "$CFS/rxe1"
}

# The TOS of rxe0's port reaches the wire: a connection from rxe0 to rxe1
# (ib_kperf cm=rdma sets no TOS of its own) sends RoCE v2 packets whose
# IPv4 header has TOS 0x48; with 0 written back, TOS 0.
cfs_tos_on_wire() {
	local f=$OUTDIR/dump
	echo "+ tcpdump -n -v -i $VA udp port 4791 (in the background)"
	tcpdump -n -v -l -i "$VA" -c 40 "src host $IPA and udp port 4791" > "$f" 2> "$f.err" &
	DUMP_PID=$!
	# traffic only once the capture is open (a second's sleep was not
	# enough on a loaded debug guest)
	t_wait_for 30 grep -q "listening on" "$f.err" || t_fail "tcpdump did not start: $(cat "$f.err")"
	kp dev=rxe0 peer=rxe1 cm=rdma qp=rc op=send size=64 iters=5
	t_wait_for 10 grep -q 'tos 0x48' "$f"
	kill "$DUMP_PID" 2>/dev/null
	wait "$DUMP_PID" 2>/dev/null
	DUMP_PID=
	grep -q 'tos 0x48' "$f" || t_fail "no RoCE packet from $IPA with TOS 0x48: $(head -5 "$f")"
	t_log "rxe0's RoCE v2 packets carry TOS 0x48: ok"
	cfs_write "$CFS/rxe0/ports/1/default_roce_tos" 0
}

# ---- (b) rdma res show cm_id -------------------------------------------------

rping_listening() {
	grep -qx "rping $1:$2" /sys/kernel/debug/ib_kperf/listening 2>/dev/null
}

# cm_rows: the cm_id rows of rdma res, in $ROWS.
cm_rows() {
	ROWS=$(rdma res show cm_id 2>&1)
}

# cm_row_has PATTERN...: some row matches every extended regex.
cm_row_has() {
	local line p ok
	cm_rows
	while IFS= read -r line; do
		ok=1
		for p in "$@"; do
			printf '%s\n' "$line" | grep -Eq -- "$p" || { ok=0; break; }
		done
		[ $ok = 1 ] && return 0
	done <<< "$ROWS"
	return 1
}

expect_row() {
	local what=$1
	shift
	cm_row_has "$@" || t_fail "$what: no row of rdma res show cm_id matches '$*': $ROWS"
	t_log "$what: ok"
}

res_listener() {
	# long enough for a few polls of rdma res while connected
	local iters=3000 size=16384 to=30000
	[ "${RDMAOOT_KIND:-stock}" = debug ] && iters=500
	echo "+ (in $NS, in the background) kperf mode=rping role=server addr=$IPB port=$RPING_PORT iters=$iters"
	ip netns exec "$NS" "$KPERF" mode=rping role=server addr="$IPB" \
		port="$RPING_PORT" iters=$iters size=$size verify=1 timeout_ms=$to \
		> "$OUTDIR/server" 2>&1 &
	RPING_PID=$!
	t_wait_for 20 rping_listening "$IPB" "$RPING_PORT" ||
		t_fail "the rping server does not listen: $(cat "$OUTDIR/server")"
	cm_rows
	printf '%s\n' "$ROWS"
	expect_row "the rping server's listener" '^link rxe1/1 ' 'state LISTEN ' \
		'ps TCP ' 'comm \[?ib_kperf\]? ' "src-addr $IPB:$RPING_PORT( |\$)"
	cm_row_has 'state LISTEN' 'lqpn' && t_fail "a listener shows a QP: $ROWS"

	# A connection: rxe0's id and the one the REQ made on rxe1.
	echo "+ (in the background) kperf mode=rping role=client addr=$IPB port=$RPING_PORT iters=$iters"
	"$KPERF" mode=rping role=client addr="$IPB" port="$RPING_PORT" \
		iters=$iters size=$size verify=1 timeout_ms=$to > "$OUTDIR/client" 2>&1 &
	CLIENT_PID=$!
	t_wait_for 30 cm_row_has '^link rxe0/1 ' 'lqpn [0-9]+' 'qp-type RC' \
		'state CONNECT ' "src-addr $IPA:[0-9]+" "dst-addr $IPB:$RPING_PORT( |\$)" ||
		t_fail "the client's connected id is not listed: $ROWS; client: $(cat "$OUTDIR/client")"
	t_log "the client's connected id on rxe0: ok"
	cm_rows
	printf '%s\n' "$ROWS"
	expect_row "the server's connected id" '^link rxe1/1 ' 'lqpn [0-9]+' \
		'qp-type RC' 'state CONNECT ' "src-addr $IPB:$RPING_PORT " "dst-addr $IPA:[0-9]+"
	wait "$CLIENT_PID"
	CLIENT_PID=
	grep -q 'status=ok' "$OUTDIR/client" || t_fail "the rping client failed: $(cat "$OUTDIR/client")"
	t_wait_for 30 eval '! kill -0 "$RPING_PID" 2>/dev/null' ||
		t_fail "the rping server did not end: $(cat "$OUTDIR/server")"
	wait "$RPING_PID"
	RPING_PID=
	grep -q 'status=ok' "$OUTDIR/server" || t_fail "the rping server failed: $(cat "$OUTDIR/server")"
	# Every id destroyed: no row left (cm_id 0 in the summary too).
	t_wait_for 10 eval 'cm_rows; [ -z "$ROWS" ]' || t_fail "rows left after the run: $ROWS"
	OUT=$(rdma res show)
	printf '%s\n' "$OUT"
	expect_out 'rxe0: .*cm_id 0 ' "rxe0 counts no cm_id"
	expect_out 'rxe1: .*cm_id 0 ' "rxe1 counts no cm_id"
}

test_run() {
	cfs_files
	cfs_tos_on_wire
	res_listener
	t_run rmdir "$CFS/rxe0"
}
