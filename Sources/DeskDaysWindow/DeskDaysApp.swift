import CAdwaita
import DeskDaysCore
import Localization

/// The app `io.github.deskdays.DeskDays` (docs/cli.md "The app"): one instance per session (a
/// second launch presents the first window), its layouts from the GResource compiled by `make ui`.
@MainActor
public final class DeskDaysApp {
    public static let id = "io.github.deskdays.DeskDays"

    private let application: UnsafeMutablePointer<AdwApplication>
    private let agent = AgentClient()
    private var window: MainWindow?
    /// `--check-in` (the desktop entry's "Check in" action) before the window could record it.
    private var checkInWhenReady = false

    public init() {
        deskdays_window_register_resource()
        // Arabic is laid out right to left by GTK when its own catalog says so; the app's catalog decides here,
        // so the window mirrors whenever DeskDays speaks a right-to-left language.
        if Localization.rightToLeft { gtk_widget_set_default_direction(GTK_TEXT_DIR_RTL) }
        g_set_application_name("DeskDays")
        application = adw_application_new(Self.id, G_APPLICATION_DEFAULT_FLAGS)
    }

    /// Runs the main loop until the last window closes; the process's exit status.
    public func run(arguments: [String]) -> Int32 {
        let app = raw(application)
        onSignal(app, "startup") { [weak self] in self?.startup() }
        onSignal(app, "activate") { [weak self] in self?.activate() }
        let checkIn = arguments.dropFirst().contains("--check-in")
        let rest = arguments.filter { $0 != "--check-in" }
        if checkIn {
            // Registered first, so a running instance records it (the action goes to it) and this one only presents.
            var error: UnsafeMutablePointer<GError>?
            if g_application_register(cast(app), nil, &error) == 0 { _ = message(error) }
            g_action_group_activate_action(cast(app), "check-in", nil)
        }
        var cStrings = rest.map { strdup($0) }
        defer { cStrings.forEach { free($0) } }
        return cStrings.withUnsafeMutableBufferPointer { buffer in
            g_application_run(cast(app), Int32(buffer.count), buffer.baseAddress)
        }
    }

    private func startup() {
        let app: UnsafeMutablePointer<GtkApplication> = cast(raw(application))
        addAction("check-in") { [weak self] in
            guard let self else { return }
            if let window = self.window, window.report != nil { window.record(nil, .office) } else { self.checkInWhenReady = true }
        }
        addAction("preferences") { [weak self] in self?.showPreferences() }
        addAction("about") { [weak self] in self?.showAbout() }
        addAction("quit") { [weak self] in
            guard let self else { return }
            g_application_quit(cast(raw(self.application)))
        }
        for (action, accel) in [("win.check-in", "<Control>Return"), ("win.refresh", "<Control>r"), ("app.preferences", "<Control>comma"),
                                ("app.quit", "<Control>q"), ("win.show-help-overlay", "<Control>question"), ("win.page-1", "<Alt>1"), ("win.page-2", "<Alt>2"),
                                ("win.page-3", "<Alt>3"), ("win.page-4", "<Alt>4")] {
            deskdays_set_accel(app, action, accel)
        }
    }

    private func activate() {
        if let window {
            gtk_window_present(cast(raw(window.window)))
            return
        }
        let window = MainWindow(application: application, agent: agent)
        self.window = window
        let refresh = agent.changed
        agent.changed = { [weak self] in
            refresh()
            guard let self, self.checkInWhenReady, self.agent.running else { return }
            self.checkInWhenReady = false
            window.record(nil, .office)
        }
        gtk_window_present(cast(raw(window.window)))
        agent.connect()
    }

    private func addAction(_ name: String, _ body: @escaping @MainActor () -> Void) {
        let action = g_simple_action_new(name, nil)
        // "activate" carries the action's parameter (NULL here) before the handler's data.
        onSignal1(raw(action), "activate") { _ in body() }
        g_action_map_add_action(cast(raw(application)), cast(raw(action)))
        g_object_unref(raw(action))
    }

    private func showAbout() {
        let about: Widget = adw_about_window_new()
        let window: OpaquePointer = cast(raw(about))
        adw_about_window_set_application_name(window, "DeskDays")
        adw_about_window_set_application_icon(window, Self.id)
        adw_about_window_set_comments(window, tr("Office days, counted on your own machine."))
        adw_about_window_set_license_type(window, GTK_LICENSE_APACHE_2_0)
        adw_about_window_set_website(window, "https://github.com/deskdays/deskdays")
        if let parent = self.window?.window { gtk_window_set_transient_for(cast(raw(about)), cast(raw(parent))) }
        gtk_window_present(cast(raw(about)))
    }

    private func showPreferences() {
        guard let parent = window else { return }
        Preferences.show(parent: parent)
    }
}
