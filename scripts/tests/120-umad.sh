# ib_umad on rdma_rxe: loaded on demand by RDMA netlink's GET_CHARDEV
# "umad"; class infiniband_mad with abi_version 5, umad0 and issm0 for
# rxe0's port 1 (major 231, minors 0 and 64) with ibdev and port;
# infiniband-diags' ibstat and ibstatus see the device; the ABI by hand
# (scripts/guest/umad-errno.py: the errno of every bad ioctl, write and
# read, the old header layout, issm exclusive, GET_CHARDEV umad and issm);
# MADs through it (scripts/guest/umad-loop.py: a vendor class of range 2
# from one file to another, every byte checked, ETIMEDOUT for a request
# nobody answers, a response matched to its request, a multi-segment RMPP
# message answered once whole; the answering end in a thread) on rxe0 to
# itself and across the veth pair to rxe1 in another namespace; "rdma
# link delete" with umad0 and issm0 held open does not wait for the
# process, whose calls then fail; everything unloads and the kernel stays
# silent throughout.
TEST_TIMEOUT=600

. "$RDMAOOT_TOP/scripts/guest/uverbs-env.sh"

G=$RDMAOOT_TOP/scripts/guest
MADCLASS=/sys/class/infiniband_mad
PY=/usr/bin/python3

test_setup() {
	uv_env_setup ibstat ibstatus
	t_mod_path ib_umad >/dev/null || t_skip "ib_umad is not built"
}

# umad_of IBDEV: the umadN whose ibdev is IBDEV
umad_of() {
	local d
	for d in "$MADCLASS"/umad*; do
		[ "$(cat "$d/ibdev" 2>/dev/null)" = "$1" ] && { basename "$d"; return 0; }
	done
	return 1
}

dev_index() { rdma dev show "$1" | cut -d: -f1; }

check_files() {
	t_eq "abi_version" "5" "$(cat $MADCLASS/abi_version)"
	t_wait_for 5 test -c /dev/infiniband/umad0 || t_fail "no /dev/infiniband/umad0"
	t_wait_for 5 test -c /dev/infiniband/issm0 || t_fail "no /dev/infiniband/issm0"
	t_eq "umad0 ibdev" "$IBDEV" "$(cat $MADCLASS/umad0/ibdev)"
	t_eq "umad0 port" "1" "$(cat $MADCLASS/umad0/port)"
	t_eq "issm0 ibdev" "$IBDEV" "$(cat $MADCLASS/issm0/ibdev)"
	t_eq "issm0 port" "1" "$(cat $MADCLASS/issm0/port)"
	t_eq "umad0 dev_t" "e7:0" "$(stat -c '%t:%T' /dev/infiniband/umad0)"
	t_eq "issm0 dev_t" "e7:40" "$(stat -c '%t:%T' /dev/infiniband/issm0)"
}

test_run() {
	local out idx gid0 umad1 t0
	uv_rxe_add
	uv_log_mark
	gid0=$IP4_GID
	idx=$(dev_index "$IBDEV")
	t_mod_loaded ib_umad && t_fail "ib_umad was loaded before anyone asked for it"

	# GET_CHARDEV "umad" loads us and names umad0
	t_run "$PY" -c "import sys; sys.path.insert(0, '$G'); import umadlib; print(umadlib.get_chardev($idx, 1, 'umad'))"
	t_mod_loaded ib_umad || t_fail "GET_CHARDEV umad did not load ib_umad"
	check_files

	out=$(ibstat "$IBDEV" 2>&1) || { echo "$out"; t_fail "ibstat failed"; }
	echo "$out"
	echo "$out" | grep -q "CA '$IBDEV'" || t_fail "ibstat does not show $IBDEV"
	out=$(ibstatus "$IBDEV" 2>&1) || { echo "$out"; t_fail "ibstatus failed"; }
	echo "$out"
	echo "$out" | grep -q "device '$IBDEV' port 1" || t_fail "ibstatus does not show $IBDEV"

	t0=$EPOCHREALTIME
	out=$("$PY" "$G/umad-errno.py" /dev/infiniband/umad0 "$gid0" /dev/infiniband/issm0 "$idx" 2>&1) ||
		{ echo "$out"; t_fail "umad-errno.py found a wrong answer"; }
	echo "$out"
	t_log "umad-errno.py: $(t_elapsed "$t0") s"

	t0=$EPOCHREALTIME
	out=$("$PY" "$G/umad-loop.py" /dev/infiniband/umad0 "$gid0" 2>&1) ||
		{ echo "$out"; t_fail "umad-loop.py on $IBDEV to itself failed"; }
	echo "$out"
	t_log "umad-loop.py on $IBDEV: $(t_elapsed "$t0") s"
	uv_log_quiet "the umad runs on $IBDEV" "warn|bug|kasan|leak|error|umad"

	# across the veth to rxe1 in its namespace: umadN for it too
	uv_ns_rxe_add
	t_wait_for 10 umad_of "$IBDEV2" >/dev/null || t_fail "no umad device for $IBDEV2"
	umad1=$(umad_of "$IBDEV2")
	t_wait_for 10 sh -c "ip netns exec $UV_NS cat /sys/class/infiniband/$IBDEV2/ports/1/gids/1 | grep -q c000:020c" ||
		t_fail "$IBDEV2 has no IPv4 GID"
	t0=$EPOCHREALTIME
	out=$("$PY" "$G/umad-loop.py" /dev/infiniband/umad0 "$gid0" \
		"/dev/infiniband/$umad1" 0000:0000:0000:0000:0000:ffff:c000:020c 2>&1) ||
		{ echo "$out"; t_fail "umad-loop.py from $IBDEV to $IBDEV2 failed"; }
	echo "$out"
	t_log "umad-loop.py $IBDEV to $IBDEV2 ($umad1): $(t_elapsed "$t0") s"
	t_run ip netns exec "$UV_NS" rdma link delete "$IBDEV2"
	t_wait_for 10 sh -c "! test -e /dev/infiniband/$umad1" || t_fail "$umad1 outlived $IBDEV2"

	# the device goes under open files
	out=$("$PY" "$G/umad-errno.py" --removal /dev/infiniband/umad0 "$gid0" /dev/infiniband/issm0 "$IBDEV" 2>&1) ||
		{ echo "$out"; t_fail "removal under open umad files went wrong"; }
	echo "$out"
	uv_log_quiet "the umad runs" "warn|bug|kasan|leak|umad"

	t_run modprobe -r ib_umad
	t_run modprobe -r rdma_rxe
}

test_cleanup() {
	uv_env_cleanup
}
