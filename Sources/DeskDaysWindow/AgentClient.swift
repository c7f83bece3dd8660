import CAdwaita

/// The window's one way in: the agent's session-bus interface `io.github.deskdays.DeskDays1`
/// (docs/cli.md "The D-Bus interface"), through a GDBusProxy on the session bus. The proxy's
/// first use starts the agent by D-Bus activation; its cached properties follow the agent's
/// `PropertiesChanged`, and its name owner says whether the agent runs. Every call is
/// asynchronous on the main loop, so a stopped or hung agent never blocks the window.
@MainActor
final class AgentClient {
    static let name = "io.github.deskdays.DeskDays1"
    static let path = "/io/github/deskdays/DeskDays1"

    /// What a call answered: its first string (or "" for a method without output), or the error's one sentence.
    enum Answer {
        case success(String)
        case failure(name: String?, message: String)
    }

    private(set) var proxy: UnsafeMutablePointer<GDBusProxy>?
    /// The agent answered the last time it was asked, or owns its name now.
    private(set) var running = false
    /// Something changed (properties, the agent came or went): read again.
    var changed: @MainActor () -> Void = {}
    /// The agent went away (true) or came back (false).
    var availability: @MainActor (Bool) -> Void = { _ in }

    /// Connects (asynchronously); `changed` runs once the proxy is ready.
    func connect() {
        let (callback, data) = completion { [weak self] result in
            var error: UnsafeMutablePointer<GError>?
            let proxy = g_dbus_proxy_new_for_bus_finish(result, &error)
            guard let self else { return }
            guard let proxy else {
                self.running = false
                self.availability(true)
                _ = message(error)
                return
            }
            self.proxy = proxy
            onSignal2(raw(proxy), "g-properties-changed") { [weak self] in
                if self?.running == true { self?.changed() }
            }
            onSignal1(raw(proxy), "notify::g-name-owner") { [weak self] _ in self?.ownerChanged() }
            self.ownerChanged()
        }
        g_dbus_proxy_new_for_bus(G_BUS_TYPE_SESSION, G_DBUS_PROXY_FLAGS_NONE, nil, Self.name, Self.path, Self.name,
                                 nil, callback, data)
    }

    private func ownerChanged() {
        let owner = proxy.flatMap { taken(g_dbus_proxy_get_name_owner($0)) }
        running = owner != nil
        availability(owner == nil)
        // Gone: the banner says so, and nothing restarts it behind the user's back (reads do not
        // activate it; the banner's button and the recording buttons do).
        if owner != nil { changed() }
    }

    // MARK: Properties

    func string(_ property: String) -> String? {
        guard let proxy, let value = g_dbus_proxy_get_cached_property(proxy, property) else { return nil }
        defer { g_variant_unref(value) }
        guard g_variant_is_of_type(value, g_variant_type_checked_("s")) != 0 else { return nil }
        return String(cString: g_variant_get_string(value, nil))
    }

    func flag(_ property: String) -> Bool? {
        guard let proxy, let value = g_dbus_proxy_get_cached_property(proxy, property) else { return nil }
        defer { g_variant_unref(value) }
        guard g_variant_is_of_type(value, g_variant_type_checked_("b")) != 0 else { return nil }
        return g_variant_get_boolean(value) != 0
    }

    func count(_ property: String) -> Int? {
        guard let proxy, let value = g_dbus_proxy_get_cached_property(proxy, property) else { return nil }
        defer { g_variant_unref(value) }
        guard g_variant_is_of_type(value, g_variant_type_checked_("u")) != 0 else { return nil }
        return Int(g_variant_get_uint32(value))
    }

    // MARK: Methods

    /// Calls `method` with `parameters` (a floating GVariant tuple); `done` gets the reply's string.
    /// With `start`, a call to a stopped agent starts it again (D-Bus activation).
    func call(_ method: String, _ parameters: OpaquePointer?, start: Bool = true, _ done: @escaping @MainActor (Answer) -> Void) {
        guard let proxy else {
            if let parameters { g_variant_unref(g_variant_ref_sink(parameters)) }
            done(.failure(name: nil, message: ""))
            return
        }
        let (callback, data) = completion { [weak self] result in
            var error: UnsafeMutablePointer<GError>?
            let reply = g_dbus_proxy_call_finish(proxy, result, &error)
            guard let reply else {
                let name = taken(deskdays_error_name(error))
                done(.failure(name: name, message: message(error)))
                return
            }
            defer { g_variant_unref(reply) }
            self?.running = true
            done(.success(deskdays_variant_first_string(reply).map { String(cString: $0) } ?? ""))
        }
        g_dbus_proxy_call(proxy, method, parameters, start ? G_DBUS_CALL_FLAGS_NONE : G_DBUS_CALL_FLAGS_NO_AUTO_START, 30_000, nil, callback, data)
    }
}
