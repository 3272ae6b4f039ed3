internal import Foundation

/// What a fenced code block's info string asks for: ```` ```swift {linenos, 3, 5-7} ````.
///
/// The first word names the language. Options go in braces after it, separated by commas or
/// spaces: a line number or a range marks lines; `linenos` (or `linenos=true`, `false`, `table`,
/// `inline`) numbers them; `start=N` (or `linenostart=N`) numbers from `N`. Hugo's spelling,
/// `hl_lines=[3,"5-7"]`, works too. Anything else in the braces is ignored, so an info string
/// meant for another tool never stops a build.
public struct FenceInfo: Sendable, Hashable {
    /// The language as written (`Swift`, `c++`), or empty.
    public var language: String
    /// Whether the lines are numbered: `nil` when the info string does not say (the site decides).
    public var lineNumbers: Bool?
    /// The number of the first line.
    public var firstLineNumber: Int
    /// The marked lines, as closed ranges of 1-based line numbers (counted from the block's first
    /// line, whatever `firstLineNumber` is).
    public var markedLines: [ClosedRange<Int>]

    /// Parses an info string.
    public init(_ info: String) {
        var rest = Substring(info.trimmingCharacters(in: .whitespaces))
        let languageEnd = rest.firstIndex { $0 == " " || $0 == "\t" || $0 == "{" } ?? rest.endIndex
        language = String(rest[..<languageEnd])
        rest = rest[languageEnd...]
        lineNumbers = nil
        firstLineNumber = 1
        markedLines = []
        guard let open = rest.firstIndex(of: "{") else { return }
        let close = rest[open...].lastIndex(of: "}") ?? rest.endIndex
        parseOptions(rest[rest.index(after: open)..<close])
    }

    /// Whether `line` (1-based, from the block's start) is marked.
    public func isMarked(_ line: Int) -> Bool {
        markedLines.contains { $0.contains(line) }
    }

    private mutating func parseOptions(_ options: Substring) {
        // `hl_lines=[3,"5-7"]` holds commas of its own: split on separators outside brackets.
        var items: [Substring] = []
        var depth = 0
        var start = options.startIndex
        for index in options.indices {
            switch options[index] {
            case "[": depth += 1
            case "]": depth = max(0, depth - 1)
            case ",", " ", "\t":
                guard depth == 0 else { break }
                items.append(options[start..<index])
                start = options.index(after: index)
            default: break
            }
        }
        items.append(options[start...])
        for item in items where !item.isEmpty {
            let parts = item.split(separator: "=", maxSplits: 1)
            let key = parts[0].lowercased()
            let value = parts.count > 1 ? parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"' ")) : nil
            switch key {
            case "linenos":
                lineNumbers = value.map { !["false", "no", "off", "0"].contains($0.lowercased()) } ?? true
            case "start", "linenostart":
                if let value, let number = Int(value), (0...1_000_000_000).contains(number) { firstLineNumber = number }
            case "hl_lines", "mark":
                for range in (value ?? "").split(whereSeparator: { " ,[]\"'".contains($0) }) {
                    addMarked(range)
                }
            default:
                addMarked(item)
            }
        }
    }

    private mutating func addMarked(_ text: Substring) {
        let bounds = text.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard let low = Int(bounds[0]), low >= 1 else { return }
        let high = bounds.count > 1 ? Int(bounds[1]) : low
        guard let high, high >= low else { return }
        markedLines.append(low...high)
    }
}
