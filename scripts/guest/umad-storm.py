#!/usr/bin/python3
# scripts/guest/umad-storm.py UMAD GID [--scale N] PART... - a write storm
# on ib_umad (umadN UMAD of a RoCE port whose GID index 1 is GID), by raw
# read/write/ioctl as umad-loop.py. Requests go to three vendor classes of
# range 2 on the same port: 0x30, whose agent (a process of its own)
# answers every GET it reads with a GET_RESP echoing the request's data;
# 0x32, whose agent never reads (nobody answers: ETIMEDOUT); 0x33, which
# no agent holds (the MAD layer answers with status 0x000c). The parts:
#
# warmup      1 file, 1 thread, 30 requests: as storm, unloaded.
# volume      1 file, 1 thread, 200 x N requests: as storm, without
#             concurrency but more than the MAD layer's send queue holds.
# storm       3 processes, each with one file, 3 writer threads on it
#             (an agent each) and a reader thread: 100 x N requests per
#             thread, written as fast as they go (timeout 200 ms, one
#             retry), far faster than they can be answered. Every write
#             succeeds; every request ends exactly once, with a response
#             (0x30: the echo, MAD status 0; 0x33: status 0x000c) or an
#             ETIMEDOUT report under its agent's id with its TID (0x32:
#             always), and nothing else is read.
# close       5 times: a file with 200 x N requests outstanding (10 s
#             timeouts, 3 retries: most still in the MAD layer's backlog)
#             is closed without reading; close() takes under 5 s.
# unregister  agent X of a file has 100 x N requests outstanding (3 s
#             timeouts, 2 retries) when it is unregistered (under 5 s);
#             its slot is taken again at once by a new agent; agent Y of
#             the same file, with its own requests, gets each of them
#             ended once; nothing is ever read for X's requests, nor for
#             the new agent.
# removal IBDEV  2 processes, each with one file, 2 writer threads
#             writing without pause and a reader thread; after 2 s
#             "rdma link delete IBDEV" (under 30 s). Every write succeeds
#             until the first that fails, which fails with EIO as every
#             later one does (6.1: the file's agents are dead); reads end
#             with EIO; every process ends by itself within 30 s.
#
# One line per check; exit status 0 when all held.
import errno
import os
import select
import struct
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from umadlib import (HDR_NEW, MAD_SIZE, check, gid_bytes, hdr, mad,  # noqa: E402
                     mad_tid, open_umad, parse_hdr, reg_agent2, send,
                     unreg_agent)
import abi_check  # noqa: E402

ANSWERED, SINK, NOBODY = 0x30, 0x32, 0x33
TARGETS = (ANSWERED, NOBODY, SINK)
OUI = 0x001405
GET, GET_RESP = 0x01, 0x81
UNSUPPORTED = 0x000C    # MAD status: method or attribute not supported
SLACK = 120             # seconds every outcome may take after the last write
MAX_PENDING = 400       # requests of one file in flight in the removal part
GID = None
SCALE = 3


def body_of(tid):
    return struct.pack(">I", tid) * 8


def request(cls, tid):
    return mad(cls, GET, tid, oui=OUI, body=body_of(tid))


def mad_status(m):
    return struct.unpack_from(">H", m, 4)[0]


def fork(fn, *args):
    """Run fn(*args) in a child process; its exit status says whether all
    of its checks held."""
    pid = os.fork()
    if pid:
        return pid
    try:
        fn(*args)
        rc = abi_check.exit_status()
    except BaseException as err:      # a crash is a failed check too
        print(f"FAIL {fn.__name__} raised {err!r}", flush=True)
        rc = 1
    sys.stdout.flush()
    os._exit(rc)


def reap(pid, what, secs):
    """Wait up to @secs for child @pid; check that it ended, all held."""
    end = time.monotonic() + secs
    while time.monotonic() < end:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            check(f"{what} ended, its checks held",
                  os.waitstatus_to_exitcode(status) == 0,
                  f"exit {os.waitstatus_to_exitcode(status)}")
            return
        time.sleep(0.1)
    check(f"{what} ended within {secs} s", False)
    os.kill(pid, 9)
    os.waitpid(pid, 0)


# ---- The agents that answer and that never do ------------------------------

def responder(path, stop_fd):
    """0x30's agent: answer every GET with its data, until told to stop or
    cut off from the device."""
    fd = open_umad(path)
    b_id = reg_agent2(fd, ANSWERED, (GET,), oui=OUI)[0]
    p = select.poll()
    p.register(fd, select.POLLIN)
    p.register(stop_fd, select.POLLIN)
    n = dups = 0
    while True:
        ev = dict(p.poll(1000))
        if stop_fd in ev:
            break
        if fd not in ev:
            continue
        if ev[fd] & select.POLLERR:
            break
        try:
            raw = os.read(fd, HDR_NEW + MAD_SIZE)
        except OSError as err:
            check("the responder's read fails only once cut off",
                  err.errno == errno.EIO, abi_check.errname(err.errno))
            break
        h, m = parse_hdr(raw[:HDR_NEW]), bytearray(raw[HDR_NEW:])
        m[3] = GET_RESP
        try:
            send(fd, hdr(b_id, gid=bytes(h["gid"]), gid_index=h["gid_index"],
                         qpn=h["qpn"]), bytes(m))
            n += 1
        except OSError as err:
            if err.errno == errno.EINVAL:
                # 6.1: an answer to a resend while the answer to the
                # first is still in flight to the same peer (its TID)
                dups += 1
                continue
            check("the responder's write fails only once cut off",
                  err.errno == errno.EIO, abi_check.errname(err.errno))
            break
    print(f"# responder: {n} answers, {dups} refused as duplicates (EINVAL)",
          flush=True)
    os.close(fd)


class Helpers:
    """The responder process and the sink's file, for one part."""

    def __init__(self, path):
        self.stop_r, self.stop_w = os.pipe()
        self.pid = fork(responder, path, self.stop_r)
        self.sink = open_umad(path)
        reg_agent2(self.sink, SINK, (GET,), oui=OUI)
        time.sleep(0.5)     # the responder's agent registered

    def end(self, secs=30):
        os.write(self.stop_w, b"x")
        reap(self.pid, "the responder", secs)
        os.close(self.sink)
        os.close(self.stop_r)
        os.close(self.stop_w)


# ---- One file with writer threads and a reader ------------------------------

class File:
    """One open umadN: writer threads, each with an agent, and a reader
    that accounts every packet against the requests in flight."""

    def __init__(self, path, name):
        self.fd = open_umad(path)
        self.name = name
        self.lock = threading.Lock()
        self.pending = {}           # low TID -> (agent id, class)
        self.writes = 0
        self.errnos = {}            # errno -> count (the first failure first)
        self.first_err = None
        self.after_err = []         # errnos of writes after the first failure
        self.outcomes = {"answer": 0, "unsupported": 0, "timeout": 0}
        self.wrong = []             # what should not have been read
        self.read_err = None
        self.writers_done = False
        self.last_write = time.monotonic()
        # while the device goes, the agents of the other files (the
        # responder's, the sink's) may go first: the MAD layer then answers
        # their classes as nobody's (status 0x000c), as 6.1 does
        self.agents_may_go = False

    def note(self, what):
        if len(self.wrong) < 5:
            print(f"# {self.name}: {what}", flush=True)
        self.wrong.append(what)

    def write(self, agent_id, cls, tid, timeout_ms, retries):
        """One request; True when written."""
        with self.lock:
            self.pending[tid] = (agent_id, cls)
        try:
            send(self.fd, hdr(agent_id, gid=GID, timeout_ms=timeout_ms,
                              retries=retries), request(cls, tid))
        except OSError as err:
            with self.lock:
                del self.pending[tid]
                self.errnos[err.errno] = self.errnos.get(err.errno, 0) + 1
                if self.first_err is None:
                    self.first_err = err.errno
                else:
                    self.after_err.append(err.errno)
            return False
        with self.lock:
            self.writes += 1
            self.last_write = time.monotonic()
        return True

    def account(self, raw):
        h, m = parse_hdr(raw[:HDR_NEW]), raw[HDR_NEW:]
        tid = mad_tid(m) & 0xFFFFFFFF
        with self.lock:
            entry = self.pending.pop(tid, None)
        if entry is None:
            self.note(f"a packet of no request in flight: TID {mad_tid(m):#x} "
                      f"status {h['status']} method {m[3]:#x}")
            return
        agent_id, cls = entry
        if h["id"] != agent_id:
            self.note(f"TID {tid:#x} under agent {h['id']}, not {agent_id}")
        if h["status"] == errno.ETIMEDOUT:
            self.outcomes["timeout"] += 1
            if len(m) != 24 or m[1] != cls or m[3] != GET:
                self.note(f"the timeout report of {tid:#x}: {m.hex()}")
        elif (self.agents_may_go and h["status"] == 0 and m[3] == GET_RESP
              and m[1] == cls and mad_status(m) == UNSUPPORTED
              and m[40:72] == body_of(tid)):
            self.outcomes["unsupported"] += 1
        elif h["status"] != 0 or m[3] != GET_RESP or cls == SINK:
            self.note(f"TID {tid:#x} to {cls:#x}: status {h['status']} "
                      f"method {m[3]:#x} class {m[1]:#x} data "
                      f"{m[40:44].hex()}")
        elif cls == ANSWERED:
            self.outcomes["answer"] += 1
            if mad_status(m) != 0 or m[40:72] != body_of(tid):
                self.note(f"the answer to {tid:#x} is not its echo: class "
                          f"{m[1]:#x} status {mad_status(m):#x} data "
                          f"{m[40:72].hex()}")
        else:
            self.outcomes["unsupported"] += 1
            if mad_status(m) != UNSUPPORTED:
                self.note(f"the MAD layer's answer to {tid:#x}: status "
                          f"{mad_status(m):#x}")

    def done(self):
        with self.lock:
            if not self.writers_done:
                return False
            return not self.pending or \
                time.monotonic() > self.last_write + SLACK

    def reader(self, until_cut_off=False):
        p = select.poll()
        p.register(self.fd, select.POLLIN)
        while until_cut_off or not self.done():
            if not p.poll(200):
                continue
            try:
                raw = os.read(self.fd, HDR_NEW + MAD_SIZE)
            except OSError as err:
                self.read_err = err.errno
                return
            self.account(raw)

    def run(self, nthreads, body, until_cut_off=False):
        """@nthreads threads run body(file, agent id, thread number) beside
        the reader; wait for all."""
        agents = [reg_agent2(self.fd)[0] for _ in range(nthreads)]
        rd = threading.Thread(target=self.reader, args=(until_cut_off,))
        rd.start()
        ws = [threading.Thread(target=body, args=(self, a, t))
              for t, a in enumerate(agents)]
        for w in ws:
            w.start()
        for w in ws:
            w.join()
        with self.lock:
            self.writers_done = True
        rd.join()
        return agents

    def every_request_ended(self):
        left = {}
        for _, cls in self.pending.values():
            left[hex(cls)] = left.get(hex(cls), 0) + 1
        check(f"{self.name}: every request ended once, nothing else read",
              not self.pending and not self.wrong,
              f"(without an end, by class: {left}) "
              f"{len(self.pending)} without an end, {len(self.wrong)} wrong; "
              f"{self.writes} written, {self.outcomes}")


# ---- The parts ---------------------------------------------------------------

def storm_file(path, k, nthreads=3, n=None):
    n = n or 100 * SCALE
    f = File(path, f"storm file {k}")

    def writer(f, agent_id, t):
        for i in range(n):
            f.write(agent_id, TARGETS[i % 3], t << 16 | i, 200, 1)

    t0 = time.monotonic()
    f.run(nthreads, writer)
    check(f"{f.name}: all {nthreads * n} writes succeeded",
          f.writes == nthreads * n and not f.errnos, f"errnos {f.errnos}")
    f.every_request_ended()
    check(f"{f.name}: no answer from 0x32's agent, which never answers",
          f.outcomes["timeout"] >= nthreads * (n // 3))
    print(f"# {f.name}: {time.monotonic() - t0:.1f} s", flush=True)
    os.close(f.fd)


def warmup(path):
    """One file, one thread, a few requests: the storm's accounting on a
    load that must pass before the storm means anything."""
    hp = Helpers(path)
    pid = fork(storm_file, path, "warm-up", 1, 30)
    reap(pid, "the warm-up file", 300)
    hp.end()


def volume(path):
    """One file, one thread, 6 x N x 100 requests: more than the MAD
    layer's send queue holds (128), without concurrency."""
    hp = Helpers(path)
    pid = fork(storm_file, path, "volume", 1, 200 * SCALE)
    reap(pid, "the volume file", 600)
    hp.end()


def storm(path):
    hp = Helpers(path)
    pids = [fork(storm_file, path, k) for k in range(3)]
    for k, pid in enumerate(pids):
        reap(pid, f"storm file {k}", 600)
    hp.end()


def close_round(path, r):
    fd = open_umad(path)
    a_id = reg_agent2(fd)[0]
    n = 200 * SCALE
    for i in range(n):
        send(fd, hdr(a_id, gid=GID, timeout_ms=10000, retries=3),
             request((SINK, ANSWERED)[i % 2], r << 20 | i))
    t0 = time.monotonic()
    os.close(fd)
    took = time.monotonic() - t0
    check(f"close {r}: closed with {n} requests outstanding", took < 5,
          f"in {took:.2f} s")


def close(path):
    hp = Helpers(path)
    for r in range(5):
        close_round(path, r)
    hp.end()


def unregister(path):
    hp = Helpers(path)
    f = File(path, "unregister")
    x_id = reg_agent2(f.fd)[0]
    n = 100 * SCALE
    for i in range(n):
        f.write(x_id, SINK, 0x100000 | i, 3000, 2)
    with f.lock:
        x_tids = set(f.pending)

    def y_writer(f, y_id, t):
        for i in range(20 * SCALE):
            f.write(y_id, TARGETS[i % 3], 0x200000 | i, 1000, 3)

    # Y writes and the reader reads while X goes
    rd = threading.Thread(target=f.reader)
    y_id = reg_agent2(f.fd)[0]
    rd.start()
    yw = threading.Thread(target=y_writer, args=(f, y_id, 0))
    yw.start()
    t0 = time.monotonic()
    unreg_agent(f.fd, x_id)
    took = time.monotonic() - t0
    check(f"agent {x_id} unregistered with {n} requests outstanding",
          took < 5, f"in {took:.2f} s")
    with f.lock:
        for tid in x_tids:
            f.pending.pop(tid, None)
    new_id = reg_agent2(f.fd)[0]
    check("its slot is taken again by a new agent", new_id == x_id,
          f"{new_id} != {x_id}")
    yw.join()
    with f.lock:
        f.writers_done = True
    rd.join()
    # X's requests would have timed out by now (3 s x 3); wait past that
    p = select.poll()
    p.register(f.fd, select.POLLIN)
    while p.poll(max(0, int((t0 + 12 - time.monotonic()) * 1000))):
        f.account(os.read(f.fd, HDR_NEW + MAD_SIZE))
    check("Y's writes all succeeded", f.writes == n + 20 * SCALE and
          not f.errnos, f"{f.writes}, errnos {f.errnos}")
    f.every_request_ended()
    os.close(f.fd)
    hp.end()


def removal_file(path, k):
    f = File(path, f"removal file {k}")
    f.agents_may_go = True

    def writer(f, agent_id, t):
        i = 0
        while f.first_err is None or len(f.after_err) < 5:
            # at most MAX_PENDING requests of the file in flight: each holds
            # an address handle (rxe0 has 32768) and the device's removal
            # waits for every send the MAD layer still has to put out
            with f.lock:
                full = len(f.pending) >= MAX_PENDING
            # (once the reader met the removal, nothing more will end)
            if full and f.first_err is None and f.read_err is None:
                time.sleep(0.005)
                continue
            f.write(agent_id, TARGETS[i % 3], t << 20 | (i & 0xFFFFF), 200, 1)
            i += 1

    f.run(2, writer, until_cut_off=True)
    check(f"{f.name}: {f.writes} writes succeeded before the device went",
          f.writes > 0)
    check(f"{f.name}: the first failed write failed with EIO",
          f.first_err == errno.EIO, abi_check.errname(f.first_err or 0))
    check(f"{f.name}: every later write failed with EIO",
          set(f.after_err) == {errno.EIO}, str(f.errnos))
    check(f"{f.name}: the reader ended with EIO", f.read_err == errno.EIO,
          abi_check.errname(f.read_err or 0))
    print(f"# {f.name}: outcomes before the removal {f.outcomes}, "
          f"{len(f.pending)} dropped with the device", flush=True)
    check(f"{f.name}: nothing read that was not asked for", not f.wrong)
    os.close(f.fd)


def removal(path, ibdev):
    hp = Helpers(path)
    pids = [fork(removal_file, path, k) for k in range(2)]
    time.sleep(2)
    t0 = time.monotonic()
    rc = subprocess.run(["rdma", "link", "delete", ibdev], timeout=120).returncode
    took = time.monotonic() - t0
    check("rdma link delete under the storm", rc == 0 and took < 30,
          f"rc {rc}, {took:.1f} s")
    for k, pid in enumerate(pids):
        reap(pid, f"removal file {k}", 30)
    hp.end()


def main(argv):
    global GID, SCALE
    path, GID = argv[0], gid_bytes(argv[1])
    argv = argv[2:]
    if argv[0] == "--scale":
        SCALE, argv = int(argv[1]), argv[2:]
    while argv:
        part, argv = argv[0], argv[1:]
        t0 = time.monotonic()
        print(f"# part {part}", flush=True)
        if part == "removal":
            removal(path, argv[0])
            argv = argv[1:]
        else:
            {"warmup": warmup, "volume": volume, "storm": storm,
             "close": close,
             "unregister": unregister}[part](path)
        print(f"# part {part}: {time.monotonic() - t0:.1f} s", flush=True)
    return abi_check.exit_status()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
