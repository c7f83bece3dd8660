import DeviceThread
#if canImport(Glibc)
import Glibc
#endif
import DeskDaysCore
import Foundation
import Logging
import NMEA
import Synchronization

/// Reads NMEA from a serial GPS receiver on a dedicated thread and reports
/// fixes, surviving the device vanishing and returning.
///
/// The thread blocks in `poll()` on the device and on the stop flag's pipe,
/// without a timeout: an idle receiver costs no wake-ups, and a stop request
/// ends the wait at once. When the device goes
/// away (USB unplug, suspend, a closed pty) the current cycle is flushed,
/// `.disconnected` is reported and the path is reopened with backoff, so a
/// receiver that returns under a new `/dev/ttyACMn` behind the same udev
/// symlink is picked up. An outage is logged once, not at every retry.
/// Positions are never logged.
public struct NMEASerialReader: FixSource {
    public let path: String
    public let baud: Int
    public let backoff: Backoff
    private let logger: Logger

    public init(path: String, baud: Int, backoff: Backoff = .standard,
                logger: Logger = Logger(label: "deskdays.gps")) {
        self.path = path
        self.baud = baud
        self.backoff = backoff
        self.logger = logger
    }

    /// Starts the reader thread. It stops when the stream's consumer stops
    /// iterating (task cancelled, stream dropped).
    public func events() -> AsyncStream<GPSEvent> {
        let reader = self
        return DeviceStream.start(name: "deskdays-gps", buffering: .bufferingNewest(4096)) { stop, yield in
            reader.loop(stop: stop, report: yield)
        }
    }

    private func loop(stop: StopSignal, report: (GPSEvent) -> Void) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 16)
        defer { buffer.deallocate() }
        var delay = backoff
        var inOutage = false
        while !stop.isStopped {
            let port: SerialPort
            do {
                port = try SerialPort(path: path, baud: baud)
            } catch {
                if !inOutage {
                    logger.warning("GPS receiver \(path) unavailable (\(error)); retrying in the background")
                    inOutage = true
                }
                _ = stop.sleep(delay.next())
                continue
            }
            logger.info(inOutage ? "GPS receiver \(path) is back" : "GPS receiver \(path) opened at \(baud) baud")
            inOutage = false
            delay.reset()
            report(.connected)
            var decoder = NMEAStreamDecoder()
            reading: while !stop.isStopped {
                switch port.read(into: buffer, interrupt: stop.descriptor) {
                case .data(let count):
                    decoder.feed(buffer: UnsafeRawBufferPointer(rebasing: buffer[..<count])) { report(.fix($0)) }
                case .interrupted:
                    continue
                case .lost(let error):
                    decoder.finish { report(.fix($0)) }
                    logger.warning("GPS receiver \(path) lost (\(error)); will reopen when it returns")
                    inOutage = true
                    report(.disconnected)
                    break reading
                }
            }
            let rejected = decoder.statistics.rejected
            if rejected > 0 {
                logger.debug("GPS: \(rejected) sentences rejected (bad checksum or framing) on \(path)")
            }
        }
    }

}

