internal import Foundation
import TagflowConcurrency

/// Each post's related posts: the posts that share its tags, rarer tags counting more.
///
/// A shared tag adds its inverse document frequency, `ln(N / n)` for a tag of `n` of the `N`
/// posts, so two posts that share a tag of three posts are closer than two that share one of
/// three thousand. Ties go to the post nearer in date, then to the newer one, so the lists are
/// the same in every build.
///
/// Work per post is bounded, so 10 000 posts are not 10 000²: a tag of at most
/// ``wholeTagLimit`` posts is walked whole; of a more common tag (which counts little), only the
/// ``nearestCount`` posts nearest in date are candidates, beside those found through the post's
/// rarer tags, whose scores take in every tag they share.
enum RelatedPosts {
    /// The most posts a tag may have to be walked whole.
    static let wholeTagLimit = 400
    /// How many posts of a more common tag are candidates: those nearest in date.
    static let nearestCount = 100

    /// The related posts of every post, as indices into the site's posts, best first.
    ///
    /// - Parameters:
    ///   - postTags: Each post's tags, as indices into `tagPosts`.
    ///   - tagPosts: Each tag's posts, as indices into `postTags`, in ascending order.
    ///   - limit: The most related posts of one post (0: none).
    /// - Returns: Each post's related posts.
    static func all(postTags: [[Int]], tagPosts: [[Int]], limit: Int) async -> [[Int]] {
        await lists(of: Array(postTags.indices), postTags: postTags, tagPosts: tagPosts, limit: limit)
    }

    /// The related posts of every post after some posts listed other tags, from the lists before.
    ///
    /// A post's list is made from its own tags alone: their posts, and their weights, which
    /// depend on their posts' count. So only the posts that list a tag whose posts changed get
    /// another list; the others keep theirs (the posts keep their places).
    ///
    /// - Parameters:
    ///   - previous: Each post's related posts before the edit.
    ///   - retagged: The posts that list other tags.
    ///   - changedTags: The tags whose posts changed, as indices into `tagPosts`.
    ///   - postTags: Each post's tags now.
    ///   - tagPosts: Each tag's posts now.
    ///   - limit: The most related posts of one post.
    /// - Returns: Each post's related posts now.
    static func updated(
        _ previous: [[Int]], retagged: Set<Int>, changedTags: Set<Int>, postTags: [[Int]], tagPosts: [[Int]],
        limit: Int
    ) async -> [[Int]] {
        precondition(previous.count == postTags.count, "the posts keep their places")
        let reached = postTags.indices.filter {
            retagged.contains($0) || postTags[$0].contains(where: changedTags.contains)
        }
        var updated = previous
        let lists = await lists(of: reached, postTags: postTags, tagPosts: tagPosts, limit: limit)
        for (post, list) in zip(reached, lists) { updated[post] = list }
        return updated
    }

    /// The related posts of `posts`, in their order.
    private static func lists(of posts: [Int], postTags: [[Int]], tagPosts: [[Int]], limit: Int) async -> [[Int]] {
        guard limit > 0, !tagPosts.isEmpty else { return posts.map { _ in [] } }
        let count = Double(postTags.count)
        let weights = tagPosts.map { log(count / Double(max(1, $0.count))) }
        // In chunks, each with one table of scores for all of its posts: a dictionary per post
        // was most of the time.
        let chunkSize = 256
        let chunks = stride(from: 0, to: posts.count, by: chunkSize).map {
            posts[$0..<min($0 + chunkSize, posts.count)]
        }
        let lists = await ParallelMap.map(chunks) { chunk in
            var scores = Scores(count: postTags.count)
            return chunk.map { post in
                related(of: post, postTags: postTags, tagPosts: tagPosts, weights: weights, limit: limit, &scores)
            }
        }
        return lists.flatMap { $0 }
    }

    /// Scores of candidate posts, reset after each post by the candidates it touched.
    struct Scores {
        var values: [Double]
        var touched: [Int] = []
        /// The round in which each post was last taken as a candidate (a set without hashing).
        private var rounds: [UInt32]
        private var round: UInt32 = 0

        init(count: Int) {
            values = Array(repeating: 0, count: count)
            rounds = Array(repeating: 0, count: count)
        }

        /// Starts a new set of candidates.
        mutating func newRound() {
            round &+= 1
            if round == 0 {
                rounds = Array(repeating: 0, count: rounds.count)
                round = 1
            }
        }

        /// Takes `post` into this round's candidates; `false` when it already is one.
        mutating func take(_ post: Int) -> Bool {
            guard rounds[post] != round else { return false }
            rounds[post] = round
            return true
        }

        mutating func add(_ weight: Double, to post: Int) {
            if values[post] == 0 { touched.append(post) }
            values[post] += weight
        }

        mutating func reset() {
            for post in touched { values[post] = 0 }
            touched.removeAll(keepingCapacity: true)
        }
    }

    static func related(
        of post: Int, postTags: [[Int]], tagPosts: [[Int]], weights: [Double], limit: Int, _ scores: inout Scores
    ) -> [Int] {
        let tags = postTags[post]
        guard !tags.isEmpty else { return [] }
        defer { scores.reset() }
        var common: [Int] = []
        for tag in tags where weights[tag] > 0 {
            let posts = tagPosts[tag]
            if posts.count <= wholeTagLimit {
                for other in posts where other != post { scores.add(weights[tag], to: other) }
            } else {
                common.append(tag)
            }
        }
        if !common.isEmpty {
            // Candidates found through rarer tags, and the posts nearest in date of each common
            // tag, get the weight of every common tag they share.
            scores.newRound()
            var candidates = scores.touched
            for candidate in candidates { _ = scores.take(candidate) }
            for tag in common {
                let posts = tagPosts[tag]
                let position = posts.partitionPoint { $0 >= post }
                let high = min(posts.count, max(0, position - nearestCount / 2) + nearestCount)
                for other in posts[max(0, high - nearestCount)..<high] where other != post && scores.take(other) {
                    candidates.append(other)
                }
            }
            for candidate in candidates {
                for tag in common where postTags[candidate].contains(tag) {
                    scores.add(weights[tag], to: candidate)
                }
            }
        }
        // Best first; ties to the post nearer in date, then to the newer (the lower index).
        // Scores of the same set of shared tags are sums in the same order, so they tie exactly.
        func isBetter(_ a: Int, _ b: Int) -> Bool {
            if scores.values[a] != scores.values[b] { return scores.values[a] > scores.values[b] }
            let (nearA, nearB) = (abs(a - post), abs(b - post))
            return nearA != nearB ? nearA < nearB : a < b
        }
        // The best `limit`, kept sorted: a post has hundreds of candidates and shows five.
        var best: [Int] = []
        best.reserveCapacity(limit + 1)
        for candidate in scores.touched where best.count < limit || isBetter(candidate, best[best.count - 1]) {
            let place = best.firstIndex { isBetter(candidate, $0) } ?? best.count
            best.insert(candidate, at: place)
            if best.count > limit { best.removeLast() }
        }
        return best
    }
}

extension RandomAccessCollection where Index == Int {
    /// The first index whose element satisfies `belongs`, for a collection in which every element
    /// that does comes after every element that does not.
    fileprivate func partitionPoint(where belongs: (Element) -> Bool) -> Int {
        var low = startIndex
        var high = endIndex
        while low < high {
            let middle = low + (high - low) / 2
            if belongs(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
