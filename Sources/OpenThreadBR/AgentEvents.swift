public import DBus

/// One property in a `PropertiesChanged` signal of `io.openthread.BorderRouter`.
public struct PropertyChange: Hashable, Sendable {
    /// The property, e.g. `DeviceRole`.
    public var name: String
    /// Its new value, variant unwrapped.
    public var value: DBusValue
}

/// Whether an agent's bus name has an owner.
public enum AgentPresence: Hashable, Sendable {
    /// The name is owned by the connection with this unique name.
    case running(owner: String)
    /// Nobody owns the name: the agent is not running (or is restarting).
    case notRunning

    /// True for ``running(owner:)``.
    public var isRunning: Bool { if case .running = self { true } else { false } }
}

/// The agent's `Ready` signal: its object has (re)initialised.
public struct ReadySignal: Hashable, Sendable {
    /// The unique name of the agent instance that sent it.
    public var sender: String
}
