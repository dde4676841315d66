import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Turns what a `URLProtocol` is given into a ``CapturedRequest``, with the body wherever URLSession put it.
enum RequestCapture {
    static func capture(_ request: URLRequest, task: URLSessionTask?) -> CapturedRequest {
        var headers = HeaderFields()
        for (name, value) in (request.allHTTPHeaderFields ?? [:]).sorted(by: { $0.key < $1.key }) {
            headers.add(name, value)
        }
        return CapturedRequest(
            method: request.httpMethod ?? "GET",
            url: request.url ?? URL(string: "about:blank")!,
            headers: headers,
            body: body(of: request, task: task)
        )
    }

    /// `httpBody`, else the drained `httpBodyStream`, else (Linux) the body an upload task was given.
    static func body(of request: URLRequest, task: URLSessionTask?) -> Data? {
        if let body = request.httpBody { return body }
        if let stream = request.httpBodyStream { return drain(stream) }
        #if canImport(FoundationNetworking)
        // Only upload tasks carry a body elsewhere; reflecting every task would cost more than the rest of the request.
        if let task = task as? URLSessionUploadTask { return UploadBody.read(from: task) }
        #endif
        return nil
    }

    private static func drain(_ stream: InputStream) -> Data? {
        if stream.streamStatus == .notOpen { stream.open() }
        defer { stream.close() }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = stream.read(&buffer, maxLength: buffer.count)
            if count > 0 { data.append(buffer, count: count); continue }
            // Reading `streamError` when there is none traps on Linux: check the status first.
            if count < 0 || stream.streamStatus == .error { return data.isEmpty ? nil : data }
            return data
        }
    }
}
