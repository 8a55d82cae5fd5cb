// @ts-check
// Lists read from the daemon a page at a time, and rows kept per key (updated in place, never
// rebuilt).

import { $, setText } from "./model.js";
import { openSheet } from "./sheet.js";
import { post, why } from "./writes.js";

// ---- Lists read from the daemon a page at a time ----------------------------------------------
// Bounded (50 a page, 500 at most) and honest: only the newest question's answer is shown, an
// older one that arrives later is dropped.
export const PAGE = 50, MAX_ROWS = 500;
/**
 * @typedef {{rows: any[], more: boolean, asked: boolean, loading: boolean, error: string | null, token: number, query: any}} Paged
 * @param {Paged} t
 * @param {any} q the request for the first page (without offset and limit), or a sentence why none can be asked
 * @param {boolean} more
 * @param {() => void} draw
 */
export async function page(t, q, more, draw) {
  t.asked = true;
  if (typeof q === "string") { t.rows = []; t.more = false; t.error = q; t.token++; t.loading = false; draw(); return; }
  const token = ++t.token;
  t.loading = true;
  draw();
  const { status, j } = await post("/api/read", Object.assign({ limit: PAGE, offset: more ? t.rows.length : 0 }, q));
  if (token !== t.token) return;
  t.loading = false;
  if (status === 200 && j && Array.isArray(j.result)) {
    t.rows = more ? t.rows.concat(j.result) : j.result;
    t.more = !!j.more && t.rows.length < MAX_ROWS;
    t.error = null;
    t.query = q;
  } else t.error = why(status, j, "reading the list").text;
  draw();
}

/**
 * Draws a paged list's rows (kept per id, updated in place) and its "Show 50 more" button.
 * @param {Paged} t
 * @param {string} listId
 * @param {(r: any) => string} line the row's second line
 * @param {(more: boolean) => void} again
 */
export function drawRows(t, listId, line, again) {
  const ul = $(listId), cache = rowsOf(listId);
  const keep = new Set();
  let prev = null;
  for (const r of t.rows) {
    const id = r.place.id;
    let li = cache.get(id);
    if (!li) {
      li = document.createElement("li");
      li.append(document.createElement("span"), document.createElement("span"));
      li.addEventListener("click", () => openSheet(id, r.place.name));
      cache.set(id, li);
    }
    li.dataset.id = id;
    setText(/** @type {HTMLElement} */ (li.firstChild), r.place.name);
    setText(/** @type {HTMLElement} */ (li.lastChild), line(r));
    const at = prev ? prev.nextSibling : ul.firstChild;
    if (at !== li) ul.insertBefore(li, at);
    prev = li;
    keep.add(id);
  }
  for (const [id, li] of cache) if (!keep.has(id)) { li.remove(); cache.delete(id); }
  let more = /** @type {HTMLButtonElement | null} */ (ul.querySelector(".more"));
  if (t.more && !more) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "more";
    b.addEventListener("click", () => again(true));
    more = b;
  }
  if (more) {
    if (t.more) { setText(more, "Show " + PAGE + " more"); ul.appendChild(more); } else more.remove();
  }
}
/** @type {Map<string, Map<string, HTMLLIElement>>} */
const rowCaches = new Map();
export function rowsOf(listId) { if (!rowCaches.has(listId)) rowCaches.set(listId, new Map()); return /** @type {Map<string, HTMLLIElement>} */ (rowCaches.get(listId)); }

// ---- Rows kept per key ------------------------------------------------------------------------
/**
 * Draws a list's rows in the items' order, each kept per key and updated in place (never
 * rebuilt: a tap that starts on a row and ends on its replacement would be lost). Handlers
 * look their item up by the row's key, so they act on what the row shows now.
 * @param {string} listId
 * @param {any[]} items
 * @param {(x: any) => string} key
 * @param {(li: HTMLLIElement) => void} make builds a new row's children and handlers
 * @param {(li: HTMLLIElement, x: any) => void} fill sets its text from the item, on every redraw
 */
export function keyedRows(listId, items, key, make, fill) {
  const ul = $(listId), cache = rowsOf(listId), keep = new Set();
  let prev = null;
  for (const x of items) {
    const id = key(x);
    let li = cache.get(id);
    if (!li) { li = document.createElement("li"); li.dataset.id = id; make(li); cache.set(id, li); }
    fill(li, x);
    const at = prev ? prev.nextSibling : ul.firstChild;
    if (at !== li) ul.insertBefore(li, at);
    prev = li;
    keep.add(id);
  }
  for (const [id, li] of cache) if (!keep.has(id)) { li.remove(); cache.delete(id); }
}
/** A row's parts, made once. @type {(li: HTMLElement, tags: string[]) => void} */
export function rowParts(li, tags) { for (const t of tags) { const e = document.createElement(t.split(".")[0]); e.className = t.split(".")[1] || ""; if (e instanceof HTMLButtonElement) e.type = "button"; li.appendChild(e); } }
/** The row's part of a class. @type {(li: HTMLElement, cls: string) => HTMLElement} */
export const part = (li, cls) => /** @type {HTMLElement} */ (li.querySelector("." + cls));
