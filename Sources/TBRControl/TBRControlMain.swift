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

    /// What a command line comes to before anything runs: an exit status already (help, the version, a
    /// usage error: all answered on the calling thread, so they start no concurrency threads), or a
    /// command to run.
    public enum Prepared: Sendable {
        /// Done: the exit status.
        case exit(Int32)
        /// A command to run with ``run(_:console:)``.
        case run(Runnable)
    }

    /// A parsed command, ready to run.
    public struct Runnable: Sendable {
        let command: any ControlCommand
        let values: ParsedValues
    }

    /// Parses `arguments` (without the program name) synchronously, answering what needs no command.
    public static func prepare(arguments: [String], console: any Console) -> Prepared {
        let prepared: Prepared
        do {
            switch try CommandParser(root: rootCommand).parse(arguments) {
            case .help(let text), .generated(let text):
                console.write(text, to: .standardOutput)
                prepared = .exit(ExitCode.success.rawValue)
            case .version(let line):
                console.write(line + "\n", to: .standardOutput)
                prepared = .exit(ExitCode.success.rawValue)
            case .command(let parsed, let values):
                guard let runnable = parsed as? any ControlCommand else {
                    preconditionFailure("\(type(of: parsed)) is a leaf of the tbrctl tree but not a ControlCommand")
                }
                return .run(Runnable(command: runnable, values: values))
            }
        } catch {
            prepared = .exit(report(error, on: console))
        }
        guard case .exit(let status) = prepared else { return prepared }
        return .exit(finish(status, on: console))
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
        switch prepare(arguments: arguments, console: console) {
        case .exit(let status): status
        case .run(let runnable): await run(runnable, console: console)
        }
    }

    /// Runs a prepared command on `console`.
    /// - Returns: the exit status, as ``main(arguments:console:)`` gives it.
    public static func run(_ runnable: Runnable, console: any Console) async -> Int32 {
        finish(await execute(runnable, console: console), on: console)
    }

    /// Runs a prepared command on the calling thread with blocking I/O, when its command can and the
    /// situation allows (`epskc activate` and `epskc deactivate` through tbrd, see
    /// ``BlockingControlCommand``): no concurrency thread and no Dispatch queue start. The executable
    /// tries it before ``run(_:console:)``; ``main(arguments:console:)`` does not (it is already async).
    /// - Returns: the exit status, as ``run(_:console:)`` gives it; nil when the command must run with
    ///   ``run(_:console:)`` (nothing was done and nothing written).
    public static func runBlocking(_ runnable: Runnable, console: any Console) -> Int32? {
        guard let command = runnable.command as? any BlockingControlCommand else { return nil }
        let status: Int32
        do {
            guard let exit = try command.runBlocking(in: CommandContext(console: console, values: runnable.values)) else {
                return nil
            }
            status = exit.rawValue
        } catch {
            status = report(error, of: runnable, on: console)
        }
        return finish(status, on: console)
    }

    /// A result that did not reach its reader is not a success (`tbrctl list > /dev/full`).
    private static func finish(_ status: Int32, on console: any Console) -> Int32 {
        if let failure = console.outputFailure {
            console.write("tbrctl: cannot write the output: \(failure)\n", to: .standardError)
            return ExitCode.ioError.rawValue
        }
        return status
    }

    private static func execute(_ runnable: Runnable, console: any Console) async -> Int32 {
        do {
            return try await runnable.command.run(in: CommandContext(console: console, values: runnable.values)).rawValue
        } catch {
            return report(error, of: runnable, on: console)
        }
    }

    /// Writes what `error`, thrown by the command of `runnable`, says and returns its exit status.
    private static func report(_ error: any Error, of runnable: Runnable, on console: any Console) -> Int32 {
        switch error {
        case var error as UsageError:
            if error.commandPath.isEmpty { error.commandPath = runnable.values.commandPath }
            return report(error, on: console)
        case let error as ControlError:
            // Messages may carry text from elsewhere (tbrd, otbr-agent, the input): never raw control characters.
            console.write("tbrctl: \(Quoted.sanitized(error.message))\n", to: .standardError)
            return error.exitCode.rawValue
        default:
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
