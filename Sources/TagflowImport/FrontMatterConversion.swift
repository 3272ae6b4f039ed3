import Foundation
import TagflowCore
import TagflowMarkdown

/// Front matter values both generators write, in the forms `tagflow build` reads.
enum FrontMatterConversion {
    /// A date's text when Tagflow reads it (`2024-03-05`, `2024-03-05 10:00:00 +0100`,
    /// `2024-03-05T10:00:00Z`), trimmed.
    static func date(_ value: YAMLValue?, timeZone: TimeZone) -> (text: String, date: ContentDate)? {
        guard let text = value?.scalarText?.trimmingCharacters(in: .whitespaces),
            let date = ContentDate.parse(text, timeZone: timeZone)
        else { return nil }
        return (text, date)
    }

    /// The offset from UTC a date is written with (`+01:00`, `-0500`, `Z`), in seconds; `nil` for a
    /// date written without one.
    static func writtenOffset(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        // Only after a time: `2024-03-05` has dashes but no offset.
        guard let time = trimmed.firstIndex(where: { $0 == "T" || $0 == "t" || $0 == " " }) else { return nil }
        let rest = trimmed[time...]
        if rest.hasSuffix("Z") || rest.hasSuffix("z") { return 0 }
        guard let sign = rest.lastIndex(where: { $0 == "+" || $0 == "-" }) else { return nil }
        let digits = rest[rest.index(after: sign)...].filter(\.isNumber)
        guard digits.count == 4 || digits.count == 2, let value = Int(digits) else { return nil }
        let seconds = digits.count == 4 ? (value / 100) * 3600 + (value % 100) * 60 : value * 3600
        return rest[sign] == "-" ? -seconds : seconds
    }

    /// A date as Tagflow writes one, in the site's zone (`2024-03-05T10:00:00+01:00`).
    static func text(of date: Date, timeZone: TimeZone) -> String {
        ContentDate(secondsSince1970: Int64(date.timeIntervalSince1970)).rfc3339(in: timeZone)
    }

    /// Names from a list, or from text split at commas (Hugo) or white space (Jekyll).
    static func names(_ value: YAMLValue?, splitOnSpaces: Bool) -> [String] {
        switch value {
        case .list(let items)?: return items.compactMap(\.scalarText).filter { !$0.isEmpty }
        case .string(let text)?:
            let parts = splitOnSpaces ? text.split(whereSeparator: \.isWhitespace) : text.split(separator: ",")
            return parts.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        case let scalar? where scalar.isScalar:
            return scalar.scalarText.map { [$0] } ?? []
        default: return []
        }
    }

    /// `tags` with `more` after them, each name once (in any case).
    static func merged(_ tags: [String], _ more: [String]) -> [String] {
        var seen = Set<String>()
        return (tags + more).filter { seen.insert($0.lowercased()).inserted }
    }

    /// Keys Tagflow gives a meaning and a type to: a value of another type would fail the build,
    /// so it is renamed (kept for templates under `KEY_original`) with a note.
    static func checkTypes(_ document: inout ImportedDocument, notes: inout [ImportNote]) {
        let expected: [(key: String, fits: (YAMLValue) -> Bool, kind: String)] = [
            ("title", \.isScalar, "text"), ("summary", \.isScalar, "text"), ("description", \.isScalar, "text"),
            ("slug", \.isScalar, "text"),
            ("toc", { if case .bool = $0 { true } else { false } }, "true or false"),
            ("draft", { if case .bool = $0 { true } else { false } }, "true or false"),
        ]
        for (key, fits, kind) in expected {
            guard let value = document[key], value != .null, !fits(value) else { continue }
            notes.append(
                ImportNote(
                    path: document.sourcePath,
                    message: "'\(key)' is \(value.kindName), not \(kind) as Tagflow reads it; kept as '\(key)_original'"
                ))
            document[key] = nil
            document["\(key)_original"] = value
        }
        // `template:` names a Tagflow template, which an imported site does not have.
        if let template = document["template"] {
            document["template"] = nil
            document["template_original"] = template
            notes.append(
                ImportNote(
                    path: document.sourcePath,
                    message: "'template' names a template of the old site; kept as 'template_original'"))
        }
    }

    /// The site's time zone from a tz database name, or UTC.
    static func timeZone(_ name: String?) -> TimeZone {
        name.flatMap(ContentDate.timeZone(named:)) ?? TimeZone(identifier: "UTC") ?? .current
    }

    /// Words made a URL segment as Jekyll's `slugify` does: runs of characters other than letters,
    /// digits and `kept` become one `-`, none at either end; lowercased unless `keepingCase`.
    static func slugified(_ text: String, keeping kept: String = "", keepingCase: Bool = false) -> String {
        var result = ""
        var pendingDash = false
        for character in keepingCase ? text : text.lowercased() {
            if character.isLetter || character.isNumber || kept.contains(character) {
                if pendingDash && !result.isEmpty { result += "-" }
                pendingDash = false
                result.append(character)
            } else {
                pendingDash = true
            }
        }
        return result
    }
}
