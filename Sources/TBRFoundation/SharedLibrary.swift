internal import Glibc

/// A C library opened with `dlopen` when a process first needs it, instead of linked: a process that
/// never calls it never maps it (and what it depends on). Opened `RTLD_NOW | RTLD_LOCAL` and never
/// closed, so its function pointers stay valid for the life of the process and may be shared.
public struct SharedLibrary: @unchecked Sendable {
    // @unchecked: an opaque handle that is never closed; dlsym is thread-safe.
    private let handle: UnsafeMutableRawPointer

    /// Opens the first of `names` (sonames, newest first) that loads.
    /// - Throws: ``SharedLibraryError`` with the dynamic loader's reason when none does.
    public static func open(_ names: [String]) throws(SharedLibraryError) -> SharedLibrary {
        for name in names {
            if let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) { return SharedLibrary(handle: handle) }
        }
        let why = dlerror().map { String(cString: $0) } ?? "not found"
        throw SharedLibraryError(library: names.first ?? "", reason: why)
    }

    /// The function `name`, as `T` (the C function pointer type the shim declares for it), or nil when
    /// the library has no such symbol.
    public func symbol<T>(_ name: String, as _: T.Type = T.self) -> T? {
        dlsym(handle, name).map { unsafeBitCast($0, to: T.self) }
    }
}

/// Why a library could not be opened: its soname and the dynamic loader's words.
public struct SharedLibraryError: Error, Hashable, Sendable, CustomStringConvertible {
    public let library: String
    public let reason: String

    public var description: String { "cannot load \(library): \(reason)" }
}
