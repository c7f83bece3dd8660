import DeskDaysConfig
import DeskDaysCore
import DeskDaysPipeline
import DeskDaysStore
import Foundation
import Logging

/// The long-running agent: every enabled adapter feeds the one pipeline,
/// which is the single writer of the store.
///
/// Each adapter runs in its own child task under a supervisor that restarts
/// it with exponential backoff when it ends or fails, so one broken device
/// never takes the others or the pipeline down. Cancelling `run()` (SIGTERM,
/// SIGINT) cancels every adapter; adapters interrupt their blocking waits
/// on cancellation.
public final class Agent: Sendable {
    let pipeline: CheckInPipeline
    let logger: Logger
    let adapters: [AdapterRegistry.Entry]
    let unavailable: [String]

    public init(configuration: Configuration, store: AttendanceStore,
                logger: Logger = Logger(label: "deskdays.agent")) {
        self.pipeline = CheckInPipeline(store: store, policy: configuration.policy)
        self.logger = logger
        (adapters, unavailable) = AdapterRegistry.adapters(for: configuration, logger: logger)
    }

    /// What the agent will watch, for the start-up message.
    public var summary: String {
        var parts = adapters.isEmpty ? ["no adapter enabled"] : ["watching: " + adapters.map(\.name).joined(separator: ", ")]
        if !unavailable.isEmpty {
            parts.append("not available in this build: " + unavailable.joined(separator: ", "))
        }
        return parts.joined(separator: "; ")
    }

    /// Runs until cancelled.
    public func run() async {
        for name in unavailable {
            logger.warning("\(name) is enabled in the configuration but not available in this build; it is ignored")
        }
        await withTaskGroup(of: Void.self) { group in
            for entry in adapters {
                group.addTask { await self.supervise(entry) }
            }
            // Keep the agent alive with no adapters (manual check-ins still work).
            group.addTask {
                while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
            }
            await group.waitForAll()
        }
        logger.info("agent stopped")
    }

    /// Runs one adapter, restarting it with backoff (1 s doubling to 60 s,
    /// reset after a minute of healthy running) until cancelled.
    func supervise(_ entry: AdapterRegistry.Entry) async {
        var delay: Duration = .seconds(1)
        while !Task.isCancelled {
            let started = ContinuousClock.now
            do {
                try await entry.adapter.run { event in await self.deliver(event) }
                if Task.isCancelled { return }
                logger.warning("\(entry.name) adapter stopped; restarting in \(delay)")
            } catch is CancellationError {
                return
            } catch {
                if Task.isCancelled { return }
                logger.error("\(entry.name) adapter failed (\(error)); restarting in \(delay)")
            }
            if ContinuousClock.now - started > .seconds(60) { delay = .seconds(1) }
            try? await Task.sleep(for: delay)
            delay = min(delay * 2, .seconds(60))
        }
    }

    /// Hands an event to the pipeline; a store failure is logged, never fatal.
    func deliver(_ event: CheckInEvent) async {
        do {
            switch try await pipeline.submit(event) {
            case .stored(let date):
                logger.notice("\(event.source.rawValue) check-in stored for \(date)", metadata: ["rule": "\(event.rule ?? "-")"])
            case .duplicate(let date):
                logger.info("\(event.source.rawValue) check-in for \(date) already stored")
            }
        } catch {
            logger.error("could not store a \(event.source.rawValue) check-in: \(error)")
        }
    }
}
