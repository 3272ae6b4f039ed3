import TagflowHTML

/// A small subset of CSS selectors, enough to name the tag lists of a theme: type (`ul`),
/// `.class`, `#id`, `[attr]`, `[attr=value]`, `[attr~=value]`, `[attr*=value]`, `[attr^=value]`,
/// `[attr$=value]`, the universal `*`, the descendant (space) and child (`>`) combinators, and
/// lists separated by commas.
///
/// ```swift
/// let selector = try Selector("footer.post-info p, ul.tags")
/// ```
public struct Selector: Sendable, Hashable, CustomStringConvertible {
    /// The selector as written.
    public let description: String
    /// Each alternative of the list, as compounds from the outermost to the element itself.
    let alternatives: [[Step]]

    /// A compound selector and how it relates to the one before it.
    struct Step: Sendable, Hashable {
        /// True when the element must be a child of the previous step's element, not any descendant.
        var isChild = false
        var name: String?
        var id: String?
        var classes: [String] = []
        var attributes: [AttributeTest] = []
    }

    struct AttributeTest: Sendable, Hashable {
        enum Match: Sendable, Hashable { case present, equals, word, contains, prefix, suffix }
        var name: String
        var match: Match
        var value: String
    }

    /// Why a selector could not be read.
    public struct ParseError: Error, Sendable, CustomStringConvertible {
        /// What is wrong, and where.
        public var description: String
    }

    /// Reads a selector.
    ///
    /// - Throws: ``ParseError`` for syntax outside the subset.
    public init(_ text: String) throws(ParseError) {
        description = text
        var alternatives: [[Step]] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            alternatives.append(try Self.parseComplex(Array(part.unicodeScalars), whole: text))
        }
        self.alternatives = alternatives
    }

    private static func parseComplex(_ scalars: [Unicode.Scalar], whole: String) throws(ParseError) -> [Step] {
        var steps: [Step] = []
        var index = 0
        var pendingChild = false
        func fail(_ message: String) -> ParseError {
            ParseError(description: "selector '\(whole)': \(message)")
        }
        func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
            scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_"
                || scalar.value > 0x7F
        }
        func readName() -> String {
            var name = ""
            while index < scalars.count, isNameScalar(scalars[index]) {
                name.unicodeScalars.append(scalars[index])
                index += 1
            }
            return name
        }
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar.properties.isWhitespace {
                index += 1
                continue
            }
            if scalar == ">" {
                guard !steps.isEmpty, !pendingChild else { throw fail("'>' needs an element on each side") }
                pendingChild = true
                index += 1
                continue
            }
            var step = Step(isChild: pendingChild)
            pendingChild = false
            var read = false
            while index < scalars.count, !scalars[index].properties.isWhitespace, scalars[index] != ">" {
                let current = scalars[index]
                if current == "*" {
                    index += 1
                } else if current == "." {
                    index += 1
                    let name = readName()
                    guard !name.isEmpty else { throw fail("'.' needs a class name") }
                    step.classes.append(name)
                } else if current == "#" {
                    index += 1
                    let name = readName()
                    guard !name.isEmpty else { throw fail("'#' needs an id") }
                    step.id = name
                } else if current == "[" {
                    index += 1
                    step.attributes.append(try readAttributeTest())
                } else if isNameScalar(current), !read {
                    step.name = readName().lowercased()
                } else {
                    throw fail(
                        "'\(Character(current))' is not in the supported subset (element, .class, #id, [attr], [attr=value], descendant and '>')"
                    )
                }
                read = true
            }
            steps.append(step)
        }
        guard !steps.isEmpty else { throw fail("empty selector") }
        guard !pendingChild else { throw fail("'>' needs an element on each side") }
        return steps

        func readAttributeTest() throws(ParseError) -> AttributeTest {
            while index < scalars.count, scalars[index].properties.isWhitespace { index += 1 }
            let name = readName().lowercased()
            guard !name.isEmpty else { throw fail("'[' needs an attribute name") }
            while index < scalars.count, scalars[index].properties.isWhitespace { index += 1 }
            guard index < scalars.count else { throw fail("'[' is not closed") }
            if scalars[index] == "]" {
                index += 1
                return AttributeTest(name: name, match: .present, value: "")
            }
            var match = AttributeTest.Match.equals
            switch scalars[index] {
            case "=": break
            case "~": match = .word
            case "*": match = .contains
            case "^": match = .prefix
            case "$": match = .suffix
            default: throw fail("unsupported attribute test")
            }
            if match != .equals {
                index += 1
                guard index < scalars.count, scalars[index] == "=" else { throw fail("unsupported attribute test") }
            }
            index += 1
            while index < scalars.count, scalars[index].properties.isWhitespace { index += 1 }
            var value = ""
            if index < scalars.count, scalars[index] == "\"" || scalars[index] == "'" {
                let quote = scalars[index]
                index += 1
                while index < scalars.count, scalars[index] != quote {
                    value.unicodeScalars.append(scalars[index])
                    index += 1
                }
                guard index < scalars.count else { throw fail("a quoted value is not closed") }
                index += 1
            } else {
                value = readName()
            }
            while index < scalars.count, scalars[index].properties.isWhitespace { index += 1 }
            guard index < scalars.count, scalars[index] == "]" else { throw fail("'[' is not closed") }
            index += 1
            return AttributeTest(name: name, match: match, value: value)
        }
    }

    /// Whether an element matches, given its open ancestors (outermost first).
    func matches(_ element: ElementInfo, ancestors: some BidirectionalCollection<ElementInfo>) -> Bool {
        alternatives.contains { steps in Self.matches(steps[...], element, ancestors: Array(ancestors)[...]) }
    }

    private static func matches(_ steps: ArraySlice<Step>, _ element: ElementInfo, ancestors: ArraySlice<ElementInfo>)
        -> Bool
    {
        guard let last = steps.last, last.matches(element) else { return false }
        let rest = steps.dropLast()
        guard !rest.isEmpty else { return true }
        if last.isChild {
            guard let parent = ancestors.last else { return false }
            return matches(rest, parent, ancestors: ancestors.dropLast())
        }
        // Any ancestor may match the rest; the nearest first.
        var remaining = ancestors
        while let candidate = remaining.popLast() {
            if matches(rest, candidate, ancestors: remaining) { return true }
        }
        return false
    }
}

extension Selector.Step {
    func matches(_ element: ElementInfo) -> Bool {
        if let name, name != element.name { return false }
        if let id, element.attribute("id") != id { return false }
        if !classes.isEmpty {
            let present = element.classes
            guard classes.allSatisfy({ wanted in present.contains { $0 == wanted } }) else { return false }
        }
        return attributes.allSatisfy { test in
            guard let value = element.attribute(test.name) else { return false }
            switch test.match {
            case .present: return true
            case .equals: return value == test.value
            case .word: return value.split(whereSeparator: { $0.isWhitespace }).contains { $0 == test.value }
            case .contains: return !test.value.isEmpty && value.contains(test.value)
            case .prefix: return !test.value.isEmpty && value.hasPrefix(test.value)
            case .suffix: return !test.value.isEmpty && value.hasSuffix(test.value)
            }
        }
    }
}

/// What selectors look at in an element: its name and attributes.
struct ElementInfo: Sendable {
    var name: String
    var attributes: [(name: String, value: String)]

    init(_ token: HTMLToken) {
        name = token.name
        attributes = token.attributes
    }

    func attribute(_ name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }

    var classes: [Substring] {
        attribute("class")?.split(whereSeparator: { $0.isWhitespace }) ?? []
    }
}
