#!/usr/bin/env bash
# scripts/stage-modules.sh KIND BUILDDIR - prepare the guest's module tree.
#
# Makes BUILDDIR/modroot/lib/modules/<kver>/ with our .ko files (found under
# BUILDDIR, the ULPs of make ulps among them) in updates/rdmaoot/ and, for the stock kernel, the inbox tree
# linked in as kernel/; then runs depmod on the host. The guest bind-mounts
# it as /lib/modules/<kver>: modprobe there prefers updates/ (ours) and never
# has to depmod the 4000 stock modules over 9p.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kind=$1
bdir=$(realpath "$2")
case "$kind" in
stock)
	kver=$(rdmaoot_stock_kver)
	sdir=$("$RDMAOOT_TOP/scripts/stock-kernel.sh")
	;;
debug)
	kdir=$("$RDMAOOT_TOP/scripts/debug-kernel.sh")
	kver=$(cat "$kdir/include/config/kernel.release")
	sdir=
	;;
*) rdmaoot_die "unknown kernel kind '$kind'" ;;
esac

root="$bdir/modroot"
mdir="$root/lib/modules/$kver"
rm -rf "$root"
mkdir -p "$mdir/updates/rdmaoot"
if [ -n "$sdir" ]; then
	ln -s "$sdir/lib/modules/$kver/kernel" "$mdir/kernel"
	for f in modules.order modules.builtin modules.builtin.modinfo; do
		cp "$sdir/lib/modules/$kver/$f" "$mdir/"
	done
fi
# The ULPs rebuilt by make ulps come from their output folder, not from
# the scratch tree they were built in.
find "$bdir" \( -path "$root" -o -path '*/build/ulps/src-*' \) -prune -o -name '*.ko' -print0 |
	xargs -0 -r cp -t "$mdir/updates/rdmaoot/"
depmod -b "$root" "$kver"
echo "$root"
