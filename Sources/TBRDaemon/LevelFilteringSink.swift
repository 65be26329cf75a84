import Synchronization
import TBRFoundation

/// Writes records at or above a level that can change while tbrd runs (SIGHUP re-reads `log-level`).
final class LevelFilteringSink: LogSink {
    private let level: Atomic<Int>
    private let base: any LogSink

    init(level: LogLevel, base: any LogSink) {
        self.level = Atomic(level.rawValue)
        self.base = base
    }

    /// The level records must reach to be written.
    var minimumLevel: LogLevel {
        get { LogLevel(rawValue: level.load(ordering: .relaxed)) ?? .info }
        set { level.store(newValue.rawValue, ordering: .relaxed) }
    }

    func write(_ record: LogRecord) {
        guard record.level.rawValue >= level.load(ordering: .relaxed) else { return }
        base.write(record)
    }
}
