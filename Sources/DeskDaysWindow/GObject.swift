import CAdwaita

// The small layer between Swift and GObject this window needs (after the interop of
// AparokshaUI/adwaita-swift and makoni/swift-adwaita): casts between the C types, signals bound to
// Swift closures, and GIO's asynchronous calls. Everything runs on GTK's main thread, the main
// actor's: g_application_run is called from it and every callback comes from its main loop.

/// `object` seen as another GObject type (GTK_WIDGET(x) and friends, without the run-time check).
@inline(__always)
func cast<T>(_ object: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<T>! {
    object?.assumingMemoryBound(to: T.self)
}

/// The same for a type C declares opaquely (GtkLabel, GtkBox, GAsyncResult).
@inline(__always)
func cast(_ object: UnsafeMutableRawPointer?) -> OpaquePointer! {
    object.map(OpaquePointer.init)
}

@inline(__always)
func raw(_ pointer: OpaquePointer?) -> UnsafeMutableRawPointer? {
    pointer.map { UnsafeMutableRawPointer($0) }
}

@inline(__always)
func raw<T>(_ pointer: UnsafeMutablePointer<T>?) -> UnsafeMutableRawPointer? {
    pointer.map { UnsafeMutableRawPointer($0) }
}

/// A Swift closure kept alive for as long as the signal handler it runs for.
private final class Handler {
    let run: @MainActor (UnsafeMutableRawPointer?) -> Void
    init(_ run: @escaping @MainActor (UnsafeMutableRawPointer?) -> Void) { self.run = run }
}

private let releaseHandler: GClosureNotify = { data, _ in
    guard let data else { return }
    Unmanaged<Handler>.fromOpaque(data).release()
}

/// Runs `body` whenever `instance` emits `signal`, a signal without arguments ("clicked").
@MainActor
@discardableResult
func onSignal(_ instance: UnsafeMutableRawPointer?, _ signal: String, _ body: @escaping @MainActor () -> Void) -> UInt {
    let handler: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, data in
        guard let data else { return }
        let handler = Unmanaged<Handler>.fromOpaque(data).takeUnretainedValue()
        MainActor.assumeIsolated { handler.run(nil) }
    }
    let box = Unmanaged.passRetained(Handler { _ in body() }).toOpaque()
    return g_signal_connect_data(instance, signal, unsafeBitCast(handler, to: GCallback.self), box, releaseHandler, GConnectFlags(0))
}

/// Runs `body` with the first argument of a signal that has one pointer argument
/// (GSimpleAction's "activate" parameter, "notify"'s GParamSpec, "g-properties-changed"'s variant).
@MainActor
@discardableResult
func onSignal1(_ instance: UnsafeMutableRawPointer?, _ signal: String,
               _ body: @escaping @MainActor (UnsafeMutableRawPointer?) -> Void) -> UInt {
    let handler: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, argument, data in
        guard let data else { return }
        let handler = Unmanaged<Handler>.fromOpaque(data).takeUnretainedValue()
        MainActor.assumeIsolated { handler.run(argument) }
    }
    let box = Unmanaged.passRetained(Handler(body)).toOpaque()
    return g_signal_connect_data(instance, signal, unsafeBitCast(handler, to: GCallback.self), box, releaseHandler, GConnectFlags(0))
}

/// Runs `body` for a signal with two pointer arguments (GDBusProxy's "g-properties-changed").
@MainActor
@discardableResult
func onSignal2(_ instance: UnsafeMutableRawPointer?, _ signal: String, _ body: @escaping @MainActor () -> Void) -> UInt {
    let handler: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?,
                                 UnsafeMutableRawPointer?) -> Void = { _, _, _, data in
        guard let data else { return }
        let handler = Unmanaged<Handler>.fromOpaque(data).takeUnretainedValue()
        MainActor.assumeIsolated { handler.run(nil) }
    }
    let box = Unmanaged.passRetained(Handler { _ in body() }).toOpaque()
    return g_signal_connect_data(instance, signal, unsafeBitCast(handler, to: GCallback.self), box, releaseHandler, GConnectFlags(0))
}

/// The callback of one asynchronous GIO call (GAsyncReadyCallback), called once with the result.
private final class Completion {
    let run: @MainActor (OpaquePointer?) -> Void
    init(_ run: @escaping @MainActor (OpaquePointer?) -> Void) { self.run = run }
}

/// A GAsyncReadyCallback and its user data for `body`, which runs once on the main loop.
@MainActor
func completion(_ body: @escaping @MainActor (OpaquePointer?) -> Void)
    -> (GAsyncReadyCallback, UnsafeMutableRawPointer) {
    let callback: GAsyncReadyCallback = { _, result, data in
        guard let data else { return }
        let completion = Unmanaged<Completion>.fromOpaque(data).takeRetainedValue()
        MainActor.assumeIsolated { completion.run(result) }
    }
    return (callback, Unmanaged.passRetained(Completion(body)).toOpaque())
}

/// A one-shot main-loop source (g_timeout_add_once is GLib 2.74).
private final class Timeout {
    let run: @MainActor () -> Void
    init(_ run: @escaping @MainActor () -> Void) { self.run = run }
}

@MainActor
func after(milliseconds: UInt32, _ body: @escaping @MainActor () -> Void) {
    let callback: GSourceOnceFunc = { data in
        guard let data else { return }
        let timeout = Unmanaged<Timeout>.fromOpaque(data).takeRetainedValue()
        MainActor.assumeIsolated { timeout.run() }
    }
    g_timeout_add_once(milliseconds, callback, Unmanaged.passRetained(Timeout(body)).toOpaque())
}

/// A C string GLib allocated, as a Swift string (freed).
func taken(_ text: UnsafeMutablePointer<CChar>?) -> String? {
    guard let text else { return nil }
    defer { g_free(text) }
    return String(cString: text)
}

/// A GError's message (freed), without GDBus's remote-error prefix.
func message(_ error: UnsafeMutablePointer<GError>?) -> String {
    defer { if let error { g_error_free(error) } }
    return taken(deskdays_error_text(error)) ?? ""
}

// MARK: - Widgets

typealias Widget = UnsafeMutablePointer<GtkWidget>

@MainActor
enum UI {
    static func label(_ text: String, classes: [String] = [], xalign: Float = 0, wrap: Bool = false) -> Widget {
        let label: Widget = gtk_label_new(text)
        gtk_label_set_xalign(cast(raw(label)), xalign)
        if wrap { gtk_label_set_wrap(cast(raw(label)), 1) }
        classes.forEach { gtk_widget_add_css_class(label, $0) }
        return label
    }

    static func setText(_ label: Widget, _ text: String) {
        gtk_label_set_text(cast(raw(label)), text)
    }

    static func button(_ text: String, classes: [String] = [], _ action: @escaping @MainActor () -> Void) -> Widget {
        let button: Widget = gtk_button_new_with_label(text)
        classes.forEach { gtk_widget_add_css_class(button, $0) }
        onSignal(raw(button), "clicked", action)
        return button
    }

    static func box(vertical: Bool, spacing: Int32) -> Widget {
        gtk_box_new(vertical ? GTK_ORIENTATION_VERTICAL : GTK_ORIENTATION_HORIZONTAL, spacing)
    }

    static func append(_ box: Widget, _ child: Widget) {
        gtk_box_append(cast(raw(box)), child)
    }

    /// Removes every child of a GtkBox.
    static func clear(_ box: Widget) {
        while let child = gtk_widget_get_first_child(box) { gtk_box_remove(cast(raw(box)), child) }
    }

    /// Removes every child of a GtkFlowBox.
    static func clearFlow(_ flow: Widget) {
        while let child = gtk_widget_get_first_child(flow) { gtk_flow_box_remove(cast(raw(flow)), child) }
    }

    static func setClass(_ widget: Widget, _ name: String, _ on: Bool) {
        if on { gtk_widget_add_css_class(widget, name) } else { gtk_widget_remove_css_class(widget, name) }
    }
}
