#!/usr/bin/env python3
"""A stand-in for hotcoldd on a Unix socket that says only what it is told to, so a client's
handling of replies a healthy daemon rarely sends (busy, internal errors, garbage) can be
tested against the real client binary.

    scripted_daemon.py SOCKET GREETING [REPLY...]

Prints "ready" once listening. Each connection gets GREETING as its first line, then one
REPLY per line it sends, in order (the last one repeated); a reply of "-" closes the
connection instead. Runs until killed.
"""
import os
import socket
import sys


def serve(conn, greeting, replies):
    conn.sendall(greeting.encode() + b"\n")
    buf, i = b"", 0
    while True:
        data = conn.recv(65536)
        if not data:
            return
        buf += data
        while b"\n" in buf:
            _, buf = buf.split(b"\n", 1)
            reply = replies[min(i, len(replies) - 1)] if replies else "-"
            i += 1
            if reply == "-":
                return
            conn.sendall(reply.encode() + b"\n")


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    path, greeting, replies = sys.argv[1], sys.argv[2], sys.argv[3:]
    if os.path.exists(path):
        os.unlink(path)
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path)
    server.listen(8)
    print("ready", flush=True)
    while True:
        conn, _ = server.accept()
        try:
            serve(conn, greeting, replies)
        except OSError:
            pass
        finally:
            conn.close()


if __name__ == "__main__":
    main()
