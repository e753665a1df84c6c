#!/usr/bin/env bash
# scripts/check.sh - everything `make check` does, in order:
#   1. install missing build/test packages (scripts/deps.sh)
#   2. for each guest kernel (stock, debug): copy the tree to build/<kind>/src,
#      build there with W=1 (warnings are errors) and the header-shadowing
#      check, run sparse, stage a depmod'ed module tree
#   3. boot each kernel in QEMU and run the suite (scripts/guest/run-tests.sh);
#      the debug kernel's guest starts first and the stock one runs beside it,
#      followed by the interop pair: two stock guests on one virtual wire, the
#      inbox stack in one and ours in the other (scripts/interop.sh)
#   4. print one line per test and "N passed, N failed, N skipped"
# RDMAOOT_TESTS="pattern ..." limits the guest units (globs such as
# "tests/010-*" or "kunit/qp_state_test"); RDMAOOT_KINDS="stock" or "debug"
# limits the kernels; "pair" names the interop guests (their units are
# interop/...).
set -uo pipefail
. "$(dirname "$0")/lib.sh"
cd "$RDMAOOT_TOP"

"$RDMAOOT_TOP/scripts/deps.sh" || rdmaoot_die "installing dependencies failed"

BUILD=$RDMAOOT_TOP/build
HOSTRES=$BUILD/host-results.txt
mkdir -p "$BUILD"
: > "$HOSTRES"
kinds=${RDMAOOT_KINDS:-stock debug pair}
# Kbuild compiles one file at a time unless told otherwise.
jobs=-j$(nproc)
# The folders checkpatch --strict finds clean so far (scripts/style.sh), so
# that they stay clean; the list grows until it is the whole tree.
style_paths=(
	kunit ulp/kperf testdrv tools
	core/main.c core/cm core/cma core/cq core/device core/iwcm core/mad
	core/netlink core/restrack core/roce core/rw core/sysfs core/ucma
	core/ulp core/umad core/umem core/uverbs core/verbs sw/rxe
)

# host_step NAME LOG CMD...: run a host-side check, record PASS/FAIL.
host_step() {
	local name=$1 log=$2 t0 reason
	shift 2
	t0=$(date +%s)
	if "$@" > "$log" 2>&1; then
		echo "PASS $name $(($(date +%s) - t0))" >> "$HOSTRES"
		return 0
	fi
	reason=$(grep -E 'error|warning|Error' "$log" | head -n1 | cut -c1-160)
	echo "FAIL $name $(($(date +%s) - t0)) ${reason:-see $log}" >> "$HOSTRES"
	rdmaoot_log "$name failed, log: $log"
	return 1
}

kdir_of() {
	case "$1" in
	stock) echo "/lib/modules/$(rdmaoot_stock_kver)/build" ;;
	debug) "$RDMAOOT_TOP/scripts/debug-kernel.sh" ;;
	esac
}

# Each KUnit source must be listed in kunit/SUITES, or its cases would
# silently never be counted.
check_manifest() {
	local f m bad=0
	for f in kunit/*/*_test.c; do
		m=$(basename "$f" .c)
		grep -q "^$m " kunit/SUITES || { echo "error: $f is not listed in kunit/SUITES"; bad=1; }
	done
	return $bad
}

# Source compatibility: the 6.1 ULPs (NVMe-oF, NFS/RDMA, iSER, isert, RDS,
# 9p, SMB direct) compiled against our headers, one test per source file.
check_compat() {
	local log=$BUILD/compat.log n
	"$RDMAOOT_TOP/scripts/compat-check.sh" > "$log" 2>&1
	n=$(grep -cE '^(PASS|FAIL) ' "$log")
	if [ "$n" -eq 0 ]; then
		echo "FAIL compat 0 compat-check.sh produced no result, see $log" >> "$HOSTRES"
		return
	fi
	sed -n -e 's|^PASS \(.*\)$|PASS compat/\1 0|p' \
		-e 's|^FAIL \([^:]*\): \(.*\)$|FAIL compat/\1 0 \2|p' "$log" >> "$HOSTRES"
}

host_step kunit-manifest "$BUILD/manifest.log" check_manifest
# The runner's kernel-log check against the kernel's own forms.
host_step splat-patterns "$BUILD/splat-patterns.log" scripts/splat-check.sh
# The benchmark report (not the benchmark: no timed tests) on a fixed sample.
host_step bench-report "$BUILD/bench-report.log" python3 scripts/bench-report.py --selftest

# The debug guest takes longest, so its kernel is built and booted first;
# the stock build, its host checks and the stock guest run beside it. A
# guest keeps about one vCPU busy (rxe's engines run on the CPU that drives
# them), so two of them share the host's cores well.
order=
for kind in debug stock; do
	case " $kinds " in *" $kind "*) order="$order $kind" ;; esac
done
# The interop pair runs our stock build.
case " $kinds " in *" pair "*) [[ $order == *stock* ]] || order="$order stock" ;; esac

# wants KIND: KIND is asked for; for the pair, also some test of it, when
# RDMAOOT_TESTS names tests.
wants() {
	local pat
	case " $kinds " in *" $1 "*) ;; *) return 1 ;; esac
	[ "$1" = pair ] && [ -n "${RDMAOOT_TESTS:-}" ] || return 0
	for pat in $RDMAOOT_TESTS; do
		case $pat in interop/* | '*') return 0 ;; esac
	done
	return 1
}

# stock_guests MODROOT: the stock guest, then the interop pair, one after
# the other beside the debug guest (each keeps about one vCPU busy).
stock_guests() {
	local rc=0
	if wants stock; then
		"$RDMAOOT_TOP/scripts/qemu-run.sh" stock "$1" "$BUILD/out-stock" check 2400 || rc=1
	fi
	if wants pair; then
		rdmaoot_log "running the interop pair (inbox stack against ours)"
		"$RDMAOOT_TOP/scripts/interop.sh" "$1" "$BUILD/out-pair" 1800 \
			> "$BUILD/interop-host.txt" 2> "$BUILD/interop.log" || rc=1
		cat "$BUILD/interop-host.txt" >> "$HOSTRES"
	fi
	return $rc
}
declare -A guest_pid=()
for kind in $order; do
	rdmaoot_log "preparing the $kind kernel"
	if ! kdir=$(kdir_of "$kind" 2> "$BUILD/kernel-$kind.log"); then
		echo "FAIL kernel/$kind 0 $(tail -n1 "$BUILD/kernel-$kind.log")" >> "$HOSTRES"
		continue
	fi
	src=$(rdmaoot_sync_src "$kind")
	rdmaoot_log "building for the $kind kernel"
	host_step "build/$kind" "$BUILD/build-$kind.log" make "$jobs" -C "$src" KDIR="$kdir" modules || continue
	host_step "sparse/$kind" "$BUILD/sparse-$kind.log" make "$jobs" -C "$src" KDIR="$kdir" sparse
	# Only the debug kernel's build tree is a source tree with scripts/kernel-doc.
	[ "$kind" = debug ] &&
		host_step "kernel-doc" "$BUILD/kernel-doc.log" make -C "$src" KDIR="$kdir" kerneldoc
	# checkpatch --strict (its copy in that tree) over the folders that are
	# clean so far, style_paths above (scripts/style.sh; git ls-files,
	# hence the top, not $src).
	[ "$kind" = debug ] &&
		host_step "style" "$BUILD/style.log" make -C "$RDMAOOT_TOP" KDIR="$kdir" style \
			PATHS="${style_paths[*]}"
	# The kernel's ULPs rebuilt against us, staged with our modules (the
	# debug kernel, configured without RDMA, gets those it has the kernel
	# side of: NVMe-oF).
	if [ "$kind" = stock ]; then
		host_step "ulps/$kind" "$BUILD/ulps-$kind.log" make -C "$src" KDIR="$kdir" ulps
		host_step "tools" "$BUILD/tools.log" make -C "$RDMAOOT_TOP" tools
	else
		host_step "ulps/$kind" "$BUILD/ulps-$kind.log" make -C "$src" KDIR="$kdir" \
			KVER="$(cat "$kdir/include/config/kernel.release")" ulps
	fi
	"$RDMAOOT_TOP/scripts/stage-modules.sh" "$kind" "$BUILD/$kind" > "$BUILD/stage-$kind.log" 2>&1 ||
		{ echo "FAIL stage/$kind 0 see $BUILD/stage-$kind.log" >> "$HOSTRES"; continue; }
	# The time each guest's job is expected to need at most; the guest is
	# stopped when it makes no progress, or at 3 times that
	# (scripts/qemu-run.sh).
	if [ "$kind" = debug ]; then
		"$RDMAOOT_TOP/scripts/qemu-run.sh" debug "$BUILD/debug/modroot" "$BUILD/out-debug" check 4500 &
	else
		stock_guests "$BUILD/stock/modroot" &
	fi
	guest_pid[$kind]=$!
	if [ "$kind" = stock ] && wants stock; then
		host_step "install/$kind" "$BUILD/install-$kind.log" "$RDMAOOT_TOP/scripts/install-check.sh" "$src" "$kdir"
		rdmaoot_log "compiling the 6.1 ULPs against our headers"
		check_compat
	fi
done

gargs=()
for kind in stock debug; do
	[ -n "${guest_pid[$kind]:-}" ] || continue
	wait "${guest_pid[$kind]}"
	if [ "$kind" = debug ] || wants stock; then
		gargs+=(--guest "$kind:$BUILD/out-$kind")
	fi
	if [ "$kind" = stock ] && wants pair; then
		gargs+=(--guest "pair:$BUILD/out-pair/ours")
	fi
done

"$RDMAOOT_TOP/scripts/results.py" --host "$HOSTRES" --suites kunit/SUITES "${gargs[@]}"
