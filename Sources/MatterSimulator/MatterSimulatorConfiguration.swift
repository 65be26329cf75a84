/// What one matter-sim simulates and how fast it moves (`matter-sim`'s command line).
public struct MatterSimulatorConfiguration: Sendable {
    /// The address the WebSocket API listens on (`--listen-address`).
    public var listenAddress = "127.0.0.1"
    /// The TCP port (`--port`; 0: a free one, printed on the ready line).
    public var port: UInt16 = 5580
    /// The devices it can find (`--device`); empty: any valid payload is a device that is there and
    /// accepts its passcode.
    public var devices: [SimulatedDevice] = []
    /// How long a step of a device's work takes unless the device says otherwise (`--step-ms`).
    public var step: Duration = .milliseconds(100)
    /// The schema version it announces (`--schema-version`; python-matter-server 8.1.2 announces 11).
    public var schemaVersion: Int64 = 11
    /// The oldest client schema it supports (python-matter-server 8.1.2: 9).
    public var minimumSchemaVersion: Int64 = 9
    /// The Matter SDK version it announces (python-matter-server 8.1.2 carries the CHIP SDK 2025.7.0).
    public var sdkVersion = "2025.7.0"
    /// The fabric ID (the real server's `--fabricid`, 1 by default).
    public var fabricID: UInt64 = 1
    /// The compressed fabric ID (the real server derives it from its root key; a fresh random one here).
    public var compressedFabricID: UInt64 = UInt64.random(in: 1...UInt64.max)
    /// Whether the server has a Bluetooth adapter (`--bluetooth`, the real server's
    /// `--bluetooth-adapter`): BLE commissioning works, and `bluetooth_enabled` is true.
    public var bluetooth = false
    /// Log at debug level (`--verbose`).
    public var verbose = false

    /// The defaults above.
    public init() {}

    /// The step of `device`: its own delay, else ``step``.
    func step(of device: SimulatedDevice) -> Duration { device.stepDelay ?? step }
}
