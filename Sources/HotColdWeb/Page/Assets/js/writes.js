// @ts-check
// Writes: sending a command to the box and wording its answer or refusal; Live's write buttons
// (hunt, add to the hunt, roam, open the sheet).

import { chooseFocus } from "./focus.js";
import { fmtDist } from "./format.js";
import { $, button, hc, isPlace, mode, nameOf, PLACE_KINDS, ROAM_M, setText, show } from "./model.js";
import { render } from "./screens.js";
import { openSheet } from "./sheet.js";

// ---- Writes -----------------------------------------------------------------------------------
// Every button names what it will do and to which place; the reply names what changed.
function huntIds() {
  if (mode() !== "hunt" || !hc.status) return null;
  const ids = (hc.status.targets || []).map((t) => t.target);
  // Only a hunt of stored places can be sent again with one more (a hand-given point has no
  // id to send back), and only when the STATUS listed all of it.
  if (hc.status.targets_more || ids.some((t) => !PLACE_KINDS.includes(t.kind))) return null;
  return ids.map((t) => t.id);
}

export function renderWrites(focus) {
  const w = $("writes"), writer = !!(hc.session && hc.session.writer);
  const can = writer && hc.sse && hc.link && hc.link.up && !!hc.status;
  const place = isPlace(focus), m = mode(), tracking = hc.status && hc.status.tracking, name = focus ? nameOf(focus) : "";
  const hunting = m === "hunt", ids = huntIds();
  const inHunt = place && hunting && (hc.status.targets || []).some((t) => t.target.id === focus.target.id);
  const huntOnly = place && (!hunting || (hc.status.tracking.tracked > 1) || !inHunt);
  const add = place && hunting && !inHunt && ids !== null;
  const roaming10 = m === "roam" && tracking.radius_m === ROAM_M;
  const label = (el, on, text, req) => {
    show(el, on);
    if (on) { setText(el, text); el.dataset.req = JSON.stringify(req); el.dataset.name = name; }
    /** @type {HTMLButtonElement} */ (el).disabled = !can;
  };
  label($("w-hunt"), huntOnly, (hunting ? "Hunt only " : "Hunt ") + name, { cmd: "hunt", targets: [focus && focus.target.id] });
  label($("w-add"), add, "Add " + name + " to the hunt", { cmd: "hunt", targets: (ids || []).concat(focus ? [focus.target.id] : []) });
  label($("w-roam"), writer && !!hc.status && !roaming10, "Roam " + fmtDist(ROAM_M), { cmd: "roam", radius: ROAM_M / 1000 + "km" });
  show($("w-open"), place);
  if (place) setText($("w-open"), "Rate, note, seen…");
  button("w-open").disabled = !can;
  show(w, writer && (huntOnly || add || !$("w-roam").hidden || place));
  const r = hc.result, out = $("w-result");
  // A reply fades after a while; an error about reaching the box goes when the box answers.
  if (r && r.ok && Date.now() - r.at > 15000) hc.result = null;
  setText(out, hc.result ? hc.result.text : "");
  out.className = hc.result ? (hc.result.ok ? "ok" : "bad") : "";
}

// What a refusal means to someone in the car (never the daemon's shell advice).
export function why(status, j, what) {
  const code = j && j.code;
  if (status === 0) return { text: "This page cannot reach the box: " + what + " was not done.", cause: "link" };
  if (code === "unreachable") return { text: "The box's tracker is not answering: " + what + " was not done.", cause: "link" };
  if (code === "rate" || status === 429) return { text: "Too many changes at once: " + what + " was not done. Wait a moment.", cause: "write" };
  if (code === "busy") return { text: "The box is busy: " + what + " was not done. Try again.", cause: "write" };
  if (code === "not_allowed") return { text: "This device may not change anything: " + what + " was not done.", cause: "write" };
  if (code === "not_found") return { text: "The box does not know this place: " + what + " was not done.", cause: "write" };
  const msg = (j && j.message || "refused").replace(/\s*\(?--[a-z-]+[^)]*\)?/g, "");
  return { text: what.charAt(0).toUpperCase() + what.slice(1) + " was not done: " + msg, cause: "write" };
}

export async function post(path, request) {
  try {
    const r = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(request), credentials: "same-origin" });
    let j = null;
    try { j = await r.json(); } catch (x) { j = null; }
    return { status: r.status, j: j };
  } catch (x) { return { status: 0, j: null }; }
}

// Sends one write; `what` names it ("hunting Big Banana"), `done` words the daemon's reply.
// `send` carries it when it is not a plain JSON command (a photo: sendSubmit).
export async function write(request, what, done, onto, send) {
  const entry = { request: request, what: what, t: Date.now() };
  hc.writes.push(entry);
  const set = (res) => { hc.result = res; if (onto) onto(res); render(); };
  set({ text: what.charAt(0).toUpperCase() + what.slice(1) + "…", ok: true, at: Date.now(), cause: "write" });
  const { status, j } = await (send ? send() : post("/api/command", request));
  let reply = null;
  if (j && j.ok && j.reply) { try { reply = JSON.parse(j.reply); } catch (x) { reply = null; } }
  entry.status = status; entry.reply = reply;
  if (reply) set({ text: done(reply), ok: true, at: Date.now(), cause: "write" });
  else {
    const res = Object.assign(why(status, j, what), { ok: false, at: Date.now() });
    set(res);
    if (res.cause === "link") probe(res);
  }
  return reply;
}

// After "cannot reach the box": ask the box something small every 2 s; once it answers, the
// error's cause is gone and so is the error (wherever it is shown).
function probe(res) {
  const timer = setInterval(async () => {
    const { status } = await post("/api/read", { cmd: "targets", limit: 1 });
    if (status !== 200) return;
    clearInterval(timer);
    if (hc.result === res) hc.result = null;
    if (hc.sheet && hc.sheet.result === res) hc.sheet.result = null;
    for (const id of [...hc.places.keys()]) if (hc.places.get(id).error) hc.places.delete(id);
    render();
  }, 2000);
}
hc.write = (request) => post("/api/command", request).then((x) => x.j);

export function trackingReply(reply, first) {
  const n = reply.targets;
  if (reply.mode === "roam") return "Roaming " + fmtDist(reply.radius_m) + ": " + n + (n === 1 ? " place" : " places") + " in range.";
  return first + " — hunting " + n + (n === 1 ? " target." : " targets.");
}

/** Live's write buttons. */
export function setupWrites() {
  $("w-hunt").addEventListener("click", () => {
    const req = JSON.parse($("w-hunt").dataset.req), name = $("w-hunt").dataset.name;
    write(req, "hunting " + name + " only", (r) => trackingReply(r, "Now hunting " + name + " only"));
  });
  $("w-add").addEventListener("click", () => {
    const req = JSON.parse($("w-add").dataset.req), name = $("w-add").dataset.name;
    write(req, "adding " + name + " to the hunt", (r) => trackingReply(r, "Added " + name));
  });
  $("w-roam").addEventListener("click", () => {
    write(JSON.parse($("w-roam").dataset.req), "roaming " + fmtDist(ROAM_M), (r) => trackingReply(r, "Roaming"));
  });
  $("w-open").addEventListener("click", () => { const t = chooseFocus(); if (isPlace(t)) openSheet(t.target.id, nameOf(t)); });
}
