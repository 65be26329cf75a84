/// A command's failure as python-matter-server reports it: `{"message_id", "error_code", "details"}`,
/// with the error codes of `matter_server/common/errors.py` and the details its exceptions carry.
struct CommandError: Error, Hashable, Sendable {
    /// The `error_code`.
    var code: Int
    /// The `details` (the exception's text; empty for invalid arguments).
    var details: String

    init(_ code: Int, _ details: String) {
        self.code = code
        self.details = details
    }

    /// 0: an exception the server does not map (a `KeyError`, a `TypeError`, an SDK error it lets
    /// through): its text.
    static func unknown(_ details: String) -> CommandError { CommandError(0, details) }
    /// 1: `NodeCommissionFailed`.
    static func commissionFailed(_ details: String) -> CommandError { CommandError(1, details) }
    /// 2: `NodeInterviewFailed`.
    static func interviewFailed(_ node: String) -> CommandError { CommandError(2, "Failed to interview node \(node)") }
    /// 3: `NodeNotReady`, for a node that is unknown or not available.
    static func notReady(_ node: String) -> CommandError { CommandError(3, "Node \(node) is not (yet) available.") }
    /// 5: `NodeNotExists`, as `get_node`, `ping_node` and `get_node_ip_addresses` word it.
    static func notInterviewed(_ node: String) -> CommandError { CommandError(5, "Node \(node) does not exist or is not yet interviewed") }
    /// 5: `NodeNotExists`, as `remove_node` words it.
    static func notExisting(_ node: String) -> CommandError { CommandError(5, "Node \(node) does not exist or has not been interviewed.") }
    /// 8: `InvalidArguments`, raised with no text (details empty), as for every argument that does not parse.
    static let invalidArguments = CommandError(8, "")
    /// 9: `InvalidCommand`.
    static func invalidCommand(_ name: String) -> CommandError { CommandError(9, "Invalid command: \(name)") }
}
