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
<link rel="icon" href="data:,">
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
<div id="banner" role="alert" hidden></div>
<main id="main">
  <section id="focus" class="data" aria-live="polite">
    <div id="f-name">waiting for the box…</div>
    <div id="f-row">
      <div id="f-arrow" aria-hidden="true" hidden><svg viewBox="-50 -50 100 100"><path id="f-arrow-shape" d="M0,-42 L26,30 L0,16 L-26,30 Z"/></svg></div>
      <div id="f-dist">—</div>
    </div>
    <div id="f-dir"></div>
    <div id="f-tier"><div id="gauge"><div id="gauge-fill"></div></div><span id="f-tiername">—</span></div>
    <div id="f-row2"><span id="f-trend"></span><span id="f-eta"></span></div>
    <div id="f-mine"></div>
  </section>
  <section id="side" class="data">
    <div id="radar-box">
      <svg id="radar" viewBox="-110 -110 220 220" role="img" aria-label="radar of tracked targets"></svg>
      <button id="radar-mode" type="button" hidden>North up</button>
    </div>
    <div id="list-box"><div id="list-head"></div><ul id="targets"></ul></div>
  </section>
  <section id="foot">
    <div id="passage" class="data">no arrival yet</div>
    <div id="writes" hidden>
      <button id="w-hunt" type="button" hidden></button>
      <button id="w-add" type="button" hidden></button>
      <button id="w-roam" type="button" hidden></button>
      <button id="w-open" type="button" hidden></button>
    </div>
    <div id="w-result" role="status"></div>
  </section>
</main>
<section id="sheet" role="dialog" aria-modal="true" aria-labelledby="s-name" hidden>
  <div id="s-head"><div id="s-name"></div><button id="s-close" type="button">Close</button></div>
  <div id="s-banner" role="alert" hidden></div>
  <div id="s-body">
    <div id="s-seen-row"><span id="s-seen"></span><button id="s-seen-btn" type="button"></button></div>
    <div id="s-rate-row"><span id="s-rating"></span><span id="s-stars"></span></div>
    <label for="s-note" id="s-note-label">Note</label>
    <textarea id="s-note" maxlength="500" rows="3"></textarea>
    <div id="s-note-row"><button id="s-save" type="button"></button><span id="s-count"></span></div>
    <div id="s-result" role="status"></div>
  </div>
</section>
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
