#if CommandLineTool
import ArgumentParser
import Foundation
import HTTPMock

/// `httpmock convert <paths…> --to <folder>`: HTTPMock mapping files, HAR files and Mockingbird bundles as a WireMock
/// folder.
struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Writes HTTPMock mapping files, HAR files and Mockingbird bundles as one WireMock folder (mappings/ and __files/).",
        discussion: """
        The folder answers the requests of each source as the source does: a HAR's requests that repeat get their \
        recorded answers in order (a scenario), secrets redacted; a Mockingbird bundle's entries answer for ever, \
        the first one of the bundle where several match; a mapping file's mocks keep their order (as priorities), \
        their answers in turn (a scenario) and their templates (in WireMock's Handlebars). What WireMock cannot say \
        exactly is printed as a note. Each path's format is told from what it holds (or named \
        with --format). Every path is read before anything is written: one that cannot be read writes nothing, and \
        each problem is printed.
        """
    )

    @Argument(help: "Mapping files (*.mock.json) or folders of them, HAR files and Mockingbird bundles.")
    var paths: [String] = []

    @Option(help: "The WireMock folder to write (created if missing; what it holds already stays).")
    var to: String

    @Option(help: "What every path holds, instead of telling it from its contents.")
    var format: SourceFormat?

    func validate() throws {
        if paths.isEmpty { throw ValidationError("Name at least one mapping file or folder, HAR file or Mockingbird bundle to convert.") }
    }

    func run() throws {
        let root = URL(fileURLWithPath: to)
        var jobs: [(URL, SourceFormat)] = []
        var problems: [String] = []
        for path in paths {
            let url = URL(fileURLWithPath: path)
            do {
                let format = try format ?? SourceFormat.detect(url)
                switch format {
                case .har, .mockingbird, .mappings: jobs.append((url, format))
                case .wiremock: problems.append("\(path): already a WireMock folder")
                case .openapi: problems.append("\(path): an OpenAPI document answers from its examples and schemas when it is served (httpmock serve \(path)); it is not written as fixed answers")
                }
            } catch {
                problems.append("\(error)")
            }
        }
        guard problems.isEmpty else {
            for problem in problems { FileHandle.standardError.write(Data("httpmock convert: \(problem)\n".utf8)) }
            throw ExitCode.failure
        }
        // Each source is converted into a scratch folder first, so a bad one writes nothing into `root`.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("httpmock-convert-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        var total = WireMockConversion.Outcome()
        for (url, format) in jobs {
            do {
                let outcome = switch format {
                case .har: try WireMockConversion.convertHAR(at: url, into: scratch)
                case .mappings: try WireMockConversion.convertMappings(at: url, into: scratch)
                default: try WireMockConversion.convertMockingbird(at: url, into: scratch)
                }
                total.mappings += outcome.mappings
                total.files += outcome.files
                total.notes += outcome.notes
            } catch {
                problems.append("\(url.path): \(error)")
            }
        }
        guard problems.isEmpty else {
            for problem in problems { FileHandle.standardError.write(Data("httpmock convert: \(problem)\n".utf8)) }
            throw ExitCode.failure
        }
        do {
            for folder in ["mappings", "__files"] {
                let source = scratch.appendingPathComponent(folder)
                let names = (try? FileManager.default.contentsOfDirectory(atPath: source.path)) ?? []
                guard !names.isEmpty else { continue }
                let target = root.appendingPathComponent(folder)
                try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
                for name in names { try FileManager.default.moveItem(at: source.appendingPathComponent(name), to: target.appendingPathComponent(name)) }
            }
        } catch {
            FileHandle.standardError.write(Data("httpmock convert: could not write into \(root.path): \(error.localizedDescription)\n".utf8))
            throw ExitCode.failure
        }
        for note in total.notes { FileHandle.standardError.write(Data("httpmock convert: note: \(note)\n".utf8)) }
        FileHandle.standardError.write(Data("httpmock convert: wrote \(total.mappings) mapping(s) and \(total.files) body file(s) into \(root.path)\n".utf8))
    }
}
#endif
