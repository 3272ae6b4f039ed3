/// Writes front matter and settings as YAML that ``YAMLReader`` reads back to the same values.
///
/// Text is written plain where YAML reads it back as the same text, and double-quoted otherwise
/// (`yes`, `12`, `a: b`, a leading `*`), so no value changes type on the way.
public enum YAMLWriter {
    /// The lines of a mapping, each ending in a newline, indented by `indent` spaces.
    public static func mapping(_ entries: [(key: String, value: YAMLValue)], indent: Int = 0) -> String {
        var text = ""
        let pad = String(repeating: " ", count: indent)
        for (key, value) in entries {
            text += pad + scalar(key) + ":"
            switch value {
            case .list(let items) where !items.isEmpty && !items.allSatisfy(\.isScalar):
                text += "\n"
                for item in items {
                    if case .map(let inner) = item, !inner.entries.isEmpty {
                        // The first key on the dash's line, the rest under it.
                        let lines = mapping(inner.entries.map { ($0.key, $0.value) }, indent: indent + 2)
                        text += pad + "- " + lines.dropFirst(indent + 2)
                    } else {
                        text += pad + "- " + inline(item) + "\n"
                    }
                }
            case .map(let inner) where !inner.entries.isEmpty:
                text += "\n" + mapping(inner.entries.map { ($0.key, $0.value) }, indent: indent + 2)
            default:
                text += " " + inline(value) + "\n"
            }
        }
        return text
    }

    /// A value on one line: a scalar, or a flow list or mapping of them.
    public static func inline(_ value: YAMLValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag): flag ? "true" : "false"
        case .int, .double: value.scalarText ?? "null"
        case .string(let text): scalar(text)
        case .list(let items): "[" + items.map(inline).joined(separator: ", ") + "]"
        case .map(let mapping):
            "{" + mapping.entries.map { scalar($0.key) + ": " + inline($0.value) }.joined(separator: ", ") + "}"
        }
    }

    /// Text as a YAML scalar that reads back as the same text.
    public static func scalar(_ text: String) -> String {
        isPlainSafe(text) ? text : quoted(text)
    }

    /// `text` double-quoted, with YAML's escapes.
    public static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value) {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    result += "\\x" + String(repeating: "0", count: 2 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// Words YAML reads as something other than text.
    private static let reservedWords: Set<String> = [
        "true", "false", "yes", "no", "on", "off", "y", "n", "null", "~",
    ]

    /// Whether plain text reads back as itself, in block and in flow context: letters, digits and
    /// a few marks, not a number, boolean or null, and no `: ` or ` #`.
    static func isPlainSafe(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last else { return false }
        if reservedWords.contains(text.lowercased()) { return false }
        // Anything a number could be read from (12, 1e3, .5, 0x1F, +1, -2) is quoted; dates stay plain.
        if first == "." || first == "+" || first == "-" || ("0"..."9").contains(first) {
            guard looksLikeDateOrTime(text) else { return false }
        }
        if last == ":" || last == " " || first == " " { return false }
        let allowed = text.unicodeScalars.allSatisfy { scalar in
            if scalar.value >= 0xA0 { return scalar.properties.isAlphabetic || scalar.properties.isIdeographic }
            return ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                || " _-./+:()@&$".unicodeScalars.contains(scalar)
        }
        guard allowed, !text.contains(": "), !text.contains(" #") else { return false }
        // `&` and `@` may not start a plain scalar.
        return first != "&" && first != "@"
    }

    /// `2024-03-05`, `2024-03-05T09:30:00+01:00`: plain, read back as text.
    private static func looksLikeDateOrTime(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.count >= 10 && bytes[4] == UInt8(ascii: "-") && bytes[7] == UInt8(ascii: "-")
            && bytes.allSatisfy { (0x30...0x39).contains($0) || ":-+TZ. ".utf8.contains($0) }
    }
}

extension YAMLValue {
    /// Whether the value is one scalar (not a list or mapping).
    public var isScalar: Bool {
        switch self {
        case .list, .map: false
        default: true
        }
    }
}
