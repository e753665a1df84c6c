#!/usr/bin/env bash
# scripts/initramfs.sh stock|debug - build the guest's tiny first stage.
#
# A busybox-static initramfs whose /init mounts the host root (9p, read-only)
# under a tmpfs overlay and switch_roots into it. For the stock kernel it
# carries the modules 9p and overlayfs need (resolved with modprobe
# --show-depends against the unpacked stock tree); the debug kernel has them
# built in. Cached by content; prints the path of the cpio archive.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kind=$1
init="$RDMAOOT_TOP/scripts/guest/initramfs-init"
busybox=$(command -v busybox 2>/dev/null || echo /bin/busybox)
file "$busybox" 2>/dev/null | grep -q 'statically linked' || busybox=/bin/busybox
[ -x "$busybox" ] || rdmaoot_die "busybox-static is not installed"

mods=()
if [ "$kind" = stock ]; then
	sdir=$("$RDMAOOT_TOP/scripts/stock-kernel.sh")
	kver=$(rdmaoot_stock_kver)
	for m in virtio_pci virtio_net 9pnet_virtio 9p overlay; do
		while read -r cmd path _; do
			[ "$cmd" = insmod ] && mods+=("$path")
		done < <(modprobe -d "$sdir" -S "$kver" --show-depends "$m")
	done
fi

key=$( (cat "$init"; sha256sum "$busybox"; printf '%s\n' "$kind" "${mods[@]}") | sha256sum | cut -c1-16)
out="$RDMAOOT_CACHE/initramfs-$kind-$key.cpio.gz"
if [ -f "$out" ]; then
	echo "$out"
	exit 0
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work"/{bin,dev,proc,sys,lower,upper,newroot,share,modules}
cp "$busybox" "$work/bin/busybox"
ln -s busybox "$work/bin/sh"
cp "$init" "$work/init"
chmod +x "$work/init"
: > "$work/modules/order"
seen=" "
for path in "${mods[@]}"; do
	name=$(basename "$path")
	case "$seen" in *" $name "*) continue ;; esac
	seen="$seen$name "
	cp "$path" "$work/modules/$name"
	echo "$name" >> "$work/modules/order"
done
(cd "$work" && find . | cpio -o -H newc --quiet | gzip -1) > "$out.tmp"
mv "$out.tmp" "$out"
echo "$out"
