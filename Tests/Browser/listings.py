#!/usr/bin/python3
"""Gone places, whole listings and one feed item per place, in chromium against real gpsd,
hotcoldd (the bundled catalogue) and hotcold-web, the car parked on The Big Slurpee's point in
Coffs Harbour (demolished 2009), a multi-cache with a long description and its parking nearby:

  * Near me lists the Slurpee saying it is gone and why; a standing Big Thing says nothing;
  * hunting it by its id (on the socket) marks it gone in the live list; hunting another place,
    the places near the car offered beside the hunt never include it (though `near` has it);
  * its page says gone (demolished), and its Hunt button says so;
  * a cache's page shows its long description in full as paragraphs of text (its HTML read,
    never run: no script, no picture fetched) and the listing's link; its parking is one of its
    stages, with no stars, favourite or note of its own;
  * seven taps on a cache's stars (ending on 0) are one feed item on Friends, saying the last
    rating as a rating: "0 of 5";
  * each at 320, 390 and 800x480: nothing outside the viewport, nothing that matters clipped.

Usage: listings.py --bin .build/debug"""

import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from harness import CLIPPED_JS, OUTSIDE_JS, Car, Stack, browser, check, offset, set_viewport, wait_until  # noqa: E402

SLURPEE = ("halans:ef1837ed0c", "The Big Slurpee")
BANANA = ("halans:d0577fb8cf", "Big Banana")
HOME = (-30.302222, 153.118889)
CODE, NAME = "GC7MULTI", "Along the Creek, a Multi in Four Stages"
LINK = "https://coord.info/GC7MULTI"
LONG = ("<h2>The stages</h2><p>Start at the <b>parking</b>.<br>Count the fence posts: that is A.</p>"
        "<ul><li>Stage 1 at S 30° 18.A00</li><li>Final: under the bridge &amp; to the left</li></ul>"
        "<script>window.pwned = 1</script><img src=\"https://example.invalid/x.png\" onerror=\"window.pwned = 2\">"
        "<p>Mind the snakes.</p>")
SIZES = [(320, 568), (390, 844), (800, 480)]
MATTERS = "button, .rows li span, #s-name, #s-where, #s-seen, #s-result, #s-long p, #s-link, #nr-head, #fr-head"


def xml(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def gpx():
    lat, lon = offset(HOME[0], HOME[1], 300, 200)
    plat, plon = offset(HOME[0], HOME[1], 120, 60)
    return ('<?xml version="1.0" encoding="utf-8"?>\n'
            '<gpx xmlns="http://www.topografix.com/GPX/1/0" version="1.0" creator="Groundspeak">'
            '<wpt lat="%.6f" lon="%.6f"><name>%s</name><desc>%s by tester</desc><url>%s</url><type>Geocache|Multi-cache</type>'
            '<groundspeak:cache id="7" available="True" archived="False" xmlns:groundspeak="http://www.groundspeak.com/cache/1/0/1">'
            '<groundspeak:name>%s</groundspeak:name><groundspeak:owner>tester</groundspeak:owner>'
            '<groundspeak:type>Multi-cache</groundspeak:type><groundspeak:container>Small</groundspeak:container>'
            '<groundspeak:difficulty>3</groundspeak:difficulty><groundspeak:terrain>2</groundspeak:terrain>'
            '<groundspeak:short_description html="True">A walk along the creek.</groundspeak:short_description>'
            '<groundspeak:long_description html="True">%s</groundspeak:long_description></groundspeak:cache></wpt>'
            '<wpt lat="%.6f" lon="%.6f"><name>PK7MULTI</name><cmt>Park by the gate</cmt><desc>Parking Area</desc>'
            '<sym>Parking Area</sym><type>Waypoint|Parking Area</type></wpt></gpx>'
            % (lat, lon, CODE, xml(NAME), LINK, xml(NAME), xml(LONG), plat, plon))


def text(page, id_):
    return page.find_element("id", id_).text


def click(page, id_):
    page.find_element("id", id_).click()


def ids(page, list_id):
    return page.execute_script("return [...document.querySelectorAll('#' + arguments[0] + ' > li')].map(l => l.dataset.id)", list_id)


def row(page, list_id, key):
    return page.execute_script("return [...document.querySelectorAll('#' + arguments[0] + ' > li')].find(l => l.dataset.id === arguments[1])", list_id, key)


def row_text(page, list_id, key):
    return page.execute_script("const l = [...document.querySelectorAll('#' + arguments[0] + ' > li')].find(l => l.dataset.id === arguments[1]); return l ? l.textContent : null", list_id, key)


def targets_text(page):
    return page.execute_script("return [...document.querySelectorAll('#targets > li')].map(l => l.textContent)")


def fits(page, where):
    for w, h in SIZES:
        set_viewport(page, w, h, mobile=w < 800)
        page.execute_script("return new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
        bad = page.execute_script(OUTSIDE_JS) + page.execute_script(CLIPPED_JS, MATTERS)
        check(not bad, "%s at %dx%d: nothing outside, nothing clipped %s" % (where, w, h, bad[:4]))
    set_viewport(page, 390, 844, mobile=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    args = ap.parse_args()
    # The test taps faster than a person (the write rate is not what it checks).
    stack = Stack(os.path.abspath(args.bin), daemon_args=["--target=%f,%f,Start" % (HOME[0], HOME[1] + 0.01)],
                  web_config="[access]\nwrites_per_second = 20\nwrite_burst = 50\n")
    page, car = None, None
    try:
        with tempfile.NamedTemporaryFile("w", suffix=".gpx", dir=stack.dir, delete=False) as f:
            f.write(gpx())
        stack.import_file(f.name)
        car = Car(stack, *HOME)
        page = browser(390, 844)
        set_viewport(page, 390, 844, mobile=True)
        stack.pair(page)
        wait_until(lambda: page.execute_script("return !!(window.hotcold && window.hotcold.session && window.hotcold.status && window.hotcold.status.gps.last_fix"
                                               " && window.hotcold.link && window.hotcold.link.up)"), 20, "the paired page with a fix")

        # ---- Near me: the Slurpee is near, and gone ----
        page.execute_script("location.hash = 'near'")
        wait_until(lambda: SLURPEE[0] in ids(page, "nr-list") and BANANA[0] in ids(page, "nr-list"), 20, lambda: "Near me (%r)" % ids(page, "nr-list"))
        line = row_text(page, "nr-list", SLURPEE[0])
        check(SLURPEE[1] in line and "gone (demolished)" in line, "Near me marks the Slurpee gone and why (%r)" % line)
        check("gone" not in row_text(page, "nr-list", BANANA[0]), "a standing Big Thing is not marked (%r)" % row_text(page, "nr-list", BANANA[0]))
        fits(page, "Near me")

        # ---- Its page: gone, and its Hunt button says so ----
        row(page, "nr-list", SLURPEE[0]).click()
        wait_until(lambda: "gone (demolished)" in text(page, "s-where"), 10, lambda: "the Slurpee's page (%r)" % text(page, "s-where"))
        check(text(page, "s-hunt") == "Hunt only The Big Slurpee (gone: demolished)", "its Hunt button says it is gone (%r)" % text(page, "s-hunt"))
        click(page, "s-close")

        # ---- The live list: hunted by id it is marked; beside another hunt it is never offered ----
        check(stack.write({"cmd": "hunt", "targets": [SLURPEE[0], BANANA[0]]}, "TRACKING").get("gone") == [
            {"id": SLURPEE[0], "name": SLURPEE[1], "gone": "demolished"}], "the daemon hunts it, saying it is gone")
        page.execute_script("location.hash = ''")
        wait_until(lambda: any(SLURPEE[1] in t and "gone (demolished)" in t for t in targets_text(page)), 20,
                   lambda: "the live list marks the hunted Slurpee (%r)" % targets_text(page))
        check(not any(BANANA[1] in t and "gone" in t for t in targets_text(page)), "the Banana is not marked (%r)" % targets_text(page))
        check(stack.write({"cmd": "hunt", "targets": [BANANA[0]]}, "TRACKING").get("gone") is None, "hunting the Banana alone")
        wait_until(lambda: page.execute_script("return window.hotcold.near.some(p => p.target.id === arguments[0] && p.gone === 'demolished')", SLURPEE[0]),
                   30, "the places near the hunt read (the Slurpee among them, gone)")
        wait_until(lambda: page.execute_script("return !window.hotcold.targets.has(arguments[0])", SLURPEE[0])
                   and any("not hunted" in t for t in targets_text(page)), 20, lambda: "the new hunt and the places near it (%r)" % targets_text(page))
        check(not any(SLURPEE[1] in t for t in targets_text(page)), "never offered beside the hunt (%r)" % targets_text(page))
        fits(page, "the live list")

        # ---- A cache's whole listing, safely ----
        page.execute_script("location.hash = 'caches'")
        wait_until(lambda: CODE in ids(page, "c-list"), 20, "the geocaches")
        row(page, "c-list", CODE).click()
        wait_until(lambda: len(page.find_elements("css selector", "#s-long p")) >= 5, 10, "the long description")
        paras = [p.text for p in page.find_elements("css selector", "#s-long p")]
        check(paras == ["The stages", "Start at the parking.", "Count the fence posts: that is A.", "• Stage 1 at S 30° 18.A00",
                        "• Final: under the bridge & to the left", "Mind the snakes."], "the long description in paragraphs, as text (%r)" % paras)
        check(page.execute_script("return [...document.querySelectorAll('#s-long *')].every(e => e.tagName === 'P') && window.pwned === undefined"),
              "nothing of its markup is on the page: no script ran, no picture")
        check(text(page, "s-desc") == "A walk along the creek.", "the short description (%r)" % text(page, "s-desc"))
        link = page.find_element("id", "s-link")
        check(link.is_displayed() and link.get_attribute("href") == LINK and link.text == "The listing of %s on coord.info (opens another site)" % CODE,
              "the listing's link (%r, %r)" % (link.get_attribute("href"), link.text))
        check(text(page, "s-wpts-head").startswith("Its 1 stage"), "its waypoints are its stages (%r)" % text(page, "s-wpts-head"))
        fits(page, "the cache's page")

        # ---- Its parking: a stage, not a place to rate ----
        row(page, "s-wpts-list", "PK7MULTI").click()
        wait_until(lambda: text(page, "s-name") == "Parking Area" and text(page, "s-seen").startswith("A stage of the cache " + CODE), 10,
                   lambda: "the parking's page (%r)" % text(page, "s-seen"))
        hidden = page.execute_script("return ['s-fav-row', 's-rate-row', 's-note', 's-note-row', 's-seen-btn'].filter(i => document.getElementById(i).offsetParent !== null)")
        check(hidden == [], "no stars, favourite or note for a stage (%r shown)" % hidden)
        click(page, "s-parent")
        wait_until(lambda: text(page, "s-name") == NAME and page.find_element("id", "s-rate-row").is_displayed(), 10, "back on the cache's page")

        # ---- Seven taps on the stars: one feed item, the last rating (0) said as a rating ----
        for i, stars in enumerate([3, 5, 1, 4, 2, 5, 0]):
            if stars:
                page.find_element("css selector", "#s-stars button[data-stars='%d']" % stars).click()
            else:
                click(page, "s-unrate")
            wait_until(lambda: text(page, "s-result") == "Rated %s %d of 5." % (NAME, stars) and text(page, "s-rating") == "Your rating: %d of 5" % stars,
                       10, lambda: "tap %d (%r)" % (i + 1, text(page, "s-result")))
        click(page, "s-close")
        page.execute_script("location.hash = 'friends'")

        def own():
            return page.execute_script("return window.hotcold.friends.items.filter(x => x.own && x.place.id === arguments[0])", CODE)
        wait_until(lambda: len(own()) == 1 and own()[0].get("rating") == 0, 20, lambda: "the one own item (%r)" % own())
        item = own()[0]
        li = row(page, "fr-feed", item["id"])
        check(li.find_element("css selector", "span").text == "This car rated " + NAME, "one item saying the car rated it (%r)" % li.text[:80])
        check("☆☆☆☆☆ 0 of 5" in li.find_element("css selector", ".sub").text, "0 stars shown as a rating (%r)" % li.find_element("css selector", ".sub").text)
        check(len([i for i in ids(page, "fr-feed") if i]) == 1, "seven taps, one item (%r)" % ids(page, "fr-feed"))
        fits(page, "Friends")
    finally:
        if car:
            car.stop()
        if page:
            page.quit()
        stack.stop()
    sys.exit(1 if check.failed else 0)


if __name__ == "__main__":
    main()
