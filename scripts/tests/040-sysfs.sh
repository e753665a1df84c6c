# /sys/class/infiniband/<dev>/ as Linux 6.1 lays it out, on ib_testdev's
# "ibtest0" (one ACTIVE port, P_Keys incl. 0xffff, three port counters that
# change on every driver read): file names, value formats, node_desc
# writes, the hw_counters lifespan, and nothing left after rmmod.
TEST_TIMEOUT=180

DEV=/sys/class/infiniband/ibtest0
PORT=$DEV/ports/1

# t_match WHAT REGEX FILE: fail unless the file's content matches.
t_match() {
	local v
	v=$(cat "$3") || t_fail "$1: cannot read $3"
	printf '%s\n' "$v" | grep -Eqx "$2" || t_fail "$1: '$v' does not match /$2/"
	t_log "$1 = '$v'"
}

check_device_files() {
	local f
	for f in node_type node_guid sys_image_guid fw_ver node_desc; do
		[ -f "$DEV/$f" ] || t_fail "missing $DEV/$f"
	done
	t_match node_type '[0-9]+: (CA|switch|router|RNIC|usNIC|usNIC UDP|unspecified|<unknown>)' "$DEV/node_type"
	t_match node_guid '[0-9a-f]{4}(:[0-9a-f]{4}){3}' "$DEV/node_guid"
	t_match sys_image_guid '[0-9a-f]{4}(:[0-9a-f]{4}){3}' "$DEV/sys_image_guid"
	[ "$(stat -c %a "$DEV/node_desc")" = 644 ] || t_fail "node_desc mode is not 0644"
}

check_port_files() {
	t_match state '[0-9]+: (NOP|DOWN|INIT|ARMED|ACTIVE|ACTIVE_DEFER|UNKNOWN)' "$PORT/state"
	t_eq state "4: ACTIVE" "$(cat "$PORT/state")"
	t_match phys_state '[0-9]+: [A-Za-z <>]+' "$PORT/phys_state"
	t_match rate '[0-9]+(\.5)? Gb/sec \([0-9]+X [A-Z0-9]+\)' "$PORT/rate"
	t_match link_layer 'InfiniBand|Ethernet|Unknown' "$PORT/link_layer"
	t_match lid '0x[0-9a-f]+' "$PORT/lid"
	t_match sm_lid '0x[0-9a-f]+' "$PORT/sm_lid"
	t_match lid_mask_count '[0-9]+' "$PORT/lid_mask_count"
	t_match sm_sl '[0-9]+' "$PORT/sm_sl"
	t_match cap_mask '0x[0-9a-f]{8}' "$PORT/cap_mask"
}

check_tables() {
	local f v n=0
	[ -f "$PORT/gids/0" ] || t_fail "no gids/0"
	t_match gids/0 '[0-9a-f]{4}(:[0-9a-f]{4}){7}' "$PORT/gids/0"
	[ -f "$PORT/gid_attrs/types/0" ] || t_fail "no gid_attrs/types/0"
	[ -f "$PORT/gid_attrs/ndevs/0" ] || t_fail "no gid_attrs/ndevs/0"
	# a valid GID entry has a type; a read of an empty one fails (EINVAL)
	if v=$(cat "$PORT/gid_attrs/types/0" 2>/dev/null); then
		printf '%s\n' "$v" | grep -Eqx 'IB/RoCE v1|RoCE v2' ||
			t_fail "gid_attrs/types/0 is '$v'"
	fi
	for f in "$PORT"/pkeys/*; do
		printf '%s\n' "$(cat "$f")" | grep -Eqx '0x[0-9a-f]{4}' ||
			t_fail "$f is '$(cat "$f")'"
		[ "$(cat "$f")" = 0xffff ] && n=$((n + 1))
	done
	[ "$n" -ge 1 ] || t_fail "no P_Key 0xffff in $PORT/pkeys"
	t_log "pkeys: $(ls "$PORT/pkeys" | wc -l) entries, 0xffff present"
}

check_node_desc() {
	local old
	old=$(cat "$DEV/node_desc")
	printf '%s' "rdmaoot sysfs test" > "$DEV/node_desc" || t_fail "writing node_desc failed"
	t_eq node_desc "rdmaoot sysfs test" "$(cat "$DEV/node_desc")"
	printf '%s' "$old" > "$DEV/node_desc" || t_fail "restoring node_desc failed"
}

# The driver's values change on every read: within the lifespan a counter
# reads the same, after it the driver is asked again.
check_hw_counters() {
	local hc=$PORT/hw_counters c a b
	[ -d "$hc" ] || t_fail "no $hc"
	[ -f "$hc/lifespan" ] || t_fail "no $hc/lifespan"
	t_match lifespan '[0-9]+' "$hc/lifespan"
	c=$(ls "$hc" | grep -vx lifespan | head -n 1)
	[ -n "$c" ] || t_fail "no counter in $hc"
	[ "$(ls "$hc" | grep -vxc lifespan)" -eq 3 ] || t_fail "expected 3 counters in $hc: $(ls "$hc")"
	t_match "counter $c" '[0-9]+' "$hc/$c"

	echo 10000 > "$hc/lifespan" || t_fail "cannot set lifespan"
	t_eq lifespan 10000 "$(cat "$hc/lifespan")"
	sleep 0.1
	a=$(cat "$hc/$c")
	b=$(cat "$hc/$c")
	t_eq "$c within lifespan" "$a" "$b"

	echo 0 > "$hc/lifespan" || t_fail "cannot set lifespan 0"
	sleep 0.1
	a=$(cat "$hc/$c")
	sleep 0.1
	b=$(cat "$hc/$c")
	[ "$a" != "$b" ] || t_fail "$c did not change after the lifespan ($a)"
	t_log "$c after lifespan: $a -> $b"

	echo 10001 > "$hc/lifespan" 2>/dev/null && t_fail "lifespan 10001 accepted"
	echo -1 > "$hc/lifespan" 2>/dev/null && t_fail "lifespan -1 accepted"
	echo 10 > "$hc/lifespan" || t_fail "cannot restore lifespan"
}

test_run() {
	t_run modprobe ib_testdev
	[ -d "$DEV" ] || t_fail "$DEV does not exist after modprobe ib_testdev"
	[ -d "$PORT" ] || t_fail "$PORT does not exist"
	check_device_files
	check_port_files
	check_tables
	check_node_desc
	check_hw_counters
	t_run modprobe -r ib_testdev
	[ -e "$DEV" ] && t_fail "$DEV still there after rmmod"
	[ -z "$(ls /sys/class/infiniband 2>/dev/null)" ] ||
		t_fail "/sys/class/infiniband not empty: $(ls /sys/class/infiniband)"
	t_log "rmmod removed every device"
}

test_cleanup() {
	modprobe -r ib_testdev 2>/dev/null || true
	modprobe -r ib_core 2>/dev/null || true
}
