import Foundation
import TagflowChipPlugin
import TagflowTesting
import Testing

@testable import TagflowCore

/// The catalogue of bad sites: every site under `Fixtures/invalid/<case>/site` must build with
/// exactly the diagnostics in `Fixtures/invalid/<case>/expected.txt` (set RECORD_SNAPSHOTS=1 to
/// rewrite them, then review every recorded file).
///
/// `expected.txt` is one of:
/// - the error text of a failed build (errors and warnings, as the CLI prints them);
/// - `built with warnings:` followed by the warnings, for a site that builds but deserves a word;
/// - `built without errors`, for hostile input that must simply work.
///
/// Each case starts from an output folder holding a previous build. A failed build must leave it
/// byte for byte as it was; a build that succeeds must replace it whole. Either way no staging
/// folder may be left beside it.
@Suite struct InvalidSiteTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Fixtures/invalid").standardizedFileURL

    static var cases: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    /// The previous build every case starts from.
    static let previousBuild = [
        OutputFile(path: "index.html", text: "<p>the previous build</p>\n"),
        OutputFile(path: "posts/old/index.html", text: "<p>an old post</p>\n"),
    ]

    @Test func theCatalogueHasAtLeastFortyCases() {
        #expect(Self.cases.count >= 40)
    }

    @Test(arguments: cases)
    func buildsWithItsExpectedDiagnostics(name: String) async throws {
        let site = Self.folder.appendingPathComponent(name).appendingPathComponent("site")
        let expectedURL = Self.folder.appendingPathComponent(name).appendingPathComponent("expected.txt")
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tagflow-invalid-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: parent) }
        let output = parent.appendingPathComponent("out")
        try await OutputWriter(target: output).write(Self.previousBuild, staticFiles: [])
        let before = folderContents(output)
        #expect(before.count == 3)

        var actual = ""
        do {
            let report = try await SiteBuilder(siteRoot: site, plugins: [.chips]).build(to: output)
            actual =
                report.warnings.isEmpty
                ? "built without errors\n"
                : "built with warnings:\n" + report.warnings.map(\.description).joined(separator: "\n") + "\n"
            let after = folderContents(output)
            #expect(after["index.html"] != before["index.html"], "a successful build replaces the previous one")
            #expect(after[OutputWriter.markerName] != nil)
        } catch {
            actual = error.description + "\n"
            #expect(!error.errors.isEmpty, "a failed build names at least one error")
            for problem in error.errors {
                #expect(problem.location != nil, "every error names its file: \(problem)")
            }
            #expect(folderContents(output) == before, "a failed build leaves the previous output as it was")
        }
        let siblings = try FileManager.default.contentsOfDirectory(atPath: parent.path)
        #expect(siblings == ["out"], "no staging or retired folder is left beside the output")

        let expected = try? String(contentsOf: expectedURL, encoding: .utf8)
        if expected == nil || ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] != nil {
            try Data(actual.utf8).write(to: expectedURL)
            Issue.record("recorded \(name)/expected.txt; review it")
        } else {
            #expect(actual == expected)
        }
    }
}
