/// A reader of TOML 1.0 documents, for front matter written between `+++` lines.
///
/// Written here rather than taken from a package: the Swift TOML packages available wrap toml++
/// with glue that leaks memory on every read (found by the front matter fuzzer), and a
/// system toml++ is not packaged on every Linux a publish job runs on. It keeps what front matter
/// needs that a wrapper drops: keys in file order, each with its line and column.
struct TOMLParser {
    /// Why a document is not TOML, and where (line and column within the document, 1-based).
    struct Failure: Error {
        var line: Int
        var column: Int
        var message: String
    }

    /// A table, its keys in file order.
    final class Table {
        /// How a table came to be, which decides what may add to it later.
        enum Origin {
            /// Named on the way to another (`a` in `[a.b]`): a header may still define it.
            case implicit
            /// Defined by its own `[header]`.
            case header
            /// Made by a dotted key (`a.b = 1` makes `a`).
            case dotted
            /// Written whole as `{ … }`: nothing adds to it.
            case inline
        }

        struct Entry {
            var key: String
            var node: Node
            var line: Int
            var column: Int
        }

        var origin: Origin
        private(set) var entries: [Entry] = []
        private var positions: [String: Int] = [:]

        init(origin: Origin) { self.origin = origin }

        subscript(key: String) -> Node? {
            get { positions[key].map { entries[$0].node } }
            set {
                guard let newValue, let position = positions[key] else { return }
                entries[position].node = newValue
            }
        }

        func append(_ entry: Entry) {
            positions[entry.key] = entries.count
            entries.append(entry)
        }
    }

    /// A value in the document.
    enum Node {
        case value(YAMLValue)
        case table(Table)
        /// An array of tables, made by `[[name]]` headers.
        case tableArray([Table])
        case array([Node])
    }

    private let bytes: [UInt8]
    private var index = 0
    private var lineStart = 0
    private var line = 1

    init(_ text: String) { bytes = Array(text.utf8) }

    /// Reads the whole document.
    mutating func parse() throws(Failure) -> Table {
        let root = Table(origin: .header)
        var current = root
        while true {
            skipBlanks()
            guard let byte = peek() else { break }
            if byte == UInt8(ascii: "#") || isLineBreak(at: index) {
                try endOfLine()
                continue
            }
            if byte == UInt8(ascii: "[") {
                current = try tableHeader(root: root)
            } else {
                try keyValue(into: current)
            }
            try endOfLine()
        }
        return root
    }

    // MARK: Structure

    /// `[a.b]` or `[[a.b]]`: the table that the lines below it fill.
    private mutating func tableHeader(root: Table) throws(Failure) -> Table {
        let start = position
        index += 1
        let isArray = peek() == UInt8(ascii: "[")
        if isArray { index += 1 }
        let parts = try key()
        try expect("]", "expected ']' to close the table header")
        if isArray { try expect("]", "expected ']]' to close the array of tables header") }
        var table = root
        for part in parts.dropLast() {
            switch table[part.name] {
            case nil:
                let next = Table(origin: .implicit)
                table.append(.init(key: part.name, node: .table(next), line: part.line, column: part.column))
                table = next
            case .table(let next) where next.origin != .inline:
                table = next
            case .tableArray(let tables):
                table = tables[tables.count - 1]
            default:
                throw Failure(line: part.line, column: part.column, message: "'\(part.name)' is not a table")
            }
        }
        let last = parts[parts.count - 1]
        let name = parts.map(\.name).joined(separator: ".")
        switch (table[last.name], isArray) {
        case (nil, false):
            let defined = Table(origin: .header)
            table.append(.init(key: last.name, node: .table(defined), line: start.line, column: start.column))
            return defined
        case (nil, true):
            let element = Table(origin: .header)
            table.append(.init(key: last.name, node: .tableArray([element]), line: start.line, column: start.column))
            return element
        case (.table(let existing), false) where existing.origin == .implicit:
            existing.origin = .header
            return existing
        case (.tableArray(var tables), true):
            let element = Table(origin: .header)
            tables.append(element)
            table[last.name] = .tableArray(tables)
            return element
        default:
            throw Failure(line: start.line, column: start.column, message: "table '\(name)' is defined twice")
        }
    }

    /// `key = value`, with a dotted key making the tables on its way.
    private mutating func keyValue(into target: Table) throws(Failure) {
        let parts = try key()
        skipBlanks()
        guard peek() == UInt8(ascii: "=") else {
            throw failure("expected '=' after the key '\(parts.map(\.name).joined(separator: "."))'")
        }
        index += 1
        skipBlanks()
        let node = try value()
        var table = target
        for part in parts.dropLast() {
            switch table[part.name] {
            case nil:
                let next = Table(origin: .dotted)
                table.append(.init(key: part.name, node: .table(next), line: part.line, column: part.column))
                table = next
            case .table(let next) where next.origin == .dotted || next.origin == .implicit:
                table = next
            default:
                throw Failure(line: part.line, column: part.column, message: "'\(part.name)' is defined twice")
            }
        }
        let last = parts[parts.count - 1]
        guard table[last.name] == nil else {
            throw Failure(line: last.line, column: last.column, message: "'\(last.name)' is defined twice")
        }
        table.append(.init(key: last.name, node: node, line: parts[0].line, column: parts[0].column))
    }

    /// A key's dotted parts, each a bare (`title`), basic (`"my key"`) or literal (`'my key'`) key.
    private mutating func key() throws(Failure) -> [(name: String, line: Int, column: Int)] {
        var parts: [(name: String, line: Int, column: Int)] = []
        repeat {
            skipBlanks()
            let start = position
            let name: String
            switch peek() {
            case UInt8(ascii: "\""):
                index += 1
                name = try basicString()
            case UInt8(ascii: "'"):
                index += 1
                name = try literalString()
            default:
                let begin = index
                while let byte = peek(), isBareKeyByte(byte) { index += 1 }
                guard index > begin else { throw failure("expected a key") }
                name = String(decoding: bytes[begin..<index], as: UTF8.self)
            }
            parts.append((name, start.line, start.column))
            skipBlanks()
        } while consume(".")
        return parts
    }

    // MARK: Values

    private mutating func value() throws(Failure) -> Node {
        guard let byte = peek() else { throw failure("expected a value") }
        switch byte {
        case UInt8(ascii: "\""):
            if starts(with: "\"\"\"") {
                index += 3
                return .value(.string(try multiLineString(quote: UInt8(ascii: "\""))))
            }
            index += 1
            return .value(.string(try basicString()))
        case UInt8(ascii: "'"):
            if starts(with: "'''") {
                index += 3
                return .value(.string(try multiLineString(quote: UInt8(ascii: "'"))))
            }
            index += 1
            return .value(.string(try literalString()))
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "{"): return .table(try inlineTable())
        case UInt8(ascii: "t"), UInt8(ascii: "f"):
            for (word, truth) in [("true", true), ("false", false)] where starts(with: word) {
                index += word.utf8.count
                return .value(.bool(truth))
            }
            throw failure("expected a value (text must be in quotes)")
        default:
            return .value(try numberOrDate())
        }
    }

    private mutating func array() throws(Failure) -> Node {
        let start = position
        index += 1
        var items: [Node] = []
        while true {
            try skipBlanksCommentsAndLineBreaks()
            // Pointed at where it opened: its end is only missed at the end of the front matter.
            if peek() == nil {
                throw Failure(line: start.line, column: start.column, message: "an array is never closed")
            }
            if consume("]") { return .array(items) }
            items.append(try value())
            try skipBlanksCommentsAndLineBreaks()
            if consume(",") { continue }
            try expect("]", "expected ',' or ']' in the array")
            return .array(items)
        }
    }

    private mutating func inlineTable() throws(Failure) -> Table {
        index += 1
        let table = Table(origin: .dotted)
        skipBlanks()
        if !consume("}") {
            while true {
                try keyValue(into: table)
                skipBlanks()
                if consume(",") { continue }
                try expect("}", "expected ',' or '}' in the inline table (it must stay on one line)")
                break
            }
        }
        table.origin = .inline
        return table
    }

    /// An integer, a float, or a date or time (kept as its RFC 3339 text).
    private mutating func numberOrDate() throws(Failure) -> YAMLValue {
        let start = position
        let begin = index
        while let byte = peek(), isValueByte(byte) { index += 1 }
        // A date and a time may be parted by one space: `1979-05-27 07:32:00`.
        if index - begin == 10, peek() == UInt8(ascii: " "), index + 1 < bytes.count, isDigit(bytes[index + 1]) {
            index += 1
            while let byte = peek(), isValueByte(byte) { index += 1 }
        }
        let text = String(decoding: bytes[begin..<index], as: UTF8.self)
        if let value = Self.number(text) ?? Self.dateOrTime(text) { return value }
        throw Failure(
            line: start.line, column: start.column,
            message: text.isEmpty ? "expected a value" : "'\(text)' is not a TOML value (text must be in quotes)")
    }

    static func number(_ text: String) -> YAMLValue? {
        switch text {
        case "inf", "+inf": return .double(.infinity)
        case "-inf": return .double(-.infinity)
        case "nan", "+nan", "-nan": return .double(.nan)
        default: break
        }
        var body = Substring(text)
        for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] where body.hasPrefix(prefix) {
            let digits = body.dropFirst(2)
            guard hasValidUnderscores(digits, radix: radix) else { return nil }
            return Int(digits.filter { $0 != "_" }, radix: radix).map(YAMLValue.int)
        }
        let sign = body.first == "+" || body.first == "-" ? String(body.removeFirst()) : ""
        let exponentStart = body.firstIndex { $0 == "e" || $0 == "E" }
        let mantissa = body[..<(exponentStart ?? body.endIndex)]
        let integerPart = mantissa.prefix { $0 != "." }
        let fraction = mantissa.dropFirst(integerPart.count)
        guard hasValidUnderscores(integerPart, radix: 10),
            integerPart == "0" || !integerPart.hasPrefix("0")
        else { return nil }
        if fraction.isEmpty && exponentStart == nil {
            return Int(sign + integerPart.filter { $0 != "_" }).map(YAMLValue.int)
        }
        if !fraction.isEmpty, !hasValidUnderscores(fraction.dropFirst(), radix: 10) { return nil }
        if let exponentStart {
            var exponent = body[body.index(after: exponentStart)...]
            if exponent.first == "+" || exponent.first == "-" { exponent = exponent.dropFirst() }
            guard hasValidUnderscores(exponent, radix: 10) else { return nil }
        }
        return Double(sign + body.filter { $0 != "_" }).map(YAMLValue.double)
    }

    /// Digits of `radix` with each `_` between two digits, and at least one digit.
    private static func hasValidUnderscores(_ text: Substring, radix: Int) -> Bool {
        guard let first = text.first, let last = text.last, first != "_", last != "_" else { return false }
        var previous: Character = " "
        for character in text {
            if character == "_" {
                guard previous != "_" else { return false }
            } else if character.hexDigitValue.map({ $0 >= radix }) ?? true {
                return false
            }
            previous = character
        }
        return true
    }

    /// A date (`2024-03-05`), a time (`09:30:00`) or both, with an optional fraction and offset,
    /// checked and written with `T` and `Z` in capitals.
    static func dateOrTime(_ text: String) -> YAMLValue? {
        var scanner = Array(text.utf8)[...]
        var result = ""
        func digits(_ count: Int, in range: ClosedRange<Int>) -> Int? {
            guard scanner.count >= count, scanner.prefix(count).allSatisfy({ (48...57).contains($0) }) else {
                return nil
            }
            let value = scanner.prefix(count).reduce(0) { $0 * 10 + Int($1 - 48) }
            scanner = scanner.dropFirst(count)
            return range.contains(value) ? value : nil
        }
        func skip(_ character: Character) -> Bool {
            guard let first = scanner.first, Character(Unicode.Scalar(first)) == character else { return false }
            scanner = scanner.dropFirst()
            return true
        }
        func time() -> Bool {
            guard digits(2, in: 0...23) != nil, skip(":"), digits(2, in: 0...59) != nil, skip(":"),
                digits(2, in: 0...60) != nil
            else { return false }
            if skip(".") {
                let fraction = scanner.prefix { (48...57).contains($0) }
                guard !fraction.isEmpty else { return false }
                scanner = scanner.dropFirst(fraction.count)
            }
            return true
        }
        let isDate = scanner.count >= 10 && scanner[scanner.startIndex + 4] == UInt8(ascii: "-")
        if isDate {
            guard let year = digits(4, in: 0...9999), skip("-"), let month = digits(2, in: 1...12), skip("-"),
                let day = digits(2, in: 1...31), day <= daysIn(month: month, year: year)
            else { return nil }
            result = String(text.prefix(10))
            guard !scanner.isEmpty else { return .string(result) }
            guard skip("T") || skip("t") || skip(" ") else { return nil }
            let timeStart = text.utf8.count - scanner.count
            guard time() else { return nil }
            result +=
                "T"
                + String(decoding: text.utf8.dropFirst(timeStart).prefix(scanner.startIndex - timeStart), as: UTF8.self)
            if skip("Z") || skip("z") {
                result += "Z"
            } else if let sign = scanner.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                scanner = scanner.dropFirst()
                guard let hours = digits(2, in: 0...23), skip(":"), let minutes = digits(2, in: 0...59) else {
                    return nil
                }
                result +=
                    "\(Character(Unicode.Scalar(sign)))\(hours < 10 ? "0" : "")\(hours):\(minutes < 10 ? "0" : "")\(minutes)"
            }
            return scanner.isEmpty ? .string(result) : nil
        }
        guard time(), scanner.isEmpty else { return nil }
        return .string(text)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    // MARK: Strings

    /// The rest of a `"…"` string, escapes read.
    private mutating func basicString() throws(Failure) -> String {
        var text: [UInt8] = []
        while let byte = peek() {
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: text, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try escape(into: &text)
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                throw failure("a one-line string must end on its line; use \"\"\" for more lines")
            default:
                try checkAllowed(byte)
                text.append(byte)
                index += 1
            }
        }
        throw failure("a string is never closed")
    }

    /// The rest of a `'…'` string: no escapes.
    private mutating func literalString() throws(Failure) -> String {
        let begin = index
        while let byte = peek() {
            if byte == UInt8(ascii: "'") {
                index += 1
                return String(decoding: bytes[begin..<index - 1], as: UTF8.self)
            }
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                throw failure("a one-line string must end on its line; use ''' for more lines")
            }
            try checkAllowed(byte)
            index += 1
        }
        throw failure("a string is never closed")
    }

    /// The rest of a `"""…"""` or `'''…'''` string; a line break right after the opening
    /// delimiter is not part of it.
    private mutating func multiLineString(quote: UInt8) throws(Failure) -> String {
        let start = position
        if isLineBreak(at: index) {
            if peek() == UInt8(ascii: "\r") { index += 1 }
            newLine()
        }
        var text: [UInt8] = []
        while let byte = peek() {
            if byte == quote {
                var count = 0
                while peek() == quote && count < 5 {
                    index += 1
                    count += 1
                }
                if count >= 3 {
                    // Up to two quotes may stand just before the closing three.
                    text.append(contentsOf: repeatElement(quote, count: count - 3))
                    return String(decoding: text, as: UTF8.self)
                }
                text.append(contentsOf: repeatElement(quote, count: count))
                continue
            }
            if quote == UInt8(ascii: "\""), byte == UInt8(ascii: "\\") {
                if try skipLineEndingBackslash() { continue }
                try escape(into: &text)
                continue
            }
            if isLineBreak(at: index) {
                if byte == UInt8(ascii: "\r") { index += 1 }
                text.append(UInt8(ascii: "\n"))
                newLine()
                continue
            }
            try checkAllowed(byte)
            text.append(byte)
            index += 1
        }
        throw Failure(line: start.line, column: start.column, message: "a multi-line string is never closed")
    }

    /// A `\` that ends its line drops the line break and the blanks after it.
    private mutating func skipLineEndingBackslash() throws(Failure) -> Bool {
        var lookahead = index + 1
        while lookahead < bytes.count, bytes[lookahead] == UInt8(ascii: " ") || bytes[lookahead] == UInt8(ascii: "\t") {
            lookahead += 1
        }
        guard isLineBreak(at: lookahead) else { return false }
        index = lookahead
        while let byte = peek() {
            if isLineBreak(at: index) {
                if byte == UInt8(ascii: "\r") { index += 1 }
                newLine()
            } else if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") {
                index += 1
            } else {
                break
            }
        }
        return true
    }

    private mutating func escape(into text: inout [UInt8]) throws(Failure) {
        index += 1
        guard let byte = peek() else { throw failure("a string is never closed") }
        index += 1
        let simple: [UInt8: UInt8] = [
            UInt8(ascii: "b"): 0x08, UInt8(ascii: "t"): 0x09, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "f"): 0x0C,
            UInt8(ascii: "r"): 0x0D, UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C,
        ]
        if let replacement = simple[byte] {
            text.append(replacement)
            return
        }
        guard byte == UInt8(ascii: "u") || byte == UInt8(ascii: "U") else {
            index -= 2
            throw failure("unknown escape '\\\(Character(Unicode.Scalar(byte)))' in a string")
        }
        let count = byte == UInt8(ascii: "u") ? 4 : 8
        guard index + count <= bytes.count,
            let code = UInt32(String(decoding: bytes[index..<index + count], as: UTF8.self), radix: 16),
            let scalar = Unicode.Scalar(code)
        else {
            index -= 2
            throw failure(
                "'\\\(Character(Unicode.Scalar(byte)))' must be followed by \(count) hex digits of a Unicode scalar")
        }
        index += count
        text.append(contentsOf: String(Character(scalar)).utf8)
    }

    /// Control characters other than tab are not allowed in TOML strings.
    private func checkAllowed(_ byte: UInt8) throws(Failure) {
        if (byte < 0x20 && byte != 0x09) || byte == 0x7F {
            throw failure(
                "control character U+\(String(byte, radix: 16, uppercase: true)) in a string; write it as an escape")
        }
    }

    // MARK: Reading

    private var position: (line: Int, column: Int) {
        // Columns count characters, not bytes, as an editor does.
        (line, bytes[lineStart..<index].count { $0 & 0xC0 != 0x80 } + 1)
    }

    private func failure(_ message: String) -> Failure {
        Failure(line: position.line, column: position.column, message: message)
    }

    private func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    private func starts(with text: String) -> Bool {
        bytes[index...].starts(with: text.utf8)
    }

    private mutating func consume(_ character: Character) -> Bool {
        guard let ascii = character.asciiValue, peek() == ascii else { return false }
        index += 1
        return true
    }

    private mutating func expect(_ character: Character, _ message: String) throws(Failure) {
        skipBlanks()
        guard consume(character) else { throw failure(message) }
    }

    private func isLineBreak(at offset: Int) -> Bool {
        guard offset < bytes.count else { return false }
        return bytes[offset] == UInt8(ascii: "\n")
            || (bytes[offset] == UInt8(ascii: "\r") && offset + 1 < bytes.count
                && bytes[offset + 1] == UInt8(ascii: "\n"))
    }

    /// Steps over the `\n` at `index`.
    private mutating func newLine() {
        index += 1
        line += 1
        lineStart = index
    }

    private mutating func skipBlanks() {
        while let byte = peek(), byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { index += 1 }
    }

    private mutating func skipComment() {
        while index < bytes.count, !isLineBreak(at: index) { index += 1 }
    }

    /// Blanks, an optional comment, then a line break or the end of the document.
    private mutating func endOfLine() throws(Failure) {
        skipBlanks()
        if peek() == UInt8(ascii: "#") { skipComment() }
        guard let byte = peek() else { return }
        guard isLineBreak(at: index) else { throw failure("expected the end of the line after a value") }
        if byte == UInt8(ascii: "\r") { index += 1 }
        newLine()
    }

    private mutating func skipBlanksCommentsAndLineBreaks() throws(Failure) {
        while true {
            skipBlanks()
            if peek() == UInt8(ascii: "#") { skipComment() }
            guard isLineBreak(at: index) else { return }
            if peek() == UInt8(ascii: "\r") { index += 1 }
            newLine()
        }
    }

    private func isBareKeyByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: "-")
    }

    /// What an unquoted value (a number, a date or time, `inf`, `nan`) is made of.
    private func isValueByte(_ byte: UInt8) -> Bool {
        isBareKeyByte(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":")
    }

    private func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
}
