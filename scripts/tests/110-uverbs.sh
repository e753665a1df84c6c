# ib_uverbs as rdma-core 44 meets it: an rxe device gets /dev/infiniband/
# uverbs0 (231:192, mode 0666) and its class files; libibverbs finds it
# through RDMA netlink's GET_CHARDEV, which loads ib_uverbs on demand;
# ibv_devices and ibv_devinfo -v (GET_CONTEXT, QUERY_DEVICE,
# EX_QUERY_DEVICE, QUERY_PORT; since the ioctl engine, tests/113, through
# ioctl and INVOKE_WRITE) show
# what sysfs and the rdma tool show; the write() ABI spoken by hand
# (scripts/guest/uverbs-write.py: every header errno, the commands field by
# field, ENOTTY from a foreign ioctl, 2000 random writes; the file closed with a PD
# left); "rdma link delete" under a process
# that holds a context and a PD finishes, the process sees errors and
# DEVICE_FATAL, and everything unloads.
TEST_TIMEOUT=600

. "$RDMAOOT_TOP/scripts/guest/uverbs-env.sh"

UV_CLASS=/sys/class/infiniband_verbs
GO=/tmp/uverbs-hold.go
HOLD_OUT=/tmp/uverbs-hold.out
HOLD_PID=

test_setup() {
	uv_env_setup ibv_devinfo
	rm -f "$GO" "$HOLD_OUT"
}

uverbs_gone() { [ ! -e "$UV_CLASS/uverbs0" ] && [ ! -e /dev/infiniband/uverbs0 ]; }
hold_opened() { grep -q '^open:' "$HOLD_OUT" 2>/dev/null; }

# The character device and the class files rdma-core reads.
check_chardev() {
	local c=/dev/infiniband/uverbs0
	t_wait_for 5 test -c "$c" || t_fail "$c is not a character device"
	t_eq "$c major:minor (hex)" "e7:c0" "$(stat -c '%t:%T' "$c")"
	t_eq "$c mode" "666" "$(stat -c '%a' "$c")"
	t_eq "class abi_version" "6" "$(cat "$UV_CLASS/abi_version")"
	t_eq "uverbs0/ibdev" "$IBDEV" "$(cat "$UV_CLASS/uverbs0/ibdev")"
	t_eq "uverbs0/abi_version (rxe's)" "2" "$(cat "$UV_CLASS/uverbs0/abi_version")"
	t_eq "uverbs0/dev" "231:192" "$(cat "$UV_CLASS/uverbs0/dev")"
}

# ibv_devinfo -v against sysfs: node GUID, port state, MTUs, link layer,
# the IPv4 GID.
check_devinfo() {
	local out guid v
	out=$(ibv_devinfo -v -d "$IBDEV" 2>&1) || t_fail "ibv_devinfo -v -d $IBDEV failed: $out"
	printf '%s\n' "$out" | head -60
	guid=$(cat "$IB_CLASS/$IBDEV/node_guid")
	v=$(printf '%s\n' "$out" | awk '$1 == "node_guid:" { print $2 }')
	t_eq "ibv_devinfo node_guid (sysfs node_guid)" "$guid" "$v"
	v=$(printf '%s\n' "$out" | awk '$1 == "sys_image_guid:" { print $2 }')
	t_eq "ibv_devinfo sys_image_guid" "$(cat "$IB_CLASS/$IBDEV/sys_image_guid")" "$v"
	v=$(printf '%s\n' "$out" | awk '$1 == "state:" { print $2 }')
	t_eq "ibv_devinfo port state (sysfs '$(cat "$IB_CLASS/$IBDEV/ports/1/state")')" "PORT_ACTIVE" "$v"
	v=$(printf '%s\n' "$out" | awk '$1 == "active_mtu:" { print $2 }')
	t_eq "ibv_devinfo active_mtu (veth MTU 1500)" "1024" "$v"
	v=$(printf '%s\n' "$out" | awk '$1 == "max_mtu:" { print $2 }')
	t_eq "ibv_devinfo max_mtu" "4096" "$v"
	v=$(printf '%s\n' "$out" | awk '$1 == "link_layer:" { print $2 }')
	t_eq "ibv_devinfo link_layer (sysfs '$(cat "$IB_CLASS/$IBDEV/ports/1/link_layer")')" "Ethernet" "$v"
	v=$(printf '%s\n' "$out" | awk '$1 == "phys_port_cnt:" { print $2 }')
	t_eq "ibv_devinfo phys_port_cnt" "1" "$v"
	v=$(printf '%s\n' "$out" | awk '$1 == "vendor_id:" { print $2 }')
	t_eq "ibv_devinfo vendor_id" "0xffffff" "$v"
	printf '%s\n' "$out" | grep -E "GID\[ *1\]:.*($IP4_GID|::ffff:$IP4)" ||
		t_fail "ibv_devinfo does not show GID 1 $IP4_GID"
	t_log "ibv_devinfo shows GID 1 ($IP4)"
}

# libibverbs' own view: ibv_devices through GET_CHARDEV, which loads
# ib_uverbs.
check_discovery() {
	local out guid
	! t_mod_loaded ib_uverbs || t_fail "ib_uverbs is loaded before anyone asked for it"
	out=$(ibv_devices 2>&1) || t_fail "ibv_devices failed: $out"
	printf '%s\n' "$out"
	t_mod_loaded ib_uverbs || t_fail "GET_CHARDEV did not load ib_uverbs"
	guid=$(tr -d : < "$IB_CLASS/$IBDEV/node_guid")
	printf '%s\n' "$out" | grep -qE "^\s*$IBDEV\s+$guid\s*$" ||
		t_fail "ibv_devices does not list $IBDEV with node GUID $guid"
	t_log "ibv_devices lists $IBDEV $guid; ib_uverbs was loaded on demand"
}

# The ABI by hand, on the device file itself.
check_write_abi() {
	local out guid
	out=$(/usr/bin/python3 "$RDMAOOT_TOP/scripts/guest/uverbs-write.py" \
		/dev/infiniband/uverbs0 2000 2>&1) || {
		printf '%s\n' "$out"
		t_fail "uverbs-write.py found a wrong answer"
	}
	printf '%s\n' "$out"
	guid=$(tr -d : < "$IB_CLASS/$IBDEV/node_guid")
	printf '%s\n' "$out" | grep -q "^node_guid $guid$" ||
		t_fail "QUERY_DEVICE's node GUID is not sysfs' $guid"
	rdma res show | grep "^[0-9]*: $IBDEV:" | grep -q " ctx 0 " ||
		t_fail "a context is left after the file closed: $(rdma res show 2>&1)"
	t_log "the closed file left no context"
}

# A process holds a context and a PD; the device is deleted under it.
check_removal() {
	local start end rc
	RDMAV_ALLOW_DISASSOC_DESTROY=1 /usr/bin/python3 \
		"$RDMAOOT_TOP/scripts/guest/uverbs-hold.py" "$IBDEV" "$GO" \
		> "$HOLD_OUT" 2>&1 &
	HOLD_PID=$!
	t_wait_for 60 hold_opened || { cat "$HOLD_OUT"; t_fail "the holder did not open $IBDEV"; }
	cat "$HOLD_OUT"
	rdma res show pd dev "$IBDEV" | grep -q "comm python3" ||
		t_fail "rdma res shows no PD of the holder: $(rdma res show pd dev "$IBDEV" 2>&1)"
	rdma res show pd dev "$IBDEV"
	rdma res show | grep "^[0-9]*: $IBDEV:" | grep -q " ctx 1 " ||
		t_fail "rdma res does not count the holder's context: $(rdma res show 2>&1)"
	t_log "rdma res counts one user context on $IBDEV"
	start=$(date +%s)
	timeout 60 rdma link delete "$IBDEV" || t_fail "rdma link delete $IBDEV failed or hung while a process held it"
	end=$(date +%s)
	t_log "rdma link delete took $((end - start)) s with the device held open"
	t_wait_for 5 uv_ibdev_gone || t_fail "$IBDEV still exists"
	t_wait_for 5 uverbs_gone || t_fail "uverbs0 is still there after the device went"
	touch "$GO"
	rc=0
	t_wait_for 60 sh -c "! kill -0 $HOLD_PID 2>/dev/null" || t_fail "the holder hangs after the removal"
	wait "$HOLD_PID" || rc=$?
	HOLD_PID=
	cat "$HOLD_OUT"
	[ "$rc" = 0 ] || t_fail "the holder saw a removal it should not have (exit $rc)"
	grep -q "^result: closed" "$HOLD_OUT" || t_fail "the holder did not close cleanly"
}

test_run() {
	uv_rxe_add
	check_discovery
	check_chardev
	check_devinfo
	check_write_abi
	check_removal
	t_run modprobe -r rdma_rxe
	t_run modprobe -r ib_uverbs
	! t_mod_loaded ib_uverbs || t_fail "ib_uverbs is still loaded"
}

test_cleanup() {
	[ -n "$HOLD_PID" ] && kill "$HOLD_PID" 2>/dev/null
	uv_env_cleanup
	rm -f "$GO" "$HOLD_OUT"
}
