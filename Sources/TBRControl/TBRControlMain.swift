public import TBRCommandLine
import TBRFoundation

/// The entry point of `tbrctl`: parses a command line against the command tree and runs the command.
///
/// The executable calls ``main(arguments:)``; tests call ``main(arguments:console:)`` with a
/// ``CapturedConsole`` to run a command in-process and read its output.
public enum TBRControlMain {
    /// The tbrctl version, printed by `tbrctl --version`. The one place it is written.
    public static let version = "0.1.0"

    /// The root of the command tree, for tests that parse it.
    public static let rootCommand: any ParsableCommand.Type = RootCommand.self

    /// Mistakes in the command tree, one sentence each: the declaration problems ``CommandTree`` finds,
    /// and leaves that are not runnable tbrctl commands. Empty when sound; the tests check it.
    public static func commandTreeProblems() -> [String] {
        let tree = CommandTree(root: rootCommand)
        let unrunnable = tree.paths.compactMap { path -> String? in
            guard let leaf = path.last, leaf.configuration.subcommands.isEmpty, !(leaf is any ControlCommand.Type)
            else { return nil }
            return "'\(path.map { $0.configuration.name }.joined(separator: " "))' is not a ControlCommand"
        }
        return tree.problems() + unrunnable
    }

    /// Runs the command line `arguments` (without the program name) on the process's console.
    /// - Returns: the exit status: 0 ok, 1 failed, 64 usage, 65 bad data, 69 unavailable, 75 busy or
    ///   timed out, 77 permission denied.
    public static func main(arguments: [String]) async -> Int32 {
        await main(arguments: arguments, console: StandardConsole())
    }

    /// Runs the command line `arguments` (without the program name) on `console`.
    /// - Returns: the exit status: 0 ok, 1 failed, 64 usage, 65 bad data, 69 unavailable, 74 the output
    ///   could not be written, 75 busy or timed out, 77 permission denied.
    public static func main(arguments: [String], console: any Console) async -> Int32 {
        let status = await run(arguments: arguments, console: console)
        // A result that did not reach its reader is not a success (`tbrctl list > /dev/full`).
        if let failure = console.outputFailure {
            console.write("tbrctl: cannot write the output: \(failure)\n", to: .standardError)
            return ExitCode.ioError.rawValue
        }
        return status
    }

    private static func run(arguments: [String], console: any Console) async -> Int32 {
        let command: any ControlCommand
        let values: ParsedValues
        do {
            switch try CommandParser(root: rootCommand).parse(arguments) {
            case .help(let text):
                console.write(text, to: .standardOutput)
                return ExitCode.success.rawValue
            case .version(let line):
                console.write(line + "\n", to: .standardOutput)
                return ExitCode.success.rawValue
            case .command(let parsed, let parsedValues):
                guard let runnable = parsed as? any ControlCommand else {
                    preconditionFailure("\(type(of: parsed)) is a leaf of the tbrctl tree but not a ControlCommand")
                }
                command = runnable
                values = parsedValues
            }
        } catch {
            return report(error, on: console)
        }
        do {
            return try await command.run(in: CommandContext(console: console, values: values)).rawValue
        } catch let error as UsageError {
            var error = error
            if error.commandPath.isEmpty { error.commandPath = values.commandPath }
            return report(error, on: console)
        } catch let error as ControlError {
            // Messages may carry text from elsewhere (tbrd, otbr-agent, the input): never raw control characters.
            console.write("tbrctl: \(Quoted.sanitized(error.message))\n", to: .standardError)
            return error.exitCode.rawValue
        } catch {
            console.write("tbrctl: \(Quoted.sanitized("\(error)"))\n", to: .standardError)
            return ExitCode.failure.rawValue
        }
    }

    private static func report(_ error: UsageError, on console: any Console) -> Int32 {
        console.write("tbrctl: \(Quoted.sanitized(error.message))\n", to: .standardError)
        if let hint = error.helpHint { console.write(hint + "\n", to: .standardError) }
        return ExitCode.usage.rawValue
    }
}
