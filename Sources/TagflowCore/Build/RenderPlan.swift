/// A page of a site as a build plans it: the job that renders it, the file it writes, what its
/// rendering read and the key made from that, and its size in the output.
struct PlannedPage: Sendable {
    var job: SiteRenderer.Job
    /// The output file (``SiteRenderer/outputPath(of:)``).
    var path: String
    /// What the page's last rendering read, named in this site; `nil` until it is rendered.
    var inputs: [PageInput]?
    /// The digest of the inputs' values (``SiteRenderer/keys(of:)``); `nil` when the renderer has
    /// no digests, and the page is then always rendered.
    var key: DigestValue?
    /// The file's size as the output holds it; 0 until it is written.
    var bytes = 0
}

/// What a ``RenderPass`` renders and deletes: a site's pages compared with the ones its output
/// holds.
///
/// Every build makes one: a full build renders every page; the cached build and `tagflow serve`
/// render only the pages whose inputs, as the output's pages read them, now have other values.
struct RenderPlan: Sendable {
    /// Every page of the site, in the renderer's order of jobs.
    var pages: [PlannedPage]
    /// Where in ``pages`` the pages to render are, in order: new, without a key, or with another
    /// key than the output's.
    var stale: [Int]
    /// The files of pages the output holds that the site no longer has.
    var gone: Set<String> = []
    /// What names the posts, tags and the rest in the pages' inputs: the site's.
    var identities: SiteIdentities
    /// The pages the output did not hold; `nil` when it held none.
    ///
    /// Only these can newly collide with a static file (the others were checked when they were written, against the same
    /// static files: a change to those is a full build).
    var appeared: Set<String>?

    /// Every page of a site, for an empty folder.
    init(everyPageOf renderer: SiteRenderer) {
        pages = renderer.jobs.map { PlannedPage(job: $0, path: renderer.outputPath(of: $0)) }
        identities = SiteIdentities(renderer)
        stale = Array(pages.indices)
        appeared = nil
    }

    /// A site's pages compared with the records of an output folder's pages.
    ///
    /// - Parameters:
    ///   - renderer: The site's renderer, prepared with digests.
    ///   - records: The output's pages, each with its path, in the order they were planned.
    ///   - identities: What named the posts, tags and the rest in the records' inputs.
    init<Records: RandomAccessCollection<(path: String, record: PageRecord)>>(
        _ renderer: SiteRenderer, comparedWith records: Records, from identities: SiteIdentities
    ) async where Records.Index == Int {
        self.init(everyPageOf: renderer)
        stale = []
        let map = PageInputMap(from: identities, to: self.identities)
        // Each page is looked for at its own place first, since the records are in the order of
        // the jobs that wrote them and an edit seldom moves a page; by path only when that fails,
        // among the records from there on (each one before was found at its place: a new tag
        // moves only the tag pages, which come last).
        var byPath: [String: Int]?
        var taken = [Bool](repeating: false, count: records.count)
        var takenCount = 0
        let carried = pages.indices.map { index -> (record: PageRecord, inputs: [PageInput]?)? in
            let path = pages[index].path
            let place: Int?
            if records.indices.contains(index), records[index].path == path {
                place = index
            } else {
                if byPath == nil {
                    let rest = min(index, records.endIndex)..<records.endIndex
                    byPath = Dictionary(rest.map { (records[$0].path, $0) }, uniquingKeysWith: { a, _ in a })
                }
                place = byPath?[path]
            }
            guard let place else { return nil }
            if !taken[place] {
                taken[place] = true
                takenCount += 1
            }
            let record = records[place].record
            return (record, record.inputs.flatMap(map.carried))
        }
        let keys = await renderer.keys(of: carried.map { $0?.inputs })
        var appeared: Set<String> = []
        for index in pages.indices {
            if let old = carried[index], let key = keys[index], old.record.key == key {
                pages[index].inputs = old.inputs
                pages[index].key = key
                pages[index].bytes = old.record.bytes
            } else {
                stale.append(index)
                if carried[index] == nil { appeared.insert(pages[index].path) }
            }
        }
        self.appeared = appeared
        // No record is left over when every one was taken by a page; otherwise by path, as two
        // records of one path would leave one untaken.
        gone =
            takenCount == records.count
            ? [] : Set(records.lazy.map(\.path)).subtracting(pages.lazy.map(\.path))
    }

    /// A site whose jobs are the ones of `previous` (the same pages in the same order, their
    /// contents perhaps changed, the posts and tags in their places), compared with `previous`
    /// page by page.
    init(_ renderer: SiteRenderer, sameJobsAs previous: [PlannedPage], identities: SiteIdentities) async {
        let keys = await renderer.keys(of: previous.map(\.inputs))
        var pages = previous
        for index in pages.indices { pages[index].key = keys[index] }
        self.pages = pages
        self.identities = identities
        stale = pages.indices.filter { pages[$0].key == nil || pages[$0].key != previous[$0].key }
        appeared = []
    }
}

/// What an output folder holds at a path: what the page's rendering read, the key made from that
/// (`nil`: unknown, so it is rendered again), and its size.
struct PageRecord: Sendable, Equatable {
    var inputs: [PageInput]?
    var key: DigestValue?
    var bytes: Int
}
