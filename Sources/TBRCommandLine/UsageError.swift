/// A command line that cannot be run as written: an unknown word, a missing or malformed value, or
/// a combination a command's `validate()` rejects. Tools exit with ``ExitCode/usage`` (64).
///
/// The message is one sentence that names the offending word, without a trailing period, e.g.
/// `unknown option '--frob' for 'tbrctl dataset decode'`.
public struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The sentence shown to the user.
    public var message: String
    /// The command words the error belongs to, e.g. `["tbrctl", "dataset", "decode"]`. The parser fills
    /// it in for errors thrown by a command's initialiser or `validate()`.
    public var commandPath: [String]

    /// An error saying `message`, optionally about the command `commandPath`.
    public init(_ message: String, commandPath: [String] = []) {
        self.message = message
        self.commandPath = commandPath
    }

    public var description: String { message }

    /// Where to read more, e.g. `Run 'tbrctl dataset decode --help' for usage.`; nil without a path.
    public var helpHint: String? {
        commandPath.isEmpty ? nil : "Run '\(commandPath.joined(separator: " ")) --help' for usage."
    }
}
