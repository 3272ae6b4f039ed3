import Foundation
import Synchronization
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
    /// The site's base path without its last slash (`/blog`, or empty).
    private let basePath: String
    /// The site's absolute base URL without its last slash, or empty.
    private let baseURL: String
    /// Each file's dimensions once read: pages render in parallel and share images.
    private let read = Mutex<[String: ImageDimensions?]>([:])

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
        basePath = config.basePath
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
        output.reserveCapacity(bytes.count + 256)
        var copied = 0
        var imagesSeen = 0
        for token in HTMLScanner.tokens(of: bytes) where token.kind == .startTag && token.name == "img" {
            imagesSeen += 1
            var added = ""
            if token.attribute("width") == nil, token.attribute("height") == nil,
                let source = token.attribute("src"), let size = dimensions(of: source, pagePath: pagePath)
            {
                added += " width=\"\(size.width)\" height=\"\(size.height)\""
            }
            if imagesSeen > 1, token.attribute("loading") == nil { added += " loading=\"lazy\"" }
            guard !added.isEmpty else { continue }
            // After `<img`: the attributes of the tag as written follow, unchanged.
            let insertion = token.range.lowerBound + 4
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
            guard bytes.count >= 4 else { return false }
            for index in 0..<(bytes.count - 3) where bytes[index] == UInt8(ascii: "<") {
                if bytes[index + 1] | 0x20 == UInt8(ascii: "i"), bytes[index + 2] | 0x20 == UInt8(ascii: "m"),
                    bytes[index + 3] | 0x20 == UInt8(ascii: "g")
                {
                    return true
                }
            }
            return false
        }
    }

    /// The dimensions of the static image `source` names, read once per file.
    private func dimensions(of source: String, pagePath: String) -> ImageDimensions? {
        guard let path = outputPath(of: source, pagePath: pagePath), let file = files[path] else { return nil }
        if let known = read.withLock({ $0[path] }) { return known }
        let dimensions = ImageDimensions.read(file)
        read.withLock { $0[path] = dimensions }
        return dimensions
    }

    /// The output path (`images/a.png`) a `src` names in this site, or `nil` when it names
    /// something elsewhere.
    ///
    /// - Parameters:
    ///   - source: The `src` as written (character references already decoded).
    ///   - pagePath: The page's path in the site (`/posts/hello/`).
    /// - Returns: The path inside the output folder.
    func outputPath(of source: String, pagePath: String) -> String? {
        var reference = source.trimmingCharacters(in: .whitespacesAndNewlines)
        if let end = reference.firstIndex(where: { $0 == "?" || $0 == "#" }) { reference = String(reference[..<end]) }
        var sitePath: String
        if reference.hasPrefix(baseURL + "/"), !baseURL.isEmpty, baseURL.contains("://") {
            sitePath = String(reference.dropFirst(baseURL.count))
        } else if reference.hasPrefix("//") || Self.hasScheme(reference) {
            return nil
        } else if reference.hasPrefix("/") {
            guard reference.hasPrefix(basePath + "/") else { return nil }
            sitePath = String(reference.dropFirst(basePath.count))
        } else {
            let folder = pagePath.lastIndex(of: "/").map { String(pagePath[...$0]) } ?? "/"
            sitePath = folder + reference
        }
        guard let decoded = sitePath.removingPercentEncoding else { return nil }
        sitePath = decoded
        var segments: [Substring] = []
        for segment in sitePath.split(separator: "/", omittingEmptySubsequences: true) {
            switch segment {
            case ".": continue
            case "..":
                guard !segments.isEmpty else { return nil }
                segments.removeLast()
            default: segments.append(segment)
            }
        }
        return segments.isEmpty ? nil : segments.joined(separator: "/")
    }

    /// Whether a reference starts with a URL scheme (`https:`, `data:`…).
    private static func hasScheme(_ reference: String) -> Bool {
        guard let colon = reference.firstIndex(of: ":"), let first = reference.first, first.isASCII, first.isLetter
        else { return false }
        return reference[..<colon].allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
    }
}
