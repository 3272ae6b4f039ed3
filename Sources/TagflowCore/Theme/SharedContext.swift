import Foundation
import Mustache
import Synchronization
import TagflowConcurrency

/// A template context that many pages show, such as a post in lists of posts: what a section's
/// body renders from it is kept and reused.
///
/// A post of a 10 000-post blog is listed on a home page and on every page of each of its tags;
/// rendering its entry (and building its context) again for each list was a large share of a
/// build's CPU time.
/// ``TemplateProgram`` keeps the text a section body rendered with this context on top of the
/// stack, but only when every name the body looked up was found in this context or in contexts
/// above it, or in none at all (none found in the page around it), and the body met no
/// `{{$block}}`. The text then depends on nothing but this context, the template, and those
/// missing names: the next page that lists it, and holds none of them either, gets the same bytes
/// without rendering it again. (A theme's `{{#tags_html}}` misses for a post without tags.)
///
/// For swift-mustache (the fallback renderer) it is a dictionary like any other: a section
/// pushes it, names are looked up in ``values``, and it prints as the dictionary does.
///
/// It can also watch one name: each lookup of it, by either renderer, and each printing of the
/// whole context, is noted in a ``NameReads`` (a tag's `count` in posts' tag lists).
///
/// And it can stand for an input of its own for some of its names (a post's tags in its list
/// entry, ``PageInput/Kind/summaryTags``): a lookup of one of them, or a printing of the whole
/// context, notes that input in the reads of the page being rendered (``PageReads/current``).
/// A page that shows no post's tags then does not depend on them.
final class SharedContext: Sendable, MustacheParent, CustomStringConvertible {

    /// The names and values.
    let values: TemplateObject
    /// Rendered section bodies, by ``TemplateProgram`` section identity.
    private let renderings = Locked<[Int: Rendering]>([:])
    private let reuses = Atomic<Int>(0)

    /// A name whose lookups are noted (by either renderer), its hash, and where.
    let watch: (name: String, hash: UInt64, reads: NameReads)?
    /// Names whose lookups note an input in the page's reads, with their hashes, and the input.
    let noting: (names: [(name: String, hash: UInt64)], input: PageInput)?

    init(
        _ values: TemplateObject, watching watch: (name: String, reads: NameReads)? = nil,
        noting: (names: [String], input: PageInput)? = nil
    ) {
        self.values = values
        self.watch = watch.map { ($0.name, TemplateObject.hash($0.name), $0.reads) }
        self.noting = noting.map { ($0.names.map { ($0, TemplateObject.hash($0)) }, $0.input) }
    }

    /// The value of a name, as a lookup: a lookup of the watched name is noted.
    func value(named name: String) -> TemplateValue? {
        value(named: name, hash: TemplateObject.hash(name))
    }

    /// The value of a name whose ``TemplateObject/hash(_:)`` is `hash`, as a lookup.
    func value(named name: String, hash: UInt64) -> TemplateValue? {
        if let watch, watch.hash == hash, watch.name == name { watch.reads.note() }
        if let noting, noting.names.contains(where: { $0.hash == hash && $0.name == name }) {
            PageReads.current?.note(noting.input)
        }
        return values.value(named: name, hash: hash)
    }

    func child(named name: String) -> Any? { value(named: name)?.any }

    var description: String {
        // Printed whole, the watched and noted names are shown too.
        watch?.reads.note()
        if let noting { PageReads.current?.note(noting.input) }
        return values.printed
    }

    /// What a section body rendered from this context.
    struct Rendering {
        /// The UTF-8 text.
        var bytes: [UInt8]
        /// The names it looked up that no context held.
        var missed: [String]
        /// What the rendering noted in the page's reads, which a page that takes the text notes
        /// too; `nil` when it was rendered with no page's reads to note in.
        var inputs: [PageInput]?
    }

    /// What the section `section` rendered from this context, if it was kept.
    func rendering(of section: Int) -> Rendering? {
        renderings.withLock { $0[section] }
    }

    /// Keeps what the section `section` rendered from this context.
    func keep(_ rendering: Rendering, of section: Int) {
        renderings.withLock { $0[section] = rendering }
    }

    /// Notes that a kept text was used (for tests).
    func countReuse() { reuses.add(1, ordering: .relaxed) }

    /// How many section renderings are kept (for tests).
    var keptCount: Int { renderings.withLock { $0.count } }

    /// How many times a kept text was used (for tests).
    var reuseCount: Int { reuses.load(ordering: .relaxed) }
}

/// Whether a name some ``SharedContext``s watch was looked up (or printed) since this was made.
///
/// A check whether a page holds the name (before a kept text is reused) counts as a lookup: a
/// note too many only costs `tagflow serve` a full build.
///
/// `tagflow serve` watches a tag's `count` in the tag lists of posts: while no page shows it, a
/// post's list entry does not depend on its tags' counts, and a tag added to a post does not
/// render again every page that lists a post with that tag.
final class NameReads: Sendable {
    private let happened = Atomic<Bool>(false)

    init() {}

    /// Notes a lookup.
    func note() {
        if !happened.load(ordering: .relaxed) { happened.store(true, ordering: .relaxed) }
    }

    /// Whether a lookup was noted.
    var anyNoted: Bool { happened.load(ordering: .relaxed) }
}
