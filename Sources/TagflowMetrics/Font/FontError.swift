/// A font file that cannot be read: truncated, corrupt, unsupported or hostile.
///
/// The error names the table (`"cmap"`, `"GPOS"`, or `"file"` for the file header) and the
/// absolute byte offset in the file where reading failed.
///
/// ```swift
/// print(error)  // "font table 'cmap' at byte 1234: truncated: 2 bytes needed"
/// ```
public struct FontError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The four-character tag of the table being read, or `"file"` for the file header.
    public var tag: String
    /// The byte offset in the file where the problem was found.
    public var offset: Int
    /// What went wrong.
    public var reason: String

    /// Makes an error for `tag` at `offset`.
    public init(tag: String, offset: Int, reason: String) {
        self.tag = tag
        self.offset = offset
        self.reason = reason
    }

    public var description: String {
        "font table '\(tag)' at byte \(offset): \(reason)"
    }
}
