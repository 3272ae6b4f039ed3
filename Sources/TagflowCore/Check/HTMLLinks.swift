/// The links and anchors of one HTML page, found by a small tag scanner.
///
/// ```swift
/// let links = HTMLLinks(scanning: Array(#"<p id="x"><a href="/a/">A &amp; B</a></p>"#.utf8))
/// // links.links == [Link(tag: "a", attribute: "href", url: "/a/", text: "A & B", line: 1)]
/// // links.ids == ["x"]
/// ```
///
/// It reads `href`, `src`, `srcset` and `poster` attributes of every tag (entities decoded), the
/// text of each `<a>`, and every `id` (and `<a name>`), and skips comments and the contents of
/// `<script>` and `<style>`. It is not a full HTML parser; Tagflow's own pages and the raw HTML
/// people put in Markdown are well within what it reads.
///
/// - Complexity: O(*n*) in the length of the page.
struct HTMLLinks: Sendable, Hashable {
    /// A URL in an attribute.
    struct Link: Sendable, Hashable {
        /// The tag that holds it, lowercased (`a`, `img`…).
        var tag: String
        /// The attribute that holds it (`href`, `src`…).
        var attribute: String
        /// The URL, entities decoded.
        var url: String
        /// The text of the link, for `<a href>`; empty otherwise.
        var text: String
        /// The 1-based line of the tag in the page.
        var line: Int
    }

    /// Every link, in page order.
    var links: [Link] = []
    /// Every `id` (and `<a name>`) on the page.
    var ids: Set<String> = []

    private static let linkAttributes: Set<String> = ["href", "src", "srcset", "poster"]

    /// Scans a page.
    init(scanning html: [UInt8]) {
        var index = 0
        var line = 1
        let count = html.count
        // The open `<a>`: where its link is in `links` and where its text starts.
        var openAnchor: (link: Int, textStart: Int)?

        func starts(with text: String, at position: Int, caseInsensitive: Bool = true) -> Bool {
            var position = position
            for byte in text.utf8 {
                guard position < count else { return false }
                let actual = caseInsensitive ? Self.lowercased(html[position]) : html[position]
                if actual != byte { return false }
                position += 1
            }
            return true
        }
        func advance(to end: Int) {
            while index < min(end, count) {
                if html[index] == UInt8(ascii: "\n") { line += 1 }
                index += 1
            }
        }
        /// Moves past the next `needle`, or to the end.
        func skip(past needle: String) {
            while index < count, !starts(with: needle, at: index) { advance(to: index + 1) }
            advance(to: index + needle.utf8.count)
        }

        while index < count {
            guard html[index] == UInt8(ascii: "<") else {
                advance(to: index + 1)
                continue
            }
            if starts(with: "<!--", at: index) {
                skip(past: "-->")
                continue
            }
            let next = index + 1 < count ? html[index + 1] : 0
            if next == UInt8(ascii: "/") {
                if starts(with: "</a", at: index), index + 3 < count, !Self.isNameByte(html[index + 3]),
                    let anchor = openAnchor
                {
                    links[anchor.link].text = Self.text(of: html[anchor.textStart..<index])
                    openAnchor = nil
                }
                advance(to: index + 2)
                continue
            }
            guard Self.isLetter(next) else {
                advance(to: index + 1)
                continue
            }
            let tagLine = line
            let tag = Self.scanTag(html, from: index + 1)
            advance(to: tag.end)
            for (name, value) in tag.attributes {
                if name == "id" || (name == "name" && tag.name == "a") {
                    ids.insert(value)
                } else if Self.linkAttributes.contains(name) {
                    let urls = name == "srcset" ? Self.sourceSetURLs(value) : [value]
                    for url in urls {
                        links.append(Link(tag: tag.name, attribute: name, url: url, text: "", line: tagLine))
                    }
                }
            }
            if tag.name == "a", tag.attributes.contains(where: { $0.name == "href" }) {
                openAnchor = (links.count - 1, index)
            }
            if tag.name == "script" || tag.name == "style" { skip(past: "</\(tag.name)") }
        }
    }

    /// Reads a start tag's name and attributes, from just after its `<`.
    private static func scanTag(_ html: [UInt8], from start: Int) -> (
        name: String, attributes: [(name: String, value: String)], end: Int
    ) {
        var index = start
        let count = html.count
        while index < count, Self.isNameByte(html[index]) { index += 1 }
        let name = String(decoding: html[start..<index].map(Self.lowercased), as: UTF8.self)
        var attributes: [(name: String, value: String)] = []
        while index < count {
            while index < count, Self.isSpace(html[index]) || html[index] == UInt8(ascii: "/") { index += 1 }
            guard index < count, html[index] != UInt8(ascii: ">") else { break }
            let nameStart = index
            while index < count, !Self.isSpace(html[index]),
                ![UInt8(ascii: "="), UInt8(ascii: ">"), UInt8(ascii: "/")].contains(html[index])
            {
                index += 1
            }
            if index == nameStart { index += 1 }
            let attributeName = String(decoding: html[nameStart..<index].map(Self.lowercased), as: UTF8.self)
            while index < count, Self.isSpace(html[index]) { index += 1 }
            var value = ""
            if index < count, html[index] == UInt8(ascii: "=") {
                index += 1
                while index < count, Self.isSpace(html[index]) { index += 1 }
                if index < count, html[index] == UInt8(ascii: "\"") || html[index] == UInt8(ascii: "'") {
                    let quote = html[index]
                    let valueStart = index + 1
                    index = valueStart
                    while index < count, html[index] != quote { index += 1 }
                    value = String(decoding: html[valueStart..<min(index, count)], as: UTF8.self)
                    index += 1
                } else {
                    let valueStart = index
                    while index < count, !Self.isSpace(html[index]), html[index] != UInt8(ascii: ">") { index += 1 }
                    value = String(decoding: html[valueStart..<index], as: UTF8.self)
                }
            }
            attributes.append((attributeName, Self.decodingEntities(value)))
        }
        return (name, attributes, min(index + 1, count))
    }

    /// The URLs of a `srcset` (`a.png 1x, b.png 2x`).
    static func sourceSetURLs(_ value: String) -> [String] {
        value.split(separator: ",").compactMap { candidate in
            candidate.split(whereSeparator: \.isWhitespace).first.map(String.init)
        }
    }

    /// The visible text of some markup: tags dropped, entities decoded, white space collapsed.
    static func text(of markup: ArraySlice<UInt8>) -> String {
        var bytes: [UInt8] = []
        var inTag = false
        for byte in markup {
            if byte == UInt8(ascii: "<") {
                inTag = true
            } else if byte == UInt8(ascii: ">") {
                inTag = false
            } else if !inTag {
                bytes.append(byte)
            }
        }
        let text = decodingEntities(String(decoding: bytes, as: UTF8.self))
        return text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Replaces character references (`&amp;`, `&#39;`, `&#x2F;`) with their characters.
    static func decodingEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        let named: [Substring: String] = [
            "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}",
        ]
        var result = ""
        var rest = text[...]
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            let afterAmpersand = rest.index(after: ampersand)
            guard let semicolon = rest[afterAmpersand...].prefix(12).firstIndex(of: ";") else {
                result += "&"
                rest = rest[afterAmpersand...]
                continue
            }
            let name = rest[afterAmpersand..<semicolon]
            var replacement: String?
            if name.hasPrefix("#x") || name.hasPrefix("#X") {
                replacement = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String($0) }
            } else if name.hasPrefix("#") {
                replacement = UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init).map { String($0) }
            } else {
                replacement = named[name]
            }
            if let replacement {
                result += replacement
                rest = rest[rest.index(after: semicolon)...]
            } else {
                result += "&"
                rest = rest[afterAmpersand...]
            }
        }
        return result + rest
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        let lower = lowercased(byte)
        return lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z")
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }
}
