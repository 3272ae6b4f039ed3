import Testing

@testable import TagflowHTML

@Suite struct URLPolicyTests {
    @Test(arguments: [
        "javascript:alert(1)", "JavaScript:alert(1)", " javascript:x", "java\tscript:x", "java\nscript:x",
        "vbscript:x", "file:///etc/passwd", "data:text/html,<script>", "\u{1}javascript:x",
    ])
    func refused(url: String) {
        #expect(!URLPolicy.isSafe(url))
    }

    @Test(arguments: [
        "/tags/swift/", "https://example.org/", "http://x", "mailto:a@b.c", "#top", "javascript", "./javascript:x",
        "/javascript:x", "?q=javascript:x", "data:image/png;base64,AAAA", "tags/c++/",
    ])
    func allowed(url: String) {
        #expect(URLPolicy.isSafe(url))
    }

    @Test func xmlDropsForbiddenControlCharacters() {
        let bytes = Array("a\u{0}b\u{8}c\td\ne\u{1F}f\u{FFFE}g\u{FFFF}h".utf8)
        #expect(String(decoding: XMLCharacters.sanitized(bytes), as: UTF8.self) == "abc\td\nef\u{FFFD}g\u{FFFD}h")
        let clean = Array("<feed>ok</feed>".utf8)
        #expect(XMLCharacters.sanitized(clean) == clean)
    }
}
