#!/usr/bin/python3
# scripts/guest/umad-errno.py UMAD GID ISSM DEV_INDEX - ib_umad's answers
# to bad input, by raw ioctl/read/write on UMAD (a umadN of a RoCE port
# whose GID is GID) and ISSM (its issmN): REGISTER_AGENT(2) with a QPN
# other than 0/1, QP0 on RoCE, bad classes, an OUI of range 2 missing or
# over 24 bits, rmpp_version on a class without RMPP, unknown flags (the
# known ones written back), a 33rd agent; UNREGISTER of ids out of range
# or free; ENABLE_PKEY after an agent; an unknown ioctl; write()s short,
# negative or oversized once the class header is taken off, longer than
# a MAD, for agent ids out of range or free, a duplicate TID; read()s
# shorter than the header or the MAD, O_NONBLOCK on an empty queue,
# poll(); the old header layout; issmN exclusive; GET_CHARDEV "umad" and
# "issm" (the dev_t of the files, ABI 5). One line per check; exit status
# 0 when all held.
import errno
import fcntl
import os
import select
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from umadlib import (HDR_NEW, HDR_OLD, MAD_SIZE, check, enable_pkey,  # noqa: E402
                     expect_errno, gid_bytes, get_chardev, hdr, mad,
                     open_umad, recv, reg_agent, reg_agent2, send,
                     unreg_agent)
import abi_check  # noqa: E402
import umadlib  # noqa: E402

VCLASS, OUI = 0x30, 0x001405
GET, SET = 0x01, 0x02


def registration(path):
    fd = open_umad(path)
    expect_errno("REGISTER_AGENT2 qpn 2", errno.EINVAL, reg_agent2, fd, 0, (), 2)
    expect_errno("REGISTER_AGENT qpn 2", errno.EINVAL, reg_agent, fd, 0, (), 2)
    expect_errno("REGISTER_AGENT2 QP0 on RoCE", errno.EPROTONOSUPPORT,
                 reg_agent2, fd, 0, (), 0)
    expect_errno("REGISTER_AGENT2 class 0x81", errno.EINVAL, reg_agent2, fd,
                 0x81, (GET,))
    expect_errno("REGISTER_AGENT2 an SMP class on QP1", errno.EINVAL,
                 reg_agent2, fd, 0x01, (GET,))
    expect_errno("REGISTER_AGENT2 range 2 without OUI", errno.EINVAL,
                 reg_agent2, fd, VCLASS, (GET,), 1, 0)
    expect_errno("REGISTER_AGENT2 OUI over 24 bits", errno.EINVAL,
                 reg_agent2, fd, VCLASS, (GET,), 1, 0x1000000)
    expect_errno("REGISTER_AGENT2 rmpp_version on a class without RMPP",
                 errno.EINVAL, reg_agent2, fd, 0x09, (GET,), 1, OUI, 1)
    expect_errno("REGISTER_AGENT2 rmpp_version 2", errno.EINVAL,
                 reg_agent2, fd, VCLASS, (GET,), 1, OUI, 2)
    buf = bytearray(40)
    buf[4] = 1
    buf[12] = 0x6  # flags: USER_RMPP and an unknown one
    try:
        fcntl.ioctl(fd, umadlib.REGISTER_AGENT2, buf)
        got = 0
    except OSError as err:
        got = err.errno
    check("REGISTER_AGENT2 unknown flags", got == errno.EINVAL and buf[12] == 1,
          f"errno {got}, flags written back {buf[12]}")
    # 32 agents, then the 33rd
    ids = []
    for _ in range(32):
        ids.append(reg_agent2(fd)[0])
    check("32 agents with ids 0..31", sorted(ids) == list(range(32)), str(ids))
    expect_errno("the 33rd agent", errno.ENOMEM, reg_agent2, fd)
    expect_errno("UNREGISTER id 32", errno.EINVAL, unreg_agent, fd, 32)
    expect_errno("UNREGISTER id 0xffffffff", errno.EINVAL, unreg_agent, fd,
                 0xFFFFFFFF)
    expect_errno("UNREGISTER id 5", 0, unreg_agent, fd, 5)
    expect_errno("UNREGISTER id 5 again", errno.EINVAL, unreg_agent, fd, 5)
    check("the free slot is reused", reg_agent2(fd)[0] == 5)
    expect_errno("ENABLE_PKEY after an agent", errno.EINVAL, enable_pkey, fd)
    expect_errno("an unknown ioctl", errno.ENOTTY, fcntl.ioctl, fd, 0x1B09)
    for i in range(32):
        unreg_agent(fd, i)
    # a class and method another agent holds
    ok = reg_agent2(fd, VCLASS, (GET,), oui=OUI)[0]
    expect_errno("REGISTER_AGENT2 of a taken method", errno.EINVAL,
                 reg_agent2, fd, VCLASS, (GET,), 1, OUI)
    unreg_agent(fd, ok)
    os.close(fd)
    fd = os.open(path, os.O_RDWR)
    expect_errno("REGISTER_AGENT (old layout) of a range 2 class", 0,
                 reg_agent, fd, VCLASS, (SET,))
    expect_errno("ENABLE_PKEY after REGISTER_AGENT", errno.EINVAL,
                 enable_pkey, fd)
    os.close(fd)


def writes(path, gid):
    fd = open_umad(path)
    a_id = reg_agent2(fd)[0]
    good = mad(VCLASS, SET, 1, oui=OUI)
    h = hdr(a_id, gid=gid)
    expect_errno("write shorter than header and RMPP header", errno.EINVAL,
                 send, fd, h, good[:35])
    expect_errno("write of agent id 32", errno.EINVAL, send, fd,
                 hdr(32, gid=gid), good)
    expect_errno("write of agent id 0x80000000", errno.EINVAL, send, fd,
                 hdr(0x80000000, gid=gid), good)
    expect_errno("write of a free agent id", errno.EIO, send, fd,
                 hdr(a_id + 1, gid=gid), good)
    # SA class: a 56-byte class header, but 40 bytes of MAD: negative data
    expect_errno("write with a negative data length", errno.EINVAL, send, fd,
                 h, mad(0x03, GET, 2, size=40))
    expect_errno("write longer than a MAD", errno.EINVAL, send, fd, h,
                 good + bytes(100))
    expect_errno("write of 5 MiB", errno.EINVAL, send, fd, h,
                 good + bytes(5 << 20))
    expect_errno("write of one good MAD", 0, send, fd, h, good)
    # a request in flight, and a second with its TID
    rfd = open_umad(path)
    reg_agent2(rfd, VCLASS, (GET,), oui=OUI)
    req = mad(VCLASS, GET, 0x77, oui=OUI)
    expect_errno("write of a GET with a timeout", 0, send, fd,
                 hdr(a_id, gid=gid, timeout_ms=2000), req)
    expect_errno("write of a second GET with its TID", errno.EINVAL, send, fd,
                 hdr(a_id, gid=gid, timeout_ms=2000), req)
    expect_errno("write of a GET with another TID", 0, send, fd,
                 hdr(a_id, gid=gid, timeout_ms=2000), mad(VCLASS, GET, 0x78, oui=OUI))
    # RoCE needs a GRH: the address handle is refused
    try:
        send(fd, hdr(a_id), good)
        got = 0
    except OSError as err:
        got = err.errno
    check("write without GRH on RoCE fails", got != 0,
          errno.errorcode.get(got, str(got)))
    os.close(rfd)
    os.close(fd)


def reads(path, gid):
    fd = open_umad(path, nonblock=True)
    b_id = reg_agent2(fd, VCLASS, (SET,), oui=OUI)[0]
    expect_errno("read shorter than the header", errno.EINVAL, os.read, fd,
                 HDR_NEW - 1)
    expect_errno("O_NONBLOCK read of an empty queue", errno.EAGAIN, os.read,
                 fd, HDR_NEW + MAD_SIZE)
    p = select.poll()
    p.register(fd, select.POLLIN | select.POLLOUT)
    ev = dict(p.poll(0)).get(fd, 0)
    check("poll: writable, nothing to read",
          ev & select.POLLOUT and not ev & select.POLLIN, hex(ev))
    s = open_umad(path)
    s_id = reg_agent2(s)[0]
    send(s, hdr(s_id, gid=gid), mad(VCLASS, SET, 9, oui=OUI))
    # wait for POLLIN alone: the fd is writable all along
    p.modify(fd, select.POLLIN)
    ev = dict(p.poll(5000)).get(fd, 0)
    check("poll: readable once a MAD arrived", ev & select.POLLIN, hex(ev))
    expect_errno("read shorter than the MAD", errno.EINVAL, os.read, fd,
                 HDR_NEW + 100)
    got = recv(fd, 1)
    check("the MAD is still there after the short read",
          got is not None and got[0]["id"] == b_id)
    os.close(s)
    os.close(fd)
    # the old layout: 56-byte headers both ways
    old = os.open(path, os.O_RDWR)
    o_id = reg_agent(old, VCLASS, (SET,))
    s = open_umad(path)
    s_id = reg_agent2(s)[0]
    send(s, hdr(s_id, gid=gid), mad(VCLASS, SET, 10))
    got = recv(old, 5, size=HDR_OLD + MAD_SIZE, hsize=HDR_OLD)
    check("the old layout reads a 56-byte header",
          got is not None and got[0]["id"] == o_id and
          got[0]["length"] == HDR_OLD + MAD_SIZE and len(got[1]) == MAD_SIZE)
    os.close(s)
    os.close(old)


def issm(path):
    fd = os.open(path, os.O_RDWR)
    check("issm opens", True)
    expect_errno("a second issm open, O_NONBLOCK", errno.EAGAIN, os.open,
                 path, os.O_RDWR | os.O_NONBLOCK)
    os.close(fd)
    fd = os.open(path, os.O_RDWR | os.O_NONBLOCK)
    check("issm opens again once closed", True)
    os.close(fd)


def chardev(dev_index, umad, issm_path):
    for kind, path in (("umad", umad), ("issm", issm_path)):
        try:
            dev, abi, name = get_chardev(dev_index, 1, kind)
            want = os.stat(path).st_rdev
            check(f"GET_CHARDEV {kind}", dev == want and abi == 5 and
                  name == os.path.basename(path),
                  f"{os.major(dev)}:{os.minor(dev)} abi {abi} {name}")
        except OSError as err:
            check(f"GET_CHARDEV {kind}", False, errno.errorcode.get(err.errno))
    expect_errno("GET_CHARDEV umad without a port", errno.EINVAL,
                 get_chardev, dev_index, 0, "umad")
    expect_errno("GET_CHARDEV umad of port 2", errno.EINVAL,
                 get_chardev, dev_index, 2, "umad")


def removal(path, gid, issm_path, ibdev):
    """The device goes while a process holds umadN and issmN open."""
    import subprocess
    import time
    fd = open_umad(path)
    a_id = reg_agent2(fd, VCLASS, (SET,), oui=OUI)[0]
    sm = os.open(issm_path, os.O_RDWR)
    t0 = time.monotonic()
    rc = subprocess.run(["rdma", "link", "delete", ibdev], timeout=60).returncode
    took = time.monotonic() - t0
    check("rdma link delete under open files", rc == 0 and took < 20,
          f"rc {rc}, {took:.1f} s")
    check("umadN is gone", not os.path.exists(path))
    expect_errno("read after removal", errno.EIO, os.read, fd, HDR_NEW + MAD_SIZE)
    expect_errno("write after removal", errno.EIO, send, fd, hdr(a_id, gid=gid),
                 mad(VCLASS, SET, 1, oui=OUI))
    expect_errno("REGISTER_AGENT2 after removal", errno.EPIPE, reg_agent2, fd)
    expect_errno("UNREGISTER after removal", errno.EINVAL, unreg_agent, fd, a_id)
    p = select.poll()
    p.register(fd, select.POLLIN)
    ev = dict(p.poll(0)).get(fd, 0)
    check("poll after removal: POLLERR", ev == select.POLLERR, hex(ev))
    os.close(sm)
    os.close(fd)
    check("closed after removal", True)


def main():
    if sys.argv[1] == "--removal":
        removal(sys.argv[2], gid_bytes(sys.argv[3]), sys.argv[4], sys.argv[5])
        return abi_check.exit_status()
    path, gid, issm_path, dev_index = (sys.argv[1], gid_bytes(sys.argv[2]),
                                       sys.argv[3], int(sys.argv[4]))
    registration(path)
    writes(path, gid)
    reads(path, gid)
    issm(issm_path)
    chardev(dev_index, path, issm_path)
    return abi_check.exit_status()


if __name__ == "__main__":
    sys.exit(main())
