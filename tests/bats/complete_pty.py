#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Type lines into a real interactive bash, press TAB once after each, and
print what readline left on the line: LINE<...>, one per input line.

usage: complete_pty.py BASH_COMPLETION_SCRIPT COMPLETION_SCRIPT LINE...

bash runs on a pseudo-terminal with bash-completion and the completion
under test sourced; pfmon is found in PATH.  Ctrl-T is bound to print the
line buffer (READLINE_LINE), Ctrl-U empties it for the next line.
"""
import os
import pty
import re
import select
import sys
import time


def read_until(fd, pattern, timeout):
    out = b""
    end = time.time() + timeout
    while time.time() < end:
        ready, _, _ = select.select([fd], [], [], 0.05)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
            match = re.search(pattern, out)
            if match:
                return match
    sys.exit("complete_pty: no answer from bash; got %r" % out[-400:])


def main():
    bash_completion, completion, lines = sys.argv[1], sys.argv[2], sys.argv[3:]
    pid, fd = pty.fork()
    if pid == 0:
        os.environ["TERM"] = "dumb"
        os.environ["PS1"] = "$ "
        os.environ["INPUTRC"] = "/dev/null"
        os.execvp("bash", ["bash", "--norc", "--noprofile", "-i"])
    try:
        setup = (
            "source '%s' && source '%s' && "
            "bind -x '\"\\C-t\": printf \"LI\"\"NE<%%s>\\n\" \"$READLINE_LINE\"' && "
            "echo RE\"\"ADY\n" % (bash_completion, completion)
        )
        # (the quotes split the markers: bash echoes what is typed)
        os.write(fd, setup.encode())
        read_until(fd, rb"READY\r?\n", 20)
        for line in lines:
            # TAB, then print the buffer: readline reads the keys in
            # order, so Ctrl-T runs once the completion is done
            os.write(fd, line.encode() + b"\t\x14")
            match = read_until(fd, rb"LINE<([^>\r\n]*)>", 20)
            print("LINE<%s>" % match.group(1).decode())
            os.write(fd, b"\x15")
    finally:
        os.kill(pid, 9)
        os.waitpid(pid, 0)


main()
