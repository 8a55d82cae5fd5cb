import ArgumentParser
import Foundation
import HotColdConfig
import HotColdSync

/// Where the web API is: `--api URL` over the config file's `[api] base_url`.
struct APIOptions: ParsableArguments {
    static let installedConfig = "/usr/local/etc/hotcold/hotcoldd.toml"

    @Option(name: .long, help: ArgumentHelp("The Big Things web API's base URL (overrides [api] base_url).", valueName: "URL"))
    var api: String?

    @Option(name: .long, help: ArgumentHelp(
        "The configuration file. Default: \(APIOptions.installedConfig) when it exists, else built-in defaults.",
        valueName: "FILE"))
    var config: String?

    @Option(name: .long, help: ArgumentHelp("Seconds each request may take.", valueName: "SECONDS"))
    var timeout: Double = 20

    @Option(name: .customLong("max-wait"), help: ArgumentHelp(
        "Seconds this sync may spend waiting to retry before leaving the rest for the next sync.", valueName: "SECONDS"))
    var maxWait: Double = 30

    @Flag(name: .customLong("allow-http-loopback"), help: ArgumentHelp(
        "Allow a plain http:// API URL to a loopback address (for a local test server; the token otherwise goes over https:// only)."))
    var allowHTTPLoopback = false

    func validate() throws {
        guard timeout > 0 else { throw ValidationError("--timeout must be a positive number of seconds") }
        guard maxWait >= 0 else { throw ValidationError("--max-wait must be zero or more seconds") }
    }

    func configuration() throws -> Configuration {
        if let config {
            return try ConfigLoader.load(path: config)
        }
        if FileManager.default.fileExists(atPath: APIOptions.installedConfig) {
            return try ConfigLoader.load(path: APIOptions.installedConfig)
        }
        return Configuration()
    }

    /// The client, or a sentence saying why there is none.
    func client() throws -> APIClient {
        let c = try configuration()
        let text = api ?? c.api.baseURL
        guard !text.isEmpty else {
            throw CLIError("No web API is configured: give --api URL or set [api] base_url in \(config ?? APIOptions.installedConfig).", code: .configuration)
        }
        guard let url = URL(string: text) else { throw CLIError("\(text) is not an https:// URL.", code: .usage) }
        do {
            return try APIClient(baseURL: url, token: c.api.token, timeout: timeout,
                                 allowHTTPLoopback: allowHTTPLoopback || c.api.allowHTTPLoopback)
        } catch {
            throw CLIError("\(api != nil ? "--api" : "[api] base_url"): \(error.description).", code: .usage)
        }
    }
}
