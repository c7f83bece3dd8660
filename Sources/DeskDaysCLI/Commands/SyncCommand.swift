import Localization
import CommandSupport
import ArgumentParser
import DeskDaysConfig
import DeskDaysCore
import DeskDaysPipeline
import DeskDaysStore
import DeskDaysSync
import Foundation

/// `deskdays sync status|forget`: several devices, one record (docs/cli.md "Sync").
struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync", abstract: tr("Show or tidy the devices that share your [sync] folder."),
        discussion: tr("""
        With [sync] folder set, each device appends its changes to its own \
        journal file in that folder and merges every other device's file; \
        your file synchroniser (Syncthing, Nextcloud, a USB stick) carries \
        the files, and decides who can read them.
        """),
        subcommands: [Status.self, Forget.self])

    /// The settings, or the one sentence saying how to turn sync on.
    static func settings(_ session: Session) throws -> SyncSettings {
        guard session.configuration.sync != nil else {
            throw CLIError(tr("sync is off: add [sync] folder = \"~/Sync/deskdays\" (a folder your synchroniser shares) to \(session.options.configPath)."))
        }
        guard let settings = session.syncSettings else { throw ExitCode(1) }
        return settings
    }

    /// Opens the device and merges the folder, keeping the warnings.
    static func open(_ session: Session) throws -> (Synchronizer, Synchronizer.MergeReport) {
        let settings = try settings(session)
        do {
            let sync = try Synchronizer(store: try session.writeStore(), folder: settings.folder,
                                        deviceName: settings.deviceName, now: session.clock, inbox: session.inboxRules)
            try sync.publish()
            return (sync, try sync.merge())
        } catch let failure as Synchronizer.SyncFailure {
            throw CLIError(failure.description.prefix(1).uppercased() + failure.description.dropFirst() + ".")
        }
    }

    /// `sync status`: the folder, this device, every device seen, problems.
    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: tr("Merge the folder, then list this device, every device seen and any problem."))

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let session = try Session(global)
            let (sync, report) = try SyncCommand.open(session)
            let devices = try sync.store.syncDevices()
            let scan = try sync.scan()
            let inboxes = Set(sync.inboxFiles().map(\.id))
            let present = Dictionary(scan.journals.map { ($0.id, $0.path) }, uniquingKeysWith: { first, _ in first })
            var lines = [tr("Folder: \(sync.folder)")] + report.notes.map { tr("Note: \($0).") }
            // Each skipped line by its place (FILE:LINE) rather than the merge's count per file.
            var problems = report.warnings + (try sync.skippedLines())
            if let me = devices.first(where: \.isSelf) {
                let (count, file) = (me.lines, Synchronizer.fileName(me.id))
                lines.append(trn("This device: \(me.name) (\(me.id)), \(count) line in \(file)",
                                 "This device: \(me.name) (\(me.id)), \(count) lines in \(file)", count))
            }
            // Times in these sentences as the locale writes them (RFC 3339 under C), in the policy's zone.
            func when(_ instant: Date) -> String { session.reportLocale.dateTime(instant, in: session.policy.timeZone) }
            // A clock that ran ahead, set right since: its lines were stamped again (`correctClock`).
            let corrections = Dictionary(try sync.store.clockCorrections().map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            if let me = devices.first(where: \.isSelf), let correction = corrections[me.name], correction.isSelf {
                let (count, time) = (correction.lines, correction.at.map(when) ?? "-")
                lines.append(trn("This device's clock ran ahead until \(time): \(count) change written on it was stamped again with the time it was made",
                                 "This device's clock ran ahead until \(time): \(count) changes written on it were stamped again with the times they were made", count))
            }
            if let agreement = session.policyAgreement {
                if let shared = agreement.shared {
                    let name = shared.name, day = shared.day(in: session.policy.timeZone)
                    lines.append(tr("Policy: the one \(name) shared on \(session.reportLocale.day(day)) (policy.json)"))
                }
                problems += agreement.problems + [agreement.notice(writing: session.reportLocale.day)].compactMap { $0 }
            }
            let others = devices.filter { !$0.isSelf }
            lines.append(others.isEmpty ? tr("Devices seen: none yet") : tr("Devices seen:"))
            for device in others {
                let count = device.lines
                var state = device.lastChange.map { (change: Date) -> String in
                    let time = when(change)
                    return trn("last change \(time), \(count) line merged", "last change \(time), \(count) lines merged", count)
                } ?? trn("no change yet, \(count) line merged", "no change yet, \(count) lines merged", count)
                if device.forgotten { state = tr("forgotten (its journal is ignored)") }
                if let first = device.firstClock { state = tr("first appeared \(when(first))") + "; " + state }
                if let correction = corrections[device.name], !correction.isSelf {
                    let (count, time) = (correction.lines, correction.at.map(when) ?? "-")
                    state += "; " + trn("its clock ran ahead until \(time): \(count) change stamped again",
                                        "its clock ran ahead until \(time): \(count) changes stamped again", count)
                }
                if let fork = Synchronizer.fork(of: device) {
                    state += "; " + tr("restored from a backup: its lines from line \(fork.seq) on continue as \(fork.branch.prefix(8))")
                }
                lines.append("  \(device.name)  \(device.id.prefix(8))  \(state)")
                // An inbox file's own problems are among `skippedLines`.
                guard !device.forgotten, !inboxes.contains(device.id) else { continue }
                if let path = present[device.id] {
                    if Synchronizer.endsInIncompleteLine(path) {
                        problems.append(tr("\(device.name)'s journal ends in an incomplete line (being written, or torn); it is merged once complete"))
                    }
                } else if !report.branches.contains(device.id) {
                    problems.append(trn("\(device.name)'s journal file is not in the folder; its \(count) merged line stays (`deskdays sync forget \(device.name)` removes it)",
                                        "\(device.name)'s journal file is not in the folder; its \(count) merged lines stay (`deskdays sync forget \(device.name)` removes them)", count))
                }
                if let clock = device.lastClock, clock.timeIntervalSince(session.clock().date) > 3600 {
                    let hours = Int((clock.timeIntervalSince(session.clock().date) / 3600).rounded())
                    problems.append(trn("\(device.name)'s clock was \(hours) h ahead of this device's when it last wrote; check both clocks (NTP): the latest manual record is decided by these clocks",
                                        "\(device.name)'s clock was \(hours) h ahead of this device's when it last wrote; check both clocks (NTP): the latest manual record is decided by these clocks", hours))
                }
            }
            // Not problems: lines a later clock accepts, named so that a wrong clock can be found.
            let held = try sync.heldLines()
            if !held.isEmpty {
                lines.append(tr("Held until this device's clock reaches them:"))
                lines += held.map { "  - \($0)" }
            }
            lines.append(problems.isEmpty ? tr("Problems: none") : tr("Problems:"))
            lines += problems.map { "  - \($0)" }
            // Names and file names come from the folder: they cannot forge a line or send an escape.
            print(lines.map(Printable.escaped).joined(separator: "\n"))
        }
    }

    /// `sync forget DEVICE`: a retired device's entries leave this database.
    struct Forget: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "forget",
            abstract: tr("Remove a retired device's entries from this database and ignore its journal from now on."),
            discussion: tr("""
            DEVICE is its name or the start of its id (as `deskdays sync status` \
            lists them). Only this database changes: run it on each device, and \
            delete the retired device's journal file from the folder.
            """))

        @OptionGroup var global: GlobalOptions

        @Argument(help: ArgumentHelp(tr("The device's name or id.")))
        var device: String

        func run() async throws {
            let session = try Session(global)
            let (sync, _) = try SyncCommand.open(session)
            let devices = try sync.store.syncDevices()
            let byID = devices.filter { device.count >= 4 && $0.id.hasPrefix(device.lowercased()) }
            let matches = byID.isEmpty ? devices.filter { $0.name == device } : byID
            guard let target = matches.first else {
                throw CLIError(tr("no device named \(device) has synced here; `deskdays sync status` lists them."))
            }
            guard matches.count == 1 else {
                let count = matches.count
                throw CLIError(trn("\(count) device is named \(device); give the start of its id instead (`deskdays sync status` lists them).",
                                   "\(count) devices are named \(device); give the start of its id instead (`deskdays sync status` lists them).", count))
            }
            guard !target.isSelf else {
                throw CLIError(tr("\(device) is this device; forget it from another device, or remove [sync] here."))
            }
            let removed = try sync.store.forget(device: target.id)
            // An inbox file is its own name (`inbox/phone.txt`).
            let file = Synchronizer.inboxID(target.name) == target.id ? target.name : Synchronizer.fileName(target.id)
            print(Printable.escaped(trn("Forgot \(target.name) (\(target.id)): \(removed) line removed; its journal is ignored from now on. Delete \(file) from the folder, and forget it on your other devices too.",
                      "Forgot \(target.name) (\(target.id)): \(removed) lines removed; its journal is ignored from now on. Delete \(file) from the folder, and forget it on your other devices too.", removed)))
        }
    }
}
