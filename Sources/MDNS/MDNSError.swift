internal import CAvahiClient

/// Why an mDNS operation failed, as one sentence with Avahi's own error text.
public struct MDNSError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure.
    public enum Kind: Hashable, Sendable {
        /// avahi-daemon is not on the system bus (`AVAHI_ERR_NO_DAEMON`).
        case daemonNotRunning
        /// The system bus itself cannot be reached (`AVAHI_ERR_DBUS_ERROR` and friends).
        case busUnreachable
        /// A name, type or record Avahi refused (`AVAHI_ERR_INVALID_*`).
        case invalidArgument
        /// Anything else Avahi reported.
        case failed
    }

    /// What kind of failure.
    public var kind: Kind
    /// Avahi's error code (`AVAHI_ERR_*`, negative), 0 when the error is not Avahi's.
    public var code: Int32
    /// The sentence.
    public var message: String

    /// An error of `kind` saying `message`.
    public init(_ kind: Kind, code: Int32 = 0, _ message: String) {
        self.kind = kind
        self.code = code
        self.message = message
    }

    public var description: String { message }

    /// libavahi-client itself cannot be loaded.
    static func library(_ message: String) -> MDNSError { MDNSError(.failed, message) }

    /// The sentence for avahi-daemon not running.
    static let daemonNotRunningMessage =
        "avahi-daemon is not running (nothing owns org.freedesktop.Avahi on the system bus); start it with 'systemctl start avahi-daemon'"

    /// The error for Avahi code `code` while doing `context` ("cannot browse _meshcop._udp").
    static func avahi(_ code: Int32, _ context: String) -> MDNSError {
        let text = Avahi.c.avahi_strerror(code).map { String(cString: $0) } ?? "error \(code)"
        let kind: Kind =
            switch Int(code) {
            case AVAHI_ERR_NO_DAEMON: .daemonNotRunning
            case AVAHI_ERR_DBUS_ERROR, AVAHI_ERR_DISCONNECTED, AVAHI_ERR_ACCESS_DENIED: .busUnreachable
            case AVAHI_ERR_INVALID_SERVICE_NAME, AVAHI_ERR_INVALID_SERVICE_TYPE,
                AVAHI_ERR_INVALID_PORT, AVAHI_ERR_INVALID_RECORD, AVAHI_ERR_INVALID_DOMAIN_NAME:
                .invalidArgument
            default: .failed
            }
        switch kind {
        case .daemonNotRunning:
            return MDNSError(kind, code: code, daemonNotRunningMessage)
        case .busUnreachable:
            return MDNSError(kind, code: code, "\(context): cannot reach avahi-daemon over the system bus (Avahi: \(text))")
        case .invalidArgument, .failed:
            return MDNSError(kind, code: code, "\(context): \(text)")
        }
    }
}
