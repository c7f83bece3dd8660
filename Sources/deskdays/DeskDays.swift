import ArgumentParser

/// The `deskdays` root command: lists the subcommands, one per file.
@main
struct DeskDays: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deskdays",
        abstract: "Track office attendance against your employer's policy, privately, on this machine.",
        subcommands: [
            // Subcommands are registered here, one line each.
        ]
    )
}
