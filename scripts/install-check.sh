#!/usr/bin/env bash
# scripts/install-check.sh SRC KDIR - make install and uninstall of the tree
# at SRC into a staging root that holds the stock kernel's own modules, as a
# real machine's /lib/modules does:
#   - ours land in updates/rdmaoot, the rebuilt ULPs in updates/rdmaoot/ulps;
#   - modprobe resolves every ULP (nvme-rdma, rpcrdma, ...) to our copy,
#     with our ib_core under it and no inbox RDMA module anywhere;
#   - dkms.conf names exactly the modules make install installs;
#   - make uninstall leaves the inbox tree as it was.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

src=$1
kdir=$2
kver=$(rdmaoot_stock_kver)
sdir=$("$RDMAOOT_TOP/scripts/stock-kernel.sh")
root=$RDMAOOT_TOP/build/install-root
mdir=$root/lib/modules/$kver
fail() { echo "error: $*"; exit 1; }

rm -rf "$root"
mkdir -p "$mdir"
ln -s "$sdir/lib/modules/$kver/kernel" "$mdir/kernel"
for f in modules.order modules.builtin modules.builtin.modinfo; do
	cp "$sdir/lib/modules/$kver/$f" "$mdir/"
done

make -C "$src" KDIR="$kdir" KVER="$kver" INSTALL_MOD_PATH="$root" install
grep -q '^updates/rdmaoot/core/ib_core.ko:' "$mdir/modules.dep" ||
	fail "ib_core.ko is not in the staged modules.dep"

ulps=()
for ko in "$mdir"/updates/rdmaoot/ulps/*.ko; do
	[ -f "$ko" ] && ulps+=("$(basename "$ko" .ko)")
done
[ ${#ulps[@]} -gt 0 ] || fail "make install put no ULP into updates/rdmaoot/ulps"
for m in "${ulps[@]}"; do
	deps=$(modprobe -d "$root" -S "$kver" --show-depends "$m") ||
		fail "modprobe cannot resolve $m"
	echo "$deps" | grep -q "^insmod $mdir/updates/rdmaoot/ulps/$m.ko" ||
		fail "modprobe $m does not load our rebuilt one: $deps"
	echo "$deps" | grep -q "^insmod $mdir/updates/rdmaoot/core/ib_core.ko" ||
		fail "modprobe $m does not load our ib_core: $deps"
	! echo "$deps" | grep -q "/kernel/drivers/infiniband/" ||
		fail "modprobe $m loads inbox RDMA modules: $deps"
	echo "$m: $(echo "$deps" | wc -l) modules, ours and the ULP from updates/rdmaoot"
done

# dkms.conf against what was installed, by module name.
installed=$(find "$mdir/updates/rdmaoot" -name '*.ko' -printf '%f\n' |
	sed 's/\.ko$//' | grep -v '^ib_test' | sort)
# shellcheck disable=SC1091
described=$(kernelver=$kver kernel_source_dir=$kdir bash -c \
	'. "$1"; printf "%s\n" "${BUILT_MODULE_NAME[@]}"' _ "$src/dkms.conf" | sort)
[ "$installed" = "$described" ] ||
	fail "dkms.conf's BUILT_MODULE_NAME differs from what make install installs: $(diff <(echo "$installed") <(echo "$described") | grep '^[<>]' | tr '\n' ' ')"

make -C "$src" KDIR="$kdir" KVER="$kver" INSTALL_MOD_PATH="$root" uninstall
! find -L "$mdir/updates" -name '*.ko' 2>/dev/null | grep -q . ||
	fail "uninstall left modules behind"
! grep -q '^updates/' "$mdir/modules.dep" || fail "modules.dep still lists updates/ after uninstall"
grep -q '^kernel/drivers/infiniband/core/ib_core.ko:' "$mdir/modules.dep" ||
	fail "after uninstall, the inbox ib_core is not in modules.dep"
echo "install and uninstall: ${#ulps[@]} ULPs resolved to ours, dkms.conf complete"
