#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import HotColdConfig

/// Paths for secrets: a plain path, or `credential:NAME` for a file systemd placed with
/// `LoadCredential=NAME:…` (it lives in `$CREDENTIALS_DIRECTORY`, readable only by the service).
///
/// ```swift
/// try CredentialPath.resolve("credential:mqtt-password", key: "broker.password_file",
///                            environment: ["CREDENTIALS_DIRECTORY": "/run/credentials/hotcold-mqtt.service"])
/// // "/run/credentials/hotcold-mqtt.service/mqtt-password"
/// ```
enum CredentialPath {
    static let scheme = "credential:"

    static func resolve(_ value: String, key: String, file: String,
                               environment: [String: String]) throws(ConfigError) -> String {
        guard value.hasPrefix(scheme) else { return value }
        let name = String(value.dropFirst(scheme.count))
        guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else {
            throw ConfigError(file: file, line: nil, key: key, message: "expected credential:NAME with a plain file name, got \"\(value)\"")
        }
        guard let dir = environment["CREDENTIALS_DIRECTORY"], !dir.isEmpty else {
            throw ConfigError(file: file, line: nil, key: key,
                              message: "\(value) needs $CREDENTIALS_DIRECTORY (set by systemd's LoadCredential=); it is not set")
        }
        return dir + "/" + name
    }

    /// The first line of a secret file (a password), without its line ending; at most 64 KiB.
    static func readSecret(at path: String, key: String, file: String) throws(ConfigError) -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigError(file: file, line: nil, key: key, message: "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        guard data.count <= 65536 else {
            throw ConfigError(file: file, line: nil, key: key, message: "\(path) is \(data.count) bytes; a password is at most 64 KiB")
        }
        let text = String(decoding: data, as: UTF8.self)
        let line = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).first.map(String.init) ?? ""
        let trimmed = line.hasSuffix("\r") ? String(line.dropLast()) : line
        guard !trimmed.isEmpty else {
            throw ConfigError(file: file, line: nil, key: key, message: "\(path) holds no password (its first line is empty)")
        }
        return trimmed
    }
}
