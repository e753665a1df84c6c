# RoCE GIDs follow the net device: a testdev RoCE device made with
# "rdma link add" on a veth shows the default (link-local) GID and one GID
# per IPv4/IPv6 address, each as RoCE v1 and v2 with the veth as ndev, in
# the 6.1 sysfs layout; deleted addresses take their GIDs with them; the
# device goes with "rdma link delete" and with its net device.
TEST_TIMEOUT=600

NDEV=rgveth0
PEER=rgveth1
IBDEV=rtest0
# A fixed, locally administered MAC; its EUI-64 flips the U/L bit (02 -> 00).
MAC=02:00:00:00:30:01
LL_GID=fe80:0000:0000:0000:0000:00ff:fe00:3001
IP4=192.0.2.1
IP4_GID=0000:0000:0000:0000:0000:ffff:c000:0201
IP6=2001:db8::1
IP6_GID=2001:0db8:0000:0000:0000:0000:0000:0001
IB_CLASS=/sys/class/infiniband
ZERO_GID=0000:0000:0000:0000:0000:0000:0000:0000

# gid_entries DEV: "INDEX|GID|TYPE|NDEV" for each used GID of port 1.
# The files are read with the shell's own read: a cat per entry of the
# table cost over three minutes on the debug guest.
gid_entries() {
	local d=$IB_CLASS/$1/ports/1 f i gid type ndev
	for f in "$d"/gids/*; do
		i=${f##*/}
		read -r gid 2>/dev/null < "$f" || continue
		[ "$gid" = "$ZERO_GID" ] && continue
		read -r type 2>/dev/null < "$d/gid_attrs/types/$i" || type=-
		read -r ndev 2>/dev/null < "$d/gid_attrs/ndevs/$i" || ndev=-
		echo "$i|$gid|$type|$ndev"
	done
}

# has_gid GID TYPE: $IBDEV has GID with TYPE and ndev $NDEV.
has_gid() {
	gid_entries "$IBDEV" | awk -F'|' -v g="$1" -v t="$2" -v n="$NDEV" \
		'$2 == g && $3 == t && $4 == n { f = 1 } END { exit !f }'
}

# no_gid GID: no entry of $IBDEV holds GID, whatever its type and ndev.
no_gid() {
	gid_entries "$IBDEV" | awk -F'|' -v g="$1" '$2 == g { f = 1 } END { exit f }'
}

# expect_gid WHAT GID: present once per RoCE type, with $NDEV as ndev.
expect_gid() {
	local t
	for t in "IB/RoCE v1" "RoCE v2"; do
		t_wait_for 5 has_gid "$2" "$t" ||
			t_fail "$1 GID $2 ($t, $NDEV) missing; table: $(gid_entries "$IBDEV" | tr '\n' ' ')"
	done
	t_log "$1 GID $2 present as RoCE v1 and v2 on $NDEV"
}

# expect_no_gid WHAT GID: gone from every entry.
expect_no_gid() {
	t_wait_for 5 no_gid "$2" ||
		t_fail "$1 GID $2 still there; table: $(gid_entries "$IBDEV" | tr '\n' ' ')"
	t_log "$1 GID $2 gone"
}

ibdev_gone() { [ ! -e "$IB_CLASS/$IBDEV" ]; }

test_setup() {
	command -v rdma >/dev/null || t_skip "the rdma tool (iproute2) is not installed"
	command -v ip >/dev/null || t_skip "the ip tool (iproute2) is not installed"
	[ -e /proc/net/if_inet6 ] || t_skip "the kernel has no IPv6"
	ip link add "$NDEV" address "$MAC" type veth peer name "$PEER" ||
		t_skip "cannot create a veth pair"
	t_run ip addr add "$IP4/24" dev "$NDEV"
	t_run ip -6 addr add "$IP6/64" dev "$NDEV" nodad
	t_run ip link set "$NDEV" up
	t_run ip link set "$PEER" up
}

test_run() {
	local d
	t_run modprobe ib_testdev
	[ -d "$IB_CLASS/ibtest0" ] || t_fail "ib_testdev made no ibtest0"

	t_run rdma link add "$IBDEV" type testdev netdev "$NDEV"
	d=$IB_CLASS/$IBDEV/ports/1
	[ -d "$d/gids" ] || t_fail "$d/gids does not exist"
	[ -d "$d/gid_attrs/types" ] || t_fail "$d/gid_attrs/types does not exist"
	[ -d "$d/gid_attrs/ndevs" ] || t_fail "$d/gid_attrs/ndevs does not exist"
	t_eq "link layer of $IBDEV" Ethernet "$(cat "$d/link_layer")"

	expect_gid "link-local default" "$LL_GID"
	expect_gid "IPv4-mapped" "$IP4_GID"
	expect_gid "IPv6" "$IP6_GID"

	t_run ip addr del "$IP4/24" dev "$NDEV"
	expect_no_gid "IPv4-mapped" "$IP4_GID"
	expect_gid "IPv6 (after the IPv4 address went)" "$IP6_GID"
	t_run ip -6 addr del "$IP6/64" dev "$NDEV"
	expect_no_gid "IPv6" "$IP6_GID"
	expect_gid "link-local default (after the addresses went)" "$LL_GID"

	# an address added now comes through the address notifier
	t_run ip addr add "$IP4/24" dev "$NDEV"
	expect_gid "IPv4-mapped (added back)" "$IP4_GID"

	t_run rdma link delete "$IBDEV"
	t_wait_for 5 ibdev_gone || t_fail "$IBDEV still exists after rdma link delete"
	t_log "$IBDEV gone after rdma link delete"

	# the device also goes when its net device does
	t_run rdma link add "$IBDEV" type testdev netdev "$NDEV"
	expect_gid "IPv4-mapped (new device)" "$IP4_GID"
	t_run ip link del "$NDEV"
	t_wait_for 10 ibdev_gone || t_fail "$IBDEV still exists after its net device went"
	t_log "$IBDEV gone with $NDEV"

	t_run rmmod ib_testdev
	t_mod_loaded ib_testdev && t_fail "ib_testdev still loaded after rmmod"
	[ -e "$IB_CLASS/ibtest0" ] && t_fail "ibtest0 outlived ib_testdev"
	t_log "ib_testdev unloaded, its devices gone"
}

test_cleanup() {
	rdma link delete "$IBDEV" 2>/dev/null
	ip link del "$NDEV" 2>/dev/null
	modprobe -r ib_testdev 2>/dev/null
	modprobe -r ib_core 2>/dev/null
	true
}
