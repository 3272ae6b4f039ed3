import Foundation
import TagflowConcurrency
import TagflowHTML

/// Sizes the images of a page's content from their files, so the page does not shift as they
/// load, and lets all but the first load lazily.
///
/// An `<img>` that has neither `width` nor `height` gets both, read from the static file its
/// `src` names (site-relative, relative to the page, or under the site's own `base_url`); one
/// that has either is left as its author sized it. Every `<img>` after the first gets
/// `loading="lazy"` unless it says how to load: the first is most often what the reader sees
/// first. Images elsewhere (another host, a missing file, a format ``ImageDimensions`` does not
/// read) keep their size unset; missing files are `tagflow check`'s to report.
final class ContentImages: Sendable {
    /// The site's static image files by output path (`images/a.png`).
    private let files: [String: URL]
    /// Resolves a `src` to one of ``files`` by the link check's rules.
    private let links: LinkChecker
    /// The site's base path without its last slash (`/blog`, or empty).
    private let basePath: String
    /// Whether content may hold raw HTML (`markdown.unsafe`), where a `<` can stand inside an
    /// attribute's value.
    private let rawHTML: Bool
    /// The site's absolute base URL without its last slash, or empty.
    private let baseURL: String
    /// Each file's dimensions once read: pages render in parallel and share images.
    private let read = Locked<[String: ImageDimensions?]>([:])

    /// Creates the sizer for a site.
    ///
    /// - Parameters:
    ///   - staticFiles: The static files the site publishes (source file, output path).
    ///   - config: The site's settings (its base path and URL).
    init(staticFiles: [(source: URL, path: String)], config: SiteConfig) {
        var files: [String: URL] = [:]
        for file in staticFiles {
            let name = file.path.split(separator: "/").last ?? ""
            guard let dot = name.lastIndex(of: "."),
                ImageDimensions.fileExtensions.contains(name[name.index(after: dot)...].lowercased())
            else { continue }
            files[file.path] = file.source
        }
        self.files = files
        links = LinkChecker(basePath: config.basePath, paths: Set(files.keys))
        basePath = config.basePath
        rawHTML = config.markdown.unsafe
        baseURL = config.baseURLWithoutSlash
    }

    /// The same content with its images sized and all but the first loading lazily.
    ///
    /// - Parameters:
    ///   - html: A page's content.
    ///   - pagePath: The page's path in the site (`/posts/hello/`), against which relative
    ///     `src` values resolve.
    /// - Returns: The content, unchanged when it has no `<img>`.
    func sized(_ html: String, pagePath: String) -> String {
        guard Self.mayHaveImage(html) else { return html }
        let bytes = Array(html.utf8)
        var output: [UInt8] = []
        var copied = 0
        var imagesSeen = 0
        for token in Self.imageTags(in: bytes, rawHTML: rawHTML) {
            imagesSeen += 1
            var added = ""
            if !files.isEmpty, token.attribute("width") == nil, token.attribute("height") == nil,
                let source = token.attribute("src"), let size = dimensions(of: source, pagePath: pagePath)
            {
                added += " width=\"\(size.width)\" height=\"\(size.height)\""
            }
            if imagesSeen > 1, token.attribute("loading") == nil { added += " loading=\"lazy\"" }
            guard !added.isEmpty else { continue }
            // After `<img`: the attributes of the tag as written follow, unchanged.
            let insertion = token.range.lowerBound + 4
            if output.isEmpty { output.reserveCapacity(bytes.count + 256) }
            output += bytes[copied..<insertion]
            output += Array(added.utf8)
            copied = insertion
        }
        guard copied > 0 else { return html }
        output += bytes[copied...]
        return String(decoding: output, as: UTF8.self)
    }

    /// Whether `html` holds `<img` in any case: most posts have no image, and are passed over
    /// with one scan of their bytes.
    static func mayHaveImage(_ html: String) -> Bool {
        var html = html
        return html.withUTF8 { bytes in
            guard let base = bytes.baseAddress, bytes.count >= 4 else { return false }
            var index = 0
            // memchr to each `<`: a byte loop here was a measurable share of a build.
            while index < bytes.count - 3,
                let found = memchr(base + index, Int32(UInt8(ascii: "<")), bytes.count - 3 - index)
            {
                index = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                if bytes[index + 1] | 0x20 == UInt8(ascii: "i"), bytes[index + 2] | 0x20 == UInt8(ascii: "m"),
                    bytes[index + 3] | 0x20 == UInt8(ascii: "g")
                {
                    return true
                }
                index += 1
            }
            return false
        }
    }

    /// The `<img>` start tags of a page's content, in order.
    ///
    /// Found where `<img` is written, not by tokenizing the whole document (a large share of a
    /// build with images in most posts), unless the content may have raw HTML, or has markup whose
    /// text is not tags (a comment, a `<script>`): the tokenizer then steps over them. Without
    /// raw HTML, every `<` in the content starts a tag cmark-gfm or a plugin wrote.
    static func imageTags(in bytes: [UInt8], rawHTML: Bool) -> [HTMLToken] {
        if rawHTML { return tokenizedImageTags(bytes) }
        var starts: [Int] = []
        var index = 0
        while index + 4 < bytes.count {
            defer { index += 1 }
            // From `<` to `<` with memchr.
            let found = bytes.withUnsafeBufferPointer { buffer -> Int? in
                guard let base = buffer.baseAddress,
                    let at = memchr(base + index, Int32(UInt8(ascii: "<")), buffer.count - 4 - index)
                else { return nil }
                return base.distance(to: at.assumingMemoryBound(to: UInt8.self))
            }
            guard let found else { break }
            index = found
            let next = bytes[index + 1]
            if next == UInt8(ascii: "!") || next == UInt8(ascii: "?") { return tokenizedImageTags(bytes) }
            switch next | 0x20 {
            case UInt8(ascii: "i"):
                if bytes[index + 2] | 0x20 == UInt8(ascii: "m"), bytes[index + 3] | 0x20 == UInt8(ascii: "g"),
                    [UInt8(ascii: " "), UInt8(ascii: "/"), UInt8(ascii: ">"), 9, 10, 12, 13].contains(bytes[index + 4])
                {
                    starts.append(index)
                } else if startsRawText(bytes, at: index) {
                    return tokenizedImageTags(bytes)
                }
            case UInt8(ascii: "s"), UInt8(ascii: "t"), UInt8(ascii: "x"), UInt8(ascii: "n"), UInt8(ascii: "p"):
                if startsRawText(bytes, at: index) { return tokenizedImageTags(bytes) }
            default:
                continue
            }
        }
        return starts.map { HTMLScanner.startTag(in: bytes, at: $0) }
    }

    private static func tokenizedImageTags(_ bytes: [UInt8]) -> [HTMLToken] {
        HTMLScanner.tokens(of: bytes).filter { $0.kind == .startTag && $0.name == "img" }
    }

    /// Whether the tag at `index` opens an element whose content is text (`<script>`, `<style>`…).
    private static func startsRawText(_ bytes: [UInt8], at index: Int) -> Bool {
        var end = index + 1
        while end < bytes.count, end - index <= 10, HTMLScanner.isLetter(bytes[end]) { end += 1 }
        return HTMLScanner.rawTextElements.contains(HTMLScanner.lowercased(bytes[(index + 1)..<end]))
    }

    /// The dimensions of the static image `source` names, read once per file.
    private func dimensions(of source: String, pagePath: String) -> ImageDimensions? {
        guard let path = outputPath(of: source, pagePath: pagePath), let file = files[path] else { return nil }
        if let known = read.withLock({ $0[path] }) { return known }
        let dimensions = ImageDimensions.read(file)
        read.withLock { $0[path] = dimensions }
        return dimensions
    }

    /// The output path (`images/a.png`) of the image file a `src` names in this site, or `nil`
    /// when it names something else.
    ///
    /// - Parameters:
    ///   - source: The `src` as written (character references already decoded).
    ///   - pagePath: The page's path in the site (`/posts/hello/`).
    /// - Returns: The path inside the output folder.
    func outputPath(of source: String, pagePath: String) -> String? {
        var reference = source.trimmingCharacters(in: .whitespacesAndNewlines)
        // The site's own absolute address is a link inside it (the link check counts it as another site's).
        if !baseURL.isEmpty, baseURL.contains("://"), reference.hasPrefix(baseURL + "/") {
            reference = basePath + reference.dropFirst(baseURL.count)
        }
        guard case .file(let path, _) = links.resolve(reference, onPage: Routes.file(for: pagePath)) else { return nil }
        return path
    }
}
