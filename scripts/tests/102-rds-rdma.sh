# 102-rds-rdma: RDS over RDMA (the kernel's rds_rdma, rebuilt against our
# stack) moves verified messages between two sockets over our rxe.
#
# RDS/IB works in the initial network namespace only, so both ends live
# there: a veth pair with 10.79.1.1 on one end and 10.79.2.1 on the other,
# rxe0 and rxe1 on them. rdma_cm and rxe route with the source's
# interface bound, so a packet for the other end's address leaves by the
# veth (routing assumes it on link) instead of the local route: with
# accept_local on both ends and no reverse path filter, the other end
# takes it, ARP and RoCE alike, so everything crosses the veth.
# tools/rds-ping (built on the host by make tools) binds socket A to
# 10.79.1.1 and socket B to 10.79.2.1 with SO_RDS_TRANSPORT set to
# RDS_TRANS_IB, and sends every size from 1 byte to 1 MiB each way,
# round after round, content checked at each end (sequence number,
# direction and offset make every byte); rds_rdma connects through
# rdma_cm from rxe0 to its listener on rxe1 at :18634. Then:
# - RDS_INFO_CONNECTIONS names the "infiniband" transport for both
#   connections and RDS_INFO_IB_CONNECTIONS lists both (rds-ping checks);
# - rxe0 and rxe1 each received at least one packet per 1 KiB (the RoCE
#   MTU of a 1500-byte veth) of the data sent to them, and sent at least
#   as many; no rcvd_drop_* counter moved (ICRC checked on each packet);
# - rdma res lists RC QPs on both devices and connected rdma_cm ids
#   towards and from port 18634;
# - a second run with 1600 small messages each way (up to 4 KiB);
# - rds_rdma and rds unload, leaving no rdma_cm id and no QP behind.
# Stock only: the debug kernel is configured without RDMA, so without
# these ULPs. Measured: 55 to 85 s on the stock kernel under TCG when it
# still compiled rds-ping in the guest (half of it; the exchanges, 11 MB
# and 1600 messages each way, 9 s and 2 s).
TEST_KERNELS=stock
TEST_TIMEOUT=300

. "$RDMAOOT_TOP/scripts/guest/rxe-pair.sh"

RV0=rdsveth0
RV1=rdsveth1
RIPA=10.79.1.1
RIPB=10.79.2.1
RGIDA=0000:0000:0000:0000:0000:ffff:0a4f:0101
RGIDB=0000:0000:0000:0000:0000:ffff:0a4f:0201
RDSDIR=/tmp/102
PING=$RDMAOOT_TOP/build/tools/rds-ping

test_setup() {
	local dev
	command -v rdma >/dev/null || t_skip "the rdma tool (iproute2) is not installed"
	t_mod_path rds_rdma >/dev/null || t_skip "rds_rdma is not built (make ulps)"
	mkdir -p "$RDSDIR"
	[ -x "$PING" ] || t_fail "no $PING: make check builds it on the host (make tools)"
	t_run modprobe rdma_rxe
	t_run ip link add "$RV0" type veth peer name "$RV1"
	t_run ip addr add "$RIPA/24" dev "$RV0"
	t_run ip addr add "$RIPB/24" dev "$RV1"
	# Each end must take packets from the other end's address, which is
	# an address of this host too (accept_local; no reverse path
	# filter): then ARP and RoCE cross the veth, as routing with the
	# source's interface bound (rdma_cm's and rxe's) sends them.
	sysctl -n net.ipv4.conf.all.rp_filter > "$RDSDIR/rp_filter"
	t_run sysctl -qw net.ipv4.conf.all.rp_filter=0
	for dev in "$RV0" "$RV1"; do
		t_run sysctl -qw "net.ipv4.conf.$dev.accept_local=1"
		t_run sysctl -qw "net.ipv4.conf.$dev.rp_filter=0"
	done
	t_run ip link set "$RV0" up
	t_run ip link set "$RV1" up
	t_run rdma link add rxe0 type rxe netdev "$RV0"
	t_run rdma link add rxe1 type rxe netdev "$RV1"
	t_wait_for 10 has_v2_gid rxe0 "$RGIDA" || t_fail "rxe0 has no RoCE v2 GID for $RIPA"
	t_wait_for 10 has_v2_gid rxe1 "$RGIDB" || t_fail "rxe1 has no RoCE v2 GID for $RIPB"
	t_run modprobe rds_rdma
}

test_cleanup() {
	modprobe -r rds_rdma 2>/dev/null
	modprobe -r rds 2>/dev/null
	rdma link delete rxe1 2>/dev/null
	rdma link delete rxe0 2>/dev/null
	ip link del "$RV0" 2>/dev/null
	[ -s "$RDSDIR/rp_filter" ] &&
		sysctl -qw "net.ipv4.conf.all.rp_filter=$(cat "$RDSDIR/rp_filter")"
	rmmod rdma_cm 2>/dev/null
	rmmod iw_cm 2>/dev/null
	rmmod ib_cm 2>/dev/null
	modprobe -r rdma_rxe 2>/dev/null
	modprobe -r ib_core 2>/dev/null
	rm -rf "$RDSDIR"
	true
}

# rds_ping ARGS...: run rds-ping between A and B, its output in OUT, the
# bytes it sent each way in BYTES.
rds_ping() {
	local t0=$SECONDS rc
	OUT=$("$PING" -a "$RIPA" -b "$RIPB" "$@" 2>&1)
	rc=$?
	echo "$OUT"
	if [ "$rc" -ne 0 ]; then
		rds_diag
		t_fail "rds-ping $* exited $rc: $(echo "$OUT" | grep -m1 -v '^rds-ping: [ 0-9]')"
	fi
	BYTES=$(echo "$OUT" | sed -n 's/.* messages, \([0-9]*\) bytes each way.*/\1/p')
	[ -n "$BYTES" ] || t_fail "rds-ping printed no byte count"
	t_log "rds-ping $* took $((SECONDS - t0)) s"
}

# rds_diag: what the stack shows, when rds-ping failed.
rds_diag() {
	rdma_diag rxe0 rxe1
	ip addr show
	dmesg | tail -n 30
}

# no_drops DEV: no rcvd_drop_* counter of DEV moved since counters_mark.
no_drops() {
	local f
	for f in "$IB_CLASS/$1"/ports/1/hw_counters/rcvd_drop_*; do
		expect_counter "$1" "${f##*/}" -eq 0
	done
}

# res_check: RC QPs on both devices, connected ids to and from :18634.
res_check() {
	local dev qps ids
	for dev in rxe0 rxe1; do
		qps=$(rdma res show qp link "$dev/1" 2>&1)
		echo "$qps"
		echo "$qps" | grep -q "type RC" || t_fail "no RC QP on $dev: $qps"
	done
	ids=$(rdma res show cm_id 2>&1)
	echo "$ids"
	echo "$ids" | grep -q "state CONNECT.*src-addr $RIPA:[0-9]* dst-addr $RIPB:18634" ||
		t_fail "no connected rdma_cm id from $RIPA to $RIPB:18634"
	echo "$ids" | grep -q "state CONNECT.*src-addr $RIPB:18634 dst-addr $RIPA:" ||
		t_fail "no connected rdma_cm id accepted on $RIPB:18634"
}

test_run() {
	local dev n

	counters_mark rxe0 rxe1
	rds_ping -n 5 -t 60 -s
	# Packets of at most 1 KiB of payload each (RoCE MTU 1024).
	n=$((BYTES / 1024))
	for dev in rxe0 rxe1; do
		expect_counter "$dev" rcvd_pkts -ge "$n"
		expect_counter "$dev" sent_pkts -ge "$n"
		no_drops "$dev"
	done
	res_check

	counters_mark rxe0 rxe1
	rds_ping -n 100 -m 4096 -p 18800 -t 60
	for dev in rxe0 rxe1; do
		# 16 messages a round, each at least one packet
		expect_counter "$dev" rcvd_pkts -ge 1600
		no_drops "$dev"
	done

	t_run modprobe -r rds_rdma
	t_run modprobe -r rds
	n=$(rdma res show cm_id 2>/dev/null | grep -c . || true)
	[ "$n" -eq 0 ] || t_fail "rds_rdma left $n cm_id rows: $(rdma res show cm_id)"
	for dev in rxe0 rxe1; do
		rdma res show qp link "$dev/1" 2>&1 | grep -q "type RC" &&
			t_fail "an RC QP is left on $dev: $(rdma res show qp link "$dev/1")"
	done
	true
}
