# scripts/guest/iser.sh - an iSCSI target with iSER (LIO, configfs) and an
# iSER initiator (open-iscsi), for the iSER tests (scripts/tests/105-iser,
# scripts/interop/090-iser). The test sets IPA (the portal's address, on
# the target's rdma device) and OUTDIR (an existing folder for command
# output); the portal is IPA:3260.
#
# The target: a 64 MiB ramdisk (brd) as an iblock backstore, LUN 0 of IQN,
# open to every initiator without authentication, iSER on at the portal;
# configured through configfs, without targetcli. The initiator: a fixed
# name, iscsid started by hand, a node record through open-iscsi's
# built-in "iser" interface.

IQN=iqn.2026-11.org.rdmaoot:iser-test
INITIATOR=iqn.2026-11.org.rdmaoot:iser-host
RAMDISK=/dev/ram0
LIO=/sys/kernel/config/target
BACKSTORE=$LIO/core/iblock_0/disk0
TPG=$LIO/iscsi/$IQN/tpgt_1

iser_portal() { echo "$IPA:3260"; }

# iser_setup: skip without the tools, load brd (64 MiB), LIO with ib_isert,
# ib_iser and the SCSI disk driver (no udev in the guest to load it).
iser_setup() {
	command -v iscsiadm >/dev/null || t_skip "open-iscsi is not installed"
	command -v fio >/dev/null || t_skip "fio is not installed"
	t_mod_path brd >/dev/null || t_skip "the kernel has no brd module"
	t_mod_path iscsi_target_mod >/dev/null || t_skip "the kernel has no iSCSI target"
	t_run modprobe brd rd_nr=1 rd_size=65536
	[ -b "$RAMDISK" ] || t_fail "brd made no $RAMDISK"
	# configfs is a module in the stock kernel: not there for the boot's
	# mount of /sys/kernel/config
	if ! grep -q "^configfs /sys/kernel/config " /proc/mounts; then
		t_run modprobe configfs
		t_run mount -t configfs configfs /sys/kernel/config
	fi
	t_run modprobe target_core_iblock
	t_run modprobe iscsi_target_mod
	t_run modprobe ib_isert
	t_run modprobe ib_iser
	t_run modprobe sd_mod
	[ -d "$LIO/core" ] || t_fail "LIO made no $LIO/core"
	# the iSCSI fabric's configfs group is made on demand
	t_run mkdir -p "$LIO/iscsi"
}

# iser_cleanup: log out, stop iscsid, take the configfs objects that exist
# down in reverse order of their making (saying which step failed),
# unload; whatever part was done.
iser_cleanup() {
	local np=$TPG/np/$(iser_portal)
	iscsiadm -m node -T "$IQN" -I iser --logout >/dev/null 2>&1
	iscsiadm -m node -T "$IQN" -I iser -o delete >/dev/null 2>&1
	iscsiadm -k 0 >/dev/null 2>&1
	if [ -e "$TPG/enable" ]; then
		echo 0 > "$TPG/enable" || echo "cleanup: cannot disable $TPG"
	fi
	if [ -d "$np" ]; then
		echo 0 > "$np/iser" || echo "cleanup: cannot turn iSER off on $np"
		rmdir "$np" || echo "cleanup: cannot remove $np"
	fi
	if [ -d "$TPG/lun/lun_0" ]; then
		rm -f "$TPG/lun/lun_0/disk0"
		rmdir "$TPG/lun/lun_0" || echo "cleanup: cannot remove LUN 0"
	fi
	for d in "$TPG" "$LIO/iscsi/$IQN" "$LIO/iscsi"; do
		[ ! -d "$d" ] || rmdir "$d" || echo "cleanup: cannot remove $d"
	done
	if [ -d "$BACKSTORE" ]; then
		rmdir "$BACKSTORE" "$LIO/core/iblock_0" || echo "cleanup: cannot remove the backstore"
	fi
	modprobe -r ib_iser ib_isert iscsi_target_mod target_core_iblock 2>/dev/null
	modprobe -r brd 2>/dev/null
	if [ -d /sys/module/ib_isert ]; then
		echo "cleanup: ib_isert still loaded (refcnt $(cat /sys/module/ib_isert/refcnt))"
		ls -R "$LIO/iscsi" 2>&1 | head -20
		rdma res show cm_id
		dmesg | tail -20
	fi
	true
}

# iser_target_up: backstore, LUN 0, the portal with iSER on, the portal
# group opened and enabled; waits for ib_isert's rdma_cm listener.
iser_target_up() {
	local np=$TPG/np/$(iser_portal)
	t_run mkdir -p "$BACKSTORE"
	echo "udev_path=$RAMDISK" > "$BACKSTORE/control" || t_fail "cannot set the backstore's device"
	echo 1 > "$BACKSTORE/enable" || t_fail "cannot enable the backstore"
	t_run mkdir -p "$TPG/lun/lun_0"
	ln -s "$BACKSTORE" "$TPG/lun/lun_0/disk0" || t_fail "cannot map the backstore to LUN 0"
	t_run mkdir "$np"
	echo 1 > "$np/iser" || t_fail "cannot enable iSER on $(iser_portal)"
	echo 1 > "$TPG/attrib/generate_node_acls" || t_fail "cannot open the target to every initiator"
	echo 1 > "$TPG/attrib/cache_dynamic_acls" || t_fail "cannot keep dynamic ACLs"
	echo 0 > "$TPG/attrib/demo_mode_write_protect" || t_fail "cannot make the LUN writable"
	echo 0 > "$TPG/attrib/authentication" || t_fail "cannot turn authentication off"
	echo 1 > "$TPG/enable" || t_fail "cannot enable the target portal group"
	t_wait_for 10 iser_listening || t_fail "ib_isert does not listen on $(iser_portal): $(rdma res show cm_id)"
}

iser_listening() { rdma res show cm_id 2>/dev/null | grep -q "state LISTEN .*src-addr $(iser_portal)"; }

# iser_initiator_up: the initiator's name, iscsid, the node record.
iser_initiator_up() {
	echo "InitiatorName=$INITIATOR" > /etc/iscsi/initiatorname.iscsi
	mkdir -p /run/lock/iscsi
	t_run iscsid
	t_run iscsiadm -m node -o new -T "$IQN" -p "$(iser_portal)" -I iser
}

# iser_disk: the block device of the session with IQN, empty when there
# is none (with a size) yet.
iser_disk() {
	local s n b
	for s in /sys/class/iscsi_session/session*; do
		[ -r "$s/targetname" ] || continue
		read -r n < "$s/targetname"
		[ "$n" = "$IQN" ] || continue
		for b in "$s"/device/target*/*/block/*; do
			[ -b "/dev/${b##*/}" ] && read -r n < "$b/size" && [ "$n" -gt 0 ] &&
				echo "${b##*/}" && return 0
		done
	done
	return 1
}

iser_no_disk() { ! iser_disk >/dev/null; }

# iser_login: log in, wait for the disk; sets DEV and LOGIN_TIME.
iser_login() {
	local t0=$EPOCHREALTIME
	iscsiadm -m node -T "$IQN" -p "$(iser_portal)" -I iser --login > "$OUTDIR/login.out" 2>&1 ||
		t_fail "iSER login failed: $(cat "$OUTDIR/login.out")"
	t_wait_for 30 iser_disk >/dev/null || t_fail "no disk for $IQN after login: $(iscsiadm -m session -P 3 2>&1)"
	DEV=/dev/$(iser_disk)
	LOGIN_TIME=$(t_elapsed "$t0")
}

# iser_logout: log out, wait for the disk to go.
iser_logout() {
	t_run iscsiadm -m node -T "$IQN" -p "$(iser_portal)" -I iser --logout
	t_wait_for 30 iser_no_disk || t_fail "$(iser_disk) still there after logout"
}

# iser_session_check: one session, of transport iser, to the portal, and
# the initiator's connected rdma_cm id to it.
iser_session_check() {
	local out
	out=$(iscsiadm -m session 2>&1) || t_fail "iscsiadm -m session: $out"
	t_log "session: $out"
	[ "$(printf '%s\n' "$out" | grep -c .)" = 1 ] || t_fail "expected one session, have: $out"
	case "$out" in "iser: "*"$(iser_portal),1 $IQN"*) ;;
	*) t_fail "the session is not iSER to $(iser_portal): $out" ;; esac
	out=$(rdma res show cm_id)
	printf '%s\n' "$out" | grep -q "state CONNECT.*dst-addr $(iser_portal)" ||
		t_fail "no connected initiator rdma_cm id to $(iser_portal): $out"
}

# iser_target_check: the target's connected rdma_cm id on the portal.
iser_target_check() {
	rdma res show cm_id | grep -q "state CONNECT.*src-addr $(iser_portal) " ||
		t_fail "no connected target rdma_cm id on $(iser_portal): $(rdma res show cm_id)"
}
