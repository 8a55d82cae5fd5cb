// @ts-check
// Field observations: what was seen, newest first; add one at the car's fix; one opened.

import { approxDistance, fmtDist, fmtTime, quoted } from "./format.js";
import { keyedRows, MAX_ROWS, rowParts } from "./lists.js";
import { $, button, canWrite, freshFix, hc, lastFix, setText, show } from "./model.js";
import { deleteObs, renderObsEdit, saveObs } from "./observation.js";
import { post, why, write } from "./writes.js";

// ---- Field observations: what was seen, newest first; a note at the car's fix ----------------
export async function loadObs() {
  const t = hc.obs, token = ++t.token;
  const { status, j } = await post("/api/read", { cmd: "observations" });
  if (token !== t.token) return;
  t.asked = true;
  if (status === 200 && j && Array.isArray(j.result)) {
    // The daemon lists them oldest first; the newest are what matters in the field.
    t.rows = j.result.slice().reverse().slice(0, MAX_ROWS);
    t.total = j.result.length;
    t.error = null;
  } else t.error = why(status, j, "reading the observations").text;
  renderObs();
}

function obsWhere(o) {
  if (o.latitude == null || o.longitude == null) return "";
  const f = lastFix();
  return o.latitude.toFixed(5) + ", " + o.longitude.toFixed(5) + (f ? " · " + fmtDist(approxDistance(f.lat, f.lon, o.latitude, o.longitude)) + " from the car" : "");
}

/** Each kind of living thing's icon, as text (an emoji: nothing to fetch, nothing to embed). */
const OBS_ICONS = /** @type {Record<string, string>} */ ({ amphibian: "🐸", bird: "🐦", fish: "🐟", insect: "🐞", mammal: "🦘", plant: "🌿", reptile: "🦎" });
function obsIcon(/** @type {string} */ kind) { return OBS_ICONS[kind] || "•"; }
export function renderObs() {
  const t = hc.obs;
  keyedRows("o-list", t.rows, (o) => o.id, (li) => {
    rowParts(li, ["span", "span"]);
    li.addEventListener("click", () => { hc.obsSheet = li.dataset.id || null; renderObsSheet(); });
  }, (li, o) => {
    setText(/** @type {HTMLElement} */ (li.firstChild), obsIcon(o.classification) + " " + o.title);
    setText(/** @type {HTMLElement} */ (li.lastChild), o.classification + " · " + fmtTime(o.observed_at) + (o.latitude != null ? " · " + fmtDist(lastFix() ? approxDistance(lastFix().lat, lastFix().lon, o.latitude, o.longitude) : NaN) : ""));
  });
  setText($("o-head"), t.error || (!t.asked ? "reading…" : !t.rows.length ? "No observations yet." :
    t.total + (t.total === 1 ? " observation" : " observations") + ", newest first" + (t.total > t.rows.length ? " (the newest " + t.rows.length + ")" : "")));
  $("o-head").className = t.error ? "bad" : "";
  const writer = !!(hc.session && hc.session.writer), f = freshFix();
  const kind = /** @type {HTMLSelectElement} */ ($("o-class")).value, title = /** @type {HTMLInputElement} */ ($("o-title")).value.trim();
  show($("o-add"), writer);
  const b = button("o-add-btn");
  setText(b, !f ? "Adding needs a current GPS fix" : !kind ? "Choose what kind it was" : !title ? "Type what it was" : "Add " + quoted(title) + " (" + kind + ") at the car's position");
  b.disabled = !f || !kind || !title || !canWrite() || t.sending;
  if (hc.obsResult && hc.obsResult.ok && Date.now() - hc.obsResult.at > 15000) hc.obsResult = null;
  const r = hc.obsResult;
  setText($("o-result"), r ? r.text : "");
  $("o-result").className = r ? (r.ok ? "ok" : "bad") : "";
  renderObsSheet();
}

function addObs() {
  const f = freshFix(), t = hc.obs;
  const kind = /** @type {HTMLSelectElement} */ ($("o-class")).value, title = /** @type {HTMLInputElement} */ ($("o-title")).value.trim();
  const desc = /** @type {HTMLTextAreaElement} */ ($("o-desc")).value.trim();
  if (!f || !kind || !title || t.sending) return;
  const lat = f.lat, lon = f.lon;
  /** @type {any} */
  const req = { cmd: "store", op: "observe", classification: kind, title: title, date: new Date().toISOString(), lat: lat, lon: lon };
  if (desc) req.description = desc;
  t.sending = true;
  write(req, "adding " + quoted(title), (r) => "Added " + quoted(title) + " (" + kind + ") at " + lat.toFixed(5) + ", " + lon.toFixed(5) + ", " + fmtTime(r.result.observed_at) + ".",
    (res) => { hc.obsResult = res; }).then((r) => {
    t.sending = false;
    if (r) {
      // Cleared only if nobody typed something else meanwhile.
      if (/** @type {HTMLInputElement} */ ($("o-title")).value.trim() === title) {
        /** @type {HTMLInputElement} */ ($("o-title")).value = "";
        /** @type {HTMLTextAreaElement} */ ($("o-desc")).value = "";
      }
      loadObs();
    }
    renderObs();
  });
}

function renderObsSheet() {
  const o = hc.obsSheet ? hc.obs.rows.find((x) => x.id === hc.obsSheet) : null;
  show($("o-sheet"), !!o);
  if (!o) return;
  setText($("o-name"), o.title);
  setText($("o-kind"), o.classification + (o.user ? " · recorded by " + o.user : ""));
  setText($("o-when"), "Seen " + fmtTime(o.observed_at));
  setText($("o-where"), obsWhere(o) || "No position recorded");
  setText($("o-text"), o.description || "");
  renderObsEdit(o);
}

/** The add form, and the open observation's boxes and buttons. */
export function setupField() {
  for (const id of ["o-class", "o-title"]) $(id).addEventListener("input", renderObs);
  $("o-class").addEventListener("change", renderObs);
  $("o-add-btn").addEventListener("click", addObs);
  $("o-close").addEventListener("click", () => { hc.obsSheet = null; renderObsSheet(); });
  for (const id of ["o-etitle", "o-eclass", "o-edesc"]) $(id).addEventListener("input", () => { hc.obsEdit.result = null; renderObsSheet(); });
  $("o-save").addEventListener("click", saveObs);
  $("o-delete").addEventListener("click", () => { hc.obsEdit.confirm = true; renderObsSheet(); $("o-confirm").scrollIntoView({ block: "nearest" }); });
  $("o-confirm-no").addEventListener("click", () => { hc.obsEdit.confirm = false; renderObsSheet(); });
  $("o-confirm-yes").addEventListener("click", deleteObs);
}
