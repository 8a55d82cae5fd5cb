#!/usr/bin/python3
"""Optional map tiles under the radar (`[page] tile_url`), in chromium: the page asks the tile
server (here a loopback stand-in) for Web Mercator tiles around the fix, the
Content-Security-Policy lets exactly that origin through, and the browser reports no violation;
Near me draws its places on a map of the same tiles, fitting at 320 to 800 px.

Usage: tiles.py --bin .build/debug"""

import argparse
import base64
import http.server
import os
import re
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(__file__))
from harness import CLIPPED_JS, OUTSIDE_JS, TARGET, Stack, browser, check, free_port, set_viewport, wait_until  # noqa: E402

# A 1×1 PNG (the page scales it to the tile's size).
PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    args = ap.parse_args()
    asked = []

    class Tiles(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            asked.append(self.path)
            self.send_response(200)
            self.send_header("Content-Type", "image/png")
            self.send_header("Content-Length", str(len(PNG)))
            self.end_headers()
            self.wfile.write(PNG)

        def log_message(self, *a):
            pass

    tport = free_port()
    tiles = http.server.ThreadingHTTPServer(("127.0.0.1", tport), Tiles)
    threading.Thread(target=tiles.serve_forever, daemon=True).start()
    cfg = os.path.join(tempfile.mkdtemp(prefix="hotcold-tiles-"), "web.toml")
    with open(cfg, "w") as f:
        f.write('[page]\ntile_url = "http://127.0.0.1:%d/{z}/{x}/{y}.png"\n' % tport)
    other = (TARGET[0] - 600 / 110_850.0, TARGET[1] + 0.004, "Big Side Prawn")   # ~385 m east of the start
    stack = Stack(os.path.abspath(args.bin), web_args=["--config", cfg], extra_targets=[other])
    page, failed = None, False
    try:
        page = browser(800, 480)
        page.get(stack.url + "/")
        wait_until(lambda: page.execute_script("return !!(window.hotcold && window.hotcold.session && window.hotcold.link && window.hotcold.link.up)"),
                   20, "the page")
        lat = TARGET[0] - 600 / 110_850.0
        for i in range(8):
            stack.send_fix(time.time(), lat + i * 2 / 110_850.0, TARGET[1], 8.0, 0.0)
            time.sleep(0.25)
        wait_until(lambda: len(asked) >= 9, 10, "nine tile requests")
        ok = all(re.fullmatch(r"/\d+/\d+/\d+\.png", p) for p in asked)
        print(("ok   " if ok else "FAIL ") + "the page asked the tile server for z/x/y tiles: %s" % asked[:9])
        failed |= not ok
        time.sleep(2.5)   # ten more redraws (STATUS every 0.25 s)
        print(("ok   " if len(asked) == 9 else "FAIL ") + "each tile asked for once across redraws (%d requests)" % len(asked))
        failed |= len(asked) != 9
        images = page.execute_script("return document.querySelectorAll('#radar image').length")
        print(("ok   " if images == 9 else "FAIL ") + "nine tiles drawn under the radar (%d)" % images)
        failed |= images != 9
        # Focus: by default the nearest hunted target; a tap on another in the list focuses it.
        wait_until(lambda: page.execute_script("return window.hotcold.targets.size") == 2, 5, "two targets")
        first = page.find_element("id", "f-name").text
        print(("ok   " if first == other[2] else "FAIL ") + "the nearest hunted target is the focus by default (%r)" % first)
        failed |= first != other[2]
        for li in page.find_elements("css selector", "#targets li"):
            if li.text.startswith(TARGET[2]):
                li.click()
        wait_until(lambda: page.find_element("id", "f-name").text == TARGET[2], 3, "the tapped target in focus")
        print("ok   a tap on a target in the list focuses it")
        page.find_element("id", "radar-mode").click()
        mode = page.find_element("id", "radar-mode").text
        print(("ok   " if mode == "Course up" else "FAIL ") + "the radar switches to course-up (%r)" % mode)
        failed |= mode != "Course up"
        # Near me: its places on the map, north up, over tiles of its own.
        page.execute_script("location.hash = '#near'")
        wait_until(lambda: page.execute_script("return document.querySelectorAll('#nr-list li').length") > 0, 10, "Near me")
        wait_until(lambda: page.execute_script("return document.querySelectorAll('#nr-map image').length") == 9, 10, "the map's tiles")
        rows = page.execute_script("return [...document.querySelectorAll('#nr-list li')].map(l => l.dataset.id)")
        dots = page.execute_script("return [...document.querySelectorAll('#nr-map .dot')].map(d => d.dataset.id)")
        print(("ok   " if dots == rows else "FAIL ") + "Near me's map: nine tiles and a dot for each of the %d places listed" % len(rows))
        failed |= dots != rows
        check.failed = False
        for (w, h) in ((320, 568), (390, 844), (800, 480), (568, 320)):
            set_viewport(page, w, h, w < 600 or h < 600)
            n = page.execute_script("window.dispatchEvent(new Event('resize')); return window.hotcold.renders")
            wait_until(lambda: page.execute_script("return window.hotcold.renders") > n, 5, "a redraw")
            bad = page.execute_script(OUTSIDE_JS) + page.execute_script(CLIPPED_JS, "#nr-head, .rows li span, .pill, button, select")
            size = page.execute_script("return Math.round(document.getElementById('nr-map').getBoundingClientRect().height)")
            check(not bad and size >= 100, "%dx%d: Near me with its map fits (map %d px) %s" % (w, h, size, bad[:4]))
            if os.environ.get("HOTCOLD_SHOTS") and (w, h) == (390, 844):
                page.save_screenshot(os.path.join(os.environ["HOTCOLD_SHOTS"], "near-map-390x844.png"))
        failed |= check.failed
        logs = [l["message"] for l in page.get_log("browser") if "Content Security Policy" in l["message"]]
        print(("ok   " if not logs else "FAIL ") + "no Content-Security-Policy violation %s" % logs[:3])
        failed |= bool(logs)
    finally:
        if page is not None:
            page.quit()
        stack.stop()
        tiles.shutdown()
    if failed:
        sys.exit(1)
    print("PASS")


if __name__ == "__main__":
    main()
