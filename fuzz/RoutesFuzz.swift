// libFuzzer target for the host network readers (fuzz/run.sh routes SECONDS): /proc/net/ipv6_route
// text, sysctl values and IPv6 prefix text.
//
// Oracles, beyond "never crash": an error names a line of the input; the routes written back in the
// kernel's format read back the same; the routes to a prefix contain it, are never reject or default
// routes, and come most specific first; a prefix's canonical text reads back as the same prefix.
import HostNetwork
import TBRFoundation

@_cdecl("LLVMFuzzerTestOneInput")
public func routesFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let text = String(decoding: bytes, as: UTF8.self)

    do {
        let routes = try IPv6RouteTable.parse(text)
        if (try? IPv6RouteTable.parse(IPv6RouteTable.format(routes))) != routes { fatalError("format round trip changed the routes") }
        for route in routes.prefix(16) {
            _ = route.description
            let found = IPv6RouteTable.routes(to: route.destination, in: routes)
            for leading in found where !leading.destination.contains(route.destination) || leading.isDefault
                || leading.flags.contains(.reject)
            {
                fatalError("\(leading) does not lead to \(route.destination)")
            }
            let lengths = found.map(\.destination.length)
            if lengths != lengths.sorted(by: >) { fatalError("routes not most specific first") }
        }
    } catch {
        let lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).count
        guard let line = error.line, (1...lines).contains(line), error.file == nil else {
            fatalError("an error that names no line of the input: \(error)")
        }
        _ = error.description
    }

    if let prefix = IPv6Prefix(text) {
        if IPv6Prefix(prefix.description) != prefix { fatalError("\(prefix) does not read back") }
        if !prefix.contains(prefix) { fatalError("\(prefix) does not contain itself") }
    }

    // The same bytes as each sysctl value.
    for name in InterfaceIPv6Settings.fileNames {
        var files = ["accept_ra": "1\n", "forwarding": "0\n"]
        files[name] = text
        if let settings = try? InterfaceIPv6Settings.parse(files: files), settings.acceptsOMRRoutes, !settings.learnsRoutesFromRA {
            fatalError("OMR routes accepted from ignored RAs")
        }
    }
    return 0
}
