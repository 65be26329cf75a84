public import DBus

/// An OpenThread error (`otError`) as otbr-agent sends it on D-Bus: an error reply named
/// `io.openthread.Error.<Name>` with no text (ot-br-posix `src/dbus/server/error_helper.cpp`).
///
/// Every name of the agent's table is here, with its spelling on the wire, including
/// `NonLowpanDatatFrame` (sic) and `OK`: the agent sends an *error* named `io.openthread.Error.OK` for an
/// `otError` missing from its table, so ``ok`` is a failure like any other.
public enum OpenThreadError: UInt8, Error, CaseIterable, Sendable, CustomStringConvertible {
    /// `io.openthread.Error.OK`: an error reply for an `otError` the agent's table lacks (for example PENDING).
    case ok = 0
    /// `OT_ERROR_FAILED`.
    case failed = 1
    /// `OT_ERROR_DROP`.
    case drop = 2
    /// `OT_ERROR_NO_BUFS`.
    case noBufs = 3
    /// `OT_ERROR_NO_ROUTE`.
    case noRoute = 4
    /// `OT_ERROR_BUSY`.
    case busy = 5
    /// `OT_ERROR_PARSE`.
    case parse = 6
    /// `OT_ERROR_INVALID_ARGS`.
    case invalidArgs = 7
    /// `OT_ERROR_SECURITY`.
    case security = 8
    /// `OT_ERROR_ADDRESS_QUERY`.
    case addressQuery = 9
    /// `OT_ERROR_NO_ADDRESS`.
    case noAddress = 10
    /// `OT_ERROR_ABORT`.
    case abort = 11
    /// `OT_ERROR_NOT_IMPLEMENTED`.
    case notImplemented = 12
    /// `OT_ERROR_INVALID_STATE`.
    case invalidState = 13
    /// `OT_ERROR_NO_ACK`.
    case noAck = 14
    /// `OT_ERROR_CHANNEL_ACCESS_FAILURE`.
    case channelAccessFailure = 15
    /// `OT_ERROR_DETACHED`.
    case detached = 16
    /// `OT_ERROR_FCS`.
    case fcs = 17
    /// `OT_ERROR_NO_FRAME_RECEIVED`.
    case noFrameReceived = 18
    /// `OT_ERROR_UNKNOWN_NEIGHBOR`.
    case unknownNeighbor = 19
    /// `OT_ERROR_INVALID_SOURCE_ADDRESS`.
    case invalidSourceAddress = 20
    /// `OT_ERROR_ADDRESS_FILTERED`.
    case addressFiltered = 21
    /// `OT_ERROR_DESTINATION_ADDRESS_FILTERED`.
    case destinationAddressFiltered = 22
    /// `OT_ERROR_NOT_FOUND`.
    case notFound = 23
    /// `OT_ERROR_ALREADY`.
    case already = 24
    /// `OT_ERROR_IP6_ADDRESS_CREATION_FAILURE`.
    case ip6AddressCreationFailure = 26
    /// `OT_ERROR_NOT_CAPABLE`.
    case notCapable = 27
    /// `OT_ERROR_RESPONSE_TIMEOUT`.
    case responseTimeout = 28
    /// `OT_ERROR_DUPLICATED`.
    case duplicated = 29
    /// `OT_ERROR_REASSEMBLY_TIMEOUT`.
    case reassemblyTimeout = 30
    /// `OT_ERROR_NOT_TMF`.
    case notTmf = 31
    /// `NOT_LOWPAN_DATA_FRAME`, sent as `io.openthread.Error.NonLowpanDatatFrame`.
    case notLowpanDataFrame = 32
    /// `OT_ERROR_LINK_MARGIN_LOW`.
    case linkMarginLow = 34
    /// `OT_ERROR_REJECTED`.
    case rejected = 37
    /// `OT_ERROR_GENERIC`.
    case generic = 255

    /// The last component of the D-Bus error name, spelled as the agent spells it.
    public var wireName: String {
        switch self {
        case .ok: "OK"
        case .failed: "Failed"
        case .drop: "Drop"
        case .noBufs: "NoBufs"
        case .noRoute: "NoRoute"
        case .busy: "Busy"
        case .parse: "Parse"
        case .invalidArgs: "InvalidArgs"
        case .security: "Security"
        case .addressQuery: "AddressQuery"
        case .noAddress: "NoAddress"
        case .abort: "Abort"
        case .notImplemented: "NotImplemented"
        case .invalidState: "InvalidState"
        case .noAck: "NoAck"
        case .channelAccessFailure: "ChannelAccessFailure"
        case .detached: "Detached"
        case .fcs: "FcsErr"
        case .noFrameReceived: "NoFrameReceived"
        case .unknownNeighbor: "UnknownNeighbor"
        case .invalidSourceAddress: "InvalidSourceAddress"
        case .addressFiltered: "AddressFiltered"
        case .destinationAddressFiltered: "DestinationAddressFiltered"
        case .notFound: "NotFound"
        case .already: "Already"
        case .ip6AddressCreationFailure: "Ipv6AddressCreationFailure"
        case .notCapable: "NotCapable"
        case .responseTimeout: "ResponseTimeout"
        case .duplicated: "Duplicated"
        case .reassemblyTimeout: "ReassemblyTimeout"
        case .notTmf: "NotTmf"
        case .notLowpanDataFrame: "NonLowpanDatatFrame"
        case .linkMarginLow: "LinkMarginLow"
        case .rejected: "Rejected"
        case .generic: "Generic"
        }
    }

    /// The full D-Bus error name, e.g. `io.openthread.Error.Busy`.
    public var errorName: ErrorName {
        // Valid by construction: a fixed prefix and a fixed identifier.
        (try? ErrorName(OTBRNames.errorPrefix + wireName)) ?? ErrorName.failed
    }

    /// The error a D-Bus error name stands for; nil for names outside the agent's table.
    public init?(errorName: ErrorName) {
        let text = errorName.rawValue
        guard text.hasPrefix(OTBRNames.errorPrefix) else { return nil }
        let wire = text.dropFirst(OTBRNames.errorPrefix.count)
        guard let match = Self.allCases.first(where: { $0.wireName == wire }) else { return nil }
        self = match
    }

    /// The error as the reply a D-Bus peer receives: its name and no text, as otbr-agent sends it.
    public var dbusError: DBusError { DBusError(errorName, "") }

    /// "Busy (otError 5)".
    public var description: String { "\(wireName) (otError \(rawValue))" }
}
