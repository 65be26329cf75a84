public import DBus

/// One channel's result from `EnergyScan`, `(yy)`: the channel and its maximum RSSI.
public struct EnergyScanResult: Hashable, Sendable {
    /// The channel.
    public var channel: UInt8
    /// dBm. The agent sends an `int8` in a `y`; this is its signed value.
    public var maxRSSI: Int8

    /// A result for `channel`.
    public init(channel: UInt8, maxRSSI: Int8) {
        self.channel = channel
        self.maxRSSI = maxRSSI
    }

    /// The D-Bus type of one result.
    public static let dbusType: SignatureType = .structure([.byte, .byte])

    /// Decodes one `(yy)` struct.
    /// - Throws: ``DBusValueError`` when the value has another shape.
    public init(dbusValue value: DBusValue) throws(DBusValueError) {
        var r = try StructReader(value, fieldCount: 2)
        channel = try r.next(UInt8.self)
        maxRSSI = Int8(bitPattern: try r.next(UInt8.self))
    }

    /// The `(yy)` struct.
    public var dbusValue: DBusValue { .structure([.byte(channel), .byte(UInt8(bitPattern: maxRSSI))]) }
}
