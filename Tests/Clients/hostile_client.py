#!/usr/bin/python3
"""A hotcoldd socket client for the hostile-client tests, run as another Unix user
(`setpriv --reuid=UID ... /usr/bin/python3 hostile_client.py MODE ...`). Prints JSON on stdout.

  flood PATH COUNT FILE   One connection. Sends the COUNT lines of FILE (a template; "{i}" is
                          replaced by the line's number) in one stream from a second thread
                          while this one reads COUNT replies. Prints
                          {"replies": [...every reply line...]}.
  connect PATH COUNT      Opens COUNT connections and reads each one's first line. Prints
                          {"greeted": N, "refused": [ERROR messages]}, then holds the
                          connections open until stdin is closed.
  ask PATH                One connection; for each line on stdin, sends it and prints the reply
                          (skipping event lines), one per line, flushed.
  exports PATH COUNT FMT  Opens COUNT connections, asks each for an export of every place in
                          FMT (gpx or geojson) and never downloads it. Prints
                          {"exported": N, "sizes": [...], "errors": [ERROR messages]} once every
                          connection has its reply, then holds them open until stdin is closed.
"""
import json
import os
import socket
import sys
import threading

REPLIES = {"ERROR", "STORE", "TRACKING", "STATUS", "VERSION", "WATCH", "POLL", "OBSERVATIONS", "OUTBOX",
           "VISITS", "EXPORT", "CHUNK", "UPLOAD", "TARGETS", "PLACES", "PLACE", "NEAR", "IMPORT", "SUBMIT",
           "RESULT", "FOLLOWING", "FEED", "ACTING"}


def connect(path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(30)
    s.connect(path)
    return s, s.makefile("rb")


def read_json(f):
    line = f.readline()
    if not line:
        return None, None
    text = line.decode("utf-8").rstrip("\n")
    try:
        return text, json.loads(text)
    except ValueError:
        return text, {}


def next_reply(f):
    while True:
        text, obj = read_json(f)
        if text is None or obj.get("class") in REPLIES:
            return text


def flood(path, count, template_file):
    with open(template_file) as t:
        template = t.read().rstrip("\n")
    s, f = connect(path)
    read_json(f)  # VERSION
    payload = "".join(template.replace("{i}", str(i)) + "\n" for i in range(count)).encode()
    sender = threading.Thread(target=lambda: s.sendall(payload), daemon=True)
    sender.start()
    replies = []
    while len(replies) < count:
        text = next_reply(f)
        if text is None:
            break
        replies.append(text)
    print(json.dumps({"replies": replies}), flush=True)


def hold(path, count):
    greeted, refused, held = 0, [], []
    for _ in range(count):
        try:
            s, f = connect(path)
        except OSError as e:
            refused.append("connect: %s" % e)
            continue
        text, obj = read_json(f)
        if obj and obj.get("class") == "VERSION":
            greeted += 1
            held.append((s, f))
        else:
            refused.append(obj.get("message", text) if obj else "closed")
    print(json.dumps({"greeted": greeted, "refused": refused}), flush=True)
    sys.stdin.read()


def exports(path, count, fmt):
    conns = []
    for _ in range(count):
        s, f = connect(path)
        s.settimeout(600)
        read_json(f)
        s.sendall(json.dumps({"cmd": "export", "format": fmt}).encode() + b"\n")
        conns.append((s, f))
    sizes, errors = [], []
    for s, f in conns:
        text = next_reply(f)
        obj = json.loads(text) if text else {}
        if obj.get("class") == "EXPORT":
            sizes.append(obj["size"])
        else:
            errors.append(obj.get("message", text or "closed"))
    print(json.dumps({"exported": len(sizes), "sizes": sizes, "errors": errors}), flush=True)
    sys.stdin.read()


def ask(path):
    s, f = connect(path)
    read_json(f)
    for line in sys.stdin:
        s.sendall(line.rstrip("\n").encode() + b"\n")
        print(next_reply(f), flush=True)


def watch(path, classes, since=None):
    """Watches the classes given (comma-separated) and prints every line it is sent."""
    s, f = connect(path)
    read_json(f)
    request = {"cmd": "watch", "classes": classes.split(",")}
    if since is not None:
        request["since"] = int(since)
    s.sendall(json.dumps(request, separators=(",", ":")).encode() + b"\n")
    s.settimeout(None)
    # Ends when the test closes stdin (it is done), not after the socket's idle timeout.
    threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()
    for line in f:
        print(line.decode().rstrip("\n"), flush=True)


if __name__ == "__main__":
    mode, path = sys.argv[1], sys.argv[2]
    if mode == "watch":
        watch(path, sys.argv[3], sys.argv[4] if len(sys.argv) > 4 else None)
    if mode == "flood":
        flood(path, int(sys.argv[3]), sys.argv[4])
    elif mode == "connect":
        hold(path, int(sys.argv[3]))
    elif mode == "exports":
        exports(path, int(sys.argv[3]), sys.argv[4])
    else:
        ask(path)
