import ArgumentParser
import DeskDaysConfig

import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A command whose work needs the hardware libraries (PC/SC, libnfc, zbar,
/// V4L2, libnl, sd-bus): the agent, `doctor`, `enroll nfc|wifi|qr`, `qr` and `checkin --qr`.
///
/// Why separate executables: `deskdays-cli` links only SQLite, so the
/// commands a status bar or a script runs many times a day start in a few
/// milliseconds; loading and relocating the twenty-odd hardware libraries
/// alone used to cost more than the whole answer (bench/core.sh).
/// `deskdays-hardware` is the same command tree with these commands' work
/// linked in. The definitions (flags, help, validation) live here, so help,
/// completions and the man page stay whole; `deskdays-cli` parses and
/// validates, then replaces itself (`execv`, same process id, same
/// arguments) with `deskdays-hardware`, found beside it or in
/// `../libexec/deskdays/` (`Companion`).
package protocol HardwareCommand: AsyncParsableCommand {}

extension HardwareCommand {
    package func run() async throws {
        guard let runner = Hardware.runner else { try Hardware.handOver() }
        try await runner(self)
    }
}

/// Where hardware commands go: the runner `deskdays-hardware` installs, or
/// (in `deskdays`, where there is none) the hand-over to that executable.
package enum Hardware {
    /// Runs one parsed hardware command; set once at start-up by `deskdays-hardware`.
    nonisolated(unsafe) package static var runner: ((any HardwareCommand) async throws -> Void)?

    /// Watches the `[qr]` camera for up to the given seconds and returns the
    /// rule the first matching code fits, or nil (`checkin --qr`); set by
    /// `deskdays-hardware`.
    nonisolated(unsafe) package static var cameraRule: ((QRSettings, Double) throws -> String?)?

    /// The executable's name.
    static let executableName = "deskdays-hardware"

    /// Replaces this process with `deskdays-hardware` and the same arguments.
    package static func handOver() throws -> Never {
        let (found, looked) = Companion.locate(executableName)
        guard let target = found else {
            throw CLIError("this command needs \(executableName), which is not installed (looked for \(looked.joined(separator: " and "))); "
                           + "reinstall DeskDays with `make install`.")
        }
        let reason = Companion.execute(target)
        throw CLIError("cannot start \(target) (\(reason)); reinstall DeskDays with `make install`.")
    }
}
