import Foundation

/// Jekyll's Liquid in a body: `post_url` and `link` become links by file name, `highlight` a fenced
/// code block, `raw` its text, and `{{ site.baseurl }}` and `relative_url` go (Tagflow puts the
/// base path on links from the root itself); the rest are left as written and listed.
struct LiquidTags {
    /// Destinations by `post_url` name (`2024-03-05-hello`, `news/2024-03-05-hello`).
    private var posts: [String: String] = [:]
    /// Destinations by source path, for `link` (`_posts/2024-03-05-hello.md`, `about.md`).
    private var paths: [String: String] = [:]

    init(documents: [ImportedDocument], sourcePrefix: String) {
        for document in documents {
            let relative = String(document.sourcePath.dropFirst(sourcePrefix.count))
            paths[relative] = document.destination
            if document.kind == .post, let range = relative.range(of: "_posts/") {
                let inner = SitePaths.withoutExtension(String(relative[range.upperBound...]))
                posts[inner] = document.destination
                posts[SitePaths.fileName(of: inner)] = posts[SitePaths.fileName(of: inner)] ?? document.destination
            }
        }
    }

    func convert(_ document: inout ImportedDocument, notes: inout [ImportNote]) {
        let body = document.body
        guard body.contains("{%") || body.contains("{{") else { return }
        var output = ""
        var index = body.startIndex
        func line(at position: String.Index) -> Int { document.bodyFirstLine + body[..<position].count { $0 == "\n" } }
        while let open = body.range(of: "{", range: index..<body.endIndex) {
            let next = body.index(after: open.lowerBound)
            guard next < body.endIndex, body[next] == "%" || body[next] == "{" else {
                output += body[index..<next]
                index = next
                continue
            }
            output += body[index..<open.lowerBound]
            let isTag = body[next] == "%"
            let closer = isTag ? "%}" : "}}"
            guard let close = body.range(of: closer, range: body.index(after: next)..<body.endIndex) else {
                output += body[open.lowerBound...]
                index = body.endIndex
                break
            }
            let whole = String(body[open.lowerBound..<close.upperBound])
            var inner = body[body.index(after: next)..<close.lowerBound]
            // `{%-` and `-%}` trim white space; the words are the same.
            if inner.hasPrefix("-") { inner = inner.dropFirst() }
            if inner.hasSuffix("-") { inner = inner.dropLast() }
            let words = inner.split(whereSeparator: \.isWhitespace).map(String.init)
            index = close.upperBound
            /// Keeps the tag as it is, and says why at its line.
            func leaveAsWritten(_ message: String) {
                output += whole
                notes.append(
                    ImportNote(
                        path: document.sourcePath, line: line(at: open.lowerBound),
                        message: message + "; left as written"))
            }
            if !isTag {
                // `{{ site.baseurl }}`, `{{ site.url }}`, `{{ "/a/" | relative_url }}`.
                let expression = words.joined(separator: " ")
                if ["site.baseurl", "site.url", "site.url | append: site.baseurl"].contains(expression) {
                    continue
                }
                if words.count == 3, words[1] == "|", ["relative_url", "absolute_url"].contains(words[2]),
                    let literal = Self.unquoted(words[0])
                {
                    output += literal
                    continue
                }
                leaveAsWritten("Liquid '\(whole)' is not converted")
                continue
            }
            switch words.first ?? "" {
            case "post_url":
                let name = words.dropFirst().joined(separator: " ")
                if let target = posts[name] ?? posts[SitePaths.fileName(of: name)] {
                    output += SitePaths.relativeLink(from: document.destination, to: target)
                } else {
                    leaveAsWritten("post_url '\(name)' names no post that was imported")
                }
            case "link":
                let name =
                    Self.unquoted(words.dropFirst().joined(separator: " ")) ?? words.dropFirst().joined(separator: " ")
                let key = name.hasPrefix("/") ? String(name.dropFirst()) : name
                if let target = paths[key] {
                    output += SitePaths.relativeLink(from: document.destination, to: target)
                } else if !key.hasPrefix("_"), !SitePaths.fileName(of: key).contains("{") {
                    // A file Jekyll copies as it is: published at the same path.
                    output += "/" + key
                } else {
                    leaveAsWritten("link '\(name)' names no file that was imported")
                }
            case "highlight":
                guard let end = Self.closingTag("endhighlight", in: body, from: index) else {
                    leaveAsWritten("highlight without endhighlight")
                    continue
                }
                let language = words.count > 1 ? words[1] : ""
                let options = words.dropFirst(2).map { word -> String in
                    word.hasPrefix("hl_lines=") ? "hl_lines=" + (Self.unquoted(String(word.dropFirst(9))) ?? "") : word
                }
                output += HugoShortcodes.fence(
                    String(body[index..<end.lowerBound]), language: language,
                    options: options.map { $0.contains("=") ? $0 : $0 + "=true" }.joined(separator: ","))
                index = end.upperBound
            case "raw":
                guard let end = Self.closingTag("endraw", in: body, from: index) else {
                    leaveAsWritten("raw without endraw")
                    continue
                }
                output += body[index..<end.lowerBound]
                index = end.upperBound
            case "comment":
                // A Liquid comment is not published; nor is it lost: it becomes an HTML comment.
                guard let end = Self.closingTag("endcomment", in: body, from: index) else {
                    leaveAsWritten("comment without endcomment")
                    continue
                }
                output += "<!--" + body[index..<end.lowerBound].replacingOccurrences(of: "--", with: "- -") + "-->"
                index = end.upperBound
            default:
                leaveAsWritten("Liquid tag '\(words.first ?? "")' is not converted")
            }
        }
        output += body[index...]
        document.body = output
    }

    /// The range of `{% name %}` (with any white-space trimming marks) after `start`.
    private static func closingTag(_ name: String, in body: String, from start: String.Index) -> Range<String.Index>? {
        var index = start
        while let open = body.range(of: "{%", range: index..<body.endIndex) {
            guard let close = body.range(of: "%}", range: open.upperBound..<body.endIndex) else { return nil }
            let words = body[open.upperBound..<close.lowerBound].trimmingCharacters(
                in: CharacterSet(charactersIn: "- \t\n"))
            if words == name { return open.lowerBound..<close.upperBound }
            index = close.upperBound
        }
        return nil
    }

    /// `"text"` or `'text'` without its quotes; `nil` if not quoted.
    static func unquoted(_ text: String) -> String? {
        guard text.count >= 2, let first = text.first, first == "\"" || first == "'", text.last == first else {
            return nil
        }
        return String(text.dropFirst().dropLast())
    }
}
