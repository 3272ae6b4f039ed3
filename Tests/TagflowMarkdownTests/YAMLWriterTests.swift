import Testing

@testable import TagflowMarkdown

/// Front matter written by the import reads back as the same values.
@Suite struct YAMLWriterTests {
    @Test(arguments: [
        "plain", "two words", "yes", "No", "null", "~", "12", "1.5", "-3", "+1", ".5", "0x1F", "1e3",
        "a: b", "a #b", "#hash", "*star", "&anchor", "!tag", "@at", "`tick`", "[list]", "{map}", "a, b",
        "quote \" and \\ backslash", "line\nbreak", "tab\there", "trailing ", " leading", "", "C++", "C#",
        "日本語", "Café au lait", "2024-03-05", "2024-03-05T09:30:00+01:00", "2024-03-05 09:30:00 -0800", "ends:",
        "%percent", "|pipe", ">fold", "?question", "-", "- dash", "'single'", "bell\u{07}",
    ])
    func aScalarReadsBackAsTheSameText(text: String) throws {
        let yaml = YAMLWriter.mapping([("key", .string(text)), ("list", .list([.string(text), .string("x")]))])
        let mapping = try YAMLReader.mapping(from: yaml)
        #expect(mapping["key"] == .string(text), "\(yaml)")
        #expect(mapping["list"] == .list([.string(text), .string("x")]), "\(yaml)")
    }

    @Test func nestedValuesKeepTheirShape() throws {
        let nested: YAMLValue = .map(
            YAMLMapping(entries: [
                YAMLMapping.Entry(key: "name", value: .string("Ann"), line: 1, column: 1),
                YAMLMapping.Entry(key: "links", value: .list([.string("a"), .string("b")]), line: 1, column: 1),
            ]))
        let entries: [(key: String, value: YAMLValue)] = [
            ("draft", .bool(true)), ("weight", .int(3)), ("ratio", .double(1.5)), ("none", .null),
            ("author", nested), ("people", .list([nested, nested])), ("empty", .list([])),
            ("odd key: yes", .string("v")),
        ]
        let mapping = try YAMLReader.mapping(from: YAMLWriter.mapping(entries))
        #expect(mapping.entries.map(\.key) == entries.map(\.key))
        for (key, value) in entries {
            #expect(mapping[key].map(Self.withoutPositions) == Self.withoutPositions(value), "\(key)")
        }
    }

    /// The value with every key at line 1, column 1: where a key is written is not its value.
    static func withoutPositions(_ value: YAMLValue) -> YAMLValue {
        switch value {
        case .list(let items): .list(items.map(withoutPositions))
        case .map(let mapping):
            .map(
                YAMLMapping(
                    entries: mapping.entries.map {
                        YAMLMapping.Entry(key: $0.key, value: withoutPositions($0.value), line: 1, column: 1)
                    }))
        default: value
        }
    }
}
