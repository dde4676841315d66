#if Server
import Foundation
import HTTPMock

/// `/__admin/recordings`: WireMock's record and snapshot, onto the journal. While a recording runs, what no stub
/// answers goes to its target and is journaled; stopping it, or taking a snapshot of the journal, makes stub
/// mappings of those requests (secrets redacted, repeats as scenarios), serves them at once and, with `persist`,
/// writes them into the WireMock folder served.
enum RecordingsResource {
    static let routes: [AdminRoute] = [
        AdminRoute("POST", "recordings/start") { request, _, context throws(AdminError) in try start(request, context) },
        AdminRoute("POST", "recordings/stop") { _, _, context throws(AdminError) in
            // As WireMock: 400 with its code 30 when no recording runs.
            guard let running = context.state.recorder.stop(mock: context.mock) else {
                throw AdminError(status: 400, code: 30, title: "Not recording",
                                 detail: "start a recording first: POST /__admin/recordings/start {\"targetBaseUrl\": \"http://127.0.0.1:PORT\"}")
            }
            let entries = running.spec.selected(context.mock.journal(from: running.firstEntry))
            return try mappings(of: entries, spec: running.spec, context)
        },
        AdminRoute("GET", "recordings/status") { _, _, context in .json(["status": context.state.recorder.status.rawValue]) },
        AdminRoute("POST", "recordings/snapshot") { request, _, context throws(AdminError) in
            let body = (request.body?.isEmpty ?? true) ? [:] : try request.jsonObject()
            let spec = try RecordSpec(body, canPersist: context.state.mappings.wireMockFolder != nil)
            return try mappings(of: spec.selected(context.mock.journal), spec: spec, context)
        },
    ]

    /// `{"targetBaseUrl": "http://127.0.0.1:8081", …the record spec}`. The target is on this machine: a recording
    /// started over HTTP never sends requests elsewhere (`httpmock serve --proxy URL --record-to FOLDER` records from
    /// any URL its user names).
    private static func start(_ request: AdminRequest, _ context: AdminContext) throws(AdminError) -> AdminReply {
        let body = try request.jsonObject()
        guard let text = body["targetBaseUrl"] as? String, let target = URL(string: text),
              let scheme = target.scheme?.lowercased(), ["http", "https"].contains(scheme), let host = target.host else {
            throw AdminError.invalidJSON(pointer: "/targetBaseUrl", detail: "targetBaseUrl is the http:// base URL to record from, such as http://127.0.0.1:8081")
        }
        guard HostName.isLoopback(host) else {
            throw AdminError(status: 422, code: 10, pointer: "/targetBaseUrl", title: "Recording targets are on this machine",
                             detail: "\(text) is not a loopback address; to record from another machine, start httpmock serve --proxy \(text) --record-to <folder>, which its user names on the command line")
        }
        let spec = try RecordSpec(body, canPersist: context.state.mappings.wireMockFolder != nil)
        guard context.state.recorder.start(spec, target: target, via: context.state.via, mock: context.mock) else {
            throw AdminError(status: 409, code: 10, title: "Already recording", detail: "stop it first: POST /__admin/recordings/stop")
        }
        return .ok
    }

    /// Writes each binary body into `folder` (the served WireMock folder's `__files`).
    private static func bodyWriter(_ folder: URL) -> WireMockRecordingWriter.BodyFiles {
        { name, body throws(HTTPMockError) in
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try body.write(to: folder.appendingPathComponent(name), options: .atomic)
            } catch {
                throw HTTPMockError(.missingFile, "could not write \(name) into \(folder.path): \(error.localizedDescription)")
            }
        }
    }

    /// Makes, serves and (with `persist`) saves the mappings of `entries`.
    private static func mappings(of entries: [JournalEntry], spec: RecordSpec, _ context: AdminContext) throws(AdminError) -> AdminReply {
        let files = spec.persist ? context.state.mappings.wireMockFolder?.appendingPathComponent("__files", isDirectory: true) : nil
        let made: [(id: String, json: Data)]
        do {
            let options = WireMockRecordingWriter.Options(repeatsAsScenarios: spec.repeatsAsScenarios, capturedHeaders: spec.captureHeaders)
            made = try WireMockRecordingWriter.mappings(for: entries, options: options, bodyFiles: files.map(bodyWriter))
        } catch {
            throw AdminError(status: 500, code: 50, title: "The recording could not be written", detail: error.message)
        }
        var objects: [Any] = []
        for (_, json) in made {
            do {
                let mapping = try WireMockStubMapping(json: json, source: "the recording")
                try context.state.mappings.create(mapping, in: context.mock)
            } catch let error as HTTPMockError {
                throw AdminError.unreadable(error)
            } catch let error as AdminError {
                throw error
            } catch {
                throw AdminError.invalidJSON(pointer: "/", detail: "\(error)")
            }
            objects.append((try? JSONSerialization.jsonObject(with: json)) ?? [String: Any]())
        }
        if spec.persist { _ = try context.state.mappings.save() }
        return spec.idsOnly ? .json(["ids": made.map(\.id)]) : .json(["mappings": objects])
    }
}
#endif
