// @ts-check
// How the page words and measures things: distances, compass points, times in the box's zone,
// ages, quotes; the spherical distance and bearing used for showing only.

import { hc } from "./model.js";

const POINTS = ["N","NNE","NE","ENE","E","ESE","SE","SSE","S","SSW","SW","WSW","W","WNW","NW","NNW"];

export function fmtDist(m) {
  if (m == null || !isFinite(m)) return "—";
  if (m < 1000) return Math.round(m) + " m";
  if (m < 9950) return (m / 1000).toFixed(1) + " km";
  return Math.round(m / 1000) + " km";
}
export function point(deg) { return POINTS[Math.round((((deg % 360) + 360) % 360) / 22.5) % 16]; }
export function norm180(d) { d = ((d % 360) + 360) % 360; return d > 180 ? d - 360 : d; }

// Times as a person reads them: the box's zone (from /session), medium date when not today.
export function zone() { return hc.session && hc.session.time_zone; }
export function fmtTime(iso) {
  const d = new Date(iso);
  if (isNaN(d.getTime())) return "";
  const timeZone = zone() || undefined;
  try {
    const day = d.toLocaleDateString(undefined, { timeZone });
    const today = new Date().toLocaleDateString(undefined, { timeZone });
    const time = d.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit", timeZone });
    return day === today ? time : d.toLocaleDateString(undefined, { day: "numeric", month: "short", year: "numeric", timeZone }) + ", " + time;
  } catch (x) {
    return d.toLocaleString();
  }
}

export function ago(s) { return s < 90 ? Math.round(s) + " s ago" : s < 5400 ? Math.round(s / 60) + " min ago" : Math.round(s / 3600) + " h ago"; }
export function quoted(s) { return "“" + s + "”"; }

// Metres between two points, for showing only (spherical; the daemon's ellipsoidal figures are
// what the hunt uses).
export function approxDistance(lat1, lon1, lat2, lon2) {
  const r = Math.PI / 180, a = Math.sin((lat2 - lat1) * r / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin((lon2 - lon1) * r / 2) ** 2;
  return 2 * 6371008.8 * Math.asin(Math.min(1, Math.sqrt(a)));
}

// Degrees from north, from the car to a place (spherical: for a compass point only).
export function bearingTo(f, lat, lon) {
  const r = Math.PI / 180, p1 = f.lat * r, p2 = lat * r, dl = (lon - f.lon) * r;
  return Math.atan2(Math.sin(dl) * Math.cos(p2), Math.cos(p1) * Math.sin(p2) - Math.sin(p1) * Math.cos(p2) * Math.cos(dl)) / r;
}
