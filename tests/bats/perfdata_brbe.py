#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Turn a perf record file of tests/fixtures/branchloop into the file an
Arm BRBE recording would be: perfdata_brbe.py IN OUT LABELS

The header's architecture (HEADER_ARCH) becomes aarch64, written in place
(perf pads the string to 64 bytes); each sample in loop4 gets a branch
stack of 24 entries, newest first, cycling through the branch types
(PERF_BR_*, with PERF_BR_EXTEND_ABI and each new_type), the speculation
states (spec) and the privilege levels (priv) BRBE records, laid out per
the kernel's struct perf_branch_entry (linux/perf_event.h of 6.1): from,
to, flags with mispred:1 predicted:1 in_tx:1 abort:1 cycles:16 type:4
spec:2 new_type:4 priv:3 reserved:31.  branch_sample_type is
ANY|USER|TYPE_SAVE|PRIV_SAVE|HW_INDEX.  Prints the samples given a stack.
"""
import struct
import sys

from perfdata_rewrite import ATTR_BRANCH_TYPE, ATTR_SAMPLE_TYPE, BRANCH, CALLCHAIN, RAW, READ, head, rewrite

BTYPE = (1 << 0) | (1 << 3) | (1 << 16) | (1 << 17) | (1 << 18)
HEADER_ARCH = 6


def entry(k, lab):
    typ = k if k < 16 else 15        # UNKNOWN .. EXTEND_ABI, then EXTEND_ABI
    new = k - 16 if k >= 16 else 0   # with each new type: FAULT_ALGN .. ARCH_5
    spec, priv = k % 4, (k // 4) % 4
    pred = (1 << (k % 3)) & 3        # mispredicted, predicted or neither
    f = pred | (k * 7 % 50) << 4 | typ << 20 | spec << 24 | new << 26 | priv << 30
    return (lab['back'] + k, lab['loop'] + 2 * k, f)


def set_arch(path):
    b = bytearray(open(path, 'rb').read())
    data_off, data_size = struct.unpack_from('<QQ', b, 40)
    feats = int.from_bytes(b[72:104], 'little')
    at = data_off + data_size
    for bit in range(HEADER_ARCH):
        at += 16 * ((feats >> bit) & 1)
    off, size = struct.unpack_from('<QQ', b, at)
    n, = struct.unpack_from('<I', b, off)
    assert feats >> HEADER_ARCH & 1 and n >= 8 and 4 + n <= size
    b[off + 4:off + 4 + n] = b'aarch64'.ljust(n, b'\0')
    open(path, 'wb').write(b)


def main():
    src, dst, labels = sys.argv[1:4]
    lab = {k: int(v, 16) for k, v in (line.split() for line in open(labels))}
    lo, hi = lab['loop'], lab['rarejmp'] + 2
    entries = [entry(k, lab) for k in range(24)]

    def attr(b, a):
        t, = struct.unpack_from('<Q', b, a + ATTR_SAMPLE_TYPE)
        assert not t & (READ | RAW | BRANCH), hex(t)
        struct.pack_into('<Q', b, a + ATTR_SAMPLE_TYPE, t | BRANCH)
        struct.pack_into('<Q', b, a + ATTR_BRANCH_TYPE, BTYPE)

    def sample(rec, st):
        ip, off = head(rec, st)
        if ip is None or not lo <= ip < hi:
            return None
        if st & CALLCHAIN:
            off += 8 + 8 * struct.unpack_from('<Q', rec, off)[0]
        out = bytearray(rec[:off]) + struct.pack('<QQ', len(entries), len(entries) - 1)
        for e in entries:
            out += struct.pack('<QQQ', *e)
        out += rec[off:]
        struct.pack_into('<H', out, 6, len(out))
        return bytes(out)

    print(rewrite(src, dst, attr, sample))
    set_arch(dst)


main()
