extension PageAssets {
    /// The one page. No inline script or style (the Content-Security-Policy forbids both).
    static let html = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="color-scheme" content="dark light">
<title>hotcold</title>
<link rel="stylesheet" href="/app.css">
<script src="/app.js" defer></script>
</head>
<body class="night">
<header id="bar">
  <span id="gps" class="pill">GPS …</span>
  <span id="link" class="pill">connecting…</span>
  <span id="who" class="pill"></span>
  <button id="theme" type="button">Day</button>
</header>
<main id="main">
  <section id="focus" aria-live="polite">
    <div id="f-name">waiting for the daemon…</div>
    <div id="f-row">
      <div id="f-arrow" aria-hidden="true"><svg viewBox="-50 -50 100 100"><path id="f-arrow-shape" d="M0,-42 L26,30 L0,16 L-26,30 Z"/></svg></div>
      <div id="f-dist">—</div>
    </div>
    <div id="f-dir"></div>
    <div id="f-tier"><div id="gauge"><div id="gauge-fill"></div></div><span id="f-tiername">—</span></div>
    <div id="f-row2"><span id="f-trend">—</span><span id="f-eta"></span></div>
    <div id="stale-note" hidden>OLD DATA</div>
  </section>
  <section id="side">
    <div id="radar-box">
      <svg id="radar" viewBox="-110 -110 220 220" role="img" aria-label="radar of tracked targets"></svg>
      <button id="radar-mode" type="button">North up</button>
    </div>
    <ul id="targets"></ul>
  </section>
  <section id="foot">
    <div id="passage">no arrival yet</div>
    <div id="writes" hidden>
      <button id="w-mode" type="button">Hunt this</button>
      <button id="w-seen" type="button">Seen</button>
      <select id="w-stars" aria-label="rating"><option value="">Rate…</option><option>1</option><option>2</option><option>3</option><option>4</option><option>5</option></select>
      <input id="w-note" maxlength="500" placeholder="note" aria-label="note">
      <button id="w-save" type="button">Save</button>
      <span id="w-result" role="status"></span>
    </div>
  </section>
</main>
</body>
</html>
"""#

    /// What a device that is not paired sees (a stranger to hotcold-web).
    static let notPaired = #"""
<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>hotcold: pair this device</title><link rel="stylesheet" href="/app.css"></head>
<body class="night"><main id="unpaired"><h1>This device is not paired</h1>
<p>On the hotcold box, run <code>hotcold web pair</code> and open the link it shows (or scan its QR code) on this device.</p>
</main></body></html>
"""#
}
