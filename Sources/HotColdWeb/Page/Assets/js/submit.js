// @ts-check
// Submit: a new Big Thing for the catalogue, at the car's position or an address.

import { quoted } from "./format.js";
import { $, button, canWrite, freshFix, hc, setText, show } from "./model.js";
import { write } from "./writes.js";

// ---- Submit: a new Big Thing for the catalogue, at the car's position ------------------------
const PHOTO_MAX = 10 << 20;
function photoFile() { const fl = /** @type {HTMLInputElement} */ ($("u-photo")).files; return fl && fl.length ? fl[0] : null; }
/** The address typed instead of the car's position ("" for the car's position). */
function submitAddress() { return /** @type {HTMLInputElement} */ ($("u-address")).value.trim(); }
/** When it was seen: the time typed (the phone's own zone), else now; null for a time not yet come. */
function submitSeenAt() {
  const v = /** @type {HTMLInputElement} */ ($("u-when")).value;
  if (!v) return new Date();
  const d = new Date(v);
  return isNaN(d.getTime()) || d.getTime() > Date.now() + 60000 ? null : d;
}
/** One submission's idempotency key, and what the form held when it was made: every try of
 * the same submission (a retry after a lost reply, a second tap) carries the same key, so the
 * box stores it once. A new key once it is stored, or once the form says something else. */
let submitKey = "", submitKeyFor = "";
/** 128 random bits as hex (getRandomValues works on the page's plain http too). */
function newSubmitKey() {
  const b = new Uint8Array(16);
  crypto.getRandomValues(b);
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}
/** @param {string} what the form's content */
function keyFor(what) {
  if (!submitKey || submitKeyFor !== what) { submitKey = newSubmitKey(); submitKeyFor = what; }
  return submitKey;
}

export function renderSubmit() {
  const t = hc.submit, address = submitAddress(), f = address ? { lat: 0, lon: 0 } : freshFix(), name = /** @type {HTMLInputElement} */ ($("u-name")).value.trim();
  const seen = submitSeenAt();
  const b = button("u-send"), writer = !!(hc.session && hc.session.writer), photo = photoFile();
  const big = !!photo && photo.size > PHOTO_MAX, odd = !!photo && !["image/jpeg", "image/png", "image/webp"].includes(photo.type);
  setText($("u-photo-info"), !photo ? "" : big ? "This photo is " + (photo.size / 1048576).toFixed(1) + " MB: the box takes up to 10 MB." :
    odd ? "The box takes JPEG, PNG or WebP photos." : photo.name + ", " + (photo.size / 1048576).toFixed(1) + " MB");
  $("u-photo-info").className = big || odd ? "bad" : "";
  show(b, writer);
  setText(b, !f ? "Submitting needs a current GPS fix (or an address)" : !name ? "Type the Big Thing's name" :
    !seen ? "The time it was seen is still to come" :
    "Submit " + quoted(name) + (photo && !big && !odd ? " with its photo" : "") + (address ? " at " + address : " at the car's position"));
  b.disabled = !f || !name || !seen || !canWrite() || t.sending || big || odd;
  if (!writer) setText($("u-what"), "This device may not submit: it was not paired by a writer.");
  const r = t.result;
  setText($("u-result"), r ? r.text : "");
  $("u-result").className = r ? (r.ok ? "ok" : "bad") : "";
}
function sendSubmit() {
  const t = hc.submit, address = submitAddress(), f = freshFix(), name = /** @type {HTMLInputElement} */ ($("u-name")).value.trim();
  const by = /** @type {HTMLInputElement} */ ($("u-by")).value.trim(), seen = submitSeenAt();
  if ((!f && !address) || !name || !seen || t.sending) return;
  /** @type {any} */
  const req = address ? { cmd: "submit", name: name, address: address, seen_at: seen.toISOString() }
    : { cmd: "submit", name: name, lat: f.lat, lon: f.lon, seen_at: seen.toISOString() };
  if (by) req.by = by;
  const photo = photoFile();
  req.key = keyFor(JSON.stringify([name, address, by, /** @type {HTMLInputElement} */ ($("u-when")).value,
    photo ? [photo.name, photo.size, photo.lastModified, photo.type] : null]));
  // With a photo: the request in the address, the photo as the body, its own type (no form
  // of another site can send an image type without a preflight this page never grants).
  const send = photo ? async () => {
    try {
      const r = await fetch("/api/submit-photo?submit=" + encodeURIComponent(JSON.stringify(req)) + "&filename=" + encodeURIComponent(photo.name),
        { method: "POST", headers: { "Content-Type": photo.type }, body: photo, credentials: "same-origin" });
      let j = null;
      try { j = await r.json(); } catch (x) { j = null; }
      return { status: r.status, j: j };
    } catch (x) { return { status: 0, j: null }; }
  } : undefined;
  t.sending = true;
  write(req, "submitting " + quoted(name) + (photo ? " with its photo" : ""), (r) => "Queued " + quoted(r.result.name) + (r.result.photo_path ? " with its photo" : "") + " at "
    + (r.result.latitude != null ? r.result.latitude.toFixed(5) + ", " + r.result.longitude.toFixed(5) : r.result.address || address)
    + " for the Big Things catalogue: it goes with the box's next sync.",
  (res) => { t.result = res; }, send).then((r) => {
    t.sending = false;
    if (r) submitKey = "";
    if (r && /** @type {HTMLInputElement} */ ($("u-name")).value.trim() === name) {
      for (const id of ["u-name", "u-photo", "u-address", "u-when"]) /** @type {HTMLInputElement} */ ($(id)).value = "";
    }
    renderSubmit();
  });
}

/** The form. */
export function setupSubmit() {
  for (const id of ["u-name", "u-address", "u-when"]) $(id).addEventListener("input", renderSubmit);
  $("u-photo").addEventListener("change", renderSubmit);
  $("u-send").addEventListener("click", sendSubmit);
}
