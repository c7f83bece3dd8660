import DeskDaysCore
import DeviceThread
import Foundation
import GPSAdapter
import Logging
import SystemBus

/// What gpsd's and ModemManager's sources share: one dedicated thread per
/// stream (sd-bus objects belong to the thread that uses them), a stop pipe
/// that ends its `poll()` at once, and reconnecting with backoff when the
/// system bus goes away, logged once per outage. While connected, the thread
/// sleeps in `poll()` on the bus alone: no wake-ups while no fix arrives.
enum BusFixThread {
    /// How one connection ended.
    enum SessionEnd {
        case stopped
        /// The bus connection failed or the bus refused what we asked: why.
        case lost(String)
    }

    /// Runs `session` on a connection to `address` until the stream's consumer
    /// stops; a session that ends with `.lost` is retried after `backoff`.
    static func events(name: String, address: String, backoff: Backoff, logger: Logger,
                       session: @escaping @Sendable (OpaquePointer, StopSignal, (GPSEvent) -> Void) -> SessionEnd)
        -> AsyncStream<GPSEvent> {
        guard BusSupport.isUnixOnly(address) else {
            logger.warning("the system bus address is not a unix socket; GPS fixes from \(name) cannot be read")
            return AsyncStream { $0.finish() }
        }
        return DeviceStream.start(name: "deskdays-gpsbus", buffering: .bufferingNewest(4096)) { stop, yield in
            var delay = backoff
            var inOutage = false
            var connected = false
            while !stop.isStopped {
                switch BusSupport.connect(address) {
                case .failure(let failure):
                    if !inOutage {
                        logger.warning("no system bus for \(name)'s GPS fixes (\(failure.reason)); retrying in the background")
                        inOutage = true
                    }
                case .success(let bus):
                    if inOutage { logger.info("the system bus is back; following \(name) again") }
                    inOutage = false
                    let end = session(bus, stop) { event in
                        if event == .connected {
                            connected = true
                            delay.reset()
                        }
                        yield(event)
                    }
                    BusSupport.close(bus, flush: true)
                    if connected {
                        connected = false
                        yield(.disconnected)
                    }
                    if case .lost(let reason) = end, !stop.isStopped {
                        logger.warning("lost \(name) on the system bus (\(reason)); retrying in the background")
                        inOutage = true
                    }
                }
                _ = stop.sleep(delay.next())
            }
        }
    }
}
