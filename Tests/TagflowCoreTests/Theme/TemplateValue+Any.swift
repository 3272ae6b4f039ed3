@testable import TagflowCore

// The tests' contexts are Swift values, as swift-mustache takes them; the build makes
// `TemplateValue`s directly and never converts.

extension TemplateValue {
    /// A value made of texts, `Int`s, `Double`s, flags, shared contexts, lists, and dictionaries
    /// keyed by `String` of them; `nil` if it holds anything else, which only swift-mustache
    /// renders.
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

extension TemplateProgram {
    /// Renders a context of Swift values; throws ``Unsupported`` also when the context holds a
    /// value of another type, which only swift-mustache renders.
    func render(_ context: Any, with name: String) throws(Unsupported) -> String {
        guard let value = TemplateValue(any: context) else { throw Unsupported() }
        return try render(value, with: name)
    }
}

extension Theme {
    /// Renders a context of Swift values as a build would if it held them: with the template
    /// program, or with swift-mustache when the program declines them.
    func render(_ context: [String: Any], with name: String) -> String {
        if let program, let text = try? program.render(context, with: name) { return text }
        return referenceRender(context, with: name)
    }
}
