import Foundation
import Hummingbird
import TagflowCore
import TagflowTesting

@testable import TagflowServer

/// A small site, built into a fixture's output folder, with the server state and router that serve it.
struct ServedSite {
    static let blocks = """
        -- site.yml --
        title: Served
        -- posts/2024-01-01-hello.md --
        ---
        title: Hello
        tags: [swift]
        ---
        Hello from the **first** post.
        -- posts/2024-02-01-second.md --
        ---
        title: Second
        ---
        The second post.
        -- static/style-extra.css --
        body { color: #222; }
        -- static/app.js --
        console.log("hi");
        -- static/icon.svg --
        <svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"></svg>
        -- static/data.json --
        {"a": 1}
        -- static/notes.txt --
        plain text
        """

    let fixture: SiteFixture
    let state: PreviewState

    init(extraFiles: [(String, [UInt8])] = []) async throws {
        fixture = try SiteFixture(Self.blocks)
        for (path, bytes) in extraFiles { try fixture.write(path, bytes: bytes) }
        try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        // A file next to the output folder that no request may reach.
        try Data("TOP-SECRET-\(UUID().uuidString)".utf8).write(to: fixture.root.appendingPathComponent("secret.txt"))
        state = PreviewState()
        state.buildSucceeded()
    }

    var secret: String {
        (try? String(contentsOf: fixture.root.appendingPathComponent("secret.txt"), encoding: .utf8)) ?? "?"
    }

    func application() -> some ApplicationProtocol {
        Application(router: PreviewServer.makeRouter(state: state, output: fixture.output.path))
    }

    func remove() { fixture.remove() }
}

/// A diagnostic as the builder reports a bad front matter.
func sampleFailure() -> [Diagnostic] {
    [
        Diagnostic(
            .error,
            TagflowError(
                location: SourceLocation(path: "posts/2024-01-01-hello.md", line: 2, column: 8), step: "content",
                message: "invalid YAML in front matter: <script>alert(1)</script>", sourceLine: "title: [oops"))
    ]
}
