/// An error or warning about a site, for its author: where, in which step, what, and how to fix it.
///
/// Prints like a compiler diagnostic:
/// ```
/// posts/hello.md:3:7: error: invalid YAML in front matter: mapping values are not allowed here
///     title: Hello: world
///           ^
/// hint: quote values that contain ': ', '#' or start with '[', '{', '*' or '&'
/// ```
public struct TagflowError: Error, Sendable, CustomStringConvertible {
    /// Where the problem is, when it is in a file.
    public var location: SourceLocation?
    /// The build step that found it (`content`, `config`, `templates`, `output`…).
    public var step: String
    /// What is wrong, in one line.
    public var message: String
    /// How to fix it, when there is a good guess.
    public var hint: String?
    /// The source line the location points at, quoted under the message.
    public var sourceLine: String?
    /// The lower-level error, if any.
    public var underlying: (any Error)?

    /// Creates an error.
    public init(
        location: SourceLocation? = nil,
        step: String,
        message: String,
        hint: String? = nil,
        sourceLine: String? = nil,
        underlying: (any Error)? = nil
    ) {
        self.location = location
        self.step = step
        self.message = message
        self.hint = hint
        self.sourceLine = sourceLine
        self.underlying = underlying
    }

    public var description: String { formatted(severity: .error) }

    /// The diagnostic text, with the given severity word.
    public func formatted(severity: Diagnostic.Severity) -> String {
        var text = ""
        if let location { text += "\(location): " }
        text += "\(severity.rawValue): \(message)"
        if let sourceLine, let line = location?.line, line > 0 {
            text += "\n    \(sourceLine)"
            if let column = location?.column, column > 0 {
                let prefix = sourceLine.prefix(column - 1).map { $0 == "\t" ? "\t" : " " }.joined()
                text += "\n    \(prefix)^"
            }
        }
        if let hint { text += "\nhint: \(hint)" }
        return text
    }
}

/// An error or a warning found while building.
public struct Diagnostic: Sendable, CustomStringConvertible {
    /// How serious a diagnostic is.
    public enum Severity: String, Sendable {
        case error
        case warning
    }

    /// Error or warning.
    public var severity: Severity
    /// The details.
    public var error: TagflowError

    /// Creates a diagnostic.
    public init(_ severity: Severity, _ error: TagflowError) {
        self.severity = severity
        self.error = error
    }

    public var description: String { error.formatted(severity: severity) }
}

/// Thrown when a build found errors: every diagnostic, errors and warnings, in a stable order.
public struct BuildFailure: Error, Sendable, CustomStringConvertible {
    /// All diagnostics, sorted by location.
    public var diagnostics: [Diagnostic]

    /// Creates a failure from diagnostics.
    public init(diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }

    /// The errors only.
    public var errors: [TagflowError] { diagnostics.filter { $0.severity == .error }.map(\.error) }

    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}

extension [Diagnostic] {
    /// Sorted by location (diagnostics without one first), then by message, so output is stable.
    func sortedForDisplay() -> [Diagnostic] {
        sorted { lhs, rhs in
            let left = lhs.error.location ?? SourceLocation(path: "")
            let right = rhs.error.location ?? SourceLocation(path: "")
            if left != right { return left < right }
            return lhs.error.message < rhs.error.message
        }
    }
}
