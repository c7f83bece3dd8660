import ArgumentParser

/// `deskdays doctor`: hardware and permission diagnosis, with remedies.
package struct DoctorCommand: HardwareCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the hardware, drivers and permissions each enabled method needs, and say how to fix what is wrong.",
        discussion: "Exit status 1 when something an enabled method needs is missing or broken.")

    @OptionGroup package var global: GlobalOptions
    @OptionGroup package var socket: SocketOptions
}
