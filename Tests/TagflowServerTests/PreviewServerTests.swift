import CTagflowSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import TagflowCore
import TagflowTesting
import Testing

@testable import TagflowServer

/// The preview server in memory (`app.test(.router)`): pages, files, errors, misses and the event stream.
@Suite struct PreviewServerTests {
    @Test func servesPagesWithTheReloadScriptButNeverWritesItToDisk() async throws {
        let site = try await ServedSite()
        defer { site.remove() }
        try await site.application().test(.router) { client in
            let response = try await client.execute(uri: "/", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "text/html; charset=utf-8")
            let body = String(buffer: response.body)
            #expect(body.contains("Hello"))
            #expect(body.contains(PageInjector.eventsPath))
            #expect(body.contains(site.state.current.buildID))
            #expect(!body.contains(PageInjector.bannerID))
            let post = try await client.execute(uri: "/posts/hello/", method: .get)
            #expect(post.status == .ok)
            #expect(String(buffer: post.body).contains("<strong>first</strong>"))
            // A folder without its slash is redirected to it.
            let folder = try await client.execute(uri: "/posts/hello", method: .get)
            #expect(folder.status == .movedPermanently)
            #expect(folder.headers[.location] == "/posts/hello/")
        }
        for (path, data) in folderContents(site.fixture.output) {
            #expect(!String(decoding: data, as: UTF8.self).contains("__tagflow"), "\(path)")
        }
    }

    @Test(arguments: [
        ("/style-extra.css", "text/css; charset=utf-8"), ("/app.js", "text/javascript; charset=utf-8"),
        ("/feed.xml", "application/xml; charset=utf-8"), ("/icon.svg", "image/svg+xml; charset=utf-8"),
        ("/pixel.png", "image/png"), ("/photo.jpg", "image/jpeg"), ("/picture.webp", "image/webp"),
        ("/font.woff2", "font/woff2"), ("/data.json", "application/json; charset=utf-8"),
        ("/notes.txt", "text/plain; charset=utf-8"), ("/index.html", "text/html; charset=utf-8"),
    ])
    func contentTypes(path: String, type: String) async throws {
        let binary: [(String, [UInt8])] = [
            ("static/pixel.png", [0x89, 0x50, 0x4E, 0x47]), ("static/photo.jpg", [0xFF, 0xD8, 0xFF]),
            ("static/picture.webp", Array("RIFF0000WEBP".utf8)), ("static/font.woff2", Array("wOF2".utf8)),
        ]
        let site = try await ServedSite(extraFiles: binary)
        defer { site.remove() }
        try await site.application().test(.router) { client in
            let response = try await client.execute(uri: path, method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == type)
            #expect(response.body.readableBytes > 0)
        }
    }

    @Test(arguments: ["/", "/posts/hello/", "/style-extra.css", "/icon.svg"])
    func headSendsTheHeadersOfGetWithoutABody(path: String) async throws {
        let site = try await ServedSite()
        defer { site.remove() }
        try await site.application().test(.router) { client in
            let get = try await client.execute(uri: path, method: .get)
            let head = try await client.execute(uri: path, method: .head)
            #expect(head.status == .ok)
            #expect(head.body.readableBytes == 0)
            #expect(head.headers[.contentLength] == String(get.body.readableBytes))
            #expect(head.headers[.contentType] == get.headers[.contentType])
            #expect(head.headers[.eTag] == get.headers[.eTag])
        }
    }

    @Test(arguments: ["/", "/posts/second/", "/style-extra.css"])
    func eTagsAnswerIfNoneMatchAndChangeWithTheBuild(path: String) async throws {
        let site = try await ServedSite()
        defer { site.remove() }
        try await site.application().test(.router) { client in
            let first = try await client.execute(uri: path, method: .get)
            let eTag = try #require(first.headers[.eTag])
            let again = try await client.execute(uri: path, method: .get, headers: [.ifNoneMatch: eTag])
            #expect(again.status == .notModified)
            #expect(again.body.readableBytes == 0)
            let other = try await client.execute(uri: path, method: .get, headers: [.ifNoneMatch: "\"nope\""])
            #expect(other.status == .ok)
            // A page's markup depends on the build state, so its tag does too.
            site.state.buildFailed(sampleFailure())
            let broken = try await client.execute(uri: path, method: .get, headers: [.ifNoneMatch: eTag])
            if path.hasSuffix("/") {
                #expect(broken.status == .ok)
                #expect(broken.headers[.eTag] != eTag)
            } else {
                #expect(broken.status == .notModified)
            }
        }
    }

    @Test func aFileRewrittenWithinOneSecondGetsANewETag() async throws {
        let site = try await ServedSite()
        defer { site.remove() }
        let file = site.fixture.output.appendingPathComponent("style-extra.css")
        try await site.application().test(.router) { client in
            let before = try await client.execute(uri: "/style-extra.css", method: .get)
            try Data("body { color: #333; }\n".utf8).write(to: file)  // same size
            let after = try await client.execute(
                uri: "/style-extra.css", method: .get, headers: [.ifNoneMatch: before.headers[.eTag] ?? ""])
            #expect(after.status == .ok)
            #expect(String(buffer: after.body).contains("#333"))
        }
    }

    @Test(arguments: ["/no-such-page/", "/posts/nope/", "/missing.png", "/deep/er/missing.html"])
    func missesGetTheSites404Page(path: String) async throws {
        let site = try await ServedSite()
        defer { site.remove() }
        let notFoundPage = try site.fixture.output("404.html")
        try await site.application().test(.router) { client in
            let response = try await client.execute(uri: path, method: .get)
            #expect(response.status == .notFound)
            let body = String(buffer: response.body)
            let title = try #require(notFoundPage.firstMatch(of: /<title>[^<]*<\/title>/)).output
            #expect(body.contains(title))
            #expect(body.contains(PageInjector.eventsPath))
        }
    }

    @Test func aFailedBuildShowsItsErrorOnEveryPageAboveTheLastGoodOne() async throws {
        let site = try await ServedSite()
        defer { site.remove() }
        site.state.buildFailed(sampleFailure())
        try await site.application().test(.router) { client in
            for path in ["/", "/posts/hello/", "/tags/", "/nope/"] {
                let response = try await client.execute(uri: path, method: .get)
                let body = String(buffer: response.body)
                #expect(body.contains("id=\"\(PageInjector.bannerID)\""), "\(path)")
                #expect(body.contains("posts/2024-01-01-hello.md:2:8: error: invalid YAML in front matter"), "\(path)")
                // The message is escaped, not run.
                #expect(body.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
                #expect(!body.contains("<script>alert(1)</script>"))
            }
            let home = String(buffer: try await client.execute(uri: "/", method: .get).body)
            #expect(home.contains("Second"), "the last good page stays beneath the banner")
            // The banner comes right after <body>, before the site's own markup.
            let banner = try #require(home.range(of: PageInjector.bannerID))
            let content = try #require(home.range(of: "Second"))
            #expect(banner.lowerBound < content.lowerBound)
            // Fixing it removes the banner.
            site.state.buildSucceeded()
            let fixed = String(buffer: try await client.execute(uri: "/", method: .get).body)
            #expect(!fixed.contains(PageInjector.bannerID))
        }
    }

    @Test func withoutAGoodBuildPagesShowTheStatus() async throws {
        let fixture = try SiteFixture("")
        defer { fixture.remove() }
        let state = PreviewState()
        let app = Application(router: PreviewServer.makeRouter(state: state, output: fixture.output.path))
        try await app.test(.router) { client in
            let building = try await client.execute(uri: "/", method: .get)
            #expect(building.status == .serviceUnavailable)
            #expect(String(buffer: building.body).contains(PageInjector.eventsPath))
            state.buildFailed(sampleFailure())
            let failed = try await client.execute(uri: "/posts/hello/", method: .get)
            #expect(failed.status == .internalServerError)
            let body = String(buffer: failed.body)
            #expect(body.contains(PageInjector.bannerID))
            #expect(body.contains("posts/2024-01-01-hello.md:2:8"))
            #expect(body.contains("no good build"))
        }
    }

    @Test func theEventStreamSendsTheCurrentBuildThenEachNewOne() async throws {
        let site = try await ServedSite()
        defer { site.remove() }
        let state = site.state
        let first = state.current.buildID
        try await site.application().test(.router) { client in
            async let stream = client.execute(uri: PageInjector.eventsPath, method: .get)
            while state.subscriberCount == 0 { try await Task.sleep(for: .milliseconds(5)) }
            state.buildFailed(sampleFailure())
            let second = state.current.buildID
            state.finish()
            let response = try await stream
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("text/event-stream") == true)
            // The stream keeps only the newest ID for a reader that is behind (PreviewStateTests):
            // the first ID is written only if the handler took it before the second build ended.
            let body = String(buffer: response.body)
            let events = { (ids: [String]) in ids.map { "event: build\ndata: \($0)\n\n" }.joined() }
            #expect(
                body == "retry: 500\n\n" + events([first, second]) || body == "retry: 500\n\n" + events([second]),
                "\(body)")
            #expect(first != second)
        }
    }

    static let traversals = [
        "/../secret.txt", "/../../../../etc/passwd", "/%2e%2e/secret.txt", "/%2E%2E/%2e%2e/etc/passwd",
        "/..%2fsecret.txt", "/posts/%2e%2e/%2e%2e/secret.txt", "/%252e%252e/secret.txt", "/..\\secret.txt",
        "/posts\\..\\..\\secret.txt", "/%5c..%5csecret.txt", "//etc/passwd", "/etc/passwd", "/./../secret.txt",
        "/posts/../../secret.txt", "/%00/../secret.txt", "/C:/Windows/win.ini", "/.%2e/secret.txt",
    ]

    @Test(arguments: traversals)
    func traversalAttemptsAnswer400Or404(path: String) async throws {
        let site = try await ServedSite()
        defer { site.remove() }
        let secret = site.secret
        try await site.application().test(.router) { client in
            let response = try await client.execute(uri: path, method: .get)
            #expect(response.status == .badRequest || response.status == .notFound, "\(path): \(response.status)")
            #expect(!String(buffer: response.body).contains(secret))
            #expect(!String(buffer: response.body).contains("root:"))
        }
    }

    @Test func symbolicLinksOutOfTheOutputFolderAreNotFollowed() async throws {
        let site = try await ServedSite()
        defer { site.remove() }
        let output = site.fixture.output
        let manager = FileManager.default
        try manager.createSymbolicLink(
            at: output.appendingPathComponent("leak.txt"),
            withDestinationURL: site.fixture.root.appendingPathComponent("secret.txt"))
        try manager.createSymbolicLink(
            at: output.appendingPathComponent("outside"), withDestinationURL: site.fixture.root)
        try manager.createSymbolicLink(
            at: output.appendingPathComponent("etc"), withDestinationURL: URL(fileURLWithPath: "/etc"))
        // A link that stays inside is fine.
        try manager.createSymbolicLink(
            at: output.appendingPathComponent("notes-link.txt"),
            withDestinationURL: output.appendingPathComponent("notes.txt"))
        let secret = site.secret
        try await site.application().test(.router) { client in
            for path in ["/leak.txt", "/outside/secret.txt", "/outside/", "/etc/passwd", "/etc/hostname"] {
                let response = try await client.execute(uri: path, method: .get)
                #expect(response.status == .notFound, "\(path)")
                #expect(!String(buffer: response.body).contains(secret))
            }
            let inside = try await client.execute(uri: "/notes-link.txt", method: .get)
            #expect(inside.status == .ok)
            #expect(String(buffer: inside.body) == "plain text\n")
        }
    }

    @Test func otherMethodsAreNotAllowed() async throws {
        let site = try await ServedSite()
        defer { site.remove() }
        try await site.application().test(.router) { client in
            for method in [HTTPRequest.Method.post, .put, .delete, .patch] {
                for uri in ["/index.html", "/no-such-page/", "/__tagflow/events"] {
                    let response = try await client.execute(uri: uri, method: method)
                    #expect(response.status == .methodNotAllowed, "\(method) \(uri)")
                    #expect(response.headers[.allow] == "GET, HEAD")
                }
            }
        }
    }

    @Test func answersOnlyHostsNamingThisServer() async throws {
        let site = try await ServedSite()
        defer { site.remove() }
        try await site.application().test(.router) { client in
            for host in [
                "localhost:8000", "127.0.0.1:8000", "[::1]:8000", "LOCALHOST", "blog.localhost:8000", "10.0.0.7",
            ] {
                let response = try await client.execute(
                    uri: "/index.html", method: .get, headers: [try #require(HTTPField.Name("Host")): host])
                #expect(response.status == .ok, "\(host)")
            }
            for host in ["evil.example", "evil.example:8000", "127.0.0.1.evil.example", "localhost.evil.example", ""] {
                let response = try await client.execute(
                    uri: "/index.html", method: .get, headers: [try #require(HTTPField.Name("Host")): host])
                #expect(response.status == .forbidden, "\(host)")
            }
        }
        #expect(PreviewMiddleware<BasicRequestContext>.isAllowed(host: "myhost:8000", listeningOn: "myhost"))
        #expect(!PreviewMiddleware<BasicRequestContext>.isAllowed(host: "myhost:8000", listeningOn: "127.0.0.1"))
    }
}

/// The same server over a real socket (`.live`), where request targets arrive exactly as sent.
///
/// Serialized: a raw connection's read blocks a thread of the concurrency pool, and two at once
/// on two cores would leave none to the server that must answer them.
@Suite(.serialized) struct PreviewServerLiveTests {
    @Test func servesPagesAndRefusesTraversalOverTheNetwork() async throws {
        let site = try await ServedSite()
        defer { site.remove() }
        let secret = site.secret
        try await site.application().test(.live) { client in
            let home = try await client.execute(uri: "/", method: .get)
            #expect(home.status == .ok)
            #expect(String(buffer: home.body).contains(PageInjector.eventsPath))
            // (Hummingbird's test client refuses to send a backslash; the raw-socket test below sends those.)
            for path in PreviewServerTests.traversals where !path.contains("\\") {
                let response = try await client.execute(uri: path, method: .get)
                #expect(response.status == .badRequest || response.status == .notFound, "\(path): \(response.status)")
                #expect(!String(buffer: response.body).contains(secret))
            }
        }
    }

    /// DNS rebinding: a request whose Host names another site is refused over a real socket,
    /// where HTTP/1.1's Host header arrives as the request's authority.
    @Test func foreignHostsAreRefusedOverTheNetwork() async throws {
        let site = try await ServedSite()
        defer { site.remove() }
        try await site.application().test(.live) { client in
            let port = try #require(client.port)
            for (host, status) in [
                ("evil.example", "403"), ("evil.example:\(port)", "403"), ("localhost:\(port)", "200"),
            ] {
                let connection = try RawConnection(port: port)
                defer { connection.close() }
                try connection.send("GET / HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n")
                let head = String(decoding: try connection.readToEnd(), as: UTF8.self).prefix(20)
                #expect(head.hasPrefix("HTTP/1.1 \(status)"), "\(host): \(head)")
            }
        }
    }

    /// A page closed without a word leaves its event stream behind until something is written to
    /// it: the keep-alive finds it closed, and the server lets its descriptor go.
    @Test func closedEventStreamsAreReleasedByTheKeepAlive() async throws {
        let site = try await ServedSite()
        defer { site.remove() }
        @Sendable func openDescriptors() -> Int {
            (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
        }
        try await site.application().test(.live) { client in
            let port = try #require(client.port)
            let before = openDescriptors()
            for _ in 0..<500 {
                let connection = try RawConnection(port: port)
                try connection.send("GET /__tagflow/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                _ = try connection.readSome()
                connection.close()
            }
            let deadline = ContinuousClock.now + .seconds(20)
            while site.state.subscriberCount > 0, ContinuousClock.now < deadline {
                site.state.keepAlive()
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(site.state.subscriberCount == 0)
            try await Task.sleep(for: .milliseconds(200))
            #expect(
                openDescriptors() < before + 50,
                "descriptors (other tests run beside this one; a leak would be 500): \(before) before, \(openDescriptors()) after"
            )
        }
    }

    /// 200 clients at once for five seconds, each opening a connection per request: the server
    /// answers them all, and afterwards holds no more descriptors and little more memory.
    @Test func twoHundredClientsLeaveDescriptorsAndMemoryFlat() async throws {
        let site = try await ServedSite()
        defer { site.remove() }
        @Sendable func openDescriptors() -> Int {
            (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
        }
        @Sendable func residentBytes() -> Int {
            let fields = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8))?.split(separator: " ")
            return (fields.flatMap { $0.count > 1 ? Int($0[1]) : nil } ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
        }
        try await site.application().test(.live) { client in
            let port = try #require(client.port)
            _ = try RawHTTP.request(port: port, path: "/")
            let before = (descriptors: openDescriptors(), memory: residentBytes())
            let results = Mutex<(ok: Int, failed: Int)>((0, 0))
            let deadline = Date().addingTimeInterval(5)
            // Threads, not tasks: each blocks on its socket, which would starve the concurrency
            // pool the server runs on.
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                let remaining = Mutex(200)
                for _ in 0..<200 {
                    Thread.detachNewThread {
                        while Date() < deadline {
                            let status = (try? RawHTTP.request(port: port, path: "/", timeout: 10))?.status
                            results.withLock { status == 200 ? ($0.ok += 1) : ($0.failed += 1) }
                        }
                        if remaining.withLock({ count in
                            count -= 1
                            return count == 0
                        }) {
                            done.resume()
                        }
                    }
                }
            }
            let (ok, failed) = results.withLock { $0 }
            #expect(failed == 0 && ok > 200, "\(ok) answered, \(failed) failed")
            try await Task.sleep(for: .milliseconds(500))
            #expect(
                openDescriptors() < before.descriptors + 50, "descriptors: \(before.descriptors) → \(openDescriptors())"
            )
            // A sanitizer keeps freed memory in quarantine (hundreds of MiB): memory says nothing there.
            if tagflow_is_sanitized() == 0 {
                #expect(
                    residentBytes() < before.memory + 64 << 20,
                    "memory: \(before.memory >> 20) → \(residentBytes() >> 20) MiB")
            }
        }
    }

    /// A connection that never finishes its request (slowloris) is closed after the idle time.
    @Test func unfinishedRequestsAreClosed() async throws {
        let site = try await ServedSite()
        defer { site.remove() }
        let app = Application(
            router: PreviewServer.makeRouter(state: site.state, output: site.fixture.output.path),
            server: PreviewServer.server(idleSeconds: 1))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let connection = try RawConnection(port: port, timeout: 8)
            defer { connection.close() }
            let start = ContinuousClock.now
            try connection.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: a")
            #expect(try connection.readSome().isEmpty, "the server closes the connection")
            #expect(ContinuousClock.now - start < .seconds(6))
        }
    }

    @Test func rawRequestTargetsAreRefusedToo() async throws {
        let site = try await ServedSite()
        defer { site.remove() }
        let secret = site.secret
        try await site.application().test(.live) { client in
            let port = try #require(client.port)
            for path in PreviewServerTests.traversals + ["../secret.txt", "secret.txt", "/posts/..%5c..%5csecret.txt"] {
                let response = try RawHTTP.request(port: port, path: path)
                #expect(response.status == 400 || response.status == 404, "\(path): \(response.status)")
                #expect(!response.body.contains(secret))
            }
        }
    }
}
