import Localization
import AgentSocket
import DeskDaysConfig
import DeskDaysControl
import DeskDaysCore
import DeskDaysPipeline
import DeskDaysStore
import Foundation
import Logging

/// Answers control-socket requests; writes go the one way in (`Delivery`),
/// as the adapters', D-Bus's and the tray's do, and a reply is sent only
/// after the write has committed (`synchronous = FULL`).
struct Handler: Sendable {
    let delivery: Delivery
    let answer: CurrentAnswer
    /// For the rule-name check: it knows the identifiers no rule may carry.
    let configuration: Configuration
    let clock: AgentClock
    let logger: Logger
    /// What this agent's answers depend on (its files, clock and language),
    /// as requests are compared with it and answer replies name it.
    let served: AnswerScope
    /// The `[sync]` folder this agent merges and publishes to (nil: none), as `hello` names it.
    let syncFolder: String?

    init(delivery: Delivery, answer: CurrentAnswer, databasePath: String, configPath: String?, syncFolder: String?,
         configuration: Configuration, clock: AgentClock, logger: Logger) {
        self.syncFolder = syncFolder
        self.delivery = delivery
        self.answer = answer
        self.configuration = configuration
        self.clock = clock
        self.logger = logger
        served = .serving(database: databasePath, config: configPath, clock: clock.isSystemClock ? .system : .set,
                          locale: Localization.signature)
    }

    /// The reply refusing a request whose answer would not be its sender's
    /// (`ControlMessage.refusal`: every request, a subscription too); nil when it is.
    func refusal(_ envelope: ControlProtocol.Envelope) -> WireObject? {
        ControlMessage.refusal(envelope.request.cmd, format: envelope.request.format?.rawValue,
                               asked: envelope.scope, served: served).map(ControlMessage.reply)
    }

    /// The replies that need no await (the current answer's): given on the
    /// connection's thread; nil for every other request.
    func immediate(_ envelope: ControlProtocol.Envelope) -> WireObject? {
        switch envelope.request {
        case .status(let format): return reply(answer.status(format))
        case .report: return reply(answer.report())
        case let .plan(prefer, avoid, json): return reply(answer.plan(PlanOptions(prefer: prefer, avoid: avoid), json: json))
        case .hello:
            var reply = served.fields
            reply[.ok] = .bool(true)
            reply[.sync] = syncFolder.map(WireObject.Value.string) ?? .null
            return reply
        default: return nil
        }
    }

    /// A reply carrying the current answer's `output`, and what it was
    /// computed with (`served`: files, clock, language).
    func reply(_ result: Result<String, ControlProtocol.Failure>) -> WireObject {
        switch result {
        case .success(let output):
            var reply = served.fields
            reply[.ok] = .bool(true)
            reply[.output] = .string(output)
            return reply
        case .failure(let failure): return ControlMessage.reply(failure)
        }
    }

    func handle(_ envelope: ControlProtocol.Envelope) async -> WireObject {
        // A write carries its client's request id: should the client have
        // written it itself meanwhile (the agent was slow), it is not done twice.
        await WriteRequest.$current.withValue(envelope.id.map(WriteRequest.init(id:))) { await carryOut(envelope) }
    }

    private func carryOut(_ envelope: ControlProtocol.Envelope) async -> WireObject {
        do {
            switch envelope.request {
            case .status(let format), .subscribe(let format):
                return reply(answer.status(format))
            case .advance(let seconds):
                guard let advance = clock.advance else {
                    return ControlMessage.reply(ControlProtocol.Failure(
                        code: ControlMessage.Code.badRequest, message: "this agent's clock is not manual (DESKDAYS_CLOCK=manual)"))
                }
                advance(.milliseconds(Int64((seconds * 1000).rounded())))
                logger.info("clock advanced by \(seconds) s to \(clock.now().formatted(.iso8601))")
                return WireObject([.ok: .bool(true), .now: .string(clock.now().formatted(.iso8601))])
            case .report:
                return reply(answer.report())
            case let .plan(prefer, avoid, json):
                return reply(answer.plan(PlanOptions(prefer: prefer, avoid: avoid), json: json))
            case .hello:
                return immediate(envelope) ?? ControlMessage.reply(ControlProtocol.Failure(code: ControlMessage.Code.failed, message: "no hello"))
            case let .checkin(dates, status, note):
                let days = dates ?? [configuration.policy.localDate(of: clock.now())]
                try await delivery.record(dates: days, status: status, note: note, door: " through the control socket")
                return WireObject([.ok: .bool(true), .dates: .strings(days.map(\.description)), .status: .string(status.rawValue)])
            case let .clear(date, origins):
                let removed = try await delivery.clear(date: date, origins: origins)
                return WireObject([.ok: .bool(true), .date: .string(date.description), .removed: .strings(removed.map(\.entry))])
            case let .event(source, rule, at, kind):
                if let rule, let problem = configuration.ruleNameProblem(rule) {
                    return ControlMessage.reply(ControlProtocol.Failure(code: ControlMessage.Code.badRequest, message: "\"rule\": \(problem)"))
                }
                let outcome = try await delivery.deliver(CheckInEvent(source: source, rule: rule, time: at, kind: kind),
                                                         door: " through the control socket")
                let stored: Bool
                if case .stored = outcome { stored = true } else { stored = false }
                return WireObject([.ok: .bool(true), .date: .string(outcome.date.description), .stored: .bool(stored)])
            }
        } catch StoreError.alreadyDone {
            logger.notice("a \(envelope.request.cmd) request was carried out already by its client, which stopped waiting; not done twice")
            return ControlMessage.reply(ControlProtocol.Failure(code: ControlMessage.Code.alreadyDone,
                                                                message: "carried out already by its client"))
        } catch {
            logger.error("a control request failed: \(error)")
            return ControlMessage.reply(ControlProtocol.Failure(code: ControlMessage.Code.failed, message: "\(error)"))
        }
    }
}
