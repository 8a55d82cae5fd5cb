import ArgumentParser
import Foundation
import HotColdCore
import HotColdStore

struct SubmitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "submit",
        abstract: "Send a new Big Thing to the catalogue (queued; delivered by the next sync).",
        discussion: """
            Give where it is: --here (the daemon's current fix), --at LAT,LON, or --address TEXT. \
            A photo is read now and travels in the queued request.
            Example: hotcold submit "Big Wombat" --at -35.28,149.13 --by "Alice" --photo wombat.jpg
            """)

    @OptionGroup var options: StoreOptions
    @Argument(help: "The Big Thing's name.") var name: String
    @Flag(help: "Where the receiver is now (needs the daemon's fix).") var here = false
    @Option(parsing: .unconditional, help: "Where it is, as LAT,LON.", transform: PlaceArguments.coordinate) var at: Coordinate?
    @Option(help: "Where it is, as an address.") var address: String?
    @Option(help: "The name to credit for the find.") var by: String?
    @Option(help: ArgumentHelp("A photo to send with it.", valueName: "FILE"), completion: .file()) var photo: String?

    func validate() throws {
        let given = [here, at != nil, address != nil].filter { $0 }.count
        guard given == 1 else { throw ValidationError("give exactly one of --here, --at LAT,LON or --address TEXT") }
        if let address, address.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--address must not be empty")
        }
        if let at, !at.isValid { throw ValidationError("--at \(at): not a coordinate") }
    }

    func run() throws {
        // The photo first: a missing file queues nothing.
        let picture = try photo.map { path in
            // Checked in our words first (missing, a folder, unreadable); then read.
            // In the store's form for a photo it cannot read ("… Nothing was queued.").
            do { try ReadableFile.check(URL(fileURLWithPath: path), what: "photo") } catch let e as CLIError {
                // The check names the absolute path; the message names it as it was typed.
                let reason = e.description.dropFirst("photo \(URL(fileURLWithPath: path).path): ".count)
                throw CLIError("Cannot read the photo \(path): \(reason). Nothing was queued.", code: e.code)
            }
            return try SubmissionPhoto(contentsOf: URL(fileURLWithPath: path))
        }
        let backend = try options.backend()
        var coordinate = at
        if here {
            guard let c = try backend.currentPosition() else {
                throw CLIError("--here needs the daemon's current fix; offline, give --at LAT,LON or --address TEXT.")
            }
            coordinate = c
        }
        let s = try Submission(user: backend.user, name: name, latitude: coordinate?.latitude,
                               longitude: coordinate?.longitude, address: address, seenAt: Date(),
                               submittedBy: by, photoPath: photo.map { URL(fileURLWithPath: $0).path })
        let saved = try backend.submit(s, photo: picture)
        // No number here: the submission's own row number is not the outbox's, which
        // `hotcold outbox` lists (issue 31: "#1" here was "#3" there).
        _ = saved
        var line = "Queued \(name) for the Big Things web API"
        if let picture { line += " with \(picture.filename) (\(picture.data.count) bytes)" }
        print(line + "; `hotcold outbox` lists it, hotcold-sync sends it.")
    }
}
