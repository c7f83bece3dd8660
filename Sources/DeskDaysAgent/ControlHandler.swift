import DeskDaysConfig
import DeskDaysCore
import DeskDaysPipeline
import Foundation
import Logging

/// Answers control-socket requests by calling the agent's pipeline: the
/// socket never writes the store any other way, and a reply is sent only
/// after the pipeline's write has committed (`synchronous = FULL`).
struct Handler: Sendable {
    let pipeline: CheckInPipeline
    let answer: CurrentAnswer
    let databasePath: String
    /// For the rule-name check: it knows the identifiers no rule may carry.
    let configuration: Configuration
    let clock: AgentClock
    let logger: Logger

    func handle(_ envelope: ControlProtocol.Envelope) async -> Data {
        if let database = envelope.database, Self.canonical(database) != Self.canonical(databasePath) {
            return ControlProtocol.encode(ControlProtocol.Failure(
                code: "other_database", message: "this agent serves \(databasePath), not \(database)"))
        }
        do {
            switch envelope.request {
            case .status(let format), .subscribe(let format):
                return answer.statusLine(format)
            case .report:
                return answer.reply(answer.report())
            case let .checkin(dates, status, note):
                let days = dates ?? [configuration.policy.localDate(of: clock.now())]
                try await pipeline.recordManual(dates: days, status: status, note: note)
                logger.notice("manual \(status.rawValue) recorded for \(days.count) date(s) through the control socket")
                return ControlProtocol.line(["ok": true, "dates": days.map(\.description), "status": status.rawValue])
            case let .clear(date, origins):
                let removed = try await pipeline.clear(date: date, origins: origins)
                return ControlProtocol.line(["ok": true, "date": date.description, "removed": removed.map(\.entry)])
            case let .event(source, rule, at):
                if let rule, let problem = configuration.ruleNameProblem(rule) {
                    return ControlProtocol.encode(ControlProtocol.Failure(code: "bad_request", message: "\"rule\": \(problem)"))
                }
                let outcome = try await pipeline.submit(CheckInEvent(source: source, rule: rule, time: at))
                if case .stored = outcome {
                    logger.notice("\(source.rawValue) check-in stored for \(outcome.date) through the control socket")
                }
                let stored: Bool
                if case .stored = outcome { stored = true } else { stored = false }
                return ControlProtocol.line(["ok": true, "date": outcome.date.description, "stored": stored])
            }
        } catch {
            logger.error("a control request failed: \(error)")
            return ControlProtocol.encode(ControlProtocol.Failure(code: "failed", message: "\(error)"))
        }
    }

    /// The same file named two ways (relative, through a symlink) compares equal.
    static func canonical(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
}

