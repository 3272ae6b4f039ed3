import Mustache
import Synchronization
internal import TagflowHTML

/// A theme's templates as swift-mustache parsed them, rendered without swift-mustache's
/// per-lookup costs.
///
/// swift-mustache renders by looking every name up through protocol casts (`as? MustacheParent`,
/// `as? MustacheCustomRepresentation`, `as? MustacheCustomRenderable`, `as? AnyOptional`…),
/// splitting dotted names again on every lookup, and joining each piece of output into a new
/// string: a large share of a build's CPU time, much of it in dynamic casts. This walks the same
/// parsed tokens (read from swift-mustache's templates, so parsing, standalone lines and
/// whitespace stay exactly swift-mustache's) over typed contexts (``TemplateValue``), and writes
/// into one buffer.
///
/// It is exact or it declines:
/// - A theme using something it does not do (transforms, dynamic partials, another content type,
///   indented standalone partials or blocks) is not compiled; the theme renders with
///   swift-mustache.
/// - Contexts are ``TemplateValue``s. One that `{{name}}` would print whole (a list or an
///   object, which swift-mustache prints as Swift describes it) makes ``render(_:with:)`` throw,
///   and the page is rendered with swift-mustache instead.
///
/// What a section renders from a ``SharedContext`` is kept in it when it read nothing below it on
/// the stack, and reused by every later page (see ``SharedContext``).
///
/// `ThemeTests` compares the two renderers on every built-in template and on generated templates
/// and contexts.
struct TemplateProgram: Sendable {
    /// A piece of a parsed template, as compiled from swift-mustache's tokens (then laid out as
    /// ``Code``).
    indirect enum Node: Sendable {
        case text(String)
        case variable(Name, escaped: Bool)
        case section(Name, [Node], inverted: Bool)
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
        /// `path[0]`, and the parts after it, kept apart so a lookup takes them without slicing;
        /// with their hashes (``TemplateObject/hash(_:)``), made once.
        var first: String
        var firstHash: UInt64
        var rest: [(part: String, hash: UInt64)]
        /// Where ``rest`` is in its ``Code``'s table of parts, which a lookup reads without
        /// retaining an array (set when the name is laid out).
        fileprivate var restInTable: Range<Int32> = 0..<0

        init(_ text: String) {
            path = text.split(separator: ".").map(String.init)
            isCurrent = text == "." || path.isEmpty
            isTopOnly = text.first == "."
            first = path.first ?? ""
            firstHash = TemplateObject.hash(first)
            rest = path.dropFirst().map { ($0, TemplateObject.hash($0)) }
        }
    }

    /// A value type ``render(_:with:)`` does not render the way swift-mustache would.
    struct Unsupported: Error {}

    /// The first ``Code`` section identity of the next program made: identities are unique in
    /// the process, so what a ``SharedContext`` kept for one theme is never taken by another.
    private static let nextSectionID = Atomic<Int>(0)

    private let code: Code
    /// Each template's index in ``Code/templates``.
    private let templateIndices: [String: Int]

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
        let sorted = compiled.sorted { $0.key < $1.key }
        templateIndices = Dictionary(uniqueKeysWithValues: sorted.enumerated().map { ($1.key, $0) })
        code = Code(templates: sorted.map(\.value), indices: templateIndices) { count in
            Self.nextSectionID.wrappingAdd(count, ordering: .relaxed).oldValue
        }
    }

    // MARK: Rendering

    /// Renders a context with the named template, as text.
    ///
    /// - Returns: The text; `""` for a template that does not exist, as swift-mustache.
    /// - Throws: ``Unsupported`` when `{{name}}` shows a list or an object.
    func render(_ context: TemplateValue, with name: String) throws(Unsupported) -> String {
        String(decoding: try bytes(rendering: context, with: name), as: UTF8.self)
    }

    /// Renders a context with the named template, as the UTF-8 bytes of ``render(_:with:)``.
    ///
    /// Pages are written as bytes: building them as bytes saves making a `String` of each and
    /// each append's bookkeeping (string appends were a measurable share of a large build).
    func bytes(rendering context: TemplateValue, with name: String) throws(Unsupported) -> [UInt8] {
        guard let template = templateIndices[name] else { return [] }
        var run = Run(code: code, context: context)
        try run.render(code.templates[template])
        return run.output
    }
}

extension TemplateProgram {
    /// A compiled theme: every template's nodes laid out in one array of plain operations, the
    /// texts in one byte buffer, the names in one list.
    ///
    /// Rendering walks indices into these: no enum payload is copied (and retained) per node and
    /// no per-page dictionary of overrides is merged, which were a large part of rendering.
    ///
    /// The tables are read through pointers, not arrays: reading an array held by a class
    /// retains its buffer, and copying a ``Name`` out retains its parts, on every operation of
    /// every page. Retain and release were much of the program's samples in a profile, and
    /// reading in place made a build faster (docs/performance.md, "Fewer instructions").
    fileprivate final class Code: @unchecked Sendable {
        // @unchecked: the tables are written only in `init` and freed only in `deinit`.
        /// One operation; a section's or block's body is the operations after it, up to `end`.
        struct Operation {
            enum Kind: UInt8 {
                /// `text[first..<first + count]`.
                case text
                /// `names[first]`, escaped or not.
                case escaped, raw
                /// `names[first]`'s section, body up to `end`; for a section, `count` is the index
                /// of the first section laid out with the same body, whose identity it shares.
                case section, invertedSection
                /// The template `templates[first]` (`-1`: none of that name), with the overrides
                /// `overrideLists[count]` (`-1`: none).
                case partial
                /// The block `blockNames[first]`, its default body up to `end`.
                case block
            }
            var kind: Kind
            var first: Int32
            var count: Int32
            var end: Int32
        }

        /// A block a parent's caller overrides: `body` is a range of ``operations``.
        struct Override {
            var block: Int32
            var body: Range<Int32>
        }

        let operations: UnsafeMutableBufferPointer<Operation>
        let text: UnsafeMutableBufferPointer<UInt8>
        let names: UnsafeMutableBufferPointer<Name>
        /// The parts after the first of every name, each name's in a row (``Name/restInTable``).
        let restParts: UnsafeMutableBufferPointer<(part: String, hash: UInt64)>
        /// Each template's operations.
        let templates: UnsafeMutableBufferPointer<Range<Int32>>
        /// The overrides of each partial that has them.
        let overrideLists: [[Override]]
        /// The section identity of the operation at index 0 (``SharedContext``'s key is this plus
        /// the section's index).
        let firstSectionID: Int

        /// Lays out `templates` (their partials named by `indices`); `reserveIDs` takes a count
        /// of identities and returns the first.
        init(templates: [[Node]], indices: [String: Int], reserveIDs: (Int) -> Int) {
            var layout = Layout(indices: indices)
            var ranges: [Range<Int32>] = []
            for nodes in templates {
                let start = Int32(layout.operations.count)
                layout.joinableText = nil
                layout.add(nodes)
                ranges.append(start..<Int32(layout.operations.count))
            }
            operations = Self.table(layout.operations)
            text = Self.table(layout.text)
            names = Self.table(layout.names)
            restParts = Self.table(layout.names.flatMap(\.rest))
            var offset: Int32 = 0
            for index in names.indices {
                let count = Int32(names[index].rest.count)
                names[index].restInTable = offset..<offset + count
                offset += count
            }
            overrideLists = layout.overrideLists
            self.templates = Self.table(ranges)
            firstSectionID = reserveIDs(max(layout.operations.count, 1))
        }

        deinit {
            Self.free(operations)
            Self.free(text)
            Self.free(names)
            Self.free(restParts)
            Self.free(templates)
        }

        private static func free<Element>(_ table: UnsafeMutableBufferPointer<Element>) {
            _ = table.deinitialize()
            table.deallocate()
        }

        /// A copy of `elements` in memory of its own, freed by ``free(_:)``.
        private static func table<Element>(_ elements: [Element]) -> UnsafeMutableBufferPointer<Element> {
            // At least one element's room, so that an empty table has an address to free too.
            let memory = UnsafeMutableBufferPointer<Element>.allocate(capacity: max(elements.count, 1))
            _ = memory.initialize(from: elements)
            return UnsafeMutableBufferPointer(rebasing: memory[..<elements.count])
        }

        /// The operations being laid out.
        private struct Layout {
            let indices: [String: Int]
            var operations: [Operation] = []
            var text: [UInt8] = []
            var names: [Name] = []
            var overrideLists: [[Override]] = []
            var blockNames: [String: Int32] = [:]
            /// The first section laid out with each body, by ``key(of:)``.
            var sectionsByBody: [String: Int32] = [:]
            /// The text operation a text that follows at once may be joined to: the last
            /// operation, when it is a text and no body ended after it.
            var joinableText: Int?

            init(indices: [String: Int]) { self.indices = indices }

            mutating func add(_ nodes: [Node]) {
                for node in nodes {
                    switch node {
                    case .text(let string):
                        let start = Int32(text.count)
                        text.append(contentsOf: string.utf8)
                        // Texts next to each other in one body are one copy.
                        if let joinableText {
                            operations[joinableText].count += Int32(string.utf8.count)
                        } else {
                            operations.append(
                                Operation(kind: .text, first: start, count: Int32(string.utf8.count), end: 0))
                            joinableText = operations.count - 1
                        }
                        continue
                    case .variable(let name, let escaped):
                        joinableText = nil
                        names.append(name)
                        operations.append(
                            Operation(kind: escaped ? .escaped : .raw, first: Int32(names.count - 1), count: 0, end: 0))
                    case .section(let name, let body, let inverted):
                        names.append(name)
                        // Sections with the same body render a shared context the same way (see
                        // ``SharedContext``): one kept text serves them all, e.g. a post's entry
                        // in the home page's list and in its tags' lists.
                        let sameBody = Self.key(of: body)
                        let identity = sectionsByBody[sameBody] ?? Int32(operations.count)
                        if !inverted { sectionsByBody[sameBody] = identity }
                        addBody(
                            Operation(
                                kind: inverted ? .invertedSection : .section, first: Int32(names.count - 1),
                                count: identity, end: 0), body)
                    case .partial(let name, let overrides):
                        var list = -1
                        if let overrides {
                            var entries: [Override] = []
                            // In name order, so that a build lays a theme out the same way each time.
                            for (block, body) in overrides.sorted(by: { $0.key < $1.key }) {
                                // The body goes after this template's operations; a jump skips it.
                                let jump = operations.count
                                addBody(Operation(kind: .block, first: -1, count: 0, end: 0), body)
                                entries.append(
                                    Override(block: blockName(block), body: Int32(jump + 1)..<operations[jump].end))
                            }
                            overrideLists.append(entries)
                            list = overrideLists.count - 1
                        }
                        operations.append(
                            Operation(kind: .partial, first: Int32(indices[name] ?? -1), count: Int32(list), end: 0))
                        joinableText = nil
                    case .block(let name, let fallback):
                        addBody(Operation(kind: .block, first: blockName(name), count: 0, end: 0), fallback)
                    }
                }
            }

            /// A text that tells nodes apart exactly: two lists of nodes have the same key only
            /// if they are the same.
            static func key(of nodes: [Node]) -> String {
                var key = ""
                func add(_ text: String) { key += "\(text.utf8.count):\(text)" }
                func add(_ name: Name) {
                    key += name.isCurrent ? "c" : name.isTopOnly ? "o" : "n"
                    key += "\(name.path.count)"
                    name.path.forEach(add)
                }
                for node in nodes {
                    switch node {
                    case .text(let text):
                        key += "t"
                        add(text)
                    case .variable(let name, let escaped):
                        key += escaped ? "e" : "r"
                        add(name)
                    case .section(let name, let body, let inverted):
                        key += inverted ? "i" : "s"
                        add(name)
                        add(Self.key(of: body))
                    case .partial(let name, let overrides):
                        key += overrides == nil ? "p" : "P\(overrides?.count ?? 0)"
                        add(name)
                        for (block, body) in (overrides ?? [:]).sorted(by: { $0.key < $1.key }) {
                            add(block)
                            add(Self.key(of: body))
                        }
                    case .block(let name, let fallback):
                        key += "b"
                        add(name)
                        add(Self.key(of: fallback))
                    }
                }
                return key
            }

            private mutating func addBody(_ operation: Operation, _ body: [Node]) {
                let index = operations.count
                operations.append(operation)
                joinableText = nil
                add(body)
                operations[index].end = Int32(operations.count)
                joinableText = nil
            }

            private mutating func blockName(_ name: String) -> Int32 {
                if let known = blockNames[name] { return known }
                let index = Int32(blockNames.count)
                blockNames[name] = index
                return index
            }
        }
    }

    /// One rendering: the output, the context stack, and how deep into it the names looked up
    /// so far reached.
    private struct Run {
        let code: Code
        var output: [UInt8] = []
        /// The contexts, innermost last: objects and shared contexts hold names, other values
        /// (a list, a text pushed by a section) none.
        var stack: [TemplateValue]
        /// The lowest stack index a lookup found a name at since this was last reset; `-1` after
        /// a `{{$block}}`, whose text depends on the templates that include it.
        var lowestRead = Int.max
        /// The names looked up since the last reset that no context held.
        var missed: [String] = []
        /// The blocks overridden by the parents being rendered, outermost first: the first entry
        /// for a block wins (an outer template's override stands over an inner one's).
        var overrides: [Code.Override] = []
        /// The reads of the page being rendered, which a kept text's inputs are noted in.
        let reads = PageReads.current

        init(code: Code, context: TemplateValue) {
            self.code = code
            stack = [context]
            output.reserveCapacity(16_384)
        }

        mutating func read(downTo index: Int) { lowestRead = min(lowestRead, index) }

        mutating func miss(_ name: String) {
            if !missed.contains(name) { missed.append(name) }
        }

        mutating func render(_ range: Range<Int32>) throws(Unsupported) {
            var index = Int(range.lowerBound)
            let end = Int(range.upperBound)
            while index < end {
                let operation = code.operations[index]
                switch operation.kind {
                case .text:
                    let start = Int(operation.first)
                    let textEnd = start + Int(operation.count)
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: code.text[start..<textEnd]))
                case .escaped, .raw:
                    if let value = lookUp(Int(operation.first)) {
                        Self.append(value, escaped: operation.kind == .escaped, to: &output)
                    }
                case .section:
                    let value = lookUp(Int(operation.first))
                    try renderSection(
                        value, body: Int32(index + 1)..<operation.end, id: code.firstSectionID + Int(operation.count))
                    index = Int(operation.end)
                    continue
                case .invertedSection:
                    let value = lookUp(Int(operation.first))
                    try renderInverted(value, body: Int32(index + 1)..<operation.end)
                    index = Int(operation.end)
                    continue
                case .partial:
                    guard operation.first >= 0 else { break }
                    let template = code.templates[Int(operation.first)]
                    guard operation.count >= 0 else {
                        try render(template)
                        break
                    }
                    let mark = overrides.count
                    overrides.append(contentsOf: code.overrideLists[Int(operation.count)])
                    defer { overrides.removeSubrange(mark...) }
                    try render(template)
                case .block:
                    // `first == -1`: an override's body, laid out in line, skipped here.
                    if operation.first >= 0 {
                        read(downTo: -1)
                        let body =
                            overrides.first { $0.block == operation.first }?.body ?? Int32(index + 1)..<operation.end
                        try render(body)
                    }
                    index = Int(operation.end)
                    continue
                }
                index += 1
            }
        }

        private mutating func renderSection(_ value: TemplateValue?, body: Range<Int32>, id: Int) throws(Unsupported) {
            switch value {
            case nil: return
            case .flag(let flag)?: if flag { try render(body) }
            case .list(let items)?:
                for item in items { try render(body, id: id, pushing: item) }
            case let value?: try render(body, id: id, pushing: value)
            }
        }

        /// Renders a section's body with `frame` on top of the stack, or takes what a
        /// ``SharedContext`` kept of it.
        private mutating func render(_ body: Range<Int32>, id: Int, pushing frame: TemplateValue) throws(Unsupported) {
            guard case .shared(let shared) = frame else {
                stack.append(frame)
                defer { stack.removeLast() }
                return try render(body)
            }
            // A text kept where nothing was noted is taken only where nothing is noted either.
            if let kept = shared.rendering(of: id), kept.inputs != nil || reads == nil, noneHolds(kept.missed) {
                output.append(contentsOf: kept.bytes)
                shared.countReuse()
                // What contains this depends on those names staying missing too, and on what the
                // text's rendering read.
                for name in kept.missed { miss(name) }
                if let inputs = kept.inputs { reads?.note(contentsOf: inputs) }
                return
            }
            let level = stack.count
            let (outerRead, outerMissed) = (lowestRead, missed)
            (lowestRead, missed) = (Int.max, [])
            let start = output.count
            let firstInput = reads?.inputs.count ?? 0
            let outerTextStart = reads?.keptTextStart ?? 0
            reads?.keptTextStart = firstInput
            stack.append(frame)
            defer {
                stack.removeLast()
                reads?.keptTextStart = outerTextStart
            }
            try render(body)
            if lowestRead >= level {
                let inputs = reads.map { Array($0.inputs[firstInput...]) }
                shared.keep(
                    SharedContext.Rendering(bytes: Array(output[start...]), missed: missed, inputs: inputs), of: id)
            }
            let inner = missed
            (lowestRead, missed) = (min(outerRead, lowestRead), outerMissed)
            for name in inner { miss(name) }
        }

        /// Whether no context of the stack holds any of `names` (a kept text that looked them up
        /// and missed is the same under this stack).
        private func noneHolds(_ names: [String]) -> Bool {
            for name in names {
                let hash = TemplateObject.hash(name)
                for frame in stack where frame.child(name, hash: hash) != nil { return false }
            }
            return true
        }

        private mutating func renderInverted(_ value: TemplateValue?, body: Range<Int32>) throws(Unsupported) {
            switch value {
            case nil: try render(body)
            case .flag(let flag)?: if !flag { try render(body) }
            case .list(let items)?:
                guard items.isEmpty else { return }
                // swift-mustache puts the empty list on the stack; nothing can be found in it.
                stack.append(.list([]))
                defer { stack.removeLast() }
                try render(body)
            case .some: break
            }
        }

        /// The value the name `names[index]` stands for, looked up as swift-mustache does.
        ///
        /// The first part is looked up in the stack from the top down, the rest inside what that
        /// found. Notes where it was found, or that it was not.
        private mutating func lookUp(_ index: Int) -> TemplateValue? {
            // The name and the frames are borrowed in place: copying them out retained a name's
            // parts and each frame's dictionary on every step, a visible part of rendering.
            let name = code.names.baseAddress.unsafelyUnwrapped + index
            let restRange = name.pointee.restInTable
            let rest = UnsafeBufferPointer(
                rebasing: code.restParts[Int(restRange.lowerBound)..<Int(restRange.upperBound)])
            let (found, level) = stack.withUnsafeBufferPointer { frames -> (TemplateValue?, Int) in
                let top = frames.count - 1
                if name.pointee.isCurrent { return (frames[top], top) }
                if name.pointee.isTopOnly {
                    guard let found = frames[top].child(name.pointee.first, hash: name.pointee.firstHash) else {
                        return (nil, top)
                    }
                    return (Self.descend(rest, from: found), top)
                }
                var level = top
                while level >= 0 {
                    if let found = frames[level].child(name.pointee.first, hash: name.pointee.firstHash) {
                        return (rest.isEmpty ? found : Self.descend(rest, from: found), level)
                    }
                    level -= 1
                }
                return (nil, -1)
            }
            if level == 0, name.pointee.firstHash == Self.buildWideHash, name.pointee.first == Self.buildWideName {
                // The same on every page of a build: a text that read it may still be kept.
            } else if level >= 0 {
                read(downTo: level)
            } else {
                miss(name.pointee.first)
            }
            return found
        }

        /// The name in a page's context whose value is the same on every page of a build (the
        /// theme's words in the site's language, made from the settings, whose change is a full
        /// build): lists of posts read it (`{{strings.draft}}`) and are kept all the same.
        static let buildWideName = "strings"
        static let buildWideHash = TemplateObject.hash(buildWideName)

        private static func descend(
            _ path: UnsafeBufferPointer<(part: String, hash: UInt64)>, from value: TemplateValue
        )
            -> TemplateValue?
        {
            var value = value
            for (part, hash) in path {
                guard let child = value.child(part, hash: hash) else { return nil }
                value = child
            }
            return value
        }

        /// Appends what `{{name}}` shows of a value, as swift-mustache's `String(describing:)`,
        /// but for an object in the order its names were set (``TemplateValue/printed``).
        private static func append(_ value: TemplateValue, escaped: Bool, to output: inout [UInt8]) {
            let text: String
            switch value {
            case .text(let string): text = string
            case .number(let number): text = String(describing: number)
            case .decimal(let number): text = String(describing: number)
            case .flag(let flag): text = String(describing: flag)
            case .list, .object, .shared: text = value.printed
            }
            if escaped {
                HTMLEscaping.appendEscaped(text, to: &output)
            } else {
                var text = text
                text.withUTF8 { output.append(contentsOf: $0) }
            }
        }
    }
}

extension TemplateValue {
    /// The value of `name` (whose ``TemplateObject/hash(_:)`` is `hash`) in this context: in an
    /// object or a shared context (whose lookup is noted when it watches that name), nowhere in
    /// any other value.
    fileprivate func child(_ name: String, hash: UInt64) -> TemplateValue? {
        switch self {
        case .object(let object): object.value(named: name, hash: hash)
        case .shared(let shared): shared.value(named: name, hash: hash)
        case .text, .number, .decimal, .flag, .list: nil
        }
    }
}

extension TemplateProgram {
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
                nodes.append(.section(Name(name), bodyNodes, inverted: inverted))
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
