import Foundation
import TagflowChips
import TagflowHTML

/// A tag list found in a page: where it is, which rule found it, and its chips (or why it is
/// left as it was).
struct FoundList: Sendable {
    /// The bytes of the whole element, start tag to end tag.
    var range: Range<Int>
    /// The rule that matched, or `nil` for `data-tagflow`.
    var rule: ListRule?
    /// The list's accessible name (`aria-label`, or "Tags").
    var label: String
    /// The element's `id`, kept on the block so links to it still work.
    var id: String?
    /// The chips, in reading order; `nil` when the element is left alone.
    var chips: [Chip]?
    /// Why the element is left alone, when it should have been a list (a warning).
    var problem: String?
}

/// Finds tag lists in a page's tokens and reads their chips from the markup.
///
/// A walk keeps the open elements, closing them as HTML does for the cases tag lists meet (an
/// `<li>` ends the previous one, a block ends an open `<p>`, an end tag ends what is open inside
/// it), so that descendant selectors see the real ancestors and a list's end is found even when
/// its items are not closed.
enum TagListFinder {
    static let voidElements: Set<String> = [
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track",
        "wbr",
    ]
    /// Elements whose start closes an open `<p>`.
    static let blockElements: Set<String> = [
        "address", "article", "aside", "blockquote", "details", "div", "dl", "fieldset", "figcaption", "figure",
        "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hgroup", "hr", "main", "menu", "nav", "ol",
        "p", "pre", "section", "table", "ul",
    ]
    /// Elements `data-tagflow` may mark.
    static let markableElements: Set<String> = ["ul", "ol", "div", "p", "nav", "section", "aside", "footer", "span"]

    /// The lists of a page, in document order, and how many of Tagflow's own blocks it holds.
    static func lists(in bytes: [UInt8], tokens: [HTMLToken], rules: [ListRule], weightSteps: Int) -> (
        lists: [FoundList], ownBlocks: Int
    ) {
        struct Open {
            var info: ElementInfo
            var isList: Bool
            var isOwnBlock: Bool
        }
        var stack: [Open] = []
        var lists: [FoundList] = []
        var ownBlocks = 0
        // The list being read: its start token and rule.
        var current: (token: Int, depth: Int, rule: ListRule?)?
        var insideOwnBlock = 0

        func close(downTo depth: Int, endedAt offset: Int, endToken: Int?) {
            while stack.count > depth, let open = stack.popLast() {
                if open.isOwnBlock { insideOwnBlock -= 1 }
                if open.isList, let list = current, list.depth == stack.count {
                    let end = endToken.map { tokens[$0].range.upperBound } ?? offset
                    let contentEnd = endToken ?? tokens.firstIndex { $0.range.lowerBound >= offset } ?? tokens.count
                    lists.append(
                        read(
                            tokens[(list.token + 1)..<contentEnd], in: bytes, start: tokens[list.token],
                            range: tokens[list.token].range.lowerBound..<end, rule: list.rule, weightSteps: weightSteps)
                    )
                    current = nil
                }
            }
        }

        for (index, token) in tokens.enumerated() {
            switch token.kind {
            case .startTag:
                let name = token.name
                if name == "li",
                    let open = stack.lastIndex(where: { ["li", "ul", "ol", "menu"].contains($0.info.name) }),
                    stack[open].info.name == "li"
                {
                    close(downTo: open, endedAt: token.range.lowerBound, endToken: nil)
                }
                if blockElements.contains(name), let paragraph = stack.lastIndex(where: { $0.info.name == "p" }),
                    stack[paragraph...].dropFirst().allSatisfy({ !blockElements.contains($0.info.name) })
                {
                    close(downTo: paragraph, endedAt: token.range.lowerBound, endToken: nil)
                }
                let info = ElementInfo(token)
                let isOwnBlock = info.classes.contains("tf-flow")
                var isList = false
                if current == nil, insideOwnBlock == 0, !isOwnBlock, !voidElements.contains(name),
                    info.attribute("hidden") == nil
                {
                    if info.attribute("data-tagflow") != nil, markableElements.contains(name) {
                        current = (index, stack.count, nil)
                        isList = true
                    } else if let rule = rules.first(where: {
                        $0.selector.matches(info, ancestors: stack.lazy.map(\.info))
                    }) {
                        current = (index, stack.count, rule)
                        isList = true
                    }
                }
                if isOwnBlock { ownBlocks += 1 }
                if voidElements.contains(name) || (token.isSelfClosing && !isList) { continue }
                if isOwnBlock { insideOwnBlock += 1 }
                stack.append(Open(info: info, isList: isList, isOwnBlock: isOwnBlock))
            case .endTag:
                if let open = stack.lastIndex(where: { $0.info.name == token.name }) {
                    close(downTo: open + 1, endedAt: token.range.lowerBound, endToken: nil)
                    close(downTo: open, endedAt: token.range.upperBound, endToken: index)
                }
            default:
                continue
            }
        }
        if let list = current {
            let start = tokens[list.token]
            lists.append(
                FoundList(
                    range: start.range, rule: list.rule, label: "Tags", id: nil, chips: nil,
                    problem: "<\(start.name)> is not closed; left as it is"))
        }
        return (lists, ownBlocks)
    }

    // MARK: Reading a list

    /// A small tree of a list's content, enough to find its items.
    struct Node {
        var token: HTMLToken?
        var text = ""
        var children: [Node] = []
        var name: String { token?.name ?? "" }

        func attribute(_ name: String) -> String? { token?.attribute(name) }

        var classes: [Substring] { attribute("class")?.split(whereSeparator: { $0.isWhitespace }) ?? [] }

        /// Every element below, depth first, in document order.
        func descendants(where include: (Node) -> Bool, stopAt stop: (Node) -> Bool = { _ in false }) -> [Node] {
            var found: [Node] = []
            for child in children where child.token != nil {
                if include(child) {
                    found.append(child)
                    if stop(child) { continue }
                }
                found += child.descendants(where: include, stopAt: stop)
            }
            return found
        }
    }

    static func tree(of tokens: ArraySlice<HTMLToken>, in bytes: [UInt8]) -> Node {
        var stack = [Node()]
        func closeTop() {
            let node = stack.removeLast()
            stack[stack.count - 1].children.append(node)
        }
        for token in tokens {
            switch token.kind {
            case .text:
                stack[stack.count - 1].children.append(
                    Node(text: CharacterReferences.decoded(bytes[token.range])))
            case .startTag:
                if token.name == "li", let open = stack.lastIndex(where: { ["li", "ul", "ol"].contains($0.name) }),
                    stack[open].name == "li", open > 0
                {
                    while stack.count > open { closeTop() }
                }
                if voidElements.contains(token.name) || token.isSelfClosing {
                    stack[stack.count - 1].children.append(Node(token: token))
                } else {
                    stack.append(Node(token: token))
                }
            case .endTag:
                if let open = stack.lastIndex(where: { $0.name == token.name }), open > 0 {
                    while stack.count > open { closeTop() }
                }
            default:
                continue
            }
        }
        while stack.count > 1 { closeTop() }
        return stack[0]
    }

    /// Elements that hold a count rather than a label.
    static func isCount(_ node: Node) -> Bool {
        node.name == "sup" || node.attribute("data-count") != nil && node.name != "a" && node.name != "li"
            || node.classes.contains { ["count", "tag-count", "taxonomy__count", "tf-n", "badge"].contains($0) }
    }

    /// A list's chips from its markup: its `<li>` items, or else its links, or else its spans.
    static func read(
        _ content: ArraySlice<HTMLToken>, in bytes: [UInt8], start: HTMLToken, range: Range<Int>, rule: ListRule?,
        weightSteps: Int
    ) -> FoundList {
        var list = FoundList(
            range: range, rule: rule, label: start.attribute("aria-label").map(collapsed) ?? "Tags",
            id: start.attribute("id"), chips: nil, problem: nil)
        if list.label.isEmpty { list.label = "Tags" }
        let root = tree(of: content, in: bytes)
        if !root.descendants(where: { ["ul", "ol"].contains($0.name) }).isEmpty {
            list.problem = "<\(start.name)> holds a nested list; left as it is"
            return list
        }
        let items = root.descendants(where: { $0.name == "li" }, stopAt: { _ in true })
        var chips: [Chip] = []
        if !items.isEmpty {
            for item in items {
                let link = item.descendants(where: { $0.name == "a" }, stopAt: { _ in true }).first
                guard let chip = chip(item: item, link: link, rule: rule) else {
                    if rule?.itemFilter != nil { return list }
                    continue
                }
                chips.append(chip)
            }
        } else {
            var elements = root.descendants(where: { $0.name == "a" }, stopAt: { _ in true })
            if elements.isEmpty {
                elements = root.descendants(where: { $0.name == "span" && !isCount($0) }, stopAt: { _ in true })
            }
            for element in elements {
                guard let chip = chip(item: element, link: element.name == "a" ? element : nil, rule: rule) else {
                    if rule?.itemFilter != nil { return list }
                    continue
                }
                chips.append(chip)
            }
        }
        // A preset's list whose items are not tag links is some other list: no warning.
        if rule?.itemFilter != nil, chips.isEmpty { return list }
        guard !chips.isEmpty else {
            list.problem = "<\(start.name)> has no items (links, spans or list items with text); left as it is"
            return list
        }
        if rule?.isWeighted == true || start.attribute("data-tagflow") == "cloud" {
            let weights = Chip.weights(for: chips.map { $0.count ?? 1 }, steps: weightSteps)
            for index in chips.indices where chips[index].weight == 0 { chips[index].weight = weights[index] }
        }
        list.chips = chips
        return list
    }

    /// One chip from an item (an `<li>`, a link or a span) and its link, if it has one; `nil`
    /// when it has no text, or the rule's item filter refuses it.
    static func chip(item: Node, link: Node?, rule: ListRule?) -> Chip? {
        let labelled = link ?? item
        if let filter = rule?.itemFilter,
            !filter.matches(ElementInfo(labelled.token ?? HTMLToken(kind: .text, range: 0..<0)), ancestors: [])
        {
            return nil
        }
        if rule?.requiresSiteLinks == true {
            guard let href = link?.attribute("href"), !href.hasPrefix("//"), !href.contains("://") else { return nil }
        }
        let label = collapsed(text(of: labelled, skippingCounts: true))
        guard !label.isEmpty else { return nil }
        var chip = Chip(label: label, url: link?.attribute("href"))
        chip.count = count(of: item, link: link)
        if let weight = (link?.attribute("data-weight") ?? item.attribute("data-weight")).flatMap({ Int($0) }) {
            chip.weight = max(0, weight)
        }
        if let link {
            chip.isCurrent = link.attribute("aria-current") != nil
            chip.linkAttributes = (link.token?.attributes ?? []).compactMap { attribute in
                let kept =
                    ["rel", "title", "class", "target", "hreflang", "lang", "dir"].contains(attribute.name)
                    || attribute.name.hasPrefix("data-") && attribute.name != "data-count"
                        && attribute.name != "data-weight"
                return kept ? Chip.Attribute(attribute.name, attribute.value) : nil
            }
        }
        return chip
    }

    /// The count shown with an item: `data-count`, a `<sup>` or `.count` element, or a number
    /// (in brackets or not) written after the link.
    static func count(of item: Node, link: Node?) -> Int? {
        for node in [link, item].compactMap({ $0 }) {
            if let value = node.attribute("data-count").flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) {
                return value
            }
        }
        if let counter = item.descendants(where: isCount).first {
            let digits = text(of: counter, skippingCounts: false).filter(\.isNumber)
            if let value = Int(digits) { return value }
        }
        if link != nil {
            // The text after the link in its item: " (3)" or "3".
            var after = ""
            var seenLink = false
            for child in item.children {
                if child.name == "a" {
                    seenLink = true
                } else if seenLink {
                    after += text(of: child, skippingCounts: false)
                }
            }
            let trimmed = after.trimmingCharacters(in: .whitespaces)
            let inner =
                trimmed.hasPrefix("(") && trimmed.hasSuffix(")") ? String(trimmed.dropFirst().dropLast()) : trimmed
            if !inner.isEmpty, inner.allSatisfy(\.isNumber) { return Int(inner) }
        }
        return nil
    }

    static func text(of node: Node, skippingCounts: Bool) -> String {
        if node.token == nil && node.children.isEmpty { return node.text }
        var result = node.token == nil ? node.text : ""
        for child in node.children {
            if child.token != nil, skippingCounts, isCount(child) { continue }
            result += text(of: child, skippingCounts: skippingCounts)
        }
        return result
    }

    /// Text with runs of white space made one space, trimmed.
    static func collapsed(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}
