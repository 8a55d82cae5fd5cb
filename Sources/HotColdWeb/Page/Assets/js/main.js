// @ts-check
// Start-up: the page's entry module (index.html loads it). Wires the controls, asks for the
// session, follows the live stream (/events) and runs the loop once a second; a box that
// refuses it for now is asked again (see "Start-up that never hangs").

import { setupThings } from "./bigthings.js";
import { refreshCaches } from "./caches.js";
import { setupField } from "./field.js";
import { friendsChanged, setupFriends } from "./friends.js";
import { setBusy } from "./health.js";
import { takeEvent, takeStatus } from "./live.js";
import { setupLongPress } from "./longpress.js";
import { setupMine } from "./mine.js";
import { $, hc, setText } from "./model.js";
import { loadNearMe } from "./nearme.js";
import { loadNear } from "./reads.js";
import { render, route, setupPicker } from "./screens.js";
import { setupSheet } from "./sheet-actions.js";
import { setupSubmit } from "./submit.js";
import { setupWrites } from "./writes.js";

// ---- Start-up that never hangs ---------------------------------------------------------------
// The box may refuse the page for a moment (429: too many requests from this address; 503: its
// live slots taken; another 5xx): the page then says "box busy, retrying…" and asks again by
// itself, after 1, 2, 4 … 30 s (each wait drawn between half and all of that, so two screens
// do not ask in step).
/** @param {number} tries */
function backoff(tries) {
  const top = Math.min(30000, 1000 * 2 ** Math.min(tries, 5));
  return top / 2 + Math.random() * top / 2;
}

/** @param {number} status */
function refusedForNow(status) { return status === 429 || status >= 500; }

// The live stream's name (its first frame) and when the page last said it reads it: the box cuts
// a stream nobody reads within seconds, so the page says so every two seconds while frames come.
/** @type {string | null} */
let streamID = null;
let saidAt = -Infinity, streamTries = 0;
/** @type {EventSource | null} */
let es = null;

function reading() {
  const now = performance.now();
  if (!streamID || now - saidAt < 2000) return;
  saidAt = now;
  fetch("/events/read?stream=" + encodeURIComponent(streamID), { method: "POST", credentials: "same-origin" }).catch(() => {});
}

function connect() {
  const stream = new EventSource("/events");
  es = stream;
  // Back after a break: what changed meanwhile among friends may be past what the replay holds.
  stream.onopen = () => {
    hc.sse = true; hc.opens++; hc.newTimeline = false; streamTries = 0; setBusy("stream", null);
    if (hc.opens > 1) friendsChanged("reconnected");
    render();
  };
  stream.onerror = () => {
    hc.sse = false; hc.link = null; streamID = null;
    // A refusal (any answer but 200) closes an EventSource for good: open another later.
    if (stream.readyState === EventSource.CLOSED && es === stream) {
      es = null;
      setBusy("stream", "box busy, retrying…");
      setTimeout(connect, backoff(streamTries++));
    }
    render();
  };
  stream.addEventListener("stream", (m) => {
    try { streamID = String(JSON.parse(m.data).id); saidAt = -Infinity; reading(); } catch (x) { console.warn(x); }
  });
  for (const cls of ["PROXIMITY", "ARRIVED", "DEPARTED", "GPS"]) {
    stream.addEventListener(cls, (m) => { reading(); try { takeEvent(cls, JSON.parse(m.data)); } catch (x) { console.warn(x); } });
  }
  stream.addEventListener("friends", (m) => { reading(); try { friendsChanged(String(JSON.parse(m.data).class)); } catch (x) { console.warn(x); } });
  stream.addEventListener("status", (m) => { reading(); try { takeStatus(JSON.parse(m.data)); } catch (x) { console.warn(x); } });
  stream.addEventListener("link", (m) => {
    reading();
    const l = JSON.parse(m.data);
    // Back after the daemon was gone: it may have restarted, with a receiver whose clock is
    // behind the last one's; its next STATUS starts the page's timeline afresh.
    if (l.up && hc.link && !hc.link.up) hc.newTimeline = true;
    hc.link = l;
    render();
  });
  stream.addEventListener("gap", (m) => { hc.gaps.push(JSON.parse(m.data)); });
}

let sessionTries = 0;
async function session() {
  /** @type {Response | null} */
  let r = null;
  try { r = await fetch("/session", { credentials: "same-origin" }); } catch (x) { r = null; }
  if (!r || refusedForNow(r.status)) {
    setBusy("session", "box busy, retrying…");
    setTimeout(session, backoff(sessionTries++));
    render();
    return;
  }
  sessionTries = 0;
  setBusy("session", null);
  try {
    hc.session = await r.json();
    setText($("who"), hc.session.access === "paired" ? hc.session.device + (hc.session.writer ? "" : " · read-only") : "read-only");
  } catch (x) { hc.session = { access: "unknown", writer: false }; }
  render();
}

document.addEventListener("DOMContentLoaded", () => {
  if (localStorage.getItem("hc-theme") === "day") { document.body.classList.replace("night", "day"); setText($("theme"), "Night"); }
  $("theme").addEventListener("click", () => {
    const day = document.body.classList.contains("night");
    document.body.classList.toggle("night", !day); document.body.classList.toggle("day", day);
    setText($("theme"), day ? "Night" : "Day"); localStorage.setItem("hc-theme", day ? "day" : "night");
  });
  $("radar-mode").addEventListener("click", () => { hc.courseUp = !hc.courseUp; localStorage.setItem("hc-course-up", hc.courseUp ? "1" : "0"); render(); });
  // Each screen's controls, as before: Live's writes, the sheet, Big Things, My places, the
  // picker, the long press, Submit, Friends, Field (each element's handlers in their old order).
  setupWrites();
  setupSheet();
  setupThings();
  setupMine();
  setupPicker();
  setupLongPress();
  setupSubmit();
  setupFriends();
  setupField();
  session();
  connect();
  route();
  setInterval(() => { render(); loadNear(); if (hc.screen === "near") loadNearMe(false);
    if (hc.screen === "caches") refreshCaches();
  }, 1000);
  render();
});
window.addEventListener("resize", render);
window.addEventListener("hashchange", route);
