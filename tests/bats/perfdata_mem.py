#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Turn a perf record -d file (samples with PERF_SAMPLE_ADDR and
PERF_SAMPLE_DATA_SRC, a software event's) into the file a PEBS load-latency
recording writes: perfdata_mem.py IN OUT [weight|struct] [random|c2c]

Each event gets PERF_SAMPLE_WEIGHT (weight) or PERF_SAMPLE_WEIGHT_STRUCT
(struct, the default), and each sample a weight and a data source: sample
k takes row k of SOURCES (cycling), or with "random" a data source of
random fields (random_src()) and weight k + 1 (the fields of union
perf_mem_data_src as Linux 6.1 has them; with "c2c" row k of
C2C_SOURCES, what perf c2c report counts; hops 0-4: perf 6.1 reads past
its table for 5-7; seeded, so the same bytes each run).  Weights: the latency
8 * (k % 13 + 1) (WEIGHT's u64, WEIGHT_STRUCT's var1_dw), var2_w (the
instruction latency) k % 5, var3_w k % 3.  Fields laid out per include/uapi/linux/perf_event.h: the weight
u64 just before data_src; both after every field the samples may hold.
Prints the number of samples changed.
"""
import random
import struct
import sys

from perfdata_rewrite import ATTR_SAMPLE_TYPE, rewrite
WEIGHT, DATA_SRC, WEIGHT_STRUCT = 1 << 14, 1 << 15, 1 << 24
# what may come before WEIGHT and nothing after DATA_SRC:
# IP TID TIME ADDR ID CPU PERIOD STREAM_ID IDENTIFIER
ALLOWED = (1 << 0) | (1 << 1) | (1 << 2) | (1 << 3) | (1 << 6) | (1 << 7) | \
    (1 << 8) | (1 << 9) | (1 << 16) | DATA_SRC


def src(op=0, lvl=0, snoop=0, lock=0, tlb=0, lvlnum=0, remote=0, snoopx=0,
        blk=0, hops=0):
    """a data_src from its fields, by the shifts of perf_event.h"""
    return (op | lvl << 5 | snoop << 19 | lock << 24 | tlb << 26 |
            lvlnum << 33 | remote << 37 | snoopx << 38 | blk << 40 | hops << 43)


LOAD, STORE = 0x02, 0x04
NA, HIT, MISS, L1, LFB, L2, L3 = 0x1, 0x2, 0x4, 0x8, 0x10, 0x20, 0x40
LOC_RAM, REM_RAM1, REM_CCE1 = 0x80, 0x100, 0x400
SNP_NONE, SNP_HIT, SNP_MISS, SNP_HITM = 0x2, 0x4, 0x8, 0x10
TLB_HIT, TLB_MISS, TLB_L1, TLB_L2, TLB_WK = 0x2, 0x4, 0x8, 0x10, 0x20
# PEBS-style rows: what Intel's ds.c (and AMD's ibs.c) write
SOURCES = [
    src(LOAD, L1 | HIT, SNP_NONE, 0x1, TLB_L1 | TLB_L2 | TLB_HIT),          # L1 hit
    src(LOAD, LFB | HIT, SNP_NONE, 0x1, TLB_L1 | TLB_L2 | TLB_HIT),         # LFB hit
    src(LOAD, L2 | HIT, SNP_NONE, 0x2, TLB_L1 | TLB_L2 | TLB_HIT),          # L2 hit, locked
    src(LOAD, L3 | HIT, SNP_HITM, 0x1, TLB_L2 | TLB_MISS | TLB_WK),         # L3 hit, HitM
    src(LOAD, L3 | MISS, SNP_MISS, 0x1, TLB_MISS | TLB_WK, blk=0x2),        # L3 miss, blocked data
    src(LOAD, REM_CCE1 | HIT, SNP_HITM, 0x1, TLB_L1 | TLB_HIT, remote=1),   # remote cache HitM
    src(LOAD, LOC_RAM | HIT, SNP_HIT, 0x1, TLB_L1 | TLB_L2 | TLB_HIT, blk=0x4),
    src(LOAD, REM_RAM1 | HIT, SNP_HIT, 0x1, TLB_L1 | TLB_HIT, lvlnum=0xd, remote=1, hops=2),
    src(LOAD, L1 | HIT, SNP_NONE, 0x1, TLB_L1 | TLB_HIT, lvlnum=0x1),       # L1 with lvl_num
    src(LOAD, HIT, 0x1, 0x1, TLB_HIT, lvlnum=0xb, remote=1, hops=1),        # remote core any cache
    src(LOAD, LFB | HIT, SNP_NONE, 0x1, TLB_HIT, lvlnum=0xc, snoopx=0x1),   # LFB, snoop Fwd
    src(STORE, L1 | HIT, 0x1, 0x2, TLB_L1 | TLB_HIT, blk=0x6),              # store, locked, Data Addr
    src(STORE, L1 | MISS, 0x1, 0x1, TLB_L2 | TLB_MISS),
    src(0x1, NA, 0x1, 0x1, 0x1, lvlnum=0xf, blk=0x1),                       # all N/A
    0,                                                                      # nothing at all
]

# c2c: what perf c2c report counts, in turn: a load hitting a modified line
# in this socket's cache (local HitM), a store, a load of a modified line
# in the other socket's (remote HitM); three, so that two threads taking
# turns each get all three
C2C_SOURCES = [
    src(LOAD, L3 | HIT, SNP_HITM, 0x1, TLB_L1 | TLB_L2 | TLB_HIT),
    src(STORE, L1 | HIT, 0x1, 0x1, TLB_L1 | TLB_HIT),
    src(LOAD, REM_CCE1 | HIT, SNP_HITM, 0x1, TLB_L1 | TLB_HIT, remote=1),
]


def random_src(rnd):
    """random fields; one legacy level at most: perf 6.1 overflows its
    64-byte buffer (stack smashing) on a name of several"""
    lvl = rnd.getrandbits(3) | ((1 << rnd.randrange(3, 14)) if rnd.randrange(4) else 0)
    return src(rnd.getrandbits(5), lvl, rnd.getrandbits(5), rnd.getrandbits(2),
               rnd.getrandbits(7), rnd.getrandbits(4), rnd.getrandbits(1),
               rnd.getrandbits(2), rnd.getrandbits(3), rnd.randrange(5))


def patch(rec, kind, k, rnd, pick):
    """rec with a weight inserted before its data_src, which is replaced"""
    body = rec[:-8]
    # random: each sample its own weight, so that perf report shows each apart
    w = k + 1 if pick == 'random' else 8 * (k % 13 + 1)
    if kind == 'struct':
        w |= (k % 5) << 32 | (k % 3) << 48
    if pick == 'random':
        ds = random_src(rnd)
    elif pick == 'c2c':
        ds = C2C_SOURCES[k % len(C2C_SOURCES)]
    else:
        ds = SOURCES[k % len(SOURCES)]
    out = bytearray(body + struct.pack('<QQ', w, ds))
    struct.pack_into('<H', out, 6, len(out))
    return bytes(out)


def main():
    src_path, dst = sys.argv[1:3]
    kind = sys.argv[3] if len(sys.argv) > 3 else 'struct'
    pick = sys.argv[4] if len(sys.argv) > 4 else ''
    rnd = random.Random(27)
    k = 0

    def attr(b, a):
        t, = struct.unpack_from('<Q', b, a + ATTR_SAMPLE_TYPE)
        assert t & DATA_SRC and not t & ~ALLOWED, hex(t)
        struct.pack_into('<Q', b, a + ATTR_SAMPLE_TYPE,
                         t | (WEIGHT if kind == 'weight' else WEIGHT_STRUCT))

    def sample(rec, st):
        nonlocal k
        k += 1
        return patch(rec, kind, k - 1, rnd, pick)

    rewrite(src_path, dst, attr, sample)
    print(k)


main()
