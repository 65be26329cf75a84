public import OpenThreadBR

/// The build options the `Capabilities` property reports, which the simulator can change at run time.
public struct SimulatedCapabilities: Hashable, Sendable {
    /// Built with NAT64 (`OTBR_ENABLE_NAT64`). Without it `SetNat64Enabled` and the `Nat64*` properties
    /// answer `NotImplemented`.
    public var nat64: Bool
    /// Built with DHCPv6-PD (`OTBR_ENABLE_DHCP6_PD`). Without it `Dhcp6PdState` is never signalled.
    public var dhcp6PD: Bool

    /// NAT64 but no DHCPv6-PD, as observed (`Capabilities` = `08 01 10 00`).
    public init(nat64: Bool = true, dhcp6PD: Bool = false) {
        self.nat64 = nat64
        self.dhcp6PD = dhcp6PD
    }

    /// The `Capabilities` message.
    public var message: Capabilities { Capabilities(nat64: nat64, dhcp6PD: dhcp6PD) }
}
