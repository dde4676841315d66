#if Server
import Foundation
import HTTPMock

/// `/__admin/files`: the body files of the WireMock folder served (``HTTPMockServer/Configuration/wireMockFolder``),
/// as WireMock lists, reads, writes and removes them. A name is one file directly in `__files`: no folder, no `..`,
/// no hidden file, so nothing outside `__files` is ever read or written.
enum FilesResource {
    static let routes: [AdminRoute] = [
        AdminRoute("GET", "files") { _, _, context throws(AdminError) in
            let folder = try filesFolder(context)
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
                .filter { !$0.hasPrefix(".") }.sorted()
            return .json(names)
        },
        AdminRoute("GET", "files/{name}") { _, parameters, context throws(AdminError) in
            let file = try fileNamed(parameters, context)
            guard !isLink(file), let data = try? Data(contentsOf: file) else {
                throw AdminError(status: 404, code: 40, title: "No file \(file.lastPathComponent) in __files")
            }
            return AdminReply(status: 200, body: data)
        },
        AdminRoute("PUT", "files/{name}") { request, parameters, context throws(AdminError) in
            let file = try fileNamed(parameters, context)
            if isLink(file) {
                throw AdminError(status: 422, code: 10, title: "\(file.lastPathComponent) is a symbolic link",
                                 detail: "files are written only inside __files; remove the link first")
            }
            do {
                try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try (request.body ?? Data()).write(to: file, options: .atomic)
            } catch {
                throw AdminError(status: 500, code: 50, title: "Could not write \(file.lastPathComponent)", detail: error.localizedDescription)
            }
            return .ok
        },
        AdminRoute("DELETE", "files/{name}") { _, parameters, context throws(AdminError) in
            let file = try fileNamed(parameters, context)
            guard (try? FileManager.default.removeItem(at: file)) != nil else {
                throw AdminError(status: 404, code: 40, title: "No file \(file.lastPathComponent) in __files")
            }
            return .ok
        },
    ]

    /// A symbolic link is neither read nor written through: what it leads to may be outside `__files`.
    private static func isLink(_ file: URL) -> Bool {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: file.path)) != nil
    }

    private static func filesFolder(_ context: AdminContext) throws(AdminError) -> URL {
        guard let root = context.state.mappings.wireMockFolder else {
            throw AdminError(status: 422, code: 10, title: "No WireMock folder is served",
                             detail: "the files of /__admin/files are those of a WireMock folder's __files (Configuration.wireMockFolder, or httpmock serve <WireMock folder>)")
        }
        return root.appendingPathComponent("__files", isDirectory: true)
    }

    private static func fileNamed(_ parameters: [String: String], _ context: AdminContext) throws(AdminError) -> URL {
        let name = parameters["name"] ?? ""
        guard !name.isEmpty, !name.hasPrefix("."), !name.contains("/"), !name.contains("\\"), !name.contains("\0") else {
            throw AdminError(status: 422, code: 10, title: "\(name) is not a file name in __files",
                             detail: "name one file directly in __files: no folder, no .., no hidden file")
        }
        return try filesFolder(context).appendingPathComponent(name)
    }
}
#endif
