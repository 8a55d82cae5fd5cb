import ArgumentParser
import HotColdProtocol
import HotColdStore

struct NoteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "note",
        abstract: "Write your note on a place (up to 500 characters); without TEXT, show it.",
        discussion: """
            An empty TEXT ("") removes the note.
            Example: hotcold note GC2T9RW "Behind the third fence post; bring tweezers"
            """)

    @OptionGroup var options: StoreOptions
    @Argument(help: "The place id.") var id: String
    @Argument(help: "The note text (quote it).") var text: String?

    func validate() throws {
        if let text, text.count > Note.maxLength {
            throw ValidationError("A note holds at most \(Note.maxLength) characters; this one has \(text.count).")
        }
    }

    func run() throws {
        let backend = try options.backend()
        let id = try backend.placeID(resolving: id)
        guard let text else {
            let note = try backend.userState(placeID: id).note
            if options.json { return try Output.json(note) }
            guard let n = note else { return Output.note("No note on \(id).") }
            print(n.text)
            return print(usage(n))
        }
        if let n = try backend.setNote(placeID: id, text: text) {
            try Output.result(json: options.json, n, text: "Note saved on \(id): " + usage(n))
        } else {
            try Output.result(json: options.json, Output.Change(id: id, noteRemoved: true), text: "Note removed from \(id).")
        }
    }

    /// Characters as a person counts them (grapheme clusters), as the store's limit does.
    func usage(_ n: NotePayload) -> String {
        let words = Note.words(in: n.text)
        return "\(n.text.count)/\(Note.maxLength) characters, \(words) word\(words == 1 ? "" : "s")."
    }
}
