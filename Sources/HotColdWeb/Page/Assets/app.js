// @ts-check
"use strict";
(function () {
  /** An element the page's markup (index.html) holds. @type {(id: string) => HTMLElement} */
  const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
  /** A button of the markup. @type {(id: string) => HTMLButtonElement} */
  const button = (id) => /** @type {HTMLButtonElement} */ ($(id));
  /** The sheet's note box. @type {() => HTMLTextAreaElement} */
  const noteBox = () => /** @type {HTMLTextAreaElement} */ ($("s-note"));
  const POINTS = ["N","NNE","NE","ENE","E","ESE","SE","SSE","S","SSW","SW","WSW","W","WNW","NW","NNW"];
  const SLOW = 1.5, STALE_S = 5, QUIET_S = 4, ROAM_M = 10000;
  const PLACE_KINDS = ["bigthing", "geocache", "waypoint", "location"];
  /**
   * The page's model, also `window.hotcold` for the browser tests and the benchmark.
   * @typedef {{target: {id: string, name?: string, kind: string}, distance_m?: number, bearing_deg?: number, tier?: number,
   *   tier_name?: string, trend?: string, eta_s?: number, etaAt?: number, arrived?: boolean, age_s?: number, stale?: boolean,
   *   fix?: number, seq?: number}} Target
   * @typedef {{text: string, ok: boolean, at: number, cause: string, holds?: () => boolean}} Result
   * @typedef {{id: string, name: string, result: Result | null, filled?: boolean, hint?: boolean, confirm?: boolean, renameFilled?: boolean, provisional?: boolean}} Sheet
   */
  const hc = {
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

  function fmtDist(m) {
    if (m == null || !isFinite(m)) return "—";
    if (m < 1000) return Math.round(m) + " m";
    if (m < 9950) return (m / 1000).toFixed(1) + " km";
    return Math.round(m / 1000) + " km";
  }
  function point(deg) { return POINTS[Math.round((((deg % 360) + 360) % 360) / 22.5) % 16]; }
  function norm180(d) { d = ((d % 360) + 360) % 360; return d > 180 ? d - 360 : d; }
  function setText(el, t) { if (el.textContent !== t) el.textContent = t; }
  function show(el, on) { if (el.hidden === on) el.hidden = !on; }
  function nameOf(t) { return t.target.name || t.target.id; }
  function isPlace(t) { return !!t && PLACE_KINDS.includes(t.target.kind); }

  // Times as a person reads them: the box's zone (from /session), medium date when not today.
  function zone() { return hc.session && hc.session.time_zone; }
  function fmtTime(iso) {
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

  function lastFix() { return hc.status && hc.status.gps && hc.status.gps.last_fix; }
  function fixAge() {
    const f = lastFix();
    // The daemon measures the age on its monotonic clock from the fix's arrival (age_s); the
    // receiver's and the box's wall clocks may be years apart (no RTC, a replayed drive).
    if (!f || typeof f.age_s !== "number") return null;
    return f.age_s + (Date.now() - hc.statusAt) / 1000;
  }
  function course() {
    const f = lastFix();
    if (!f || f.speed_mps == null || f.speed_mps < SLOW || f.track_deg == null) return null;
    return f.track_deg;
  }
  function mode() { return hc.status && hc.status.tracking ? hc.status.tracking.mode : null; }

  // ---- What each update reflects, and keeping the newest -------------------------------------
  // A STATUS reflects the daemon's state at its last fix (`gps.last_fix.time`) and every event
  // numbered up to `sequence.last`. An event reflects one fix (`time`) and has its own `seq`.
  // The page applies an update to a target only when it is not older than what the target
  // shows: a STATUS that arrives after a newer fix's event leaves that target alone, and an
  // event at or below the last STATUS's `sequence.last` (the log's replay after a reconnect) is
  // history the STATUS already holds: it fills the passages and never the live state.
  function fixMs(s) { const f = s.gps && s.gps.last_fix; const t = f ? Date.parse(f.time) : NaN; return isNaN(t) ? -Infinity : t; }

  function takeStatus(s) {
    // When the daemon started, by its own clock: the same for every STATUS of one run, however
    // late one arrives; another run (a restart) has another.
    const born = Date.parse(s.time) / 1000 - (s.uptime_s || 0);
    const k = { seq: (s.sequence && s.sequence.last) || 0, fix: fixMs(s), born: born };
    const cur = hc.stamp;
    // A restarted daemon may have a receiver whose clock is behind the last one's: its first
    // STATUS starts a new timeline. Numbers (seq) never go back, even then.
    const restarted = !cur || hc.newTimeline || (k.seq >= cur.seq && Math.abs(k.born - cur.born) > 3);
    if (!restarted && (k.seq < cur.seq || k.fix < cur.fix)) { hc.refused.status++; return; }
    hc.newTimeline = false;
    hc.status = s; hc.statusAt = Date.now(); hc.stamp = k;
    if (s.tracking && s.tracking.tiers) hc.tiers = s.tracking.tiers;
    const seen = new Set();
    for (const t of s.targets || []) {
      const id = t.target.id, old = hc.targets.get(id);
      seen.add(id);
      if (old && !restarted && old.fix > k.fix) { hc.refused.status++; continue; }
      hc.targets.set(id, Object.assign(old || {}, t, { fix: k.fix, seq: k.seq }));
    }
    for (const f of s.friends || []) {
      const id = "friend:" + f.who, old = hc.targets.get(id);
      seen.add(id);
      if (old && !restarted && old.seq > k.seq) continue;
      hc.targets.set(id, Object.assign(old || {}, {
        target: { id: id, name: f.name, kind: "friend" }, distance_m: f.distance_m, bearing_deg: f.bearing_deg,
        tier: f.tier, tier_name: f.tier_name, trend: f.trend, arrived: f.arrived, age_s: f.age_s, stale: f.stale,
        fix: k.fix, seq: k.seq, eta_s: undefined
      }));
    }
    for (const [id, t] of hc.targets) if (!seen.has(id) && (restarted || t.fix <= k.fix)) hc.targets.delete(id);
    render();
  }

  function takeEvent(cls, e) {
    hc.seqs.push(e.seq);
    if (hc.seqs.length > 100000) hc.seqs.splice(0, 50000);
    const live = !hc.stamp || e.seq > hc.stamp.seq;
    if (cls === "PROXIMITY") {
      const id = e.target.id, old = hc.targets.get(id), fix = Date.parse(e.time);
      const friend = e.target.kind === "friend";
      const newer = !old || (friend ? e.seq > old.seq : fix >= old.fix);
      if (live && newer) {
        hc.targets.set(id, Object.assign(old || {}, {
          target: e.target, distance_m: e.distance_m, bearing_deg: e.bearing_deg, tier: e.tier, tier_name: e.tier_name,
          trend: e.trend, eta_s: e.eta_s, etaAt: Date.now(), fix: friend ? (old ? old.fix : -Infinity) : fix, seq: e.seq
        }));
      } else hc.refused.events++;
    } else if (cls === "ARRIVED" || cls === "DEPARTED") {
      const name = e.target.name || e.target.id;
      hc.passages.push({ cls: cls, seq: e.seq, id: e.target.id, name: name, time: e.time, text: cls + " " + name + " · " + fmtTime(e.time), t: Date.now(), live: live });
      if (hc.passages.length > 500) hc.passages.splice(0, 100);
      const t = hc.targets.get(e.target.id);
      if (t && live && (t.seq || 0) < e.seq) t.arrived = cls === "ARRIVED";
      if (isPlace({ target: e.target })) hc.places.delete(e.target.id);   // its visits changed
    }
    render();
  }

  // ---- Focus ------------------------------------------------------------------------------------
  function chooseFocus() {
    if (hc.focus && hc.targets.has(hc.focus)) return hc.targets.get(hc.focus);
    if (hc.focus) { const n = hc.near.find((p) => p.target.id === hc.focus); if (n) return n; }
    const list = [...hc.targets.values()].filter((t) => t.target.kind !== "friend" && t.distance_m != null);
    if (!list.length) return null;
    list.sort((a, b) => a.distance_m - b.distance_m);
    if (mode() === "hunt") return list[0];
    const c = course();
    if (c != null) {
      const ahead = list.filter((t) => Math.abs(norm180(t.bearing_deg - c)) <= 90);
      if (ahead.length) return ahead[0];
    }
    return list[0];
  }

  function setFocus(id) {
    hc.focus = id;
    localStorage.setItem("hc-focus", id);
    render();
  }

  // ---- Drawing ----------------------------------------------------------------------------------
  function stale() {
    if (!hc.sse) return "this page lost its connection to the box; reconnecting…";
    if (hc.link && !hc.link.up) return "the box's tracker (hotcoldd) is not answering; retrying…";
    if (!hc.status) return "waiting for the box…";
    const quiet = (Date.now() - hc.statusAt) / 1000;
    if (quiet > QUIET_S) return "no update from the box for " + Math.round(quiet) + " s";
    const s = hc.status.gps, age = fixAge();
    if (!s || s.state === "lost") return "the GPS receiver is not connected";
    if (age == null) return "no GPS fix yet";
    if (s.state !== "fix" || age > STALE_S) return "last fix " + Math.round(age) + " s ago";
    return null;
  }

  function renderFocus() {
    const t = chooseFocus();
    show($("f-arrow"), !!t && t.bearing_deg != null);
    if (!t) {
      setText($("f-name"), hc.status ? "no target tracked" : "waiting for the box…");
      $("f-name").className = "";
      setText($("f-dist"), "—"); setText($("f-tiername"), ""); setText($("f-trend"), ""); setText($("f-eta"), ""); setText($("f-dir"), "");
      setText($("f-mine"), "");
      $("gauge-fill").style.width = "0";
      return;
    }
    const name = nameOf(t) + (t.target.kind === "friend" ? " (friend)" : "");
    setText($("f-name"), name);
    $("f-name").className = name.length > 40 ? "longer" : name.length > 22 ? "long" : "";
    const d = fmtDist(t.distance_m);
    if ($("f-dist").textContent !== d) { $("f-dist").textContent = d; hc.updates.push({ t: Date.now(), text: d, id: t.target.id }); if (hc.updates.length > 5000) hc.updates.splice(0, 1000); }
    const tiers = hc.tiers || ["freezing","chilly","cold","cool","mild","warm","hot","burning"];
    $("gauge-fill").style.width = t.tier == null ? "0" : Math.round(100 * (t.tier + 1) / tiers.length) + "%";
    const tn = t.tier_name || "";
    if ($("f-tiername").textContent !== tn) { $("f-tiername").textContent = tn; hc.tierUpdates.push({ t: Date.now(), text: tn, id: t.target.id }); }
    const trendText = { hotter: "▲ hotter", colder: "▼ colder", steady: "■ steady", unknown: "? unknown" }[t.trend] || t.trend || "";
    setText($("f-trend"), trendText);
    $("f-trend").className = t.trend || "";
    let eta = "";
    if (t.trend === "hotter") {
      const f = lastFix();
      let s = (t.eta_s != null && Date.now() - t.etaAt < 15000) ? t.eta_s : null;
      if (s == null && f && f.speed_mps > SLOW) s = t.distance_m / f.speed_mps;
      if (s != null) eta = "ETA " + (s < 60 ? "<1" : Math.round(s / 60)) + " min";
    }
    setText($("f-eta"), eta);
    const c = course();
    let rot = 0, dir = "";
    if (t.bearing_deg != null && c != null) {
      const rel = norm180(t.bearing_deg - c);
      rot = rel;
      dir = Math.abs(rel) < 8 ? "straight ahead" : Math.round(Math.abs(rel)) + "° " + (rel > 0 ? "right" : "left");
    } else if (t.bearing_deg != null) {
      rot = t.bearing_deg;
      dir = point(t.bearing_deg) + " (" + Math.round(t.bearing_deg) + "°)";
    }
    if (t.target.kind === "friend" && t.age_s != null) dir += (dir ? " · " : "") + "heard " + ago(t.age_s) + (t.stale ? " (stale)" : "");
    $("f-arrow-shape").setAttribute("transform", "rotate(" + rot.toFixed(1) + ")");
    setText($("f-dir"), dir);
    setText($("f-mine"), isPlace(t) ? mineText(t.target.id) : "");
  }

  function ago(s) { return s < 90 ? Math.round(s) + " s ago" : s < 5400 ? Math.round(s / 60) + " min ago" : Math.round(s / 3600) + " h ago"; }

  // This box's own record of a place (seen, rating, note), as the daemon has it.
  function mineText(id) {
    const p = hc.places.get(id);
    if (!p) { loadPlace(id); return "…"; }
    // Changed elsewhere meanwhile (the command line, another phone)? Asked again every 30 s.
    if (Date.now() - p.at > 30000) loadPlace(id);
    if (p.error) return "";
    const m = p.mine || {};
    const parts = [];
    const visits = m.visits || [];
    parts.push(visits.length ? "seen " + fmtTime(visits.map((v) => v.visited_at).sort().pop()) : "not seen");
    // 0 stars is a rating (the lowest), as `hotcold rate` and friends' feeds have it.
    parts.push(m.rating ? "★".repeat(m.rating.stars) + "☆".repeat(5 - m.rating.stars) : "no rating");
    parts.push(m.note && m.note.text ? "“" + m.note.text + "”" : "no note");
    return parts.join(" · ");
  }

  function renderBar() {
    const s = hc.status, age = fixAge(), el = $("gps");
    let text = "GPS …", ok = false;
    if (s && s.gps) {
      const f = s.gps.last_fix, st = s.gps.state;
      const m = f ? (f.mode >= 3 ? "3D" : f.mode === 2 ? "2D" : "no fix") : "no fix";
      text = st === "fix" ? "GPS " + m : "GPS " + st;
      if (f && f.accuracy_m != null && st === "fix") text += " ±" + Math.round(f.accuracy_m) + " m";
      if (age != null) text += " · " + ago(Math.max(0, age));
      ok = st === "fix" && age != null && age <= STALE_S;
    }
    setText(el, text);
    el.className = "pill " + (ok ? "ok" : "bad");
    const l = $("link");
    if (!hc.sse) { setText(l, "offline"); l.className = "pill bad"; }
    else if (!hc.link) { setText(l, "connecting…"); l.className = "pill"; }
    else { setText(l, hc.link.up ? "live" : "tracker gone"); l.className = "pill " + (hc.link.up ? "ok" : "bad"); }
  }

  function renderStale() {
    const reason = stale();
    document.body.classList.toggle("stale", !!reason);
    for (const id of ["banner", "s-banner"]) {
      show($(id), !!reason);
      if (reason) setText($(id), "OLD DATA — " + reason);
    }
  }

  function tierColour(tier) {
    if (tier == null) return "hsl(0,0%,55%)";
    const n = (hc.tiers || []).length || 8, x = n > 1 ? tier / (n - 1) : 0;
    return "hsl(" + (220 - 215 * x).toFixed(0) + ",90%,55%)";
  }

  const SVG = "http://www.w3.org/2000/svg";
  function svg(tag, attrs, parent) { const e = document.createElementNS(SVG, tag); for (const k in attrs) e.setAttribute(k, attrs[k]); parent.appendChild(e); return e; }

  // The radar's range follows the focused target (it sits between 40 % and 100 % of the radius);
  // targets beyond the range are drawn on the rim, hollow.
  const STEPS = [50, 100, 200, 300, 500, 1000, 2000, 3000, 5000, 10000, 20000, 30000, 50000, 100000, 200000, 300000, 500000,
    1000000, 2000000, 3000000, 5000000, 10000000, 20000000];
  function niceRange(m) { for (const s of STEPS) if (m <= s) return s; return STEPS[STEPS.length - 1]; }
  hc.radarRange = 1000;

  // Blips and list rows are kept per target and updated in place (never rebuilt on a redraw):
  // a tap that starts on one and ends on its replacement would otherwise be lost.
  const blipCache = new Map(), rowCache = new Map();

  function renderRadar(focus) {
    const r = $("radar");
    let bg = $("radar-bg"), blips = $("radar-blips");
    if (!bg) { bg = svg("g", { id: "radar-bg" }, r); blips = svg("g", { id: "radar-blips" }, r); }
    while (bg.firstChild) bg.removeChild(bg.firstChild);
    const list = [...hc.targets.values()].filter((t) => t.distance_m != null && t.bearing_deg != null);
    const far = list.reduce((m, t) => Math.max(m, t.distance_m), 0);
    const range = hc.radarRange = niceRange(focus && focus.distance_m != null ? focus.distance_m * 1.25 : (far * 1.05 || 1000));
    const c = course();
    const up = hc.courseUp && c != null ? c : 0;
    const f = lastFix();
    if (hc.session && hc.session.tile_url && f) tiles(bg, f, range, up);
    for (const k of [1, 0.5]) svg("circle", { class: "ring", r: 100 * k }, bg);
    svg("text", { class: "label", x: 4, y: -102 }, bg).textContent = fmtDist(range);
    svg("text", { class: "label", x: 4, y: -52 }, bg).textContent = fmtDist(range / 2);
    const n = svg("text", { class: "label", "text-anchor": "middle" }, bg);
    n.textContent = "N";
    const na = (-up) * Math.PI / 180;
    n.setAttribute("x", (92 * Math.sin(na)).toFixed(1)); n.setAttribute("y", (-92 * Math.cos(na) + 3).toFixed(1));
    const carRot = hc.courseUp ? 0 : (c != null ? c : 0);
    svg("path", { class: "car", d: "M0,-9 L6,7 L0,3 L-6,7 Z", transform: "rotate(" + carRot + ")" }, bg);
    for (const t of list) {
      const id = t.target.id, friend = t.target.kind === "friend";
      let b = blipCache.get(id);
      if (!b) {
        // Friends are diamonds, places circles.
        b = friend ? svg("rect", { x: -6, y: -6, width: 12, height: 12 }, blips) : svg("circle", { r: 7 }, blips);
        svg("title", {}, b);
        b.addEventListener("click", () => setFocus(id));
        blipCache.set(id, b);
      }
      const a = (t.bearing_deg - up) * Math.PI / 180, beyond = t.distance_m > range;
      const d = 100 * Math.min(1, t.distance_m / range);
      const x = (d * Math.sin(a)).toFixed(1), y = (-d * Math.cos(a)).toFixed(1);
      b.setAttribute("class", "blip" + (friend ? " friend" : "") + (focus === t ? " focus" : "") + (beyond ? " beyond" : "") + (t.stale ? " old" : ""));
      if (friend) b.setAttribute("transform", "translate(" + x + "," + y + ") rotate(45)");
      else { b.setAttribute("cx", x); b.setAttribute("cy", y); }
      b.dataset.r = d.toFixed(1);
      b.setAttribute(beyond ? "stroke" : "fill", tierColour(t.tier));
      b.setAttribute(beyond ? "fill" : "stroke", beyond ? "none" : "");
      setText(b.firstChild, nameOf(t) + (friend ? " (friend)" : "") + " " + fmtDist(t.distance_m) + " " + (t.tier_name || ""));
    }
    for (const [id, b] of blipCache) if (!hc.targets.has(id) || hc.targets.get(id).distance_m == null) { b.remove(); blipCache.delete(id); }
    show($("radar-mode"), list.length > 0);
    setText($("radar-mode"), hc.courseUp ? "Course up" : "North up");
  }

  // Optional map tiles (page.tile_url): the 3×3 Web Mercator tiles around the fix at the zoom
  // whose tile spans about the radar's range, placed in radar units (100 = range).
  function tiles(r, f, range, up, cache = tileCache) {
    const lat = f.lat * Math.PI / 180, mPerPx0 = 156543.034 * Math.cos(lat);
    const z = Math.max(1, Math.min(18, Math.round(Math.log2(mPerPx0 * 256 / range))));
    const n = Math.pow(2, z), xf = (f.lon + 180) / 360 * n;
    const yf = (1 - Math.log(Math.tan(lat) + 1 / Math.cos(lat)) / Math.PI) / 2 * n;
    const tileM = mPerPx0 * 256 / n, unit = 100 * tileM / range;
    const g = svg("g", { transform: "rotate(" + (-up) + ")" }, r);
    if (cache.size > 64) cache.clear();
    for (let dx = -1; dx <= 1; dx++) {
      for (let dy = -1; dy <= 1; dy++) {
        const tx = Math.floor(xf) + dx, ty = Math.floor(yf) + dy;
        if (ty < 0 || ty >= n) continue;
        const url = hc.session.tile_url.replace("{z}", z).replace("{x}", ((tx % n) + n) % n).replace("{y}", ty);
        // The same element for the same tile on every redraw: asked for once, never again.
        let img = cache.get(url);
        if (!img) { img = document.createElementNS(SVG, "image"); img.setAttribute("href", url); img.setAttribute("opacity", "0.5"); cache.set(url, img); }
        img.setAttribute("x", ((tx - xf) * unit).toFixed(1)); img.setAttribute("y", ((ty - yf) * unit).toFixed(1));
        img.setAttribute("width", unit.toFixed(1)); img.setAttribute("height", unit.toFixed(1));
        g.appendChild(img);
      }
    }
  }
  // Near me's map keeps tiles of its own: one image element cannot sit in both pictures.
  const tileCache = new Map(), mapTileCache = new Map();

  // The list: every tracked target and friend, nearest first, then (while hunting) the places
  // near the car that are not in the hunt. It scrolls; its head says how many there are.
  function renderList(focus) {
    const ul = $("targets");
    const tracked = [...hc.targets.values()].sort((a, b) => Number(a.distance_m == null) - Number(b.distance_m == null) || a.distance_m - b.distance_m);
    const near = mode() === "hunt" ? hc.near.filter((p) => !hc.targets.has(p.target.id)) : [];
    const all = tracked.concat(near);
    const keep = new Set();
    let prev = null;
    for (const t of all) {
      const id = t.target.id, friend = t.target.kind === "friend", untracked = near.includes(t);
      let li = rowCache.get(id);
      if (!li) {
        li = document.createElement("li");
        li.append(document.createElement("span"), document.createElement("span"));
        li.addEventListener("click", () => setFocus(id));
        rowCache.set(id, li);
      }
      setText(li.firstChild, nameOf(t) + (friend ? " · friend" : untracked ? " · not hunted" : ""));
      const extra = friend && t.stale ? " · " + ago(t.age_s || 0) : "";
      setText(li.lastChild, fmtDist(t.distance_m) + (t.tier_name ? " · " + t.tier_name : "") + extra);
      li.className = (focus && focus.target.id === id ? "focus " : "") + (friend ? "friend " : "") + (untracked ? "untracked " : "") + (t.stale ? "old" : "");
      const at = prev ? prev.nextSibling : ul.firstChild;
      if (at !== li) ul.insertBefore(li, at);
      prev = li;
      keep.add(id);
    }
    for (const [id, li] of rowCache) if (!keep.has(id)) { li.remove(); rowCache.delete(id); }
    const friends = tracked.filter((t) => t.target.kind === "friend").length;
    const places = tracked.length - friends;
    const head = !all.length ? "" : places + (places === 1 ? " target" : " targets") + (friends ? ", " + friends + (friends === 1 ? " friend" : " friends") : "")
      + (near.length ? ", " + near.length + " nearby" : "") + " · nearest first";
    setText($("list-head"), head);
  }

  function renderPassage() {
    let p = null;
    for (const x of hc.passages) if (!p || x.seq > p.seq) p = x;
    const el = $("passage");
    if (!p) { setText(el, "no arrival yet"); el.className = "data"; return; }
    setText(el, p.cls + " " + p.name + " · " + fmtTime(p.time));
    el.className = "data " + p.cls.toLowerCase();
  }

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

  function renderWrites(focus) {
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
  function why(status, j, what) {
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

  async function post(path, request) {
    try {
      const r = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(request), credentials: "same-origin" });
      let j = null;
      try { j = await r.json(); } catch (x) { j = null; }
      return { status: r.status, j: j };
    } catch (x) { return { status: 0, j: null }; }
  }

  // Sends one write; `what` names it ("hunting Big Banana"), `done` words the daemon's reply.
  // `send` carries it when it is not a plain JSON command (a photo: sendSubmit).
  async function write(request, what, done, onto, send) {
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

  function trackingReply(reply, first) {
    const n = reply.targets;
    if (reply.mode === "roam") return "Roaming " + fmtDist(reply.radius_m) + ": " + n + (n === 1 ? " place" : " places") + " in range.";
    return first + " — hunting " + n + (n === 1 ? " target." : " targets.");
  }

  function setupWrites() {
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
    $("s-close").addEventListener("click", closeSheet);
    $("s-note").addEventListener("input", () => { if (hc.sheet) { hc.drafts.set(hc.sheet.id, noteBox().value); renderSheet(); } });
    $("s-save").addEventListener("click", () => {
      const s = hc.sheet;
      if (!s) return;
      // The note goes to the place the sheet was opened for, whatever has the focus now.
      const text = noteBox().value, id = s.id, name = s.name;
      write({ cmd: "store", op: "note", id: id, text: text }, text ? "saving the note on " + name : "removing the note on " + name,
        () => (text ? "Saved the note on " + name + "." : "Removed the note on " + name + "."), sheetResult(id))
        .then((r) => { if (r) { hc.drafts.delete(id); reloadPlace(id); } });
    });
    $("s-seen-btn").addEventListener("click", () => {
      const s = hc.sheet, p = s && hc.places.get(s.id);
      if (!p || !p.mine) return;
      const id = s.id, name = s.name, seen = (p.mine.visits || []).length > 0;
      const word = p.detail && p.detail.geocache ? "found" : "seen";
      if (!seen) write({ cmd: "store", op: "seen", id: id }, "marking " + name + " " + word, () => "Marked " + name + " " + word + ".", sheetResult(id)).then(() => reloadPlace(id));
      else write({ cmd: "store", op: "unseen", id: id }, "marking " + name + " not " + word, (r) => "Marked " + name + " not " + word + " (" + r.result + (r.result === 1 ? " visit" : " visits") + " removed).", sheetResult(id)).then(() => reloadPlace(id));
    });
  }
  // A reply shown in the sheet only while it is still open for the place written to.
  function sheetResult(id) { return (res) => { if (hc.sheet && hc.sheet.id === id) hc.sheet.result = res; }; }

  // ---- The place sheet: one place's seen, rating and note, pinned to that place ---------------
  // `name` null: only the id is known (a waypoint's cache); the sheet takes the place's own name
  // once it is read.
  function openSheet(id, name) {
    hc.sheet = { id: id, name: name || id, provisional: !name, result: null };
    noteBox().value = hc.drafts.has(id) ? hc.drafts.get(id) : "";
    renameBox().value = hc.renames.get(id) || "";
    reloadPlace(id);
    renderSheet();
  }
  function closeSheet() {
    const s = hc.sheet, p = s && hc.places.get(s.id);
    hc.sheet = null;
    // The list shows what the sheet changed (favourite, rating, seen) without asking again.
    for (const row of p && p.mine ? hc.things.rows.concat(hc.mine.rows, hc.caches.rows).filter((r) => r.place.id === s.id) : []) {
      row.favourite = p.mine.favourite;
      row.my_rating = p.mine.rating ? p.mine.rating.stars : undefined;
      row.seen = (p.mine.visits || []).length > 0;
    }
    renderThings();
    renderMine();
    renderCaches();
    renderSheet();
  }
  hc.openSheet = openSheet;

  function renderSheet() {
    const s = hc.sheet, el = $("sheet");
    show(el, !!s);
    document.body.classList.toggle("sheet-open", !!s);
    if (!s) return;
    const p = hc.places.get(s.id), m = p && p.mine;
    if (s.provisional && p && p.detail) { s.name = p.detail.place.name; s.provisional = false; }
    setText($("s-name"), s.name);
    const can = !!(hc.session && hc.session.writer && hc.sse && hc.link && hc.link.up);
    renderDetail(p && p.detail);
    if (!m) {
      setText($("s-seen"), p && p.error ? "cannot read this place from the box" : "reading…");
      show($("s-seen-btn"), false);
      setText($("s-fav"), "");
      show($("s-fav-btn"), false);
      setText($("s-rating"), "");
    } else {
      setText($("s-fav"), m.favourite ? "♥ A favourite" : "Not a favourite");
      show($("s-fav-btn"), true);
      setText($("s-fav-btn"), m.favourite ? "Remove from favourites" : "Add to favourites");
      const visits = m.visits || [];
      // A cache is found, not seen: the button names the cache it marks.
      const cache = !!(p.detail && p.detail.geocache);
      setText($("s-seen"), visits.length ? (cache ? "Found " : "Seen ") + fmtTime(visits.map((v) => v.visited_at).sort().pop()) + (visits.length > 1 ? " (" + visits.length + " visits)" : "")
        : cache ? "Not found yet" : "Not seen yet");
      show($("s-seen-btn"), true);
      setText($("s-seen-btn"), cache ? (visits.length ? "Mark " + s.name + " not found" : "Mark " + s.name + " found") : visits.length ? "Mark not seen" : "Mark seen now");
      setText($("s-rating"), m.rating ? "Your rating: " + m.rating.stars + " of 5" : "Not rated");
      // The note box starts from the place's current note unless something was typed for it.
      if (!hc.drafts.has(s.id) && !s.filled) { noteBox().value = (m.note && m.note.text) || ""; s.filled = true; }
    }
    button("s-seen-btn").disabled = !can;
    button("s-fav-btn").disabled = !can;
    const g = p && p.detail && p.detail.geocache;
    show($("s-hint-row"), !!g);
    if (g) {
      show($("s-hint-btn"), !!g.hint && !s.hint);
      setText($("s-hint-btn"), "Show the hint for " + g.code);
      setText($("s-hint"), !g.hint ? "No hint for this cache." : s.hint ? "Hint: " + g.hint : "The hint is hidden.");
    }
    // Hunt this place: hidden when it is the whole hunt already (nothing to do).
    const tr = hc.status && hc.status.targets, writer = !!(hc.session && hc.session.writer);
    const alone = mode() === "hunt" && !!tr && tr.length === 1 && tr[0].target.id === s.id;
    show($("s-hunt"), writer && !!(p && p.detail) && !alone);
    setText($("s-hunt"), (mode() === "hunt" ? "Hunt only " : "Hunt ") + s.name);
    button("s-hunt").disabled = !can;
    renderOwn(s, p, can);
    // Rating 0 stars says so: it is a rating friends see, not the rating's removal.
    show($("s-unrate"), !!(m && !(m.rating && m.rating.stars === 0)));
    button("s-unrate").disabled = !can;
    const stars = $("s-stars");
    if (!stars.childNodes.length) {
      for (let i = 1; i <= 5; i++) {
        const b = document.createElement("button");
        b.type = "button";
        b.dataset.stars = String(i);
        b.setAttribute("aria-label", "rate " + i + " of 5");
        b.addEventListener("click", () => rate(i));
        stars.appendChild(b);
      }
    }
    const current = m && m.rating ? m.rating.stars : 0;
    for (const b of stars.querySelectorAll("button")) { setText(b, Number(b.dataset.stars) <= current ? "★" : "☆"); b.disabled = !can || !m; }
    const text = noteBox().value, old = (m && m.note && m.note.text) || "";
    setText($("s-save"), text === "" && old ? "Remove the note on " + s.name : "Save the note on " + s.name);
    button("s-save").disabled = !can || !m || text === old;
    setText($("s-count"), text.length + "/500");
    const r = s.result;
    setText($("s-result"), r ? r.text : "");
    $("s-result").className = r ? (r.ok ? "ok" : "bad") : "";
  }

  // What the catalogue says about a place: where, its rating and votes, what it is, tags, photo.
  function renderDetail(d) {
    const place = d && d.place, b = d && d.big_thing;
    const f = lastFix();
    let where = b ? [b.town, b.state].filter(Boolean).join(", ") : "";
    if (place && f) where += (where ? " · " : "") + fmtDist(approxDistance(f.lat, f.lon, place.latitude, place.longitude)) + " away";
    const loc = d && d.location;
    if (loc && loc.created_by) where = "Added by " + loc.created_by + (loc.created_at ? " on " + fmtTime(loc.created_at) : "") + (where ? " · " + where : "");
    if (place && !place.active) where += " · no longer listed";
    setText($("s-where"), where);
    const cat = [];
    if (b && b.rating != null) cat.push("Rated " + b.rating.toFixed(1) + " of 5 by " + (b.votes || 0) + (b.votes === 1 ? " vote" : " votes"));
    if (b && b.status) cat.push(b.status);
    if (b && b.year) cat.push("since " + b.year);
    if (b && b.coord_precision === "town") cat.push("position: the town, not the thing");
    const g = d && d.geocache, w = d && d.waypoint;
    if (g) cat.push(cacheFacts(g));
    if (w) cat.push((w.waypoint_type || "waypoint") + " of " + w.parent_id);
    setText($("s-cat"), cat.join(" · "));
    // A cache's hint is not here: it stays hidden until asked for (renderSheet).
    setText($("s-desc"), (b && b.description) || (g ? plain(g.short_description || g.long_description, g.description_is_html) : "")
      || (w ? [w.description, w.comment].filter((x) => x && x !== place.name).join(" — ") : ""));
    renderWaypoints(d);
    const tags = b ? (b.tags || []).concat(b.category ? [b.category] : []) : [];
    setText($("s-tags"), tags.length ? "Tags: " + tags.join(", ") : "");
    const photo = /** @type {HTMLAnchorElement} */ ($("s-photo"));
    const url = b && b.photo_url && /^https?:\/\//.test(b.photo_url) ? b.photo_url : "";
    show(photo, !!url);
    if (url && photo.href !== url) photo.href = url;
  }

  // A cache's own waypoints (parking, stages, the final), nearest first from the car, each opening
  // its own page (where it can be hunted); a waypoint's page leads back to its cache.
  function renderWaypoints(d) {
    const w = d && d.waypoint, kids = (d && d.waypoints) || [], f = lastFix();
    show($("s-parent"), !!w);
    if (w) setText($("s-parent"), "Open its cache, " + w.parent_id);
    show($("s-wpts"), kids.length > 0);
    if (!kids.length) return;
    const far = (x) => f ? approxDistance(f.lat, f.lon, x.latitude, x.longitude) : 0;
    const rows = kids.slice().sort((a, b) => far(a) - far(b) || (a.id < b.id ? -1 : 1));
    setText($("s-wpts-head"), kids.length + (kids.length === 1 ? " waypoint" : " waypoints") + (f ? ", nearest first" : ""));
    keyedRows("s-wpts-list", rows, (x) => x.id, (li) => {
      rowParts(li, ["span", "span.sub"]);
      li.addEventListener("click", () => { const x = rows.find((r) => r.id === li.dataset.id); if (x) openSheet(x.id, x.name); });
    }, (li, x) => {
      setText(/** @type {HTMLElement} */ (li.firstChild), x.name);
      setText(/** @type {HTMLElement} */ (li.lastChild), [x.id, f ? fmtDist(far(x)) + " " + point(bearingTo(f, x.latitude, x.longitude)) : ""].filter(Boolean).join(" · "));
    });
  }

  // Metres between two points, for showing only (spherical; the daemon's ellipsoidal figures are
  // what the hunt uses).
  function approxDistance(lat1, lon1, lat2, lon2) {
    const r = Math.PI / 180, a = Math.sin((lat2 - lat1) * r / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin((lon2 - lon1) * r / 2) ** 2;
    return 2 * 6371008.8 * Math.asin(Math.min(1, Math.sqrt(a)));
  }

  function rate(stars) {
    const s = hc.sheet;
    if (!s) return;
    const id = s.id, name = s.name;
    write({ cmd: "store", op: "rate", id: id, stars: stars }, "rating " + name + " " + stars + " of 5",
      () => "Rated " + name + " " + stars + " of 5.", sheetResult(id)).then(() => reloadPlace(id));
  }

  // ---- Reads ------------------------------------------------------------------------------------
  const loading = new Set();
  async function loadPlace(id) {
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
  function reloadPlace(id) { hc.places.delete(id); return loadPlace(id); }
  hc.reloadPlace = reloadPlace;

  // While hunting, the places near the car that are not in the hunt (so one can be added).
  async function loadNear() {
    if (mode() !== "hunt" || !lastFix() || Date.now() - hc.nearAt < 10000) return;
    hc.nearAt = Date.now();
    const { status, j } = await post("/api/read", { cmd: "near", kinds: ["bigthing"], limit: 5 });
    hc.near = status === 200 && j && Array.isArray(j.result) ? j.result : [];
    render();
  }

  // ---- The loop ---------------------------------------------------------------------------------
  function render() {
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
  function route() {
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

  // ---- Lists read from the daemon a page at a time ----------------------------------------------
  // Bounded (50 a page, 500 at most) and honest: only the newest question's answer is shown, an
  // older one that arrives later is dropped.
  const PAGE = 50, MAX_ROWS = 500;
  /**
   * @typedef {{rows: any[], more: boolean, asked: boolean, loading: boolean, error: string | null, token: number, query: any}} Paged
   * @param {Paged} t
   * @param {any} q the request for the first page (without offset and limit), or a sentence why none can be asked
   * @param {boolean} more
   * @param {() => void} draw
   */
  async function page(t, q, more, draw) {
    t.asked = true;
    if (typeof q === "string") { t.rows = []; t.more = false; t.error = q; t.token++; t.loading = false; draw(); return; }
    const token = ++t.token;
    t.loading = true;
    draw();
    const { status, j } = await post("/api/read", Object.assign({ limit: PAGE, offset: more ? t.rows.length : 0 }, q));
    if (token !== t.token) return;
    t.loading = false;
    if (status === 200 && j && Array.isArray(j.result)) {
      t.rows = more ? t.rows.concat(j.result) : j.result;
      t.more = !!j.more && t.rows.length < MAX_ROWS;
      t.error = null;
      t.query = q;
    } else t.error = why(status, j, "reading the list").text;
    draw();
  }

  /**
   * Draws a paged list's rows (kept per id, updated in place) and its "Show 50 more" button.
   * @param {Paged} t
   * @param {string} listId
   * @param {(r: any) => string} line the row's second line
   * @param {(more: boolean) => void} again
   */
  function drawRows(t, listId, line, again) {
    const ul = $(listId), cache = rowsOf(listId);
    const keep = new Set();
    let prev = null;
    for (const r of t.rows) {
      const id = r.place.id;
      let li = cache.get(id);
      if (!li) {
        li = document.createElement("li");
        li.append(document.createElement("span"), document.createElement("span"));
        li.addEventListener("click", () => openSheet(id, r.place.name));
        cache.set(id, li);
      }
      li.dataset.id = id;
      setText(/** @type {HTMLElement} */ (li.firstChild), r.place.name);
      setText(/** @type {HTMLElement} */ (li.lastChild), line(r));
      const at = prev ? prev.nextSibling : ul.firstChild;
      if (at !== li) ul.insertBefore(li, at);
      prev = li;
      keep.add(id);
    }
    for (const [id, li] of cache) if (!keep.has(id)) { li.remove(); cache.delete(id); }
    let more = /** @type {HTMLButtonElement | null} */ (ul.querySelector(".more"));
    if (t.more && !more) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "more";
      b.addEventListener("click", () => again(true));
      more = b;
    }
    if (more) {
      if (t.more) { setText(more, "Show " + PAGE + " more"); ul.appendChild(more); } else more.remove();
    }
  }
  /** @type {Map<string, Map<string, HTMLLIElement>>} */
  const rowCaches = new Map();
  function rowsOf(listId) { if (!rowCaches.has(listId)) rowCaches.set(listId, new Map()); return /** @type {Map<string, HTMLLIElement>} */ (rowCaches.get(listId)); }

  // ---- Big Things: the catalogue, searched by name or town and state ----------------------------
  function search(more) {
    const text = /** @type {HTMLInputElement} */ ($("t-text")).value.trim();
    const state = /** @type {HTMLSelectElement} */ ($("t-state")).value, sort = /** @type {HTMLSelectElement} */ ($("t-sort")).value;
    /** @type {any} */
    const q = { cmd: "search", kinds: ["bigthing"], sort: sort };
    if (text) q.text = text;
    if (state) q.state = state;
    const f = lastFix();
    if (f) { q.lat = f.lat; q.lon = f.lon; }
    return page(hc.things, sort === "distance" && !f ? "Sorting by distance needs a GPS fix." : q, more, renderThings);
  }
  hc.search = search;

  function renderThings() {
    const t = hc.things;
    drawRows(t, "t-list", (r) => {
      const bits = [[r.town, r.state].filter(Boolean).join(", ")];
      if (r.distance != null) bits.push(fmtDist(r.distance));
      if (r.my_rating) bits.push("your ★" + r.my_rating);
      else if (r.catalogue_rating != null) bits.push("★" + r.catalogue_rating.toFixed(1) + " (" + (r.catalogue_votes || 0) + ")");
      if (r.seen) bits.push("seen");
      if (r.favourite) bits.push("♥");
      if (!r.place.active) bits.push("gone");
      return bits.filter(Boolean).join(" · ");
    }, search);
    const sortName = { name: "by name", rating: "by rating", distance: "nearest first" }[t.query ? t.query.sort : "name"];
    setText($("t-head"), t.error ? t.error : t.loading && !t.rows.length ? "reading…" :
      !t.rows.length ? "No Big Thing matches." : t.rows.length + (t.more ? "+" : "") + (t.rows.length === 1 ? " Big Thing, " : " Big Things, ") + sortName
        + (t.rows.length >= MAX_ROWS && !t.more ? " (the first " + MAX_ROWS + ": search to narrow)" : ""));
    $("t-head").className = t.error ? "bad" : "";
  }

  // ---- My places: the places this box's users added, nearest first; add where the car is -------
  function searchMine(more) {
    const f = lastFix();
    /** @type {any} */
    const q = { cmd: "search", kinds: ["location"], sort: f ? "distance" : "name" };
    if (f) { q.lat = f.lat; q.lon = f.lon; }
    return page(hc.mine, q, more, renderMine);
  }

  function renderMine() {
    const t = hc.mine;
    drawRows(t, "m-list", (r) => (r.distance != null ? fmtDist(r.distance) : "") + (r.seen ? " · seen" : "") + (r.favourite ? " · ♥" : ""), searchMine);
    setText($("m-head"), t.error ? t.error : t.loading && !t.rows.length ? "reading…" : !t.rows.length ? "No places of your own yet." :
      t.rows.length + (t.more ? "+" : "") + (t.rows.length === 1 ? " place, " : " places, ") + (t.query && t.query.sort === "distance" ? "nearest first" : "by name (no GPS fix)"));
    $("m-head").className = t.error ? "bad" : "";
    const name = /** @type {HTMLInputElement} */ ($("m-name")).value.trim(), f = lastFix(), age = fixAge();
    const fresh = !!f && age != null && age <= STALE_S;
    const writer = !!(hc.session && hc.session.writer);
    show($("m-add"), writer);
    const b = button("m-add-btn");
    setText(b, !fresh ? "Adding needs a current GPS fix" : name ? "Add the car's position as “" + name + "”" : "Type a name to add the car's position");
    b.disabled = !fresh || !name || !hc.sse || !(hc.link && hc.link.up);
    const r = hc.mineResult;
    setText($("m-result"), r ? r.text : "");
    $("m-result").className = r ? (r.ok ? "ok" : "bad") : "";
  }

  function addMine() {
    const name = /** @type {HTMLInputElement} */ ($("m-name")).value.trim(), f = lastFix();
    if (!name || !f) return;
    const lat = f.lat, lon = f.lon;
    write({ cmd: "store", op: "add", name: name, lat: lat, lon: lon }, "adding “" + name + "”",
      () => "Added “" + name + "” at the car's position (" + lat.toFixed(5) + ", " + lon.toFixed(5) + ").",
      (res) => { hc.mineResult = res; }).then((r) => {
      if (r) { /** @type {HTMLInputElement} */ ($("m-name")).value = ""; searchMine(false); }
    });
  }

  // ---- Near me: the places and friends around the car, nearest first ---------------------------
  async function loadNearMe(now) {
    const t = hc.nearMe;
    if (!lastFix()) { t.error = "Needs a GPS fix."; t.rows = []; renderNearMe(); return; }
    if (!now && Date.now() - t.at < 10000) return;
    t.at = Date.now();
    const token = ++t.token;
    const { status, j } = await post("/api/read", { cmd: "near", kinds: PLACE_KINDS.concat(["friend"]), limit: 30 });
    if (token !== t.token) return;
    if (status === 200 && j && Array.isArray(j.result)) { t.rows = j.result; t.error = null; } else t.error = why(status, j, "reading what is near").text;
    renderNearMe();
  }

  const KIND_NAMES = { bigthing: "Big Thing", geocache: "geocache", waypoint: "waypoint", location: "your place", friend: "friend", point: "point" };
  function renderNearMe() {
    const t = hc.nearMe, ul = $("nr-list"), cache = rowsOf("nr-list");
    const keep = new Set();
    let prev = null;
    for (const r of t.rows) {
      const id = r.target.id;
      let li = cache.get(id);
      if (!li) {
        li = document.createElement("li");
        li.append(document.createElement("span"), document.createElement("span"));
        li.addEventListener("click", () => {
          if (r.target.kind === "friend") { setFocus(id); location.hash = ""; } else openSheet(id, r.target.name || id);
        });
        cache.set(id, li);
      }
      li.dataset.id = id;
      li.className = r.target.kind === "friend" ? "friend" : "";
      setText(/** @type {HTMLElement} */ (li.firstChild), (r.target.kind === "friend" ? "◆ " : "") + (r.target.name || id));
      setText(/** @type {HTMLElement} */ (li.lastChild), (KIND_NAMES[r.target.kind] || r.target.kind) + " · " + fmtDist(r.distance_m) + " " + point(r.bearing_deg));
      const at = prev ? prev.nextSibling : ul.firstChild;
      if (at !== li) ul.insertBefore(li, at);
      prev = li;
      keep.add(id);
    }
    for (const [id, li] of cache) if (!keep.has(id)) { li.remove(); cache.delete(id); }
    setText($("nr-head"), t.error || (!t.rows.length ? "Nothing near the car." : "The " + t.rows.length + " nearest, from the car's last fix (every 10 s)"));
    renderNearMap();
    $("nr-head").className = t.error ? "bad" : "";
  }

  // With map tiles set (`[page] tile_url`), Near me draws its places on the map, north up, the
  // car at the centre; the range fits the farthest. Without tiles there is the list only (and
  // the radar on Live).
  hc.mapRange = 1000;
  function renderNearMap() {
    const t = hc.nearMe, f = lastFix(), on = !!(hc.session && hc.session.tile_url && f && !t.error && t.rows.length);
    show($("nr-map-box"), on);
    if (!on) return;
    const m = $("nr-map");
    while (m.firstChild) m.removeChild(m.firstChild);
    const range = hc.mapRange = niceRange(t.rows.reduce((x, r) => Math.max(x, r.distance_m || 0), 0) * 1.1 || 1000);
    tiles(m, f, range, 0, mapTileCache);
    svg("circle", { class: "ring", r: 100 }, m);
    svg("text", { class: "label", x: 4, y: -102 }, m).textContent = fmtDist(range);
    svg("path", { class: "car", d: "M0,-9 L6,7 L0,3 L-6,7 Z", transform: "rotate(" + (course() || 0) + ")" }, m);
    for (const r of t.rows) {
      const a = r.bearing_deg * Math.PI / 180, d = 100 * Math.min(1, r.distance_m / range);
      const friend = r.target.kind === "friend", x = d * Math.sin(a), y = -d * Math.cos(a);
      const dot = friend ? svg("rect", { class: "dot friend", x: -5, y: -5, width: 10, height: 10, transform: "translate(" + x.toFixed(1) + "," + y.toFixed(1) + ") rotate(45)" }, m)
        : svg("circle", { class: "dot", r: 6, cx: x.toFixed(1), cy: y.toFixed(1) }, m);
      dot.dataset.id = r.target.id;
      svg("title", {}, dot).textContent = (r.target.name || r.target.id) + " " + fmtDist(r.distance_m);
      dot.addEventListener("click", () => { if (friend) { setFocus(r.target.id); location.hash = ""; } else openSheet(r.target.id, r.target.name || r.target.id); });
    }
  }

  // ---- A long press on the radar or the map: add a place of one's own there ------------------
  // The point is measured from the fix the picture was drawn around, at the moment of the press,
  // and kept as a latitude and longitude: the car driving on does not move it.
  const PRESS_MS = 700;
  /** @type {{lat: number, lon: number, m: number, deg: number} | null} */
  hc.here = null;
  /** @type {Result | null} */ hc.hereResult = null;
  function longPress(el, rangeOf, upOf) {
    /** @type {{x: number, y: number, timer: number} | null} */
    let press = null;
    const cancel = () => { if (press) { clearTimeout(press.timer); press = null; } };
    el.addEventListener("pointerdown", (ev) => {
      const e = /** @type {PointerEvent} */ (ev);
      cancel();
      if (!(hc.session && hc.session.writer) || !freshFix()) return;
      const x = e.clientX, y = e.clientY;
      press = { x: x, y: y, timer: setTimeout(() => { press = null; pressAt(/** @type {SVGSVGElement} */ (/** @type {unknown} */ (el)), x, y, rangeOf(), upOf()); }, PRESS_MS) };
    });
    el.addEventListener("pointermove", (ev) => {
      const e = /** @type {PointerEvent} */ (ev);
      if (press && Math.hypot(e.clientX - press.x, e.clientY - press.y) > 10) cancel();
    });
    for (const n of ["pointerup", "pointercancel", "pointerleave"]) el.addEventListener(n, cancel);
    el.addEventListener("contextmenu", (e) => e.preventDefault());
  }
  function pressAt(el, cx, cy, range, up) {
    const f = freshFix(), ctm = el.getScreenCTM();
    if (!f || !ctm) return;
    const p = new DOMPoint(cx, cy).matrixTransform(ctm.inverse());
    const m = Math.hypot(p.x, p.y) / 100 * range, deg = ((Math.atan2(p.x, -p.y) * 180 / Math.PI + up) % 360 + 360) % 360;
    // Spherical forward step: metres off at most for a point on the radar (the daemon measures
    // the place ellipsoidally from then on).
    const R = 6371008.8, d = m / R, b = deg * Math.PI / 180, la = f.lat * Math.PI / 180, lo = f.lon * Math.PI / 180;
    const la2 = Math.asin(Math.sin(la) * Math.cos(d) + Math.cos(la) * Math.sin(d) * Math.cos(b));
    const lo2 = lo + Math.atan2(Math.sin(b) * Math.sin(d) * Math.cos(la), Math.cos(d) - Math.sin(la) * Math.sin(la2));
    hc.here = { lat: la2 * 180 / Math.PI, lon: ((lo2 * 180 / Math.PI + 540) % 360) - 180, m: m, deg: deg };
    hc.hereResult = null;
    // A new spot starts with no name: a name belongs to the spot it was typed for.
    /** @type {HTMLInputElement} */ ($("h-name")).value = "";
    renderHere();
    $("h-name").focus();
  }
  function renderHere() {
    const h = hc.here;
    show($("here"), !!h);
    if (!h) return;
    setText($("h-where"), "A place of your own " + fmtDist(h.m) + " " + point(h.deg) + " of the car (" + h.lat.toFixed(5) + ", " + h.lon.toFixed(5) + ")");
    const name = /** @type {HTMLInputElement} */ ($("h-name")).value.trim(), b = button("h-add");
    setText(b, name ? "Add " + quoted(name) + " there" : "Type a name to add it");
    b.disabled = !name || !canWrite();
    const r = hc.hereResult;
    setText($("h-result"), r ? r.text : "");
    $("h-result").className = r ? (r.ok ? "ok" : "bad") : "";
  }
  function addHere() {
    const h = hc.here, name = /** @type {HTMLInputElement} */ ($("h-name")).value.trim();
    if (!h || !name) return;
    write({ cmd: "store", op: "add", name: name, lat: h.lat, lon: h.lon }, "adding " + quoted(name),
      (r) => "Added " + quoted(r.result.name) + " at " + h.lat.toFixed(5) + ", " + h.lon.toFixed(5) + ".",
      (res) => { hc.hereResult = res; hc.mineResult = res; }).then((r) => {
      if (r && hc.here === h) { hc.here = null; /** @type {HTMLInputElement} */ ($("h-name")).value = ""; }
      renderHere();
    });
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

  // ---- Rows kept per key ------------------------------------------------------------------------
  /**
   * Draws a list's rows in the items' order, each kept per key and updated in place (never
   * rebuilt: a tap that starts on a row and ends on its replacement would be lost). Handlers
   * look their item up by the row's key, so they act on what the row shows now.
   * @param {string} listId
   * @param {any[]} items
   * @param {(x: any) => string} key
   * @param {(li: HTMLLIElement) => void} make builds a new row's children and handlers
   * @param {(li: HTMLLIElement, x: any) => void} fill sets its text from the item, on every redraw
   */
  function keyedRows(listId, items, key, make, fill) {
    const ul = $(listId), cache = rowsOf(listId), keep = new Set();
    let prev = null;
    for (const x of items) {
      const id = key(x);
      let li = cache.get(id);
      if (!li) { li = document.createElement("li"); li.dataset.id = id; make(li); cache.set(id, li); }
      fill(li, x);
      const at = prev ? prev.nextSibling : ul.firstChild;
      if (at !== li) ul.insertBefore(li, at);
      prev = li;
      keep.add(id);
    }
    for (const [id, li] of cache) if (!keep.has(id)) { li.remove(); cache.delete(id); }
  }
  /** A row's parts, made once. @type {(li: HTMLElement, tags: string[]) => void} */
  function rowParts(li, tags) { for (const t of tags) { const e = document.createElement(t.split(".")[0]); e.className = t.split(".")[1] || ""; if (e instanceof HTMLButtonElement) e.type = "button"; li.appendChild(e); } }
  /** The row's part of a class. @type {(li: HTMLElement, cls: string) => HTMLElement} */
  const part = (li, cls) => /** @type {HTMLElement} */ (li.querySelector("." + cls));
  /** Whether writes can reach the box now: a writer's device, the stream and the tracker up. */
  function canWrite() { return !!(hc.session && hc.session.writer && hc.sse && hc.link && hc.link.up); }
  function freshFix() { const f = lastFix(), age = fixAge(); return f && age != null && age <= STALE_S ? f : null; }
  function quoted(s) { return "“" + s + "”"; }

  // ---- Geocaches: the caches nearest the daemon's last fix, found or not; each opens its page --
  // The daemon's own `search` (nearest first from the fix the daemon reported, with this box's
  // seen state: a cache seen is a cache found), a page of 50 at a time like Big Things. The
  // first page is asked again once the car is 100 m from where it was last asked, at most every
  // 15 s (a parked car asks nothing); pages beyond the first stay as they are.
  function searchCaches(more) {
    const f = lastFix(), t = hc.caches;
    t.at = Date.now();
    if (!more) t.from = f ? { lat: f.lat, lon: f.lon } : null;
    return page(t, f ? { cmd: "search", kinds: ["geocache"], sort: "distance", lat: f.lat, lon: f.lon }
      : "The geocaches are listed nearest first from the car: waiting for a GPS fix.", more, renderCaches);
  }
  function refreshCaches() {
    const t = hc.caches, f = lastFix();
    if (t.loading || t.rows.length > PAGE || Date.now() - t.at <= 15000 || !f) return;
    if (!t.from || approxDistance(t.from.lat, t.from.lon, f.lat, f.lon) >= 100) searchCaches(false);
  }

  // Degrees from north, from the car to a place (spherical: for a compass point only).
  function bearingTo(f, lat, lon) {
    const r = Math.PI / 180, p1 = f.lat * r, p2 = lat * r, dl = (lon - f.lon) * r;
    return Math.atan2(Math.sin(dl) * Math.cos(p2), Math.cos(p1) * Math.sin(p2) - Math.sin(p1) * Math.cos(p2) * Math.cos(dl)) / r;
  }

  function renderCaches() {
    const t = hc.caches, f = lastFix();
    drawRows(t, "c-list", (r) => [r.place.id, r.distance != null ? fmtDist(r.distance) + (f ? " " + point(bearingTo(f, r.place.latitude, r.place.longitude)) : "") : "",
      r.seen ? "found" : "", r.favourite ? "♥" : "", r.place.active ? "" : "gone"].filter(Boolean).join(" · "), searchCaches);
    setText($("c-head"), t.error || (!t.asked || (t.loading && !t.rows.length) ? "reading…" : !t.rows.length ? "No geocache is stored: import a GPX file on the box (hotcold import)." :
      t.rows.length + (t.more ? "+" : "") + (t.rows.length === 1 ? " geocache" : " geocaches") + ", nearest first from the car"
      + (t.rows.length >= MAX_ROWS && !t.more ? " (the nearest " + MAX_ROWS + ")" : "")));
    $("c-head").className = t.error ? "bad" : "";
  }

  // A cache listing's description as text: the listing may be HTML, read into an inert document
  // (no script runs, nothing loads) only to take its words, as `hotcold show` strips it.
  function plain(s, html) {
    if (!s) return "";
    const text = html ? (new DOMParser().parseFromString(s, "text/html").body.textContent || "") : s;
    const t = text.replace(/\s+/g, " ").trim();
    return t.length > 600 ? t.slice(0, 600) + "…" : t;
  }
  function cacheFacts(g) {
    const n = (v) => (v == null ? "?" : String(Math.round(v * 10) / 10));
    return [g.cache_type || "geocache", g.container ? g.container + " container" : "", "D" + n(g.difficulty) + "/T" + n(g.terrain),
      g.archived ? "archived" : g.available ? "available" : "disabled", g.owner ? "by " + g.owner : ""].filter(Boolean).join(" · ");
  }

  // ---- Friends: whom this box follows and their finds, with who liked what ----------------------
  // Read when the screen opens, after a write from it, and when the live stream says a find, a
  // like or a follow happened (`friendsChanged`): never on a timer.
  async function loadFriends() {
    const t = hc.friends;
    t.reloads++;
    const token = ++t.token, started = Date.now();
    // As many as asked for (older pages included), up to the daemon's page of 200: one read
    // for every reason, so a change heard while older finds are asked for cannot undo them.
    const limit = Math.min(FEED_MAX, Math.max(FEED_PAGE, t.want));
    const [a, b] = await Promise.all([post("/api/read", { cmd: "following" }), post("/api/read", { cmd: "feed", limit: limit })]);
    // A write since (a like, a follow) makes this answer older than what the page shows.
    if (token !== t.token) return;
    t.asked = true;
    t.readAt = started;
    if (a.status === 200 && a.j && Array.isArray(a.j.following)) { t.following = a.j.following; t.ferror = null; } else t.ferror = why(a.status, a.j, "reading whom you follow").text;
    if (b.status === 200 && b.j && Array.isArray(b.j.items)) { t.items = b.j.items; t.more = b.j.items.length === limit && limit < FEED_MAX; t.error = null; }
    else t.error = why(b.status, b.j, "reading the feed").text;
    renderFriends();
  }
  const FEED_PAGE = 50, FEED_MAX = 200;

  // The daemon's FEED, LIKE, LIKE_RECEIVED or FOLLOWING_CHANGED, as the live stream tells it
  // (only the class: the lists are read with this page's own access). A burst (a replay after a
  // reconnection, a friend's backlog) is read once, a moment after it ends.
  function friendsChanged(cls) {
    const t = hc.friends;
    t.heard = cls;
    if (hc.screen !== "friends") return;    // opening the screen reads it
    clearTimeout(t.soon);
    t.soon = setTimeout(loadFriends, 150);
  }

  // The next 50 older finds: the one read asks for 50 more.
  function olderFinds() {
    const t = hc.friends;
    t.want = Math.min(FEED_MAX, Math.max(FEED_PAGE, t.items.length) + FEED_PAGE);
    loadFriends();
  }

  const FRIEND_ID = /^[A-Za-z0-9._-]{1,64}\/[A-Za-z0-9._-]{1,64}$/;
  function whoBox() { return /** @type {HTMLInputElement} */ ($("fr-who")); }
  function author(x) { return x.own ? "This car" : x.author + "/" + x.device; }
  function findName(x) { return (x.own ? "this car's" : x.author + "/" + x.device + "'s") + " find at " + x.place.name; }

  function renderFriends() {
    const t = hc.friends, can = canWrite(), writer = !!(hc.session && hc.session.writer);
    const who = whoBox().value.trim(), b = button("fr-follow");
    const already = t.following.some((f) => f.who === who);
    show($("fr-add"), writer);
    setText(b, !who ? "Type a friend's USER/DEVICE to follow" : !FRIEND_ID.test(who) ? "USER/DEVICE, such as jane/ute" : already ? "Already following " + who : "Follow " + who);
    b.disabled = !can || !who || !FRIEND_ID.test(who) || already || t.pending.has("follow");
    // A reply fades after a while (as the live screen's does): the lists below say what is so now.
    // It goes at once when lists read after it say otherwise ("Stopped following jane/ute" while
    // another phone has followed her again): the page never shows both.
    const fr = hc.friendResult;
    if (fr && fr.ok && (Date.now() - fr.at > 15000 || (fr.holds && t.readAt > fr.at && !fr.holds()))) hc.friendResult = null;
    const r = hc.friendResult;
    setText($("fr-result"), r ? r.text : "");
    $("fr-result").className = r ? (r.ok ? "ok" : "bad") : "";
    keyedRows("fr-following", t.following, (f) => f.who, (li) => {
      rowParts(li, ["span", "span.sub", "button.unfollow"]);
      part(li, "unfollow").addEventListener("click", () => unfollow(li.dataset.id || ""));
    }, (li, f) => {
      setText(/** @type {HTMLElement} */ (li.firstChild), f.who);
      setText(part(li, "sub"), "following since " + fmtTime(f.since));
      const ub = /** @type {HTMLButtonElement} */ (part(li, "unfollow"));
      show(ub, writer);
      setText(ub, "Unfollow " + f.who);
      ub.disabled = !can || t.pending.has("follow");
    });
    setText($("fr-fhead"), t.ferror || (!t.asked ? "reading…" : !t.following.length ? "You follow nobody yet." : "You follow " + t.following.length + (t.following.length === 1 ? " car" : " cars")));
    $("fr-fhead").className = t.ferror ? "bad" : "";
    keyedRows("fr-feed", t.items, (x) => x.id, (li) => {
      rowParts(li, ["span", "span.sub", "span.likes", "button.like"]);
      part(li, "like").addEventListener("click", () => { const x = t.items.find((i) => i.id === li.dataset.id); if (x) like(x); });
    }, (li, x) => {
      setText(/** @type {HTMLElement} */ (li.firstChild), author(x) + (x.kind === "arrived" ? " arrived at " : " recorded ") + x.place.name);
      setText(part(li, "sub"), [fmtTime(x.time), x.rating != null ? "★".repeat(x.rating) + "☆".repeat(5 - x.rating) : "",
        x.note ? quoted(x.note) : "", x.note && x.note_words ? x.note_words + (x.note_words === 1 ? " word" : " words") : ""].filter(Boolean).join(" · "));
      const likers = x.likers || [];
      setText(part(li, "likes"), !x.likes ? "No likes yet" : "Liked by " + likers.join(", ") + (x.likes > likers.length ? " and " + (x.likes - likers.length) + " more" : ""));
      const lb = /** @type {HTMLButtonElement} */ (part(li, "like"));
      // A car's own finds get their likes from friends; there is nothing here to press.
      show(lb, writer && !x.own);
      setText(lb, (x.liked_by_me ? "Take back your like of " : "Like ") + findName(x));
      lb.disabled = !can || t.pending.has(x.id);
    });
    const ul = $("fr-feed");
    let older = /** @type {HTMLButtonElement | null} */ (ul.querySelector(".more"));
    if (t.more && !older) {
      older = document.createElement("button");
      older.type = "button";
      older.className = "more";
      older.addEventListener("click", olderFinds);
    }
    if (older) { if (t.more) { setText(older, "Show older finds"); ul.appendChild(older); } else older.remove(); }
    setText($("fr-head"), t.error || (!t.asked ? "" : !t.items.length ? "No finds in the feed yet." : "Finds, newest first"
      + (t.items.length >= FEED_MAX ? " (the newest " + FEED_MAX + ")" : "")));
    $("fr-head").className = t.error ? "bad" : "";
  }

  // A write from the Friends screen: the item or friend is pending (its button greyed, so a
  // second tap sends nothing) until the daemon answers; then the feed is read afresh.
  // `holds` says whether the lists as last read still agree with the reply's words.
  function friendWrite(key, request, what, done, holds) {
    const t = hc.friends;
    t.pending.add(key);
    t.token++;
    return write(request, what, done, (res) => { if (res.ok && res.cause === "write") res.holds = holds; hc.friendResult = res; }).then((r) => {
      t.pending.delete(key);
      loadFriends();
      return r;
    });
  }
  function follow() {
    const who = whoBox().value.trim();
    if (!FRIEND_ID.test(who)) return;
    friendWrite("follow", { cmd: "follow", who: who }, "following " + who, (r) => (r.new ? "Now following " + who + "." : "Already following " + who + "."),
      () => hc.friends.following.some((f) => f.who === who))
      .then((r) => { if (r && whoBox().value.trim() === who) whoBox().value = ""; });
  }
  function unfollow(who) {
    friendWrite("follow", { cmd: "unfollow", who: who }, "unfollowing " + who, (r) => (r.new ? "Stopped following " + who + "." : "You were not following " + who + "."),
      () => !hc.friends.following.some((f) => f.who === who));
  }
  function like(x) {
    const name = findName(x), on = !x.liked_by_me;
    friendWrite(x.id, { cmd: on ? "like" : "unlike", item: x.id }, (on ? "liking " : "taking back your like of ") + name,
      (r) => (on ? (r.new ? "Liked " : "You already liked ") + name + "." : (r.new ? "Took back your like of " : "You had not liked ") + name + "."),
      () => hc.friends.items.some((i) => i.id === x.id && !!i.liked_by_me === on));
  }

  // ---- Field observations: what was seen, newest first; a note at the car's fix ----------------
  async function loadObs() {
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
  function renderObs() {
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

  // ---- An observation's own: correct what, kind and notes; delete after a question naming it --
  // Only its recorder may (the daemon's rule); a reader of every user's (root) sees others'.
  function obsBoxes() {
    return { title: /** @type {HTMLInputElement} */ ($("o-etitle")), kind: /** @type {HTMLSelectElement} */ ($("o-eclass")),
      desc: /** @type {HTMLTextAreaElement} */ ($("o-edesc")) };
  }
  function renderObsEdit(o) {
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
  function saveObs() {
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
  function deleteObs() {
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

  // ---- The sheet's own place: rename and delete (delete asks first, naming the place) ---------
  function renameBox() { return /** @type {HTMLInputElement} */ ($("s-rename")); }
  function renderOwn(s, p, can) {
    const loc = p && p.detail && p.detail.location, writer = !!(hc.session && hc.session.writer);
    const custom = !!loc && loc.origin === "custom";
    // Only its creator may change a place (the daemon's rule); say so rather than offer a button.
    const user = hc.session && hc.session.user;
    const mayChange = custom && writer && (!user || !loc.created_by || loc.created_by === user);
    show($("s-own"), mayChange);
    setText($("s-owner"), custom && writer && !mayChange ? "Only " + loc.created_by + ", who added it, may rename or delete it." : "");
    if (!mayChange) return;
    const cur = p.detail.place.name, box = renameBox();
    if (!hc.renames.has(s.id) && !s.renameFilled) { box.value = cur; s.renameFilled = true; }
    const nn = box.value.trim(), rb = button("s-rename-btn");
    setText(rb, nn && nn !== cur ? "Rename " + quoted(cur) + " to " + quoted(nn) : "Type a new name to rename " + quoted(cur));
    rb.disabled = !can || !nn || nn === cur;
    show($("s-delete"), !s.confirm);
    setText($("s-delete"), "Delete " + quoted(cur) + "…");
    button("s-delete").disabled = !can;
    show($("s-confirm"), !!s.confirm);
    setText($("s-confirm-q"), "Delete " + quoted(cur) + " from the box for good?");
    setText($("s-confirm-yes"), "Yes, delete " + quoted(cur));
    button("s-confirm-yes").disabled = !can;
    setText($("s-confirm-no"), "No, keep " + quoted(cur));
  }

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
  function renderSubmit() {
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
      if (r && /** @type {HTMLInputElement} */ ($("u-name")).value.trim() === name) {
        for (const id of ["u-name", "u-photo", "u-address", "u-when"]) /** @type {HTMLInputElement} */ ($(id)).value = "";
      }
      renderSubmit();
    });
  }

  function setupMoreScreens() {
    longPress($("radar"), () => hc.radarRange, () => (hc.courseUp && course() != null ? /** @type {number} */ (course()) : 0));
    longPress($("nr-map"), () => hc.mapRange, () => 0);
    $("h-name").addEventListener("input", renderHere);
    $("h-add").addEventListener("click", addHere);
    $("h-cancel").addEventListener("click", () => { hc.here = null; /** @type {HTMLInputElement} */ ($("h-name")).value = ""; renderHere(); });
    for (const id of ["u-name", "u-address", "u-when"]) $(id).addEventListener("input", renderSubmit);
    $("u-photo").addEventListener("change", renderSubmit);
    $("u-send").addEventListener("click", sendSubmit);
    $("fr-who").addEventListener("input", renderFriends);
    $("fr-follow").addEventListener("click", follow);
    for (const id of ["o-class", "o-title"]) $(id).addEventListener("input", renderObs);
    $("o-class").addEventListener("change", renderObs);
    $("o-add-btn").addEventListener("click", addObs);
    $("o-close").addEventListener("click", () => { hc.obsSheet = null; renderObsSheet(); });
    for (const id of ["o-etitle", "o-eclass", "o-edesc"]) $(id).addEventListener("input", () => { hc.obsEdit.result = null; renderObsSheet(); });
    $("o-save").addEventListener("click", saveObs);
    $("o-delete").addEventListener("click", () => { hc.obsEdit.confirm = true; renderObsSheet(); $("o-confirm").scrollIntoView({ block: "nearest" }); });
    $("o-confirm-no").addEventListener("click", () => { hc.obsEdit.confirm = false; renderObsSheet(); });
    $("o-confirm-yes").addEventListener("click", deleteObs);
    $("s-hint-btn").addEventListener("click", () => { if (hc.sheet) { hc.sheet.hint = true; renderSheet(); } });
    $("s-parent").addEventListener("click", () => {
      const p = hc.sheet && hc.places.get(hc.sheet.id), w = p && p.detail && p.detail.waypoint;
      if (w) openSheet(w.parent_id, null);
    });
    $("s-hunt").addEventListener("click", () => {
      const s = hc.sheet;
      if (!s) return;
      const id = s.id, name = s.name, only = mode() === "hunt";
      write({ cmd: "hunt", targets: [id] }, "hunting " + name + (only ? " only" : ""), (r) => trackingReply(r, "Now hunting " + name + (only ? " only" : "")), sheetResult(id));
    });
    $("s-rename").addEventListener("input", () => { if (hc.sheet) { hc.renames.set(hc.sheet.id, renameBox().value); renderSheet(); } });
    $("s-rename-btn").addEventListener("click", () => {
      const s = hc.sheet, p = s && hc.places.get(s.id);
      if (!s || !p || !p.detail) return;
      // The name goes to the place the sheet was opened for, whatever has the focus now.
      const id = s.id, cur = p.detail.place.name, name = renameBox().value.trim();
      if (!name || name === cur) return;
      write({ cmd: "store", op: "rename", id: id, name: name }, "renaming " + quoted(cur) + " to " + quoted(name),
        (r) => "Renamed " + quoted(cur) + " to " + quoted(r.result.name) + ".", sheetResult(id)).then((r) => {
        if (!r) return;
        hc.renames.delete(id);
        if (hc.sheet && hc.sheet.id === id) { hc.sheet.name = r.result.name; hc.sheet.renameFilled = false; }
        reloadPlace(id);
        searchMine(false);
      });
    });
    $("s-delete").addEventListener("click", () => {
      if (!hc.sheet) return;
      hc.sheet.confirm = true;
      renderSheet();
      // The question sits at the sheet's foot: bring it into view where the finger is.
      $("s-confirm").scrollIntoView({ block: "nearest" });
    });
    $("s-confirm-no").addEventListener("click", () => { if (hc.sheet) { hc.sheet.confirm = false; renderSheet(); } });
    $("s-confirm-yes").addEventListener("click", () => {
      const s = hc.sheet, p = s && hc.places.get(s.id);
      if (!s || !p || !p.detail) return;
      const id = s.id, cur = p.detail.place.name;
      write({ cmd: "store", op: "delete", id: id }, "deleting " + quoted(cur), (r) => "Deleted " + quoted(r.result.name) + ".",
        (res) => { hc.mineResult = res; sheetResult(id)(res); }).then((r) => {
        if (r) {
          if (hc.sheet && hc.sheet.id === id) closeSheet();
          hc.places.delete(id);
          hc.renames.delete(id);
          searchMine(false);
        } else if (hc.sheet && hc.sheet.id === id) { hc.sheet.confirm = false; renderSheet(); }
      });
    });
  }

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
    setupWrites();
    setupScreens();
    setupMoreScreens();
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

  function setupScreens() {
    let timer = 0;
    $("t-text").addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(() => search(false), 300); });
    for (const id of ["t-state", "t-sort"]) $(id).addEventListener("change", () => search(false));
    $("s-fav-btn").addEventListener("click", () => {
      const s = hc.sheet, p = s && hc.places.get(s.id);
      if (!p || !p.mine) return;
      const id = s.id, name = s.name, fav = p.mine.favourite;
      write({ cmd: "store", op: fav ? "unfav" : "fav", id: id }, fav ? "removing " + name + " from favourites" : "adding " + name + " to favourites",
        () => (fav ? "Removed " + name + " from favourites." : "Added " + name + " to favourites."), sheetResult(id)).then(() => reloadPlace(id));
    });
    $("s-unrate").addEventListener("click", () => rate(0));
    $("m-name").addEventListener("input", renderMine);
    $("n-pick").addEventListener("change", () => { location.hash = /** @type {HTMLSelectElement} */ ($("n-pick")).value; });
    $("m-add-btn").addEventListener("click", addMine);
  }
})();
