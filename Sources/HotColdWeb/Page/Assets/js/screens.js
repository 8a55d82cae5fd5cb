// @ts-check
// The loop and the screens: render() redraws what is shown; route() shows the screen the
// address's #fragment names; the About screen.

import { search } from "./bigthings.js";
import { renderCaches, searchCaches } from "./caches.js";
import { loadObs, renderObs } from "./field.js";
import { chooseFocus, renderFocus } from "./focus.js";
import { fmtDist, fmtTime, zone } from "./format.js";
import { loadFriends, renderFriends } from "./friends.js";
import { renderBar, renderStale } from "./health.js";
import { renderHere } from "./longpress.js";
import { renderMine, searchMine } from "./mine.js";
import { $, hc, setText, show } from "./model.js";
import { loadNearMe } from "./nearme.js";
import { renderRadar } from "./radar.js";
import { renderSheet } from "./sheet.js";
import { renderSubmit } from "./submit.js";
import { renderList, renderPassage } from "./targets.js";
import { renderWrites } from "./writes.js";

// ---- The loop ---------------------------------------------------------------------------------
export function render() {
  hc.renders++;
  const focus = chooseFocus();
  renderFocus(); renderBar(); renderStale(); renderRadar(focus); renderList(focus); renderPassage(); renderWrites(focus); renderSheet();
  renderAbout();
  if (hc.screen === "mine") renderMine();
  if (hc.screen === "caches") renderCaches();
  if (hc.screen === "friends") renderFriends();
  if (hc.screen === "obs") renderObs();
  if (hc.screen === "submit") renderSubmit();
  renderHere();
}

// ---- Screens: Live, Big Things, About (the address's #fragment) ------------------------------
const SCREENS = ["things", "near", "caches", "friends", "mine", "obs", "submit", "about"];
export function route() {
  const h = location.hash.replace(/^#/, "");
  hc.screen = SCREENS.includes(h) ? h : "live";
  show($("main"), hc.screen === "live");
  for (const x of SCREENS) show($(x), hc.screen === x);
  for (const x of ["live"].concat(SCREENS)) if (document.getElementById("n-" + x)) $("n-" + x).classList.toggle("current", hc.screen === x);
  /** @type {HTMLSelectElement} */ ($("n-pick")).value = hc.screen === "live" ? "" : hc.screen;
  if (hc.screen === "things" && !hc.things.asked) search(false);
  if (hc.screen === "mine") searchMine(false);
  if (hc.screen === "near") loadNearMe(true);
  if (hc.screen === "caches") searchCaches(false);
  if (hc.screen === "friends") loadFriends();
  if (hc.screen === "obs") loadObs();
  render();
}

function renderAbout() {
  if (hc.screen !== "about") return;
  const s = hc.status, se = hc.session;
  setText($("a-box"), s ? "hotcoldd " + s.release + ", " + (s.tracking.mode === "hunt" ? "hunting " + s.tracking.tracked + (s.tracking.tracked === 1 ? " target" : " targets") :
    s.tracking.mode === "roam" ? "roaming " + fmtDist(s.tracking.radius_m) + " (" + s.tracking.tracked + " in range)" : s.tracking.mode) : "not connected");
  setText($("a-device"), !se ? "…" : se.access === "paired" ? "paired as " + se.device + (se.writer ? "; it may change the hunt and your places" : "; read-only") :
    "read-only: opened on the box itself (pair a phone with hotcold web pair)");
  setText($("a-zone"), "shown in the box's time zone" + (zone() ? ", " + zone() : "") + "; now " + fmtTime(new Date().toISOString()));
  setText($("a-net"), se && se.tile_url ? "Map tiles come from " + new URL(se.tile_url.replace(/[{}]/g, "")).origin + "; nothing else leaves the box." : "Nothing leaves the box: no map tiles are set.");
}

/** The screen picker (narrow screens). */
export function setupPicker() {
  $("n-pick").addEventListener("change", () => { location.hash = /** @type {HTMLSelectElement} */ ($("n-pick")).value; });
}
