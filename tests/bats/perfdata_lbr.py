#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Turn a perf record -g (frame-pointer call chains) file into the file
perf record --call-graph lbr writes on a machine with LBR call stacks:
perfdata_lbr.py IN OUT

Each event gets PERF_SAMPLE_BRANCH_STACK with perf's LBR call-stack
branch_sample_type (USER | CALL_STACK | NO_FLAGS | NO_CYCLES | HW_INDEX).
Each sample's user call chain moves into its branch stack, as the LBR
holds it: entry k's from is the call site of frame k (its return address
minus one), its to an address in the function it called; the kernel call
chain keeps its kernel part and, after PERF_CONTEXT_USER, the sample's ip
alone, as a frame-pointer walk of code without frame pointers ends.
A sample with no caller to put in a branch stack is left out: perf 6.1
reads an entry past an empty call stack (the next record's bytes).
Prints the number of samples given a branch stack.

The samples must be of events without PERF_SAMPLE_READ or RAW; the file
is walked as perf.data(5) lays it out.
"""
import struct
import sys

PERF_RECORD_SAMPLE = 9
CONTEXT_USER = 0xfffffffffffffe00
ATTR_SAMPLE_TYPE, ATTR_BRANCH_TYPE = 24, 72
CALLCHAIN, READ, RAW, BRANCH = 1 << 5, 1 << 4, 1 << 10, 1 << 11
# the sample_type bits before the call chain, in record order
HEAD_BITS = [1 << 16, 1 << 0, 1 << 1, 1 << 2, 1 << 3, 1 << 6, 1 << 9, 1 << 7, 1 << 8]
# IDENTIFIER IP TID TIME ADDR ID STREAM_ID CPU PERIOD
PROBE = int(sys.argv[3]) if len(sys.argv) > 3 else 0
LBR_CALL_STACK = (1 << 0) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 17)


def lbr_sample(rec, st):
    """the sample record rec with its user chain moved to a branch stack"""
    off = 8
    ip = None
    for bit in HEAD_BITS:
        if st & bit:
            if bit == 1 << 0:
                ip, = struct.unpack_from('<Q', rec, off)
            off += 8
    nr, = struct.unpack_from('<Q', rec, off)
    ips = list(struct.unpack_from('<%dQ' % nr, rec, off + 8))
    rest = rec[off + 8 + 8 * nr:]
    if CONTEXT_USER not in ips:
        return None, False
    u = ips.index(CONTEXT_USER)
    user = ips[u + 1:]
    callers = [a for a in user[1:] if 0 < a < CONTEXT_USER]
    if not callers:
        return None, False
    entries = []
    callee = user[0] + PROBE
    for ret in callers:
        entries.append((ret - 1, callee, 0))
        callee = ret
    chain = ips[:u + 2]
    out = bytearray(rec[:off])
    out += struct.pack('<Q', len(chain)) + struct.pack('<%dQ' % len(chain), *chain)
    out += struct.pack('<QQ', len(entries), len(entries) - 1 if entries else 0)
    for e in entries:
        out += struct.pack('<QQQ', *e)
    out += rest
    struct.pack_into('<H', out, 6, len(out))
    return bytes(out), True


def main():
    src, dst = sys.argv[1:3]
    b = bytearray(open(src, 'rb').read())
    attr_size, attrs_off, attrs_size = struct.unpack_from('<QQQ', b, 16)
    data_off, data_size = struct.unpack_from('<QQ', b, 40)
    st = None
    for a in range(attrs_off, attrs_off + attrs_size, attr_size):
        t, = struct.unpack_from('<Q', b, a + ATTR_SAMPLE_TYPE)
        assert t & CALLCHAIN and not t & (READ | RAW | BRANCH), hex(t)
        assert st in (None, t), 'events of different sample types'
        st = t
        struct.pack_into('<Q', b, a + ATTR_SAMPLE_TYPE, t | BRANCH)
        struct.pack_into('<Q', b, a + ATTR_BRANCH_TYPE, LBR_CALL_STACK)
    data = bytearray()
    changed = 0
    off = data_off
    while off < data_off + data_size:
        typ, size = struct.unpack_from('<IxxH', b, off)
        rec = bytes(b[off:off + size])
        if typ == PERF_RECORD_SAMPLE:
            rec, done = lbr_sample(rec, st)
            changed += done
            if rec is None:
                off += size
                continue
        data += rec
        off += size
    # the feature sections follow the data: their table's offsets move
    delta = len(data) - data_size
    feats = b[data_off + data_size:]
    nfeat = sum(bin(w).count('1') for w in struct.unpack_from('<4Q', b, 72))
    table = bytearray(feats[:16 * nfeat])
    for k in range(nfeat):
        o, = struct.unpack_from('<Q', table, 16 * k)
        struct.pack_into('<Q', table, 16 * k, o + delta)
    struct.pack_into('<Q', b, 48, len(data))
    out = b[:data_off] + data + table + feats[16 * nfeat:]
    open(dst, 'wb').write(out)
    print(changed)


main()
