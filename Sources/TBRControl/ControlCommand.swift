import TBRCommandLine

/// A tbrctl command that runs: a ``ParsableCommand`` leaf plus what it does.
///
/// Adding a command is one file with one struct conforming to this protocol, and one line in the
/// `subcommands` of its group (see ``RootCommand``). Commands print through the context, never with
/// `print`, so tests can run them in-process.
protocol ControlCommand: ParsableCommand {
    /// Does the work and says how it went.
    /// - Returns: the exit status; ``ExitCode/success`` unless the command reports a finding such as an
    ///   invalid dataset on standard output.
    /// - Throws: ``ControlError`` (its exit code and sentence are shown), ``UsageError`` (64), or any
    ///   other error, which exits 1.
    func run(in context: CommandContext) async throws -> ExitCode
}
