// @ts-check
// Start-up: the page's entry module (index.html loads it). Wires the controls, asks for the
// session, follows the live stream (/events) and runs the loop once a second.

import { setupThings } from "./bigthings.js";
import { refreshCaches } from "./caches.js";
import { setupField } from "./field.js";
import { friendsChanged, setupFriends } from "./friends.js";
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

function connect() {
  const es = new EventSource("/events");
  // Back after a break: what changed meanwhile among friends may be past what the replay holds.
  es.onopen = () => { hc.sse = true; hc.opens++; hc.newTimeline = false; if (hc.opens > 1) friendsChanged("reconnected"); render(); };
  es.onerror = () => { hc.sse = false; hc.link = null; render(); };
  for (const cls of ["PROXIMITY", "ARRIVED", "DEPARTED", "GPS"]) {
    es.addEventListener(cls, (m) => { try { takeEvent(cls, JSON.parse(m.data)); } catch (x) { console.warn(x); } });
  }
  es.addEventListener("friends", (m) => { try { friendsChanged(String(JSON.parse(m.data).class)); } catch (x) { console.warn(x); } });
  es.addEventListener("status", (m) => { try { takeStatus(JSON.parse(m.data)); } catch (x) { console.warn(x); } });
  es.addEventListener("link", (m) => {
    const l = JSON.parse(m.data);
    // Back after the daemon was gone: it may have restarted, with a receiver whose clock is
    // behind the last one's; its next STATUS starts the page's timeline afresh.
    if (l.up && hc.link && !hc.link.up) hc.newTimeline = true;
    hc.link = l;
    render();
  });
  es.addEventListener("gap", (m) => { hc.gaps.push(JSON.parse(m.data)); });
}

async function session() {
  try {
    const r = await fetch("/session", { credentials: "same-origin" });
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
