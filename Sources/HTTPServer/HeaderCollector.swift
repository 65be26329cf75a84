internal import CMicroHTTPD

/// The headers and query of one request, read with libmicrohttpd's iterator on the connection's thread.
final class HeaderCollector {
    var headers: [String: String] = [:]
    /// The query's arguments as sent (``query(_:api:)``).
    var pairs: [String] = []
    /// Bytes of names and values received.
    var size = 0

    /// Every request header of `connection`, by lower-case name, and their size.
    static func collect(_ connection: OpaquePointer, api: LibMicroHTTPD.API) -> (headers: [String: String], size: Int) {
        let collector = HeaderCollector()
        let raw = Unmanaged.passUnretained(collector).toOpaque()
        _ = api.connectionValues(connection, .HEADER_KIND, { cls, _, key, value in
            guard let cls, let key else { return .YES }
            let collector = Unmanaged<HeaderCollector>.fromOpaque(cls).takeUnretainedValue()
            let name = String(cString: key).lowercased(), text = value.map { String(cString: $0) } ?? ""
            collector.size += name.utf8.count + text.utf8.count + 4
            collector.headers[name] = collector.headers[name].map { $0 + ", " + text } ?? text
            return .YES
        }, raw)
        return withExtendedLifetime(collector) { (collector.headers, collector.size) }
    }

    /// The query of `connection`'s request, `name=value` pairs joined by `&` in the order sent.
    /// libmicrohttpd takes the query off the URL it hands over, and splits it into arguments; escapes
    /// are kept (`tbrd_mhd_keep_escapes`), so joining them again gives the query as it was sent.
    static func query(_ connection: OpaquePointer, api: LibMicroHTTPD.API) -> String {
        let collector = HeaderCollector()
        let raw = Unmanaged.passUnretained(collector).toOpaque()
        _ = api.connectionValues(connection, .GET_ARGUMENT_KIND, { cls, _, key, value in
            guard let cls, let key else { return .YES }
            let collector = Unmanaged<HeaderCollector>.fromOpaque(cls).takeUnretainedValue()
            let pair = String(cString: key) + (value.map { "=" + String(cString: $0) } ?? "")
            collector.size += pair.utf8.count + 1
            collector.pairs.append(pair)
            return .YES
        }, raw)
        return withExtendedLifetime(collector) { collector.pairs.joined(separator: "&") }
    }
}
