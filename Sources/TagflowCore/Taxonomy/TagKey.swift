import Foundation

/// The identity of a tag: `Swift`, `swift ` and `SWIFT` are one tag.
///
/// Made by trimming, collapsing runs of white space to one space, Unicode NFC normalisation and
/// lowercasing. Punctuation is kept, so `C`, `C++` and `C#` are three tags.
public struct TagKey: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The normalised text.
    public let rawValue: String

    /// The key of a tag as written.
    public init(_ name: String) {
        rawValue = TagKey.cleanedSpelling(name).precomposedStringWithCanonicalMapping.lowercased()
    }

    /// The spelling a page shows: trimmed, inner white space collapsed, NFC.
    static func cleanedSpelling(_ name: String) -> String {
        name.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ").precomposedStringWithCanonicalMapping
    }

    public var description: String { rawValue }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
