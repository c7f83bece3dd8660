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

    /// The reply refusing a request for another database (every request, a
    /// subscription too: a follower of another file must not get this one's figures); nil when it is this one's.
    func refusal(_ envelope: ControlProtocol.Envelope) -> Data? {
        guard let database = envelope.database, Self.canonical(database) != Self.canonical(databasePath) else { return nil }
        return ControlProtocol.encode(ControlProtocol.Failure(
            code: "other_database", message: "this agent serves \(databasePath), not \(database)"))
    }

    /// The replies that need no await (the current answer's): given on the
    /// connection's thread; nil for every other request.
    func immediate(_ envelope: ControlProtocol.Envelope) -> Data? {
        guard refusal(envelope) == nil else { return nil }
        switch envelope.request {
        case .status(let format): return answer.statusLine(format)
        case .report: return answer.reply(answer.report())
        default: return nil
        }
    }

    func handle(_ envelope: ControlProtocol.Envelope) async -> Data {
        if let refused = refusal(envelope) { return refused }
        do {
            switch envelope.request {
            case .status(let format), .subscribe(let format):
                return answer.statusLine(format)
            case .advance(let seconds):
                guard let advance = clock.advance else {
                    return ControlProtocol.encode(ControlProtocol.Failure(
                        code: "bad_request", message: "this agent's clock is not manual (DESKDAYS_CLOCK=manual)"))
                }
                advance(.milliseconds(Int64((seconds * 1000).rounded())))
                logger.info("clock advanced by \(seconds) s to \(clock.now().formatted(.iso8601))")
                return ControlProtocol.line(["ok": true, "now": clock.now().formatted(.iso8601)])
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
            case let .event(source, rule, at, kind):
                if let rule, let problem = configuration.ruleNameProblem(rule) {
                    return ControlProtocol.encode(ControlProtocol.Failure(code: "bad_request", message: "\"rule\": \(problem)"))
                }
                let outcome = try await pipeline.submit(CheckInEvent(source: source, rule: rule, time: at, kind: kind))
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
    /// The launcher's requests (docs/cli.md, "The control socket"):
    /// `answer status json|waybar|i3blocks`, `answer report json` or
    /// `follow status json|waybar|i3blocks`, then a tab, the database, a tab,
    /// the configuration file, and (for the formats with words: waybar,
    /// i3blocks) a tab and the sender's `Localization.signature`. The reply (and each push to a follower) is
    /// `ok N` and a newline, then the N bytes `deskdays status --format F` /
    /// `report --json` print, when this agent serves that database and
    /// configuration on the system clock; otherwise `no REASON` and a
    /// newline, and the launcher lets `deskdays-cli` do the work.
    func launcherReply(_ line: Data) -> (reply: Data, follow: StatusFormat?) {
        func no(_ reason: String) -> (Data, StatusFormat?) { (Data("no \(reason)\n".utf8), nil) }
        let text = String(decoding: line, as: UTF8.self)
        let follows = text.hasPrefix("follow ")
        let fields = text.drop { $0 != " " }.dropFirst().split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 3 || fields.count == 4 else { return no("bad request") }
        guard Self.canonical(fields[1]) == Self.canonical(databasePath) else { return no("other database") }
        guard answer.follows(configuration: fields[2]) else { return no("other configuration") }
        guard clock.isSystemClock else { return no("fixed clock") }
        if fields[0] == "report json", !follows { return (frame(answer.report()), nil) }
        guard fields[0].hasPrefix("status "), let format = StatusFormat(rawValue: String(fields[0].dropFirst(7))),
              format != .text else { return no("bad request") }
        guard format == .json || (fields.count == 4 && fields[3] == Localization.signature) else { return no("other language") }
        let reply = frame(answer.status(format))
        return (reply, follows && reply.starts(with: Data("ok ".utf8)) ? format : nil)
    }

    /// `ok N`, a newline and the N bytes of `output`; `no failed` when there is none.
    func frame(_ result: Result<String, ControlProtocol.Failure>) -> Data {
        guard case .success(let output) = result else { return Data("no failed\n".utf8) }
        let bytes = Data(output.utf8)
        return Data("ok \(bytes.count)\n".utf8) + bytes
    }

    static func canonical(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
}

