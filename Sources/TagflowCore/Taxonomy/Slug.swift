import Foundation

/// A URL path segment made from a name: lowercase, URL-safe, readable.
///
/// Latin letters lose their accents (`Café` → `cafe`); other scripts are kept (`标签布局` stays
/// `标签布局`); symbols that carry meaning in tag names are spelt out (`C++` → `c-plus-plus`,
/// `C#` → `c-sharp`, `.NET` → `dot-net`, `Q&A` → `q-and-a`), so such tags never share a URL;
/// everything else becomes `-`.
package struct Slug: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The slug text.
    package let rawValue: String

    /// Wraps text that is already a slug.
    package init(rawValue: String) { self.rawValue = rawValue }

    /// This slug, or if it is taken the first of `-2`, `-3`… after it that is not: how two names
    /// that make one slug each keep a URL of their own.
    func numbered(isTaken: (Slug) -> Bool) -> Slug {
        var slug = self
        var suffix = 2
        while isTaken(slug) {
            slug = Slug(rawValue: "\(rawValue)-\(suffix)")
            suffix += 1
        }
        return slug
    }

    /// Makes a slug from a name.
    ///
    /// ```swift
    /// Slug(from: "Server Side Swift")  // server-side-swift
    /// Slug(from: "C#")                 // c-sharp
    /// Slug(from: "Exercise 💪")        // exercise
    /// ```
    /// A name with nothing left (only emoji or symbols) gets `u` and the hex code points (`💪` → `u1f4aa`).
    package init(from name: String) {
        rawValue = Self.fittingFileName(Self.asciiSlug(name) ?? Self.unicodeSlug(name))
    }

    /// The most bytes of a slug kept as it is.
    ///
    /// A slug is a folder name, and file systems refuse a name over 255 bytes: a longer slug
    /// keeps its first bytes and ends with a hash of the whole.
    static let maximumByteCount = 200

    /// `slug`, or when it is longer than ``maximumByteCount`` bytes, its first characters (up to
    /// 183 bytes) and `-` with 16 hex digits of a hash of the whole slug: the same in every build
    /// and on every machine, and different for slugs that only differ past the cut.
    static func fittingFileName(_ slug: String) -> String {
        guard slug.utf8.count > maximumByteCount else { return slug }
        var kept = ""
        for character in slug {
            guard kept.utf8.count + character.utf8.count <= maximumByteCount - 17 else { break }
            kept.append(character)
        }
        while kept.hasSuffix("-") || kept.hasSuffix(".") { kept.removeLast() }
        // FNV-1a, 64 bits: stable, unlike Swift's seeded Hasher.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in slug.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return kept + "-" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// ``init(from:)`` for a name of ASCII characters, by the same rules read from its bytes; `nil`
    /// for any other name, and for one that leaves no letters or digits.
    ///
    /// Reading every name by `Character`, normalised and lowercased by Foundation, was slow, on the
    /// one core that builds the taxonomy.
    static func asciiSlug(_ name: String) -> String? {
        var slug: [UInt8] = []
        slug.reserveCapacity(name.utf8.count + 8)
        var inWord = false
        func startWord() {
            if !slug.isEmpty { slug.append(UInt8(ascii: "-")) }
            inWord = true
        }
        func word(_ text: StaticString) {
            startWord()
            text.withUTF8Buffer { slug.append(contentsOf: $0) }
            inWord = false
        }
        var previous: UInt8?
        for byte in name.utf8 {
            guard byte < 0x80 else { return nil }
            let character = byte | (UInt8(ascii: "A")...UInt8(ascii: "Z") ~= byte ? 0x20 : 0)
            switch character {
            case UInt8(ascii: "+"): word("plus")
            case UInt8(ascii: "#"):
                // "C#", "F#" are languages; a leading "#hashtag" is just a marker.
                if let previous, Self.isLetter(previous) { word("sharp") }
            case UInt8(ascii: "&"): word("and")
            case UInt8(ascii: "%"): word("percent")
            case UInt8(ascii: "@"): word("at")
            case UInt8(ascii: "."):
                if previous == nil || previous == UInt8(ascii: " ") { word("dot") } else { inWord = false }
            default:
                if Self.isLetter(character) || UInt8(ascii: "0")...UInt8(ascii: "9") ~= character {
                    if !inWord { startWord() }
                    slug.append(character)
                } else {
                    inWord = false
                }
            }
            previous = character
        }
        return slug.isEmpty ? nil : String(decoding: slug, as: UTF8.self)
    }

    private static func isLetter(_ byte: UInt8) -> Bool { UInt8(ascii: "a")...UInt8(ascii: "z") ~= byte }

    /// ``init(from:)`` for any name.
    static func unicodeSlug(_ name: String) -> String {
        var words: [String] = []
        var current = ""
        func endWord() {
            if !current.isEmpty { words.append(current) }
            current = ""
        }
        let characters = Array(name.precomposedStringWithCanonicalMapping.lowercased())
        for (index, character) in characters.enumerated() {
            let previous = index > 0 ? characters[index - 1] : nil
            switch character {
            case "+":
                endWord()
                words.append("plus")
            case "#":
                // "C#", "F#" are languages; a leading "#hashtag" is just a marker.
                if let previous, previous.isLetter {
                    endWord()
                    words.append("sharp")
                }
            case "&":
                endWord()
                words.append("and")
            case "%":
                endWord()
                words.append("percent")
            case "@":
                endWord()
                words.append("at")
            case ".":
                // A leading dot is spelt out (".NET" → "dot-net"); inside a word it separates ("v2.0" → "v2-0").
                if previous == nil || previous == " " {
                    endWord()
                    words.append("dot")
                } else {
                    endWord()
                }
            default:
                if character.isLetter || character.isNumber {
                    current += Self.folded(character)
                } else {
                    endWord()
                }
            }
        }
        endWord()
        var text = words.joined(separator: "-")
        if text.isEmpty {
            text =
                "u"
                + name.unicodeScalars.filter { !$0.properties.isWhitespace }
                .map { String($0.value, radix: 16) }.joined(separator: "-")
            if text == "u" { text = "untitled" }
        }
        return text
    }

    /// A Latin letter without its accents; any other letter or digit unchanged.
    private static func folded(_ character: Character) -> String {
        guard let first = character.unicodeScalars.first, !first.isASCII,
            first.properties.isAlphabetic
        else { return String(character) }
        switch character {
        case "ß": return "ss"
        case "æ": return "ae"
        case "œ": return "oe"
        case "ø": return "o"
        case "đ", "ð": return "d"
        case "ł": return "l"
        case "þ": return "th"
        default: break
        }
        let decomposed = String(character).decomposedStringWithCanonicalMapping.unicodeScalars
        guard let base = decomposed.first, base.isASCII else { return String(character) }
        return String(decomposed.filter { $0.isASCII })
    }

    package var description: String { rawValue }

    package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// A slug given by hand (front matter `slug:`), checked: one path segment, no `..`, no
    /// slashes, no characters that would need escaping in a file name.
    static func validated(_ text: String) -> Slug? {
        // The usual slug, ASCII letters, digits, '-', '_' and '.', passes every rule below as it
        // is; checking its bytes skips trimming and the Character properties.
        if let first = text.utf8.first, first != UInt8(ascii: "."), text.utf8.allSatisfy(Self.isPlainSlugByte) {
            return Slug(rawValue: fittingFileName(text))
        }
        return unicodeValidated(text).map { Slug(rawValue: fittingFileName($0.rawValue)) }
    }

    /// ``validated(_:)`` for any text.
    static func unicodeValidated(_ text: String) -> Slug? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed != ".", trimmed != "..", !trimmed.hasPrefix("."),
            !trimmed.contains("/"), !trimmed.contains("\\"), !trimmed.contains(where: { $0.isNewline }),
            trimmed.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." })
        else { return nil }
        return Slug(rawValue: trimmed)
    }

    private static func isPlainSlugByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
            true
        default: false
        }
    }
}

/// Percent-encodes a URL path (keeps `/` and unreserved ASCII), so that links to pages named in
/// any script are valid in HTML, Atom and sitemaps.
func percentEncodedPath(_ path: String) -> String {
    // Most paths need nothing encoded, and a page makes two URLs: building a copy of each byte by
    // byte showed in a large build.
    // Over the string's bytes in place: through the UTF-8 view the check cost far more per path.
    var path = path
    guard path.withUTF8({ $0.contains(where: { !isKeptInPath($0) }) }) else { return path }
    var out: [UInt8] = []
    out.reserveCapacity(path.utf8.count * 3)
    let digits = Array("0123456789ABCDEF".utf8)
    for byte in path.utf8 {
        if isKeptInPath(byte) {
            out.append(byte)
        } else {
            out += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
        }
    }
    return String(decoding: out, as: UTF8.self)
}

/// `/` and the unreserved ASCII characters of RFC 3986.
private func isKeptInPath(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
        UInt8(ascii: "~"), UInt8(ascii: "/"):
        true
    default: false
    }
}
