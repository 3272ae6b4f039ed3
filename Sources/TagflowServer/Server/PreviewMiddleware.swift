import Foundation
import HTTPTypes
package import Hummingbird
import NIOCore

/// The preview server's outer middleware: refuses paths that try to leave the output folder, adds the live-reload
/// script and any build errors to HTML pages, answers misses with the site's `404.html`, and turns off caching
/// without revalidation.
///
/// It wraps Hummingbird's `FileMiddleware` (over ``SafeFileSystem``), which serves the files, their content types,
/// `HEAD`, ranges and `ETag`/`If-None-Match`. Pages are rewritten as they are served, so a page's `ETag` is the hash
/// of what is sent, and `If-None-Match` is answered here for them.
package struct PreviewMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The server state: build ID and errors.
    package let state: PreviewState
    /// The output folder, for `404.html`.
    package let files: SafeFileSystem
    /// The address the server listens on (`--host`), which requests may name besides the
    /// loopback names.
    package let listeningHost: String

    /// Creates the middleware.
    package init(state: PreviewState, files: SafeFileSystem, listeningHost: String = "127.0.0.1") {
        self.state = state
        self.files = files
        self.listeningHost = listeningHost
    }

    /// Handles a request.
    package func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        // A page on another origin can reach a local server through a name it makes resolve to
        // 127.0.0.1 (DNS rebinding); the browser then sends that name as Host.
        if let host = Self.host(of: request), !Self.isAllowed(host: host, listeningOn: listeningHost) {
            return Self.text(
                .forbidden, "Forbidden: this preview answers requests for localhost or \(listeningHost) only.\n")
        }
        guard request.method == .get || request.method == .head else {
            var response = Self.text(.methodNotAllowed, "Method not allowed: the preview serves GET and HEAD.\n")
            response.headers[.allow] = "GET, HEAD"
            return response
        }
        guard let path = RequestPath(raw: request.uri.path) else {
            return Self.text(.badRequest, "Bad request: the path leaves the site.\n")
        }
        if path.decoded.hasPrefix("/__tagflow/") { return try await next(request, context) }

        // Conditional requests are answered with ETags only: a page's markup changes with the build state even when
        // its file does not, so modification dates cannot tell. Pages are fetched whole so they can be rewritten.
        var head = request.head
        head.headerFields[.ifModifiedSince] = nil
        let mayBePage = path.mayNameAPage
        if mayBePage {
            head.method = .get
            head.headerFields[.ifNoneMatch] = nil
            head.headerFields[.range] = nil
            head.headerFields[.ifRange] = nil
        }
        let snapshot = state.current
        var response: Response
        do {
            response = try await next(Request(head: head, body: request.body), context)
        } catch let error as any HTTPResponseError where error.status == .notFound {
            return notFound(request, path: path, snapshot: snapshot)
        }
        if response.status == .notFound { return notFound(request, path: path, snapshot: snapshot) }
        if mayBePage {
            if response.status == .ok, Self.isHTML(response) {
                let html = try await Self.collect(response.body)
                let page = PageInjector.inject(into: html, buildID: snapshot.buildID, errors: snapshot.failure)
                return Self.page(page, status: .ok, for: request)
            }
            if request.method == .head { response.body = ResponseBody() }
        }
        response.headers[.cacheControl] = "no-cache"
        return response
    }

    /// The `Host` a request names: HTTP/1.1's header becomes the request's authority, and a
    /// client may still send it as a field.
    static func host(of request: Request) -> String? {
        HTTPField.Name("Host").flatMap { request.headers[$0] } ?? request.head.authority
    }

    /// Whether a `Host` header names this server: an IP address (no name to rebind), `localhost`
    /// or a name under it, or the host it listens on; any port.
    static func isAllowed(host header: String, listeningOn listeningHost: String) -> Bool {
        let value = header.trimmingCharacters(in: .whitespaces).lowercased()
        let name: Substring
        if value.hasPrefix("[") {
            guard let end = value.firstIndex(of: "]") else { return false }
            name = value[...end]
        } else {
            name = value.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        }
        guard !name.isEmpty else { return false }
        if name == "localhost" || name.hasSuffix(".localhost") { return true }
        let listening = listeningHost.lowercased()
        if name == listening || name == "[\(listening)]" { return true }
        if name.hasPrefix("[") {
            return name.dropFirst().dropLast().allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
        }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in UInt8(part).map { _ in !part.isEmpty } ?? false }
    }

    /// A miss: the site's `404.html`, or a status page while there is no good build yet.
    func notFound(_ request: Request, path: RequestPath, snapshot: PreviewState.Snapshot) -> Response {
        if !snapshot.hasOutput {
            guard path.mayNameAPage else {
                return Self.text(.serviceUnavailable, "The site has not been built yet.\n")
            }
            let failed = !snapshot.failure.isEmpty
            let page = PageInjector.statusPage(
                title: failed ? "The site failed to build" : "Building the site…", buildID: snapshot.buildID,
                errors: snapshot.failure)
            return Self.page(page, status: failed ? .internalServerError : .serviceUnavailable, for: request)
        }
        let html =
            files.contents(of: "/404.html").map { String(decoding: $0, as: UTF8.self) }
            ?? "<!doctype html><html><head><meta charset=\"utf-8\"><title>Not found</title></head>"
            + "<body><h1>Not found</h1></body></html>\n"
        let page = PageInjector.inject(into: html, buildID: snapshot.buildID, errors: snapshot.failure)
        return Self.page(page, status: .notFound, for: request)
    }

    static func isHTML(_ response: Response) -> Bool {
        response.headers[.contentType]?.lowercased().hasPrefix("text/html") ?? false
    }

    /// A rewritten page, with a strong `ETag` over its bytes; `304` when the client has it.
    static func page(_ page: String, status: HTTPResponse.Status, for request: Request) -> Response {
        let buffer = ByteBuffer(string: page)
        let eTag = "\"\(Self.hash(page))\""
        var headers: HTTPFields = [
            .contentType: "text/html; charset=utf-8", .cacheControl: "no-cache", .eTag: eTag,
            .contentLength: String(buffer.readableBytes),
        ]
        if status == .ok, Self.matches(request.headers[values: .ifNoneMatch], eTag) {
            headers[.contentLength] = nil
            return Response(status: .notModified, headers: headers)
        }
        return Response(
            status: status, headers: headers,
            body: request.method == .head ? ResponseBody() : ResponseBody(byteBuffer: buffer))
    }

    static func text(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(
            status: status, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-cache"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    /// Whether an `If-None-Match` header (its values may be comma-separated lists) names `eTag` or `*`.
    static func matches(_ values: [String], _ eTag: String) -> Bool {
        values.flatMap { $0.split(separator: ",") }.contains { candidate in
            let trimmed = candidate.trimmingCharacters(in: .whitespaces)
            return trimmed == "*" || trimmed == eTag || trimmed == "W/" + eTag
        }
    }

    /// 64-bit FNV-1a of the page, in hex.
    static func hash(_ text: String) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01b3
        }
        return String(value, radix: 16)
    }

    static func collect(_ body: ResponseBody) async throws -> String {
        let collector = BodyCollector()
        try await body.write(collector)
        return String(buffer: collector.buffer)
    }
}

/// Gathers a response body in memory (pages are small).
private final class BodyCollector: ResponseBodyWriter {
    var buffer = ByteBuffer()

    func write(_ part: ByteBuffer) async throws {
        var part = part
        buffer.writeBuffer(&part)
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
