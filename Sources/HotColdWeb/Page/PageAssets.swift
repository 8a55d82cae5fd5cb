/// The page, served from the binary: one HTML document, one script as native ES modules, one
/// style sheet (all together well under the 300 KB budget; `hotcold-bench`'s web script prints
/// the figure). Nothing is fetched from elsewhere unless `page.tile_url` is set.
///
/// The files themselves are in `Page/Assets` — `index.html` (no inline script or style: the
/// Content-Security-Policy forbids both; it loads the script's entry, `/js/main.js`, as a
/// module), `not-paired.html` (what a device that is not paired sees), `app.css` (night theme by
/// default, one sheet from 320 px phones to car displays, 48 px touch targets) and the script,
/// one module per concern in `js/`, each served as `/js/NAME.js` and opening with what it holds
/// (`model.js` keeps the model, also `window.hotcold` for the browser tests and the benchmark;
/// `main.js` starts it all). The PageAssets build plugin embeds them as `html`, `notPaired`,
/// `style` and `modules` (file name → text) at build time.
public enum PageAssets {
    /// Bytes of the whole page (HTML, every module of the script, and style).
    public static var totalBytes: Int { html.utf8.count + scriptBytes + style.utf8.count }

    /// Bytes of the script: all its modules.
    public static var scriptBytes: Int { modules.values.reduce(0) { $0 + $1.utf8.count } }
}
