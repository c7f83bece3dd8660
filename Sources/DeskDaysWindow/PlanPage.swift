import CAdwaita
import DeskDaysCore
import DeskDaysReports
import Foundation
import Localization

/// The Plan page: the planner's days for the period (the agent's `Plan`, what `deskdays plan
/// --json` prints), shaped by preferred weekdays and avoided dates, and "Add to my plans"
/// (`WritePlan`, as `plan --write`). Every sentence is the CLI's (Render.planSummary).
@MainActor
final class PlanPage {
    private unowned let window: MainWindow
    private let box: Widget
    private let locale = ReportLocale.process
    /// The weekdays to take first and the dates not to plan, as `--prefer` and `--avoid` take them.
    private var preferred: Set<Weekday> = []
    private var avoided: Set<LocalDate> = []
    private var generation = 0

    /// What `plan --json` answered (docs/cli.md).
    struct Answer {
        var days: [LocalDate]
        var new: [LocalDate]
        var met: Bool
        var reachable: Bool
        var short: Int
        var byWeeks: Bool

        init?(_ json: String) {
            guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
                  let days = object["days"] as? [String], let new = object["new"] as? [String],
                  let status = object["status"] as? String, let reachable = object["reachable"] as? Bool else { return nil }
            self.days = days.compactMap(LocalDate.init)
            self.new = new.compactMap(LocalDate.init)
            met = status == Report.Status.met.rawValue
            self.reachable = reachable
            byWeeks = object["short_weeks"] != nil
            short = (object["short_weeks"] ?? object["short"]) as? Int ?? 0
        }
    }

    init(window: MainWindow, box: Widget) {
        self.window = window
        self.box = box
    }

    /// Asks the agent for the plan again (the period changed, or a preference did).
    func refresh() {
        generation += 1
        let asked = generation
        window.agent.call("Plan", flags(), start: false) { [weak self] answer in
            guard let self, asked == self.generation else { return }
            switch answer {
            case .success(let json): self.show(Answer(json))
            case .failure(_, let text): if !text.isEmpty { self.window.toast(text) }
            }
        }
    }

    private func flags() -> OpaquePointer? {
        let prefer = preferred.sorted().map(\.key).joined(separator: "\n")
        let avoid = avoided.sorted().map(\.description).joined(separator: "\n")
        return deskdays_variant_asas_lines(prefer, avoid)
    }

    private func show(_ answer: Answer?) {
        UI.clear(box)
        guard let report = window.report, let answer else { return }
        UI.append(box, UI.label(locale.periodLabel(report.period), classes: ["title-2"]))
        let summary = Render.planSummary(period: locale.periodLabel(report.period), met: answer.met, reachable: answer.reachable,
                                         short: answer.short, new: answer.new.count, byWeeks: answer.byWeeks)
        UI.append(box, UI.label(summary, wrap: true))

        // Preferred weekdays: the period's workdays, each a toggle named by its weekday's short name.
        UI.append(box, UI.label(tr("Preferred weekdays"), classes: ["heading"]))
        let toggles = UI.box(vertical: false, spacing: 0)
        gtk_widget_add_css_class(toggles, "linked")
        gtk_widget_set_halign(toggles, GTK_ALIGN_START)
        for weekday in window.workdays() {
            let toggle: Widget = gtk_toggle_button_new_with_label(locale.weekdayName(weekday))
            gtk_toggle_button_set_active(cast(raw(toggle)), preferred.contains(weekday) ? 1 : 0)
            onSignal(raw(toggle), "toggled") { [weak self] in
                guard let self else { return }
                if self.preferred.remove(weekday) == nil { self.preferred.insert(weekday) }
                self.refresh()
            }
            UI.append(toggles, toggle)
        }
        UI.append(box, toggles)

        // The plan's days, each with Avoid.
        if !answer.days.isEmpty {
            UI.append(box, UI.label(tr("Days to go in"), classes: ["heading"]))
            let list: Widget = gtk_list_box_new()
            gtk_list_box_set_selection_mode(cast(raw(list)), GTK_SELECTION_NONE)
            gtk_widget_add_css_class(list, "boxed-list")
            let existing = Set(answer.days).subtracting(answer.new)
            for date in answer.days {
                let row = adw_action_row_new()!
                adw_preferences_row_set_title(cast(raw(row)), locale.date(date))
                if existing.contains(date) { adw_action_row_set_subtitle(cast(raw(row)), tr("Already in your plans")) }
                let avoid = UI.button(tr("Avoid"), classes: ["flat"]) { [weak self] in
                    self?.avoided.insert(date)
                    self?.refresh()
                }
                gtk_widget_set_valign(avoid, GTK_ALIGN_CENTER)
                deskdays_set_accessible_label(avoid, tr("Avoid \(locale.date(date))"))
                adw_action_row_add_suffix(cast(raw(row)), avoid)
                gtk_list_box_append(cast(raw(list)), cast(raw(row)))
            }
            UI.append(box, list)
        }
        if !avoided.isEmpty {
            let line = UI.box(vertical: false, spacing: 12)
            let dates = avoided.sorted().map { locale.date($0) }.joined(separator: ", ")
            let label = UI.label(tr("Not planned: \(dates)"), classes: ["dim-label"], wrap: true)
            gtk_widget_set_hexpand(label, 1)
            UI.append(line, label)
            UI.append(line, UI.button(tr("Plan them again"), classes: ["flat"]) { [weak self] in
                self?.avoided = []
                self?.refresh()
            })
            UI.append(box, line)
        }
        let add = UI.button(tr("Add to my plans"), classes: ["pill", "suggested-action"]) { [weak self] in self?.write(answer.new) }
        gtk_widget_set_halign(add, GTK_ALIGN_CENTER)
        gtk_widget_set_sensitive(add, answer.new.isEmpty ? 0 : 1)
        UI.append(box, add)
    }

    /// Records the plan's new days as office plans; Undo clears them again.
    private func write(_ new: [LocalDate]) {
        window.agent.call("WritePlan", flags()) { [weak self] answer in
            guard let self else { return }
            switch answer {
            case .success:
                let count = new.count
                self.window.toast(trn("Added \(count) office day to your plans.", "Added \(count) office days to your plans.", count)) { [weak self] in
                    for date in new { self?.window.agent.call("Clear", deskdays_variant_ss(date.description, date.description)) { _ in } }
                }
            case .failure(_, let text):
                self.window.toast(text)
            }
        }
    }
}
