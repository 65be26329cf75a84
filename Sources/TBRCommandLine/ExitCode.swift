/// A process exit status. The named values follow sysexits(3), which tbrd's tools use throughout.
public struct ExitCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The status handed to `exit(3)`.
    public var rawValue: Int32

    /// The status `rawValue`.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The status `rawValue`.
    public init(_ rawValue: Int32) { self.rawValue = rawValue }

    /// 0: the command did what was asked.
    public static let success = ExitCode(0)
    /// 1: the operation was attempted and failed.
    public static let failure = ExitCode(1)
    /// 64 (`EX_USAGE`): the command line is wrong.
    public static let usage = ExitCode(64)
    /// 65 (`EX_DATAERR`): the input data (a dataset, a key, a payload) is wrong.
    public static let dataError = ExitCode(65)
    /// 69 (`EX_UNAVAILABLE`): a service the command needs cannot be reached.
    public static let unavailable = ExitCode(69)
    /// 74 (`EX_IOERR`): the output could not be written (a full disk, a closed pipe).
    public static let ioError = ExitCode(74)
    /// 75 (`EX_TEMPFAIL`): busy; trying again later may work.
    public static let temporaryFailure = ExitCode(75)
    /// 77 (`EX_NOPERM`): the caller is not allowed to do this.
    public static let permissionDenied = ExitCode(77)

    public var description: String { String(rawValue) }
}
