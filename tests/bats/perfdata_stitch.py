#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Turn a perf record -g (frame-pointer call chains) file into the file
perf record --call-graph lbr writes on a machine whose LBR holds DEPTH
calls: perfdata_stitch.py IN OUT DEPTH [nohw|nocaps]

Each event gets PERF_SAMPLE_BRANCH_STACK with perf's LBR call-stack
branch_sample_type (USER | CALL_STACK | NO_FLAGS | NO_CYCLES | HW_INDEX),
and the file perf's HEADER_CPU_PMU_CAPS with branches=DEPTH (u32 count,
then a name and a value string each), where perf 6.1 finds the depth
--stitch-lbr needs.

Each thread's LBR is a ring of DEPTH entries in call-stack mode, driven by
the thread's stacks sample after sample: from one stack to the next the
calls above their common part return (the ring pops them: an entry that
was overwritten is not there to come back) and the new ones are pushed
(the oldest overwritten past DEPTH).  The call at depth d sits at physical
index d % DEPTH; hw_idx is the newest entry's.  An entry's from is the call
site (the caller's return address minus one), its to an address in the
function called (the callee's own return address, the sample's ip for the
newest), written when the call is pushed.  So a stack deeper than DEPTH
keeps only its newest DEPTH calls, and the calls of a stack that returned
below what the ring still holds are lost: what --stitch-lbr recovers from
the previous sample.  The kernel call chain keeps its kernel part and,
after PERF_CONTEXT_USER, the sample's ip alone.  A sample with no caller
is left out (perf 6.1 reads an entry past an empty call stack).

nohw: no HW_INDEX (a kernel before 5.7); nocaps: no CPU_PMU_CAPS header.
Prints the number of samples given a branch stack.
"""
import struct
import sys

from perfdata_rewrite import ATTR_BRANCH_TYPE, ATTR_SAMPLE_TYPE, BRANCH, CALLCHAIN, RAW, READ, head, rewrite

CONTEXT_USER = 0xfffffffffffffe00
HW_INDEX = 1 << 17
LBR_CALL_STACK = (1 << 0) | (1 << 11) | (1 << 14) | (1 << 15) | HW_INDEX
HEADER_CPU_PMU_CAPS = 28
TID = 1 << 1

DEPTH = int(sys.argv[3])
MODE = sys.argv[4] if len(sys.argv) > 4 else ''


class Ring:
    """one thread's LBR: the calls of its stack from depth lo up to top"""

    def __init__(self):
        self.stack = []    # (from, to) of each call, outermost first
        self.lo = 0

    def move_to(self, calls):
        """the stack becomes calls: the ones above the common part
        return, the new ones are pushed"""
        common = 0
        while common < min(len(calls), len(self.stack)) and \
                calls[common][0] == self.stack[common][0]:
            common += 1
        top = common
        self.lo = min(self.lo, top)
        self.stack = self.stack[:common] + calls[common:]
        top = len(self.stack)
        self.lo = max(self.lo, top - DEPTH)

    def branch_stack(self):
        """the entries, newest first, and hw_idx"""
        top = len(self.stack)
        entries = [self.stack[d] for d in range(top - 1, self.lo - 1, -1)]
        return entries, (top - 1) % DEPTH


RINGS = {}


def perf_string(s):
    """a header string as perf writes it: u32 length, NUL-padded to 64"""
    b = s.encode() + b'\0'
    n = (len(b) + 63) // 64 * 64
    return struct.pack('<I', n) + b + b'\0' * (n - len(b))


def lbr_sample(rec, st):
    """the sample record rec with its user chain moved to its thread's LBR"""
    _, off = head(rec, st)
    pid_off = 8 + 8 * bool(st & (1 << 16)) + 8 * bool(st & 1)
    tid, = struct.unpack_from('<I', rec, pid_off + 4) if st & TID else (0,)
    nr, = struct.unpack_from('<Q', rec, off)
    ips = list(struct.unpack_from('<%dQ' % nr, rec, off + 8))
    rest = rec[off + 8 + 8 * nr:]
    if CONTEXT_USER not in ips:
        return None
    u = ips.index(CONTEXT_USER)
    user = ips[u + 1:]
    rets = [a for a in user[1:] if 0 < a < CONTEXT_USER]
    # the calls, outermost first: call k's site and an address in its callee
    callee_addr = [user[0]] + rets
    calls = [(rets[k] - 1, callee_addr[k]) for k in range(len(rets))][::-1]
    ring = RINGS.setdefault(tid, Ring())
    ring.move_to(calls)
    entries, hw_idx = ring.branch_stack()
    if not entries:
        return None
    chain = ips[:u + 2]
    out = bytearray(rec[:off])
    out += struct.pack('<Q', len(chain)) + struct.pack('<%dQ' % len(chain), *chain)
    out += struct.pack('<Q', len(entries))
    if MODE != 'nohw':
        out += struct.pack('<Q', hw_idx)
    for frm, to in entries:
        out += struct.pack('<QQQ', frm, to, 0)
    out += rest
    struct.pack_into('<H', out, 6, len(out))
    return bytes(out)


def main():
    def attr(b, a):
        t, = struct.unpack_from('<Q', b, a + ATTR_SAMPLE_TYPE)
        assert t & CALLCHAIN and not t & (READ | RAW | BRANCH), hex(t)
        struct.pack_into('<Q', b, a + ATTR_SAMPLE_TYPE, t | BRANCH)
        bst = LBR_CALL_STACK & ~HW_INDEX if MODE == 'nohw' else LBR_CALL_STACK
        struct.pack_into('<Q', b, a + ATTR_BRANCH_TYPE, bst)

    def features(secs):
        if MODE != 'nocaps':
            secs[HEADER_CPU_PMU_CAPS] = struct.pack('<I', 2) + perf_string('branches') + \
                perf_string(str(DEPTH)) + perf_string('pmu_name') + perf_string('skylake')
    print(rewrite(sys.argv[1], sys.argv[2], attr, lbr_sample, features))


main()
