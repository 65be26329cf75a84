#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Writes records to standard error in a journald-friendly form: `<priority>label: message key=value…`,
/// one line per record, written with a single `write(2)` so lines from several threads never interleave.
public struct StandardErrorSink: LogSink {
    /// Whether to prefix `<N>` syslog priorities (journald strips them and sets the priority).
    public var syslogPrefix: Bool

    /// A sink on file descriptor 2.
    public init(syslogPrefix: Bool = true) { self.syslogPrefix = syslogPrefix }

    public func write(_ record: LogRecord) {
        var line = syslogPrefix ? "<\(record.level.syslogPriority)>" : "\(record.level) "
        line += record.label.isEmpty ? record.message : "\(record.label): \(record.message)"
        for (k, v) in record.metadata { line += " \(k)=\(Self.quoted(v))" }
        line += "\n"
        FileDescriptorIO.write(line, to: 2)
    }

    private static func quoted(_ v: String) -> String {
        if v.isEmpty || v.contains(where: { $0 == " " || $0 == "\"" || $0 == "=" || $0.isNewline }) {
            var out = "\""
            for c in v {
                switch c {
                case "\"": out += "\\\""
                case "\n": out += "\\n"
                default: out.append(c)
                }
            }
            return out + "\""
        }
        return v
    }
}
