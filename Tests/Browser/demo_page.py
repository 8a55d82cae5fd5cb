#!/usr/bin/python3
"""`scripts/demo` shows the page: run as a user would (with the binaries already built), it
prints the live page's address; chromium opening it follows the demo drive live — the drive's
receiver times are from 2024, yet no OLD DATA banner while the fixes come (the page ages each
fix by the daemon's age_s) and the distance moves.

Usage: demo_page.py --bin .build/debug"""

import argparse
import os
import re
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from harness import browser, check, wait_until  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    args = ap.parse_args()
    env = dict(os.environ, HOTCOLD_DEMO_BIN=os.path.abspath(args.bin))
    demo = subprocess.Popen([os.path.join(ROOT, "scripts", "demo")], cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    page, lines = None, []
    try:
        url = None
        end = time.time() + 120
        while url is None and time.time() < end:
            line = demo.stderr.readline().decode(errors="replace")
            if not line:
                break
            lines.append(line.rstrip())
            m = re.search(r"the live page: open (http://127\.0\.0\.1:\d+/)", line)
            if m:
                url = m.group(1)
        check(url is not None, "scripts/demo prints the live page's address (%s)" % (url or lines[-3:]))
        if url is None:
            return
        page = browser(800, 480)
        page.get(url)
        wait_until(lambda: page.execute_script("return !!(window.hotcold && window.hotcold.status && window.hotcold.status.gps.last_fix)"), 60,
                   "the page to show the demo drive's first fix")
        seen, old, dists = 0, [], set()
        t_end = time.time() + 15
        while time.time() < t_end:
            s = page.execute_script("""const b = document.getElementById('banner'), f = window.hotcold.status.gps.last_fix;
                return {banner: b.hidden ? null : b.textContent, dist: document.getElementById('f-dist').textContent, time: f.time}""")
            seen += 1
            if s["banner"]:
                old.append(s["banner"])
            dists.add(s["dist"])
            time.sleep(0.25)
        year = page.execute_script("return window.hotcold.status.gps.last_fix.time")[:4]
        check(year == "2024", "the drive's fixes are dated %s, years before this box's clock" % year)
        check(not old, "the page shows the drive live: no OLD DATA in %d looks over 15 s (%s)" % (seen, old[:2]))
        check(len(dists) >= 5, "the distance shown moves with the drive (%d values)" % len(dists))
    finally:
        if page is not None:
            page.quit()
        # Ctrl-C, as a user stops it: the whole foreground group gets SIGINT and the script's
        # trap stops hotcold-web, hotcoldd and the replay.
        try:
            os.killpg(demo.pid, signal.SIGINT)
            demo.wait(20)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            pass
        check(demo.returncode is not None, "Ctrl-C stops the demo (status %s)" % demo.returncode)
        try:
            os.killpg(demo.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    if check.failed:
        sys.exit(1)
    print("PASS")


if __name__ == "__main__":
    main()
