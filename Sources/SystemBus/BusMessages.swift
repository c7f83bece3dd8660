#if canImport(Glibc)
import Glibc
#endif
import CSystemd

/// Where a method handler of a `BusObject` sets its error reply (sd-bus's
/// `sd_bus_error`), opaque to the modules that serve objects: they call `BusSupport.fail`.
public struct BusErrorReply {
    let pointer: UnsafeMutablePointer<sd_bus_error>?
}

/// A callback sd-bus runs on the bus's thread (a signal match), alive while
/// this is kept; releasing it (on that thread) removes the match.
public final class BusSubscription {
    private let slot: OpaquePointer

    init(_ slot: OpaquePointer) { self.slot = slot }

    deinit { sd_bus_slot_unref(slot) }
}

/// A Swift closure handed to sd-bus as a callback's userdata, released by the slot's destroy callback.
private final class CallbackBox {
    let body: (OpaquePointer) -> Void
    /// A match's confirmation (or refusal) by the bus.
    let installed: ((OpaquePointer) -> Void)?
    init(_ body: @escaping (OpaquePointer) -> Void, installed: ((OpaquePointer) -> Void)? = nil) {
        self.body = body
        self.installed = installed
    }

    static let run: sd_bus_message_handler_t = { message, userdata, _ in
        guard let message, let userdata else { return 0 }
        Unmanaged<CallbackBox>.fromOpaque(userdata).takeUnretainedValue().body(message)
        return 0
    }

    static let install: sd_bus_message_handler_t = { message, userdata, _ in
        guard let message, let userdata else { return 0 }
        Unmanaged<CallbackBox>.fromOpaque(userdata).takeUnretainedValue().installed?(message)
        return 1
    }

    static let destroy: sd_bus_destroy_t = { userdata in
        if let userdata { Unmanaged<CallbackBox>.fromOpaque(userdata).release() }
    }

    /// Registers `body` through `register` (an sd-bus call that makes a slot with the
    /// handler `run` and the userdata it is given); the slot, or the negative result.
    static func slot(_ body: @escaping (OpaquePointer) -> Void, installed: ((OpaquePointer) -> Void)? = nil,
                     _ register: (UnsafeMutablePointer<OpaquePointer?>, UnsafeMutableRawPointer) -> Int32) -> Result<OpaquePointer, BusFailure> {
        let box = Unmanaged.passRetained(CallbackBox(body, installed: installed)).toOpaque()
        var slot: OpaquePointer?
        let result = register(&slot, box)
        guard result >= 0, let slot else {
            Unmanaged<CallbackBox>.fromOpaque(box).release()
            return .failure(BusFailure(reason: BusSupport.describe(result)))
        }
        sd_bus_slot_set_destroy_callback(slot, destroy)
        return .success(slot)
    }
}

extension BusSupport {
    /// Sets a named D-Bus error (`io.github.….Error.InvalidDate`, …) for a method handler to return.
    public static func fail(_ error: BusErrorReply, name: String, message: String) -> Int32 {
        sd_bus_error_set(error.pointer, name, message)
    }

    // MARK: Signals and asynchronous calls

    /// Calls `body` with each signal that matches (nil: any), and `installed`
    /// with the bus's answer to the match (a reply, or an error when it refused);
    /// why not when sd-bus refuses the match itself.
    /// `synchronous`: the match is in place when this returns (a round trip to the bus).
    public static func matchSignal(_ bus: OpaquePointer, sender: String?, path: String?, interface: String?, member: String?,
                                   synchronous: Bool = false, installed: ((OpaquePointer) -> Void)? = nil,
                                   _ body: @escaping (OpaquePointer) -> Void) -> Result<BusSubscription, BusFailure> {
        CallbackBox.slot(body, installed: installed) { slot, box in
            synchronous
                ? sd_bus_match_signal(bus, slot, sender, path, interface, member, CallbackBox.run, box)
                : sd_bus_match_signal_async(bus, slot, sender, path, interface, member, CallbackBox.run,
                                            installed == nil ? nil : CallbackBox.install, box)
        }.map(BusSubscription.init)
    }

    /// Calls `body` with each message matching the match rule `rule` (`arg0=` and the like).
    public static func addMatch(_ bus: OpaquePointer, rule: String, synchronous: Bool = false,
                                _ body: @escaping (OpaquePointer) -> Void) -> Result<BusSubscription, BusFailure> {
        CallbackBox.slot(body) { slot, box in
            synchronous ? sd_bus_add_match(bus, slot, rule, CallbackBox.run, box)
                        : sd_bus_add_match_async(bus, slot, rule, CallbackBox.run, nil, box)
        }.map(BusSubscription.init)
    }

    /// Calls a method without waiting: `then` gets the reply or the error
    /// (sd-bus's timeout included) on the bus's thread; nothing when the bus
    /// closes first. `autoStart` false: never starts a service by activation.
    /// Nil, or why the call could not be sent.
    @discardableResult
    public static func callAsync(_ bus: OpaquePointer, destination: String, path: String, interface: String, member: String,
                                 autoStart: Bool = true, timeoutMicroseconds: UInt64 = 5_000_000,
                                 build: (OpaquePointer) -> Int32 = { _ in 0 },
                                 then: @escaping (OpaquePointer) -> Void) -> String? {
        var created: OpaquePointer?
        var result = sd_bus_message_new_method_call(bus, &created, destination, path, interface, member)
        guard result >= 0, let message = created else { return describe(result) }
        defer { sd_bus_message_unref(message) }
        if !autoStart { result = sd_bus_message_set_auto_start(message, 0) }
        if result >= 0 { result = build(message) }
        guard result >= 0 else { return describe(result) }
        switch CallbackBox.slot(then, { slot, box in
            sd_bus_call_async(bus, slot, message, CallbackBox.run, box, timeoutMicroseconds)
        }) {
        case .success(let slot):
            // Floating: the bus keeps it until the reply, the timeout or the close.
            sd_bus_slot_set_floating(slot, 1)
            return nil
        case .failure(let failure):
            return failure.reason
        }
    }

    // MARK: The connection

    /// This connection's unique name (`:1.42`).
    public static func uniqueName(_ bus: OpaquePointer) -> String? {
        var unique: UnsafePointer<CChar>?
        guard sd_bus_get_unique_name(bus, &unique) >= 0, let unique else { return nil }
        return String(cString: unique)
    }

    /// Asks for a well-known name, queued behind its owner when `queue`:
    /// positive when owned now, 0 when queued, negative errno when refused.
    public static func requestName(_ bus: OpaquePointer, _ name: String, queue: Bool) -> Int32 {
        sd_bus_request_name(bus, name, queue ? UInt64(SD_BUS_NAME_QUEUE) : 0)
    }

    /// Closes and frees a connection made by `connect`; without `flush`, a hung peer holds nothing up.
    public static func close(_ bus: OpaquePointer, flush: Bool = false) {
        if flush { sd_bus_flush_close_unref(bus) } else { sd_bus_close_unref(bus) }
    }

    /// A method error's message (nil when the reply is no error, or has no message).
    public static func errorMessage(_ reply: OpaquePointer) -> String? {
        guard sd_bus_message_is_method_error(reply, nil) != 0 else { return nil }
        return sd_bus_message_get_error(reply)?.pointee.message.map { String(cString: $0) }
    }

    /// Lets go of a reply `call` returned.
    public static func release(_ message: OpaquePointer) {
        sd_bus_message_unref(message)
    }

    // MARK: Reading and writing messages

    /// Whether a reply is an error; its D-Bus error name then (`org.freedesktop.DBus.Error.ServiceUnknown`).
    public static func errorName(_ reply: OpaquePointer) -> String? {
        guard sd_bus_message_is_method_error(reply, nil) != 0 else { return nil }
        return sd_bus_message_get_error(reply)?.pointee.name.map { String(cString: $0) } ?? ""
    }

    /// Appends a string-like argument: `s`, or `o` (an object path), `g` (a signature).
    public static func append(_ message: OpaquePointer, string: String, as type: Character) -> Int32 {
        string.withCString { sd_bus_message_append_basic(message, CChar(type.asciiValue!), $0) }
    }

    /// Reads an array of strings (`as`); nil when the next argument is not one.
    public static func readStrings(_ message: OpaquePointer) -> [String]? {
        guard sd_bus_message_enter_container(message, CChar(UInt8(ascii: "a")), "s") > 0 else { return nil }
        defer { sd_bus_message_exit_container(message) }
        var strings: [String] = []
        while let string = readString(message) { strings.append(string) }
        return strings
    }

    /// Reads an array of a basic type (`ai`, `au`); nil when the next argument is not one.
    public static func readArray<T>(_ message: OpaquePointer, _ type: Character, as: T.Type, zero: T) -> [T]? {
        guard sd_bus_message_enter_container(message, CChar(UInt8(ascii: "a")), String(type)) > 0 else { return nil }
        defer { sd_bus_message_exit_container(message) }
        var values: [T] = []
        while let value = read(message, type, as: T.self, zero: zero) { values.append(value) }
        return values
    }

    /// Reads an array of structures `a(CONTENTS)`, calling `body` inside each,
    /// which reads (or `skip`s) all of it; false when the next argument is not one.
    @discardableResult
    public static func forEachStruct(_ message: OpaquePointer, _ contents: String, _ body: () -> Void) -> Bool {
        guard sd_bus_message_enter_container(message, CChar(UInt8(ascii: "a")), "(\(contents))") > 0 else { return false }
        while sd_bus_message_enter_container(message, CChar(UInt8(ascii: "r")), contents) > 0 {
            body()
            sd_bus_message_exit_container(message)
        }
        sd_bus_message_exit_container(message)
        return true
    }

    /// Reads an array of dictionary entries `a{CONTENTS}`, calling `body` inside
    /// each, which reads (or `skip`s) all of it; false when the next argument is not one.
    @discardableResult
    public static func forEachEntry(_ message: OpaquePointer, _ contents: String, _ body: () -> Void) -> Bool {
        guard sd_bus_message_enter_container(message, CChar(UInt8(ascii: "a")), "{\(contents)}") > 0 else { return false }
        while sd_bus_message_enter_container(message, CChar(UInt8(ascii: "e")), contents) > 0 {
            body()
            sd_bus_message_exit_container(message)
        }
        sd_bus_message_exit_container(message)
        return true
    }

    /// Reads a variant holding `contents` with `read`; a variant holding anything else is skipped (nil).
    public static func variant<T>(_ message: OpaquePointer, _ contents: String, _ read: (OpaquePointer) -> T?) -> T? {
        var type: CChar = 0
        var inside: UnsafePointer<CChar>?
        guard sd_bus_message_peek_type(message, &type, &inside) > 0, type == CChar(UInt8(ascii: "v")),
              let inside, String(cString: inside) == contents else {
            sd_bus_message_skip(message, "v")
            return nil
        }
        guard sd_bus_message_enter_container(message, CChar(UInt8(ascii: "v")), contents) > 0 else { return nil }
        defer { sd_bus_message_exit_container(message) }
        return read(message)
    }

    /// The unique name of the connection that sent `message`.
    public static func sender(_ message: OpaquePointer) -> String? {
        sd_bus_message_get_sender(message).map { String(cString: $0) }
    }

    /// The object path `message` is about (a signal's emitter, a call's object).
    public static func path(_ message: OpaquePointer) -> String? {
        sd_bus_message_get_path(message).map { String(cString: $0) }
    }

    /// Whether `message`'s arguments have the signature `signature`.
    public static func hasSignature(_ message: OpaquePointer, _ signature: String) -> Bool {
        sd_bus_message_has_signature(message, signature) != 0
    }

    /// Skips the next arguments of the complete types `types` (`vu`).
    @discardableResult
    public static func skip(_ message: OpaquePointer, _ types: String) -> Int32 {
        sd_bus_message_skip(message, types)
    }
}
