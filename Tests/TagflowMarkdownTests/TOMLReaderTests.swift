import Testing

@testable import TagflowMarkdown

@Suite struct TOMLReaderTests {
    /// Front matter as `hugo new content` writes it, with the kinds of value Hugo users put there.
    static let hugoPost = """
        title = 'Hello, "world"'
        date = 2024-03-05T09:30:00+01:00
        lastmod = 2024-03-06T10:00:00Z
        publishDate = 2024-03-05
        local = 2024-03-05T09:30:00.250
        draft = false
        weight = 3
        ratio = 1.5
        tags = ["swift", "layout"]
        summary = \"\"\"
        Two lines,
        not = a key
        \"\"\"
        author.name = "Ada"
        [params]
        hero = "x.png"
        [[series]]
        name = "Intro"

        """

    @Test func readsEveryKindOfValue() throws {
        let mapping = try TOMLReader.mapping(from: Self.hugoPost)
        #expect(mapping["title"] == .string("Hello, \"world\""))
        #expect(mapping["date"] == .string("2024-03-05T09:30:00+01:00"))
        #expect(mapping["lastmod"] == .string("2024-03-06T10:00:00Z"))
        #expect(mapping["publishDate"] == .string("2024-03-05"))
        #expect(mapping["local"] == .string("2024-03-05T09:30:00.250"))
        #expect(mapping["draft"] == .bool(false))
        #expect(mapping["weight"] == .int(3))
        #expect(mapping["ratio"] == .double(1.5))
        #expect(mapping["tags"] == .list([.string("swift"), .string("layout")]))
        #expect(mapping["summary"] == .string("Two lines,\nnot = a key\n"))
        #expect(
            mapping["author"]
                == .map(YAMLMapping(entries: [.init(key: "name", value: .string("Ada"), line: 14, column: 1)])))
        #expect(
            mapping["params"]
                == .map(YAMLMapping(entries: [.init(key: "hero", value: .string("x.png"), line: 16, column: 1)])))
        let series = YAMLMapping(entries: [.init(key: "name", value: .string("Intro"), line: 18, column: 1)])
        #expect(mapping["series"] == .list([.map(series)]))
    }

    @Test func keysKeepFileOrderAndLines() throws {
        let mapping = try TOMLReader.mapping(from: Self.hugoPost, firstLine: 2)
        #expect(
            mapping.entries.map(\.key) == [
                "title", "date", "lastmod", "publishDate", "local", "draft", "weight", "ratio", "tags", "summary",
                "author", "params", "series",
            ])
        #expect(mapping.entries.map(\.line) == [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 15, 16, 18])
        // A key-like line inside a multi-line string is not a key.
        #expect(mapping.entry("not") == nil)
    }

    @Test func quotedAndIndentedKeysHaveTheirPositions() throws {
        let mapping = try TOMLReader.mapping(from: "\"my key\" = 1\n  'other' = 2\n", firstLine: 5)
        #expect(mapping.entry("my key")?.line == 5)
        #expect(mapping.entry("other")?.line == 6)
        #expect(mapping.entry("other")?.column == 3)
    }

    @Test(arguments: [
        (#"a = "tab\there \"q\" \\ \u00E9 \U0001F600""#, YAMLValue.string("tab\there \"q\" \\ é 😀")),
        (#"a = 'C:\no\escapes'"#, .string(#"C:\no\escapes"#)),
        ("a = \"\"\"\nline one\\\n    still one\n\"\"\"", .string("line onestill one\n")),
        ("a = '''\nkeep \\n as is\n'''", .string("keep \\n as is\n")),
        ("a = \"\"\"two \"\"quotes\"\"\"\"\"", .string("two \"\"quotes\"\"")),
        ("a = 1_000", .int(1000)),
        ("a = -17", .int(-17)),
        ("a = 0xDEAD_beef", .int(0xDEAD_BEEF)),
        ("a = 0o755", .int(0o755)),
        ("a = 0b1010", .int(10)),
        ("a = 6.626e-34", .double(6.626e-34)),
        ("a = -1_0.5E+2", .double(-1050)),
        ("a = -inf", .double(-.infinity)),
        ("a = 1979-05-27 07:32:00z", .string("1979-05-27T07:32:00Z")),
        ("a = 07:32:00.5", .string("07:32:00.5")),
        ("a = [\n  1, # one\n  2,\n]", .list([.int(1), .int(2)])),
    ])
    func readsEachKindOfValueAsTOMLDefinesIt(toml: String, expected: YAMLValue) throws {
        let value = try TOMLReader.mapping(from: toml)["a"]
        #expect(value == expected, "\(toml)")
    }

    @Test func tablesInsideValuesKeepTheirKeysPositions() throws {
        let mapping = try TOMLReader.mapping(
            from: "a = [1, 'two', [3], {b = 4}, ] # mixed\nc = { d.e = true, f = [] }\n")
        let b = YAMLMapping(entries: [.init(key: "b", value: .int(4), line: 1, column: 22)])
        #expect(mapping["a"] == .list([.int(1), .string("two"), .list([.int(3)]), .map(b)]))
        let e = YAMLMapping(entries: [.init(key: "e", value: .bool(true), line: 2, column: 7)])
        let c = YAMLMapping(entries: [
            .init(key: "d", value: .map(e), line: 2, column: 7),
            .init(key: "f", value: .list([]), line: 2, column: 19),
        ])
        #expect(mapping["c"] == .map(c))
    }

    @Test(arguments: [
        "a = 01", "a = 1__0", "a = _1", "a = 1_", "a = +0x10", "a = 1.", "a = .5", "a = 1e", "a = 2024-02-30",
        "a = 24:00:00", "a = 2024-01-01T10:00", #"a = "\x""#, #"a = "\uD800""#, "a = \"open", "a = '''open",
        "a = yes", "a = trueish", "a = 1 2", "a = { b = 1,\n c = 2 }", "a = [1 2]", "= 1", "a", "a = 1\na = 2",
        "a.b = 1\na = 2", "a = {b = 1}\na.c = 2", "[t]\n[t]", "a.b = 1\n[a]", "a = 1\n[a]", "a = 1\n[[a]]",
        "[[t]]\n[t]", "a = \"bell\u{07}\"", "a = \"two\nlines\"",
    ])
    func refusesWhatIsNotTOML(toml: String) {
        #expect(throws: FrontMatterError.self, "\(toml)") { try TOMLReader.mapping(from: toml) }
    }

    @Test func arraysOfTablesCollectTheirElements() throws {
        let toml = "[[series]]\nname = 'a'\n[series.meta]\npart = 1\n[[series]]\nname = 'b'\n"
        let mapping = try TOMLReader.mapping(from: toml)
        guard case .list(let items) = try #require(mapping["series"]), items.count == 2,
            case .map(let first) = items[0], case .map(let second) = items[1]
        else {
            Issue.record("series is \(String(describing: mapping["series"]))")
            return
        }
        #expect(first["name"] == .string("a"))
        #expect(first.entry("meta")?.line == 3)
        #expect(second["name"] == .string("b"))
    }

    @Test func offsetsAreWrittenWithTheirSign() throws {
        let mapping = try TOMLReader.mapping(from: "a = 2024-01-02T03:04:05-07:30\n")
        #expect(mapping["a"] == .string("2024-01-02T03:04:05-07:30"))
    }

    @Test func emptyTOMLIsAnEmptyMapping() throws {
        #expect(try TOMLReader.mapping(from: "").entries.isEmpty)
        #expect(try TOMLReader.mapping(from: "# only a comment\n").entries.isEmpty)
    }

    @Test(arguments: [
        ("title = \"a\"\ntitle = \"b\"\n", 3),
        ("title = \"a\"\ndate = \n", 3),
        ("tags = [\"a\",\n", 2),
        ("title: yaml\n", 2),
    ])
    func malformedTOMLIsAnErrorAtItsFileLine(toml: String, line: Int) {
        do {
            _ = try TOMLReader.mapping(from: toml, firstLine: 2)
            Issue.record("no error for \(toml)")
        } catch {
            #expect(error.line == line, "\(error)")
            guard case .invalidTOML(let problem) = error.reason else {
                Issue.record("not a TOML error: \(error)")
                return
            }
            #expect(!problem.isEmpty)
            #expect(error.message.hasPrefix("invalid TOML in front matter"))
        }
    }

    @Test func theSplitReadsEachFormat() throws {
        let toml = try FrontMatterSplit(splitting: "+++\ntitle = \"T\"\n+++\nx")
        #expect(try toml.mapping().entries == [.init(key: "title", value: .string("T"), line: 2, column: 1)])
        let yaml = try FrontMatterSplit(splitting: "---\ntitle: T\n---\nx")
        #expect(try yaml.mapping().entries == [.init(key: "title", value: .string("T"), line: 2, column: 1)])
        #expect(try FrontMatterSplit(splitting: "x").mapping().entries.isEmpty)
    }
}
