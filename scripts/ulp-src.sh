# scripts/ulp-src.sh - the ULP sources of Debian's linux-source-6.1, for
# scripts/compat-check.sh and scripts/ulps.sh (sourced after lib.sh).
#
#   ulp_src_prepare KVER   sets ULP_SRC_VER (the source package version
#                          the stock headers of KVER were built from) and
#                          ULP_SRC (its ULP directories, unpacked once per
#                          version under $RDMAOOT_CACHE)
#
# Only the directories of the ULPs are unpacked, streaming from the .deb;
# nothing of the source is kept in this repository.

# The headers package and linux-source-6.1 come from one source package, so
# their versions match; fall back to apt's candidate for custom trees.
src_version() {
	local v
	v=$(dpkg-query -W -f='${Version}' "linux-headers-$kver" 2>/dev/null || true)
	if [ -z "$v" ]; then
		[ -n "$(rdmaoot_source_version)" ] || apt-get update -qq >/dev/null 2>&1 || true
		v=$(rdmaoot_source_version)
		[ -z "$v" ] || rdmaoot_log "linux-headers-$kver not installed; using linux-source-6.1 $v"
	fi
	echo "$v"
}
# Directories we need. fs/cifs, fs/ksmbd and fs/smbfs_common are the names
# SMB had before it moved under fs/smb; a tree has one set or the other.
src_dirs="drivers/nvme/host drivers/nvme/target net/sunrpc/xprtrdma net/9p
	drivers/infiniband/ulp/iser drivers/infiniband/ulp/isert net/rds
	fs/smb fs/cifs fs/ksmbd fs/smbfs_common"

fetch_deb() {
	local dl="$RDMAOOT_CACHE/dl" deb
	deb="$dl/linux-source-6.1_${ver}_all.deb"
	if [ ! -f "$deb" ]; then
		mkdir -p "$dl"
		rdmaoot_log "downloading linux-source-6.1 $ver"
		(cd "$dl" && apt-get download "linux-source-6.1=$ver" >/dev/null) ||
			rdmaoot_die "apt-get download linux-source-6.1=$ver failed"
	fi
	echo "$deb"
}

# unpack_ulps DEST: pull only $src_dirs out of the source tarball that sits
# inside the .deb, streaming (the tarball is never written to disk).
unpack_ulps() {
	local dest=$1 deb tarball unz members d err
	deb=$(fetch_deb)
	tarball=$(dpkg-deb -c "$deb" | grep -o '\./usr/src/linux-source-6\.1\.tar\.[a-z0-9]*' | head -n1)
	case "$tarball" in
	*.xz) unz=-J ;; *.bz2) unz=-j ;; *.gz) unz=-z ;; *.zst) unz=--zstd ;;
	*) rdmaoot_die "no linux-source-6.1 tarball in $deb" ;;
	esac
	members=
	for d in $src_dirs; do members="$members linux-source-6.1/$d"; done
	rdmaoot_log "unpacking the ULP sources of linux-source-6.1 $ver (about a minute)"
	mkdir -p "$dest"
	# Absent alternatives (fs/cifs in a new tree) make tar complain and
	# exit 2; that is expected, anything else is reported.
	# shellcheck disable=SC2086
	err=$(dpkg-deb --fsys-tarfile "$deb" | tar -xOf - "$tarball" |
		tar -x $unz -f - -C "$dest" --strip-components=1 $members 2>&1 |
		grep -v -e 'Not found in archive' -e 'Exiting with failure status' || true)
	[ -z "$err" ] || rdmaoot_die "unpacking failed: $err"
}

ulp_src_prepare() {
	local kver=$1 ver cache
	ver=$(src_version)
	[ -n "$ver" ] || rdmaoot_die "cannot tell which linux-source-6.1 version to use"
	cache="$RDMAOOT_CACHE/ulp-src-$ver"
	mkdir -p "$RDMAOOT_CACHE"
	exec 8>"$RDMAOOT_CACHE/.ulp-src.lock"
	flock 8
	if [ ! -f "$cache/.unpacked" ]; then
		rm -rf "$cache" "$cache.tmp"
		unpack_ulps "$cache.tmp"
		touch "$cache.tmp/.unpacked"
		mv "$cache.tmp" "$cache"
	fi
	flock -u 8
	ULP_SRC_VER=$ver
	ULP_SRC=$cache
}
