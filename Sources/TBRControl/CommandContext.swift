import DBus
import FoundationEssentials
import MeshCoP
import TBRCommandLine
import TBRFoundation

/// What a running command works with: the console and tbrctl's global options.
struct CommandContext: Sendable {
    /// Where output goes and input comes from.
    let console: any Console
    /// `--json`: print JSON for scripts instead of text for people.
    let json: Bool
    /// `--bus`: where tbrd and otbr-agent are.
    let bus: Bus
    /// Where the command's own waits (`--timeout`, polls) are timed.
    let clock: any TBRClock

    /// The context for a command parsed into `values`, talking to `console`, timing its waits on `clock`.
    init(console: any Console, values: ParsedValues, clock: any TBRClock = SystemClock()) {
        self.console = console
        self.clock = clock
        self.json = values.flag(ArgumentSpec.json.name)
        self.bus = Bus(argument: values.string(ArgumentSpec.bus.name) ?? "system")
    }

    /// Writes `line` and a newline to standard output.
    func write(_ line: String) {
        console.write(line.hasSuffix("\n") ? line : line + "\n", to: .standardOutput)
    }

    /// Writes `line` and a newline to standard error, prefixed `tbrctl: ` (notes that are not errors).
    func note(_ line: String) {
        console.write("tbrctl: \(line)\n", to: .standardError)
    }

    /// Writes `value` as one line of compact JSON (JSON Lines, keys sorted) to standard output; the
    /// console writes it at once, so a script reading a pipe sees the line as it happens.
    /// - Throws: an `EncodingError` from the value's encoder.
    func writeJSONLine(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        write(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    /// Writes `value` to standard output as JSON: sorted keys, camelCase names, secrets redacted unless
    /// `revealSecrets` (see MeshCoP's `Secrets`).
    /// - Throws: an `EncodingError` from the value's encoder.
    func writeJSON(_ value: some Encodable, revealSecrets: Bool = false) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        encoder.userInfo[.revealSecrets] = revealSecrets
        write(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    /// The most hex input read for a dataset: far above its largest valid form (254 bytes are 508 hex
    /// digits; spaces and line breaks between them allowed), far below what could hurt.
    static let hexInputLimit = 4096

    /// The sentence for input longer than any valid `what`.
    static func tooLong(_ what: String, source: String) -> String {
        "\(source) holds more than \(hexInputLimit) bytes: too long for \(what) (a dataset is at most 254 bytes, 508 hex digits)"
    }

    /// The bytes of a hex argument, or of the hex on standard input when the argument is `-`.
    /// - Parameters:
    ///   - word: the argument as given.
    ///   - what: what the bytes are, for messages, e.g. "the dataset".
    /// - Throws: ``ControlError`` (65) when the text is not hex or standard input is empty or unreadable.
    func bytes(fromHexArgument word: String, describing what: String) throws(ControlError) -> [UInt8] {
        var text = word
        if word == "-" {
            do {
                text = String(decoding: try console.readStandardInput(limit: Self.hexInputLimit), as: UTF8.self)
            } catch is FileDescriptorIO.InputTooLong {
                throw .dataError(Self.tooLong(what, source: "standard input"))
            } catch {
                throw .failure("cannot read \(what) from standard input: \(error)")
            }
            guard text.contains(where: { !$0.isWhitespace }) else {
                throw .dataError("standard input is empty; expected \(what) as hex")
            }
        }
        do {
            return try Hex.decode(text)
        } catch {
            throw .dataError("\(what) is not hex: \(error)")
        }
    }
}
