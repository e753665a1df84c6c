#!/usr/bin/python3
# scripts/guest/uverbs-write.py DEVFILE - speak ib_uverbs' write() ABI by
# hand on DEVFILE (/dev/infiniband/uverbsN): the errnos of malformed
# headers, commands in the wrong order, GET_CONTEXT, QUERY_PORT, ALLOC_PD,
# DEALLOC_PD and EX_QUERY_DEVICE answered field by field, a foreign ioctl() ENOTTY,
# then a fixed-seed storm of random writes that may only fail with the
# errnos the ABI has. Prints one line per check; exit status 0 when all
# held. The structs are those of <rdma/ib_user_verbs.h>.
import ctypes
import errno
import fcntl
import mmap
import os
import random
import struct
import sys

import abi_check
from abi_check import buf, check, errname, expect_errno, write

EXT = 0x80000000
GET_CONTEXT, QUERY_DEVICE, QUERY_PORT, ALLOC_PD, DEALLOC_PD = 0, 1, 2, 3, 4
CREATE_CQ = 12
# the real CREATE_CQ and DESTROY_CQ (CREATE_CQ above is a command without a handler)
CMD_CREATE_CQ, CMD_DESTROY_CQ = 18, 20
EX_QUERY_DEVICE = EXT | QUERY_DEVICE
# _IOWR(0x1b, 1, struct ib_uverbs_ioctl_hdr), 24 bytes
RDMA_VERBS_IOCTL = (3 << 30) | (24 << 16) | (0x1b << 8) | 1

def hdr(cmd, in_words, out_words):
    return struct.pack("<IHH", cmd, in_words, out_words)


def expect(fd, what, data, want):
    expect_errno(what, write(fd, data), want)


def legacy(cmd, body, out_bytes):
    return hdr(cmd, (8 + len(body)) // 4, out_bytes // 4) + body


def headers(fd):
    expect(fd, "write shorter than a header", b"\0" * 4, errno.EINVAL)
    expect(fd, "reserved command bits", hdr(0x100 | QUERY_DEVICE, 2, 0),
           errno.EINVAL)
    expect(fd, "command past the table", hdr(0x7f, 2, 0), errno.EOPNOTSUPP)
    expect(fd, "extended command past the table", hdr(EXT | 0x7f, 2, 0),
           errno.EOPNOTSUPP)
    expect(fd, "in_words not the write's length",
           hdr(QUERY_DEVICE, 5, 44) + b"\0" * 8, errno.EINVAL)
    expect(fd, "request shorter than the command",
           hdr(QUERY_PORT, 4, 10) + b"\0" * 8, errno.ENOSPC)
    expect(fd, "response room shorter than the answer",
           legacy(QUERY_DEVICE, b"\0" * 8, 40), errno.ENOSPC)
    expect(fd, "a command not implemented", hdr(CREATE_CQ, 2, 0),
           errno.EOPNOTSUPP)
    r, addr = buf(176)
    expect(fd, "QUERY_DEVICE before GET_CONTEXT",
           legacy(QUERY_DEVICE, struct.pack("<Q", addr), 176), errno.EINVAL)


def get_context(fd):
    r, addr = buf(8)
    expect(fd, "GET_CONTEXT", legacy(GET_CONTEXT, struct.pack("<Q", addr), 8),
           0)
    async_fd, ncomp = struct.unpack("<II", r.raw)
    ok = True
    try:
        fcntl.fcntl(async_fd, fcntl.F_GETFD)
        link = os.readlink(f"/proc/self/fd/{async_fd}")
    except OSError:
        ok, link = False, "?"
    check("async event fd", ok and "infinibandevent" in link,
          f"(fd {async_fd} -> {link}, {ncomp} comp vectors)")
    expect(fd, "a second GET_CONTEXT",
           legacy(GET_CONTEXT, struct.pack("<Q", addr), 8), errno.EINVAL)
    return async_fd


def query_port(fd, port):
    r, addr = buf(40)
    err = write(fd, legacy(QUERY_PORT, struct.pack("<QB7x", addr, port), 40))
    return err, r.raw


def queries(fd):
    err, raw = query_port(fd, 1)
    state, max_mtu, active_mtu = raw[26], raw[27], raw[28]
    link_layer = raw[37]
    check("QUERY_PORT 1", err == 0 and state == 4 and max_mtu == 5 and
          active_mtu == 3 and link_layer == 2,
          f"(state {state}, mtu {max_mtu}/{active_mtu}, link {link_layer})")
    for port in (0, 2):
        err, _ = query_port(fd, port)
        check(f"QUERY_PORT {port}", err == errno.EINVAL, f"(errno {err})")
    r, addr = buf(176)
    err = write(fd, legacy(QUERY_DEVICE, struct.pack("<Q", addr), 176))
    node_guid = struct.unpack_from(">Q", r.raw, 8)[0]
    phys_port_cnt = r.raw[171]
    check("QUERY_DEVICE", err == 0 and phys_port_cnt == 1,
          f"(node_guid {node_guid:016x}, ports {phys_port_cnt})")
    return node_guid


def ex_query(fd, response, in_words=1, reserved=0, body_reserved=0,
             out_words=40):
    ex = struct.pack("<QHHI", response, 0, 0, reserved)
    body = struct.pack("<II", 0, body_reserved)
    return write(fd, hdr(EX_QUERY_DEVICE, in_words, out_words) + ex +
                 body[:in_words * 8])


# sizeof(struct ib_uverbs_ex_query_device_resp) in 6.1
EX_RESP = 304


def ex_queries(fd, node_guid):
    r, addr = buf(40 * 8)
    for words in (26, 40):
        ctypes.memset(addr, 0xff, 40 * 8)
        err = ex_query(fd, addr, out_words=words)
        base_guid = struct.unpack_from(">Q", r.raw, 8)[0]
        resp_len = struct.unpack_from("<I", r.raw, 180)[0]
        want = min(words * 8, EX_RESP)
        # room past the answer is zeroed, past the room left alone
        tail_ok = (r.raw[want:words * 8] == bytes(words * 8 - want) and
                   r.raw[words * 8:] == b"\xff" * (40 * 8 - words * 8))
        check(f"EX_QUERY_DEVICE with {words * 8} bytes of room",
              err == 0 and base_guid == node_guid and resp_len == want and
              tail_ok, f"(errno {err}, response_length {resp_len})")
    check("EX_QUERY_DEVICE reserved header field",
          ex_query(fd, addr, reserved=1) == errno.EINVAL)
    check("EX_QUERY_DEVICE reserved request field",
          ex_query(fd, addr, body_reserved=1) == errno.EINVAL)
    check("EX_QUERY_DEVICE without the request",
          ex_query(fd, addr, in_words=0) == errno.ENOSPC)
    check("EX_QUERY_DEVICE with room but no address",
          ex_query(fd, 0) == errno.EINVAL)
    check("EX_QUERY_DEVICE short response room",
          ex_query(fd, addr, out_words=22) == errno.ENOSPC)


def pds(fd):
    r, addr = buf(4)
    handles = []
    for i in range(3):
        err = write(fd, legacy(ALLOC_PD, struct.pack("<Q", addr), 4))
        handles.append(struct.unpack("<I", r.raw)[0])
        check(f"ALLOC_PD {i}", err == 0, f"(handle {handles[-1]})")
    check("PD handles differ", len(set(handles)) == 3, str(handles))
    dealloc = lambda h: write(fd, legacy(DEALLOC_PD, struct.pack("<I", h), 0))
    check("DEALLOC_PD", dealloc(handles[1]) == 0)
    check("DEALLOC_PD twice", dealloc(handles[1]) == errno.EINVAL)
    check("DEALLOC_PD of no handle", dealloc(12345) == errno.EINVAL)
    # the third PD stays: closing the file must free it
    check("DEALLOC_PD", dealloc(handles[0]) == 0)


def storm(fd, rounds):
    rng = random.Random(14)
    allowed = {0, errno.EINVAL, errno.ENOSPC, errno.EOPNOTSUPP, errno.EFAULT,
               errno.EBUSY, errno.ENOMEM}
    seen = {}
    cmds = [GET_CONTEXT, QUERY_DEVICE, QUERY_PORT, ALLOC_PD, DEALLOC_PD,
            CREATE_CQ, EX_QUERY_DEVICE, EXT | 12, rng.getrandbits(32)]
    for _ in range(rounds):
        n = rng.choice((8, 12, 16, 24, 32, 40, rng.randrange(0, 300)))
        body = bytearray(rng.getrandbits(8) for _ in range(n))
        if n >= 4 and rng.random() < 0.8:
            struct.pack_into("<I", body, 0, rng.choice(cmds))
        if n >= 8 and rng.random() < 0.5:
            struct.pack_into("<H", body, 4, n // 4)
        err = write(fd, bytes(body))
        seen[err] = seen.get(err, 0) + 1
    bad = {k: v for k, v in seen.items() if k not in allowed}
    check(f"{rounds} random writes", not bad,
          "(" + ", ".join(f"{errname(k)} {v}"
                          for k, v in sorted(seen.items())) + ")")


def main():
    fd = os.open(sys.argv[1], os.O_RDWR)
    # RDMA_VERBS_IOCTL is uverbs-ioctl.py's; any other number is not ours
    try:
        fcntl.ioctl(fd, RDMA_VERBS_IOCTL + 1, bytearray(24))
        check("a foreign ioctl() answers ENOTTY", False, "(it succeeded)")
    except OSError as err:
        check("a foreign ioctl() answers ENOTTY", err.errno == errno.ENOTTY,
              f"(errno {err.errno})")
    headers(fd)
    async_fd = get_context(fd)
    node_guid = queries(fd)
    ex_queries(fd, node_guid)
    pds(fd)
    storm(fd, int(sys.argv[2]) if len(sys.argv) > 2 else 2000)
    os.close(async_fd)
    os.close(fd)
    print(f"node_guid {node_guid:016x}")
    return abi_check.exit_status()


# --- shared by the object scripts (uverbs-cq.py, uverbs-srq.py, uverbs-qp.py)

def open_context(fd):
    """GET_CONTEXT, checked: (async event fd, completion vectors)."""
    r, addr = buf(8)
    err = write(fd, legacy(GET_CONTEXT, struct.pack("<Q", addr), 8))
    check("GET_CONTEXT", err == 0, f"(errno {err})")
    return struct.unpack("<II", r.raw)


def alloc_pd(fd):
    """errno, handle of ALLOC_PD."""
    r, addr = buf(4)
    err = write(fd, legacy(ALLOC_PD, struct.pack("<Q", addr), 4))
    return err, struct.unpack("<I", r.raw)[0]


def dealloc_pd(fd, handle):
    return write(fd, legacy(DEALLOC_PD, struct.pack("<I", handle), 0))


def create_cq(fd, cqe, channel=-1, vector=0, handle=0x1234, out=24):
    """errno, (handle, cqe, offset, size) of CREATE_CQ with rxe's response."""
    r, addr = buf(out)
    body = struct.pack("<QQIIiI", addr, handle, cqe, vector, channel, 0)
    err = write(fd, legacy(CMD_CREATE_CQ, body, out))
    h, n = struct.unpack_from("<II", r.raw)
    off, size = (struct.unpack_from("<QI", r.raw, 8) if out >= 24 else (0, 0))
    return err, (h, n, off, size)


def destroy_cq(fd, handle):
    """errno, (comp_events_reported, async_events_reported) of DESTROY_CQ."""
    r, addr = buf(8)
    err = write(fd, legacy(CMD_DESTROY_CQ, struct.pack("<QII", addr, handle, 0), 8))
    return err, struct.unpack("<II", r.raw)


def map_ring(fd, off, size):
    """errno, mapping of one of rxe's rings (mminfo offset and size)."""
    try:
        return 0, mmap.mmap(fd, size, mmap.MAP_SHARED,
                            mmap.PROT_READ | mmap.PROT_WRITE, offset=off)
    except OSError as err:
        return err.errno, None


def ring_header(m):
    """log2_elem_size, index_mask, producer and consumer of a rxe_queue_buf."""
    log2, mask = struct.unpack_from("<II", m, 0)
    prod = struct.unpack_from("<I", m, 128)[0]
    cons = struct.unpack_from("<I", m, 256)[0]
    return log2, mask, prod, cons


# importable: uverbs-mr.py, uverbs-cq.py, uverbs-srq.py, uverbs-qp.py and
# uverbs-ioctl.py use the helpers above
if __name__ == "__main__":
    sys.exit(main())
