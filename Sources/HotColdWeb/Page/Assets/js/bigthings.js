// @ts-check
// Big Things: the catalogue, searched by name or town and state.

import { fmtDist } from "./format.js";
import { drawRows, MAX_ROWS, page } from "./lists.js";
import { $, hc, lastFix, setText } from "./model.js";

// ---- Big Things: the catalogue, searched by name or town and state ----------------------------
export function search(more) {
  const text = /** @type {HTMLInputElement} */ ($("t-text")).value.trim();
  const state = /** @type {HTMLSelectElement} */ ($("t-state")).value, sort = /** @type {HTMLSelectElement} */ ($("t-sort")).value;
  /** @type {any} */
  const q = { cmd: "search", kinds: ["bigthing"], sort: sort };
  if (text) q.text = text;
  if (state) q.state = state;
  const f = lastFix();
  if (f) { q.lat = f.lat; q.lon = f.lon; }
  return page(hc.things, sort === "distance" && !f ? "Sorting by distance needs a GPS fix." : q, more, renderThings);
}
hc.search = search;

export function renderThings() {
  const t = hc.things;
  drawRows(t, "t-list", (r) => {
    const bits = [[r.town, r.state].filter(Boolean).join(", ")];
    if (r.distance != null) bits.push(fmtDist(r.distance));
    if (r.my_rating) bits.push("your ★" + r.my_rating);
    else if (r.catalogue_rating != null) bits.push("★" + r.catalogue_rating.toFixed(1) + " (" + (r.catalogue_votes || 0) + ")");
    if (r.seen) bits.push("seen");
    if (r.favourite) bits.push("♥");
    if (!r.place.active) bits.push("gone");
    return bits.filter(Boolean).join(" · ");
  }, search);
  const sortName = { name: "by name", rating: "by rating", distance: "nearest first" }[t.query ? t.query.sort : "name"];
  setText($("t-head"), t.error ? t.error : t.loading && !t.rows.length ? "reading…" :
    !t.rows.length ? "No Big Thing matches." : t.rows.length + (t.more ? "+" : "") + (t.rows.length === 1 ? " Big Thing, " : " Big Things, ") + sortName
      + (t.rows.length >= MAX_ROWS && !t.more ? " (the first " + MAX_ROWS + ": search to narrow)" : ""));
  $("t-head").className = t.error ? "bad" : "";
}

/** The search boxes. */
export function setupThings() {
  let timer = 0;
  $("t-text").addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(() => search(false), 300); });
  for (const id of ["t-state", "t-sort"]) $(id).addEventListener("change", () => search(false));
}
