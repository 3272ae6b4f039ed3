/// One piece of an HTML document: a tag, a run of text, a comment, or anything else (a doctype,
/// CDATA, a processing instruction), with the byte range it covers.
public struct HTMLToken: Sendable {
    /// What a token is.
    public enum Kind: Sendable { case startTag, endTag, text, comment, other }

    /// What it is.
    public var kind: Kind
    /// The bytes of the token in the document.
    public var range: Range<Int>
    /// A tag's name, in lower case; empty for other tokens.
    public var name: String = ""
    /// A start tag's attributes, names in lower case and values with character references
    /// decoded, in the order written.
    public var attributes: [(name: String, value: String)] = []
    /// The bytes of each attribute's value as written (inside its quotes; empty, after the name,
    /// for an attribute without a value), in the order of ``attributes``.
    public var valueRanges: [Range<Int>] = []
    /// A start tag written `<x/>`.
    public var isSelfClosing = false

    /// Creates a token.
    ///
    /// - Parameters:
    ///   - kind: What it is.
    ///   - range: The bytes it covers in its document.
    ///   - name: A tag's name, in lower case.
    ///   - attributes: A start tag's attributes.
    ///   - isSelfClosing: Whether a start tag is written `<x/>`.
    public init(
        kind: Kind, range: Range<Int>, name: String = "", attributes: [(name: String, value: String)] = [],
        isSelfClosing: Bool = false
    ) {
        self.kind = kind
        self.range = range
        self.name = name
        self.attributes = attributes
        self.isSelfClosing = isSelfClosing
    }

    /// The value of an attribute, or `nil`.
    public func attribute(_ name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }
}

/// Splits HTML into tokens without building a tree, so that a caller can replace the bytes of
/// one element and leave every other byte as it was.
///
/// It follows the HTML tokenizer where it matters for finding element boundaries: comments,
/// `<!…>` and `<?…>` constructs, CDATA, quoted attribute values that hold `>`, and the raw text
/// of `script`, `style`, `textarea`, `title` and their kind, whose content is never markup.
/// Tag and attribute names are matched in any case.
public enum HTMLScanner {
    /// Elements whose content is text up to their own end tag.
    public static let rawTextElements: Set<String> = [
        "script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "plaintext",
    ]

    /// The document's tokens, in order; together their ranges cover every byte.
    public static func tokens(of bytes: [UInt8]) -> [HTMLToken] {
        var tokens: [HTMLToken] = []
        var index = 0
        let count = bytes.count
        var textStart = 0

        func flushText(upTo end: Int) {
            if end > textStart { tokens.append(HTMLToken(kind: .text, range: textStart..<end)) }
        }

        while index < count {
            guard bytes[index] == UInt8(ascii: "<"), index + 1 < count else {
                index += 1
                continue
            }
            let next = bytes[index + 1]
            if next == UInt8(ascii: "!") {
                flushText(upTo: index)
                let end: Int
                let kind: HTMLToken.Kind
                if starts(bytes, at: index, with: "<!--") {
                    // As a browser ends it: `<!-->` and `<!--->` are whole comments, and `--!>`
                    // ends one as `-->` does.
                    if starts(bytes, at: index, with: "<!-->") {
                        end = index + 5
                    } else if starts(bytes, at: index, with: "<!--->") {
                        end = index + 6
                    } else {
                        let close = find(bytes, "-->", from: index + 4).map { $0 + 3 } ?? count
                        let bang = find(bytes, "--!>", from: index + 4).map { $0 + 4 } ?? count
                        end = min(close, bang)
                    }
                    kind = .comment
                } else if starts(bytes, at: index, with: "<![CDATA[") {
                    end = find(bytes, "]]>", from: index + 9).map { $0 + 3 } ?? count
                    kind = .other
                } else {
                    end = firstIndex(of: UInt8(ascii: ">"), in: bytes, from: index).map { $0 + 1 } ?? count
                    kind = .other
                }
                tokens.append(HTMLToken(kind: kind, range: index..<end))
                index = end
                textStart = end
            } else if next == UInt8(ascii: "?") {
                flushText(upTo: index)
                let end = firstIndex(of: UInt8(ascii: ">"), in: bytes, from: index).map { $0 + 1 } ?? count
                tokens.append(HTMLToken(kind: .other, range: index..<end))
                index = end
                textStart = end
            } else if next == UInt8(ascii: "/"), index + 2 < count, isLetter(bytes[index + 2]) {
                flushText(upTo: index)
                var nameEnd = index + 2
                while nameEnd < count, !isSpace(bytes[nameEnd]), bytes[nameEnd] != UInt8(ascii: ">"),
                    bytes[nameEnd] != UInt8(ascii: "/")
                {
                    nameEnd += 1
                }
                let end = firstIndex(of: UInt8(ascii: ">"), in: bytes, from: nameEnd).map { $0 + 1 } ?? count
                tokens.append(
                    HTMLToken(kind: .endTag, range: index..<end, name: lowercased(bytes[(index + 2)..<nameEnd])))
                index = end
                textStart = end
            } else if isLetter(next) {
                flushText(upTo: index)
                let token = startTag(in: bytes, at: index)
                tokens.append(token)
                index = token.range.upperBound
                textStart = index
                // The content of a raw text element runs to its end tag, whatever it holds (a `/>`
                // counts only in SVG or MathML, where `<title/>` and `<style/>` are empty; a
                // browser ignores it on `<script>`).
                if rawTextElements.contains(token.name), !token.isSelfClosing || token.name == "script" {
                    let close = Array("</\(token.name)".utf8)
                    var search = index
                    var contentEnd = count
                    while let found = findIgnoringCase(bytes, close, from: search) {
                        let after = found + close.count
                        if after >= count || isSpace(bytes[after]) || bytes[after] == UInt8(ascii: ">")
                            || bytes[after] == UInt8(ascii: "/")
                        {
                            contentEnd = found
                            break
                        }
                        search = after
                    }
                    if contentEnd > index { tokens.append(HTMLToken(kind: .text, range: index..<contentEnd)) }
                    index = contentEnd
                    textStart = contentEnd
                }
            } else {
                index += 1
            }
        }
        flushText(upTo: count)
        return tokens
    }

    /// The start tag at `start` (a `<` followed by a letter).
    ///
    /// - Parameters:
    ///   - bytes: The document.
    ///   - start: The index of the tag's `<`, which a letter follows.
    /// - Returns: The tag, its attributes and the bytes it covers.
    public static func startTag(in bytes: [UInt8], at start: Int) -> HTMLToken {
        let count = bytes.count
        var index = start + 1
        while index < count, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: ">"),
            bytes[index] != UInt8(ascii: "/")
        {
            index += 1
        }
        var token = HTMLToken(kind: .startTag, range: start..<count, name: lowercased(bytes[(start + 1)..<index]))
        while index < count {
            let byte = bytes[index]
            if isSpace(byte) {
                index += 1
                continue
            }
            if byte == UInt8(ascii: ">") {
                token.range = start..<(index + 1)
                return token
            }
            if byte == UInt8(ascii: "/") {
                if index + 1 < count, bytes[index + 1] == UInt8(ascii: ">") {
                    token.isSelfClosing = true
                    token.range = start..<(index + 2)
                    return token
                }
                index += 1
                continue
            }
            // An attribute name runs to a space, `/`, `>` or `=` (a leading `=` belongs to it).
            let nameStart = index
            index += 1
            while index < count, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: ">"),
                bytes[index] != UInt8(ascii: "/"), bytes[index] != UInt8(ascii: "=")
            {
                index += 1
            }
            let name = lowercased(bytes[nameStart..<index])
            var valueIndex = index
            while valueIndex < count, isSpace(bytes[valueIndex]) { valueIndex += 1 }
            var value = ""
            var valueRange = index..<index
            if valueIndex < count, bytes[valueIndex] == UInt8(ascii: "=") {
                valueIndex += 1
                while valueIndex < count, isSpace(bytes[valueIndex]) { valueIndex += 1 }
                if valueIndex < count, bytes[valueIndex] == UInt8(ascii: "\"") || bytes[valueIndex] == UInt8(ascii: "'")
                {
                    let quote = bytes[valueIndex]
                    let end = firstIndex(of: quote, in: bytes, from: valueIndex + 1) ?? count
                    value = CharacterReferences.decoded(bytes[(valueIndex + 1)..<end])
                    valueRange = (valueIndex + 1)..<end
                    index = min(end + 1, count)
                } else {
                    let valueStart = valueIndex
                    while valueIndex < count, !isSpace(bytes[valueIndex]), bytes[valueIndex] != UInt8(ascii: ">") {
                        valueIndex += 1
                    }
                    value = CharacterReferences.decoded(bytes[valueStart..<valueIndex])
                    valueRange = valueStart..<valueIndex
                    index = valueIndex
                }
            }
            // The first of two attributes with one name wins, as in a browser.
            if !token.attributes.contains(where: { $0.name == name }) {
                token.attributes.append((name, value))
                token.valueRanges.append(valueRange)
            }
        }
        return token
    }

    // MARK: Bytes

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }

    /// Whether a byte is an ASCII letter.
    public static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    /// ASCII bytes as a lowercased string (a tag or attribute name).
    public static func lowercased(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    private static func starts(_ bytes: [UInt8], at index: Int, with prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        return prefix.withUTF8Buffer { prefix in
            (0..<count).allSatisfy { bytes[index + $0] == prefix[$0] }
        }
    }

    private static func firstIndex(of byte: UInt8, in bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index < bytes.count {
            if bytes[index] == byte { return index }
            index += 1
        }
        return nil
    }

    private static func find(_ bytes: [UInt8], _ needle: StaticString, from start: Int) -> Int? {
        needle.withUTF8Buffer { needle in
            var index = start
            while index + needle.count <= bytes.count {
                if bytes[index] == needle[0], (1..<needle.count).allSatisfy({ bytes[index + $0] == needle[$0] }) {
                    return index
                }
                index += 1
            }
            return nil
        }
    }

    /// `needle` must be lower case.
    private static func findIgnoringCase(_ bytes: [UInt8], _ needle: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + needle.count <= bytes.count {
            if bytes[index] == needle[0],
                (1..<needle.count).allSatisfy({
                    let byte = bytes[index + $0]
                    return (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) == needle[$0]
                })
            {
                return index
            }
            index += 1
        }
        return nil
    }
}

/// Decodes HTML character references (`&amp;`, `&#43;`, `&#x2B;`) in text and attribute values.
public enum CharacterReferences {
    /// The named references that tag lists use; others are kept as written.
    static let named: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}", "shy": "\u{AD}",
        "ndash": "–", "mdash": "—", "hellip": "…", "middot": "·", "bull": "•", "copy": "©", "reg": "®",
        "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”", "plus": "+", "num": "#", "sharp": "♯",
        "period": ".", "comma": ",", "colon": ":", "sol": "/", "excl": "!", "quest": "?", "percnt": "%",
    ]

    /// The text of `bytes` with its character references decoded.
    ///
    /// - Parameter bytes: UTF-8 text or an attribute value.
    /// - Returns: The decoded text.
    public static func decoded(_ bytes: ArraySlice<UInt8>) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.contains("&") else { return text }
        var result = ""
        var rest = text[...]
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            let after = rest[rest.index(after: ampersand)...]
            guard let semicolon = after.prefix(32).firstIndex(of: ";") else {
                result += "&"
                rest = after
                continue
            }
            let name = after[..<semicolon]
            var replacement: String?
            if name.hasPrefix("#x") || name.hasPrefix("#X") {
                replacement = UInt32(name.dropFirst(2), radix: 16).flatMap(Self.scalar)
            } else if name.hasPrefix("#") {
                replacement = UInt32(name.dropFirst()).flatMap(Self.scalar)
            } else {
                replacement = named[String(name)]
            }
            if let replacement {
                result += replacement
                rest = after[after.index(after: semicolon)...]
            } else {
                result += "&"
                rest = after
            }
        }
        return result + rest
    }

    /// A code point as text; a NUL, a surrogate or a value past Unicode is U+FFFD, as in a browser.
    private static func scalar(_ value: UInt32) -> String {
        guard value != 0, let scalar = Unicode.Scalar(value) else { return "\u{FFFD}" }
        return String(Character(scalar))
    }
}
