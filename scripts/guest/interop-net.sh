# scripts/guest/interop-net.sh - the virtual wire of the interop guests.
#
# Both guests source it: the peer (inbox stack) has PEER_IP, ours OUR_IP,
# each on its eth0, the virtio NIC scripts/interop.sh joined to the other's.

PEER_IP=10.88.0.1
OUR_IP=10.88.0.2
PAIR=${PAIR:-/run/pair}

# interop_wait_eth0: true once eth0 exists (virtio_net probes it
# asynchronously after its modprobe).
interop_wait_eth0() {
	local n=100
	while [ ! -e /sys/class/net/eth0 ]; do
		[ $n -gt 0 ] || return 1
		sleep 0.1
		n=$((n - 1))
	done
}
