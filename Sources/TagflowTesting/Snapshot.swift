import Foundation

/// Compares `actual` with a golden file in the `Snapshots/` folder beside the calling test file.
///
/// When the file is missing or `RECORD_SNAPSHOTS` is set, writes it and reports a failure (so a
/// recorded snapshot is always reviewed before it counts).
///
/// - Returns: `nil` when it matches, or a message saying what differs.
public func snapshotMismatch(
    _ actual: String, named name: String, testFile: String = #filePath
) -> String? {
    let folder = URL(fileURLWithPath: testFile).deletingLastPathComponent().appendingPathComponent("Snapshots")
    let url = folder.appendingPathComponent(name)
    let record = ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] != nil
    guard !record, let expected = try? String(contentsOf: url, encoding: .utf8) else {
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try? Data(actual.utf8).write(to: url)
        return "recorded snapshot \(name); check it and run the test again"
    }
    guard expected != actual else { return nil }
    let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
    for index in 0..<max(expectedLines.count, actualLines.count) {
        let left = index < expectedLines.count ? String(expectedLines[index]) : "<end>"
        let right = index < actualLines.count ? String(actualLines[index]) : "<end>"
        if left != right {
            return "snapshot \(name) differs at line \(index + 1):\n  expected: \(left)\n  actual:   \(right)\n"
                + "(set RECORD_SNAPSHOTS=1 to accept the new output)"
        }
    }
    return "snapshot \(name) differs"
}
