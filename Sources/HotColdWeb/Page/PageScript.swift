extension PageAssets {
    /// The page's logic: follow `/events` (EventSource resumes with Last-Event-ID by itself),
    /// keep a model of the targets from STATUS and events, draw the focus target, the radar and
    /// the list, and send writes as the daemon's own request lines to `/api/command`.
    /// `window.hotcold` exposes the model for the browser tests and the latency benchmark.
    static let script = #"""
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const POINTS = ["N","NNE","NE","ENE","E","ESE","SE","SSE","S","SSW","SW","WSW","W","WNW","NW","NNW"];
  const SLOW = 1.5, STALE_S = 5;
  const hc = window.hotcold = {
    seqs: [], passages: [], updates: [], tierUpdates: [], opens: 0, targets: new Map(), status: null, statusAt: 0,
    link: null, sse: false, focus: localStorage.getItem("hc-focus"), tiers: null, session: null,
    courseUp: localStorage.getItem("hc-course-up") === "1", lastDist: null, gaps: []
  };

  function fmtDist(m) {
    if (m == null || !isFinite(m)) return "—";
    if (m < 1000) return Math.round(m) + " m";
    if (m < 10000) return (m / 1000).toFixed(1) + " km";
    return Math.round(m / 1000) + " km";
  }
  function point(deg) { return POINTS[Math.round((((deg % 360) + 360) % 360) / 22.5) % 16]; }
  function norm180(d) { d = ((d % 360) + 360) % 360; return d > 180 ? d - 360 : d; }

  function fixAge() {
    const s = hc.status;
    if (!s || !s.gps || !s.gps.last_fix) return null;
    // The daemon measures the age on its monotonic clock from the fix's arrival (age_s); the
    // receiver's and the box's wall clocks may be years apart (no RTC, a replayed drive).
    const a = s.gps.last_fix.age_s;
    if (typeof a !== "number") return null;
    return a + (Date.now() - hc.statusAt) / 1000;
  }
  function course() {
    const f = hc.status && hc.status.gps && hc.status.gps.last_fix;
    if (!f || f.speed_mps == null || f.speed_mps < SLOW || f.track_deg == null) return null;
    return f.track_deg;
  }

  function chooseFocus() {
    const list = [...hc.targets.values()];
    if (!list.length) return null;
    if (hc.focus && hc.targets.has(hc.focus)) return hc.targets.get(hc.focus);
    const mode = hc.status && hc.status.tracking && hc.status.tracking.mode;
    list.sort((a, b) => a.distance_m - b.distance_m);
    if (mode === "hunt") return list[0];
    const c = course();
    if (c != null) {
      const ahead = list.filter((t) => Math.abs(norm180(t.bearing_deg - c)) <= 90);
      if (ahead.length) return ahead[0];
    }
    return list[0];
  }

  function setText(el, t) { if (el.textContent !== t) el.textContent = t; }

  function renderFocus() {
    const t = chooseFocus();
    if (!t) {
      setText($("f-name"), hc.status ? "no target tracked" : "waiting for the daemon…");
      setText($("f-dist"), "—"); setText($("f-tiername"), "—"); setText($("f-trend"), "—"); setText($("f-eta"), ""); setText($("f-dir"), "");
      $("gauge-fill").style.width = "0";
      return;
    }
    setText($("f-name"), t.target.name || t.target.id);
    const d = fmtDist(t.distance_m);
    if ($("f-dist").textContent !== d) { $("f-dist").textContent = d; hc.updates.push({ t: Date.now(), text: d, id: t.target.id }); if (hc.updates.length > 5000) hc.updates.splice(0, 1000); }
    const tiers = hc.tiers || ["freezing","chilly","cold","cool","mild","warm","hot","burning"];
    $("gauge-fill").style.width = Math.round(100 * (t.tier + 1) / tiers.length) + "%";
    if ($("f-tiername").textContent !== t.tier_name) { $("f-tiername").textContent = t.tier_name; hc.tierUpdates.push({ t: Date.now(), text: t.tier_name, id: t.target.id }); }
    const trendText = { hotter: "▲ hotter", colder: "▼ colder", steady: "■ steady", unknown: "? unknown" }[t.trend] || t.trend;
    setText($("f-trend"), trendText);
    $("f-trend").className = t.trend;
    let eta = "";
    if (t.trend === "hotter") {
      const f = hc.status && hc.status.gps && hc.status.gps.last_fix;
      let s = (t.eta_s != null && Date.now() - t.etaAt < 15000) ? t.eta_s : null;
      if (s == null && f && f.speed_mps > SLOW) s = t.distance_m / f.speed_mps;
      if (s != null) eta = "ETA " + (s < 60 ? "<1" : Math.round(s / 60)) + " min";
    }
    setText($("f-eta"), eta);
    const c = course();
    let rot, dir;
    if (c != null) {
      const rel = norm180(t.bearing_deg - c);
      rot = rel;
      dir = Math.abs(rel) < 8 ? "straight ahead" : Math.round(Math.abs(rel)) + "° " + (rel > 0 ? "right" : "left");
    } else {
      rot = t.bearing_deg;
      dir = point(t.bearing_deg) + " (" + Math.round(t.bearing_deg) + "°)";
    }
    $("f-arrow-shape").setAttribute("transform", "rotate(" + rot.toFixed(1) + ")");
    setText($("f-dir"), dir);
  }

  function renderGPS() {
    const s = hc.status, age = fixAge(), el = $("gps");
    let text = "GPS: no status", bad = true;
    if (s && s.gps) {
      const f = s.gps.last_fix, st = s.gps.state;
      const mode = f ? (f.mode >= 3 ? "3D fix" : f.mode === 2 ? "2D fix" : "no fix") : "no fix";
      text = "GPS " + (st === "fix" ? mode : st);
      if (f && f.accuracy_m != null) text += " ±" + Math.round(f.accuracy_m) + " m";
      if (age != null) text += " · " + Math.max(0, Math.round(age)) + " s ago";
      bad = st !== "fix" || age == null || age > STALE_S;
    }
    setText(el, text);
    el.className = "pill " + (bad ? "bad" : "ok");
    const stale = bad || !hc.sse || (hc.link && !hc.link.up);
    document.body.classList.toggle("stale", stale);
    $("stale-note").hidden = !stale;
    if (stale) setText($("stale-note"), "OLD DATA — " + (!hc.sse ? "page not connected" : hc.link && !hc.link.up ? "daemon gone" : age == null ? "no fix" : "last fix " + Math.round(age) + " s ago"));
  }

  function renderLink() {
    const el = $("link");
    if (!hc.sse) { setText(el, "hotcold-web: reconnecting…"); el.className = "pill bad"; return; }
    if (!hc.link) { setText(el, "daemon: …"); el.className = "pill"; return; }
    setText(el, hc.link.up ? "daemon: connected" : "daemon: gone, retrying");
    el.className = "pill " + (hc.link.up ? "ok" : "bad");
  }

  function tierColour(tier) {
    const n = (hc.tiers || []).length || 8, x = n > 1 ? tier / (n - 1) : 0;
    const hue = 220 - 215 * x;
    return "hsl(" + hue.toFixed(0) + ",90%,55%)";
  }

  const SVG = "http://www.w3.org/2000/svg";
  function svg(tag, attrs, parent) { const e = document.createElementNS(SVG, tag); for (const k in attrs) e.setAttribute(k, attrs[k]); parent.appendChild(e); return e; }

  function niceRange(m) { const steps = [200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000]; for (const s of steps) if (m <= s) return s; return steps[steps.length - 1]; }

  // Blips and list rows are kept per target and updated in place (never rebuilt on a redraw):
  // a tap that starts on one and ends on its replacement would otherwise be lost.
  const blipCache = new Map(), rowCache = new Map();

  function renderRadar() {
    const r = $("radar");
    let bg = $("radar-bg"), blips = $("radar-blips");
    if (!bg) { bg = svg("g", { id: "radar-bg" }, r); blips = svg("g", { id: "radar-blips" }, r); }
    while (bg.firstChild) bg.removeChild(bg.firstChild);
    const list = [...hc.targets.values()];
    const far = list.reduce((m, t) => Math.max(m, t.distance_m), 0);
    const range = niceRange(far * 1.05 || 1000);
    const c = course();
    const up = hc.courseUp && c != null ? c : 0;
    const f = hc.status && hc.status.gps && hc.status.gps.last_fix;
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
    const focus = chooseFocus();
    for (const t of list) {
      const id = t.target.id;
      let b = blipCache.get(id);
      if (!b) {
        b = svg("circle", { r: 7 }, blips);
        svg("title", {}, b);
        b.addEventListener("click", () => setFocus(id));
        blipCache.set(id, b);
      }
      const a = (t.bearing_deg - up) * Math.PI / 180, d = 100 * Math.min(1, t.distance_m / range);
      b.setAttribute("class", "blip" + (focus === t ? " focus" : ""));
      b.setAttribute("cx", (d * Math.sin(a)).toFixed(1)); b.setAttribute("cy", (-d * Math.cos(a)).toFixed(1));
      b.setAttribute("fill", tierColour(t.tier));
      setText(b.firstChild, (t.target.name || id) + " " + fmtDist(t.distance_m) + " " + t.tier_name);
    }
    for (const [id, b] of blipCache) if (!hc.targets.has(id)) { b.remove(); blipCache.delete(id); }
    setText($("radar-mode"), hc.courseUp ? "Course up" : "North up");
  }

  // Optional map tiles (page.tile_url): the 3×3 Web Mercator tiles around the fix at the zoom
  // whose tile spans about the radar's range, placed in radar units (100 = range).
  function tiles(r, f, range, up) {
    const lat = f.lat * Math.PI / 180, mPerPx0 = 156543.034 * Math.cos(lat);
    let z = Math.max(1, Math.min(18, Math.round(Math.log2(mPerPx0 * 256 / range))));
    const n = Math.pow(2, z), xf = (f.lon + 180) / 360 * n;
    const yf = (1 - Math.log(Math.tan(lat) + 1 / Math.cos(lat)) / Math.PI) / 2 * n;
    const tileM = mPerPx0 * 256 / n, unit = 100 * tileM / range;
    const g = svg("g", { transform: "rotate(" + (-up) + ")" }, r);
    if (tileCache.size > 64) tileCache.clear();
    for (let dx = -1; dx <= 1; dx++) for (let dy = -1; dy <= 1; dy++) {
      const tx = Math.floor(xf) + dx, ty = Math.floor(yf) + dy;
      if (ty < 0 || ty >= n) continue;
      const url = hc.session.tile_url.replace("{z}", z).replace("{x}", ((tx % n) + n) % n).replace("{y}", ty);
      // The same element for the same tile on every redraw: asked for once, never again.
      let img = tileCache.get(url);
      if (!img) { img = document.createElementNS(SVG, "image"); img.setAttribute("href", url); img.setAttribute("opacity", "0.5"); tileCache.set(url, img); }
      img.setAttribute("x", ((tx - xf) * unit).toFixed(1)); img.setAttribute("y", ((ty - yf) * unit).toFixed(1));
      img.setAttribute("width", unit.toFixed(1)); img.setAttribute("height", unit.toFixed(1));
      g.appendChild(img);
    }
  }
  const tileCache = new Map();

  function renderList() {
    const ul = $("targets"), focus = chooseFocus();
    const list = [...hc.targets.values()].sort((a, b) => a.distance_m - b.distance_m);
    const shown = new Set();
    let prev = null, full = false;
    for (const t of list) {
      const id = t.target.id;
      let li = rowCache.get(id);
      if (!li) {
        li = document.createElement("li");
        li.append(document.createElement("span"), document.createElement("span"));
        li.addEventListener("click", () => setFocus(id));
        rowCache.set(id, li);
      }
      setText(li.firstChild, t.target.name || id);
      setText(li.lastChild, fmtDist(t.distance_m) + " · " + t.tier_name);
      li.classList.toggle("focus", focus === t);
      if (full) { if (li.parentNode) li.remove(); continue; }
      const at = prev ? prev.nextSibling : ul.firstChild;
      if (at !== li) ul.insertBefore(li, at);
      // Only whole rows that fit: no row hangs outside the page.
      if (li.offsetTop + li.offsetHeight > ul.clientHeight + ul.offsetTop + 1 && prev) { li.remove(); full = true; continue; }
      prev = li;
      shown.add(id);
    }
    for (const [id, li] of rowCache) {
      if (!shown.has(id) && li.parentNode) li.remove();
      if (!hc.targets.has(id)) rowCache.delete(id);
    }
  }

  function setFocus(id) {
    hc.focus = id;
    localStorage.setItem("hc-focus", id);
    render();
  }

  function render() { renderFocus(); renderGPS(); renderLink(); renderRadar(); renderList(); }

  function takeStatus(s) {
    hc.status = s; hc.statusAt = Date.now();
    if (s.tracking && s.tracking.tiers) hc.tiers = s.tracking.tiers;
    const seen = new Set();
    for (const t of s.targets || []) {
      const old = hc.targets.get(t.target.id) || {};
      hc.targets.set(t.target.id, Object.assign(old, t));
      seen.add(t.target.id);
    }
    for (const id of [...hc.targets.keys()]) if (!seen.has(id)) hc.targets.delete(id);
    render();
  }

  function takeEvent(cls, e) {
    hc.seqs.push(e.seq);
    if (hc.seqs.length > 100000) hc.seqs.splice(0, 50000);
    if (cls === "PROXIMITY") {
      const old = hc.targets.get(e.target.id) || { target: e.target };
      Object.assign(old, { target: e.target, distance_m: e.distance_m, bearing_deg: e.bearing_deg, tier: e.tier, tier_name: e.tier_name, trend: e.trend, eta_s: e.eta_s, etaAt: Date.now() });
      hc.targets.set(e.target.id, old);
    } else if (cls === "ARRIVED" || cls === "DEPARTED") {
      const p = $("passage");
      p.textContent = cls + " " + (e.target.name || e.target.id) + " · " + new Date(e.time).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
      hc.passages.push({ cls: cls, seq: e.seq, id: e.target.id, text: p.textContent, t: Date.now() });
      p.className = cls.toLowerCase();
    }
    render();
  }

  function connect() {
    const es = new EventSource("/events");
    es.onopen = () => { hc.sse = true; hc.opens++; render(); };
    es.onerror = () => { hc.sse = false; hc.link = null; render(); };
    for (const cls of ["PROXIMITY", "ARRIVED", "DEPARTED", "GPS"]) {
      es.addEventListener(cls, (m) => { try { takeEvent(cls, JSON.parse(m.data)); } catch (x) { console.warn(x); } });
    }
    es.addEventListener("status", (m) => { try { takeStatus(JSON.parse(m.data)); } catch (x) { console.warn(x); } });
    es.addEventListener("link", (m) => { hc.link = JSON.parse(m.data); render(); });
    es.addEventListener("gap", (m) => { hc.gaps.push(JSON.parse(m.data)); });
  }

  async function write(request) {
    const out = $("w-result");
    out.textContent = "…";
    try {
      const r = await fetch("/api/command", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(request), credentials: "same-origin" });
      const j = await r.json();
      out.textContent = j.ok ? "done" : (j.message || "refused");
      return j;
    } catch (x) { out.textContent = "failed: " + x; return { ok: false }; }
  }
  hc.write = write;

  function focusId() { const t = chooseFocus(); return t && t.target.id; }

  function setupWrites() {
    $("w-mode").addEventListener("click", () => {
      const hunting = hc.status && hc.status.tracking && hc.status.tracking.mode === "hunt";
      if (hunting) write({ cmd: "roam" }); else if (focusId()) write({ cmd: "hunt", targets: [focusId()] });
    });
    $("w-seen").addEventListener("click", () => { if (focusId()) write({ cmd: "store", op: "seen", id: focusId() }); });
    $("w-stars").addEventListener("change", (e) => { if (focusId() && e.target.value) write({ cmd: "store", op: "rate", id: focusId(), stars: Number(e.target.value) }); });
    $("w-save").addEventListener("click", () => { if (focusId()) write({ cmd: "store", op: "note", id: focusId(), text: $("w-note").value }); });
  }

  async function session() {
    try {
      const r = await fetch("/session", { credentials: "same-origin" });
      hc.session = await r.json();
      $("writes").hidden = !hc.session.writer;
      setText($("who"), hc.session.access === "paired" ? (hc.session.device + (hc.session.writer ? "" : " · read-only")) : "read-only (local)");
    } catch (x) { hc.session = { access: "unknown", writer: false }; }
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
    session();
    connect();
    setInterval(() => { renderGPS(); renderFocus(); }, 1000);
    render();
  });
  window.addEventListener("resize", render);
})();
"""#
}
