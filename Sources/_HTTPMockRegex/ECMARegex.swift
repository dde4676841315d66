/// Regular expressions written for ECMA-262 (JSON Schema's `pattern` and `patternProperties`, and so OpenAPI's),
/// rewritten so that ICU, which runs `NSRegularExpression`, finds what ECMA-262 finds.
///
/// The dialects share their syntax; ICU reads some of it otherwise:
/// - `\d` and `\w` are ASCII in ECMA-262 (`\d` is `[0-9]`, so a Bengali digit is none; `\w` no accented letter),
///   and so is a word boundary, `\b`; in a class, `\b` is a backspace;
/// - `\s` is ECMA-262's white space and line terminators, the byte order mark among them;
/// - `.` is any character but `\n`, `\r`, U+2028 and U+2029 (ICU also leaves out U+000B, U+000C and U+0085);
/// - `$`, without the multiline flag (which a schema cannot give), is the end of the text (ICU's is met before a
///   final line break too);
/// - `[]` matches nothing and `[^]` any character; `[` and `&` inside a class are its characters.
package enum ECMARegex {
    private static let word = "a-zA-Z0-9_"
    private static let space = "\\t\\n\\x{0B}\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}"
    private static let classes: [Unicode.Scalar: String] = ["d": "0-9", "w": word, "s": space]

    /// `pattern`, read as ECMA-262 reads it, in ICU's dialect.
    package static func icu(_ pattern: String) -> String {
        let input = Array(pattern.unicodeScalars)
        var output = String.UnicodeScalarView()
        func emit(_ text: String) { output.append(contentsOf: text.unicodeScalars) }
        var index = 0
        var inClass = false
        while index < input.count {
            let scalar = input[index]
            switch scalar {
            case "\\":
                guard index + 1 < input.count else {
                    output.append(scalar)
                    index += 1
                    continue
                }
                let letter = input[index + 1]
                let lower = letter.isASCII ? Unicode.Scalar(UInt8(letter.value) | 0x20) : letter
                if let body = classes[lower], letter == lower || letter == Unicode.Scalar(UInt8(lower.value) & ~0x20) {
                    let negated = letter != lower
                    emit(negated ? "[^" + body + "]" : inClass ? body : "[" + body + "]")
                    index += 2
                } else if letter == "b" || letter == "B" {
                    if inClass {
                        emit("\\x{08}")
                    } else {
                        let boundary = "(?<=[\(word)])(?![\(word)])|(?<![\(word)])(?=[\(word)])"
                        emit(letter == "b" ? "(?:" + boundary + ")" : "(?!" + boundary + ")")
                    }
                    index += 2
                } else {
                    // Any other escape, with what it takes (`\p{…}`, `\u{…}`, `\k<…>`): copied as written.
                    var end = index + 2
                    if end < input.count, "pPuk".unicodeScalars.contains(letter), input[end] == "{" || input[end] == "<" {
                        let close: Unicode.Scalar = input[end] == "{" ? "}" : ">"
                        while end < input.count, input[end] != close { end += 1 }
                        end = min(end + 1, input.count)
                    }
                    output.append(contentsOf: input[index..<end])
                    index = end
                }
                continue
            case "[" where !inClass:
                // `[]` matches nothing and `[^]` any character in ECMA-262; ICU refuses both.
                if index + 1 < input.count, input[index + 1] == "]" {
                    emit("(?!)")
                    index += 2
                    continue
                }
                if index + 2 < input.count, input[index + 1] == "^", input[index + 2] == "]" {
                    emit("[\\s\\S]")
                    index += 3
                    continue
                }
                inClass = true
            case "[" where inClass, "&" where inClass:
                // Characters of the class in ECMA-262; ICU would open a nested set or an intersection.
                emit("\\")
            case "]" where inClass:
                inClass = false
            case "." where !inClass:
                emit("[^\\n\\r\\x{2028}\\x{2029}]")
                index += 1
                continue
            case "$" where !inClass:
                emit("\\z")
                index += 1
                continue
            default:
                break
            }
            output.append(scalar)
            index += 1
        }
        return String(output)
    }
}
