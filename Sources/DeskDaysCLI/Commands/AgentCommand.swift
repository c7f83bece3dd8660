import ArgumentParser
import Foundation

/// `deskdays agent`: adapters → pipeline → store, in the foreground, with
/// the control socket, reminders and the end-of-day fallback.
package struct AgentCommand: HardwareCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "agent", abstract: "Run the agent: watch the enabled check-in methods and store arrivals.")

    @OptionGroup package var global: GlobalOptions
    @OptionGroup package var socket: SocketOptions
}
