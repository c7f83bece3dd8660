import Localization
import DeviceThread
#if canImport(Glibc)
import Glibc
#endif
import DeskDaysCore
import DeskDaysReports
import Foundation
import Logging
import Spawn
import AgentSocket
import Synchronization
import SystemBus

/// The tray icon: a StatusNotifierItem and its com.canonical.dbusmenu menu (see `DesktopBus`).
extension DesktopBus {
    /// How the icon looks for a summary (freedesktop icon names, so every theme has them).
    package struct TrayLook: Equatable {
        var status: String
        var icon: String
        var title: String
        var tooltip: String
        /// The menu's two insensitive items: the period's figures and the week's ("" when there is no week rule).
        var periodLine: String
        var weekLine: String

        init(_ summary: DesktopSummary) {
            let unanswered = summary.workday && summary.todayStatus.isEmpty && summary.remaining > 0
            status = unanswered ? "NeedsAttention" : "Active"
            switch summary.status {
            case .met: icon = "emblem-default"
            case .behind, .impossible: icon = "dialog-warning"
            case .onTrack, .notStarted: icon = "x-office-calendar"
            }
            title = "DeskDays: " + summary.status.words
            // Two sentences, each with the plural of its own count (Arabic's noun after "يلزم" agrees with the days still needed).
            periodLine = trn("\(summary.office) of \(summary.required) office day in \(summary.periodName).",
                             "\(summary.office) of \(summary.required) office days in \(summary.periodName).", summary.required)
            weekLine = summary.week.map { Render.weekLine(office: $0.office, required: $0.required) } ?? ""
            tooltip = Localization.sentences([
                periodLine,
                trn("\(summary.remaining) more office day needed.", "\(summary.remaining) more office days needed.", summary.remaining),
                weekLine,
                // A holiday or an excused day is named, never "no answer yet" (docs/cli.md "Additions (fifth round)").
                !summary.todayStatus.isEmpty ? tr("Today: \(Self.statusWord(summary.todayStatus)).")
                    : !summary.holiday.isEmpty ? tr("Today: \(summary.holiday).") : tr("Today: no answer yet."),
                summary.nextPlan,
                summary.missing,
            ])
        }

        /// A status as the tooltip names it, in the user's language (the D-Bus property keeps the name).
        static func statusWord(_ name: String) -> String { AttendanceStatus(rawValue: name)?.word ?? name }
    }

    /// Exports the item and its menu, follows the watcher's name and registers with it.
    package func showTray(_ bus: OpaquePointer) {
        do {
            item = try BusObject(bus: bus, path: Self.itemPath, interface: Self.itemInterface, members: itemMembers())
            menu = try BusObject(bus: bus, path: Self.menuPath, interface: Self.menuInterface, members: menuMembers())
        } catch {
            logger.info("\(error.reason); no tray icon")
            item = nil
            menu = nil
            return
        }
        let rule = "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',"
            + "interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(Self.watcher)'"
        if case .success(let subscription) = BusSupport.addMatch(bus, rule: rule, { [unowned self] message in
            guard let name = BusSupport.readString(message), BusSupport.readString(message) != nil,
                  let owner = BusSupport.readString(message), name == Self.watcher else { return }
            if owner.isEmpty { logger.debug("the StatusNotifierWatcher left the session bus") } else { registerTray() }
        }) {
            subscriptions.append(subscription)
        }
        registerTray()
    }

    /// `RegisterStatusNotifierItem` with our unique name (the item is at /StatusNotifierItem); no watcher is logged at debug only.
    package func registerTray() {
        guard let bus, item != nil else { return }
        guard let service = BusSupport.uniqueName(bus) else { return }
        let failure = callAsync(bus, destination: Self.watcher, path: Self.watcherPath, interface: Self.watcher,
                                member: "RegisterStatusNotifierItem", autoStart: false,
                                build: { BusSupport.append($0, string: service) }) { [self] reply in
            if let name = BusSupport.errorName(reply) {
                if name == "org.freedesktop.DBus.Error.ServiceUnknown" || name == "org.freedesktop.DBus.Error.NameHasNoOwner" {
                    logger.debug("no StatusNotifierWatcher on the session bus; no tray icon until one comes")
                } else {
                    logger.info("the StatusNotifierWatcher refused the tray icon (\(BusSupport.errorText(reply)))")
                }
            } else {
                logger.info("tray icon registered with the StatusNotifierWatcher")
            }
        }
        if let failure { logger.debug("cannot register the tray icon (\(failure))") }
    }

    private func itemMembers() -> [BusObject.Member] {
        func text(_ name: String, _ value: @escaping () -> String) -> BusObject.Member {
            .property(name, signature: "s", emitsChange: false) { BusSupport.append($0, string: value()) }
        }
        func pixmaps(_ name: String) -> BusObject.Member {
            .property(name, signature: "a(iiay)", emitsChange: false) { BusSupport.container($0, "a", "(iiay)") { 0 } }
        }
        let look: () -> TrayLook? = { [unowned self] in summary.map(TrayLook.init) }
        let ignore: BusObject.Method = { message, _ in max(0, BusSupport.reply(to: message)) }
        return [
            text("Category") { "ApplicationStatus" },
            text("Id") { "deskdays" },
            text("Title") { "DeskDays" },
            text("Status") { look()?.status ?? "Active" },
            .property("WindowId", signature: "i", emitsChange: false) { BusSupport.append($0, "i", Int32(0)) },
            text("IconName") { look()?.icon ?? "x-office-calendar" },
            pixmaps("IconPixmap"),
            text("OverlayIconName") { "" },
            pixmaps("OverlayIconPixmap"),
            // Empty once today is answered: xfce4-panel drops an attention
            // icon only when an icon property changes (with NewAttentionIcon).
            text("AttentionIconName") { look()?.status == "NeedsAttention" ? "appointment-soon" : "" },
            pixmaps("AttentionIconPixmap"),
            text("AttentionMovieName") { "" },
            .property("ToolTip", signature: "(sa(iiay)ss)", emitsChange: false) { reply in
                let shown = look()
                return BusSupport.container(reply, "r", "sa(iiay)ss") {
                    BusSupport.steps([
                        { BusSupport.append(reply, string: shown?.icon ?? "x-office-calendar") },
                        { BusSupport.container(reply, "a", "(iiay)") { 0 } },
                        { BusSupport.append(reply, string: shown?.title ?? "DeskDays") },
                        { BusSupport.append(reply, string: shown?.tooltip ?? "") },
                    ])
                }
            },
            .property("ItemIsMenu", signature: "b", emitsChange: false) { BusSupport.append($0, "b", Int32(0)) },
            .property("Menu", signature: "o", emitsChange: false) { reply in
                BusSupport.append(reply, string: Self.menuPath, as: "o")
            },
            .method("ContextMenu", input: "ii", output: "", names: ["x", "y"], ignore),
            // A click on the icon opens the window.
            .method("Activate", input: "ii", output: "", names: ["x", "y"]) { [unowned self] message, _ in
                perform(MenuItem.openApp.rawValue)
                return max(0, BusSupport.reply(to: message))
            },
            .method("SecondaryActivate", input: "ii", output: "", names: ["x", "y"], ignore),
            .method("Scroll", input: "is", output: "", names: ["delta", "orientation"], ignore),
            .signal("NewTitle", signature: "", names: []),
            .signal("NewIcon", signature: "", names: []),
            .signal("NewAttentionIcon", signature: "", names: []),
            .signal("NewOverlayIcon", signature: "", names: []),
            .signal("NewToolTip", signature: "", names: []),
            .signal("NewStatus", signature: "s", names: ["status"]),
        ]
    }

    // MARK: - The menu (com.canonical.dbusmenu)

    /// The menu's items; their ids are the dbusmenu ids (0 is the root).
    package enum MenuItem: Int32, CaseIterable {
        // "Open DeskDays" first in the menu; ids stay as they were.
        case openApp = 6
        // The period's and the week's figures, insensitive (not clickable).
        case period = 7, week = 8
        case checkIn = 1, remoteToday, openReport, separator, pause

        var label: String {
            switch self {
            case .openApp: tr("Open DeskDays")
            case .checkIn: tr("Check in now")
            case .remoteToday: tr("Remote today")
            case .openReport: tr("Open report")
            case .separator, .period, .week: ""
            case .pause: tr("Pause reminders today")

            }
        }
    }

    /// An item's properties as (name, D-Bus type, append).
    private func properties(of id: Int32) -> [(String, String, (OpaquePointer) -> Int32)]? {
        if id == 0 { return [("children-display", "s", { BusSupport.append($0, string: "submenu") })] }
        guard let item = MenuItem(rawValue: id) else { return nil }
        if item == .separator { return [("type", "s", { BusSupport.append($0, string: "separator") })] }
        if item == .period || item == .week {
            let look = summary.map(TrayLook.init)
            let text = (item == .period ? look?.periodLine : look?.weekLine) ?? ""
            return [("label", "s", { BusSupport.append($0, string: text) }),
                    ("enabled", "b", { BusSupport.append($0, "b", Int32(0)) }),
                    ("visible", "b", { BusSupport.append($0, "b", Int32(text.isEmpty ? 0 : 1)) })]
        }
        let enabled = item != .pause || pausedOn != hooks.today()
        return [("label", "s", { BusSupport.append($0, string: item.label) }),
                ("enabled", "b", { BusSupport.append($0, "b", Int32(enabled ? 1 : 0)) }),
                ("visible", "b", { BusSupport.append($0, "b", Int32(1)) })]
    }

    /// `a{sv}` of an item's properties.
    private func appendProperties(_ message: OpaquePointer, _ id: Int32) -> Int32 {
        BusSupport.container(message, "a", "{sv}") {
            BusSupport.steps((properties(of: id) ?? []).map { name, type, value in
                { BusSupport.container(message, "e", "sv") {
                    BusSupport.steps([{ BusSupport.append(message, string: name) },
                                      { BusSupport.container(message, "v", type) { value(message) } }])
                } }
            })
        }
    }

    /// `(ia{sv}av)`: the item and, for the root when `children`, every item below it.
    private func appendLayout(_ message: OpaquePointer, _ id: Int32, children: Bool) -> Int32 {
        BusSupport.container(message, "r", "ia{sv}av") {
            BusSupport.steps([
                { BusSupport.append(message, "i", id) },
                { self.appendProperties(message, id) },
                { BusSupport.container(message, "a", "v") {
                    BusSupport.steps((id == 0 && children ? MenuItem.allCases.map(\.rawValue) : []).map { child in
                        { BusSupport.container(message, "v", "(ia{sv}av)") { self.appendLayout(message, child, children: false) } }
                    })
                } },
            ])
        }
    }

    private func menuMembers() -> [BusObject.Member] {
        let invalid = "org.freedesktop.DBus.Error.InvalidArgs"
        return [
            .property("Version", signature: "u", emitsChange: false) { BusSupport.append($0, "u", UInt32(3)) },
            // The messages' language decides, as `<html dir>` does: `rtl` for Arabic.
            .property("TextDirection", signature: "s", emitsChange: false) {
                BusSupport.append($0, string: ReportLocale.process.textDirection)
            },
            .property("Status", signature: "s", emitsChange: false) { BusSupport.append($0, string: "normal") },
            .property("IconThemePath", signature: "as", emitsChange: false) { BusSupport.container($0, "a", "s") { 0 } },
            .method("GetLayout", input: "iias", output: "u(ia{sv}av)",
                    names: ["parentId", "recursionDepth", "propertyNames", "revision", "layout"]) { [unowned self] message, error in
                let parent = BusSupport.read(message, "i", as: Int32.self, zero: 0) ?? 0
                let depth = BusSupport.read(message, "i", as: Int32.self, zero: 0) ?? -1
                guard properties(of: parent) != nil else {
                    return BusSupport.fail(error, name: invalid, message: "there is no menu item \(parent)")
                }
                return max(0, BusSupport.reply(to: message) { reply in
                    BusSupport.steps([{ BusSupport.append(reply, "u", self.menuRevision) },
                                      { self.appendLayout(reply, parent, children: depth != 0) }])
                })
            },
            .method("GetGroupProperties", input: "aias", output: "a(ia{sv})",
                    names: ["ids", "propertyNames", "properties"]) { [unowned self] message, _ in
                var ids = BusSupport.readArray(message, "i", as: Int32.self, zero: 0) ?? []
                if ids.isEmpty { ids = [0] + MenuItem.allCases.map(\.rawValue) }
                let known = ids.filter { properties(of: $0) != nil }
                return max(0, BusSupport.reply(to: message) { reply in
                    BusSupport.container(reply, "a", "(ia{sv})") {
                        BusSupport.steps(known.map { id in
                            { BusSupport.container(reply, "r", "ia{sv}") {
                                BusSupport.steps([{ BusSupport.append(reply, "i", id) }, { self.appendProperties(reply, id) }])
                            } }
                        })
                    }
                })
            },
            .method("GetProperty", input: "is", output: "v", names: ["id", "name", "value"]) { [unowned self] message, error in
                let id = BusSupport.read(message, "i", as: Int32.self, zero: 0) ?? -1
                let name = BusSupport.readString(message) ?? ""
                guard let property = properties(of: id)?.first(where: { $0.0 == name }) else {
                    return BusSupport.fail(error, name: invalid, message: "menu item \(id) has no property \(name.prefix(40))")
                }
                return max(0, BusSupport.reply(to: message) { reply in
                    BusSupport.container(reply, "v", property.1) { property.2(reply) }
                })
            },
            .method("Event", input: "isvu", output: "", names: ["id", "eventId", "data", "timestamp"]) { [unowned self] message, error in
                let id = BusSupport.read(message, "i", as: Int32.self, zero: 0) ?? -1
                let event = BusSupport.readString(message) ?? ""
                guard properties(of: id) != nil else {
                    return BusSupport.fail(error, name: invalid, message: "there is no menu item \(id)")
                }
                if event == "clicked" { perform(id) }
                return max(0, BusSupport.reply(to: message))
            },
            .method("EventGroup", input: "a(isvu)", output: "ai", names: ["events", "idErrors"]) { [unowned self] message, _ in
                var unknown: [Int32] = []
                BusSupport.forEachStruct(message, "isvu") {
                    let id = BusSupport.read(message, "i", as: Int32.self, zero: 0) ?? -1
                    let event = BusSupport.readString(message) ?? ""
                    BusSupport.skip(message, "vu")
                    if properties(of: id) == nil { unknown.append(id) } else if event == "clicked" { perform(id) }
                }
                return max(0, BusSupport.reply(to: message) { reply in
                    BusSupport.container(reply, "a", "i") { BusSupport.steps(unknown.map { id in { BusSupport.append(reply, "i", id) } }) }
                })
            },
            .method("AboutToShow", input: "i", output: "b", names: ["id", "needUpdate"]) { message, _ in
                max(0, BusSupport.reply(to: message) { BusSupport.append($0, "b", Int32(0)) })
            },
            .method("AboutToShowGroup", input: "ai", output: "aiai", names: ["ids", "updatesNeeded", "idErrors"]) { message, _ in
                max(0, BusSupport.reply(to: message) { reply in
                    BusSupport.steps([{ BusSupport.container(reply, "a", "i") { 0 } }, { BusSupport.container(reply, "a", "i") { 0 } }])
                })
            },
            .signal("ItemsPropertiesUpdated", signature: "a(ia{sv})a(ias)", names: ["updatedProps", "removedProps"]),
            .signal("LayoutUpdated", signature: "ui", names: ["revision", "parent"]),
            .signal("ItemActivationRequested", signature: "iu", names: ["id", "timestamp"]),
        ]
    }

    /// What a menu item (or a click on the icon) does.
    private func perform(_ id: Int32) {
        guard let item = MenuItem(rawValue: id) else { return }
        let hooks = self.hooks, logger = self.logger
        switch item {
        case .checkIn, .remoteToday:
            let status: AttendanceStatus = item == .checkIn ? .office : .remote
            Task {
                do {
                    try await hooks.record(hooks.today(), status, nil, "the tray menu")
                } catch {
                    logger.error("could not record \(status.rawValue) from the tray menu: \(error)")
                }
            }
        case .openApp:
            Task { await hooks.openApp() }
        case .openReport:
            Task { await hooks.openReport() }
        case .pause:
            let today = hooks.today()
            hooks.pauseReminders(today)
            pausedOn = today
            menuChanged()
        case .separator, .period, .week:
            break
        }
    }

    /// The layout changed (an item was enabled or disabled): a new revision and `LayoutUpdated`.
    package func menuChanged() {
        menuRevision += 1
        guard let bus, let menu else { return }
        let revision = menuRevision
        menu.emit(on: bus, signal: "LayoutUpdated") { message in
            BusSupport.steps([{ BusSupport.append(message, "u", revision) }, { BusSupport.append(message, "i", Int32(0)) }])
        }
    }
}

/// The day the tray menu's "Pause reminders today" was chosen for (kept in
/// memory: a restarted agent has already given or not given that day's reminder).
package final class ReminderPause: Sendable {
    private let day = Mutex<LocalDate?>(nil)

    package init() {}

    package func pause(_ date: LocalDate) { day.withLock { $0 = date } }

    package func isPaused(_ date: LocalDate) -> Bool { day.withLock { $0 == date } }
}

extension DesktopOpener {
    /// The window's executable, as the desktop entry names it.
    package static let app = "deskdays-app"

    /// Opens the window (`deskdays-app`; a second start presents the window
    /// already open): the one on PATH (installed, as the desktop entry's
    /// `Exec` finds it), else the one beside this executable (a build
    /// folder), in a unit of its own under systemd as `open` does.
    package static func openApp(environment: [String: String], logger: Logger) async {
        let path = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map { "\($0)/\(app)" }
        let beside = Companion.candidates(app, besides: Companion.ownPath())
        guard let program = (path + beside).first(where: { access($0, X_OK) == 0 }) else {
            return logger.warning("cannot open the window: \(app) is not installed; install the deskdays package")
        }
        let underSystemd = !(environment["INVOCATION_ID"] ?? "").isEmpty
        let arguments = (underSystemd ? ["systemd-run", "--user", "--collect", "--quiet", "--"] : []) + [program]
        logger.info("opening the window with \(arguments[0])")
        do {
            // Awaited in a task of its own: under systemd until the unit started, else while the window is open.
            let result = try await Program.run(arguments[0], Array(arguments.dropFirst()), stdout: .discard, stderr: .discard, newSession: true)
            if result.status != 0 { logger.info("\(arguments[0]) ended with status \(result.status) opening the window") }
        } catch {
            logger.warning("cannot open the window: \(arguments[0]) could not be started (\(error))")
        }
    }
}

/// Opens a file with the desktop's default application: `xdg-open FILE`.
/// Under systemd (`INVOCATION_ID` set) it goes through `systemd-run --user
/// --wait --collect --quiet`, so the browser runs in a unit of its own instead of
/// inheriting the agent's sandbox (MemoryDenyWriteExecute would kill a JIT
/// browser, and RestrictAddressFamilies would cut it off the network).
package enum DesktopOpener {
    /// Whether it was opened: false when xdg-open is missing or fails (exit 3: no
    /// handler, 4: the action failed), so the caller can say where the file is.
    /// Through systemd-run `--wait` xdg-open's own status comes back: at once
    /// when nothing opens the file; a browser xdg-open keeps in the foreground
    /// is taken as opened once `foreground` has passed without an answer.
    @discardableResult
    package static func open(_ path: String, environment: [String: String], logger: Logger,
                             foreground: Duration = .seconds(5)) async -> Bool {
        let underSystemd = !(environment["INVOCATION_ID"] ?? "").isEmpty
        let arguments = (underSystemd ? ["systemd-run", "--user", "--wait", "--collect", "--quiet", "--"] : []) + ["xdg-open", path]
        let run = Task { try await Program.run(arguments[0], Array(arguments.dropFirst()), stdout: .discard, stderr: .discard) }
        let outcome: Result<Int32, Error>? = await withTaskGroup(of: Result<Int32, Error>?.self) { group in
            group.addTask { await run.result.map(\.status) }
            group.addTask {
                try? await Task.sleep(for: foreground)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        switch outcome {
        case nil:
            logger.info("report written to \(path); \(arguments[0]) still runs the program that shows it")
            return true
        case .success(0)?:
            logger.info("report written to \(path) and opened with \(arguments[0])")
            return true
        case .success(let status)?:
            logger.info("\(arguments[0]) ended with status \(status) opening the report \(path)")
            return false
        case .failure(let error)?:
            logger.warning("cannot open the report: \(arguments[0]) could not be started (\(error)); install xdg-utils")
            return false
        }
    }
}
