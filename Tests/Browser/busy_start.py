#!/usr/bin/python3
"""The page always starts, or says why and starts by itself (issue 39's "stuck on
connecting…"), in Debian's chromium against real gpsd, hotcoldd and hotcold-web processes with
the shipped limits (10 requests/s per address, burst 40):

  * two screens from one address (a phone at 390×844 and the car's display at 800×480) opened
    at the same moment: both start (session read, live);
  * a paired phone reloaded five times in quick succession: it starts, paired, live;
  * the box refusing the page's start (its address over the request limit: 429): the page says
    "box busy, retrying…" and starts by itself once the box answers (320×568);
  * the box's only live slot held by a stream nobody reads (503 for the page's stream): "box
    busy, retrying…", then live by itself once that stream is cut (seconds).

Usage: busy_start.py --bin .build/debug
Exit status 0 when every check passed; each check prints one line."""

import argparse
import os
import socket
import sys
import threading
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(__file__))
from harness import TARGET, Stack, browser, check, wait_until  # noqa: E402

STATE_JS = """
const h = window.hotcold, l = document.getElementById('link'), b = document.getElementById('banner');
return {started: !!(h && h.session), access: h && h.session ? h.session.access : null,
        link: l ? l.textContent : '', banner: b && !b.hidden ? b.textContent : '', live: !!(h && h.sse && h.link && h.link.up && h.status)};
"""


def state(page):
    try:
        return page.execute_script(STATE_JS)
    except Exception as x:  # noqa: BLE001  (a page mid-reload answers nothing)
        return {"started": False, "error": str(x)[:80]}


def live(page, timeout, what):
    """Waits until the page has started and follows the live stream; returns its state."""
    return wait_until(lambda: (lambda s: s if s.get("live") and s.get("link") == "live" else None)(state(page)), timeout,
                      lambda: "%s: the page to start and go live (it shows %s)" % (what, state(page)))


def park(stack):
    """A fix every half second near the target, so STATUS has a fix to show."""
    stop = threading.Event()

    def run():
        while not stop.is_set():
            stack.send_fix(time.time(), TARGET[0] - 500 / 110_850.0, TARGET[1], 0.0, 0.0)
            time.sleep(0.5)
    threading.Thread(target=run, daemon=True).start()
    return stop


def hammer(url, stop, got):
    """Session reads as fast as one thread sends them until `stop`: the address's bucket stays
    empty meanwhile. Counts the refusals (429) in `got["refused"]`."""
    got["refused"] = 0
    while not stop.is_set():
        try:
            urllib.request.urlopen(url + "/session", timeout=5).read()
        except urllib.error.HTTPError as e:
            got["refused"] += e.code == 429
        except OSError:
            pass


def two_screens_and_reloads(args):
    stack = Stack(os.path.abspath(args.bin))
    stop = park(stack)
    phone = car = None
    try:
        phone = browser(390, 844, mobile=True)
        car = browser(800, 480)
        # Both screens open the page at the same moment, from one address.
        threads = [threading.Thread(target=p.get, args=(stack.url + "/",)) for p in (phone, car)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for name, p in (("phone 390×844", phone), ("car display 800×480", car)):
            s = live(p, 30, name)
            check(s["started"] and s["link"] == "live", "two screens from one address: the %s starts and is live (%s)" % (name, s["link"]))

        # The phone paired, then reloaded five times in quick succession.
        stack.pair(phone)
        live(phone, 30, "the paired phone")
        for _ in range(5):
            phone.execute_script("location.reload()")
            time.sleep(0.3)
        s = live(phone, 30, "the phone after five quick reloads")
        check(s["access"] == "paired" and s["link"] == "live",
              "a paired phone reloaded five times quickly starts, paired and live (%s, %s)" % (s["access"], s["link"]))
        check("429" not in stack.web_stderr(), "nothing about refusals in hotcold-web's log")
    finally:
        stop.set()
        for p in (phone, car):
            if p:
                p.quit()
        stack.stop()


def refused_then_started(args):
    stack = Stack(os.path.abspath(args.bin))
    stop = park(stack)
    page = None
    try:
        page = browser(320, 568, mobile=True)
        # The address's bucket kept empty while the page opens: its start is refused (429).
        # Eight senders: on a loaded machine one alone may not outrun the bucket's refill.
        counts, done = [{} for _ in range(8)], threading.Event()
        senders = [threading.Thread(target=hammer, args=(stack.url, done, got)) for got in counts]
        for t in senders:
            t.start()
        try:
            wait_until(lambda: sum(got.get("refused", 0) for got in counts) > 0, 60, "the address's bucket to empty")
            page.get(stack.url + "/")
            seen = wait_until(lambda: (lambda s: s if "box busy, retrying…" in (s.get("link", "") + s.get("banner", "")) else None)(state(page)),
                              30, lambda: "the page to say it waits on a busy box (it shows %s)" % state(page))
            check(seen["link"] == "box busy, retrying…", "refused at start (429), the page says so: %r / %r" % (seen["link"], seen["banner"][:60]))
        finally:
            done.set()
            for t in senders:
                t.join()
        s = live(page, 60, "the page once the box answers again")
        check(s["link"] == "live" and not s["banner"], "it starts by itself once the box answers: %r" % s["link"])
    finally:
        stop.set()
        if page:
            page.quit()
        stack.stop()

    # The only live slot held by a stream nobody reads: the page's stream gets 503.
    stack = Stack(os.path.abspath(args.bin), web_config="[live]\nmax_clients = 1\n")
    stop = park(stack)
    page = hog = None
    try:
        hog = socket.create_connection(("127.0.0.1", stack.web_port))
        hog.sendall(("GET /events HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % stack.web_port).encode())
        hog.settimeout(10)
        first = hog.recv(4096)
        check(b" 200 " in first.split(b"\r\n")[0], "a stream that will never be read holds the only slot")
        page = browser(800, 480)
        opened = time.time()
        page.get(stack.url + "/")
        seen = wait_until(lambda: (lambda s: s if "box busy, retrying…" in (s.get("link", "") + s.get("banner", "")) else None)(state(page)),
                          10, lambda: "the page to say the box is busy (it shows %s)" % state(page))
        check(seen["link"] == "box busy, retrying…", "its stream refused (503), the page says so: %r" % seen["link"])
        s = live(page, 60, "the page once the unread stream is cut")
        check(s["link"] == "live", "live by itself %.1f s after opening, once the unread stream was cut" % (time.time() - opened))
    finally:
        stop.set()
        if hog:
            hog.close()
        if page:
            page.quit()
        stack.stop()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    args = ap.parse_args()
    try:
        two_screens_and_reloads(args)
        refused_then_started(args)
    except AssertionError as e:
        check(False, str(e))
    sys.exit(1 if check.failed else 0)


if __name__ == "__main__":
    main()
