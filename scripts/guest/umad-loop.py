#!/usr/bin/python3
# scripts/guest/umad-loop.py - MADs through ib_umad by raw read/write/ioctl
# (no libibumad) on QP1 of a RoCE port, between an asking end and an
# answering end, each of which may run alone:
#
#   umad-loop.py [--gid-index N] UMAD_A GID_A [UMAD_B GID_B]
#       both ends in this process (the answering one in a thread), from
#       UMAD_A to UMAD_B (UMAD_A again when not given)
#   umad-loop.py serve [--gid-index N] UMAD PEER_GID
#       the answering end on UMAD, for an asking end whose GID is PEER_GID
#   umad-loop.py ask [--gid-index N] UMAD PEER_GID
#       the asking end on UMAD, to an answering end whose GID is PEER_GID
#
# The answering end registers a vendor class of range 2 (0x30, with OUI)
# for GET and SET and an RMPP class (0x31) for SET with kernel RMPP, then
# prints "# ready" (the asking end must not start before that). The
# asking end sends, with GRH (GID index N, default 1) and Q_Key 0x80010000:
# 1. an unsolicited SET: it arrives whole, checked byte by byte with the
#    header read() gives (agent, length, QP1, GRH from the asker's GID);
# 2. a GET nobody answers, resent once: the asker reads it back with
#    status ETIMEDOUT and its MAD header, the answering end saw it twice;
# 3. a GET the answering end answers: the response comes back with its
#    TID, the responder's data and GID, and no timeout after;
# 4. an RMPP message of several segments (the kernel segments and
#    reassembles it for agents with rmpp_version 1): it arrives whole,
#    after a read() too short for it got ENOSPC; the answering end checks
#    every byte and answers it with a GET_RESP saying how long it was,
#    which the asker reads (so it knows the transfer ended before it
#    closes its file).
# GIDs as in sysfs (0000:...:c000:020b). One line per check; exit status 0
# when all held.
import errno
import os
import struct
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from umadlib import (HDR_NEW, MAD_SIZE, check, gid_bytes, hdr, mad,  # noqa: E402
                     mad_method, mad_tid, open_umad, recv, reg_agent2, send)
import abi_check  # noqa: E402

VCLASS, RCLASS, OUI = 0x30, 0x31, 0x001405
GET, SET, GET_RESP = 0x01, 0x02, 0x81
# how long either end waits for the other's next MAD: generous, the other
# end may be a busy guest behind a virtual wire
WAIT = 30
SET_BODY = bytes((i * 7 + 3) & 0xFF for i in range(MAD_SIZE - 40))
RMPP_LEN = 1000
RMPP_DATA = bytes((i * 13 + 5) & 0xFF for i in range(RMPP_LEN))
TID_SET, TID_LOST, TID_ASK, TID_RMPP = 0x1234, 0x2222, 0x3333, 0x4444


def low_tid(m):
    return mad_tid(m) & 0xFFFFFFFF


def reply_to(h, m, agent_id, data):
    """A GET_RESP to the MAD @m whose header was @h, carrying @data."""
    r = bytearray(m[:MAD_SIZE])
    r[3] = GET_RESP
    r[40:40 + len(data)] = data
    return hdr(agent_id, gid=bytes(h["gid"]), gid_index=h["gid_index"],
               qpn=h["qpn"]), bytes(r)


def serve(path, peer_gid, ready=None):
    """The answering end: the other half of each step of ask()."""
    b = open_umad(path)
    r = open_umad(path)
    b_id, _ = reg_agent2(b, VCLASS, (GET, SET), oui=OUI)
    r_id, _ = reg_agent2(r, RCLASS, (SET,), oui=OUI, rmpp_version=1)
    print(f"# serve: {path} agents {b_id} (0x{VCLASS:x}) {r_id} (0x{RCLASS:x})")
    print("# ready", flush=True)
    if ready:
        ready.set()

    # 1. the unsolicited SET
    got = recv(b, WAIT)
    check("the SET arrived", got is not None)
    if got:
        h, m = got
        check("its agent id", h["id"] == b_id, str(h["id"]))
        check("its length", h["length"] == HDR_NEW + MAD_SIZE, str(h["length"]))
        check("from QP1", h["qpn"] == 1, str(h["qpn"]))
        check("with GRH from the asker's GID",
              h["grh_present"] == 1 and h["gid"] == peer_gid, h["gid"].hex())
        check("its TID's low half", low_tid(m) == TID_SET, hex(mad_tid(m)))
        check("its TID's high half is the sender's agent", mad_tid(m) >> 32 != 0)
        out = mad(VCLASS, SET, TID_SET, body=SET_BODY, oui=OUI)
        same = m[:8] == out[:8] and m[16:] == out[16:]
        check("every other byte as sent", same and len(m) == MAD_SIZE)

    # 2. the GET nobody answers, and its resend, until the one to answer
    seen = 0
    while True:
        got = recv(b, WAIT)
        if got is None or low_tid(got[1]) != TID_LOST:
            break
        seen += 1
    check("the unanswered GET and its resend arrived", seen == 2, str(seen))

    # 3. the GET to answer
    check("the GET to answer arrived", got is not None)
    if got:
        h, m = got
        check("as a GET with its data", mad_method(m) == GET and
              low_tid(m) == TID_ASK and m[40:48] == b"question", m[:48].hex())
        send(b, *reply_to(h, m, b_id, b"answer"))

    # 4. the RMPP message: too short a read first, then whole
    want = HDR_NEW + 40 + RMPP_LEN
    try:
        got = recv(r, WAIT, size=HDR_NEW + MAD_SIZE)
        check("a short read of an RMPP message fails", False,
              "(it did not: " + (f"{got[0]}, MAD {got[1][:40].hex()})"
                                 if got else "nothing came)"))
    except OSError as err:
        check("a short read of an RMPP message is ENOSPC",
              err.errno == errno.ENOSPC, errno.errorcode.get(err.errno))
    got = recv(r, WAIT, size=want + 512)
    check("the RMPP message arrived", got is not None)
    if got:
        h, m = got
        ref = rmpp_mad()
        check("its length", h["length"] == want, f"{h['length']} != {want}")
        check("its agent", h["id"] == r_id)
        check("with GRH from the asker's GID",
              h["grh_present"] == 1 and h["gid"] == peer_gid, h["gid"].hex())
        check("its data, every byte", m[40:40 + RMPP_LEN] == RMPP_DATA,
              f"{len(m)} bytes read")
        check("its class header", m[36:40] == ref[36:40] and m[1] == RCLASS)
        check("its TID's low half", low_tid(m) == TID_RMPP, hex(mad_tid(m)))
        # the answer says how much came; RMPP flags clear: one MAD
        r_m = bytearray(m[:MAD_SIZE])
        r_m[24:36] = bytes(12)
        r_m[40:] = bytes(MAD_SIZE - 40)
        send(r, *reply_to(h, bytes(r_m), r_id,
                          b"rmpp-ok" + struct.pack(">I", len(m))))
    # let the last answer leave before the agents go
    time.sleep(1)
    os.close(r)
    os.close(b)


def rmpp_mad():
    # the RMPP header: DATA, ACTIVE; the kernel writes the rest
    return mad(RCLASS, SET, TID_RMPP, oui=OUI, body=RMPP_DATA,
               size=40 + RMPP_LEN, rmpp=(1, 1, 0, 0, 0))


def ask(path, peer_gid, gid_index):
    """The asking end: see the top of this file."""
    a = open_umad(path)
    ar = open_umad(path)
    a_id, _ = reg_agent2(a)                     # sends, gets its answers
    ar_id, _ = reg_agent2(ar, rmpp_version=1)
    print(f"# ask: {path} agents {a_id} {ar_id}", flush=True)

    def to(**kw):
        return hdr(a_id, gid=peer_gid, gid_index=gid_index, **kw)

    # 1. an unsolicited SET
    send(a, to(), mad(VCLASS, SET, TID_SET, body=SET_BODY, oui=OUI))

    # 2. a GET nobody answers times out
    t0 = time.monotonic()
    send(a, to(timeout_ms=300, retries=1), mad(VCLASS, GET, TID_LOST, oui=OUI))
    got = recv(a, 5)
    took = time.monotonic() - t0
    check("the unanswered GET came back", got is not None)
    if got:
        h, m = got
        check("with status ETIMEDOUT", h["status"] == errno.ETIMEDOUT,
              str(h["status"]))
        check("with its MAD header", len(m) == 24 and mad_method(m) == GET and
              low_tid(m) == TID_LOST, m.hex())
        check("after its timeout and retry", 0.5 <= took < 4, f"{took:.2f} s")

    # 3. a GET answered by the other end gets its response
    send(a, to(timeout_ms=5000, retries=0),
         mad(VCLASS, GET, TID_ASK, oui=OUI, body=b"question"))
    got = recv(a, WAIT)
    check("the response came back", got is not None)
    if got:
        rh, rm = got
        check("as a GET_RESP", mad_method(rm) == GET_RESP, hex(rm[3]))
        check("with the request's TID", low_tid(rm) == TID_ASK and
              mad_tid(rm) >> 32 != 0, hex(mad_tid(rm)))
        check("and the responder's data", rm[40:46] == b"answer")
        check("from the responder's GID", rh["gid"] == peer_gid, rh["gid"].hex())
        check("no timeout follows a matched request", recv(a, 5.5) is None)

    # 4. the RMPP message, answered once it arrived whole
    t0 = time.monotonic()
    send(ar, hdr(ar_id, gid=peer_gid, gid_index=gid_index, timeout_ms=20000),
         rmpp_mad())
    got = recv(ar, WAIT)
    check("the RMPP message was answered", got is not None)
    if got:
        h, m = got
        check("with a GET_RESP of its TID", mad_method(m) == GET_RESP and
              low_tid(m) == TID_RMPP and h["status"] == 0,
              f"{m[:24].hex()} status {h['status']}")
        check("saying it came whole", m[40:51] == b"rmpp-ok" +
              struct.pack(">I", 40 + RMPP_LEN), m[40:51].hex())
    print(f"# RMPP {RMPP_LEN} bytes answered in {time.monotonic() - t0:.2f} s")
    os.close(ar)
    os.close(a)


def both(a_path, a_gid, b_path, b_gid, gid_index):
    """Both ends here: the answering one in a thread."""
    ready = threading.Event()
    server = threading.Thread(target=serve, args=(b_path, a_gid, ready))
    server.start()
    if ready.wait(10):
        ask(a_path, b_gid, gid_index)
    server.join()


def main(argv):
    gid_index = 1
    role = argv[0] if argv[0] in ("serve", "ask") else None
    if role:
        argv = argv[1:]
    if argv[0] == "--gid-index":
        gid_index, argv = int(argv[1]), argv[2:]
    if role == "serve":
        serve(argv[0], gid_bytes(argv[1]))
    elif role == "ask":
        ask(argv[0], gid_bytes(argv[1]), gid_index)
    else:
        a_path, a_gid = argv[0], gid_bytes(argv[1])
        b_path, b_gid = (argv[2], gid_bytes(argv[3])) if len(argv) > 3 else \
            (a_path, a_gid)
        both(a_path, a_gid, b_path, b_gid, gid_index)
    return abi_check.exit_status()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
