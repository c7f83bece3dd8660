@testable import DeskDaysReports
import Foundation
import Testing

/// WCAG AA for every text colour the report and the charts draw, on what it
/// is drawn on, in the light theme and in the dark one: the ratios are
/// computed from the stylesheets themselves (HTMLReport.pageStyle,
/// SVG.stylesheet, EvidencePage.style), so a palette change that loses
/// contrast fails here.
@Suite struct ContrastTests {
    /// Selector → property → value, for one theme.
    typealias Rules = [String: [String: String]]

    /// The light rules (outside any `@media`) and the dark ones (light
    /// overridden by `@media (prefers-color-scheme: dark)`).
    static func themes(_ css: String) -> (light: Rules, dark: Rules) {
        let marker = "@media (prefers-color-scheme: dark){"
        var lightText = css, darkText = ""
        if let open = css.range(of: marker) {
            // The block ends at the brace that brings the depth back to zero.
            var depth = 1, index = open.upperBound
            while index < css.endIndex, depth > 0 {
                if css[index] == "{" { depth += 1 } else if css[index] == "}" { depth -= 1 }
                index = css.index(after: index)
            }
            darkText = String(css[open.upperBound..<css.index(before: index)])
            lightText = String(css[..<open.lowerBound]) + String(css[index...])
        }
        let light = rules(lightText)
        var dark = light
        for (selector, properties) in rules(darkText) {
            dark[selector, default: [:]].merge(properties) { $1 }
        }
        return (light, dark)
    }

    static func rules(_ css: String) -> Rules {
        var result: Rules = [:]
        let pattern = try! NSRegularExpression(pattern: "([^{}]+)\\{([^{}]*)\\}")
        let text = css as NSString
        for match in pattern.matches(in: css, range: NSRange(location: 0, length: text.length)) {
            let selectors = text.substring(with: match.range(at: 1)).split(separator: ",")
                .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            var properties: [String: String] = [:]
            for declaration in text.substring(with: match.range(at: 2)).split(separator: ";") {
                let parts = declaration.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                if parts.count == 2 { properties[parts[0]] = parts[1] }
            }
            for selector in selectors where !selector.hasPrefix("@") {
                result[selector, default: [:]].merge(properties) { $1 }
            }
        }
        return result
    }

    /// Relative luminance of `#rrggbb`/`#rgb` (WCAG 2.x).
    static func luminance(_ hex: String) throws -> Double {
        var digits = hex.dropFirst().map(String.init)
        if digits.count == 3 { digits = digits.flatMap { [$0, $0] } }
        guard hex.hasPrefix("#"), digits.count == 6 else { throw ContrastError.notAColour(hex) }
        let channels = try stride(from: 0, to: 6, by: 2).map { index -> Double in
            guard let value = Int(digits[index] + digits[index + 1], radix: 16) else { throw ContrastError.notAColour(hex) }
            let c = Double(value) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]
    }

    static func ratio(_ a: String, _ b: String) throws -> Double {
        let (x, y) = (try luminance(a), try luminance(b))
        return (max(x, y) + 0.05) / (min(x, y) + 0.05)
    }

    enum ContrastError: Error { case notAColour(String), missing(String) }

    /// A text colour and the background it sits on, by selector and property.
    struct Pair: CustomStringConvertible {
        var text: String, textProperty: String, background: String, backgroundProperty: String
        var description: String { "\(text) {\(textProperty)} on \(background) {\(backgroundProperty)}" }
    }

    /// Looks up both colours in `rules` and returns the ratio; a background
    /// made translucent would blend with what is under it, so it must not be.
    static func check(_ pair: Pair, _ rules: Rules, theme: String) throws -> Double {
        guard let text = rules[pair.text]?[pair.textProperty] else { throw ContrastError.missing("\(theme): \(pair.text)") }
        guard let background = rules[pair.background]?[pair.backgroundProperty] else {
            throw ContrastError.missing("\(theme): \(pair.background)")
        }
        #expect(rules[pair.background]?["opacity"] == nil, "\(theme): \(pair.background) is translucent")
        return try ratio(text, background)
    }

    static let kinds = ["office", "remote", "excused", "unrecorded", "planned", "holiday"]

    /// The page's text: body text and the muted greys on the page, and the
    /// day kinds' swatches, whose symbol takes the body's colour.
    static let pagePairs: [Pair] = [
        Pair(text: "body", textProperty: "color", background: "body", backgroundProperty: "background"),
        Pair(text: ".sub", textProperty: "color", background: "body", backgroundProperty: "background"),
        Pair(text: ".figures th", textProperty: "color", background: "body", backgroundProperty: "background"),
        Pair(text: "footer", textProperty: "color", background: "body", backgroundProperty: "background"),
        Pair(text: "caption", textProperty: "color", background: "body", backgroundProperty: "background"),
    ] + kinds.map {
        Pair(text: "body", textProperty: "color", background: ".swatch[data-kind=\($0)]", backgroundProperty: "background")
    }

    /// The charts' text: titles, labels and legends on the chart's own
    /// background, and the day numbers on every kind of day square.
    static let chartPairs: [Pair] = [
        Pair(text: ".fg", textProperty: "fill", background: ".bg", backgroundProperty: "fill"),
        Pair(text: ".muted", textProperty: "fill", background: ".bg", backgroundProperty: "fill"),
        Pair(text: ".today-label", textProperty: "fill", background: ".bg", backgroundProperty: "fill"),
        Pair(text: ".day-num", textProperty: "fill", background: ".bg", backgroundProperty: "fill"),
    ] + (kinds + ["pending", "weekend"]).map {
        Pair(text: ".day-num", textProperty: "fill", background: ".k-\($0)", backgroundProperty: "fill")
    }

    @Test func theParserReadsBothThemes() throws {
        let (light, dark) = Self.themes(SVG.stylesheet)
        #expect(light[".bg"]?["fill"] == "#ffffff")
        #expect(dark[".bg"]?["fill"] == "#0d1117")
        // A dark rule that sets one property keeps the light rule's others.
        #expect(dark[".grid"]?["stroke-width"] == "1")
        #expect(try Self.ratio("#000000", "#ffffff") > 20.9)
        #expect(try abs(Self.ratio("#777777", "#ffffff") - 4.48) < 0.01)
    }

    @Test(arguments: ["page", "charts"])
    func textKeepsAAContrastInLightAndDarkThemes(_ which: String) throws {
        let (css, pairs) = which == "page" ? (HTMLReport.pageStyle, Self.pagePairs) : (SVG.stylesheet, Self.chartPairs)
        let (light, dark) = Self.themes(css)
        #expect(light != dark, "no dark theme in the \(which) stylesheet")
        for (theme, rules) in [("light", light), ("dark", dark)] {
            for pair in pairs {
                let ratio = try Self.check(pair, rules, theme: theme)
                #expect(ratio >= 4.5, "\(which), \(theme): \(pair) is \(String(format: "%.2f", ratio)):1, under 4.5:1")
            }
        }
    }

    /// The evidence page is for print: it sets its own white background in
    /// every theme, so its greys need contrast on white only.
    @Test func evidencePageTextKeepsAAContrast() throws {
        let (light, dark) = Self.themes(EvidencePage.style)
        #expect(light == dark, "the evidence page has no dark theme: it always paints white")
        for selector in ["body", ".sub", ".pairs th", ".days tr.off", "footer"] {
            let pair = Pair(text: selector, textProperty: "color", background: "body", backgroundProperty: "background")
            let ratio = try Self.check(pair, light, theme: "print")
            #expect(ratio >= 4.5, "evidence: \(pair) is \(String(format: "%.2f", ratio)):1")
        }
    }
}
