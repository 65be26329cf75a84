import TBRDocuments
import BorderRouterService
import OpenThreadBR
import TBRDBusAPI
import TBRFoundation

/// The device commands without tbrd: an in-process ``BorderRouterService/BorderRouterService`` over
/// the otbr-agents on the bus, through the device model's traits (and the agent client for datasets).
/// Routers are the agents present when the command starts; their ids are their interface names.
struct DirectBackend: RouterBackend {
    /// The running service.
    let service: BorderRouterService

    /// The service's configuration in tbrctl: the defaults (250 ms telemetry polls while a key is open).
    static let configuration = BorderRouterServiceConfiguration()

    /// The border router `router` as a device-model border router.
    func borderRouter(_ router: RouterRef) async throws -> BorderRouterDevice {
        let device: HomeDevice
        do { device = try await service.home.device(id: try deviceID(router)) } catch {
            throw ErrorMapping.controlError(error, doing: "finding border router \(router.id)")
        }
        guard let br = device.type(BorderRouterDevice.self) else {
            throw ControlError.failure("\(router.id) is not a border router")
        }
        return br
    }

    func deviceID(_ router: RouterRef) throws -> DeviceID {
        guard let id = DeviceID(rawValue: router.id) else { throw ControlError.failure("a router id cannot be empty") }
        return id
    }

    /// The otbr-agent client of `router`.
    func agent(_ router: RouterRef) throws -> BorderRouterAgent {
        guard let name = try? ThreadInterfaceName(router.id) else {
            throw ControlError.failure("\(Quoted(router.id)) is not an otbr-agent interface name")
        }
        return BorderRouterAgent(connection: service.connection, interfaceName: name)
    }

    // MARK: routers

    func routers() async throws -> [RouterListing] {
        var listings: [RouterListing] = []
        for summary in await service.routerSummaries() {
            var listing = RouterListing(
                id: summary.id.rawValue, interface: summary.interfaceName?.rawValue ?? "", transport: summary.transport.rawValue,
                address: summary.address, online: summary.isOnline,
                role: summary.role?.wireName, networkName: nil, extPanId: nil, epskcSupported: false)
            if summary.isOnline, let br = try? await borderRouter(RouterRef(id: summary.id.rawValue)) {
                let mgmt = br.threadNetworkManagement
                if mgmt.networkInfo.isSupported, let network = try? await mgmt.networkInfo.read() {
                    listing.networkName = network.networkName
                    listing.extPanId = network.extendedPanId.description.lowercased()
                }
                listing.epskcSupported = (try? await br.threadNetworkCapabilities.epskcSupported.read()) ?? false
            }
            listings.append(listing)
        }
        return listings
    }

    func resolve(_ text: String?) async throws -> RouterRef {
        let ids = await service.deviceIDs().map(\.rawValue)
        guard let text else {
            return RouterRef(id: try RouterChoice.only(of: ids, nobody: "no otbr-agent is on the bus"))
        }
        guard let id = await service.resolveRouter(text) else { throw RouterChoice.unknown(text, known: ids) }
        return RouterRef(id: id.rawValue)
    }

    func info(of router: RouterRef) async throws -> RouterInfo {
        let br = try await borderRouter(router)
        let summary = await service.routerSummaries().first { $0.id.rawValue == router.id }
        do {
            let basic = try await br.rootNode.basicInformation.read()
            let caps = try await br.threadNetworkCapabilities.read()
            let mgmt = br.threadNetworkManagement
            let network = mgmt.networkInfo.isSupported ? try await mgmt.networkInfo.read() : nil
            return RouterInfo(
                id: router.id, transport: summary?.transport.rawValue ?? "dbus", address: summary?.address ?? "",
                borderAgentId: summary?.borderAgentID.map { Hex.encode($0.bytes) },
                basicInformation: .init(
                    vendorName: basic.vendorName, vendorId: basic.vendorID, productId: basic.productID,
                    productName: basic.productName, softwareVersion: basic.softwareVersion),
                capabilities: .init(
                    epskcSupported: caps.epskcSupported, internetAccessOption: caps.internetAccessOption.rawValue),
                network: .init(
                    role: summary?.role?.wireName, networkName: network?.networkName, panId: network?.panId.rawValue,
                    extPanId: network.map { $0.extendedPanId.description.lowercased() }, channel: network?.channel.number),
                interface: summary?.interfaceName?.rawValue ?? router.id, online: summary?.isOnline ?? false)
        } catch {
            throw ErrorMapping.controlError(error, doing: "reading border router \(router.id)")
        }
    }

    // MARK: commands

    func activateEpskc(on router: RouterRef, seconds: Int?) async throws -> EpskcActivation {
        let mgmt = try await borderRouter(router).threadNetworkManagement
        let r = await mgmt.activateEpskcMode(.init(requestedDurationSeconds: seconds))
        return EpskcActivation(
            status: OperationStatus(r.status), epskc: r.status == .success ? r.epskc?.digits : nil,
            validDurationSeconds: r.status == .success ? r.validDurationSeconds : 0,
            message: r.status == .success ? nil : r.message ?? EpskcActivation.sentence(for: OperationStatus(r.status), router: router.id))
    }

    func deactivateEpskc(on router: RouterRef, retainSession: Bool) async throws {
        let mgmt = try await borderRouter(router).threadNetworkManagement
        do { try await mgmt.deactivateEpskcMode(retainActiveSession: retainSession) } catch {
            throw ErrorMapping.controlError(error, doing: "DeactivateEpskcMode on \(router.id)")
        }
    }

    func joinNetwork(on router: RouterRef, tlvs: [UInt8], thisRouterOnly: Bool) async throws -> JoinResult {
        let mgmt = try await borderRouter(router).threadNetworkManagement
        let r = await mgmt.joinNetwork(.init(operationalDatasetTlvs: tlvs, scope: thisRouterOnly ? .thisRouterOnly : .wholeNetwork))
        let delay = r.migrationDelay?.components.seconds ?? 0
        return JoinResult(
            status: OperationStatus(r.status), migrationDelaySeconds: Int(delay),
            message: r.status == .success ? nil : r.message ?? JoinResult.sentence(for: OperationStatus(r.status), router: router.id))
    }

    func leaveNetwork(on router: RouterRef) async throws {
        let mgmt = try await borderRouter(router).threadNetworkManagement
        do { try await mgmt.leaveNetwork() } catch {
            throw ErrorMapping.controlError(error, doing: "LeaveNetwork on \(router.id)")
        }
    }

    func energyScan(on router: RouterRef, duration: Duration) async throws -> [EnergyReading] {
        do {
            return try await service.energyScan(of: try deviceID(router), duration: duration).map {
                EnergyReading(channel: Int($0.channel), maxRssi: Int($0.maxRSSI))
            }
        } catch let error as HomeError where error.code == .notSupported {
            throw EnergyScanUnsupported(router: router.id, reason: error.message)
        } catch {
            throw ErrorMapping.controlError(error, doing: "EnergyScan on \(router.id)")
        }
    }

    func dataset(of router: RouterRef, pending: Bool) async throws -> [UInt8]? {
        let agent = try agent(router)
        do {
            return pending ? try await agent.pendingDatasetTLVs() : try await agent.activeDatasetTLVs()
        } catch {
            throw ErrorMapping.controlError(error, doing: "reading the \(pending ? "pending" : "active") dataset of \(router.id)")
        }
    }
}
