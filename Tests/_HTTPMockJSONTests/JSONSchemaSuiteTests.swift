import Foundation
import Testing
@testable import _HTTPMockJSON

/// The official JSON-Schema-Test-Suite, read at test time from the folder `HTTPMOCK_JSON_SCHEMA_SUITE` names (its
/// `json/` folder: `tests/` and `remotes/`; `.ci/run` takes it from the `jsonschema` sdist on PyPI). Every test file
/// of each draft's folder runs, and the `format` tests of `optional/format/` for the formats the validator checks
/// (with `validatesFormats` on). References to `http://localhost:1234/…` are read from `remotes/` through the
/// registry the validator is given, never the network. The drafts' own meta-schemas, which a few tests refer to, are
/// not in the suite: they are read from the folder `HTTPMOCK_JSON_SCHEMA_METASCHEMAS` names (any JSON files, each
/// registered by its `$id`; `.ci/run` takes `jsonschema_specifications/schemas` from the `jsonschema-specifications`
/// sdist), and those tests are skipped without it.
@Suite struct JSONSchemaSuiteTests {
    struct Draft: Sendable, CustomTestStringConvertible {
        let folder: String
        let draft: JSONSchema.Draft
        var testDescription: String { folder }
    }

    static let drafts = [
        Draft(folder: "draft4", draft: .draft4), Draft(folder: "draft6", draft: .draft6),
        Draft(folder: "draft7", draft: .draft7), Draft(folder: "draft2019-09", draft: .draft2019_09),
        Draft(folder: "draft2020-12", draft: .draft2020_12),
    ]

    /// The formats the validator checks when asked to (`JSONSchema.FormatCheck.known`).
    static let formats = ["date-time", "date", "time", "email", "uuid", "uri", "ipv4", "ipv6", "hostname"]

    /// Tests not run, each with why: (draft folder or `*`, file, case description, test description or `*`).
    static let skipped: [(draft: String, file: String, group: String, test: String, reason: String)] = [
    ]

    /// Tests that refer to a draft's meta-schema, skipped when `HTTPMOCK_JSON_SCHEMA_METASCHEMAS` is not set.
    static let needMetaSchemas: [(file: String, group: String)] = [
        ("definitions.json", "validate definition against metaschema"), ("defs.json", "validate definition against metaschema"),
        ("ref.json", "remote ref, containing refs itself"),
    ]

    static func skipReason(_ draft: String, _ file: String, _ group: String, _ test: String, metaSchemas: Bool) -> String? {
        if !metaSchemas, needMetaSchemas.contains(where: { $0.file == file && $0.group == group }) {
            return "refers to the draft's meta-schema, which the suite does not ship (set HTTPMOCK_JSON_SCHEMA_METASCHEMAS)"
        }
        return skipped.first { ($0.draft == "*" || $0.draft == draft) && $0.file == file && $0.group == group && ($0.test == "*" || $0.test == test) }?.reason
    }

    /// The meta-schemas in the folder `HTTPMOCK_JSON_SCHEMA_METASCHEMAS` names, by `$id` (draft 4's `id`).
    static func metaSchemas() throws -> [String: JSONValue]? {
        guard let path = ProcessInfo.processInfo.environment["HTTPMOCK_JSON_SCHEMA_METASCHEMAS"], !path.isEmpty,
              let walker = FileManager.default.enumerator(at: URL(fileURLWithPath: path, isDirectory: true), includingPropertiesForKeys: [.isRegularFileKey]) else { return nil }
        var schemas: [String: JSONValue] = [:]
        for case let file as URL in walker where (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            guard let value = JSONValue(data: try Data(contentsOf: file)), case .object(let members) = value,
                  case .string(var id)? = members["$id"] ?? members["id"] else { continue }
            while id.hasSuffix("#") { id.removeLast() }
            schemas[id] = value
        }
        #expect(!schemas.isEmpty, "no meta-schemas in \(path)")
        return schemas
    }

    static var suiteFolder: URL? {
        guard let path = ProcessInfo.processInfo.environment["HTTPMOCK_JSON_SCHEMA_SUITE"], !path.isEmpty else { return nil }
        return URL(fileURLWithPath: path, isDirectory: true)
    }

    /// Every file of `remotes/`, by the address the suite's tests give it.
    static func remotes(in suite: URL) throws -> [String: JSONValue] {
        let root = suite.appendingPathComponent("remotes").standardizedFileURL
        var resources: [String: JSONValue] = [:]
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [:] }
        for case let file as URL in walker where file.pathExtension == "json" {
            let relative = file.standardizedFileURL.path.dropFirst(root.path.count).drop { $0 == "/" }
            resources["http://localhost:1234/\(relative)"] = try Self.read(file)
        }
        return resources
    }

    static func read(_ file: URL) throws -> JSONValue {
        let data = try Data(contentsOf: file)
        guard let value = JSONValue(data: data) else {
            throw JSONSchemaError("\(file.path) is not JSON")
        }
        return value
    }

    /// The optional files whose behaviour the validator follows: ECMA-262's regular expressions, characters beyond
    /// the BMP in patterns, numbers past 64 bits.
    static let optionalFiles = ["ecmascript-regex", "non-bmp-regex", "bignum", "float-overflow"]

    @Test(arguments: drafts) func draft(_ draft: Draft) throws {
        guard let suite = Self.suiteFolder else {
            print("JSON-Schema-Test-Suite \(draft.folder): NOT RUN (set HTTPMOCK_JSON_SCHEMA_SUITE to the suite's json/ folder)")
            withKnownIssue("the JSON-Schema-Test-Suite was not run: HTTPMOCK_JSON_SCHEMA_SUITE is not set") {
                Issue.record("JSON-Schema-Test-Suite \(draft.folder) not run: set HTTPMOCK_JSON_SCHEMA_SUITE to the json/ folder of the suite (.ci/run does)")
            }
            return
        }
        var resources = try Self.remotes(in: suite)
        let metaSchemas = try Self.metaSchemas()
        resources.merge(metaSchemas ?? [:]) { remote, _ in remote }
        let folder = suite.appendingPathComponent("tests").appendingPathComponent(draft.folder)
        var files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".json") }.sorted().map { (name: $0, url: folder.appendingPathComponent($0), formats: false) }
        for format in Self.formats {
            let file = folder.appendingPathComponent("optional/format/\(format).json")
            if FileManager.default.fileExists(atPath: file.path) { files.append(("optional/format/\(format).json", file, true)) }
        }
        for optional in Self.optionalFiles {
            let file = folder.appendingPathComponent("optional/\(optional).json")
            if FileManager.default.fileExists(atPath: file.path) { files.append(("optional/\(optional).json", file, false)) }
        }
        #expect(files.count > 10, "no test files in \(folder.path)")
        var passed = 0, failed = 0, skipped = 0
        var failures: [String] = []
        for file in files {
            guard case .array(let groups) = try Self.read(file.url) else { continue }
            for group in groups {
                guard case .object(let members) = group, case .string(let description)? = members["description"],
                      let schemaValue = members["schema"], case .array(let tests)? = members["tests"] else { continue }
                var schema: JSONSchema?
                var refusal: String?
                do {
                    schema = try JSONSchema(schemaValue, draft: draft.draft, validatesFormats: file.formats, resources: resources)
                } catch {
                    refusal = error.message
                }
                for test in tests {
                    guard case .object(let fields) = test, case .string(let name)? = fields["description"],
                          let data = fields["data"], case .bool(let valid)? = fields["valid"] else { continue }
                    if Self.skipReason(draft.folder, file.name, description, name, metaSchemas: metaSchemas != nil) != nil {
                        skipped += 1
                        continue
                    }
                    guard let schema else {
                        failed += 1
                        failures.append("\(draft.folder)/\(file.name) · \(description) · \(name): the schema was refused: \(refusal ?? "")")
                        continue
                    }
                    let violations = schema.violations(of: data, limit: 1)
                    if violations.isEmpty == valid {
                        passed += 1
                    } else {
                        failed += 1
                        let answer = valid ? "refused a valid value: \(violations.first!.description)" : "accepted an invalid value"
                        failures.append("\(draft.folder)/\(file.name) · \(description) · \(name): \(answer)")
                    }
                }
            }
        }
        print("JSON-Schema-Test-Suite \(draft.folder): \(passed) passed, \(failed) failed, \(skipped) skipped")
        for failure in failures {
            print("  failed: \(failure)")
            Issue.record(Comment(rawValue: failure))
        }
    }
}
