extension PageAssets {
    /// Night theme by default (a car at night), day on request; sizes in viewport units so one
    /// sheet fits 800×480 (car display, landscape) and 390×844 (phone, portrait). Touch
    /// targets are at least 48 px.
    static let style = #"""
:root{--bg:#05070a;--fg:#e8e6e3;--dim:#8a8f98;--panel:#10151c;--line:#2a3340;--accent:#ffb347}
body.day{--bg:#f4f4f0;--fg:#101010;--dim:#555;--panel:#fff;--line:#c8c8c0;--accent:#b35900}
*{box-sizing:border-box}
html,body{margin:0;height:100%;overflow:hidden;background:var(--bg);color:var(--fg);font-family:system-ui,-apple-system,"DejaVu Sans",sans-serif}
button,select,input{font:inherit;min-height:48px;min-width:48px;border-radius:8px;border:1px solid var(--line);background:var(--panel);color:var(--fg);padding:0 12px}
button:active{filter:brightness(1.4)}
#bar{display:flex;gap:6px;align-items:center;height:52px;padding:2px 6px;overflow:hidden}
.pill{padding:4px 8px;border-radius:12px;background:var(--panel);border:1px solid var(--line);font-size:15px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;min-width:0}
.pill.bad{border-color:#d33;color:#ff8080}
.pill.ok{border-color:#3a7}
#theme{margin-left:auto;flex:none}
#main{display:grid;height:calc(100% - 52px);padding:4px 6px 6px;gap:6px;grid-template-columns:1.15fr 1fr;grid-template-rows:1fr auto;grid-template-areas:"focus side" "foot foot"}
#focus{grid-area:focus;background:var(--panel);border-radius:12px;padding:6px 10px;display:flex;flex-direction:column;justify-content:space-between;min-height:0;overflow:hidden;border:3px solid transparent}
#f-name{font-size:26px;font-weight:600;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
#f-row{display:flex;align-items:center;gap:8px;min-height:0}
#f-arrow{width:86px;height:86px;flex:none}
#f-arrow svg{width:100%;height:100%}
#f-arrow path{fill:var(--accent);transition:transform .3s}
#f-dist{font-size:78px;font-weight:700;line-height:1;font-variant-numeric:tabular-nums;white-space:nowrap}
#f-dir{font-size:20px;color:var(--dim);min-height:24px}
#f-tier{display:flex;align-items:center;gap:10px}
#gauge{flex:1;height:22px;border-radius:11px;background:var(--line);overflow:hidden}
#gauge-fill{height:100%;width:0;background:linear-gradient(90deg,#2f6bff,#35c0ff 30%,#ffd23f 65%,#ff3b1f);transition:width .3s}
#f-tiername{font-size:28px;font-weight:700;min-width:120px;text-transform:uppercase}
#f-row2{display:flex;justify-content:space-between;font-size:26px;font-weight:600}
.hotter{color:#ff6a3d}.colder{color:#4fa8ff}.steady,.unknown{color:var(--dim)}
#stale-note{font-size:18px;font-weight:700;color:#ff8080}
body.stale #focus{filter:grayscale(1);opacity:.55;border-color:#d33}
body.stale #radar{opacity:.45}
#side{grid-area:side;display:flex;flex-direction:column;gap:4px;min-height:0;overflow:hidden}
#radar-box{position:relative;flex:1;min-height:0;display:flex;justify-content:center}
#radar{height:100%;max-width:100%;aspect-ratio:1}
#radar .ring{fill:none;stroke:var(--line);stroke-width:1}
#radar .label{fill:var(--dim);font-size:9px}
#radar .car{fill:var(--accent)}
#radar .blip{stroke:var(--bg);stroke-width:1.5;cursor:pointer}
#radar .blip.focus{stroke:var(--fg);stroke-width:3}
#radar-mode{position:absolute;right:0;bottom:0;font-size:14px}
#targets{list-style:none;margin:0;padding:0;overflow:hidden;flex:none;max-height:40%}
#targets li{display:flex;justify-content:space-between;gap:6px;align-items:center;min-height:48px;padding:0 8px;border-bottom:1px solid var(--line);cursor:pointer;font-size:17px}
#targets li.focus{background:var(--line)}
#targets li span:first-child{overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
#targets li span:last-child{white-space:nowrap;font-variant-numeric:tabular-nums}
#foot{grid-area:foot;display:flex;flex-wrap:wrap;gap:6px;align-items:center;min-height:0}
#passage{font-size:18px;padding:4px 8px;background:var(--panel);border-radius:8px;min-height:48px;display:flex;align-items:center;flex:1 1 220px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
#passage.arrived{border:2px solid #3a7}
#passage.departed{border:2px solid var(--dim)}
#writes{display:flex;gap:6px;flex-wrap:wrap;align-items:center}
#writes[hidden]{display:none}
#w-note{width:140px}
#w-result{font-size:15px;color:var(--dim);max-width:160px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
#unpaired{padding:24px;font-size:20px}
@media (max-width:600px),(orientation:portrait){
 #main{grid-template-columns:1fr;grid-template-rows:auto minmax(0,1fr) auto;grid-template-areas:"focus" "side" "foot"}
 #f-dist{font-size:72px}
 #bar .pill{font-size:13px}
 #who{display:none}
}
@media (max-height:500px){#f-dist{font-size:64px}#f-arrow{width:70px;height:70px}#f-name{font-size:22px}#f-tiername{font-size:22px}#f-row2{font-size:22px}#targets{max-height:34%}}
"""#
}
