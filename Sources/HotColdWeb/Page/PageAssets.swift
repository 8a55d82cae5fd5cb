/// The page, served from the binary: one HTML document, one script, one style sheet (all
/// together well under the 300 KB budget; `hotcold-bench`'s web script prints the figure).
/// Nothing is fetched from elsewhere unless `page.tile_url` is set.
public enum PageAssets {
    /// Bytes of the whole page (HTML, script and style).
    public static var totalBytes: Int { html.utf8.count + script.utf8.count + style.utf8.count }
}
