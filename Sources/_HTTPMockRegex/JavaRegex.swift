/// Regular expressions written for Java's `java.util.regex` (the dialect of WireMock's `matches`, `urlPattern`
/// and template helpers, of Jayway JsonPath's `=~` and of XMLUnit's placeholders), rewritten so that ICU, which runs
/// `NSRegularExpression`, finds what Java finds.
///
/// The two dialects share their syntax but not all of its meaning. Java reads these in ASCII unless the
/// expression asks for Unicode with `(?U)`; ICU reads them in Unicode:
/// - `\d`, `\w`, `\s` and their negations (`\d` is `[0-9]`, so an Arabic-Indic `٣` is no digit; `\s` is not a
///   no-break space; `\w` is no letter with an accent);
/// - the POSIX classes `\p{Alpha}`, `\p{Digit}`, `\p{Alnum}`, `\p{Punct}`, `\p{Upper}`, `\p{Lower}`, … (ICU: any
///   alphabetic character).
///
/// And more:
/// - `(?i)` without `u` ignores the case of ASCII letters only (`(?i)é` is not met by `É`, `(?i)k` not by the
///   Kelvin sign; a class that holds ASCII letters, such as `[a-z]`, keeps ICU's reading, which the Kelvin sign and
///   the long s also meet); `(?u)` and `(?U)` ask for Unicode, which ICU does anyway, and ICU does not know the letters;
/// - `[[:alpha:]]` is, for Java, a class of the characters `:alph`, not ICU's POSIX class.
///
/// The rest ICU reads as Java does, down to `(?d)` and `\p{javaLowerCase}`; what it cannot read it refuses, so a
/// mapping that holds it gets an error when it is loaded, not another meaning.
package enum JavaRegex {
    /// `pattern`, read as Java reads it, in ICU's dialect.
    package static func icu(_ pattern: String) -> String {
        var translator = Translator(Array(pattern.unicodeScalars))
        translator.run()
        return String(translator.output)
    }

    /// The ASCII bodies of Java's classes (without brackets), by escape letter and by POSIX name.
    static let shorthand: [Unicode.Scalar: String] = ["d": "0-9", "w": "a-zA-Z_0-9", "s": "\\x{20}\\t\\n\\x{0B}\\f\\r"]
    static let posix: [String: String] = [
        "Lower": "a-z", "Upper": "A-Z", "ASCII": "\\x{00}-\\x{7F}", "Alpha": "a-zA-Z", "Digit": "0-9", "Alnum": "a-zA-Z0-9",
        "Punct": punctuation, "Graph": "a-zA-Z0-9" + punctuation, "Print": "a-zA-Z0-9\\x{20}" + punctuation, "Blank": "\\x{20}\\t",
        "Cntrl": "\\x{00}-\\x{1F}\\x{7F}", "XDigit": "0-9a-fA-F", "Space": "\\x{20}\\t\\n\\x{0B}\\f\\r",
    ]
    /// `!"#$%&'()*+,-./:;<=>?@[\]^_`{|}~`, each escaped for a class.
    private static let punctuation = "!-/:-@\\[-`{-~"

    /// The flags of Java's that change what the translation writes, as they stand at a place in the expression.
    struct Flags {
        var ignoresCase = false
        var unicodeCase = false
        var unicodeClasses = false
        var comments = false

        /// Case ignored as Java does without `u`: for ASCII letters only.
        var asciiCaseOnly: Bool { ignoresCase && !unicodeCase && !unicodeClasses }
    }

    struct Translator {
        let input: [Unicode.Scalar]
        var index = 0
        var output = String.UnicodeScalarView()
        var flags = Flags()
        /// The flags outside each group open at this place.
        var outer: [Flags] = []

        init(_ input: [Unicode.Scalar]) {
            self.input = input
        }

        func peek(_ offset: Int = 0) -> Unicode.Scalar? {
            index + offset < input.count ? input[index + offset] : nil
        }

        mutating func emit(_ text: String) {
            output.append(contentsOf: text.unicodeScalars)
        }

        mutating func copy(_ count: Int) {
            let end = min(index + count, input.count)
            output.append(contentsOf: input[index..<end])
            index = end
        }

        mutating func run() {
            while let scalar = peek() {
                switch scalar {
                case "\\":
                    emit(escape(inClass: false).text)
                case "[":
                    characterClass()
                case "(":
                    openGroup()
                case ")":
                    copy(1)
                    flags = outer.popLast() ?? flags
                case "#" where flags.comments:
                    // A comment, to the end of the line: nothing in it is syntax, and it is left out (written out,
                    // it would swallow what is written after the expression, such as the `)` that closes it).
                    while let next = peek(), !["\n", "\r", "\u{85}", "\u{2028}", "\u{2029}"].contains(next) { index += 1 }
                default:
                    index += 1
                    literal(scalar)
                }
            }
        }

        /// A character that stands for itself, outside a class.
        mutating func literal(_ scalar: Unicode.Scalar) {
            guard flags.asciiCaseOnly else { return output.append(scalar) }
            if scalar.isASCII {
                // ICU's caseless `k` and `s` are also met by the Kelvin sign and the long s.
                switch scalar {
                case "k", "K": emit("(?-i:[kK])")
                case "s", "S": emit("(?-i:[sS])")
                default: output.append(scalar)
                }
            } else if scalar.properties.changesWhenCaseMapped {
                emit("(?-i:")
                output.append(scalar)
                emit(")")
            } else {
                output.append(scalar)
            }
        }

        /// The escape at `index` (a backslash), translated; `letterLike`: it may stand for an ASCII letter.
        mutating func escape(inClass: Bool) -> (text: String, letterLike: Bool) {
            guard let letter = peek(1) else {
                index += 1
                return ("\\", false)
            }
            let start = index
            func taken(_ count: Int) -> String {
                index = min(start + count, input.count)
                var text = String.UnicodeScalarView()
                text.append(contentsOf: input[start..<index])
                return String(text)
            }
            switch letter {
            case "d", "D", "w", "W", "s", "S":
                let lower = Unicode.Scalar(UInt8(letter.value) | 0x20)
                guard !flags.unicodeClasses, let body = JavaRegex.shorthand[lower] else { return (taken(2), letter == "w" || letter == "W") }
                index += 2
                return (Self.set(body, negated: letter != lower, inClass: inClass), false)
            case "p", "P":
                let name: String
                let length: Int
                if peek(2) == "{" {
                    var end = start + 3
                    while end < input.count, input[end] != "}" { end += 1 }
                    var text = String.UnicodeScalarView()
                    text.append(contentsOf: input[(start + 3)..<min(end, input.count)])
                    name = String(text)
                    length = end + 1 - start
                } else {
                    name = peek(2).map { String($0) } ?? ""
                    length = 3
                }
                guard !flags.unicodeClasses, let body = JavaRegex.posix[name] else { return (taken(length), true) }
                index = min(start + length, input.count)
                return (Self.set(body, negated: letter == "P", inClass: inClass), false)
            case "Q":
                // Quoted to `\E` (or the end): ICU reads `\Q…\E` as Java does.
                var end = start + 2
                while end < input.count, !(input[end] == "\\" && end + 1 < input.count && input[end + 1] == "E") { end += 1 }
                return (taken(min(end + 2, input.count) - start), true)
            case "x", "N", "k", "u", "0", "c":
                // Escapes with an argument (`\x{e9}`, `\x41`, `\N{…}`, `\k<name>`, `\u00e9`, `\0101`, `\cA`).
                var end = start + 2
                if let open = peek(2), open == "{" || open == "<" {
                    let close: Unicode.Scalar = open == "{" ? "}" : ">"
                    while end < input.count, input[end] != close { end += 1 }
                    end += 1
                } else if letter == "c" {
                    end += 1
                } else {
                    // Up to two hex digits after `x`, four after `u`, three octal digits after `0`.
                    let (most, digits): (Int, ClosedRange<UInt32>) = switch letter {
                    case "x": (2, 0x30...0x66)
                    case "u": (4, 0x30...0x66)
                    case "0": (3, 0x30...0x37)
                    default: (0, 0...0)
                    }
                    while end < start + 2 + most, end < input.count, digits.contains(input[end].value),
                          letter == "0" || input[end].properties.isASCIIHexDigit {
                        end += 1
                    }
                }
                return (taken(end - start), true)
            default:
                return (taken(2), letter.properties.isAlphabetic)
            }
        }

        /// A class with this body: bracketed, or (inside a class, where a union is written in place) bare.
        static func set(_ body: String, negated: Bool, inClass: Bool) -> String {
            if negated { return "[^" + body + "]" }
            return inClass ? body : "[" + body + "]"
        }

        /// A character class, from its `[` to its `]`, nested classes within.
        mutating func characterClass() {
            var text = ""
            var depth = 0
            var letters = false
            var caseful = false
            var previous: Unicode.Scalar?
            while let scalar = peek() {
                switch scalar {
                case "\\":
                    let (escaped, letterLike) = escape(inClass: true)
                    text += escaped
                    letters = letters || letterLike
                    previous = nil
                case "[":
                    depth += 1
                    index += 1
                    text += "["
                    if peek() == "^" {
                        index += 1
                        text += "^"
                    }
                    // For Java, a `]` first in a class is one of its characters.
                    if peek() == "]" {
                        index += 1
                        text += "\\]"
                    }
                    // For Java, `[:` opens a class holding `:`; ICU would read `[:alpha:]` as a POSIX class.
                    if peek() == ":" {
                        index += 1
                        text += "\\:"
                    }
                    previous = nil
                case "]":
                    index += 1
                    text += "]"
                    depth -= 1
                    previous = nil
                case "-":
                    index += 1
                    text += "-"
                    // A range: does it span ASCII letters?
                    if let low = previous, let high = peek(), high != "]", high != "[", high != "\\",
                       low.value <= 0x7A, high.value >= 0x41 {
                        letters = true
                    }
                    previous = nil
                default:
                    index += 1
                    text.unicodeScalars.append(scalar)
                    if scalar.isASCII {
                        if scalar.properties.isAlphabetic { letters = true }
                    } else if scalar.properties.changesWhenCaseMapped {
                        caseful = true
                    }
                    previous = scalar
                }
                if depth == 0 { break }
            }
            // Case ignored for ASCII only: a class of other letters is met by themselves alone (one that mixes them
            // with ASCII letters keeps ICU's reading).
            if flags.asciiCaseOnly, caseful, !letters {
                emit("(?-i:" + text + ")")
            } else {
                emit(text)
            }
        }

        /// `(`: a group (its flags restored at its `)`), or flags set to the end of the group around it.
        mutating func openGroup() {
            guard peek(1) == "?" else {
                copy(1)
                outer.append(flags)
                return
            }
            var end = index + 2
            while end < input.count, "idmsuxU-".unicodeScalars.contains(input[end]) { end += 1 }
            if end < input.count, input[end] == ")" || input[end] == ":", end > index + 2 {
                var on = "", off = ""
                var turningOff = false
                var changed = flags
                for letter in input[(index + 2)..<end] {
                    switch letter {
                    case "-": turningOff = true; continue
                    case "i": changed.ignoresCase = !turningOff
                    case "u": changed.unicodeCase = !turningOff
                    case "U": changed.unicodeClasses = !turningOff
                    case "x": changed.comments = !turningOff
                    default: break
                    }
                    // ICU knows neither `u` nor `U`: Unicode is how it reads anyway.
                    if letter == "u" || letter == "U" { continue }
                    if turningOff { off.unicodeScalars.append(letter) } else { on.unicodeScalars.append(letter) }
                }
                let closer = input[end]
                index = end + 1
                let flagText = on + (off.isEmpty ? "" : "-" + off)
                if closer == ":" {
                    emit("(?" + flagText + ":")
                    outer.append(flags)
                } else if !flagText.isEmpty {
                    emit("(?" + flagText + ")")
                }
                flags = changed
                return
            }
            // Another group: `(?:`, `(?=`, `(?!`, `(?<=`, `(?<!`, `(?>`, `(?<name>`.
            if peek(2) == "<", let next = peek(3), next != "=", next != "!" {
                var close = index + 3
                while close < input.count, input[close] != ">" { close += 1 }
                copy(close + 1 - index)
            } else if peek(2) == "<" {
                copy(4)
            } else {
                copy(3)
            }
            outer.append(flags)
        }
    }
}
