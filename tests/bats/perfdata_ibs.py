#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Turn a perf record -d file of page faults (IP TID TIME ADDR DATA_SRC)
into the file an AMD IBS recording writes:
    perfdata_ibs.py IN OUT op|fetch [raw|kernel] [CPUID] [zen4]

The event becomes the ibs_op (ibs_fetch) PMU's: its attr type is the one
the PMU mappings header gives "ibs_op" ("ibs_fetch"), added after the
file's own PMUs; event_desc names it ibs_op// (ibs_fetch//); the cpuid
header says CPUID (default AuthenticAMD,25,17,1: family 19h model 11h, no
erratum).  Each sample's PERF_SAMPLE_RAW is the kernel's (arch/x86/events/
amd/ibs.c): u32 size, u32 caps, then the MSRs in the kernel's order, sample
k taking row k of OPS (FETCHES), cycling; the op's IbsOpRip and IbsDcLinAd
are the sample's ip and address, so symbols and data names are real.
"raw" (the default): IP TID TIME RAW, nothing else, the derivation left to
the reader.  "kernel" (op only): IP TID TIME ADDR RAW WEIGHT_STRUCT DATA_SRC
with the address, weight and data source Linux 6.1+ derives from the
registers (kernel_fields(), written here from the kernel's rules).  "zen4"
sets caps bit 11 and the ibs_op PMU's zen4_ibs_extensions capability (the
PMU_CAPS header perf reads); "odd" adds what no reader can decode: an
IbsOpData4 register (OPDATA4 caps) and, in every third op, a reserved bit
of IbsOpData.  Prints the number of samples.
"""
import struct
import sys

from perfdata_rewrite import ATTR_SAMPLE_TYPE, rewrite

IP, TID, TIME, ADDR, RAW = 1 << 0, 1 << 1, 1 << 2, 1 << 3, 1 << 10
WEIGHT_STRUCT, DATA_SRC = 1 << 24, 1 << 15
HEADER_CPUID, HEADER_EVENT_DESC, HEADER_PMU_MAPPINGS, HEADER_PMU_CAPS = 9, 12, 16, 31
# caps: AVAIL FETCHSAM OPSAM RDWROPCNT OPCNT BRNTRGT OPCNTEXT RIPINVALIDCHK FETCHCTLEXTD
CAPS = 0x2ff
ZEN4, OPDATA4 = 1 << 11, 1 << 10


def bits(**f):
    """a register from {name: (value, low bit)}"""
    return sum(v << lo for v, lo in f.values())


def op_ctl(cnt_ctl=0, cur=0x30, maxcnt=0x0fa0, ext=0):
    return maxcnt | 1 << 17 | 1 << 18 | cnt_ctl << 19 | ext << 20 | cur << 32


def op_data(comp=2, tag=9, ret=0, taken=0, misp=0, brn=0, ripinv=0, fuse=0, ucode=0):
    return (comp | tag << 16 | ret << 34 | taken << 35 | misp << 36 | brn << 37 |
            ripinv << 38 | fuse << 39 | ucode << 40)


def op_data2(src=0, rmt=0, hitst=0):
    return (src & 7) | rmt << 4 | hitst << 5 | (src >> 3) << 6


def op_data3(ld=0, st=0, l1tlb=0, l2tlb=0, hit2m=0, hit1g=0, l2hit2m=0, dcmiss=0,
             misacc=0, wc=0, uc=0, locked=0, nomab=0, lin=1, phy=1, l2hit1g=0,
             l2miss=0, swpf=0, width=4, openreqs=0, lat=0, tlblat=0):
    return (ld | st << 1 | l1tlb << 2 | l2tlb << 3 | hit2m << 4 | hit1g << 5 |
            l2hit2m << 6 | dcmiss << 7 | misacc << 8 | wc << 13 | uc << 14 |
            locked << 15 | nomab << 16 | lin << 17 | phy << 18 | l2hit1g << 19 |
            l2miss << 20 | swpf << 21 | width << 22 | openreqs << 26 | lat << 32 |
            tlblat << 48)


# (IbsOpCtl, IbsOpData, IbsOpData2, IbsOpData3, IbsBrTarget)
OPS = [
    # a load that hits the L1, its page in the L1 TLB
    (op_ctl(), op_data(), 0, op_data3(ld=1), 0),
    # an L2 hit, counting ops
    (op_ctl(cnt_ctl=1), op_data(tag=30), 0, op_data3(ld=1, dcmiss=1, lat=18, openreqs=2), 0),
    # another core's cache of the node, the line modified (HitM); L1 TLB miss
    (op_ctl(), op_data(tag=70), op_data2(2), op_data3(ld=1, dcmiss=1, l2miss=1, l1tlb=1, lat=61, tlblat=7), 0),
    # local DRAM, both TLBs missed
    (op_ctl(), op_data(tag=260), op_data2(3), op_data3(ld=1, dcmiss=1, l2miss=1, l1tlb=1, l2tlb=1, lat=210, tlblat=44, width=5), 0),
    # remote DRAM
    (op_ctl(), op_data(tag=420), op_data2(3, rmt=1), op_data3(ld=1, dcmiss=1, l2miss=1, lat=395, openreqs=5), 0),
    # a remote node's cache, line in O state
    (op_ctl(), op_data(tag=330), op_data2(4, hitst=1), op_data3(ld=1, dcmiss=1, l2miss=1, lat=301), 0),
    # I/O, uncached
    (op_ctl(), op_data(), op_data2(7), op_data3(ld=1, dcmiss=1, l2miss=1, uc=1, lat=900), 0),
    # uncached memory
    (op_ctl(), op_data(), 0, op_data3(ld=1, dcmiss=1, l2miss=1, uc=1, lat=700, width=3), 0),
    # a locked store that hits the L1 (2M page)
    (op_ctl(), op_data(), 0, op_data3(st=1, locked=1, hit2m=1, l2hit2m=1), 0),
    # a store that missed both caches: no source for stores
    (op_ctl(), op_data(), op_data2(3), op_data3(st=1, dcmiss=1, l2miss=1, l1tlb=1), 0),
    # a load miss served by a fill in flight (no MAB allocated)
    (op_ctl(), op_data(), 0, op_data3(ld=1, dcmiss=1, l2miss=1, nomab=1, lat=25), 0),
    # a taken, mispredicted branch and its target
    (op_ctl(), op_data(ret=0, taken=1, misp=1, brn=1), 0, op_data3(lin=0, phy=0, width=0), 0x401000),
    # a return, predicted; fused
    (op_ctl(), op_data(ret=1, taken=1, brn=1, fuse=1), 0, op_data3(lin=0, phy=0, width=0), 0x402000),
    # a load whose address is not valid
    (op_ctl(), op_data(), op_data2(3), op_data3(ld=1, dcmiss=1, l2miss=1, lin=0, phy=0, lat=150), 0),
    # a microcoded op that is no memory access, its RIP invalid
    (op_ctl(ext=1), op_data(ucode=1, ripinv=1), 0, op_data3(lin=0, phy=0, width=0), 0),
    # a software prefetch, misaligned, to write-combining memory
    (op_ctl(), op_data(), op_data2(2, hitst=1), op_data3(ld=1, dcmiss=1, l2miss=1, swpf=1, misacc=1, wc=1, lat=80, width=6), 0),
    # a load in a 1G page through the L2 TLB, Zen4's near CCX cache
    (op_ctl(), op_data(), op_data2(1), op_data3(ld=1, dcmiss=1, l2miss=1, l1tlb=1, l2hit1g=1, hit1g=1, lat=40), 0),
]


def fetch_ctl(lat=0, comp=1, icmiss=0, phy=1, pgsz=0, l1tlb=0, l2tlb=0, rand=0, l2miss=0,
              l3only=0, ocmiss=0, l3miss=0):
    return (0x0fa0 | 0x0010 << 16 | lat << 32 | 1 << 48 | 1 << 49 | comp << 50 |
            icmiss << 51 | phy << 52 | pgsz << 53 | l1tlb << 55 | l2tlb << 56 |
            rand << 57 | l2miss << 58 | l3only << 59 | ocmiss << 60 | l3miss << 61)


# (IbsFetchCtl, IbsExtdCtl)
FETCHES = [
    (fetch_ctl(lat=3), 0),
    (fetch_ctl(lat=30, icmiss=1), 0),
    (fetch_ctl(lat=150, icmiss=1, l2miss=1, ocmiss=1, l3miss=1), 0),
    (fetch_ctl(lat=90, l1tlb=1, l2tlb=1, pgsz=1), 52),
    (fetch_ctl(lat=7, comp=0, phy=0, l2miss=1), 0),
    (fetch_ctl(lat=5, rand=1, pgsz=2, l1tlb=1), 12),
    (fetch_ctl(lat=11, pgsz=3, l3only=1), 0),
]


def kernel_fields(ctl, data, data2, data3, zen4, family=0x19, model=0x11):
    """(data_src, weight_struct) as arch/x86/events/amd/ibs.c derives them"""
    b = lambda v, i: v >> i & 1
    ld, st = b(data3, 0), b(data3, 1)
    NA = 1 | 1 << 5 | 1 << 19 | 1 << 24 | 1 << 26  # PERF_MEM_NA
    if not ld and not st:
        return NA, 0
    e1293 = family == 0x19 and model < 0x10 and (b(data3, 21) or b(data3, 16))
    if e1293:
        data2 = 0
    src = ((data2 >> 6 & 3) << 3 | (data2 & 7)) if zen4 else data2 & 7
    HIT = 2
    lvl = lambda x: (x | HIT) << 5
    ln = lambda x: x << 33
    rem, hops = 1 << 37, lambda h: (h + 1) << 43
    L1, LFB, L2, L3, LOC_RAM, REM_RAM1, REM_CCE1, REM_CCE2, IO, UNC = \
        8, 0x10, 0x20, 0x40, 0x80, 0x100, 0x400, 0x800, 0x1000, 0x2000

    def level():
        if b(data3, 14) and src != 7:
            return lvl(UNC) | ln(8)
        if not b(data3, 7):
            return lvl(L1) | ln(1)
        if not b(data3, 20) and not e1293:
            return lvl(L2) | ln(2)
        if ld:
            if zen4:
                t = {1: lvl(L3) | ln(3), 2: lvl(REM_CCE1) | ln(0xb) | rem | hops(0),
                     3: lvl(LOC_RAM) | ln(0xd), 5: lvl(REM_CCE2) | ln(0xb) | rem | hops(1),
                     6: ln(0xe), 7: lvl(IO) | ln(0xa), 8: ln(9)}
                if src in t:
                    if b(data2, 4) and src in (3, 6, 8):
                        return lvl(REM_RAM1) | ln(0xd) | rem | hops(1) if src == 3 else t[src] | rem | hops(1)
                    return t[src]
            else:
                t = {2: lvl(L3) | lvl(REM_CCE1) | ln(0xb) | hops(0), 3: lvl(LOC_RAM) | ln(0xd),
                     4: lvl(REM_CCE2) | ln(0xb) | rem | hops(1), 7: lvl(IO) | ln(0xa)}
                if src in t:
                    if b(data2, 4) and src == 3:
                        return lvl(REM_RAM1) | ln(0xd) | rem | hops(1)
                    return t[src]
        if b(data3, 16):
            return lvl(LFB) | ln(0xc)
        return 1 << 5 | ln(0xf)

    v = (2 if ld else 4) | level()
    hitst_valid = not (family == 0x19 and (model < 0x10 or 0x20 <= model < 0x60))
    snoop = 1
    if hitst_valid and ld and not (v >> 5 & (L1 | L2)) and not b(data2, 5):
        if (src in (1, 2, 5)) if zen4 else src == 2:
            snoop = 0x10
    v |= snoop << 19
    if not b(data3, 17):
        tlb = 1
    elif not b(data3, 2):
        tlb = 8 | 2
    elif not b(data3, 3):
        tlb = 0x10 | 2
    else:
        tlb = 0x10 | 4
    v |= tlb << 26
    v |= (2 if b(data3, 15) else 1) << 24
    w = 0
    if ld and b(data3, 7):
        w = (data3 >> 32 & 0xffff) | (data >> 16 & 0xffff) << 32
    return v, w


def perf_string(s):
    raw = s.encode() + b'\0'
    raw += b'\0' * (-len(raw) % 64)
    return struct.pack('<I', len(raw)) + raw


def read_string(b, o):
    n, = struct.unpack_from('<I', b, o)
    return b[o + 4:o + 4 + n].split(b'\0')[0].decode(), o + 4 + n


def main():
    src_path, dst, kind = sys.argv[1:4]
    mode = sys.argv[4] if len(sys.argv) > 4 else 'raw'
    cpuid = sys.argv[5] if len(sys.argv) > 5 else 'AuthenticAMD,25,17,1'
    zen4 = 'zen4' in sys.argv[6:]
    odd = 'odd' in sys.argv[6:]
    family, model = (int(x) for x in cpuid.split(',')[1:3])
    caps = CAPS | (ZEN4 if zen4 else 0) | (OPDATA4 if odd and kind == 'op' else 0)
    types = {}
    k = 0

    def pmus(secs):
        b = secs[HEADER_PMU_MAPPINGS]
        nr, = struct.unpack_from('<I', b, 0)
        o, out = 4, []
        for _ in range(nr):
            t, = struct.unpack_from('<I', b, o)
            name, o = read_string(b, o + 4)
            out.append((t, name))
        top = max(t for t, _ in out)
        types['ibs_op'], types['ibs_fetch'] = top + 1, top + 2
        out += [(top + 1, 'ibs_op'), (top + 2, 'ibs_fetch')]
        secs[HEADER_PMU_MAPPINGS] = struct.pack('<I', len(out)) + b''.join(
            struct.pack('<I', t) + perf_string(n) for t, n in out)

    def features(secs):
        pmus(secs)
        secs[HEADER_CPUID] = perf_string(cpuid)
        # event_desc: the event's name and type
        b = bytearray(secs[HEADER_EVENT_DESC])
        nr, asz = struct.unpack_from('<II', b, 0)
        o, out = 8, bytearray(b[:8])
        for _ in range(nr):
            a = bytearray(b[o:o + asz])
            struct.pack_into('<I', a, 0, types['ibs_' + kind])
            nids, = struct.unpack_from('<I', b, o + asz)
            _, o2 = read_string(b, o + asz + 4)
            out += a + struct.pack('<I', nids) + perf_string('ibs_%s//' % kind) + b[o2:o2 + 8 * nids]
            o = o2 + 8 * nids
        secs[HEADER_EVENT_DESC] = bytes(out)
        if zen4:
            # one PMU, one capability: nr_caps, (name, value)..., pmu name
            secs[HEADER_PMU_CAPS] = struct.pack('<II', 1, 1) + perf_string('zen4_ibs_extensions') + \
                perf_string('1') + perf_string('ibs_op')

    # the attrs come before the features: their type is patched at the end
    attrs = []

    def attr(b, a):
        t, = struct.unpack_from('<Q', b, a + ATTR_SAMPLE_TYPE)
        assert t == IP | TID | TIME | ADDR | DATA_SRC, hex(t)
        st = IP | TID | TIME | RAW
        if mode == 'kernel':
            st |= ADDR | WEIGHT_STRUCT | DATA_SRC
        struct.pack_into('<Q', b, a + ATTR_SAMPLE_TYPE, st)
        attrs.append(a)

    def sample(rec, st):
        nonlocal k
        ip, pidtid, time, addr, _ = struct.unpack_from('<QQQQQ', rec, 8)
        if kind == 'op':
            ctl, data, data2, data3, target = OPS[k % len(OPS)]
            regs = [ctl, ip, data, data2, data3, addr if data3 >> 17 & 1 else 0,
                    (addr & 0xfffffff) | 0x100000000 if data3 >> 18 & 1 else 0, target]
            if odd:
                regs.append(0x1234)
                if k % 3 == 0:
                    regs[2] |= 1 << 45
        else:
            ctl, extd = FETCHES[k % len(FETCHES)]
            regs = [ctl, ip, (ip & 0xfffffff) | 0x200000000 if ctl >> 52 & 1 else 0, extd]
        k += 1
        raw = struct.pack('<I', caps) + b''.join(struct.pack('<Q', r) for r in regs)
        out = bytearray(rec[:8]) + struct.pack('<QQQ', ip, pidtid, time)
        if mode == 'kernel':
            ds, w = kernel_fields(ctl, data, data2, data3, zen4, family, model)
            out += struct.pack('<Q', addr if data3 >> 17 & 1 else 0)
            out += struct.pack('<I', len(raw)) + raw
            out += struct.pack('<QQ', w, ds)
        else:
            out += struct.pack('<I', len(raw)) + raw
        struct.pack_into('<H', out, 6, len(out))
        assert len(out) % 8 == 0
        return bytes(out)

    rewrite(src_path, dst, attr, sample, features)
    b = bytearray(open(dst, 'rb').read())
    for a in attrs:
        struct.pack_into('<I', b, a, types['ibs_' + kind])
    open(dst, 'wb').write(b)
    print(k)


main()
