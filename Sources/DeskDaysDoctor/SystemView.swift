import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What `deskdays doctor` reads about the machine: files, device nodes,
/// kernel modules, processes, USB devices and network interfaces, all
/// through `/proc`, `/sys` and `/run` paths that tests can point at a
/// scratch tree.
public struct SystemView: Sendable {
    public var proc: String
    public var sys: String
    public var run: String

    public init(proc: String = "/proc", sys: String = "/sys", run: String = "/run") {
        self.proc = proc
        self.sys = sys
        self.run = run
    }

    /// What a path is, for a device the configuration names.
    public enum Node: Equatable, Sendable {
        case missing
        case characterDevice
        case other
    }

    public func node(at path: String) -> Node {
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        return (info.st_mode & S_IFMT) == S_IFCHR ? .characterDevice : .other
    }

    /// Whether this process may read and write `path`.
    public func canReadWrite(_ path: String) -> Bool {
        access(path, R_OK | W_OK) == 0
    }

    /// Whether a kernel module is loaded (`/sys/module/NAME` or a line of `/proc/modules`).
    public func moduleLoaded(_ name: String) -> Bool {
        if FileManager.default.fileExists(atPath: "\(sys)/module/\(name)") { return true }
        guard let modules = try? String(contentsOfFile: "\(proc)/modules", encoding: .utf8) else { return false }
        return modules.split(whereSeparator: \.isNewline).contains { $0.split(separator: " ").first.map(String.init) == name }
    }

    /// The pids of processes whose command name (`/proc/PID/comm`) is `name`.
    public func processes(named name: String) -> [Int] {
        processIDs().filter { pid in
            (try? String(contentsOfFile: "\(proc)/\(pid)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) == name
        }
    }

    /// Processes holding `path` open, as `name (pid)` (only those whose fds we may read).
    public func holders(of path: String) -> [String] {
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        var found: [String] = []
        for pid in processIDs() where pid != Int(getpid()) {
            guard let fds = try? FileManager.default.contentsOfDirectory(atPath: "\(proc)/\(pid)/fd") else { continue }
            for fd in fds {
                guard let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(proc)/\(pid)/fd/\(fd)"),
                      link == target || link == path else { continue }
                let name = (try? String(contentsOfFile: "\(proc)/\(pid)/comm", encoding: .utf8))?
                    .trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
                found.append("\(name) (pid \(pid))")
                break
            }
        }
        return found
    }

    /// USB devices present, as lower-case `vvvv:pppp`.
    public func usbDevices() -> Set<String> {
        let base = "\(sys)/bus/usb/devices"
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: base) else { return [] }
        var ids: Set<String> = []
        for entry in entries {
            guard let vendor = try? String(contentsOfFile: "\(base)/\(entry)/idVendor", encoding: .utf8),
                  let product = try? String(contentsOfFile: "\(base)/\(entry)/idProduct", encoding: .utf8) else { continue }
            ids.insert("\(vendor.trimmingCharacters(in: .whitespacesAndNewlines)):\(product.trimmingCharacters(in: .whitespacesAndNewlines))".lowercased())
        }
        return ids
    }

    /// The kernel drivers bound to the interfaces of each USB device, by
    /// lower-case `vvvv:pppp` (`/sys/bus/usb/devices/1-2:1.0/driver` is a
    /// link whose last component names the driver, e.g. `pn533_usb`).
    public func usbInterfaceDrivers() -> [String: Set<String>] {
        let base = "\(sys)/bus/usb/devices"
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: base) else { return [:] }
        var drivers: [String: Set<String>] = [:]
        for entry in entries where !entry.contains(":") {
            guard let vendor = try? String(contentsOfFile: "\(base)/\(entry)/idVendor", encoding: .utf8),
                  let product = try? String(contentsOfFile: "\(base)/\(entry)/idProduct", encoding: .utf8) else { continue }
            let id = "\(vendor.trimmingCharacters(in: .whitespacesAndNewlines)):\(product.trimmingCharacters(in: .whitespacesAndNewlines))".lowercased()
            for interface in entries where interface.hasPrefix(entry + ":") {
                guard let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(base)/\(interface)/driver") else { continue }
                drivers[id, default: []].insert((link as NSString).lastPathComponent)
            }
        }
        return drivers
    }

    /// Network interfaces with a wireless (cfg80211) side.
    public func wirelessInterfaces() -> [String] {
        let base = "\(sys)/class/net"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: base) else { return [] }
        return names.filter { FileManager.default.fileExists(atPath: "\(base)/\($0)/wireless")
            || FileManager.default.fileExists(atPath: "\(base)/\($0)/phy80211") }.sorted()
    }

    public func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: path)
    }

    private func processIDs() -> [Int] {
        ((try? FileManager.default.contentsOfDirectory(atPath: proc)) ?? []).compactMap { Int($0) }
    }
}
