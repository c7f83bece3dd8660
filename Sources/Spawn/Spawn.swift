import Foundation
import Subprocess
import Synchronization
import Syscall
#if canImport(System)
import System
#else
import SystemPackage
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The one way DeskDays starts a program, in the product and in the tests:
/// swiftlang/swift-subprocess underneath (posix_spawn, a pidfd per child),
/// never Foundation's `Process`, whose `run()` on Linux failed with EBADF
/// and crashed when several threads spawned children at once.
///
/// Every standard stream of a child is a file descriptor this module owns:
/// input from an anonymous file (or /dev/null), output into an anonymous
/// file read after the child ended, into a named file, or discarded. No
/// pipe is shared with another thread, and nothing can block on a full pipe.
///
/// Two shapes: `Program.run` starts a program and returns when it ended,
/// with what it wrote; `Child.start` starts one that lives on (a daemon,
/// an agent), to be signalled and waited for.
public enum Program {
    /// What a finished program left: its exit code (or, when a signal ended
    /// it, the signal's number, as `terminatedBySignal` says), its output and errors.
    public struct Output: Sendable {
        public var status: Int32
        public var terminatedBySignal: Bool
        public var stdoutBytes: [UInt8]
        public var stderrBytes: [UInt8]
        public var stdout: String { String(decoding: stdoutBytes, as: UTF8.self) }
        public var stderr: String { String(decoding: stderrBytes, as: UTF8.self) }
    }

    /// Where a program's output or error output goes.
    public enum Sink: Sendable {
        /// Kept and returned (in `Output`).
        case collect
        /// Discarded (/dev/null).
        case discard
        /// Appended to a file (created 0600 when missing).
        case file(String)
        /// This process's own standard output or error.
        case inherit
    }

    /// Runs `executable` (a path, or a name looked up on PATH) with
    /// `arguments` until it ends. `environment` replaces the whole
    /// environment when given; `overrides` change the inherited one.
    public static func run(_ executable: String, _ arguments: [String] = [], environment: [String: String]? = nil,
                           overrides: [String: String?] = [:], workingDirectory: String? = nil,
                           input: [UInt8]? = nil, stdout: Sink = .collect, stderr: Sink = .collect,
                           newSession: Bool = false) async throws -> Output {
        let streams = try Streams(input: input, stdout: stdout, stderr: stderr)
        defer { streams.close() }
        let status = try await Subprocess.run(
            Spawn.executable(executable), arguments: Arguments(arguments),
            environment: Spawn.environment(environment, overrides),
            workingDirectory: workingDirectory.map { FilePath($0) },
            platformOptions: Spawn.options(newSession: newSession),
            input: .fileDescriptor(streams.input, closeAfterSpawningProcess: false),
            output: .fileDescriptor(streams.output, closeAfterSpawningProcess: false),
            error: .fileDescriptor(streams.error, closeAfterSpawningProcess: false)
        ).terminationStatus
        let (code, signalled) = Spawn.code(status)
        return Output(status: code, terminatedBySignal: signalled,
                      stdoutBytes: stdout.isCollected ? Spawn.readAll(streams.output) : [],
                      stderrBytes: stderr.isCollected ? Spawn.readAll(streams.error) : [])
    }
}

/// A program that lives on after `start` returns: signal it, wait for it.
public final class Child: Sendable {
    /// Its process id (valid until `wait` returned).
    public let pid: pid_t
    private let ended: Task<(Int32, Bool), Never>
    /// How it ended, once seen.
    private let status = Mutex<(code: Int32, signalled: Bool)?>(nil)

    /// Starts `executable`; returns once it runs (or throws when it could not be started).
    public static func start(_ executable: String, _ arguments: [String] = [], environment: [String: String]? = nil,
                             overrides: [String: String?] = [:], workingDirectory: String? = nil,
                             input: [UInt8]? = nil, stdout: Program.Sink = .discard, stderr: Program.Sink = .discard,
                             newSession: Bool = false) async throws -> Child {
        if case .collect = stdout { throw SpawnError("a child that lives on cannot collect its output; name a file") }
        if case .collect = stderr { throw SpawnError("a child that lives on cannot collect its errors; name a file") }
        let streams = try Streams(input: input, stdout: stdout, stderr: stderr)
        let (started, continuation) = AsyncStream<Result<pid_t, any Error>>.makeStream()
        let configuration = Configuration(
            executable: Spawn.executable(executable), arguments: Arguments(arguments),
            environment: Spawn.environment(environment, overrides),
            workingDirectory: workingDirectory.map { FilePath($0) }, platformOptions: Spawn.options(newSession: newSession))
        let ended = Task<(Int32, Bool), Never> {
            defer { streams.close() }
            do {
                let result = try await Subprocess.run(
                    configuration,
                    input: .fileDescriptor(streams.input, closeAfterSpawningProcess: false),
                    output: .fileDescriptor(streams.output, closeAfterSpawningProcess: false),
                    error: .fileDescriptor(streams.error, closeAfterSpawningProcess: false)
                ) { execution in
                    continuation.yield(.success(execution.processIdentifier.value))
                    continuation.finish()
                }
                return Spawn.code(result.terminationStatus)
            } catch {
                continuation.yield(.failure(error))
                continuation.finish()
                return (-1, false)
            }
        }
        var iterator = started.makeAsyncIterator()
        guard let first = await iterator.next() else { throw SpawnError("\(executable) did not start") }
        let child = Child(pid: try first.get(), ended: ended)
        return child
    }

    private init(pid: pid_t, ended: Task<(Int32, Bool), Never>) {
        self.pid = pid
        self.ended = ended
        Task { [weak self] in
            let status = await ended.value
            self?.status.withLock { $0 = status }
        }
    }

    /// Whether it has not been seen to end yet.
    public var isRunning: Bool { status.withLock { $0 == nil } }

    /// Sends `signal` (SIGTERM, SIGKILL, SIGHUP…) while it runs.
    public func signal(_ signal: Int32) {
        if isRunning { _ = kill(pid, signal) }
    }

    /// Waits until it ended: its exit code, or the number of the signal that ended it.
    @discardableResult
    public func wait() async -> Int32 {
        let ended = await ended.value
        status.withLock { $0 = ended }
        return ended.0
    }

    /// Waits at most `seconds`: the exit code (or signal number), or nil
    /// when it still runs (a guard against a hang, never a way to time it).
    public func wait(seconds: Double) async -> Int32? {
        let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
        while ContinuousClock.now < deadline {
            if let status = status.withLock({ $0 }) { return status.code }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return status.withLock { $0?.code }
    }

    /// Whether a signal ended it (after `wait`).
    public var terminatedBySignal: Bool { status.withLock { $0?.signalled ?? false } }

    deinit {
        if status.withLock({ $0 == nil }) { _ = kill(pid, SIGKILL) }
    }
}

public struct SpawnError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

extension Program.Sink {
    var isCollected: Bool { if case .collect = self { true } else { false } }
}

/// The three descriptors a child gets, opened before the spawn and closed after.
private struct Streams: Sendable {
    let input: FileDescriptor, output: FileDescriptor, error: FileDescriptor

    init(input bytes: [UInt8]?, stdout: Program.Sink, stderr: Program.Sink) throws {
        if let bytes {
            let file = try Spawn.anonymousFile()
            try file.writeAll(bytes)
            _ = try file.seek(offset: 0, from: .start)
            input = file
        } else {
            input = try FileDescriptor.open("/dev/null", .readOnly, options: [.closeOnExec])
        }
        output = try Spawn.open(stdout, standard: .standardOutput)
        error = try Spawn.open(stderr, standard: .standardError)
    }

    func close() {
        for descriptor in [input, output, error] where descriptor.rawValue > 2 { try? descriptor.close() }
    }
}

enum Spawn {
    static func executable(_ name: String) -> Executable {
        name.contains("/") ? .path(FilePath(name)) : .name(name)
    }

    static func environment(_ full: [String: String]?, _ overrides: [String: String?]) -> Environment {
        if var full {
            for (key, value) in overrides { full[key] = value }
            return .custom(Dictionary(uniqueKeysWithValues: full.map { (Environment.Key(rawValue: $0.key)!, $0.value) }))
        }
        if overrides.isEmpty { return .inherit }
        var merged = ProcessInfo.processInfo.environment
        for (key, value) in overrides { merged[key] = value }
        return .custom(Dictionary(uniqueKeysWithValues: merged.map { (Environment.Key(rawValue: $0.key)!, $0.value) }))
    }

    static func options(newSession: Bool) -> PlatformOptions {
        var options = PlatformOptions()
        options.createSession = newSession
        return options
    }

    static func code(_ status: TerminationStatus) -> (Int32, Bool) {
        switch status {
        case .exited(let code): (Int32(code), false)
        case .signaled(let signal): (Int32(signal), true)
        }
    }

    /// A file without a name (created in the temporary folder and unlinked
    /// at once), gone when its last descriptor closes.
    static func anonymousFile() throws -> FileDescriptor {
        let folder = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(folder)/deskdays-spawn-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw Errno(rawValue: errno) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        return FileDescriptor(rawValue: fd)
    }

    static func open(_ sink: Program.Sink, standard: FileDescriptor) throws -> FileDescriptor {
        switch sink {
        case .collect: try anonymousFile()
        case .discard: try FileDescriptor.open("/dev/null", .writeOnly, options: [.closeOnExec])
        case .file(let path):
            try FileDescriptor.open(path, .writeOnly, options: [.create, .append, .closeOnExec], permissions: [.ownerReadWrite])
        case .inherit: standard
        }
    }

    /// Everything written to an anonymous file, from its start.
    static func readAll(_ file: FileDescriptor) -> [UInt8] {
        guard let end = try? file.seek(offset: 0, from: .end), end > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: Int(end))
        guard case .success(let count) = bytes.withUnsafeMutableBytes({ Syscall.read(file.rawValue, at: 0, into: $0) }) else { return [] }
        return Array(bytes.prefix(count))
    }
}
