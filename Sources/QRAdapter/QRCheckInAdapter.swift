import DeviceThread
import DeskDaysConfig
import DeskDaysCore
import Foundation
import Logging
import QR

/// The QR check-in adapter of the agent.
///
/// In `mode = "watch"` (a desk-mounted camera) it keeps the camera open and
/// looks at `fps` frames a second, skipping frames that barely changed, and
/// reports each sighting of a configured code once. In `mode = "on-demand"`
/// (a laptop webcam) the agent never opens the camera: scans are started by
/// `deskdays checkin --qr`, and this adapter only waits to be cancelled.
///
/// Camera trouble (missing, busy, unplugged) is logged once per change and
/// retried with backoff; it never ends the agent. Payloads are never logged.
public struct QRCheckInAdapter: CheckInAdapter {
    public var source: Source { .qr }

    private let settings: QRSettings
    private let logger: Logger
    private let now: @Sendable () -> Date

    public init(settings: QRSettings, logger: Logger, now: @escaping @Sendable () -> Date = { Date() }) {
        self.settings = settings
        self.logger = logger
        self.now = now
    }

    public func run(emit: @escaping @Sendable (CheckInEvent) async -> Void) async throws {
        guard settings.mode == .watch else {
            logger.info("QR adapter is on-demand: the camera opens only for `deskdays checkin --qr`")
            while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
            return
        }
        let (rules, continuation) = AsyncStream<String>.makeStream()
        let settings = settings, logger = logger, now = now
        async let delivered: Void = {
            for await rule in rules { await emit(CheckInEvent(source: .qr, rule: rule, time: now())) }
        }()
        // The camera's thread, stopped when this task is cancelled: it returns
        // once the thread has closed the camera, so the camera is off on return.
        await DeviceStream.run(name: "deskdays-qr") { stop in
            Self.watch(settings: settings, logger: logger, stop: stop) { continuation.yield($0) }
            continuation.finish()
        }
        await delivered
    }

    /// The camera thread: open, watch, and on failure wait (the shared
    /// `Backoff`) and open again, until stopped.
    static func watch(settings: QRSettings, logger: Logger, stop: StopSignal, sighted: (String) -> Void) {
        let fps = max(1, min(settings.fps, 30))
        let interval = 1.0 / Double(fps)
        let matcher = PayloadMatcher(payloads: settings.payloads, prefixes: settings.prefixes)
        if matcher.isEmpty { logger.warning("[qr] has no payloads or prefixes: no code can check you in") }
        let scanner = QRDecoder()
        var watcher = FrameWatcher(matcher: matcher)
        var backoff = Backoff.standard
        var lastProblem: CameraError?
        let clock = ContinuousClock(), origin = clock.now
        while !stop.isStopped {
            do throws(CameraError) {
                let camera = try V4L2Camera(device: settings.device, framesPerSecond: fps)
                logger.info("camera opened", metadata: [
                    "device": "\(settings.device)", "format": "\(camera.format)", "size": "\(camera.width)x\(camera.height)"])
                lastProblem = nil
                backoff.reset()
                watcher.restart()
                var silent = 0.0
                while stop.sleep(interval) {
                    guard let frame = try camera.latestLuma(timeout: 1) else {
                        silent += 1 + interval
                        // A camera that stops delivering frames is as good as gone: reopen it.
                        if silent > 10 { throw CameraError(.gone, device: settings.device, call: "no frames for 10 s") }
                        continue
                    }
                    silent = 0
                    let time = (clock.now - origin) / .seconds(1)
                    let outcome = watcher.process(frame, at: time) { scanner.scan($0) }
                    if outcome.newUnknownCode { logger.notice("a QR code that matches no rule is in view") }
                    outcome.sightings.forEach(sighted)
                }
                logger.info("camera closed", metadata: ["decoded": "\(watcher.decoded)", "skipped": "\(watcher.skipped)"])
            } catch let problem {
                if problem != lastProblem { logger.warning("\(problem.description) Retrying.") }
                lastProblem = problem
                let delay = backoff.next()
                logger.debug("camera: next attempt in \(delay) s")
                _ = stop.sleep(delay)
            }
        }
    }
}
