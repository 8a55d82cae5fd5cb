// @ts-check
// The live model: STATUS and events from the stream, each applied only when it is not older
// than what it would replace ("never older over newer").

import { fmtTime } from "./format.js";
import { hc, isPlace } from "./model.js";
import { render } from "./screens.js";

// ---- What each update reflects, and keeping the newest -------------------------------------
// A STATUS reflects the daemon's state at its last fix (`gps.last_fix.time`) and every event
// numbered up to `sequence.last`. An event reflects one fix (`time`) and has its own `seq`.
// The page applies an update to a target only when it is not older than what the target
// shows: a STATUS that arrives after a newer fix's event leaves that target alone, and an
// event at or below the last STATUS's `sequence.last` (the log's replay after a reconnect) is
// history the STATUS already holds: it fills the passages and never the live state.
function fixMs(s) { const f = s.gps && s.gps.last_fix; const t = f ? Date.parse(f.time) : NaN; return isNaN(t) ? -Infinity : t; }

export function takeStatus(s) {
  // When the daemon started, by its own clock: the same for every STATUS of one run, however
  // late one arrives; another run (a restart) has another.
  const born = Date.parse(s.time) / 1000 - (s.uptime_s || 0);
  const k = { seq: (s.sequence && s.sequence.last) || 0, fix: fixMs(s), born: born };
  const cur = hc.stamp;
  // A restarted daemon may have a receiver whose clock is behind the last one's: its first
  // STATUS starts a new timeline. Numbers (seq) never go back, even then.
  const restarted = !cur || hc.newTimeline || (k.seq >= cur.seq && Math.abs(k.born - cur.born) > 3);
  if (!restarted && (k.seq < cur.seq || k.fix < cur.fix)) { hc.refused.status++; return; }
  hc.newTimeline = false;
  hc.status = s; hc.statusAt = Date.now(); hc.stamp = k;
  if (s.tracking && s.tracking.tiers) hc.tiers = s.tracking.tiers;
  const seen = new Set();
  for (const t of s.targets || []) {
    const id = t.target.id, old = hc.targets.get(id);
    seen.add(id);
    if (old && !restarted && old.fix > k.fix) { hc.refused.status++; continue; }
    hc.targets.set(id, Object.assign(old || {}, t, { fix: k.fix, seq: k.seq }));
  }
  for (const f of s.friends || []) {
    const id = "friend:" + f.who, old = hc.targets.get(id);
    seen.add(id);
    if (old && !restarted && old.seq > k.seq) continue;
    hc.targets.set(id, Object.assign(old || {}, {
      target: { id: id, name: f.name, kind: "friend" }, distance_m: f.distance_m, bearing_deg: f.bearing_deg,
      tier: f.tier, tier_name: f.tier_name, trend: f.trend, arrived: f.arrived, age_s: f.age_s, stale: f.stale,
      fix: k.fix, seq: k.seq, eta_s: undefined
    }));
  }
  for (const [id, t] of hc.targets) if (!seen.has(id) && (restarted || t.fix <= k.fix)) hc.targets.delete(id);
  render();
}

export function takeEvent(cls, e) {
  hc.seqs.push(e.seq);
  if (hc.seqs.length > 100000) hc.seqs.splice(0, 50000);
  const live = !hc.stamp || e.seq > hc.stamp.seq;
  if (cls === "PROXIMITY") {
    const id = e.target.id, old = hc.targets.get(id), fix = Date.parse(e.time);
    const friend = e.target.kind === "friend";
    const newer = !old || (friend ? e.seq > old.seq : fix >= old.fix);
    if (live && newer) {
      hc.targets.set(id, Object.assign(old || {}, {
        target: e.target, distance_m: e.distance_m, bearing_deg: e.bearing_deg, tier: e.tier, tier_name: e.tier_name,
        trend: e.trend, eta_s: e.eta_s, etaAt: Date.now(), fix: friend ? (old ? old.fix : -Infinity) : fix, seq: e.seq
      }));
    } else hc.refused.events++;
  } else if (cls === "ARRIVED" || cls === "DEPARTED") {
    const name = e.target.name || e.target.id;
    hc.passages.push({ cls: cls, seq: e.seq, id: e.target.id, name: name, time: e.time, text: cls + " " + name + " · " + fmtTime(e.time), t: Date.now(), live: live });
    if (hc.passages.length > 500) hc.passages.splice(0, 100);
    const t = hc.targets.get(e.target.id);
    if (t && live && (t.seq || 0) < e.seq) t.arrived = cls === "ARRIVED";
    if (isPlace({ target: e.target })) hc.places.delete(e.target.id);   // its visits changed
  }
  render();
}
