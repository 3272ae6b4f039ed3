import Foundation
import Testing

@testable import TagflowMarkdown

/// Replays every input kept under `Fixtures/fuzz-regressions/<FuzzTarget>/` through what that
/// fuzz target runs (`Fuzz/<FuzzTarget>/main.swift`): a crash or a hang fails the suite.
@Suite struct FuzzRegressionTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/fuzz-regressions").standardizedFileURL

    static func inputs(_ target: String) -> [String] {
        let url = folder.appendingPathComponent(target)
        return ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
            .map { "\(target)/\($0)" }
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    @Test(arguments: inputs("FuzzFrontMatter"))
    func frontMatter(_ name: String) throws {
        let clock = ContinuousClock()
        let elapsed = try clock.measure {
            guard let text = SourceText.decode(try Self.bytes(name)) else { return }
            guard let split = try? FrontMatterSplit(splitting: text) else { return }
            _ = try? split.mapping()
        }
        #expect(elapsed < .seconds(10), "\(name) took \(elapsed)")
    }

    @Test(arguments: inputs("FuzzMarkdown"))
    func markdown(_ name: String) throws {
        let bytes = try Self.bytes(name)
        let flags = bytes.first ?? 0
        let options = MarkdownOptions(
            allowsRawHTML: flags & 1 != 0, smartPunctuation: flags & 2 != 0, hardBreaks: flags & 4 != 0,
            embedLanguages: flags & 8 != 0 ? ["chips"] : [], rootPathPrefix: flags & 16 != 0 ? "/blog" : "")
        let text = SourceText.normalizingLineEndings(String(decoding: bytes.dropFirst(), as: UTF8.self))
        let page = MarkdownRenderer(options: options).render(text, firstLine: 3)
        #expect(Set(page.headings.map(\.id)).count == page.headings.count)
    }

    @Test func theAliasBombIsRefusedQuickly() throws {
        let text = try #require(SourceText.decode(try Self.bytes("FuzzFrontMatter/billion-laughs.md")))
        let split = try FrontMatterSplit(splitting: text)
        #expect(throws: FrontMatterError.self) {
            try split.mapping()
        }
    }
}
