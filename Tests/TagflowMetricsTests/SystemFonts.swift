import Foundation
import TagflowMetrics

/// The Debian font files the tests measure with (fonts-dejavu-core, fonts-liberation2,
/// fonts-inter, fonts-noto-cjk, fonts-noto-color-emoji, fonts-noto-core).
///
/// Tests that need them are enabled when the files exist, and always under `CI` (which installs
/// them), so a missing font fails CI instead of skipping silently.
enum SystemFonts {
    static let paths: [String: String] = [
        "dejavu": "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "liberation": "/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf",
        "inter": "/usr/share/fonts/opentype/inter/Inter-Regular.otf",
        "cjk": "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
        "emoji": "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf",
        "arabic": "/usr/share/fonts/truetype/noto/NotoSansArabic-Regular.ttf",
        "naskh": "/usr/share/fonts/truetype/noto/NotoNaskhArabic-Regular.ttf",
        "noto-sans": "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf",
        "hebrew": "/usr/share/fonts/truetype/noto/NotoSansHebrew-Regular.ttf",
    ]

    /// Whether the font tests run: all fonts installed, or running on CI.
    static let enabled: Bool =
        ProcessInfo.processInfo.environment["CI"] != nil
        || paths.values.allSatisfy { FileManager.default.fileExists(atPath: $0) }

    static func bytes(_ name: String) throws -> [UInt8] {
        guard let path = paths[name] else { throw CocoaError(.fileNoSuchFile) }
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    private static let cache = Cache()

    /// The parsed table of a system font (parsed once per test run).
    static func table(_ name: String) throws -> MetricsTable {
        try cache.table(name)
    }

    /// The font and its Noto fallbacks, as the accuracy harness measures.
    static func stack(_ name: String) throws -> FontStack {
        FontStack([try table(name), try table("cjk"), try table("emoji")])
    }

    private final class Cache: @unchecked Sendable {
        // @unchecked: every access to `tables` holds `lock`.
        private let lock = NSLock()
        private var tables: [String: MetricsTable] = [:]

        func table(_ name: String) throws -> MetricsTable {
            lock.lock()
            defer { lock.unlock() }
            if let table = tables[name] { return table }
            let table = try MetricsTable(fontFile: try SystemFonts.bytes(name))
            tables[name] = table
            return table
        }
    }
}
