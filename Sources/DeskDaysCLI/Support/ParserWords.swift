import Foundation
import Localization

/// swift-argument-parser's error sentences in the catalog's words
/// (docs/cli.md "Languages"). The parser writes them in English with no way
/// to translate, so each shape it can produce is recognised here and said
/// again as one catalog message; a shape it adds later stays in English.
enum ParserWords {
    static func translate(_ english: String) -> String {
        for shape in shapes {
            if let words = shape(english) { return words }
        }
        return english
    }

    /// The parts of `text` around fixed pieces: `parts("a 'x' b", "a '", "' b")` is ["x"].
    private static func parts(_ text: String, _ pieces: String...) -> [String]? {
        guard let first = pieces.first, text.hasPrefix(first) else { return nil }
        var rest = text.dropFirst(first.count)
        var found: [String] = []
        for piece in pieces.dropFirst() {
            if piece.isEmpty { found.append(String(rest)); rest = ""; continue }
            guard let range = rest.range(of: piece) else { return nil }
            found.append(String(rest[..<range.lowerBound]))
            rest = rest[range.upperBound...]
        }
        return rest.isEmpty ? found : nil
    }

    private static let shapes: [@Sendable (String) -> String?] = [
        { text in
            // "The value 'x' is invalid for '--status <status>': reason"
            guard let p = parts(text, "The value '", "' is invalid for '", "': ", "") else { return nil }
            return tr("'\(p[0])' is not a value for \(p[1]): \(p[2])")
        },
        { text in
            // "… '--status <status>'. Please provide one of 'a', 'b' or 'c'."
            guard let p = parts(text, "The value '", "' is invalid for '", "'. Please provide one of ", "") else { return nil }
            let lines = p[2].split(separator: "\n").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " -.:")) }
            let list = lines.first == "the following"
                ? lines.dropFirst().joined(separator: ", ")
                : p[2].trimmingCharacters(in: CharacterSet(charactersIn: "."))
                    .replacingOccurrences(of: "' and '", with: "', '").replacingOccurrences(of: "' or '", with: "', '")
            return tr("'\(p[0])' is not a value for \(p[1]); use one of: \(list)")
        },
        { text in
            guard let p = parts(text, "The value '", "' is invalid for '", "'") else { return nil }
            return tr("'\(p[0])' is not a value for \(p[1])")
        },
        { text in
            guard let p = parts(text, "Unknown option '", "'. Did you mean '", "'?") else { return nil }
            return tr("There is no option \(p[0]); did you mean \(p[1])?")
        },
        { text in
            guard let p = parts(text, "Unknown option '", "'") ?? parts(text, "Invalid option: ", "") else { return nil }
            return tr("There is no option \(p[0])")
        },
        { text in
            guard let p = parts(text, "Missing value for '", "'") else { return nil }
            return tr("\(p[0]) needs a value")
        },
        { text in
            guard let p = parts(text, "Missing expected argument '", "'") ?? parts(text, "Missing one of: '", "'") else { return nil }
            return tr("\(p[0]) is missing")
        },
        { text in
            guard let p = parts(text, "Unexpected argument '", "'") else { return nil }
            return tr("'\(p[0])' was not expected here")
        },
        { text in
            guard let p = parts(text, "", " unexpected arguments: '", "'"), Int(p[0]) != nil else { return nil }
            return tr("'\(p[1])' were not expected here")
        },
        { text in
            guard let p = parts(text, "The option '", "' does not take any value, but '", "' was specified.") else { return nil }
            return tr("\(p[0]) takes no value, but '\(p[1])' was given")
        },
        { text in
            guard let p = parts(text, "Value to be set with ", " had already been set with ", "") else { return nil }
            return tr("\(p[0]) repeats \(p[1]); give it once")
        },
        { text in
            text == "Missing required subcommand." ? tr("Name a command") : nil
        },
    ]
}
