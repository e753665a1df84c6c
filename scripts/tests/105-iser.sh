# 105-iser: iSCSI over RDMA (iSER) over our soft-RoCE, data verified.
#
# The kernel's iSCSI target (LIO, configured through configfs; its iSER
# transport ib_isert rebuilt against our stack) exports a 64 MiB ramdisk
# (brd) as LUN 0 of a target whose portal at rxe0's address 10.77.0.1:3260
# has iSER enabled. open-iscsi's initiator logs in through its built-in
# "iser" interface from the same guest (ib_iser, ours too), so every PDU
# and its data cross rxe0 (a device talking to itself) through our
# rdma_cm, verbs and rxe. Then:
#  - the session is iSER, the target's rdma_cm listener and both ends of
#    the connection are in rdma res;
#  - fio, fourteen verifying jobs at once (4 KiB to 1 MiB, sequential and
#    random, queue depths 4 to 16), every block written then read back and
#    checked (scripts/guest/blkverify.sh);
#  - 10 logout/login cycles, each reading back and checking what the
#    previous one wrote;
#  - ext4 made on the disk, files of known sha256, unmount, logout, login,
#    remount, compared.
# Stock only: the debug kernel is configured without RDMA, so without
# these ULPs.
TEST_KERNELS=stock
TEST_TIMEOUT=420

. "$RDMAOOT_TOP/scripts/guest/rxe-pair.sh"
. "$RDMAOOT_TOP/scripts/guest/blkverify.sh"

OUTDIR=/tmp/105
MNT=$OUTDIR/mnt
CYCLES=10
IQN=iqn.2026-11.org.rdmaoot:iser-test
INITIATOR=iqn.2026-11.org.rdmaoot:iser-host
PORTAL=10.77.0.1:3260
RAMDISK=/dev/ram0
LIO=/sys/kernel/config/target
BACKSTORE=$LIO/core/iblock_0/disk0
TPG=$LIO/iscsi/$IQN/tpgt_1
NP=$TPG/np/$PORTAL

test_setup() {
	command -v iscsiadm >/dev/null || t_skip "open-iscsi is not installed"
	command -v fio >/dev/null || t_skip "fio is not installed"
	command -v mkfs.ext4 >/dev/null || t_skip "mkfs.ext4 (e2fsprogs) is not installed"
	t_mod_path brd >/dev/null || t_skip "the kernel has no brd module"
	t_mod_path iscsi_target_mod >/dev/null || t_skip "the kernel has no iSCSI target"
	mkdir -p "$MNT"
	rxe_pair_setup
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
	# no udev in the guest to load the SCSI disk driver for the LUN
	t_run modprobe sd_mod
	[ -d "$LIO/core" ] || t_fail "LIO made no $LIO/core"
	# the iSCSI fabric's configfs group is made on demand
	t_run mkdir -p "$LIO/iscsi"
}

test_cleanup() {
	umount "$MNT" 2>/dev/null
	iscsiadm -m node -T "$IQN" -p "$PORTAL" -I iser --logout >/dev/null 2>&1
	iscsiadm -m node -T "$IQN" -p "$PORTAL" -I iser -o delete >/dev/null 2>&1
	iscsiadm -k 0 >/dev/null 2>&1
	echo 0 > "$TPG/enable" 2>/dev/null
	echo 0 > "$NP/iser" 2>/dev/null
	rmdir "$NP" 2>/dev/null
	rm -f "$TPG/lun/lun_0/disk0" 2>/dev/null
	rmdir "$TPG/lun/lun_0" 2>/dev/null
	rmdir "$TPG" "$LIO/iscsi/$IQN" "$LIO/iscsi" 2>/dev/null
	echo 0 > "$BACKSTORE/enable" 2>/dev/null
	rmdir "$BACKSTORE" "$LIO/core/iblock_0" 2>/dev/null
	modprobe -r ib_iser ib_isert iscsi_target_mod target_core_iblock 2>/dev/null
	modprobe -r brd 2>/dev/null
	rxe_pair_cleanup
}

# iser_target_up: the ramdisk as an iblock backstore, LUN 0 of a target
# open to every initiator without authentication, the portal with iSER
# on; waits for ib_isert's rdma_cm listener.
iser_target_up() {
	t_run mkdir -p "$BACKSTORE"
	echo "udev_path=$RAMDISK" > "$BACKSTORE/control" || t_fail "cannot set the backstore's device"
	echo 1 > "$BACKSTORE/enable" || t_fail "cannot enable the backstore"
	t_run mkdir -p "$TPG/lun/lun_0"
	ln -s "$BACKSTORE" "$TPG/lun/lun_0/disk0" || t_fail "cannot map the backstore to LUN 0"
	t_run mkdir "$NP"
	echo 1 > "$NP/iser" || t_fail "cannot enable iSER on $PORTAL"
	echo 1 > "$TPG/attrib/generate_node_acls" || t_fail "cannot open the target to every initiator"
	echo 1 > "$TPG/attrib/cache_dynamic_acls" || t_fail "cannot keep dynamic ACLs"
	echo 0 > "$TPG/attrib/demo_mode_write_protect" || t_fail "cannot make the LUN writable"
	echo 0 > "$TPG/attrib/authentication" || t_fail "cannot turn authentication off"
	echo 1 > "$TPG/enable" || t_fail "cannot enable the target portal group"
	t_wait_for 10 iser_listening || t_fail "ib_isert does not listen on $PORTAL: $(rdma res show cm_id)"
}

iser_listening() { rdma res show cm_id 2>/dev/null | grep -q "state LISTEN .*src-addr $PORTAL"; }

# iser_initiator_up: a fixed initiator name, iscsid started, a node record
# for the target through the built-in iser interface.
iser_initiator_up() {
	echo "InitiatorName=$INITIATOR" > /etc/iscsi/initiatorname.iscsi
	mkdir -p /run/lock/iscsi
	t_run iscsid
	t_run iscsiadm -m node -o new -T "$IQN" -p "$PORTAL" -I iser
}

# iser_disk: the block device of the session with our target, empty when
# there is none yet.
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
	iscsiadm -m node -T "$IQN" -p "$PORTAL" -I iser --login > "$OUTDIR/login.out" 2>&1 ||
		t_fail "iSER login failed: $(cat "$OUTDIR/login.out")"
	t_wait_for 30 iser_disk >/dev/null || t_fail "no disk for $IQN after login: $(iscsiadm -m session -P 3 2>&1)"
	DEV=/dev/$(iser_disk)
	LOGIN_TIME=$(t_elapsed "$t0")
}

# iser_logout: log out, wait for the disk to go.
iser_logout() {
	t_run iscsiadm -m node -T "$IQN" -p "$PORTAL" -I iser --logout
	t_wait_for 30 iser_no_disk || t_fail "$(iser_disk) still there after logout"
}

# iser_session_check: one session, of transport iser, to our portal; the
# connection's two rdma_cm ids on rxe0 (the initiator's to the portal,
# the target's from it).
iser_session_check() {
	local out
	out=$(iscsiadm -m session 2>&1) || t_fail "iscsiadm -m session: $out"
	t_log "session: $out"
	[ "$(printf '%s\n' "$out" | grep -c .)" = 1 ] || t_fail "expected one session, have: $out"
	case "$out" in "iser: "*"$PORTAL,1 $IQN"*) ;;
	*) t_fail "the session is not iSER to $PORTAL: $out" ;; esac
	out=$(rdma res show cm_id)
	printf '%s\n' "$out" | grep -q "state CONNECT.*dst-addr $PORTAL" ||
		t_fail "no connected initiator rdma_cm id to $PORTAL: $out"
	printf '%s\n' "$out" | grep -q "state CONNECT.*src-addr $PORTAL " ||
		t_fail "no connected target rdma_cm id on $PORTAL: $out"
}

test_run() {
	local t0 t i
	t0=$EPOCHREALTIME
	iser_target_up
	t_log "target up: $IQN, LUN 0 on $RAMDISK, iSER portal $PORTAL ($(t_elapsed "$t0") s)"
	iser_initiator_up

	counters_mark rxe0
	iser_login
	t_log "logged in: $DEV in $LOGIN_TIME s"
	iser_session_check

	# 1. fio, verifying
	t=$EPOCHREALTIME
	blkv_fio
	t_log "fio: 14 jobs, 60 MiB written and verified in $(t_elapsed "$t") s"
	# Every byte went through rxe0 (to itself): 60 MiB each way, at most
	# 4096 bytes a packet, is at least 30720 packets.
	expect_counter rxe0 sent_pkts -ge 30720
	expect_counter rxe0 rcvd_pkts -ge 30720

	# 2. log out and in again, checking data across each cycle
	t=$EPOCHREALTIME
	blk_write 60
	for i in $(seq 1 "$CYCLES"); do
		iser_logout
		iser_login
		blk_check 60
		blk_write 60
		t_log "cycle $i/$CYCLES: logged in in $LOGIN_TIME s, 64 KiB checked"
	done
	iser_session_check
	t_log "$CYCLES logout/login cycles, data checked after each ($(t_elapsed "$t") s)"

	# 3. a filesystem, its files checked across a remount and a new session
	t=$EPOCHREALTIME
	blkv_files_write "$MNT"
	iser_logout
	iser_login
	blkv_files_check "$MNT"
	t_log "ext4: 4 files (4.3 MiB) written, remounted over a new session, checked ($(t_elapsed "$t") s)"

	iser_logout
	t_log "total $(t_elapsed "$t0") s"
}
