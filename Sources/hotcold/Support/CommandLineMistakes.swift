import ArgumentParser

/// Mistakes ArgumentParser does not explain well, caught before it parses: a subcommand name
/// mistyped (`hotcold statsu`, `hotcold thing --search x`) is blamed on the name, with the
/// closest real names, not on the options after it; `hotcold help NAME` fails for a NAME that
/// is no command instead of printing the root help.
enum CommandLineMistakes {
    /// What is wrong with `arguments` (without the program name), or nil to let ArgumentParser parse.
    static func check(_ arguments: [String], root: any ParsableCommand.Type) -> String? {
        let names = commandNames(root)
        guard let first = arguments.first, !first.hasPrefix("-") else { return nil }
        if first == "help" {
            guard let asked = arguments.dropFirst().first, !asked.hasPrefix("-"), !names.contains(asked) else { return nil }
            return "no command named \"\(asked)\"" + hint(asked, among: names)
        }
        guard !names.contains(first) else {
            // A negative number where a count is expected reads to ArgumentParser as an option
            // ("Missing expected argument"): say what is wrong with the value instead.
            if first == "rate", let negative = arguments.dropFirst().first(where: { $0.count > 1 && $0.hasPrefix("-") && Double($0) != nil }) {
                return "STARS is a whole number from 0 to 5; \(negative) is not."
            }
            return nil
        }
        return "unknown command \"\(first)\"" + hint(first, among: names)
    }

    /// The subcommand the arguments name, if any: whose usage an error shows.
    static func subcommand(in arguments: [String], root: any ParsableCommand.Type) -> (any ParsableCommand.Type)? {
        guard let first = arguments.first else { return nil }
        return root.configuration.subcommands.first { names(of: $0).contains(first) }
    }

    static func commandNames(_ root: any ParsableCommand.Type) -> Set<String> {
        Set(root.configuration.subcommands.flatMap(names(of:))).union(["help"])
    }

    private static func names(of command: any ParsableCommand.Type) -> [String] {
        [command.configuration.commandName ?? ""] + command.configuration.aliases
    }

    /// "; did you mean status?" for names within two edits (or starting alike), else the list.
    static func hint(_ typed: String, among names: Set<String>) -> String {
        let close = names.filter { $0 != "help" }
            .map { (name: $0, distance: editDistance(typed.lowercased(), $0)) }
            .filter { $0.distance <= max(1, min(2, typed.count / 3)) || ($0.name.hasPrefix(typed) && typed.count >= 2) }
            .sorted { ($0.distance, $0.name) < ($1.distance, $1.name) }
            .prefix(3).map(\.name)
        if close.isEmpty { return "; see 'hotcold --help' for the commands" }
        return "; did you mean " + close.joined(separator: " or ") + "?"
    }

    /// Levenshtein distance, counting a swap of two neighbours as one edit (statsu → status).
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
