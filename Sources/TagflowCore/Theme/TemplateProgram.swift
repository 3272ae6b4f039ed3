import Mustache
import Synchronization
internal import TagflowHTML

/// A theme's templates as swift-mustache parsed them, rendered without swift-mustache's
/// per-lookup costs.
///
/// swift-mustache renders by looking every name up through protocol casts (`as? MustacheParent`,
/// `as? MustacheCustomRepresentation`, `as? MustacheCustomRenderable`, `as? AnyOptional`…),
/// splitting dotted names again on every lookup, and joining each piece of output into a new
/// string: 39% of a 10 000-post build's CPU time, 16% in dynamic casts alone. This walks the same
/// parsed tokens (read from swift-mustache's templates, so parsing, standalone lines and
/// whitespace stay exactly swift-mustache's) with the value types Tagflow's contexts are made of
/// checked first by concrete type, and writes into one buffer.
///
/// It is exact or it declines:
/// - A theme using something it does not do (transforms, dynamic partials, another content type,
///   indented standalone partials or blocks) is not compiled; the theme renders with
///   swift-mustache.
/// - A value of any type other than those below makes ``render(_:with:)`` throw, and the page is
///   rendered with swift-mustache instead. Handled: `String`, `Int`, `Double`, `Bool`,
///   `[String: Any]` (and other dictionaries keyed by `String`), ``SharedContext``, arrays, and
///   absent names.
///
/// What a section renders from a ``SharedContext`` is kept in it when it read nothing below it on
/// the stack, and reused by every later page (see ``SharedContext``).
///
/// `ThemeTests` compares the two renderers on every built-in template and on generated templates
/// and contexts.
struct TemplateProgram: Sendable {
    /// A piece of a parsed template.
    indirect enum Node: Sendable {
        case text(String)
        case variable(Name, escaped: Bool)
        /// `id`: unique in the process, the key of what a ``SharedContext`` keeps of the body.
        case section(Name, [Node], inverted: Bool, id: Int)
        /// A partial, or a parent (`{{<name}}`) with the blocks it overrides.
        case partial(String, overrides: [String: [Node]]?)
        /// A `{{$name}}` block and what it shows when nothing overrides it.
        case block(String, default: [Node])
    }

    /// A variable or section name, split once.
    struct Name: Sendable {
        /// `.`: the top of the context stack.
        var isCurrent: Bool
        /// `.name`: looked up only in the top of the stack.
        var isTopOnly: Bool
        var path: [String]

        init(_ text: String) {
            path = text.split(separator: ".").map(String.init)
            isCurrent = text == "." || path.isEmpty
            isTopOnly = text.first == "."
        }
    }

    /// A value type ``render(_:with:)`` does not render the way swift-mustache would.
    struct Unsupported: Error {}

    /// The context stack, and how deep into it the names looked up so far reached.
    private struct State {
        var stack: [Any]
        /// The lowest stack index a lookup found a name at since this was last reset; `-1` after
        /// a `{{$block}}`, whose text depends on the templates that include it.
        var lowestRead = Int.max
        /// The names looked up since the last reset that no context held.
        var missed: [String] = []

        mutating func read(downTo index: Int) { lowestRead = min(lowestRead, index) }

        mutating func miss(_ names: [String]) {
            for name in names where !missed.contains(name) { missed.append(name) }
        }
    }

    /// The next section's ``Node/section(_:_:inverted:id:)`` identity.
    private static let nextSectionID = Atomic<Int>(0)

    private let templates: [String: [Node]]

    /// Compiles swift-mustache's parsed templates; fails when a template uses something this
    /// does not render exactly.
    ///
    /// - Parameters:
    ///   - templates: Every template of the theme by name, each parsed from text that starts with
    ///     ``Theme/escapingPragma``.
    ///   - escaping: The content type that pragma names.
    init?(_ templates: [String: MustacheTemplate], escaping: any MustacheContentType.Type) {
        var compiled: [String: [Node]] = [:]
        for (name, template) in templates {
            guard var tokens = Self.tokens(of: template), case .contentType(let type)? = tokens.first,
                type == escaping
            else { return nil }
            tokens.removeFirst()
            guard let nodes = Self.nodes(tokens) else { return nil }
            compiled[name] = nodes
        }
        self.templates = compiled
    }

    // MARK: Rendering

    /// Renders a context with the named template.
    ///
    /// - Returns: The text; `""` for a template that does not exist, as swift-mustache.
    /// - Throws: ``Unsupported`` when the context holds a value of another type.
    func render(_ context: Any, with name: String) throws(Unsupported) -> String {
        guard let nodes = templates[name] else { return "" }
        var output = ""
        output.reserveCapacity(16_384)
        var state = State(stack: [context])
        try render(nodes, into: &output, state: &state, overrides: nil)
        return output
    }

    private func render(
        _ nodes: [Node], into output: inout String, state: inout State, overrides: [String: [Node]]?
    ) throws(Unsupported) {
        for node in nodes {
            switch node {
            case .text(let text):
                output += text
            case .variable(let name, let escaped):
                guard let value = try lookUp(name, in: &state) else { continue }
                let text = try Self.text(of: value)
                output += escaped ? HTMLEscaping.escaped(text) : text
            case .section(let name, let body, let inverted, let id):
                let value = try lookUp(name, in: &state)
                if inverted {
                    try renderInverted(value, body, into: &output, state: &state, overrides: overrides)
                } else {
                    try renderSection(value, body, id: id, into: &output, state: &state, overrides: overrides)
                }
            case .partial(let name, let blocks):
                guard let partial = templates[name] else { continue }
                // Blocks already overridden by an outer template keep the outer override.
                var merged = overrides
                if let blocks { merged = (overrides ?? [:]).merging(blocks) { outer, _ in outer } }
                try render(partial, into: &output, state: &state, overrides: merged)
            case .block(let name, let fallback):
                state.read(downTo: -1)
                try render(overrides?[name] ?? fallback, into: &output, state: &state, overrides: overrides)
            }
        }
    }

    private func renderSection(
        _ value: Any?, _ body: [Node], id: Int, into output: inout String, state: inout State,
        overrides: [String: [Node]]?
    ) throws(Unsupported) {
        guard let value else { return }
        if let flag = value as? Bool {
            if flag { try render(body, into: &output, state: &state, overrides: overrides) }
        } else if let items = Self.items(of: value) {
            for index in 0..<items.count {
                try render(body, id: id, pushing: items[index], into: &output, state: &state, overrides: overrides)
            }
        } else {
            try Self.checkSupported(value)
            try render(body, id: id, pushing: value, into: &output, state: &state, overrides: overrides)
        }
    }

    /// Renders a section's body with `context` on top of the stack, or takes what a
    /// ``SharedContext`` kept of it.
    private func render(
        _ body: [Node], id: Int, pushing context: Any, into output: inout String, state: inout State,
        overrides: [String: [Node]]?
    ) throws(Unsupported) {
        // By exact type: on Linux, `as? SomeClass` of a dictionary first bridges it to an
        // NSDictionary, which was 5% of a build.
        guard Swift.type(of: context) == SharedContext.self, let shared = context as? SharedContext else {
            state.stack.append(context)
            defer { state.stack.removeLast() }
            return try render(body, into: &output, state: &state, overrides: overrides)
        }
        if let kept = shared.rendering(of: id), Self.noneHolds(kept.missed, in: state.stack) {
            output += kept.text
            shared.countReuse()
            // What contains this depends on those names staying missing too.
            state.miss(kept.missed)
            return
        }
        let level = state.stack.count
        let (outerRead, outerMissed) = (state.lowestRead, state.missed)
        (state.lowestRead, state.missed) = (Int.max, [])
        let start = output.utf8.count
        state.stack.append(context)
        defer { state.stack.removeLast() }
        try render(body, into: &output, state: &state, overrides: overrides)
        if state.lowestRead >= level {
            let utf8 = output.utf8
            let text = String(decoding: utf8[utf8.index(utf8.startIndex, offsetBy: start)...], as: UTF8.self)
            shared.keep(SharedContext.Rendering(text: text, missed: state.missed), of: id)
        }
        let missed = state.missed
        (state.lowestRead, state.missed) = (min(outerRead, state.lowestRead), outerMissed)
        state.miss(missed)
    }

    /// Whether no context of `stack` holds any of `names` (a kept text that looked them up and
    /// missed is the same under this stack).
    private static func noneHolds(_ names: [String], in stack: [Any]) -> Bool {
        for name in names {
            for frame in stack {
                let found: Any?
                do { found = try child(name, of: frame) } catch { return false }
                if found != nil { return false }
            }
        }
        return true
    }

    private func renderInverted(
        _ value: Any?, _ body: [Node], into output: inout String, state: inout State, overrides: [String: [Node]]?
    ) throws(Unsupported) {
        guard let value else { return try render(body, into: &output, state: &state, overrides: overrides) }
        if let flag = value as? Bool {
            if !flag { try render(body, into: &output, state: &state, overrides: overrides) }
        } else if let items = Self.items(of: value) {
            guard items.isEmpty else { return }
            // swift-mustache puts the empty list on the stack; nothing can be found in it.
            state.stack.append([Any]())
            defer { state.stack.removeLast() }
            try render(body, into: &output, state: &state, overrides: overrides)
        } else {
            try Self.checkSupported(value)
        }
    }

    /// The value `name` stands for, looked up as swift-mustache does.
    ///
    /// The first part is looked up in the stack from the top down, the rest inside what that
    /// found. Notes in `state` where it was found, or that it was not.
    private func lookUp(_ name: Name, in state: inout State) throws(Unsupported) -> Any? {
        guard let top = state.stack.last else { return nil }
        if name.isCurrent || name.isTopOnly {
            state.read(downTo: state.stack.count - 1)
            return name.isCurrent ? top : try descend(name.path[...], from: top)
        }
        var index = state.stack.count - 1
        while index >= 0 {
            if let found = try Self.child(name.path[0], of: state.stack[index]) {
                state.read(downTo: index)
                return try descend(name.path.dropFirst(), from: found)
            }
            index -= 1
        }
        state.miss([name.path[0]])
        return nil
    }

    private func descend(_ path: ArraySlice<String>, from value: Any) throws(Unsupported) -> Any? {
        var value = value
        for part in path {
            guard let child = try Self.child(part, of: value) else { return nil }
            value = child
        }
        return value
    }

    /// The value named `key` in `object`: a dictionary's entry; nothing in a text, number, flag
    /// or list (swift-mustache's reflection finds no named children in them).
    private static func child(_ key: String, of object: Any) throws(Unsupported) -> Any? {
        // A cast that fails can be slow (a class to a dictionary), so the exact type decides.
        let type = Swift.type(of: object)
        if type == [String: Any].self, let dictionary = object as? [String: Any] { return dictionary[key] }
        if type == SharedContext.self, let shared = object as? SharedContext { return shared.value(named: key) }
        if let dictionary = object as? [String: Any] { return dictionary[key] }
        if object is String || object is Int || object is Double || object is Bool || object is [Any] { return nil }
        throw Unsupported()
    }

    /// A list, read without converting it to `[Any]` (which boxes every item again).
    private enum Items {
        case shared([SharedContext])
        case dictionaries([[String: Any]])
        case other([Any])

        var isEmpty: Bool { count == 0 }

        var count: Int {
            switch self {
            case .shared(let list): list.count
            case .dictionaries(let list): list.count
            case .other(let list): list.count
            }
        }

        subscript(index: Int) -> Any {
            switch self {
            case .shared(let list): list[index]
            case .dictionaries(let list): list[index]
            case .other(let list): list[index]
            }
        }
    }

    /// A list's items, `nil` for a value that is not a list.
    private static func items(of value: Any) -> Items? {
        // Exact types first: a cast from one array type to another that fails casts the items
        // one by one before it does.
        let type = Swift.type(of: value)
        if type == [SharedContext].self, let list = value as? [SharedContext] { return .shared(list) }
        if type == [[String: Any]].self, let list = value as? [[String: Any]] { return .dictionaries(list) }
        if let list = value as? [Any] { return .other(list) }
        return nil
    }

    private static func checkSupported(_ value: Any) throws(Unsupported) {
        guard
            Swift.type(of: value) == SharedContext.self || value is String || value is Int || value is Double
                || value is [String: Any]
        else {
            throw Unsupported()
        }
    }

    /// What `{{name}}` shows of a value, as swift-mustache's `String(describing:)`.
    private static func text(of value: Any) throws(Unsupported) -> String {
        if let text = value as? String { return text }
        if let number = value as? Int { return String(describing: number) }
        if let number = value as? Double { return String(describing: number) }
        if let flag = value as? Bool { return String(describing: flag) }
        throw Unsupported()
    }

    // MARK: Compiling

    /// The parsed tokens of a template, read by reflection (swift-mustache keeps them internal).
    ///
    /// - Returns: `nil` if the template is not shaped as expected, e.g. after a swift-mustache
    ///   update; the theme then renders with swift-mustache.
    private static func tokens(of template: MustacheTemplate) -> [Token]? {
        guard let tokens = Mirror(reflecting: template).descendant("tokens") as? [Any] else { return nil }
        var result: [Token] = []
        for token in tokens {
            guard let parsed = Token(token) else { return nil }
            result.append(parsed)
        }
        return result
    }

    /// The nodes of a section, block or override, which swift-mustache parses as a template of
    /// its own.
    private static func nodes(of template: MustacheTemplate) -> [Node]? {
        tokens(of: template).flatMap { nodes($0) }
    }

    /// Nodes for tokens; `nil` if one is a content type, which only a template's first line may set.
    private static func nodes(_ tokens: [Token]) -> [Node]? {
        var nodes: [Node] = []
        for token in tokens {
            switch token {
            case .text(let text):
                nodes.append(.text(text))
            case .variable(let name, let escaped):
                nodes.append(.variable(Name(name), escaped: escaped))
            case .section(let name, let body, let inverted):
                guard let bodyNodes = Self.nodes(of: body) else { return nil }
                let id = nextSectionID.wrappingAdd(1, ordering: .relaxed).oldValue
                nodes.append(.section(Name(name), bodyNodes, inverted: inverted, id: id))
            case .partial(let name, let blocks):
                var overrides: [String: [Node]]?
                if let blocks {
                    overrides = [:]
                    for (block, template) in blocks {
                        guard let blockNodes = Self.nodes(of: template) else { return nil }
                        overrides?[block] = blockNodes
                    }
                }
                nodes.append(.partial(name, overrides: overrides))
            case .block(let name, let fallback):
                guard let fallbackNodes = Self.nodes(of: fallback) else { return nil }
                nodes.append(.block(name, default: fallbackNodes))
            case .contentType:
                return nil
            }
        }
        return nodes
    }

    /// The swift-mustache tokens this renders, read from their reflection.
    private enum Token {
        case text(String)
        case variable(String, escaped: Bool)
        case section(String, MustacheTemplate, inverted: Bool)
        case partial(String, overrides: [String: MustacheTemplate]?)
        case block(String, default: MustacheTemplate)
        case contentType(any MustacheContentType.Type)

        /// Reads one token; `nil` for one this does not render (transforms, dynamic partials,
        /// indentation, lambdas' block definitions outside a parent).
        init?(_ token: Any) {
            let mirror = Mirror(reflecting: token)
            guard mirror.displayStyle == .enum, let payload = mirror.children.first, let label = payload.label else {
                return nil
            }
            let fields = Mirror(reflecting: payload.value).children.map(\.value)
            switch label {
            case "text":
                guard let text = payload.value as? String else { return nil }
                self = .text(text)
            case "variable", "unescapedVariable":
                guard fields.count == 2, let name = fields[0] as? String, let transforms = fields[1] as? [String],
                    transforms.isEmpty
                else { return nil }
                self = .variable(name, escaped: label == "variable")
            case "section", "invertedSection":
                guard fields.count == 3, let name = fields[0] as? String, let transforms = fields[1] as? [String],
                    transforms.isEmpty, let body = fields[2] as? MustacheTemplate
                else { return nil }
                self = .section(name, body, inverted: label == "invertedSection")
            case "partial":
                guard fields.count == 3, let name = fields[0] as? String,
                    let indentation = fields[1] as? String?, indentation ?? "" == "",
                    let blocks = fields[2] as? [String: MustacheTemplate]?
                else { return nil }
                self = .partial(name, overrides: blocks)
            case "blockExpansion":
                guard fields.count == 3, let name = fields[0] as? String, let fallback = fields[1] as? MustacheTemplate,
                    let indentation = fields[2] as? String?, indentation ?? "" == ""
                else { return nil }
                self = .block(name, default: fallback)
            case "contentType":
                guard let type = payload.value as? any MustacheContentType else { return nil }
                self = .contentType(Swift.type(of: type))
            default:
                return nil
            }
        }
    }
}
