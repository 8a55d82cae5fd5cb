#!/usr/bin/python3
"""The screens beyond the live display (issue 27), in chromium against real gpsd, hotcoldd and
hotcold-web, the car parked near Coffs Harbour with three geocaches imported around it (one with
its parking and a stage):

  * Geocaches lists the daemon's `search` nearest first from its own fix, found ones marked; a cache's
    page keeps its hint hidden until asked (then shows it as `hotcold show` does), hunts it
    ("Hunt NAME") and marks it found ("Mark NAME found" / "Marked NAME found.");
  * Friends follows a car (the button names it), shows its finds with who liked them (50 at a
    time, then "Show older finds"), likes an item once (the button says what it does; liking twice is one like), shows a
    friend's new find and a follow made elsewhere as they happen (pushed by the live stream, no timer), and unfollows;
    a reply the lists no longer agree with ("Stopped following" a car followed again elsewhere) goes;
  * My places renames a place of one's own (the button names old and new) and deletes it only
    after a confirmation that names it;
  * Field lists the observations, corrects one from its sheet and deletes it after a question
    naming it, and adds one at the car's fix (the button says what and
    where); a row opens its detail in the box's local time;
  * Submit (from Big Things) queues a new Big Thing with its photo at the car's position in
    the daemon's outbox, the button naming it; a photo over 10 MB leaves nothing to press;
  * a new name typed for one place stays with it (another place's page shows its own);
  * a long press on the radar adds a place of one's own at that spot (the dialog names how far
    and which way; the daemon has it there);
  * with the daemon gone, every screen says OLD DATA and offers nothing to press;
  * each screen and page, with long names, at 320, 360, 390 and 800 px wide (and landscape):
    nothing outside the viewport, nothing that matters clipped.

Usage: screens.py --bin .build/debug [--screenshots DIR]"""

import argparse
import os
import sys
import tempfile
from datetime import datetime, timezone

sys.path.insert(0, os.path.dirname(__file__))
from harness import CLIPPED_JS, OUTSIDE_JS, Car, Stack, browser, check, meridian_distance, offset, set_viewport, wait_until  # noqa: E402

HOME = (-30.2930, 153.1300)
# (code, name, north m, east m, hint)
CACHES = [
    ("GC7TEST1", "Banana Bend", 150, 40, "Under the third fence post"),
    ("GC7TEST2", "The Long-Winded Multi-Stage Night Cache Beside the Old Pacific Highway Bridge over Coffs Creek (bring a torch)", 400, -300,
     "Magnetic, behind the bridge's second bolt plate on the downstream side, at knee height"),
    ("GC7TEST3", "Jetty Lookout", 1200, 900, ""),
]
FARMER = "The Australian Farmer (also known as the Big Farmer)"
MINE = "The paddock gate where the Australian Farmer's road turns off the Eyre Highway"
WOMBAT = "Big Wombat (the concrete one outside the Coffs Harbour showground's northern gate)"
LOOKOUT = "Lookout over the creek"
BIRD = "Wedge-tailed eagle circling over the banana plantation east of the highway"
SIZES = [(320, 568), (360, 740), (390, 844), (800, 480), (568, 320)]
MATTERS = "button, .pill, #banner, #nav .tab, select, input, .rows li span, #c-head, #fr-head, #fr-fhead, #fr-result, #o-head, #o-result, #m-result, #s-name, #s-hint, #s-seen, #s-confirm-q, #s-result, #o-name, #o-kind, #o-when, #o-where"


def gpx():
    out = ['<?xml version="1.0" encoding="utf-8"?>',
           '<gpx xmlns="http://www.topografix.com/GPX/1/0" version="1.0" creator="Groundspeak, Inc. All Rights Reserved. http://www.groundspeak.com">']
    for i, (code, name, n, e, hint) in enumerate(CACHES):
        lat, lon = offset(HOME[0], HOME[1], n, e)
        out.append('<wpt lat="%.6f" lon="%.6f"><time>2019-0%d-01T00:00:00</time><name>%s</name><desc>%s by tester</desc>'
                   '<sym>Geocache</sym><type>Geocache|Traditional Cache</type>'
                   '<groundspeak:cache id="%d" available="True" archived="False" xmlns:groundspeak="http://www.groundspeak.com/cache/1/0/1">'
                   '<groundspeak:name>%s</groundspeak:name><groundspeak:placed_by>tester</groundspeak:placed_by>'
                   '<groundspeak:owner id="1">tester</groundspeak:owner><groundspeak:type>Traditional Cache</groundspeak:type>'
                   '<groundspeak:container>Small</groundspeak:container><groundspeak:difficulty>2</groundspeak:difficulty>'
                   '<groundspeak:terrain>1.5</groundspeak:terrain>'
                   '<groundspeak:short_description html="True">&lt;p&gt;A &lt;b&gt;quick&lt;/b&gt; one near %s.&lt;/p&gt;</groundspeak:short_description>'
                   '<groundspeak:encoded_hints>%s</groundspeak:encoded_hints></groundspeak:cache></wpt>'
                   % (lat, lon, i + 1, code, name, 1000 + i, name, name, hint))
    # The second cache's own waypoints: its parking (nearer the car than the cache) and a stage.
    for code, n, e, desc, cmt, kind in (("PK7TEST2", 300, -200, "Parking Area", "", "Parking Area"),
                                        ("S17TEST2", 450, -350, "Stage 1: count the fence posts", "The number of posts is A", "Stages of a Multicache")):
        lat, lon = offset(HOME[0], HOME[1], n, e)
        out.append('<wpt lat="%.6f" lon="%.6f"><name>%s</name><cmt>%s</cmt><desc>%s</desc><sym>%s</sym><type>Waypoint|%s</type></wpt>'
                   % (lat, lon, code, cmt, desc, kind, kind))
    out.append('</gpx>')
    return "\n".join(out)


def text(page, id_):
    return page.find_element("id", id_).text


def click(page, id_):
    page.find_element("id", id_).click()


def ids(page, list_id):
    return page.execute_script("return [...document.querySelectorAll('#' + arguments[0] + ' > li')].map(l => l.dataset.id)", list_id)


def row(page, list_id, key):
    return page.execute_script("return [...document.querySelectorAll('#' + arguments[0] + ' > li')].find(l => l.dataset.id === arguments[1])", list_id, key)


def go(page, screen):
    page.execute_script("location.hash = arguments[0]", screen)


def fits(page, where, what, extra=""):
    bad = page.execute_script(OUTSIDE_JS) + page.execute_script(CLIPPED_JS, MATTERS + extra)
    check(not bad, "%s: %s fits %s" % (where, what, bad[:4]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--screenshots", help="save each new screen at 390x844 here")
    ap.add_argument("--all", action="store_true", help="with --screenshots: at 800x480 too")
    args = ap.parse_args()
    # The test writes faster than a person taps (the write rate is not what it checks).
    stack = Stack(os.path.abspath(args.bin), daemon_args=["--roam", "10km"],
                  web_config="[access]\nwrites_per_second = 20\nwrite_burst = 50\n")
    page, car = None, None
    try:
        with tempfile.NamedTemporaryFile("w", suffix=".gpx", dir=stack.dir, delete=False) as f:
            f.write(gpx())
        stack.import_file(f.name)
        car = Car(stack, *HOME)
        page = browser(800, 480)
        stack.pair(page)
        wait_until(lambda: page.execute_script("return !!(window.hotcold && window.hotcold.session && window.hotcold.status && window.hotcold.status.gps.last_fix"
                                               " && window.hotcold.link && window.hotcold.link.up)"), 20, "the paired page with a fix")

        # ---- Geocaches ----
        click(page, "n-caches")
        wait_until(lambda: len(ids(page, "c-list")) == 3, 10, "the geocaches")
        fix = page.execute_script("return window.hotcold.status.gps.last_fix")
        near = [r["place"]["id"] for r in stack.daemon({"cmd": "search", "kinds": ["geocache"], "sort": "distance", "lat": fix["lat"], "lon": fix["lon"], "limit": 50}, "PLACES")["result"]]
        check(ids(page, "c-list") == near == [c[0] for c in CACHES], "the caches nearest first from the daemon's fix, as the daemon answers (%s)" % near)
        line = row(page, "c-list", CACHES[0][0]).find_element("css selector", "span:last-child").text
        check(line == "GC7TEST1 · 155 m NNE", "each with its code, distance and direction (%r)" % line)
        code, name, _, _, hint = CACHES[1]
        row(page, "c-list", code).click()
        wait_until(lambda: text(page, "s-hint-btn") == "Show the hint for " + code, 10, "the cache's page")
        check(text(page, "s-name") == name and "Traditional Cache · Small container · D2/T1.5 · available · by tester" in text(page, "s-cat"),
              "the cache's page: name, type, container, D/T, status, owner (%r)" % text(page, "s-cat"))
        check(text(page, "s-desc") == "A quick one near %s." % name, "the listing's HTML read as text (%r)" % text(page, "s-desc")[:50])
        # Its own waypoints, nearest first from the car; each opens its own page, which leads back.
        wait_until(lambda: ids(page, "s-wpts-list") == ["PK7TEST2", "S17TEST2"], 10, lambda: "its waypoints (%r)" % ids(page, "s-wpts-list"))
        check(text(page, "s-wpts-head") == "Its 2 stages (parking, stages, the final), nearest first", "the waypoints' heading (%r)" % text(page, "s-wpts-head"))
        park = row(page, "s-wpts-list", "PK7TEST2")
        check(park.find_element("css selector", "span").text == "Parking Area" and park.find_element("css selector", ".sub").text.startswith("PK7TEST2 · 36"),
              "a waypoint: its name, code, distance and direction (%r)" % park.text)
        row(page, "s-wpts-list", "S17TEST2").click()
        wait_until(lambda: text(page, "s-name") == "Stage 1: count the fence posts", 10, "the stage's own page")
        check("Stages of a Multicache of GC7TEST2" in text(page, "s-cat") and text(page, "s-desc") == "The number of posts is A",
              "the stage: its type, its cache, its comment (%r, %r)" % (text(page, "s-cat"), text(page, "s-desc")))
        check(text(page, "s-hunt") == "Hunt Stage 1: count the fence posts" and not page.find_element("id", "s-wpts").is_displayed(),
              "a waypoint can be hunted, and has no waypoints of its own")
        check(text(page, "s-parent") == "Open its cache, GC7TEST2", "and leads back (%r)" % text(page, "s-parent"))
        click(page, "s-parent")
        wait_until(lambda: text(page, "s-name") == name and text(page, "s-hint-btn") == "Show the hint for " + code, 10, "back on the cache's page")
        body = page.execute_script("return document.body.textContent")
        check(hint not in body and text(page, "s-hint") == "The hint is hidden.", "the hint is hidden until asked (nowhere in the page)")
        click(page, "s-hint-btn")
        wait_until(lambda: text(page, "s-hint") == "Hint: " + hint, 5, "the hint")
        check(not page.find_element("id", "s-hint-btn").is_displayed(), "asked once, shown, nothing more to press")
        check(text(page, "s-seen") == "Not found yet" and text(page, "s-seen-btn") == "Mark %s found" % name,
              "the button names the cache it marks found (%r)" % text(page, "s-seen-btn"))
        click(page, "s-seen-btn")
        wait_until(lambda: text(page, "s-result") == "Marked %s found." % name, 10, "marked found")
        wait_until(lambda: text(page, "s-seen").startswith("Found "), 10, "found shown")
        visits = stack.daemon({"cmd": "place", "id": code}, "PLACE")["result"]["mine"]["visits"]
        check(len(visits) == 1, "the daemon has the visit (%d)" % len(visits))
        check(text(page, "s-hunt") == "Hunt " + name, "the hunt button names the cache (%r)" % text(page, "s-hunt"))
        click(page, "s-hunt")
        wait_until(lambda: text(page, "s-result") == "Now hunting %s — hunting 1 target." % name, 10, "hunting it")
        st = stack.daemon({"cmd": "status"}, "STATUS")
        check(st["tracking"]["mode"] == "hunt" and [t["target"]["id"] for t in st["targets"]] == [code], "the daemon hunts exactly that cache")
        wait_until(lambda: not page.find_element("id", "s-hunt").is_displayed(), 10, "no hunt button for the one cache hunted")
        check(True, "the cache hunted alone: nothing more to press")
        click(page, "s-close")
        line = row(page, "c-list", code).find_element("css selector", "span:last-child").text
        check(line.endswith(" · found"), "the list shows it found at once (%r)" % line)

        # ---- Friends ----
        now = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z")
        item = {"author": "jane", "device": "ute", "seq": 1234, "time": now, "kind": "arrived",
                "place": {"id": "halans:fea416510c", "name": FARMER, "kind": "bigthing"}, "rating": 4, "note": "Taller than the ute, and friendlier"}
        check(stack.write({"cmd": "feed_item", "item": item}, "RESULT").get("new") is True, "a find from jane/ute is in the daemon's feed")
        # 50 older finds, a minute apart: with the newest, more than a page of 50.
        t0 = datetime.now(timezone.utc).timestamp()
        for i in range(50):
            old = dict(item, seq=2000 + i, time=datetime.fromtimestamp(t0 - 60 * (i + 1), timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z"),
                       place={"id": "halans:d0577fb8cf", "name": "Big Banana", "kind": "bigthing"}, note=None, rating=None)
            stack.write({"cmd": "feed_item", "item": {k: v for k, v in old.items() if v is not None}}, "RESULT")
        click(page, "n-friends")
        wait_until(lambda: text(page, "fr-fhead") == "You follow nobody yet.", 10, "Friends")
        check(text(page, "fr-follow") == "Type a friend's USER/DEVICE to follow" and not page.find_element("id", "fr-follow").is_enabled(),
              "nothing to press without a name")
        page.find_element("id", "fr-who").send_keys("jane/ute")
        check(text(page, "fr-follow") == "Follow jane/ute", "the button names whom it follows")
        click(page, "fr-follow")
        wait_until(lambda: text(page, "fr-result") == "Now following jane/ute.", 10, lambda: "followed (%r)" % text(page, "fr-result"))
        wait_until(lambda: ids(page, "fr-following") == ["jane/ute"] and len(ids(page, "fr-feed")) == 50, 10, "the follow and the feed (%r)" % page.execute_script("return [document.getElementById('fr-head').textContent, window.hotcold.friends.items.length]"))
        check(ids(page, "fr-feed")[:2] == ["jane/ute/1234", "jane/ute/2000"], "newest first, 50 at a time")
        page.find_element("css selector", "#fr-feed .more").click()
        wait_until(lambda: len(ids(page, "fr-feed")) == 51, 10, "older finds")
        shown = ids(page, "fr-feed")
        check(len(set(shown)) == 51 and shown[-1] == "jane/ute/2049" and not page.find_elements("css selector", "#fr-feed .more"),
              "Show older finds appends the rest, nothing twice, then nothing more to press")
        check([f["who"] for f in stack.daemon({"cmd": "following"}, "FOLLOWING")["following"]] == ["jane/ute"], "the daemon has the follow")
        li = row(page, "fr-feed", "jane/ute/1234")
        check(li.find_element("css selector", "span").text == "jane/ute arrived at " + FARMER and "★★★★☆" in li.find_element("css selector", ".sub").text,
              "the find: who, where, stars and note (%r)" % li.text[:80])
        check(li.find_element("css selector", ".likes").text == "No likes yet", "no likes yet")
        check(li.find_element("css selector", ".sub").text.endswith(" words"), "the note's word count (%r)" % li.find_element("css selector", ".sub").text)
        like = li.find_element("css selector", "button.like")
        check(like.text == "Like jane/ute's find at " + FARMER, "the button says what it likes (%r)" % like.text)
        # Two quick taps: the first greys the button until the daemon answers; one like either way.
        page.execute_script("arguments[0].click(); arguments[0].click()", like)
        wait_until(lambda: text(page, "fr-result") == "Liked jane/ute's find at %s." % FARMER, 10, "liked")
        wait_until(lambda: row(page, "fr-feed", "jane/ute/1234").find_element("css selector", ".likes").text == "Liked by root", 10, "who liked it")
        feed = stack.daemon({"cmd": "feed"}, "FEED")["items"][0]
        check(feed["likes"] == 1 and feed["likers"] == ["root"], "the daemon counts one like, by root (%s)" % feed["likers"])
        sent = page.execute_script("return window.hotcold.writes.filter(w => w.request.cmd === 'like').length")
        check(sent == 1, "two quick taps sent one like (%d)" % sent)
        check(row(page, "fr-feed", "jane/ute/1234").find_element("css selector", "button.like").text == "Take back your like of jane/ute's find at " + FARMER,
              "liked: the button now says it takes the like back")
        # In real time, with no timer behind it (the page reads the lists only when the screen
        # opens, after its own writes, and when the live stream names a friends' event): a find
        # jane's bridge hands the daemon shows on top, and a follow and unfollow made elsewhere
        # (here, on the daemon's socket) show and go.
        reads = page.execute_script("return window.hotcold.friends.reloads")
        newer = dict(item, seq=1235, time=datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z"), note="Back again")
        check(stack.write({"cmd": "feed_item", "item": newer}, "RESULT").get("new") is True, "a newer find from jane/ute")
        wait_until(lambda: ids(page, "fr-feed")[:1] == ["jane/ute/1235"], 30, "the newer find shown without a tap")
        check(page.execute_script("return window.hotcold.friends.heard") == "FEED", "read again because the stream said FEED")
        check(stack.write({"cmd": "follow", "who": "kim/van"}, "RESULT").get("ok") is True, "a follow made on the socket")
        wait_until(lambda: ids(page, "fr-following") == ["jane/ute", "kim/van"], 30, "the follow shown without a tap")
        check(stack.write({"cmd": "unfollow", "who": "kim/van"}, "RESULT").get("ok") is True, "and undone on the socket")
        wait_until(lambda: ids(page, "fr-following") == ["jane/ute"], 30, "the unfollow shown without a tap")
        check(page.execute_script("return window.hotcold.friends.heard") == "FOLLOWING_CHANGED", "read again because the stream said FOLLOWING_CHANGED")
        more = page.execute_script("return window.hotcold.friends.reloads") - reads
        check(1 <= more <= 6, "three changes, %d reads of the lists" % more)
        page.find_element("id", "fr-who").send_keys("")
        unf = row(page, "fr-following", "jane/ute").find_element("css selector", "button")
        check(unf.text == "Unfollow jane/ute", "unfollow names the car")
        unf.click()
        wait_until(lambda: text(page, "fr-result") == "Stopped following jane/ute.", 10, "unfollowed")
        wait_until(lambda: ids(page, "fr-following") == [] and ids(page, "fr-feed") == [], 10, "no follow, no feed")
        check(text(page, "fr-result") == "Stopped following jane/ute.", "the reply stays while the list agrees with it")
        # Followed again elsewhere: the list shows it, and the reply that now says otherwise goes.
        check(stack.write({"cmd": "follow", "who": "jane/ute"}, "RESULT").get("new") is True, "jane/ute followed again on the socket")
        wait_until(lambda: ids(page, "fr-following") == ["jane/ute"], 30, "the follow made elsewhere shown")
        check(text(page, "fr-result") == "", "no \"Stopped following jane/ute.\" beside jane/ute followed (%r)" % text(page, "fr-result"))
        check(stack.write({"cmd": "unfollow", "who": "jane/ute"}, "RESULT").get("new") is True, "and unfollowed there")
        wait_until(lambda: ids(page, "fr-following") == [] and ids(page, "fr-feed") == [], 30, "no follow, no feed again")
        check(stack.daemon({"cmd": "following"}, "FOLLOWING")["following"] == [], "the daemon has no follow")

        # ---- My places: rename, delete with a confirmation ----
        stack.write({"cmd": "store", "op": "add", "name": "Gate", "lat": car.lat, "lon": car.lon}, "STORE")
        click(page, "n-mine")
        wait_until(lambda: len(ids(page, "m-list")) == 1, 10, "My places")
        pid = ids(page, "m-list")[0]
        row(page, "m-list", pid).click()
        wait_until(lambda: page.find_element("id", "s-rename").get_attribute("value") == "Gate", 10, "the rename box")
        check(text(page, "s-rename-btn") == "Type a new name to rename “Gate”" and not page.find_element("id", "s-rename-btn").is_enabled(),
              "nothing to rename until a new name is typed")
        box = page.find_element("id", "s-rename")
        box.clear()
        box.send_keys(MINE)
        check(text(page, "s-rename-btn") == "Rename “Gate” to “%s”" % MINE, "the button names the old and the new name")
        click(page, "s-rename-btn")
        wait_until(lambda: text(page, "s-result") == "Renamed “Gate” to “%s”." % MINE, 10, "renamed")
        wait_until(lambda: text(page, "s-name") == MINE, 10, "the sheet's new name")
        check(stack.daemon({"cmd": "place", "id": pid}, "PLACE")["result"]["detail"]["place"]["name"] == MINE, "the daemon has the new name")
        # A name typed for this place stays with it: another place's page shows its own name.
        other = stack.write({"cmd": "store", "op": "add", "name": "Other gate", "lat": car.lat, "lon": car.lon}, "STORE")["result"]["id"]
        box = page.find_element("id", "s-rename")
        box.clear()
        box.send_keys("Half-typed name")
        click(page, "s-close")
        page.execute_script("window.hotcold.openSheet(arguments[0], 'Other gate')", other)
        wait_until(lambda: page.find_element("id", "s-rename").get_attribute("value") == "Other gate", 10, "the other place's page")
        check(text(page, "s-rename-btn") == "Type a new name to rename “Other gate”", "another place's page shows its own name, not the draft")
        click(page, "s-close")
        stack.write({"cmd": "store", "op": "delete", "id": other}, "STORE")
        page.execute_script("window.hotcold.openSheet(arguments[0], arguments[1])", pid, MINE)
        wait_until(lambda: text(page, "s-rename-btn") == "Rename “%s” to “Half-typed name”" % MINE, 10, "the draft back with its place")
        check(True, "the draft is back on the place it was typed for")
        box = page.find_element("id", "s-rename")
        box.clear()
        box.send_keys(MINE)
        check(text(page, "s-delete") == "Delete “%s”…" % MINE, "delete names the place")
        click(page, "s-delete")
        wait_until(lambda: page.find_element("id", "s-confirm").is_displayed(), 5, "the confirmation")
        check(text(page, "s-confirm-q") == "Delete “%s” from the box for good?" % MINE and text(page, "s-confirm-yes") == "Yes, delete “%s”" % MINE,
              "the confirmation names the place")
        click(page, "s-confirm-no")
        wait_until(lambda: not page.find_element("id", "s-confirm").is_displayed(), 5, "kept")
        check(stack.daemon({"cmd": "place", "id": pid}, "PLACE").get("class") == "PLACE", "No keeps it")
        click(page, "s-delete")
        wait_until(lambda: page.find_element("id", "s-confirm").is_displayed(), 5, "the confirmation again")
        click(page, "s-confirm-yes")
        wait_until(lambda: page.execute_script("return document.getElementById('m-result').textContent") == "Deleted “%s”." % MINE, 10,
                   "deleted (%r)" % page.execute_script("return [document.getElementById('m-result').textContent, document.getElementById('s-result').textContent]"))
        check(not page.find_element("id", "sheet").is_displayed(), "the sheet of a deleted place closes")
        wait_until(lambda: ids(page, "m-list") == [], 10, "the list without it")
        check(stack.daemon({"cmd": "place", "id": pid}).get("code") == "not_found", "the daemon no longer has it")

        # ---- Field observations ----
        click(page, "n-obs")
        wait_until(lambda: text(page, "o-head") == "No observations yet.", 10, "Field")
        check(text(page, "o-add-btn") == "Choose what kind it was", "nothing to add without a kind")
        page.execute_script("const s = document.getElementById('o-class'); s.value = 'bird'; s.dispatchEvent(new Event('change'))")
        check(text(page, "o-add-btn") == "Type what it was", "nor without a title")
        page.find_element("id", "o-title").send_keys(BIRD)
        page.find_element("id", "o-desc").send_keys("Two of them, riding the thermal over the ridge.")
        check(text(page, "o-add-btn") == "Add “%s” (bird) at the car's position" % BIRD, "the button says what it adds and where")
        click(page, "o-add-btn")
        wait_until(lambda: text(page, "o-result").startswith("Added “%s” (bird) at " % BIRD), 10, "added")
        obs = stack.daemon({"cmd": "observations"}, "OBSERVATIONS")["result"]
        check(len(obs) == 1 and obs[0]["title"] == BIRD and abs(obs[0]["latitude"] - car.lat) < 1e-4 and abs(obs[0]["longitude"] - car.lon) < 1e-4,
              "the daemon has it at the car's fix")
        wait_until(lambda: len(ids(page, "o-list")) == 1, 10, "listed")
        check(page.find_element("id", "o-title").get_attribute("value") == "", "the form is cleared for the next one")
        check(row(page, "o-list", obs[0]["id"]).find_element("css selector", "span").text == "🐦 " + BIRD, "the row: the kind's icon and the title")
        row(page, "o-list", obs[0]["id"]).click()
        wait_until(lambda: page.find_element("id", "o-sheet").is_displayed(), 5, "its detail")
        check(text(page, "o-name") == BIRD and text(page, "o-kind") == "bird · recorded by root" and text(page, "o-when").startswith("Seen ")
              and "from the car" in text(page, "o-where") and text(page, "o-text").startswith("Two of them"),
              "its detail: what, kind, who, when (local time), where, notes (%r)" % text(page, "o-where"))
        click(page, "o-close")

        # Correct one from its sheet, then delete it after a question naming it (root's own here).
        seen = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z")
        extra = stack.write({"cmd": "store", "op": "observe", "classification": "bird", "title": "Magpie", "description": "On the gate",
                             "date": seen}, "STORE")["result"]
        click(page, "n-mine")
        click(page, "n-obs")
        wait_until(lambda: len(ids(page, "o-list")) == 2, 10, "the second observation listed")
        row(page, "o-list", extra["id"]).click()
        wait_until(lambda: page.find_element("id", "o-own").is_displayed(), 5, "its own part of the sheet")
        check(text(page, "o-save") == "Change what it was, its kind or notes to save" and not page.find_element("id", "o-save").is_enabled(),
              "nothing to save until something is changed (%r)" % text(page, "o-save"))
        box = page.find_element("id", "o-etitle")
        box.send_keys("-lark")
        check(text(page, "o-save") == "Save “Magpie-lark” (bird)", "the button says what it saves (%r)" % text(page, "o-save"))
        click(page, "o-save")
        wait_until(lambda: text(page, "o-sresult") == "Saved “Magpie-lark” (bird).", 10, lambda: "saved (%r)" % text(page, "o-sresult"))
        wait_until(lambda: text(page, "o-name") == "Magpie-lark", 10, "the sheet shows the new name")
        kept = [o for o in stack.daemon({"cmd": "observations"}, "OBSERVATIONS")["result"] if o["id"] == extra["id"]]
        check(len(kept) == 1 and kept[0]["title"] == "Magpie-lark" and kept[0]["description"] == "On the gate"
              and kept[0]["observed_at"] == extra["observed_at"], "the daemon has the correction, notes and time kept (%r)" % kept)
        notes = page.find_element("id", "o-edesc")
        notes.clear()
        page.execute_script("arguments[0].dispatchEvent(new Event('input'))", notes)
        click(page, "o-save")
        wait_until(lambda: "description" not in [o for o in stack.daemon({"cmd": "observations"}, "OBSERVATIONS")["result"] if o["id"] == extra["id"]][0],
                   10, "the notes removed")
        click(page, "o-delete")
        check(text(page, "o-confirm-q") == "Delete “Magpie-lark” for good?" and text(page, "o-confirm-no") == "No, keep “Magpie-lark”",
              "the question names it (%r)" % text(page, "o-confirm-q"))
        click(page, "o-confirm-no")
        check(not page.find_element("id", "o-confirm").is_displayed() and len(stack.daemon({"cmd": "observations"}, "OBSERVATIONS")["result"]) == 2,
              "No keeps it")
        click(page, "o-delete")
        click(page, "o-confirm-yes")
        wait_until(lambda: not page.find_element("id", "o-sheet").is_displayed() and ids(page, "o-list") == [obs[0]["id"]], 10, "deleted")
        check([o["id"] for o in stack.daemon({"cmd": "observations"}, "OBSERVATIONS")["result"]] == [obs[0]["id"]], "the daemon deleted it, and only it")

        # ---- Submit a new Big Thing with a photo ----
        click(page, "n-things")
        wait_until(lambda: page.find_element("id", "t-submit").is_displayed(), 10, "Big Things")
        click(page, "t-submit")
        wait_until(lambda: text(page, "u-send") == "Type the Big Thing's name", 10, "Submit")
        page.find_element("id", "u-name").send_keys(WOMBAT)
        page.find_element("id", "u-by").send_keys("Test Driver")
        check(text(page, "u-send") == "Submit “%s” at the car's position" % WOMBAT, "the button names what it submits and where")
        big = os.path.join(stack.dir, "huge.jpg")
        with open(big, "wb") as f:
            f.write(b"\xff\xd8\xff\xe0" + b"\0" * (10 * 1024 * 1024 + 10))
        page.find_element("id", "u-photo").send_keys(big)
        wait_until(lambda: text(page, "u-photo-info").startswith("This photo is 10.0 MB"), 5, "the photo refused")
        check(not page.find_element("id", "u-send").is_enabled(), "a photo over 10 MB: nothing to press (%r)" % text(page, "u-photo-info"))
        photo = os.path.join(stack.dir, "wombat.jpg")
        with open(photo, "wb") as f:
            f.write(b"\xff\xd8\xff\xe0" + os.urandom(100_000) + b"\xff\xd9")   # several chunks of 32 KiB
        page.find_element("id", "u-photo").send_keys(photo)
        wait_until(lambda: text(page, "u-send") == "Submit “%s” with its photo at the car's position" % WOMBAT, 5, "the photo taken")
        click(page, "u-send")
        wait_until(lambda: text(page, "u-result").startswith("Queued “%s” with its photo at " % WOMBAT), 20, "queued")
        out = [o for o in stack.daemon({"cmd": "outbox"}, "OUTBOX")["result"] if o.get("name") == WOMBAT]
        check(len(out) == 1 and out[0]["state"] == "pending", "the daemon's outbox holds it for the next sync (%s)" % [o.get("kind") for o in out])
        check(len(out) == 1 and "wombat.jpg" in str(out[0]["request"]) and "100006" in str(out[0]["request"]),
              "with the photo, every byte (%s)" % str(out[0]["request"])[:200] if out else "no item")
        check(page.find_element("id", "u-name").get_attribute("value") == "", "the form is cleared for the next one")
        # At an address instead of the car's position, seen at a time typed (the phone's zone).
        page.find_element("id", "u-name").send_keys("Big Koala")
        page.find_element("id", "u-address").send_keys("Dadswells Bridge VIC")
        page.execute_script("const w = document.getElementById('u-when'); w.value = '2026-03-01T14:30'; w.dispatchEvent(new Event('input'))")
        check(text(page, "u-send") == "Submit “Big Koala” at Dadswells Bridge VIC", "the button names the address (%r)" % text(page, "u-send"))
        click(page, "u-send")
        wait_until(lambda: text(page, "u-result").startswith("Queued “Big Koala” at Dadswells Bridge VIC"), 20, "queued at the address (%r)" % text(page, "u-result"))
        koala = [o for o in stack.daemon({"cmd": "outbox"}, "OUTBOX")["result"] if o.get("name") == "Big Koala"]
        seen = page.execute_script("return new Date('2026-03-01T14:30').toISOString()")
        check(len(koala) == 1 and "Dadswells Bridge VIC" in str(koala[0]["request"]) and seen[:16] in str(koala[0]["request"]).replace(" ", "T"),
              "the daemon has the address and the time seen (%s; %s)" % (str(koala[0]["request"])[:200] if koala else "none", seen))

        # ---- A long press on the radar adds a place there ----
        go(page, "")
        wait_until(lambda: page.execute_script("return document.querySelectorAll('#radar .blip').length") > 0, 10, "the radar")
        x, y, rng = page.execute_script("const r = document.getElementById('radar'), p = new DOMPoint(0, -50).matrixTransform(r.getScreenCTM());"
                                        "return [p.x, p.y, window.hotcold.radarRange]")
        page.execute_script("document.getElementById('radar').dispatchEvent(new PointerEvent('pointerdown', {clientX: arguments[0], clientY: arguments[1], bubbles: true, pointerId: 1}))", x, y)
        wait_until(lambda: page.find_element("id", "here").is_displayed(), 5, "the long press")
        page.execute_script("document.getElementById('radar').dispatchEvent(new PointerEvent('pointerup', {bubbles: true, pointerId: 1}))")
        half = page.execute_script("return arguments[0] < 1000 ? Math.round(arguments[0]) + ' m' : (arguments[0] / 1000).toFixed(1) + ' km'", rng / 2)
        check(text(page, "h-where").startswith("A place of your own %s N of the car" % half), "the press names the spot: %r" % text(page, "h-where"))
        check(text(page, "h-add") == "Type a name to add it" and not page.find_element("id", "h-add").is_enabled(), "nothing to add without a name")
        page.find_element("id", "h-name").send_keys(LOOKOUT)
        check(text(page, "h-add") == "Add “%s” there" % LOOKOUT, "the button names what it adds")
        click(page, "h-add")
        wait_until(lambda: text(page, "w-result").startswith("Added “%s” at " % LOOKOUT), 10, "added there")
        check(not page.find_element("id", "here").is_displayed(), "done: the question goes")
        got = stack.daemon({"cmd": "search", "kinds": ["location"], "text": LOOKOUT}, "PLACES")["result"]
        off = meridian_distance(car.lat, got[0]["place"]["latitude"]) if got else None
        check(len(got) == 1 and abs(off - rng / 2) < 0.01 * rng and abs(got[0]["place"]["longitude"] - car.lon) < 1e-5,
              "the daemon has it where the finger was: %.0f m north, half the radar's %d m (%s)" % (off or -1, rng, got[:1] and got[0]["place"]["id"]))
        stack.write({"cmd": "store", "op": "delete", "id": got[0]["place"]["id"]}, "STORE")

        # ---- The daemon gone: every screen's writes greyed, the banner says why ----
        stack.stop_daemon()
        wait_until(lambda: page.execute_script("return !!window.hotcold.link && !window.hotcold.link.up"), 20, "the tracker gone")
        for screen, btn in (("friends", "fr-follow"), ("obs", "o-add-btn"), ("submit", "u-send")):
            go(page, screen)
            # Each form filled, so only the daemon's absence can leave nothing to press.
            if screen == "friends":
                page.find_element("id", "fr-who").send_keys("bob/car")
            if screen == "submit":
                page.find_element("id", "u-name").send_keys("Big Anything")
            if screen == "obs":
                page.find_element("id", "o-title").send_keys("Anything")
            wait_until(lambda: page.find_element("id", "banner").is_displayed(), 5, "the banner")
            check(text(page, "banner").startswith("OLD DATA — the box's tracker") and not page.find_element("id", btn).is_enabled(),
                  "%s with the daemon gone: %r, nothing to press" % (screen, text(page, "banner")))
        stack.start_daemon()
        wait_until(lambda: page.execute_script("return !!window.hotcold.link && window.hotcold.link.up && !document.body.classList.contains('stale')"), 30, "the tracker back")
        go(page, "friends")
        page.find_element("id", "fr-who").clear()
        go(page, "submit")
        page.find_element("id", "u-name").clear()
        go(page, "obs")
        page.find_element("id", "o-title").clear()

        # ---- Layouts, with long names everywhere ----
        stack.write({"cmd": "follow", "who": "jane/ute"}, "RESULT")
        stack.write({"cmd": "follow", "who": "koala-crossing-family-wagon/the-long-white-one"}, "RESULT")
        stack.write({"cmd": "store", "op": "add", "name": MINE, "lat": car.lat, "lon": car.lon}, "STORE")
        for (w, h) in SIZES:
            set_viewport(page, w, h, w < 600 or h < 600)
            where = "%dx%d" % (w, h)
            go(page, "")
            wait_until(lambda: page.find_element("id", "radar").is_displayed(), 5, "Live")
            x, y = page.execute_script("const p = new DOMPoint(30, 30).matrixTransform(document.getElementById('radar').getScreenCTM()); return [p.x, p.y]")
            page.execute_script("document.getElementById('radar').dispatchEvent(new PointerEvent('pointerdown', {clientX: arguments[0], clientY: arguments[1], bubbles: true, pointerId: 1}))", x, y)
            wait_until(lambda: page.find_element("id", "here").is_displayed(), 5, "the long press")
            page.execute_script("document.getElementById('radar').dispatchEvent(new PointerEvent('pointerup', {bubbles: true, pointerId: 1}))")
            page.find_element("id", "h-name").send_keys(MINE)
            fits(page, where, "adding a place at a long press", ", #h-where")
            click(page, "h-cancel")
            check(page.find_element("id", "h-name").get_attribute("value") == "", "%s: cancelled, the name goes with the spot" % where)
            go(page, "caches")
            wait_until(lambda: len(ids(page, "c-list")) == 3, 10, "the caches")
            fits(page, where, "Geocaches")
            shot = args.screenshots and ((w, h) == (390, 844) or (args.all and (w, h) == (800, 480)))
            if shot:
                os.makedirs(args.screenshots, exist_ok=True)
                page.save_screenshot(os.path.join(args.screenshots, "caches-%dx%d.png" % (w, h)))
            row(page, "c-list", CACHES[1][0]).click()
            wait_until(lambda: text(page, "s-seen").startswith("Found"), 10, "the cache's page")
            if page.find_element("id", "s-hint-btn").is_displayed():
                click(page, "s-hint-btn")
            fits(page, where, "a cache's page with its hint")
            if shot:
                page.save_screenshot(os.path.join(args.screenshots, "cache-%dx%d.png" % (w, h)))
            click(page, "s-close")
            go(page, "friends")
            wait_until(lambda: len(ids(page, "fr-feed")) >= 50 and len(ids(page, "fr-following")) == 2, 10, "the feed")
            fits(page, where, "Friends")
            if shot:
                page.save_screenshot(os.path.join(args.screenshots, "friends-%dx%d.png" % (w, h)))
            go(page, "mine")
            wait_until(lambda: len(ids(page, "m-list")) == 1, 10, "My places")
            page.find_element("css selector", "#m-list li").click()
            wait_until(lambda: page.find_element("id", "s-delete").is_displayed(), 10, "the place's page")
            click(page, "s-delete")
            fits(page, where, "a place of one's own, asking to confirm a delete")
            if shot:
                page.save_screenshot(os.path.join(args.screenshots, "place-delete-%dx%d.png" % (w, h)))
            click(page, "s-confirm-no")
            click(page, "s-close")
            go(page, "obs")
            wait_until(lambda: len(ids(page, "o-list")) == 1, 10, "Field")
            fits(page, where, "Field")
            if shot:
                page.save_screenshot(os.path.join(args.screenshots, "field-%dx%d.png" % (w, h)))
            page.find_element("css selector", "#o-list li").click()
            wait_until(lambda: page.find_element("id", "o-sheet").is_displayed(), 5, "the observation")
            fits(page, where, "an observation's detail")
            click(page, "o-close")
            go(page, "submit")
            if not page.find_element("id", "u-name").get_attribute("value"):
                page.find_element("id", "u-name").send_keys(WOMBAT)
            wait_until(lambda: text(page, "u-send").startswith("Submit “"), 5, "Submit")
            fits(page, where, "Submit", ", #u-what, label")
            if shot:
                page.save_screenshot(os.path.join(args.screenshots, "submit-%dx%d.png" % (w, h)))
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
