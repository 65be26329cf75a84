/// Severity of a log record, ordered from most to least verbose.
public enum LogLevel: Int, Sendable, Comparable, CaseIterable, CustomStringConvertible {
    case trace, debug, info, notice, warning, error

    public static func < (a: LogLevel, b: LogLevel) -> Bool { a.rawValue < b.rawValue }

    public var description: String {
        switch self {
        case .trace: "trace"
        case .debug: "debug"
        case .info: "info"
        case .notice: "notice"
        case .warning: "warning"
        case .error: "error"
        }
    }

    /// Parses "trace", "debug", "info", "notice", "warning" or "error".
    public init?(name: String) {
        guard let l = LogLevel.allCases.first(where: { $0.description == name.lowercased() }) else { return nil }
        self = l
    }

    /// The syslog priority journald reads from a `<N>` line prefix.
    public var syslogPriority: Int {
        switch self {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        }
    }
}

/// Where records go. Implementations must be cheap and thread-safe.
public protocol LogSink: Sendable {
    /// Writes one finished record.
    func write(_ record: LogRecord)
}

/// One log record: a constant message plus metadata. Secrets must never be put in either.
public struct LogRecord: Sendable {
    public var level: LogLevel
    public var label: String
    public var message: String
    public var metadata: [(String, String)]
}

/// A small logger passed in to whoever logs (never a global). Messages are constant strings; the
/// variable parts go into metadata.
public struct Logger: Sendable {
    /// The component name, e.g. "dbus" or "epskc".
    public var label: String
    /// Records below this level are dropped before formatting.
    public var minimumLevel: LogLevel
    private let sink: (any LogSink)?

    /// A logger writing records at or above `minimumLevel` to `sink`.
    public init(label: String, minimumLevel: LogLevel = .info, sink: any LogSink) {
        self.label = label
        self.minimumLevel = minimumLevel
        self.sink = sink
    }

    /// A logger that discards everything.
    public static var disabled: Logger { Logger(label: "", minimumLevel: .error, nilSink: ()) }

    private init(label: String, minimumLevel: LogLevel, nilSink: Void) {
        self.label = label
        self.minimumLevel = minimumLevel
        self.sink = nil
    }

    /// The same sink and level under another label.
    public func child(_ label: String) -> Logger {
        var copy = self
        copy.label = label
        return copy
    }

    /// Logs `message` with `metadata` at `level`.
    public func log(_ level: LogLevel, _ message: @autoclosure () -> String, _ metadata: [(String, String)] = []) {
        guard let sink, level >= minimumLevel else { return }
        sink.write(LogRecord(level: level, label: label, message: message(), metadata: metadata))
    }

    public func trace(_ m: @autoclosure () -> String, _ md: [(String, String)] = []) { log(.trace, m(), md) }
    public func debug(_ m: @autoclosure () -> String, _ md: [(String, String)] = []) { log(.debug, m(), md) }
    public func info(_ m: @autoclosure () -> String, _ md: [(String, String)] = []) { log(.info, m(), md) }
    public func notice(_ m: @autoclosure () -> String, _ md: [(String, String)] = []) { log(.notice, m(), md) }
    public func warning(_ m: @autoclosure () -> String, _ md: [(String, String)] = []) { log(.warning, m(), md) }
    public func error(_ m: @autoclosure () -> String, _ md: [(String, String)] = []) { log(.error, m(), md) }
}
