/// Why tbrd could not start; each is one sentence, and tbrd exits with a sysexits code for it.
public enum DaemonStartError: Error, CustomStringConvertible, Sendable {
    case stateUnusable(String, String)
    case busUnreachable(String, String)
    case nameRefused(String, String)
    case alreadyRunning(String, String)

    public var description: String {
        switch self {
        case .stateUnusable(let path, let why): "cannot use the state database \(path): \(why)"
        case .busUnreachable(let bus, let why): "cannot connect to the \(bus) bus: \(why)"
        case .nameRefused(let name, let why): "the bus refused the name \(name): \(why)"
        case .alreadyRunning(let name, let owner): "\(name) is already owned by \(owner); is tbrd already running?"
        }
    }

    /// The exit status (sysexits.h).
    public var exitCode: Int32 {
        switch self {
        case .stateUnusable: 73  // EX_CANTCREAT
        case .busUnreachable, .nameRefused, .alreadyRunning: 69  // EX_UNAVAILABLE
        }
    }
}
