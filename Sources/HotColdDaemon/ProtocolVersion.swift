import HotColdCore

/// The wire protocol's version, sent in the `VERSION` greeting. Minor bumps add fields or
/// commands; major bumps change or remove them.
public enum ProtocolVersion {
    public static let release = "0.1.0"
    public static let major = 1
    public static let minor = 0

    public static var greeting: String {
        var o = JSONLine(class: "VERSION")
        o.add("release", release)
        o.add("proto_major", major)
        o.add("proto_minor", minor)
        return o.text
    }
}
