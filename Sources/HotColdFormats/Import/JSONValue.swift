/// A parsed JSON value. Imports read files into this tree first so each row can be checked
/// field by field with messages naming the row and the field, instead of failing the whole
/// decode on the first surprise.
///
/// ```swift
/// let v = try JSONReader.parse(Array(#"{"lat": -33.8}"#.utf8))
/// v["lat"]?.number   // -33.8
/// ```
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] } else { return nil }
    }

    public var string: String? { if case .string(let s) = self { s } else { nil } }
    public var number: Double? { if case .number(let n) = self { n } else { nil } }
    public var array: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
    public var object: [String: JSONValue]? { if case .object(let o) = self { o } else { nil } }
    public var isNull: Bool { self == .null }

    /// A short description of the value for error messages (`"abc"`, `12`, `an array`).
    public var brief: String {
        switch self {
        case .null: "null"
        case .bool(let b): String(b)
        case .number(let n): n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n)
        case .string(let s): "\"\(s.count > 40 ? String(s.prefix(40)) + "…" : s)\""
        case .array: "an array"
        case .object: "an object"
        }
    }
}
