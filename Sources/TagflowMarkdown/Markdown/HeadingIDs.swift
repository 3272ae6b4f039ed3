/// Gives headings `id`s the way GitHub does.
///
/// Lowercase; letters, digits, `-` and `_` kept; spaces become `-`; the rest dropped. A repeat
/// gets `-1`, `-2`, and so on.
struct HeadingIDs {
    private var used: [String: Int] = [:]

    mutating func id(for text: String) -> String {
        var base = Self.slug(text)
        if base.isEmpty { base = "section" }
        // One lookup for a new base (nearly every heading), which goes in as 0.
        var next = Self.incremented(&used[base, default: -1])
        guard next > 0 else { return base }
        while used["\(base)-\(next)"] != nil { next += 1 }
        used[base] = next
        let id = "\(base)-\(next)"
        used[id] = 0
        return id
    }

    private static func incremented(_ count: inout Int) -> Int {
        count += 1
        return count
    }

    static func slug(_ text: String) -> String {
        // ASCII text (nearly every heading) is done byte by byte; the rules are the same for it,
        // and lowercasing and classifying `Character`s was a measurable share of a large build.
        var text = text
        if let ascii = text.withUTF8({ asciiSlug($0) }) { return ascii }
        return unicodeSlug(text)
    }

    /// ``slug(_:)`` of ASCII bytes, or `nil` if there is a byte beyond ASCII.
    ///
    /// Written into a buffer on the stack and copied into a string of its exact size: through an
    /// `[UInt8]` each slug paid for the array's bookkeeping, and a string made with room for the
    /// whole heading kept that room for each of the ids a build holds.
    private static func asciiSlug(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count) { out -> String? in
            var count = 0
            for byte in bytes {
                switch byte {
                case 0x80...:
                    return nil
                case UInt8(ascii: " "), UInt8(ascii: "-"):
                    out[count] = UInt8(ascii: "-")
                    count += 1
                case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                    out[count] = byte + 0x20
                    count += 1
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
                    out[count] = byte
                    count += 1
                default: break
                }
            }
            return String(decoding: UnsafeBufferPointer(rebasing: out[..<count]), as: UTF8.self)
        }
    }

    /// ``slug(_:)`` by `Character`s, for text beyond ASCII.
    static func unicodeSlug(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text.lowercased() {
            if character == " " || character == "-" {
                out.append("-")
            } else if character == "_" || character.isLetter || character.isNumber {
                out.append(character)
            }
        }
        return out
    }
}
