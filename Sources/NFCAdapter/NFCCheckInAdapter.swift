import DeskDaysConfig
import DeskDaysCore
import Foundation
import Logging

/// The NFC check-in adapter: each new tap whose tag matches a
/// `[[nfc.tags]]` rule becomes one `CheckInEvent` carrying the rule's name.
/// Unknown tags are logged as "unknown tag", without identifiers.
public struct NFCCheckInAdapter: CheckInAdapter {
    public var source: Source { .nfc }

    private let settings: NFCSettings
    private let logger: Logger
    private let now: @Sendable () -> Date
    private let reader: (@Sendable () -> NFCTagReader)?

    /// - Parameters:
    ///   - reader: overrides the backend choice (tests); by default it is
    ///     resolved from `settings` when `run` starts.
    ///   - now: the clock stamped on events.
    public init(settings: NFCSettings, logger: Logger, reader: (@Sendable () -> NFCTagReader)? = nil,
                now: @escaping @Sendable () -> Date = { Date() }) {
        self.settings = settings
        self.logger = logger
        self.reader = reader
        self.now = now
    }

    public func run(emit: @escaping @Sendable (CheckInEvent) async -> Void) async throws {
        let matcher = TagMatcher(tags: settings.tags)
        let reader = reader?() ?? NFCTagReader.configured(settings, logger: logger)
        logger.info("NFC adapter started", metadata: ["backend": "\(reader.backend.rawValue)"])
        var toldRandom = false
        for try await reading in reader.taps(wantsNDEF: matcher.needsNDEF(uid:)) {
            if let rule = matcher.rule(for: reading) {
                await emit(CheckInEvent(source: .nfc, rule: rule, time: now()))
            } else if reading.hasRandomUID {
                // Said once per run: a badge tapped every morning must not fill the log.
                if !toldRandom {
                    logger.notice("this card shows a new number on every tap (a random UID): it cannot check you in; use an NTAG sticker or keyfob at the desk, or a QR code")
                    toldRandom = true
                }
            } else {
                if case .malformed = reading.ndef { logger.debug("tag with a malformed NDEF area") }
                logger.notice("unknown tag")
            }
        }
    }
}
