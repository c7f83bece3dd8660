import Foundation

/// The heatmap's colours for other renderers (the app's calendar): read from `SVG.stylesheet`, so the
/// palette, and the contrast ContrastTests checks, stays in one place.
extension DayKind {
    /// Each kind's fill and the day numbers' colour (`#rrggbb`), in the light or the dark palette.
    public static func palette(dark: Bool) -> (fills: [DayKind: String], text: String) {
        let parts = SVG.stylesheet.components(separatedBy: "@media")
        let sheet = dark && parts.count > 1 ? parts[1] : parts[0]
        func colour(_ selector: String, _ property: String) -> String? {
            guard let rule = sheet.range(of: selector + "{") else { return nil }
            let rest = sheet[rule.upperBound...]
            guard let start = rest.range(of: property + ":#") else { return nil }
            return "#" + rest[start.upperBound...].prefix(6)
        }
        var fills: [DayKind: String] = [:]
        for kind in allCases { fills[kind] = colour(".k-\(kind.rawValue)", "fill") }
        return (fills, colour(".day-num", "fill") ?? "#1f2328")
    }
}
