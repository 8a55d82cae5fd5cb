// @ts-check
// The focused target: which one (chosen or tapped) and its big readout on Live, with this box's
// own record of it.

import { ago, fmtDist, fmtTime, norm180, point } from "./format.js";
import { $, course, hc, isPlace, lastFix, mode, nameOf, setText, show, SLOW } from "./model.js";
import { loadPlace } from "./reads.js";
import { render } from "./screens.js";

// ---- Focus ------------------------------------------------------------------------------------
export function chooseFocus() {
  if (hc.focus && hc.targets.has(hc.focus)) return hc.targets.get(hc.focus);
  if (hc.focus) { const n = hc.near.find((p) => p.target.id === hc.focus); if (n) return n; }
  const list = [...hc.targets.values()].filter((t) => t.target.kind !== "friend" && t.distance_m != null);
  if (!list.length) return null;
  list.sort((a, b) => a.distance_m - b.distance_m);
  if (mode() === "hunt") return list[0];
  const c = course();
  if (c != null) {
    const ahead = list.filter((t) => Math.abs(norm180(t.bearing_deg - c)) <= 90);
    if (ahead.length) return ahead[0];
  }
  return list[0];
}

export function setFocus(id) {
  hc.focus = id;
  localStorage.setItem("hc-focus", id);
  render();
}

// ---- Drawing ----------------------------------------------------------------------------------
export function renderFocus() {
  const t = chooseFocus();
  show($("f-arrow"), !!t && t.bearing_deg != null);
  if (!t) {
    setText($("f-name"), hc.status ? "no target tracked" : "waiting for the box…");
    $("f-name").className = "";
    setText($("f-dist"), "—"); setText($("f-tiername"), ""); setText($("f-trend"), ""); setText($("f-eta"), ""); setText($("f-dir"), "");
    setText($("f-mine"), "");
    $("gauge-fill").style.width = "0";
    return;
  }
  const name = nameOf(t) + (t.target.kind === "friend" ? " (friend)" : "");
  setText($("f-name"), name);
  $("f-name").className = name.length > 40 ? "longer" : name.length > 22 ? "long" : "";
  const d = fmtDist(t.distance_m);
  if ($("f-dist").textContent !== d) { $("f-dist").textContent = d; hc.updates.push({ t: Date.now(), text: d, id: t.target.id }); if (hc.updates.length > 5000) hc.updates.splice(0, 1000); }
  const tiers = hc.tiers || ["freezing","chilly","cold","cool","mild","warm","hot","burning"];
  $("gauge-fill").style.width = t.tier == null ? "0" : Math.round(100 * (t.tier + 1) / tiers.length) + "%";
  const tn = t.tier_name || "";
  if ($("f-tiername").textContent !== tn) { $("f-tiername").textContent = tn; hc.tierUpdates.push({ t: Date.now(), text: tn, id: t.target.id }); }
  const trendText = { hotter: "▲ hotter", colder: "▼ colder", steady: "■ steady", unknown: "? unknown" }[t.trend] || t.trend || "";
  setText($("f-trend"), trendText);
  $("f-trend").className = t.trend || "";
  let eta = "";
  if (t.trend === "hotter") {
    const f = lastFix();
    let s = (t.eta_s != null && Date.now() - t.etaAt < 15000) ? t.eta_s : null;
    if (s == null && f && f.speed_mps > SLOW) s = t.distance_m / f.speed_mps;
    if (s != null) eta = "ETA " + (s < 60 ? "<1" : Math.round(s / 60)) + " min";
  }
  setText($("f-eta"), eta);
  const c = course();
  let rot = 0, dir = "";
  if (t.bearing_deg != null && c != null) {
    const rel = norm180(t.bearing_deg - c);
    rot = rel;
    dir = Math.abs(rel) < 8 ? "straight ahead" : Math.round(Math.abs(rel)) + "° " + (rel > 0 ? "right" : "left");
  } else if (t.bearing_deg != null) {
    rot = t.bearing_deg;
    dir = point(t.bearing_deg) + " (" + Math.round(t.bearing_deg) + "°)";
  }
  if (t.target.kind === "friend" && t.age_s != null) dir += (dir ? " · " : "") + "heard " + ago(t.age_s) + (t.stale ? " (stale)" : "");
  $("f-arrow-shape").setAttribute("transform", "rotate(" + rot.toFixed(1) + ")");
  setText($("f-dir"), dir);
  setText($("f-mine"), isPlace(t) ? mineText(t.target.id) : "");
}

// This box's own record of a place (seen, rating, note), as the daemon has it.
function mineText(id) {
  const p = hc.places.get(id);
  if (!p) { loadPlace(id); return "…"; }
  // Changed elsewhere meanwhile (the command line, another phone)? Asked again every 30 s.
  if (Date.now() - p.at > 30000) loadPlace(id);
  if (p.error) return "";
  const m = p.mine || {};
  const parts = [];
  const visits = m.visits || [];
  parts.push(visits.length ? "seen " + fmtTime(visits.map((v) => v.visited_at).sort().pop()) : "not seen");
  // 0 stars is a rating (the lowest), as `hotcold rate` and friends' feeds have it.
  parts.push(m.rating ? "★".repeat(m.rating.stars) + "☆".repeat(5 - m.rating.stars) : "no rating");
  parts.push(m.note && m.note.text ? "“" + m.note.text + "”" : "no note");
  return parts.join(" · ");
}
