import CAdwaita
import Localization

/// Preferences (from the main menu): each row writes one configuration key through the agent's
/// `Configure` (the configuration editor that keeps every comment); a refusal is its one sentence in a toast.
@MainActor
enum Preferences {
    /// The keys offered, as `config.toml` names them, with their titles.
    static func rows() -> [(group: String, key: String, title: String)] {
        [(tr("Reminders"), "checkin.reminder_time", tr("Reminder time (HH:MM)")),
         (tr("Reminders"), "reminders.summary", tr("Weekly summary (a weekday and a time, or off)")),
         (tr("Folders"), "sync.folder", tr("Sync folder")),
         (tr("Folders"), "calendar.folder", tr("Calendar folder"))]
    }

    static func show(parent: MainWindow) {
        let window: Widget = adw_preferences_window_new()
        let preferences: UnsafeMutablePointer<AdwPreferencesWindow> = cast(raw(window))
        gtk_window_set_transient_for(cast(raw(window)), cast(raw(parent.window)))
        gtk_window_set_modal(cast(raw(window)), 1)
        let page: UnsafeMutablePointer<AdwPreferencesPage> = cast(raw(adw_preferences_page_new()))
        var groups: [String: UnsafeMutablePointer<AdwPreferencesGroup>] = [:]
        var order: [String] = []
        for row in rows() {
            if groups[row.group] == nil {
                let group: UnsafeMutablePointer<AdwPreferencesGroup> = cast(raw(adw_preferences_group_new()))
                adw_preferences_group_set_title(group, row.group)
                groups[row.group] = group
                order.append(row.group)
            }
            let entry: Widget = adw_entry_row_new()
            adw_preferences_row_set_title(cast(raw(entry)), row.title)
            adw_entry_row_set_show_apply_button(cast(raw(entry)), 1)
            let key = row.key
            onSignal(raw(entry), "apply") { [weak parent] in
                guard let parent else { return }
                let text = String(cString: gtk_editable_get_text(cast(raw(entry))))
                let parameters: [OpaquePointer?] = [g_variant_new_string(key), g_variant_new_variant(g_variant_new_string(text))]
                parent.agent.call("Configure", g_variant_new_tuple(parameters, 2)) { answer in
                    switch answer {
                    case .success(let said): preferences_toast(preferences, said)
                    case .failure(_, let text): preferences_toast(preferences, text)
                    }
                }
            }
            adw_preferences_group_add(groups[row.group], cast(raw(entry)))
        }
        for name in order { adw_preferences_page_add(page, groups[name]) }
        adw_preferences_window_add(preferences, page)
        gtk_window_present(cast(raw(window)))
    }

    private static func preferences_toast(_ window: UnsafeMutablePointer<AdwPreferencesWindow>, _ text: String) {
        adw_preferences_window_add_toast(window, adw_toast_new(text))
    }
}
