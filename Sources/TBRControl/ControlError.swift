import TBRCommandLine

/// A command that could not do its work: one sentence for standard error, and the exit status.
struct ControlError: Error, CustomStringConvertible {
    /// The exit status, e.g. ``ExitCode/dataError`` for a malformed dataset.
    var exitCode: ExitCode
    /// What went wrong and where, e.g. `TLV 3 (Network Name) at offset 41: length 17 exceeds 16`.
    var message: String

    /// Bad input data (65): a dataset, key or payload that is not what it should be.
    static func dataError(_ message: String) -> ControlError { ControlError(exitCode: .dataError, message: message) }

    /// The operation failed (1).
    static func failure(_ message: String) -> ControlError { ControlError(exitCode: .failure, message: message) }

    /// A service the command needs (tbrd, otbr-agent, the bus) cannot be reached (69).
    static func unavailable(_ message: String) -> ControlError { ControlError(exitCode: .unavailable, message: message) }

    /// Busy, or a wait that ran out: trying again later may work (75).
    static func temporaryFailure(_ message: String) -> ControlError {
        ControlError(exitCode: .temporaryFailure, message: message)
    }

    var description: String { message }
}
