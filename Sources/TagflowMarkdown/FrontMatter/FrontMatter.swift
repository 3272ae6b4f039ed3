internal import Yams

/// A value in front matter or a config file, with the file position it came from.
public indirect enum YAMLValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    /// A string; also every scalar YAML would read as a date, so callers parse dates themselves.
    case string(String)
    case list([YAMLValue])
    case map(YAMLMapping)

    /// The scalar's text as written (numbers and booleans included), or `nil` for lists and maps.
    public var scalarText: String? {
        switch self {
        case .null: nil
        case .bool(let value): value ? "true" : "false"
        case .int(let value): String(value)
        case .double(let value): String(value)
        case .string(let value): value
        case .list, .map: nil
        }
    }

    /// A short name of the value's kind, for error messages ("a list", "a string").
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .int: "an integer"
        case .double: "a number"
        case .string: "a string"
        case .list: "a list"
        case .map: "a mapping"
        }
    }
}

/// A YAML mapping that keeps its keys in file order, each with its position.
public struct YAMLMapping: Sendable, Hashable {
    /// One `key: value` pair.
    public struct Entry: Sendable, Hashable {
        /// The key.
        public var key: String
        /// The value.
        public var value: YAMLValue
        /// File line of the key (1-based).
        public var line: Int
        /// Column of the key (1-based).
        public var column: Int

        /// Creates an entry.
        public init(key: String, value: YAMLValue, line: Int, column: Int) {
            self.key = key
            self.value = value
            self.line = line
            self.column = column
        }
    }

    /// The entries, in file order.
    public var entries: [Entry]

    /// Creates a mapping from entries.
    public init(entries: [Entry] = []) { self.entries = entries }

    /// The entry for `key`, if present.
    public func entry(_ key: String) -> Entry? { entries.first { $0.key == key } }

    /// The value for `key`, if present.
    public subscript(key: String) -> YAMLValue? { entry(key)?.value }
}

/// Reading YAML text into ``YAMLMapping`` values with file positions.
public enum YAMLReader {
    /// Parses YAML that must be a mapping (or empty).
    ///
    /// - Parameters:
    ///   - yaml: The YAML text.
    ///   - firstLine: The file line on which `yaml` starts, added to every reported line.
    /// - Returns: The mapping; an empty one for empty or all-comment YAML.
    /// - Throws: ``FrontMatterError`` with the file line and column of the problem.
    public static func mapping(from yaml: String, firstLine: Int = 1) throws(FrontMatterError) -> YAMLMapping {
        if let simple = SimpleYAML.mapping(from: yaml, firstLine: firstLine) {
            assert(
                simple == (try? yamsMapping(from: yaml, firstLine: firstLine)),
                "SimpleYAML and Yams disagree on:\n\(yaml)")
            return simple
        }
        return try yamsMapping(from: yaml, firstLine: firstLine)
    }

    /// ``mapping(from:firstLine:)`` through Yams, for any YAML.
    @_spi(Fuzzing) public static func yamsMapping(from yaml: String, firstLine: Int) throws(FrontMatterError)
        -> YAMLMapping
    {
        let lineOffset = firstLine - 1
        let node: Node?
        do {
            // Yams' defaults are slow for what is used here. Its default encoding reads the whole
            // process environment on every call, and its default resolver types every scalar with
            // regular expressions (even to hash a key for its duplicate check): together a
            // measurable share of a large build. Scalars are typed by `scalarValue` below from
            // their text and style, so the basic resolver, which types nothing, loses nothing.
            node = try Yams.compose(yaml: yaml, .basic, .default, .utf8)
        } catch let error as YamlError {
            throw Self.convert(error, yaml: yaml, lineOffset: lineOffset)
        } catch {
            throw FrontMatterError(line: firstLine, column: 1, reason: .invalidYAML(String(describing: error)))
        }
        guard let node else { return YAMLMapping() }
        guard case .mapping = node else {
            let mark = node.mark
            throw FrontMatterError(
                line: (mark?.line ?? 1) + lineOffset, column: mark?.column ?? 1, reason: .notAMapping)
        }
        var budget = maximumValueCount
        guard case .map(let mapping) = try value(of: node, lineOffset: lineOffset, budget: &budget) else {
            return YAMLMapping()
        }
        return mapping
    }

    /// The most values one document may hold once aliases are expanded.
    ///
    /// Yams shares an aliased node rather than copying it, but converting follows every alias, so
    /// nine nested anchors of nine aliases each ("billion laughs") would make 9⁹ values.
    static let maximumValueCount = 1_000_000

    private static func value(of node: Node, lineOffset: Int, budget: inout Int) throws(FrontMatterError) -> YAMLValue {
        budget -= 1
        if budget < 0 {
            throw FrontMatterError(
                line: (node.mark?.line ?? 1) + lineOffset, column: node.mark?.column ?? 1,
                reason: .invalidYAML("more than \(maximumValueCount) values once aliases are expanded"))
        }
        switch node {
        case .scalar(let scalar):
            return scalarValue(scalar.string, isPlain: scalar.style == .plain || scalar.style == .any)
        case .sequence(let sequence):
            var items = [YAMLValue]()
            items.reserveCapacity(sequence.count)
            for child in sequence { items.append(try value(of: child, lineOffset: lineOffset, budget: &budget)) }
            return .list(items)
        case .mapping(let mapping):
            var entries = [YAMLMapping.Entry]()
            entries.reserveCapacity(mapping.count)
            var keys = Set<String>()
            for (keyNode, valueNode) in mapping {
                let line = (keyNode.mark?.line ?? 1) + lineOffset
                let column = keyNode.mark?.column ?? 1
                let key = keyNode.string ?? ""
                if !keys.insert(key).inserted {
                    throw FrontMatterError(line: line, column: column, reason: .duplicateKey(key))
                }
                entries.append(
                    .init(
                        key: key, value: try value(of: valueNode, lineOffset: lineOffset, budget: &budget), line: line,
                        column: column)
                )
            }
            return .map(YAMLMapping(entries: entries))
        case .alias:
            return .null
        }
    }

    /// Reads a scalar with the YAML 1.2 core schema: only `true`/`false` are booleans (`yes`,
    /// `no`, `on`, `off` stay text, so a tag called "no" stays "no"); quoted scalars are text.
    static func scalarValue(_ text: String, isPlain: Bool) -> YAMLValue {
        guard isPlain else { return .string(text) }
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        default: break
        }
        // Read as bytes: an ASCII digit is the only ASCII `Character` that is a number, and
        // checking each `Character`'s properties made every date costly.
        let bytes = text.utf8
        let digits =
            bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") ? bytes.dropFirst() : bytes[...]
        if !digits.isEmpty, digits.allSatisfy(isDigit), let number = Int(text) {
            return .int(number)
        }
        if let first = digits.first, isDigit(first) || first == UInt8(ascii: "."),
            bytes.allSatisfy({ isDigit($0) || isNumberSign($0) }), let number = Double(text)
        {
            return .double(number)
        }
        return .string(text)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { UInt8(ascii: "0")...UInt8(ascii: "9") ~= byte }

    /// `+`, `-`, `.`, `e` or `E`.
    private static func isNumberSign(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): true
        default: false
        }
    }

    private static func convert(_ error: YamlError, yaml: String, lineOffset: Int) -> FrontMatterError {
        switch error {
        case .scanner(let context, let problem, var mark, _),
            .parser(let context, let problem, var mark, _),
            .composer(let context, let problem, var mark, _):
            let text = [context?.text, problem].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ", ")
            // A quote or bracket left open is only noticed at the end of the text, past its last
            // line (the closing `---`); point at where it was opened instead.
            if let context, mark.line > yaml.utf8.count(where: { $0 == UInt8(ascii: "\n") }) { mark = context.mark }
            return FrontMatterError(line: mark.line + lineOffset, column: mark.column, reason: .invalidYAML(text))
        case .duplicatedKeysInMapping(let duplicates, let context):
            return FrontMatterError(
                line: context.mark.line + lineOffset, column: context.mark.column,
                reason: .duplicateKey(duplicates.joined(separator: ", ")))
        default:
            return FrontMatterError(line: 1 + lineOffset, column: 1, reason: .invalidYAML(String(describing: error)))
        }
    }
}
