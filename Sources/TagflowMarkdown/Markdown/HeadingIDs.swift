/// Gives headings `id`s the way GitHub does.
///
/// Lowercase; letters, digits, `-` and `_` kept; spaces become `-`; the rest dropped. A repeat
/// gets `-1`, `-2`, and so on.
struct HeadingIDs {
    private var used: [String: Int] = [:]

    mutating func id(for text: String) -> String {
        var base = Self.slug(text)
        if base.isEmpty { base = "section" }
        guard let count = used[base] else {
            used[base] = 0
            return base
        }
        var next = count + 1
        while used["\(base)-\(next)"] != nil { next += 1 }
        used[base] = next
        let id = "\(base)-\(next)"
        used[id] = 0
        return id
    }

    static func slug(_ text: String) -> String {
        // ASCII text (nearly every heading) is done byte by byte; the rules are the same for it,
        // and lowercasing and classifying `Character`s was 2% of a 10 000-post build.
        var text = text
        if let ascii = text.withUTF8({ asciiSlug($0) }) { return ascii }
        return unicodeSlug(text)
    }

    /// ``slug(_:)`` of ASCII bytes, or `nil` if there is a byte beyond ASCII.
    private static func asciiSlug(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var out = [UInt8]()
        out.reserveCapacity(bytes.count)
        for byte in bytes {
            switch byte {
            case 0x80...: return nil
            case UInt8(ascii: " "), UInt8(ascii: "-"): out.append(UInt8(ascii: "-"))
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): out.append(byte + 0x20)
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
                out.append(byte)
            default: break
            }
        }
        return String(decoding: out, as: UTF8.self)
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
