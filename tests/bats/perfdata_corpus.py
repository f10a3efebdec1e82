#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Give a perf record file the shape of files the public corpus had
(tests/corpus): perfdata_corpus.py IN OUT WHAT

WHAT is one of
  raw    every event's type PERF_TYPE_RAW (4), as perf record -e
         cpu/mem-loads/ writes a PEBS event: perf script then shows the
         samples' data address, data source, weight and instruction latency
  stack  the last user frame of each call chain (perf record -g) an
         address in the [stack] mapping, STACK (hex) the 4th argument: a
         frame pointer walk that ran into the stack, as in real recordings

Prints the number of samples changed (the events' count for raw)."""
import struct
import sys

from perfdata_rewrite import CALLCHAIN, READ, head, rewrite, sample_types

PERF_TYPE_RAW = 4
PERF_CONTEXT_MAX = (1 << 64) - 4095


def main():
    src, dst, what = sys.argv[1:4]
    if what == 'raw':
        b = bytearray(open(src, 'rb').read())
        types = sample_types(b)
        for a, _ in types:
            struct.pack_into('<I', b, a, PERF_TYPE_RAW)
        open(dst, 'wb').write(b)
        print(len(types))
        return
    stack = int(sys.argv[4], 16)

    def sample(rec, st):
        assert st & CALLCHAIN and not st & READ, hex(st)
        _, off = head(rec, st)
        nr, = struct.unpack_from('<Q', rec, off)
        ips = struct.unpack_from('<%dQ' % nr, rec, off + 8)
        # the last entry, when it is a user frame after the sample's own
        if nr < 3 or ips[-1] >= PERF_CONTEXT_MAX or ips[-1] >> 47:
            return rec
        out = bytearray(rec)
        struct.pack_into('<Q', out, off + 8 * nr, stack + 0x88)
        return bytes(out)

    print(rewrite(src, dst, lambda b, a: None, sample))


main()
