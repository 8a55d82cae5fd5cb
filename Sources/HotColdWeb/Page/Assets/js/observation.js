// @ts-check
// An observation's own: correct what, kind and notes; delete after a question naming it.

import { loadObs, renderObs } from "./field.js";
import { quoted } from "./format.js";
import { $, button, canWrite, hc, setText, show } from "./model.js";
import { write } from "./writes.js";

// ---- An observation's own: correct what, kind and notes; delete after a question naming it --
// Only its recorder may (the daemon's rule); a reader of every user's (root) sees others'.
function obsBoxes() {
  return { title: /** @type {HTMLInputElement} */ ($("o-etitle")), kind: /** @type {HTMLSelectElement} */ ($("o-eclass")),
    desc: /** @type {HTMLTextAreaElement} */ ($("o-edesc")) };
}
export function renderObsEdit(o) {
  const e = hc.obsEdit, user = hc.session && hc.session.user, writer = !!(hc.session && hc.session.writer);
  const mine = writer && (!o.user || !user || o.user === user);
  if (e.id !== o.id) { e.id = o.id; e.filled = false; e.confirm = false; e.result = null; }
  show($("o-own"), mine);
  const r = e.result;
  setText($("o-sresult"), r ? r.text : (writer && !mine ? "Only " + o.user + ", who recorded it, may change or delete it." : ""));
  $("o-sresult").className = r && !r.ok ? "bad" : "";
  if (!mine) return;
  const b = obsBoxes();
  if (!e.filled) { b.title.value = o.title; b.kind.value = o.classification; b.desc.value = o.description || ""; e.filled = true; }
  const title = b.title.value.trim(), kind = b.kind.value, desc = b.desc.value.trim();
  const changed = title !== o.title || kind !== o.classification || desc !== (o.description || "");
  const save = button("o-save"), can = canWrite() && !e.sending;
  setText(save, !title ? "Type what it was" : !changed ? "Change what it was, its kind or notes to save" : "Save " + quoted(title) + " (" + kind + ")");
  save.disabled = !can || !title || !changed;
  show($("o-delete"), !e.confirm);
  setText($("o-delete"), "Delete " + quoted(o.title) + "…");
  button("o-delete").disabled = !can;
  show($("o-confirm"), e.confirm);
  setText($("o-confirm-q"), "Delete " + quoted(o.title) + " for good?");
  setText($("o-confirm-yes"), "Yes, delete " + quoted(o.title));
  button("o-confirm-yes").disabled = !can;
  setText($("o-confirm-no"), "No, keep " + quoted(o.title));
}
function openObs() { return hc.obsSheet ? hc.obs.rows.find((x) => x.id === hc.obsSheet) : null; }
export function saveObs() {
  const o = openObs(), e = hc.obsEdit, b = obsBoxes();
  if (!o || e.sending) return;
  const title = b.title.value.trim(), kind = b.kind.value, desc = b.desc.value.trim();
  /** @type {any} */
  const req = { cmd: "store", op: "amend", id: o.id };
  if (title !== o.title) req.title = title;
  if (kind !== o.classification) req.classification = kind;
  if (desc !== (o.description || "")) req.description = desc;
  if (!title || Object.keys(req).length === 3) return;
  e.sending = true;
  write(req, "saving " + quoted(title), (r) => "Saved " + quoted(r.result.title) + " (" + r.result.classification + ").",
    (res) => { if (e.id === o.id) e.result = res; }).then((r) => {
    e.sending = false;
    if (r) {
      // The list holds the answer at once (the boxes now match it); a read confirms.
      const i = hc.obs.rows.findIndex((x) => x.id === o.id);
      if (i >= 0) hc.obs.rows[i] = r.result;
      loadObs();
    }
    renderObs();
  });
}
export function deleteObs() {
  const o = openObs(), e = hc.obsEdit;
  if (!o || e.sending) return;
  e.sending = true;
  write({ cmd: "store", op: "unobserve", id: o.id }, "deleting " + quoted(o.title), (r) => "Deleted " + quoted(r.result.title) + ".",
    (res) => { hc.obsResult = res; if (e.id === o.id) e.result = res; }).then((r) => {
    e.sending = false;
    e.confirm = false;
    if (r) {
      if (hc.obsSheet === o.id) hc.obsSheet = null;
      hc.obs.rows = hc.obs.rows.filter((x) => x.id !== o.id);
      loadObs();
    }
    renderObs();
  });
}
