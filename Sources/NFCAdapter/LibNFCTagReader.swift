import DeviceThread
import DeskDaysCore
import Logging

/// Polls one libnfc device (`connstring`, e.g. `pn532_uart:/dev/ttyUSB0`)
/// for ISO14443A tags with `nfc_initiator_poll_target`, reads the UID and,
/// when wanted, the Type 2 NDEF area with READ (`30 page`) through
/// `nfc_initiator_transceive_bytes`, then waits for the tag to leave with
/// `nfc_initiator_target_is_present` before re-arming.
///
/// Runs on its own thread; `StopSignal` interrupts a blocking poll with
/// `nfc_abort_command`. A vanished device is logged once and reopened with
/// backoff.
struct LibNFCTagReader<System: NFCChipSystem>: Sendable {
    let system: System
    let connstring: String?
    let logger: Logger
    /// Between presence checks of a resting tag (removal is seen within this).
    var presenceInterval = 0.05

    func taps(wantsNDEF: @escaping @Sendable (String) -> Bool) -> AsyncThrowingStream<TagReading, Error> {
        DeviceStream.startThrowing(name: "deskdays-libnfc") { stop, yield in
            try run(stop: stop, wantsNDEF: wantsNDEF, yield: yield)
        }
    }

    func run(stop: StopSignal, wantsNDEF: (String) -> Bool, yield: (TagReading) -> Void) throws {
        let context = try system.makeContext()
        var backoff = Backoff.standard
        var lost = false
        while !stop.isStopped {
            do throws(LibNFCCallError) {
                let device = try system.open(context, connstring: connstring)
                defer {
                    stop.setAbort(nil)
                    system.close(device)
                }
                let abort: @Sendable () -> Void = { [system] in system.abort(device) }
                guard stop.setAbort(abort) else { return }
                if lost { logger.notice("NFC device is back") }
                lost = false
                backoff.reset()
                try session(device, stop: stop, wantsNDEF: wantsNDEF, yield: yield)
                return
            } catch {
                if stop.isStopped { return }
                if !lost {
                    logger.warning("NFC device unavailable (\(error)); retrying with backoff")
                    lost = true
                }
                guard stop.sleep(backoff.next()) else { return }
            }
        }
    }

    private func session(_ device: System.Device, stop: StopSignal, wantsNDEF: (String) -> Bool,
                         yield: (TagReading) -> Void) throws(LibNFCCallError) {
        while !stop.isStopped {
            let target: System.Target
            do throws(LibNFCCallError) {
                guard let found = try system.pollTypeA(device) else { continue }
                target = found
            } catch where error.code == .operationAborted && stop.isStopped {
                return
            } catch where error.code.isTagGone {
                continue
            }
            var reading = TagReading(uid: system.uid(of: target), ndef: .notRead)
            if wantsNDEF(reading.uidHex) {
                do {
                    reading.ndef = try Type2Reading.ndef { page in
                        do throws(LibNFCCallError) {
                            return try system.transceive(device, [0x30, page], receiveCapacity: 16)
                        } catch where error.code.isTagGone {
                            throw Type2Reading.Refused()
                        }
                    }
                } catch let error as LibNFCCallError {
                    throw error
                } catch {
                    reading.ndef = .unreadable
                }
            }
            yield(reading)
            while try system.isPresent(device, target) {
                guard stop.sleep(presenceInterval) else { return }
            }
        }
    }
}
