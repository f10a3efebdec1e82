#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The IBS registers of each sample, one line per register, as
"TIME NAME 0xVALUE Field value ...", sorted: ibs_lines.py perf|pfmon <
the output of perf report -D (perf 6.1's amd-sample-raw lines) or of
pfmon --smpl-module=detailed.  A field's meaning after "=" is left out
(perf's words and pfmon's differ: "1=O-State", "DataSrc 3=DRAM"), its
number kept; blanks are collapsed."""
import re
import sys

# perf's line names -> pfmon's
PERF_NAMES = {
    'ibs_op_ctl': 'IBS_OP_CTL', 'IbsOpRip': 'IBS_OP_RIP', 'ibs_op_data': 'IBS_OP_DATA',
    'ibs_op_data2': 'IBS_OP_DATA2', 'ibs_op_data3': 'IBS_OP_DATA3',
    'IbsDCLinAd': 'IBS_DC_LIN_AD', 'IbsDCPhysAd': 'IBS_DC_PHYS_AD',
    'IbsBrTarget': 'IBS_BR_TARGET', 'ibs_fetch_ctl': 'IBS_FETCH_CTL',
    'IbsFetchLinAd': 'IBS_FETCH_LIN_AD', 'IbsFetchPhysAd': 'IBS_FETCH_PHYS_AD',
    'ic_ibs_ext_ctl': 'IBS_EXTD_CTL',
}


def norm(name, value, rest):
    rest = re.sub(r'DataSrc (\d+)=.*$', r'DataSrc \1', rest)
    rest = re.sub(r'=\S+', '', rest)
    return ' '.join([name, '0x' + value.lower().removeprefix('0x')] + rest.split())


def main():
    out, pending = [], []
    time = None
    for line in sys.stdin:
        if sys.argv[1] == 'perf':
            # perf prints the registers before the sample's line
            m = re.match(r'^(\d+) 0x[0-9a-f]+ \[0x[0-9a-f]+\]: PERF_RECORD_SAMPLE', line)
            if m:
                out += ['%s %s' % (m.group(1), p) for p in pending]
                pending = []
                continue
            m = re.match(r'^(\w+):\t([0-9a-f]{16})(.*)$', line)
            if m and m.group(1) in PERF_NAMES:
                pending.append(norm(PERF_NAMES[m.group(1)], m.group(2), m.group(3)))
        else:
            m = re.match(r'^entry \d+ .*STAMP:0x([0-9a-f]+) ', line)
            if m:
                time = int(m.group(1), 16)
                continue
            m = re.match(r'^\t(IBS_\w+): (0x[0-9a-f]{16})(.*)$', line)
            if m:
                out.append('%d %s' % (time, norm(m.group(1), m.group(2), m.group(3))))
    for line in sorted(out):
        print(line)


main()
