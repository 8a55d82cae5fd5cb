#!/usr/bin/python3
"""Power cuts in a real drive: hotcoldd's database, state and log on lazyfs, cut at random.

Runs a real gpsd (NMEA over UDP at our own pace) and the built hotcoldd with its database,
event-seq, hunt state and log on a lazyfs mount (Tests/PowerCut/lazyfs.py: writes that were
never fsynced are dropped on command). A car drives a loop past five stored places while
real clients talk to the daemon's socket: a watcher collects every event, writers make
changes (fav, unfav, rate, note, seen, add, observe) and change the hunt. At random moments
— right after an ARRIVED, right after an acknowledged change or hunt, while parked at a
place, in a burst of changes, anywhere — the power is cut: the daemon is frozen (SIGSTOP),
lazyfs drops what was not synced, the daemon is killed (SIGKILL). It is started again on the
same mount, and the test checks:

  * every change the daemon answered ok to is there (`place`, `visits`, `observations`);
  * every ARRIVED the watcher received has its visit, every DEPARTED its departure;
  * no second ARRIVED while the car is still parked where it arrived, and no place the car
    had been told it DEPARTED from is restored as "at";
  * no event number is reused (same seq, other content; or a number at or below one
    already handed out);
  * every event received before the cut and missing from the log afterwards is covered by
    a GAP line and by `since_gap` in a `watch` with `since` across it; no torn log line;
  * the hunt set before the cut is the hunt after it (status mode and targets);
  * the database passes `PRAGMA integrity_check` as the cut left it.

Then it measures the flash wear (fsyncs and bytes from lazyfs, per hour, at real-time
pace): parked idle, driving at 1 and 10 fixes/s, driving with one change a second, and a
burst of changes.

Usage: power_cut.py [--cuts 50] [--seed N] [--binaries DIR] [--measure-seconds 20]
Prints a JSON summary on stdout (progress on stderr); exits 1 listing the violations.
Run as root (FUSE mount).
"""

import argparse
import datetime
import json
import math
import os
import random
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(REPO, "scripts"))
import lazyfs  # noqa: E402
import nmea    # noqa: E402
from freeport import free_port  # noqa: E402

# Far from every bundled Big Thing (the nearest is ~560 km away): if the hunt is lost and the
# daemon roams, nothing else is tracked.
CENTER = (-24.0, 128.0)
RING_M = 1000.0          # the five places lie on a circle of this radius (1.18 km apart)
N_TARGETS = 5
N_SCRATCH = 6            # more places the writers change
SPEED = 15.0             # m/s while driving
CLASSES = ("fav", "unfav", "rate", "note", "seen", "add", "observe")


def log(msg):
    print("power_cut: " + msg, file=sys.stderr, flush=True)


def wait_until(check, timeout, what, step=0.02):
    end = time.time() + timeout
    while True:
        v = check()
        if v:
            return v
        if time.time() > end:
            raise TimeoutError("timed out after %.0f s waiting for %s" % (timeout, what))
        time.sleep(step)


def canonical(obj):
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


def iso_epoch(s):
    return datetime.datetime.strptime(s.replace("Z", "+0000"), "%Y-%m-%dT%H:%M:%S.%f%z").timestamp()


# --- geometry and NMEA -----------------------------------------------------------------------

def offset(lat, lon, north_m, east_m):
    m_per_deg_lat = 111132.954 - 559.822 * math.cos(2 * math.radians(lat))
    m_per_deg_lon = 111412.84 * math.cos(math.radians(lat))
    return lat + north_m / m_per_deg_lat, lon + east_m / m_per_deg_lon


def metres(a, b):
    m_per_deg_lat = 111132.954 - 559.822 * math.cos(2 * math.radians(a[0]))
    m_per_deg_lon = 111412.84 * math.cos(math.radians(a[0]))
    return math.hypot((b[0] - a[0]) * m_per_deg_lat, (b[1] - a[1]) * m_per_deg_lon)


def course(a, b):
    m_per_deg_lat = 111132.954 - 559.822 * math.cos(2 * math.radians(a[0]))
    m_per_deg_lon = 111412.84 * math.cos(math.radians(a[0]))
    return math.degrees(math.atan2((b[1] - a[1]) * m_per_deg_lon, (b[0] - a[0]) * m_per_deg_lat)) % 360


def fix_datagram(t, lat, lon, speed, track):
    hms = time.strftime("%H%M%S", time.gmtime(t)) + (".%02d" % int(round((t % 1) * 100) % 100))
    dmy = time.strftime("%d%m%y", time.gmtime(t))
    la, lh = nmea.lat(lat)
    lo, oh = nmea.lon(lon)
    rmc = nmea.sentence("GPRMC,%s,A,%s,%s,%s,%s,%.2f,%.1f,%s,,,A" % (hms, la, lh, lo, oh, speed / 0.514444, track, dmy))
    gga = nmea.sentence("GPGGA,%s,%s,%s,%s,%s,1,09,0.9,25.0,M,22.4,M,," % (hms, la, lh, lo, oh))
    return (rmc + "\r\n" + gga + "\r\n").encode()


class Car:
    """Drives the loop T0 → T1 → … at SPEED, parking a random while at each place."""

    def __init__(self, rng, targets):
        self.rng = rng
        self.targets = targets            # [(lat, lon)]
        self.leg = 0                      # driving from targets[leg] to targets[leg+1]
        self.pos = targets[0]
        self.parked_at = 0                # index of the place parked at, or None
        self.park_left = 3
        self.progress = 0.0
        self.speed = 0.0
        self.track = 0.0

    def step(self, dt=1.0):
        """Moves dt seconds on; returns (lat, lon, speed, track)."""
        if self.parked_at is not None:
            if self.park_left > 0:
                self.park_left -= dt
                base = self.targets[self.parked_at]
                self.pos = offset(base[0], base[1], self.rng.uniform(-1.5, 1.5), self.rng.uniform(-1.5, 1.5))
                self.speed = 0.0
                return self.pos + (0.0, self.track)
            self.leg = self.parked_at
            self.parked_at = None
            self.progress = 0.0
        a = self.targets[self.leg]
        b = self.targets[(self.leg + 1) % len(self.targets)]
        length = metres(a, b)
        self.progress += SPEED * dt
        self.track = course(a, b)
        if self.progress >= length:
            self.pos = b
            self.parked_at = (self.leg + 1) % len(self.targets)
            self.park_left = self.rng.randint(6, 25)
            self.speed = 0.0
        else:
            f = self.progress / length
            self.pos = (a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f)
            self.speed = SPEED
        return self.pos + (self.speed, self.track)

    def park_more(self, n):
        if self.parked_at is not None:
            self.park_left = max(self.park_left, n)


# --- the daemon's socket -----------------------------------------------------------------------

class Conn:
    """One JSON-lines connection to hotcoldd."""

    def __init__(self, path, timeout=60):
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.s.settimeout(timeout)
        self.s.connect(path)
        self.f = self.s.makefile("rb")
        self.greeting = self.read()

    def read(self):
        line = self.f.readline()
        if not line.endswith(b"\n"):
            raise EOFError("the daemon closed the connection")
        return json.loads(line)

    def send(self, obj):
        self.s.sendall((json.dumps(obj) + "\n").encode())

    def request(self, obj):
        self.send(obj)
        return self.read()

    def close(self):
        try:
            self.s.close()
        except OSError:
            pass


class Watcher(threading.Thread):
    """Collects every live event of one daemon run: [(seq, class, event, canonical)]."""

    def __init__(self, sock_path, on_event=None):
        super().__init__(daemon=True)
        self.conn = Conn(sock_path)
        reply = self.conn.request({"cmd": "watch"})
        if reply.get("class") != "WATCH":
            raise RuntimeError("watch refused: %s" % reply)
        self.events = []
        self.cond = threading.Condition()
        self.on_event = on_event
        self.closed = False
        self.start()

    def run(self):
        try:
            while True:
                e = self.conn.read()
                if "seq" not in e:
                    continue
                item = (e["seq"], e.get("class"), e, canonical(e))
                with self.cond:
                    self.events.append(item)
                    self.cond.notify_all()
                if self.on_event:
                    self.on_event(item)
        except (OSError, EOFError, ValueError):
            pass
        finally:
            with self.cond:
                self.closed = True
                self.cond.notify_all()

    def snapshot(self):
        with self.cond:
            return list(self.events)

    def close(self):
        self.conn.close()


# --- the world: lazyfs, gpsd, hotcoldd ----------------------------------------------------------

class World:
    def __init__(self, args):
        self.args = args
        self.bindir = args.binaries
        self.dir = tempfile.mkdtemp(prefix="hotcold-powercut-")
        self.backing = os.path.join(self.dir, "backing")
        self.mnt = os.path.join(self.dir, "mnt")
        os.mkdir(self.backing)
        os.mkdir(self.mnt)
        self.fs = lazyfs.Mount(self.backing, self.mnt, os.path.join(self.dir, "lazyfs.ctl"),
                               meta_on_fsync=args.meta_on_fsync, ignore_syncs=args.lazyfs_ignore_syncs,
                               stderr=open(os.path.join(self.dir, "lazyfs.stderr"), "ab"))
        self.sock = os.path.join(self.dir, "hc.sock")
        self.db = os.path.join(self.mnt, "hc.sqlite")
        self.logpath = os.path.join(self.mnt, "events.jsonl")
        self.config = os.path.join(self.dir, "hotcoldd.toml")
        with open(self.config, "w") as f:
            # No [tracking]: the hunt set at run time is what must come back after a cut.
            f.write('[socket]\nwrite_burst = 100000\nwrites_per_second = 100000\n'
                    '[store]\ncatalogue = "%s"\n' % os.path.join(REPO, "data", "bigthings.json"))
        self.gpsd_port = free_port()
        self.udp_port = free_port(socket.SOCK_DGRAM)
        self.udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.gpsd = subprocess.Popen(["gpsd", "-N", "-n", "-S", str(self.gpsd_port), "udp://127.0.0.1:%d" % self.udp_port],
                                     stdout=subprocess.DEVNULL, stderr=open(os.path.join(self.dir, "gpsd.stderr"), "ab"))
        wait_until(self._gpsd_listening, 10, "gpsd")
        self.daemon = None
        self.starts = 0

    def _gpsd_listening(self):
        try:
            socket.create_connection(("127.0.0.1", self.gpsd_port), timeout=0.2).close()
            return True
        except OSError:
            return False

    def start_daemon(self):
        self.starts += 1
        err = open(os.path.join(self.dir, "hotcoldd.stderr"), "ab")
        err.write(("--- start %d ---\n" % self.starts).encode())
        err.flush()
        self.daemon = subprocess.Popen(
            [os.path.join(self.bindir, "hotcoldd"), "--config", self.config, "--gpsd", "127.0.0.1:%d" % self.gpsd_port,
             "--socket", self.sock, "--log", self.logpath, "--db", self.db],
            stdout=subprocess.DEVNULL, stderr=err)

        def ready():
            if self.daemon.poll() is not None:
                raise RuntimeError("hotcoldd exited with %s at start %d (see %s)"
                                   % (self.daemon.returncode, self.starts, os.path.join(self.dir, "hotcoldd.stderr")))
            try:
                Conn(self.sock, timeout=5).close()
                return True
            except (OSError, EOFError, ValueError):
                return False
        wait_until(ready, 90, "hotcoldd's socket")

    def cut(self):
        """The power cut: freeze, drop the unsynced and fence the daemon's threads, kill.
        A request the daemon made before the freeze can still wait in the kernel's FUSE
        queue and reach lazyfs after the drop (on a busy machine it does); the fence refuses
        it, as no write outlives a real power cut. The second drop is a belt and braces."""
        p = self.daemon
        os.kill(p.pid, signal.SIGSTOP)
        try:
            tids = [int(t) for t in os.listdir("/proc/%d/task" % p.pid)]
        except OSError:
            tids = [p.pid]
        first = self.fs.request(json.dumps({"cmd": "drop", "fence": tids}))
        os.kill(p.pid, signal.SIGKILL)
        p.wait()
        self.fs.request("drop")
        return first

    def stop_daemon(self):
        if self.daemon and self.daemon.poll() is None:
            self.daemon.send_signal(signal.SIGTERM)
            try:
                self.daemon.wait(20)
            except subprocess.TimeoutExpired:
                self.daemon.kill()
                self.daemon.wait()

    def send_fix(self, t, lat, lon, speed, track):
        self.udp.sendto(fix_datagram(t, lat, lon, speed, track), ("127.0.0.1", self.udp_port))

    def integrity(self):
        """integrity_check of the database as the disk holds it (a copy of the backing files)."""
        tmp = tempfile.mkdtemp(prefix="integrity-", dir=self.dir)
        try:
            for suffix in ("", "-wal"):
                src = os.path.join(self.backing, "hc.sqlite" + suffix)
                if os.path.exists(src):
                    shutil.copyfile(src, os.path.join(tmp, "hc.sqlite" + suffix))
            c = sqlite3.connect(os.path.join(tmp, "hc.sqlite"))
            r = c.execute("PRAGMA integrity_check").fetchall()
            c.close()
            return ",".join(str(x[0]) for x in r)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)

    def close(self, keep):
        try:
            self.stop_daemon()
        finally:
            try:
                self.gpsd.terminate()
                self.gpsd.wait(5)
            except Exception:
                self.gpsd.kill()
            self.fs.close()
            if not keep:
                shutil.rmtree(self.dir, ignore_errors=True)


# --- what the clients were told ----------------------------------------------------------------

class Model:
    """What the daemon acknowledged, and what it may or may not have done (no reply came)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.kv = {}            # (field, place) -> {"acked": value, "maybe": [values sent since]}
        self.visits = {}        # manual visit id -> place
        self.places = {}        # added place id -> name
        self.observations = {}  # id -> title
        # What is tracked: (mode, radius_m or None, frozenset of place ids), acked and unanswered.
        self.tracking = {"acked": None, "maybe": []}
        self.acks = {c: 0 for c in CLASSES + ("hunt", "roam")}
        self.errors = []
        self.unanswered = 0

    def key(self, field, place, default):
        return self.kv.setdefault((field, place), {"acked": default, "maybe": []})


class Run:
    """One daemon run between two cuts: its watcher, writers and triggers."""

    def __init__(self, test, number):
        self.test = test
        self.number = number
        self.cut_lock = threading.Lock()
        self.cut_done = threading.Event()
        self.cutting = threading.Event()  # set before the daemon is frozen: its death is ours
        self.cut_info = None
        self.arm_arrived = False
        self.arm_acks = None              # cut right after this many more acknowledgements
        self.arrived_seen = threading.Event()
        self.last_arrived = None
        self.watcher = None
        self.writers = []
        self.stop_writers = threading.Event()

    def cut(self, reason):
        with self.cut_lock:
            if self.cut_done.is_set():
                return
            self.cutting.set()
            info = self.test.world.cut()
            self.cut_info = {"reason": reason, "lazyfs": info}
            self.cut_done.set()

    def on_event(self, item):
        if item[1] == "ARRIVED":
            self.last_arrived = item[2]["target"]["id"]
            self.arrived_seen.set()
            if self.arm_arrived:
                self.cut("right after ARRIVED seq %d" % item[0])


class PowerCutTest:
    def __init__(self, args):
        self.args = args
        self.rng = random.Random(args.seed)
        self.world = World(args)
        self.model = Model()
        self.violations = []
        self.seqs = {}                    # seq -> canonical content, every live event so far
        self.max_seq = 0
        self.at = {}                      # place id -> True after ARRIVED, False after DEPARTED (live)
        self.arrivals = []                # (place, time, seq) of every ARRIVED received
        self.departures = []              # (place, time, seq)
        self.cut_log = []
        # Fix times start a day back (1 s of fix time per fix, faster than real time while driving).
        self.fix_t = float(int(time.time()) - 24 * 3600)
        self.fixes_sent = 0
        self.add_n = 0
        self.control = None
        self.violation_kinds = {}
        self.reported = set()             # seqs already named in a violation
        self.arrivals_received = 0
        self.checked = {k: 0 for k in ("values", "manual_visits", "added_places", "observations", "arrivals",
                                       "departures", "parked_restarts", "log_events", "lost_events_announced",
                                       "hunts", "integrity")}

    def violation(self, cut, kind, msg):
        text = "cut %d: %s" % (cut, msg)
        self.violations.append(text)
        self.violation_kinds[kind] = self.violation_kinds.get(kind, 0) + 1
        log("VIOLATION " + text)

    # -- set-up ------------------------------------------------------------------------------

    def setup(self):
        w = self.world
        w.start_daemon()
        self.control = Conn(w.sock)
        ring = []
        for i in range(N_TARGETS):
            a = math.radians(90 - i * 360 / N_TARGETS)
            ring.append(offset(CENTER[0], CENTER[1], RING_M * math.sin(a), RING_M * math.cos(a)))
        self.target_pos = ring
        self.targets = []
        for i, (lat, lon) in enumerate(ring):
            r = self.control.request({"cmd": "store", "op": "add", "name": "Power cut place %d" % i, "lat": lat, "lon": lon})
            if r.get("class") != "STORE":
                raise RuntimeError("cannot add a place: %s" % r)
            self.targets.append(r["result"]["id"])
        self.scratch = []
        for i in range(N_SCRATCH):
            lat, lon = offset(CENTER[0], CENTER[1], 5000 + 100 * i, 5000)
            r = self.control.request({"cmd": "store", "op": "add", "name": "Scratch %d" % i, "lat": lat, "lon": lon})
            self.scratch.append(r["result"]["id"])
        self.names = {}
        # The starting point of the durability test: everything so far on the disk.
        w.fs.request("flush")
        self.car = Car(self.rng, ring)
        self.track(("hunt", None, frozenset(self.targets)))

    def track(self, spec, conn=None, count=True):
        """hunt exactly spec's places, or roam (3 km around the ring: exactly the five places)."""
        m = self.model
        mode, radius, ids = spec
        with m.lock:
            m.tracking["maybe"].append(spec)
        if mode == "hunt":
            req = {"cmd": "hunt", "targets": sorted(ids)}
        else:
            req = {"cmd": "roam", "radius": "%dm" % radius, "kinds": ["location"]}
        r = (conn or self.control).request(req)
        if r.get("class") != "TRACKING":
            raise RuntimeError("%s refused: %s" % (mode, r))
        with m.lock:
            m.tracking = {"acked": spec, "maybe": []}
            m.acks[mode] += 1 if count else 0
        return r

    # -- fixes ------------------------------------------------------------------------------

    def send_next_fix(self, dt=1.0):
        lat, lon, speed, track = self.car.step(dt)
        self.fix_t += dt
        self.world.send_fix(self.fix_t, lat, lon, speed, track)
        self.fixes_sent += 1
        return self.fix_t

    def wait_fix_seen(self, t, timeout=30):
        """Polls status until the daemon's last fix is at least time t (one more fix is sent
        on each poll that finds it behind: gpsd reports a cycle when the next one starts)."""
        end = time.time() + timeout
        while True:
            st = self.control.request({"cmd": "status"})
            lf = st.get("gps", {}).get("last_fix")
            if lf and iso_epoch(lf["time"]) >= t - 1e-3:
                return st
            if time.time() > end:
                raise TimeoutError("the daemon did not see the fix of %s (last: %s)" % (t, lf))
            time.sleep(0.05)

    # -- changes ------------------------------------------------------------------------------

    def one_change(self, conn, places, rng, run):
        m = self.model
        op = rng.choice(("fav", "unfav", "rate", "rate", "note", "note", "seen", "add", "observe"))
        place = rng.choice(places)
        key = None
        if op in ("fav", "unfav"):
            key, value, req = ("fav", place), op == "fav", {"cmd": "store", "op": op, "id": place}
        elif op == "rate":
            stars = rng.randint(0, 5)
            key, value, req = ("stars", place), stars, {"cmd": "store", "op": "rate", "id": place, "stars": stars}
        elif op == "note":
            text = "" if rng.random() < 0.15 else "note %d-%d" % (run.number, rng.randint(0, 10**9))
            key, value, req = ("note", place), text, {"cmd": "store", "op": "note", "id": place, "text": text}
        elif op == "seen":
            req = {"cmd": "store", "op": "seen", "id": place}
        elif op == "add":
            with m.lock:
                self.add_n += 1
                n = self.add_n
            lat, lon = offset(CENTER[0], CENTER[1], -5000 - n, -5000)
            req = {"cmd": "store", "op": "add", "name": "Added %d" % n, "lat": lat, "lon": lon}
        else:
            with m.lock:
                self.add_n += 1
                n = self.add_n
            req = {"cmd": "store", "op": "observe", "classification": "bird", "title": "Emu %d" % n,
                   "date": "2026-01-01T00:00:00Z", "lat": CENTER[0], "lon": CENTER[1]}
        if key:
            with m.lock:
                m.key(key[0], key[1], {"fav": False, "stars": 0, "note": ""}[key[0]])["maybe"].append(value)
        try:
            r = conn.request(req)
        except (OSError, EOFError, ValueError):
            with m.lock:
                m.unanswered += 1
            return False
        if r.get("class") != "STORE":
            with m.lock:
                m.errors.append(r)
            return True
        with m.lock:
            m.acks[op] += 1
            if key:
                m.kv[key] = {"acked": value, "maybe": []}
            elif op == "seen":
                m.visits[r["result"]["id"]] = place
            elif op == "add":
                m.places[r["result"]["id"]] = req["name"]
            elif op == "observe":
                m.observations[r["result"]["id"]] = req["title"]
        if run.arm_acks is not None:
            with m.lock:
                run.arm_acks -= 1
                now = run.arm_acks == 0
            if now:
                run.cut("right after an acknowledged %s" % op)
        return True

    def start_writers(self, run, n, gap):
        """n writer threads, each with its own connection and its own places (so the order of
        one place's changes is the order of one connection's requests)."""
        places = self.targets + self.scratch
        for w in range(n):
            mine = [p for i, p in enumerate(places) if i % n == w]
            rng = random.Random(self.rng.random())

            def work(mine=mine, rng=rng):
                try:
                    conn = Conn(self.world.sock)
                except (OSError, EOFError, ValueError):
                    return
                try:
                    while not run.stop_writers.is_set() and not run.cut_done.is_set():
                        if not self.one_change(conn, mine, rng, run):
                            return
                        if gap:
                            run.stop_writers.wait(rng.uniform(0, gap))
                finally:
                    conn.close()
            t = threading.Thread(target=work, daemon=True)
            t.start()
            run.writers.append(t)

    def stop_all_writers(self, run):
        run.stop_writers.set()
        for t in run.writers:
            t.join(60)
        run.writers = []
        run.stop_writers.clear()

    # -- one segment: drive until the cut ---------------------------------------------------

    def drive_until_cut(self, run, kind):
        rng = self.rng
        pace = self.args.pace
        if kind == "arrived":
            run.arm_arrived = True
        elif kind == "ack":
            run.arm_acks = rng.randint(1, 25)
        # A writer in the background in every segment, so that changes are always in flight.
        if kind == "burst":
            self.start_writers(run, 4, 0)
        else:
            self.start_writers(run, 1, 0.15 if kind != "ack" else 0.03)
        budget = rng.randint(10, 260)
        parked_countdown = None
        burst_deadline = time.time() + rng.uniform(0.05, 1.5) if kind == "burst" else None
        hunt_at = rng.randint(3, 40) if kind == "hunt" else None
        sent = 0
        deadline = time.time() + 600
        while not run.cut_done.is_set():
            if time.time() > deadline:
                raise TimeoutError("segment %s did not reach its cut" % kind)
            if self.world.daemon.poll() is not None and not run.cutting.is_set():
                raise RuntimeError("hotcoldd exited by itself (status %s) before cut %d"
                                   % (self.world.daemon.returncode, run.number + 1))
            self.send_next_fix()
            sent += 1
            if kind == "anywhere" and sent >= budget:
                run.cut("anywhere (after %d fixes)" % sent)
            elif kind == "parked":
                if (parked_countdown is None and self.car.parked_at is not None
                        and run.last_arrived == self.targets[self.car.parked_at]):
                    parked_countdown = rng.randint(1, 5)
                    self.car.park_more(parked_countdown + 3)
                elif parked_countdown is not None:
                    parked_countdown -= 1
                    if parked_countdown <= 0:
                        run.cut("parked at place %d" % self.car.parked_at)
            elif kind == "burst" and time.time() >= burst_deadline:
                run.cut("in a burst of changes from 4 clients")
            elif kind == "hunt" and sent == hunt_at:
                if rng.random() < 0.3:
                    spec, what = ("roam", 3000, frozenset(self.targets)), "roam 3 km"
                else:
                    k = rng.randint(3, N_TARGETS)
                    spec, what = ("hunt", None, frozenset(rng.sample(self.targets, k))), "hunt of %d places" % k
                conn = Conn(self.world.sock)
                try:
                    self.track(spec, conn)
                    run.cut("right after an acknowledged " + what)
                except (OSError, EOFError, ValueError):
                    pass
                finally:
                    conn.close()
            run.cut_done.wait(pace)
        self.stop_all_writers(run)

    # -- after the restart: the checks -----------------------------------------------------

    def check_restart(self, run_before, cut):
        w = self.world
        m = self.model
        events = run_before.watcher.snapshot() if run_before.watcher else []
        integrity = w.integrity()
        self.checked["integrity"] += 1
        if integrity != "ok":
            self.violation(cut, "integrity", "database integrity_check after the cut: %s" % integrity)
        w.start_daemon()
        self.control.close()
        self.control = Conn(w.sock)
        run = Run(self, cut + 1)
        run.watcher = Watcher(w.sock, run.on_event)
        status = self.control.request({"cmd": "status"})
        self.check_events_unique(cut, events)
        self.check_log(cut, events)
        self.check_store(cut)
        self.check_at(cut, status)
        hunt_ok = self.check_tracking(cut, status)
        if not hunt_ok:
            # Carry on with what the test expects to be tracked, so the drive keeps its meaning.
            self.track(m.tracking["acked"], count=False)
        # Parked where it arrived: the next fixes must not arrive again.
        parked = self.car.parked_at
        parked_id = self.targets[parked] if parked is not None else None
        was_at = parked_id is not None and self.at.get(parked_id) is True and parked_id in m.tracking["acked"][2]
        if parked is not None:
            self.car.park_more(8)
        last = None
        for _ in range(8):
            last = self.send_next_fix()
            time.sleep(self.args.pace)
        self.wait_fix_seen(last)
        # The hunted targets themselves (listed once a fix has come).
        tg = self.control.request({"cmd": "targets"})
        ids = frozenset(t["target"]["id"] for t in tg.get("targets", []))
        if hunt_ok:
            allowed = [m.tracking["acked"]] + m.tracking["maybe"]
            fits = [a for a in allowed if a[2] == ids and a[0] == hunt_ok[0] and a[1] == hunt_ok[1]]
            if not fits:
                self.violation(cut, "hunt_not_restored", "after the restart the daemon tracks %s, before the cut: %s %s"
                               % (sorted(ids), m.tracking["acked"][0], sorted(m.tracking["acked"][2])))
            else:
                # An unanswered hunt or roam may or may not have been kept: now we know which.
                m.tracking = {"acked": fits[0], "maybe": []}
        if was_at:
            self.checked["parked_restarts"] += 1
            again = [e for e in run.watcher.snapshot() if e[1] == "ARRIVED" and e[2]["target"]["id"] == parked_id]
            if again:
                self.violation(cut, "repeated_arrived_while_parked", "ARRIVED at %s again (seq %d) while still parked there after the restart"
                               % (parked_id, again[0][0]))
                self.reported.add(again[0][0])
        # A DEPARTED may have been lost in flight for a place the car has left: unknown now.
        for pid, at in list(self.at.items()):
            if at is True and pid != parked_id:
                self.at[pid] = None
        return run

    def check_events_unique(self, cut, events):
        """The run's live events against every earlier one: no number twice."""
        prior_max = self.max_seq
        reused, back, example = [], [], None
        for seq, cls, e, c in events:
            old = self.seqs.get(seq)
            if old is not None and old != c:
                reused.append(seq)
                example = example or "seq %d was %s, now %s" % (seq, old[:160], c[:160])
            elif old is None and seq <= prior_max:
                back.append(seq)
            self.seqs[seq] = c
            self.max_seq = max(self.max_seq, seq)
            if cls == "ARRIVED":
                if self.at.get(e["target"]["id"]) is True and seq not in self.reported:
                    self.violation(cut, "repeated_arrived_while_parked", "ARRIVED at %s (seq %d) a second time without a DEPARTED"
                                   % (e["target"]["id"], seq))
                self.at[e["target"]["id"]] = True
                self.arrivals.append((e["target"]["id"], e["time"], seq))
                self.arrivals_received += 1
            elif cls == "DEPARTED":
                self.at[e["target"]["id"]] = False
                self.departures.append((e["target"]["id"], e["time"], seq))
        if reused:
            self.violation(cut, "seq_reused", "%d event numbers reused for other events (%s); e.g. %s"
                           % (len(reused), self.ranges(reused), example))
        if back:
            self.violation(cut, "seq_reused", "%d event numbers at or below %d, the highest already handed out (%s)"
                           % (len(back), prior_max, self.ranges(back)))

    def check_log(self, cut, events):
        """Every event received live before the cut: in the log as received, or announced lost."""
        # The file itself: whole lines, increasing numbers.
        prev = 0
        with open(self.world.logpath, "rb") as f:
            data = f.read()
        lines = data.split(b"\n")
        for i, line in enumerate(lines[:-1]):
            try:
                e = json.loads(line)
            except ValueError:
                self.violation(cut, "torn_log_line", "torn line %d in the log: %r" % (i + 1, line[:120]))
                continue
            s = e.get("first_seq", e.get("seq", 0))
            if s <= prev:
                self.violation(cut, "log_order", "log line %d: seq %s after %d" % (i + 1, s, prev))
            prev = e.get("seq", prev)
        if not events:
            return
        since = min(s for s, _, _, _ in events) - 1
        conn = Conn(self.world.sock)
        try:
            reply = conn.request({"cmd": "watch", "since": since})
            replayed, gaps = {}, []
            for _ in range(reply.get("replay", 0)):
                e = conn.read()
                if e.get("class") == "GAP":
                    gaps.append((e["first_seq"], e["seq"]))
                elif "seq" in e:
                    replayed[e["seq"]] = canonical(e)
        finally:
            conn.close()
        since_gap = reply.get("since_gap")
        missing = []
        self.checked["log_events"] += len(events)
        for seq, cls, e, c in events:
            if seq in replayed:
                if replayed[seq] != c:
                    self.violation(cut, "log_differs", "seq %d in the log differs from what the watcher got: %s vs %s"
                                   % (seq, replayed[seq][:200], c[:200]))
            else:
                missing.append(seq)
        if not missing:
            return
        silent = [s for s in missing if not any(a <= s <= b for a, b in gaps)]
        self.checked["lost_events_announced"] += len(missing) - len(silent)
        ranges = self.ranges(missing)
        if silent:
            self.violation(cut, "silent_log_hole", "%d events received before the cut are gone from the log with no GAP line: %s"
                           % (len(silent), self.ranges(silent)))
        if since_gap is None or since_gap <= max(missing):
            self.violation(cut, "no_since_gap", "watch since %d across the lost events %s: since_gap %s (want > %d)"
                           % (since, ranges, since_gap, max(missing)))
        self.lost_events = getattr(self, "lost_events", 0) + len(missing)

    @staticmethod
    def ranges(seqs):
        seqs = sorted(seqs)
        out, start, prev = [], None, None
        for s in seqs:
            if start is None:
                start = prev = s
            elif s == prev + 1:
                prev = s
            else:
                out.append((start, prev))
                start = prev = s
        if start is not None:
            out.append((start, prev))
        return ", ".join("%d" % a if a == b else "%d-%d" % (a, b) for a, b in out)

    def place(self, pid):
        r = self.control.request({"cmd": "place", "id": pid})
        if r.get("class") != "PLACE":
            return None
        return r["result"]

    def check_store(self, cut):
        m = self.model
        with m.lock:
            kv = {k: dict(v) for k, v in m.kv.items()}
            visits = dict(m.visits)
            places = dict(m.places)
            observations = dict(m.observations)
        states = {}
        for (field, pid) in kv:
            if pid not in states:
                states[pid] = self.place(pid)
        self.checked["values"] += len(kv)
        self.checked["manual_visits"] += len(visits)
        self.checked["added_places"] += len(places)
        self.checked["observations"] += len(observations)
        self.checked["arrivals"] += len(self.arrivals)
        self.checked["departures"] += len(self.departures)
        lost = {}
        for (field, pid), v in sorted(kv.items()):
            st = states[pid]
            if st is None:
                self.violation(cut, "place_gone", "place %s is gone" % pid)
                continue
            mine = st["mine"]
            if field == "fav":
                got = bool(mine.get("favourite"))
            elif field == "stars":
                got = (mine.get("rating") or {}).get("stars", 0)
            else:
                got = (mine.get("note") or {}).get("text", "")
            allowed = [v["acked"]] + v["maybe"]
            if got not in allowed:
                lost.setdefault(field, []).append("%s %r, found %r" % (pid, v["acked"], got))
            with m.lock:
                m.kv[(field, pid)] = {"acked": got, "maybe": []}
        if lost:
            n = sum(len(x) for x in lost.values())
            self.violation(cut, "lost_change", "%d acknowledged values lost (%s): %s" % (
                n, ", ".join("%s %d" % (f, len(x)) for f, x in sorted(lost.items())),
                "; ".join("%s of %s" % (f, e) for f, x in sorted(lost.items()) for e in x[:2])))
        r = self.control.request({"cmd": "visits"})
        have = {x["visit"]["id"]: x["visit"] for x in r.get("result", [])}
        self.visit_rows = list(have.values())
        gone = [i for i in visits if i not in have]
        if gone:
            self.violation(cut, "lost_change", "%d acknowledged `seen` visits are gone: ids %s" % (len(gone), sorted(gone)[:20]))
            with m.lock:
                for i in gone:
                    m.visits.pop(i, None)
        gone = []
        for pid, name in places.items():
            st = self.place(pid)
            if st is None or st["detail"]["place"]["name"] != name:
                gone.append(pid)
        if gone:
            self.violation(cut, "lost_change", "%d acknowledged added places are gone: %s" % (len(gone), gone[:10]))
            with m.lock:
                for pid in gone:
                    m.places.pop(pid, None)
        r = self.control.request({"cmd": "observations"})
        have_obs = {o["id"] for o in r.get("result", [])}
        gone = [i for i in observations if i not in have_obs]
        if gone:
            self.violation(cut, "lost_change", "%d acknowledged observations are gone" % len(gone))
            with m.lock:
                for i in gone:
                    m.observations.pop(i, None)
        # Every ARRIVED received has its visit; every DEPARTED its departure.
        auto = [v for v in self.visit_rows if v.get("method") != "manual"]
        for pid, t, seq in self.arrivals:
            et = iso_epoch(t)
            if not any(v["place_id"] == pid and abs(iso_epoch(v["visited_at"]) - et) < 2.5 for v in auto):
                self.violation(cut, "arrived_without_visit", "ARRIVED seq %d at %s (%s) has no stored visit" % (seq, pid, t))
                self.arrivals = [a for a in self.arrivals if a[2] != seq]
        for pid, t, seq in self.departures:
            et = iso_epoch(t)
            ok = any(v["place_id"] == pid and v.get("departed_at") and abs(iso_epoch(v["departed_at"]) - et) < 2.5
                     for v in auto)
            if not ok:
                self.violation(cut, "departed_without_departure", "DEPARTED seq %d from %s (%s) has no stored departure" % (seq, pid, t))
                self.departures = [a for a in self.departures if a[2] != seq]

    def check_at(self, cut, status):
        v = status.get("visits", {})
        restored = set(v.get("restored", [])) | set(v.get("at", []))
        for pid, at in self.at.items():
            if at is False and pid in restored:
                self.violation(cut, "departed_restored_as_at", "the car was told it DEPARTED from %s, yet the daemon restored it as 'at'" % pid)

    def check_tracking(self, cut, status):
        """Mode, radius and count from status at once; returns (mode, radius) when they fit
        (the targets themselves are compared once fixes have come), else None."""
        m = self.model
        tr = status.get("tracking", {})
        self.checked["hunts"] += 1
        allowed = [m.tracking["acked"]] + m.tracking["maybe"]
        got = (tr.get("mode"), int(tr["radius_m"]) if tr.get("mode") == "roam" and "radius_m" in tr else None)
        # (roam counts what is in range of the last fix: none before the first fix)
        fits = [a for a in allowed if (a[0], a[1]) == got and (a[0] == "roam" or len(a[2]) == tr.get("tracked"))]
        if not fits:
            want = m.tracking["acked"]
            self.violation(cut, "hunt_not_restored", "tracking not restored: %s%s with %s targets, before the cut: %s%s with %d places"
                           % (got[0], " %s m" % got[1] if got[1] else "", tr.get("tracked"),
                              want[0], " %s m" % want[1] if want[1] else "", len(want[2])))
            return None
        return got

    # -- the whole test ------------------------------------------------------------------------

    def run(self):
        table = {"arrived": 3, "ack": 3, "parked": 2, "burst": 2, "anywhere": 2, "hunt": 1}
        kinds = self.args.kinds or list(table)
        weights = [table[k] for k in kinds]
        self.setup()
        run = Run(self, 0)
        run.watcher = Watcher(self.world.sock, run.on_event)
        for cut in range(1, self.args.cuts + 1):
            kind = self.rng.choices(kinds, weights)[0]
            t0 = time.time()
            self.drive_until_cut(run, kind)
            nviol = len(self.violations)
            run.watcher.close()
            run.watcher.join(10)
            entry = {"cut": cut, "kind": kind, "how": run.cut_info["reason"],
                     "lazyfs_dropped_bytes": run.cut_info["lazyfs"].get("bytes_lost"),
                     "events": len(run.watcher.events)}
            run = self.check_restart(run, cut)
            entry["violations"] = len(self.violations) - nviol
            entry["seconds"] = round(time.time() - t0, 1)
            self.cut_log.append(entry)
            log("cut %d/%d %-8s %-48s dropped %7s B, %4d events, %d violations"
                % (cut, self.args.cuts, kind, entry["how"][:48], entry["lazyfs_dropped_bytes"], entry["events"],
                   entry["violations"]))
        figures = self.measure(run) if self.args.measure_seconds > 0 else {}
        # The last run's events (no cut after it): still no number twice, no ARRIVED twice.
        self.check_events_unique(self.args.cuts + 1, run.watcher.snapshot())
        return figures

    # -- flash wear ------------------------------------------------------------------------

    def measure(self, run):
        """Syncs and bytes per hour at real-time pace, from lazyfs's counters."""
        M = self.args.measure_seconds
        out = {}
        # Parked at a place (arrived long since): fixes only.
        if self.car.parked_at is None:
            while self.car.parked_at is None:
                self.send_next_fix()
                time.sleep(self.args.pace)
        self.car.park_more(10**9)
        for _ in range(12):
            last = self.send_next_fix()
            time.sleep(self.args.pace)
        self.wait_fix_seen(last)
        out["parked idle, 1 fix/s"] = self.window(run, M, 1.0, changes=False)
        self.car.park_left = 0
        out["driving, 1 fix/s"] = self.window(run, M, 1.0, changes=False)
        out["driving, 10 fixes/s"] = self.window(run, M, 0.1, changes=False)
        out["driving, 1 fix/s, 1 change/s"] = self.window(run, M, 1.0, changes=True)
        out["burst of 200 changes from 4 clients"] = self.burst_figures(run)
        return out

    def settle(self, timeout=5.0):
        """Waits (up to timeout) until lazyfs holds nothing unsynced: what the last window
        wrote is not charged to the next. A daemon that leaves writes unsynced for good just
        costs the timeout."""
        end = time.time() + timeout
        while time.time() < end and self.world.fs.request("stats")["pending"]["bytes"] > 0:
            time.sleep(0.05)

    def window(self, run, seconds, dt, changes):
        w = self.world
        self.settle()
        events_before = len(run.watcher.snapshot())
        w.fs.request("reset")
        conn = Conn(w.sock) if changes else None
        rng = random.Random(1)
        start = time.time()
        n = 0
        next_change = start
        try:
            while time.time() - start < seconds:
                self.send_next_fix(dt)
                n += 1
                if conn and time.time() >= next_change:
                    self.one_change(conn, self.scratch, rng, run)
                    next_change += 1.0
                target = start + n * dt
                time.sleep(max(0.0, target - time.time()))
        finally:
            if conn:
                conn.close()
        elapsed = time.time() - start
        st = w.fs.request("stats")
        events = len(run.watcher.snapshot()) - events_before
        per_h = 3600.0 / elapsed
        return {
            "seconds": round(elapsed, 1), "fixes": n, "events": events,
            "syncs_per_hour": round((st["total_syncs"] + st["total_dir_syncs"]) * per_h),
            "bytes_written_per_hour": round(st["total_bytes_written"] * per_h),
            "bytes_synced_per_hour": round(st["total_bytes_synced"] * per_h),
            "syncs_by_file": st["syncs"], "dir_syncs": st["dir_syncs"],
        }

    def burst_figures(self, run):
        w = self.world
        self.settle()
        w.fs.request("reset")
        before = sum(self.model.acks.values())
        b = Run(self, -1)
        b.watcher = run.watcher
        self.start_writers(b, 4, 0)
        start = time.time()
        wait_until(lambda: sum(self.model.acks.values()) - before >= 200, 120, "200 changes")
        self.stop_all_writers(b)
        elapsed = time.time() - start
        st = w.fs.request("stats")
        n = sum(self.model.acks.values()) - before
        return {"changes": n, "seconds": round(elapsed, 2), "syncs": st["total_syncs"] + st["total_dir_syncs"],
                "syncs_per_change": round((st["total_syncs"] + st["total_dir_syncs"]) / max(1, n), 3),
                "bytes_written": st["total_bytes_written"], "bytes_synced": st["total_bytes_synced"],
                "syncs_by_file": st["syncs"]}


def main():
    ap = argparse.ArgumentParser(description="Power cuts at random moments of a real drive (see the module doc).")
    ap.add_argument("--cuts", type=int, default=50)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--binaries", default=os.path.join(REPO, ".build", "debug"),
                    help="directory holding hotcoldd (default: .build/debug)")
    ap.add_argument("--pace", type=float, default=0.04, help="wall seconds between fixes while driving (fix time advances 1 s)")
    ap.add_argument("--measure-seconds", type=float, default=30,
                    help="length of each real-time flash-wear window (0: skip)")
    ap.add_argument("--meta-on-fsync", action="store_true",
                    help="lazyfs: an fsync of a file also commits name changes (ext4) instead of only a directory fsync")
    ap.add_argument("--lazyfs-ignore-syncs", metavar="REGEX",
                    help="lazyfs ignores the syncs of matching paths (e.g. 'sqlite|events|tracking'): "
                         "emulates a daemon that does not sync them, to see the checks catch it")
    ap.add_argument("--kinds", type=lambda v: v.split(","), default=None,
                    help="cut only at these moments (comma list of arrived, ack, parked, burst, anywhere, hunt)")
    ap.add_argument("--keep", action="store_true", help="keep the temporary directory")
    args = ap.parse_args()
    if args.seed is None:
        args.seed = random.randrange(1 << 30)
    args.binaries = os.path.abspath(args.binaries)
    if os.geteuid() != 0:
        print("power_cut: needs root (a FUSE mount)", file=sys.stderr)
        return 77
    log("seed %d, %d cuts, binaries %s" % (args.seed, args.cuts, args.binaries))
    test = PowerCutTest(args)
    failed = True
    summary = {"seed": args.seed, "cuts": args.cuts, "dir": test.world.dir}
    try:
        figures = test.run()
        m = test.model
        summary.update({
            "acknowledged": m.acks,
            "unanswered_at_cut": m.unanswered,
            "errors": m.errors[:10],
            "arrived_received": test.arrivals_received,
            "violation_counts": test.violation_kinds,
            "events_received": len(test.seqs),
            "events_lost_from_log": getattr(test, "lost_events", 0),
            "fixes_sent": test.fixes_sent,
            "cut_log": test.cut_log,
            "checked": test.checked,
            "flash_wear": figures,
            "violations": test.violations,
        })
        failed = bool(test.violations)
    except Exception as err:
        summary["error"] = "%s: %s" % (type(err).__name__, err)
        summary["violations"] = test.violations
        import traceback
        traceback.print_exc()
    finally:
        test.world.close(keep=args.keep or failed)
    print(json.dumps(summary, indent=1, sort_keys=True))
    if failed:
        print("\npower_cut: FAILED (seed %d): %d violations%s" % (
            args.seed, len(test.violations), ", and: " + summary["error"] if "error" in summary else ""), file=sys.stderr)
        for v in test.violations:
            print("  - " + v, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
