import Localization
import DeskDaysCore
import Foundation

/// Small helpers shared by the SVG charts: escaping, coordinates, and the
/// one stylesheet that makes every chart readable on light and dark viewers.
enum SVG {
    /// Text content and attribute values with XML's five special characters escaped.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }

    /// A coordinate with one decimal, locale-independent (SVG needs a dot).
    static func n(_ value: Double) -> String {
        let tenths = (value * 10).rounded()
        let whole = Int(tenths) / 10, fraction = abs(Int(tenths) % 10)
        let sign = tenths < 0 && whole == 0 ? "-" : ""
        return fraction == 0 ? "\(sign)\(whole)" : "\(sign)\(whole).\(fraction)"
    }

    /// The opening tag. Standalone files carry the namespace; SVG inlined in
    /// HTML needs none (and so the page names no URL at all). The chart is
    /// one image to assistive technology, named by its `<title>` and
    /// described by its `<desc>` (`id` keeps both unique within a page).
    /// `direction` is the language's (`Mirror`): a right-to-left chart is
    /// laid out mirrored, so its text anchors mirror with it and its
    /// sentences keep their order (dates and figures inside Arabic words);
    /// inlined, the chart states it rather than inheriting the page's.
    static func open(width: Int, height: Int, id: String, title: String, description: String, standalone: Bool,
                     direction: String = "ltr") -> String {
        let namespace = (standalone ? " xmlns=\"http://www.w3.org/2000/svg\"" : "")
            + (standalone && direction == "ltr" ? "" : " direction=\"\(direction)\"")
        var text = "<svg\(namespace) width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\" "
            + "role=\"img\" aria-labelledby=\"\(id)-title \(id)-desc\" font-family=\"sans-serif\" font-size=\"12\">\n"
            + "<title id=\"\(id)-title\">\(escape(title))</title>\n<desc id=\"\(id)-desc\">\(escape(description))</desc>\n"
        if standalone { text += "<style>\n\(stylesheet)</style>\n" }
        text += "<rect class=\"bg\" x=\"0\" y=\"0\" width=\"\(width)\" height=\"\(height)\"/>\n"
        return text
    }

    /// A chart's horizontal layout: computed left to right, and drawn
    /// mirrored for a language written right to left (the first weekday
    /// column, the y axis and the start of time on the right). Text anchors
    /// need no change: under `direction="rtl"` `start` is the right end.
    struct Mirror {
        var width: Double
        var rtl: Bool

        init(width: Int, direction: String) {
            self.width = Double(width)
            rtl = direction == "rtl"
        }

        /// A point's x.
        func x(_ value: Double) -> Double { rtl ? width - value : value }

        /// The left edge of a box laid out from `left`, `size` wide.
        func box(_ left: Double, _ size: Double) -> Double { rtl ? width - left - size : left }

        /// `x` formatted for an attribute.
        func n(_ value: Double) -> String { SVG.n(x(value)) }

        /// A legend entry at `left`: its mark (drawn from 0 rightwards) and
        /// its label `gap` after it, both on the reading side.
        func legendItem(_ left: Double, y: Double, mark: String, gap: Double, label: String) -> String {
            "<g transform=\"translate(\(n(left)) \(SVG.n(y)))\">" + (rtl ? "<g transform=\"scale(-1 1)\">\(mark)</g>" : mark)
                + "<text class=\"fg\" x=\"\(SVG.n(rtl ? -gap : gap))\" y=\"0\">\(escape(label))</text></g>\n"
        }
    }

    /// Colours per class: a light palette, and a dark one when the viewer
    /// prefers it. Text keeps WCAG AA contrast (4.5:1) on what it is drawn
    /// on, in both (checked by ContrastTests: the day numbers on each
    /// `k-*` fill, `fg`/`muted`/`today-label` on `bg`). Plain class rules (no custom properties) so that librsvg,
    /// browsers and image viewers all apply them. Every chart paints its own
    /// background, so it stays legible even where media queries are ignored.
    static let stylesheet = """
    .bg{fill:#ffffff}
    .fg{fill:#1f2328}
    .muted{fill:#59636e}
    .grid{stroke:#d1d9e0;stroke-width:1}
    .axis{stroke:#59636e;stroke-width:1}
    .excused-band{fill:#e9d8fd;opacity:0.6}
    .actual{fill:none;stroke:#1a7f37;stroke-width:2.5}
    .pace{fill:none;stroke:#9a6700;stroke-width:1.5;stroke-dasharray:6 4}
    .required{stroke:#cf222e;stroke-width:1.5;stroke-dasharray:2 3}
    .planned{fill:none;stroke:#1a7f37;stroke-width:1.5;stroke-dasharray:3 3;opacity:0.7}
    .today{stroke:#0969da;stroke-width:1.5}
    .today-label{fill:#0969da}
    .bar-met{fill:#2da44e}
    .bar-missed{fill:#d4a72c}
    .bar-open{fill:#8c959f}
    .bar-excused{fill:#c297ff}
    .req-mark{stroke:#cf222e;stroke-width:2.5}
    .k-office{fill:#2da44e}
    .k-remote{fill:#54aeff}
    .k-excused{fill:#c297ff}
    .k-unrecorded{fill:#ff8182}
    .k-planned{fill:#aceebb}
    .k-pending{fill:#eaeef2}
    .k-holiday{fill:#76e3ea}
    .k-weekend{fill:#f6f8fa}
    .day-num{fill:#1f2328;font-size:10px}
    .today-ring{fill:none;stroke:#0969da;stroke-width:2.5}
    @media (prefers-color-scheme: dark){
    .bg{fill:#0d1117}
    .fg{fill:#e6edf3}
    .muted{fill:#9198a1}
    .grid{stroke:#30363d}
    .axis{stroke:#9198a1}
    .excused-band{fill:#6e40c9;opacity:0.35}
    .actual{stroke:#3fb950}
    .pace{stroke:#d29922}
    .required{stroke:#f85149}
    .planned{stroke:#3fb950}
    .today{stroke:#4493f8}
    .today-label{fill:#4493f8}
    .bar-met{fill:#238636}
    .bar-missed{fill:#bb8009}
    .bar-open{fill:#6e7681}
    .bar-excused{fill:#8957e5}
    .req-mark{stroke:#f85149}
    .k-office{fill:#196c2e}
    .k-remote{fill:#1158c7}
    .k-excused{fill:#6e40c9}
    .k-unrecorded{fill:#b62324}
    .k-planned{fill:#1a4d2b}
    .k-pending{fill:#21262d}
    .k-holiday{fill:#136061}
    .k-weekend{fill:#161b22}
    .day-num{fill:#e6edf3}
    .today-ring{stroke:#4493f8}
    }

    """

    /// About how wide `text` is drawn at the charts' 12 px, for laying out
    /// legends: 7 px a column, by display width, so a Japanese or Chinese
    /// character (two columns, drawn a full em wide) is not counted as a letter.
    static func textWidth(_ text: String) -> Double { Double(Localization.displayWidth(text)) * 7 }

    /// Where each legend item goes (its left edge and line, from 0): items
    /// of `mark` + label width + `gap` side by side from `from`, a new line
    /// when the next would pass `to`, so no label runs off the chart.
    static func legendLayout(_ labels: [String], mark: Double, gap: Double, from: Double, to: Double) -> [(x: Double, line: Int)] {
        var places: [(x: Double, line: Int)] = []
        var x = from, line = 0
        for label in labels {
            let width = mark + textWidth(label)
            if x > from, x + width > to {
                x = from
                line += 1
            }
            places.append((x, line))
            x += width + gap
        }
        return places
    }

    /// The height of one line of a legend.
    static let legendLineHeight = 18.0

    /// A "nice" axis step (1, 2, 5 × 10ⁿ) giving at most about `ticks` ticks up to `maximum`.
    static func step(maximum: Int, ticks: Int = 6) -> Int {
        var step = 1
        while true {
            for factor in [1, 2, 5] where maximum <= step * factor * ticks { return step * factor }
            step *= 10
        }
    }
}
