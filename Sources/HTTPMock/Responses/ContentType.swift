/// `Content-Type` inferred from a file extension (the common web types; anything else is octet-stream).
enum ContentType {
    static func infer(fromExtension ext: String) -> String {
        switch ext.lowercased() {
        case "json": "application/json"
        case "har": "application/json"
        case "txt", "text": "text/plain; charset=utf-8"
        case "html", "htm": "text/html; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "csv": "text/csv; charset=utf-8"
        case "js", "mjs": "text/javascript; charset=utf-8"
        case "xml": "application/xml"
        case "yaml", "yml": "application/yaml"
        case "pdf": "application/pdf"
        case "zip": "application/zip"
        case "gz": "application/gzip"
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "gif": "image/gif"
        case "webp": "image/webp"
        case "svg": "image/svg+xml"
        case "ico": "image/x-icon"
        case "mp3": "audio/mpeg"
        case "mp4": "video/mp4"
        case "wasm": "application/wasm"
        default: "application/octet-stream"
        }
    }
}
