import Localization
import DeskDaysCore

/// The period's calendar as an SVG heatmap (for the HTML report): one
/// small month grid per month, weeks from `week_start`, each day a square
/// coloured by kind and carrying its day number, today ringed.
public struct CalendarHeatmap: Sendable {
    public var data: ReportData
    public var locale: ReportLocale

    static let cell = 26.0, gap = 3.0, monthGap = 24.0, columns = 3
    static let monthWidth = 7 * (cell + gap)
    static let monthHeight = 36 + 6 * (cell + gap)

    public init(data: ReportData, locale: ReportLocale) {
        self.data = data
        self.locale = locale
    }

    /// The first days of the months the period touches (at most 12, the last ones).
    func months() -> [LocalDate] {
        var result: [LocalDate] = []
        var month = data.period.start.firstOfMonth
        while month <= data.period.end {
            result.append(month)
            month = month.addingMonths(1)
        }
        return Array(result.suffix(12))
    }

    public func svg(standalone: Bool = true) -> String {
        let months = months()
        let columns = min(CalendarHeatmap.columns, max(months.count, 1))
        let rows = (months.count + columns - 1) / columns
        let width = Int(Double(columns) * (CalendarHeatmap.monthWidth + CalendarHeatmap.monthGap) + 16)
        // The legend wraps onto more lines rather than run past the edge (a long word in any language).
        let legend = SVG.legendLayout(DayKind.legendOrder.map(\.label), mark: 16, gap: 12, from: 8, to: Double(width) - 8)
        let height = Int(Double(rows) * (CalendarHeatmap.monthHeight + CalendarHeatmap.monthGap) + 40
                         + Double(legend.last?.line ?? 0) * SVG.legendLineHeight)
        let mirror = SVG.Mirror(width: width, direction: locale.textDirection)
        var out = SVG.open(width: width, height: height, id: "heatmap", title: tr("Calendar — \(locale.periodLabel(data.period))"),
                           description: description(), standalone: standalone, direction: locale.textDirection)
        for (index, month) in months.enumerated() {
            let x0 = 8 + Double(index % columns) * (CalendarHeatmap.monthWidth + CalendarHeatmap.monthGap)
            let y0 = 8 + Double(index / columns) * (CalendarHeatmap.monthHeight + CalendarHeatmap.monthGap)
            out += monthGrid(month, x0: x0, y0: y0, mirror: mirror)
        }
        let legendTop = Double(rows) * (CalendarHeatmap.monthHeight + CalendarHeatmap.monthGap) + 40 - 14
        for (kind, place) in zip(DayKind.legendOrder, legend) {
            let (xx, legendY) = (place.x, legendTop + Double(place.line) * SVG.legendLineHeight)
            out += "<rect class=\"k-\(kind.rawValue)\" x=\"\(SVG.n(mirror.box(xx, 12)))\" y=\"\(SVG.n(legendY - 10))\" width=\"12\" height=\"12\"/>"
                + "<text class=\"fg\" x=\"\(mirror.n(xx + 16))\" y=\"\(SVG.n(legendY))\">\(SVG.escape(kind.label))</text>\n"
        }
        out += "</svg>\n"
        return out
    }

    /// What the heatmap shows, for its `<desc>`: the days of each kind.
    func description() -> String {
        let counts = kindCounts().map { tr("\($0.kind.label): \(locale.number($0.days))") }.joined(separator: tr(", "))
        return tr("Each day of the period as a square coloured by how it counts (\(counts)); the table of days lists every one.")
    }

    /// How many days of the period are of each kind (the legend's kinds), for the chart's table.
    public func kindCounts() -> [(kind: DayKind, days: Int)] {
        var counts: [DayKind: Int] = [:]
        for date in data.period.span { counts[data.kind(date), default: 0] += 1 }
        return DayKind.legendOrder.map { ($0, counts[$0] ?? 0) }
    }

    /// "18 Nov 2026: office", with time on site when `min_hours` is set.
    func dayTitle(_ date: LocalDate, kind: DayKind) -> String {
        let day = locale.day(date), label = kind.label
        guard let hours = data.hoursText(date) else { return tr("\(day): \(label)") }
        return tr("\(day): \(label), on site \(hours)")
    }

    func monthGrid(_ first: LocalDate, x0: Double, y0: Double, mirror: SVG.Mirror) -> String {
        let step = CalendarHeatmap.cell + CalendarHeatmap.gap
        var out = "<text class=\"fg\" x=\"\(mirror.n(x0))\" y=\"\(SVG.n(y0 + 12))\" font-weight=\"bold\">"
            + "\(SVG.escape(locale.monthTitle(first)))</text>\n"
        let order = (0..<7).map { Weekday(rawValue: (data.policy.weekStart.rawValue - 1 + $0) % 7 + 1)! }
        for (column, weekday) in order.enumerated() {
            out += "<text class=\"muted\" x=\"\(mirror.n(x0 + Double(column) * step + CalendarHeatmap.cell / 2))\" "
                + "y=\"\(SVG.n(y0 + 28))\" text-anchor=\"middle\" font-size=\"10\">"
                + "\(SVG.escape(locale.weekdayHeader(weekday)))</text>\n"
        }
        let lead = order.firstIndex(of: first.weekday)!
        for day in 0..<LocalDate.daysIn(month: first.month, year: first.year) {
            let date = first.adding(days: day)
            let slot = lead + day
            let x = x0 + Double(slot % 7) * step, y = y0 + 36 + Double(slot / 7) * step
            let kind = data.kind(date)
            out += "<rect class=\"k-\(kind.rawValue)\" x=\"\(SVG.n(mirror.box(x, CalendarHeatmap.cell)))\" y=\"\(SVG.n(y))\" width=\"\(SVG.n(CalendarHeatmap.cell))\" "
                + "height=\"\(SVG.n(CalendarHeatmap.cell))\" rx=\"3\"><title>\(SVG.escape(dayTitle(date, kind: kind)))</title></rect>"
            if date == data.today {
                out += "<rect class=\"today-ring\" x=\"\(SVG.n(mirror.box(x - 1, CalendarHeatmap.cell + 2)))\" y=\"\(SVG.n(y - 1))\" width=\"\(SVG.n(CalendarHeatmap.cell + 2))\" "
                    + "height=\"\(SVG.n(CalendarHeatmap.cell + 2))\" rx=\"4\"/>"
            }
            out += "<text class=\"day-num\" x=\"\(mirror.n(x + CalendarHeatmap.cell / 2))\" y=\"\(SVG.n(y + 17))\" "
                + "text-anchor=\"middle\">\(locale.number(date.day))</text>\n"
        }
        return out
    }
}
