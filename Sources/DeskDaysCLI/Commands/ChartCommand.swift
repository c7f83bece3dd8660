import Localization
import CommandSupport
import ArgumentParser
import DeskDaysConfig
import DeskDaysCore
import DeskDaysReports
import Foundation
import Spawn

/// `deskdays chart burndown|weeks`: a self-contained SVG (or PNG through
/// `rsvg-convert`) of the period.
struct ChartCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chart",
        abstract: tr("Draw the period as a chart: burndown (office days against the target) or weeks."))

    /// Which chart: office days through the period, or office days per week.
    enum Kind: String, ExpressibleByArgument, CaseIterable { case burndown, weeks }
    /// The file format; PNG is SVG rendered by librsvg's `rsvg-convert`.
    enum Format: String, ExpressibleByArgument, CaseIterable { case svg, png }

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp(tr("burndown or weeks.")))
    var kind: Kind

    @Option(help: ArgumentHelp(tr("The file to write (e.g. burndown.svg); - writes the SVG to standard output.")))
    var out: String

    @Option(help: ArgumentHelp(tr("svg or png (default: png when --out ends in .png, else svg). PNG needs rsvg-convert.")))
    var format: Format?

    @Option(help: ArgumentHelp(tr("current, previous, or a date YYYY-MM-DD inside the period.")))
    var period = "current"

    func validate() throws {
        guard PeriodSelector(period) != nil else {
            throw ValidationError(tr("--period \(period) is not current, previous or a date written YYYY-MM-DD."))
        }
        if case .containing(let date)? = PeriodSelector(period), !date.isSupported {
            throw ValidationError(tr("--period \(period) is \(LocalDate.unsupportedPhrase)."))
        }
    }

    func run() async throws {
        let chosen = format ?? (out.lowercased().hasSuffix(".png") ? .png : .svg)
        // Fail before any work when the converter is missing.
        let converter = chosen == .png ? try ChartCommand.rsvgConvert() : nil
        let session = try Session(global)
        let data = try session.reportData(PeriodSelector(period)!)
        let svg: String
        switch kind {
        case .burndown: svg = BurndownChart(data: data, locale: session.reportLocale).svg()
        case .weeks: svg = WeeksChart(data: data, locale: session.reportLocale).svg()
        }
        if out == "-" {
            guard converter == nil else { throw CLIError(tr("--out - writes SVG only; give a file name ending in .png for PNG.")) }
            print(svg, terminator: "")
            return
        }
        if let converter {
            try await ChartCommand.convert(svg: svg, to: expandTilde(out), with: converter)
        } else {
            try writeUserFile(expandTilde(out), contents: Data(svg.utf8))
        }
        print(tr("Wrote \(out): \(session.reportLocale.periodLabel(data.report.period))."))
    }

    /// The `rsvg-convert` on PATH, or a user error saying how to get it.
    static func rsvgConvert() throws -> String {
        let path = processEnvironment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(folder)/rsvg-convert") {
            return "\(folder)/rsvg-convert"
        }
        throw CLIError(tr("--format png needs rsvg-convert, which is not installed; install it (apt-get install librsvg2-bin) or write SVG with --format svg."))
    }

    /// Renders `svg` to a PNG at `path` with `rsvg-convert`, reading the SVG from its stdin.
    static func convert(svg: String, to path: String, with converter: String) async throws {
        let result: Program.Output
        do {
            result = try await Program.run(converter, ["--format", "png", "--output", path], input: Array(svg.utf8), stdout: .discard)
        } catch {
            throw CLIError(tr("Cannot run \(converter) (\(ConfigLoader.reason(error))); reinstall librsvg2-bin or use --format svg."))
        }
        guard result.status == 0, !result.terminatedBySignal else {
            let reason = result.stderr.split(whereSeparator: \.isNewline).first.map(String.init) ?? "exit status \(result.status)"
            throw CLIError(tr("rsvg-convert could not write \(path) (\(reason)); choose a writable path or use --format svg."))
        }
        try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
    }
}
