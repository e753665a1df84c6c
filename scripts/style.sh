#!/usr/bin/env bash
# scripts/style.sh - checkpatch --strict over every tracked .c and .h of ours.
#
# Prints each finding (file:line: LEVEL:TYPE: message), then a count per
# type, and exits non-zero while any remain. checkpatch.pl comes from the
# kernel source tree the build already keeps: KDIR if it is a source tree,
# else the debug kernel's tree in the cache (scripts/debug-kernel.sh builds
# it); CHECKPATCH=/path/to/checkpatch.pl overrides both.
#
#   scripts/style.sh [PATH...]    limit the run to these folders or files
#                                 (also STYLE_PATHS="kunit ulp/kperf")
#
# Nothing is left out silently: every type ignored below says why.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
cd "$RDMAOOT_TOP"

find_checkpatch() {
	local dir
	if [ -n "${CHECKPATCH:-}" ]; then
		echo "$CHECKPATCH"
		return
	fi
	if [ -n "${KDIR:-}" ] && [ -x "$KDIR/scripts/checkpatch.pl" ]; then
		echo "$KDIR/scripts/checkpatch.pl"
		return
	fi
	dir=$(rdmaoot_debug_dir)
	echo "$dir/linux/scripts/checkpatch.pl"
}

checkpatch=$(find_checkpatch)
[ -x "$checkpatch" ] ||
	rdmaoot_die "no checkpatch.pl at $checkpatch: run 'make check' once (it builds the debug kernel's tree) or give CHECKPATCH="

# Types ignored over the whole tree, one line each with the reason.
# (None today: checkpatch -f --no-tree does not run the patch-only checks
# such as FILE_PATH_CHANGES, and our files already carry SPDX lines in the
# kernel's style and use no LINUX_VERSION_CODE.)
ignore=(
)

# Types ignored for one folder only, as "folder TYPE,TYPE # reason".
# (None today.)
folder_ignore=(
)

opts=(--no-tree --strict --terse --show-types --no-summary --quiet -f)

paths=("$@")
[ ${#paths[@]} -gt 0 ] || read -r -a paths <<< "${STYLE_PATHS:-}"

mapfile -t files < <(git ls-files -- "${paths[@]}" | grep -E '\.[ch]$')
[ ${#files[@]} -gt 0 ] || rdmaoot_die "no tracked .c or .h files under: ${paths[*]}"

# extra_ignore FILE: the folder-only types that apply to FILE.
extra_ignore() {
	local entry folder types
	for entry in "${folder_ignore[@]}"; do
		folder=${entry%% *}
		types=${entry#* }
		types=${types%%#*}
		types=${types// /}
		case "$1" in
		"$folder"/*) echo "$types" ;;
		esac
	done | paste -sd, -
}

log=$(mktemp)
trap 'rm -f "$log"' EXIT

# Group the files by the ignore list that applies to them, one checkpatch
# run per group (with both cores), then sort the findings by file and line.
declare -A groups
for f in "${files[@]}"; do
	key=$(extra_ignore "$f")
	groups["+${key}"]+="$f"$'\n'
done
for key in "${!groups[@]}"; do
	key=${key#+}
	list=$(IFS=,; echo "${ignore[*]}${ignore[*]:+${key:+,}}$key")
	printf '%s' "${groups[+$key]}" |
		xargs -d '\n' -n 16 -P "$(nproc)" "$checkpatch" "${opts[@]}" \
			${list:+--ignore "$list"} >> "$log" 2>&1
done

sort -t: -k1,1 -k2,2n "$log"
count=$(grep -c '^[^:]*:[0-9]*: [A-Z]*:' "$log")
if [ "$count" -gt 0 ]; then
	echo
	echo "findings per type:"
	sed -n 's/^[^:]*:[0-9]*: [A-Z]*:\([A-Z0-9_]*\):.*/\1/p' "$log" |
		sort | uniq -c | sort -rn
	echo "checkpatch: $count findings in ${#files[@]} files" >&2
	exit 1
fi
if grep -q . "$log"; then
	echo "checkpatch printed the lines above" >&2
	exit 1
fi
echo "checkpatch: clean (${#files[@]} files)"
