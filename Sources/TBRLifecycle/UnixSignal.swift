#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A Unix signal number, with names for the signals a daemon handles.
public struct UnixSignal: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The signal number (`SIGTERM` is 15 on Linux).
    public let rawValue: Int32
    /// The signal `rawValue`.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// `SIGTERM`: stop (systemd's stop, `kill`).
    public static let sigterm = UnixSignal(rawValue: SIGTERM)
    /// `SIGINT`: interrupt (Ctrl-C in a terminal).
    public static let sigint = UnixSignal(rawValue: SIGINT)
    /// `SIGHUP`: by convention for daemons, reload the configuration.
    public static let sighup = UnixSignal(rawValue: SIGHUP)
    /// `SIGQUIT`: quit.
    public static let sigquit = UnixSignal(rawValue: SIGQUIT)
    /// `SIGUSR1`: user-defined.
    public static let sigusr1 = UnixSignal(rawValue: SIGUSR1)
    /// `SIGUSR2`: user-defined.
    public static let sigusr2 = UnixSignal(rawValue: SIGUSR2)

    /// The signal's name, e.g. `SIGTERM`.
    public var description: String {
        switch self {
        case .sigterm: "SIGTERM"
        case .sigint: "SIGINT"
        case .sighup: "SIGHUP"
        case .sigquit: "SIGQUIT"
        case .sigusr1: "SIGUSR1"
        case .sigusr2: "SIGUSR2"
        default: "signal \(rawValue)"
        }
    }
}
