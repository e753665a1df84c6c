#!/usr/bin/env bash
# scripts/debug-kernel.sh - build (once) the KUnit/KASAN/lockdep guest kernel.
#
# Unpacks Debian's linux-source-6.1, applies tinyconfig plus our fragment
# (scripts/debug-kernel.config) and builds bzImage in the cache. A finished
# build is marked with a stamp file and reused until the source version or
# the fragment changes. Prints the build directory on stdout.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

if [ -z "$(rdmaoot_source_version)" ]; then
	apt-get update -qq >/dev/null 2>&1 || true
fi
ver=$(rdmaoot_source_version)
[ -n "$ver" ] || rdmaoot_die "linux-source-6.1 is not known to apt (run apt-get update)"
dir=$(rdmaoot_debug_dir)
# One builder at a time; a second caller waits and then finds the stamp.
mkdir -p "$RDMAOOT_CACHE"
exec 9>"$RDMAOOT_CACHE/.debug-kernel.lock"
flock 9
if [ -f "$dir/.built" ]; then
	echo "$dir/linux"
	exit 0
fi

dl="$RDMAOOT_CACHE/dl"
mkdir -p "$dl"
deb="$dl/linux-source-6.1_${ver}_all.deb"
if [ ! -f "$deb" ]; then
	rdmaoot_log "downloading linux-source-6.1 $ver"
	(cd "$dl" && apt-get download "linux-source-6.1=$ver" >/dev/null)
fi

rm -rf "$dir"
mkdir -p "$dir/x"
rdmaoot_log "unpacking linux-source-6.1 $ver into $dir"
dpkg -x "$deb" "$dir/x"
tar -xaf "$dir"/x/usr/src/linux-source-6.1.tar.* -C "$dir"
rm -rf "$dir/x"
mv "$dir/linux-source-6.1" "$dir/linux"

cd "$dir/linux"
make -s tinyconfig >/dev/null
scripts/kconfig/merge_config.sh -m .config "$RDMAOOT_TOP/scripts/debug-kernel.config" >/dev/null
make -s olddefconfig >/dev/null
# Every line of the fragment must have survived olddefconfig.
missing=0
while read -r line; do
	case "$line" in
	CONFIG_*=*) grep -qx "$line" .config || { rdmaoot_log "fragment line lost: $line"; missing=1; } ;;
	esac
done < "$RDMAOOT_TOP/scripts/debug-kernel.config"
[ "$missing" = 0 ] || rdmaoot_die "config fragment does not apply cleanly"

rdmaoot_log "building debug kernel (several minutes on 2 cores)"
make -j"$(($(nproc) + 1))" bzImage modules_prepare >"$dir/build.log" 2>&1 ||
	{ tail -n 30 "$dir/build.log" >&2; rdmaoot_die "debug kernel build failed"; }
# Out-of-tree modules resolve vmlinux's exports (kunit_*, __asan_*, ...)
# through Module.symvers; without a modules build only vmlinux.symvers exists.
cp vmlinux.symvers Module.symvers
touch "$dir/.built"
# Builds for older fragments or source versions are gigabytes each: keep
# this one and the newest other (a tree with the previous fragment, e.g. a
# branch not yet merged, still finds its kernel), remove the rest.
# (grep finds nothing on a first build: that is not a failure.)
ls -1dt "$RDMAOOT_CACHE"/debug-* | { grep -vxF "$dir" || true; } | tail -n +2 |
	while read -r old; do rm -rf "$old"; done
echo "$dir/linux"
