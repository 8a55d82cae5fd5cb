#!/usr/bin/python3
"""The page a driver can trust, in a real browser (Debian's chromium through selenium) against
real gpsd, hotcoldd (roaming the bundled Big Things catalogue around Coffs Harbour) and
hotcold-web, with a relay between hotcold-web and the daemon that can hold a STATUS back
behind the next event or refuse new connections:

  * every write button names its target and mode, and does exactly that ("Hunt Big Bunch of
    Bananas", "Add The Big Windmill to the hunt", "Hunt only …", "Roam 10 km"); the reply
    names what changed, and the daemon's own status agrees;
  * the focused place's note, rating and seen state are shown, read from the daemon;
  * a note typed for one place is saved to that place, even when the focus moves on its own
    (the car drives on) while it is typed; ratings and seen go to the place they were given for;
  * a STATUS delayed behind a newer event never replaces what the event showed: while driving
    straight at a target the distance shown never grows and the tier never drops;
  * a write the daemon cannot take says so in words for a phone (no command-line advice) and
    the error goes once the daemon answers again;
  * the daemon gone: every part of the screen that shows data is greyed, the OLD DATA banner
    itself is not, and nothing can be pressed that would need the daemon; back, all clear;
  * friends are on the radar and in the list, marked as friends;
  * with nothing tracked there is no arrow and nothing to press about a target.

Usage: trust.py --bin .build/debug
Exit status 0 when every check passed; each check prints one line."""

import argparse
import os
import sys
import time
from datetime import datetime, timezone

sys.path.insert(0, os.path.dirname(__file__))
from harness import Car, Stack, browser, check, offset, wait_until  # noqa: E402
from selenium.common.exceptions import ElementClickInterceptedException  # noqa: E402

BUNCH = ("halans:c0ec8df157", "Big Bunch of Bananas", -30.3195, 153.089)
WINDMILL = ("halans:ab12c4892e", "The Big Windmill", -30.304254, 153.101708)
BANANA = ("halans:d0577fb8cf", "Big Banana", -30.274764, 153.133797)


def js(page, script, *args):
    return page.execute_script(script, *args)


def text(page, id_):
    """The element's text when it is shown, else None."""
    return js(page, "const e = document.getElementById(arguments[0]); return e && e.getClientRects().length ? e.textContent : null", id_)


def visible(page, id_):
    return js(page, "const e = document.getElementById(arguments[0]); return !!e && e.getClientRects().length > 0", id_)


def click(page, id_):
    """A real click on the element once it holds still: the live stream re-renders the page
    (a STATUS can show or hide a write button and move the ones after it), so a click that
    lands on another element as the layout moves is tried again, for up to 10 s."""
    deadline = time.time() + 10
    while True:
        e = page.find_element("id", id_)
        try:
            e.click()
            return
        except ElementClickInterceptedException:
            if time.time() > deadline:
                raise
            time.sleep(0.1)


def tap_row(page, name):
    """Taps the list row whose name starts with `name` (focuses it)."""
    for li in page.find_elements("css selector", "#targets li"):
        if li.find_element("css selector", "span").text.startswith(name):
            page.execute_script("arguments[0].scrollIntoView({block: 'nearest'})", li)
            li.click()
            return True
    return False


def tracking(stack, expect=None):
    """The daemon's (mode, tracked ids, radius); with `expect`, waits a little for the engine to
    take the change (targets are listed from the next fix on)."""
    def now():
        s = stack.daemon({"cmd": "status"}, "STATUS")
        return s["tracking"]["mode"], sorted(t["target"]["id"] for t in s.get("targets", [])), s["tracking"].get("radius_m")
    if expect is not None:
        try:
            wait_until(lambda: now()[:len(expect)] == expect, 5, "the daemon's tracking")
        except AssertionError:
            pass
    return now()


def mine(stack, pid):
    return stack.daemon({"cmd": "place", "id": pid}, "PLACE")["result"]["mine"]


def wait_check(cond, timeout, what, seen=None):
    """Waits for `cond`; the check's line ends with what `seen()` gives then."""
    try:
        wait_until(cond, timeout, what)
        ok = True
    except AssertionError:
        ok = False
    return check(ok, what + (" (%r)" % (seen(),) if seen else "") + ("" if ok else ": timed out after %.0f s" % timeout))


def writes(stack, page, car):
    """Buttons that say what they do, replies that say what changed, the daemon agreeing."""
    wait_until(lambda: tap_row(page, BUNCH[1]), 20, "Big Bunch of Bananas in the list")
    wait_until(lambda: text(page, "f-name") == BUNCH[1], 5, "the tapped place in focus")
    check(text(page, "w-hunt") == "Hunt " + BUNCH[1] and not visible(page, "w-roam") and not visible(page, "w-add"),
          "roaming 10 km, the focus's button says what it does: %r (no roam button: already roaming 10 km)" % text(page, "w-hunt"))
    click(page, "w-hunt")
    wait_check(lambda: (text(page, "w-result") or "").startswith("Now hunting " + BUNCH[1] + " only"), 10,
               "the reply names what changed", lambda: text(page, "w-result"))
    check(tracking(stack, ("hunt", [BUNCH[0]]))[:2] == ("hunt", [BUNCH[0]]), "the daemon hunts Big Bunch of Bananas and nothing else (%s)" % (tracking(stack),))
    wait_until(lambda: visible(page, "w-roam"), 5, "the roam button")
    check(text(page, "w-roam") == "Roam 10 km" and not visible(page, "w-hunt"),
          "hunting only the focus: the buttons offer Roam 10 km and no second hunt of it (%r)" % text(page, "w-roam"))

    # A place near the car that is not hunted: adding it keeps the hunt and adds it.
    wait_until(lambda: tap_row(page, WINDMILL[1]), 20, "The Big Windmill listed as not hunted")
    wait_until(lambda: text(page, "f-name") == WINDMILL[1], 5, "The Big Windmill in focus")
    check(text(page, "w-add") == "Add %s to the hunt" % WINDMILL[1] and text(page, "w-hunt") == "Hunt only " + WINDMILL[1],
          "a place not hunted: %r and %r" % (text(page, "w-add"), text(page, "w-hunt")))
    click(page, "w-add")
    wait_check(lambda: (text(page, "w-result") or "").startswith("Added %s — hunting 2 targets" % WINDMILL[1]), 10,
               "the reply names the place added and the hunt's size", lambda: text(page, "w-result"))
    check(tracking(stack, ("hunt", sorted([BUNCH[0], WINDMILL[0]])))[:2] == ("hunt", sorted([BUNCH[0], WINDMILL[0]])), "the daemon hunts both (%s)" % (tracking(stack),))

    # Hunting two: "Hunt only" the focus hunts just it, never roams (the old "Hunt this" did).
    wait_until(lambda: text(page, "w-hunt") == "Hunt only " + WINDMILL[1], 5, "Hunt only The Big Windmill")
    click(page, "w-hunt")
    wait_check(lambda: (text(page, "w-result") or "").startswith("Now hunting %s only — hunting 1 target" % WINDMILL[1]), 10,
               "Hunt only while hunting two hunts the one", lambda: text(page, "w-result"))
    check(tracking(stack, ("hunt", [WINDMILL[0]]))[:2] == ("hunt", [WINDMILL[0]]), "the daemon hunts The Big Windmill only (%s)" % (tracking(stack),))
    click(page, "w-roam")
    wait_check(lambda: (text(page, "w-result") or "").startswith("Roaming 10 km:"), 10, "Roam 10 km roams", lambda: text(page, "w-result"))
    mode, _, radius = tracking(stack, ("roam",))
    check(mode == "roam" and radius == 10000, "the daemon roams 10 km (%s, %s)" % (mode, radius))


def notes(stack, page, car):
    """Input belongs to the place it was typed for; the current state is shown."""
    stack.daemon({"cmd": "hunt", "targets": [BUNCH[0], WINDMILL[0]]})
    stack.daemon({"cmd": "store", "op": "note", "id": BUNCH[0], "text": "Bunch: the bananas are fibreglass"}, "STORE")
    stack.daemon({"cmd": "store", "op": "rate", "id": BUNCH[0], "stars": 5}, "STORE")
    # The focus follows the car (nothing pinned): the nearest hunted place.
    js(page, "localStorage.removeItem('hc-focus'); window.hotcold.focus = null; window.hotcold.places.clear()")
    wait_until(lambda: text(page, "f-name") == BUNCH[1], 10, "Big Bunch of Bananas in focus by default")
    wait_check(lambda: text(page, "f-mine") == "not seen · ★★★★★ · “Bunch: the bananas are fibreglass”", 10,
               "the focused place's seen state, rating and note, read from the daemon", lambda: text(page, "f-mine"))
    # The page has the hunt of two from the daemon's STATUS (its buttons say so) before a tap.
    wait_until(lambda: text(page, "w-hunt") == "Hunt only " + BUNCH[1], 10, "the buttons for the hunt of two")
    click(page, "w-open")
    wait_until(lambda: visible(page, "sheet") and page.find_element("id", "s-note").get_attribute("value") != "", 10, "the sheet with the note")
    check(text(page, "s-name") == BUNCH[1] and page.find_element("id", "s-note").get_attribute("value") == "Bunch: the bananas are fibreglass"
          and text(page, "s-rating") == "Your rating: 5 of 5" and text(page, "s-seen") == "Not seen yet",
          "the sheet shows the place's current note, rating and seen state")
    box = page.find_element("id", "s-note")
    box.clear()
    box.send_keys("Bunch: typed while driving on")
    # The car drives on to The Big Windmill: the focus moves on its own while the note is typed.
    car.drive_to(*offset(WINDMILL[2], WINDMILL[3], 0, -150))
    wait_check(lambda: js(page, "return document.getElementById('f-name').textContent") == WINDMILL[1], 15,
               "the focus moved on its own to The Big Windmill while the note was typed")
    check(text(page, "s-name") == BUNCH[1] and text(page, "s-save") == "Save the note on " + BUNCH[1],
          "the sheet still belongs to Big Bunch of Bananas (%r)" % text(page, "s-save"))
    box.send_keys(".")
    click(page, "s-save")
    wait_check(lambda: text(page, "s-result") == "Saved the note on %s." % BUNCH[1], 10, "the reply names the place", lambda: text(page, "s-result"))
    s, w = mine(stack, BUNCH[0]), mine(stack, WINDMILL[0])
    check((s.get("note") or {}).get("text") == "Bunch: typed while driving on." and w.get("note") is None,
          "the daemon holds the note on Big Bunch of Bananas and none on The Big Windmill (%r, %r)" % (s.get("note"), w.get("note")))
    click(page, "s-close")
    wait_check(lambda: text(page, "f-mine") == "not seen · no rating · no note", 10,
               "The Big Windmill in focus shows its own state", lambda: text(page, "f-mine"))
    click(page, "w-open")
    wait_until(lambda: text(page, "s-seen") == "Not seen yet" and text(page, "s-name") == WINDMILL[1], 10, "the sheet for The Big Windmill")
    check(page.find_element("id", "s-note").get_attribute("value") == "", "its note box is empty: nothing typed for another place is carried over")
    page.find_elements("css selector", "#s-stars button")[2].click()
    wait_check(lambda: text(page, "s-result") == "Rated %s 3 of 5." % WINDMILL[1], 10, "rated", lambda: text(page, "s-result"))
    wait_until(lambda: text(page, "s-seen-btn") == "Mark seen now", 5, "the seen button")
    click(page, "s-seen-btn")
    wait_check(lambda: text(page, "s-result") == "Marked %s seen." % WINDMILL[1], 10, "marked seen", lambda: text(page, "s-result"))
    s, w = mine(stack, BUNCH[0]), mine(stack, WINDMILL[0])
    check((w.get("rating") or {}).get("stars") == 3 and len(w.get("visits", [])) == 1 and (s.get("rating") or {}).get("stars") == 5
          and not s.get("visits"), "rating and visit went to The Big Windmill only")
    wait_check(lambda: (text(page, "s-seen") or "").startswith("Seen "), 10, "the sheet shows it seen", lambda: text(page, "s-seen"))
    click(page, "s-close")


def delayed_status(stack, page, car):
    """A STATUS held back behind the next event: the page keeps the newer."""
    stack.daemon({"cmd": "hunt", "targets": [BANANA[0]]})
    js(page, "localStorage.removeItem('hc-focus'); window.hotcold.focus = null")
    car.drive_to(*offset(BANANA[2], BANANA[3], -900, 0), speed=60, wall_step=0.05)
    wait_until(lambda: text(page, "f-name") == BANANA[1], 15, "Big Banana in focus")
    time.sleep(0)  # (the wait above is the condition)
    stack.proxy.delay_status = True
    held0 = stack.proxy.held
    js(page, "window.hotcold.updates.length = 0; window.hotcold.tierUpdates.length = 0; window.hotcold.refused.status = 0")
    # Due north at 15 m/s, one fix per 0.25 s of wall time, to 40 m short of the Banana.
    car.drive_to(*offset(BANANA[2], BANANA[3], -40, 0), speed=15, wall_step=0.25)
    wait_until(lambda: text(page, "f-dist") in ("40 m", "41 m", "39 m"), 10, "the page to show the car parked 40 m short")
    stack.proxy.delay_status = False
    held = stack.proxy.held - held0
    refused = js(page, "return window.hotcold.refused.status")
    ups = [u for u in js(page, "return window.hotcold.updates") if u["id"] == BANANA[0]]
    dists = [float(u["text"].split()[0]) * (1000 if u["text"].endswith("km") else 1) for u in ups if u["text"] != "—"]
    back = [(a, b) for a, b in zip(dists, dists[1:]) if b > a + 0.5]
    tiers = js(page, "return (window.hotcold.tiers || [])")
    order = [tiers.index(u["text"]) for u in js(page, "return window.hotcold.tierUpdates") if u["id"] == BANANA[0] and u["text"] in tiers]
    drops = [(tiers[a], tiers[b]) for a, b in zip(order, order[1:]) if b < a]
    check(held >= 2, "the relay held a STATUS back behind a newer event %d times" % held)
    check(refused >= 1, "the page refused %d updates older than what it showed" % refused)
    check(len(dists) > 10 and not back, "driving straight at Big Banana the distance shown never grew (%d values; back: %s)" % (len(dists), back[:5]))
    check(len(order) >= 2 and not drops, "the tier shown never dropped back (%s; drops: %s)" % ([tiers[i] for i in order], drops))


def errors(stack, page, car):
    """A write that cannot reach the daemon: phone words, cleared when the daemon answers."""
    js(page, "localStorage.removeItem('hc-focus'); window.hotcold.focus = null")
    wait_until(lambda: visible(page, "w-open"), 10, "the place button")
    click(page, "w-open")
    wait_until(lambda: text(page, "s-name") == BANANA[1] and (text(page, "s-seen") or "").startswith("Seen "), 10,
               "the sheet (Big Banana seen: the car arrived there)")
    stack.proxy.refuse_new = True
    page.find_element("id", "s-note").send_keys("Banana: not now")
    click(page, "s-save")
    wait_check(lambda: (text(page, "s-result") or "").startswith("The box's tracker is not answering"), 15,
               "a write the daemon cannot take says so", lambda: text(page, "s-result"))
    body = js(page, "return document.body.innerText")
    check("--" not in body and "PATH" not in body and "socket" not in body, "no command-line advice on the page")
    stack.proxy.refuse_new = False
    wait_check(lambda: not text(page, "s-result"), 15, "the error is gone once the daemon answers again")
    check(mine(stack, BANANA[0]).get("note") is None, "nothing was saved meanwhile")
    click(page, "s-close")


def offline(stack, page, car):
    """The daemon gone: all data greyed, the label bright, nothing to press; back: all clear."""
    stack.stop_daemon()
    wait_check(lambda: visible(page, "banner") and text(page, "banner").startswith("OLD DATA"), 15,
               "the daemon gone: OLD DATA", lambda: text(page, "banner"))
    st = js(page, """
      const op = (e) => { let o = 1; for (; e; e = e.parentElement) o *= Number(getComputedStyle(e).opacity); return o; };
      const grey = (e) => { for (; e; e = e.parentElement) if (getComputedStyle(e).filter.includes('grayscale')) return true; return false; };
      const b = document.getElementById('banner'), li = document.querySelector('#targets li');
      return {banner: op(b), bannerGrey: grey(b), list: li ? op(li) : null, listGrey: li ? grey(li) : null,
              focus: op(document.getElementById('f-dist')), radar: op(document.getElementById('radar')),
              passage: op(document.getElementById('passage')),
              enabled: [...document.querySelectorAll('#foot button, #sheet button')].filter(b => b.offsetParent && !b.disabled).map(b => b.textContent)};""")
    check(st["banner"] == 1 and not st["bannerGrey"], "the OLD DATA banner itself is not dimmed (%s)" % st["banner"])
    check(st["list"] is not None and st["list"] < 0.7 and st["listGrey"] and st["focus"] < 0.7 and st["radar"] < 0.7 and st["passage"] < 0.7,
          "the list, the focus, the radar and the passage are greyed (%s)" % st)
    check(not st["enabled"], "nothing to press that needs the daemon (%s)" % st["enabled"])
    body = js(page, "return document.body.innerText")
    check("--" not in body and "PATH" not in body, "no command-line advice while it is gone")
    stack.start_daemon()
    wait_check(lambda: not visible(page, "banner") and text(page, "link") == "live", 20, "the daemon back: no banner, link live")
    check(not js(page, "return document.body.classList.contains('stale')"), "nothing greyed any more")


def friends(stack, page, car):
    stack.daemon({"cmd": "follow", "who": "jane/ute"})
    lat, lon = offset(car.lat, car.lon, 400, 300)
    now = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z")
    r = stack.daemon({"cmd": "friend_fix", "who": "jane/ute", "name": "Jane", "time": now, "lat": lat, "lon": lon, "accuracy_m": 8})
    check(r.get("ok") is True, "a friend's position reaches the daemon (%s)" % r)
    wait_check(lambda: js(page, "return [...document.querySelectorAll('#targets li.friend')].map(l => l.textContent).join('|')").startswith("Jane · friend"),
               10, "the friend is in the list, marked as a friend")
    check(js(page, "return document.querySelectorAll('#radar .blip.friend').length") == 1, "and on the radar, drawn as a friend")
    tap_row(page, "Jane")
    wait_check(lambda: text(page, "f-name") == "Jane (friend)", 5, "a tap focuses the friend")
    check(not visible(page, "w-hunt") and not visible(page, "w-add") and not visible(page, "w-open"),
          "no hunt or note buttons for a friend (nothing to hunt or rate)")


def nothing(stack, page, car):
    stack.daemon({"cmd": "unfollow", "who": "jane/ute"})
    # Away from Big Banana first (an arrived place stays tracked until departed).
    car.drive_to(*offset(BANANA[2], BANANA[3], -600, 0), speed=30, wall_step=0.05)
    wait_until(lambda: any(e.get("class") == "DEPARTED" for e in stack.daemon_events()), 15, "DEPARTED Big Banana")
    stack.daemon({"cmd": "roam", "radius": "10m"})
    js(page, "localStorage.removeItem('hc-focus'); window.hotcold.focus = null")
    wait_check(lambda: text(page, "f-name") == "no target tracked", 20, "nothing tracked", lambda: text(page, "f-name"))
    shown = js(page, "return [...document.querySelectorAll('button')].filter(b => b.offsetParent).map(b => b.id)")
    check(not visible(page, "f-arrow") and set(shown) <= {"theme", "w-roam"},
          "no arrow, and nothing to press about a target (%s)" % shown)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    args = ap.parse_args()
    stack = Stack(os.path.abspath(args.bin), daemon_args=["--roam", "10km"], proxy=True)
    page, car = None, None
    try:
        car = Car(stack, *offset(BUNCH[2], BUNCH[3], 0, 200))
        page = browser(800, 480)
        stack.pair(page)
        wait_until(lambda: js(page, "return !!(window.hotcold && window.hotcold.session && window.hotcold.session.writer && window.hotcold.status && window.hotcold.link && window.hotcold.link.up)"),
                   20, "the paired page to follow the daemon")
        for part in (writes, notes, delayed_status, errors, offline, friends, nothing):
            try:
                js(page, "if (window.hotcold.sheet) document.getElementById('s-close').click()")
                part(stack, page, car)
            except Exception as e:  # one part failing must not hide the others' results
                check(False, "%s: %s: %s" % (part.__name__, type(e).__name__, str(e).splitlines()[0] if str(e) else ""))
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
