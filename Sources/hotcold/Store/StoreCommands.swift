import ArgumentParser

/// The commands that browse and edit the store (things, show, near, seen, ...).
enum StoreCommands {
    static let all: [any ParsableCommand.Type] = [
        ThingsCommand.self, ShowCommand.self, NearCommand.self,
        SeenCommand.self, UnseenCommand.self, FavCommand.self, UnfavCommand.self,
        RateCommand.self, NoteCommand.self, VisitsCommand.self,
        AddCommand.self, RenameCommand.self, DeleteCommand.self,
        ObserveCommand.self, ObservationsCommand.self, AmendCommand.self, UnobserveCommand.self,
        ImportCommand.self, ExportCommand.self, AboutCommand.self,
        SubmitCommand.self, OutboxCommand.self,
    ]
}
