import Foundation
import TagflowChipPlugin
import TagflowChips
import TagflowCore
import TagflowHTML

/// `tagflow chips --serve`: chip blocks on request, one JSON object a line, for the adapters of
/// other generators (Jekyll, Python-Markdown, MkDocs, Pelican), which keep one process for a
/// whole build instead of starting one per list.
///
/// Requests and answers, one line each:
/// - `{"chips": [{"label": "Swift", "url": "/tags/swift/", "count": 3, "weight": 1, "current": true}],
///   "label": "Tags", "weighted": false}` → `{"html": "<div class=\"tf-flow\">…"}`; only a chip's
///   `label` is needed; `weighted` sizes the chips by their counts, as a cloud.
/// - `{"css": true}` → `{"css": "…"}`, the one stylesheet every page with blocks links.
/// - anything else → `{"error": "…"}`, and the server goes on.
struct ChipServer {
    let setup: ChipSetup

    func serve() {
        while let line = readLine(strippingNewline: true) {
            guard !line.allSatisfy(\.isWhitespace) else { continue }
            let answer: [String: Any]
            do {
                answer = try respond(to: line)
            } catch let error as RequestError {
                answer = ["error": error.message]
            } catch {
                answer = ["error": "\(error)"]
            }
            let data = (try? JSONSerialization.data(withJSONObject: answer, options: [.sortedKeys])) ?? Data()
            FileHandle.standardOutput.write(data + Data("\n".utf8))
        }
    }

    struct RequestError: Error {
        var message: String
    }

    func respond(to line: String) throws -> [String: Any] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw RequestError(message: "a request must be one JSON object on one line")
        }
        if object["css"] as? Bool == true { return ["css": setup.stylesheet] }
        guard let items = object["chips"] as? [Any] else {
            throw RequestError(message: "a request needs \"chips\" (a list) or \"css\": true")
        }
        var chips: [Chip] = []
        for (index, item) in items.enumerated() {
            if let label = item as? String {
                chips.append(ChipsCommand.chip(label))
                continue
            }
            guard let fields = item as? [String: Any], let label = fields["label"] as? String, !label.isEmpty else {
                throw RequestError(message: "chips[\(index)] needs a \"label\"")
            }
            let url = fields["url"] as? String
            // The policy a chips block in Markdown follows; `"unsafe": true` on the request lifts it.
            if let url, object["unsafe"] as? Bool != true, !URLPolicy.isSafe(url) {
                throw RequestError(
                    message:
                        "chips[\(index)] links to '\(url)', which is not allowed (javascript:, vbscript:, file:, data:)"
                )
            }
            var chip = Chip(label: label, url: url)
            chip.count = (fields["count"] as? NSNumber)?.intValue
            chip.weight = max(0, (fields["weight"] as? NSNumber)?.intValue ?? 0)
            chip.isCurrent = fields["current"] as? Bool ?? false
            chips.append(chip)
        }
        guard !chips.isEmpty else { throw RequestError(message: "\"chips\" is empty") }
        if object["weighted"] as? Bool == true {
            let weights = Chip.weights(
                for: chips.map { $0.count ?? 1 }, steps: setup.renderer.style.weightScale.count)
            for index in chips.indices where chips[index].weight == 0 { chips[index].weight = weights[index] }
        }
        let label = (object["label"] as? String).flatMap { $0.isEmpty ? nil : $0 } ?? "Tags"
        return ["html": setup.renderer.html(for: chips, label: label)]
    }
}
