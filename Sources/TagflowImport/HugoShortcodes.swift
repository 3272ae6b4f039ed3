import Foundation

/// Hugo's shortcodes in a body: `ref` and `relref` become links by file name, `highlight` a fenced
/// code block, `figure` an image; the rest are left as written and listed.
struct HugoShortcodes {
    /// Destinations by the content-relative paths a `ref` may name (`posts/a.md`, `posts/a`, a
    /// bundle's folder), lowercased.
    private var byPath: [String: String] = [:]
    /// Destinations by file or bundle name, when only one page has it.
    private var byName: [String: String?] = [:]
    let contentFolder: String

    init(documents: [ImportedDocument], contentFolder: String) {
        self.contentFolder = contentFolder
        for document in documents {
            let relative = String(document.sourcePath.dropFirst(contentFolder.count + 1)).lowercased()
            var keys = [relative, SitePaths.withoutExtension(relative)]
            if document.isBundleIndex { keys.append(SitePaths.folder(of: relative)) }
            for key in keys { byPath[key] = document.destination }
            let name =
                document.isBundleIndex
                ? SitePaths.fileName(of: SitePaths.folder(of: relative))
                : SitePaths.withoutExtension(SitePaths.fileName(of: relative))
            byName[name] = byName[name] == nil ? document.destination : .some(nil)
        }
    }

    /// Converts the shortcodes of a document's body.
    func convert(_ document: inout ImportedDocument, notes: inout [ImportNote]) {
        let body = document.body
        guard body.contains("{{<") || body.contains("{{%") else { return }
        var output = ""
        var index = body.startIndex
        while let open = Self.nextOpening(in: body, from: index) {
            output += body[index..<open.range.lowerBound]
            let line = document.bodyFirstLine + body[..<open.range.lowerBound].count { $0 == "\n" }
            guard let close = body.range(of: open.closer, range: open.range.upperBound..<body.endIndex) else {
                output += body[open.range]
                index = open.range.upperBound
                continue
            }
            let inner = body[open.range.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespacesAndNewlines)
            let whole = String(body[open.range.lowerBound..<close.upperBound])
            index = close.upperBound
            // `{{</* name */>}}` is Hugo's way to write a shortcode as text.
            if inner.hasPrefix("/*") && inner.hasSuffix("*/") {
                let text = inner.dropFirst(2).dropLast(2).trimmingCharacters(in: .whitespaces)
                output += open.opener + " " + text + " " + open.closer
                continue
            }
            if inner.hasPrefix("/") {
                output += whole
                continue
            }
            let arguments = Self.arguments(inner)
            let name = arguments.first?.value ?? ""
            let rest = Array(arguments.dropFirst())
            switch name {
            case "ref", "relref":
                let target = rest.first { $0.name == nil || $0.name == "path" }?.value ?? ""
                if let link = link(to: target, from: document) {
                    output += link
                } else {
                    output += whole
                    notes.append(
                        ImportNote(
                            path: document.sourcePath, line: line,
                            message: "\(name) '\(target)' names no page that was imported; left as written"))
                }
            case "highlight":
                let end = "\(open.opener) /highlight \(open.closer)"
                guard let closing = body.range(of: end, range: index..<body.endIndex) else {
                    output += whole
                    notes.append(
                        ImportNote(
                            path: document.sourcePath, line: line,
                            message: "highlight without its closing shortcode; left as written"))
                    continue
                }
                let code = String(body[index..<closing.lowerBound])
                let positional = rest.filter { $0.name == nil }.map(\.value)
                output += Self.fence(
                    code, language: positional.first ?? "",
                    options: positional.dropFirst().first ?? rest.first { $0.name == "options" }?.value ?? "")
                index = closing.upperBound
            case "figure":
                func named(_ key: String) -> String? { rest.first { $0.name == key }?.value }
                let source = named("src") ?? ""
                let caption = named("caption") ?? named("title")
                let alt = named("alt") ?? caption ?? ""
                let title = caption.map { " \"" + $0.replacingOccurrences(of: "\"", with: "\\\"") + "\"" } ?? ""
                output += "![\(alt.replacingOccurrences(of: "]", with: "\\]"))](\(source)\(title))"
            default:
                output += whole
                notes.append(
                    ImportNote(
                        path: document.sourcePath, line: line,
                        message: "shortcode '\(name)' is not converted; left as written"))
            }
        }
        output += body[index...]
        document.body = output
    }

    /// The link to the page a `ref` names, relative to the document, with its `#anchor`.
    private func link(to target: String, from document: ImportedDocument) -> String? {
        var path = target
        var anchor = ""
        if let hash = target.firstIndex(of: "#") {
            anchor = String(target[hash...])
            path = String(target[..<hash])
        }
        if path.isEmpty { return anchor.isEmpty ? nil : anchor }
        let lowered = path.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        let sourceFolder = SitePaths.folder(
            of: String(document.sourcePath.dropFirst(contentFolder.count + 1)).lowercased())
        var candidates: [String] = []
        if !path.hasPrefix("/"), let relative = SitePaths.normalized(sourceFolder + "/" + lowered) {
            candidates.append(relative)
        }
        candidates.append(lowered)
        for candidate in candidates {
            for key in [candidate, SitePaths.withoutExtension(candidate)] {
                if let destination = byPath[key] {
                    return SitePaths.relativeLink(from: document.destination, to: destination) + anchor
                }
            }
        }
        let name = SitePaths.withoutExtension(SitePaths.fileName(of: lowered))
        if case .some(.some(let destination)) = byName[name] {
            return SitePaths.relativeLink(from: document.destination, to: destination) + anchor
        }
        return nil
    }

    /// A fenced code block for a `highlight` shortcode, with Hugo's options that Tagflow reads
    /// (`linenos`, `hl_lines`, `linenostart`).
    static func fence(_ code: String, language: String, options: String) -> String {
        var marks: [String] = []
        for option in options.split(separator: ",") {
            let parts = option.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2 else { continue }
            switch parts[0] {
            case "linenos" where parts[1] != "false": marks.append("linenos")
            case "hl_lines": marks += parts[1].split(separator: " ").map(String.init)
            case "linenostart": marks.append("start=\(parts[1])")
            default: break
            }
        }
        var text = code
        if text.hasPrefix("\n") { text.removeFirst() }
        if !text.hasSuffix("\n") { text += "\n" }
        let longest = Self.longestBacktickRun(text)
        let fence = String(repeating: "`", count: max(3, longest + 1))
        let info = language + (marks.isEmpty ? "" : " {" + marks.joined(separator: ", ") + "}")
        return fence + info + "\n" + text + fence
    }

    static func longestBacktickRun(_ text: String) -> Int {
        var longest = 0
        var run = 0
        for character in text {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        return longest
    }

    private static func nextOpening(in body: String, from index: String.Index) -> (
        range: Range<String.Index>, opener: String, closer: String
    )? {
        let angle = body.range(of: "{{<", range: index..<body.endIndex)
        let percent = body.range(of: "{{%", range: index..<body.endIndex)
        switch (angle, percent) {
        case (let a?, let p?): return a.lowerBound < p.lowerBound ? (a, "{{<", ">}}") : (p, "{{%", "%}}")
        case (let a?, nil): return (a, "{{<", ">}}")
        case (nil, let p?): return (p, "{{%", "%}}")
        default: return nil
        }
    }

    /// A shortcode's words: the name, then positional (`"posts/a.md"`) and named (`src="a.jpg"`)
    /// arguments, with quotes removed.
    static func arguments(_ text: String) -> [(name: String?, value: String)] {
        var result: [(name: String?, value: String)] = []
        var index = text.startIndex
        func skipSpaces() { while index < text.endIndex, text[index].isWhitespace { index = text.index(after: index) } }
        func word() -> String {
            skipSpaces()
            guard index < text.endIndex else { return "" }
            let quote = text[index]
            if quote == "\"" || quote == "`" {
                index = text.index(after: index)
                var value = ""
                while index < text.endIndex, text[index] != quote {
                    if quote == "\"", text[index] == "\\", text.index(after: index) < text.endIndex {
                        index = text.index(after: index)
                    }
                    value.append(text[index])
                    index = text.index(after: index)
                }
                if index < text.endIndex { index = text.index(after: index) }
                return value
            }
            var value = ""
            while index < text.endIndex, !text[index].isWhitespace, text[index] != "=" {
                value.append(text[index])
                index = text.index(after: index)
            }
            return value
        }
        while true {
            skipSpaces()
            guard index < text.endIndex else { break }
            let first = word()
            if index < text.endIndex, text[index] == "=" {
                index = text.index(after: index)
                result.append((first, word()))
            } else {
                result.append((nil, first))
            }
        }
        return result
    }
}
