/// The direction as an arrow three rows tall, drawn beside the big digits so it reads at arm's
/// length as they do. Eight arrows, clockwise from up, in the order of `CompassArrow.arrows`;
/// each is 5 cells wide, made of the same block characters as `BigText`.
public enum BigArrow {
    public static let width = 5

    static let shapes: [[String]] = [
        ["  ▲  ", " ▐█▌ ", " ▐█▌ "],   // ↑
        ["  ▄▄█", " ▄▀ █", "▀    "],   // ↗
        ["     ", "████▶", "     "],   // →
        ["▄    ", " ▀▄ █", "  ▀▀█"],   // ↘
        [" ▐█▌ ", " ▐█▌ ", "  ▼  "],   // ↓
        ["    ▄", "█ ▄▀ ", "█▀▀  "],   // ↙
        ["     ", "◀████", "     "],   // ←
        ["█▄▄  ", "█ ▀▄ ", "    ▀"],   // ↖
    ]

    /// The three rows for an octant (0 up, clockwise; see `CompassArrow.octant`).
    public static func rows(octant: Int) -> [String] { shapes[((octant % 8) + 8) % 8] }
}
