import Foundation
import Testing
@testable import _HTTPMockTemplates

/// Helpers that came with WireMock 3 (WireMock 2.35.1, the oracle run in CI, has none of them): what they print, as
/// WireMock 3's helpers print it.
@Suite struct TemplateWireMock3HelpersTests {
    private func render(_ text: String, body: String = "") throws -> String {
        let template = try HandlebarsTemplate(text, pathNames: [:], place: "test")
        switch template.result(BodyModel(body)) {
        case .success(let rendered): return rendered
        case .failure(let problem): throw problem
        }
    }

    @Test("toJson of no value prints nothing, not null")
    func toJsonOfNothing() throws {
        #expect(try render("[{{toJson missing}}]|{{toJson (array 1 2)}}") == "[]|[ 1, 2 ]")
    }

    @Test("arrayJoin: the first argument's items when it is a list, else the arguments; nothing to join prints nothing")
    func arrayJoin() throws {
        #expect(try render("[{{arrayJoin ',' (array) prefix='(' suffix=')'}}]") == "[]")
        #expect(try render("{{arrayJoin ',' (array 'a' 'b') 'c'}}") == "a,b")
        #expect(try render("{{arrayJoin ',' 'a' (array 'b' 'c')}}") == "a,[b, c]")
        #expect(try render("{{arrayJoin ' - ' 'a' 'b' 'c'}}|{{arrayJoin ',' (array 1 2) prefix='(' suffix=')'}}") == "a - b - c|(1,2)")
    }

    @Test("arrayAdd to no list gives the empty list; position start and end in any case")
    func arrayPositions() throws {
        #expect(try render("{{arrayAdd missing 'x'}}") == "[]")
        #expect(try render("{{arrayAdd (array 1 2) 0 position='START'}}|{{arrayAdd (array 1 2) 3 position='End'}}") == "[0, 1, 2]|[1, 2, 3]")
        #expect(try render("{{arrayRemove (array 1 2 3) position='Start'}}|{{arrayRemove (array 1 2 3) position='END'}}") == "[2, 3]|[1, 2]")
    }

    @Test("parseJson of no value or of a blank text is an empty map; no value assigns nothing")
    func parseJsonOfNothing() throws {
        #expect(try render("{{parseJson missing}}|{{parseJson '  '}}|{{parseJson ''}}") == "{}|{}|{}")
        #expect(try render("{{parseJson '' 'v'}}{{v}}|{{parseJson missing 'w'}}[{{w}}]") == "{}|{}[]")
        #expect(try render("{{parseJson '{\"a\": 1}' 'o'}}{{o.a}}") == "1")
    }

    @Test("jsonArrayAdd writes as Jackson does: slashes and characters past ASCII as they are, plain decimals, no null members")
    func jsonArrayAddText() throws {
        #expect(try render("{{jsonArrayAdd '[\"a/b\"]' '\"c\u{2013}d\"'}}") == "[\"a/b\",\"c\u{2013}d\"]")
        #expect(try render("{{jsonArrayAdd '[1e2, 1.50]' '3'}}") == "[100,1.50,3]")
        #expect(try render("{{jsonArrayAdd '[{\"a\": null, \"b\": 1}]' '{\"c\": null}'}}") == "[{\"b\":1},{}]")
        #expect(try render("{{size (jsonArrayAdd '[1]' '2')}}") == "5")
    }

    @Test("toJson leaves out members whose value is null, as WireMock's Jackson writes a map; lists keep their nulls")
    func toJsonOmitsNullMembers() throws {
        #expect(try render("{{toJson (parseJson '{\"a\": null, \"b\": 1, \"c\": [null, 2]}')}}") == "{\n  \"b\" : 1,\n  \"c\" : [ null, 2 ]\n}")
    }

    @Test("formatJson: compact prints decimals as Java does (1E+2, 1E-7), pretty without an exponent; both keep null members")
    func formatJsonNumbers() throws {
        let json = "{\"a\": 1e2, \"b\": 1E-7, \"c\": 0.0000001, \"d\": 1.50, \"e\": 100, \"f\": null}"
        #expect(try render("{{formatJson '\(json)' format='compact'}}") == "{\"a\":1E+2,\"b\":1E-7,\"c\":1E-7,\"d\":1.50,\"e\":100,\"f\":null}")
        #expect(try render("{{formatJson '{\"a\": 1e2, \"f\": null}'}}") == "{\n  \"a\" : 100,\n  \"f\" : null\n}")
    }

    @Test("jsonMerge gives text: compact, null members kept, and jsonPath reads it again as a document")
    func jsonMergeText() throws {
        #expect(try render("{{jsonMerge '{\"a\": [1, 2], \"n\": 1}' '{\"n\": null, \"b\": 1e2}'}}") == "{\"a\":[1,2],\"n\":null,\"b\":100}")
        #expect(try render("{{size (jsonMerge '{\"a\": 1}' '{}')}}|{{jsonPath (jsonMerge '{\"a\": [1, 2]}' '{}') '$.a'}}") == "7|[1,2]")
    }
}
