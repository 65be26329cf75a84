import BorderRouterService
import TBRFoundation
import MatterOnboarding

/// One line of `tbrctl matter commission`: a payload reaching a stage. Its JSON form is the contract
/// `{"payload": N, "stage": "...", "time": "...", "nodeId": ..., "error": "..."}` (N the code's position on
/// the command line, from 1; the time in ISO 8601 UTC with milliseconds; `nodeId` and `error` null
/// when there is none), plus `failedStage` (null unless the stage is `failed`), and `name`, `room` and
/// `warning` (null unless the `complete` stage has them: the node's name and room, and what did not work,
/// such as a device refusing its name as its NodeLabel).
struct CommissioningLine: Sendable, Hashable, Encodable {
    var payload: Int
    var stage: CommissioningStage
    var time: WallTime
    var nodeId: UInt64?
    var error: String?
    var failedStage: CommissioningStage?
    var name: String?
    var room: String?
    var warning: String?
    /// Text output only.
    var vendorId: UInt16?
    var productId: UInt16?
    var extPanId: String?

    private enum CodingKeys: String, CodingKey { case payload, stage, time, nodeId, error, failedStage, name, room, warning }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(payload, forKey: .payload)
        try c.encode(stage, forKey: .stage)
        try c.encode(time.description, forKey: .time)
        try c.encode(nodeId, forKey: .nodeId)
        try c.encode(error, forKey: .error)
        try c.encode(failedStage, forKey: .failedStage)
        try c.encode(name, forKey: .name)
        try c.encode(room, forKey: .room)
        try c.encode(warning, forKey: .warning)
    }

    /// Whether the payload is finished.
    var isFinal: Bool { stage == .complete || stage == .failed }

    /// `2026-12-01T10:00:00.123Z  code 1  nodeAdded (node 7)`.
    func render() -> String {
        var line = "\(time)  code \(payload)  \(stage)"
        switch stage {
        case .networkSelected: if let extPanId { line += " (Thread network \(extPanId))" }
        case .nodeAdded: if let nodeId { line += " (node \(nodeId))" }
        case .complete:
            var parts = nodeId.map { ["node \($0)"] } ?? []
            if let name { parts.append("named \(Quoted(name))") }
            if let room { parts.append("in \(Quoted(room))") }
            if !parts.isEmpty { line += " (" + parts.joined(separator: ", ") + ")" }
            if let warning { line += "; warning: \(warning)" }
        case .interviewed:
            let vendor = vendorId.map { "vendor " + Self.hex($0) } ?? "vendor unknown"
            let product = productId.map { "product " + Self.hex($0) } ?? "product unknown"
            line += " (\(vendor), \(product))"
        case .failed: line += " at \(failedStage?.rawValue ?? "an unknown stage"): \(error ?? "no reason given")"
        case .queued, .validated, .credentialsHandedOver, .commissioning: break
        }
        return line
    }

    static func hex(_ value: UInt16) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: 4 - digits.count) + digits
    }
}
