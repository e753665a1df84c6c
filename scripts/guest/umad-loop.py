#!/usr/bin/python3
# scripts/guest/umad-loop.py UMAD_A GID_A [UMAD_B GID_B] - MADs through
# ib_umad by raw read/write/ioctl (no libibumad) on QP1 of a RoCE port:
# a vendor class of range 2 (with OUI) from an agent on one file of
# UMAD_A to an agent on a file of UMAD_B (UMAD_A again when not given),
# addressed to GID_B (with GRH, Q_Key 0x80010000), checked byte by byte
# with the header read() gives; a request nobody answers comes back with
# status ETIMEDOUT; a request the other agent answers gets the response
# with its TID and no timeout after; an RMPP message of several segments
# (the kernel segments and reassembles it for agents with rmpp_version 1)
# arrives whole, after a read() too short for it got ENOSPC with the
# needed length in its header. GIDs as in sysfs (0000:...:c000:020b). One
# line per check; exit status 0 when all held.
import errno
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from umadlib import (HDR_NEW, MAD_SIZE, check, gid_bytes, hdr, mad,  # noqa: E402
                     mad_method, mad_tid, open_umad, recv, reg_agent2, send)
import abi_check  # noqa: E402

VCLASS, RCLASS, OUI = 0x30, 0x31, 0x001405
GET, SET, GET_RESP = 0x01, 0x02, 0x81


def drain(fd):
    while recv(fd, 0.2):
        pass


def loop(a_path, a_gid, b_path, b_gid):
    a = open_umad(a_path)
    b = open_umad(b_path)
    a_id, _ = reg_agent2(a)                       # sends, gets its answers
    b_id, _ = reg_agent2(b, VCLASS, (GET, SET), oui=OUI)
    print(f"# agents: {a_path} {a_id}, {b_path} {b_id}")

    # 1. an unsolicited SET arrives whole
    body = bytes((i * 7 + 3) & 0xFF for i in range(MAD_SIZE - 40))
    out = mad(VCLASS, SET, 0x1234, body=body, oui=OUI)
    send(a, hdr(a_id, gid=b_gid), out)
    got = recv(b)
    check("the SET arrived", got is not None)
    if got:
        h, m = got
        check("its agent id", h["id"] == b_id, str(h["id"]))
        check("its length", h["length"] == HDR_NEW + MAD_SIZE, str(h["length"]))
        check("from QP1", h["qpn"] == 1, str(h["qpn"]))
        check("with GRH from the sender's GID",
              h["grh_present"] == 1 and h["gid"] == a_gid, h["gid"].hex())
        check("its TID's low half", mad_tid(m) & 0xFFFFFFFF == 0x1234,
              hex(mad_tid(m)))
        check("its TID's high half is the sender's agent", mad_tid(m) >> 32 != 0)
        same = m[:8] == out[:8] and m[16:] == out[16:]
        check("every other byte as sent", same and len(m) == MAD_SIZE)

    # 2. a GET nobody answers times out
    t0 = time.monotonic()
    send(a, hdr(a_id, gid=b_gid, timeout_ms=300, retries=1),
         mad(VCLASS, GET, 0x2222, oui=OUI))
    got = recv(a, 5)
    took = time.monotonic() - t0
    check("the unanswered GET came back", got is not None)
    if got:
        h, m = got
        check("with status ETIMEDOUT", h["status"] == errno.ETIMEDOUT,
              str(h["status"]))
        check("with its MAD header", len(m) == 24 and mad_method(m) == GET and
              mad_tid(m) & 0xFFFFFFFF == 0x2222, m.hex())
        check("after its timeout and retry", 0.5 <= took < 4, f"{took:.2f} s")
    seen = 0
    while recv(b, 0.3):
        seen += 1
    check("the GET and its resend reached the other agent", seen == 2, str(seen))

    # 3. a GET answered by the other agent gets its response
    send(a, hdr(a_id, gid=b_gid, timeout_ms=3000, retries=0),
         mad(VCLASS, GET, 0x3333, oui=OUI, body=b"question"))
    got = recv(b)
    check("the GET reached the responder", got is not None)
    if got:
        h, m = got
        tid = mad_tid(m)
        reply = bytearray(m)
        reply[3] = GET_RESP
        reply[40:46] = b"answer"
        send(b, hdr(b_id, gid=bytes(h["gid"]), gid_index=h["gid_index"],
                    qpn=h["qpn"]), bytes(reply))
        got = recv(a)
        check("the response came back", got is not None)
        if got:
            rh, rm = got
            check("as a GET_RESP", mad_method(rm) == GET_RESP, hex(rm[3]))
            check("with the request's TID", mad_tid(rm) == tid, hex(mad_tid(rm)))
            check("and the responder's data", rm[40:46] == b"answer")
            check("from the responder's GID", rh["gid"] == b_gid, rh["gid"].hex())
        check("no timeout follows a matched request", recv(a, 3.5) is None)
    os.close(a)
    os.close(b)


def rmpp(a_path, b_path, b_gid, length=1000):
    """A multi-segment RMPP message between two kernel-RMPP agents."""
    a = open_umad(a_path)
    b = open_umad(b_path)
    a_id, _ = reg_agent2(a, rmpp_version=1)
    b_id, _ = reg_agent2(b, RCLASS, (SET,), oui=OUI, rmpp_version=1)
    data = bytes((i * 13 + 5) & 0xFF for i in range(length))
    # the RMPP header: DATA, ACTIVE; the kernel writes the rest
    m = mad(RCLASS, SET, 0x4444, oui=OUI, body=data,
            size=40 + length, rmpp=(1, 1, 0, 0, 0))
    t0 = time.monotonic()
    send(a, hdr(a_id, gid=b_gid), m)
    want = HDR_NEW + 40 + length
    # too short for the whole message: ENOSPC, the header says how long
    try:
        got = recv(b, 10, size=HDR_NEW + MAD_SIZE)
        check("a short read of an RMPP message fails", False, "(it did not)")
    except OSError as err:
        check("a short read of an RMPP message is ENOSPC",
              err.errno == errno.ENOSPC, errno.errorcode.get(err.errno))
    got = recv(b, 10, size=want + 512)
    check("the RMPP message arrived", got is not None)
    if got:
        h, rm = got
        check("its length", h["length"] == want, f"{h['length']} != {want}")
        check("its agent", h["id"] == b_id)
        check("its data, every byte", rm[40:40 + length] == data,
              f"{len(rm)} bytes read")
        check("its class header", rm[36:40] == m[36:40] and rm[1] == RCLASS)
    print(f"# RMPP {length} bytes in {time.monotonic() - t0:.2f} s")
    os.close(a)
    os.close(b)


def main():
    a_path, a_gid = sys.argv[1], gid_bytes(sys.argv[2])
    if len(sys.argv) > 4:
        b_path, b_gid = sys.argv[3], gid_bytes(sys.argv[4])
    else:
        b_path, b_gid = a_path, a_gid
    loop(a_path, a_gid, b_path, b_gid)
    rmpp(a_path, b_path, b_gid)
    return abi_check.exit_status()


if __name__ == "__main__":
    sys.exit(main())
