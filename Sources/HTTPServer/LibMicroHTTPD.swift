internal import CMicroHTTPD
internal import TBRFoundation

/// GNU libmicrohttpd, opened with `dlopen` when a server first starts rather than linked: a tbrd without
/// `http-listen` never maps it, nor GnuTLS and the libraries GnuTLS links (tbrd's idle memory budget,
/// docs/performance.md). Every function is resolved at once, once per process; a machine without the
/// library, or with one that lacks a function, gets an error naming the soname and the function.
enum LibMicroHTTPD {
    /// The functions the server calls, resolved from the loaded library.
    struct API: @unchecked Sendable {
        // @unchecked: C function pointers from a library that is never unloaded; immutable.
        let stopDaemon: tbrd_mhd_stop_daemon
        let connectionValues: tbrd_mhd_get_connection_values
        let lookupValue: tbrd_mhd_lookup_connection_value
        let responseFromBuffer: tbrd_mhd_create_response_from_buffer
        let responseFromCallback: tbrd_mhd_create_response_from_callback
        let destroyResponse: tbrd_mhd_destroy_response
        let addHeader: tbrd_mhd_add_response_header
        let queueResponse: tbrd_mhd_queue_response
        let suspend: tbrd_mhd_suspend_connection
        let resume: tbrd_mhd_resume_connection
        /// `MHD_start_daemon` and `MHD_get_connection_info`, variadic: called through the shim's helpers.
        let startDaemon: UnsafeMutableRawPointer
        let connectionInfo: UnsafeMutableRawPointer

        /// Resolves every function from `library`.
        /// - Throws: ``SharedLibraryError`` naming the first function `library` lacks.
        init(_ library: SharedLibrary) throws(SharedLibraryError) {
            stopDaemon = try library.function("MHD_stop_daemon")
            connectionValues = try library.function("MHD_get_connection_values")
            lookupValue = try library.function("MHD_lookup_connection_value")
            responseFromBuffer = try library.function("MHD_create_response_from_buffer")
            responseFromCallback = try library.function("MHD_create_response_from_callback")
            destroyResponse = try library.function("MHD_destroy_response")
            addHeader = try library.function("MHD_add_response_header")
            queueResponse = try library.function("MHD_queue_response")
            suspend = try library.function("MHD_suspend_connection")
            resume = try library.function("MHD_resume_connection")
            startDaemon = try library.function("MHD_start_daemon")
            connectionInfo = try library.function("MHD_get_connection_info")
        }
    }

    /// The soname Debian's `libmicrohttpd12` ships (built with GnuTLS).
    static let libraryNames = ["libmicrohttpd.so.12"]

    /// The functions, loaded on first use: a lazy, thread-safe `static let`, the process-wide library,
    /// never unloaded.
    static let api: Result<API, HTTPServerError> = {
        do throws(SharedLibraryError) { return .success(try API(try SharedLibrary.open(libraryNames))) } catch {
            return .failure(HTTPServerError("\(error)" + (error.symbol == nil ? " (install libmicrohttpd12)" : "")))
        }
    }()
}
