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
