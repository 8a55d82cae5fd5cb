// @ts-check
// The page's model and what every part of it shares: `hc` (the state the page shows, also
// `window.hotcold` for the browser tests and the benchmark), the constants, and the small helpers
// that read the model or the markup. Imports nothing, so it is evaluated before every module
// that uses it.

/** An element the page's markup (index.html) holds. @type {(id: string) => HTMLElement} */
export const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
/** A button of the markup. @type {(id: string) => HTMLButtonElement} */
export const button = (id) => /** @type {HTMLButtonElement} */ ($(id));
export const SLOW = 1.5, STALE_S = 5, QUIET_S = 4, ROAM_M = 10000;
export const PLACE_KINDS = ["bigthing", "geocache", "waypoint", "location"];
/**
 * The page's model, also `window.hotcold` for the browser tests and the benchmark.
 * @typedef {{target: {id: string, name?: string, kind: string}, distance_m?: number, bearing_deg?: number, tier?: number,
 *   tier_name?: string, trend?: string, eta_s?: number, etaAt?: number, arrived?: boolean, age_s?: number, stale?: boolean,
 *   fix?: number, seq?: number}} Target
 * @typedef {{text: string, ok: boolean, at: number, cause: string, holds?: () => boolean}} Result
 * @typedef {{id: string, name: string, result: Result | null, filled?: boolean, hint?: boolean, confirm?: boolean, renameFilled?: boolean, provisional?: boolean}} Sheet
 */
export const hc = {
  seqs: [], passages: [], updates: [], tierUpdates: [], opens: 0, targets: new Map(), status: null, statusAt: 0,
  stamp: null, link: null, sse: false, focus: localStorage.getItem("hc-focus"), tiers: null, session: null,
  courseUp: localStorage.getItem("hc-course-up") === "1", gaps: [],
  // Updates refused because the page already showed something newer (by seq and fix time).
  refused: { status: 0, events: 0 },
  /** @type {Map<string, any>} */ places: new Map(),
  /** @type {Map<string, string>} */ drafts: new Map(),
  /** @type {Sheet | null} */ sheet: null,
  /** @type {Target[]} */ near: [], nearAt: 0,
  /** @type {Result | null} */ result: null,
  /** @type {any[]} */ writes: [], newTimeline: true, renders: 0, radarRange: 1000,
  /** @type {(request: object) => Promise<any>} */ write: () => Promise.resolve(null),
  /** @type {(id: string, name: string) => void} */ openSheet: () => {},
  /** @type {(id: string) => Promise<void>} */ reloadPlace: () => Promise.resolve(),
  /** @type {(more: boolean) => Promise<void>} */ search: () => Promise.resolve(),
  screen: "live",
  /** @type {{rows: any[], more: boolean, asked: boolean, loading: boolean, error: string | null, token: number, query: any}} */
  things: { rows: [], more: false, asked: false, loading: false, error: null, token: 0, query: null },
  /** @type {{rows: any[], more: boolean, asked: boolean, loading: boolean, error: string | null, token: number, query: any}} */
  mine: { rows: [], more: false, asked: false, loading: false, error: null, token: 0, query: null },
  /** @type {Result | null} */ mineResult: null,
  /** @type {{rows: any[], error: string | null, token: number, at: number}} */
  nearMe: { rows: [], error: null, token: 0, at: 0 },
  /** @type {{rows: any[], more: boolean, asked: boolean, loading: boolean, error: string | null, token: number, query: any, at: number, from: {lat: number, lon: number} | null}} */
  caches: { rows: [], more: false, asked: false, loading: false, error: null, token: 0, query: null, at: 0, from: null },
  /** @type {{items: any[], following: any[], error: string | null, ferror: string | null, token: number, asked: boolean, pending: Set<string>, more: boolean, heard: string | null, reloads: number, soon: number, want: number, readAt: number}} */
  friends: { items: [], following: [], error: null, ferror: null, token: 0, asked: false, pending: new Set(), more: false, heard: null, reloads: 0, soon: 0, want: 0, readAt: 0 },
  /** @type {Result | null} */ friendResult: null,
  /** @type {{rows: any[], total: number, error: string | null, token: number, asked: boolean, sending: boolean}} */
  obs: { rows: [], total: 0, error: null, token: 0, asked: false, sending: false },
  /** @type {Result | null} */ obsResult: null,
  /** @type {{result: Result | null, sending: boolean}} */ submit: { result: null, sending: false },
  /** @type {string | null} */ obsSheet: null,
  /** The open observation's edit: its id, whether the boxes were filled from it, the delete question, a write in flight, the last answer.
   * @type {{id: string | null, filled: boolean, confirm: boolean, sending: boolean, result: Result | null}} */
  obsEdit: { id: null, filled: false, confirm: false, sending: false, result: null },
  // New names typed in the sheet, per place: a name belongs to the place it was typed for.
  /** @type {Map<string, string>} */ renames: new Map()
};
/** @type {any} */ (window).hotcold = hc;
// Added after the model's other fields, as they always were (the model's keys keep their order):
// the Near me map's range (nearme.js), and the long press's spot and the answer to adding it
// (longpress.js).
hc.mapRange = 1000;
/** @type {{lat: number, lon: number, m: number, deg: number} | null} */
hc.here = null;
/** @type {Result | null} */ hc.hereResult = null;

export function setText(el, t) { if (el.textContent !== t) el.textContent = t; }
export function show(el, on) { if (el.hidden === on) el.hidden = !on; }
export function nameOf(t) { return t.target.name || t.target.id; }
export function isPlace(t) { return !!t && PLACE_KINDS.includes(t.target.kind); }

export function lastFix() { return hc.status && hc.status.gps && hc.status.gps.last_fix; }
export function fixAge() {
  const f = lastFix();
  // The daemon measures the age on its monotonic clock from the fix's arrival (age_s); the
  // receiver's and the box's wall clocks may be years apart (no RTC, a replayed drive).
  if (!f || typeof f.age_s !== "number") return null;
  return f.age_s + (Date.now() - hc.statusAt) / 1000;
}
export function course() {
  const f = lastFix();
  if (!f || f.speed_mps == null || f.speed_mps < SLOW || f.track_deg == null) return null;
  return f.track_deg;
}
export function mode() { return hc.status && hc.status.tracking ? hc.status.tracking.mode : null; }
/** Whether writes can reach the box now: a writer's device, the stream and the tracker up. */
export function canWrite() { return !!(hc.session && hc.session.writer && hc.sse && hc.link && hc.link.up); }
export function freshFix() { const f = lastFix(), age = fixAge(); return f && age != null && age <= STALE_S ? f : null; }
