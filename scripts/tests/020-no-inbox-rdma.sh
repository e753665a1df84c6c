# Our ib_core and the inbox RDMA modules are never loaded together: loading
# ours leaves every module under kernel/drivers/infiniband unloaded, and on
# the debug kernel no inbox RDMA module exists at all.
TEST_TIMEOUT=120

test_run() {
	local m p inbox
	t_run modprobe ib_core
	for m in $(awk '{print $1}' /proc/modules); do
		p=$(t_mod_path "$m")
		case "$p" in */kernel/drivers/infiniband/*) t_fail "inbox module $m is loaded ($p)" ;; esac
	done
	inbox=$(find -L "/lib/modules/$(uname -r)/" -path '*/kernel/drivers/infiniband/*' -name '*.ko*' 2>/dev/null | wc -l)
	t_log "inbox RDMA modules present in the tree: $inbox"
	if [ "$RDMAOOT_KIND" = debug ]; then
		t_eq "inbox RDMA modules on the debug kernel" 0 "$inbox"
	elif [ "$inbox" -eq 0 ]; then
		t_fail "the stock tree should hold the inbox stack (is kernel/ staged?)"
	fi
	if [ -e /sys/class/infiniband_verbs ] || [ -e /sys/module/ib_uverbs ]; then
		t_fail "inbox verbs interface appeared"
	fi
}

test_cleanup() {
	modprobe -r ib_core 2>/dev/null || true
}
