import Foundation
import TagflowLayout

/// One input case of `tagflow layout`: a container and the boxes to flow in it, in CSS px.
///
/// ```json
/// {"container_width": 300, "column_gap": 8, "row_gap": 8, "justify": "start", "align": "baseline",
///  "direction": "ltr", "line_limit": 2, "items": [{"width": 56.25, "height": 28, "baseline": 19.5}]}
/// ```
///
/// Every key but `items` is optional: no `container_width` (or `null`) means no width is
/// proposed (one row); gaps default to 0, `justify` and `align` to `start`, `direction` to
/// `ltr`, `line_limit` to none. Lengths are truncated to 1/64 px as CSS lengths are.
struct LayoutCase: Decodable, Sendable {
    /// One box: its border-box size and, optionally, its first baseline from the top.
    struct Item: Decodable, Sendable {
        var width: Double
        var height: Double
        var baseline: Double?
    }

    var containerWidth: Double?
    var columnGap: Double
    var rowGap: Double
    var justify: String
    var align: String
    var direction: String
    var lineLimit: Int?
    var items: [Item]

    enum CodingKeys: String, CodingKey, CaseIterable {
        case containerWidth = "container_width"
        case columnGap = "column_gap"
        case rowGap = "row_gap"
        case justify, align, direction
        case lineLimit = "line_limit"
        case items
    }

    init(from decoder: any Decoder) throws {
        try Self.rejectUnknownKeys(in: decoder, known: CodingKeys.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: CodingKeys.self)
        containerWidth = try container.decodeIfPresent(Double.self, forKey: .containerWidth)
        columnGap = try container.decodeIfPresent(Double.self, forKey: .columnGap) ?? 0
        rowGap = try container.decodeIfPresent(Double.self, forKey: .rowGap) ?? 0
        justify = try container.decodeIfPresent(String.self, forKey: .justify) ?? "start"
        align = try container.decodeIfPresent(String.self, forKey: .align) ?? "start"
        direction = try container.decodeIfPresent(String.self, forKey: .direction) ?? "ltr"
        lineLimit = try container.decodeIfPresent(Int.self, forKey: .lineLimit)
        items = try container.decode([Item].self, forKey: .items)
    }

    /// A key the decoder found, whatever it is.
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Fails on a misspelt key (`justify_content`), which would otherwise be ignored silently.
    private static func rejectUnknownKeys(in decoder: any Decoder, known: [String]) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        for key in container.allKeys where !known.contains(key.stringValue) {
            throw DecodingError.dataCorruptedError(
                forKey: key,
                in: container,
                debugDescription: "unknown key '\(key.stringValue)' (known: \(known.joined(separator: ", ")))"
            )
        }
    }
}

/// A checked ``LayoutCase``, ready for the engine.
struct ValidatedLayoutCase: Sendable {
    var flow: FlowLayout
    var width: LayoutUnit?
    var items: [FlowItem]
}

/// A bad value in a `tagflow layout` input: where it is and what is wrong.
struct LayoutInputError: Error, CustomStringConvertible {
    /// The file, or `<stdin>`.
    var source: String
    /// Where in the JSON, as `cases[2].items[0].width`; empty for the whole document.
    var path: String
    /// What is wrong.
    var message: String

    var description: String {
        path.isEmpty ? "\(source): error: \(message)" : "\(source): error: \(path): \(message)"
    }
}

extension LayoutCase {
    static let justifications: [(String, FlowLayout.Justification)] = [
        ("start", .start), ("center", .center), ("end", .end),
        ("space-between", .spaceBetween), ("space-around", .spaceAround), ("space-evenly", .spaceEvenly),
    ]
    static let alignments: [(String, FlowLayout.Alignment)] = [
        ("start", .start), ("center", .center), ("end", .end), ("baseline", .firstBaseline), ("stretch", .stretch),
    ]
    static let directions: [(String, LayoutDirection)] = [("ltr", .leftToRight), ("rtl", .rightToLeft)]

    /// Checks every value and converts lengths to ``LayoutUnit``s.
    ///
    /// - Parameters:
    ///   - source: The file name, for messages.
    ///   - path: Where this case is in the document (`cases[3]`), for messages.
    /// - Returns: The engine's inputs.
    /// - Throws: ``LayoutInputError`` for the first bad value.
    func validated(source: String, path: String) throws -> ValidatedLayoutCase {
        func fail(_ key: String, _ message: String) -> LayoutInputError {
            LayoutInputError(source: source, path: path.isEmpty ? key : "\(path).\(key)", message: message)
        }
        func length(_ value: Double, _ key: String) throws -> LayoutUnit {
            guard value.isFinite, value >= 0 else {
                throw fail(key, "must be a finite number of px, 0 or more (got \(value))")
            }
            return LayoutUnit(cssPixels: value)
        }
        func pick<T>(_ value: String, _ key: String, from table: [(String, T)]) throws -> T {
            guard let match = table.first(where: { $0.0 == value }) else {
                let names = table.map { "'\($0.0)'" }.joined(separator: ", ")
                throw fail(key, "unknown value '\(value)' (expected one of \(names))")
            }
            return match.1
        }
        if let lineLimit, lineLimit < 0 {
            throw fail("line_limit", "must be 0 or more (got \(lineLimit))")
        }
        let flow = FlowLayout(
            horizontalSpacing: try length(columnGap, "column_gap"),
            verticalSpacing: try length(rowGap, "row_gap"),
            justification: try pick(justify, "justify", from: Self.justifications),
            alignment: try pick(align, "align", from: Self.alignments),
            direction: try pick(direction, "direction", from: Self.directions),
            lineLimit: lineLimit
        )
        let width = try containerWidth.map { try length($0, "container_width") }
        var items: [FlowItem] = []
        items.reserveCapacity(self.items.count)
        for (index, item) in self.items.enumerated() {
            let size = LayoutSize(
                width: try length(item.width, "items[\(index)].width"),
                height: try length(item.height, "items[\(index)].height")
            )
            var baseline: LayoutUnit?
            if let value = item.baseline {
                baseline = try length(value, "items[\(index)].baseline")
                guard value <= item.height else {
                    throw fail(
                        "items[\(index)].baseline", "must not be below the item's bottom (\(value) > \(item.height))")
                }
            }
            items.append(FlowItem(size: size, firstBaseline: baseline))
        }
        return ValidatedLayoutCase(flow: flow, width: width, items: items)
    }
}

/// One output case of `tagflow layout`: the container size and each placed box.
///
/// Values are in CSS px, relative to the container's top-left corner, exact multiples of 1/64.
struct LayoutCaseOutput: Encodable, Sendable {
    struct Frame: Encodable, Sendable {
        var x: Double
        var y: Double
        var width: Double
        var height: Double
    }

    var width: Double
    var height: Double
    /// The number of rows.
    var rows: Int
    /// The number of items past `line_limit`, which have no frame.
    var hidden: Int
    var items: [Frame]

    init(_ result: FlowLayoutResult) {
        width = result.size.width.pixels
        height = result.size.height.pixels
        rows = result.rowCount
        hidden = result.hiddenCount
        items = result.frames.map {
            Frame(x: $0.minX.pixels, y: $0.minY.pixels, width: $0.width.pixels, height: $0.height.pixels)
        }
    }
}

/// The whole of `tagflow layout` but the reading and writing: JSON in, JSON out.
enum LayoutJSON {
    /// Lays out one case (`{...}`) or a list (`{"cases": [...]}`) and encodes the answer in the
    /// same shape.
    ///
    /// - Parameters:
    ///   - data: The input JSON.
    ///   - source: The file name, for messages.
    ///   - pretty: Whether to indent the output.
    /// - Returns: The output JSON, without a trailing newline.
    /// - Throws: ``LayoutInputError`` for bad JSON or a bad value.
    static func run(_ data: Data, source: String, pretty: Bool = false) throws -> Data {
        let decoder = JSONDecoder()
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        let isBatch: Bool
        do {
            isBatch = try decoder.decode(Shape.self, from: data).isBatch
        } catch {
            throw inputError(error, source: source)
        }
        if isBatch {
            let batch: Batch
            do {
                batch = try decoder.decode(Batch.self, from: data)
            } catch {
                throw inputError(error, source: source)
            }
            let outputs = try batch.cases.enumerated().map { index, layoutCase in
                try output(layoutCase, source: source, path: "cases[\(index)]")
            }
            return try encoder.encode(["cases": outputs])
        }
        let single: LayoutCase
        do {
            single = try decoder.decode(LayoutCase.self, from: data)
        } catch {
            throw inputError(error, source: source)
        }
        return try encoder.encode(try output(single, source: source, path: ""))
    }

    private static func output(_ layoutCase: LayoutCase, source: String, path: String) throws -> LayoutCaseOutput {
        let checked = try layoutCase.validated(source: source, path: path)
        return LayoutCaseOutput(checked.flow.layout(checked.items, in: checked.width))
    }

    /// Tells a batch from a single case: an object with a `cases` key.
    private struct Shape: Decodable {
        var isBatch: Bool

        private struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            isBatch = container.contains(Key(stringValue: "cases"))
        }
    }

    private struct Batch: Decodable {
        var cases: [LayoutCase]
    }

    /// A decoding failure as a message that names the place.
    private static func inputError(_ error: any Error, source: String) -> LayoutInputError {
        guard let error = error as? DecodingError else {
            return LayoutInputError(source: source, path: "", message: "\(error)")
        }
        func describe(_ codingPath: [any CodingKey]) -> String {
            var path = ""
            for key in codingPath {
                if let index = key.intValue {
                    path += "[\(index)]"
                } else {
                    path += path.isEmpty ? key.stringValue : ".\(key.stringValue)"
                }
            }
            return path
        }
        switch error {
        case .typeMismatch(let type, let context):
            return LayoutInputError(
                source: source,
                path: describe(context.codingPath),
                message: "expected \(Self.name(of: type))"
            )
        case .valueNotFound(let type, let context):
            return LayoutInputError(
                source: source,
                path: describe(context.codingPath),
                message: "expected \(Self.name(of: type)), found null"
            )
        case .keyNotFound(let key, let context):
            return LayoutInputError(
                source: source,
                path: describe(context.codingPath),
                message: "missing key '\(key.stringValue)'"
            )
        case .dataCorrupted(let context):
            var message = context.debugDescription
            if let underlying = context.underlyingError {
                message += " (\(underlying))"
            }
            return LayoutInputError(source: source, path: describe(context.codingPath), message: message)
        @unknown default:
            return LayoutInputError(source: source, path: "", message: "\(error)")
        }
    }

    private static func name(of type: Any.Type) -> String {
        switch type {
        case is Double.Type, is Int.Type: "a number"
        case is String.Type: "a string"
        case is [LayoutCase.Item].Type, is [LayoutCase].Type: "an array"
        default: "\(type)".hasPrefix("Dictionary") ? "an object" : "\(type)"
        }
    }
}
