/// Why tbrd could not start; each is one sentence, and tbrd exits with a sysexits code for it.
public enum DaemonStartError: Error, CustomStringConvertible, Sendable {
    case stateUnusable(String, String)
    case busUnreachable(String, String)
    case nameRefused(String, String)
    case alreadyRunning(String, String)
    /// The HTTPS API cannot serve (its address, why).
    case apiUnusable(String, String)
    /// Automatic backups cannot be made as configured (why).
    case backupUnusable(String)
    /// MQTT is configured but cannot be used (a password file others may read, libmosquitto missing).
    case mqttUnusable(String)

    public var description: String {
        switch self {
        case .stateUnusable(let path, let why): "cannot use the state database \(path): \(why)"
        case .busUnreachable(let bus, let why): "cannot connect to the \(bus) bus: \(why)"
        case .nameRefused(let name, let why): "the bus refused the name \(name): \(why)"
        case .alreadyRunning(let name, let owner): "\(name) is already owned by \(owner); is tbrd already running?"
        case .apiUnusable(let listen, let why): "the HTTPS API cannot serve on \(listen) (http-listen): \(why)"
        case .backupUnusable(let why): "automatic backups cannot be made: \(why)"
        case .mqttUnusable(let why): "MQTT cannot be used: \(why)"
        }
    }

    /// The exit status (sysexits.h).
    public var exitCode: Int32 {
        switch self {
        case .stateUnusable: 73  // EX_CANTCREAT
        case .backupUnusable, .mqttUnusable: 78  // EX_CONFIG
        case .busUnreachable, .nameRefused, .alreadyRunning, .apiUnusable: 69  // EX_UNAVAILABLE
        }
    }
}

/// Why tbrd stopped while it was serving, when it was not asked to.
public enum DaemonStopError: Error, CustomStringConvertible, Sendable {
    /// The connection to the bus closed (dbus-daemon stopped or dropped tbrd).
    case busLost(String)

    public var description: String {
        switch self {
        case .busLost(let why): "lost the connection to the bus: \(why)"
        }
    }

    /// The exit status (sysexits.h): the bus is a service tbrd needs (systemd restarts tbrd).
    public var exitCode: Int32 {
        switch self {
        case .busLost: 69  // EX_UNAVAILABLE
        }
    }
}
