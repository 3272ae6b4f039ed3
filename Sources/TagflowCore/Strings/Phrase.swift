/// The plural categories of the Unicode CLDR: which form of a counted phrase a number takes.
public enum PluralCategory: String, Sendable, Hashable, CaseIterable, Comparable {
    case zero, one, two, few, many, other

    public static func < (lhs: PluralCategory, rhs: PluralCategory) -> Bool { lhs.order < rhs.order }

    private var order: Int {
        switch self {
        case .zero: 0
        case .one: 1
        case .two: 2
        case .few: 3
        case .many: 4
        case .other: 5
        }
    }

    /// The category of a whole number in a language (`de-CH`: German's), by the CLDR rules for
    /// whole numbers; a language Tagflow has no rule for takes English's.
    package static func of(_ count: Int, language: String) -> PluralCategory {
        of(count, rule: PluralRule(language: language))
    }

    /// The category of a whole number under a language's rule (made once by ``SiteStrings``).
    static func of(_ count: Int, rule: PluralRule) -> PluralCategory {
        let n = count.magnitude
        let hundreds = n % 100
        let tens = n % 10
        switch rule {
        case .none: return .other
        case .oneForZeroAndOne: return n <= 1 ? .one : .other
        case .oneTwo: return n == 1 ? .one : n == 2 ? .two : .other
        case .arabic:
            switch n {
            case 0: return .zero
            case 1: return .one
            case 2: return .two
            default: return (3...10).contains(hundreds) ? .few : (11...99).contains(hundreds) ? .many : .other
            }
        case .eastSlavic:
            if tens == 1 && hundreds != 11 { return .one }
            if (2...4).contains(tens) && !(12...14).contains(hundreds) { return .few }
            return .many
        case .polish:
            if n == 1 { return .one }
            if (2...4).contains(tens) && !(12...14).contains(hundreds) { return .few }
            return .many
        case .czech: return n == 1 ? .one : (2...4).contains(n) ? .few : .other
        case .oneForOne: return n == 1 ? .one : .other
        }
    }

    /// The categories a language's whole numbers fall in.
    package static func used(by language: String) -> Set<PluralCategory> {
        switch PluralRule(language: language) {
        case .none: [.other]
        case .oneForZeroAndOne, .oneForOne: [.one, .other]
        case .oneTwo: [.one, .two, .other]
        case .arabic: Set(allCases)
        case .eastSlavic, .polish: [.one, .few, .many]
        case .czech: [.one, .few, .other]
        }
    }
}

/// The shapes of the CLDR plural rules for whole numbers that Tagflow knows.
enum PluralRule: Sendable, Hashable {
    case none, oneForOne, oneForZeroAndOne, oneTwo, arabic, eastSlavic, polish, czech

    init(language tag: String) {
        let lower = tag.lowercased()
        let language = lower.split(separator: "-").first.map(String.init) ?? lower
        switch language {
        case "ja", "zh", "ko", "th", "vi", "id", "ms", "lo", "my", "km": self = .none
        case "fr": self = .oneForZeroAndOne
        // European Portuguese counts 0 as plural, Brazilian as singular.
        case "pt": self = lower.hasPrefix("pt-pt") ? .oneForOne : .oneForZeroAndOne
        case "he", "iw": self = .oneTwo
        case "ar": self = .arabic
        case "ru", "uk", "be": self = .eastSlavic
        case "pl": self = .polish
        case "cs", "sk": self = .czech
        default: self = .oneForOne
        }
    }
}

/// One string of the theme: a text, or the forms of a counted text by plural category.
public struct Phrase: Sendable, Hashable {
    /// The text for each category; a phrase that does not vary with a count has only `other`.
    public private(set) var forms: [PluralCategory: String]

    /// A text the same for every count.
    public static func text(_ text: String) -> Phrase { Phrase(forms: [.other: text]) }

    /// A counted text: `other` is used for every category not given.
    public static func counted(
        zero: String? = nil, one: String? = nil, two: String? = nil, few: String? = nil, many: String? = nil,
        other: String
    ) -> Phrase {
        var forms: [PluralCategory: String] = [.other: other]
        forms[.zero] = zero
        forms[.one] = one
        forms[.two] = two
        forms[.few] = few
        forms[.many] = many
        return Phrase(forms: forms)
    }

    /// The text for a category (`other` when the phrase has no form of its own for it).
    func form(_ category: PluralCategory) -> String { forms[category] ?? forms[.other] ?? "" }
}
