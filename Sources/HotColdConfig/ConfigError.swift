/// A configuration problem, naming the file, the line and the key, and what was expected.
public struct ConfigError: Error, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var key: String?
    public var message: String

    public init(file: String, line: Int?, key: String?, message: String) {
        self.file = file
        self.line = line
        self.key = key
        self.message = message
    }

    public var description: String {
        var s = file
        if let line { s += ":\(line)" }
        s += ": "
        if let key { s += "\(key): " }
        return s + message
    }
}
