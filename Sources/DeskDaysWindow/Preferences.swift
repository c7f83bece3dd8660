import CAdwaita
import DeskDaysCore
import Foundation
import Localization

/// Preferences (from the main menu): the rule as `deskdays setup` asks it, each check-in method
/// on or off, the reminders and the folders. It reads the effective configuration through the
/// agent's `Settings` (`config show --json`) and writes each key through `Configure` (the
/// configuration editor, which keeps every comment and refuses what `config check` would); an
/// answer or a refusal is its one sentence in a toast.
@MainActor
final class Preferences {
    private unowned let parent: MainWindow
    private let window: Widget
    private var preferences: UnsafeMutablePointer<AdwPreferencesWindow> { cast(raw(window)) }
    /// The configuration as the agent read it (`config show --json`).
    private var settings: [String: Any] = [:]

    /// A key's kind of value, as `Configure` must receive it.
    enum Kind { case text, integer, number }

    static func show(parent: MainWindow) {
        let shown = Preferences(parent: parent)
        parent.agent.call("Settings", nil, start: true) { answer in
            if case .success(let json) = answer,
               let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] {
                shown.settings = object
            }
            shown.build()
            gtk_window_present(cast(raw(shown.window)))
        }
    }

    private init(parent: MainWindow) {
        self.parent = parent
        window = adw_preferences_window_new()
        gtk_window_set_transient_for(cast(raw(window)), cast(raw(parent.window)))
        gtk_window_set_modal(cast(raw(window)), 1)
        // Kept alive by its window: released when the window is.
        let retained = Unmanaged.passRetained(self)
        onSignal(raw(window), "destroy") { retained.release() }
    }

    /// The value at `key` ("policy.target.kind") in the settings read.
    private func value(_ key: String) -> Any? {
        var node: Any? = settings
        for part in key.split(separator: ".") { node = (node as? [String: Any])?[String(part)] }
        return node
    }

    private func text(_ key: String) -> String {
        switch value(key) {
        case let text as String: text
        case let number as NSNumber: number.stringValue
        default: ""
        }
    }

    // MARK: - Pages

    private func build() {
        let page: UnsafeMutablePointer<AdwPreferencesPage> = cast(raw(adw_preferences_page_new()))
        let rule = group(tr("Your employer's rule"), on: page)
        combo(rule, tr("How does your employer count office days?"), key: "policy.target.kind", options: [
            ("percent", tr("a share of workdays (such as 60 %)")),
            ("days_per_week", tr("days a week (such as 3)")),
            ("days_per_period", tr("days in a month, quarter or year (such as 36 a quarter)")),
            ("compliant_weeks", tr("weeks with enough office days (such as 8 weeks of 2 days a quarter)")),
        ])
        entry(rule, tr("How many (a number, or a percent)"), key: "policy.target.value", kind: .number)
        combo(rule, tr("Over which period?"), key: "policy.period", options: [
            ("week", tr("a week")), ("month", tr("a month")), ("quarter", tr("a quarter")), ("year", tr("a year")),
        ])
        toggle(rule, tr("Holidays, leave and sick days reduce the days you owe"), key: "policy.target.reduce",
               on: "pro-rata", off: "cap")
        entry(rule, tr("The rule starts (YYYY-MM-DD, empty: always)"), key: "policy.starts", kind: .text)
        entry(rule, tr("Public holidays of (a region such as DE-BY; `deskdays holidays` lists them)"), key: "policy.holidays_region",
              kind: .text)
        entry(rule, tr("Minimum hours on site for an office day (0: any arrival)"), key: "policy.min_hours", kind: .number)

        let methods = group(tr("How DeskDays sees you arrive"), on: page)
        for (name, title) in [("nfc", tr("NFC tag on your desk reader")), ("qr", tr("QR code in front of the camera")),
                              ("wifi", tr("The office Wi-Fi")), ("gps", tr("GPS at the office")),
                              ("wired", tr("Docked at the office (its gateway)"))] {
            // Learn: the method's `enroll` through the agent (a tap, a code or the network here now).
            let learn: Widget = gtk_button_new_with_label(tr("Learn"))
            let row = toggle(methods, title, key: "\(name).enabled", on: true, off: false, before: learn)
            gtk_widget_set_tooltip_text(learn, tr("At the office, press Learn (then tap the tag or show the code) and turn it on."))
            // What this machine has for it, as `setup` says it.
            parent.agent.call("Detect", g_variant_new_tuple([g_variant_new_string(name)], 1), start: false) { answer in
                guard case .success(let found) = answer else { return }
                adw_action_row_set_subtitle(cast(raw(row)), found.isEmpty ? tr("Nothing for it on this machine yet.")
                                                                           : tr("On this machine: \(found)."))
            }
            onSignal(raw(learn), "clicked") { [weak self] in self?.enroll(name, title: title, button: learn) }
        }

        let reminders = group(tr("Reminders"), on: page)
        entry(reminders, tr("Reminder time (HH:MM)"), key: "checkin.reminder_time", kind: .text)
        entry(reminders, tr("Weekly summary (a weekday and a time, or off)"), key: "reminders.summary", kind: .text)
        let folders = group(tr("Folders"), on: page)
        entry(folders, tr("Sync folder"), key: "sync.folder", kind: .text)
        entry(folders, tr("Calendar folder"), key: "calendar.folder", kind: .text)
        adw_preferences_window_add(preferences, page)
    }

    private func group(_ title: String, on page: UnsafeMutablePointer<AdwPreferencesPage>) -> UnsafeMutablePointer<AdwPreferencesGroup> {
        let group: UnsafeMutablePointer<AdwPreferencesGroup> = cast(raw(adw_preferences_group_new()))
        adw_preferences_group_set_title(group, title)
        adw_preferences_page_add(page, group)
        return group
    }

    // MARK: - Rows

    /// A text row, written when applied (Enter or its apply button).
    private func entry(_ group: UnsafeMutablePointer<AdwPreferencesGroup>, _ title: String, key: String, kind: Kind) {
        let entry: Widget = adw_entry_row_new()
        adw_preferences_row_set_title(cast(raw(entry)), title)
        adw_entry_row_set_show_apply_button(cast(raw(entry)), 1)
        gtk_editable_set_text(cast(raw(entry)), text(key))
        onSignal(raw(entry), "apply") { [weak self] in
            let typed = String(cString: gtk_editable_get_text(cast(raw(entry)))).trimmingCharacters(in: .whitespaces)
            let value: OpaquePointer? = switch kind {
            case .integer: Int(typed).map { g_variant_new_int64($0) } ?? g_variant_new_string(typed)
            case .number: Int(typed).map { g_variant_new_int64($0) } ?? Double(typed).map { g_variant_new_double($0) }
                ?? g_variant_new_string(typed)
            case .text: g_variant_new_string(typed)
            }
            self?.configure(key, value, title: title)
        }
        adw_preferences_group_add(group, cast(raw(entry)))
    }

    /// A choice among `options` (the configuration's value, the words shown).
    private func combo(_ group: UnsafeMutablePointer<AdwPreferencesGroup>, _ title: String, key: String,
                       options: [(value: String, words: String)]) {
        let row: Widget = adw_combo_row_new()
        adw_preferences_row_set_title(cast(raw(row)), title)
        let list = gtk_string_list_new(nil)
        for option in options { gtk_string_list_append(list, option.words) }
        adw_combo_row_set_model(cast(raw(row)), cast(raw(list)))
        g_object_unref(raw(list))
        let current = text(key)
        if let index = options.firstIndex(where: { $0.value == current }) { adw_combo_row_set_selected(cast(raw(row)), UInt32(index)) }
        onSignal1(raw(row), "notify::selected") { [weak self] _ in
            let index = Int(adw_combo_row_get_selected(cast(raw(row))))
            guard index < options.count, options[index].value != self?.text(key) else { return }
            self?.configure(key, g_variant_new_string(options[index].value), title: title)
        }
        adw_preferences_group_add(group, cast(raw(row)))
    }

    /// An on/off row (libadwaita 1.2 has no AdwSwitchRow: a GtkSwitch as its suffix) writing `on` or `off`.
    @discardableResult
    private func toggle(_ group: UnsafeMutablePointer<AdwPreferencesGroup>, _ title: String, key: String, on: Any, off: Any,
                        before extra: Widget? = nil) -> Widget {
        let row: Widget = adw_action_row_new()
        adw_preferences_row_set_title(cast(raw(row)), title)
        let toggle: Widget = gtk_switch_new()
        gtk_widget_set_valign(toggle, GTK_ALIGN_CENTER)
        let current = value(key)
        let isOn = (current as? Bool) ?? ((current as? String).map { $0 == on as? String } ?? false)
        gtk_switch_set_active(cast(raw(toggle)), isOn ? 1 : 0)
        if let extra {
            gtk_widget_set_valign(extra, GTK_ALIGN_CENTER)
            adw_action_row_add_suffix(cast(raw(row)), extra)
        }
        // Named by its row (the row's activatable widget is labelled by its title).
        adw_action_row_add_suffix(cast(raw(row)), toggle)
        adw_action_row_set_activatable_widget(cast(raw(row)), toggle)
        onSignal1(raw(toggle), "notify::active") { [weak self] _ in
            let active = gtk_switch_get_active(cast(raw(toggle))) != 0
            let chosen = active ? on : off
            let variant: OpaquePointer? = switch chosen {
            case let flag as Bool: g_variant_new_boolean(flag ? 1 : 0)
            default: g_variant_new_string("\(chosen)")
            }
            self?.configure(key, variant, title: title)
        }
        adw_preferences_group_add(group, cast(raw(row)))
        return row
    }

    /// Learns `method`'s rule through the agent (`Enroll`): while it waits the button is off and a
    /// toast says what to do; then the command's first line, or its one sentence saying why not.
    private func enroll(_ method: String, title: String, button: Widget) {
        gtk_widget_set_sensitive(button, 0)
        // Held until the answer, then dismissed: the answer's toast is not queued behind it.
        let waiting = adw_toast_new(tr("Learning: \(title). Tap the tag or show the code now."))
        adw_toast_set_timeout(waiting, 0)
        g_object_ref(raw(waiting))
        adw_preferences_window_add_toast(preferences, waiting)
        parent.agent.call("Enroll", g_variant_new_tuple([g_variant_new_string(method)], 1)) { [weak self] answer in
            adw_toast_dismiss(waiting)
            g_object_unref(raw(waiting))
            guard let self else { return }
            gtk_widget_set_sensitive(button, 1)
            let text = switch answer {
            case .success(let output): output.split(separator: "\n").first.map(String.init) ?? ""
            case .failure(_, let text): text
            }
            adw_preferences_window_add_toast(self.preferences, adw_toast_new(text))
        }
    }

    /// Writes `key` through the agent; in a toast, the row's title once saved, or the agent's one
    /// sentence saying why not (a reader sees the question, never the configuration's key).
    private func configure(_ key: String, _ value: OpaquePointer?, title: String) {
        let parameters: [OpaquePointer?] = [g_variant_new_string(key), g_variant_new_variant(value)]
        parent.agent.call("Configure", g_variant_new_tuple(parameters, 2)) { [weak self] answer in
            guard let self else { return }
            switch answer {
            case .success: adw_preferences_window_add_toast(self.preferences, adw_toast_new(tr("Saved: \(title).")))
            case .failure(_, let text): adw_preferences_window_add_toast(self.preferences, adw_toast_new(text))
            }
            // What is now in force, for the rows that compare with it.
            self.parent.agent.call("Settings", nil, start: false) { [weak self] answer in
                if case .success(let json) = answer,
                   let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] { self?.settings = object }
            }
        }
    }
}
