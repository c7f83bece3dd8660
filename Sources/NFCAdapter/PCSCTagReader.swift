import DeviceThread
import DeskDaysCore
import Logging
#if canImport(Glibc)
import Glibc
#endif

/// Watches every PC/SC reader (and readers plugged in later, through the
/// `\\?PnP?\Notification` pseudo-reader) with `SCardGetStatusChange`, and
/// reads each newly presented tag once: UID by `FF CA 00 00 00`, Type 2
/// pages by `FF B0 00 p 10` while the NDEF TLV is incomplete.
///
/// Runs on its own thread; a lost service (pcscd stopped or restarted) is
/// logged once and retried with backoff; `StopSignal` ends it through
/// `SCardCancel`.
struct PCSCTagReader<System: SmartCardSystem>: Sendable {
    let system: System
    let logger: Logger
    /// Only readers whose name contains this (`[nfc] reader`); nil: all.
    var only: String? = nil
    /// The longest single wait: pcsc-lite's `INFINITE`. pcscd wakes us on
    /// every change, `SCardCancel` on stop, and a lost pcscd ends the wait
    /// with an error; a finite bound only re-registered us with pcscd every
    /// 30 s for nothing (bench/agent-idle.sh).
    var waitMilliseconds: UInt32 = 0xFFFF_FFFF
    /// `[nfc] feedback`: whether a reading checks the user in (a rule knows
    /// the tag); the reader then answers the tap (`ReaderFeedback`). Nil: the
    /// reader is left alone (`feedback = false`, `enroll nfc`).
    var judge: (@Sendable (TagReading) -> Bool)? = nil

    /// Card errors tolerated per presentation before waiting for removal.
    static var retriesPerTap: Int { 3 }

    func taps(wantsNDEF: @escaping @Sendable (String) -> Bool) -> AsyncThrowingStream<TagReading, Error> {
        DeviceStream.startThrowing(name: "deskdays-pcsc") { stop, yield in
            run(stop: stop, wantsNDEF: wantsNDEF, yield: yield)
        }
    }

    // MARK: - Service supervision

    func run(stop: StopSignal, wantsNDEF: (String) -> Bool, yield: (TagReading) -> Void) {
        var backoff = Backoff.standard
        var lost = false
        while !stop.isStopped {
            do throws(SCardCallError) {
                let context = try system.establishContext()
                defer {
                    stop.setAbort(nil)
                    system.releaseContext(context)
                }
                let cancel: @Sendable () -> Void = { [system] in system.cancel(context) }
                guard stop.setAbort(cancel) else { return }
                try session(context, stop: stop, wantsNDEF: wantsNDEF, yield: yield) {
                    if lost { logger.notice("PC/SC service is back") }
                    lost = false
                    backoff.reset()
                }
                return
            } catch {
                if error.code == .cancelled, stop.isStopped { return }
                if !lost, error.code == .securityViolation {
                    logger.warning("pcscd refuses this session (its polkit policy; `deskdays doctor` shows the fix); retrying with backoff")
                    lost = true
                } else if !lost {
                    logger.warning("PC/SC service unavailable (\(error)); retrying with backoff")
                    lost = true
                }
                guard stop.sleep(backoff.next()) else { return }
            }
        }
    }

    // MARK: - One connection to pcscd

    private func session(_ context: System.Context, stop: StopSignal, wantsNDEF: (String) -> Bool,
                         yield: (TagReading) -> Void, connected: () -> Void) throws(SCardCallError) {
        var states = [ReaderState(reader: ReaderState.plugAndPlay)]
        var debouncer = TapDebouncer()
        var failures: [String: Int] = [:]
        try synchronize(&states, with: system.listReaders(context), debouncer: &debouncer)
        connected()
        while true {
            do throws(SCardCallError) {
                try system.getStatusChange(context, timeoutMilliseconds: waitMilliseconds, states: &states)
            } catch where error.code == .timeout {
                continue
            } catch where error.code == .cancelled && stop.isStopped {
                return
            }
            var relist = false
            for i in states.indices where states[i].event.contains(.changed) {
                let event = states[i].event
                let before = states[i].current
                states[i].current = event.subtracting(.changed)
                let reader = states[i].reader
                if i == 0 { relist = true; continue }
                if !event.isDisjoint(with: [.unknown, .unavailable, .ignore]) {
                    debouncer.absent(reader)
                    relist = true
                } else if event.contains(.present), !event.contains(.mute) {
                    // pcsc-lite counts card events in the upper 16 bits: a new
                    // count while present is a swap it saw between two calls.
                    if event.rawValue >> 16 != before.rawValue >> 16 { debouncer.absent(reader) }
                    guard debouncer.present(reader) else { continue }
                    do throws(SCardCallError) {
                        if let reading = try read(context, reader: reader, wantsNDEF: wantsNDEF) {
                            yield(reading)
                        }
                    } catch where error.code.isCardGone || error.code == .readerUnavailable {
                        // The tag left during connect/read ("card removed"):
                        // ask again at once; after a few tries wait for removal.
                        failures[reader, default: 0] += 1
                        if failures[reader, default: 0] <= Self.retriesPerTap {
                            debouncer.absent(reader)
                            states[i].current = []
                        }
                    }
                } else if event.contains(.empty) {
                    debouncer.absent(reader)
                    failures[reader] = nil
                    // The re-arm, for tests: the next tag here is a new tap.
                    logger.debug("NFC reader empty", metadata: ["reader": "\(reader)"])
                }
            }
            if relist {
                try synchronize(&states, with: system.listReaders(context), debouncer: &debouncer)
            }
        }
    }

    /// Whether a reader is watched: never a SAM slot (the secure-access
    /// module a dual reader such as the ACR1252U lists beside its contactless
    /// slot: pcsc-lite names it "… SAM …"), and only the configured one when
    /// `[nfc] reader` is set.
    static func watches(_ name: String, only: String?) -> Bool {
        let words = name.split(whereSeparator: { !$0.isLetter && !$0.isNumber })
        if words.contains("SAM") { return false }
        return only.map { name.lowercased().contains($0.lowercased()) } ?? true
    }

    /// Keeps one state entry per present reader after the PnP entry; a new
    /// reader starts `[]` so its current state is reported at once.
    private func synchronize(_ states: inout [ReaderState], with listed: [String],
                             debouncer: inout TapDebouncer) {
        let readers = listed.filter { Self.watches($0, only: only) }
        let known = Set(states.dropFirst().map(\.reader))
        for gone in known.subtracting(readers) {
            debouncer.absent(gone)
            logger.info("NFC reader removed", metadata: ["reader": "\(gone)"])
        }
        states = [states[0]] + readers.map { name in
            states.first { $0.reader == name } ?? ReaderState(reader: name)
        }
        for added in Set(readers).subtracting(known) {
            logger.info("NFC reader ready", metadata: ["reader": "\(added)"])
        }
    }

    // MARK: - One tag

    /// Reads a presented tag; nil when it answers no UID (not a contactless
    /// card the reader can identify).
    private func read(_ context: System.Context, reader: String,
                      wantsNDEF: (String) -> Bool) throws(SCardCallError) -> TagReading? {
        let card = try system.connect(context, reader: reader)
        defer { system.disconnect(card) }
        let response = try system.transmit(card, [0xFF, 0xCA, 0x00, 0x00, 0x00])
        guard response.count > 2, response.suffix(2).elementsEqual([0x90, 0x00]) else { return nil }
        var reading = TagReading(uid: Array(response.dropLast(2)), ndef: .notRead)
        defer { if let judge { answer(card, reader: reader, accepted: judge(reading)) } }
        guard wantsNDEF(reading.uidHex) else { return reading }
        do {
            reading.ndef = try Type2Reading.ndef { page in
                let pages = try system.transmit(card, [0xFF, 0xB0, 0x00, page, 0x10])
                guard pages.count == 18, pages.suffix(2).elementsEqual([0x90, 0x00]) else {
                    throw Type2Reading.Refused()
                }
                return Array(pages.prefix(16))
            }
        } catch let error as SCardCallError {
            throw error
        } catch {
            reading.ndef = .unreadable
        }
        return reading
    }

    /// The reader's light and buzzer answer the tap, while the tag is still
    /// connected; a reader that refuses is left alone (a debug line).
    private func answer(_ card: System.Card, reader: String, accepted: Bool) {
        for command in ReaderFeedback.commands(reader: reader, accepted: accepted) {
            do throws(SCardCallError) {
                switch command {
                case .apdu(let bytes): _ = try system.transmit(card, bytes)
                case .escape(let bytes): _ = try system.control(card, code: ReaderFeedback.escapeCode, bytes)
                case .pause(let milliseconds): usleep(milliseconds * 1000)
                }
            } catch {
                logger.debug("the reader did not take its light and buzzer command", metadata: ["reader": "\(reader)", "error": "\(error)"])
                return
            }
        }
    }
}
