extension PageAssets {
    /// Night theme by default (a car at night), day on request; sizes in viewport units so one
    /// sheet fits 800×480 (car display, landscape) and 390×844 (phone, portrait). Touch
    /// targets are at least 48 px.
    static let style = #"""
:root{--bg:#05070a;--fg:#e8e6e3;--dim:#8a8f98;--panel:#10151c;--line:#2a3340;--accent:#ffb347;--bad:#ff8080;--badbg:#5a0d0d}
body.day{--bg:#f4f4f0;--fg:#101010;--dim:#555;--panel:#fff;--line:#c8c8c0;--accent:#b35900;--bad:#b00000;--badbg:#ffd9d9}
*{box-sizing:border-box}
html,body{margin:0;height:100%;overflow:hidden;background:var(--bg);color:var(--fg);font-family:system-ui,-apple-system,"DejaVu Sans",sans-serif}
body{display:flex;flex-direction:column}
button,input,textarea{font:inherit;min-height:48px;min-width:48px;border-radius:8px;border:1px solid var(--line);background:var(--panel);color:var(--fg);padding:0 12px}
button{white-space:normal;overflow-wrap:anywhere;text-align:center;line-height:1.15}
button:active{filter:brightness(1.4)}
button:disabled{opacity:.4}
[hidden]{display:none!important}
#bar{display:flex;flex-wrap:wrap;gap:4px 6px;align-items:center;padding:4px 6px;flex:none}
.pill{padding:4px 8px;border-radius:12px;background:var(--panel);border:1px solid var(--line);font-size:15px;white-space:nowrap}
.pill.bad{border-color:#d33;color:var(--bad)}
.pill.ok{border-color:#3a7}
#who:empty{display:none}
#theme{margin-left:auto;flex:none;min-height:40px}
#banner,#s-banner{flex:none;margin:0 6px 4px;padding:6px 10px;border-radius:8px;background:var(--badbg);color:var(--bad);border:2px solid #d33;font-size:18px;font-weight:700}
#main{flex:1;min-height:0;display:grid;padding:0 6px 6px;gap:6px;grid-template-columns:minmax(0,1.1fr) minmax(0,1fr);grid-template-rows:minmax(0,1fr) auto auto auto;grid-template-areas:"focus side" "passage passage" "writes writes" "result result"}
#focus{grid-area:focus;background:var(--panel);border-radius:12px;padding:6px 10px;display:flex;flex-direction:column;justify-content:space-between;gap:2px;min-height:0;min-width:0;overflow:hidden}
#f-name{font-size:26px;font-weight:600;line-height:1.15;overflow-wrap:anywhere}
#f-name.long{font-size:21px}
#f-name.longer{font-size:17px}
#f-row{display:flex;align-items:center;gap:8px;min-height:0}
#f-arrow{width:80px;height:80px;flex:none}
#f-arrow svg{width:100%;height:100%}
#f-arrow path{fill:var(--accent);transition:transform .3s}
#f-dist{font-size:72px;font-weight:700;line-height:1;font-variant-numeric:tabular-nums;white-space:nowrap}
#f-dir{font-size:18px;color:var(--dim);min-height:22px}
#f-tier{display:flex;align-items:center;gap:10px}
#gauge{flex:1;min-width:40px;height:20px;border-radius:10px;background:var(--line);overflow:hidden}
#gauge-fill{height:100%;width:0;background:linear-gradient(90deg,#2f6bff,#35c0ff 30%,#ffd23f 65%,#ff3b1f);transition:width .3s}
#f-tiername{font-size:26px;font-weight:700;text-transform:uppercase;white-space:nowrap}
#f-row2{display:flex;justify-content:space-between;flex-wrap:wrap;gap:0 12px;font-size:24px;font-weight:600}
#f-mine{font-size:16px;color:var(--dim);overflow-wrap:anywhere;display:-webkit-box;-webkit-line-clamp:2;-webkit-box-orient:vertical;overflow:hidden}
.hotter{color:#ff6a3d}.colder{color:#4fa8ff}.steady,.unknown{color:var(--dim)}
body.stale .data{filter:grayscale(1);opacity:.5}
#side{grid-area:side;display:flex;flex-direction:column;gap:4px;min-height:0;min-width:0;overflow:hidden}
#radar-box{position:relative;flex:1 1 120px;min-height:90px;display:flex;justify-content:center}
#radar{height:100%;max-width:100%;aspect-ratio:1}
#radar .ring{fill:none;stroke:var(--line);stroke-width:1}
#radar .label{fill:var(--dim);font-size:9px}
#radar .car{fill:var(--accent)}
#radar .blip{stroke:var(--bg);stroke-width:1.5;cursor:pointer}
#radar .blip.beyond{stroke-width:2.5}
#radar .blip.friend{stroke:var(--fg);stroke-width:1.5}
#radar .blip.old{opacity:.5}
#radar .blip.focus{stroke:var(--fg);stroke-width:3}
#radar-mode{position:absolute;right:0;bottom:0;font-size:14px;padding:0 8px}
#list-box{display:flex;flex-direction:column;flex:0 1 auto;max-height:50%;min-height:0;min-width:0}
#list-head{font-size:13px;color:var(--dim);flex:none}
#list-head:empty{display:none}
#targets{list-style:none;margin:0;padding:0;overflow-y:auto;flex:0 1 auto;min-height:0}
#targets li{display:flex;flex-wrap:wrap;justify-content:space-between;gap:0 6px;align-items:center;min-height:48px;padding:2px 8px;border-bottom:1px solid var(--line);cursor:pointer;font-size:16px}
#targets li.focus{background:var(--line)}
#targets li.friend span:first-child::before{content:"◆ ";color:var(--accent)}
#targets li.untracked,#targets li.old{color:var(--dim)}
#targets li span:first-child{overflow-wrap:anywhere;min-width:0}
#targets li span:last-child{white-space:nowrap;font-variant-numeric:tabular-nums;margin-left:auto}
#foot{display:contents}
#passage{grid-area:passage;min-width:0;font-size:17px;padding:4px 8px;background:var(--panel);border-radius:8px;min-height:40px;display:flex;align-items:center;overflow-wrap:anywhere;border:2px solid transparent}
#passage.arrived{border-color:#3a7}
#passage.departed{border-color:var(--dim)}
#writes{grid-area:writes;min-width:0;display:flex;gap:6px;flex-wrap:wrap;align-items:stretch}
#writes button{flex:1 1 auto;max-width:100%;font-size:16px;padding:4px 10px}
#w-result{grid-area:result;min-width:0;font-size:15px;overflow-wrap:anywhere}
#w-result:empty{display:none}
.ok{color:#3a7}.bad{color:var(--bad)}
#sheet{position:fixed;left:0;right:0;bottom:0;top:0;z-index:5;background:var(--bg);display:flex;flex-direction:column;padding:6px;gap:6px;overflow:hidden}
#s-head{display:flex;gap:8px;align-items:flex-start;flex:none}
#s-name{flex:1;font-size:22px;font-weight:700;overflow-wrap:anywhere;min-width:0}
#s-body{flex:1;min-height:0;overflow-y:auto;display:flex;flex-direction:column;gap:8px}
#s-seen-row,#s-rate-row,#s-note-row{display:flex;flex-wrap:wrap;gap:8px;align-items:center;font-size:17px}
#s-stars{display:flex;gap:4px;flex-wrap:wrap}
#s-stars button{font-size:24px;padding:0;color:var(--accent)}
#s-note{width:100%;min-height:72px;padding:8px;resize:vertical}
#s-count{color:var(--dim);font-size:14px}
#s-result{font-size:16px;overflow-wrap:anywhere}
#unpaired{padding:24px;font-size:20px}
@media (orientation:portrait){
 #main{grid-template-columns:minmax(0,1fr);grid-template-rows:auto minmax(0,1fr) auto auto auto;grid-template-areas:"focus" "side" "passage" "writes" "result"}
 #f-dist{font-size:64px}
}
@media (max-width:420px){
 .pill{font-size:13px;padding:3px 6px}
 #f-dist{font-size:54px}
 #f-arrow{width:60px;height:60px}
 #f-tiername{font-size:22px}
 #f-row2{font-size:20px}
 #radar-mode{font-size:12px;min-height:36px;padding:0 4px}
}
@media (max-height:640px){
 #f-dist{font-size:48px}
 #f-arrow{width:52px;height:52px}
 #f-name{font-size:21px}
 #f-name.long{font-size:18px}
 #f-name.longer{font-size:15px}
 #f-tiername,#f-row2{font-size:19px}
 #f-dir,#f-mine{font-size:14px;min-height:0}
 #passage{font-size:15px;min-height:32px}
 #writes button{font-size:14px}
 .pill{font-size:13px;padding:2px 6px}
}
@media (orientation:portrait) and (max-height:700px){
 #side{flex-direction:row;align-items:stretch}
 #radar-box{flex:0 0 auto;min-height:0;aspect-ratio:1;max-width:45%}
 #list-box{flex:1 1 auto;max-height:none}
}
@media (orientation:landscape) and (max-height:420px){
 #main{grid-template-rows:minmax(0,1fr) auto auto;grid-template-areas:"focus side" "passage writes" "result result"}
 #writes button{min-height:44px;padding:2px 6px}
}
@media (max-height:400px){
 #f-dist{font-size:36px}
 #f-arrow{width:40px;height:40px}
 #f-tiername,#f-row2{font-size:17px}
 #gauge{height:14px}
 #radar-box{min-height:60px}
 #targets li{min-height:40px;font-size:14px}
}
"""#
}
