// @ts-check
// What the place sheet's buttons do: seen, favourite, rating, note, hint, hunt, and a place of
// one's own renamed or deleted.

import { quoted } from "./format.js";
import { searchMine } from "./mine.js";
import { $, button, hc, mode, setText, show } from "./model.js";
import { reloadPlace } from "./reads.js";
import { closeSheet, noteBox, openSheet, renderSheet } from "./sheet.js";
import { trackingReply, write } from "./writes.js";

// A reply shown in the sheet only while it is still open for the place written to.
function sheetResult(id) { return (res) => { if (hc.sheet && hc.sheet.id === id) hc.sheet.result = res; }; }

export function rate(stars) {
  const s = hc.sheet;
  if (!s) return;
  const id = s.id, name = s.name;
  write({ cmd: "store", op: "rate", id: id, stars: stars }, "rating " + name + " " + stars + " of 5",
    () => "Rated " + name + " " + stars + " of 5.", sheetResult(id)).then(() => reloadPlace(id));
}

// ---- The sheet's own place: rename and delete (delete asks first, naming the place) ---------
export function renameBox() { return /** @type {HTMLInputElement} */ ($("s-rename")); }
export function renderOwn(s, p, can) {
  const loc = p && p.detail && p.detail.location, writer = !!(hc.session && hc.session.writer);
  const custom = !!loc && loc.origin === "custom";
  // Only its creator may change a place (the daemon's rule); say so rather than offer a button.
  const user = hc.session && hc.session.user;
  const mayChange = custom && writer && (!user || !loc.created_by || loc.created_by === user);
  show($("s-own"), mayChange);
  setText($("s-owner"), custom && writer && !mayChange ? "Only " + loc.created_by + ", who added it, may rename or delete it." : "");
  if (!mayChange) return;
  const cur = p.detail.place.name, box = renameBox();
  if (!hc.renames.has(s.id) && !s.renameFilled) { box.value = cur; s.renameFilled = true; }
  const nn = box.value.trim(), rb = button("s-rename-btn");
  setText(rb, nn && nn !== cur ? "Rename " + quoted(cur) + " to " + quoted(nn) : "Type a new name to rename " + quoted(cur));
  rb.disabled = !can || !nn || nn === cur;
  show($("s-delete"), !s.confirm);
  setText($("s-delete"), "Delete " + quoted(cur) + "…");
  button("s-delete").disabled = !can;
  show($("s-confirm"), !!s.confirm);
  setText($("s-confirm-q"), "Delete " + quoted(cur) + " from the box for good?");
  setText($("s-confirm-yes"), "Yes, delete " + quoted(cur));
  button("s-confirm-yes").disabled = !can;
  setText($("s-confirm-no"), "No, keep " + quoted(cur));
}

/** The sheet's buttons and boxes. */
export function setupSheet() {
  $("s-close").addEventListener("click", closeSheet);
  $("s-note").addEventListener("input", () => { if (hc.sheet) { hc.drafts.set(hc.sheet.id, noteBox().value); renderSheet(); } });
  $("s-save").addEventListener("click", () => {
    const s = hc.sheet;
    if (!s) return;
    // The note goes to the place the sheet was opened for, whatever has the focus now.
    const text = noteBox().value, id = s.id, name = s.name;
    write({ cmd: "store", op: "note", id: id, text: text }, text ? "saving the note on " + name : "removing the note on " + name,
      () => (text ? "Saved the note on " + name + "." : "Removed the note on " + name + "."), sheetResult(id))
      .then((r) => { if (r) { hc.drafts.delete(id); reloadPlace(id); } });
  });
  $("s-seen-btn").addEventListener("click", () => {
    const s = hc.sheet, p = s && hc.places.get(s.id);
    if (!p || !p.mine) return;
    const id = s.id, name = s.name, seen = (p.mine.visits || []).length > 0;
    const word = p.detail && p.detail.geocache ? "found" : "seen";
    if (!seen) write({ cmd: "store", op: "seen", id: id }, "marking " + name + " " + word, () => "Marked " + name + " " + word + ".", sheetResult(id)).then(() => reloadPlace(id));
    else write({ cmd: "store", op: "unseen", id: id }, "marking " + name + " not " + word, (r) => "Marked " + name + " not " + word + " (" + r.result + (r.result === 1 ? " visit" : " visits") + " removed).", sheetResult(id)).then(() => reloadPlace(id));
  });
  $("s-fav-btn").addEventListener("click", () => {
    const s = hc.sheet, p = s && hc.places.get(s.id);
    if (!p || !p.mine) return;
    const id = s.id, name = s.name, fav = p.mine.favourite;
    write({ cmd: "store", op: fav ? "unfav" : "fav", id: id }, fav ? "removing " + name + " from favourites" : "adding " + name + " to favourites",
      () => (fav ? "Removed " + name + " from favourites." : "Added " + name + " to favourites."), sheetResult(id)).then(() => reloadPlace(id));
  });
  $("s-unrate").addEventListener("click", () => rate(0));
  $("s-hint-btn").addEventListener("click", () => { if (hc.sheet) { hc.sheet.hint = true; renderSheet(); } });
  $("s-parent").addEventListener("click", () => {
    const p = hc.sheet && hc.places.get(hc.sheet.id), w = p && p.detail && p.detail.waypoint;
    if (w) openSheet(w.parent_id, null);
  });
  $("s-hunt").addEventListener("click", () => {
    const s = hc.sheet;
    if (!s) return;
    const id = s.id, name = s.name, only = mode() === "hunt";
    write({ cmd: "hunt", targets: [id] }, "hunting " + name + (only ? " only" : ""), (r) => trackingReply(r, "Now hunting " + name + (only ? " only" : "")), sheetResult(id));
  });
  $("s-rename").addEventListener("input", () => { if (hc.sheet) { hc.renames.set(hc.sheet.id, renameBox().value); renderSheet(); } });
  $("s-rename-btn").addEventListener("click", () => {
    const s = hc.sheet, p = s && hc.places.get(s.id);
    if (!s || !p || !p.detail) return;
    // The name goes to the place the sheet was opened for, whatever has the focus now.
    const id = s.id, cur = p.detail.place.name, name = renameBox().value.trim();
    if (!name || name === cur) return;
    write({ cmd: "store", op: "rename", id: id, name: name }, "renaming " + quoted(cur) + " to " + quoted(name),
      (r) => "Renamed " + quoted(cur) + " to " + quoted(r.result.name) + ".", sheetResult(id)).then((r) => {
      if (!r) return;
      hc.renames.delete(id);
      if (hc.sheet && hc.sheet.id === id) { hc.sheet.name = r.result.name; hc.sheet.renameFilled = false; }
      reloadPlace(id);
      searchMine(false);
    });
  });
  $("s-delete").addEventListener("click", () => {
    if (!hc.sheet) return;
    hc.sheet.confirm = true;
    renderSheet();
    // The question sits at the sheet's foot: bring it into view where the finger is.
    $("s-confirm").scrollIntoView({ block: "nearest" });
  });
  $("s-confirm-no").addEventListener("click", () => { if (hc.sheet) { hc.sheet.confirm = false; renderSheet(); } });
  $("s-confirm-yes").addEventListener("click", () => {
    const s = hc.sheet, p = s && hc.places.get(s.id);
    if (!s || !p || !p.detail) return;
    const id = s.id, cur = p.detail.place.name;
    write({ cmd: "store", op: "delete", id: id }, "deleting " + quoted(cur), (r) => "Deleted " + quoted(r.result.name) + ".",
      (res) => { hc.mineResult = res; sheetResult(id)(res); }).then((r) => {
      if (r) {
        if (hc.sheet && hc.sheet.id === id) closeSheet();
        hc.places.delete(id);
        hc.renames.delete(id);
        searchMine(false);
      } else if (hc.sheet && hc.sheet.id === id) { hc.sheet.confirm = false; renderSheet(); }
    });
  });
}
