import ArgumentParser
import Foundation
import TagflowCore
import TagflowMetrics

/// `tagflow metrics`: builds a compact metrics table from a font file.
struct MetricsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "metrics",
        abstract: "Build a compact metrics table from a TrueType or OpenType font.",
        discussion: """
            Reads FONT (.ttf, .otf, or one face of a .ttc collection) and writes what measuring \
            text needs (vertical metrics, character map, advances, kerning, ligature rules) to \
            TABLE, which `tagflow measure --font` and the chip renderer load in milliseconds. \
            Exits with 1 when the font cannot be read.
            """
    )

    @Argument(help: "The font file.", completion: .file(extensions: ["ttf", "otf", "ttc"]))
    var font: String

    @Option(name: .long, help: "The face to read from a .ttc collection.")
    var index: Int = 0

    @Option(name: .shortAndLong, help: "The metrics table to write.", completion: .file())
    var output: String

    @Flag(name: .shortAndLong, help: "Print nothing on success.")
    var quiet = false

    func validate() throws {
        if index < 0 { throw ValidationError("--index must be 0 or more, not \(index)") }
    }

    func run() async throws {
        let table = try MetricsFiles.loadFont(font, faceIndex: index)
        let bytes = table.encoded()
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            throw TagflowError(
                location: SourceLocation(path: output), step: "metrics",
                message: "cannot write the metrics table: \(error.localizedDescription)", underlying: error)
        }
        if !quiet {
            print(
                "wrote \(output): \(bytes.count) bytes (\(table.glyphCount) glyphs, \(table.unitsPerEm) units per em)")
        }
    }
}

/// Reading font files and tables for the metrics commands, with errors that name the file.
enum MetricsFiles {
    static func read(_ path: String) throws -> [UInt8] {
        do {
            return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw TagflowError(
                location: SourceLocation(path: path), step: "metrics", message: "cannot read the file",
                hint: "check the path", underlying: error)
        }
    }

    /// Loads a font file face as a metrics table.
    static func loadFont(_ path: String, faceIndex: Int) throws -> MetricsTable {
        let bytes = try read(path)
        do {
            return try MetricsTable(fontFile: bytes, faceIndex: faceIndex)
        } catch {
            throw TagflowError(
                location: SourceLocation(path: path), step: "metrics", message: error.description, underlying: error)
        }
    }

    /// Loads a metrics table or a font file; `PATH#N` picks face N of a collection.
    static func loadTableOrFont(_ reference: String, faceIndex: Int = 0) throws -> MetricsTable {
        var path = reference
        var face = faceIndex
        if let hash = reference.lastIndex(of: "#"), let number = Int(reference[reference.index(after: hash)...]),
            !FileManager.default.fileExists(atPath: reference)
        {
            path = String(reference[..<hash])
            face = number
        }
        let bytes = try read(path)
        do {
            return try MetricsTable(tableOrFont: bytes, faceIndex: face)
        } catch {
            throw TagflowError(
                location: SourceLocation(path: path), step: "metrics", message: error.description, underlying: error)
        }
    }
}
