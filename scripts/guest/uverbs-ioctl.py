#!/usr/bin/python3
# scripts/guest/uverbs-ioctl.py abi DEVFILE IBDEV [ROUNDS]
#   Speak ib_uverbs' ioctl ABI (RDMA_VERBS_IOCTL) by hand on DEVFILE: every
#   errno of the header and attribute contract libibverbs relies on, each
#   method's happy path with its answers checked against sysfs and the
#   write() commands, the abort of an object whose method failed, then a
#   fixed-seed storm that may only fail with the ABI's errnos: random
#   headers and attribute arrays, and valid calls with one or two fields
#   mutated (a share of those must succeed: the handlers are reached).
# scripts/guest/uverbs-ioctl.py hold DEVFILE READY GO
#   Open DEVFILE and a context through ioctl, create READY, wait for GO (the
#   caller removes the device meanwhile), then check that methods answer EIO
#   and unknown ones still EPROTONOSUPPORT.
# Prints one line per check; exit status 0 when all held. Structs are those
# of <rdma/rdma_user_ioctl_cmds.h> and <rdma/ib_user_ioctl_cmds.h> (6.1).
import ctypes
import errno
import fcntl
import importlib.util
import os
import random
import struct
import sys
import time

import abi_check
from abi_check import buf, check
from abi_check import expect_errno as expect

_here = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "uverbs_write", os.path.join(_here, "uverbs-write.py"))
uw = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(uw)
legacy = uw.legacy

RDMA_VERBS_IOCTL = uw.RDMA_VERBS_IOCTL
DRIVER_RXE = 14                      # enum rdma_driver_id
F_MANDATORY, F_VALID_OUTPUT = 1, 2   # UVERBS_ATTR_F_*
UHW_IN, UHW_OUT = 0x1000, 0x1001
# objects and methods
O_DEVICE, O_PD, O_CQ, O_ASYNC = 0, 1, 3, 16
M_INVOKE_WRITE, M_INFO_HANDLES, M_QUERY_PORT, M_GET_CONTEXT = 0, 1, 2, 3
M_QUERY_CONTEXT, M_GID_TABLE, M_GID_ENTRY = 4, 5, 6
M_PD_DESTROY = M_ASYNC_ALLOC = 0
# attribute ids per method
A_CORE_IN, A_CORE_OUT, A_WRITE_CMD = 0, 1, 2
A_INFO_OBJ, A_INFO_TOTAL, A_INFO_LIST = 0, 1, 2
A_PORT_NUM, A_PORT_RESP = 0, 1
A_NCOMP, A_CORE_SUPPORT = 0, 1
A_GT_ESIZE, A_GT_FLAGS, A_GT_ENTRIES, A_GT_NUM = 0, 1, 2, 3
A_GE_PORT, A_GE_INDEX, A_GE_FLAGS, A_GE_ENTRY = 0, 1, 2, 3
A_HANDLE = 0
PORT_RESP_EX = 48                    # struct ib_uverbs_query_port_resp_ex
GID_ENTRY = 32                       # struct ib_uverbs_gid_entry
GID_TYPES = {"IB/RoCE v1": 1, "RoCE v2": 2}
ERR = errno.errorcode


def attr(aid, data=0, length=0, flags=0, reserved=0):
    return [aid, length, flags, reserved, data]


def const(aid, value, flags=F_MANDATORY):
    return attr(aid, value, 8, flags)


def out(aid, b, length=None, flags=F_MANDATORY):
    return attr(aid, ctypes.addressof(b), len(b) if length is None else length,
                flags)


def ioctl(fd, obj, meth, attrs, driver_id=DRIVER_RXE,
          length=None, num=None, res1=0, res2=0, cmd=RDMA_VERBS_IOCTL):
    """Returns (errno, the attribute array as the kernel left it)."""
    n = len(attrs) if num is None else num
    if length is None:
        length = 24 + 16 * n
    data = bytearray(struct.pack("<HHHHQII", length, obj, meth, n, res1,
                                 driver_id, res2))
    for a in attrs:
        data += struct.pack("<HHHHQ", a[0], a[1], a[2], a[3],
                            a[4] & 0xffffffffffffffff)
    # the kernel may write into every attribute the header counts: own them
    data += bytes(max(0, 24 + 16 * n - len(data)))
    try:
        fcntl.ioctl(fd, cmd, data, True)
        err = 0
    except OSError as e:
        err = e.errno
    got = [list(struct.unpack_from("<HHHHq", data, 24 + 16 * i))
           for i in range(len(attrs))]
    return err, got


def written(a):
    return bool(a[2] & F_VALID_OUTPUT)


def write_query_port(fd):
    err, raw = uw.query_port(fd, 1)
    return raw if err == 0 else None


# ---- the contract -----------------------------------------------------------

def header_errnos(fd):
    r = ctypes.create_string_buffer(PORT_RESP_EX)
    qp = [const(A_PORT_NUM, 1), out(A_PORT_RESP, r)]
    expect("an ioctl number not ours",
           ioctl(fd, 0, 0, [], cmd=RDMA_VERBS_IOCTL + 1)[0], errno.ENOTTY)
    expect("length not header plus attributes",
           ioctl(fd, O_DEVICE, M_QUERY_PORT, qp, length=24 + 16)[0],
           errno.EINVAL)
    expect("length over a page",
           ioctl(fd, O_DEVICE, M_QUERY_PORT, qp * 128)[0], errno.EINVAL)
    expect("reserved1 set", ioctl(fd, O_DEVICE, M_QUERY_PORT, qp, res1=1)[0],
           errno.EPROTONOSUPPORT)
    expect("reserved2 set", ioctl(fd, O_DEVICE, M_QUERY_PORT, qp, res2=1)[0],
           errno.EPROTONOSUPPORT)
    expect("another driver's id",
           ioctl(fd, O_DEVICE, M_QUERY_PORT, qp, driver_id=1)[0], errno.EINVAL)
    expect("an object we do not have (CQ_CREATE)",
           ioctl(fd, O_CQ, 0, [])[0], errno.EPROTONOSUPPORT)
    expect("a driver-namespace object", ioctl(fd, 0x1000, 0, [])[0],
           errno.EPROTONOSUPPORT)
    expect("a device method we do not have", ioctl(fd, O_DEVICE, 7, [])[0],
           errno.EPROTONOSUPPORT)
    expect("libibverbs' INVOKE_WRITE probe (bare QUERY_DEVICE)",
           ioctl(fd, O_DEVICE, M_INVOKE_WRITE,
                 [const(A_WRITE_CMD, uw.QUERY_DEVICE)])[0], errno.ENOSPC)
    expect("QUERY_PORT before a context", ioctl(fd, O_DEVICE, M_QUERY_PORT,
                                                qp)[0], errno.EINVAL)
    expect("ASYNC_EVENT_ALLOC before a context",
           ioctl(fd, O_ASYNC, M_ASYNC_ALLOC, [attr(A_HANDLE, 0)])[0],
           errno.EINVAL)


def attr_errnos(fd):
    r = ctypes.create_string_buffer(64)
    port = const(A_PORT_NUM, 1)
    resp = out(A_PORT_RESP, r, PORT_RESP_EX)
    q = lambda attrs: ioctl(fd, O_DEVICE, M_QUERY_PORT, attrs)[0]
    expect("an unknown attribute without MANDATORY is ignored",
           q([port, resp, attr(0x55, 7, 8)]), 0)
    expect("an unknown attribute with MANDATORY",
           q([port, resp, attr(0x55, 7, 8, F_MANDATORY)]),
           errno.EPROTONOSUPPORT)
    expect("UHW_IN on a method without driver data, MANDATORY",
           q([port, resp, attr(UHW_IN, 0, 0, F_MANDATORY)]),
           errno.EPROTONOSUPPORT)
    expect("an attribute sent twice", q([port, resp, port]), errno.EINVAL)
    expect("a mandatory attribute missing", q([port]), errno.EINVAL)
    expect("PTR_OUT shorter than its struct",
           q([port, out(A_PORT_RESP, r, 40)]), errno.EINVAL)
    expect("PTR_OUT with attr_data.reserved set",
           q([port, attr(A_PORT_RESP, ctypes.addressof(r), PORT_RESP_EX,
                         F_MANDATORY, 1)]), errno.EINVAL)
    expect("CONST_IN of 4 bytes", q([attr(A_PORT_NUM, 1, 4), resp]),
           errno.EINVAL)
    expect("CONST_IN over its type (port 256)", q([const(A_PORT_NUM, 256),
                                                   resp]), errno.EINVAL)
    expect("CONST_IN with attr_data.reserved set",
           q([attr(A_PORT_NUM, 1, 8, 0, 1), resp]), errno.EINVAL)
    expect("QUERY_PORT of port 0", q([const(A_PORT_NUM, 0), resp]),
           errno.EINVAL)
    expect("QUERY_PORT of port 2", q([const(A_PORT_NUM, 2), resp]),
           errno.EINVAL)
    n = ctypes.create_string_buffer(8)
    expect("fixed-size PTR_OUT longer than its type (u32 in 8 bytes)",
           ioctl(fd, O_DEVICE, M_GET_CONTEXT, [out(A_NCOMP, n, 8)])[0],
           errno.EINVAL)
    e = ctypes.create_string_buffer(GID_ENTRY)
    ge = lambda flags: ioctl(fd, O_DEVICE, M_GID_ENTRY, [
        const(A_GE_PORT, 1), const(A_GE_INDEX, 0), flags,
        out(A_GE_ENTRY, e)])[0]
    expect("FLAGS_IN of 6 bytes", ge(attr(A_GE_FLAGS, 0, 6, F_MANDATORY)),
           errno.EINVAL)
    expect("FLAGS_IN with an unknown bit",
           ge(attr(A_GE_FLAGS, 1, 4, F_MANDATORY)), errno.EINVAL)
    expect("FLAGS_IN of 8 bytes, no bits", ge(attr(A_GE_FLAGS, 0, 8,
                                                   F_MANDATORY)), 0)
    d = lambda a: ioctl(fd, O_PD, M_PD_DESTROY, [a])[0]
    expect("IDR with a length", d(attr(A_HANDLE, 0, 4, F_MANDATORY)),
           errno.EINVAL)
    expect("IDR with a negative handle", d(attr(A_HANDLE, -1, 0,
                                                F_MANDATORY)), errno.EINVAL)
    expect("IDR of no object", d(attr(A_HANDLE, 4000, 0, F_MANDATORY)),
           errno.ENOENT)
    expect("IDR beyond 32 bits", d(attr(A_HANDLE, 1 << 40, 0, F_MANDATORY)),
           errno.ENOENT)
    expect("QUERY_CONTEXT on rxe (no query_ucontext, as 6.1)",
           ioctl(fd, O_DEVICE, M_QUERY_CONTEXT, [])[0], errno.EOPNOTSUPP)


# ---- the methods ------------------------------------------------------------

def get_context(fd):
    n, c = ctypes.create_string_buffer(4), ctypes.create_string_buffer(8)
    err, got = ioctl(fd, O_DEVICE, M_GET_CONTEXT,
                     [out(A_NCOMP, n, flags=0), out(A_CORE_SUPPORT, c,
                                                    flags=0)])
    ncomp = struct.unpack("<I", n.raw)[0]
    core = struct.unpack("<Q", c.raw)[0]
    check("GET_CONTEXT", err == 0 and ncomp >= 1 and core == 1 and
          written(got[0]) and written(got[1]),
          f"(errno {err}, {ncomp} comp vectors, core support {core:#x})")
    expect("a second GET_CONTEXT", ioctl(fd, O_DEVICE, M_GET_CONTEXT, [])[0],
           errno.EINVAL)
    r, addr = buf(8)
    expect("GET_CONTEXT through write() after the ioctl one",
           uw.write(fd, legacy(uw.GET_CONTEXT, struct.pack("<Q", addr), 8)),
           errno.EINVAL)


def async_alloc(fd):
    err, got = ioctl(fd, O_ASYNC, M_ASYNC_ALLOC,
                     [attr(A_HANDLE, 0, 0, F_MANDATORY)])
    afd = got[0][4]
    try:
        link = os.readlink(f"/proc/self/fd/{afd}")
        cloexec = fcntl.fcntl(afd, fcntl.F_GETFD) & fcntl.FD_CLOEXEC
    except OSError:
        link, cloexec = "?", 0
    check("ASYNC_EVENT_ALLOC", err == 0 and "infinibandevent" in link and
          cloexec, f"(errno {err}, fd {afd} -> {link})")
    # aborted: the fd reserved for it must not stay open
    before = len(os.listdir("/proc/self/fd"))
    err, got = ioctl(fd, O_ASYNC, M_ASYNC_ALLOC,
                     [attr(A_HANDLE, 0, 0, F_MANDATORY),
                      attr(9, 0, 0, F_MANDATORY)])
    after = len(os.listdir("/proc/self/fd"))
    check("ASYNC_EVENT_ALLOC that fails after its fd was reserved",
          err == errno.EPROTONOSUPPORT and before == after,
          f"(errno {ERR.get(err, err)}, fds {before} -> {after})")
    return afd


def query_port(fd):
    r = ctypes.create_string_buffer(64)
    ctypes.memset(r, 0xff, 64)
    err, got = ioctl(fd, O_DEVICE, M_QUERY_PORT,
                     [const(A_PORT_NUM, 1), out(A_PORT_RESP, r)])
    legacy_raw = write_query_port(fd)
    same = legacy_raw is not None and r.raw[:40] == legacy_raw[:40]
    check("QUERY_PORT: the legacy part is write()'s answer",
          err == 0 and same and written(got[1]), f"(errno {err})")
    check("QUERY_PORT: room past resp_ex zeroed", r.raw[PORT_RESP_EX:64] ==
          bytes(64 - PORT_RESP_EX))
    check("QUERY_PORT: port state ACTIVE, link layer Ethernet",
          r.raw[26] == 4 and r.raw[37] == 2, f"({r.raw[26]}, {r.raw[37]})")


def sysfs_gids(ibdev):
    base = f"/sys/class/infiniband/{ibdev}/ports/1"
    want = {}
    for name in os.listdir(f"{base}/gids"):
        with open(f"{base}/gids/{name}") as f:
            gid = bytes.fromhex(f.read().strip().replace(":", ""))
        if gid == bytes(16):
            continue
        try:
            with open(f"{base}/gid_attrs/types/{name}") as f:
                gtype = GID_TYPES.get(f.read().strip(), -1)
            with open(f"{base}/gid_attrs/ndevs/{name}") as f:
                ndev = f.read().strip()
            with open(f"/sys/class/net/{ndev}/ifindex") as f:
                ifindex = int(f.read())
        except OSError:
            gtype, ifindex = -1, -1
        want[int(name)] = (gid, gtype, ifindex)
    return want


def gid_entry_tuple(raw):
    index, port, gtype, ifindex = struct.unpack_from("<IIII", raw, 16)
    return index, port, (raw[:16], gtype, ifindex)


def gid_table(fd, ibdev):
    want = sysfs_gids(ibdev)
    tbl = len(os.listdir(f"/sys/class/infiniband/{ibdev}/ports/1/gids"))
    for esize in (GID_ENTRY, 40, 24):
        room = ctypes.create_string_buffer(esize * tbl)
        ctypes.memset(room, 0xee, esize * tbl)
        num = ctypes.create_string_buffer(8)
        err, got = ioctl(fd, O_DEVICE, M_GID_TABLE, [
            const(A_GT_ESIZE, esize), out(A_GT_ENTRIES, room),
            out(A_GT_NUM, num)])
        n = struct.unpack("<Q", num.raw)[0]
        seen, ok = {}, err == 0 and n == len(want) and written(got[1])
        for i in range(n if err == 0 else 0):
            raw = room.raw[i * esize:(i + 1) * esize]
            if esize > GID_ENTRY:
                ok &= raw[GID_ENTRY:] == bytes(esize - GID_ENTRY)
            full = raw + bytes(max(0, GID_ENTRY - esize))
            index, port, val = gid_entry_tuple(full)
            if esize < GID_ENTRY:
                val = val[0]
                ok &= want.get(index, (None,))[0] == val and port == 1
            else:
                ok &= want.get(index) == val and port == 1
            seen[index] = val
        check(f"QUERY_GID_TABLE with {esize}-byte entries = sysfs ports/1/gids",
              ok and set(seen) == set(want),
              f"(errno {err}, {n} entries, sysfs {sorted(want)})")
    room = ctypes.create_string_buffer(GID_ENTRY * 2)
    num = ctypes.create_string_buffer(8)
    t = lambda *a: ioctl(fd, O_DEVICE, M_GID_TABLE, list(a))[0]
    expect("QUERY_GID_TABLE entry size 0",
           t(const(A_GT_ESIZE, 0), out(A_GT_ENTRIES, room),
             out(A_GT_NUM, num)), errno.EINVAL)
    expect("QUERY_GID_TABLE room not a multiple of the entry size",
           t(const(A_GT_ESIZE, GID_ENTRY), out(A_GT_ENTRIES, room, 40),
             out(A_GT_NUM, num)), errno.EINVAL)
    expect("QUERY_GID_TABLE with flags", t(
        const(A_GT_ESIZE, GID_ENTRY), attr(A_GT_FLAGS, 1, 4),
        out(A_GT_ENTRIES, room), out(A_GT_NUM, num)), errno.EINVAL)
    if len(want) > 1:
        expect("QUERY_GID_TABLE room for fewer entries than there are",
               t(const(A_GT_ESIZE, GID_ENTRY),
                 out(A_GT_ENTRIES, room, GID_ENTRY),
                 out(A_GT_NUM, num)), errno.EINVAL)
    return want


def gid_entry(fd, want):
    for index, val in sorted(want.items()):
        e = ctypes.create_string_buffer(48)
        ctypes.memset(e, 0xee, 48)
        err, got = ioctl(fd, O_DEVICE, M_GID_ENTRY, [
            const(A_GE_PORT, 1), const(A_GE_INDEX, index),
            attr(A_GE_FLAGS, 0, 4, F_MANDATORY), out(A_GE_ENTRY, e)])
        gi, port, gval = gid_entry_tuple(e.raw)
        check(f"QUERY_GID_ENTRY port 1 index {index} = sysfs",
              err == 0 and gi == index and port == 1 and gval == val and
              e.raw[GID_ENTRY:] == bytes(16) and written(got[3]),
              f"(errno {err}, gid {gval[0].hex()}, type {gval[1]}, "
              f"ifindex {gval[2]})")
    e = ctypes.create_string_buffer(GID_ENTRY)
    g = lambda port, index: ioctl(fd, O_DEVICE, M_GID_ENTRY, [
        const(A_GE_PORT, port), const(A_GE_INDEX, index),
        attr(A_GE_FLAGS, 0, 4, F_MANDATORY), out(A_GE_ENTRY, e)])[0]
    expect("QUERY_GID_ENTRY of port 2", g(2, 0), errno.EINVAL)
    expect("QUERY_GID_ENTRY past the table", g(1, 100000), errno.EINVAL)
    # an empty slot: ENODATA, which ibv_devinfo skips
    empty = [i for i in range(max(want) + 2) if i not in want]
    expect(f"QUERY_GID_ENTRY of empty index {empty[0]}", g(1, empty[0]),
           errno.ENODATA)


def invoke_write(fd, ibdev):
    # QUERY_DEVICE: CORE_IN is the legacy struct (its response u64 unused)
    r = ctypes.create_string_buffer(176)
    w = lambda cmd, core_in, core_out, extra=(): ioctl(
        fd, O_DEVICE, M_INVOKE_WRITE,
        [const(A_WRITE_CMD, cmd), attr(A_CORE_IN, 0, core_in)] +
        ([out(A_CORE_OUT, r, core_out, 0)] if core_out else []) + list(extra))
    err, got = w(uw.QUERY_DEVICE, 8, 176)
    guid = struct.unpack_from(">Q", r.raw, 8)[0]
    with open(f"/sys/class/infiniband/{ibdev}/node_guid") as f:
        sys_guid = int(f.read().strip().replace(":", ""), 16)
    check("INVOKE_WRITE QUERY_DEVICE", err == 0 and guid == sys_guid and
          r.raw[171] == 1 and written(got[2]),
          f"(errno {err}, node_guid {guid:016x}, sysfs {sys_guid:016x})")
    expect("INVOKE_WRITE with short response room",
           w(uw.QUERY_DEVICE, 8, 40)[0], errno.ENOSPC)
    expect("INVOKE_WRITE with CORE_IN under 4 bytes",
           w(uw.QUERY_DEVICE, 2, 176)[0], errno.EINVAL)
    expect("INVOKE_WRITE of a number past the table", w(0x7f, 8, 176)[0],
           errno.EOPNOTSUPP)
    expect("INVOKE_WRITE with reserved command bits",
           w(0x100 | uw.QUERY_DEVICE, 8, 176)[0], errno.EINVAL)
    # the extended command: response_length says how much we got
    rx = ctypes.create_string_buffer(320)
    err, got = ioctl(fd, O_DEVICE, M_INVOKE_WRITE, [
        const(A_WRITE_CMD, uw.EX_QUERY_DEVICE), attr(A_CORE_IN, 0, 8),
        out(A_CORE_OUT, rx, 320, 0)])
    rlen = struct.unpack_from("<I", rx.raw, 180)[0] if err == 0 else -1
    check("INVOKE_WRITE EX_QUERY_DEVICE", err == 0 and rlen == uw.EX_RESP and
          struct.unpack_from(">Q", rx.raw, 8)[0] == sys_guid and
          rx.raw[uw.EX_RESP:] == bytes(320 - uw.EX_RESP),
          f"(errno {err}, response_length {rlen})")


def alloc_pd(fd):
    r = ctypes.create_string_buffer(4)
    err, _ = ioctl(fd, O_DEVICE, M_INVOKE_WRITE, [
        const(A_WRITE_CMD, uw.ALLOC_PD), attr(A_CORE_IN, 0, 8),
        out(A_CORE_OUT, r, 4, 0)])
    return err, struct.unpack("<I", r.raw)[0]


def pds_and_handles(fd):
    made = [alloc_pd(fd) for _ in range(3)]
    handles = [h for err, h in made if err == 0]
    check("INVOKE_WRITE ALLOC_PD x3", len(handles) == 3, str(made))
    lst, tot = ctypes.create_string_buffer(64), ctypes.create_string_buffer(4)
    info = lambda obj, room: ioctl(fd, O_DEVICE, M_INFO_HANDLES, [
        const(A_INFO_OBJ, obj), out(A_INFO_TOTAL, tot, 4, 0),
        out(A_INFO_LIST, lst, room, 0)])
    err, got = info(O_PD, 64)
    total = struct.unpack("<I", tot.raw)[0]
    listed = sorted(struct.unpack_from(f"<{total}I", lst.raw)) if \
        err == 0 and total <= 16 else []
    check("INFO_HANDLES of PDs", err == 0 and listed == sorted(handles) and
          written(got[1]) and written(got[2]),
          f"(errno {err}, {listed}, made {handles})")
    err, _ = info(O_PD, 8)
    check("INFO_HANDLES with room for 2 of 3", err == 0 and
          struct.unpack("<I", tot.raw)[0] == 2, f"(errno {err})")
    expect("INFO_HANDLES of an object we do not have", info(0x99, 64)[0],
           errno.ENOENT)
    expect("INFO_HANDLES with room not a multiple of 4", info(O_PD, 6)[0],
           errno.EINVAL)
    d = lambda h: ioctl(fd, O_PD, M_PD_DESTROY,
                        [attr(A_HANDLE, h, 0, F_MANDATORY)])[0]
    expect("PD_DESTROY", d(handles[0]), 0)
    expect("PD_DESTROY of the same handle again", d(handles[0]),
           errno.ENOENT)
    expect("DEALLOC_PD through write() after PD_DESTROY",
           uw.write(fd, legacy(uw.DEALLOC_PD,
                               struct.pack("<I", handles[0]), 0)),
           errno.EINVAL)
    expect("PD_DESTROY", d(handles[1]), 0)
    err, got = info(O_PD, 64)
    check("INFO_HANDLES after two PD_DESTROYs", err == 0 and
          struct.unpack("<I", tot.raw)[0] == 1, f"(errno {err})")
    # handles[2] stays: closing the file frees it


def storm_valid(rng, scratch):
    """A call the kernel accepts as it stands: (object, method, attrs)."""
    base = ctypes.addressof(scratch)
    big = lambda aid, n: attr(aid, base, n, F_MANDATORY)
    return rng.choice([
        (O_DEVICE, M_QUERY_PORT, [const(A_PORT_NUM, 1),
                                  big(A_PORT_RESP, PORT_RESP_EX)]),
        (O_DEVICE, M_GID_ENTRY, [const(A_GE_PORT, 1),
                                 const(A_GE_INDEX, rng.randrange(2)),
                                 attr(A_GE_FLAGS, 0, 4, F_MANDATORY),
                                 big(A_GE_ENTRY, GID_ENTRY)]),
        (O_DEVICE, M_GID_TABLE, [const(A_GT_ESIZE, GID_ENTRY),
                                 big(A_GT_ENTRIES, GID_ENTRY * 8),
                                 attr(A_GT_NUM, base + 4096, 8,
                                      F_MANDATORY)]),
        (O_DEVICE, M_INFO_HANDLES, [const(A_INFO_OBJ, O_PD),
                                    attr(A_INFO_TOTAL, base + 4096, 4, 0),
                                    attr(A_INFO_LIST, base, 64, 0)]),
        (O_DEVICE, M_INVOKE_WRITE, [const(A_WRITE_CMD, uw.QUERY_DEVICE),
                                    attr(A_CORE_IN, 0, 8),
                                    attr(A_CORE_OUT, base, 176, 0)]),
    ])


def storm_mutate(rng, attrs, base):
    """One change to a valid call: a field of an attribute at an edge, an
    attribute dropped, repeated or made up."""
    bad = [0, 8, 0xffff888000000000, 0xfffffffffffff000]
    how = rng.randrange(6)
    if not attrs or how == 0:
        attrs.append(attr(rng.randrange(8), base, rng.choice([0, 4, 8, 64]),
                          rng.randrange(4)))
        return
    i = rng.randrange(len(attrs))
    if how == 1:
        del attrs[i]
    elif how == 2:
        attrs.append(list(attrs[i]))
    elif how == 3:
        # never past the scratch buffer: the kernel may write that far
        attrs[i][1] = rng.choice([0, 1, 3, 4, 7, 9, 4095])
    elif how == 4:
        attrs[i][4] = rng.choice(bad + [rng.randrange(1 << 64)])
    else:
        attrs[i][2] ^= 1 << rng.randrange(16)


def storm(fd, rounds):
    """Random ioctls from a fixed seed: half are wholly random headers and
    attribute arrays, half valid calls with one mutation, so that both the
    parser and the handlers behind it see hostile input. Every answer must
    be a documented errno, and a share of the valid-based calls must
    succeed (else the storm never got past the parser)."""
    rng = random.Random(113)
    scratch = ctypes.create_string_buffer(8192)
    base = ctypes.addressof(scratch)
    bad = [0, 8, 0xffff888000000000, 0xfffffffffffff000]
    allowed = {0, errno.EINVAL, errno.EPROTONOSUPPORT, errno.EOPNOTSUPP,
               errno.ENOSPC, errno.EFAULT, errno.ENOENT, errno.EBUSY,
               errno.ENOMEM, errno.ENODATA}
    seen, fds, handled = {}, [], 0
    for r in range(rounds):
        kw = {}
        if r % 2:
            obj, meth, attrs = storm_valid(rng, scratch)
            for _ in range(rng.randrange(3)):
                storm_mutate(rng, attrs, base)
        else:
            attrs = []
            for _ in range(rng.randint(0, 6)):
                aid = rng.choice([0, 1, 2, 3, 4, UHW_IN, UHW_OUT,
                                  rng.randrange(65536)])
                length = rng.choice([0, 1, 4, 8, 9, 16, 32, 48, 176,
                                     rng.randrange(4096)])
                data = rng.choice([rng.randrange(1 << 64), base,
                                   base + rng.randrange(4096), rng.choice(bad),
                                   rng.randrange(8)])
                attrs.append(attr(aid, data, length, rng.randrange(4),
                                  rng.choice([0, 0, 0, 1, 0x100])))
            if rng.random() < 0.1:
                kw["length"] = rng.randrange(65536)
            if rng.random() < 0.05:
                kw["num"] = rng.randrange(300)
            if rng.random() < 0.05:
                kw["res1"] = 1
            if rng.random() < 0.05:
                kw["driver_id"] = rng.randrange(20)
            obj = rng.choice([O_DEVICE, O_DEVICE, O_PD, O_ASYNC, O_CQ,
                              rng.randrange(20)])
            meth = rng.randrange(9)
        err, got = ioctl(fd, obj, meth, attrs, **kw)
        seen[err] = seen.get(err, 0) + 1
        if err == 0 and r % 2:
            handled += 1
        if err == 0 and obj == O_ASYNC:
            fds += [a[4] for a in got if a[0] == A_HANDLE and a[4] > 2]
    for afd in fds:
        try:
            os.close(afd)
        except OSError:
            pass
    bad_seen = {k: v for k, v in seen.items() if k not in allowed}
    check(f"{rounds} random ioctls", not bad_seen,
          "(" + ", ".join(f"{ERR.get(k, k)} {v}"
                          for k, v in sorted(seen.items())) + ")")
    check("random ioctls built on valid calls reach the handlers",
          handled >= rounds // 20, f"({handled} of {rounds // 2} succeeded)")


def abi(devfile, ibdev, rounds):
    fd = os.open(devfile, os.O_RDWR)
    header_errnos(fd)
    get_context(fd)
    afd = async_alloc(fd)
    attr_errnos(fd)
    query_port(fd)
    want = gid_table(fd, ibdev)
    gid_entry(fd, want)
    invoke_write(fd, ibdev)
    pds_and_handles(fd)
    storm(fd, rounds)
    os.close(afd)
    os.close(fd)


def hold(devfile, ready, go):
    fd = os.open(devfile, os.O_RDWR)
    err, _ = ioctl(fd, O_DEVICE, M_GET_CONTEXT, [])
    check("hold: GET_CONTEXT", err == 0, f"(errno {err})")
    open(ready, "w").close()
    while not os.path.exists(go):
        time.sleep(0.1)
    r = ctypes.create_string_buffer(PORT_RESP_EX)
    expect("after removal: QUERY_PORT", ioctl(fd, O_DEVICE, M_QUERY_PORT, [
        const(A_PORT_NUM, 1), out(A_PORT_RESP, r)])[0], errno.EIO)
    expect("after removal: INVOKE_WRITE", ioctl(fd, O_DEVICE, M_INVOKE_WRITE, [
        const(A_WRITE_CMD, uw.QUERY_DEVICE)])[0], errno.EIO)
    expect("after removal: an unknown method", ioctl(fd, O_CQ, 0, [])[0],
           errno.EPROTONOSUPPORT)
    expect("after removal: a bad header", ioctl(fd, O_DEVICE, 0, [],
                                                length=23)[0], errno.EINVAL)
    os.close(fd)


def main():
    what = sys.argv[1]
    if what == "abi":
        abi(sys.argv[2], sys.argv[3],
            int(sys.argv[4]) if len(sys.argv) > 4 else 2000)
    elif what == "hold":
        hold(sys.argv[2], sys.argv[3], sys.argv[4])
    return abi_check.exit_status()


if __name__ == "__main__":
    sys.exit(main())
