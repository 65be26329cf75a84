public import DeviceModel

/// What changed about a router or a Matter node at one moment of the health history (issue 49):
/// `tbrctl --json health history`'s `samples` and `GET /api/v1/health/history`'s. A member is left out
/// when it did not change.
public struct HealthSample: Sendable, Hashable, Encodable {
    public var at: WallTime
    /// A router's id, or `node N` for Matter node N.
    public var subject: String
    /// A router's Thread role (`leader`, `router`, `child`, `detached`, `disabled`, `offline` when its
    /// agent does not answer), or a node's `available`/`unavailable`.
    public var state: String?
    /// The router's partition id.
    public var partition: UInt32?
    /// How many routers (the leader among them) and children the router sees.
    public var routers: Int?
    public var children: Int?

    public init(at: WallTime, subject: String, state: String?, partition: UInt32?, routers: Int?, children: Int?) {
        self.at = at
        self.subject = subject
        self.state = state
        self.partition = partition
        self.routers = routers
        self.children = children
    }

    /// A partition id as Thread tools write it: `0x1a2b3c4d`.
    public static func partitionText(_ partition: UInt32) -> String {
        let digits = String(partition, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }

    /// `at` in ISO 8601 UTC; the members that changed.
    public func encode(to encoder: any Encoder) throws {
        enum Keys: String, CodingKey { case at, subject, state, partition, routers, children }
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(at.description, forKey: .at)
        try c.encode(subject, forKey: .subject)
        try c.encodeIfPresent(state, forKey: .state)
        try c.encodeIfPresent(partition, forKey: .partition)
        try c.encodeIfPresent(routers, forKey: .routers)
        try c.encodeIfPresent(children, forKey: .children)
    }
}

/// The health history of a time: the problems open at some moment in it and the samples taken in it.
public struct HealthHistory: Sendable, Hashable, Encodable {
    public var problems: [HealthProblem]
    public var samples: [HealthSample]

    public init(problems: [HealthProblem], samples: [HealthSample]) {
        self.problems = problems
        self.samples = samples
    }
}
