import ArgumentParser
import Foundation
import TagflowCore
import TagflowTesting
import Testing

@testable import TagflowCommands

@Suite struct CLITests {
    @Test func buildSucceedsWithExitZero() async throws {
        let fixture = try SiteFixture("-- site.yml --\ntitle: T\n-- posts/2024-01-01-a.md --\n---\ntitle: A\n---\nHi\n")
        defer { fixture.remove() }
        let status = await TagflowCLI.run(["build", fixture.site.path, "--output", fixture.output.path, "--quiet"])
        #expect(status == 0)
        #expect(
            FileManager.default.fileExists(atPath: fixture.output.appendingPathComponent("posts/a/index.html").path))
    }

    @Test func siteErrorsExitWithOne() async throws {
        let fixture = try SiteFixture("-- site.yml --\ntitle: T\n-- posts/bad.md --\n---\ntitle: [\n---\n")
        defer { fixture.remove() }
        #expect(await TagflowCLI.run(["build", fixture.site.path, "--output", fixture.output.path]) == 1)
    }

    @Test(arguments: [
        ["build", "--no-such-flag"], ["frobnicate"], ["build", "--base-url", "ftp://x"], ["new", "post", " "],
    ])
    func badUsageExitsWithTwo(arguments: [String]) async {
        #expect(await TagflowCLI.run(arguments) == 2)
    }

    @Test func aMistypedCommandGetsASuggestion() throws {
        let (status, errors) = try BinaryTests().run(["buidl"])
        #expect(status == 2)
        #expect(errors.contains("Did you mean 'build'?"), "\(errors)")
    }

    @Test func helpExitsWithZero() async {
        #expect(await TagflowCLI.run(["--help"]) == 0)
        #expect(await TagflowCLI.run(["build", "--help"]) == 0)
    }

    @Test func newSiteBuildsAsIs() async throws {
        let fixture = try SiteFixture("")
        defer { fixture.remove() }
        let folder = fixture.root.appendingPathComponent("blog")
        #expect(await TagflowCLI.run(["new", "site", folder.path]) == 0)
        #expect(
            await TagflowCLI.run([
                "new", "post", "Second: the sequel", "--tags", "swift, C#", "--date", "2024-03-05 09:30", "--site",
                folder.path,
            ]) == 0)
        let posts = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("posts").path)
        #expect(posts.count == 2)
        #expect(posts.contains("2024-03-05-second-the-sequel.md"))
        let post = try String(
            contentsOf: folder.appendingPathComponent("posts/2024-03-05-second-the-sequel.md"), encoding: .utf8)
        #expect(post.contains("date: 2024-03-05T09:30:00Z"), "\(post)")
        // Drafts are skipped by default; --drafts publishes the new post too.
        let output = fixture.root.appendingPathComponent("out")
        #expect(
            await TagflowCLI.run(["build", folder.path, "--output", output.path, "--drafts", "--strict", "-q"]) == 0)
        #expect(
            FileManager.default.fileExists(
                atPath: output.appendingPathComponent("posts/second-the-sequel/index.html").path))
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("tags/c-sharp/index.html").path))
        // The same post twice is refused, not overwritten.
        #expect(
            await TagflowCLI.run(["new", "post", "Second: the sequel", "--date", "2024-03-05", "--site", folder.path])
                == 1)
        // A date that is not one is refused before anything is written.
        #expect(await TagflowCLI.run(["new", "post", "Third", "--date", "2024-02-30", "--site", folder.path]) == 2)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("posts").path).count == 2)
        // A second `new site` into a non-empty folder is refused.
        #expect(await TagflowCLI.run(["new", "site", folder.path]) == 1)
    }
}

/// Runs the built `tagflow` binary, as a user or a CI job does.
@Suite struct BinaryTests {
    static let binary: URL? = {
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let candidate = exe.deletingLastPathComponent().appendingPathComponent("tagflow")
        return FileManager.default.isExecutableFile(atPath: candidate.path) ? candidate : nil
    }()

    static let exampleSite = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../site-example").standardizedFileURL

    @Test func completionScriptsAreStillWritten() throws {
        let script = try runCapturingOutput(["--generate-completion-script", "bash"])
        #expect(script.status == 0, "\(script.errors)")
        #expect(script.output.contains("_tagflow()") && script.output.contains("complete "), "\(script.output)")
    }

    func run(
        _ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil, input: String? = nil
    ) throws -> (Int32, String) {
        let (status, _, errors) = try runCapturingOutput(
            arguments, environment: environment, in: directory, input: input)
        return (status, errors)
    }

    /// Runs the binary; returns its status, standard output and standard error.
    func runCapturingOutput(
        _ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil, input: String? = nil
    ) throws -> (status: Int32, output: String, errors: String) {
        let binary = try #require(Self.binary, "the tagflow executable is built next to the test bundle")
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        if let directory { process.currentDirectoryURL = directory }
        let errors = Pipe()
        process.standardError = errors
        let output = Pipe()
        process.standardOutput = output
        let standardInput = Pipe()
        if input != nil { process.standardInput = standardInput }
        try process.run()
        if let input {
            standardInput.fileHandleForWriting.write(Data(input.utf8))
            try standardInput.fileHandleForWriting.close()
        }
        // Standard output is read on another thread, so that neither pipe fills while the
        // other is read.
        let printed = PipeReader(output)
        let data = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: printed.wait(), as: UTF8.self),
            String(decoding: data, as: UTF8.self)
        )
    }

    /// Reads a pipe to its end on a thread of its own.
    private final class PipeReader: @unchecked Sendable {
        // @unchecked: `data` is written on the reading thread before `done` is signalled, and
        // read only after `wait()` has seen the signal.
        private var data = Data()
        private let done = DispatchSemaphore(value: 0)

        init(_ pipe: Pipe) {
            Thread.detachNewThread { [self] in
                data = pipe.fileHandleForReading.readDataToEndOfFile()
                done.signal()
            }
        }

        func wait() -> Data {
            done.wait()
            return data
        }
    }

    /// `tagflow` exits on the thread its command finished on (not the main thread): what it
    /// printed just before must still reach a pipe, whole, with the command's status.
    @Test func whatACommandPrintsLastReachesAPipe() throws {
        let fixture = try SiteFixture(
            "-- site.yml --\ntitle: T\n-- posts/2024-01-01-hello.md --\n---\ntitle: Hello\n---\nHi\n")
        defer { fixture.remove() }
        let built = try runCapturingOutput(["build", fixture.site.path, "-o", fixture.output.path])
        #expect(built.status == 0, "\(built.errors)")
        #expect(built.output.hasPrefix("Built ") && built.output.hasSuffix(" s\n"), "\(built.output)")
        let labels = (0..<400).map { "tag \($0)" }
        let chips = try runCapturingOutput(["chips", "--format", "html"] + labels)
        #expect(chips.status == 0, "\(chips.errors)")
        #expect(chips.output.contains(">tag 0<") && chips.output.hasSuffix("</ul></div>\n"))
        let version = try runCapturingOutput(["--version"])
        #expect(version.status == 0 && version.output == "\(TagflowVersion.current)\n")
        let usage = try runCapturingOutput(["build", "--no-such-option"])
        #expect(usage.status == 2 && usage.errors.contains("--no-such-option"))
    }

    @Test func errorsPrintLikeACompiler() throws {
        let fixture = try SiteFixture("-- site.yml --\ntitle: T\n-- posts/hello.md --\n---\ntitle: Hello: world\n---\n")
        defer { fixture.remove() }
        let (status, stderr) = try run(
            ["build", fixture.site.path, "-o", fixture.output.path], environment: ["NO_COLOR": "1"])
        #expect(status == 1)
        // A slow machine (a sanitizer build) may print progress lines first: `[2.0 s] content`.
        let diagnostics = stderr.split(separator: "\n", omittingEmptySubsequences: false)
            .drop { $0.hasPrefix("[") && $0.contains(" s] ") }.joined(separator: "\n")
        #expect(diagnostics.hasPrefix("posts/hello.md:2:13: error: invalid YAML in front matter"))
        #expect(stderr.contains("error: build failed: 1 error"))
    }

    /// Page keys recorded by one run are compared by the next, so they must not depend on the
    /// process (Swift's `Hasher` is seeded per process).
    @Test func aSecondRunAfterAnEditKeepsThePagesItDoesNotChange() throws {
        let fixture = try SiteFixture(
            """
            -- site.yml --
            title: T
            chips:
              colors: {text: "#111111", background: "#eeeeee", border: "#cccccc"}
            -- posts/2024-01-01-a.md --
            ---
            title: A
            tags: [swift]
            ---
            A
            -- posts/2024-01-02-b.md --
            ---
            title: B
            tags: [rust]
            ---
            B
            """)
        defer { fixture.remove() }
        let page = fixture.output.appendingPathComponent("404.html").path
        #expect(try run(["build", fixture.site.path, "-o", fixture.output.path, "-q"]).0 == 0)
        let before = try FileManager.default.attributesOfItem(atPath: page)[.systemFileNumber] as? UInt64
        try fixture.write("posts/2024-01-02-b.md", "---\ntitle: B\ntags: [rust]\n---\nB, edited\n")
        #expect(try run(["build", fixture.site.path, "-o", fixture.output.path, "-q"]).0 == 0)
        let after = try FileManager.default.attributesOfItem(atPath: page)[.systemFileNumber] as? UInt64
        #expect(before != nil && before == after, "404.html was written again")
        #expect(try fixture.output("posts/b/index.html").contains("B, edited"))
    }

    @Test func chipsReadsSettingsFromAConfigFileNamedRelatively() throws {
        let fixture = try SiteFixture("-- chips.yml --\nfont_size: 16\nbreakpoints: [300, 600]\n")
        defer { fixture.remove() }
        // A bare file name (one path component) in the working directory.
        let (status, stderr) = try run(
            ["chips", "--config", "chips.yml", "--format", "css", "Swift"], in: fixture.site)
        #expect(status == 0, "\(stderr)")
        let (missing, _) = try run(["chips", "--config", "missing.yml", "x"], in: fixture.site)
        #expect(missing == 1)
    }

    @Test func chipsPrintsTheStylesheetAloneWithoutInput() throws {
        let (status, stderr) = try run(["chips", "--format", "css"], input: "")
        #expect(status == 0, "\(stderr)")
        let (html, _) = try run(["chips", "--format", "html"], input: "")
        #expect(html == 2, "chips for HTML still need labels: bad usage without them")
    }

    @Test func outputIsTheSameInAnyTimeZoneLocaleAndWorkingDirectory() throws {
        let fixture = try SiteFixture("")
        defer { fixture.remove() }
        var outputs: [[String: Data]] = []
        let settings: [([String: String], URL?)] = [
            (["TZ": "UTC", "LANG": "C"], nil),
            (["TZ": "Pacific/Kiritimati", "LANG": "de_DE.UTF-8", "LC_ALL": "de_DE.UTF-8"], fixture.root),
            (["TZ": "America/Los_Angeles", "LANG": "ja_JP.UTF-8"], URL(fileURLWithPath: "/")),
        ]
        for (index, (environment, directory)) in settings.enumerated() {
            let output = fixture.root.appendingPathComponent("out\(index)")
            let (status, stderr) = try run(
                ["build", Self.exampleSite.path, "-o", output.path, "-q"], environment: environment, in: directory)
            #expect(status == 0, "\(stderr)")
            outputs.append(folderContents(output))
        }
        #expect(outputs[0].count > 50)
        #expect(outputs[0] == outputs[1])
        #expect(outputs[0] == outputs[2])
    }
}
