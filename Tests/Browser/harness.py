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

# A target near Coffs Harbour; the drive runs due north along its meridian.
TARGET = (-30.2748, 153.1338, "Big Test Banana")


def free_port(kind=socket.SOCK_STREAM):
    s = socket.socket(socket.AF_INET, kind)
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def wait_until(check, timeout, what, step=0.05):
    end = time.time() + timeout
    while time.time() < end:
        v = check()
        if v:
            return v
        time.sleep(step)
    raise AssertionError("timed out after %.1f s waiting for %s" % (timeout, what))


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


class Stack:
    """gpsd + hotcoldd + hotcold-web in a temporary directory; `stop()` ends them all."""

    def __init__(self, bindir, web_args=(), extra_targets=()):
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
        self.udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self._spawn("gpsd", ["gpsd", "-N", "-n", "-S", str(self.gpsd_port), "udp://127.0.0.1:%d" % self.udp_port])
        wait_until(lambda: self._listening(self.gpsd_port), 10, "gpsd")
        self._spawn("hotcoldd", [os.path.join(bindir, "hotcoldd"), "--gpsd", "127.0.0.1:%d" % self.gpsd_port,
                                 "--socket", self.sock, "--log", self.log, "--db", os.path.join(self.dir, "hc.sqlite"),
                                 "--target=%f,%f,%s" % TARGET] + ["--target=%f,%f,%s" % t for t in extra_targets])
        wait_until(lambda: os.path.exists(self.sock), 20, "hotcoldd's socket")
        self.start_web()

    def _listening(self, port):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return True
        except OSError:
            return False

    def _spawn(self, name, argv):
        err = open(os.path.join(self.dir, name + ".stderr"), "ab")
        self.procs[name] = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=err)

    def start_web(self):
        self._spawn("hotcold-web", [os.path.join(self.bindir, "hotcold-web"), "--socket", self.sock, "--listen", "127.0.0.1",
                                    "--port", str(self.web_port), "--state-dir", os.path.join(self.dir, "web-state"),
                                    "--control-socket", self.control, "--daemon-config", os.path.join(self.dir, "none.toml")]
                    + self.web_args)
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

    def stop(self):
        for p in self.procs.values():
            p.send_signal(signal.SIGTERM)
        for p in self.procs.values():
            try:
                p.wait(5)
            except subprocess.TimeoutExpired:
                p.kill()


def browser(width=800, height=480, mobile=False):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    o = webdriver.ChromeOptions()
    o.binary_location = "/usr/bin/chromium"
    for a in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=%d,%d" % (width, height),
              "--no-first-run", "--disable-extensions", "--disable-background-networking", "--disable-component-update"]:
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
