#!/usr/bin/env python3
"""Writes Tests/Golden/NAME.targets.json for every manifest entry that asks for generated targets.

For each recorded track it reads the positions the receiver reported (NMEA GGA/RMC with a fix,
gpsd TPV with mode >= 2, GPX trkpt not marked <fix>none</fix>), measures the route by cumulative
distance and places four targets:

  on-route   the recorded position 40 % of the way along the route
  off-60m    60 m to one side of the route at 25 % of the way (inside the 100 m arrival radius)
  off-150m   150 m to one side at 60 % of the way (a pass outside the radius: no arrival)
  away-2km   2 km to one side at 80 % of the way (tiers and trend only)

Positions are the recorded ones (snapped, not interpolated: sparse logs have long straight gaps
that are not road); steps longer than 250 m count as gaps, not distance travelled.

Off-route targets go to the side whose whole-route clearance is closest to the wanted offset
(routes that turn back on themselves may pass nearer elsewhere); the clearance actually reached
is printed, so a reviewer can see it. Deterministic: same tracks, same targets, to 1e-7 degree.

Usage: scripts/make-golden-targets.py [NAME ...]   (default: every entry with "targets": "generate")
"""
import json, math, os, re, sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.environ.get("HOTCOLD_SHARED_DATA", os.path.join(os.path.dirname(REPO), "shared", "data"))
GOLDEN = os.path.join(REPO, "Tests", "Golden")

A, F = 6378137.0, 1 / 298.257223563
E2 = F * (2 - F)


def radii(lat):
    phi = math.radians(lat)
    w = math.sqrt(1 - E2 * math.sin(phi) ** 2)
    return A * (1 - E2) / w ** 3, A / w * math.cos(phi)  # metres per radian of lat, of lon


def offset(p, q):
    """East/north metres from p to q (local ellipsoidal flat earth: fine for a few km)."""
    m, n = radii((p[0] + q[0]) / 2)
    return math.radians(q[1] - p[1]) * n, math.radians(q[0] - p[0]) * m


def dist(p, q):
    dx, dy = offset(p, q)
    return math.hypot(dx, dy)


def move(p, east, north):
    m, n = radii(p[0])
    return (p[0] + math.degrees(north / m), p[1] + math.degrees(east / n))


def nmea_ok(line):
    m = re.match(r"^\$([^*]*)\*([0-9A-Fa-f]{2})\s*$", line)
    if not m:
        return None
    c = 0
    for ch in m.group(1).encode("latin-1"):
        c ^= ch
    return m.group(1).split(",") if c == int(m.group(2), 16) else None


def dm(v, h):
    if not v or not h:
        return None
    d = int(float(v) / 100)
    x = d + (float(v) - d * 100) / 60
    return -x if h in "SW" else x


def read_points(path):
    with open(path, "rb") as f:
        text = f.read().decode("latin-1")
    pts = []
    if "<gpx" in text[:2000]:
        for m in re.finditer(r"<trkpt\s+lat=\"([-0-9.]+)\"\s+lon=\"([-0-9.]+)\"\s*>(.*?)</trkpt>", text, re.S):
            if "<fix>none</fix>" in m.group(3):
                continue
            pts.append((float(m.group(1)), float(m.group(2))))
    elif text.lstrip().startswith("{"):
        for line in text.splitlines():
            try:
                o = json.loads(line)
            except ValueError:
                continue
            if o.get("class") == "TPV" and o.get("mode", 0) >= 2 and "lat" in o and "lon" in o:
                pts.append((o["lat"], o["lon"]))
    else:
        for line in text.splitlines():
            f = nmea_ok(line.strip())
            if not f:
                continue
            kind = f[0][2:]
            try:
                if kind == "GGA" and len(f) > 6 and f[6] not in ("", "0"):
                    p = (dm(f[2], f[3]), dm(f[4], f[5]))
                elif kind == "RMC" and len(f) > 6 and f[2] == "A":
                    p = (dm(f[3], f[4]), dm(f[5], f[6]))
                else:
                    continue
            except ValueError:
                continue
            if None not in p:
                pts.append(p)
    # Consecutive duplicates say nothing about the route.
    out = []
    for p in pts:
        if not out or p != out[-1]:
            out.append(p)
    return out


def along(pts, cum, s):
    """The point at distance s along the route and the route's local direction (unit east, north)."""
    i = max(0, min(len(pts) - 2, next((k for k in range(1, len(cum)) if cum[k] >= s), len(cum) - 1) - 1))
    seg = cum[i + 1] - cum[i]
    t = 0 if seg == 0 else (s - cum[i]) / seg
    dx, dy = offset(pts[i], pts[i + 1])
    p = move(pts[i], dx * t, dy * t)
    # Direction over ~50 m either side, steadier than one segment.
    a = along_simple(pts, cum, max(0, s - 50))
    b = along_simple(pts, cum, min(cum[-1], s + 50))
    ex, ny = offset(a, b)
    n = math.hypot(ex, ny) or 1
    return p, (ex / n, ny / n)


def along_simple(pts, cum, s):
    for k in range(1, len(cum)):
        if cum[k] >= s:
            seg = cum[k] - cum[k - 1]
            t = 0 if seg == 0 else (s - cum[k - 1]) / seg
            dx, dy = offset(pts[k - 1], pts[k])
            return move(pts[k - 1], dx * t, dy * t)
    return pts[-1]


def clearance(pts, q):
    """Shortest distance from q to the route polyline."""
    best = float("inf")
    for a, b in zip(pts, pts[1:]):
        ax, ay = offset(q, a)
        bx, by = offset(q, b)
        vx, vy = bx - ax, by - ay
        l2 = vx * vx + vy * vy
        t = 0 if l2 == 0 else max(0, min(1, -(ax * vx + ay * vy) / l2))
        best = min(best, math.hypot(ax + t * vx, ay + t * vy))
    return best


GAP_M = 250.0

SPECS = [  # id, name, fraction along the route, metres off the route
    ("on-route", "On the route", 0.40, 0),
    ("off-60m", "Near (60 m off)", 0.25, 60),
    ("off-150m", "Passing (150 m off)", 0.60, 150),
    ("away-2km", "Far (2 km off)", 0.80, 2000),
]


def make(name, track):
    pts = read_points(track)
    if len(pts) < 2:
        sys.exit(f"{track}: fewer than two positions")
    # Cumulative distance along the route; a step longer than GAP_M is a gap in the recording
    # (or a jump), not road, and adds nothing.
    cum = [0.0]
    for a, b in zip(pts, pts[1:]):
        d = dist(a, b)
        cum.append(cum[-1] + (d if d <= GAP_M else 0))
    targets = []
    for tid, label, frac, off in SPECS:
        # Snap to the recorded position nearest that distance: sparse recordings have long
        # straight gaps that are not road.
        k = min(range(len(pts)), key=lambda i: (abs(cum[i] - frac * cum[-1]), i))
        _, (ux, uy) = along(pts, cum, cum[k])
        p = pts[k]
        if off == 0:
            q, got = p, clearance(pts, p)
        else:
            best = None
            for side in (1, -1):  # left of travel first, then right
                c = move(p, -uy * off * side, ux * off * side)
                cl = clearance(pts, c)
                if best is None or abs(cl - off) < abs(best[1] - off) - 1e-9:
                    best = (c, cl)
            q, got = best
        targets.append({"id": f"{name}-{tid}", "name": label, "lat": round(q[0], 7),
                        "lon": round(q[1], 7), "kind": "geocache"})
        print(f"  {name}: {tid:9s} clearance {got:8.1f} m", file=sys.stderr)
    print(f"  {name}: {len(pts)} positions, route {cum[-1] / 1000:.2f} km", file=sys.stderr)
    with open(os.path.join(GOLDEN, f"{name}.targets.json"), "w") as f:
        f.write("[\n" + ",\n".join("  " + json.dumps(t) for t in targets) + "\n]\n")


def main():
    manifest = json.load(open(os.path.join(GOLDEN, "manifest.json")))
    wanted = set(sys.argv[1:])
    for e in manifest["tracks"]:
        if e.get("targets") != "generate" or (wanted and e["name"] not in wanted):
            continue
        track = os.path.join(REPO, e["repo_track"]) if "repo_track" in e else os.path.join(SHARED, e["track"])
        make(e["name"], track)


if __name__ == "__main__":
    main()
