/// "Did you mean …?" for a name that is close to a known one: a typo in a front-matter or
/// `site.yml` key (`tittle`, `tag`, `summmary`, `dates`).
package enum Suggestion {
    /// The known name closest to `name`, when it is a likely typo of it.
    ///
    /// That is at most one edit for names of up to four letters, two for longer ones (an edit: a
    /// letter added, removed, changed, or two swapped). `nil` for `name` itself, or when nothing
    /// is that close.
    package static func closest(to name: String, in known: some Sequence<String>) -> String? {
        let lower = name.lowercased()
        var best: (name: String, distance: Int)?
        for candidate in known where candidate != name {
            let allowed = min(lower.count, candidate.count) <= 4 ? 1 : 2
            let distance = editDistance(Array(lower), Array(candidate.lowercased()), limit: allowed)
            if distance <= allowed, best.map({ distance < $0.distance }) ?? true { best = (candidate, distance) }
        }
        return best?.name
    }

    /// The optimal string alignment distance (Levenshtein with adjacent swaps); `limit + 1` once
    /// it is known to be over `limit`.
    static func editDistance(_ a: [Character], _ b: [Character], limit: Int) -> Int {
        if abs(a.count - b.count) > limit { return limit + 1 }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previousRow = Array(0...b.count)
        var twoBack = previousRow
        for i in 1...a.count {
            var row = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                row[j] = min(previousRow[j] + 1, row[j - 1] + 1, previousRow[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    row[j] = min(row[j], twoBack[j - 2] + 1)
                }
            }
            if row.min() ?? 0 > limit { return limit + 1 }
            twoBack = previousRow
            previousRow = row
        }
        return previousRow[b.count]
    }
}
