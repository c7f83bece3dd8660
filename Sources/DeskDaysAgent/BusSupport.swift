#if canImport(Glibc)
import Glibc
#endif
import CSystemd
import Foundation

/// What the agent's two sd-bus clients (the sleep watcher on the system bus,
/// the desktop notifier on the session bus) share: which bus addresses are
/// acceptable, and sd-bus's conventions for errors and deadlines.
enum BusSupport {
    /// Whether every address in the list is a unix socket (the list is `;`-separated, tried in order).
    ///
    /// A `tcp:`, `nonce-tcp:` or `unixexec:` entry is refused, so no environment
    /// can make the agent open an internet socket or start a program for a bus.
    static func isUnixOnly(_ address: String) -> Bool {
        let kinds = address.split(separator: ";").map { $0.split(separator: ":", maxSplits: 1).first.map(String.init) ?? "" }
        return !kinds.isEmpty && kinds.allSatisfy { $0 == "unix" }
    }

    /// The socket files named by `path=` in the address list (values are %-escaped); abstract sockets have none.
    static func socketPaths(_ address: String) -> [String] {
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
    static func pollTimeout(until deadline: UInt64) -> Int32 {
        guard deadline != .max else { return -1 }
        let now = monotonicMicroseconds()
        guard deadline > now else { return 0 }
        return Int32(min((deadline - now + 999) / 1000, UInt64(Int32.max)))
    }

    /// `CLOCK_MONOTONIC` in µs, the clock sd-bus's timeouts use.
    static func monotonicMicroseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
    }

    /// A started client connection to `address`, or why there is none; the
    /// caller owns it (and chooses how to close it: flushed or not).
    static func connect(_ address: String) -> Result<OpaquePointer, BusFailure> {
        var created: OpaquePointer?
        guard sd_bus_new(&created) >= 0, let bus = created else { return .failure(BusFailure(reason: "out of memory")) }
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
    static func describe(_ result: Int32) -> String { String(cString: strerror(-result)) }
}

/// Why a bus connection could not be made, in words for the log.
struct BusFailure: Error {
    let reason: String
}

