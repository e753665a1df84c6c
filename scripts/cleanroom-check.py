#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""cleanroom-check.py - find runs of our C code that follow upstream's line for line.

    scripts/cleanroom-check.py UPSTREAM_DIR [OUR_PATH ...] [--min N] [--exact]

UPSTREAM_DIR is a folder of Linux's .c files (drivers/infiniband of the
linux-source-6.1 tarball, say); OUR_PATH are our files or folders (default:
core sw ulp). Every line of both sides is reduced to its shape: comments,
blank lines and lines of lone punctuation are dropped, white space is
folded, and (unless --exact) identifiers, numbers and strings become
placeholders, C keywords and operators stay. A run of --min (default 8)
or more consecutive shapes that stands, in the same order, in an upstream
file is reported as

    ours/file.c:FIRST-LAST ~ upstream/file.c:FIRST-LAST (exact|shape)

"exact" when the run is the same to the letter after white space. The exit
status is 1 when anything is reported. A row is a place to look at, not a
verdict: ops tables and string tables legitimately share shapes.
"""
import argparse
import os
import re
import sys

KEYWORDS = set("""
auto break case char const continue default do double else enum extern float
for goto if inline int long register return short signed sizeof static struct
switch typedef union unsigned void volatile while bool true false NULL
""".split())

TOKEN = re.compile(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|[A-Za-z_]\w*|\d[\w.]*|\S')


def strip_comments(text):
    """Blank out comments, keeping the line structure."""
    def blank(m):
        return re.sub(r'[^\n]', ' ', m.group(0))
    return re.sub(r'/\*.*?\*/|//[^\n]*', blank,
                  text, flags=re.S)


def shapes(path, exact):
    """[(line number, shape, exact text)] of the lines that count."""
    try:
        with open(path, errors="replace") as f:
            text = strip_comments(f.read())
    except OSError:
        return []
    out = []
    for no, line in enumerate(text.split("\n"), 1):
        toks = TOKEN.findall(line)
        if not toks or all(len(t) == 1 and not t.isalnum() for t in toks):
            continue
        if toks[0] == "#" and len(toks) > 1 and toks[1] == "include":
            continue
        plain = " ".join(toks)
        if exact:
            out.append((no, plain, plain))
            continue
        norm = []
        for t in toks:
            if t[0] in "\"'":
                norm.append("S")
            elif t[0].isdigit():
                norm.append("N")
            elif t[0].isalpha() or t[0] == "_":
                norm.append(t if t in KEYWORDS else "I")
            else:
                norm.append(t)
        out.append((no, " ".join(norm), plain))
    return out


def c_files(paths):
    for p in paths:
        if os.path.isfile(p):
            yield p
            continue
        for root, _, files in os.walk(p):
            for name in sorted(files):
                if name.endswith((".c", ".h")):
                    yield os.path.join(root, name)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("upstream")
    ap.add_argument("ours", nargs="*", default=["core", "sw", "ulp"])
    ap.add_argument("--min", type=int, default=8)
    ap.add_argument("--exact", action="store_true")
    args = ap.parse_args()
    k = args.min

    index = {}
    up = {}
    for path in c_files([args.upstream]):
        if not path.endswith(".c"):
            continue
        lines = shapes(path, args.exact)
        up[path] = lines
        for i in range(len(lines) - k + 1):
            key = tuple(s for _, s, _ in lines[i:i + k])
            index.setdefault(key, []).append((path, i))

    found = 0
    for path in c_files(args.ours):
        lines = shapes(path, args.exact)
        i = 0
        while i <= len(lines) - k:
            key = tuple(s for _, s, _ in lines[i:i + k])
            hits = index.get(key)
            if not hits:
                i += 1
                continue
            best = None
            for upath, j in hits:
                ulines = up[upath]
                n = k
                while (i + n < len(lines) and j + n < len(ulines) and
                       lines[i + n][1] == ulines[j + n][1]):
                    n += 1
                if best is None or n > best[2]:
                    best = (upath, j, n)
            upath, j, n = best
            ulines = up[upath]
            same = all(lines[i + m][2] == ulines[j + m][2] for m in range(n))
            print("%s:%d-%d ~ %s:%d-%d (%s)" % (
                path, lines[i][0], lines[i + n - 1][0],
                os.path.relpath(upath, args.upstream), ulines[j][0],
                ulines[j + n - 1][0], "exact" if same else "shape"))
            found += 1
            i += n
    print("%d run(s) of %d or more lines found" % (found, k), file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
