import ArgumentParser

struct AboutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "about",
        abstract: "What Australia's Big Things are, and what hotcold does with them.",
        discussion: "Example: hotcold about")

    func run() {
        print("""
            Australia's Big Things are oversized roadside sculptures — a banana, a prawn, a merino ram,
            a pineapple you can walk through — built since the 1960s, mostly to make drivers stop in a
            town: at a fruit stall, a servo, a museum or a café. There are several hundred, in every
            state and territory, and collecting them on a road trip is a national pastime.

            hotcold knows about 480 of them out of the box (a catalogue under CC BY-SA 4.0; see
            data/README.md for its sources) and can import geocaches and your own places too. While
            you drive, hotcoldd tells you whether you are getting hotter or colder, and records a visit
            when you arrive. These commands browse the list, keep your favourites, stars and notes,
            and export where you have been.
            """)
    }
}
