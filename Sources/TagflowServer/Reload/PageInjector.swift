import Foundation
package import TagflowCore
internal import TagflowHTML

/// Adds the live-reload script, and the build errors when there are any, to an HTML page being served.
///
/// ```swift
/// let page = PageInjector.inject(into: "<html><body><p>Hi</p></body></html>", buildID: "a1-3", errors: [])
/// // "<html><body><p>Hi</p><script data-tagflow-serve>…</script></body></html>"
/// ```
///
/// Only responses are rewritten, never the files of the output folder. The error banner is part of the markup
/// itself, so it shows even when scripts are off; the script opens the event stream at ``eventsPath`` and reloads
/// the page when the build it was served from is no longer the current one.
package enum PageInjector {
    /// The server-sent events endpoint.
    package static let eventsPath = "/__tagflow/events"
    /// The `id` of the error banner.
    package static let bannerID = "tagflow-build-error"
    /// An attribute on everything injected, so tests and people can tell it apart from the site.
    package static let marker = "data-tagflow-serve"

    /// Returns `html` with the error banner after `<body>` (when there are errors) and the script before `</body>`.
    ///
    /// - Parameters:
    ///   - html: The page.
    ///   - buildID: The build the page belongs to, which the script compares with the server's.
    ///   - errors: The errors of the latest build; empty when it succeeded.
    ///   - showingLastGood: Whether the page is from the last good build (the banner says so).
    /// - Returns: The page to send.
    package static func inject(
        into html: String, buildID: String, errors: [Diagnostic], showingLastGood: Bool = true
    ) -> String {
        var page = html
        let script = reloadScript(buildID: buildID)
        if let close = page.range(of: "</body>", options: [.caseInsensitive, .backwards]) {
            page.insert(contentsOf: script, at: close.lowerBound)
        } else {
            page += script
        }
        if !errors.isEmpty {
            let banner = errorBanner(errors, showingLastGood: showingLastGood)
            if let open = page.range(of: "<body", options: .caseInsensitive),
                let end = page[open.upperBound...].firstIndex(of: ">")
            {
                page.insert(contentsOf: banner, at: page.index(after: end))
            } else {
                page = banner + page
            }
        }
        return page
    }

    /// A whole page for when there is no built page to show: the first build is running or failed.
    ///
    /// - Parameters:
    ///   - title: The page title and heading.
    ///   - buildID: The current build, for the reload script.
    ///   - errors: The build errors, shown in the banner.
    /// - Returns: An HTML document.
    package static func statusPage(title: String, buildID: String, errors: [Diagnostic]) -> String {
        let body = errors.isEmpty ? "<h1>\(escape(title))</h1><p>This page reloads by itself.</p>" : ""
        let page = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>\(escape(title))</title>\
            <meta name="viewport" content="width=device-width, initial-scale=1"></head>
            <body style="font-family:system-ui,sans-serif;margin:0">\(body)</body></html>

            """
        return inject(into: page, buildID: buildID, errors: errors, showingLastGood: false)
    }

    /// The script that reloads the page when a new build (good or bad) is ready.
    package static func reloadScript(buildID: String) -> String {
        let id = buildID.filter { $0.isLetter || $0.isNumber || $0 == "-" }
        return """
            <script \(marker)>(function(){var b="\(id)";if(!window.EventSource)return;\
            var s=new EventSource("\(eventsPath)");s.addEventListener("build",function(e){\
            if(e.data!==b){s.close();location.reload();}});})();</script>
            """
    }

    /// The banner listing every error as `file:line:column: error: message`, with hints and quoted lines.
    package static func errorBanner(_ errors: [Diagnostic], showingLastGood: Bool = true) -> String {
        let count = errors.filter { $0.severity == .error }.count
        let heading =
            "The site failed to build (\(count) error\(count == 1 ? "" : "s")). "
            + (showingLastGood ? "You are seeing the last good version. " : "There is no good build to show yet. ")
            + "Fix the file and this page reloads by itself."
        let items = errors.map { "<li>\(escape($0.description))</li>" }.joined()
        return """
            <div id="\(bannerID)" \(marker) role="alert" style="all:initial;display:block;position:relative;\
            z-index:2147483647;box-sizing:border-box;width:100%;margin:0;padding:16px 20px;background:#fff1f0;\
            color:#5c0000;border-bottom:3px solid #d4380d;font:14px/1.45 system-ui,sans-serif;text-align:left">\
            <strong style="display:block;margin-bottom:8px">\(escape(heading))</strong>\
            <ul style="margin:0;padding:0;list-style:none;white-space:pre-wrap;\
            font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace">\(items)</ul></div>
            """
    }

    /// Escapes text for HTML element content and attribute values.
    package static func escape(_ text: String) -> String { HTMLEscaping.escaped(text) }
}
