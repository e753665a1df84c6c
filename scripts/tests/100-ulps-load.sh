# 100-ulps-load: the kernel's RDMA ULPs rebuilt against our stack (make
# ulps) are the ones modprobe finds, and they load and unload on it.
#
# With rxe0 and rxe1 up (rxe-pair.sh), each of nvme-rdma, nvmet-rdma,
# rpcrdma, ib_iser, ib_isert, rds_rdma and 9pnet_rdma must resolve to our
# updates/ tree, load (its ib_client added to both devices where it has
# one; rds_rdma also listens through rdma_cm on 0.0.0.0:18634), hold our
# ib_core and rdma_cm, and unload leaving no rdma_cm id behind. Moving
# data over them is for the ULP tests that follow.
# Stock only: the debug kernel is configured without RDMA, so without
# these ULPs.
TEST_KERNELS=stock
TEST_TIMEOUT=300

. "$RDMAOOT_TOP/scripts/guest/rxe-pair.sh"

ULPS="nvme-rdma nvmet-rdma rpcrdma ib_iser ib_isert rds_rdma 9pnet_rdma"

test_setup() { rxe_pair_setup; }

test_cleanup() {
	local m
	for m in $ULPS; do modprobe -r "$m" 2>/dev/null; done
	rxe_pair_cleanup
}

# holds MODULE USER: MODULE's sysfs holders list USER (sysfs names use _).
holds() { [ -e "/sys/module/$1/holders/${2//-/_}" ]; }

cm_ids() { rdma res show cm_id 2>/dev/null | grep -c . || true; }

test_run() {
	local m path ids
	for m in $ULPS; do
		path=$(t_mod_path "$m")
		case "$path" in
		*/updates/*) ;;
		"") t_fail "modprobe knows no $m" ;;
		*) t_fail "$m resolves to $path, not to our updates/ tree" ;;
		esac
		t_run modprobe "$m"
		[ -d "/sys/module/${m//-/_}" ] || t_fail "$m is not loaded"
		holds ib_core "$m" || t_fail "$m does not hold our ib_core"
		holds rdma_cm "$m" || t_fail "$m does not hold our rdma_cm"
		ids=$(cm_ids)
		t_log "$m loaded from $path ($ids cm_id rows)"
		# RDS listens on its RDMA port, 18634, of every IPv4 address (its
		# IPv6 listener fails to bind beside it, as in 6.1, unless
		# net.ipv6.bindv6only is set)
		if [ "$m" = rds_rdma ]; then
			rdma res show cm_id | grep -q "state LISTEN .* src-addr 0.0.0.0:18634" ||
				t_fail "rds_rdma has no IPv4 listener: $(rdma res show cm_id)"
		fi
		t_run modprobe -r "$m"
		[ ! -d "/sys/module/${m//-/_}" ] || t_fail "$m is still loaded"
		ids=$(cm_ids)
		[ "$ids" -eq 0 ] || t_fail "$m left $ids cm_id rows: $(rdma res show cm_id)"
	done
}
