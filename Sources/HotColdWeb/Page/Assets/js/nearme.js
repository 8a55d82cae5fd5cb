// @ts-check
// Near me: the places and friends around the car, as a list and (with map tiles) a map.

import { setFocus } from "./focus.js";
import { fmtDist, point } from "./format.js";
import { rowsOf } from "./lists.js";
import { $, course, hc, lastFix, PLACE_KINDS, setText, show } from "./model.js";
import { mapTileCache, niceRange, svg, tiles } from "./radar.js";
import { openSheet } from "./sheet.js";
import { post, why } from "./writes.js";

// ---- Near me: the places and friends around the car, nearest first ---------------------------
export async function loadNearMe(now) {
  const t = hc.nearMe;
  if (!lastFix()) { t.error = "Needs a GPS fix."; t.rows = []; renderNearMe(); return; }
  if (!now && Date.now() - t.at < 10000) return;
  t.at = Date.now();
  const token = ++t.token;
  const { status, j } = await post("/api/read", { cmd: "near", kinds: PLACE_KINDS.concat(["friend"]), limit: 30 });
  if (token !== t.token) return;
  if (status === 200 && j && Array.isArray(j.result)) { t.rows = j.result; t.error = null; } else t.error = why(status, j, "reading what is near").text;
  renderNearMe();
}

const KIND_NAMES = { bigthing: "Big Thing", geocache: "geocache", waypoint: "waypoint", location: "your place", friend: "friend", point: "point" };
function renderNearMe() {
  const t = hc.nearMe, ul = $("nr-list"), cache = rowsOf("nr-list");
  const keep = new Set();
  let prev = null;
  for (const r of t.rows) {
    const id = r.target.id;
    let li = cache.get(id);
    if (!li) {
      li = document.createElement("li");
      li.append(document.createElement("span"), document.createElement("span"));
      li.addEventListener("click", () => {
        if (r.target.kind === "friend") { setFocus(id); location.hash = ""; } else openSheet(id, r.target.name || id);
      });
      cache.set(id, li);
    }
    li.dataset.id = id;
    li.className = r.target.kind === "friend" ? "friend" : r.gone ? "gone" : "";
    setText(/** @type {HTMLElement} */ (li.firstChild), (r.target.kind === "friend" ? "◆ " : "") + (r.target.name || id));
    // A place that is gone is near all the same: listed, saying it is gone and why.
    setText(/** @type {HTMLElement} */ (li.lastChild), (KIND_NAMES[r.target.kind] || r.target.kind) + (r.gone ? " · gone (" + r.gone + ")" : "")
      + " · " + fmtDist(r.distance_m) + " " + point(r.bearing_deg));
    const at = prev ? prev.nextSibling : ul.firstChild;
    if (at !== li) ul.insertBefore(li, at);
    prev = li;
    keep.add(id);
  }
  for (const [id, li] of cache) if (!keep.has(id)) { li.remove(); cache.delete(id); }
  setText($("nr-head"), t.error || (!t.rows.length ? "Nothing near the car." : "The " + t.rows.length + " nearest, from the car's last fix (every 10 s)"));
  renderNearMap();
  $("nr-head").className = t.error ? "bad" : "";
}

// With map tiles set (`[page] tile_url`), Near me draws its places on the map, north up, the
// car at the centre; the range fits the farthest. Without tiles there is the list only (and
// the radar on Live).
function renderNearMap() {
  const t = hc.nearMe, f = lastFix(), on = !!(hc.session && hc.session.tile_url && f && !t.error && t.rows.length);
  show($("nr-map-box"), on);
  if (!on) return;
  const m = $("nr-map");
  while (m.firstChild) m.removeChild(m.firstChild);
  const range = hc.mapRange = niceRange(t.rows.reduce((x, r) => Math.max(x, r.distance_m || 0), 0) * 1.1 || 1000);
  tiles(m, f, range, 0, mapTileCache);
  svg("circle", { class: "ring", r: 100 }, m);
  svg("text", { class: "label", x: 4, y: -102 }, m).textContent = fmtDist(range);
  svg("path", { class: "car", d: "M0,-9 L6,7 L0,3 L-6,7 Z", transform: "rotate(" + (course() || 0) + ")" }, m);
  for (const r of t.rows) {
    const a = r.bearing_deg * Math.PI / 180, d = 100 * Math.min(1, r.distance_m / range);
    const friend = r.target.kind === "friend", x = d * Math.sin(a), y = -d * Math.cos(a);
    const dot = friend ? svg("rect", { class: "dot friend", x: -5, y: -5, width: 10, height: 10, transform: "translate(" + x.toFixed(1) + "," + y.toFixed(1) + ") rotate(45)" }, m)
      : svg("circle", { class: "dot", r: 6, cx: x.toFixed(1), cy: y.toFixed(1) }, m);
    dot.dataset.id = r.target.id;
    if (r.gone) dot.classList.add("gone");
    svg("title", {}, dot).textContent = (r.target.name || r.target.id) + (r.gone ? " (gone: " + r.gone + ")" : "") + " " + fmtDist(r.distance_m);
    dot.addEventListener("click", () => { if (friend) { setFocus(r.target.id); location.hash = ""; } else openSheet(r.target.id, r.target.name || r.target.id); });
  }
}
