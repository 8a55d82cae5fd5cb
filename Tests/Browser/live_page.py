#!/usr/bin/python3
"""The live page in a real browser (Debian's chromium through selenium), against a real
hotcoldd fed by a real gpsd, driving due north past a target:

  * the distance text and the tier shown change within 1 s of the fix;
  * ARRIVED appears;
  * hotcold-web restarted mid-drive: the page resumes, and its events have no gap and no
    repeat against the daemon's log (compared by seq);
  * a write from a device that is not paired is refused; a paired writer's write is done;
  * no token reaches hotcold-web's log;
  * the page never goes back to an older fix, across the restart's replay;
  * at 800×480 and 390×844 no element lies outside the viewport (layout.py tries many more sizes).

Usage: live_page.py --bin .build/debug [--screenshots DIR] [--figures]
Exit status 0 when every check passed; each check prints one line."""

import argparse
import calendar
import json
import os
import statistics
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(__file__))
from harness import OUTSIDE_JS as OVERFLOW_JS, TARGET, Stack, browser, check, meridian_distance, set_viewport, wait_until  # noqa: E402

SPEED = 30.0          # m/s, due north
STEP = 0.25           # s between fixes (wall clock and fix time alike)
START_SOUTH = 800.0   # m
END_NORTH = 300.0     # m
M_PER_DEG = 110_850.0  # near -30°: only to place the points; distances are computed exactly


def parse_metres(text):
    t = text.replace("\u2009", " ").strip()
    if t.endswith(" km"):
        return float(t[:-3]) * 1000
    if t.endswith(" m"):
        return float(t[:-2])
    return None


def drive(stack, page, restart_at=None):
    """Sends the fixes; returns [(t_ms, expected_m)] and the restart window (ms)."""
    lat0, lon = TARGET[0] - START_SOUTH / M_PER_DEG, TARGET[1]
    n = int((START_SOUTH + END_NORTH) / (SPEED * STEP))
    sent, window = [], None
    t_next = time.time()
    for i in range(n + 1):
        lat = lat0 + i * SPEED * STEP / M_PER_DEG
        now = time.time()
        if now < t_next:
            time.sleep(t_next - now)
        t = time.time()
        stack.send_fix(t, lat, lon, SPEED, 0.0)
        sent.append((t * 1000, meridian_distance(lat, TARGET[0])))
        t_next += STEP
        if restart_at is not None and i == restart_at:
            w0 = t * 1000 - 1000
            opens = page.execute_script("return window.hotcold.opens")
            stack.stop_web()
            stack.start_web()
            # The page reconnects by itself (EventSource, retry 1 s) with Last-Event-ID.
            wait_until(lambda: page.execute_script("return window.hotcold.opens > arguments[0] && window.hotcold.link && window.hotcold.link.up", opens),
                       15, "the page to reconnect after the restart")
            window = (w0, time.time() * 1000 + 1000)
            t_next = time.time()
    return sent, window


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--screenshots")
    ap.add_argument("--figures", action="store_true", help="print latency figures (p50/p99)")
    args = ap.parse_args()

    stack = Stack(os.path.abspath(args.bin))
    page = None
    try:
        page = browser(800, 480)
        page.get(stack.url + "/")
        wait_until(lambda: page.execute_script("return !!(window.hotcold && window.hotcold.sse && window.hotcold.link && window.hotcold.link.up && window.hotcold.status)"),
                   20, "the page to follow the daemon")
        check(True, "the page follows the daemon (SSE open, daemon link up, STATUS received)")

        sent, window = drive(stack, page, restart_at=70)
        # Parked where the drive ended: a fix every half second until the staleness check.
        parked = threading.Event()
        end_lat = TARGET[0] + END_NORTH / M_PER_DEG

        parked_sent = []   # (t_ms, expected_m): may supersede the drive's last fixes on the page

        def park():
            while not parked.is_set():
                t = time.time()
                stack.send_fix(t, end_lat, TARGET[1], 0.0, 0.0)
                parked_sent.append((t * 1000, meridian_distance(end_lat, TARGET[0])))
                parked.wait(0.5)
        threading.Thread(target=park, daemon=True).start()

        # ARRIVED appears (the daemon's own log says when it happened).
        arrived = [e for e in stack.daemon_events() if e.get("class") == "ARRIVED"]
        check(len(arrived) >= 1, "the daemon logged ARRIVED")
        shown_passages = page.execute_script("return window.hotcold.passages")
        check(any(p["cls"] == "ARRIVED" and p["seq"] == arrived[0]["seq"] and p["text"].startswith("ARRIVED " + TARGET[2])
                  for p in shown_passages) if arrived else False,
              "ARRIVED %s appeared on the page (%s)" % (TARGET[2], [p["text"] for p in shown_passages]))
        time.sleep(1.5)

        # Distance: every fix outside the restart window is on the page within 1 s — itself, or
        # a later fix that superseded it within the same STATUS interval.
        updates = page.execute_script("return window.hotcold.updates")
        # The parked fixes count as later fixes: the drive's last ones may be superseded by them.
        every = sent + list(parked_sent)
        shown = []   # (time shown, index of the fix it shows)
        for u in updates:
            v = parse_metres(u["text"])
            if v is None:
                continue
            recent = [j for j, (t, d) in enumerate(every) if t <= u["t"] + 5][-12:]
            if recent:
                j = min(recent, key=lambda j: abs(every[j][1] - v))
                if abs(every[j][1] - v) <= 2.5:
                    shown.append((u["t"], j))
        lat_ms, late = [], []
        for i, (t, d) in enumerate(sent):
            # A fix sent within a STATUS interval of the kill may only ever be shown by the
            # hotcold-web that was killed: the window starts a second early for it.
            if window and window[0] - 1000 <= t <= window[1]:
                continue
            first = next((ts for ts, j in shown if j >= i and ts >= t - 5), None)
            if first is None:
                late.append((round(d), "never"))
                continue
            lat_ms.append(max(0.0, first - t))
            if first - t > 1000:
                late.append((round(d), round(first - t)))
        check(not late and len(lat_ms) > 0.8 * len(sent),
              "the distance shown follows each fix within 1 s (%d fixes checked; late: %s)" % (len(lat_ms), late[:5]))
        # Nothing older replaces anything newer, across the restart's replay too: the fixes shown
        # come in the order they were sent (the log's replayed events fill the history only).
        order = [j for _, j in shown]
        back = [(every[a][1], every[b][1]) for a, b in zip(order, order[1:]) if b < a - 1]
        check(len(order) > 10 and not back,
              "the page never went back to an older fix, across the restart (%d shown; back: %s)" % (len(order), back[:3]))

        # Tier: each change the daemon published shows within 1 s of its fix.
        tiers = page.execute_script("return window.hotcold.tierUpdates")
        events = stack.daemon_events()
        prox = [e for e in events if e.get("class") == "PROXIMITY"]
        changes, last_tier = [], None
        for e in prox:
            if e["tier_name"] != last_tier:
                changes.append(e)
                last_tier = e["tier_name"]
        tier_late, tier_checked = [], 0
        for e in changes[1:]:
            # The fix behind the event: the one whose time the event carries (the fix times sent).
            et_ms = calendar.timegm(time.strptime(e["time"][:19], "%Y-%m-%dT%H:%M:%S")) * 1000 + int(e["time"][20:23])
            t_fix = min(sent, key=lambda s: abs(s[0] - et_ms))[0]
            if window and window[0] <= t_fix <= window[1]:
                continue
            shown = next((u["t"] for u in tiers if u["t"] >= t_fix - 5 and u["text"] == e["tier_name"]), None)
            tier_checked += 1
            if shown is None or shown - t_fix > 1000:
                tier_late.append((e["tier_name"], None if shown is None else round(shown - t_fix)))
        check(tier_checked >= 2 and not tier_late,
              "each tier change shows within 1 s of its fix (%d checked: %s; late: %s)"
              % (tier_checked, [c["tier_name"] for c in changes], tier_late))

        # No gap, no repeat, across the restart.
        page_seqs = page.execute_script("return window.hotcold.seqs")
        daemon = stack.daemon_seqs()
        first = page_seqs[0] if page_seqs else None
        expected = [s for s in daemon if first is not None and s >= first]
        check(window is not None, "hotcold-web was restarted mid-drive and the page reconnected")
        check(page_seqs == expected and len(expected) > 5,
              "the page's events equal the daemon's log from seq %s on (%d events, across the restart)" % (first, len(expected)))

        # Writes: refused unpaired (this browser is local, read-only), done once paired by a writer.
        r = page.execute_async_script("""
            const done = arguments[arguments.length - 1];
            fetch('/api/command', {method: 'POST', headers: {'Content-Type': 'application/json'},
                  body: JSON.stringify({cmd: 'store', op: 'seen', id: 'point:x'})})
              .then(r => r.json().then(j => done({status: r.status, body: j}))).catch(e => done({status: 0, body: String(e)}));""")
        check(r["status"] == 403 and r["body"].get("ok") is False, "a write from a device that is not paired is refused (%s)" % r)
        check(page.execute_script("return document.getElementById('writes').hidden && ![...document.querySelectorAll('#foot button')].some(b => b.offsetParent)"),
              "write controls are hidden on a read-only page")
        foreign = page.execute_script("return performance.getEntriesByType('resource').map(e => e.name).filter(n => !n.startsWith(location.origin + '/'))")
        check(not foreign, "the page requested nothing from another origin %s" % foreign[:3])

        paired = stack.control_request({"cmd": "pair", "name": "test phone"})
        check(paired.get("class") == "PAIRED" and paired.get("writer") is True and len(paired.get("qr", [])) > 10,
              "hotcold-web pairs a device for a writer (root) and returns a QR code")
        page.get(paired["url"].replace("http://127.0.0.1:%d" % stack.web_port, stack.url))
        wait_until(lambda: page.execute_script("return window.hotcold && window.hotcold.session && window.hotcold.status && !document.getElementById('writes').hidden"),
                   15, "the paired page with write controls")
        latest = [e for e in stack.daemon_events() if e.get("class") in ("ARRIVED", "DEPARTED")][-1]
        try:
            wait_until(lambda: page.find_element("id", "passage").text.startswith(latest["class"] + " " + TARGET[2]), 5,
                       "the latest passage on a page opened afterwards")
            check(True, "a page opened after the drive shows the latest %s (from the daemon's log)" % latest["class"])
        except AssertionError as e:
            check(False, str(e))
        cookie = page.get_cookie("hc_token")
        check(cookie is not None and cookie.get("httpOnly") and cookie.get("sameSite") in ("Lax", "Strict"),
              "the token is kept in an HttpOnly, SameSite cookie")
        # Layouts: nothing outside the viewport at the car display's and the phone's size.
        for (w, h, mobile, name) in [(800, 480, False, "web-800x480.png"), (390, 844, True, "web-390x844.png")]:
            set_viewport(page, w, h, mobile)
            page.execute_script("window.dispatchEvent(new Event('resize'))")
            time.sleep(1.2)
            bad = page.execute_script(OVERFLOW_JS)
            check(not bad, "at %dx%d no element is outside the viewport %s" % (w, h, bad[:6]))
            if args.screenshots:
                os.makedirs(args.screenshots, exist_ok=True)
                page.save_screenshot(os.path.join(args.screenshots, name))

        # Old data: the receiver falls silent; within seconds the page greys it and says so.
        parked.set()
        try:
            wait_until(lambda: page.execute_script("return document.body.classList.contains('stale')"), 12, "the page to grey old data")
            note = page.find_element("id", "banner").text
            check(note.startswith("OLD DATA") and "last fix" in note, "a silent receiver's last fix is greyed and labelled (%r)" % note)
        except AssertionError as e:
            check(False, str(e))

        # The drive hunted one point: "Roam 10 km" goes to the daemon and is done, and says so.
        set_viewport(page, 800, 480)
        roam = page.find_element("id", "w-roam")
        check(roam.text == "Roam 10 km", "hunting a point, the page offers to roam 10 km (%r)" % roam.text)
        roam.click()
        try:
            wait_until(lambda: page.find_element("id", "w-result").text.startswith("Roaming 10 km:"), 10, "the write's result")
            check(True, "a paired writer's Roam 10 km is done by the daemon (%r)" % page.find_element("id", "w-result").text)
        except AssertionError:
            check(False, "a paired writer's Roam 10 km is done (got %r)" % page.find_element("id", "w-result").text)
        wait_until(lambda: page.execute_script("return window.hotcold.status.tracking.mode === 'roam'"), 5, "the daemon to roam")
        check(paired["token"] not in stack.web_stderr(), "no token in hotcold-web's log")

        if args.figures and lat_ms:
            q = statistics.quantiles(lat_ms, n=100)
            print("FIGURES fix->DOM latency over %d fixes: p50 %.0f ms, p99 %.0f ms, max %.0f ms"
                  % (len(lat_ms), statistics.median(lat_ms), q[98], max(lat_ms)))
    finally:
        if page is not None:
            page.quit()
        stack.stop()
    if check.failed:
        print("stack kept in " + stack.dir)
        sys.exit(1)
    print("PASS")


if __name__ == "__main__":
    main()
