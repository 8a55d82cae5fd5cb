import ArgumentParser

/// The commands that browse and edit the store (things, show, near, seen, ...).
enum StoreCommands {
    static let all: [any ParsableCommand.Type] = []
}
