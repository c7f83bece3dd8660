import CAdwaita
import DeskDaysCore
import DeskDaysReports
import Foundation
import Localization

/// The main window (ui/window.ui): Today, Calendar, Plan and Insights in an AdwViewStack, the
/// agent's banner and the toasts. It shows what the agent answers, worded by the same functions
/// and catalog messages as `status` and `report` (Render, ReportLocale), never a figure of its own.
@MainActor
final class MainWindow {
    let window: Widget
    let agent: AgentClient
    private let builder: OpaquePointer
    private let locale = ReportLocale.process

    private(set) var report: Report?
    private(set) var rows: [DayRow] = []
    private var streaks: Streaks?
    private var milestones: Milestones?
    /// The pages whose content is read when they are shown (Plan and Insights ask the agent to run
    /// a command each: at start-up they would compete with the first frame for the cores).
    private var stalePages: Set<String> = []
    private var generation = 0
    /// The calendar's selection: one date, or a range once a second date is chosen.
    private var selection: (from: LocalDate, to: LocalDate)?
    private var dayButtons: [LocalDate: Widget] = [:]
    private lazy var plan = PlanPage(window: self, box: object("plan_box"))

    init(application: UnsafeMutablePointer<AdwApplication>, agent: AgentClient) {
        self.agent = agent
        builder = gtk_builder_new_from_resource("/io/github/deskdays/DeskDays/ui/window.ui")
        window = cast(raw(gtk_builder_get_object(builder, "window")))
        gtk_window_set_application(cast(raw(window)), cast(raw(application)))
        setTexts(application)
        addActions()
        onSignal1(raw(object("stack")), "notify::visible-child-name") { [weak self] _ in self?.showStalePage() }
        setShortcuts()
        buildLegend()
        applyPalette()
        gtk_style_context_add_provider_for_display(gdk_display_get_default(), cast(raw(palette)), UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        onSignal1(raw(adw_style_manager_get_default()), "notify::dark") { [weak self] _ in self?.applyPalette() }
        agent.changed = { [weak self] in self?.refresh(start: false) }
        agent.availability = { [weak self] missing in self?.showBanner(missing) }
    }

    /// The calendar's colours: the report heatmap's palette (DayKind.palette), light or dark as the system is.
    private let palette = gtk_css_provider_new()

    private func applyPalette() {
        let (fills, text) = DayKind.palette(dark: adw_style_manager_get_dark(adw_style_manager_get_default()) != 0)
        let css = fills.map { kind, fill in
            ".deskdays-day.k-\(kind.rawValue), .deskdays-swatch.k-\(kind.rawValue) { background-color: \(fill); color: \(text); }"
        }.joined(separator: "\n")
        gtk_css_provider_load_from_data(palette, css, -1)
    }

    func object(_ id: String) -> Widget { cast(raw(gtk_builder_get_object(builder, id))) }

    // MARK: - Texts (every one through the catalogs)

    private func setTexts(_ application: UnsafeMutablePointer<AdwApplication>) {
        let pages = [("today_page", tr("Today")), ("calendar_page", tr("Calendar")), ("plan_page", tr("Plan")),
                     ("insights_page", tr("Insights"))]
        for (id, title) in pages {
            adw_view_stack_page_set_title(cast(raw(gtk_builder_get_object(builder, id))), title)
        }
        gtk_button_set_label(cast(raw(object("checkin_button"))), tr("Check in"))
        gtk_button_set_label(cast(raw(object("remote_button"))), tr("Remote"))
        gtk_button_set_label(cast(raw(object("sick_button"))), tr("Sick"))
        gtk_button_set_label(cast(raw(object("vacation_button"))), tr("Vacation"))
        gtk_button_set_label(cast(raw(object("banner_button"))), tr("Start the agent"))
        gtk_widget_set_tooltip_text(object("refresh_button"), tr("Read again"))
        deskdays_set_accessible_label(object("refresh_button"), tr("Read again"))
        gtk_widget_set_tooltip_text(object("menu_button"), tr("Main menu"))
        deskdays_set_accessible_label(object("menu_button"), tr("Main menu"))

        let menu = g_menu_new()
        g_menu_append(menu, tr("Preferences"), "app.preferences")
        g_menu_append(menu, tr("Keyboard Shortcuts"), "win.show-help-overlay")
        g_menu_append(menu, tr("About DeskDays"), "app.about")
        gtk_menu_button_set_menu_model(cast(raw(object("menu_button"))), cast(raw(menu)))
        g_object_unref(raw(menu))
        // Selected days: the statuses a range takes, and Clear.
        let bar = object("selection_buttons")
        for (status, label) in [(AttendanceStatus.office, tr("Office")), (.remote, tr("Remote")), (.sick, tr("Sick")),
                                (.vacation, tr("Vacation"))] {
            UI.append(bar, UI.button(label) { [weak self] in self?.setSelection(status) })
        }
        UI.append(bar, UI.button(tr("Clear"), classes: ["destructive-action"]) { [weak self] in self?.clearSelection() })
    }

    // MARK: - Actions and shortcuts

    /// The shortcuts window (ui/help-overlay.ui), titled from the catalogs; opened by Ctrl+? or the main menu.
    private func setShortcuts() {
        let help = gtk_builder_new_from_resource("/io/github/deskdays/DeskDays/ui/help-overlay.ui")
        defer { g_object_unref(raw(help)) }
        let pages = [tr("Today"), tr("Calendar"), tr("Plan"), tr("Insights")].joined(separator: ", ")
        for (id, title) in [("shortcuts_group", "DeskDays"), ("shortcut_checkin", tr("Check in")), ("shortcut_pages", pages),
                            ("shortcut_refresh", tr("Read again")), ("shortcut_preferences", tr("Preferences")),
                            ("shortcut_help", tr("Keyboard Shortcuts"))] {
            deskdays_set_string(raw(gtk_builder_get_object(help, id)), "title", title)
        }
        let overlay = gtk_builder_get_object(help, "help_overlay")
        gtk_application_window_set_help_overlay(cast(raw(window)), cast(raw(overlay)))
    }

    private func addActions() {
        addAction("check-in") { [weak self] _ in self?.record(nil, .office) }
        addAction("record-today", parameter: "s") { [weak self] parameter in
            guard let parameter, let status = AttendanceStatus(rawValue: String(cString: g_variant_get_string(parameter, nil))) else { return }
            self?.record(nil, status)
        }
        addAction("refresh") { [weak self] _ in self?.refresh() }
        addAction("reconnect") { [weak self] _ in self?.refresh() }
        for (index, name) in ["today", "calendar", "plan", "insights"].enumerated() {
            addAction("page-\(index + 1)") { [weak self] _ in
                guard let self else { return }
                adw_view_stack_set_visible_child_name(cast(raw(self.object("stack"))), name)
            }
        }
    }

    private func addAction(_ name: String, parameter: String? = nil, _ body: @escaping @MainActor (OpaquePointer?) -> Void) {
        let type: OpaquePointer? = parameter.flatMap { g_variant_type_new($0) }
        let action = g_simple_action_new(name, type)
        if let type { g_variant_type_free(type) }
        onSignal1(raw(action), "activate") { parameter in body(parameter.map { OpaquePointer($0) }) }
        g_action_map_add_action(cast(raw(window)), cast(raw(action)))
        g_object_unref(raw(action))
    }

    // MARK: - Reading

    /// Reads the period's report and days again (after a change the agent announced, or when asked:
    /// then, with `start`, a stopped agent is started).
    func refresh(start: Bool = true) {
        generation += 1
        let asked = generation
        agent.call("Report", deskdays_variant_s(""), start: start) { [weak self] answer in
            guard let self, asked == self.generation else { return }
            switch answer {
            case .success(let json):
                guard let report = Report.decoded(json) else {
                    self.toast(tr("The agent's answer could not be read."))
                    return
                }
                self.showBanner(false)
                self.welcomeOnFirstRun()
                self.report = report
                self.streaks = Self.streaks(json)
                self.milestones = Self.milestones(json)
                self.showToday()
                self.stalePages = ["plan", "insights"]
                // The days (a command the agent runs) after the figures are on screen, not competing with their frame.
                self.afterNextPaint { [weak self] in self?.readDays(report, asked) }
            case .failure(_, let text):
                // A stopped agent is the banner's own sentence; anything else adds the bus's.
                self.showBanner(true, self.agent.running ? text : nil)
            }
        }
    }

    private func readDays(_ report: Report, _ asked: Int) {
        // The period and the week holding today (which may begin before it).
        let from = min(report.period.start, report.today.adding(days: -6)), to = max(report.period.end, report.today.adding(days: 6))
        agent.call("Days", deskdays_variant_ss(from.description, to.description), start: false) { [weak self] answer in
            guard let self, asked == self.generation else { return }
            switch answer {
            case .success(let json):
                self.rows = DayRow.rows(json) ?? []
            case .failure(_, let text):
                self.toast(text)
                self.rows = []
            }
            self.showToday()
            self.showCalendar()
            self.showStalePage()
        }
    }

    /// The shown page's content, read again if a change came since it was last read.
    private func showStalePage() {
        guard let name = adw_view_stack_get_visible_child_name(cast(raw(object("stack")))).map({ String(cString: $0) }),
              stalePages.remove(name) != nil else { return }
        switch name {
        case "plan": plan.refresh()
        case "insights": if let report { showInsights(report) }
        default: break
        }
    }

    // MARK: - Today

    private func showToday() {
        guard let report else { return }
        let todayStatus = agent.string("TodayStatus").flatMap(AttendanceStatus.init(rawValue:))
        let row = rows.first { $0.date == report.today }
        UI.setText(object("today_title"), todayStatus.map { Self.statusTitle($0) } ?? tr("Nothing recorded today yet"))
        UI.setText(object("today_decided"), decidedLine(row, report: report))
        let week = report.currentWeek
        let weekLabel = object("week_label")
        gtk_widget_set_visible(weekLabel, week == nil ? 0 : 1)
        if let week { UI.setText(weekLabel, Render.weekLine(office: week.office, required: week.required, locale: locale)) }
        UI.setText(object("period_label"), Render.periodLine(report, locale: locale))
        reportFirstFrame()
        showWeekDays(report)
        UI.setText(object("streak_label"), streaks.map { streakLine($0, locale: locale) } ?? "")
        gtk_widget_set_visible(object("streak_label"), streaks == nil ? 0 : 1)
    }

    /// The report JSON's streak keys (`streak_weeks`, `longest_streak_weeks`), when it has them.
    static func streaks(_ json: String) -> Streaks? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
              let current = object["streak_weeks"] as? Int, let longest = object["longest_streak_weeks"] as? Int else { return nil }
        return Streaks(current: current, longest: longest)
    }

    /// The report JSON's `milestones`, when it has them.
    static func milestones(_ json: String) -> Milestones? {
        struct Keys: Decodable { var milestones: Milestones? }
        return (try? JSONDecoder().decode(Keys.self, from: Data(json.utf8)))?.milestones
    }

    /// "In the office", "Remote" …: today's status as a title.
    static func statusTitle(_ status: AttendanceStatus) -> String {
        switch status {
        case .office: tr("In the office")
        case .remote: tr("Remote")
        case .sick: tr("Sick")
        case .vacation: tr("Vacation")
        case .travel, .leave: status.word
        }
    }

    /// What decided today: the first arrival and the check-in methods, or the record's origin.
    private func decidedLine(_ row: DayRow?, report: Report) -> String {
        guard let row, row.status != nil else { return locale.date(report.today) }
        let sources = (row.sources ?? []).compactMap { Source(rawValue: $0)?.typeLabel }.joined(separator: ", ")
        if let first = row.firstSeen, !sources.isEmpty {
            return tr("Since \(figures: first) — \(sources)")
        }
        // "manual record", "calendar record": the words `explain` uses.
        guard let origin = row.origin.flatMap(Origin.init(rawValue:)) else { return locale.date(report.today) }
        return tr("\(origin.word) record")
    }

    private func showWeekDays(_ report: Report) {
        let box = object("week_days")
        UI.clear(box)
        guard let start = report.currentWeek?.start ?? rows.first(where: { $0.date.weekday == .monday && $0.date <= report.today
            && report.today < $0.date.adding(days: 7) })?.date else { return }
        for offset in 0..<7 {
            let date = start.adding(days: offset)
            let kind = rows.first { $0.date == date }?.kind(today: report.today) ?? .pending
            let cell = UI.box(vertical: true, spacing: 4)
            let name = UI.label(locale.weekdayHeader(date.weekday), classes: ["caption", "dim-label"], xalign: 0.5)
            let mark = UI.label(String(kind.symbol(locale)), classes: ["deskdays-day", "k-\(kind.rawValue)"], xalign: 0.5)
            if date == report.today { gtk_widget_add_css_class(mark, "today") }
            deskdays_set_accessible_label(cell, locale.date(date) + ": " + kind.label)
            UI.append(cell, name)
            UI.append(cell, mark)
            UI.append(box, cell)
        }
    }

    // MARK: - Plan and Insights

    /// Insights: `report`'s text (every figure of the period, week by week), as the command prints it.
    /// The charts are the reports' own (`deskdays chart`, through the agent's `Chart`), each named by
    /// its SVG's title and described by its description for a screen reader.
    private func showInsights(_ report: Report) {
        let insights = object("insights_box")
        UI.clear(insights)
        UI.append(insights, UI.label(locale.periodLabel(report.period), classes: ["title-2"]))
        if let streaks { UI.append(insights, UI.label(streakLine(streaks, locale: locale), wrap: true)) }
        if let milestones { UI.append(insights, UI.label(milestones.line(locale: locale), wrap: true)) }
        for kind in ["weeks", "burndown"] {
            let slot = UI.box(vertical: true, spacing: 0)
            UI.append(insights, slot)
            let asked = generation
            agent.call("Chart", deskdays_variant_s(kind), start: false) { [weak self] answer in
                // A later read cleared the page, and this slot with it.
                guard asked == self?.generation, case .success(let svg) = answer, let texture = deskdays_texture_from_bytes(svg, gsize(svg.utf8.count)) else { return }
                let picture: Widget = gtk_picture_new_for_paintable(cast(raw(texture)))
                g_object_unref(raw(texture))
                gtk_picture_set_can_shrink(cast(raw(picture)), 1)
                // A vertical box gives a picture its minimum height: the chart's own, at the page's width (760).
                let height = Int(Self.attribute("height", of: svg)) ?? 360, width = Int(Self.attribute("width", of: svg)) ?? 800
                gtk_widget_set_size_request(picture, -1, Int32(760 * height / max(width, 1)))
                gtk_widget_add_css_class(picture, "card")
                deskdays_set_accessible_label(picture, Self.element("title", of: svg))
                deskdays_set_accessible_description(picture, Self.element("desc", of: svg))
                UI.append(slot, picture)
            }
        }
        let text = UI.label(Render.text(report, locale: locale), classes: ["card", "deskdays-card", "monospace"], wrap: true)
        gtk_label_set_selectable(cast(raw(text)), 1)
        UI.append(insights, text)
    }

    /// The text of an SVG's first `<title>` or `<desc>` (the chart's own words, XML-escaped there).
    static func element(_ name: String, of svg: String) -> String {
        guard let tag = svg.range(of: "<\(name)"), let open = svg.range(of: ">", range: tag.upperBound..<svg.endIndex),
              let close = svg.range(of: "</\(name)>", range: open.upperBound..<svg.endIndex) else { return "" }
        return String(svg[open.upperBound..<close.lowerBound]).replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&quot;", with: "\"")
            .replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&amp;", with: "&")
    }

    /// An attribute of an SVG's root element (`width="800"`).
    static func attribute(_ name: String, of svg: String) -> String {
        guard let start = svg.range(of: " \(name)=\""), let end = svg.range(of: "\"", range: start.upperBound..<svg.endIndex) else { return "" }
        return String(svg[start.upperBound..<end.lowerBound])
    }

    /// The weekdays that are workdays in the period shown (not weekend in its days), Monday first.
    func workdays() -> [Weekday] {
        let off = Set(rows.filter { $0.kind(today: report?.today ?? $0.date) == .weekend }.map(\.date.weekday))
        let on = Set(rows.map(\.date.weekday)).subtracting(off)
        return on.isEmpty ? [.monday, .tuesday, .wednesday, .thursday, .friday] : on.sorted()
    }

    // MARK: - Calendar

    private func buildLegend() {
        let legend = object("legend")
        for kind in DayKind.legendOrder {
            let item = UI.box(vertical: false, spacing: 6)
            let swatch = UI.label("", classes: ["deskdays-swatch", "k-\(kind.rawValue)"])
            UI.append(item, swatch)
            UI.append(item, UI.label(kind.label, classes: ["caption"]))
            gtk_flow_box_append(cast(raw(legend)), item)
        }
    }

    private func showCalendar() {
        guard let report else { return }
        UI.setText(object("calendar_title"), locale.periodLabel(report.period))
        let months = object("months")
        UI.clearFlow(months)
        dayButtons = [:]
        let byDate = Dictionary(rows.map { ($0.date, $0) }, uniquingKeysWith: { first, _ in first })
        let weekStart = report.weeks?.first?.start.weekday ?? .monday
        var month = report.period.start.firstOfMonth
        // A year or a rolling window shows up to 13 months; a longer one its last 13.
        var shown = 0
        while month <= report.period.end && shown < 13 {
            gtk_flow_box_append(cast(raw(months)), monthGrid(month, byDate: byDate, weekStart: weekStart, report: report))
            month = month.addingMonths(1)
            shown += 1
        }
        showSelection()
    }

    private func monthGrid(_ first: LocalDate, byDate: [LocalDate: DayRow], weekStart: Weekday, report: Report) -> Widget {
        let box = UI.box(vertical: true, spacing: 6)
        UI.append(box, UI.label(locale.monthTitle(first), classes: ["heading"]))
        let grid: Widget = gtk_grid_new()
        gtk_grid_set_row_spacing(cast(raw(grid)), 4)
        gtk_grid_set_column_spacing(cast(raw(grid)), 4)
        for column in 0..<7 {
            let weekday = Weekday(rawValue: (weekStart.rawValue - 1 + column) % 7 + 1) ?? .monday
            gtk_grid_attach(cast(raw(grid)), UI.label(locale.weekdayHeader(weekday), classes: ["caption", "dim-label"], xalign: 0.5),
                            Int32(column), 0, 1, 1)
        }
        var date = first, row: Int32 = 1
        let end = first.addingMonths(1)
        while date < end {
            let column = Int32((date.weekday.rawValue - weekStart.rawValue + 7) % 7)
            let inPeriod = date >= report.period.start && date <= report.period.end
            let kind = byDate[date]?.kind(today: report.today) ?? (inPeriod ? .pending : .weekend)
            let button = UI.button(locale.plain(date.day), classes: ["flat", "deskdays-day", "k-\(kind.rawValue)"]) { [weak self, date] in
                self?.select(date)
            }
            if date == report.today { gtk_widget_add_css_class(button, "today") }
            let words = byDate[date]?.status.map { $0.word } ?? kind.label
            deskdays_set_accessible_label(button, locale.date(date) + ": " + words)
            gtk_widget_set_tooltip_text(button, locale.date(date) + ": " + words)
            gtk_grid_attach(cast(raw(grid)), button, column, row, 1, 1)
            dayButtons[date] = button
            if column == 6 { row += 1 }
            date = date.adding(days: 1)
        }
        UI.append(box, grid)
        return box
    }

    /// A first click selects a date; a second, another date, makes the range between them; a click on
    /// a selected single date, or after a range, starts again.
    private func select(_ date: LocalDate) {
        if let current = selection, current.from == current.to, current.from != date {
            selection = (min(current.from, date), max(current.from, date))
        } else if let current = selection, current.from == date, current.to == date {
            selection = nil
        } else {
            selection = (date, date)
        }
        showSelection()
    }

    private func showSelection() {
        for (date, button) in dayButtons {
            UI.setClass(button, "selected", selection.map { $0.from <= date && date <= $0.to } ?? false)
        }
        gtk_action_bar_set_revealed(cast(raw(object("selection_bar"))), selection == nil ? 0 : 1)
        guard let selection else { return }
        UI.setText(object("selection_label"), selection.from == selection.to ? locale.date(selection.from)
            : tr("\(locale.date(selection.from)) to \(locale.date(selection.to))"))
    }

    // MARK: - Writing

    /// Records `status` for `date` (today when nil), as `checkin` does.
    func record(_ date: LocalDate?, _ status: AttendanceStatus) {
        guard let day = date ?? report?.today ?? LocalDate(agent.string("Today") ?? "") else {
            refresh()
            return
        }
        let previous = rows.filter { $0.date == day }
        agent.call("CheckIn", deskdays_variant_sss(day.description, status.rawValue, "")) { [weak self] answer in
            guard let self else { return }
            switch answer {
            case .success:
                self.toast(tr("Recorded \(self.locale.date(day)) as \(status.word)."), undo: self.undo(day, day, previous))
            case .failure(_, let text):
                self.toast(text)
            }
        }
    }

    private func setSelection(_ status: AttendanceStatus) {
        guard let selection else { return }
        let previous = rows.filter { $0.date >= selection.from && $0.date <= selection.to }
        self.selection = nil
        showSelection()
        agent.call("SetRange", deskdays_variant_sssb(selection.from.description, selection.to.description, status.rawValue, 1)) {
            [weak self] answer in
            guard let self else { return }
            switch answer {
            case .success:
                self.toast(tr("Recorded \(self.locale.date(selection.from)) to \(self.locale.date(selection.to)) as \(status.word)."),
                           undo: self.undo(selection.from, selection.to, previous))
            case .failure(_, let text):
                self.toast(text)
            }
        }
    }

    private func clearSelection() {
        guard let selection else { return }
        let previous = rows.filter { $0.date >= selection.from && $0.date <= selection.to }
        self.selection = nil
        showSelection()
        clear(selection.from, selection.to) { [weak self] in
            guard let self else { return }
            self.toast(tr("Cleared \(self.locale.date(selection.from)) to \(self.locale.date(selection.to))."),
                       undo: self.undo(selection.from, selection.to, previous))
        }
    }

    private func clear(_ from: LocalDate, _ to: LocalDate, then: @escaping @MainActor () -> Void) {
        agent.call("Clear", deskdays_variant_ss(from.description, to.description)) { [weak self] answer in
            switch answer {
            case .success: then()
            case .failure(_, let text): self?.toast(text)
            }
        }
    }

    /// Puts back what the manual records of `from…to` were: clears the range, then records again
    /// each date whose status was a manual record.
    private func undo(_ from: LocalDate, _ to: LocalDate, _ previous: [DayRow]) -> @MainActor () -> Void {
        { [weak self] in
            self?.clear(from, to) {
                for row in previous where row.origin == "manual" {
                    guard let status = row.status else { continue }
                    self?.agent.call("CheckIn", deskdays_variant_sss(row.date.description, status.rawValue, row.note ?? "")) { _ in }
                }
            }
        }
    }

    /// Runs `body` once the next frame is painted (at once when the window has no frame clock yet).
    private func afterNextPaint(_ body: @escaping @MainActor () -> Void) {
        guard let clock = gtk_widget_get_frame_clock(window) else { return body() }
        var handler: UInt = 0
        handler = onSignal(raw(clock), "after-paint") {
            g_signal_handler_disconnect(raw(clock), handler)
            body()
        }
        gtk_widget_queue_draw(window)
    }

    // MARK: - The first frame (bench/app.sh)

    private var firstFrameReported = false

    /// With `DESKDAYS_APP_FIRST_FRAME` set, prints `first-frame app SECONDS` (CLOCK_MONOTONIC) once the
    /// first frame with the period line has been painted: what bench/app.sh compares with its floor.
    private func reportFirstFrame() {
        guard !firstFrameReported, ProcessInfo.processInfo.environment["DESKDAYS_APP_FIRST_FRAME"] != nil,
              let clock = gtk_widget_get_frame_clock(window) else { return }
        firstFrameReported = true
        var painted = false
        onSignal(raw(clock), "after-paint") {
            guard !painted else { return }
            painted = true
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            FileHandle.standardError.write(Data("first-frame app \(Double(now.tv_sec) + Double(now.tv_nsec) / 1e9)\n".utf8))
        }
        gtk_widget_queue_draw(window)
    }

    // MARK: - First run

    private var welcomed = false

    /// With no configuration yet (the agent's `Configured`), Today opens on a welcome that leads to
    /// the rule's questions (Preferences), once: the defaults count 60 % of a quarter, nobody's rule.
    private func welcomeOnFirstRun() {
        guard !welcomed, agent.flag("Configured") == false, let page = gtk_widget_get_parent(object("today_title")) else { return }
        welcomed = true
        let card = UI.box(vertical: true, spacing: 12)
        for name in ["card", "deskdays-card"] { gtk_widget_add_css_class(card, name) }
        UI.append(card, UI.label(tr("Welcome to DeskDays"), classes: ["title-3"]))
        UI.append(card, UI.label(tr("Tell DeskDays your employer's rule: how many office days, over which period, and how you arrive. Until then it counts 60 % of the workdays of a quarter. Everything stays on this computer."), wrap: true))
        let setUp = UI.button(tr("Set up the rule"), classes: ["pill", "suggested-action"]) { [weak self, card] in
            gtk_widget_set_visible(card, 0)
            if let self { Preferences.show(parent: self) }
        }
        gtk_widget_set_halign(setUp, GTK_ALIGN_START)
        UI.append(card, setUp)
        gtk_box_prepend(cast(raw(page)), card)
    }

    // MARK: - Banner and toasts

    private func showBanner(_ shown: Bool, _ reason: String? = nil) {
        let text = tr("The DeskDays agent is not running, so nothing can be read or recorded.")
        // Hidden, it says nothing (a screen reader reaches a revealer's child either way).
        UI.setText(object("banner_label"), !shown ? "" : reason.map { $0.isEmpty ? text : text + " " + $0 } ?? text)
        gtk_revealer_set_reveal_child(cast(raw(object("banner"))), shown ? 1 : 0)
    }

    func toast(_ text: String, undo: (@MainActor () -> Void)? = nil) {
        let toast = adw_toast_new(text)
        if let undo {
            adw_toast_set_button_label(toast, tr("Undo"))
            onSignal(raw(toast), "button-clicked", undo)
        }
        adw_toast_overlay_add_toast(cast(raw(object("toasts"))), toast)
    }
}
