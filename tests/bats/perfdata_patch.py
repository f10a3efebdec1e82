#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Damage the user registers and stacks of a perf record --call-graph dwarf
file, as a hostile file would: perfdata_patch.py IN OUT WHAT

WHAT is one of
  stack-size  the first sample's stack size field: 0xfffffff8 (past the record)
  dyn-size    every sample's dyn_size: larger than its stack size
  abi32       every sample's register ABI: PERF_SAMPLE_REGS_ABI_32
  all-regs    the event's sample_regs_user: all 64 registers (the samples
              carry 20: the values are read from the stack bytes that follow)
Prints the number of samples changed (1 for the attribute ones).

The file is walked as perf.data(5) lays it out; the samples must be of one
event without PERF_SAMPLE_READ, RAW or BRANCH_STACK (perf record -e EV
--call-graph dwarf writes no others).
"""
import struct
import sys

PERF_RECORD_SAMPLE = 9
# perf_event_attr offsets
ATTR_SAMPLE_TYPE, ATTR_REGS_USER = 24, 80
# sample_type bits before the register dump, in record order
HEAD_BITS = [(1 << 16, 8), (1 << 0, 8), (1 << 1, 8), (1 << 2, 8), (1 << 3, 8),
             (1 << 6, 8), (1 << 9, 8), (1 << 7, 8), (1 << 8, 8)]
# IDENTIFIER IP TID TIME ADDR ID STREAM_ID CPU PERIOD
CALLCHAIN, RAW, BRANCH, READ, REGS_USER, STACK_USER = 1 << 5, 1 << 10, 1 << 11, 1 << 4, 1 << 12, 1 << 13


def main():
    src, dst, what = sys.argv[1:4]
    b = bytearray(open(src, 'rb').read())
    attrs_off = struct.unpack_from('<Q', b, 24)[0]
    data_off, data_size = struct.unpack_from('<QQ', b, 40)
    st, = struct.unpack_from('<Q', b, attrs_off + ATTR_SAMPLE_TYPE)
    mask, = struct.unpack_from('<Q', b, attrs_off + ATTR_REGS_USER)
    assert st & REGS_USER and st & STACK_USER and not st & (RAW | BRANCH | READ), hex(st)
    nregs = bin(mask).count('1')
    changed = 0
    off, end = data_off, data_off + data_size
    while off + 8 <= end:
        typ, _, size = struct.unpack_from('<IHH', b, off)
        if size < 8:
            break
        if typ == PERF_RECORD_SAMPLE:
            p = off + 8 + sum(n for bit, n in HEAD_BITS if st & bit)
            if st & CALLCHAIN:
                p += 8 + 8 * struct.unpack_from('<Q', b, p)[0]
            abi_at = p
            abi, = struct.unpack_from('<Q', b, p)
            p += 8 + (8 * nregs if abi else 0)
            stack_at = p
            stack_size, = struct.unpack_from('<Q', b, p)
            if what == 'stack-size' and changed == 0:
                struct.pack_into('<Q', b, stack_at, 0xfffffff8)
                changed += 1
            elif what == 'dyn-size' and stack_size:
                struct.pack_into('<Q', b, stack_at + 8 + stack_size, stack_size * 4 + 8)
                changed += 1
            elif what == 'abi32' and abi:
                struct.pack_into('<Q', b, abi_at, 1)
                changed += 1
        off += size
    if what == 'all-regs':
        struct.pack_into('<Q', b, attrs_off + ATTR_REGS_USER, (1 << 64) - 1)
        changed = 1
    open(dst, 'wb').write(b)
    print(changed)


main()
