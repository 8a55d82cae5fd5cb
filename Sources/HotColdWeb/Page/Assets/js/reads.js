// @ts-check
// Reads: a place's own record, and (while hunting) the places near the car not in the hunt.

import { hc, lastFix, mode } from "./model.js";
import { render } from "./screens.js";
import { post } from "./writes.js";

// ---- Reads ------------------------------------------------------------------------------------
const loading = new Set();
export async function loadPlace(id) {
  if (loading.has(id)) return;
  loading.add(id);
  const { status, j } = await post("/api/read", { cmd: "place", id: id });
  loading.delete(id);
  if (status === 200 && j && j.result) hc.places.set(id, { detail: j.result.detail, mine: j.result.mine, at: Date.now() });
  else if (hc.places.has(id) && !hc.places.get(id).error) hc.places.get(id).at = Date.now();   // keep what was read; ask later
  else hc.places.set(id, { error: (j && j.code) || status, at: Date.now() });
  if (hc.places.size > 200) hc.places.delete(hc.places.keys().next().value);
  render();
}
export function reloadPlace(id) { hc.places.delete(id); return loadPlace(id); }
hc.reloadPlace = reloadPlace;

// While hunting, the places near the car that are not in the hunt (so one can be added).
export async function loadNear() {
  if (mode() !== "hunt" || !lastFix() || Date.now() - hc.nearAt < 10000) return;
  hc.nearAt = Date.now();
  const { status, j } = await post("/api/read", { cmd: "near", kinds: ["bigthing"], limit: 5 });
  hc.near = status === 200 && j && Array.isArray(j.result) ? j.result : [];
  render();
}
