// @ts-check
// The place sheet: one place's seen, rating, note and catalogue entry, pinned to the place it
// was opened for (whatever has the focus meanwhile).

import { renderThings } from "./bigthings.js";
import { cacheFacts, paragraphs, plain, renderCaches, showParagraphs } from "./caches.js";
import { approxDistance, bearingTo, fmtDist, fmtTime, point } from "./format.js";
import { keyedRows, rowParts } from "./lists.js";
import { renderMine } from "./mine.js";
import { $, button, hc, lastFix, mode, setText, show } from "./model.js";
import { reloadPlace } from "./reads.js";
import { rate, renameBox, renderOwn } from "./sheet-actions.js";

/** The sheet's note box. @type {() => HTMLTextAreaElement} */
export const noteBox = () => /** @type {HTMLTextAreaElement} */ ($("s-note"));

// ---- The place sheet: one place's seen, rating and note, pinned to that place ---------------
// `name` null: only the id is known (a waypoint's cache); the sheet takes the place's own name
// once it is read.
export function openSheet(id, name) {
  hc.sheet = { id: id, name: name || id, provisional: !name, result: null };
  noteBox().value = hc.drafts.has(id) ? hc.drafts.get(id) : "";
  renameBox().value = hc.renames.get(id) || "";
  reloadPlace(id);
  renderSheet();
}
export function closeSheet() {
  const s = hc.sheet, p = s && hc.places.get(s.id);
  hc.sheet = null;
  // The list shows what the sheet changed (favourite, rating, seen) without asking again.
  for (const row of p && p.mine ? hc.things.rows.concat(hc.mine.rows, hc.caches.rows).filter((r) => r.place.id === s.id) : []) {
    row.favourite = p.mine.favourite;
    row.my_rating = p.mine.rating ? p.mine.rating.stars : undefined;
    row.seen = (p.mine.visits || []).length > 0;
  }
  renderThings();
  renderMine();
  renderCaches();
  renderSheet();
}
hc.openSheet = openSheet;

export function renderSheet() {
  const s = hc.sheet, el = $("sheet");
  show(el, !!s);
  document.body.classList.toggle("sheet-open", !!s);
  if (!s) return;
  const p = hc.places.get(s.id), m = p && p.mine;
  if (s.provisional && p && p.detail) { s.name = p.detail.place.name; s.provisional = false; }
  setText($("s-name"), s.name);
  const can = !!(hc.session && hc.session.writer && hc.sse && hc.link && hc.link.up);
  renderDetail(p && p.detail);
  // A cache's waypoint (its parking, a stage, the final) is one of its stages: it is rated,
  // favourited and noted with its cache, not as a place of its own.
  const stage = !!(p && p.detail && p.detail.waypoint);
  for (const id of ["s-fav-row", "s-rate-row", "s-note-label", "s-note", "s-note-row"]) show($(id), !stage);
  if (stage) {
    const w = p.detail.waypoint;
    setText($("s-seen"), "A stage of the cache " + w.parent_id + ": its rating, favourite and note are the cache's.");
    show($("s-seen-btn"), false);
  } else if (!m) {
    setText($("s-seen"), p && p.error ? "cannot read this place from the box" : "reading…");
    show($("s-seen-btn"), false);
    setText($("s-fav"), "");
    show($("s-fav-btn"), false);
    setText($("s-rating"), "");
  } else {
    setText($("s-fav"), m.favourite ? "♥ A favourite" : "Not a favourite");
    show($("s-fav-btn"), true);
    setText($("s-fav-btn"), m.favourite ? "Remove from favourites" : "Add to favourites");
    const visits = m.visits || [];
    // A cache is found, not seen: the button names the cache it marks.
    const cache = !!(p.detail && p.detail.geocache);
    setText($("s-seen"), visits.length ? (cache ? "Found " : "Seen ") + fmtTime(visits.map((v) => v.visited_at).sort().pop()) + (visits.length > 1 ? " (" + visits.length + " visits)" : "")
      : cache ? "Not found yet" : "Not seen yet");
    show($("s-seen-btn"), true);
    setText($("s-seen-btn"), cache ? (visits.length ? "Mark " + s.name + " not found" : "Mark " + s.name + " found") : visits.length ? "Mark not seen" : "Mark seen now");
    setText($("s-rating"), m.rating ? "Your rating: " + m.rating.stars + " of 5" : "Not rated");
    // The note box starts from the place's current note unless something was typed for it.
    if (!hc.drafts.has(s.id) && !s.filled) { noteBox().value = (m.note && m.note.text) || ""; s.filled = true; }
  }
  button("s-seen-btn").disabled = !can;
  button("s-fav-btn").disabled = !can;
  const g = p && p.detail && p.detail.geocache;
  show($("s-hint-row"), !!g);
  if (g) {
    show($("s-hint-btn"), !!g.hint && !s.hint);
    setText($("s-hint-btn"), "Show the hint for " + g.code);
    setText($("s-hint"), !g.hint ? "No hint for this cache." : s.hint ? "Hint: " + g.hint : "The hint is hidden.");
  }
  // Hunt this place: hidden when it is the whole hunt already (nothing to do).
  const tr = hc.status && hc.status.targets, writer = !!(hc.session && hc.session.writer);
  const alone = mode() === "hunt" && !!tr && tr.length === 1 && tr[0].target.id === s.id;
  show($("s-hunt"), writer && !!(p && p.detail) && !alone);
  // A place that is gone is never offered as if it stood: the button says so.
  const why = goneWhy(p && p.detail);
  setText($("s-hunt"), (mode() === "hunt" ? "Hunt only " : "Hunt ") + s.name + (why ? " (gone: " + why + ")" : ""));
  button("s-hunt").disabled = !can;
  renderOwn(s, p, can);
  // Rating 0 stars says so: it is a rating friends see, not the rating's removal.
  show($("s-unrate"), !!(m && !(m.rating && m.rating.stars === 0)));
  button("s-unrate").disabled = !can;
  const stars = $("s-stars");
  if (!stars.childNodes.length) {
    for (let i = 1; i <= 5; i++) {
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.stars = String(i);
      b.setAttribute("aria-label", "rate " + i + " of 5");
      b.addEventListener("click", () => rate(i));
      stars.appendChild(b);
    }
  }
  const current = m && m.rating ? m.rating.stars : 0;
  for (const b of stars.querySelectorAll("button")) { setText(b, Number(b.dataset.stars) <= current ? "★" : "☆"); b.disabled = !can || !m; }
  const text = noteBox().value, old = (m && m.note && m.note.text) || "";
  setText($("s-save"), text === "" && old ? "Remove the note on " + s.name : "Save the note on " + s.name);
  button("s-save").disabled = !can || !m || text === old;
  setText($("s-count"), text.length + "/500");
  const r = s.result;
  setText($("s-result"), r ? r.text : "");
  $("s-result").className = r ? (r.ok ? "ok" : "bad") : "";
}

/** Why a place is gone (withdrawn, demolished, archived, …), or null while it stands. */
export function goneWhy(d) {
  if (!d || !d.place || d.place.active) return null;
  const b = d.big_thing, g = d.geocache;
  if (b && b.withdrawn) return "withdrawn";
  if (b && b.status) return String(b.status).toLowerCase();
  if (g) return g.archived ? "archived" : "disabled";
  return "gone";
}

// What the catalogue says about a place: where, its rating and votes, what it is, tags, photo;
// a cache's whole listing (short and long description, its link).
function renderDetail(d) {
  const place = d && d.place, b = d && d.big_thing;
  const f = lastFix();
  let where = b ? [b.town, b.state].filter(Boolean).join(", ") : "";
  if (place && f) where += (where ? " · " : "") + fmtDist(approxDistance(f.lat, f.lon, place.latitude, place.longitude)) + " away";
  const loc = d && d.location;
  if (loc && loc.created_by) where = "Added by " + loc.created_by + (loc.created_at ? " on " + fmtTime(loc.created_at) : "") + (where ? " · " + where : "");
  const why = goneWhy(d);
  if (why) where += (where ? " · " : "") + "gone (" + why + ")";
  setText($("s-where"), where);
  const cat = [];
  if (b && b.rating != null) cat.push("Rated " + b.rating.toFixed(1) + " of 5 by " + (b.votes || 0) + (b.votes === 1 ? " vote" : " votes"));
  if (b && b.status) cat.push(b.status);
  if (b && b.year) cat.push("since " + b.year);
  if (b && b.coord_precision === "town") cat.push("position: the town, not the thing");
  const g = d && d.geocache, w = d && d.waypoint;
  if (g) cat.push(cacheFacts(g));
  if (w) cat.push((w.waypoint_type || "waypoint") + " of " + w.parent_id);
  setText($("s-cat"), cat.join(" · "));
  // A cache's hint is not here: it stays hidden until asked for (renderSheet).
  setText($("s-desc"), (b && b.description) || (g ? plain(g.short_description, g.description_is_html) : "")
    || (w ? [w.description, w.comment].filter((x) => x && x !== place.name).join(" — ") : ""));
  showParagraphs($("s-long"), g ? paragraphs(g.long_description, g.description_is_html) : []);
  const link = /** @type {HTMLAnchorElement} */ ($("s-link"));
  const listing = g && g.url && /^https?:\/\//i.test(g.url) ? g.url : "";
  show(link, !!listing);
  if (listing) {
    if (link.href !== listing) link.href = listing;
    let host = "";
    try { host = new URL(listing).host; } catch (e) { host = ""; }
    setText(link, "The listing of " + g.code + (host ? " on " + host : "") + " (opens another site)");
  }
  renderWaypoints(d);
  const tags = b ? (b.tags || []).concat(b.category ? [b.category] : []) : [];
  setText($("s-tags"), tags.length ? "Tags: " + tags.join(", ") : "");
  const photo = /** @type {HTMLAnchorElement} */ ($("s-photo"));
  const url = b && b.photo_url && /^https?:\/\//.test(b.photo_url) ? b.photo_url : "";
  show(photo, !!url);
  if (url && photo.href !== url) photo.href = url;
}

// A cache's own waypoints (parking, stages, the final), nearest first from the car, each opening
// its own page (where it can be hunted); a waypoint's page leads back to its cache.
function renderWaypoints(d) {
  const w = d && d.waypoint, kids = (d && d.waypoints) || [], f = lastFix();
  show($("s-parent"), !!w);
  if (w) setText($("s-parent"), "Open its cache, " + w.parent_id);
  show($("s-wpts"), kids.length > 0);
  if (!kids.length) return;
  const far = (x) => f ? approxDistance(f.lat, f.lon, x.latitude, x.longitude) : 0;
  const rows = kids.slice().sort((a, b) => far(a) - far(b) || (a.id < b.id ? -1 : 1));
  setText($("s-wpts-head"), "Its " + kids.length + (kids.length === 1 ? " stage" : " stages") + " (parking, stages, the final)" + (f ? ", nearest first" : ""));
  keyedRows("s-wpts-list", rows, (x) => x.id, (li) => {
    rowParts(li, ["span", "span.sub"]);
    li.addEventListener("click", () => { const x = rows.find((r) => r.id === li.dataset.id); if (x) openSheet(x.id, x.name); });
  }, (li, x) => {
    setText(/** @type {HTMLElement} */ (li.firstChild), x.name);
    setText(/** @type {HTMLElement} */ (li.lastChild), [x.id, f ? fmtDist(far(x)) + " " + point(bearingTo(f, x.latitude, x.longitude)) : ""].filter(Boolean).join(" · "));
  });
}
