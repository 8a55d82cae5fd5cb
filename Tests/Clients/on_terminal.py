#!/usr/bin/env python3
"""Runs a command with its stderr on a real pseudo-terminal and its stdout on a pipe, the way a
user who redirects output (`hotcold replay drive.nmea > events.jsonl`) runs it.

    on_terminal.py STDOUT_FILE STDERR_FILE COLUMNS -- COMMAND [ARG...]

Writes what the command printed on stdout to STDOUT_FILE and everything that reached the
terminal (stderr) to STDERR_FILE, byte for byte, and exits with the command's status.
"""
import fcntl
import os
import struct
import subprocess
import sys
import termios


def main():
    if len(sys.argv) < 6 or sys.argv[4] != "--":
        sys.exit(__doc__)
    out_path, err_path, columns, command = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[5:]
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    with open(out_path, "wb") as out:
        child = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=out, stderr=slave)
    os.close(slave)
    seen = bytearray()
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: every copy of the slave is closed
            break
        if not chunk:
            break
        seen += chunk
    status = child.wait()
    with open(err_path, "wb") as err:
        err.write(seen)
    sys.exit(status if status >= 0 else 128 - status)


main()
