import Foundation
import _HTTPMockJSON

/// JSON text as WireMock's `matchesJsonPath` reads a body (Jayway's JSONPath over json-smart, as the `jsonPath`
/// helper reads text), for the matcher to give a value pattern what a path selected as WireMock gives it.
extension TemplateJSON {
    /// What `path` selects in `text`, each value as WireMock's JSONPath read it: objects as maps in the document's
    /// order, lists as json-smart's, integers past 64 bits and decimals of more than 18 characters exactly; `nil`
    /// when `text` is not JSON.
    package static func matcherSelection(_ path: JSONPath, in text: String) -> [TemplateValue]? {
        guard let document = parse(text.trimmingCharacters(in: .whitespacesAndNewlines), json: true, jsonSmart: true) else { return nil }
        return path.select(in: selectable(document), view: document, inside: inside, keys: keys, merge: merged, leafToNull: false)
            .map { selected($0.value, $0.view) }
    }
}

extension TemplateValue {
    /// The text Java's `String.valueOf` gives the value: `10.0`, `1.0E-5`, a map as `{k=v}`, a list as json-smart's
    /// compact JSON (`[1,"a\/b"]`), null as `null`.
    package var javaString: String {
        if case .null = self { return "null" }
        return text
    }

    /// The value as WireMock's Jackson writes it: indented, in its key order, without null members.
    package var jacksonText: String { TemplateJSON.write(self, pretty: true, omittingNulls: true) }
}
