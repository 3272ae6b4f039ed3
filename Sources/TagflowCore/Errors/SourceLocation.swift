/// A place in a site's source files: a site-relative path, and a line and column when known.
///
/// Prints like a compiler location: `posts/hello.md:3:7`.
public struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The path relative to the site folder (or as given, for files outside it).
    public var path: String
    /// 1-based line, if known.
    public var line: Int?
    /// 1-based column, if known.
    public var column: Int?

    /// Creates a location.
    public init(path: String, line: Int? = nil, column: Int? = nil) {
        self.path = path
        self.line = line
        self.column = column
    }

    public var description: String {
        var text = path
        if let line {
            text += ":\(line)"
            if let column { text += ":\(column)" }
        }
        return text
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.path, lhs.line ?? 0, lhs.column ?? 0) < (rhs.path, rhs.line ?? 0, rhs.column ?? 0)
    }
}
