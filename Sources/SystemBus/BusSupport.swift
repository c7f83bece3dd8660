#if canImport(Glibc)
import Glibc
#endif
import CSystemd
import Foundation
import Localization
import Syscall

/// What DeskDays' sd-bus clients share (the agent's sleep watcher on the
/// system bus and desktop notifier on the session bus; the GPS sources of
/// module GPSBus on the system bus): which bus addresses are acceptable,
/// connecting, dispatching without wake-ups, and sd-bus's conventions for
/// errors and deadlines. The one place libsystemd's bus calls are wrapped.
public enum BusSupport {
    /// The system bus when `DBUS_SYSTEM_BUS_ADDRESS` does not name one.
    public static let defaultSystemAddress = "unix:path=/run/dbus/system_bus_socket"

    /// `DBUS_SYSTEM_BUS_ADDRESS` when set and not empty, else the standard socket.
    public static func systemAddress(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        environment["DBUS_SYSTEM_BUS_ADDRESS"].flatMap { $0.isEmpty ? nil : $0 } ?? defaultSystemAddress
    }

    /// Whether every address in the list is a unix socket (the list is `;`-separated, tried in order).
    ///
    /// A `tcp:`, `nonce-tcp:` or `unixexec:` entry is refused, so no environment
    /// can make the agent open an internet socket or start a program for a bus.
    public static func isUnixOnly(_ address: String) -> Bool {
        let kinds = address.split(separator: ";").map { $0.split(separator: ":", maxSplits: 1).first.map(String.init) ?? "" }
        return !kinds.isEmpty && kinds.allSatisfy { $0 == "unix" }
    }

    /// The socket files named by `path=` in the address list (values are %-escaped); abstract sockets have none.
    public static func socketPaths(_ address: String) -> [String] {
        address.split(separator: ";").flatMap { entry in
            entry.split(separator: ":", maxSplits: 1).dropFirst().first.map { keys in
                keys.split(separator: ",").compactMap { pair -> String? in
                    guard pair.hasPrefix("path=") else { return nil }
                    return String(pair.dropFirst(5)).removingPercentEncoding
                }
            } ?? []
        }
    }

    /// Milliseconds until sd-bus's `CLOCK_MONOTONIC` deadline (in µs), rounded up; -1 for none.
    public static func pollTimeout(until deadline: UInt64) -> Int32 {
        guard deadline != .max else { return -1 }
        let now = monotonicMicroseconds()
        guard deadline > now else { return 0 }
        return Int32(min((deadline - now + 999) / 1000, UInt64(Int32.max)))
    }

    /// `CLOCK_MONOTONIC` in µs, the clock sd-bus's timeouts use.
    public static func monotonicMicroseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
    }

    /// A started client connection to `address`, or why there is none; the
    /// caller owns it (and chooses how to close it: flushed or not).
    public static func connect(_ address: String) -> Result<OpaquePointer, BusFailure> {
        var created: OpaquePointer?
        guard sd_bus_new(&created) >= 0, let bus = created else { return .failure(BusFailure(reason: tr("out of memory"))) }
        var result = sd_bus_set_address(bus, address)
        if result >= 0 { result = sd_bus_set_bus_client(bus, 1) }
        if result >= 0 { result = sd_bus_start(bus) }
        guard result >= 0 else {
            sd_bus_close_unref(bus)
            return .failure(BusFailure(reason: describe(result)))
        }
        return .success(bus)
    }

    /// sd-bus returns negative errno values.
    public static func describe(_ result: Int32) -> String { String(cString: strerror(-result)) }
}

/// Why a bus connection could not be made, in words for the log.
public struct BusFailure: Error, Sendable {
    public let reason: String

    public init(reason: String) {
        self.reason = reason
    }
}

extension BusSupport {
    /// How `dispatch` ended.
    public enum DispatchEnd: Equatable, Sendable {
        /// The stop descriptor became readable.
        case stopped
        /// `done` returned true.
        case done
        /// The connection failed (the daemon went away): why.
        case lost(String)
        /// `deadline` passed.
        case timedOut
    }

    /// Processes `bus` until `done()` (checked after every processed
    /// message), a stop request on `stop` (a descriptor that becomes
    /// readable) or a failure. Blocks in `poll()` with sd-bus's own deadline
    /// only (and `deadline`, `CLOCK_MONOTONIC` µs, when given): no wake-ups
    /// while nothing arrives.
    public static func dispatch(_ bus: OpaquePointer, stop: Int32, deadline: UInt64 = .max,
                                done: () -> Bool = { false }) -> DispatchEnd {
        while true {
            let processed = sd_bus_process(bus, nil)
            if processed < 0 { return .lost(describe(processed)) }
            if done() { return .done }
            if processed > 0 { continue }
            let fd = sd_bus_get_fd(bus), events = sd_bus_get_events(bus)
            guard fd >= 0, events >= 0 else { return .lost(describe(min(fd, events))) }
            if deadline != .max, monotonicMicroseconds() >= deadline { return .timedOut }
            var busDeadline: UInt64 = .max
            _ = sd_bus_get_timeout(bus, &busDeadline)
            var fds = [pollfd(fd: fd, events: Int16(events), revents: 0),
                       pollfd(fd: stop, events: Int16(POLLIN), revents: 0)]
            if case .failure(let error) = Syscall.poll(&fds, timeout: pollTimeout(until: min(busDeadline, deadline))) {
                return .lost(error.description)
            }
            if fds[1].revents != 0 { return .stopped }
        }
    }

    /// The error name and message of a method error reply, as one phrase.
    public static func errorText(_ reply: OpaquePointer) -> String {
        let error = sd_bus_message_get_error(reply)?.pointee
        let name = error?.name.map { String(cString: $0) } ?? "an error"
        let text = error?.message.map { String(cString: $0) }
        return text.map { "\(name): \($0)" } ?? name
    }

    /// A method call that never starts a service by bus activation (asking
    /// whether ModemManager is there must not start it), with `build` adding
    /// the arguments; nil and why when it cannot be made.
    public static func call(_ bus: OpaquePointer, destination: String, path: String, interface: String, member: String,
                            timeoutMicroseconds: UInt64 = 5_000_000,
                            build: (OpaquePointer) -> Int32 = { _ in 0 }) -> Result<OpaquePointer, BusFailure> {
        var built: OpaquePointer?
        var result = sd_bus_message_new_method_call(bus, &built, destination, path, interface, member)
        guard result >= 0, let message = built else { return .failure(BusFailure(reason: describe(result))) }
        defer { sd_bus_message_unref(message) }
        result = sd_bus_message_set_auto_start(message, 0)
        if result >= 0 { result = build(message) }
        guard result >= 0 else { return .failure(BusFailure(reason: describe(result))) }
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        result = sd_bus_call(bus, message, timeoutMicroseconds, &error, &reply)
        guard result >= 0, let reply else {
            let name = error.name.map { String(cString: $0) }
            let text = error.message.map { String(cString: $0) }
            return .failure(BusFailure(reason: name.map { n in text.map { "\(n): \($0)" } ?? n } ?? describe(result)))
        }
        return .success(reply)
    }

    /// Appends a string argument.
    public static func append(_ message: OpaquePointer, string: String) -> Int32 {
        string.withCString { sd_bus_message_append_basic(message, CChar(UInt8(ascii: "s")), $0) }
    }

    /// Appends a basic argument of D-Bus `type` (`u`, `b` as Int32, `d`, …).
    public static func append<T>(_ message: OpaquePointer, _ type: Character, _ value: T) -> Int32 {
        withUnsafePointer(to: value) { sd_bus_message_append_basic(message, CChar(type.asciiValue!), $0) }
    }

    /// Reads a basic value of D-Bus `type`; nil when the next argument is not one.
    public static func read<T>(_ message: OpaquePointer, _ type: Character, as: T.Type, zero: T) -> T? {
        var value = zero
        return sd_bus_message_read_basic(message, CChar(type.asciiValue!), &value) > 0 ? value : nil
    }

    /// Reads a string (`s` or `o`); nil when the next argument is not one.
    public static func readString(_ message: OpaquePointer, _ type: Character = "s") -> String? {
        var value: UnsafePointer<CChar>?
        guard sd_bus_message_read_basic(message, CChar(type.asciiValue!), &value) > 0, let value else { return nil }
        return String(cString: value)
    }
}


/// A value a client sends in a variant (`v`) that DeskDays takes: the
/// types a configuration key can hold.
public enum BusValue: Sendable, Equatable {
    case string(String)
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case strings([String])
}

extension BusSupport {
    /// Reads a variant holding a string, a boolean, an integer (any width),
    /// a double or a list of strings; nil for any other type.
    public static func readVariant(_ message: OpaquePointer) -> BusValue? {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>?
        guard sd_bus_message_peek_type(message, &type, &contents) > 0, type == CChar(UInt8(ascii: "v")),
              let contents, sd_bus_message_enter_container(message, type, contents) > 0 else { return nil }
        defer { sd_bus_message_exit_container(message) }
        let signature = String(cString: contents)
        switch signature {
        case "s": return readString(message).map(BusValue.string)
        case "b": return read(message, "b", as: Int32.self, zero: 0).map { .bool($0 != 0) }
        case "d": return read(message, "d", as: Double.self, zero: 0).map(BusValue.double)
        case "y": return read(message, "y", as: UInt8.self, zero: 0).map { .integer(Int64($0)) }
        case "n": return read(message, "n", as: Int16.self, zero: 0).map { .integer(Int64($0)) }
        case "q": return read(message, "q", as: UInt16.self, zero: 0).map { .integer(Int64($0)) }
        case "i": return read(message, "i", as: Int32.self, zero: 0).map { .integer(Int64($0)) }
        case "u": return read(message, "u", as: UInt32.self, zero: 0).map { .integer(Int64($0)) }
        case "x": return read(message, "x", as: Int64.self, zero: 0).map(BusValue.integer)
        case "t": return read(message, "t", as: UInt64.self, zero: 0).flatMap { Int64(exactly: $0) }.map(BusValue.integer)
        case "as":
            guard sd_bus_message_enter_container(message, CChar(UInt8(ascii: "a")), "s") > 0 else { return nil }
            defer { sd_bus_message_exit_container(message) }
            var strings: [String] = []
            while let string = readString(message) { strings.append(string) }
            return .strings(strings)
        default: return nil
        }
    }
}

extension BusSupport {
    /// A method reply's error as one phrase (`errorText`), nil when it is a return.
    public static func failure(of reply: OpaquePointer) -> String? {
        sd_bus_message_is_method_error(reply, nil) != 0 ? errorText(reply) : nil
    }
}
