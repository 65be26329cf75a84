import BorderRouterService
import Synchronization
import DBus
import MatterOnboarding
import TBRDBusAPI

/// Turns `CommissioningProgress` signals into lines of `tbrctl matter commission`: maps tbrd's payload
/// ids to the codes' positions (a code's first stages can be signalled before `Commission` has
/// answered its id: they wait here until it has), and knows when every code has ended.
final class LineTracker: Sendable {
    private struct State {
        var positions: [String: Int] = [:]
        var early: [CommissioningProgressSignal] = []
        var finals: [Int: CommissioningLine] = [:]
    }

    private let count: Int
    private let state = Mutex(State())

    init(count: Int) { self.count = count }

    /// tbrd's payload `id` is the code at `position` (from 1).
    func map(_ id: String, to position: Int) {
        state.withLock { $0.positions[id] = position }
    }

    /// The lines `signal` (and any signals waiting for their id) make now.
    func take(_ signal: CommissioningProgressSignal) -> [CommissioningLine] {
        state.withLock { s in
            s.early.append(signal)
            var ready: [CommissioningLine] = []
            var waiting: [CommissioningProgressSignal] = []
            for pending in s.early {
                guard let position = s.positions[pending.payloadId] else {
                    waiting.append(pending)
                    continue
                }
                // A stage this tbrctl does not know (another version's tbrd) makes no line.
                guard let line = Self.line(pending, position: position) else { continue }
                if line.isFinal { s.finals[position] = line }
                ready.append(line)
            }
            s.early = waiting
            return ready
        }
    }

    /// Whether every code has ended.
    var allFinal: Bool { state.withLock { $0.finals.count == count } }

    /// The final line of each code, by position.
    var finals: [CommissioningLine] { state.withLock { s in s.finals.keys.sorted().compactMap { s.finals[$0] } } }

    /// The line of signal `s`, its stage decoded here (nil: not a stage this tbrctl knows).
    static func line(_ s: CommissioningProgressSignal, position: Int) -> CommissioningLine? {
        typealias Key = TBRDBusAPI.Structure.ProgressDetail
        func value<T: DBusRepresentable>(_ key: String, _: T.Type) -> T? { try? s.detail[key]?.decode(as: T.self) }
        guard let stage = CommissioningStage(rawValue: s.stage) else { return nil }
        return CommissioningLine(
            payload: position, stage: stage, time: WallTime(milliseconds: value(Key.time, Int64.self) ?? 0),
            nodeId: value(Key.nodeId, UInt64.self), error: value(Key.error, String.self), failedStage: value(Key.failedStage, String.self).flatMap(CommissioningStage.init(rawValue:)),
            name: value(Key.name, String.self), room: value(Key.room, String.self), warning: value(Key.warning, String.self),
            vendorId: value(Key.vendorId, UInt16.self), productId: value(Key.productId, UInt16.self), extPanId: value(Key.extPanId, String.self))
    }
}
