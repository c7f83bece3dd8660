import Localization
import DeskDaysCore

/// `deskdays chart burndown`: cumulative office days through the period
/// against the required total and the pace line, today marked and excused
/// days shaded, as one self-contained SVG.
public struct BurndownChart: Sendable {
    public var data: ReportData
    public var locale: ReportLocale

    public static let width = 800
    public static let height = 440

    public init(data: ReportData, locale: ReportLocale) {
        self.data = data
        self.locale = locale
    }

    /// The cumulative series, one entry per date of the period.
    struct Series {
        var kinds: [DayKind] = []
        /// Office days up to and including each date (only dates up to today count).
        var office: [Int] = []
        /// Eligible days up to and including each date.
        var eligible: [Int] = []
        /// Office days plus planned office days ahead, for the projection.
        var projected: [Int] = []
    }

    func series() -> Series {
        var series = Series()
        let span = data.period.span
        series.kinds.reserveCapacity(span.count)
        var office = 0, eligible = 0, projected = 0
        for date in span {
            let kind = data.kind(date)
            series.kinds.append(kind)
            switch kind {
            case .office: office += 1; projected += 1; eligible += 1
            case .planned: projected += 1; eligible += 1
            case .remote, .unrecorded, .pending: eligible += 1
            case .excused, .holiday, .weekend: break
            }
            series.office.append(office)
            series.eligible.append(eligible)
            series.projected.append(projected)
        }
        return series
    }

    /// The chart; `standalone` adds the namespace and stylesheet (false when inlined in HTML).
    public func svg(standalone: Bool = true) -> String {
        let report = data.report, span = data.period.span
        let series = series()
        let days = max(span.count, 1)
        let left = 56.0, right = 24.0, top = 76.0, bottom = 72.0
        let plotWidth = Double(BurndownChart.width) - left - right
        let plotHeight = Double(BurndownChart.height) - top - bottom
        let slot = plotWidth / Double(days)
        let todayIndex = span.start.days(to: data.today)   // may fall outside the period
        let lastCounted = min(todayIndex, days - 1)
        let finalProjected = series.projected.last ?? 0
        let highest = max(report.required, finalProjected, series.office.last ?? 0, 1)
        let step = SVG.step(maximum: highest)
        let yTop = (highest + step - 1) / step * step
        // Laid out left to right; `mirror` draws it right to left for such a language.
        let mirror = SVG.Mirror(width: BurndownChart.width, direction: locale.textDirection)
        let m = mirror.n
        func x(_ index: Int) -> Double { left + slot * Double(index) }
        func y(_ value: Double) -> Double { top + plotHeight * (1 - value / Double(yTop)) }
        let bottomY = top + plotHeight

        let n = locale.number
        var out = SVG.open(width: BurndownChart.width, height: BurndownChart.height, id: "burndown", title: title(),
                           description: description(), standalone: standalone, direction: locale.textDirection)
        out += "<text class=\"fg\" x=\"\(m(left))\" y=\"28\" font-size=\"16\" font-weight=\"bold\">\(SVG.escape(title()))</text>\n"
        let start = locale.day(span.start), end = locale.day(span.end)
        let subtitle = tr("\(start) – \(end) · \(n(report.office)) of \(n(report.required)) required · \(n(report.remainingRequired)) still needed")
        out += "<text class=\"muted\" x=\"\(m(left))\" y=\"48\">\(SVG.escape(subtitle))</text>\n"

        // Excused days: one band per run of consecutive excused dates.
        var index = 0
        while index < series.kinds.count {
            guard series.kinds[index] == .excused else { index += 1; continue }
            var end = index
            while end + 1 < series.kinds.count, series.kinds[end + 1] == .excused { end += 1 }
            out += "<rect class=\"excused-band\" x=\"\(SVG.n(mirror.box(x(index), slot * Double(end - index + 1))))\" y=\"\(SVG.n(top))\" "
                + "width=\"\(SVG.n(slot * Double(end - index + 1)))\" height=\"\(SVG.n(plotHeight))\"/>\n"
            index = end + 1
        }

        // Horizontal grid and y labels.
        for value in stride(from: 0, through: yTop, by: step) {
            let yy = SVG.n(y(Double(value)))
            out += "<line class=\"grid\" x1=\"\(m(left))\" y1=\"\(yy)\" x2=\"\(m(left + plotWidth))\" y2=\"\(yy)\"/>\n"
            out += "<text class=\"muted\" x=\"\(m(left - 8))\" y=\"\(SVG.n(y(Double(value)) + 4))\" text-anchor=\"end\">\(n(value))</text>\n"
        }
        // X ticks: months for long periods, week starts for short ones.
        let byMonth = days > 45
        for (offset, date) in span.enumerated() {
            let isTick = byMonth ? (date.day == 1 || offset == 0) : (date.weekday == data.policy.weekStart || offset == 0)
            guard isTick else { continue }
            let xx = m(x(offset))
            out += "<line class=\"axis\" x1=\"\(xx)\" y1=\"\(SVG.n(bottomY))\" x2=\"\(xx)\" y2=\"\(SVG.n(bottomY + 5))\"/>\n"
            let label = byMonth ? locale.monthShort(date) : locale.dayMonth(date)
            out += "<text class=\"muted\" x=\"\(m(x(offset) + 2))\" y=\"\(SVG.n(bottomY + 18))\">\(SVG.escape(label))</text>\n"
        }
        out += "<line class=\"axis\" x1=\"\(m(left))\" y1=\"\(SVG.n(bottomY))\" x2=\"\(m(left + plotWidth))\" y2=\"\(SVG.n(bottomY))\"/>\n"

        // The required total and the pace line toward it.
        let requiredY = SVG.n(y(Double(report.required)))
        out += "<line class=\"required\" x1=\"\(m(left))\" y1=\"\(requiredY)\" x2=\"\(m(left + plotWidth))\" y2=\"\(requiredY)\"/>\n"
        out += "<text class=\"fg\" x=\"\(m(left + plotWidth - 4))\" y=\"\(SVG.n(y(Double(report.required)) - 6))\" "
            + "text-anchor=\"end\">\(SVG.escape(tr("required \(n(report.required))")))</text>\n"
        let totalEligible = series.eligible.last ?? 0
        var pace = "\(m(x(0))),\(SVG.n(y(0)))"
        for (offset, eligible) in series.eligible.enumerated() {
            let value = totalEligible == 0 ? 0 : Double(report.required) * Double(eligible) / Double(totalEligible)
            pace += " \(m(x(offset + 1))),\(SVG.n(y(value)))"
        }
        out += "<polyline class=\"pace\" points=\"\(pace)\"/>\n"

        // What happened, then what is planned.
        if lastCounted >= 0 {
            var actual = "\(m(x(0))),\(SVG.n(y(0)))"
            for offset in 0...lastCounted {
                actual += " \(m(x(offset + 1))),\(SVG.n(y(Double(series.office[offset]))))"
            }
            out += "<polyline class=\"actual\" points=\"\(actual)\"/>\n"
            if lastCounted + 1 < days, finalProjected > series.office[lastCounted] {
                var planned = "\(m(x(lastCounted + 1))),\(SVG.n(y(Double(series.office[lastCounted]))))"
                for offset in (lastCounted + 1)..<days {
                    planned += " \(m(x(offset + 1))),\(SVG.n(y(Double(series.projected[offset]))))"
                }
                out += "<polyline class=\"planned\" points=\"\(planned)\"/>\n"
            }
        }

        if span.contains(data.today) {
            let xx = m(x(todayIndex) + slot / 2)
            out += "<line class=\"today\" x1=\"\(xx)\" y1=\"\(SVG.n(top - 4))\" x2=\"\(xx)\" y2=\"\(SVG.n(bottomY))\"/>\n"
            out += "<text class=\"today-label\" x=\"\(xx)\" y=\"\(SVG.n(top - 8))\" text-anchor=\"middle\">"
                + "\(SVG.escape(tr("today, \(locale.dayMonth(data.today))")))</text>\n"
        }

        out += legend(y: Double(BurndownChart.height) - 20, left: left, mirror: mirror)
        out += "</svg>\n"
        return out
    }

    /// "Office days — Q4 2026".
    public func title() -> String { tr("Office days — \(locale.periodLabel(data.period))") }

    /// What the chart shows, in a sentence, for its `<desc>`.
    public func description() -> String {
        let report = data.report, n = locale.number
        let start = locale.day(data.period.start), end = locale.day(data.period.end)
        return tr("Office days counted from \(start) to \(end), rising with each office day: \(n(report.office)) of \(n(report.required)) required so far, \(n(report.remainingRequired)) still needed. A dashed line shows the pace that reaches the requirement, a dotted one the required total.")
    }

    /// The chart's figures as rows for a table: the last day of each week
    /// (or month, for long periods) with the office days counted by then
    /// (nil after today), the pace and the required total.
    public func tableRows() -> [(date: LocalDate, office: Int?, planned: Int, pace: Int, required: Int)] {
        let span = data.period.span, series = series(), report = data.report
        let byMonth = span.count > 45
        let totalEligible = series.eligible.last ?? 0
        var rows: [(date: LocalDate, office: Int?, planned: Int, pace: Int, required: Int)] = []
        for (offset, date) in span.enumerated() {
            let next = date.adding(days: 1)
            let closes = offset == span.count - 1
                || (byMonth ? next.day == 1 : next.weekday == data.policy.weekStart)
            guard closes else { continue }
            let pace = totalEligible == 0 ? 0.0 : Double(report.required) * Double(series.eligible[offset]) / Double(totalEligible)
            rows.append((date, date <= data.today ? series.office[offset] : nil, series.projected[offset],
                         Int(pace.rounded(.up)), report.required))
        }
        return rows
    }

    func legend(y: Double, left: Double, mirror: SVG.Mirror) -> String {
        let items: [(String, String)] = [
            ("<line class=\"actual\" x1=\"0\" y1=\"-4\" x2=\"22\" y2=\"-4\"/>", tr("office days")),
            ("<line class=\"pace\" x1=\"0\" y1=\"-4\" x2=\"22\" y2=\"-4\"/>", tr("pace")),
            ("<line class=\"required\" x1=\"0\" y1=\"-4\" x2=\"22\" y2=\"-4\"/>", tr("required")),
            ("<line class=\"planned\" x1=\"0\" y1=\"-4\" x2=\"22\" y2=\"-4\"/>", tr("planned")),
            ("<rect class=\"excused-band\" x=\"0\" y=\"-11\" width=\"22\" height=\"12\"/>", tr("excused")),
            ("<line class=\"today\" x1=\"11\" y1=\"-12\" x2=\"11\" y2=\"2\"/>", tr("today")),
        ]
        var out = "", xx = left
        for (mark, label) in items {
            out += mirror.legendItem(xx, y: y, mark: mark, gap: 28, label: label)
            xx += 40 + SVG.textWidth(label)
        }
        return out
    }
}
