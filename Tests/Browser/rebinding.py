#!/usr/bin/python3
"""DNS rebinding, in chromium (issue 28): a website opened in a browser on the box makes its own
name resolve to the box (here chromium's --host-resolver-rules maps evil.example to 127.0.0.1),
so the browser counts the box's page as that website's origin and would let the website's
script read it. hotcold-web refuses every request that names another host (421), so from
http://evil.example:PORT nothing of the hunt can be read or changed; the same page at
http://127.0.0.1:PORT (the box's own browser, which may read without pairing) works.

Usage: rebinding.py --bin .build/debug"""

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from harness import TARGET, Stack, browser, check, wait_until  # noqa: E402

# What a rebinding website's script would try, from its own origin: the live stream, the session,
# a read of the hunt and a write. Each answer's status and its first bytes.
PROBE = """
const done = arguments[arguments.length - 1];
// A stream never ends: its first chunk is enough (read, then cancelled).
const ask = (path, init) => fetch(path, init).then(r => {
    const reader = r.body.getReader();
    return reader.read().then(c => { reader.cancel(); return {path, status: r.status, body: new TextDecoder().decode(c.value || new Uint8Array()).slice(0, 200)}; });
  }).catch(e => ({path, status: 0, body: String(e)}));
Promise.all([
  ask("/session"),
  ask("/events", {headers: {"Accept": "text/event-stream"}}),
  ask("/api/read", {method: "POST", headers: {"Content-Type": "application/json"}, body: '{"cmd":"targets"}'}),
  ask("/api/command", {method: "POST", headers: {"Content-Type": "application/json"},
                       body: '{"cmd":"roam","radius":"10km"}'}),
]).then(done);
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    args = ap.parse_args()
    stack = Stack(os.path.abspath(args.bin))
    page = None
    try:
        for i in range(3):
            stack.send_fix(time.time(), TARGET[0] - (300 - i * 10) / 110_850.0, TARGET[1], 8.0, 0.0)
        page = browser(800, 480, extra_args=["--host-resolver-rules=MAP evil.example 127.0.0.1"])
        page.set_script_timeout(20)

        # The box's own browser at the box's address: the live page, reading without pairing.
        page.get(stack.url + "/")
        wait_until(lambda: page.execute_script("return !!(window.hotcold && window.hotcold.session)"), 20, "the page at 127.0.0.1")
        own = {r["path"]: r for r in page.execute_async_script(PROBE)}
        check(own["/session"]["status"] == 200 and '"access":"local"' in own["/session"]["body"],
              "at 127.0.0.1 the page reads its session (%s)" % own["/session"]["status"])
        check(own["/api/read"]["status"] == 200 and "TARGETS" in own["/api/read"]["body"],
              "at 127.0.0.1 the hunt can be read (%s)" % own["/api/read"]["status"])

        # The same box under the website's name, as after a rebinding.
        evil = "http://evil.example:%d" % stack.web_port
        page.get(evil + "/")
        text = page.execute_script("return document.body ? document.body.innerText : ''")
        check(not page.execute_script("return !!window.hotcold"), "at evil.example the page's script never runs")
        check("not served under that name" in text, "at evil.example the browser shows the refusal: %r" % text[:120])
        probes = page.execute_async_script(PROBE)
        for r in probes:
            check(r["status"] == 421 and "TARGETS" not in r["body"] and "STATUS" not in r["body"],
                  "from evil.example %s is refused (421), nothing of the hunt in it: %s %r" % (r["path"], r["status"], r["body"][:60]))
        # Nothing changed: the daemon still hunts its one target (the roam was refused).
        status = stack.daemon({"cmd": "status"}, "STATUS")
        check(status.get("tracking", {}).get("mode") == "hunt", "the daemon still hunts: %s" % json.dumps(status.get("tracking", {}))[:80])
    finally:
        if page:
            page.quit()
        stack.stop()
    sys.exit(1 if check.failed else 0)


if __name__ == "__main__":
    main()
