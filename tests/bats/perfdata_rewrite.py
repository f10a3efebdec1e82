# SPDX-License-Identifier: GPL-2.0-or-later
"""The walk of a perf.data file (perf.data(5)) that the test generators
share: rewrite(src, dst, attr, sample) calls attr(buf, offset) on each
perf_event_attr (to patch it in place) and sample(record, sample_type) on
each PERF_RECORD_SAMPLE, which returns the new record or None to drop it;
the data section and the feature table's offsets after it follow the new
size.  With features, features(secs) may change, add or remove the header
feature sections: secs maps perf's feature number (HEADER_*) to its bytes.  Returns the number of samples sample() changed (it says so by
returning a record that is not the one it was given)."""
import struct

PERF_RECORD_SAMPLE = 9
ATTR_SAMPLE_TYPE, ATTR_BRANCH_TYPE = 24, 72
# sample_type bits and the fields before the call chain, in record order:
# IDENTIFIER IP TID TIME ADDR ID STREAM_ID CPU PERIOD
HEAD_BITS = [1 << 16, 1 << 0, 1 << 1, 1 << 2, 1 << 3, 1 << 6, 1 << 9, 1 << 7, 1 << 8]
IP, READ, CALLCHAIN, RAW, BRANCH = 1 << 0, 1 << 4, 1 << 5, 1 << 10, 1 << 11


def head(rec, st):
    """(ip or None, offset of the field after PERIOD) of a sample record"""
    off, ip = 8, None
    for bit in HEAD_BITS:
        if st & bit:
            if bit == IP:
                ip, = struct.unpack_from('<Q', rec, off)
            off += 8
    return ip, off


def sample_types(b):
    """each attr's offset and sample_type"""
    attr_size, attrs_off, attrs_size = struct.unpack_from('<QQQ', b, 16)
    return [(a, struct.unpack_from('<Q', b, a + ATTR_SAMPLE_TYPE)[0])
            for a in range(attrs_off, attrs_off + attrs_size, attr_size)]


def read_features(b, data_end):
    """{feature number: section bytes} of a file whose data ends at data_end"""
    secs = {}
    k = 0
    for word in range(4):
        bits, = struct.unpack_from('<Q', b, 72 + 8 * word)
        for i in range(64):
            if bits >> i & 1:
                o, n = struct.unpack_from('<QQ', b, data_end + 16 * k)
                secs[64 * word + i] = bytes(b[o:o + n])
                k += 1
    return secs


def write_features(b, data_end, secs):
    """the table and sections of secs after the data; b's bitmap set"""
    for word in range(4):
        struct.pack_into('<Q', b, 72 + 8 * word,
                         sum(1 << (f % 64) for f in secs if f // 64 == word))
    table, body = bytearray(), bytearray()
    at = data_end + 16 * len(secs)
    for f in sorted(secs):
        table += struct.pack('<QQ', at + len(body), len(secs[f]))
        body += secs[f]
    return bytes(table + body)


def rewrite(src, dst, attr, sample, features=None):
    b = bytearray(open(src, 'rb').read())
    data_off, data_size = struct.unpack_from('<QQ', b, 40)
    types = sample_types(b)
    st = types[0][1]
    assert all(t == st for _, t in types), 'events of different sample types'
    for a, _ in types:
        attr(b, a)
    data = bytearray()
    changed = 0
    off = data_off
    while off < data_off + data_size:
        typ, size = struct.unpack_from('<IxxH', b, off)
        rec = bytes(b[off:off + size])
        off += size
        if typ == PERF_RECORD_SAMPLE:
            new = sample(rec, st)
            if new is None:
                continue
            changed += new != rec
            rec = new
        data += rec
    if features:
        secs = read_features(b, data_off + data_size)
        features(secs)
        struct.pack_into('<Q', b, 48, len(data))
        tail = write_features(b, data_off + len(data), secs)
        open(dst, 'wb').write(b[:data_off] + data + tail)
        return changed
    # the feature sections follow the data: their table's offsets move
    delta = len(data) - data_size
    feats = b[data_off + data_size:]
    nfeat = sum(bin(w).count('1') for w in struct.unpack_from('<4Q', b, 72))
    table = bytearray(feats[:16 * nfeat])
    for k in range(nfeat):
        o, = struct.unpack_from('<Q', table, 16 * k)
        struct.pack_into('<Q', table, 16 * k, o + delta)
    struct.pack_into('<Q', b, 48, len(data))
    open(dst, 'wb').write(b[:data_off] + data + table + feats[16 * nfeat:])
    return changed
