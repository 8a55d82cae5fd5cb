// @ts-check
// A long press on the radar or Near me's map: add a place of one's own there.

import { fmtDist, point, quoted } from "./format.js";
import { $, button, canWrite, course, freshFix, hc, setText, show } from "./model.js";
import { write } from "./writes.js";

// ---- A long press on the radar or the map: add a place of one's own there ------------------
// The point is measured from the fix the picture was drawn around, at the moment of the press,
// and kept as a latitude and longitude: the car driving on does not move it.
const PRESS_MS = 700;
function longPress(el, rangeOf, upOf) {
  /** @type {{x: number, y: number, timer: number} | null} */
  let press = null;
  const cancel = () => { if (press) { clearTimeout(press.timer); press = null; } };
  el.addEventListener("pointerdown", (ev) => {
    const e = /** @type {PointerEvent} */ (ev);
    cancel();
    if (!(hc.session && hc.session.writer) || !freshFix()) return;
    const x = e.clientX, y = e.clientY;
    press = { x: x, y: y, timer: setTimeout(() => { press = null; pressAt(/** @type {SVGSVGElement} */ (/** @type {unknown} */ (el)), x, y, rangeOf(), upOf()); }, PRESS_MS) };
  });
  el.addEventListener("pointermove", (ev) => {
    const e = /** @type {PointerEvent} */ (ev);
    if (press && Math.hypot(e.clientX - press.x, e.clientY - press.y) > 10) cancel();
  });
  for (const n of ["pointerup", "pointercancel", "pointerleave"]) el.addEventListener(n, cancel);
  el.addEventListener("contextmenu", (e) => e.preventDefault());
}
function pressAt(el, cx, cy, range, up) {
  const f = freshFix(), ctm = el.getScreenCTM();
  if (!f || !ctm) return;
  const p = new DOMPoint(cx, cy).matrixTransform(ctm.inverse());
  const m = Math.hypot(p.x, p.y) / 100 * range, deg = ((Math.atan2(p.x, -p.y) * 180 / Math.PI + up) % 360 + 360) % 360;
  // Spherical forward step: metres off at most for a point on the radar (the daemon measures
  // the place ellipsoidally from then on).
  const R = 6371008.8, d = m / R, b = deg * Math.PI / 180, la = f.lat * Math.PI / 180, lo = f.lon * Math.PI / 180;
  const la2 = Math.asin(Math.sin(la) * Math.cos(d) + Math.cos(la) * Math.sin(d) * Math.cos(b));
  const lo2 = lo + Math.atan2(Math.sin(b) * Math.sin(d) * Math.cos(la), Math.cos(d) - Math.sin(la) * Math.sin(la2));
  hc.here = { lat: la2 * 180 / Math.PI, lon: ((lo2 * 180 / Math.PI + 540) % 360) - 180, m: m, deg: deg };
  hc.hereResult = null;
  // A new spot starts with no name: a name belongs to the spot it was typed for.
  /** @type {HTMLInputElement} */ ($("h-name")).value = "";
  renderHere();
  $("h-name").focus();
}
export function renderHere() {
  const h = hc.here;
  show($("here"), !!h);
  if (!h) return;
  setText($("h-where"), "A place of your own " + fmtDist(h.m) + " " + point(h.deg) + " of the car (" + h.lat.toFixed(5) + ", " + h.lon.toFixed(5) + ")");
  const name = /** @type {HTMLInputElement} */ ($("h-name")).value.trim(), b = button("h-add");
  setText(b, name ? "Add " + quoted(name) + " there" : "Type a name to add it");
  b.disabled = !name || !canWrite();
  const r = hc.hereResult;
  setText($("h-result"), r ? r.text : "");
  $("h-result").className = r ? (r.ok ? "ok" : "bad") : "";
}
function addHere() {
  const h = hc.here, name = /** @type {HTMLInputElement} */ ($("h-name")).value.trim();
  if (!h || !name) return;
  write({ cmd: "store", op: "add", name: name, lat: h.lat, lon: h.lon }, "adding " + quoted(name),
    (r) => "Added " + quoted(r.result.name) + " at " + h.lat.toFixed(5) + ", " + h.lon.toFixed(5) + ".",
    (res) => { hc.hereResult = res; hc.mineResult = res; }).then((r) => {
    if (r && hc.here === h) { hc.here = null; /** @type {HTMLInputElement} */ ($("h-name")).value = ""; }
    renderHere();
  });
}

/** The radar, the map and the box that names the spot. */
export function setupLongPress() {
  longPress($("radar"), () => hc.radarRange, () => (hc.courseUp && course() != null ? /** @type {number} */ (course()) : 0));
  longPress($("nr-map"), () => hc.mapRange, () => 0);
  $("h-name").addEventListener("input", renderHere);
  $("h-add").addEventListener("click", addHere);
  $("h-cancel").addEventListener("click", () => { hc.here = null; /** @type {HTMLInputElement} */ ($("h-name")).value = ""; renderHere(); });
}
