// @ts-check
// Live's list of targets and friends, and the last arrival or departure.

import { setFocus } from "./focus.js";
import { ago, fmtDist, fmtTime } from "./format.js";
import { $, hc, mode, nameOf, setText } from "./model.js";

// List rows are kept per target and updated in place (never rebuilt on a redraw), as the
// radar's blips are: a tap that starts on one and ends on its replacement would otherwise be lost.
const rowCache = new Map();
/** Why a target or nearby place is gone (STATUS's and `near`'s `gone`), or undefined. */
const gone = (t) => /** @type {{gone?: string}} */ (t).gone;

// The list: every tracked target and friend, nearest first, then (while hunting) the places
// near the car that are not in the hunt — never one that is gone (it is no place to go to; a
// gone place hunted by its id says so). It scrolls; its head says how many there are.
export function renderList(focus) {
  const ul = $("targets");
  const tracked = [...hc.targets.values()].sort((a, b) => Number(a.distance_m == null) - Number(b.distance_m == null) || a.distance_m - b.distance_m);
  const near = mode() === "hunt" ? hc.near.filter((p) => !hc.targets.has(p.target.id) && !gone(p)) : [];
  const all = tracked.concat(near);
  const keep = new Set();
  let prev = null;
  for (const t of all) {
    const id = t.target.id, friend = t.target.kind === "friend", untracked = near.includes(t);
    let li = rowCache.get(id);
    if (!li) {
      li = document.createElement("li");
      li.append(document.createElement("span"), document.createElement("span"));
      li.addEventListener("click", () => setFocus(id));
      rowCache.set(id, li);
    }
    setText(li.firstChild, nameOf(t) + (friend ? " · friend" : untracked ? " · not hunted" : "") + (gone(t) ? " · gone (" + gone(t) + ")" : ""));
    const extra = friend && t.stale ? " · " + ago(t.age_s || 0) : "";
    setText(li.lastChild, fmtDist(t.distance_m) + (t.tier_name ? " · " + t.tier_name : "") + extra);
    li.className = (focus && focus.target.id === id ? "focus " : "") + (friend ? "friend " : "") + (untracked ? "untracked " : "") + (gone(t) ? "gone " : "") + (t.stale ? "old" : "");
    const at = prev ? prev.nextSibling : ul.firstChild;
    if (at !== li) ul.insertBefore(li, at);
    prev = li;
    keep.add(id);
  }
  for (const [id, li] of rowCache) if (!keep.has(id)) { li.remove(); rowCache.delete(id); }
  const friends = tracked.filter((t) => t.target.kind === "friend").length;
  const places = tracked.length - friends;
  const head = !all.length ? "" : places + (places === 1 ? " target" : " targets") + (friends ? ", " + friends + (friends === 1 ? " friend" : " friends") : "")
    + (near.length ? ", " + near.length + " nearby" : "") + " · nearest first";
  setText($("list-head"), head);
}

export function renderPassage() {
  let p = null;
  for (const x of hc.passages) if (!p || x.seq > p.seq) p = x;
  const el = $("passage");
  if (!p) { setText(el, "no arrival yet"); el.className = "data"; return; }
  setText(el, p.cls + " " + p.name + " · " + fmtTime(p.time));
  el.className = "data " + p.cls.toLowerCase();
}
