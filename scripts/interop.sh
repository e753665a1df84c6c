#!/usr/bin/env bash
# scripts/interop.sh MODROOT OUTDIR [TIMEOUT] - our stack against the inbox
# one, in two guests of the stock kernel on one virtual wire.
#
# The peer guest runs Debian's own RDMA stack (a module tree without ours)
# and serves commands the tests send it through a folder both guests mount
# (scripts/guest/interop-peer.sh); the other guest loads ours from MODROOT
# and runs scripts/interop/ (scripts/guest/run-tests.sh ... interop). Their
# NICs are joined by a QEMU stream netdev: the peer listens on a free
# loopback port, ours connects to it. (Not the older "socket" netdev: its
# link stalled for good under load, see Documentation/testing.rst.) Results: OUTDIR/ours/share (as any
# guest's), the peer's log in OUTDIR/peer/share. Prints "PASS interop/peer"
# or "FAIL interop/peer <reason>" for the host's list of checks. Exits 0
# when our guest finished its job. TIMEOUT is the time our guest's job is
# expected to need at most (scripts/qemu-run.sh: it is stopped at 3 times
# that, or when it makes no progress); the peer, idle while it waits for
# commands, has no limit on that: it is stopped when ours is done.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

modroot=$1 out=$2 tmo=${3:-1800}
mkdir -p "$out"
out=$(realpath "$out")
pair=$out/pair
rm -rf "$pair" "$out/inbox"
mkdir -p "$pair/cmd" "$out/inbox"

# The peer's module tree: the stock kernel's own, nothing of ours.
inbox=$("$RDMAOOT_TOP/scripts/stage-modules.sh" stock "$out/inbox" 2> "$out/stage-inbox.log" | tail -n1)

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
RDMAOOT_NIC=stream,server=on,addr.type=inet,addr.host=127.0.0.1,addr.port=$port RDMAOOT_MAC=52:54:00:88:00:01 \
	RDMAOOT_PAIR=$pair RDMAOOT_SMP=1 RDMAOOT_TESTS= RDMAOOT_GUEST_IDLE_S=0 \
	"$RDMAOOT_TOP/scripts/qemu-run.sh" stock "$inbox" "$out/peer" interop-peer "$tmo" &
peer_pid=$!

# QEMU's connecting side fails when nobody listens yet.
listening() { ss -Hltn "sport = :$port" | grep -q .; }
n=300
while ! listening && [ $n -gt 0 ] && kill -0 "$peer_pid" 2>/dev/null; do
	sleep 0.1
	n=$((n - 1))
done

# When our guest finds the wire dead it asks (PAIR/wire-dump.req) what both
# QEMUs say about their ends of it (scripts/guest/interop.sh).
wire_dumps() {
	while kill -0 "$peer_pid" 2>/dev/null; do
		if [ -e "$pair/wire-dump.req" ]; then
			"$RDMAOOT_TOP/scripts/qmp-wire-dump.py" "ours=$out/ours/qmp.sock" \
				"peer=$out/peer/qmp.sock" > "$pair/wire-dump.tmp" 2>&1
			rm -f "$pair/wire-dump.req"
			mv "$pair/wire-dump.tmp" "$pair/wire-dump.txt"
		fi
		sleep 1
	done
}
wire_dumps &
dumps_pid=$!

rc=0
RDMAOOT_NIC=stream,server=off,addr.type=inet,addr.host=127.0.0.1,addr.port=$port RDMAOOT_MAC=52:54:00:88:00:02 \
	RDMAOOT_PAIR=$pair RDMAOOT_SMP=1 \
	"$RDMAOOT_TOP/scripts/qemu-run.sh" stock "$modroot" "$out/ours" interop "$tmo" || rc=$?

# The peer powers off once told to stop; give it a minute.
touch "$pair/stop"
n=600
while kill -0 "$peer_pid" 2>/dev/null && [ $n -gt 0 ]; do
	sleep 0.1
	n=$((n - 1))
done
kill "$peer_pid" 2>/dev/null || true
peer_rc=0
wait "$peer_pid" || peer_rc=$?
kill "$dumps_pid" 2>/dev/null || true
wait "$dumps_pid" 2>/dev/null || true

if [ ! -e "$pair/peer-ready" ]; then
	echo "FAIL interop/peer 0 the peer never got ready, see $out/peer/share/peer.log"
elif [ $peer_rc -ne 0 ]; then
	echo "FAIL interop/peer 0 the peer guest did not finish, console: $out/peer/console.log"
else
	echo "PASS interop/peer 0"
fi
exit $rc
