# interop/140-umad: MADs between our ib_umad (rxe0 on eth0 here) and the
# inbox ib_umad of the peer (its rxe0), by raw read/write/ioctl on each
# side's umadN (scripts/guest/umad-loop.py, the same script on both: the
# peer runs it from the host's tree it mounts), both ways:
#
# 1. The peer answers (umad-loop.py serve on its umadN: a vendor class of
#    range 2 for GET and SET, an RMPP class with kernel RMPP) and our
#    agent asks (umad-loop.py ask here): an unsolicited SET arrives whole
#    (every byte, the header read() gives: agent, length, QP1, GRH with
#    our GID); a GET nobody answers is resent once (the peer sees both)
#    and comes back here with status ETIMEDOUT; a GET the peer answers
#    gets its response here (the TID, the peer's data and GID, no timeout
#    after); a 1000-byte RMPP message (5 segments, our kernel RMPP against
#    the inbox one) arrives whole after a too-short read got ENOSPC, and
#    its GET_RESP comes back.
# 2. The same with the roles swapped: the inbox asks, we answer.
#
# Each side sends from its RoCE v2 GID of an IPv6 address (fd88::2 here,
# fd88::1 on the peer, added to eth0 for the test), both ways; and once
# more from its RoCE v2 GID of its IPv4 address, with us asking. Not the
# inbox asking over IPv4: Linux 6.1 matches a response to its request only
# if the response's destination GID, read from the raw 40-byte network
# header slot, is the request's source GID (mad.c, rcv_has_same_gid());
# for RoCE v2 over IPv4 that slot holds the IPv4 header at its end, so
# 6.1 never matches such a response (nor an RMPP ACK): its asker times
# out. (Our MAD layer matches by TID and class alone.)
#
# Both kernels stay silent, and ib_umad unloads on both sides.
TEST_TIMEOUT=600
TEST_KERNELS=stock

. "$RDMAOOT_TOP/scripts/guest/interop.sh"

PY=/usr/bin/python3
LOOP=$RDMAOOT_TOP/scripts/guest/umad-loop.py
W=/tmp/umad-interop
SRV_PID=
OURS=
PEERS=

# The snippet both sides use to find a device's umadN:
# umad_of IBDEV prints the umadN whose ibdev is IBDEV.
umad_of() {
	local d i
	for d in /sys/class/infiniband_mad/umad*; do
		read -r i < "$d/ibdev" 2> /dev/null || continue
		[ "$i" = "$1" ] && { echo "${d##*/}"; return 0; }
	done
	return 1
}

# v2_gid IBDEV GID: "INDEX GID" of IBDEV's RoCE v2 GID entry GID (as sysfs
# writes it); false when there is none yet.
v2_gid() {
	local f i t g
	for f in /sys/class/infiniband/"$1"/ports/1/gid_attrs/types/*; do
		i=${f##*/}
		read -r t < "$f" 2> /dev/null || continue
		read -r g < "/sys/class/infiniband/$1/ports/1/gids/$i" 2> /dev/null || continue
		[ "$t" = "RoCE v2" ] && [ "$g" = "$2" ] && { echo "$i $g"; return 0; }
	done
	return 1
}

# v4_gid IP: IPv4 address IP as a GID in sysfs's form.
v4_gid() {
	# shellcheck disable=SC2086
	printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x\n' ${1//./ }
}

OUR6=fd88::2
PEER6=fd88::1
OUR6_GID=fd88:0000:0000:0000:0000:0000:0000:0002
PEER6_GID=fd88:0000:0000:0000:0000:0000:0000:0001

test_setup() {
	rm -rf "$W"
	mkdir -p "$W"
	interop_ours_up
	t_run modprobe ib_umad
	case $(t_mod_path ib_umad) in
	*/updates/*) ;;
	*) t_fail "ib_umad is not ours: $(t_mod_path ib_umad)" ;;
	esac
}

test_cleanup() {
	[ -z "$SRV_PID" ] || kill "$SRV_PID" 2> /dev/null
	peer_start "modprobe -r ib_umad; ip -6 addr del $PEER6/64 dev eth0"
	peer_wait "$PEER_N" 30 > /dev/null
	ip -6 addr del "$OUR6/64" dev eth0 2> /dev/null
	interop_ours_down
}

# both_ways OG OGID PG PGID [ours-asks]: umad-loop.py with the peer
# answering and us asking from our GID entry OG (OGID) to the peer's PGID,
# then (unless the last argument says ours-asks only) the reverse.
both_ways() {
	local og=$1 ogid=$2 pg=$3 pgid=$4 srv rc prc

	peer_start "timeout 200 $PY $LOOP serve $PEERS $ogid"
	srv=$PEER_N
	t_wait_for 30 grep -qx "# ready" "$PAIR/cmd/$srv.out" ||
		{ peer_wait "$srv" 1; t_fail "the peer's umad-loop.py serve did not get ready"; }
	echo "+ $PY $LOOP ask --gid-index $og $OURS $pgid"
	rc=0
	timeout 200 "$PY" "$LOOP" ask --gid-index "$og" "$OURS" "$pgid" > "$W/ask-ours" 2>&1 || rc=$?
	echo "--- our asking end:"
	cat "$W/ask-ours"
	echo "--- the inbox answering end:"
	peer_wait "$srv" 200 || t_fail "the inbox answering end found a wrong answer (exit $PEER_RC)"
	[ "$rc" = 0 ] || t_fail "our asking end found a wrong answer (exit $rc)"
	t_log "ours asked from $ogid, the inbox answered: every check held on both sides"
	[ "${5:-}" = ours-asks ] && return 0

	echo "+ (in the background) $PY $LOOP serve $OURS $pgid"
	timeout 200 "$PY" "$LOOP" serve "$OURS" "$pgid" > "$W/serve-ours" 2>&1 &
	SRV_PID=$!
	t_wait_for 30 grep -qx "# ready" "$W/serve-ours" ||
		{ cat "$W/serve-ours"; t_fail "our umad-loop.py serve did not get ready"; }
	peer_start "timeout 200 $PY $LOOP ask --gid-index $pg $PEERS $ogid"
	echo "--- the inbox asking end:"
	peer_wait "$PEER_N" 200
	prc=$PEER_RC
	rc=0
	wait "$SRV_PID" || rc=$?
	SRV_PID=
	echo "--- our answering end:"
	cat "$W/serve-ours"
	[ "$prc" = 0 ] || t_fail "the inbox asking end found a wrong answer (exit $prc)"
	[ "$rc" = 0 ] || t_fail "our answering end found a wrong answer (exit $rc)"
	t_log "the inbox asked from $pgid, ours answered: every check held on both sides"
}

test_run() {
	local og ogid pg pgid og6 pg6 log0 plog0 noise

	t_wait_for 10 umad_of rxe0 > /dev/null || t_fail "no umad file of our rxe0"
	OURS=/dev/infiniband/$(umad_of rxe0)
	t_wait_for 10 test -c "$OURS" || t_fail "no $OURS"
	t_run ip -6 addr add "$OUR6/64" dev eth0 nodad
	t_wait_for 10 v2_gid rxe0 "$(v4_gid "$OUR_IP")" > /dev/null || t_fail "our rxe0 has no RoCE v2 GID of $OUR_IP"
	t_wait_for 10 v2_gid rxe0 "$OUR6_GID" > /dev/null || t_fail "our rxe0 has no RoCE v2 GID of $OUR6"
	read -r og ogid <<< "$(v2_gid rxe0 "$(v4_gid "$OUR_IP")")"
	read -r og6 _ <<< "$(v2_gid rxe0 "$OUR6_GID")"

	# the inbox ib_umad on the peer, its file of rxe0 and its GIDs
	peer_run 60 "$(declare -f umad_of v2_gid)
case \$(modinfo -F filename ib_umad) in */updates/*) echo 'not the inbox ib_umad' >&2; exit 1 ;; esac
modprobe ib_umad || exit 1
ip -6 addr add $PEER6/64 dev eth0 nodad || exit 1
for i in \$(seq 100); do
	u=\$(umad_of rxe0) && [ -c /dev/infiniband/\$u ] && g=\$(v2_gid rxe0 $(v4_gid "$PEER_IP")) &&
		g6=\$(v2_gid rxe0 $PEER6_GID) && { echo \$u \$g \$g6; exit 0; }
	sleep 0.1
done
ls -l /sys/class/infiniband_mad /dev/infiniband >&2; exit 1"
	read -r PEERS pg pgid pg6 _ <<< "$PEER_OUT"
	[[ $PEERS =~ ^umad[0-9]+$ && $pg =~ ^[0-9]+$ && $pg6 =~ ^[0-9]+$ ]] ||
		t_fail "the peer's umad file and GIDs of rxe0: '$PEER_OUT'"
	PEERS=/dev/infiniband/$PEERS
	t_log "ours: $OURS, GIDs $og $ogid, $og6 $OUR6_GID; the peer's: $PEERS, GIDs $pg $pgid, $pg6 $PEER6_GID"
	log0=$(dmesg | wc -l)
	peer_run 10 "dmesg | wc -l"
	plog0=$PEER_OUT

	both_ways "$og6" "$OUR6_GID" "$pg6" "$PEER6_GID"
	both_ways "$og" "$ogid" "$pg" "$pgid" ours-asks

	noise=$(dmesg | tail -n +"$((log0 + 1))" | grep -Ei 'warn|bug|kasan|leak|error|rxe|umad|mad' || true)
	[ -z "$noise" ] || t_fail "our kernel spoke during the exchanges: $noise"
	peer_run 10 "dmesg | tail -n +$((plog0 + 1)) | grep -Ei 'warn|bug|kasan|leak|error|umad|mad' || true"
	[ -z "$PEER_OUT" ] || t_fail "the peer's kernel spoke during the exchanges: $PEER_OUT"
	peer_run 30 "modprobe -r ib_umad"
	t_run modprobe -r ib_umad
}
