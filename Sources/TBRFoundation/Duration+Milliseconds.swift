extension Duration {
    /// Whole milliseconds, rounded down; nil when negative or beyond `UInt32` (the D-Bus and REST
    /// millisecond arguments of otbr-agent, a pending dataset's Delay Timer).
    public var wholeMilliseconds: UInt32? {
        guard self >= .zero else { return nil }
        return UInt32(exactly: milliseconds())
    }

    /// Milliseconds, rounded down (up with `roundingUp`: a timeout that must not fire early), from 0 for
    /// a negative duration to `Int64.max`: the one conversion for the C and wire APIs that count in
    /// milliseconds (poll(2), libdbus, SQLite, libcurl, mbedTLS's timers, otbr-agent's REST API).
    public func milliseconds(roundingUp: Bool = false) -> Int64 {
        let (s, atto) = components
        guard self > .zero else { return 0 }
        let whole = s.multipliedReportingOverflow(by: 1000)
        guard !whole.overflow else { return .max }
        let perMs: Int64 = 1_000_000_000_000_000
        let extra = atto / perMs + (roundingUp && atto % perMs != 0 ? 1 : 0)
        let sum = whole.partialValue.addingReportingOverflow(extra)
        return sum.overflow ? .max : sum.partialValue
    }
}
