import Foundation
import Testing

@testable import TagflowHighlight

@Suite struct LanguageDefinitionTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().appendingPathComponent("../../Sources/TagflowHighlight/Languages")
        .standardizedFileURL

    @Test func embeddedDefinitionsAreTheFolder() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { !$0.hasPrefix(".") }
        #expect(Set(names) == Set(LanguageDefinitions.files.keys), "run scripts/embed-files.py")
        for name in names {
            let text = try String(contentsOf: Self.folder.appendingPathComponent(name), encoding: .utf8)
            #expect(LanguageDefinitions.files[name] == text, "\(name) changed: run scripts/embed-files.py")
        }
    }

    @Test func everyDefinitionOfTagflowLoadsAndHasAName() {
        let files = Set(HighlightLanguages.tagflowAliases.values)
        #expect(files == Set(LanguageDefinitions.files.keys))
        for file in files {
            let name = HighlightLanguages.tagflowAliases.first { $0.value == file }!.key
            #expect(CodeHighlighter.shared.highlights(name), "\(file) does not load")
        }
    }

    @Test func definitionsAreWrittenWhereTheLibraryReadsThem() throws {
        let folder = try #require(LanguageFolder.path)
        for (name, text) in LanguageDefinitions.files {
            #expect(try String(contentsOfFile: folder + "/" + name, encoding: .utf8) == text)
        }
        #expect(folder.hasSuffix(LanguageDefinitions.digest))
    }

    /// A definition that is not there makes its language plain text. (A definition that does
    /// not parse is not tried here: the library's parser keeps its state in globals, and after a
    /// failed parse the process loads no more definitions, which would change every other test.)
    @Test func aMissingDefinitionMakesItsLanguagePlainText() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("no-lang-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let highlighter = CodeHighlighter(languages: HighlightLanguages(systemFolder: nil, tagflowFolder: folder.path))
        #expect(!highlighter.highlights("swift"))
        let html = highlighter.html(code: "let x = 1\n", info: FenceInfo("swift"))
        #expect(!html.contains("tok-"))
        #expect(html.contains("let x = 1"))
    }

    @Test func theSystemMapIsReadAndItsAliasesAdded() {
        let languages = HighlightLanguages(systemFolder: "/usr/share/source-highlight", tagflowFolder: nil)
        #expect(languages.definition(for: "py")?.file == "python.lang")
        #expect(languages.definition(for: "golang")?.file == "go.lang")
        #expect(languages.definition(for: "swift") == nil)
    }
}
