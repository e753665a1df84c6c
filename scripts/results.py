#!/usr/bin/env python3
"""scripts/results.py - turn what the guests left behind into a verdict.

Reads the host's own check lines (build, sparse, header shadowing), each
guest's units.txt and, for KUnit, the suites' debugfs results plus the kernel
log. Prints one line per test and ends with "N passed, N failed, N skipped".
Exit status 1 when anything failed or a guest did not finish.

Every KUnit case counts as one test, every parameter of a parameterised case
too. Linux 6.1 keeps at most 512 bytes of log per case in debugfs, so the
per-case lines of big parameterised cases are taken from the kernel log; the
suite verdict and case count in debugfs must agree with them.
"""
import argparse
import fnmatch
import os
import re
import sys

RESULT = re.compile(r'^( *)(ok|not ok) (\d+) (?:- )?(.*?)(?: # (SKIP|TODO)\b ?(.*))?$')
PLAN = re.compile(r'^( *)1\.\.(\d+)$')


class Tally:
    def __init__(self):
        self.counts = {'PASS': 0, 'FAIL': 0, 'SKIP': 0}

    def add(self, status, name, reason=''):
        self.counts[status] += 1
        print(f'{status} {name}' + (f' ({reason})' if reason else ''))


def read_units(path):
    units = []
    if not os.path.exists(path):
        return units
    for line in open(path, errors='replace'):
        parts = line.rstrip('\n').split(' ', 3)
        if len(parts) >= 2 and parts[0] in ('PASS', 'FAIL', 'SKIP'):
            units.append((parts[0], parts[1], parts[3] if len(parts) > 3 else ''))
    return units


def kmsg_lines(path):
    """Message text of each /dev/kmsg record ("prio,seq,usec,flags;text")."""
    out = []
    if not os.path.exists(path):
        return out
    for line in open(path, errors='replace'):
        if ';' in line and re.match(r'^\d+,\d+,\d+,', line):
            out.append(line.split(';', 1)[1].rstrip('\n'))
    return out


def suite_section(lines, suite):
    """Lines of one suite's KTAP in the kernel log, header to verdict."""
    start = None
    for i, text in enumerate(lines):
        if text.strip() == f'# Subtest: {suite}':
            start = i
        elif start is not None:
            m = RESULT.match(text)
            if m and not m.group(1) and m.group(4) == suite:
                return lines[start:i + 1]
    return None


def parse_cases(lines):
    """(plan, verdict, cases): cases are (status, name, reason) leaves."""
    plan, verdict, cases, params = None, None, [], []
    for text in lines:
        p = PLAN.match(text)
        if p and len(p.group(1)) == 4 and plan is None:
            plan = int(p.group(2))
            continue
        m = RESULT.match(text)
        if not m:
            continue
        depth = len(m.group(1)) // 4
        status = 'PASS' if m.group(2) == 'ok' else 'FAIL'
        if m.group(5) == 'SKIP':
            status = 'SKIP'
        name, reason = m.group(4), m.group(6) or ''
        if depth == 0:
            verdict = status
        elif depth == 1:
            if params:
                cases += [(s, f'{name}/{n}', r) for s, n, r in params]
                if status == 'FAIL' and all(s != 'FAIL' for s, _, _ in params):
                    cases.append((status, name, 'case failed outside its parameters'))
            else:
                cases.append((status, name, reason))
            params = []
        elif depth == 2:
            params.append((status, name, reason))
    return plan, verdict, cases


def check_suite(t, kind, outdir, suite, kmsg):
    share = os.path.join(outdir, 'share')
    label = f'{kind}/kunit/{suite}'
    path = os.path.join(share, 'kunit', f'{suite}.ktap')
    if not os.path.exists(path):
        t.add('FAIL', label, 'suite missing: no debugfs results')
        return
    dplan, dverdict, dcases = parse_cases(open(path, errors='replace').read().splitlines())
    if dverdict is None or dplan is None:
        t.add('FAIL', label, 'debugfs results unparsable')
        return
    section = suite_section(kmsg, suite)
    plan, verdict, cases = parse_cases(section) if section else (dplan, dverdict, dcases)
    if plan != dplan or verdict != dverdict:
        t.add('FAIL', label, f'kernel log and debugfs disagree (plan {plan}/{dplan}, verdict {verdict}/{dverdict})')
        return
    if not cases:
        t.add('FAIL', label, 'suite reported no cases')
        return
    for status, name, reason in cases:
        t.add(status, f'{label}/{name}', reason)
    if verdict == 'FAIL' and not any(s == 'FAIL' for s, _, _ in cases):
        t.add('FAIL', label, 'suite failed (init or exit)')


def last_unit_started(outdir):
    last = None
    for name in ('console.log',):
        path = os.path.join(outdir, name)
        if os.path.exists(path):
            for line in open(path, errors='replace'):
                m = re.search(r'rdmaoot: test start: (\S+)', line)
                if m:
                    last = m.group(1)
    return last


def panic_reason(outdir):
    path = os.path.join(outdir, 'console.log')
    if not os.path.exists(path):
        return 'no console output'
    for line in open(path, errors='replace'):
        if re.search(r'Kernel panic|BUG:|KASAN:|WARNING:|UBSAN:', line):
            return re.sub(r'^\[[ 0-9.]+\] ', '', line.strip())[:160]
    return 'no panic message (timeout?)'


def stop_reason(outdir):
    """Why the host stopped the guest (scripts/qemu-run.sh), and what the
    kernel reported, if anything."""
    panic = panic_reason(outdir)
    path = os.path.join(outdir, 'stopped')
    if not os.path.exists(path):
        return panic
    stopped = 'the host stopped it: ' + open(path, errors='replace').read().strip()
    if panic.startswith('no '):
        return stopped
    return f'{stopped}; {panic}'


def check_guest(t, kind, outdir, suites, selected, splats):
    share = os.path.join(outdir, 'share')
    kmsg = kmsg_lines(os.path.join(share, 'kmsg.log'))
    units = read_units(os.path.join(share, 'units.txt'))
    ran = {name for _, name, _ in units}
    for status, name, reason in units:
        if name.startswith('kunit/') and status == 'PASS':
            continue  # its cases are counted below
        t.add(status, f'{kind}/{name}', reason)
        if status == 'FAIL' and reason.startswith(SPLAT_REASON):
            first = ' '.join(reason[len(SPLAT_REASON):].split())
            splats.append((f'{kind}/{name}', splat_excerpt(kmsg, name, first)))
    if kind == 'debug':
        for mod, names in suites:
            if not selected(f'kunit/{mod}'):
                continue
            if f'kunit/{mod}' not in ran:
                t.add('FAIL', f'{kind}/kunit/{mod}', 'never ran')
                continue
            for suite in names:
                check_suite(t, kind, outdir, suite, kmsg)
    done = os.path.join(share, 'done')
    if not os.path.exists(done):
        where = last_unit_started(outdir) or 'boot'
        t.add('FAIL', f'{kind}/guest', f'did not finish: stopped in {where}: {stop_reason(outdir)}')
    elif open(done).read().strip() != '0':
        t.add('FAIL', f'{kind}/guest', f'test runner exited {open(done).read().strip()}')
    elif not units:
        t.add('FAIL', f'{kind}/guest', 'ran no test')


# Lines of a kernel report that carry no information in a summary
# (addresses, register dumps, "?" frames of a guessed stack).
# How scripts/guest/run-tests.sh words a unit failed by a kernel report;
# the rest of its reason is the report's first line.
SPLAT_REASON = 'kernel reported: '
SPLAT_NOISE = re.compile(r'^\s*(\? |R[A-Z0-9]{2}: |RIP: 00|Code: |CR2: |[A-Z]S: |DR[0-7]: |<|Hardware name|Modules linked)')
# Frames every lockdep or WARN report shares (the lock and report
# machinery, the worker loop): the callers above them say what happened.
SPLAT_PLUMBING = re.compile(r'^\s*(lock_acquire|__lock_acquire|lock_acquire\.part|validate_chain|check_prev_add|'
                            r'check_noncircular|print_circular_bug|__mutex_lock|__mutex_lock_common|'
                            r'mutex_lock_nested|dump_stack_lvl|dump_stack|kthread|ret_from_fork|worker_thread|'
                            r'lock_map_acquire|__lock_release|lock_release)[+.]')
EXCERPT_LINES = 60


def splat_excerpt(kmsg, unit, first):
    """The kernel report that failed a unit, trimmed for the summary: the
    lines of its window (start to end marker) from the report's first line
    on (@first: the line the guest's runner matched and named in the
    verdict, blanks squeezed, maybe cut short), without register dumps,
    guessed frames and blank lines."""
    start, end = f'rdmaoot: test start: {unit}', f'rdmaoot: test end: {unit}'
    out, inside, found = [], False, False
    for text in kmsg:
        if text == start:
            inside = True
            continue
        if text == end:
            break
        if not inside:
            continue
        if not found and not ' '.join(text.split()).startswith(first):
            continue
        found = True
        if text.strip() and not SPLAT_NOISE.match(text) and not SPLAT_PLUMBING.match(text):
            out.append(text.rstrip())
        if len(out) >= EXCERPT_LINES:
            break
    return out


def print_splats(failed):
    """For each unit a kernel report failed, the report's excerpt: printed
    last, just above the totals, where a CI log's tail shows it."""
    for label, lines in failed:
        print(f'--- {label}: what the kernel reported ({len(lines)} lines; full text in its kmsg.log)')
        for text in lines:
            print(f'  | {text}')


def read_suites(path):
    suites = []
    for line in open(path):
        line = line.split('#', 1)[0].split()
        if line:
            suites.append((line[0], line[1:]))
    return suites


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--host', action='append', default=[], help='host check lines')
    ap.add_argument('--guest', action='append', default=[], help='KIND:OUTDIR')
    ap.add_argument('--suites', required=True)
    args = ap.parse_args()
    pats = os.environ.get('RDMAOOT_TESTS', '').split()

    def selected(name):
        return not pats or any(fnmatch.fnmatchcase(name, p) for p in pats)

    t = Tally()
    for path in args.host:
        for status, name, reason in read_units(path):
            t.add(status, name, reason)
    suites = read_suites(args.suites)
    splats = []
    for spec in args.guest:
        kind, outdir = spec.split(':', 1)
        check_guest(t, kind, outdir, suites, selected, splats)
    print_splats(splats)
    c = t.counts
    print(f"{c['PASS']} passed, {c['FAIL']} failed, {c['SKIP']} skipped")
    return 1 if c['FAIL'] or not c['PASS'] else 0


if __name__ == '__main__':
    sys.exit(main())
