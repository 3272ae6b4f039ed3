import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A response read by ``RawHTTP``.
public struct RawHTTPResponse: Sendable {
    /// The status code.
    public var status: Int
    /// Header fields, names in lower case.
    public var headers: [String: String]
    /// The body as text.
    public var body: String
}

/// A deliberately plain HTTP/1.1 client over a loopback socket, for tests.
///
/// It sends the request target exactly as given (`/../etc/passwd`, `/a\b`), which URL-based clients normalise
/// before sending, so traversal attempts really reach the server.
///
/// ```swift
/// let response = try RawHTTP.request(port: 8000, path: "/%2e%2e/secret")
/// response.status   // 400
/// ```
public enum RawHTTP {
    /// A connection failed or timed out.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        public var description: String
    }

    /// Sends one request with `Connection: close` and reads the whole response.
    ///
    /// - Parameters:
    ///   - method: `GET`, `HEAD`…
    ///   - port: The loopback port.
    ///   - path: The request target, sent as is.
    ///   - headers: Extra header fields.
    ///   - timeout: Seconds to wait for each read.
    /// - Returns: The response.
    /// - Throws: ``Failure`` when the connection fails or the response is malformed.
    public static func request(
        _ method: String = "GET", port: Int, path: String, headers: [String: String] = [:], timeout: Double = 10
    ) throws -> RawHTTPResponse {
        let connection = try RawConnection(port: port, timeout: timeout)
        defer { connection.close() }
        var text = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { text += "\(name): \(value)\r\n" }
        try connection.send(text + "\r\n")
        let data = try connection.readToEnd()
        return try parse(data, method: method)
    }

    static func parse(_ data: [UInt8], method: String) throws -> RawHTTPResponse {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let split = firstRange(of: separator, in: data) else { throw Failure(description: "no header end") }
        let head = String(decoding: data[..<split], as: UTF8.self)
        var bodyBytes = Array(data[(split + 4)...])
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw Failure(description: "bad status line in \(head)")
        }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
                .trimmingCharacters(in: .whitespaces)
        }
        if headers["transfer-encoding"]?.lowercased() == "chunked" { bodyBytes = dechunk(bodyBytes) }
        return RawHTTPResponse(status: status, headers: headers, body: String(decoding: bodyBytes, as: UTF8.self))
    }

    static func dechunk(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        var index = 0
        while index < bytes.count {
            guard let lineEnd = firstRange(of: [13, 10], in: bytes, from: index) else { break }
            let sizeText = String(decoding: bytes[index..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16), size > 0 else { break }
            let start = lineEnd + 2
            let end = min(start + size, bytes.count)
            result += bytes[start..<end]
            index = end + 2
        }
        return result
    }

    static func firstRange(of needle: [UInt8], in haystack: [UInt8], from start: Int = 0) -> Int? {
        guard haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        for index in start...(haystack.count - needle.count)
        where haystack[index..<(index + needle.count)].elementsEqual(needle) {
            return index
        }
        return nil
    }
}

/// One TCP connection to 127.0.0.1, with read and write timeouts.
public final class RawConnection {
    private let socketDescriptor: Int32

    /// Connects to `127.0.0.1:port`.
    public init(port: Int, timeout: Double = 10) throws {
        #if canImport(Darwin)
            let kind = SOCK_STREAM
        #else
            let kind = Int32(SOCK_STREAM.rawValue)
        #endif
        socketDescriptor = socket(AF_INET, kind, 0)
        guard socketDescriptor >= 0 else { throw RawHTTP.Failure(description: "socket() failed") }
        var time = timeval()
        time.tv_sec = .init(timeout)
        time.tv_usec = .init((timeout - timeout.rounded(.down)) * 1_000_000)
        _ = setsockopt(socketDescriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(socketDescriptor, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            closeSocket(socketDescriptor)
            throw RawHTTP.Failure(description: "cannot connect to 127.0.0.1:\(port) (errno \(errno))")
        }
    }

    /// Sends text.
    public func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { write(socketDescriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { throw RawHTTP.Failure(description: "write failed (errno \(errno))") }
            sent += count
        }
    }

    /// Reads whatever arrives next (at most 64 KiB); empty at the end of the stream.
    public func readSome() throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = buffer.withUnsafeMutableBytes { read(socketDescriptor, $0.baseAddress, $0.count) }
        guard count >= 0 else { throw RawHTTP.Failure(description: "read failed or timed out (errno \(errno))") }
        return Array(buffer[..<count])
    }

    /// Reads until the other side closes.
    public func readToEnd() throws -> [UInt8] {
        var data: [UInt8] = []
        while true {
            let chunk = try readSome()
            if chunk.isEmpty { return data }
            data += chunk
        }
    }

    /// Closes the connection.
    public func close() {
        closeSocket(socketDescriptor)
    }
}

private func closeSocket(_ descriptor: Int32) {
    #if canImport(Darwin)
        _ = Darwin.close(descriptor)
    #elseif canImport(Musl)
        _ = Musl.close(descriptor)
    #else
        _ = Glibc.close(descriptor)
    #endif
}
