#!/usr/bin/env python3
"""scripts/bench-report.py RAW [--out DIR] - the report of `make bench`.

Reads the raw results scripts/guest/bench.sh wrote (one "raw ... :: result
..." line per measurement), and prints, for every workload, each stack's
median over the pairs that passed, the ratio ours/inbox and the failures;
then the veth crossing check, the issue's targets, and one "bench ..."
line per workload for scripts. With --out, the same text goes to
DIR/bench.txt and a plot to DIR/bench.svg. Standard library only.

Where the time goes: each raw line may carry cpu=<busy/total,...> (per
vCPU jiffies from /proc/stat during the command) and the deltas of the
rxe hw_counters (retry, rnr, dup, oos, drop, summed over both devices)
and of the softnet backlog drops; the report turns them into CPU seconds
per GB (all vCPUs and per vCPU), each vCPU's busy share, and event counts,
and shows each workload's growth from 1 to 2 QPs.

Values: bandwidth workloads (write, read, send, memcpy, ib_write_bw) use
the result's mbps (MB/s, 10^6 bytes/s); latency workloads (send_lat,
write_lat, ib_send_lat) its lat_med (us; perftest's typical latency).
Ratio is always ours/inbox: above 1 is better for bandwidth, below 1 is
better for latency. The ib_ workloads are Debian's userspace perftest
(scripts/guest/bench-perftest.sh); the issue's targets are about the
in-kernel ones, and the userspace ones get their own summary.
"""
import argparse
import math
import os
import re
import statistics
import sys

TOKEN = re.compile(r'(\w+)=("[^"]*"|\S+)')
BW_WORKS = ("write", "read", "send")
LAT_WORKS = ("send_lat", "write_lat")
USER_BW_WORKS = ("ib_write_bw",)
USER_LAT_WORKS = ("ib_send_lat",)
STACKS = ("inbox", "ours")


def parse_kv(text):
    return {k: v.strip('"') for k, v in TOKEN.findall(text)}


def parse_raw(path):
    """Measurements (dicts: the tags plus 'res', the result fields) and meta."""
    meas, meta = [], {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("meta "):
                meta.update(parse_kv(line[5:]))
                continue
            if not line.startswith("raw ") or " :: " not in line:
                continue
            tags, res = line[4:].split(" :: ", 1)
            m = parse_kv(tags)
            m["res"] = parse_kv(res)
            meas.append(m)
    return meas, meta


def is_lat(work):
    return work in LAT_WORKS or work in USER_LAT_WORKS


def value_of(m):
    """The measured value, or None when the measurement failed."""
    res = m["res"]
    if res.get("status") != "ok":
        return None
    key = "lat_med" if is_lat(m["work"]) else "mbps"
    try:
        return float(res[key])
    except (KeyError, ValueError):
        return None


def fail_reason(m):
    res = m["res"]
    return "errno=%s %s" % (res.get("errno", "?"), res.get("reason", "no reason"))


EVENTS = ("retry", "rnr", "dup", "oos", "drop", "softnet")


def cpu_of(m):
    """[(busy, total)] jiffies per vCPU, or None when not recorded."""
    cpu = m.get("cpu")
    if not cpu:
        return None
    try:
        return [tuple(int(x) for x in c.split("/")) for c in cpu.split(",")]
    except ValueError:
        return None


class Cell:
    """One workload on one stack: the values of its passing runs, failures,
    and the CPU use and event counts those runs recorded."""

    def __init__(self):
        self.values, self.fails = [], []
        self.cpu = []        # per passing run: (bytes, [(busy, total)])
        self.events = {}     # event -> sum over all runs

    def add_extra(self, m, ok):
        for e in EVENTS:
            if e in m:
                try:
                    self.events[e] = self.events.get(e, 0) + int(m[e])
                except ValueError:
                    pass
        cpu = cpu_of(m)
        if ok and cpu:
            try:
                nbytes = int(m["res"].get("bytes", "0"))
            except ValueError:
                nbytes = 0
            self.cpu.append((nbytes, cpu))

    def cpu_per_gb(self, hz):
        """Median CPU seconds per GB: (all vCPUs, [per vCPU]); None without data."""
        runs = [(b, c) for b, c in self.cpu if b > 0]
        if not runs:
            return None
        ncpu = min(len(c) for _, c in runs)
        tot = statistics.median(sum(x[0] for x in c) / hz / (b / 1e9) for b, c in runs)
        per = [statistics.median(c[i][0] / hz / (b / 1e9) for b, c in runs) for i in range(ncpu)]
        return tot, per

    def busy(self):
        """Median busy share (%) of each vCPU over the runs, or None."""
        if not self.cpu:
            return None
        ncpu = min(len(c) for _, c in self.cpu)
        return [statistics.median(100.0 * c[i][0] / c[i][1] if c[i][1] else 0.0
                                  for _, c in self.cpu) for i in range(ncpu)]

    def median(self):
        return statistics.median(self.values) if self.values else None


def collect(meas):
    """{(work, size, qps, topo): {stack: Cell}} in first-seen order."""
    table = {}
    for m in meas:
        if m["work"] == "load":
            continue
        key = (m["work"], int(m["size"]), int(m["qps"]), m["topo"])
        cell = table.setdefault(key, {s: Cell() for s in STACKS})
        if m["stack"] not in cell:
            continue
        v = value_of(m)
        if v is None:
            cell[m["stack"]].fails.append("pair %s: %s" % (m["pair"], fail_reason(m)))
        else:
            cell[m["stack"]].values.append(v)
        cell[m["stack"]].add_extra(m, v is not None)
    return table


def unit(work):
    return "us" if is_lat(work) else "MB/s"


def fmt(cell):
    """The cell's median; "fail" when every run failed, "-" when none ran."""
    v = cell.median()
    if v is not None:
        return "%.3f" % v
    return "fail" if cell.fails else "-"


def ratio(cells):
    o, i = cells["ours"].median(), cells["inbox"].median()
    if o is None or i is None or i == 0:
        return None
    return o / i


def size_name(n):
    if n >= 1 << 20 and n % (1 << 20) == 0:
        return "%dM" % (n >> 20)
    if n >= 1 << 10 and n % (1 << 10) == 0:
        return "%dK" % (n >> 10)
    return str(n)


def table_lines(table):
    out = []
    groups = {}
    for key in table:
        groups.setdefault((key[0], key[3]), []).append(key)
    for (work, topo), keys in groups.items():
        out.append("")
        out.append("%s on %s (%s; median over pairs; ratio ours/inbox)" % (work, topo, unit(work)))
        out.append("  %6s %4s %12s %12s %7s  %s" % ("size", "qps", "inbox", "ours", "ratio", "runs ok inbox/ours"))
        for key in sorted(keys, key=lambda k: (k[1], k[2])):
            c = table[key]
            r = ratio(c)
            n = {s: len(c[s].values) + len(c[s].fails) for s in STACKS}
            out.append("  %6s %4d %12s %12s %7s  %d/%d %d/%d" % (
                size_name(key[1]), key[2], fmt(c["inbox"]), fmt(c["ours"]),
                "-" if r is None else "%.2f" % r,
                len(c["inbox"].values), n["inbox"], len(c["ours"].values), n["ours"]))
            for s in STACKS:
                for why in c[s].fails:
                    out.append("         %s failed, %s" % (s, why))
    return out


def cpu_lines(table, hz):
    """CPU seconds per GB (all vCPUs; per vCPU), each vCPU's busy share and
    the events, per workload and stack."""
    out = ["", "where the time goes (medians over passing pairs; cpu s/GB: CPU seconds per 10^9 bytes moved, "
           "all vCPUs and per vCPU; busy: each vCPU's share of the command's time; events: sums over all runs)"]
    out.append("  %-11s %-4s %6s %4s %-5s %8s  %-17s %-11s  %s" % (
        "work", "topo", "size", "qps", "stack", "cpu s/GB", "per vCPU", "busy %", " ".join(EVENTS)))
    any_data = False
    for key in sorted(table, key=lambda k: (k[3], k[0], k[1], k[2])):
        for st in STACKS:
            c = table[key][st]
            if not c.cpu and not c.events:
                continue
            any_data = True
            g = c.cpu_per_gb(hz)
            b = c.busy()
            tot = "-" if g is None or is_lat(key[0]) else "%.2f" % g[0]
            per = "-" if g is None or is_lat(key[0]) else "/".join("%.2f" % x for x in g[1])
            bz = "-" if b is None else "/".join("%.0f" % x for x in b)
            ev = " ".join("%s=%d" % (e, c.events[e]) for e in EVENTS if e in c.events)
            out.append("  %-11s %-4s %6s %4d %-5s %8s  %-17s %-11s  %s" % (
                key[0], key[3], size_name(key[1]), key[2], st, tot, per, bz, ev or "-"))
    return out if any_data else []


def growth_lines(table):
    """Each bandwidth workload's 2-QP median over its 1-QP median, per stack."""
    rows = []
    for k, c in table.items():
        k2 = (k[0], k[1], 2, k[3])
        if k[0] not in BW_WORKS or k[2] != 1 or k2 not in table:
            continue
        g = {}
        for st in STACKS:
            one, two = c[st].median(), table[k2][st].median()
            g[st] = "x%.2f" % (two / one) if one and two else "-"
        rows.append("  %-5s %-4s %6s %8s %8s" % (k[0], k[3], size_name(k[1]), g["inbox"], g["ours"]))
    if not rows:
        return []
    return ["", "growth from 1 to 2 QPs (median at 2 QPs / median at 1 QP)",
            "  %-5s %-4s %6s %8s %8s" % ("work", "topo", "size", "inbox", "ours")] + rows


def crossing_lines(meas):
    """Did the veth measurements really cross the veth, and loop ones not?"""
    out = ["", "veth crossing check (packets sent by bvA/bvB during each measurement)"]
    for stack in STACKS:
        veth = [m for m in meas if m["stack"] == stack and m["topo"] == "veth"]
        loop = [m for m in meas if m["stack"] == stack and m["topo"] == "loop"]
        crossed = [m for m in veth if int(m["txA"]) > 0 and int(m["txB"]) > 0]
        loop_tx = sum(int(m["txA"]) + int(m["txB"]) for m in loop)
        pkts = sum(int(m["txA"]) + int(m["txB"]) for m in veth)
        out.append("  %-5s veth: %d/%d measurements crossed (%d packets); loop: %d packets on the veth" % (
            stack, len(crossed), len(veth), pkts, loop_tx))
        for m in veth:
            if m not in crossed and m["res"].get("status") == "ok":
                out.append("        did not cross: pair %s %s size=%s qps=%s" % (
                    m["pair"], m["work"], m["size"], m["qps"]))
    return out


def load_fail_lines(meas):
    return ["  %s pair %s could not run: %s" % (m["stack"], m["pair"], m["res"].get("reason", "?"))
            for m in meas if m["work"] == "load"]


def target_lines(table):
    """The issue's targets: >= 2x bandwidth at >= 64 KiB, latency no worse,
    throughput growing from 1 to 2 QPs."""
    out = ["", "targets"]
    big = [(k, ratio(c)) for k, c in table.items()
           if k[0] in BW_WORKS and k[1] >= 65536]
    got = [r for _, r in big if r is not None]
    if got:
        met = sum(1 for r in got if r >= 2.0)
        out.append("  bandwidth >= 64 KiB, ours/inbox >= 2: %d/%d workloads (ratios %.2f .. %.2f, median %.2f)%s" % (
            met, len(got), min(got), max(got), statistics.median(got),
            "; %d without a ratio" % (len(big) - len(got)) if len(got) < len(big) else ""))
    for k, c in table.items():
        if k[0] in LAT_WORKS:
            r = ratio(c)
            out.append("  %s %s: ours/inbox %s (%s)" % (
                k[0], k[3], "-" if r is None else "%.2f" % r,
                "no worse" if r is not None and r <= 1.0 else "worse" if r is not None else "no figure"))
    cpu = []
    for k, c in table.items():
        if k[0] in BW_WORKS:
            o, i = c["ours"].cpu_per_gb(1), c["inbox"].cpu_per_gb(1)
            if o and i and i[0] > 0:
                cpu.append(o[0] / i[0])
    if cpu:
        out.append("  CPU seconds per GB, ours/inbox <= 0.5: %d/%d workloads (ratios %.2f .. %.2f, median %.2f)" % (
            sum(1 for r in cpu if r <= 0.5), len(cpu), min(cpu), max(cpu), statistics.median(cpu)))
    for stack in STACKS:
        grow = []
        for k, c in table.items():
            if k[0] in BW_WORKS and k[2] == 1 and (k[0], k[1], 2, k[3]) in table:
                one = c[stack].median()
                two = table[(k[0], k[1], 2, k[3])][stack].median()
                if one and two:
                    grow.append(two / one)
        if grow:
            out.append("  %s: 2 QPs / 1 QP: %d/%d workloads grow (ratios %.2f .. %.2f, median %.2f)" % (
                stack, sum(1 for g in grow if g > 1.0), len(grow), min(grow), max(grow),
                statistics.median(grow)))
    return out


def user_lines(table):
    """Userspace perftest on both stacks: each workload's ratio, in the
    words of a perftest user (higher bandwidth, lower latency)."""
    out = []
    for k in sorted(table, key=lambda k: (k[0], k[3], k[1])):
        if k[0] not in USER_BW_WORKS + USER_LAT_WORKS:
            continue
        r = ratio(table[k])
        if r is None:
            verdict = "no ratio"
        elif is_lat(k[0]):
            verdict = "ours %.2fx the inbox's latency" % r
        else:
            verdict = "ours %.2fx the inbox's bandwidth" % r
        out.append("  %-11s %-4s %6s: inbox %s, ours %s %s: %s" % (
            k[0], k[3], size_name(k[1]), fmt(table[k]["inbox"]), fmt(table[k]["ours"]),
            unit(k[0]), verdict))
    return ["", "userspace perftest (libibverbs, rxe provider; ratio ours/inbox)"] + out if out else []


def bench_lines(table):
    out = []
    order = {w: i for i, w in enumerate(BW_WORKS + LAT_WORKS + USER_BW_WORKS + USER_LAT_WORKS + ("memcpy",))}
    for key in sorted(table, key=lambda k: (order.get(k[0], 99), k[3], k[1], k[2])):
        c = table[key]
        r = ratio(c)
        out.append("bench mode=%s size=%d qps=%d topo=%s ours=%s inbox=%s unit=%s ratio=%s" % (
            key[0], key[1], key[2], key[3], fmt(c["ours"]), fmt(c["inbox"]),
            unit(key[0]), "-" if r is None else "%.3f" % r))
    return out


# --- the plot ---------------------------------------------------------------

COLORS = {"write": "#1f77b4", "read": "#2ca02c", "send": "#d62728"}
STACK_DASH = {"inbox": "6,4", "ours": ""}


def svg_text(x, y, s, size=12, anchor="start", extra=""):
    s = s.replace("&", "&amp;").replace("<", "&lt;")
    return '<text x="%.1f" y="%.1f" font-size="%d" text-anchor="%s" %s>%s</text>' % (
        x, y, size, anchor, extra, s)


def bw_panel(table, topo, x0, y0, w, h):
    """Bandwidth (log) against message size (log), qps=1, one line per stack and op."""
    pts = {}
    for (work, size, qps, t), c in table.items():
        if t != topo or qps != 1 or work not in BW_WORKS:
            continue
        for s in STACKS:
            v = c[s].median()
            if v:
                pts.setdefault((s, work), []).append((size, v))
    el = ['<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#888"/>' % (x0, y0, w, h),
          svg_text(x0 + w / 2, y0 - 8, "bandwidth, %s, 1 QP (MB/s, log)" % topo, 13, "middle")]
    allv = [v for p in pts.values() for _, v in p]
    sizes = sorted({sz for p in pts.values() for sz, _ in p}) or [64, 1048576]
    if not allv:
        return el + [svg_text(x0 + w / 2, y0 + h / 2, "no data", 12, "middle")]
    lo = 10 ** math.floor(math.log10(min(allv)))
    hi = 10 ** math.ceil(math.log10(max(allv)))
    if hi <= lo:
        hi = lo * 10
    smin, smax = math.log2(sizes[0]), math.log2(sizes[-1])
    span = (smax - smin) or 1

    def X(sz):
        return x0 + 40 + (math.log2(sz) - smin) / span * (w - 60)

    def Y(v):
        return y0 + h - 25 - (math.log10(v) - math.log10(lo)) / (math.log10(hi) - math.log10(lo)) * (h - 40)
    d = lo
    while d <= hi * 1.0001:
        el.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ddd"/>' % (x0 + 35, x0 + w - 5, Y(d), Y(d)))
        el.append(svg_text(x0 + 32, Y(d) + 4, "%g" % d, 10, "end"))
        d *= 10
    for sz in sizes:
        el.append(svg_text(X(sz), y0 + h - 8, size_name(sz), 10, "middle"))
    for (s, work), p in sorted(pts.items()):
        p.sort()
        path = " ".join("%.1f,%.1f" % (X(sz), Y(v)) for sz, v in p)
        dash = ' stroke-dasharray="%s"' % STACK_DASH[s] if STACK_DASH[s] else ""
        el.append('<polyline points="%s" fill="none" stroke="%s" stroke-width="2"%s/>' % (path, COLORS[work], dash))
        for sz, v in p:
            el.append('<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>' % (X(sz), Y(v), COLORS[work]))
    return el


def lat_panel(table, x0, y0, w, h):
    """Latency bars: send_lat and write_lat on loop and veth, inbox and ours."""
    bars = []
    for topo in ("loop", "veth"):
        for work in LAT_WORKS:
            c = table.get((work, 64, 1, topo))
            if c:
                bars.append(("%s %s" % (work, topo), c["inbox"].median(), c["ours"].median()))
    el = ['<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#888"/>' % (x0, y0, w, h),
          svg_text(x0 + w / 2, y0 - 8, "64 B round trip, median (us)", 13, "middle")]
    vmax = max([v for _, a, b in bars for v in (a, b) if v] or [1])
    bw = (w - 40) / max(1, len(bars))
    for i, (name, a, b) in enumerate(bars):
        for j, (s, v) in enumerate((("inbox", a), ("ours", b))):
            x = x0 + 30 + i * bw + j * bw * 0.4
            if v:
                bh = v / vmax * (h - 60)
                el.append('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"/>' % (
                    x, y0 + h - 35 - bh, bw * 0.35, bh, "#999" if s == "inbox" else "#1f77b4"))
                el.append(svg_text(x + bw * 0.17, y0 + h - 40 - bh, "%.0f" % v, 10, "middle"))
            else:
                el.append(svg_text(x + bw * 0.17, y0 + h - 40, "fail", 10, "middle"))
        el.append(svg_text(x0 + 30 + i * bw + bw * 0.37, y0 + h - 15, name, 10, "middle"))
    return el


def legend(x, y):
    el = []
    for i, work in enumerate(BW_WORKS):
        el.append('<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="%s" stroke-width="2"/>' % (
            x, x + 25, y + i * 16, y + i * 16, COLORS[work]))
        el.append(svg_text(x + 30, y + 4 + i * 16, work, 11))
    for i, s in enumerate(STACKS):
        dash = ' stroke-dasharray="%s"' % STACK_DASH[s] if STACK_DASH[s] else ""
        el.append('<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="#000" stroke-width="2"%s/>' % (
            x + 110, x + 135, y + i * 16, y + i * 16, dash))
        el.append(svg_text(x + 140, y + 4 + i * 16, s, 11))
    el.append('<rect x="%d" y="%d" width="12" height="10" fill="#999"/>' % (x + 200, y - 5))
    el.append(svg_text(x + 216, y + 4, "inbox (bars)", 11))
    el.append('<rect x="%d" y="%d" width="12" height="10" fill="#1f77b4"/>' % (x + 200, y + 11))
    el.append(svg_text(x + 216, y + 20, "ours (bars)", 11))
    return el


def write_svg(table, path, title):
    W, H = 1100, 420
    el = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif">' % (W, H),
          '<rect width="100%" height="100%" fill="white"/>',
          svg_text(W / 2, 20, title, 14, "middle", 'font-weight="bold"')]
    el += bw_panel(table, "loop", 20, 60, 360, 280)
    el += bw_panel(table, "veth", 400, 60, 360, 280)
    el += lat_panel(table, 780, 60, 300, 280)
    el += legend(40, 375)
    el.append("</svg>")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(el) + "\n")


# A fixed sample for --selftest: three pairs, one failed run, one
# veth measurement that stayed off the wire.
SAMPLE = """meta pairs=3 quick=0 kernel=k cpus=2 netmtu=1500
raw stack=inbox pair=1 topo=veth work=write size=65536 qps=1 txA=50 txB=9 cpu=100/100,20/100 retry=1 rnr=0 dup=2 oos=0 drop=0 softnet=0 :: result mode=bw bytes=500000000 mbps=40.000 status=ok
raw stack=ours pair=1 topo=veth work=write size=65536 qps=1 txA=50 txB=9 cpu=50/100,50/100 retry=0 rnr=0 dup=0 oos=3 drop=1 softnet=4 :: result mode=bw bytes=1000000000 mbps=100.000 status=ok
raw stack=inbox pair=1 topo=veth work=write size=65536 qps=2 txA=50 txB=9 :: result mode=bw mbps=60.000 status=ok
raw stack=ours pair=1 topo=veth work=write size=65536 qps=2 txA=50 txB=9 :: result mode=bw mbps=180.000 status=ok
raw stack=inbox pair=2 topo=veth work=write size=65536 qps=1 txA=50 txB=9 :: result mode=bw mbps=20.000 status=ok
raw stack=ours pair=2 topo=veth work=write size=65536 qps=1 txA=0 txB=0 :: result mode=bw status=fail errno=-110 reason="timed out after 5000 ms"
raw stack=inbox pair=3 topo=veth work=write size=65536 qps=1 txA=50 txB=9 :: result mode=bw mbps=30.000 status=ok
raw stack=ours pair=3 topo=veth work=write size=65536 qps=1 txA=50 txB=9 :: result mode=bw mbps=80.000 status=ok
raw stack=inbox pair=1 topo=loop work=send_lat size=64 qps=1 txA=0 txB=0 :: result mode=lat lat_med=40.000 status=ok
raw stack=ours pair=1 topo=loop work=send_lat size=64 qps=1 txA=0 txB=0 :: result mode=lat lat_med=30.000 status=ok
raw stack=inbox pair=1 topo=veth work=write_lat size=64 qps=1 txA=3 txB=3 :: result mode=lat status=fail errno=-110 reason="timed out"
raw stack=ours pair=1 topo=veth work=write_lat size=64 qps=1 txA=3 txB=3 :: result mode=lat lat_med=50.000 status=ok
raw stack=inbox pair=1 topo=veth work=ib_write_bw size=65536 qps=1 txA=900 txB=90 cpu=100/100,100/100 :: result mode=bw bytes=52428800 mbps=50.000 status=ok
raw stack=ours pair=1 topo=veth work=ib_write_bw size=65536 qps=1 txA=900 txB=90 cpu=100/100,100/100 :: result mode=bw bytes=52428800 mbps=75.000 status=ok
raw stack=inbox pair=1 topo=loop work=ib_send_lat size=64 qps=1 txA=0 txB=0 :: result mode=lat lat_med=20.000 lat_avg=22.000 status=ok
raw stack=ours pair=1 topo=loop work=ib_send_lat size=64 qps=1 txA=0 txB=0 :: result mode=lat lat_med=10.000 lat_avg=11.000 status=ok
raw stack=inbox pair=1 topo=none work=memcpy size=16777216 qps=1 txA=0 txB=0 :: result mode=memcpy mbps=1000.000 status=ok
raw stack=ours pair=1 topo=none work=load size=0 qps=0 txA=0 txB=0 :: result status=fail errno=0 reason="modprobe rdma_rxe failed"
meta seconds=10
"""
SAMPLE_LINES = [
    "bench mode=write size=65536 qps=1 topo=veth ours=90.000 inbox=30.000 unit=MB/s ratio=3.000",
    "bench mode=write size=65536 qps=2 topo=veth ours=180.000 inbox=60.000 unit=MB/s ratio=3.000",
    "bench mode=send_lat size=64 qps=1 topo=loop ours=30.000 inbox=40.000 unit=us ratio=0.750",
    "bench mode=write_lat size=64 qps=1 topo=veth ours=50.000 inbox=fail unit=us ratio=-",
    "bench mode=ib_write_bw size=65536 qps=1 topo=veth ours=75.000 inbox=50.000 unit=MB/s ratio=1.500",
    "bench mode=ib_send_lat size=64 qps=1 topo=loop ours=10.000 inbox=20.000 unit=us ratio=0.500",
    "bench mode=memcpy size=16777216 qps=1 topo=none ours=- inbox=1000.000 unit=MB/s ratio=-",
]


def report(meas, meta):
    """The report's lines and the table they were made from."""
    table = collect(meas)
    head = "bench: inbox vs ours, %s pair(s), kernel %s, %s vCPUs, netdev MTU %s%s" % (
        meta.get("pairs", "?"), meta.get("kernel", "?"), meta.get("cpus", "?"),
        meta.get("netmtu", "?"), ", %s s in the guest" % meta["seconds"] if "seconds" in meta else
        " (incomplete: the guest did not finish)")
    try:
        hz = float(meta.get("clk_tck", "100"))
    except ValueError:
        hz = 100.0
    lines = [head] + load_fail_lines(meas) + table_lines(table) + growth_lines(table)
    lines += cpu_lines(table, hz) + crossing_lines(meas)
    lines += target_lines(table) + user_lines(table) + [""] + bench_lines(table)
    return lines, table


def selftest():
    """Medians over the passing pairs, ratios, failures and the crossing
    check on SAMPLE; returns 0 when all hold."""
    import tempfile
    with tempfile.NamedTemporaryFile("w", suffix=".raw", delete=False) as f:
        f.write(SAMPLE)
    try:
        meas, meta = parse_raw(f.name)
    finally:
        os.unlink(f.name)
    lines, _ = report(meas, meta)
    text = "\n".join(lines)
    checks = [(l in lines, "missing: " + l) for l in SAMPLE_LINES]
    checks += [
        ([l for l in lines if l.startswith("bench ")] == SAMPLE_LINES, "bench lines differ"),
        ("ours failed, pair 2: errno=-110 timed out after 5000 ms" in text, "the failure is not listed"),
        ("ours  veth: 5/6 measurements crossed" in text, "crossing count is wrong"),
        ("  write veth    64K    x2.00    x2.00" in text, "growth 1 -> 2 QPs is wrong"),
        ("  write       veth    64K    1 inbox     2.40  2.00/0.40         100/20" in text,
         "inbox CPU per GB or busy share is wrong"),
        ("  write       veth    64K    1 ours      1.00  0.50/0.50         50/50        "
         "retry=0 rnr=0 dup=0 oos=3 drop=1 softnet=4" in text, "ours CPU per GB or events are wrong"),
        ("CPU seconds per GB, ours/inbox <= 0.5: 1/1 workloads (ratios 0.42" in text, "the CPU target is wrong"),
        ("did not cross" not in text, "a failed run was reported as not crossing"),
        ("ours pair 1 could not run: modprobe rdma_rxe failed" in text, "the load failure is not listed"),
        ("2/3 2/3" not in text and "3/3 2/3" in text, "runs ok counts are wrong"),
        ("  ib_send_lat loop     64: inbox 20.000, ours 10.000 us: ours 0.50x the inbox's latency" in text,
         "the userspace latency summary is wrong"),
        ("  ib_write_bw veth    64K: inbox 50.000, ours 75.000 MB/s: ours 1.50x the inbox's bandwidth" in text,
         "the userspace bandwidth summary is wrong"),
        ("ratios 1.50" not in text, "a userspace workload counted towards the in-kernel targets"),
    ]
    bad = [why for ok, why in checks if not ok]
    for why in bad:
        print("bench-report selftest: " + why, file=sys.stderr)
    if bad:
        print(text, file=sys.stderr)
        return 1
    print("bench-report selftest: ok (%d checks)" % len(checks))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("raw", nargs="?")
    ap.add_argument("--out", help="folder for bench.txt and bench.svg")
    ap.add_argument("--selftest", action="store_true", help="check the report on a fixed sample")
    args = ap.parse_args()
    if args.selftest:
        return selftest()
    if not args.raw:
        ap.error("RAW is required")
    meas, meta = parse_raw(args.raw)
    if not meas:
        print("bench-report: no measurements in %s" % args.raw, file=sys.stderr)
        return 1
    lines, table = report(meas, meta)
    head = lines[0]
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, "bench.txt"), "w", encoding="utf-8") as f:
            f.write(text)
        write_svg(table, os.path.join(args.out, "bench.svg"), head)
    return 0


if __name__ == "__main__":
    sys.exit(main())
