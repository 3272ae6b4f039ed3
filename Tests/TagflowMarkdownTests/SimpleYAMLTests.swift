import Testing

@_spi(Fuzzing) @testable import TagflowMarkdown

@Suite struct SimpleYAMLTests {
    @Test func readsTheUsualShapeOfFrontMatter() throws {
        let yaml = """
            title: "cloud testing: 11 lessons learned"
            date: 2012-01-01T18:57:00Z
            slug: cloud-testing-11-lessons-learned
            tags:
              - "error debugging"
              - What's new
              - 'it''s'
            draft: false
            weight: 3
            summary: A new blog, a new generator, and the same old promise.
            aliases: [old-url, "other \\"one\\"", 'x']
            none:
            # a comment
            empty: []

            """
        let simple = try #require(SimpleYAML.mapping(from: yaml, firstLine: 2))
        #expect(simple == (try YAMLReader.yamsMapping(from: yaml, firstLine: 2)))
        #expect(simple["tags"] == .list([.string("error debugging"), .string("What's new"), .string("it's")]))
        #expect(simple["aliases"] == .list([.string("old-url"), .string("other \"one\""), .string("x")]))
        #expect(simple["draft"] == .bool(false))
        #expect(simple["weight"] == .int(3))
        #expect(simple["none"] == .null)
        #expect(simple.entry("tags")?.line == 5)
    }

    @Test(arguments: [
        "title: a\n\tb: c\n",  // tab
        "title: \"open\n  close\"\n",  // multi-line quoted
        "title: a # comment\n",
        "title: &anchor a\n",
        "title: a\n  continued\n",
        "title: \"\\u00e9\"\n",  // an escape other than \" and \\
        "title: a\ntitle: b\n",  // repeated key: Yams reports it
        "\"quoted key\": a\n",
        "tags: [a,]\n",
        "tags:\n  - a\n - b\n",  // two indentations
        "meta:\n  nested: 1\n",
        "title: a\u{2028}b\n",
        "---\ntitle: a\n",
    ])
    func declinesWhatItDoesNotHandle(yaml: String) {
        #expect(SimpleYAML.mapping(from: yaml, firstLine: 1) == nil)
    }

    @Test func errorsStillComeFromYams() {
        #expect(throws: FrontMatterError(line: 2, column: 1, reason: .duplicateKey("title"))) {
            try YAMLReader.mapping(from: "title: a\ntitle: b\n", firstLine: 2)
        }
    }

    /// Front matter assembled from pieces chosen to sit on the edges of YAML's rules; whenever
    /// the simple reader accepts one, Yams must read the same mapping from it.
    @Test func agreesWithYamsOnGeneratedFrontMatter() throws {
        var random = SplitMix(seed: 2026)
        var accepted = 0
        let documents = 4000
        for _ in 0..<documents {
            let yaml = Self.document(&random)
            guard let simple = SimpleYAML.mapping(from: yaml, firstLine: 2) else { continue }
            accepted += 1
            let yams = try? YAMLReader.yamsMapping(from: yaml, firstLine: 2)
            #expect(simple == yams, "\(yaml)")
        }
        // Both outcomes must be common, or the comparison proves little.
        #expect(accepted > documents / 10)
        #expect(accepted < documents * 9 / 10)
    }

    static let fragments = [
        "a", "Hello", "x y", " ", "  ", ":", ": ", "#", " #", "'", "\"", "\\", "\\\"", "\\n", ",", "[", "]", "{",
        "}", "-", "- ", "?", "&a", "*a", "!t", "|", ">", "%", "@", "`", "é", "日本", "🏷️", "e\u{301}", "\u{85}",
        "\u{A0}", "\u{2028}", "\u{FEFF}", "\u{FFFE}", "\t", "true", "null", "~", "1", "-5", "3.5", "1e3", "0x1F",
        "2024-01-02", "18:57:00Z", "...", "---", "''", "=", "<<",
    ]

    static func text(_ random: inout SplitMix) -> String {
        (0..<random.below(4)).map { _ in fragments[random.below(fragments.count)] }.joined()
    }

    static func item(_ random: inout SplitMix) -> String {
        switch random.below(4) {
        case 0: "\"\(text(&random))\""
        case 1: "'\(text(&random))'"
        default: text(&random)
        }
    }

    static let keys = ["title", "tags", "date", "a-b", "_x", "k1", "1", "-k", "a b", "\"q\"", "title"]

    static func line(_ random: inout SplitMix) -> String {
        let key = keys[random.below(keys.count)]
        switch random.below(10) {
        case 0: return "\(key):"
        case 1: return "\(key): \"\(text(&random))\""
        case 2: return "\(key): '\(text(&random))'"
        case 3:
            let items = (0..<random.below(4)).map { _ in item(&random) }
            return "\(key): [\(items.joined(separator: random.below(2) == 0 ? ", " : ","))]"
        case 4:
            let indent = String(repeating: " ", count: [0, 2, 4][random.below(3)])
            let items = (0..<random.below(4)).map { _ in "\(indent)- \(item(&random))" }
            return (["\(key):"] + items).joined(separator: "\n")
        case 5: return ["# note", "", "   ", "  # indented", "  continued", "- stray"][random.below(6)]
        default: return "\(key): \(text(&random))"
        }
    }

    static func document(_ random: inout SplitMix) -> String {
        (0..<(1 + random.below(5))).map { _ in line(&random) }.joined(separator: "\n")
            + (random.below(3) == 0 ? "" : "\n")
    }
}

/// A small seeded generator, so every run checks the same documents.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
