#!/usr/bin/env bash
# scripts/compat-check.sh - measure how many Linux 6.1 RDMA ULP sources
# compile against our include/rdma headers.
#
#   compat-check.sh [--strict] [--inbox] [-j N] [PATH-PREFIX...]
#
# The ULP sources (NVMe-oF host and target, xprtrdma, 9p, iSER, isert, RDS,
# SMB direct client and server) come from Debian's linux-source-6.1 of the
# same version as the stock kernel headers. Each file is compiled on its own
# (single-target Kbuild build, no link, no modpost) against the stock build
# tree with our include/ placed first, and passes only if its object was
# made AND its .cmd file lists no header from the kernel's include/rdma/.
#
#   --inbox   control run: leave our headers out and build against the
#             kernel's own include/rdma (the header rule is not applied)
#   --strict  exit non-zero when any file fails (default: always exit 0)
#   -j N      files compiled at the same time (default: number of CPUs)
#   PATH-PREFIX...  only the files whose path starts with one of these
#             (e.g. net/rds drivers/nvme), for quick iterations
#
# Per-file logs go to build/compat/logs/<mode>/. KVER and KDIR may be set in
# the environment as for the top-level Makefile.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

usage() { sed -n '5,19s/^# \{0,1\}//p' "$0" >&2; exit "${1:-2}"; }

strict=0
mode=ours
jobs=$(nproc)
only=()
while [ $# -gt 0 ]; do
	case "$1" in
	--strict) strict=1 ;;
	--inbox) mode=inbox ;;
	-j) [ $# -ge 2 ] || usage; jobs=$2; shift ;;
	-j*) jobs=${1#-j} ;;
	-h | --help) usage 0 ;;
	-*) usage ;;
	*) only+=("${1%/}") ;;
	esac
	shift
done
case "$jobs" in '' | *[!0-9]* | 0) usage ;; esac

# Called from our Makefile, the parent make's flags and command-line
# variables must not leak into the kernel's make.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES

top=$RDMAOOT_TOP
kver=${KVER:-$(rdmaoot_stock_kver)} || rdmaoot_die "cannot resolve the stock kernel release"
kdir=${KDIR:-/lib/modules/$kver/build}
[ -f "$kdir/include/config/auto.conf" ] ||
	rdmaoot_die "no configured kernel build tree at $kdir: run 'make deps' first"

# --- source version: the one the stock headers were built from ---------

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
ver=$(src_version)
[ -n "$ver" ] || rdmaoot_die "cannot tell which linux-source-6.1 version to use"

# --- the ULP directories, unpacked once per source version --------------

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

# --- what to compile ------------------------------------------------------

smb_client=fs/smb/client
smb_server=fs/smb/server
if [ ! -d "$cache/fs/smb" ]; then
	smb_client=fs/cifs
	smb_server=fs/ksmbd
fi

# One line per group: Kconfig symbol that turns the files on, then the files
# (globs relative to the source tree).
groups="NVME_RDMA drivers/nvme/host/rdma.c
NVME_TARGET_RDMA drivers/nvme/target/rdma.c
SUNRPC_XPRT_RDMA net/sunrpc/xprtrdma/*.c
NET_9P_RDMA net/9p/trans_rdma.c
INFINIBAND_ISER drivers/infiniband/ulp/iser/*.c
INFINIBAND_ISERT drivers/infiniband/ulp/isert/*.c
RDS_RDMA net/rds/ib*.c
CIFS_SMB_DIRECT $smb_client/smbdirect.c
SMB_SERVER_SMBDIRECT $smb_server/transport_rdma.c"

# wanted FILE: true if no PATH-PREFIX was given or FILE matches one.
wanted() {
	local p
	[ ${#only[@]} -gt 0 ] || return 0
	for p in "${only[@]}"; do
		case "$1" in "$p" | "$p"/*) return 0 ;; esac
	done
	return 1
}

files=()
declare -A gate_of
while read -r gate pattern; do
	n=0
	for f in "$cache"/$pattern; do
		[ -f "$f" ] || continue
		wanted "${f#"$cache"/}" || continue
		files+=("${f#"$cache"/}")
		gate_of[${f#"$cache"/}]=$gate
		n=$((n + 1))
	done
	[ "$n" -gt 0 ] || [ ${#only[@]} -gt 0 ] || rdmaoot_die "no $pattern in $cache"
done <<<"$groups"
total=${#files[@]}
[ "$total" -gt 0 ] || rdmaoot_die "no ULP source matches: ${only[*]}"

# --- scratch tree with a generated Kbuild per directory -----------------

scratch="$top/build/compat/$mode"
logs="$top/build/compat/logs/$mode"
mkdir -p "$top/build/compat"
exec 9>"$top/build/compat/.lock-$mode"
flock -n 9 || rdmaoot_die "another compat-check --$mode run is using $scratch"
# A fresh copy every run: no stale object can pass for a new result.
rm -rf "$scratch" "$logs"
mkdir -p "$scratch" "$logs"
cp -a "$cache" "$scratch/src"
srcdir="$scratch/src"

autoconf="$kdir/include/config/auto.conf"
config_on() { grep -Eq "^CONFIG_$1=(y|m)$" "$autoconf"; }

# Kconfig gates the stock kernel leaves off (Debian builds neither SMB direct
# side) are forced on for that one file, so the RDMA code is really compiled.
forced=
for f in "${files[@]}"; do
	g=${gate_of[$f]}
	config_on "$g" || case " $forced " in *" $g "*) ;; *) forced="$forced $g" ;; esac
done

# gen_kbuild DIR: the directory's own Makefile supplies upstream's ccflags
# (-I$(src), -DRDS_DEBUG, ...) and object lists; gated-off files become
# modules of their own, built with their gate defined.
gen_kbuild() {
	local dir=$1 f obj
	{
		echo "# Generated by scripts/compat-check.sh ($mode): upstream rules"
		echo "# plus the compat-check additions below."
		echo "include \$(src)/Makefile"
		for f in "${files[@]}"; do
			[ "$(dirname "$f")" = "$dir" ] || continue
			config_on "${gate_of[$f]}" && continue
			obj=$(basename "${f%.c}").o
			echo "obj-m += $obj"
			echo "CFLAGS_$obj += -DCONFIG_${gate_of[$f]}=1"
		done
	} >"$srcdir/$dir/Kbuild"
}
dirs=$(printf '%s\n' "${files[@]}" | xargs -n1 dirname | sort -u)
for d in $dirs; do
	gen_kbuild "$d"
done
# Single targets are built from the top of M= down: a directory's Kbuild
# (and so its flags) is only read if the top one lists it. Our include/
# goes first exactly as in the project's own Kbuild; the kernel Makefile
# exports NOSTDINC_FLAGS, so the directories below inherit it.
{
	echo "# Generated by scripts/compat-check.sh ($mode)."
	if [ "$mode" = ours ]; then
		echo "NOSTDINC_FLAGS += -I$top/include"
	fi
	for d in $dirs; do echo "obj-y += $d/"; done
} >"$srcdir/Kbuild"

# --- compile and judge one file -------------------------------------------

# Paths in messages are shown relative to the source tree.
short() { sed -e "s|$srcdir/||g" -e "s|$top/||g"; }

# forbidden_headers CMDFILE: kernel include/rdma headers the object used.
# Only our include/rdma and the kernel's include/uapi/rdma are allowed.
forbidden_headers() {
	grep -o '[^ ]*include/rdma/[^ :\\)]*' "$1" |
		grep -E '(^|/)include/rdma/' |
		grep -v "^$top/include/rdma/" | sort -u || true
}

# built OBJ CMD: the object exists and its .cmd is the complete one fixdep
# writes (a header list we can trust), not a leftover fragment.
built() {
	[ -f "$1" ] && [ -f "$2" ] && grep -q '^source_' "$2" && grep -q '^deps_' "$2"
}

# build_one FILE: writes logs/<file>.log and logs/<file>.res (the verdict).
build_one() {
	local f=$1 obj cmd log res rc bad why
	obj="${f%.c}.o"
	cmd="$srcdir/$(dirname "$f")/.$(basename "$obj").cmd"
	log="$logs/${f//\//_}.log"
	res="$logs/${f//\//_}.res"
	: >"$log"
	for _ in 1 2; do
		rm -f "$srcdir/$obj" "$cmd"
		rc=0
		make -C "$kdir" M="$srcdir" W=0 "$obj" >>"$log" 2>&1 || rc=$?
		[ "$rc" -eq 0 ] || break
		built "$srcdir/$obj" "$cmd" && break
		# make succeeded, yet the results are gone: something else (a
		# 'make clean' of the project) swept build/ meanwhile. Once more.
		echo "compat-check: object or .cmd missing after make; retrying" >>"$log"
	done
	if [ "$rc" -ne 0 ]; then
		why=$(grep -m1 -E '(error|fatal error):' "$log" ||
		      grep -m1 -E '\*\*\*|No rule to make' "$log" ||
		      echo "make failed (exit $rc) without a compiler error")
		echo "FAIL $f: $(echo "$why" | short)" >"$res"
		return
	fi
	if ! built "$srcdir/$obj" "$cmd"; then
		echo "FAIL $f: make succeeded but the object or its .cmd is missing twice" >"$res"
		return
	fi
	if [ "$mode" = ours ]; then
		bad=$(forbidden_headers "$cmd")
		if [ -n "$bad" ]; then
			{
				echo "used target-kernel headers:"
				echo "$bad"
			} >>"$log"
			echo "FAIL $f: used target-kernel headers:" \
				"$(echo "$bad" | sed 's|.*/include/rdma/|rdma/|' | tr '\n' ' ')" >"$res"
			return
		fi
	else
		# The control run must see the kernel's headers, or the rule above
		# could never have caught anything.
		forbidden_headers "$cmd" >"${res%.res}.krdma"
		echo "$(wc -l <"${res%.res}.krdma") kernel include/rdma headers used" >>"$log"
	fi
	echo "PASS $f" >"$res"
}

# --- run ----------------------------------------------------------------

label="our include/rdma"
[ "$mode" = ours ] || label="the kernel's own include/rdma (control)"
rdmaoot_log "compat: $total ULP sources of linux-source-6.1 $ver against $label, kernel $kver, -j$jobs"
[ -z "$forced" ] || rdmaoot_log "forced on for their files (off in the stock config):$forced"

start=$(date +%s)
done_n=0
running=0
progress() {
	local line
	line=$(cat "$logs/${1//\//_}.res" 2>/dev/null || echo "FAIL $1: no verdict")
	done_n=$((done_n + 1))
	printf '[%2d/%d] %s\n' "$done_n" "$total" "${line%%:*}" >&2
}
declare -A pid_file
for f in "${files[@]}"; do
	if [ "$running" -ge "$jobs" ]; then
		wait -n -p fin "${!pid_file[@]}" || true
		progress "${pid_file[$fin]}"
		unset "pid_file[$fin]"
		running=$((running - 1))
	fi
	build_one "$f" &
	pid_file[$!]=$f
	running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
	wait -n -p fin "${!pid_file[@]}" || true
	progress "${pid_file[$fin]}"
	unset "pid_file[$fin]"
	running=$((running - 1))
done

pass=0
for f in "${files[@]}"; do
	res="$logs/${f//\//_}.res"
	[ -f "$res" ] || echo "FAIL $f: no verdict (see $logs)" >"$res"
	cat "$res"
	case "$(cat "$res")" in PASS*) pass=$((pass + 1)) ;; esac
done
if [ "$mode" = inbox ]; then
	seen=0
	for f in "${files[@]}"; do
		if [ -s "$logs/${f//\//_}.krdma" ]; then seen=$((seen + 1)); fi
	done
	rdmaoot_log "control: $seen of $pass built files read the kernel's include/rdma" \
		"(the header rule would have failed them)"
fi
rdmaoot_log "took $(($(date +%s) - start))s; logs in ${logs#"$top"/}"
echo "compat: $pass of $total ULP sources compile against" \
	"$([ "$mode" = ours ] && echo "our headers" || echo "the kernel's headers (--inbox control)")"

[ "$strict" = 0 ] || [ "$pass" -eq "$total" ]
