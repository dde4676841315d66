import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A small typed client, written as app code would be: it knows a base URL and a `URLSession`, nothing of mocks.
struct DemoAPIClient: Sendable {
    enum Failure: Error, CustomStringConvertible {
        case status(Int, path: String)
        case transport(URLError)

        var description: String {
            switch self {
            case .status(let code, let path): "HTTP \(code) from \(path)"
            case .transport(let error): "network error \(error.code.rawValue) (\(error.code))"
            }
        }
    }

    let baseURL: URL
    let session: URLSession
    /// How many times a 5xx answer is retried.
    var retries = 0

    func fetchPosts() async throws -> [Post] { try await get("posts/") }
    func fetchAlbums() async throws -> [Album] { try await get("albums/") }
    func fetchToDos() async throws -> [ToDo] { try await get("todos/") }

    private func get<T: Decodable>(_ path: String) async throws -> T {
        var attempt = 0
        while true {
            let (data, response): (Data, URLResponse)
            do {
                (data, response) = try await session.data(from: baseURL.appendingPathComponent(path))
            } catch let error as URLError {
                throw Failure.transport(error)
            }
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            if (500..<600).contains(status), attempt < retries {
                attempt += 1
                continue
            }
            guard (200..<300).contains(status) else { throw Failure.status(status, path: path) }
            return try JSONDecoder().decode(T.self, from: data)
        }
    }
}
