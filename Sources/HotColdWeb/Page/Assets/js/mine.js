// @ts-check
// My places: the places this box's users added, nearest first; add one where the car is.

import { fmtDist } from "./format.js";
import { drawRows, page } from "./lists.js";
import { $, button, fixAge, hc, lastFix, setText, show, STALE_S } from "./model.js";
import { write } from "./writes.js";

// ---- My places: the places this box's users added, nearest first; add where the car is -------
export function searchMine(more) {
  const f = lastFix();
  /** @type {any} */
  const q = { cmd: "search", kinds: ["location"], sort: f ? "distance" : "name" };
  if (f) { q.lat = f.lat; q.lon = f.lon; }
  return page(hc.mine, q, more, renderMine);
}

export function renderMine() {
  const t = hc.mine;
  drawRows(t, "m-list", (r) => (r.distance != null ? fmtDist(r.distance) : "") + (r.seen ? " · seen" : "") + (r.favourite ? " · ♥" : ""), searchMine);
  setText($("m-head"), t.error ? t.error : t.loading && !t.rows.length ? "reading…" : !t.rows.length ? "No places of your own yet." :
    t.rows.length + (t.more ? "+" : "") + (t.rows.length === 1 ? " place, " : " places, ") + (t.query && t.query.sort === "distance" ? "nearest first" : "by name (no GPS fix)"));
  $("m-head").className = t.error ? "bad" : "";
  const name = /** @type {HTMLInputElement} */ ($("m-name")).value.trim(), f = lastFix(), age = fixAge();
  const fresh = !!f && age != null && age <= STALE_S;
  const writer = !!(hc.session && hc.session.writer);
  show($("m-add"), writer);
  const b = button("m-add-btn");
  setText(b, !fresh ? "Adding needs a current GPS fix" : name ? "Add the car's position as “" + name + "”" : "Type a name to add the car's position");
  b.disabled = !fresh || !name || !hc.sse || !(hc.link && hc.link.up);
  const r = hc.mineResult;
  setText($("m-result"), r ? r.text : "");
  $("m-result").className = r ? (r.ok ? "ok" : "bad") : "";
}

function addMine() {
  const name = /** @type {HTMLInputElement} */ ($("m-name")).value.trim(), f = lastFix();
  if (!name || !f) return;
  const lat = f.lat, lon = f.lon;
  write({ cmd: "store", op: "add", name: name, lat: lat, lon: lon }, "adding “" + name + "”",
    () => "Added “" + name + "” at the car's position (" + lat.toFixed(5) + ", " + lon.toFixed(5) + ").",
    (res) => { hc.mineResult = res; }).then((r) => {
    if (r) { /** @type {HTMLInputElement} */ ($("m-name")).value = ""; searchMine(false); }
  });
}

/** The name box and the add button. */
export function setupMine() {
  $("m-name").addEventListener("input", renderMine);
  $("m-add-btn").addEventListener("click", addMine);
}
