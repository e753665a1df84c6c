# interop/110-rds-rdma: RDS over RDMA between the two stacks, messages of
# 1 B to 1 MiB verified both ways.
#
# tools/rds-ping with -r: socket A on one guest, socket B on the other,
# each end checking every message it gets (length, sender, content) and B
# sending each back with the other direction's pattern. A sends first, so
# A's rds_rdma opens the RDS/IB connection through its rdma_cm:
# 1. ours is A (our rds_rdma, rebuilt against us, connects to the inbox
#    rds_rdma's listener on the peer), the inbox is B;
# 2. rds_rdma unloaded on both sides (so no connection is left to reuse),
#    then the inbox is A and ours B (the inbox connects to our listener).
# Each run: 5 rounds of 29 sizes each way; rds-ping requires its RDS
# connection to be an "infiniband" one, connected, and listed in
# RDS_INFO_IB_CONNECTIONS; our rdma_cm shows the connected id, to or
# from port 18634; afterwards rds_rdma and rds unload on our side.
TEST_TIMEOUT=420
TEST_KERNELS=stock

. "$RDMAOOT_TOP/scripts/guest/interop.sh"

PING=$RDMAOOT_TOP/build/tools/rds-ping
RDS_PORT=18634

test_setup() {
	[ -x "$PING" ] || t_fail "no $PING: make check builds it on the host (make tools)"
	t_mod_path rds_rdma >/dev/null || t_skip "rds_rdma is not built (make ulps)"
	interop_ours_up
}

test_cleanup() {
	modprobe -r rds_rdma 2>/dev/null
	modprobe -r rds 2>/dev/null
	peer_start "modprobe -r rds_rdma; modprobe -r rds"
	peer_wait "$PEER_N" 60
	interop_ours_down
}

rds_load() {
	t_run modprobe rds_rdma
	case $(t_mod_path rds_rdma) in
	*/updates/*) ;;
	*) t_fail "rds_rdma is not the one rebuilt against us: $(t_mod_path rds_rdma)" ;;
	esac
}

rds_unload() {
	t_wait_for 20 sh -c 'modprobe -r rds_rdma && modprobe -r rds' ||
		t_fail "rds_rdma or rds does not unload: $(lsmod | grep rds)"
	peer_run 60 "modprobe -r rds_rdma && modprobe -r rds"
}

# peer_said N TEXT: the peer's command N has printed a line TEXT.
peer_said() { grep -qx "$2" "$PAIR/cmd/$1.out" 2>/dev/null; }

# rds_cm_check WHAT: our rdma_cm shows a connected id on port 18634.
rds_cm_check() {
	local ids
	ids=$(rdma res show cm_id 2>&1)
	echo "$ids"
	case "$1" in
	out) echo "$ids" | grep -q "state CONNECT.*dst-addr $PEER_IP:$RDS_PORT" ||
		t_fail "no connected rdma_cm id of ours to $PEER_IP:$RDS_PORT" ;;
	in) echo "$ids" | grep -q "state CONNECT.*src-addr $OUR_IP:$RDS_PORT dst-addr $PEER_IP:" ||
		t_fail "no connected rdma_cm id of ours accepted on $OUR_IP:$RDS_PORT" ;;
	esac
}

# rds_diag [PEER_CMD]: what both ends hold after a failed exchange: the
# peer's end (PEER_CMD, its rds-ping, waited for: it gives up on its own
# within its time limit), the verbs objects and counters and the kernel
# log of each side.
rds_diag() {
	[ -z "${1:-}" ] || peer_wait "$1" 90
	echo "--- ours"
	rdma res show cm_id
	rdma res show qp
	rdma statistic show link rxe0/1
	dmesg | tail -n 30
	echo "--- the peer"
	peer_start "rdma res show cm_id; rdma res show qp; rdma statistic show link rxe0/1; dmesg | tail -n 30"
	peer_wait "$PEER_N" 30
}

# rds_run OUR_ROLE: B first, then A once B is bound; both must verify
# everything. A's address is the one of the guest playing it.
rds_run() {
	local out n args
	if [ "$1" = a ]; then
		args="-a $OUR_IP -b $PEER_IP -n 5 -t 60"
	else
		args="-a $PEER_IP -b $OUR_IP -n 5 -t 60"
	fi
	if [ "$1" = a ]; then
		peer_start "modprobe rds_rdma && $PING $args -r b"
		n=$PEER_N
		t_wait_for 60 peer_said "$n" "rds-ping: B bound" || t_fail "the peer's B never bound"
		out=$("$PING" $args -r a 2>&1) || {
			echo "$out"
			rds_diag "$n"
			t_fail "our A failed: $(echo "$out" | grep -m1 -v "^rds-ping: B bound")"
		}
		echo "$out"
		peer_wait "$n" 120 || {
			rds_diag
			t_fail "the inbox B failed: $(printf '%s\n' "$PEER_ERR" | head -n 1)"
		}
	else
		"$PING" $args -r b > /tmp/i110.out 2>&1 &
		n=$!
		t_wait_for 60 grep -qx "rds-ping: B bound" /tmp/i110.out || t_fail "our B never bound"
		peer_start "modprobe rds_rdma && $PING $args -r a"
		peer_wait "$PEER_N" 120 || {
			cat /tmp/i110.out
			rds_diag
			t_fail "the inbox A failed: $(printf '%s\n' "$PEER_ERR" | head -n 1)"
		}
		wait "$n" || {
			cat /tmp/i110.out
			rds_diag
			t_fail "our B failed: $(grep -m1 -v "^rds-ping: B bound" /tmp/i110.out)"
		}
		out=$(cat /tmp/i110.out)
		echo "$out"
	fi
	printf '%s\n' "$out" | grep -q "all verified" || t_fail "our end did not verify its messages"
	printf '%s\n' "$out" "$PEER_OUT" | grep -c "all verified" | grep -qx 2 ||
		t_fail "the peer's end did not verify its messages"
}

test_run() {
	local t

	t=$EPOCHREALTIME
	rds_load
	rds_run a
	rds_cm_check out
	rds_unload
	t_log "our rds_rdma connected to the inbox one: 5 rounds verified both ways ($(t_elapsed "$t") s)"

	t=$EPOCHREALTIME
	rds_load
	rds_run b
	rds_cm_check in
	rds_unload
	[ -z "$(rdma res show cm_id 2>/dev/null)" ] || t_fail "RDS left rdma_cm ids: $(rdma res show cm_id)"
	t_log "the inbox rds_rdma connected to ours: 5 rounds verified both ways ($(t_elapsed "$t") s)"
}
