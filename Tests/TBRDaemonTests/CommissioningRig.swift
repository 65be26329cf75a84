import DBus
import Foundation
import MatterOnboarding
import TBRFoundation
import TBRDBusAPI
import TBRTestKit
import Testing

/// A structure "Home" with wpan0 in it, on a ``DaemonEnvironment`` whose tbrd has a Matter
/// commissioner, and the `CommissioningProgress` signals it sends, collected as they come.
struct CommissioningRig {
    let env: DaemonEnvironment
    let structure: RemoteObject
    let progress: ProgressLog
    /// The simulated python-matter-server tbrd talks to, when the rig started one.
    var matterSim: MatterSimProcess?

    /// Starts `matter-sim` with `arguments` (a server with Bluetooth, so BLE devices can be
    /// commissioned, unless they say otherwise), then the rest as ``start(_:configuration:)`` with tbrd
    /// pointed at it, and `extra` tbrd.conf lines.
    static func start(_ env: DaemonEnvironment, matterSim arguments: [String], extra: String = "") async throws -> CommissioningRig {
        let sim = try await MatterSimProcess.start(arguments)
        var rig = try await start(env, configuration: sim.tbrdConfiguration + extra)
        rig.matterSim = sim
        return rig
    }

    /// Starts otbr-sim (wpan0) and tbrd with `configuration` (tbrd.conf lines), creates "Home" with wpan0.
    static func start(_ env: DaemonEnvironment, configuration: String) async throws -> CommissioningRig {
        try await env.startSimulator(["wpan0"])
        try await env.startDaemon(try env.configuration(configuration))
        let reply = try await env.manager.call("CreateStructure", [.string("Home")])
        guard case .objectPath(let path)? = reply.first else { throw TestKitError("no structure path") }
        try await eventually("tbrd knows wpan0") {
            guard case .array(_, let rows)? = try await env.manager.call("ListBorderRouters").first else { return false }
            return rows.count == 1
        }
        _ = try await env.manager.call("AddBorderRouter", [.string("Home"), .string("wpan0")])
        let structure = RemoteObject(connection: env.client, destination: "io.tbrd", path: path, interface: "io.tbrd.Structure1")
        let log = ProgressLog()
        let signals = try await structure.signals("CommissioningProgress")
        log.follow(signals)
        // wpan0 is attached (the simulator's role delay) before a session may open.
        try await eventually("wpan0 is attached", timeout: .seconds(10), wakingOn: env.router("wpan0").wakeups) {
            let role = try await env.router("wpan0").property("Role", as: String.self)
            return role == "leader" || role == "router" || role == "child"
        }
        return CommissioningRig(env: env, structure: structure, progress: log)
    }

    /// `PrepareMatterCommissioning` → the session.
    func prepare() async throws -> String {
        let reply = try await structure.call("PrepareMatterCommissioning", timeout: .seconds(60))
        return try PrepareCommissioningReply(arguments: reply).session
    }

    /// `Commission(session, code, options)` → the payload id.
    func commission(_ session: String, _ code: String, _ options: [String: DBusValue] = [:]) async throws -> String {
        let entries = options.keys.sorted().map { DBusValue.DictEntry(key: .string($0), value: .variant(options[$0]!)) }
        let reply = try await structure.call("Commission", [.string(session), .string(code), .dictionary(key: .string, value: .variant, entries)])
        return try reply[0].decode(as: String.self)
    }

    /// `CompleteMatterCommissioning(session)` → the outcome rows.
    func complete(_ session: String) async throws -> [CommissioningOutcomeRow] {
        let reply = try await structure.call("CompleteMatterCommissioning", [.string(session)], timeout: .seconds(120))
        return try reply[0].decode(as: [CommissioningOutcomeRow].self)
    }

    /// Waits until payload `id` of `session` has ended (`complete` or `failed`) and returns its signals.
    @discardableResult
    func waitForEnd(_ session: String, _ id: String, timeout: Duration = .seconds(20)) async throws -> [CommissioningProgressSignal] {
        try await eventually("payload \(id) of \(session) ended", timeout: timeout) {
            progress.signals(session, id).contains { $0.stage == "complete" || $0.stage == "failed" }
        }
        return progress.signals(session, id)
    }

    /// The error name and message `body` fails with.
    static func failure(_ body: () async throws -> Void) async -> (name: String, message: String)? {
        do {
            try await body()
            return nil
        } catch let error as DBusError {
            return (error.name.rawValue, error.message)
        } catch {
            return ("?", "\(error)")
        }
    }

    /// A QR code for a BLE device.
    static func code(discriminator: UInt16, passcode: UInt32 = 20_202_021, vendor: UInt16 = 0xFFF1, product: UInt16 = 0x8000) -> String {
        try! SetupPayload(
            vendorID: VendorID(vendor), productID: ProductID(product), discoveryCapabilities: .ble, discriminator: .long(discriminator),
            passcode: try! Passcode(passcode)
        ).qrCode()
    }
}

/// The `CommissioningProgress` signals received so far.
final class ProgressLog: Sendable {
    private let received = Locked<[CommissioningProgressSignal]>([])

    /// Collects what `signals` delivers, in a task of its own that ends with the stream (the test's
    /// connection closing ends it).
    func follow(_ signals: SignalStream) {
        Task { [self] in
            for try await signal in signals {
                guard let s = try? CommissioningProgressSignal(arguments: signal.arguments) else { continue }
                self.received.withLock { $0.append(s) }
            }
        }
    }

    /// The signals of payload `id` of `session`, in order.
    func signals(_ session: String, _ id: String) -> [CommissioningProgressSignal] {
        received.withLock { $0.filter { $0.session == session && $0.payloadId == id } }
    }

    /// The stages payload `id` of `session` went through, in order.
    func stages(_ session: String, _ id: String) -> [String] { signals(session, id).map(\.stage) }
}
