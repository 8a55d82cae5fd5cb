"""Real processes for the browser tests and the web benchmark: gpsd fed over UDP, hotcoldd,
hotcold-web, and Debian's chromium driven by selenium (never a downloaded browser)."""

import json
import math
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "scripts"))
import nmea  # noqa: E402  (the project's NMEA helpers)
from freeport import free_port  # noqa: E402,F401  (ports below the ephemeral range)

# A target near Coffs Harbour; the drive runs due north along its meridian.
TARGET = (-30.2748, 153.1338, "Big Test Banana")


def wait_until(check, timeout, what, step=0.05):
    """Polls `check` until it is truthy; `what` names it in the failure (a callable is asked
    then, so it can say what the page shows at that moment)."""
    end = time.time() + timeout
    while time.time() < end:
        v = check()
        if v:
            return v
        time.sleep(step)
    raise AssertionError("timed out after %.1f s waiting for %s" % (timeout, what() if callable(what) else what))


def meridian_distance(lat1, lat2):
    """WGS84 distance between two latitudes on one meridian (the radius of curvature at the
    mean latitude: millimetres over a few kilometres)."""
    a, f = 6378137.0, 1 / 298.257223563
    e2 = f * (2 - f)
    phi = math.radians((lat1 + lat2) / 2)
    m = a * (1 - e2) / (1 - e2 * math.sin(phi) ** 2) ** 1.5
    return abs(math.radians(lat2 - lat1)) * m


def fix_sentences(t, lat, lon, speed, course):
    hms = time.strftime("%H%M%S", time.gmtime(t)) + (".%02d" % int((t % 1) * 100))
    dmy = time.strftime("%d%m%y", time.gmtime(t))
    la, lh = nmea.lat(lat)
    lo, oh = nmea.lon(lon)
    rmc = nmea.sentence("GPRMC,%s,A,%s,%s,%s,%s,%.2f,%.1f,%s,,,A" % (hms, la, lh, lo, oh, speed / 0.514444, course, dmy))
    gga = nmea.sentence("GPGGA,%s,%s,%s,%s,%s,1,09,0.9,25.0,M,22.4,M,," % (hms, la, lh, lo, oh))
    return (rmc + "\r\n" + gga + "\r\n").encode()


class Proxy:
    """A Unix-socket relay between hotcold-web and hotcoldd, line by line, that can misbehave
    on purpose like a loaded machine or a flaky daemon:

      * `delay_status`: on a connection that watches, a STATUS is held back until the next
        PROXIMITY has passed it (a STATUS computed before a fix arriving after that fix's event);
      * `refuse_new`: new connections are closed at once (hotcold-web's writes and reads then
        cannot reach the daemon, while the live stream already open carries on).
    `held` counts the statuses delivered behind an event."""

    def __init__(self, path, target):
        import threading
        self.path, self.target = path, target
        self.delay_status = False
        self.refuse_new = False
        self.held = 0
        self.srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.srv.bind(path)
        self.srv.listen(64)
        self._threading = threading
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                c, _ = self.srv.accept()
            except OSError:
                return
            if self.refuse_new:
                c.close()
                continue
            try:
                d = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                d.connect(self.target)
            except OSError:
                c.close()
                continue
            state = {"watching": False}
            self._threading.Thread(target=self._up, args=(c, d, state), daemon=True).start()
            self._threading.Thread(target=self._down, args=(d, c, state), daemon=True).start()

    def _up(self, src, dst, state):
        buf = b""
        try:
            while True:
                chunk = src.recv(65536)
                if not chunk:
                    break
                buf += chunk
                while b"\n" in buf:
                    line, buf = buf.split(b"\n", 1)
                    if b'"watch"' in line:
                        state["watching"] = True
                    dst.sendall(line + b"\n")
        except OSError:
            pass
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def _down(self, src, dst, state):
        buf, held = b"", None
        try:
            while True:
                chunk = src.recv(65536)
                if not chunk:
                    break
                buf += chunk
                while b"\n" in buf:
                    line, buf = buf.split(b"\n", 1)
                    cls = line[10:30]
                    if self.delay_status and state["watching"] and cls.startswith(b'STATUS"') and held is None:
                        held = line
                        continue
                    dst.sendall(line + b"\n")
                    if held is not None and (cls.startswith(b'PROXIMITY"') or not self.delay_status):
                        dst.sendall(held + b"\n")
                        held = None
                        self.held += 1
        except OSError:
            pass
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def close(self):
        try:
            self.srv.close()
        except OSError:
            pass


class Stack:
    """gpsd + hotcoldd + hotcold-web in a temporary directory; `stop()` ends them all.
    `daemon_args` replaces the default target (the Big Test Banana point); `proxy` puts a
    `Proxy` between hotcold-web and the daemon; `web_env` adds to hotcold-web's environment;
    `web_config` is hotcold-web's configuration file's text (`--config`)."""

    def __init__(self, bindir, web_args=(), extra_targets=(), daemon_args=None, proxy=False, web_env=None, web_config=None):
        self.bindir = bindir
        self.dir = tempfile.mkdtemp(prefix="hotcold-browser-")
        self.procs = {}
        self.gpsd_port = free_port()
        self.udp_port = free_port(socket.SOCK_DGRAM)
        self.web_port = free_port()
        self.sock = os.path.join(self.dir, "hc.sock")
        self.log = os.path.join(self.dir, "events.jsonl")
        self.control = os.path.join(self.dir, "web-control.sock")
        self.web_args = list(web_args)
        if web_config is not None:
            path = os.path.join(self.dir, "hotcold-web.toml")
            with open(path, "w") as f:
                f.write(web_config)
            self.web_args += ["--config", path]
        self.web_env = dict(web_env or {})
        self.udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self._spawn("gpsd", ["gpsd", "-N", "-n", "-S", str(self.gpsd_port), "udp://127.0.0.1:%d" % self.udp_port])
        wait_until(lambda: self._listening(self.gpsd_port), 10, "gpsd")
        if daemon_args is None:
            daemon_args = ["--target=%f,%f,%s" % TARGET] + ["--target=%f,%f,%s" % t for t in extra_targets]
        self.daemon_args = list(daemon_args)
        self.start_daemon()
        self.proxy = Proxy(os.path.join(self.dir, "proxy.sock"), self.sock) if proxy else None
        self.start_web()

    def start_daemon(self):
        self._spawn("hotcoldd", [os.path.join(self.bindir, "hotcoldd"), "--gpsd", "127.0.0.1:%d" % self.gpsd_port,
                                 "--socket", self.sock, "--log", self.log, "--db", os.path.join(self.dir, "hc.sqlite")]
                    + self.daemon_args)
        wait_until(lambda: self._daemon_answers(), 20, "hotcoldd's socket")

    def stop_daemon(self):
        p = self.procs.pop("hotcoldd")
        p.send_signal(signal.SIGTERM)
        try:
            p.wait(10)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()

    def _daemon_answers(self):
        if not os.path.exists(self.sock):
            return False
        try:
            return self.daemon({"cmd": "version"}).get("class") == "VERSION"
        except OSError:
            return False

    def daemon(self, req, cls=None):
        """One request on the daemon's own socket (as this test's user, root: a writer); returns
        the first reply line that is not the VERSION greeting (or of class `cls`)."""
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(10)
        s.connect(self.sock)
        s.sendall((json.dumps(req) + "\n").encode())
        data = b""
        try:
            while True:
                while b"\n" in data:
                    line, data = data.split(b"\n", 1)
                    j = json.loads(line)
                    if j.get("class") == "VERSION" and req.get("cmd") != "version":
                        continue
                    if cls is None or j.get("class") in (cls, "ERROR"):
                        return j
                chunk = s.recv(1 << 20)
                if not chunk:
                    raise OSError("the daemon closed the connection")
                data += chunk
        finally:
            s.close()

    def write(self, req, cls=None, timeout=10):
        """A write on the daemon's socket, sent again while the daemon's write rate refuses it
        (a test writes faster than the rate a person could reach); returns the reply."""
        got = {}

        def taken():
            got["r"] = self.daemon(req, cls)
            # The daemon answers `busy` over `[socket] write_burst` / `writes_per_second`.
            return not (got["r"].get("class") == "ERROR" and got["r"].get("code") == "busy")
        wait_until(taken, timeout, "the daemon to take %s" % req.get("cmd"), step=0.2)
        return got["r"]

    def import_file(self, path):
        """Imports a file (GPX caches, locations, observations…) through the daemon with the
        project's own client, `hotcold import` (upload, chunks and import on one connection)."""
        r = subprocess.run([os.path.join(self.bindir, "hotcold"), "import", "--socket", self.sock, path],
                           capture_output=True, text=True, timeout=60)
        if r.returncode != 0:
            raise AssertionError("hotcold import %s: %s" % (path, r.stderr.strip()))
        return r.stdout

    def _listening(self, port):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return True
        except OSError:
            return False

    def _spawn(self, name, argv, env=None):
        err = open(os.path.join(self.dir, name + ".stderr"), "ab")
        e = None
        if env:
            e = dict(os.environ)
            e.update(env)
        self.procs[name] = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=err, env=e)

    def start_web(self):
        sock = self.proxy.path if self.proxy else self.sock
        self._spawn("hotcold-web", [os.path.join(self.bindir, "hotcold-web"), "--socket", sock, "--listen", "127.0.0.1",
                                    "--port", str(self.web_port), "--state-dir", os.path.join(self.dir, "web-state"),
                                    "--control-socket", self.control, "--daemon-config", os.path.join(self.dir, "none.toml")]
                    + self.web_args, env=self.web_env)
        wait_until(lambda: self._listening(self.web_port), 30, "hotcold-web to listen")

    def stop_web(self):
        p = self.procs.pop("hotcold-web")
        p.send_signal(signal.SIGTERM)
        try:
            p.wait(5)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()

    @property
    def url(self):
        return "http://127.0.0.1:%d" % self.web_port

    def web_pid(self):
        return self.procs["hotcold-web"].pid

    def web_stderr(self):
        with open(os.path.join(self.dir, "hotcold-web.stderr"), "rb") as f:
            return f.read().decode(errors="replace")

    def send_fix(self, t, lat, lon, speed, course):
        self.udp.sendto(fix_sentences(t, lat, lon, speed, course), ("127.0.0.1", self.udp_port))

    def control_request(self, req):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(self.control)
        s.sendall((json.dumps(req) + "\n").encode())
        data = b""
        while not data.endswith(b"\n"):
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
        s.close()
        return json.loads(data)

    def daemon_seqs(self):
        out = []
        with open(self.log) as f:
            for line in f:
                try:
                    e = json.loads(line)
                except ValueError:
                    continue
                if "seq" in e:
                    out.append(e["seq"])
        return out

    def daemon_events(self):
        with open(self.log) as f:
            return [json.loads(l) for l in f if l.strip()]

    def pair(self, page, name="test phone"):
        """Pairs a writer's device and opens its link in `page`; returns the PAIRED reply."""
        paired = self.control_request({"cmd": "pair", "name": name})
        page.get(paired["url"].replace("http://127.0.0.1:%d" % self.web_port, self.url))
        return paired

    def stop(self):
        if self.proxy:
            self.proxy.close()
        for p in self.procs.values():
            p.send_signal(signal.SIGTERM)
        for p in self.procs.values():
            try:
                p.wait(5)
            except subprocess.TimeoutExpired:
                p.kill()


def browser(width=800, height=480, mobile=False, extra_args=()):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    o = webdriver.ChromeOptions()
    o.binary_location = "/usr/bin/chromium"
    for a in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=%d,%d" % (width, height),
              "--no-first-run", "--disable-extensions", "--disable-background-networking", "--disable-component-update",
              *extra_args]:
        o.add_argument(a)
    d = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o)
    set_viewport(d, width, height, mobile)
    return d


def set_viewport(d, width, height, mobile=False):
    d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                      {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})


def rss_kib(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


class Car:
    """The receiver's position, sent to gpsd as NMEA: parked (a fix every half second, from a
    thread of its own) or driven to a point. Fix times run on the car's own clock, which a drive
    may advance faster than the wall clock (a 2 km drive in a few seconds of test time at a
    plausible 50 m/s); the daemon ages fixes by their arrival, so the page shows them live."""

    def __init__(self, stack, lat, lon):
        import threading
        self.stack, self.lat, self.lon = stack, lat, lon
        self.t = time.time()
        self.lock = threading.Lock()
        self.parked = threading.Event()
        self.parked.set()
        self.stopped = False
        self.sent = []   # (wall ms, lat, lon, fix time)
        threading.Thread(target=self._park, daemon=True).start()

    def _send(self, lat, lon, speed, course, dt):
        with self.lock:
            self.t = max(self.t + dt, self.t + 0.01)
            self.lat, self.lon = lat, lon
            self.stack.send_fix(self.t, lat, lon, speed, course)
            self.sent.append((time.time() * 1000, lat, lon, self.t))

    def _park(self):
        while not self.stopped:
            if self.parked.is_set():
                self._send(self.lat, self.lon, 0.0, 0.0, 0.5)
            time.sleep(0.5)

    def drive_to(self, lat, lon, speed=50.0, wall_step=0.1, on_step=None):
        """Drives in a straight line at `speed` (m/s on the fix clock), one fix per second of fix
        time, `wall_step` seconds apart; parks at the end."""
        self.parked.clear()
        try:
            lat0, lon0 = self.lat, self.lon
            dy = (lat - lat0) * 110_850.0
            dx = (lon - lon0) * 111_320.0 * math.cos(math.radians((lat + lat0) / 2))
            dist = math.hypot(dx, dy)
            course = (math.degrees(math.atan2(dx, dy)) + 360) % 360
            n = max(1, int(math.ceil(dist / speed)))
            for i in range(1, n + 1):
                f = i / n
                self._send(lat0 + (lat - lat0) * f, lon0 + (lon - lon0) * f, speed if i < n else 0.0, course, 1.0)
                if on_step:
                    on_step(i, n)
                time.sleep(wall_step)
        finally:
            self.parked.set()

    def stop(self):
        self.stopped = True
        self.parked.clear()


def offset(lat, lon, north_m, east_m):
    """A point `north_m` north and `east_m` east of (lat, lon) (flat-earth; placing test points)."""
    return lat + north_m / 110_850.0, lon + east_m / (111_320.0 * math.cos(math.radians(lat)))


def check(ok, what):
    """Prints one line per check; `check.failed` records a failure (the script exits 1 at the end)."""
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    if not ok:
        check.failed = True
    return ok


check.failed = False


# Elements outside the viewport. Inside a scrolling box (the list, the sheet's body) only the
# box itself must lie within the viewport: its rows scroll.
OUTSIDE_JS = """
const W = window.innerWidth, H = window.innerHeight, bad = [];
const scroller = (e) => { for (let p = e.parentElement; p; p = p.parentElement) { const o = getComputedStyle(p).overflowY; if (o === 'auto' || o === 'scroll') return p; } return null; };
for (const e of document.querySelectorAll('body *')) {
  const cs = getComputedStyle(e);
  if (cs.display === 'none' || cs.visibility === 'hidden' || !e.getClientRects().length) continue;
  if (e.closest('svg') && e.tagName.toLowerCase() !== 'svg') continue;
  if (scroller(e)) continue;
  const r = e.getBoundingClientRect();
  if (r.width === 0 && r.height === 0) continue;
  if (r.left < -0.5 || r.top < -0.5 || r.right > W + 0.5 || r.bottom > H + 0.5)
    bad.push((e.id || e.tagName) + ' ' + [r.left, r.top, r.right, r.bottom].map(Math.round).join(','));
}
const d = document.documentElement;
if (d.scrollWidth > W || d.scrollHeight > H) bad.push('document ' + d.scrollWidth + 'x' + d.scrollHeight);
return bad;
"""

# Elements that matter, clipped: their text overflows their own box, or a box that hides
# overflow (not a scrolling one) cuts them.
CLIPPED_JS = """
const sel = arguments[0], bad = [], W = window.innerWidth, H = window.innerHeight;
const textBox = (e) => { const r = document.createRange(); r.selectNodeContents(e); const b = r.getBoundingClientRect(); return b.width ? b : e.getBoundingClientRect(); };
for (const e of document.querySelectorAll(sel)) {
  if (!e.getClientRects().length || getComputedStyle(e).visibility === 'hidden') continue;
  if (e.textContent.trim() === '') continue;
  const name = (e.id || e.tagName + '.' + e.className) + ' "' + e.textContent.slice(0, 30) + '"';
  const r = textBox(e);
  let scrolls = false;
  for (let p = e; p && p !== document.body; p = p.parentElement) {
    const cs = getComputedStyle(p);
    if (p !== e && (cs.overflowY === 'auto' || cs.overflowY === 'scroll')) { scrolls = true; break; }
    if (cs.overflow === 'visible') continue;
    const q = p.getBoundingClientRect();
    if (r.left < q.left - 1 || r.right > q.right + 1 || r.top < q.top - 2 || r.bottom > q.bottom + 2) {
      bad.push(name + ' cut by ' + (p.id || p.tagName) + ' ' + [r.top, r.bottom, q.top, q.bottom].map(Math.round).join(','));
      break;
    }
  }
  // In a box that scrolls, a row scrolled away is not clipped: it is a swipe away.
  if (!scrolls && (r.left < -1 || r.top < -1 || r.right > W + 1 || r.bottom > H + 1)) bad.push(name + ' outside the viewport');
}
return bad;
"""
