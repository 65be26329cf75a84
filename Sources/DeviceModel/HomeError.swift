/// Why a call on the device model failed: a code a program can act on and a sentence a person can read.
///
/// ```
/// ActivateEpskcMode on wpan0: the border router is offline (otbr-agent for wpan0 is not running)
/// ```
public struct HomeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure this is; tbrd's D-Bus API names its errors after these (`io.tbrd.Error.Busy`).
    public enum Code: String, Hashable, Sendable, Codable, CaseIterable {
        /// No device or structure has this id.
        case notFound
        /// The request itself is wrong (a duration out of range, a dataset that does not validate).
        case invalidArgument
        /// The device is not in a state where this can be done (for example not attached).
        case invalidState
        /// Something else is in progress; try again later.
        case busy
        /// The device cannot do this at all (a build without the feature).
        case notSupported
        /// The device cannot be reached now (its otbr-agent is not running).
        case unavailable
        /// The caller may not do this.
        case permissionDenied
        /// Anything else.
        case failed
    }

    /// The kind of failure.
    public var code: Code
    /// A full sentence saying what failed and why.
    public var message: String
    /// The underlying cause as received (an otbr-agent or D-Bus error), if any.
    public var underlying: String?

    /// An error of `code` with `message` and, optionally, the underlying cause.
    public init(_ code: Code, _ message: String, underlying: String? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    /// The sentence (``message``); the underlying cause is kept apart in ``underlying``.
    public var description: String { message }
}
