#!/usr/bin/python3
"""The page's layout with the catalogue's longest names, in chromium, at phone and car-display
sizes in portrait and landscape (320, 360, 390 and 800 px wide), against real gpsd, hotcoldd and
hotcold-web: the car drove past "The Australian Farmer (also known as the Big Farmer)" and is
parked 250 m on, hunting it and the next longest names, with a friend nearby.

  * nothing lies outside the viewport (a list scrolls inside its own box);
  * nothing that matters is clipped: the name, distance, tier, trend, ETA, direction, the status
    pills, the latest passage, every button and the list's head show whole;
  * the radar's range follows the focused target (it sits between 40 % and 100 % of the radius);
  * the friend is on the radar and in the list, marked as a friend;
  * the place sheet (seen, rating, note), the Big Things list (searched for the longest names),
    Near me, My places (one with a long name) and About fit too;
  * times are the box's local time: hotcold-web runs in Australia/Adelaide, the browser in
    New York, and the passage shows the Adelaide time of the event.

Usage: layout.py --bin .build/debug [--screenshots DIR]"""

import argparse
import os
import sys
import time
from datetime import datetime, timezone
from zoneinfo import ZoneInfo

sys.path.insert(0, os.path.dirname(__file__))
from harness import CLIPPED_JS, OUTSIDE_JS, Car, Stack, browser, check, offset, set_viewport, wait_until  # noqa: E402

FARMER = ("halans:fea416510c", "The Australian Farmer (also known as the Big Farmer)", -33.047014, 135.460447)
LONG = ["halans:bec4869e91", "halans:ee1a037fe6", "halans:61dc9f21d6", "halans:214ecf7886", "halans:0c1d9378f5"]
FRIEND = "Koala Crossing family wagon (Jane and the kids)"
MINE = "The paddock gate where the Australian Farmer's road turns off the Eyre Highway"
SIZES = [(320, 568), (568, 320), (360, 740), (740, 360), (390, 844), (844, 390), (800, 480), (480, 800)]
BOX_ZONE = "Australia/Adelaide"

MATTERS = "#f-name, #f-dist, #f-tiername, #f-trend, #f-eta, #f-dir, .pill, #banner, #passage, #list-head, #w-result, button, #targets li span, #s-name, #s-seen, #s-rating, #s-count"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--screenshots", help="save the page at 390x844 and 800x480, the sheet and the Big Things list at 390x844 here")
    ap.add_argument("--all", action="store_true", help="with --screenshots: every size")
    args = ap.parse_args()
    stack = Stack(os.path.abspath(args.bin), daemon_args=[], web_env={"TZ": BOX_ZONE})
    page, car = None, None
    try:
        stack.daemon({"cmd": "hunt", "targets": [FARMER[0]] + LONG})
        car = Car(stack, *offset(FARMER[2], FARMER[3], -600, 0))
        page = browser(800, 480)
        page.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "America/New_York"})
        stack.pair(page)
        wait_until(lambda: page.execute_script("return !!(window.hotcold && window.hotcold.session && window.hotcold.status && window.hotcold.link && window.hotcold.link.up)"),
                   20, "the paired page")
        # Past the Farmer and on: ARRIVED, then DEPARTED, parked 250 m north.
        car.drive_to(*offset(FARMER[2], FARMER[3], 250, 0), speed=15, wall_step=0.1)
        wait_until(lambda: any(e.get("class") == "DEPARTED" for e in stack.daemon_events()), 20, "DEPARTED in the daemon's log")
        stack.daemon({"cmd": "store", "op": "add", "name": MINE, "lat": car.lat, "lon": car.lon}, "STORE")
        stack.daemon({"cmd": "follow", "who": "jane/ute"})
        flat, flon = offset(car.lat, car.lon, 120, -90)
        now = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z")
        stack.daemon({"cmd": "friend_fix", "who": "jane/ute", "name": FRIEND, "time": now, "lat": flat, "lon": flon, "accuracy_m": 8})
        wait_until(lambda: page.execute_script("return document.querySelectorAll('#targets li.friend').length") == 1, 10, "the friend in the list")
        wait_until(lambda: page.find_element("id", "passage").text.startswith("DEPARTED " + FARMER[1]), 10, "the passage")
        wait_until(lambda: page.find_element("id", "f-mine").text not in ("", "…"), 10, "the focused place's own state")

        dep = [e for e in stack.daemon_events() if e.get("class") == "DEPARTED"][-1]
        t = datetime.strptime(dep["time"][:19], "%Y-%m-%dT%H:%M:%S").replace(tzinfo=timezone.utc).astimezone(ZoneInfo(BOX_ZONE))
        forms = [t.strftime("%H:%M"), t.strftime("%I:%M %p"), t.strftime("%-I:%M %p")]
        passage = page.find_element("id", "passage").text
        check(any(passage.endswith(f) for f in forms), "the passage shows the box's local time (%s, %s): %r" % (BOX_ZONE, forms[0], passage))

        for (w, h) in SIZES:
            set_viewport(page, w, h, w < 600 or h < 600)
            n = page.execute_script("window.dispatchEvent(new Event('resize')); return window.hotcold.renders")
            wait_until(lambda: page.execute_script("return window.hotcold.renders") > n + 1, 5, "a redraw")
            time.sleep(0.4)   # the gauge and arrow transitions (0.3 s)
            where = "%dx%d %s" % (w, h, "portrait" if h > w else "landscape")
            bad = page.execute_script(OUTSIDE_JS)
            check(not bad, "%s: nothing outside the viewport %s" % (where, bad[:4]))
            cut = page.execute_script(CLIPPED_JS, MATTERS)
            check(not cut, "%s: nothing that matters clipped %s" % (where, cut[:4]))
            r = page.execute_script("const b = document.querySelector('#radar .blip.focus'); return b ? Number(b.dataset.r) : null")
            size = page.execute_script("return Math.round(document.getElementById('radar').getBoundingClientRect().height)")
            check(r is not None and 40 <= r <= 100 and size >= 60,
                  "%s: the radar is scaled to the focused target (at %s %% of the radius; radar %d px)" % (where, r, size))
            if args.screenshots and (args.all or (w, h) in ((390, 844), (800, 480))):
                os.makedirs(args.screenshots, exist_ok=True)
                page.save_screenshot(os.path.join(args.screenshots, "page-%dx%d.png" % (w, h)))
            page.find_element("id", "w-open").click()
            wait_until(lambda: page.find_element("id", "s-seen").text not in ("", "reading…"), 10, "the sheet")
            bad = page.execute_script(OUTSIDE_JS) + page.execute_script(CLIPPED_JS, "#sheet " + ", #sheet ".join(["button", "#s-name", "#s-seen", "#s-rating", "#s-count"]))
            check(not bad, "%s: the place sheet fits %s" % (where, bad[:4]))
            if args.screenshots and (w, h) == (390, 844):
                page.save_screenshot(os.path.join(args.screenshots, "sheet-%dx%d.png" % (w, h)))
            page.find_element("id", "s-close").click()
            # The other screens: Big Things (searched for the longest names) and About.
            page.execute_script("location.hash = '#things'")
            if page.find_element("id", "t-text").get_attribute("value") != "also known":
                page.find_element("id", "t-text").send_keys("also known")
            wait_until(lambda: page.execute_script("return (window.hotcold.things.query || {}).text") == "also known"
                       and not page.execute_script("return window.hotcold.things.loading"), 10, "the Big Things list")
            bad = page.execute_script(OUTSIDE_JS) + page.execute_script(CLIPPED_JS, MATTERS + ", #nav .tab, select, #t-text, #t-list li span")
            check(not bad, "%s: the Big Things list fits %s" % (where, bad[:4]))
            if args.screenshots and (args.all or (w, h) == (390, 844)):
                page.save_screenshot(os.path.join(args.screenshots, "things-%dx%d.png" % (w, h)))
            for screen, ready in (("near", "#nr-list li"), ("mine", "#m-list li")):
                page.execute_script("location.hash = '#%s'" % screen)
                wait_until(lambda: page.execute_script("return document.querySelectorAll(arguments[0]).length > 0", ready), 10, screen)
                bad = page.execute_script(OUTSIDE_JS) + page.execute_script(CLIPPED_JS, MATTERS + ", #nav .tab, #m-name, #m-head, #nr-head, .rows li span")
                check(not bad, "%s: %s fits %s" % (where, {"near": "Near me", "mine": "My places"}[screen], bad[:4]))
            page.execute_script("location.hash = '#about'")
            wait_until(lambda: page.find_element("id", "a-box").text.startswith("hotcoldd"), 5, "About")
            bad = page.execute_script(OUTSIDE_JS) + page.execute_script(CLIPPED_JS, MATTERS + ", #nav .tab, #about dd, #about dt")
            check(not bad, "%s: About fits %s" % (where, bad[:4]))
            page.execute_script("location.hash = ''")
            wait_until(lambda: page.find_element("id", "main").is_displayed(), 5, "the live screen")

        f = page.execute_script("return [...document.querySelectorAll('#targets li.friend')].map(l => l.textContent)")
        check(f and f[0].startswith(FRIEND + " · friend"), "the friend is listed as a friend (%s)" % f)
        check(page.execute_script("return document.querySelectorAll('#radar .blip.friend').length") == 1, "the friend is on the radar, drawn as a friend")
        names = page.execute_script("return [...document.querySelectorAll('#targets li:not(.untracked) span:first-child')].map(s => s.textContent)")
        check(len(names) == 2 + len(LONG), "every hunted place and the friend are in the list (%d rows)" % len(names))
    finally:
        if car:
            car.stop()
        if page is not None:
            page.quit()
        stack.stop()
    if check.failed:
        print("stack kept in " + stack.dir)
        sys.exit(1)
    print("PASS")


if __name__ == "__main__":
    main()
