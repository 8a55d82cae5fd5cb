#!/usr/bin/python3
"""The Debian package's life on a clean Debian 12 box, as a user lives it, in a container
booted with systemd (systemd-nspawn, a private network):

1. install: `apt-get install ./hotcold_NEW.deb`; the socket is enabled and the companions are
   not; a member of the `hotcold` group replays the demo drive through gpsfake into the
   packaged gpsd and sees ARRIVED on the installed socket (/run/hotcold/hotcold.sock), the
   daemon started on demand by hotcoldd.socket;
2. upgrade (with --old): a box running the previous package holds a history (visits, a rating
   waiting for the web API, a note, a favourite, a followed friend, a paired phone, a hunt in
   progress, an edited configuration); after `apt-get install ./NEW.deb` every record is there,
   the edited conffile is kept with the new one beside it (.dpkg-dist), the daemon runs the new
   binary, and the phone paired before still gets in;
3. downgrade: installing the older package over the newer data fails with a sentence and
   changes nothing;
4. remove keeps data and configuration; purge leaves nothing of hotcold: the file system after
   purge is compared with the one before install.

Usage: package_cycle.py --base BOOKWORM_DIR --new NEW.deb [--old OLD.deb]"""

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
failed = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    if not ok:
        failed.append(what)
    return ok


class Box:
    """A Debian 12 tree booted with systemd in its own namespaces."""

    def __init__(self, base, work):
        # The clean Debian 12 tree stays as it is: each run writes to an overlay of its own.
        self.root = os.path.join(work, "root")
        for d in ("root", "upper", "ovlwork"):
            os.makedirs(os.path.join(work, d))
        subprocess.run(["mount", "-t", "overlay", "overlay", "-o",
                        "lowerdir=%s,upperdir=%s,workdir=%s" % (base, os.path.join(work, "upper"), os.path.join(work, "ovlwork")),
                        self.root], check=True)
        self.log = open(os.path.join(work, "nspawn.log"), "wb")
        self.proc = None
        self.leader = None

    def boot(self):
        self.proc = subprocess.Popen(
            ["systemd-nspawn", "--quiet", "--boot", "--directory", self.root, "--register=no", "--keep-unit",
             "--private-network", "--machine", "hotcold-pkg-%d" % os.getpid()],
            stdin=subprocess.DEVNULL, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        # The container's init is nspawn's child.
        end = time.time() + 60
        while time.time() < end and self.leader is None:
            out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(self.proc.pid)], capture_output=True, text=True).stdout.split()
            if out:
                self.leader = int(out[0])
            elif self.proc.poll() is not None:
                break
            else:
                time.sleep(0.1)
        if self.leader is None:
            raise SystemExit("systemd-nspawn did not boot the box (see its log)")
        r = self.sh("systemctl is-system-running --wait", check=False, timeout=180)
        print("box booted: %s" % r.stdout.strip(), flush=True)

    def sh(self, script, check=True, timeout=300, user=None):
        cmd = ["nsenter", "-t", str(self.leader), "-m", "-u", "-i", "-n", "-p", "-C", "--"]
        if user:
            cmd += ["setpriv", "--reuid", user, "--regid", user, "--init-groups", "--"]
        cmd += ["/usr/bin/env", "-i", "PATH=/usr/sbin:/usr/bin:/sbin:/bin", "LANG=C.UTF-8", "HOME=/root",
                "DEBIAN_FRONTEND=noninteractive", "/bin/sh", "-c", script]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        if check and r.returncode != 0:
            raise SystemExit("in the box: %s\nexit %d\n%s\n%s" % (script, r.returncode, r.stdout[-3000:], r.stderr[-3000:]))
        return r

    def put(self, path, dest):
        shutil.copy(path, os.path.join(self.root, dest.lstrip("/")))

    def files(self):
        """Every path in the box's file system, but for what apt, dpkg, systemd and the
        journal keep about their own doings."""
        skip = ("/proc", "/sys", "/dev", "/run", "/tmp", "/var/cache", "/var/lib/apt", "/var/lib/dpkg",
                "/var/log/journal", "/var/log/apt", "/var/lib/systemd", "/root", "/var/tmp", "/var/log/dpkg.log",
                "/var/log/alternatives.log", "/var/lib/ucf", "/var/lib/private/systemd", "/var/log/private")
        found = set()
        for dirpath, dirnames, filenames in os.walk(self.root):
            rel = "/" + os.path.relpath(dirpath, self.root).lstrip(".")
            rel = rel if rel != "/" else ""
            dirnames[:] = [d for d in dirnames if not (rel + "/" + d).startswith(skip)]
            for name in dirnames + filenames:
                p = rel + "/" + name
                if not p.startswith(skip):
                    found.add(p)
        return found

    def shutdown(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)   # nspawn: an orderly poweroff of the box
            try:
                self.proc.wait(60)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        subprocess.run(["umount", "-l", self.root])


def conffile(deb, path):
    """A file's contents as a package ships it."""
    tar = subprocess.run(["dpkg-deb", "--fsys-tarfile", deb], capture_output=True, check=True).stdout
    return subprocess.run(["tar", "-xO", "./" + path], input=tar, capture_output=True, check=True).stdout


# A phone's request from the box itself: GET PATH with the session cookie (if any); prints
# the cookie a pairing link sets, else the body.
PHONE = """python3 - <<'PY'
import http.client, re
c = http.client.HTTPConnection("127.0.0.1", 8470, timeout=10)
c.request("GET", "%s", headers={"Cookie": "hc_token=%s"})
r = c.getresponse()
m = re.search(r"hc_token=([^;]+)", r.getheader("Set-Cookie") or "")
print(m.group(1) if m else r.read().decode())
PY"""


def drive_to_arrival(box, user):
    """The demo drive through gpsfake into the box's gpsd port (the packaged gpsd stopped);
    a group member's `hotcold watch`, connected first (its connection starts the daemon from
    the socket), sees ARRIVED. Returns what the watch printed, and the box's story on failure."""
    # Masked, or hotcoldd.service's Wants=gpsd.socket would start it again on 2947.
    box.sh("systemctl mask --now gpsd.socket gpsd.service")
    box.sh("rm -f /var/tmp/watch.jsonl; touch /var/tmp/watch.jsonl; chown %s /var/tmp/watch.jsonl" % user)
    box.sh("setpriv --reuid %s --regid %s --init-groups -- sh -c "
           "'nohup hotcold watch --json >/var/tmp/watch.jsonl 2>&1 &'" % (user, user))
    # The watch is in once the daemon's socket counts it beside this status request.
    box.sh("for i in $(seq 300); do hotcold status --json 2>/dev/null | grep -Eq '\"clients\":([2-9]|[1-9][0-9])[,}]' && exit 0; sleep 0.1; done; exit 1")
    box.sh("nohup gpsfake -1 -q -c 0.01 -P 2947 /usr/share/hotcold/demo/coffs-harbour-drive.nmea "
           ">/var/tmp/gpsfake.log 2>&1 &")
    r = box.sh("for i in $(seq 2400); do grep -m1 ARRIVED /var/tmp/watch.jsonl && exit 0; sleep 0.1; done; exit 1", check=False)
    if r.returncode != 0:
        story = box.sh("tail -5 /var/tmp/watch.jsonl; tail -5 /var/tmp/gpsfake.log; journalctl -u hotcoldd --no-pager -n 30; "
                       "cat /etc/hosts; hotcold status", check=False)
        print(story.stdout, story.stderr, flush=True)
    box.sh("pkill -x hotcold || true; pkill -x gpsfake || true; systemctl unmask gpsd.socket gpsd.service")
    return r
def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", required=True, help="a clean Debian 12 tree (scripts/package-test makes it)")
    ap.add_argument("--new", required=True)
    ap.add_argument("--old")
    args = ap.parse_args()
    new = os.path.abspath(args.new)
    new_version = re.search(r"hotcold_([^_]+)_", os.path.basename(new)).group(1)
    work = tempfile.mkdtemp(prefix="hotcold-pkg-")
    box = Box(os.path.abspath(args.base), work)
    try:
        box.boot()
        # As on an installed Debian: localhost resolves (mmdebstrap writes no /etc/hosts), and
        # the box has a user, jane, who will use hotcold.
        box.sh("printf '127.0.0.1\\tlocalhost\\n::1\\tlocalhost ip6-localhost ip6-loopback\\n' > /etc/hosts")
        box.sh("useradd --create-home jane")
        before = box.files()
        first = os.path.abspath(args.old) if args.old else new
        box.put(first, "/root/first.deb")
        box.put(new, "/root/new.deb")
        r = box.sh("apt-get install -y -q /root/first.deb")
        check(True, "apt-get install of %s" % os.path.basename(first))
        box.sh("usermod -aG hotcold jane")
        state = {u: box.sh("systemctl is-enabled %s || true" % u).stdout.strip()
                 for u in ["hotcoldd.socket", "hotcoldd.service", "hotcold-web.service", "hotcold-mqtt.service", "hotcold-sync.service"]}
        check(state["hotcoldd.socket"] == "enabled", "hotcoldd.socket is enabled (%s)" % state)
        check(all(state[u] == "disabled" for u in ["hotcold-web.service", "hotcold-mqtt.service", "hotcold-sync.service"]),
              "the companions are installed but not enabled (%s)" % state)
        check(box.sh("systemctl is-active hotcoldd.service || true").stdout.strip() != "active",
              "the daemon waits for its first client")

        if args.old:
            r = drive_to_arrival(box, "root")
            check("ARRIVED" in r.stdout, "the old box arrives on the demo drive (a visit to keep)")
            # The old box's history, made by root (0.1.0's units kept the daemon's socket out of
            # the group's reach: root's commands are what worked there).
            box.sh("systemctl enable --now hotcold-web.service")
            box.sh("for i in $(seq 100); do [ -S /run/hotcold-web/control.sock ] && exit 0; sleep 0.1; done; exit 1")
            hist = [
                "hotcold rate halans:d0577fb8cf 4",
                "hotcold note halans:d0577fb8cf 'bring the kids back in summer'",
                "hotcold fav halans:513e0feff3",
                "hotcold seen halans:513e0feff3",
                "hotcold hunt halans:d0577fb8cf",
            ]
            for c in hist:
                r = box.sh(c, check=False)
                check(r.returncode == 0, "on the old box: %s (%s)" % (c, (r.stdout + r.stderr).strip()[-200:]))
            box.sh("sed -i 's/^max_clients_per_user = 64/max_clients_per_user = 48/' /etc/hotcold/hotcoldd.toml")
            visits_before = box.sh("hotcold visits --json").stdout
            outbox_before = box.sh("hotcold outbox --json").stdout
            # A phone paired on the old box: its link opened, its cookie kept.
            pair = box.sh("hotcold web pair --name jane-phone --no-qr").stdout
            token = re.search(r"t=([A-Za-z0-9_-]{43})", pair)
            check(token is not None, "the old box pairs a phone (%s)" % pair.strip()[-200:])
            cookie = box.sh(PHONE % ("/pair?t=" + token.group(1), "")).stdout.strip() if token else ""
            check(len(cookie) == 43, "the phone's link gives it a session (%s)" % cookie[:8])
            old_pid = box.sh("systemctl show -p MainPID --value hotcoldd.service").stdout.strip()

            # As a person answers dpkg's question about an edited conffile by default: keep mine.
            r = box.sh("apt-get install -y -q -o Dpkg::Options::=--force-confold /root/new.deb", check=False)
            check(r.returncode == 0, "apt-get install of the new package over the old (%s)" % (r.stdout + r.stderr)[-600:])
            # dpkg offers the new default only when it changed between the two packages.
            changed = conffile(first, "etc/hotcold/hotcoldd.toml") != conffile(new, "etc/hotcold/hotcoldd.toml")
            offered = box.sh("test -f /etc/hotcold/hotcoldd.toml.dpkg-dist && echo yes || echo no").stdout.strip() == "yes"
            check(offered == changed, "the new default is offered beside the edited configuration (.dpkg-dist) "
                  "exactly when it changed (changed: %s, offered: %s)" % (changed, offered))
            check("max_clients_per_user = 48" in box.sh("cat /etc/hotcold/hotcoldd.toml").stdout,
                  "the edited configuration is kept")
            st = box.sh("hotcold status --json", check=False).stdout
            check('"release":"%s"' % new_version in st.replace(" ", ""), "the daemon reports %s after the upgrade" % new_version)
            new_pid = box.sh("systemctl show -p MainPID --value hotcoldd.service").stdout.strip()
            check(new_pid != old_pid, "the daemon was restarted on the new binary (pid %s → %s)" % (old_pid, new_pid))
            check(box.sh("hotcold visits --json").stdout == visits_before, "every visit is kept")
            check(box.sh("hotcold outbox --json").stdout == outbox_before, "the rating waiting for the web API is kept")
            show = box.sh("hotcold show halans:d0577fb8cf").stdout
            check("bring the kids back in summer" in show, "the note is kept")
            tracking = box.sh("hotcold status --json").stdout.replace(" ", "")
            check('"mode":"hunt"' in tracking, "the hunt in progress is kept (%s)" % tracking[tracking.find('"tracking"'):][:200])
            check("Big Prawn" in box.sh("hotcold things --favourites || hotcold things --fav || true", check=False).stdout
                  or "favourite" in box.sh("hotcold show halans:513e0feff3").stdout.lower(), "the favourite is kept")
            check(box.sh("systemctl is-active hotcold-web.service || true").stdout.strip() == "active",
                  "hotcold-web runs after the upgrade")
            box.sh("for i in $(seq 100); do [ -S /run/hotcold-web/control.sock ] && exit 0; sleep 0.1; done; exit 1", check=False)
            session = box.sh(PHONE % ("/session", cookie), check=False).stdout
            check('"paired"' in session and "jane-phone" in session, "the phone paired before still gets in (%s)" % session.strip()[-200:])
            check("jane-phone" in box.sh("hotcold web devices", check=False).stdout, "the pairing is listed")
            # Downgrading is refused, and leaves the new version and the data in place.
            r = box.sh("apt-get install -y -q --allow-downgrades /root/first.deb", check=False)
            check(r.returncode != 0 and "refusing to downgrade" in (r.stdout + r.stderr),
                  "installing the older package is refused with a sentence (%s)" % (r.stdout + r.stderr)[-400:])
            v = box.sh("dpkg-query -W -f '${Version}' hotcold").stdout
            check(v == new_version, "the newer package stays installed (%s)" % v)
            check(box.sh("hotcold visits --json").stdout == visits_before, "and the data is untouched")

        if args.old:
            box.sh("hotcold roam 10km")
        # The package's own autopkgtest (debian/tests/arrival), as jane.
        box.put(os.path.join(ROOT, "debian", "tests", "arrival"), "/root/arrival")
        r = box.sh("sh /root/arrival jane", check=False, timeout=400)
        check(r.returncode == 0 and "ARRIVED" in r.stdout,
              "debian/tests/arrival: a member of hotcold sees ARRIVED on the installed socket (%s %s)" % (r.stdout.strip()[-300:], r.stderr.strip()[-600:]))
        check(box.sh("systemctl is-active hotcoldd.service || true").stdout.strip() == "active",
              "the socket started the daemon on demand")

        # Remove keeps the data and configuration; purge leaves nothing.
        box.sh("apt-get remove -y -q hotcold")
        check(box.sh("test -d /var/lib/private/hotcold -o -d /var/lib/hotcold && test -f /etc/hotcold/hotcoldd.toml && echo kept").stdout.strip() == "kept",
              "remove keeps the data and the configuration")
        check(box.sh("systemctl is-active hotcoldd.service hotcoldd.socket || true").stdout.split().count("active") == 0,
              "remove stops the daemon and its socket")
        box.sh("apt-get purge -y -q hotcold")
        after = box.files()
        left = sorted(after - before)
        gone = sorted(before - after)
        print("after purge, new paths: %s" % left, flush=True)
        print("after purge, missing paths: %s" % gone[:20], flush=True)
        check(not [p for p in left if "hotcold" in p], "purge leaves no path naming hotcold (%s)" % left[:10])
        check(not left, "purge leaves the file system as it was before install (%d new paths)" % len(left))
        check(box.sh("getent group hotcold || echo none").stdout.strip() == "none", "purge removes the hotcold group")
        check(box.sh("getent passwd hotcold-web || echo none").stdout.strip() == "none", "purge removes the hotcold-web user")
    finally:
        box.shutdown()
        shutil.rmtree(work, ignore_errors=True)
    if failed:
        print("FAILED: %d" % len(failed))
        sys.exit(1)
    print("PASS")


if __name__ == "__main__":
    main()
