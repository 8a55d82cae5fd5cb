// @ts-check
// The radar: blips around the car, its range, and the optional map tiles beneath it (also
// drawn under Near me's map).

import { setFocus } from "./focus.js";
import { fmtDist } from "./format.js";
import { $, course, hc, lastFix, nameOf, setText, show } from "./model.js";

function tierColour(tier) {
  if (tier == null) return "hsl(0,0%,55%)";
  const n = (hc.tiers || []).length || 8, x = n > 1 ? tier / (n - 1) : 0;
  return "hsl(" + (220 - 215 * x).toFixed(0) + ",90%,55%)";
}

const SVG = "http://www.w3.org/2000/svg";
export function svg(tag, attrs, parent) { const e = document.createElementNS(SVG, tag); for (const k in attrs) e.setAttribute(k, attrs[k]); parent.appendChild(e); return e; }

// The radar's range follows the focused target (it sits between 40 % and 100 % of the radius);
// targets beyond the range are drawn on the rim, hollow.
const STEPS = [50, 100, 200, 300, 500, 1000, 2000, 3000, 5000, 10000, 20000, 30000, 50000, 100000, 200000, 300000, 500000,
  1000000, 2000000, 3000000, 5000000, 10000000, 20000000];
export function niceRange(m) { for (const s of STEPS) if (m <= s) return s; return STEPS[STEPS.length - 1]; }
hc.radarRange = 1000;

// Blips (and the list's rows, targets.js) are kept per target and updated in place (never rebuilt
// on a redraw): a tap that starts on one and ends on its replacement would otherwise be lost.
const blipCache = new Map();

export function renderRadar(focus) {
  const r = $("radar");
  let bg = $("radar-bg"), blips = $("radar-blips");
  if (!bg) { bg = svg("g", { id: "radar-bg" }, r); blips = svg("g", { id: "radar-blips" }, r); }
  while (bg.firstChild) bg.removeChild(bg.firstChild);
  const list = [...hc.targets.values()].filter((t) => t.distance_m != null && t.bearing_deg != null);
  const far = list.reduce((m, t) => Math.max(m, t.distance_m), 0);
  const range = hc.radarRange = niceRange(focus && focus.distance_m != null ? focus.distance_m * 1.25 : (far * 1.05 || 1000));
  const c = course();
  const up = hc.courseUp && c != null ? c : 0;
  const f = lastFix();
  if (hc.session && hc.session.tile_url && f) tiles(bg, f, range, up);
  for (const k of [1, 0.5]) svg("circle", { class: "ring", r: 100 * k }, bg);
  svg("text", { class: "label", x: 4, y: -102 }, bg).textContent = fmtDist(range);
  svg("text", { class: "label", x: 4, y: -52 }, bg).textContent = fmtDist(range / 2);
  const n = svg("text", { class: "label", "text-anchor": "middle" }, bg);
  n.textContent = "N";
  const na = (-up) * Math.PI / 180;
  n.setAttribute("x", (92 * Math.sin(na)).toFixed(1)); n.setAttribute("y", (-92 * Math.cos(na) + 3).toFixed(1));
  const carRot = hc.courseUp ? 0 : (c != null ? c : 0);
  svg("path", { class: "car", d: "M0,-9 L6,7 L0,3 L-6,7 Z", transform: "rotate(" + carRot + ")" }, bg);
  for (const t of list) {
    const id = t.target.id, friend = t.target.kind === "friend";
    let b = blipCache.get(id);
    if (!b) {
      // Friends are diamonds, places circles.
      b = friend ? svg("rect", { x: -6, y: -6, width: 12, height: 12 }, blips) : svg("circle", { r: 7 }, blips);
      svg("title", {}, b);
      b.addEventListener("click", () => setFocus(id));
      blipCache.set(id, b);
    }
    const a = (t.bearing_deg - up) * Math.PI / 180, beyond = t.distance_m > range;
    const d = 100 * Math.min(1, t.distance_m / range);
    const x = (d * Math.sin(a)).toFixed(1), y = (-d * Math.cos(a)).toFixed(1);
    b.setAttribute("class", "blip" + (friend ? " friend" : "") + (focus === t ? " focus" : "") + (beyond ? " beyond" : "") + (t.stale ? " old" : ""));
    if (friend) b.setAttribute("transform", "translate(" + x + "," + y + ") rotate(45)");
    else { b.setAttribute("cx", x); b.setAttribute("cy", y); }
    b.dataset.r = d.toFixed(1);
    b.setAttribute(beyond ? "stroke" : "fill", tierColour(t.tier));
    b.setAttribute(beyond ? "fill" : "stroke", beyond ? "none" : "");
    setText(b.firstChild, nameOf(t) + (friend ? " (friend)" : "") + " " + fmtDist(t.distance_m) + " " + (t.tier_name || ""));
  }
  for (const [id, b] of blipCache) if (!hc.targets.has(id) || hc.targets.get(id).distance_m == null) { b.remove(); blipCache.delete(id); }
  show($("radar-mode"), list.length > 0);
  setText($("radar-mode"), hc.courseUp ? "Course up" : "North up");
}

// Optional map tiles (page.tile_url): the 3×3 Web Mercator tiles around the fix at the zoom
// whose tile spans about the radar's range, placed in radar units (100 = range).
export function tiles(r, f, range, up, cache = tileCache) {
  const lat = f.lat * Math.PI / 180, mPerPx0 = 156543.034 * Math.cos(lat);
  const z = Math.max(1, Math.min(18, Math.round(Math.log2(mPerPx0 * 256 / range))));
  const n = Math.pow(2, z), xf = (f.lon + 180) / 360 * n;
  const yf = (1 - Math.log(Math.tan(lat) + 1 / Math.cos(lat)) / Math.PI) / 2 * n;
  const tileM = mPerPx0 * 256 / n, unit = 100 * tileM / range;
  const g = svg("g", { transform: "rotate(" + (-up) + ")" }, r);
  if (cache.size > 64) cache.clear();
  for (let dx = -1; dx <= 1; dx++) {
    for (let dy = -1; dy <= 1; dy++) {
      const tx = Math.floor(xf) + dx, ty = Math.floor(yf) + dy;
      if (ty < 0 || ty >= n) continue;
      const url = hc.session.tile_url.replace("{z}", z).replace("{x}", ((tx % n) + n) % n).replace("{y}", ty);
      // The same element for the same tile on every redraw: asked for once, never again.
      let img = cache.get(url);
      if (!img) { img = document.createElementNS(SVG, "image"); img.setAttribute("href", url); img.setAttribute("opacity", "0.5"); cache.set(url, img); }
      img.setAttribute("x", ((tx - xf) * unit).toFixed(1)); img.setAttribute("y", ((ty - yf) * unit).toFixed(1));
      img.setAttribute("width", unit.toFixed(1)); img.setAttribute("height", unit.toFixed(1));
      g.appendChild(img);
    }
  }
}
// Near me's map keeps tiles of its own: one image element cannot sit in both pictures.
export const tileCache = new Map(), mapTileCache = new Map();
