// @ts-check
// Whether what the page shows is current: the GPS and link pills, and the OLD DATA banner with
// its reason ("box busy, retrying…" while the box refuses the page for now).

import { ago } from "./format.js";
import { $, fixAge, hc, QUIET_S, setText, show, STALE_S } from "./model.js";

// Why the page is waiting on the box and will ask again by itself (the box refused it for now:
// too many requests, its live slots taken, a 5xx), by what it waits for: shown until it answers.
/** @type {Map<string, string>} */
const waiting = new Map();

/** @param {string} what @param {string | null} text */
export function setBusy(what, text) {
  if (text) waiting.set(what, text); else waiting.delete(what);
}

/** @returns {string | null} */
function busy() {
  for (const text of waiting.values()) return text;
  return null;
}

function stale() {
  const b = busy();
  if (b) return b;
  if (!hc.sse) return "this page lost its connection to the box; reconnecting…";
  if (hc.link && !hc.link.up) return "the box's tracker (hotcoldd) is not answering; retrying…";
  if (!hc.status) return "waiting for the box…";
  const quiet = (Date.now() - hc.statusAt) / 1000;
  if (quiet > QUIET_S) return "no update from the box for " + Math.round(quiet) + " s";
  const s = hc.status.gps, age = fixAge();
  if (!s || s.state === "lost") return "the GPS receiver is not connected";
  if (age == null) return "no GPS fix yet";
  if (s.state !== "fix" || age > STALE_S) return "last fix " + Math.round(age) + " s ago";
  return null;
}

export function renderBar() {
  const s = hc.status, age = fixAge(), el = $("gps");
  let text = "GPS …", ok = false;
  if (s && s.gps) {
    const f = s.gps.last_fix, st = s.gps.state;
    const m = f ? (f.mode >= 3 ? "3D" : f.mode === 2 ? "2D" : "no fix") : "no fix";
    text = st === "fix" ? "GPS " + m : "GPS " + st;
    if (f && f.accuracy_m != null && st === "fix") text += " ±" + Math.round(f.accuracy_m) + " m";
    if (age != null) text += " · " + ago(Math.max(0, age));
    ok = st === "fix" && age != null && age <= STALE_S;
  }
  setText(el, text);
  el.className = "pill " + (ok ? "ok" : "bad");
  const l = $("link");
  if (busy()) { setText(l, "box busy, retrying…"); l.className = "pill bad"; }
  else if (!hc.sse) { setText(l, "offline"); l.className = "pill bad"; }
  else if (!hc.link) { setText(l, "connecting…"); l.className = "pill"; }
  else { setText(l, hc.link.up ? "live" : "tracker gone"); l.className = "pill " + (hc.link.up ? "ok" : "bad"); }
}

export function renderStale() {
  const reason = stale();
  document.body.classList.toggle("stale", !!reason);
  for (const id of ["banner", "s-banner"]) {
    show($(id), !!reason);
    if (reason) setText($(id), "OLD DATA — " + reason);
  }
}
