import ArgumentParser
import HotColdStore

struct RateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rate",
        abstract: "Give a place 0 to 5 stars (replaces your earlier rating).",
        discussion: "Example: hotcold rate halans:d0577fb8cf 4")

    @OptionGroup var options: StoreOptions
    @Argument(help: "The place id.") var id: String
    @Argument(help: "Whole stars from 0 to 5.") var stars: Int

    func validate() throws {
        guard Rating.stars.contains(stars) else {
            throw ValidationError("STARS is a whole number from 0 to 5; \(stars) is not.")
        }
    }

    func run() throws {
        let r = try options.backend().rate(placeID: id, stars: stars)
        try Output.result(json: options.json, r, text: "Rated \(id): \(Output.stars(r.stars)) (\(r.stars)/5).")
    }
}
