# ib_core loads from our updates/ tree (never the inbox copy), exports its
# API and unloads cleanly, repeatedly.
TEST_TIMEOUT=180

EXPORTS="ib_rate_to_mult ib_rate_to_mbps mult_to_ib_rate ib_modify_qp_is_ok ib_event_msg ib_wc_status_msg"

test_run() {
	local path sym i
	path=$(t_mod_path ib_core)
	case "$path" in
	*/updates/rdmaoot/ib_core.ko) t_log "modprobe resolves ib_core to $path" ;;
	*) t_fail "modprobe would load '$path', not ours" ;;
	esac
	for i in $(seq 1 10); do
		t_run modprobe ib_core
		t_mod_loaded ib_core || t_fail "ib_core not loaded after modprobe (round $i)"
		t_run modprobe -r ib_core
		t_mod_loaded ib_core && t_fail "ib_core still loaded after modprobe -r (round $i)"
	done
	t_run modprobe ib_core
	for sym in $EXPORTS; do
		grep -qx "alias symbol:$sym ib_core" "/lib/modules/$(uname -r)/modules.symbols" ||
			t_fail "depmod does not see $sym exported by ib_core"
		grep -qP "\\s$sym\\t\\[ib_core\\]$" /proc/kallsyms ||
			t_fail "$sym is not in the loaded ib_core"
	done
	t_log "all exports present: $EXPORTS"
}

test_cleanup() {
	modprobe -r ib_core 2>/dev/null || true
}
