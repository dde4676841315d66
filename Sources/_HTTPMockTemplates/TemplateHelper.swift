import Foundation

/// The Handlebars helpers a WireMock template may use: Handlebars' own (`if`, `each`…), the string and comparison
/// helpers of Handlebars.java, and WireMock's. Each is checked when the template is read: its number of arguments,
/// its named arguments, and literal arguments that can be checked early (a JSONPath, a regular expression, a date
/// offset, a time zone).
package enum TemplateHelper: String, CaseIterable, Sendable {
    // Handlebars' blocks and lookups.
    case `if`, unless, each, with, lookup, log
    // Comparisons.
    case eq, neq, gt, gte, lt, lte, and, or, not, contains, matches
    // Strings.
    case trim, upper, lower, capitalize, capitalizeFirst, replace, substring, abbreviate, split, join, size, length
    case stripes, isOdd, isEven, defaultIfEmpty, `default`, center, ljust, rjust, cut, yesno, slugify, stripTags
    case regexExtract, wordWrap
    // Numbers and lists.
    case math, range, array, arrayAdd, arrayRemove, arrayJoin, numberFormat
    // JSON.
    case jsonPath, parseJson, toJson, formatJson, jsonMerge, jsonArrayAdd, jsonRemove
    // Encodings and forms.
    case base64, urlEncode, formData
    // Variables.
    case val, assign
    // Dates.
    case now, date, parseDate, dateFormat, truncateDate
    // Random values.
    case randomValue, randomInt, randomDecimal, pickRandom
    // The system.
    case hostname, systemValue
    // XML.
    case xPath, soapXPath

    /// The helper a name calls (`maths` is `math`).
    init?(name: String) {
        if name == "maths" { self = .math; return }
        self.init(rawValue: name)
    }

    /// How a helper takes a block.
    enum BlockUse: Sendable, Equatable {
        /// A value; as a block, the value decides like a path would (`{{#x}}…{{/x}}`).
        case value
        /// Only as a block: `{{#each …}}…{{/each}}`.
        case blockOnly
        /// A yes or no: as a block, the body or the `{{else}}` part.
        case condition
        /// As a block, the rendered body is an argument: the first (`{{#trim}} x {{/trim}}`) or the last
        /// (`{{#assign 'name'}}value{{/assign}}`).
        case content(first: Bool)
    }

    struct Spec: Sendable {
        let params: ClosedRange<Int>
        let hash: Set<String>
        let block: BlockUse
        /// How it is written, for messages.
        let usage: String
    }

    static let many = Int.max

    var spec: Spec {
        switch self {
        case .if: Spec(params: 1...1, hash: ["includeZero"], block: .blockOnly, usage: "{{#if request.query.full}}…{{else}}…{{/if}}")
        case .unless: Spec(params: 1...1, hash: ["includeZero"], block: .blockOnly, usage: "{{#unless request.query.full}}…{{/unless}}")
        case .each: Spec(params: 1...1, hash: [], block: .blockOnly, usage: "{{#each (jsonPath request.body '$.items') as |item|}}{{item.name}}{{/each}}")
        case .with: Spec(params: 1...1, hash: [], block: .blockOnly, usage: "{{#with request.headers}}{{X-Id}}{{/with}}")
        case .lookup: Spec(params: 2...2, hash: [], block: .value, usage: "{{lookup request.query 'ids[]'}}")
        case .log: Spec(params: 0...Self.many, hash: ["level"], block: .value, usage: "{{log 'text'}}")
        case .eq, .neq, .gt, .gte, .lt, .lte:
            Spec(params: 2...2, hash: ["yes", "no"], block: .condition, usage: "{{#\(rawValue) request.query.n.[0] '5'}}…{{else}}…{{/\(rawValue)}}")
        case .and, .or: Spec(params: 1...Self.many, hash: ["yes", "no"], block: .condition, usage: "{{#if (\(rawValue) a b)}}…{{/if}}")
        case .not: Spec(params: 1...1, hash: ["yes", "no"], block: .condition, usage: "{{#if (not a)}}…{{/if}}")
        case .contains: Spec(params: 2...2, hash: [], block: .condition, usage: "{{#if (contains request.body 'abc')}}…{{/if}}")
        case .matches: Spec(params: 2...2, hash: [], block: .condition, usage: "{{#if (matches request.query.id.[0] '[0-9]+')}}…{{/if}}")
        case .trim: Spec(params: 1...1, hash: [], block: .content(first: true), usage: "{{trim request.headers.X-Padded}}")
        case .upper, .lower, .capitalizeFirst, .slugify, .stripTags, .toJson:
            Spec(params: 1...1, hash: [], block: .content(first: true), usage: "{{\(rawValue) request.query.name}}")
        case .capitalize: Spec(params: 1...1, hash: ["fully"], block: .content(first: true), usage: "{{capitalize request.query.name}}")
        case .replace: Spec(params: 3...3, hash: [], block: .value, usage: "{{replace request.path '/' '-'}}")
        case .substring: Spec(params: 2...3, hash: [], block: .value, usage: "{{substring 'abcde' 1 3}}")
        case .abbreviate: Spec(params: 2...2, hash: [], block: .value, usage: "{{abbreviate request.body 20}}")
        case .split: Spec(params: 1...2, hash: [], block: .value, usage: "{{#each (split request.query.ids ',')}}{{this}}{{/each}}")
        case .join: Spec(params: 1...Self.many, hash: ["prefix", "suffix"], block: .value, usage: "{{join 'a' 'b' ', '}} or {{join list ', '}}")
        case .size, .length: Spec(params: 1...1, hash: [], block: .value, usage: "{{\(rawValue) request.query.things}}")
        case .stripes: Spec(params: 3...3, hash: [], block: .value, usage: "{{stripes @index 'even' 'odd'}}")
        case .isOdd, .isEven: Spec(params: 1...2, hash: [], block: .value, usage: "{{\(rawValue) @index '\(self == .isOdd ? "odd" : "even")'}}")
        case .defaultIfEmpty, .default: Spec(params: 2...2, hash: [], block: .value, usage: "{{\(rawValue) request.query.name 'nobody'}}")
        case .center, .ljust, .rjust: Spec(params: 1...1, hash: ["size", "pad"], block: .value, usage: "{{\(rawValue) 'text' size=10 pad='*'}}")
        case .cut: Spec(params: 1...2, hash: [], block: .value, usage: "{{cut 'a, b' ','}}")
        case .yesno: Spec(params: 1...1, hash: ["yes", "no", "maybe"], block: .value, usage: "{{yesno flag yes='on' no='off'}}")
        case .regexExtract: Spec(params: 2...3, hash: ["default"], block: .value, usage: "{{regexExtract request.body '[A-Z]+'}}")
        case .wordWrap: Spec(params: 2...2, hash: [], block: .value, usage: "{{wordWrap request.body 40}}")
        case .numberFormat:
            Spec(params: 1...3, hash: ["maximumFractionDigits", "minimumFractionDigits", "maximumIntegerDigits", "minimumIntegerDigits", "groupingUsed", "parseIntegerOnly", "roundingMode"],
                 block: .value, usage: "{{numberFormat 1234.5 '#,##0.00'}} or {{numberFormat price 'currency' 'de_DE'}}")
        case .math: Spec(params: 3...3, hash: [], block: .value, usage: "{{math 1 '+' 2}} (with '+', '-', '*', '/' or '%')")
        case .range: Spec(params: 2...2, hash: [], block: .value, usage: "{{#each (range 1 5)}}{{this}}{{/each}}")
        case .array: Spec(params: 0...Self.many, hash: [], block: .value, usage: "{{array 1 'two' true}}")
        case .arrayAdd: Spec(params: 2...2, hash: ["position"], block: .value, usage: "{{arrayAdd (array 1 3) 2 position=1}}")
        case .arrayRemove: Spec(params: 1...1, hash: ["position"], block: .value, usage: "{{arrayRemove (array 1 2) position='start'}}")
        case .arrayJoin: Spec(params: 1...Self.many, hash: ["prefix", "suffix"], block: .value, usage: "{{arrayJoin ',' (array 'a' 'b')}}")
        case .jsonPath: Spec(params: 2...2, hash: ["default"], block: .value, usage: "{{jsonPath request.body '$.user.name'}}")
        case .parseJson: Spec(params: 1...2, hash: [], block: .content(first: true), usage: "{{parseJson request.body 'body'}}{{body.name}}")
        case .formatJson: Spec(params: 1...1, hash: ["format"], block: .content(first: true), usage: "{{formatJson request.body format='pretty'}}")
        case .jsonMerge: Spec(params: 2...2, hash: ["removeNulls"], block: .content(first: false), usage: "{{jsonMerge first second}}")
        case .jsonArrayAdd: Spec(params: 2...2, hash: ["maxItems", "flatten"], block: .content(first: false), usage: "{{jsonArrayAdd list item}}")
        case .jsonRemove: Spec(params: 2...2, hash: [], block: .value, usage: "{{jsonRemove request.body '$.secret'}}")
        case .base64: Spec(params: 1...1, hash: ["decode", "padding"], block: .content(first: true), usage: "{{base64 request.headers.X-Plain}} or {{base64 text decode=true}}")
        case .urlEncode: Spec(params: 1...1, hash: ["decode", "encoding"], block: .content(first: true), usage: "{{urlEncode request.query.q}} or {{urlEncode text decode=true}}")
        case .formData: Spec(params: 1...2, hash: ["urlDecode", "encoding"], block: .value, usage: "{{formData request.body 'form' urlDecode=true}}{{form.name}}")
        case .val: Spec(params: 1...1, hash: ["or", "default", "assign"], block: .value, usage: "{{val request.query.q or='none'}}")
        case .assign: Spec(params: 2...2, hash: [], block: .content(first: false), usage: "{{#assign 'name'}}value{{/assign}}{{name}}")
        case .now: Spec(params: 0...0, hash: ["offset", "timezone", "format"], block: .value, usage: "{{now offset='3 days' format='yyyy-MM-dd'}}")
        case .date: Spec(params: 1...1, hash: ["offset", "timezone", "format"], block: .value, usage: "{{date (parseDate request.headers.Date) offset='-1 days'}}")
        case .parseDate: Spec(params: 1...1, hash: ["format"], block: .value, usage: "{{parseDate '10/11/2021' format='dd/MM/yyyy'}}")
        case .dateFormat: Spec(params: 1...2, hash: ["format"], block: .value, usage: "{{dateFormat (parseDate request.headers.Date) 'yyyy-MM-dd'}}")
        case .truncateDate: Spec(params: 2...2, hash: [], block: .value, usage: "{{truncateDate (now) 'first day of month'}}")
        case .randomValue: Spec(params: 0...0, hash: ["length", "type", "uppercase"], block: .value, usage: "{{randomValue length=12 type='ALPHANUMERIC'}}")
        case .randomInt, .randomDecimal: Spec(params: 0...0, hash: ["lower", "upper"], block: .value, usage: "{{\(rawValue) lower=1 upper=10}}")
        case .pickRandom: Spec(params: 1...Self.many, hash: ["count"], block: .value, usage: "{{pickRandom 'a' 'b' 'c'}}")
        case .hostname: Spec(params: 0...0, hash: [], block: .value, usage: "{{hostname}}")
        case .systemValue: Spec(params: 0...0, hash: ["key", "type", "default"], block: .value, usage: "{{systemValue key='HOME' default='none'}}")
        case .xPath, .soapXPath: Spec(params: 2...2, hash: [], block: .value, usage: "{{\(rawValue) request.body '/a/b/text()'}}")
        }
    }

    /// Helpers of WireMock or Handlebars.java this library does not run, and what to do instead.
    static let unsupported: [String: String] = [
        "random": "it needs WireMock's faker extension; use randomValue, randomInt or pickRandom",
        "stringFormat": "build the text with join or arrayJoin",
        "formatXml": "XML helpers arrive with equalToXml",
        "jsonSort": "sort the list in the mapping's data",
        "block": "partials and blocks of other templates are not supported; write the content in place",
        "partial": "partials are not supported; write the content in place",
        "embedded": "partials are not supported; write the content in place",
        "i18n": "write the text itself",
        "i18nJs": "write the text itself",
        "precompile": "write the content in place",
    ]
}
