/// A reader for the plain shape most front matter has, which gives the same mapping Yams would
/// or declines.
///
/// Front matter is nearly always a few `key: value` lines: quoted or plain one-line scalars, and
/// tag lists written `[a, b]` or as `- item` lines. Reading that through Yams (libyaml's scanner,
/// events, nodes, then ``YAMLValue``s) was a large share of a build. This reader handles
/// only that shape, with rules narrower than YAML's, and returns `nil` for anything else (any
/// other syntax, an indented line it does not expect, a tab, a repeated key, a character libyaml
/// rejects or treats as a line break); ``YAMLReader`` then reads the text with Yams, which also
/// reports every error. Debug builds check each mapping it returns against Yams'.
@_spi(Fuzzing) public enum SimpleYAML {
    /// Reads front matter in the usual shape.
    ///
    /// - Parameters:
    ///   - yaml: The YAML text.
    ///   - firstLine: The file line on which `yaml` starts.
    /// - Returns: The mapping, equal to what ``YAMLReader`` reads with Yams; `nil` when the text
    ///   is not in the shape this reader handles.
    public static func mapping(from yaml: String, firstLine: Int) -> YAMLMapping? {
        let result = yaml.utf8.withContiguousStorageIfAvailable { bytes -> YAMLMapping? in
            guard hasOnlyPlainCharacters(bytes) else { return nil }
            var reader = Reader(bytes: bytes, firstLine: firstLine)
            return reader.mapping()
        }
        return result ?? nil
    }

    /// Whether `bytes` has only characters this reader takes as they are.
    ///
    /// No tab, no control character, and none of the characters libyaml rejects or reads as line
    /// breaks (C1 controls with NEL, U+2028, U+2029, U+FEFF, U+FFFE, U+FFFF). Everything else is
    /// valid UTF-8 already (it came from a `String`).
    static func hasOnlyPlainCharacters(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if byte < 0x80 {
                if byte < 0x20 && byte != 0x0A || byte == 0x7F { return false }
                index += 1
                continue
            }
            let next = index + 1 < count ? bytes[index + 1] : 0
            let third = index + 2 < count ? bytes[index + 2] : 0
            switch byte {
            case 0xC2 where next < 0xA0: return false  // U+0080–U+009F
            case 0xE2 where next == 0x80 && (third == 0xA8 || third == 0xA9): return false
            case 0xEF where next == 0xBB && third == 0xBF: return false
            case 0xEF where next == 0xBF && (third == 0xBE || third == 0xBF): return false
            default: break
            }
            index += 1
        }
        return true
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        let firstLine: Int
        /// Start of the line being read, and its index (0-based).
        var lineStart = 0
        var lineIndex = 0

        init(bytes: UnsafeBufferPointer<UInt8>, firstLine: Int) {
            self.bytes = bytes
            self.firstLine = firstLine
        }

        mutating func mapping() -> YAMLMapping? {
            var entries: [YAMLMapping.Entry] = []
            var line = currentLine()
            while let range = line {
                if isBlankOrComment(range) {
                    line = nextLine()
                    continue
                }
                guard let (key, afterColon) = key(in: range),
                    !entries.contains(where: { $0.key == key })
                else { return nil }
                let keyLine = lineIndex + firstLine
                let rest = skippingSpaces(afterColon..<range.upperBound)
                let value: YAMLValue
                if rest.isEmpty {
                    line = nextLine()
                    guard let items = blockSequence(&line) else { return nil }
                    value = items.isEmpty ? .null : .list(items)
                } else {
                    guard let scalar = blockValue(rest) else { return nil }
                    value = scalar
                    line = nextLine()
                }
                entries.append(YAMLMapping.Entry(key: key, value: value, line: keyLine, column: 1))
            }
            return YAMLMapping(entries: entries)
        }

        // MARK: Lines

        func currentLine() -> Range<Int>? {
            guard lineStart < bytes.count else { return nil }
            var end = lineStart
            while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
            return lineStart..<end
        }

        mutating func nextLine() -> Range<Int>? {
            guard let line = currentLine() else { return nil }
            lineStart = line.upperBound + 1
            lineIndex += 1
            return currentLine()
        }

        /// Only spaces, or a comment starting in the first column.
        func isBlankOrComment(_ line: Range<Int>) -> Bool {
            if let first = line.first, bytes[first] == UInt8(ascii: "#") { return true }
            return line.allSatisfy { bytes[$0] == UInt8(ascii: " ") }
        }

        func skippingSpaces(_ range: Range<Int>) -> Range<Int> {
            var start = range.lowerBound
            while start < range.upperBound && bytes[start] == UInt8(ascii: " ") { start += 1 }
            return start..<range.upperBound
        }

        func trimmingTrailingSpaces(_ range: Range<Int>) -> Range<Int> {
            var end = range.upperBound
            while end > range.lowerBound && bytes[end - 1] == UInt8(ascii: " ") { end -= 1 }
            return range.lowerBound..<end
        }

        func string(_ range: Range<Int>) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }

        // MARK: Keys and values

        /// A plain ASCII key in the first column (`[A-Za-z0-9_][A-Za-z0-9_-]*`) and the index
        /// after its colon, which must end the line or be followed by a space.
        func key(in line: Range<Int>) -> (String, Int)? {
            var index = line.lowerBound
            while index < line.upperBound, Self.isKeyByte(bytes[index], first: index == line.lowerBound) {
                index += 1
            }
            guard index > line.lowerBound, index < line.upperBound, bytes[index] == UInt8(ascii: ":") else {
                return nil
            }
            let afterColon = index + 1
            guard afterColon == line.upperBound || bytes[afterColon] == UInt8(ascii: " ") else { return nil }
            return (string(line.lowerBound..<index), afterColon)
        }

        static func isKeyByte(_ byte: UInt8, first: Bool) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
                true
            case UInt8(ascii: "-"): !first
            default: false
            }
        }

        /// The `- item` lines after a key with nothing after its colon, all at one indentation.
        ///
        /// Leaves `line` at the first line after them. An empty result means the value is null.
        mutating func blockSequence(_ line: inout Range<Int>?) -> [YAMLValue]? {
            var items: [YAMLValue] = []
            var indentation: Int?
            while let range = line {
                if isBlankOrComment(range) {
                    line = nextLine()
                    continue
                }
                let dash = skippingSpaces(range).lowerBound
                let isItem =
                    dash + 1 < range.upperBound && bytes[dash] == UInt8(ascii: "-")
                    && bytes[dash + 1] == UInt8(ascii: " ")
                guard isItem else {
                    // The next key ends the list; any other line is not this reader's shape.
                    return dash == range.lowerBound ? items : nil
                }
                let indent = dash - range.lowerBound
                guard indentation == nil || indentation == indent else { return nil }
                indentation = indent
                let text = skippingSpaces(dash + 2..<range.upperBound)
                guard !text.isEmpty, let item = blockValue(text, allowsFlow: false) else { return nil }
                items.append(item)
                line = nextLine()
            }
            return items
        }

        /// A value that fills the rest of a line: a quoted scalar, a one-line flow sequence, or a
        /// plain scalar.
        func blockValue(_ text: Range<Int>, allowsFlow: Bool = true) -> YAMLValue? {
            switch bytes[text.lowerBound] {
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                guard let (value, end) = quoted(from: text.lowerBound, in: text),
                    skippingSpaces(end..<text.upperBound).isEmpty
                else { return nil }
                return .string(value)
            case UInt8(ascii: "[") where allowsFlow:
                return flowSequence(text)
            default:
                let plain = trimmingTrailingSpaces(text)
                guard isPlainScalar(plain, inFlow: false) else { return nil }
                return YAMLReader.scalarValue(string(plain), isPlain: true)
            }
        }

        /// `[a, "b", 'c']` on one line, with nothing after the bracket.
        func flowSequence(_ text: Range<Int>) -> YAMLValue? {
            var items: [YAMLValue] = []
            var index = skippingSpaces(text.lowerBound + 1..<text.upperBound).lowerBound
            if index < text.upperBound && bytes[index] == UInt8(ascii: "]") {
                return skippingSpaces(index + 1..<text.upperBound).isEmpty ? .list([]) : nil
            }
            while index < text.upperBound {
                let item: YAMLValue
                let afterItem: Int
                if bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") {
                    guard let (value, end) = quoted(from: index, in: text) else { return nil }
                    item = .string(value)
                    afterItem = end
                } else {
                    var end = index
                    while end < text.upperBound && bytes[end] != UInt8(ascii: ",") && bytes[end] != UInt8(ascii: "]") {
                        end += 1
                    }
                    let plain = trimmingTrailingSpaces(index..<end)
                    guard isPlainScalar(plain, inFlow: true) else { return nil }
                    item = YAMLReader.scalarValue(string(plain), isPlain: true)
                    afterItem = end
                }
                items.append(item)
                index = skippingSpaces(afterItem..<text.upperBound).lowerBound
                guard index < text.upperBound else { return nil }
                if bytes[index] == UInt8(ascii: "]") {
                    return skippingSpaces(index + 1..<text.upperBound).isEmpty ? .list(items) : nil
                }
                guard bytes[index] == UInt8(ascii: ",") else { return nil }
                index = skippingSpaces(index + 1..<text.upperBound).lowerBound
                // `[a,]` and `[a,,b]` are left to Yams.
                guard index < text.upperBound, bytes[index] != UInt8(ascii: ","), bytes[index] != UInt8(ascii: "]")
                else { return nil }
            }
            return nil
        }

        /// A quoted scalar that closes on this line, and the index after its closing quote.
        ///
        /// Double-quoted text may only escape `"` and `\`; any other escape is left to Yams.
        func quoted(from start: Int, in text: Range<Int>) -> (String, Int)? {
            let quote = bytes[start]
            var index = start + 1
            // Most quoted scalars hold no escape: their text is the bytes up to the closing quote.
            while index < text.upperBound, bytes[index] != quote, bytes[index] != UInt8(ascii: "\\") {
                index += 1
            }
            if index < text.upperBound, bytes[index] == quote,
                quote == UInt8(ascii: "\"") || index + 1 >= text.upperBound || bytes[index + 1] != quote
            {
                return (
                    String(decoding: UnsafeBufferPointer(rebasing: bytes[(start + 1)..<index]), as: UTF8.self),
                    index + 1
                )
            }
            var value = Array(bytes[(start + 1)..<index])
            while index < text.upperBound {
                let byte = bytes[index]
                if byte == quote {
                    if quote == UInt8(ascii: "'"), index + 1 < text.upperBound, bytes[index + 1] == quote {
                        value.append(quote)
                        index += 2
                        continue
                    }
                    return (String(decoding: value, as: UTF8.self), index + 1)
                }
                if quote == UInt8(ascii: "\""), byte == UInt8(ascii: "\\") {
                    guard index + 1 < text.upperBound else { return nil }
                    let escaped = bytes[index + 1]
                    guard escaped == UInt8(ascii: "\"") || escaped == UInt8(ascii: "\\") else { return nil }
                    value.append(escaped)
                    index += 2
                    continue
                }
                value.append(byte)
                index += 1
            }
            return nil
        }

        /// A one-line plain scalar this reader is sure YAML reads as its text: it does not start
        /// with an indicator, holds no `: `, ` #` or final `:`, and in a flow sequence no `:`,
        /// `#` or bracket at all.
        func isPlainScalar(_ range: Range<Int>, inFlow: Bool) -> Bool {
            guard let first = range.first else { return false }
            switch bytes[first] {
            case UInt8(ascii: "-"), UInt8(ascii: "?"), UInt8(ascii: ":"), UInt8(ascii: ","), UInt8(ascii: "["),
                UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "#"), UInt8(ascii: "&"),
                UInt8(ascii: "*"), UInt8(ascii: "!"), UInt8(ascii: "|"), UInt8(ascii: ">"), UInt8(ascii: "'"),
                UInt8(ascii: "\""), UInt8(ascii: "%"), UInt8(ascii: "@"), UInt8(ascii: "`"):
                return false
            default:
                break
            }
            if bytes[range.upperBound - 1] == UInt8(ascii: ":") { return false }
            for index in range {
                switch bytes[index] {
                case UInt8(ascii: ":"):
                    if inFlow || bytes[index + 1] == UInt8(ascii: " ") { return false }
                case UInt8(ascii: "#"):
                    if inFlow || bytes[index - 1] == UInt8(ascii: " ") { return false }
                case UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"):
                    if inFlow { return false }
                default:
                    break
                }
            }
            return true
        }
    }
}
