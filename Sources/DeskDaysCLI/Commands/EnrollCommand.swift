import ArgumentParser
import DeskDaysCore

/// `deskdays enroll …`: learn a tag, network, position or code and add it
/// to the configuration. Each method is its own subcommand file.
struct EnrollCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "enroll",
        abstract: tr("Learn a check-in rule from the hardware and add it to the configuration."),
        subcommands: [EnrollGPSEntry.self, EnrollNFCEntry.self, EnrollQREntry.self, EnrollWiFiEntry.self, EnrollWiredEntry.self]
    )
}
