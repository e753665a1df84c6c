#!/usr/bin/python3
# scripts/guest/ucma-errno.py IPV4 - speak rdma_ucm's write() ABI by hand on
# /dev/infiniband/rdma_cm: the errno of every malformed header, short
# response buffers, unknown and foreign ids, DESTROY_ID twice, GET_EVENT
# on an empty queue without blocking, bad options, MIGRATE_ID of bad
# descriptors, a write with other credentials than the opener's; and the
# good path of CREATE_ID, BIND_IP, QUERY_ROUTE, QUERY, RESOLVE_IP with its
# ADDR_RESOLVED event (poll() first), MIGRATE_ID and DESTROY_ID's count;
# a listener's CONNECT_REQUEST refused with REJECT, and one never reported
# whose new id goes with the listener's file (both peers see REJECTED).
# IPV4 must be the address of an RDMA device's net device. One line per
# check; exit status 0 when all held. Layouts: <rdma/rdma_user_cm.h>.
import ctypes
import errno
import os
import select
import socket
import struct
import sys

import abi_check
from abi_check import buf, check, write
from abi_check import expect_errno as expect

DEV = "/dev/infiniband/rdma_cm"
(CREATE_ID, DESTROY_ID, BIND_IP, RESOLVE_IP, RESOLVE_ROUTE, QUERY_ROUTE,
 CONNECT, LISTEN, ACCEPT, REJECT, DISCONNECT, INIT_QP_ATTR, GET_EVENT,
 GET_OPTION, SET_OPTION, NOTIFY, JOIN_IP_MCAST, LEAVE_MCAST, MIGRATE_ID,
 QUERY, BIND, RESOLVE_ADDR, JOIN_MCAST) = range(23)
PS_TCP, PS_UDP = 0x0106, 0x0111
EV_ADDR_RESOLVED, EV_ROUTE_RESOLVED, EV_CONNECT_REQUEST = 0, 2, 4
EV_REJECTED = 8
EVENT_RESP, EVENT_MIN = 336, 324
QP_ATTR = 144
ROUTE_RESP, ROUTE_MIN = 208, 200
ADDR_RESP, ADDR_MIN = 280, 272
CONN_PARAM = 272

def cmd(fd, op, body, out=0, in_len=None):
    hdr = struct.pack("<IHH", op, len(body) if in_len is None else in_len, out)
    return write(fd, hdr + body)


def sin6_v4(ip, port=0):
    sin = struct.pack("<H", socket.AF_INET) + struct.pack("!H", port) + \
        socket.inet_aton(ip) + bytes(8)
    return sin + bytes(28 - len(sin))


def create_id(fd, ps=PS_TCP, uid=0x1234):
    b, a = buf(4)
    e = cmd(fd, CREATE_ID, struct.pack("<QQHB5x", uid, a, ps, 0), 4)
    return e, struct.unpack("<I", b.raw)[0]


def destroy_id(fd, cid, out=4):
    b, a = buf(4)
    e = cmd(fd, DESTROY_ID, struct.pack("<QI4x", a, cid), out)
    return e, struct.unpack("<I", b.raw)[0]


def get_event(fd, out=EVENT_RESP):
    b, a = buf(EVENT_RESP)
    e = cmd(fd, GET_EVENT, struct.pack("<Q", a), out)
    return e, struct.unpack_from("<QIII", b.raw)


def set_option(fd, cid, level, optname, val):
    v, a = buf(max(len(val), 1))
    ctypes.memmove(a, val, len(val))
    return cmd(fd, SET_OPTION, struct.pack("<QIIII", a, cid, level, optname,
                                           len(val)))


def headers(fd):
    expect("a write shorter than the header", write(fd, b"\0" * 4), errno.EINVAL)
    expect("command number past the table", cmd(fd, 99, b""), errno.EINVAL)
    expect("GET_OPTION (no handler)", cmd(fd, GET_OPTION, b""), errno.ENOSYS)
    expect("header claims more than written",
           write(fd, struct.pack("<IHH", CREATE_ID, 24, 4) + bytes(8)),
           errno.EINVAL)


def create_destroy(fd):
    _, a = buf(4)
    expect("CREATE_ID response of 2 bytes",
           cmd(fd, CREATE_ID, struct.pack("<QQHB5x", 1, a, PS_TCP, 0), 2),
           errno.ENOSPC)
    expect("CREATE_ID unknown port space",
           cmd(fd, CREATE_ID, struct.pack("<QQHB5x", 1, a, 0x999, 0), 4),
           errno.EINVAL)
    expect("CREATE_ID response to a bad pointer",
           cmd(fd, CREATE_ID, struct.pack("<QQHB5x", 1, 8, PS_TCP, 0), 4),
           errno.EFAULT)
    e, cid = create_id(fd)
    expect("CREATE_ID", e, 0)
    expect("DESTROY_ID response of 0 bytes", destroy_id(fd, cid, 0)[0],
           errno.ENOSPC)
    e, n = destroy_id(fd, cid)
    expect("DESTROY_ID", e, 0)
    check("DESTROY_ID of an id without events reports 0", n == 0, f"({n})")
    expect("DESTROY_ID twice", destroy_id(fd, cid)[0], errno.ENOENT)
    expect("DESTROY_ID of an id never made", destroy_id(fd, 0xfffffff0)[0],
           errno.ENOENT)


def bad_ids(fd, fd2, ip):
    e, cid = create_id(fd)
    e2, other = create_id(fd2)
    expect("BIND_IP on an unknown id",
           cmd(fd, BIND_IP, struct.pack("<Q", 0) + sin6_v4(ip) +
               struct.pack("<I", 0xfffffff0)), errno.ENOENT)
    expect("BIND_IP on another file's id",
           cmd(fd, BIND_IP, struct.pack("<Q", 0) + sin6_v4(ip) +
               struct.pack("<I", other)), errno.EINVAL)
    expect("BIND_IP family 0",
           cmd(fd, BIND_IP, struct.pack("<Q", 0) + bytes(28) +
               struct.pack("<I", cid)), errno.EINVAL)
    expect("RESOLVE_ROUTE on an id on no device",
           cmd(fd, RESOLVE_ROUTE, struct.pack("<II", cid, 100)), errno.EINVAL)
    cp = bytes(CONN_PARAM)
    expect("CONNECT without a valid conn_param",
           cmd(fd, CONNECT, cp + struct.pack("<II", cid, 0) + bytes(8)),
           errno.EINVAL)
    expect("CONNECT shorter than its fixed part",
           cmd(fd, CONNECT, bytes(CONN_PARAM)), errno.EINVAL)
    expect("REJECT with a reason users may not give",
           cmd(fd, REJECT, struct.pack("<IBB2x", cid, 0, 5) + bytes(256)),
           errno.EINVAL)
    _, a = buf(QP_ATTR)
    expect("INIT_QP_ATTR response too short",
           cmd(fd, INIT_QP_ATTR, struct.pack("<QII", a, cid, 2), QP_ATTR - 1),
           errno.ENOSPC)
    expect("INIT_QP_ATTR state past ERR",
           cmd(fd, INIT_QP_ATTR, struct.pack("<QII", a, cid, 99), QP_ATTR),
           errno.EINVAL)
    expect("INIT_QP_ATTR on an id on no device",
           cmd(fd, INIT_QP_ATTR, struct.pack("<QII", a, cid, 2), QP_ATTR),
           errno.EINVAL)
    expect("NOTIFY on an id on no device",
           cmd(fd, NOTIFY, struct.pack("<II", cid, 9)), errno.EINVAL)
    expect("LEAVE_MCAST of an unknown join",
           cmd(fd, LEAVE_MCAST, struct.pack("<QI4x", a, 0xfffffff0), 4),
           errno.ENOENT)
    destroy_id(fd, cid)
    destroy_id(fd2, other)


def options(fd):
    _, cid = create_id(fd)
    expect("SET_OPTION unknown level", set_option(fd, cid, 7, 0, b"\0"),
           errno.ENOSYS)
    expect("SET_OPTION unknown name", set_option(fd, cid, 0, 42, b"\0"),
           errno.ENOSYS)
    expect("SET_OPTION TOS of 4 bytes", set_option(fd, cid, 0, 0, bytes(4)),
           errno.EINVAL)
    expect("SET_OPTION TOS", set_option(fd, cid, 0, 0, b"\x20"), 0)
    expect("SET_OPTION REUSEADDR", set_option(fd, cid, 0, 1,
                                              struct.pack("<i", 1)), 0)
    expect("SET_OPTION ACK_TIMEOUT", set_option(fd, cid, 0, 3, b"\x0e"), 0)
    expect("SET_OPTION IB_PATH of a ragged length",
           set_option(fd, cid, 1, 1, bytes(7)), errno.EINVAL)
    _, a = buf(ADDR_RESP)
    expect("QUERY unknown option",
           cmd(fd, QUERY, struct.pack("<QII", a, cid, 9), ADDR_RESP),
           errno.ENOSYS)
    expect("QUERY ADDR response too short",
           cmd(fd, QUERY, struct.pack("<QII", a, cid, 0), ADDR_MIN - 1),
           errno.ENOSPC)
    _, r = buf(ROUTE_RESP)
    expect("QUERY_ROUTE response too short",
           cmd(fd, QUERY_ROUTE, struct.pack("<QII", r, cid, 0), ROUTE_MIN - 1),
           errno.ENOSPC)
    destroy_id(fd, cid)


def events(fd):
    os.set_blocking(fd, False)
    expect("GET_EVENT non-blocking on an empty queue", get_event(fd)[0],
           errno.EAGAIN)
    os.set_blocking(fd, True)
    expect("GET_EVENT response too short", get_event(fd, EVENT_MIN - 1)[0],
           errno.ENOSPC)
    p = select.poll()
    p.register(fd, select.POLLIN)
    check("poll() on an empty queue is not readable", not p.poll(0))


def good_path(fd, fd2, ip):
    e, cid = create_id(fd, uid=0xfeed)
    expect("BIND_IP to the device's address",
           cmd(fd, BIND_IP, struct.pack("<Q", 0) + sin6_v4(ip) +
               struct.pack("<I", cid)), 0)
    b, a = buf(ROUTE_RESP)
    expect("QUERY_ROUTE", cmd(fd, QUERY_ROUTE, struct.pack("<QII", a, cid, 0),
                              ROUTE_RESP), 0)
    src = b.raw[8 + 128:8 + 128 + 8]
    check("QUERY_ROUTE names the bound address",
          src[4:8] == socket.inet_aton(ip), f"({src.hex()})")
    b, a = buf(ADDR_RESP)
    expect("QUERY ADDR", cmd(fd, QUERY, struct.pack("<QII", a, cid, 0),
                             ADDR_RESP), 0)
    check("QUERY ADDR source size is a sockaddr_in",
          struct.unpack_from("<H", b.raw, 12)[0] == 16)
    expect("RESOLVE_IP to the device's own address",
           cmd(fd, RESOLVE_IP, bytes(28) + sin6_v4(ip) +
               struct.pack("<II", cid, 2000)), 0)
    p = select.poll()
    p.register(fd, select.POLLIN)
    check("poll() wakes for the event", bool(p.poll(5000)))
    e, (uid, eid, ev, status) = get_event(fd)
    expect("GET_EVENT", e, 0)
    check("ADDR_RESOLVED with our uid and id",
          (uid, eid, ev, status) == (0xfeed, cid, EV_ADDR_RESOLVED, 0),
          f"({uid:#x} {eid} {ev} {status})")
    _, qa = buf(QP_ATTR)
    expect("INIT_QP_ATTR INIT once on a device",
           cmd(fd, INIT_QP_ATTR, struct.pack("<QII", qa, cid, 1), QP_ATTR), 0)
    # MIGRATE_ID: bad descriptors, then the id moves to fd2 and back
    _, m = buf(4)
    expect("MIGRATE_ID from a closed descriptor",
           cmd(fd2, MIGRATE_ID, struct.pack("<QII", m, cid, 999)), errno.ENOENT)
    null = os.open("/dev/null", os.O_RDONLY)
    expect("MIGRATE_ID from a file not rdma_cm's",
           cmd(fd2, MIGRATE_ID, struct.pack("<QII", m, cid, null)), errno.EINVAL)
    os.close(null)
    expect("MIGRATE_ID to another file",
           cmd(fd2, MIGRATE_ID, struct.pack("<QII", m, cid, fd)), 0)
    expect("the old file no longer has the id", destroy_id(fd, cid)[0],
           errno.EINVAL)
    e, n = destroy_id(fd2, cid)
    expect("DESTROY_ID on the new file", e, 0)
    check("DESTROY_ID counts the event reported", n == 1, f"({n})")


def wait_event(fd, secs=20):
    """The next event's (uid, id, event, status), None if none came."""
    p = select.poll()
    p.register(fd, select.POLLIN)
    if not p.poll(secs * 1000):
        return None
    e, ev = get_event(fd)
    return ev if e == 0 else None


def connect_to(fd, cid, ip, port):
    """Resolve and send a REQ from @cid; True when it went out."""
    cmd(fd, RESOLVE_IP, bytes(28) + sin6_v4(ip, port) +
        struct.pack("<II", cid, 2000))
    ev = wait_event(fd)
    if not ev or ev[2] != EV_ADDR_RESOLVED:
        return False
    cmd(fd, RESOLVE_ROUTE, struct.pack("<II", cid, 2000))
    ev = wait_event(fd)
    if not ev or ev[2] != EV_ROUTE_RESOLVED:
        return False
    # a user QP number (the kernel never looks it up), 1 read, 7 retries
    conn = struct.pack("<II", 0x123, 0) + bytes(256) + \
        struct.pack("<8B", 0, 0, 1, 1, 0, 7, 7, 1)
    return cmd(fd, CONNECT, conn + struct.pack("<II", cid, 0) + bytes(8)) == 0


def requests(ip, port=7190):
    """A request reported and refused with REJECT; a request never
    reported, whose new id goes when the listener's file closes: both
    peers see REJECTED."""
    fdl = os.open(DEV, os.O_RDWR)
    fdc = os.open(DEV, os.O_RDWR)
    _, lid = create_id(fdl, uid=0x11)
    expect("BIND_IP of a listener",
           cmd(fdl, BIND_IP, struct.pack("<Q", 0) + sin6_v4(ip, port) +
               struct.pack("<I", lid)), 0)
    expect("LISTEN", cmd(fdl, LISTEN, struct.pack("<II", lid, 0)), 0)
    _, c1 = create_id(fdc, uid=0x21)
    check("a REQ sent to the listener", connect_to(fdc, c1, ip, port))
    ev = wait_event(fdl)
    check("CONNECT_REQUEST with the listener's uid and a new id",
          ev is not None and ev[0] == 0x11 and ev[2] == EV_CONNECT_REQUEST
          and ev[1] != lid, f"({ev})")
    if ev:
        expect("REJECT the new id",
               cmd(fdl, REJECT, struct.pack("<IBB2x", ev[1], 3, 0) + b"no!" +
                   bytes(253)), 0)
    ev = wait_event(fdc)
    check("the peer sees REJECTED", ev is not None and ev[:3] ==
          (0x21, c1, EV_REJECTED), f"({ev})")
    _, c2 = create_id(fdc, uid=0x22)
    check("a second REQ sent", connect_to(fdc, c2, ip, port))
    p = select.poll()
    p.register(fdl, select.POLLIN)
    check("the listener's file has the request queued", bool(p.poll(20000)))
    os.close(fdl)
    ev = wait_event(fdc)
    check("its file closed unread, the peer sees REJECTED",
          ev is not None and ev[:3] == (0x22, c2, EV_REJECTED), f"({ev})")
    os.close(fdc)


def foreign_credentials(fd):
    os.set_blocking(fd, False)  # were the check missing: EAGAIN, not a hang
    pid = os.fork()
    if pid == 0:
        os.setgid(65534)
        os.setuid(65534)
        os._exit(cmd(fd, GET_EVENT, struct.pack("<Q", 0), EVENT_RESP))
    _, status = os.waitpid(pid, 0)
    expect("a write with other credentials than the opener's",
           os.waitstatus_to_exitcode(status), errno.EACCES)


def main():
    ip = sys.argv[1]
    fd = os.open(DEV, os.O_RDWR)
    fd2 = os.open(DEV, os.O_RDWR)
    headers(fd)
    create_destroy(fd)
    bad_ids(fd, fd2, ip)
    options(fd)
    events(fd)
    good_path(fd, fd2, ip)
    requests(ip)
    foreign_credentials(fd)
    # ids left on a file go with it
    create_id(fd)
    create_id(fd)
    os.close(fd)
    os.close(fd2)
    print(f"{abi_check.failed} failed", flush=True)
    return abi_check.exit_status()


sys.exit(main())
