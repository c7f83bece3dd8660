import Localization
import DeskDaysCore

/// `deskdays chart weeks`: office days per week against each week's
/// requirement, as one self-contained SVG.
public struct WeeksChart: Sendable {
    public var data: ReportData
    public var locale: ReportLocale

    public static let width = 800
    public static let height = 360

    public init(data: ReportData, locale: ReportLocale) {
        self.data = data
        self.locale = locale
    }

    /// The chart; `standalone` adds the namespace and stylesheet (false when inlined in HTML).
    public func svg(standalone: Bool = true) -> String {
        let weeks = data.chartWeeks()
        let count = max(weeks.count, 1)
        let left = 48.0, right = 24.0, top = 64.0, bottom = 80.0
        let plotWidth = Double(WeeksChart.width) - left - right
        let plotHeight = Double(WeeksChart.height) - top - bottom
        let slot = plotWidth / Double(count)
        let highest = max(weeks.map(\.office).max() ?? 0, weeks.map(\.required).max() ?? 0, 1)
        let step = SVG.step(maximum: highest, ticks: 5)
        let yTop = (highest + step - 1) / step * step
        // Laid out left to right; `mirror` draws it right to left for such a language.
        let mirror = SVG.Mirror(width: WeeksChart.width, direction: locale.textDirection)
        let m = mirror.n
        func y(_ value: Int) -> Double { top + plotHeight * (1 - Double(value) / Double(yTop)) }
        let bottomY = top + plotHeight
        let n = locale.number

        var out = SVG.open(width: WeeksChart.width, height: WeeksChart.height, id: "weeks", title: title(),
                           description: description(weeks), standalone: standalone, direction: locale.textDirection)
        out += "<text class=\"fg\" x=\"\(m(left))\" y=\"28\" font-size=\"16\" font-weight=\"bold\">\(SVG.escape(title()))</text>\n"
        out += "<text class=\"muted\" x=\"\(m(left))\" y=\"48\">\(SVG.escape(summary(weeks)))</text>\n"

        for value in stride(from: 0, through: yTop, by: step) {
            let yy = SVG.n(y(value))
            out += "<line class=\"grid\" x1=\"\(m(left))\" y1=\"\(yy)\" x2=\"\(m(left + plotWidth))\" y2=\"\(yy)\"/>\n"
            out += "<text class=\"muted\" x=\"\(m(left - 8))\" y=\"\(SVG.n(y(value) + 4))\" text-anchor=\"end\">\(n(value))</text>\n"
        }
        // Label every k-th week so labels (about 50 px) never overlap.
        let every = max(1, Int((56.0 / slot).rounded(.up)))
        for (index, week) in weeks.enumerated() {
            let x0 = left + slot * Double(index)
            let barWidth = slot * 0.6
            let barX = x0 + (slot - barWidth) / 2
            let height = bottomY - y(week.office)
            if week.office > 0 {
                out += "<rect class=\"bar-\(week.verdict.rawValue)\" x=\"\(SVG.n(mirror.box(barX, barWidth)))\" y=\"\(SVG.n(y(week.office)))\" "
                    + "width=\"\(SVG.n(barWidth))\" height=\"\(SVG.n(height))\"><title>\(SVG.escape(tooltip(week)))</title></rect>\n"
            }
            let markY = SVG.n(y(week.required))
            out += "<line class=\"req-mark\" x1=\"\(m(x0 + slot * 0.1))\" y1=\"\(markY)\" "
                + "x2=\"\(m(x0 + slot * 0.9))\" y2=\"\(markY)\"/>\n"
            if slot >= 18, week.office > 0 {
                out += "<text class=\"fg\" x=\"\(m(x0 + slot / 2))\" y=\"\(SVG.n(y(week.office) - 4))\" "
                    + "text-anchor=\"middle\" font-size=\"10\">\(n(week.office))</text>\n"
            }
            if index % every == 0 {
                out += "<text class=\"muted\" x=\"\(m(x0 + slot / 2))\" y=\"\(SVG.n(bottomY + 16))\" "
                    + "text-anchor=\"middle\" font-size=\"10\">\(SVG.escape(locale.dayMonth(week.start)))</text>\n"
            }
        }
        out += "<line class=\"axis\" x1=\"\(m(left))\" y1=\"\(SVG.n(bottomY))\" x2=\"\(m(left + plotWidth))\" y2=\"\(SVG.n(bottomY))\"/>\n"

        let items: [(String, String)] = [
            ("<rect class=\"bar-met\" x=\"0\" y=\"-10\" width=\"12\" height=\"12\"/>", tr("met")),
            ("<rect class=\"bar-missed\" x=\"0\" y=\"-10\" width=\"12\" height=\"12\"/>", tr("missed")),
            ("<rect class=\"bar-open\" x=\"0\" y=\"-10\" width=\"12\" height=\"12\"/>", tr("not over yet")),
            ("<rect class=\"bar-excused\" x=\"0\" y=\"-10\" width=\"12\" height=\"12\"/>", tr("excused")),
            ("<line class=\"req-mark\" x1=\"0\" y1=\"-4\" x2=\"14\" y2=\"-4\"/>", tr("week's requirement")),
        ]
        var xx = left
        for (mark, label) in items {
            out += mirror.legendItem(xx, y: Double(WeeksChart.height) - 20, mark: mark, gap: 20, label: label)
            xx += 32 + SVG.textWidth(label)
        }
        out += "</svg>\n"
        return out
    }

    func tooltip(_ week: WeekOutcome) -> String {
        let start = locale.day(week.start), office = locale.number(week.office), required = locale.number(week.required)
        return trn("Week of \(start): \(office) of \(required) office day", "Week of \(start): \(office) of \(required) office days",
                   week.required)
    }

    /// "Office days per week — Q4 2026".
    public func title() -> String { tr("Office days per week — \(locale.periodLabel(data.period))") }

    /// "7 of 9 weeks met so far".
    func summary(_ weeks: [WeekOutcome]) -> String {
        let met = weeks.filter { $0.verdict == .met }.count
        let judged = weeks.filter { $0.verdict == .met || $0.verdict == .missed }.count
        return trn("\(locale.number(met)) of \(locale.number(judged)) week met so far",
                   "\(locale.number(met)) of \(locale.number(judged)) weeks met so far", judged)
    }

    /// What the chart shows, in a sentence, for its `<desc>`.
    func description(_ weeks: [WeekOutcome]) -> String {
        tr("One bar per week, as high as its office days, with a mark at the office days the week requires: \(summary(weeks)).")
    }

    /// The verdict in words, for the chart's table.
    public static func verdictWords(_ verdict: WeekOutcome.Verdict) -> String {
        switch verdict {
        case .met: return tr("met")
        case .missed: return tr("missed")
        case .open: return tr("not over yet")
        case .excused: return tr("excused")
        }
    }
}
