// Temporary development driver (replaced by `tagflow measure` / `tagflow metrics` after the merge).
import Foundation
import TagflowMetrics

func load(_ path: String) throws -> MetricsTable {
    var index = 0
    var file = path
    if let hash = path.lastIndex(of: "#"), let n = Int(path[path.index(after: hash)...]) {
        index = n
        file = String(path[..<hash])
    }
    let data = try Data(contentsOf: URL(fileURLWithPath: file))
    return try MetricsTable(tableOrFont: [UInt8](data), faceIndex: index)
}

var args = Array(CommandLine.arguments.dropFirst())
let command = args.removeFirst()
if command == "metrics" {
    let table = try load(args[0])
    let bytes = table.encoded()
    try Data(bytes).write(to: URL(fileURLWithPath: args[1]))
    print("wrote \(bytes.count) bytes")
    exit(0)
}
var fonts: [MetricsTable] = []
var size = 16.0
var spacing = 0.0
var i = 0
while i < args.count {
    switch args[i] {
    case "--font", "--fallback": fonts.append(try load(args[i + 1]))
    case "--size": size = Double(args[i + 1]) ?? 16
    case "--letter-spacing": spacing = Double(args[i + 1]) ?? 0
    default: break
    }
    i += 2
}
let input = FileHandle.standardInput.readDataToEndOfFile()
let strings = try JSONDecoder().decode([String].self, from: input)
let stack = FontStack(fonts)
let start = Date()
var out: [[String: Any]] = []
for s in strings {
    let m = stack.measure(s, size: size, letterSpacing: spacing)
    out.append(["text": s, "width": m.widthInPixels, "height": m.heightInPixels])
}
FileHandle.standardError.write("measured in \(Date().timeIntervalSince(start))s\n".data(using: .utf8)!)
let data = try JSONSerialization.data(withJSONObject: out)
FileHandle.standardOutput.write(data)
