public import OpenThreadBR

/// One value a diagnosis reads from a border router's agent: the value, or why there is none.
public enum Reading<Value: Sendable>: Sendable {
    /// The agent answered.
    case value(Value)
    /// The agent cannot say: its transport or build lacks the value (the sentence says which).
    case unsupported(String)
    /// Reading it failed (the sentence says how).
    case failed(String)

    /// The value, when there is one.
    public var value: Value? {
        if case .value(let v) = self { return v }
        return nil
    }
}

/// What `tbrctl doctor` reads from one border router's agent besides its mesh and dataset.
public struct RouterHealth: Sendable {
    /// `OtRcpVersion`: the radio co-processor's firmware version (empty: no RCP answered).
    public var rcpVersion: Reading<String>
    /// `MultiAilDetected`: the mesh's border routers are on more than one infrastructure link.
    public var multiAilDetected: Reading<Bool>
    /// `CcaFailureRate`: 0xFFFF = 100 % of clear-channel assessments failed.
    public var ccaFailureRate: Reading<UInt16>
    /// `Nat64State`.
    public var nat64: Reading<Nat64State>
    /// `InfraLinkInfo`'s interface name: the LAN the agent routes to.
    public var infraInterface: Reading<String>

    /// Readings as given.
    public init(
        rcpVersion: Reading<String>, multiAilDetected: Reading<Bool>, ccaFailureRate: Reading<UInt16>, nat64: Reading<Nat64State>,
        infraInterface: Reading<String>
    ) {
        self.rcpVersion = rcpVersion
        self.multiAilDetected = multiAilDetected
        self.ccaFailureRate = ccaFailureRate
        self.nat64 = nat64
        self.infraInterface = infraInterface
    }

    /// No reading at all, every one for the same reason: unsupported (an agent reached over REST), or
    /// failed (an agent that did not answer in time).
    public static func none(_ why: String, failed: Bool = false) -> RouterHealth {
        func r<V>() -> Reading<V> { failed ? .failed(why) : .unsupported(why) }
        return RouterHealth(rcpVersion: r(), multiAilDetected: r(), ccaFailureRate: r(), nat64: r(), infraInterface: r())
    }
}
