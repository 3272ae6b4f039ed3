internal import TagflowHTML

/// Writes a highlighted block's HTML as its tokens arrive, a line at a time.
///
/// Each line is a `<span class="line">` holding its own line break, so a marked line can be a
/// block with a background, and line numbers are CSS counters: copying the code copies no numbers.
struct CodeHTMLWriter {
    private let info: FenceInfo
    private let lineNumbers: Bool
    private var html: [UInt8] = []
    private var line = 1
    private var lineOpen = false
    /// The class of the token span open in this line, if one is.
    private var openClass: TokenClass?

    init(info: FenceInfo, lineNumbers: Bool) {
        self.info = info
        self.lineNumbers = lineNumbers
        html.reserveCapacity(256)
        writeFrame()
    }

    /// Starts again from the frame (after the library gave up part way through a block).
    mutating func reset() {
        html.removeAll(keepingCapacity: true)
        line = 1
        lineOpen = false
        openClass = nil
        writeFrame()
    }

    mutating func writeToken(element: UnsafePointer<CChar>, text: UnsafeRawBufferPointer) {
        if !lineOpen { openLine() }
        let tokenClass = Self.tokenClass(for: element)
        if tokenClass != openClass {
            if openClass != nil { append("</span>") }
            if let tokenClass {
                append("<span class=\"tok-")
                html.append(contentsOf: tokenClass.rawValue.utf8)
                append("\">")
            }
            openClass = tokenClass
        }
        HTMLEscaping.appendEscaped(text.assumingMemoryBound(to: UInt8.self), to: &html)
    }

    mutating func endLine() {
        if !lineOpen { openLine() }
        if openClass != nil { append("</span>") }
        openClass = nil
        append("\n</span>")
        lineOpen = false
        line += 1
    }

    /// Writes code as escaped text, a span per line.
    mutating func writePlain(_ bytes: UnsafeBufferPointer<UInt8>) {
        var start = 0
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            openLine()
            HTMLEscaping.appendEscaped(UnsafeBufferPointer(rebasing: bytes[start..<end]), to: &html)
            append("\n</span>")
            lineOpen = false
            line += 1
            start = end + 1
        }
    }

    mutating func finish() -> String {
        if lineOpen { endLine() }
        append("</code></pre>\n")
        return String(decoding: html, as: UTF8.self)
    }

    private mutating func writeFrame() {
        append("<pre class=\"code")
        if lineNumbers { append(" numbered") }
        append("\"")
        let language = Self.safeLanguage(info.language)
        if !language.isEmpty {
            append(" data-lang=\"")
            HTMLEscaping.appendEscaped(language, to: &html)
            append("\"")
        }
        if lineNumbers, info.firstLineNumber != 1 {
            html.append(contentsOf: " style=\"counter-reset: line \(info.firstLineNumber - 1)\"".utf8)
        }
        append("><code")
        if !language.isEmpty {
            append(" class=\"language-")
            HTMLEscaping.appendEscaped(language, to: &html)
            append("\"")
        }
        append(">")
    }

    private mutating func openLine() {
        append(info.isMarked(line) ? "<span class=\"line marked\">" : "<span class=\"line\">")
        lineOpen = true
    }

    private mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { html.append(contentsOf: $0) }
    }

    /// The language name as a class: the letters, digits and `+#._-` it has, lowercased (a name
    /// with HTML in it loses the HTML).
    static func safeLanguage(_ language: String) -> String {
        String(
            language.lowercased().unicodeScalars.filter {
                $0.isASCII
                    && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+#._-".unicodeScalars.contains($0))
            }.prefix(40))
    }

    /// The theme's class for one of Source-highlight's element names, or `nil` for plain text
    /// (punctuation, brackets, and what the definitions call `normal`).
    static func tokenClass(for element: UnsafePointer<CChar>) -> TokenClass? {
        switch Element(element) {
        case "keyword", "when", "then", "given": .keyword
        case "type", "usertype", "classname": .type
        case "string", "regexp", "regex", "valquote", "url", "path": .string
        case "comment", "todo": .comment
        case "number", "atom", "costant", "value": .number
        case "function", "predef_func", "special_fun": .function
        case "variable", "predef_var", "header_variable", "argument", "optionalargument": .variable
        case "preproc", "meta", "difflines", "section": .meta
        case "specialchar": .escape
        case "label", "property", "attribute", "selector", "key", "keyquote": .property
        case "newfile": .inserted
        case "oldfile": .deleted
        default: nil
        }
    }

    /// An element name from the library, compared without making a `String` for each token.
    private struct Element: Equatable, ExpressibleByStringLiteral {
        let bytes: UnsafeRawBufferPointer
        init(_ name: UnsafePointer<CChar>) {
            bytes = UnsafeRawBufferPointer(start: name, count: strlenOf(name))
        }
        init(stringLiteral value: StaticString) {
            bytes = UnsafeRawBufferPointer(start: value.utf8Start, count: value.utf8CodeUnitCount)
        }
        static func == (lhs: Element, rhs: Element) -> Bool {
            lhs.bytes.count == rhs.bytes.count && lhs.bytes.elementsEqual(rhs.bytes)
        }
    }
}

private func strlenOf(_ name: UnsafePointer<CChar>) -> Int {
    var count = 0
    while name[count] != 0 { count += 1 }
    return count
}

/// The kinds of token the theme colours: each is the class `tok-` and its raw value.
public enum TokenClass: String, CaseIterable, Sendable {
    case keyword, type, string, comment, number, function, variable, meta, escape, property, inserted, deleted
}
