#!/usr/bin/python3
"""`scripts/demo` starts and stops as a newcomer expects: it prints the page's address and
waits for the page before driving (saying so); one Ctrl-C at any moment — while it waits,
while it drives — stops everything within seconds, as does closing the terminal (SIGHUP) or
two quick Ctrl-Cs; nothing it started is left running and its temporary folder is gone.

Usage: demo_stop.py --bin .build/debug"""

import argparse
import os
import re
import signal
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
failed = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    if not ok:
        failed.append(what)


def procs():
    """pid -> (ppid, pgid, sid, state, cmdline) for every process."""
    out = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % name) as f:
                stat = f.read()
            with open("/proc/%s/cmdline" % name, "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        rest = stat[stat.rindex(")") + 2:].split()
        out[int(name)] = (int(rest[1]), int(rest[2]), int(rest[3]), rest[0], cmd)
    return out


def family(root):
    """Every live process descended from `root`, or in a session or group one of them leads."""
    table = procs()
    found = {root}
    changed = True
    while changed:
        changed = False
        for pid, (ppid, pgid, sid, state, _) in table.items():
            if pid not in found and (ppid in found or pgid in found or sid in found) and state != "Z":
                found.add(pid)
                changed = True
    return {p: table[p][4] for p in found if p in table}


def alive(pids):
    table = procs()
    return {p: table[p][4] for p in pids if p in table and table[p][3] != "Z"}


def start(bin_dir, wait):
    env = dict(os.environ, HOTCOLD_DEMO_BIN=os.path.abspath(bin_dir), HOTCOLD_DEMO_WAIT=str(wait))
    demo = subprocess.Popen([os.path.join(ROOT, "scripts", "demo")], cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    return demo


def read_until(demo, pattern, seconds, lines):
    end = time.time() + seconds
    while time.time() < end:
        line = demo.stderr.readline().decode(errors="replace")
        if not line:
            return None
        lines.append(line.rstrip())
        m = re.search(pattern, line)
        if m:
            return m
    return None


def stop_and_check(demo, label, signals, lines):
    tmp = None
    for line in lines:
        m = re.search(r"log: (/tmp/hotcold-demo\.[A-Za-z0-9]+)/", line)
        if m:
            tmp = m.group(1)
    started = family(demo.pid)
    t0 = time.time()
    for sig in signals:
        # As the terminal does: the signal goes to the whole foreground group.
        os.killpg(demo.pid, sig)
        time.sleep(0.05)
    try:
        demo.wait(15)
    except subprocess.TimeoutExpired:
        pass
    took = time.time() - t0
    check(demo.returncode is not None, "%s: the demo stops (%.1f s, status %s)" % (label, took, demo.returncode))
    # Whatever it started goes with it (a killed child may take a moment to be reaped).
    end = time.time() + 10
    left = alive(started)
    while left and time.time() < end:
        time.sleep(0.1)
        left = alive(started)
    check(not left, "%s: nothing it started is left running (%s)" % (label, sorted(left.values())[:4]))
    check(tmp is not None and not os.path.exists(tmp), "%s: its temporary folder %s is removed" % (label, tmp))
    for pid in left:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    if demo.returncode is None:
        os.killpg(demo.pid, signal.SIGKILL)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    args = ap.parse_args()

    # Ctrl-C while it waits for the page: it said it would wait, and stops at once.
    lines = []
    demo = start(args.bin, 600)
    m = read_until(demo, r"the drive starts when the page is opened \(or in (\d+) s\)", 120, lines)
    check(m is not None, "the demo says it waits for the page before driving (%s)" % lines[-3:])
    stop_and_check(demo, "Ctrl-C while waiting for the page", [signal.SIGINT], lines)

    # Ctrl-C, SIGHUP and a double Ctrl-C while the drive runs (gpsfake, which ignores SIGTERM,
    # and its own gpsd alive).
    for label, sigs in [("Ctrl-C during the drive", [signal.SIGINT]),
                        ("closing the terminal during the drive", [signal.SIGHUP]),
                        ("two Ctrl-Cs during the drive", [signal.SIGINT, signal.SIGINT])]:
        lines = []
        demo = start(args.bin, 0)
        m = read_until(demo, r"starting the drive", 120, lines)
        check(m is not None, "%s: the drive starts (%s)" % (label, lines[-3:]))
        # The drive is under way once gpsfake has a gpsd of its own running.
        end = time.time() + 60
        while time.time() < end and not any(c.startswith("/usr/sbin/gpsd ") for c in family(demo.pid).values()):
            time.sleep(0.1)
        check(any(c.startswith("/usr/sbin/gpsd ") for c in family(demo.pid).values()),
              "%s: gpsfake's gpsd is running" % label)
        stop_and_check(demo, label, sigs, lines)

    if failed:
        sys.exit(1)
    print("PASS")


if __name__ == "__main__":
    main()
