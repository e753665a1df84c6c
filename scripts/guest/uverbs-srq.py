#!/usr/bin/python3
# scripts/guest/uverbs-srq.py DEVFILE - the SRQ commands of ib_uverbs'
# write() ABI by hand: 6.1's errnos for a PD handle that names no PD, XRC
# and tag-matching types (no XRC domains or SRQ CQs yet), MODIFY_SRQ,
# QUERY_SRQ and DESTROY_SRQ of no SRQ (EINVAL), a request too short
# (ENOSPC); and that an SRQ the driver refuses leaves its PD free. rdma_rxe has no user SRQs yet: it
# answers a user SRQ -EOPNOTSUPP (rings, resize and limit come with them).
# One line per check; exit status 0 when all held.
import errno
import importlib.util
import os
import struct
import sys

_spec = importlib.util.spec_from_file_location(
    "uvw", os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "uverbs-write.py"))
uvw = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(uvw)
check, write, buf, legacy = uvw.check, uvw.write, uvw.buf, uvw.legacy

GET_CONTEXT, ALLOC_PD, DEALLOC_PD = 0, 3, 4
CREATE_SRQ, MODIFY_SRQ, QUERY_SRQ, DESTROY_SRQ, CREATE_XSRQ = 32, 33, 34, 35, 39
SRQT_BASIC, SRQT_XRC, SRQT_TM = 0, 1, 2
NO_HANDLE = 0x7777


def want(what, got, expected):
    check(what, got == expected,
          f"(errno {errno.errorcode.get(got, got)}, want "
          f"{errno.errorcode.get(expected, expected)})")


def alloc_pd(fd):
    err, pd = uvw.alloc_pd(fd)
    check("ALLOC_PD", err == 0, f"(errno {err})")
    return pd


def create_srq(fd, pd, max_wr=16, max_sge=1, limit=0):
    r, addr = buf(16)
    body = struct.pack("<QQIIII", addr, 0x5151, pd, max_wr, max_sge, limit)
    return write(fd, legacy(CREATE_SRQ, body, 16))


def create_xsrq(fd, pd, srq_type):
    r, addr = buf(16)
    body = struct.pack("<QQIIIIIIII", addr, 0x5252, srq_type, pd, 16, 1, 0,
                       0, 0, 0)
    return write(fd, legacy(CREATE_XSRQ, body, 16))


def no_srq(fd):
    body = struct.pack("<IIII", NO_HANDLE, 3, 16, 1)
    want("MODIFY_SRQ of no SRQ: EINVAL",
         write(fd, legacy(MODIFY_SRQ, body, 0)), errno.EINVAL)
    r, addr = buf(16)
    want("QUERY_SRQ of no SRQ: EINVAL",
         write(fd, legacy(QUERY_SRQ, struct.pack("<QII", addr, NO_HANDLE, 0),
                          16)), errno.EINVAL)
    r, addr = buf(4)
    want("DESTROY_SRQ of no SRQ: EINVAL",
         write(fd, legacy(DESTROY_SRQ, struct.pack("<QII", addr, NO_HANDLE, 0),
                          4)), errno.EINVAL)


def main():
    fd = os.open(sys.argv[1], os.O_RDWR)
    async_fd = uvw.open_context(fd)[0]
    pd = alloc_pd(fd)
    want("CREATE_SRQ on no PD: EINVAL", create_srq(fd, NO_HANDLE), errno.EINVAL)
    want("CREATE_XSRQ basic on no PD: EINVAL",
         create_xsrq(fd, NO_HANDLE, SRQT_BASIC), errno.EINVAL)
    want("CREATE_XSRQ XRC: EINVAL", create_xsrq(fd, pd, SRQT_XRC), errno.EINVAL)
    want("CREATE_XSRQ TM: EINVAL", create_xsrq(fd, pd, SRQT_TM), errno.EINVAL)
    r, addr = buf(16)
    want("CREATE_SRQ request too short: ENOSPC",
         write(fd, legacy(CREATE_SRQ, struct.pack("<QQ", addr, 1), 16)),
         errno.ENOSPC)
    # rdma_rxe's user SRQs are to come: until then the driver refuses
    want("CREATE_SRQ on rdma_rxe: EOPNOTSUPP (no user SRQs yet)",
         create_srq(fd, pd), errno.EOPNOTSUPP)
    no_srq(fd)
    want("DEALLOC_PD after the refused SRQs: the PD is free",
         write(fd, legacy(DEALLOC_PD, struct.pack("<I", pd), 0)), 0)
    os.close(async_fd)
    os.close(fd)
    print("result: " + ("FAILED" if uvw.failed else "passed"))
    return 1 if uvw.failed else 0


if __name__ == "__main__":
    sys.exit(main())
