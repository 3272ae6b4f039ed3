import Foundation

/// A value a template shows, of one of the kinds Tagflow's contexts are made of.
///
/// Contexts were `[String: Any]`: every lookup then cast the value it found (`as? String`,
/// `as? [String: Any]`, `as? [Any]`) through the Swift runtime, a large share of a build's
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
        case .object(let object): object.any
        case .shared(let shared): shared
        }
    }
}

extension TemplateValue {
    /// The value as Swift prints it in a list (what `{{post}}` shows of an object), but with an
    /// object's names in the order they were set, where a dictionary's order changes from one
    /// build to the next: a theme that prints a whole object gives the same bytes on every build.
    ///
    /// Printing a ``SharedContext`` counts as a lookup of the name it watches.
    var printed: String {
        switch self {
        case .text(let text): String(reflecting: text)
        case .number(let number): String(reflecting: number)
        case .decimal(let number): String(reflecting: number)
        case .flag(let flag): String(reflecting: flag)
        case .list(let items): "[" + items.map(\.printed).joined(separator: ", ") + "]"
        case .object(let object): object.printed
        case .shared(let shared): shared.description
        }
    }
}

/// The names and values of one context, in insertion order.
///
/// Each name is kept with a hash made once (FNV-1a of its UTF-8), and a lookup with a hash made
/// once (``TemplateProgram`` hashes each name of a theme when it compiles it) compares
/// integers: a context holds a dozen names, and a name is looked up in several contexts before
/// one holds it. Through `Dictionary`, each of those lookups hashed the name again, which showed
/// in a build's instructions.
struct TemplateObject: Sendable, ExpressibleByDictionaryLiteral {
    private struct Entry {
        let name: String
        let hash: UInt64
        var value: TemplateValue
    }

    private var entries: [Entry] = []

    init() {}

    /// The names of a literal, which are distinct (as a dictionary literal's must be).
    init(dictionaryLiteral elements: (String, TemplateValue)...) {
        entries = elements.map { Entry(name: $0.0, hash: Self.hash($0.0), value: $0.1) }
    }

    /// The hash ``value(named:hash:)`` takes: FNV-1a of the name's UTF-8, in NFC when it is not
    /// ASCII, so that names Swift holds equal (canonically equivalent ones, as swift-mustache's
    /// dictionaries hold them) hash alike.
    static func hash(_ name: String) -> UInt64 {
        var name = name
        let ascii = name.withUTF8 { bytes -> UInt64? in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes {
                guard byte < 0x80 else { return nil }
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            }
            return hash
        }
        if let ascii { return ascii }
        var composed = name.precomposedStringWithCanonicalMapping
        return composed.withUTF8 { bytes in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            return hash
        }
    }

    /// The value of a name whose ``hash(_:)`` is `hash`.
    func value(named name: String, hash: UInt64) -> TemplateValue? {
        entries.withUnsafeBufferPointer { entries in
            for index in entries.indices where entries[index].hash == hash && entries[index].name == name {
                return entries[index].value
            }
            return nil
        }
    }

    private func index(of name: String, hash: UInt64) -> Int? {
        entries.firstIndex { $0.hash == hash && $0.name == name }
    }

    /// The value of a name; setting `nil` removes it.
    subscript(name: String) -> TemplateValue? {
        get { value(named: name, hash: Self.hash(name)) }
        set {
            let hash = Self.hash(name)
            if let index = index(of: name, hash: hash) {
                if let newValue { entries[index].value = newValue } else { entries.remove(at: index) }
            } else if let newValue {
                entries.append(Entry(name: name, hash: hash, value: newValue))
            }
        }
    }

    /// How many names it holds.
    var count: Int { entries.count }

    /// The names, in the order they were set.
    var names: [String] { entries.map(\.name) }

    /// The object as Swift prints a dictionary, in the order the names were set
    /// (``TemplateValue/printed``).
    var printed: String {
        guard !entries.isEmpty else { return "[:]" }
        return "[" + entries.map { String(reflecting: $0.name) + ": " + $0.value.printed }.joined(separator: ", ") + "]"
    }

    /// The names and values as swift-mustache takes them.
    var any: [String: Any] {
        var dictionary: [String: Any] = [:]
        for entry in entries { dictionary[entry.name] = entry.value.any }
        return dictionary
    }
}
