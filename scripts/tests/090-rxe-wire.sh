# What our soft-RoCE puts on the wire is RoCEv2 as others read it: traffic
# between two rxe devices across a veth pair (the peer end in its own
# network namespace, over IPv4 and IPv6) is captured with tcpdump and checked by
# scripts/rxe-wirecheck.py: every packet's ICRC recomputed independently,
# and tshark's RoCE dissector finds nothing malformed.
TEST_TIMEOUT=600

NS=rxewire
VA=rxwA
VB=rxwB
PCAP=/tmp/rxe-wire.pcap

test_setup() {
	ip netns add "$NS" || return 1
	ip link add "$VA" type veth peer name "$VB" || return 1
	ip link set "$VB" netns "$NS" || return 1
	ip addr add 10.78.0.1/24 dev "$VA"
	ip -n "$NS" addr add 10.78.0.2/24 dev "$VB"
	ip addr add fd00:78::1/64 dev "$VA" nodad
	ip -n "$NS" addr add fd00:78::2/64 dev "$VB" nodad
	ip link set "$VA" up
	ip -n "$NS" link set "$VB" up
	ip -n "$NS" link set lo up
	rdma link add rxw0 type rxe netdev "$VA" || return 1
	ip netns exec "$NS" rdma link add rxw1 type rxe netdev "$VB" || return 1
	modprobe ib_kperf
	# the RoCE GIDs of the addresses appear asynchronously
	local d n=100
	for d in rxw0 rxw1; do
		while ! grep -qs '^fd00:0078:' /sys/class/infiniband/$d/ports/1/gids/*; do
			n=$((n - 1))
			[ "$n" -gt 0 ] || { echo "no IPv6 GID on $d"; return 1; }
			sleep 0.1
		done
	done
}

. "$RDMAOOT_TOP/scripts/guest/kperf-cmd.sh"

# kperf ARGS...: one functional run between the two devices, must pass.
kperf() {
	local rc
	echo "+ kperf $*"
	kperf_cmd mode=ping dev=rxw1 peer=rxw0 "$@"
	rc=$?
	printf '%s\n' "$KPERF_OUT"
	[ -z "$KPERF_ERR" ] || printf '%s\n' "$KPERF_ERR"
	[ $rc -eq 0 ] || t_fail "kperf $* failed"
}

test_run() {
	local t n n6
	command -v tcpdump >/dev/null || t_skip "no tcpdump on this system"
	command -v python3 >/dev/null || t_skip "no python3 on this system"
	rm -f /tmp/tcpdump.err
	tcpdump -i "$VA" -s 0 -U -w "$PCAP" udp port 4791 2>/tmp/tcpdump.err &
	TCPDUMP=$!
	# traffic only once the capture is open
	t_wait_for 30 grep -q "listening on" /tmp/tcpdump.err || t_fail "tcpdump did not start: $(cat /tmp/tcpdump.err)"

	t=$EPOCHREALTIME
	kperf qp=rc op=send size=0 iters=2
	kperf qp=rc op=send size=3000 iters=2
	kperf qp=rc op=send_imm size=64 iters=2
	kperf qp=rc op=write size=3000 iters=2
	kperf qp=rc op=write_imm size=3000 iters=2
	kperf qp=rc op=read size=3000 iters=2
	kperf qp=rc op=cas size=8 iters=2
	kperf qp=rc op=faa size=8 iters=2
	kperf qp=rc op=write size=1000 mtu=256 iters=2
	kperf qp=uc op=send size=3000 iters=2
	kperf qp=uc op=write_imm size=3000 iters=2
	kperf qp=ud op=send size=1024 iters=2
	kperf qp=rc op=write size=1000 mr=frwr iters=2
	kperf qp=rc op=send_inv size=64 mr=frwr iters=2
	# the same over IPv6 (RoCE v2 GIDs of the global IPv6 addresses)
	kperf qp=rc op=send size=3000 iters=2 ip=6
	kperf qp=rc op=write size=3000 iters=2 ip=6
	kperf qp=rc op=read size=3000 iters=2 ip=6
	kperf qp=rc op=cas size=8 iters=2 ip=6
	kperf qp=ud op=send size=512 iters=2 ip=6
	kperf qp=uc op=write_imm size=2000 iters=2 ip=6

	t_log "traffic: $(t_elapsed "$t") s"
	sleep 1
	kill -INT "$TCPDUMP"
	wait "$TCPDUMP"
	cat /tmp/tcpdump.err
	n=$(tcpdump -r "$PCAP" 2>/dev/null | wc -l)
	[ "$n" -ge 40 ] || t_fail "only $n packets captured"
	n6=$(tcpdump -r "$PCAP" ip6 2>/dev/null | wc -l)
	[ "$n6" -ge 10 ] || t_fail "only $n6 IPv6 packets captured"
	t_log "$n packets captured, $n6 of them IPv6"
	t=$EPOCHREALTIME
	python3 "$RDMAOOT_TOP/scripts/rxe-wirecheck.py" "$PCAP" ||
		t_fail "the capture does not check out"
	t_log "capture checked: $(t_elapsed "$t") s"
	command -v tshark >/dev/null || t_log "no tshark: ICRCs checked, dissector not run"
}

test_cleanup() {
	[ -n "$TCPDUMP" ] && kill "$TCPDUMP" 2>/dev/null
	rmmod ib_kperf 2>/dev/null
	rdma link delete rxw0 2>/dev/null
	ip netns exec "$NS" rdma link delete rxw1 2>/dev/null
	ip link del "$VA" 2>/dev/null
	ip netns del "$NS" 2>/dev/null
	rm -f "$PCAP"
	true
}
