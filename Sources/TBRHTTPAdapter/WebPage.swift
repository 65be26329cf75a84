import HTTPMessages

/// The web page tbrd serves at `/` with the HTTPS API: five files compiled into tbrd from
/// `Sources/TBRHTTPAdapter/Web` (SwiftPM `embedInCode`), no outside build tool, no CDN. They hold no data and
/// are served without a token; the page signs in with a token and every API request it makes carries
/// it (docs/http-api.md, "The web page").
enum WebPage {
    /// The file at `path` with its content type; nil for any other path.
    static func file(_ path: String) -> (contentType: String, body: [UInt8])? {
        switch path {
        case "/", "/index.html": ("text/html; charset=utf-8", PackageResources.index_html)
        case "/app.js": ("text/javascript; charset=utf-8", PackageResources.app_js)
        case "/commission.js": ("text/javascript; charset=utf-8", PackageResources.commission_js)
        case "/health.js": ("text/javascript; charset=utf-8", PackageResources.health_js)
        case "/app.css": ("text/css; charset=utf-8", PackageResources.app_css)
        default: nil
        }
    }

    /// The page's own files and the API only; no inline script or style, no frames. Images may be
    /// `blob:` URLs: the mesh picture is fetched with the token and shown from memory (an `<img>`
    /// never runs a script an SVG might hold).
    static let headers = [
        "Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY", "Referrer-Policy": "no-referrer",
        "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' blob:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
    ]

    /// The answer to a `GET` of a page file, or nil.
    static func answer(_ request: HTTPServerRequest) -> HTTPServerResponse? {
        guard request.method == "GET" || request.method == "HEAD", let (type, body) = file(request.path) else { return nil }
        return HTTPServerResponse(status: 200, contentType: type, headers: headers, body: request.method == "HEAD" ? [] : body)
    }
}
