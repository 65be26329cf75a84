internal import Glibc

/// A C library opened with `dlopen` when a process first needs it, instead of linked: a process that
/// never calls it never maps it (and what it depends on). Opened `RTLD_NOW | RTLD_LOCAL` and never
/// closed, so its function pointers stay valid for the life of the process and may be shared.
///
/// Its users resolve every function they call right after ``open(_:)``, with ``function(_:as:)``, and
/// keep them in a table: a library that loads but lacks one fails then, with an error naming it, not at
/// the first call that needs it. They name only the versioned sonames Debian's runtime packages ship
/// (`libdbus-1.so.3`), never the unversioned `.so` link of a `-dev` package, which could be any ABI.
public struct SharedLibrary: @unchecked Sendable {
    // @unchecked: an opaque handle that is never closed; dlsym is thread-safe.
    private let handle: UnsafeMutableRawPointer
    /// The soname that loaded.
    public let name: String

    /// Opens the first of `names` (sonames, newest first) that loads.
    /// - Throws: ``SharedLibraryError`` naming every soname tried, each with the dynamic loader's reason,
    ///   when none loads.
    public static func open(_ names: [String]) throws(SharedLibraryError) -> SharedLibrary {
        var reasons: [String] = []
        for name in names {
            if let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) { return SharedLibrary(handle: handle, name: name) }
            reasons.append(dlerror().map { String(cString: $0) } ?? "\(name): not found")
        }
        throw SharedLibraryError(libraries: names, symbol: nil, reason: reasons.isEmpty ? "no soname given" : reasons.joined(separator: "; "))
    }

    /// The function `symbol`, as `T` (the C function pointer type the shim declares for it).
    /// - Throws: ``SharedLibraryError`` naming this library and `symbol` when the library has no such symbol.
    public func function<T>(_ symbol: String, as _: T.Type = T.self) throws(SharedLibraryError) -> T {
        guard let address = dlsym(handle, symbol) else {
            let reason = dlerror().map { String(cString: $0) } ?? "no such symbol"
            throw SharedLibraryError(libraries: [name], symbol: symbol, reason: reason)
        }
        return unsafeBitCast(address, to: T.self)
    }
}

/// Why a library could not be used: none of the sonames tried loaded, or the one that loaded lacks a
/// function.
public struct SharedLibraryError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The sonames tried, in order; for a missing ``symbol``, the one that loaded.
    public let libraries: [String]
    /// The function the loaded library lacks; nil when no library loaded.
    public let symbol: String?
    /// The dynamic loader's words: one sentence per soname tried, or its answer to the lookup.
    public let reason: String

    /// "cannot load libdbus-1.so.3: …", "cannot load any of libA.so.2, libA.so.1: …", or
    /// "libdbus-1.so.3 has no dbus_bus_register".
    public var description: String {
        if let symbol { return "\(libraries.joined(separator: ", ")) has no \(symbol)" }
        let which = libraries.count == 1 ? libraries[0] : "any of \(libraries.joined(separator: ", "))"
        return "cannot load \(which): \(reason)"
    }
}
