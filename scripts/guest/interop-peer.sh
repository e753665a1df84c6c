#!/bin/bash
# scripts/guest/interop-peer.sh PAIRDIR - the inbox side of the interop tests.
#
# Runs in the peer guest (scripts/interop.sh): brings up eth0 and the
# stock kernel's own soft-RoCE on it (rxe0), with rdma_ucm for rdma-core's
# programs, then says so in PAIRDIR/peer-ready. From then on every file
# PAIRDIR/cmd/N.sh the other guest writes is run once, in the background,
# in the order of N: its output goes to N.out, its errors to N.err and its
# exit status, once it ended, to N.rc. PAIRDIR/stop ends the loop (and the guest).
set -u
PAIR=$1
. "$RDMAOOT_TOP/scripts/guest/interop-net.sh"

up() {
	modprobe virtio_net || return 1
	interop_wait_eth0 || return 1
	ip addr add "$PEER_IP/24" dev eth0 || return 1
	ip link set eth0 up || return 1
	modprobe rdma_rxe || return 1
	# The inbox module, or this is no interop test.
	case $(modinfo -F filename rdma_rxe) in
	*/updates/*) echo "rdma_rxe is not the inbox module"; return 1 ;;
	esac
	rdma link add rxe0 type rxe netdev eth0 || return 1
	modprobe rdma_ucm || return 1
	modprobe ib_uverbs || return 1
}

if ! up; then
	echo "peer: setup failed"
	exit 1
fi
ip addr show eth0
rdma link show
uname -r > "$PAIR/peer-ready"

while [ ! -e "$PAIR/stop" ]; do
	for f in "$PAIR"/cmd/*.sh; do
		[ -e "$f" ] || continue
		n=${f%.sh}
		[ -e "$n.started" ] && continue
		: > "$n.started"
		echo "peer: running $(basename "$f"): $(head -c 200 "$f")"
		(bash "$f" > "$n.out" 2> "$n.err"; echo $? > "$n.rc.tmp"; mv "$n.rc.tmp" "$n.rc") &
	done
	sleep 0.2
done
echo "peer: stopping"
dmesg | grep -Ei 'rxe|rdma|infiniband|ib_' | tail -n 50
exit 0
