import Testing

@testable import TagflowMarkdown

@Suite struct FrontMatterSplitTests {
    @Test func splitsYAMLAndBody() throws {
        let split = try FrontMatterSplit(splitting: "---\ntitle: Hi\ntags: [a]\n---\nBody\nmore\n")
        #expect(split.frontMatter == "title: Hi\ntags: [a]\n")
        #expect(split.frontMatterFirstLine == 2)
        #expect(split.body == "Body\nmore\n")
        #expect(split.bodyFirstLine == 5)
    }

    /// Lines are found by bytes; text of several bytes a character, short or long, splits where
    /// its lines end.
    @Test func splitsTextBeyondASCII() throws {
        for prefix in ["", "é", String(repeating: "標籤 🏷️ ", count: 40)] {
            let text = "---\ntitle: \(prefix)標籤\nsummary: café\n---\n\(prefix)本文 🏷️\nmore\n"
            let split = try FrontMatterSplit(splitting: text)
            #expect(split.frontMatter == "title: \(prefix)標籤\nsummary: café\n")
            #expect(split.body == "\(prefix)本文 🏷️\nmore\n")
            #expect(split.bodyFirstLine == 5)
        }
        #expect(try FrontMatterSplit(splitting: "---\né: 1\n---").body == "")
        #expect(throws: FrontMatterError.self) { try FrontMatterSplit(splitting: "---\né: 1\n") }
    }

    @Test func fileWithoutFrontMatterIsAllBody() throws {
        let split = try FrontMatterSplit(splitting: "# Title\n\ntext\n")
        #expect(split.frontMatter == nil)
        #expect(split.body == "# Title\n\ntext\n")
        #expect(split.bodyFirstLine == 1)
    }

    @Test func closingFenceMayBeDotsAndHaveTrailingSpaces() throws {
        #expect(try FrontMatterSplit(splitting: "---  \na: 1\n...\nx").frontMatter == "a: 1\n")
        #expect(try FrontMatterSplit(splitting: "---\na: 1\n---   \nx").body == "x")
    }

    @Test func emptyFrontMatterAndEmptyBody() throws {
        let split = try FrontMatterSplit(splitting: "---\n---\n")
        #expect(split.frontMatter == "")
        #expect(split.body == "")
    }

    @Test(arguments: ["---\ntitle: x\nbody without close\n", "---", "---\n"])
    func unclosedFrontMatterIsAnErrorAtLineOne(text: String) {
        #expect(throws: FrontMatterError(line: 1, column: 1, reason: .unclosed(.yaml))) {
            try FrontMatterSplit(splitting: text)
        }
    }

    @Test func unclosedErrorHasAHint() {
        let error = FrontMatterError(line: 1, column: 1, reason: .unclosed(.yaml))
        #expect(error.hint?.contains("closing `---`") == true)
        let toml = FrontMatterError(line: 1, column: 1, reason: .unclosed(.toml))
        #expect(toml.hint?.contains("closing `+++`") == true)
    }

    @Test func plusFencesHoldTOML() throws {
        let split = try FrontMatterSplit(splitting: "+++  \ntitle = \"Hi\"\n+++\nBody\n")
        #expect(split.format == .toml)
        #expect(split.frontMatter == "title = \"Hi\"\n")
        #expect(split.frontMatterFirstLine == 2)
        #expect(split.body == "Body\n")
        #expect(split.bodyFirstLine == 4)
    }

    @Test func eachFormatClosesOnlyWithItsOwnFence() throws {
        // `---` inside TOML is text (a TOML error later), not the end of the front matter.
        let toml = try FrontMatterSplit(splitting: "+++\na = 1\n---\n+++\nx")
        #expect(toml.frontMatter == "a = 1\n---\n")
        let yaml = try FrontMatterSplit(splitting: "---\na: 1\n+++\n---\nx")
        #expect(yaml.frontMatter == "a: 1\n+++\n")
        #expect(yaml.format == .yaml)
    }

    @Test(arguments: ["+++\ntitle = \"x\"\nbody\n", "+++", "+++\n", "+++\na = 1\n...\n"])
    func unclosedTOMLIsAnErrorAtLineOne(text: String) {
        #expect(throws: FrontMatterError(line: 1, column: 1, reason: .unclosed(.toml))) {
            try FrontMatterSplit(splitting: text)
        }
    }

    @Test func aFileStartingWithOtherPlusSignsHasNoFrontMatter() throws {
        #expect(try FrontMatterSplit(splitting: "++++\nx\n").frontMatter == nil)
        #expect(try FrontMatterSplit(splitting: "+ item\n").frontMatter == nil)
    }

    @Test func horizontalRuleLaterInTheFileIsNotFrontMatter() throws {
        let split = try FrontMatterSplit(splitting: "Intro\n\n---\n\nmore\n")
        #expect(split.frontMatter == nil)
    }

    @Test func sourceTextStripsBOMAndNormalisesLineEndings() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("---\r\ntitle: A\r\n---\r\nline\rnext\r\n".utf8)
        let text = try #require(SourceText.decode(bytes))
        #expect(text == "---\ntitle: A\n---\nline\nnext\n")
        let split = try FrontMatterSplit(splitting: text)
        #expect(split.frontMatter == "title: A\n")
    }

    /// Reading a buffer in place decodes exactly as the generic path, on every byte string of up
    /// to four bytes from an edge alphabet (BOM bytes, CR, LF, NUL, invalid and multi-byte UTF-8).
    @Test func sourceTextDecodesABufferAsTheGenericPath() {
        let alphabet: [UInt8] = [0xEF, 0xBB, 0xBF, 0x0D, 0x0A, 0x00, 0x61, 0xC3, 0xA9, 0xFF, 0x80]
        var strings: [[UInt8]] = [[]]
        var all: [[UInt8]] = [[]]
        for _ in 0..<4 {
            strings = strings.flatMap { prefix in alphabet.map { prefix + [$0] } }
            all += strings
        }
        for bytes in all {
            let inPlace = bytes.withUnsafeBytes { SourceText.decode($0) }
            #expect(inPlace == SourceText.decode(bytes), "\(bytes)")
            #expect(
                bytes.withUnsafeBytes { SourceText.firstOffset(of: 0x0D, in: $0) } == bytes.firstIndex(of: 0x0D),
                "\(bytes)")
        }
    }

    @Test func sourceTextRejectsInvalidUTF8() {
        #expect(SourceText.decode([0x66, 0xFF, 0xFE, 0x6F]) == nil)
    }
}

@Suite struct YAMLReaderTests {
    @Test func readsTypedValuesWithFileLines() throws {
        let mapping = try YAMLReader.mapping(
            from: "title: Hello\ncount: 3\nratio: 1.5\ndraft: true\nanswer: no\ntags:\n  - a\n  - \"b\"\n", firstLine: 2
        )
        #expect(mapping["title"] == .string("Hello"))
        #expect(mapping["count"] == .int(3))
        #expect(mapping["ratio"] == .double(1.5))
        #expect(mapping["draft"] == .bool(true))
        // YAML 1.2 core schema: "no" is text, not false.
        #expect(mapping["answer"] == .string("no"))
        #expect(mapping["tags"] == .list([.string("a"), .string("b")]))
        #expect(mapping.entry("count")?.line == 3)
    }

    /// Plain scalars are typed from their bytes as they were from their `Character`s: every
    /// text of up to four pieces, digits in other scripts and combining marks included.
    @Test func scalarsAreTypedAsByCharacters() {
        let pieces = ["1", "0", "-", "+", ".", "e", "E", "x", "٣", "\u{301}", "\r\n", " ", "inf", "_"]
        var texts = [""]
        for _ in 0..<4 { texts += texts.flatMap { prefix in pieces.map { prefix + $0 } } }
        for text in Set(texts) {
            #expect(YAMLReader.scalarValue(text, isPlain: true) == Self.byCharacters(text), "\(text.debugDescription)")
        }
    }

    /// How scalars were typed by `Character`.
    static func byCharacters(_ text: String) -> YAMLValue {
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        default: break
        }
        let digits = text.first == "-" || text.first == "+" ? text.dropFirst() : text[...]
        if !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(text) {
            return .int(number)
        }
        if let first = digits.first, first.isASCII, first.isNumber || first == ".",
            text.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }), let number = Double(text)
        {
            return .double(number)
        }
        return .string(text)
    }

    @Test func quotedNumbersStayText() throws {
        #expect(try YAMLReader.mapping(from: "a: \"42\"")["a"] == .string("42"))
        #expect(try YAMLReader.mapping(from: "date: 2024-03-05")["date"] == .string("2024-03-05"))
    }

    @Test func malformedYAMLReportsTheFileLine() {
        do {
            _ = try YAMLReader.mapping(from: "title: ok\ntags: [a, b\nx: 1\n", firstLine: 2)
            Issue.record("expected an error")
        } catch {
            #expect(error.line >= 3)
            #expect(error.message.hasPrefix("invalid YAML in front matter"))
        }
    }

    @Test func mappingValueInPlainScalarPointsAtItsColumn() {
        do {
            _ = try YAMLReader.mapping(from: "title: Hello: world\n", firstLine: 2)
            Issue.record("expected an error")
        } catch {
            #expect(error.line == 2)
            #expect(error.column == 13)  // the second colon
        }
    }

    @Test func duplicateKeysAreAnError() {
        #expect(throws: FrontMatterError.self) { try YAMLReader.mapping(from: "a: 1\na: 2\n") }
    }

    /// Keys are compared as text, whatever YAML type their spelling has: `1` and `"1"` name the
    /// same front matter key.
    @Test func keysThatDifferOnlyInQuotingAreDuplicates() {
        for yaml in ["1: a\n\"1\": b\n", "true: a\n'true': b\n"] {
            #expect(throws: FrontMatterError.self) { try YAMLReader.mapping(from: yaml) }
        }
    }

    /// Plain scalars are typed from their text; quoted ones stay text.
    @Test func plainScalarsAreTypedAndQuotedOnesStayText() throws {
        let mapping = try YAMLReader.mapping(
            from: "a: true\nb: 12\nc: 1.5\nd: ~\ne: \"true\"\nf: '12'\ng: 2024-01-02\nh: no\n")
        #expect(
            mapping.entries.map(\.value) == [
                .bool(true), .int(12), .double(1.5), .null, .string("true"), .string("12"), .string("2024-01-02"),
                .string("no"),
            ])
    }

    @Test func aListIsNotFrontMatter() {
        #expect(throws: FrontMatterError(line: 1, column: 1, reason: .notAMapping)) {
            try YAMLReader.mapping(from: "- a\n- b\n")
        }
    }

    @Test func emptyYAMLIsAnEmptyMapping() throws {
        #expect(try YAMLReader.mapping(from: "").entries.isEmpty)
        #expect(try YAMLReader.mapping(from: "# only a comment\n").entries.isEmpty)
    }
}
