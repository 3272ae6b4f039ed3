import TagflowMarkdown
import Testing

@testable import TagflowCore

/// A post is a value: its fields share one box between copies, and a copy that is changed gets
/// a box of its own.
@Suite struct PostTests {
    @Test func aChangedCopyLeavesTheOriginalAsItWas() {
        let original = makePost("hello", day: 1, tags: ["Swift", "Layout"])
        var copy = original
        #expect(copy == original)
        copy.title = "Changed"
        copy.body.wordCount += 2
        copy.isDraft = true
        #expect(original.title == "hello" && !original.isDraft && original.body.wordCount == 0)
        #expect(copy.title == "Changed" && copy.isDraft && copy.body.wordCount == 2)
        #expect(copy != original)
    }

    @Test func tagsAndTheirIdentitiesChangeTogether() {
        let original = makePost("hello", day: 1, tags: ["Swift"])
        var copy = original
        copy.tags.append("CSS")
        #expect(copy.tagKeys == [TagKey("Swift"), TagKey("CSS")])
        #expect(original.tags == ["Swift"] && original.tagKeys == [TagKey("Swift")])
        copy.tags = ["#Layout"]
        #expect(copy.tagKeys == [TagKey("#Layout")])
    }

    @Test func equalPostsHashAlike() {
        let first = makePost("hello", day: 1, tags: ["Swift"])
        var second = makePost("hello", day: 1, tags: ["Swift"])
        #expect(first == second && first.hashValue == second.hashValue)
        #expect(Set([first, second]).count == 1)
        second.summary = "Other"
        #expect(first != second)
    }
}
