import Logging
import Synchronization

/// Log lines kept in memory, so a test can wait for the one that says a
/// decision was made; they still go to stderr, unbuffered, so a hung or
/// failed run shows them.
public final class LogCapture: Sendable {
    private let kept = Mutex<[String]>([])

    public init(label: String = "test") { self.label = label }
    private let label: String

    public var lines: [String] { kept.withLock { $0 } }
    public func count(_ fragment: String) -> Int { lines.filter { $0.contains(fragment) }.count }

    public var logger: Logger {
        var logger = Logger(label: label) { [self] label in Handler(capture: self, stream: StreamLogHandler.standardError(label: label)) }
        logger.logLevel = .debug
        return logger
    }

    fileprivate func keep(_ line: String) { kept.withLock { $0.append(line) } }

    private struct Handler: LogHandler {
        let capture: LogCapture
        var stream: StreamLogHandler
        var metadata: Logger.Metadata { get { stream.metadata } set { stream.metadata = newValue } }
        var logLevel: Logger.Level { get { stream.logLevel } set { stream.logLevel = newValue } }
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { stream[metadataKey: key] }
            set { stream[metadataKey: key] = newValue }
        }

        func log(event: LogEvent) {
            let metadata = (event.metadata ?? [:]).map { " \($0)=\($1)" }.sorted().joined()
            capture.keep("\(event.level): \(event.message)\(metadata)")
            stream.log(event: event)
        }
    }
}
