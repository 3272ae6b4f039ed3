import Foundation
import TagflowConcurrency

/// The identity of a tag: `Swift`, `swift ` and `SWIFT` are one tag.
///
/// Made by trimming, collapsing runs of white space to one space, Unicode NFC normalisation and
/// lowercasing. Punctuation is kept, so `C`, `C++` and `C#` are three tags.
public struct TagKey: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The normalised text.
    public let rawValue: String

    /// The key of a tag as written.
    public init(_ name: String) {
        if let ascii = TagKey.asciiKey(name) {
            rawValue = ascii
        } else {
            rawValue = TagKey.unicodeCleaned(name).key
        }
    }

    /// The spelling a page shows: trimmed, inner white space collapsed, NFC.
    static func cleanedSpelling(_ name: String) -> String {
        // Printable ASCII with single inner spaces is already clean (NFC changes no ASCII), and
        // most tags are that: the general path was a measurable share of a large build.
        isCleanASCII(name) ? name : unicodeCleanedSpelling(name)
    }

    /// ``cleanedSpelling(_:)`` for any text.
    static func unicodeCleanedSpelling(_ name: String) -> String {
        unicodeCleaned(name).spelling
    }

    /// The spelling and key of a name that is not clean ASCII, made once per process.
    static func unicodeCleaned(_ name: String) -> (spelling: String, key: String) {
        if let known = UnicodeCleanedNames.shared.lookUp(name) { return known }
        let spelling = name.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
            .precomposedStringWithCanonicalMapping
        let cleaned = (spelling: spelling, key: spelling.lowercased())
        UnicodeCleanedNames.shared.keep(cleaned, for: name)
        return cleaned
    }

    /// Names ``unicodeCleaned(_:)`` has seen, bounded for a long `tagflow serve`.
    ///
    /// A blog repeats a few hundred tags over thousands of posts, and Foundation's normaliser on
    /// each was a measurable share of a large build.
    private final class UnicodeCleanedNames: Sendable {
        static let shared = UnicodeCleanedNames()
        private let names = Locked<[String: (spelling: String, key: String)]>([:])

        func lookUp(_ name: String) -> (spelling: String, key: String)? { names.withLock { $0[name] } }

        func keep(_ cleaned: (spelling: String, key: String), for name: String) {
            names.withLock { names in
                if names.count >= 10_000 { names.removeAll() }
                names[name] = cleaned
            }
        }
    }

    /// Printable ASCII (space included), without leading, trailing or doubled spaces.
    static func isCleanASCII(_ name: String) -> Bool {
        // Over the bytes in place: through the UTF-8 view this cost far more, and it runs per tag.
        var name = name
        return name.withUTF8 { bytes in
            var previous: UInt8 = 0x20
            for byte in bytes {
                guard byte >= 0x20, byte < 0x7F, !(byte == 0x20 && previous == 0x20) else { return false }
                previous = byte
            }
            return previous != 0x20
        }
    }

    /// The key of plain ASCII text, or `nil` for anything else.
    ///
    /// Printable ASCII without doubled or edge spaces, where NFC changes nothing and lowercasing
    /// is byte-wise. Most tags take this path, which skips Foundation's normaliser (the slow part
    /// of building keys).
    private static func asciiKey(_ name: String) -> String? {
        guard isCleanASCII(name) else { return nil }
        guard name.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) else { return name }
        return String(decoding: name.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
    }

    public var description: String { rawValue }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
