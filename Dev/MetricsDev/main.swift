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
if command == "bench" {
    let data = try Data(contentsOf: URL(fileURLWithPath: args[0]))
    var strings = try JSONDecoder().decode([String].self, from: data)
    if args.count > 1 && args[1] == "ascii" { strings = strings.filter { $0.utf8.allSatisfy { $0 < 0x80 } } }
    let stack = FontStack.default
    let chars = strings.reduce(0) { $0 + $1.count }
    var total = 0
    let t0 = Date()
    var rounds = 0
    while Date().timeIntervalSince(t0) < 2 {
        for s in strings { total &+= stack.measure(s, size: 13).width }
        rounds += 1
    }
    let dt = Date().timeIntervalSince(t0)
    print("\(strings.count) labels, \(Double(chars * rounds) / dt / 1e6) M chars/s, \(Double(strings.count * rounds) / dt / 1e6) M labels/s (\(total))")
    let t1 = Date()
    for _ in 0..<100 { _ = try MetricsTable(contentsOf: MetricsTable.liberationSans.encoded()) }
    print("table load: \(Date().timeIntervalSince(t1) / 100 * 1000) ms")
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
