// @ts-check
// Geocaches: the caches nearest the daemon's last fix, and how a cache's listing is shown.

import { approxDistance, bearingTo, fmtDist, point } from "./format.js";
import { drawRows, MAX_ROWS, PAGE, page } from "./lists.js";
import { $, hc, lastFix, setText } from "./model.js";

// ---- Geocaches: the caches nearest the daemon's last fix, found or not; each opens its page --
// The daemon's own `search` (nearest first from the fix the daemon reported, with this box's
// seen state: a cache seen is a cache found), a page of 50 at a time like Big Things. The
// first page is asked again once the car is 100 m from where it was last asked, at most every
// 15 s (a parked car asks nothing); pages beyond the first stay as they are.
export function searchCaches(more) {
  const f = lastFix(), t = hc.caches;
  t.at = Date.now();
  if (!more) t.from = f ? { lat: f.lat, lon: f.lon } : null;
  return page(t, f ? { cmd: "search", kinds: ["geocache"], sort: "distance", lat: f.lat, lon: f.lon }
    : "The geocaches are listed nearest first from the car: waiting for a GPS fix.", more, renderCaches);
}
export function refreshCaches() {
  const t = hc.caches, f = lastFix();
  if (t.loading || t.rows.length > PAGE || Date.now() - t.at <= 15000 || !f) return;
  if (!t.from || approxDistance(t.from.lat, t.from.lon, f.lat, f.lon) >= 100) searchCaches(false);
}

export function renderCaches() {
  const t = hc.caches, f = lastFix();
  drawRows(t, "c-list", (r) => [r.place.id, r.distance != null ? fmtDist(r.distance) + (f ? " " + point(bearingTo(f, r.place.latitude, r.place.longitude)) : "") : "",
    r.seen ? "found" : "", r.favourite ? "♥" : "", r.place.active ? "" : "gone"].filter(Boolean).join(" · "), searchCaches);
  setText($("c-head"), t.error || (!t.asked || (t.loading && !t.rows.length) ? "reading…" : !t.rows.length ? "No geocache is stored: import a GPX file on the box (hotcold import)." :
    t.rows.length + (t.more ? "+" : "") + (t.rows.length === 1 ? " geocache" : " geocaches") + ", nearest first from the car"
    + (t.rows.length >= MAX_ROWS && !t.more ? " (the nearest " + MAX_ROWS + ")" : "")));
  $("c-head").className = t.error ? "bad" : "";
}

// A cache listing's description as text: the listing may be HTML, read into an inert document
// (no script runs, nothing loads) only to take its words, as `hotcold show` strips it.
export function plain(s, html) {
  if (!s) return "";
  const text = html ? (new DOMParser().parseFromString(s, "text/html").body.textContent || "") : s;
  const t = text.replace(/\s+/g, " ").trim();
  return t.length > 600 ? t.slice(0, 600) + "…" : t;
}
// A listing's long description (where a multi-cache's stages are), in full up to LONG_MAX
// characters, as paragraphs of text: HTML is parsed into an inert document (no script runs,
// nothing loads) and only its words are taken, a block element starting a new paragraph and a
// list item a "• "; the paragraphs are new elements given text, never markup.
const LONG_MAX = 20000;
const BLOCKS = new Set(["P", "DIV", "BR", "LI", "TR", "TABLE", "UL", "OL", "H1", "H2", "H3", "H4", "H5", "H6", "HR",
  "BLOCKQUOTE", "PRE", "DL", "DT", "DD", "SECTION", "ARTICLE", "CENTER"]);
const SILENT = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "HEAD", "TITLE"]);
export function paragraphs(s, html) {
  if (!s) return [];
  let text = s;
  if (html) {
    // Depth first with a stack of its own (a listing nested thousands deep cannot overflow
    // the call stack); a string on the stack is what its element ends with.
    text = "";
    /** @type {(Node | string)[]} */
    const stack = [new DOMParser().parseFromString(s, "text/html").body];
    while (stack.length) {
      const n = /** @type {Node | string} */ (stack.pop());
      if (typeof n === "string") { text += n; continue; }
      if (n.nodeType === 3) { text += n.nodeValue; continue; }
      if (n.nodeType !== 1 || SILENT.has(n.nodeName)) continue;
      const block = BLOCKS.has(n.nodeName);
      if (block) { text += "\n" + (n.nodeName === "LI" ? "• " : ""); stack.push("\n"); }
      else if (n.nodeName === "TD" || n.nodeName === "TH" || n.nodeName === "IMG") text += " ";
      for (let c = n.lastChild; c; c = c.previousSibling) stack.push(c);
    }
  }
  const out = [];
  let left = LONG_MAX;
  for (const p of text.split(html ? /\n/ : /\n\s*\n/)) {
    const t = p.replace(/\s+/g, " ").trim();
    if (!t) continue;
    if (t.length > left) { out.push(t.slice(0, left) + "… (the rest: hotcold show on the box)"); break; }
    out.push(t);
    left -= t.length;
  }
  return out;
}
/** Fills `el` with the paragraphs, as text (kept as it is when they are the same). */
export function showParagraphs(el, list) {
  const now = [...el.children].map((p) => p.textContent);
  if (now.length === list.length && now.every((t, i) => t === list[i])) return;
  el.replaceChildren(...list.map((t) => { const p = document.createElement("p"); p.textContent = t; return p; }));
}
export function cacheFacts(g) {
  const n = (v) => (v == null ? "?" : String(Math.round(v * 10) / 10));
  return [g.cache_type || "geocache", g.container ? g.container + " container" : "", "D" + n(g.difficulty) + "/T" + n(g.terrain),
    g.archived ? "archived" : g.available ? "available" : "disabled", g.owner ? "by " + g.owner : ""].filter(Boolean).join(" · ");
}
