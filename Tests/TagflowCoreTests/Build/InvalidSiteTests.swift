import Foundation
import TagflowTesting
import Testing

@testable import TagflowCore

/// Every broken site under `Fixtures/invalid/<case>/site` must fail with exactly the diagnostics
/// in `Fixtures/invalid/<case>/expected.txt` (set RECORD_SNAPSHOTS=1 to rewrite them).
@Suite struct InvalidSiteTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Fixtures/invalid").standardizedFileURL

    static var cases: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    @Test(arguments: cases)
    func failsWithItsExpectedDiagnostics(name: String) async throws {
        let site = Self.folder.appendingPathComponent(name).appendingPathComponent("site")
        let expectedURL = Self.folder.appendingPathComponent(name).appendingPathComponent("expected.txt")
        let output = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tagflow-invalid-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        var actual = ""
        do {
            try await SiteBuilder(siteRoot: site).build(to: output)
            actual = "built without errors\n"
        } catch {
            actual = error.description + "\n"
        }
        #expect(!FileManager.default.fileExists(atPath: output.path), "a failed build must not write output")
        let expected = try? String(contentsOf: expectedURL, encoding: .utf8)
        if expected == nil || ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] != nil {
            try Data(actual.utf8).write(to: expectedURL)
            Issue.record("recorded \(name)/expected.txt; review it")
        } else {
            #expect(actual == expected)
        }
    }
}
