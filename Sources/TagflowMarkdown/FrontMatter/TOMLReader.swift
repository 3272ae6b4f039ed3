/// Reading TOML front matter (`+++`, as Hugo writes it) into the same ``YAMLMapping`` values
/// that YAML front matter gives, so everything after the split reads one shape.
///
/// TOML's dates and times become text in RFC 3339 form (`2024-03-05T09:30:00+01:00`), which
/// the front matter reader parses as it does a YAML date.
public enum TOMLReader {
    /// Parses TOML front matter.
    ///
    /// - Parameters:
    ///   - toml: The TOML text.
    ///   - firstLine: The file line on which `toml` starts, added to every reported line.
    /// - Returns: The keys in file order, each at the line and column of its key (a table made by
    ///   a `[header]` at its header).
    /// - Throws: ``FrontMatterError`` with the file line and column of the problem.
    public static func mapping(from toml: String, firstLine: Int = 1) throws(FrontMatterError) -> YAMLMapping {
        var parser = TOMLParser(toml)
        do {
            return mapping(of: try parser.parse(), lineOffset: firstLine - 1)
        } catch {
            throw FrontMatterError(
                line: error.line + firstLine - 1, column: error.column, reason: .invalidTOML(error.message))
        }
    }

    private static func mapping(of table: TOMLParser.Table, lineOffset: Int) -> YAMLMapping {
        YAMLMapping(
            entries: table.entries.map { entry in
                .init(
                    key: entry.key, value: value(of: entry.node, lineOffset: lineOffset),
                    line: entry.line + lineOffset, column: entry.column)
            })
    }

    private static func value(of node: TOMLParser.Node, lineOffset: Int) -> YAMLValue {
        switch node {
        case .value(let value): value
        case .table(let table): .map(mapping(of: table, lineOffset: lineOffset))
        case .tableArray(let tables): .list(tables.map { .map(mapping(of: $0, lineOffset: lineOffset)) })
        case .array(let items): .list(items.map { value(of: $0, lineOffset: lineOffset) })
        }
    }
}

extension FrontMatterSplit {
    /// The front matter's keys and values, read as YAML or TOML by its fences; an empty mapping
    /// when the file has none.
    ///
    /// - Throws: ``FrontMatterError`` with the file line and column of the problem.
    public func mapping() throws(FrontMatterError) -> YAMLMapping {
        guard let frontMatter else { return YAMLMapping() }
        switch format {
        case .yaml: return try YAMLReader.mapping(from: frontMatter, firstLine: frontMatterFirstLine)
        case .toml: return try TOMLReader.mapping(from: frontMatter, firstLine: frontMatterFirstLine)
        }
    }
}
