#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Write the perf.data file an Arm SPE recording (perf record -e arm_spe//)
makes, from scratch: perfdata_spe.py OUT BINARY [MODE]

The events are arm_spe_0 (its PMU type named in the PMU_MAPPINGS header
feature) and perf record's dummy tracking event; the data section holds
COMM and MMAP2 records naming BINARY (mapped as a PIE at MAP_BASE), a
TIME_CONV record (perf converts SPE timestamps with it), the
AUXTRACE_INFO record of type 4 (ARM SPE: priv[] = PMU type, per-CPU
mmaps), AUXTRACE records (their header, then the raw trace bytes) of
SPE packets laid out per the Arm Architecture Reference Manual (DDI0487,
"Statistical Profiling Extension" packet formats), and the kernel's AUX
records.  MODE "plain" (the default), "generic" (no CPUID feature) or "odd" (packets no decoder
names: a reserved address index, a counter index past the three, an
operation class 3, a reserved header byte).  The CPUID header feature
gives a Neoverse N1 MIDR.  Prints the number of SPE records written.
"""
import struct
import sys

PID = 4242
MAP_BASE = 0x555555554000
SPE_TYPE = 8
RECORD_SIZE = 0  # filled by attr()

# sample_type: IP TID TIME CPU IDENTIFIER, as perf record sets for SPE
IP, TID, TIME, CPU, IDENTIFIER = 1 << 0, 1 << 1, 1 << 2, 1 << 7, 1 << 16
SAMPLE_TYPE = IP | TID | TIME | CPU | IDENTIFIER


def pkt_addr(index, value):
    """an address packet: short header 0b1011_0iii, 8-byte payload; an
    index past 7 takes the extended header (0b0010_00ii, then the short)"""
    if index > 7:
        return bytes([0x20 | (index >> 3), 0xb0 | (index & 7)]) + struct.pack('<Q', value)
    return bytes([0xb0 | index]) + struct.pack('<Q', value)


def pkt_addr_ext(index, value):
    """the same address packet, always with the extended header"""
    return bytes([0x20 | (index >> 3), 0xb0 | (index & 7)]) + struct.pack('<Q', value)


def pkt_counter(index, value):
    """a counter packet: 0b1001_1iii, 2-byte payload"""
    return bytes([0x98 | index]) + struct.pack('<H', value)


def pkt_events(bits, size):
    """the events packet: 0b01ss_0010, payload of 1 << ss bytes"""
    ss = {1: 0, 2: 1, 4: 2, 8: 3}[size]
    return bytes([0x42 | ss << 4]) + bits.to_bytes(size, 'little')


def pkt_source(value, size=1):
    ss = {1: 0, 2: 1, 4: 2, 8: 3}[size]
    return bytes([0x43 | ss << 4]) + value.to_bytes(size, 'little')


def pkt_op(cls, payload):
    """operation type: 0b0100_10cc, 1-byte payload"""
    return bytes([0x48 | cls, payload])


def pkt_context(value, index=0):
    """context: 0b0110_01ii, 4-byte payload (CONTEXTIDR_ELx)"""
    return bytes([0x64 | index]) + struct.pack('<I', value)


def pkt_ts(value):
    return bytes([0x71]) + struct.pack('<Q', value)


END = b'\x01'
EV_RETIRED, EV_L1D_ACCESS, EV_L1D_REFILL = 1 << 1, 1 << 2, 1 << 3
EV_TLB_ACCESS, EV_TLB_WALK, EV_NOT_TAKEN, EV_MISPRED = 1 << 4, 1 << 5, 1 << 6, 1 << 7
EV_LLC_ACCESS, EV_LLC_MISS, EV_REMOTE, EV_ALIGN = 1 << 8, 1 << 9, 1 << 10, 1 << 11
EV_EXC, EV_PARTIAL, EV_EMPTY = 1 << 0, 1 << 17, 1 << 18

# functions of tests/fixtures/calltree (their offsets in its text)
FUNCS = {'hot': 0x11b0, 'cold': 0x11f0, 'b': 0x1230, 'c': 0x1260, 'a': 0x1290}
HEAP = 0x00005555deadb000
PC_EL0 = 0  # EL in bits 62:61, NS in bit 63


def pc(func, off=0, el=0, ns=1):
    return MAP_BASE + FUNCS[func] + off | el << 61 | ns << 63


def load(func, k, events, source, tot, issue, xlat, size=1, va=None, ext=False):
    """a load's packets, in the order the hardware writes them"""
    va = HEAP + 64 * k if va is None else va
    return (pkt_addr(0, pc(func, 4 * (k % 8))) + pkt_context(PID) + pkt_op(1, 0x00) +
            pkt_events(events, size) + pkt_counter(0, tot) + pkt_counter(1, issue) +
            (pkt_addr_ext(2, va) if ext else pkt_addr(2, va)) + pkt_counter(2, xlat) +
            pkt_addr(3, 0x80000000 + 64 * k | 1 << 63) + pkt_source(source))


def records(mode):
    """the SPE records, each ending with its timestamp (one with End)"""
    out = []
    t = 1000
    L1, L2, PEER, SYS, REMOTE, DRAM = 0x0, 0x8, 0x9, 0xb, 0xd, 0xe
    LOCAL_CLUSTER, PEER_CLUSTER = 0xa, 0xc
    kinds = [
        ('hot', EV_RETIRED | EV_L1D_ACCESS | EV_TLB_ACCESS, L1, 1),
        ('hot', EV_RETIRED | EV_L1D_ACCESS | EV_L1D_REFILL | EV_TLB_ACCESS | EV_LLC_ACCESS, L2, 2),
        ('cold', EV_RETIRED | EV_L1D_ACCESS | EV_L1D_REFILL | EV_TLB_ACCESS | EV_TLB_WALK |
         EV_LLC_ACCESS | EV_LLC_MISS, DRAM, 2),
        ('b', EV_RETIRED | EV_L1D_ACCESS | EV_L1D_REFILL | EV_LLC_ACCESS | EV_REMOTE, REMOTE, 2),
        ('c', EV_RETIRED | EV_L1D_ACCESS | EV_L1D_REFILL | EV_ALIGN, PEER, 4),
        ('a', EV_RETIRED | EV_L1D_ACCESS | EV_L1D_REFILL | EV_LLC_ACCESS | EV_PARTIAL | EV_EMPTY, SYS, 4),
        ('hot', EV_L1D_ACCESS | EV_TLB_ACCESS | EV_EXC, L1, 8),
        ('c', EV_RETIRED | EV_L1D_ACCESS | EV_L1D_REFILL | EV_LLC_ACCESS, LOCAL_CLUSTER, 2),
        ('a', EV_RETIRED | EV_L1D_ACCESS | EV_L1D_REFILL | EV_TLB_ACCESS, PEER_CLUSTER, 1),
        ('b', EV_RETIRED | EV_L1D_ACCESS | EV_TLB_ACCESS | EV_TLB_WALK, 0x5, 1),
    ]
    for k in range(30):
        func, ev, src, size = kinds[k % len(kinds)]
        rec = load(func, k, ev, src, 10 + 7 * k, 1 + k % 4, k % 3, size, ext=(k == 5))
        t += 100 + k
        out.append(rec + pkt_ts(t))
    # a store (the data source is not written for stores)
    for k in range(3):
        t += 50
        out.append(pkt_addr(0, pc('cold', 8)) + pkt_context(PID) + pkt_op(1, 0x01) +
                   pkt_events(EV_RETIRED | EV_L1D_ACCESS | EV_TLB_ACCESS, 1) +
                   pkt_counter(0, 5 + k) + pkt_addr(2, HEAP + 0x1000 + 8 * k) + pkt_ts(t))
    # branches: conditional mispredicted, not taken, an indirect one
    for k, (op, ev) in enumerate([(0x01, EV_RETIRED | EV_MISPRED), (0x01, EV_RETIRED | EV_NOT_TAKEN),
                                  (0x02, EV_RETIRED | EV_MISPRED), (0x00, EV_RETIRED)]):
        t += 70
        out.append(pkt_addr(0, pc('b', 12)) + pkt_context(PID) + pkt_op(2, op) +
                   pkt_events(ev, 1) + pkt_counter(0, 3 + k) + pkt_addr(1, pc('c')) + pkt_ts(t))
    # other operations: conditional select, plain
    for op in (0x01, 0x00):
        t += 30
        out.append(pkt_addr(0, pc('a', 20)) + pkt_context(PID) + pkt_op(0, op) +
                   pkt_events(EV_RETIRED, 1) + pkt_counter(0, 2) + pkt_ts(t))
    # a record ended by End, not by a timestamp; a kernel PC at EL1 and
    # the context of EL2
    out.append(pkt_addr(0, 0xffff800008123456 & ((1 << 56) - 1) | 1 << 61 | 1 << 63) +
               pkt_context(PID, 1) + pkt_op(1, 0x00) + pkt_events(EV_RETIRED | EV_L1D_ACCESS, 1) +
               pkt_counter(0, 40) + pkt_addr(2, 0xffff000012345678) + END)
    if mode == 'odd':
        t += 10
        out.append(pkt_addr(0, pc('hot')) + pkt_context(PID) + pkt_op(1, 0x00) +
                   pkt_addr(5, 0x1234) + pkt_counter(3, 77) + pkt_op(3, 0x5) +
                   pkt_events(EV_RETIRED | EV_L1D_ACCESS, 1) + pkt_counter(0, 9) +
                   pkt_addr(2, HEAP + 8) + b'\x02' + pkt_ts(t))
    return out


def pad8(b):
    return b + b'\x00' * (-len(b) % 8)


def hdr(typ, misc, body):
    return struct.pack('<IHH', typ, misc, 8 + len(body)) + body


def sample_id(time, ident):
    """sample_id_all's trailer: TID, TIME, CPU, IDENTIFIER"""
    return struct.pack('<IIQIIQ', PID, PID, time, 0, 0, ident)


def string(s):
    b = s.encode() + b'\x00'
    b += b'\x00' * (-len(b) % 64)
    return struct.pack('<I', len(b)) + b


def attr(typ, config, sample_type, period, flags):
    """a perf_event_attr of PERF_ATTR_SIZE_VER5 (112 bytes)"""
    a = bytearray(112)
    struct.pack_into('<IIQQQQQ', a, 0, typ, 112, config, period, sample_type, 0, flags)
    return bytes(a)


def main():
    out, binary = sys.argv[1:3]
    mode = sys.argv[3] if len(sys.argv) > 3 else 'plain'
    # attr flag bits: disabled 0, exclude_hv 6, mmap 8, comm 9, task 13,
    # sample_id_all 18, exclude_guest 20, mmap2 23, comm_exec 24
    spe_flags = 1 << 0 | 1 << 18 | 1 << 20
    dummy_flags = 1 << 0 | 1 << 8 | 1 << 9 | 1 << 13 | 1 << 18 | 1 << 20 | 1 << 23 | 1 << 24
    attrs = [(attr(SPE_TYPE, 0x3, SAMPLE_TYPE, 1, spe_flags), [11]),
             (attr(1, 9, SAMPLE_TYPE, 1, dummy_flags), [12])]
    data = bytearray()
    data += hdr(3, 0, struct.pack('<II16s', PID, PID, b'calltree') + sample_id(10, 12))
    fname = binary.encode() + b'\x00'
    fname += b'\x00' * (-len(fname) % 8)
    data += hdr(10, 2, struct.pack('<IIQQQIIQQII', PID, PID, MAP_BASE + 0x1000, 0x1000, 0x1000,
                                   8, 1, 123456, 0, 5, 2) + fname + sample_id(20, 12))
    data += hdr(79, 0, struct.pack('<QQQ', 0, 1, 0))  # shift 0, mult 1, zero 0
    data += hdr(70, 0, struct.pack('<IIQQ', 4, 0, SPE_TYPE, 1))
    recs = records(mode)
    # the trace in two buffers of CPU 0's queue, split between records
    half = len(recs) // 2
    offset = 0
    for part in (recs[:half], recs[half:]):
        trace = pad8(b''.join(part))
        data += hdr(71, 0, struct.pack('<QQQIIII', len(trace), offset, 0x1234 + offset, 0,
                                       0xffffffff, 0, 0)) + trace
        data += hdr(11, 0, struct.pack('<QQQ', offset, len(trace), 0) + sample_id(1000 + offset, 11))
        data += hdr(68, 0, b'')
        offset += len(trace)
    data += hdr(4, 0, struct.pack('<IIII', PID, PID, PID, PID) + struct.pack('<Q', 100000) +
                sample_id(100000, 12))

    # layout: header, attrs, ids, data, feature table, features
    attr_size = 112 + 16
    attrs_off = 104
    ids_off = attrs_off + attr_size * len(attrs)
    ids = b''.join(struct.pack('<Q', i) for _, idl in attrs for i in idl)
    data_off = ids_off + len(ids)
    attr_bytes = bytearray()
    io = ids_off
    for a, idl in attrs:
        attr_bytes += a + struct.pack('<QQ', io, 8 * len(idl))
        io += 8 * len(idl)
    pmu = struct.pack('<I', 2) + struct.pack('<I', SPE_TYPE) + string('arm_spe_0') + \
        struct.pack('<I', 4) + string('cpu')
    # the CPU's MIDR picks the data-source encoding: Neoverse N1's, or
    # (mode generic: no CPUID) none, the events alone
    feats = [(16, pmu)] if mode == 'generic' else [(9, string('0x00000000410fd0c0')), (16, pmu)]
    table_off = data_off + len(data)
    body_off = table_off + 16 * len(feats)
    table, bodies = bytearray(), bytearray()
    bits = [0, 0, 0, 0]
    for f, b in feats:
        table += struct.pack('<QQ', body_off + len(bodies), len(b))
        bodies += b
        bits[f // 64] |= 1 << (f % 64)
    head = b'PERFILE2' + struct.pack('<QQ', 104, attr_size) + \
        struct.pack('<QQ', attrs_off, len(attr_bytes)) + struct.pack('<QQ', data_off, len(data)) + \
        struct.pack('<QQ', 0, 0) + struct.pack('<4Q', *bits)
    open(out, 'wb').write(head + attr_bytes + ids + data + table + bodies)
    print(len(recs))


main()
