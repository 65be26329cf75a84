import TBRFoundation

/// A node on the simulated fabric, as python-matter-server keeps one (`MatterNodeData` in
/// `common/models.py`) and the device behind it.
struct SimulatedNode: Sendable {
    /// `node_id`.
    let id: UInt64
    /// The device it is.
    let device: SimulatedDevice
    /// `date_commissioned`, seconds since the epoch (UTC).
    let commissioned: Double
    /// `last_interview`, seconds since the epoch (UTC).
    var lastInterview: Double
    /// `available`: false until its subscription is set up, and while it cannot be reached.
    var available = false
    /// Whether the device answers (`sim_set_available`): a node that does not is marked unavailable.
    var reachable = true
    /// `attributes`, keyed `"endpoint/cluster/attribute"`.
    var attributes: JSONObject
    /// The commissioning window opened on it (its codes and when it closes), if one is open.
    var window: (codes: JSON, closes: ContinuousClock.Instant)?

    /// The `interview_version` python-matter-server 8.1.2 writes (`DATA_MODEL_SCHEMA_VERSION`).
    static let interviewVersion: Int64 = 6

    /// The node as the API sends it, its members in `MatterNodeData`'s order; `attribute_subscriptions`
    /// (a set the server persists for custom subscriptions) is always empty here.
    var json: JSON {
        [
            "node_id": JSON(id),
            "date_commissioned": .string(Python.isoformat(commissioned)),
            "last_interview": .string(Python.isoformat(lastInterview)),
            "interview_version": .int(Self.interviewVersion),
            "available": .bool(available),
            "is_bridge": false,
            "attributes": .object(attributes),
            "attribute_subscriptions": [],
        ]
    }

    /// The node's IPv6 address on the Thread network (a mesh-local EID of the simulated mesh), as
    /// `ping_node` and `get_node_ip_addresses` report it.
    var address: String {
        "fd00:db8::ff:fe00:" + String(id & 0xFFFF, radix: 16)
    }
}
