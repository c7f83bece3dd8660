#if canImport(Glibc)
import Glibc
#endif
import CSystemd
import Syscall

/// An object DeskDays serves on a bus: one interface at one path, exported
/// through sd-bus's vtable (so sd-bus answers `Introspect`, `Properties.Get`
/// and `GetAll`, checks every call's signature and replies
/// `org.freedesktop.DBus.Error.InvalidArgs` to a wrong one).
///
/// The vtable macros of sd-bus-vtable.h cannot be imported into Swift: each
/// entry comes from a small C function of the CSystemd shim, and one
/// method handler and one property getter (plain C functions) find the
/// Swift closure by member name through the object's `userdata`.
///
/// Like every sd-bus object, it belongs to the thread that runs its bus:
/// closures are called there, and `remove()` (or releasing the object) must
/// happen there too.
public final class BusObject {
    /// Handles one call: reads the arguments from `message`, replies (now or
    /// later, through `PendingCall`) and returns a non-negative value; or
    /// returns `BusSupport.fail(error, …)`'s negative value, which sd-bus sends as the error reply.
    public typealias Method = (_ message: OpaquePointer, _ error: BusErrorReply) -> Int32
    /// Appends a property's value (of its signature) to `reply`.
    public typealias Getter = (_ reply: OpaquePointer) -> Int32

    public enum Member {
        /// `names`: the input parameters' names, then the output ones (for introspection).
        case method(String, input: String, output: String, names: [String], Method)
        /// `emitsChange`: `PropertiesChanged` carries its new value (else its value never changes, or it is announced by a signal of the interface).
        case property(String, signature: String, emitsChange: Bool, Getter)
        case signal(String, signature: String, names: [String])
    }

    public let path: String
    public let interface: String
    private var methods: [String: Method] = [:]
    private var getters: [String: Getter] = [:]
    private let table: UnsafeMutablePointer<sd_bus_vtable>
    /// The C strings the table points at, freed with it.
    private var strings: [UnsafeMutablePointer<CChar>] = []
    private var slot: OpaquePointer?

    /// Exports the members at `path` on `bus`; nil and why when sd-bus refuses (a path or name that is not valid).
    public init(bus: OpaquePointer, path: String, interface: String, members: [Member]) throws(BusFailure) {
        self.path = path
        self.interface = interface
        table = .allocate(capacity: members.count + 2)
        var entries = [deskdays_vtable_start(DESKDAYS_UNPRIVILEGED)]
        for member in members {
            switch member {
            case let .method(name, input, output, names, body):
                methods[name] = body
                entries.append(deskdays_vtable_method(cString(name), cString(input), cString(output),
                                                      cString(names: names), BusObject.methodHandler, 0))
            case let .property(name, signature, emitsChange, getter):
                getters[name] = getter
                entries.append(deskdays_vtable_property(cString(name), cString(signature), BusObject.propertyGetter,
                                                        emitsChange ? DESKDAYS_PROPERTY_EMITS_CHANGE : 0))
            case let .signal(name, signature, names):
                entries.append(deskdays_vtable_signal(cString(name), cString(signature), cString(names: names)))
            }
        }
        entries.append(deskdays_vtable_end())
        table.initialize(from: entries, count: entries.count)
        let result = sd_bus_add_object_vtable(bus, &slot, path, interface, table, Unmanaged.passUnretained(self).toOpaque())
        guard result >= 0 else {
            release()
            throw BusFailure(reason: "cannot export \(interface) at \(path): " + BusSupport.describe(result))
        }
    }

    deinit { remove() }

    /// Stops serving the object (on the bus's thread).
    public func remove() {
        if let slot { sd_bus_slot_unref(slot) }
        slot = nil
        release()
    }

    private var released = false
    private func release() {
        guard !released else { return }
        released = true
        table.deallocate()
        strings.forEach { free($0) }
        strings = []
    }

    private func cString(_ text: String) -> UnsafeMutablePointer<CChar> {
        let copy = strdup(text)!
        strings.append(copy)
        return copy
    }

    /// sd-bus's parameter names: each name followed by a NUL (the whole ends in a second NUL).
    private func cString(names: [String]) -> UnsafeMutablePointer<CChar> {
        let bytes: [UInt8] = names.flatMap { name -> [UInt8] in Array(name.utf8) + [0] } + [0]
        let owned = malloc(bytes.count)!.assumingMemoryBound(to: CChar.self)
        for (index, byte) in bytes.enumerated() { owned[index] = CChar(bitPattern: byte) }
        strings.append(owned)
        return owned
    }

    /// Emits a signal of this interface, its arguments appended by `build`.
    @discardableResult
    public func emit(on bus: OpaquePointer, signal member: String, build: (OpaquePointer) -> Int32 = { _ in 0 }) -> Int32 {
        var created: OpaquePointer?
        var result = sd_bus_message_new_signal(bus, &created, path, interface, member)
        guard result >= 0, let message = created else { return result }
        defer { sd_bus_message_unref(message) }
        result = build(message)
        guard result >= 0 else { return result }
        return sd_bus_send(bus, message, nil)
    }

    /// `PropertiesChanged` with the current values of `names` (each must be declared with `emitsChange`).
    @discardableResult
    public func emitPropertiesChanged(on bus: OpaquePointer, _ names: [String]) -> Int32 {
        guard !names.isEmpty else { return 0 }
        // sd_bus_emit_properties_changed_strv takes a NULL-terminated array of names.
        var pointers: [UnsafeMutablePointer<CChar>?] = names.map { strdup($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        return pointers.withUnsafeMutableBufferPointer { sd_bus_emit_properties_changed_strv(bus, path, interface, $0.baseAddress) }
    }

    private static let methodHandler: sd_bus_message_handler_t = { message, userdata, error in
        guard let message, let userdata, let member = sd_bus_message_get_member(message) else { return -EINVAL }
        let object = Unmanaged<BusObject>.fromOpaque(userdata).takeUnretainedValue()
        guard let method = object.methods[String(cString: member)] else { return -EINVAL }
        return method(message, BusErrorReply(pointer: error))
    }

    private static let propertyGetter: sd_bus_property_get_t = { _, _, _, property, reply, userdata, _ in
        guard let property, let reply, let userdata else { return -EINVAL }
        let object = Unmanaged<BusObject>.fromOpaque(userdata).takeUnretainedValue()
        guard let getter = object.getters[String(cString: property)] else { return -EINVAL }
        return getter(reply)
    }
}

extension BusSupport {
    /// Replies to `call` with no value, or with what `build` appends.
    @discardableResult
    public static func reply(to call: OpaquePointer, build: (OpaquePointer) -> Int32 = { _ in 0 }) -> Int32 {
        var created: OpaquePointer?
        var result = sd_bus_message_new_method_return(call, &created)
        guard result >= 0, let reply = created else { return result }
        defer { sd_bus_message_unref(reply) }
        result = build(reply)
        guard result >= 0 else { return result }
        return sd_bus_send(nil, reply, nil)
    }

    /// Replies to `call` with the error `name` and `message`.
    @discardableResult
    public static func replyError(to call: OpaquePointer, name: String, message: String) -> Int32 {
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        _ = sd_bus_error_set(&error, name, message)
        return sd_bus_reply_method_error(call, &error)
    }

    /// Opens a container, runs `body`, closes it.
    public static func container(_ message: OpaquePointer, _ type: Character, _ contents: String,
                                 _ body: () -> Int32) -> Int32 {
        var result = sd_bus_message_open_container(message, CChar(type.asciiValue!), contents)
        if result >= 0 { result = body() }
        if result >= 0 { result = sd_bus_message_close_container(message) }
        return result
    }

    /// Runs each step until one fails; its negative result, else 0.
    public static func steps(_ steps: [() -> Int32]) -> Int32 {
        for step in steps {
            let result = step()
            if result < 0 { return result }
        }
        return 0
    }

    /// Processes `bus` like `dispatch`, and also polls `wake` (a descriptor
    /// made readable by another thread): when it is, `onWake` runs here, on
    /// the bus's thread, which is how other threads hand work to it.
    public static func dispatch(_ bus: OpaquePointer, stop: Int32, wake: Int32, onWake: () -> Void) -> DispatchEnd {
        while true {
            let processed = sd_bus_process(bus, nil)
            if processed < 0 { return .lost(describe(processed)) }
            if processed > 0 { continue }
            let fd = sd_bus_get_fd(bus), events = sd_bus_get_events(bus)
            guard fd >= 0, events >= 0 else { return .lost(describe(min(fd, events))) }
            var busDeadline: UInt64 = .max
            _ = sd_bus_get_timeout(bus, &busDeadline)
            var fds = [pollfd(fd: fd, events: Int16(events), revents: 0),
                       pollfd(fd: stop, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
            if case .failure(let error) = Syscall.poll(&fds, timeout: pollTimeout(until: busDeadline)) {
                return .lost(error.description)
            }
            if fds[1].revents != 0 { return .stopped }
            if fds[2].revents != 0 { onWake() }
        }
    }
}

/// A method call kept for a later reply (the answer comes after an `await`):
/// referenced while kept, answered once, on the bus's thread.
// @unchecked: a C pointer, referenced (sd_bus_message_ref) while kept and
// replied to and released on the bus thread only.
public struct PendingCall: @unchecked Sendable {
    private let message: OpaquePointer

    /// Keeps `call` (a method handler's message) for a later reply.
    public init(_ call: OpaquePointer) {
        sd_bus_message_ref(call)
        message = call
    }

    /// Replies with what `build` appends, and lets the call go.
    public func reply(build: (OpaquePointer) -> Int32 = { _ in 0 }) {
        BusSupport.reply(to: message, build: build)
        sd_bus_message_unref(message)
    }

    /// Replies with the error `name` and `text`, and lets the call go.
    public func fail(name: String, message text: String) {
        BusSupport.replyError(to: message, name: name, message: text)
        sd_bus_message_unref(message)
    }
}
