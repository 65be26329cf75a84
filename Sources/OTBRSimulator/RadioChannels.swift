/// The radio's channels as the outside world makes them: which the radio supports
/// (`LinkSupportedChannelMask`, and the preferred mask an energy scan covers) and how much energy is
/// heard on each (control methods `SetSupportedChannelMask`, `SetChannelEnergy`).
struct RadioChannels: Sendable, Equatable {
    /// Channels 11–26 of page 0, as a mask.
    static let page0: UInt32 = 0x07FF_F800
    /// What an unset channel reads: a quiet channel near the noise floor.
    static let quiet: Int8 = -100

    var supportedMask: UInt32 = page0
    /// The strongest energy heard per channel (dBm); channels not set read ``quiet``.
    var energy: [UInt8: Int8] = [:]

    /// `EnergyScan`'s answer: one reading per channel of the (preferred = supported) mask, in order.
    func scan() -> [(channel: UInt8, maxRSSI: Int8)] {
        (11...26).filter { supportedMask & (1 << UInt32($0)) != 0 }.map { (UInt8($0), energy[UInt8($0)] ?? Self.quiet) }
    }
}
