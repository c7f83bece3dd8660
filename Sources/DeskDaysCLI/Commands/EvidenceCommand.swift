import ArgumentParser

/// `deskdays evidence --period P --out FILE.html` (placeholder until built below).
struct EvidenceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "evidence", abstract: "Write a printable evidence page for a period.")
}
