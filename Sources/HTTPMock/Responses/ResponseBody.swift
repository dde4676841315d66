import Foundation

/// Reads a response's body when it is served.
enum ResponseBody {
    /// The size of the body in bytes, without reading a file (0 when it cannot be known).
    static func size(of response: MockResponse) -> Int {
        switch response.content {
        case .data(let data): return data.count
        case .failure, .dynamic, .stream, .webSocket, .forward: return 0
        case .file(let url):
            let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber
            return size?.intValue ?? 0
        }
    }

    static func data(of response: MockResponse) throws -> Data {
        switch response.content {
        case .data(let data): return data
        case .failure, .dynamic, .stream, .webSocket, .forward: return Data()
        case .file(let url):
            do {
                return try Data(contentsOf: url, options: .mappedIfSafe)
            } catch {
                throw URLError(.cannotOpenFile, userInfo: [
                    NSLocalizedDescriptionKey: "HTTPMock: the response file \(url.path) could not be read: \(error.localizedDescription)",
                ])
            }
        }
    }
}
