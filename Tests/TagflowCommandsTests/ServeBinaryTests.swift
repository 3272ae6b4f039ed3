import Foundation
import Synchronization
import TagflowTesting
import Testing

@testable import TagflowCommands

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `tagflow serve` as a user runs it: the built binary on a free loopback port.
@Suite struct ServeBinaryTests {
    static let bannerID = "tagflow-build-error"

    static func post(_ title: String, _ body: String) -> String {
        "---\ntitle: \(title)\ntags: [preview]\n---\n\(body)\n"
    }

    @Test(.timeLimit(.minutes(2)))
    func rebuildsOnChangeShowsErrorsAndRecovers() async throws {
        let fixture = try SiteFixture(
            """
            -- site.yml --
            title: Live
            -- posts/2024-01-01-hello.md --
            \(Self.post("Hello", "Original text"))
            -- posts/2024-01-02-other.md --
            \(Self.post("Other", "Other text"))
            """)
        defer { fixture.remove() }
        let server = try ServeProcess(["serve", fixture.site.path, "--port", "0"])
        defer { server.stop() }
        let port = try await server.port()
        func page(_ path: String) -> RawHTTPResponse? { try? RawHTTP.request(port: port, path: path) }

        try await eventually { page("/posts/hello/")?.body.contains("Original text") == true }
        #expect(page("/posts/hello/")?.body.contains("/__tagflow/events") == true)

        // An edit shows up.
        try fixture.write("posts/2024-01-01-hello.md", Self.post("Hello", "Edited text"))
        try await eventually { page("/posts/hello/")?.body.contains("Edited text") == true }

        // A broken post: the error is in every page, above the last good version, and in the terminal.
        try fixture.write("posts/2024-01-01-hello.md", "---\ntitle: Hello: world\n---\nBroken text\n")
        try await eventually { page("/posts/hello/")?.body.contains(Self.bannerID) == true }
        let broken = try #require(page("/posts/hello/"))
        #expect(broken.status == 200)
        #expect(broken.body.contains("posts/2024-01-01-hello.md:2:13: error: invalid YAML in front matter"))
        #expect(broken.body.contains("Edited text"))
        #expect(page("/")?.body.contains(Self.bannerID) == true)
        #expect(page("/no-such-page/")?.body.contains(Self.bannerID) == true)
        #expect(server.standardError.contains("posts/2024-01-01-hello.md:2:13: error:"))

        // Fixing it recovers by itself.
        try fixture.write("posts/2024-01-01-hello.md", Self.post("Hello", "Fixed text"))
        try await eventually {
            guard let body = page("/posts/hello/")?.body else { return false }
            return body.contains("Fixed text") && !body.contains(Self.bannerID)
        }

        // An editor's save-by-rename, a post in a new folder, then that post deleted.
        let temporary = fixture.site.appendingPathComponent("posts/.other.md.tmp")
        try Data(Self.post("Other", "Renamed text").utf8).write(to: temporary)
        #expect(rename(temporary.path, fixture.site.appendingPathComponent("posts/2024-01-02-other.md").path) == 0)
        try fixture.write("posts/2025/deep/2025-03-01-fresh.md", Self.post("Fresh", "Fresh text"))
        try await eventually {
            page("/posts/other/")?.body.contains("Renamed text") == true
                && page("/posts/fresh/")?.body.contains("Fresh text") == true
        }
        try FileManager.default.removeItem(at: fixture.site.appendingPathComponent("posts/2025"))
        try await eventually { page("/posts/fresh/")?.status == 404 }

        // Nothing outside the output folder can be reached.
        try Data("TOP-SECRET".utf8).write(to: fixture.root.appendingPathComponent("secret.txt"))
        for path in [
            "/../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E/%2e%2e/etc/passwd", "/..\\secret.txt",
            "/%5c..%5csecret.txt", "//etc/passwd", "/posts/../../../secret.txt", "/..%2f..%2fsecret.txt",
        ] {
            let response = try RawHTTP.request(port: port, path: path)
            #expect(response.status == 400 || response.status == 404, "\(path): \(response.status)")
            #expect(!response.body.contains("TOP-SECRET"))
        }

        // Ctrl-C stops cleanly and leaves nothing in the site folder.
        let status = try await server.interrupt()
        #expect(status == 0, "\(server.standardError)")
        #expect(server.standardOutput.contains("Stopped."))
        #expect(!FileManager.default.fileExists(atPath: fixture.site.appendingPathComponent("_site").path))
    }

    @Test(.timeLimit(.minutes(1)))
    func ctrlCClosesOpenEventStreams() async throws {
        let fixture = try SiteFixture("-- site.yml --\ntitle: T\n-- posts/2024-01-01-a.md --\n---\ntitle: A\n---\nA\n")
        defer { fixture.remove() }
        let server = try ServeProcess(["serve", fixture.site.path, "--port", "0"])
        defer { server.stop() }
        let port = try await server.port()
        try await eventually { (try? RawHTTP.request(port: port, path: "/"))?.status == 200 }
        let connection = try RawConnection(port: port, timeout: 10)
        defer { connection.close() }
        try connection.send("GET /__tagflow/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
        var received = ""
        while !received.contains("event: build") {
            let chunk = try connection.readSome()
            if chunk.isEmpty { break }
            received += String(decoding: chunk, as: UTF8.self)
        }
        #expect(received.contains("text/event-stream"))
        #expect(received.contains("event: build"))
        let status = try await server.interrupt()
        #expect(status == 0)
        #expect((try? connection.readToEnd()) != nil, "the stream ends")
    }

    @Test(.timeLimit(.minutes(1)))
    func aPortInUseIsAClearError() async throws {
        let fixture = try SiteFixture("-- site.yml --\ntitle: T\n")
        defer { fixture.remove() }
        let first = try ServeProcess(["serve", fixture.site.path, "--port", "0"])
        defer { first.stop() }
        let port = try await first.port()
        let second = try ServeProcess(["serve", fixture.site.path, "--port", String(port)])
        defer { second.stop() }
        let status = try await second.waitForExit(timeout: .seconds(20))
        #expect(status == 1)
        #expect(second.standardError.contains("error: port \(port) on 127.0.0.1 is already in use"))
        #expect(second.standardError.contains("--port 0"))
        _ = try await first.interrupt()
    }

    @Test(arguments: [["serve", "--port", "70000"], ["serve", "--port", "-1"], ["serve", "--host", ""]])
    func badServeUsageExitsWithTwo(arguments: [String]) async {
        #expect(await TagflowCLI.run(arguments) == 2)
    }

    @Test func aMissingSiteIsAClearError() async throws {
        let server = try ServeProcess(["serve", "/no/such/site", "--port", "0"])
        defer { server.stop() }
        #expect(try await server.waitForExit(timeout: .seconds(20)) == 1)
        #expect(server.standardError.contains("site folder not found"))
    }
}

/// Polls `condition` until it holds, failing after `timeout`.
func eventually(
    timeout: Duration = .seconds(30), _ condition: () throws -> Bool, sourceLocation: SourceLocation = #_sourceLocation
) async throws {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try condition() { return }
        try await Task.sleep(for: .milliseconds(50))
    }
    Issue.record("condition not met within \(timeout)", sourceLocation: sourceLocation)
    throw CancellationError()
}

/// A running `tagflow` process whose output is collected as it arrives.
final class ServeProcess: @unchecked Sendable {
    // @unchecked: `process` is only read after `run()`, and Process is thread-safe for that.
    private let process: Process
    private let output = CollectedOutput()

    init(_ arguments: [String]) throws {
        let binary = try #require(BinaryTests.binary, "the tagflow executable is built next to the test bundle")
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        process.environment = environment
        let standardOutput = Pipe()
        let standardError = Pipe()
        process.standardOutput = standardOutput
        process.standardError = standardError
        self.process = process
        standardOutput.fileHandleForReading.readabilityHandler = { [output] handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            output.text.withLock { $0.0 += text }
        }
        standardError.fileHandleForReading.readabilityHandler = { [output] handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            output.text.withLock { $0.1 += text }
        }
        try process.run()
    }

    var standardOutput: String { output.text.withLock { $0.0 } }
    var standardError: String { output.text.withLock { $0.1 } }

    /// The port from the "Serving … at http://127.0.0.1:PORT/" line.
    func port(timeout: Duration = .seconds(60)) async throws -> Int {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let match = standardOutput.firstMatch(of: /http:\/\/127\.0\.0\.1:(\d+)\//), let port = Int(match.1) {
                return port
            }
            if !process.isRunning { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("no URL printed; stdout: \(standardOutput) stderr: \(standardError)")
        throw CancellationError()
    }

    /// Sends Ctrl-C and waits for the exit status.
    func interrupt() async throws -> Int32 {
        kill(process.processIdentifier, SIGINT)
        return try await waitForExit(timeout: .seconds(15))
    }

    func waitForExit(timeout: Duration) async throws -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            guard ContinuousClock.now < deadline else {
                Issue.record("tagflow did not exit within \(timeout)")
                throw CancellationError()
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        try? await Task.sleep(for: .milliseconds(50))  // let the last output arrive
        return process.terminationStatus
    }

    /// Kills the process if it is still running.
    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}

/// Standard output and standard error as they arrive.
final class CollectedOutput: Sendable {
    let text = Mutex(("", ""))
}
