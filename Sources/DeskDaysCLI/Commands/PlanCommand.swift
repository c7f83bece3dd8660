import Localization
import CommandSupport
import ArgumentParser
import DeskDaysAnswer
import DeskDaysControl
import DeskDaysCore
import DeskDaysReports
import Foundation

/// `deskdays plan`: which days to go in (docs/policy.md "Planning").
struct PlanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan", abstract: tr("Plan the fewest office days that meet the target this period."),
        discussion: tr("""
        The plan keeps every office day already planned and adds the fewest open \
        workdays that make the period end met; ties go to preferred weekdays, then \
        to an even spread over the weeks, then to the earliest dates. [plan] prefer \
        and [plan] avoid in the configuration are the defaults the flags add to. \
        Exit status 0 whether or not the target can still be met.
        """))

    @OptionGroup var global: GlobalOptions
    @OptionGroup var socket: SocketOptions

    @Option(help: ArgumentHelp(tr("Weekdays to prefer, such as tue,thu.")))
    var prefer: String?

    @Option(help: ArgumentHelp(tr("A date (YYYY-MM-DD) or range (YYYY-MM-DD..YYYY-MM-DD) not to plan; may repeat.")))
    var avoid: [String] = []

    @Flag(help: ArgumentHelp(tr("Print the plan as JSON (the keys of docs/cli.md).")))
    var json = false

    @Flag(help: ArgumentHelp(tr("Record each new day of the plan as an office plan.")))
    var write = false

    /// The flags' options, checked in one place (`PlanOptions`).
    func flagOptions() throws -> PlanOptions {
        var options = PlanOptions()
        if let prefer {
            switch PlanOptions.weekdays(prefer.split(separator: ",", omittingEmptySubsequences: false).map(String.init)) {
            case .success(let days): options.prefer = days
            case .failure(let problem): throw Self.invalid("--prefer", problem)
            }
        }
        for text in avoid {
            switch PlanOptions.dates(text) {
            case .success(let span): options.avoid.append(span)
            case .failure(let problem): throw Self.invalid("--avoid", problem)
            }
        }
        return options
    }

    /// A flag's bad value, in one sentence that names the flag.
    static func invalid(_ flag: String, _ problem: PlanInputError) -> ValidationError {
        let sentence = problem.sentence
        return ValidationError(tr("\(flag): \(sentence)."))
    }

    func validate() throws {
        _ = try flagOptions()
    }

    func run() async throws {
        let flags = try flagOptions()
        let agent = socket.link()
        if !write, let output = agent.answer(.plan(prefer: flags.prefer, avoid: flags.avoid, json: json), global: global) {
            return writeOutput(output)
        }
        let session = try Session(global, agent: agent)
        let options = session.configuration.plan.adding(flags)
        let answers = session.answers
        guard write else {
            return writeOutput(try answers.planOutput(options, json: json, store: try session.readStore(),
                                                      today: session.today, now: session.now.date))
        }
        let plan = try answers.plan(options, store: try session.readStore(), today: session.today, now: session.now.date)
        // `--write --json`: the plan as it was before writing, its `new` the days written (D-Bus `WritePlan`).
        writeOutput(json ? try answers.planJSON(plan) : answers.planText(plan, options: options))
        guard !plan.new.isEmpty else {
            if !json { print(tr("Nothing to record: no new day.")) }
            return
        }
        // As `checkin --date D` writes each day: through the agent when it runs.
        let id = AgentRoute.newRequestID()
        let note = PlanOrigin.note
        if try AgentRoute.send(.checkin(dates: plan.new, status: .office, note: note), socket: socket, global: global, id: id) == nil {
            let pipeline = try session.pipeline()
            _ = try await AgentRoute.direct(id) { try await pipeline.recordManual(dates: plan.new, status: .office, note: note, today: session.today, planner: true) }
        }
        try session.writeCalendar()
        guard !json else { return }
        let count = plan.new.count
        let days = session.reportLocale.list(plan.new.map { session.reportLocale.day($0) })
        print(trn("Recorded \(count) office plan: \(days).", "Recorded \(count) office plans: \(days).", count))
    }
}
