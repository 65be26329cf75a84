public import DBus

extension TBRDBusAPI {
    /// `io.tbrd.Manager1` at ``TBRDBusAPI/managerPath``: routers, structures and the ePSKc journal.
    public enum Manager {
        /// The interface name.
        public static let interface: InterfaceName = "io.tbrd.Manager1"

        /// `ListBorderRouters() → a(ossbsssb)`: every router tbrd knows, online or not.
        public static let listBorderRouters = MethodContract(
            "ListBorderRouters", outputs: [Argument("routers", [BorderRouterRow].dbusType)])
        /// `FindBorderRouter(s router) → o`: a tbrd id, an interface name or a border agent ID.
        public static let findBorderRouter = MethodContract(
            "FindBorderRouter", inputs: [Argument("router", .string)], outputs: [Argument("path", .objectPath)])
        /// `ListStructures() → a(os)`.
        public static let listStructures = MethodContract(
            "ListStructures", outputs: [Argument("structures", [StructureRow].dbusType)])
        /// `FindStructure(s name) → o`.
        public static let findStructure = MethodContract(
            "FindStructure", inputs: [Argument("name", .string)], outputs: [Argument("path", .objectPath)])
        /// `CreateStructure(s name) → o`.
        public static let createStructure = MethodContract(
            "CreateStructure", inputs: [Argument("name", .string)], outputs: [Argument("path", .objectPath)])
        /// `DeleteStructure(s name) → ()`.
        public static let deleteStructure = MethodContract("DeleteStructure", inputs: [Argument("name", .string)])
        /// `AddBorderRouter(s structure, s router) → ()`.
        public static let addBorderRouter = MethodContract(
            "AddBorderRouter", inputs: [Argument("structure", .string), Argument("router", .string)])
        /// `RemoveBorderRouter(s structure, s router) → ()`.
        public static let removeBorderRouter = MethodContract(
            "RemoveBorderRouter", inputs: [Argument("structure", .string), Argument("router", .string)])
        /// `AddRemoteBorderRouter(s url, s id) → o`: a border router on another host, reached through its
        /// otbr-agent's REST API at `url` (`http` or `https`); `id` empty: `ba-` and the first 8 hex digits
        /// of its Border Agent ID. Admins only.
        public static let addRemoteBorderRouter = MethodContract(
            "AddRemoteBorderRouter", inputs: [Argument("url", .string), Argument("id", .string)],
            outputs: [Argument("path", .objectPath)])
        /// `RemoveRemoteBorderRouter(s router) → ()`: forgets a border router on another host (and takes it
        /// out of its structure). Admins only.
        public static let removeRemoteBorderRouter = MethodContract(
            "RemoveRemoteBorderRouter", inputs: [Argument("router", .string)])
        /// `EpskcEvents(t since, s router, u limit) → a(tssssxxq)`: the journal after `since`.
        public static let epskcEvents = MethodContract(
            "EpskcEvents", inputs: [Argument("since", .uint64), Argument("router", .string), Argument("limit", .uint32)],
            outputs: [Argument("events", [EpskcJournalRow].dbusType)])

        /// `UnclaimedMatterNodes() → a(tqqbs)`: the nodes the Matter commissioner has that no structure
        /// holds (another controller's on a shared python-matter-server, or one a commissioning with an
        /// unknown outcome added).
        public static let unclaimedMatterNodes = MethodContract(
            "UnclaimedMatterNodes", outputs: [Argument("nodes", [UnclaimedMatterNodeRow].dbusType)])

        /// `FetchNetworkCredentials(s key, s from, s structure, u timeout_seconds) → (ay dataset, a{ss} source)`:
        /// another border router's Active dataset, fetched with the ePSKc it shows (tbrd as the ePSKc
        /// commissioner). `from`: an mDNS instance name, `[ADDR]:PORT`, a router id, or empty (the only
        /// border agent with a key active). `structure` non-empty: the network is stored in that
        /// structure's directory. Admins only.
        public static let fetchNetworkCredentials = MethodContract(
            "FetchNetworkCredentials",
            inputs: [Argument("key", .string), Argument("from", .string), Argument("structure", .string), Argument("timeout_seconds", .uint32)],
            outputs: [Argument("dataset", .array(.byte)), Argument("source", .dictionary(key: .string, value: .string))])

        /// `BorderRouterAdded(o path, s id)`: a router was seen for the first time.
        public static let borderRouterAdded = SignalContract(
            "BorderRouterAdded", arguments: [Argument("path", .objectPath), Argument("id", .string)])
        /// `BorderRouterRemoved(o path, s id)`: an admin removed a border router on another host (routers on
        /// this host's bus are never forgotten).
        public static let borderRouterRemoved = SignalContract(
            "BorderRouterRemoved", arguments: [Argument("path", .objectPath), Argument("id", .string)])
        /// `StructureAdded(o path, s name)`.
        public static let structureAdded = SignalContract(
            "StructureAdded", arguments: [Argument("path", .objectPath), Argument("name", .string)])
        /// `StructureRemoved(o path, s name)`.
        public static let structureRemoved = SignalContract(
            "StructureRemoved", arguments: [Argument("path", .objectPath), Argument("name", .string)])
    }
}
