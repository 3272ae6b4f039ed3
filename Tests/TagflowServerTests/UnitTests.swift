import Foundation
import TagflowCore
import TagflowTesting
import Testing

@testable import TagflowServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite struct RequestPathTests {
    @Test(arguments: [
        ("/", ""), ("/index.html", "index.html"), ("/posts/hello/", "posts/hello/"), ("/tags/c%23/", "tags/c#/"),
        ("/a%20b.txt", "a b.txt"), ("/file..name.txt", "file..name.txt"),
    ])
    func acceptsPathsInsideTheSite(raw: String, relative: String) throws {
        #expect(try #require(RequestPath(raw: raw)).relative == relative)
    }

    @Test(arguments: [
        "/..", "/../x", "/a/../../x", "/%2e%2e/x", "/%2E%2e/x", "/.%2e/x", "/%252e%252e/x", "/a\\b", "/%5C", "/./x",
        "x", "", "../x", "/a/%00", "/C:/x", "/%zz",
    ])
    func refusesPathsThatCouldLeaveIt(raw: String) {
        #expect(RequestPath(raw: raw) == nil)
    }

    @Test(arguments: [("/", true), ("/posts/a/", true), ("/a.html", true), ("/about", true), ("/a.css", false)])
    func knowsWhatMayBeAPage(raw: String, isPage: Bool) throws {
        #expect(try #require(RequestPath(raw: raw)).mayNameAPage == isPage)
    }
}

@Suite struct PageInjectorTests {
    @Test func addsTheScriptBeforeTheClosingBodyTag() {
        let page = PageInjector.inject(into: "<html><BODY class=x><p>Hi</p></BODY></html>", buildID: "ab-1", errors: [])
        #expect(page.hasPrefix("<html><BODY class=x><p>Hi</p><script data-tagflow-serve>"))
        #expect(page.hasSuffix("</script></BODY></html>"))
        #expect(page.contains("var b=\"ab-1\""))
    }

    @Test func addsTheBannerRightAfterTheOpeningBodyTag() {
        let page = PageInjector.inject(
            into: "<html><body class=\"x\"><p>Hi</p></body></html>", buildID: "ab-2", errors: sampleFailure())
        #expect(page.hasPrefix("<html><body class=\"x\"><div id=\"\(PageInjector.bannerID)\""))
        #expect(page.contains("posts/2024-01-01-hello.md:2:8: error: invalid YAML"))
        #expect(page.contains("title: [oops"))
        #expect(page.contains("&lt;script&gt;"))
    }

    @Test func worksOnFragmentsWithoutABody() {
        let page = PageInjector.inject(into: "<p>Hi</p>", buildID: "c-3", errors: sampleFailure())
        #expect(page.hasPrefix("<div id=\"\(PageInjector.bannerID)\""))
        #expect(page.hasSuffix("</script>"))
    }

    @Test func theBuildIDCannotBreakOutOfTheScript() {
        #expect(!PageInjector.reloadScript(buildID: "x\"</script><script>alert(1)").contains("alert(1)\""))
        #expect(!PageInjector.reloadScript(buildID: "x\"</script>").contains("</script><"))
    }
}

@Suite struct PreviewStateTests {
    @Test func eachFinishedBuildHasANewIDAndSubscribersHearOfIt() async {
        let state = PreviewState()
        let stream = state.subscribe()
        var iterator = stream.makeAsyncIterator()
        let first = await iterator.next()
        #expect(first == state.current.buildID)
        state.buildStarted()
        #expect(state.current.isBuilding)
        state.buildSucceeded()
        #expect(await iterator.next() == state.current.buildID)
        #expect(state.current.hasOutput)
        state.buildFailed(sampleFailure())
        #expect(await iterator.next() == state.current.buildID)
        #expect(state.current.hasOutput, "a failure keeps the last good output")
        #expect(state.current.failure.count == 1)
        state.finish()
        #expect(await iterator.next() == nil)
        #expect(state.subscriberCount == 0)
    }

    /// A page needs only the newest build: a reader that is behind skips the IDs in between.
    @Test func aReaderThatIsBehindHearsOnlyTheNewestBuild() async {
        let state = PreviewState()
        let stream = state.subscribe()
        state.buildSucceeded()
        state.buildFailed(sampleFailure())
        let newest = state.current.buildID
        state.finish()
        var heard: [String] = []
        for await id in stream { heard.append(id) }
        #expect(heard == [newest])
    }
}

@Suite struct SiteWatcherTests {
    func watcher(_ fixture: SiteFixture, notifications: Bool = true) -> SiteWatcher {
        SiteWatcher(
            root: fixture.site, ignoring: ["_site"], interval: .milliseconds(20), quietPeriod: .milliseconds(60),
            maximumDelay: .seconds(1), usesNotifications: notifications)
    }

    /// Each kind of change, seen through ``SiteWatcher/nextChanges(after:)``: with the kernel's
    /// notices (Linux) only the touched paths are looked at again, so each must be handled.
    @Test(arguments: [true, false])
    func nextChangesSeesEveryKindOfChange(notifications: Bool) async throws {
        let fixture = try SiteFixture(
            "-- site.yml --\ntitle: T\n-- posts/a.md --\nA\n-- posts/b.md --\nB\n-- posts/old/c.md --\nC\n")
        defer { fixture.remove() }
        let watcher = watcher(fixture, notifications: notifications)
        #if os(Linux)
            #expect(watcher.hasNotifications == notifications)
        #endif
        var snapshot = watcher.snapshot()
        func next(_ change: @escaping @Sendable () throws -> Void) async throws -> ChangeSet {
            let changer = Task {
                try await Task.sleep(for: .milliseconds(30))
                try change()
            }
            let (changes, latest) = try await watcher.nextChanges(after: snapshot)
            try await changer.value
            snapshot = latest
            #expect(latest == watcher.snapshot(), "the snapshot kept up with the files")
            return changes
        }
        let site = fixture.site
        #expect(
            try await next { try fixture.write("posts/a.md", "A, edited\n") } == ChangeSet(modified: ["posts/a.md"]))
        #expect(
            try await next {
                let temporary = site.appendingPathComponent("posts/.b.md.swp")
                try Data("Z\n".utf8).write(to: temporary)
                _ = rename(temporary.path, site.appendingPathComponent("posts/b.md").path)
            } == ChangeSet(modified: ["posts/b.md"]))
        #expect(
            try await next { try fixture.write("posts/2025/new/d.md", "D\n") }
                == ChangeSet(added: ["posts/2025/new/d.md"]))
        // A file in the folder made a moment ago is seen too: the new folder is watched.
        #expect(
            try await next { try fixture.write("posts/2025/new/e.md", "E\n") }
                == ChangeSet(added: ["posts/2025/new/e.md"]))
        #expect(
            try await next { try FileManager.default.removeItem(at: site.appendingPathComponent("posts/old")) }
                == ChangeSet(removed: ["posts/old/c.md"]))
        #expect(
            try await next {
                try FileManager.default.moveItem(
                    at: site.appendingPathComponent("posts/2025"), to: site.appendingPathComponent("posts/2026"))
            }
                == ChangeSet(
                    added: ["posts/2026/new/d.md", "posts/2026/new/e.md"],
                    removed: ["posts/2025/new/d.md", "posts/2025/new/e.md"]))
        #expect(
            try await next {
                try fixture.write(".hidden", "x"); try fixture.write("site.yml", "title: U\n")
            } == ChangeSet(modified: ["site.yml"]))
    }

    @Test func seesEditsSaveByRenameDeletesAndNewFolders() async throws {
        let fixture = try SiteFixture("-- site.yml --\ntitle: T\n-- posts/a.md --\nA\n-- posts/b.md --\nB\n")
        defer { fixture.remove() }
        let watcher = watcher(fixture)
        let start = watcher.snapshot()
        #expect(Set(start.files.keys) == ["site.yml", "posts/a.md", "posts/b.md"])

        // An editor's save-by-rename: same size, same second, new inode.
        let temporary = fixture.site.appendingPathComponent("posts/.a.md.swp")
        try Data("Z\n".utf8).write(to: temporary)
        #expect(rename(temporary.path, fixture.site.appendingPathComponent("posts/a.md").path) == 0)
        try FileManager.default.removeItem(at: fixture.site.appendingPathComponent("posts/b.md"))
        try fixture.write("posts/2025/new/c.md", "C\n")
        let changes = watcher.snapshot().changes(since: start)
        #expect(changes.modified == ["posts/a.md"])
        #expect(changes.removed == ["posts/b.md"])
        #expect(changes.added == ["posts/2025/new/c.md"])
    }

    @Test func skipsHiddenFilesBackupsAndTheOutputFolder() throws {
        let fixture = try SiteFixture(
            "-- site.yml --\nt\n-- .git/HEAD --\nx\n-- posts/a.md~ --\nx\n-- posts/#a.md# --\nx\n-- _site/index.html --\nx\n"
        )
        defer { fixture.remove() }
        #expect(Set(watcher(fixture).snapshot().files.keys) == ["site.yml"])
    }

    @Test(arguments: [true, false])
    func aBurstOfSavesIsOneChange(notifications: Bool) async throws {
        let fixture = try SiteFixture("-- site.yml --\ntitle: T\n")
        defer { fixture.remove() }
        var watcher = watcher(fixture, notifications: notifications)
        watcher.quietPeriod = .milliseconds(300)
        let start = watcher.snapshot()
        let writer = Task {
            for index in 0..<5 { try fixture.write("posts/p\(index).md", "post \(index)\n") }
            try fixture.write("site.yml", "title: Changed\n")
        }
        let (changes, snapshot) = try await watcher.nextChanges(after: start)
        try await writer.value
        #expect(changes.added.count == 5, "\(changes)")
        #expect(changes.modified == ["site.yml"])
        #expect(snapshot == watcher.snapshot())
    }

    @Test func aFileChangedAndChangedBackIsNoChange() async throws {
        let fixture = try SiteFixture("-- site.yml --\ntitle: T\n")
        defer { fixture.remove() }
        let watcher = watcher(fixture)
        let start = watcher.snapshot()
        try fixture.write("posts/tmp.md", "x\n")
        let added = watcher.snapshot()
        try FileManager.default.removeItem(at: fixture.site.appendingPathComponent("posts/tmp.md"))
        #expect(watcher.snapshot().changes(since: start).isEmpty)
        #expect(added.changes(since: start).added == ["posts/tmp.md"])
    }

    @Test func aSymbolicLinkLoopIsReadOnce() throws {
        let fixture = try SiteFixture("-- posts/a.md --\nA\n")
        defer { fixture.remove() }
        try FileManager.default.createSymbolicLink(
            at: fixture.site.appendingPathComponent("posts/loop"), withDestinationURL: fixture.site)
        #expect(watcher(fixture).snapshot().files.count == 1)
    }

    @Test func theSitesOutputFolderIsIgnored() throws {
        let fixture = try SiteFixture("-- site.yml --\ntitle: T\npaths:\n  output: ./public/\n")
        defer { fixture.remove() }
        #expect(PreviewBuilder.ignoredFolders(siteRoot: fixture.site) == ["_site", "public"])
    }
}

@Suite struct KeepAliveTests {
    /// The keep-alive repeats the current ID, which reloads no page, and never hides a newer one.
    @Test func theKeepAliveRepeatsTheCurrentBuildID() async {
        let state = PreviewState()
        var iterator = state.subscribe().makeAsyncIterator()
        let first = await iterator.next()
        state.keepAlive()
        #expect(await iterator.next() == first)
        state.buildSucceeded()
        state.keepAlive()
        #expect(await iterator.next() == state.current.buildID)
        state.finish()
    }
}
