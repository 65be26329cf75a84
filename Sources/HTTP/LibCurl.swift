internal import CCurl
internal import TBRFoundation

/// libcurl, opened with `dlopen` on the first request rather than linked: a process that reaches no
/// border router on another host never maps it, nor the TLS, Kerberos, LDAP and SSH libraries it links
/// (about 5 MiB of tbrd's idle memory, and relocation work at every tbrctl start; docs/performance.md).
/// Every function is resolved at once, once per process; a machine without the library, or with one
/// that lacks a function, gets an error naming the soname and the function.
enum LibCurl {
    /// The functions ``CurlTransfer`` calls, resolved from the loaded library.
    struct API: @unchecked Sendable {
        // @unchecked: C function pointers from a library that is never unloaded; immutable.
        let globalInit: tbrd_curl_global_init
        let easyInit: tbrd_curl_easy_init
        let easyCleanup: tbrd_curl_easy_cleanup
        let easyPerform: tbrd_curl_easy_perform
        let easyStrerror: tbrd_curl_easy_strerror
        let slistAppend: tbrd_curl_slist_append
        let slistFreeAll: tbrd_curl_slist_free_all
        /// `curl_easy_setopt` and `curl_easy_getinfo`, variadic: called through the shim's helpers.
        let setopt: UnsafeMutableRawPointer
        let getinfo: UnsafeMutableRawPointer

        /// Resolves every function from `library`.
        /// - Throws: ``SharedLibraryError`` naming the first function `library` lacks.
        init(_ library: SharedLibrary) throws(SharedLibraryError) {
            globalInit = try library.function("curl_global_init")
            easyInit = try library.function("curl_easy_init")
            easyCleanup = try library.function("curl_easy_cleanup")
            easyPerform = try library.function("curl_easy_perform")
            easyStrerror = try library.function("curl_easy_strerror")
            slistAppend = try library.function("curl_slist_append")
            slistFreeAll = try library.function("curl_slist_free_all")
            setopt = try library.function("curl_easy_setopt")
            getinfo = try library.function("curl_easy_getinfo")
        }
    }

    /// The soname Debian's `libcurl4` (libcurl built with OpenSSL) ships.
    static let libraryNames = ["libcurl.so.4"]

    /// libcurl's functions, loaded and set up (`curl_global_init`) on first use: a lazy, thread-safe
    /// `static let`, the process-wide library, never unloaded.
    static let api: Result<API, LibCurlError> = load(libraryNames)

    /// Opens the first of `names` that loads, resolves every function from it and runs libcurl's
    /// process-wide set-up.
    static func load(_ names: [String]) -> Result<API, LibCurlError> {
        let api: API
        do { api = try API(try SharedLibrary.open(names)) } catch {
            return .failure(LibCurlError(description: "\(error)" + (error.symbol == nil ? " (install libcurl4)" : "")))
        }
        // Thread-safe since libcurl 7.84 (Debian 12 has 7.88).
        guard api.globalInit(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK else {
            return .failure(LibCurlError(description: "curl_global_init failed"))
        }
        return .success(api)
    }
}

/// Why libcurl cannot be used, as a sentence.
struct LibCurlError: Error, CustomStringConvertible {
    let description: String
}
