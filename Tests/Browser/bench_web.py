#!/usr/bin/python3
"""Figures for hotcold-web (printed, never asserted: the machine is shared and noisy):
fix -> DOM latency in chromium (p50/p99 over a drive), hotcold-web's RSS idle and with 20
live streams, and the page's bytes.

Usage: bench_web.py --bin .build/release"""

import argparse
import os
import re
import socket
import statistics
import sys
import tempfile
import threading
import time
import urllib.request

sys.path.insert(0, os.path.dirname(__file__))
from harness import TARGET, Stack, browser, meridian_distance, rss_kib, wait_until  # noqa: E402

SPEED, STEP, START, END, M_PER_DEG = 30.0, 0.25, 800.0, 300.0, 110_850.0


def sse_reader(port, stop, counts, i):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(("GET /events HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % port).encode())
    s.settimeout(0.5)
    while not stop.is_set():
        try:
            b = s.recv(65536)
        except socket.timeout:
            continue
        if not b:
            break
        counts[i] += b.count(b"\nid: ") + b.startswith(b"id: ")
    s.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--clients", type=int, default=20)
    args = ap.parse_args()
    cfg = os.path.join(tempfile.mkdtemp(prefix="hotcold-bench-web-"), "bench-web.toml")
    with open(cfg, "w") as f:
        f.write("[live]\nmax_clients = 64\n[access]\nrequests_per_second = 1000.0\nrequest_burst = 1000\n")
    stack = Stack(os.path.abspath(args.bin), web_args=["--config", cfg])
    os.unlink(cfg)
    page = None
    try:
        total = 0
        # The page, its style and its script: /js/main.js and every module it imports, as the
        # browser loads them.
        js, todo = [], ["main.js"]
        while todo:
            name = todo.pop()
            if name in js:
                continue
            body = urllib.request.urlopen(stack.url + "/js/" + name).read()
            total += len(body)
            js.append(name)
            todo += re.findall(r'from "\./([a-z0-9-]+\.js)"', body.decode())
        for p in ["/", "/app.css"]:
            total += len(urllib.request.urlopen(stack.url + p).read())
        print("FIGURES page bytes (/, /app.css, /js/*.js: %d modules): %d (%.1f KB of the 300 KB budget)" % (len(js), total, total / 1024))
        time.sleep(1)
        print("FIGURES hotcold-web RSS idle: %.1f MiB" % (rss_kib(stack.web_pid()) / 1024))

        page = browser(800, 480)
        page.get(stack.url + "/")
        wait_until(lambda: page.execute_script("return !!(window.hotcold && window.hotcold.status)"), 20, "the page")
        stop, counts = threading.Event(), [0] * args.clients
        threads = [threading.Thread(target=sse_reader, args=(stack.web_port, stop, counts, i), daemon=True) for i in range(args.clients)]
        for t in threads:
            t.start()
        time.sleep(1)
        lat0 = TARGET[0] - START / M_PER_DEG
        sent = []
        t_next = time.time()
        peak = 0
        for i in range(int((START + END) / (SPEED * STEP)) + 1):
            lat = lat0 + i * SPEED * STEP / M_PER_DEG
            time.sleep(max(0, t_next - time.time()))
            t = time.time()
            stack.send_fix(t, lat, TARGET[1], SPEED, 0.0)
            sent.append((t * 1000, meridian_distance(lat, TARGET[0])))
            t_next += STEP
            if i % 8 == 0:
                peak = max(peak, rss_kib(stack.web_pid()))
        time.sleep(1.5)
        print("FIGURES hotcold-web RSS with %d live streams + 1 browser during the drive: %.1f MiB (peak sampled)"
              % (args.clients, peak / 1024))
        print("FIGURES events (with an id) delivered per stream: min %d, max %d" % (min(counts), max(counts)))
        stop.set()
        updates = page.execute_script("return window.hotcold.updates")
        # Each fix: until the page shows it or a later fix (one that superseded it within the
        # same STATUS interval).
        shown = []
        for u in updates:
            if not u["text"].endswith(" m"):
                continue
            v = float(u["text"][:-2])
            recent = [j for j, (t, d) in enumerate(sent) if t <= u["t"] + 5][-12:]
            if recent:
                j = min(recent, key=lambda j: abs(sent[j][1] - v))
                if abs(sent[j][1] - v) <= 2.5:
                    shown.append((u["t"], j))
        lat = []
        for i, (t, d) in enumerate(sent):
            first = next((ts for ts, j in shown if j >= i and ts >= t - 5), None)
            if first is not None:
                lat.append(max(0.0, first - t))
        if len(lat) >= 2:
            q = statistics.quantiles(lat, n=100)
            print("FIGURES fix -> DOM latency (chromium, status_interval 0.25 s) over %d of %d fixes: p50 %.0f ms, p99 %.0f ms, max %.0f ms"
                  % (len(lat), len(sent), statistics.median(lat), q[98], max(lat)))
    finally:
        if page is not None:
            page.quit()
        stack.stop()


if __name__ == "__main__":
    main()
