extension Duration {
    /// Whole milliseconds, rounded down; nil when negative or beyond `UInt32` (the D-Bus and REST
    /// millisecond arguments of otbr-agent, a pending dataset's Delay Timer).
    public var wholeMilliseconds: UInt32? {
        let (s, atto) = components
        guard s >= 0 else { return nil }
        let ms = s.multipliedReportingOverflow(by: 1000)
        guard !ms.overflow else { return nil }
        return UInt32(exactly: ms.partialValue + atto / 1_000_000_000_000_000)
    }
}
