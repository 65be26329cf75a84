/// The bounds on what a peer may make this side buffer and compute for one message, after SwiftNIO's
/// `NIOWebSocketFrameAggregator` (maximum size, maximum fragments, minimum size of a non-final
/// fragment). Reassembly is linear (one growing buffer), so with these bounds a hostile peer can make a
/// connection hold at most ``maximumMessage`` bytes (plus one frame being received) and spend work in
/// proportion to the bytes it sends, never more.
///
/// A message that passes a bound fails the connection with a ``WebSocketProtocolError``: status 1009
/// (message too big) for ``maximumMessage``; status 1008 (policy violation) for ``maximumFragments``
/// and ``minimumFragment``, because RFC 6455 allows any fragmentation: refusing it is this side's
/// policy, not the peer breaking the protocol (1002), and section 7.4.1 names 1008 for exactly that
/// ("a message that violates its policy" when no more specific status fits).
public struct WebSocketLimits: Hashable, Sendable {
    /// The longest message accepted, all its fragments together (default 16 MiB).
    ///
    /// Sized for python-matter-server's `get_nodes` (and `start_listening`, which returns the same list)
    /// in a 100-node home. A node object is its fields plus every attribute of every cluster on every
    /// endpoint, keyed `"ep/cluster/attr"`. A real Thread node, the Eve Energy plug in Home Assistant's
    /// Matter fixtures (`tests/components/matter/fixtures/nodes/eve_energy_plug.json`: neighbour and
    /// route tables, three fabrics' certificates), is 15 KB of JSON indented as the server sends it
    /// (orjson with two-space indentation, `common/helpers/json.py`); a larger mesh's tables bring a
    /// node to about 25 KB. 100 such nodes are 1.5–2.5 MB; a bridge carries one endpoint per bridged
    /// device and can be ten times a plain node, so a home with several bridges reaches a few
    /// megabytes. 16 MiB leaves more than six times the plain estimate while still bounding what a
    /// hostile server can make tbrd hold.
    public var maximumMessage: Int
    /// The most frames one message may arrive in (default 4096). python-matter-server (aiohttp) sends
    /// every message as one frame; servers that fragment usually cut at their 4 KiB write buffer, and
    /// 4096 such fragments carry ``maximumMessage`` by default.
    public var maximumFragments: Int
    /// The smallest payload a non-final fragment may carry (default 256 bytes; the final fragment may
    /// be shorter, even empty). With it a frame's header (2–14 bytes) is at most about 5% of what it
    /// carries, so per-frame work stays proportional to the message's bytes.
    public var minimumFragment: Int

    /// Limits as given; the defaults are described at each property.
    public init(maximumMessage: Int = 16 << 20, maximumFragments: Int = 4096, minimumFragment: Int = 256) {
        precondition(maximumMessage >= 0 && maximumFragments >= 1 && minimumFragment >= 0)
        self.maximumMessage = maximumMessage
        self.maximumFragments = maximumFragments
        self.minimumFragment = minimumFragment
    }
}
