#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""shrink-attr.py IN OUT SIZE: a copy of the perf.data file IN whose event
attributes are SIZE bytes long (perf_event_attr.size), for a perf older
than the one that wrote it (perf 6.1 refuses the 136-byte attribute of perf
6.3 and later: "file uses a more recent and unsupported ABI").  Only the
attribute table changes, in place (the data and the features keep their
offsets); refused (exit 1) when a byte cut off is not zero, or when the
file is already that small.  The attributes in the event_desc feature
are left alone: perf reads as much of them as it knows."""
import struct
import sys


def main():
    src, dst, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
    b = bytearray(open(src, 'rb').read())
    entry, off, total = struct.unpack_from('<QQQ', b, 16)
    old = entry - 16
    if old <= size or total % entry:
        sys.exit('shrink-attr: attributes of %d bytes already' % old)
    table = bytearray()
    for a in range(off, off + total, entry):
        attr = b[a:a + old]
        if any(attr[size:]):
            sys.exit('shrink-attr: an attribute uses bytes past %d' % size)
        struct.pack_into('<I', attr, 4, size)
        table += attr[:size] + b[a + old:a + entry]
    b[off:off + total] = table + bytes(total - len(table))
    struct.pack_into('<QQ', b, 16, size + 16, off)
    struct.pack_into('<Q', b, 32, len(table))
    open(dst, 'wb').write(b)


main()
