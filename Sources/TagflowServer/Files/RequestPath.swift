import Foundation

/// The path part of a request, checked so that it can only name something inside the output folder.
///
/// ```swift
/// RequestPath(raw: "/posts/hello/")?.relative    // "posts/hello/"
/// RequestPath(raw: "/%2e%2e/etc/passwd")          // nil
/// RequestPath(raw: "/posts\\..\\..\\secret")      // nil
/// ```
///
/// The raw path is percent-decoded once and refused when it holds a `.` or `..` segment (also when that segment is
/// itself percent-encoded again), a backslash, a NUL byte or a colon, or does not start with `/`. This is the
/// first of two guards (STYLE B12.7); ``SafeFileSystem`` also resolves symbolic links and checks that the real
/// path is under the output folder.
package struct RequestPath: Sendable, Hashable {
    /// The decoded path, starting with `/`.
    package let decoded: String

    /// Checks and decodes a raw request path; `nil` when it is refused.
    package init?(raw: String) {
        guard raw.hasPrefix("/"), let decoded = raw.removingPercentEncoding, Self.isAcceptable(decoded) else {
            return nil
        }
        self.decoded = decoded
    }

    /// The decoded path without its leading slashes: empty for the root.
    package var relative: String {
        String(decoded.drop { $0 == "/" })
    }

    /// Whether a page (HTML) could be what the path names: a folder, a `.html` file or a name without extension.
    package var mayNameAPage: Bool {
        guard let last = decoded.split(separator: "/").last else { return true }
        if decoded.hasSuffix("/") { return true }
        let lower = last.lowercased()
        return lower.hasSuffix(".html") || lower.hasSuffix(".htm") || !lower.contains(".")
    }

    /// Whether a decoded path stays inside the folder it is relative to.
    package static func isAcceptable(_ decoded: String) -> Bool {
        guard decoded.hasPrefix("/") else { return false }
        if decoded.contains("\\") || decoded.contains("\0") || decoded.contains(":") { return false }
        for segment in decoded.split(separator: "/", omittingEmptySubsequences: true) {
            if segment == "." || segment == ".." { return false }
            // A segment encoded twice (`%252e%252e`) is refused too, in case anything decodes it again.
            if let again = segment.removingPercentEncoding, again == "." || again == ".." { return false }
        }
        return true
    }
}
