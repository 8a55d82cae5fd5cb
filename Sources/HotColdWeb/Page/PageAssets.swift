/// The page, served from the binary: one HTML document, one script, one style sheet (all
/// together well under the 300 KB budget; `hotcold-bench`'s web script prints the figure).
/// Nothing is fetched from elsewhere unless `page.tile_url` is set.
///
/// The files themselves are in `Page/Assets` — `index.html` (no inline script or style: the
/// Content-Security-Policy forbids both), `not-paired.html` (what a device that is not paired
/// sees), `app.js` (follow `/events`, keep a model of the targets and friends from STATUS and
/// events, each update applied only when it is not older than what it would replace; draw the
/// focus, radar and list; writes from buttons that name their target; a place's sheet pinned to
/// that place; the other screens — Big Things, Near me, Caches, Friends, My places, Field,
/// Submit, About — each the daemon's own requests through `/api/read` and `/api/command`;
/// `window.hotcold` exposes the model for the browser tests and the benchmark) and
/// `app.css` (night theme by default, one sheet from 320 px phones to car displays, 48 px touch
/// targets). The PageAssets build plugin embeds them as `html`, `notPaired`, `script` and
/// `style` at build time.
public enum PageAssets {
    /// Bytes of the whole page (HTML, script and style).
    public static var totalBytes: Int { html.utf8.count + script.utf8.count + style.utf8.count }
}
