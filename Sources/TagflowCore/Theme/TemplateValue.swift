/// A value a template shows, of one of the kinds Tagflow's contexts are made of.
///
/// Contexts were `[String: Any]`: every lookup then cast the value it found (`as? String`,
/// `as? [String: Any]`, `as? [Any]`) through the Swift runtime, a tenth of a 1 000-post build's
/// instructions. ``TemplateProgram`` switches on this instead. swift-mustache, which renders what
/// the program declines, gets ``any``.
enum TemplateValue: Sendable {
    case text(String)
    case number(Int)
    case decimal(Double)
    case flag(Bool)
    case list([TemplateValue])
    case object(TemplateObject)
    /// A context many pages show, whose rendered sections are kept (``SharedContext``).
    case shared(SharedContext)

    /// The value as swift-mustache takes it: texts, numbers and flags as themselves, lists as
    /// `[Any]`, objects as `[String: Any]`, shared contexts as the ``SharedContext``.
    var any: Any {
        switch self {
        case .text(let text): text
        case .number(let number): number
        case .decimal(let number): number
        case .flag(let flag): flag
        case .list(let items): items.map(\.any)
        case .object(let object): object.mapValues(\.any)
        case .shared(let shared): shared
        }
    }

    /// A value made of the types above (and dictionaries keyed by `String` of them); `nil` if
    /// it holds anything else, which only swift-mustache renders.
    init?(any value: Any) {
        // Exact types first: a cast that fails can be slow (a class to a dictionary).
        let type = Swift.type(of: value)
        if type == String.self, let text = value as? String {
            self = .text(text)
        } else if type == Int.self, let number = value as? Int {
            self = .number(number)
        } else if type == Double.self, let number = value as? Double {
            self = .decimal(number)
        } else if type == Bool.self, let flag = value as? Bool {
            self = .flag(flag)
        } else if type == SharedContext.self, let shared = value as? SharedContext {
            self = .shared(shared)
        } else if let dictionary = value as? [String: Any] {
            var object: TemplateObject = [:]
            for (name, child) in dictionary {
                guard let converted = TemplateValue(any: child) else { return nil }
                object[name] = converted
            }
            self = .object(object)
        } else if let items = value as? [Any] {
            var list: [TemplateValue] = []
            list.reserveCapacity(items.count)
            for item in items {
                guard let converted = TemplateValue(any: item) else { return nil }
                list.append(converted)
            }
            self = .list(list)
        } else {
            return nil
        }
    }
}

/// The names and values of one context.
typealias TemplateObject = [String: TemplateValue]
