# The test driver and a kernel ULP come and go 20 times, in both orders:
# the ULP attaches to every device (holding a PD, CQ and QP) and detaches
# before the device goes; nothing stays behind (kmemleak checks the rest).
TEST_TIMEOUT=600
ROUNDS=20
NR_IB=2

attached() { dmesg | grep -c "ib_testclient: attached"; }
detached() { dmesg | grep -c "ib_testclient: detached"; }

# one_round N: load both, check the ULP is on every device, unload in an
# order that depends on N. A0 and D0 hold the counts of the ULP's lines
# in the kernel log before the round, and after it (a read of the whole
# log costs a noticeable part of a second on the debug guest).
one_round() {
	local n=$1 a d devs
	if [ $((n % 2)) -eq 0 ]; then
		t_run modprobe ib_testdev nr_ib=$NR_IB
		t_run modprobe ib_testclient
	else
		t_run modprobe ib_testclient
		t_run modprobe ib_testdev nr_ib=$NR_IB
	fi
	devs=$(ls /sys/class/infiniband 2>/dev/null | grep -c '^ibtest')
	[ "$devs" -eq $NR_IB ] || t_fail "round $n: $devs ibtest devices, expected $NR_IB"
	a=$(attached)
	[ $((a - A0)) -eq $NR_IB ] ||
		t_fail "round $n: the ULP attached to $((a - A0)) devices, expected $NR_IB"
	if [ $((n % 3)) -eq 0 ]; then
		t_run rmmod ib_testdev
		t_run rmmod ib_testclient
	else
		t_run rmmod ib_testclient
		t_run rmmod ib_testdev
	fi
	d=$(detached)
	[ $((d - D0)) -eq $NR_IB ] ||
		t_fail "round $n: the ULP detached from $((d - D0)) devices, expected $NR_IB"
	A0=$a
	D0=$d
	[ -z "$(ls /sys/class/infiniband 2>/dev/null)" ] ||
		t_fail "round $n: devices left: $(ls /sys/class/infiniband)"
}

test_run() {
	local i
	t_mod_path ib_testdev > /dev/null || t_fail "ib_testdev is not installed"
	A0=$(attached)
	D0=$(detached)
	for i in $(seq 1 $ROUNDS); do
		one_round "$i"
	done
	t_run modprobe -r ib_core
	t_mod_loaded ib_core && t_fail "ib_core still loaded"
	t_log "$ROUNDS rounds, $NR_IB devices each, both unload orders"
}

test_cleanup() {
	rmmod ib_testclient ib_testdev 2>/dev/null
	modprobe -r ib_core 2>/dev/null || true
}
