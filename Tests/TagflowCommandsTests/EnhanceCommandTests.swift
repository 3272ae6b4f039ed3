import Foundation
import TagflowTesting
import Testing

@testable import TagflowCommands

/// `tagflow enhance` and `tagflow chips --serve`, through the built binary as a host's build runs them.
@Suite struct EnhanceCommandTests {
    static let page = """
        <html><head><title>t</title></head><body>
        <ul class="post-tags"><li><a href="/tags/swift/">Swift</a></li><li><a href="/tags/go/">Go</a></li></ul>
        </body></html>
        """

    func folder(_ files: [String: String]) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tagflow-enhance-cli-\(UUID())")
        for (path, text) in files {
            let file = url.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
        return url
    }

    @Test func enhancesAFolderWithAPresetAndSaysWhatItDid() throws {
        let site = try folder(["posts/a/index.html": Self.page])
        defer { try? FileManager.default.removeItem(at: site) }
        let run = try BinaryTests().runCapturingOutput(["enhance", site.path, "--preset", "hugo"])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.hasPrefix("Enhanced 1 tag list in 1 of 1 pages"), "\(run.output)")
        let page = try String(contentsOf: site.appendingPathComponent("posts/a/index.html"), encoding: .utf8)
        #expect(page.contains(#"<div class="tf-flow">"#) && page.contains("../../assets/tagflow-chips.css"))
        let again = try BinaryTests().runCapturingOutput(["enhance", site.path, "--preset", "hugo"])
        #expect(again.output.hasPrefix("Enhanced 0 tag lists in 0 of 1 pages"), "\(again.output)")
    }

    @Test func aSelectorThatFindsNothingWarnsAndStrictFails() throws {
        let site = try folder(["index.html": Self.page])
        defer { try? FileManager.default.removeItem(at: site) }
        let warned = try BinaryTests().runCapturingOutput(["enhance", site.path, "--selector", "ul.nothing"])
        #expect(warned.status == 0)
        #expect(warned.errors.contains("warning: --selector 'ul.nothing' found no tag list"), "\(warned.errors)")
        let strict = try BinaryTests().runCapturingOutput([
            "enhance", site.path, "--selector", "ul.nothing", "--strict",
        ])
        #expect(strict.status == 1)
    }

    @Test(arguments: [["--preset", "nope"], ["--selector", "ul:hover"], ["--base-path", "blog"]])
    func badOptionsAreUsageErrors(arguments: [String]) throws {
        let site = try folder(["index.html": Self.page])
        defer { try? FileManager.default.removeItem(at: site) }
        let run = try BinaryTests().runCapturingOutput(["enhance", site.path] + arguments)
        #expect(run.status == 2 || run.status == 64, "\(run.errors)")
    }

    @Test func aMissingFolderIsAnError() throws {
        let run = try BinaryTests().runCapturingOutput(["enhance", "/nonexistent/public"])
        #expect(run.status == 1)
        #expect(run.errors.contains("/nonexistent/public: not a folder"), "\(run.errors)")
    }

    @Test func chipsServeAnswersEachLineAndKeepsGoingAfterABadOne() throws {
        let input = """
            {"chips": [{"label": "Swift", "url": "/tags/swift/", "count": 9}, {"label": "Go", "count": 1}], "weighted": true, "label": "Cloud"}
            not json
            {"chips": []}
            {"chips": [{"label": "x", "url": "javascript:alert(1)"}]}
            {"css": true}

            """
        let run = try BinaryTests().runCapturingOutput(["chips", "--serve"], input: input)
        #expect(run.status == 0, "\(run.errors)")
        let answers = run.output.split(separator: "\n").map {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: String] ?? [:]
        }
        #expect(answers.count == 5)
        #expect(answers[0]["html"]?.contains(#"aria-label="Cloud""#) == true)
        #expect(answers[0]["html"]?.contains(#"class="tf-w"#) == true, "weighted by count")
        #expect(answers[1]["error"] != nil && answers[2]["error"] != nil)
        #expect(answers[3]["error"]?.contains("not allowed") == true)
        #expect(answers[4]["css"]?.contains(".tf-chips") == true)
    }
}
