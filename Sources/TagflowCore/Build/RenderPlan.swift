/// A page of a site as a build plans it: the job that renders it, the file it writes, the key of
/// what it is made from, and its size in the output.
struct PlannedPage: Sendable {
    var job: SiteRenderer.Job
    /// The output file (``SiteRenderer/outputPath(of:)``).
    var path: String
    /// ``SiteRenderer/key(of:)``; `nil` when the renderer has no digests, and the page is then
    /// always rendered.
    var key: DigestValue?
    /// The file's size as the output holds it; 0 until it is written.
    var bytes = 0
}

/// What a ``RenderPass`` renders and deletes: a site's pages compared with the ones its output
/// holds.
///
/// Every build makes one: a full build renders every page; the cached build and `tagflow serve`
/// render only the pages whose keys differ from the ones the output was written with.
struct RenderPlan: Sendable {
    /// Every page of the site, in the renderer's order of jobs.
    var pages: [PlannedPage]
    /// Where in ``pages`` the pages to render are, in order: new, without a key, or with another
    /// key than the output's.
    var stale: [Int]
    /// The files of pages the output holds that the site no longer has.
    var gone: Set<String> = []
    /// The pages the output did not hold; `nil` when it held none.
    ///
    /// Only these can newly collide with a static file (the others were checked when they were written, against the same
    /// static files: a change to those is a full build).
    var appeared: Set<String>?

    /// Every page of a site, for an empty folder, without keys (see ``takeKeys(from:)``).
    init(everyPageOf renderer: SiteRenderer) {
        pages = renderer.jobs.map { PlannedPage(job: $0, path: renderer.outputPath(of: $0)) }
        stale = Array(pages.indices)
        appeared = nil
    }

    /// Sets each page's key, from a renderer prepared with digests.
    mutating func takeKeys(from renderer: SiteRenderer) {
        guard renderer.keys != nil else { return }
        for (index, key) in renderer.keys(of: pages.lazy.map(\.job)).enumerated() { pages[index].key = key?.value }
    }

    /// A site's pages compared with the records of an output folder's pages, by path.
    init(_ renderer: SiteRenderer, comparedWith records: [String: PageRecord]) {
        self.init(everyPageOf: renderer)
        takeKeys(from: renderer)
        stale = []
        for index in pages.indices {
            let page = pages[index]
            if let key = page.key, let record = records[page.path], record.key == key {
                pages[index].bytes = record.bytes
            } else {
                stale.append(index)
            }
        }
        let paths = Set(pages.lazy.map(\.path))
        gone = Set(records.keys).subtracting(paths)
        appeared = paths.subtracting(records.keys)
    }

    /// A site whose jobs are the ones of `previous` (the same pages in the same order, their
    /// contents perhaps changed), compared with `previous` page by page.
    init(_ renderer: SiteRenderer, sameJobsAs previous: [PlannedPage]) {
        let keys = renderer.keys(of: previous.lazy.map(\.job))
        let pages = zip(previous, keys).map { page, key in
            PlannedPage(job: page.job, path: page.path, key: key?.value, bytes: page.bytes)
        }
        self.pages = pages
        stale = pages.indices.filter { pages[$0].key == nil || pages[$0].key != previous[$0].key }
        appeared = []
    }
}

/// What an output folder holds at a path: the key of what the page was made from (`nil`: unknown,
/// so it is rendered again), and its size.
struct PageRecord: Sendable, Equatable {
    var key: DigestValue?
    var bytes: Int
}
