/// One component's NAT64 state as otbr-agent reports it (`otNat64State` as a string).
public enum Nat64ComponentState: Hashable, Sendable, CustomStringConvertible {
    /// NAT64 is off.
    case disabled
    /// NAT64 is on but not running (for example, not attached, or no infrastructure link).
    case notRunning
    /// Running, but not needed or not selected (for example, another border router provides it).
    case idle
    /// Running and in use.
    case active
    /// A string this client does not know, kept as sent.
    case other(String)

    /// The state a wire string names.
    public init(wireName: String) {
        switch wireName {
        case "disabled": self = .disabled
        case "not_running": self = .notRunning
        case "idle": self = .idle
        case "active": self = .active
        default: self = .other(wireName)
        }
    }

    /// The string on the wire.
    public var wireName: String {
        switch self {
        case .disabled: "disabled"
        case .notRunning: "not_running"
        case .idle: "idle"
        case .active: "active"
        case .other(let s): s
        }
    }

    public var description: String { wireName }
}

/// otbr-agent's `Nat64State` property, `(ss)`: the prefix manager's and the translator's states.
public struct Nat64State: Hashable, Sendable, CustomStringConvertible {
    /// The NAT64 prefix manager (publishes the NAT64 prefix in the network data).
    public var prefixManager: Nat64ComponentState
    /// The translator.
    public var translator: Nat64ComponentState

    /// A state of both components.
    public init(prefixManager: Nat64ComponentState, translator: Nat64ComponentState) {
        self.prefixManager = prefixManager
        self.translator = translator
    }

    /// Both components off, as on a factory-new agent.
    public static let disabled = Nat64State(prefixManager: .disabled, translator: .disabled)

    /// True unless both components are disabled.
    public var isEnabled: Bool { prefixManager != .disabled || translator != .disabled }

    /// "(idle, not_running)".
    public var description: String { "(\(prefixManager), \(translator))" }
}
