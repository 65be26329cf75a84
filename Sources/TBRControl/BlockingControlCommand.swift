import TBRCommandLine

/// A ``ControlCommand`` that can also run on the calling thread with blocking I/O, before anything
/// async starts.
///
/// The `tbrctl` executable tries ``runBlocking(in:)`` first (``TBRControlMain/runBlocking(_:console:)``):
/// a command that lives a few milliseconds then starts no concurrency threads and no Dispatch queue,
/// about a millisecond saved per run (docs/performance.md). When it returns nil the command runs
/// ``ControlCommand/run(in:)`` as any other. Both must print the same, exit the same and fail the same;
/// the commands reach that by sharing their formatting and their calls (``RouterCall``,
/// ``BlockingTbrd``), not by copying them.
protocol BlockingControlCommand: ControlCommand {
    /// Does the work on the calling thread when that is possible here, and says how it went.
    /// - Returns: the exit status, as ``ControlCommand/run(in:)`` would return it; nil when this path
    ///   cannot serve the command (tbrd is not on the bus, a router must be looked up): then nothing was
    ///   done and nothing written, and ``ControlCommand/run(in:)`` runs instead.
    /// - Throws: what ``ControlCommand/run(in:)`` would throw for the same outcome.
    func runBlocking(in context: CommandContext) throws -> ExitCode?
}
