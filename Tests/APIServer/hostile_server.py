#!/usr/bin/env python3
"""A hostile Big Things server: every API request gets the same legal but ruinous reply.

Python 3 standard library only. Binds 127.0.0.1 and prints the chosen port as the first line
on stdout ("PORT 43121"), so tests can pass --port 0.

    python3 hostile_server.py --port 0 --mode endless|gzip-bomb|lying-length|drip|gzip-fine

Modes (each a 200 reply to any GET or POST outside /_control):
  endless       Transfer-Encoding: chunked, 64 KiB chunks of spaces, never ending.
  gzip-bomb     Content-Encoding: gzip, chunked: 1 GiB of spaces, compressed on the fly
                (about 1 MiB on the wire; nothing big is stored anywhere).
  lying-length  Content-Length: 2000000000, then a trickle of 16 bytes every 100 ms.
  drip          Content-Length: 100000 (under every cap), then one byte a second.
  gzip-fine     not hostile: a catalogue of 20,000 things (about 2 MB of JSON, compressing
                about 10-fold), gzip-compressed, with its Content-Length (decompression must
                still work for honest servers).

GET /_control/state lists the API connections: [{"mode", "sent" (body bytes written),
"hung_up" (the client closed the connection while the reply was under way), "seconds"
(from the request to the end of the reply, or to the hang-up)}]. A client that really
stops a transfer shows up as hung_up soon after its deadline or cap; one that merely
stops listening keeps the server writing.
"""

import argparse
import gzip
import json
import sys
import threading
import time
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOCK = threading.Lock()
CONNECTIONS = []
MODE = "endless"


class HungUp(Exception):
    pass


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        pass

    def do_GET(self):
        if self.path == "/_control/state":
            with LOCK:
                body = json.dumps(CONNECTIONS).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(body)
            self.close_connection = True
            return
        self.attack()

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        if 0 < length <= 8 << 20:
            self.rfile.read(length)
        self.attack()

    def attack(self):
        record = {"mode": MODE, "sent": 0, "hung_up": False, "seconds": None}
        with LOCK:
            CONNECTIONS.append(record)
        started = time.monotonic()
        self.close_connection = True
        try:
            getattr(self, MODE.replace("-", "_"))(record)
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError, HungUp):
            with LOCK:
                record["hung_up"] = True
        finally:
            with LOCK:
                record["seconds"] = round(time.monotonic() - started, 3)

    def head(self, headers):
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.flush()

    def write(self, record, data, chunked):
        if not data:
            return
        if chunked:
            self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        else:
            self.wfile.write(data)
        self.wfile.flush()
        with LOCK:
            record["sent"] += len(data)

    def endless(self, record):
        self.head([("Transfer-Encoding", "chunked")])
        block = b" " * 65536
        while True:
            self.write(record, block, True)

    def gzip_bomb(self, record):
        self.head([("Transfer-Encoding", "chunked"), ("Content-Encoding", "gzip")])
        z = zlib.compressobj(9, zlib.DEFLATED, 31)   # 31: gzip framing
        spaces = b" " * (1 << 20)
        for _ in range(1024):
            self.write(record, z.compress(spaces), True)
        self.write(record, z.flush(), True)
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def lying_length(self, record):
        self.head([("Content-Length", "2000000000")])
        while record["sent"] < 2000000000:
            self.write(record, b" " * 16, False)
            time.sleep(0.1)

    def gzip_fine(self, record):
        things = [{"id": "api:t%d" % i, "name": "Big Thing %d" % i, "town": "Town %d" % (i * 7919 % 10007),
                   "state": "QLD", "lat": -20 - (i * 37 % 1000) / 1000, "lon": 140 + (i * 91 % 1000) / 1000}
                  for i in range(20000)]
        body = gzip.compress(json.dumps({"things": things}).encode())
        self.head([("Content-Length", str(len(body))), ("Content-Encoding", "gzip")])
        self.write(record, body, False)

    def drip(self, record):
        self.head([("Content-Length", "100000")])
        for _ in range(100000):
            self.write(record, b" ", False)
            time.sleep(1)


def main():
    global MODE
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--mode", required=True, choices=["endless", "gzip-bomb", "lying-length", "drip", "gzip-fine"])
    a = p.parse_args()
    MODE = a.mode
    server = ThreadingHTTPServer(("127.0.0.1", a.port), Handler)
    server.daemon_threads = True
    print("PORT %d" % server.server_address[1], flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
