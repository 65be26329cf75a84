public import DBus
import OpenThreadBR

/// `io.tbrd.Simulator1` at `/io/tbrd/Simulator/<if>`: what a test or a demo does to the simulated
/// border router that a real one would see from the outside world (a commissioner using the ePSKc, a
/// crash, a different build).
extension SimulatedAgent {
    /// The control interface's name.
    public static let controlInterfaceName: InterfaceName = "io.tbrd.Simulator1"

    private nonisolated func control(
        _ name: MemberName, _ inputs: [Argument] = [], _ outputs: [Argument] = [],
        _ body: @escaping @Sendable (SimulatedAgent, MethodCall) async throws -> [DBusValue]
    ) -> Method {
        Method(name, inputs: inputs, outputs: outputs) { [weak self] call in
            guard let self else { throw DBusError(.failed, "the simulated agent is gone") }
            do {
                let reply = try await body(self, call)
                await self.advertise()
                return reply
            } catch {
                await self.advertise()
                throw error
            }
        }
    }

    private nonisolated func readOnly(
        _ name: MemberName, _ type: SignatureType, _ get: @escaping @Sendable (SimulatedAgent) async -> DBusValue
    ) -> Property {
        Property(name, type: type, emitsChanged: .false) { [weak self] in
            guard let self else { throw DBusError(.failed, "the simulated agent is gone") }
            return await get(self)
        }
    }

    /// The control object's interface.
    nonisolated func controlInterface() -> Interface {
        Interface(
            Self.controlInterfaceName,
            methods: [
                control("UseEphemeralKey", [Argument("key", .string)], [Argument("accepted", .boolean)]) { a, c in
                    [.bool(await a.useEphemeralKey(try c.argument(0, as: String.self)))]
                },
                control("ConnectCommissioner", [Argument("key", .string)], [Argument("accepted", .boolean)]) { a, c in
                    [.bool(await a.connectCommissioner(key: try c.argument(0, as: String.self)))]
                },
                control("DisconnectCommissioner", [], [Argument("disconnected", .boolean)]) { a, _ in
                    [.bool(await a.disconnectCommissioner())]
                },
                control("EphemeralKeyTransport", [], [Argument("state", .string), Argument("port", .uint16)]) { a, _ in
                    let (state, port) = await a.ephemeralKeyState()
                    return [.string(state), .uint16(port)]
                },
                control("EndEphemeralKeyEarly", [], [Argument("ended", .boolean)]) { a, _ in
                    [.bool(await a.endEphemeralKeyEarly())]
                },
                control("Crash", [Argument("restart_after_ms", .uint32)]) { a, c in
                    let ms: UInt32 = try c.argument(0)
                    await a.scheduleCrash(restartAfter: .milliseconds(Int64(ms)), answering: c)
                    return []
                },
                control("SetCapabilities", [Argument("nat64", .boolean), Argument("dhcp6_pd", .boolean)]) { a, c in
                    await a.setCapabilities(SimulatedCapabilities(nat64: try c.argument(0), dhcp6PD: try c.argument(1)))
                    return []
                },
                control("SetVendorInfo", [Argument("vendor_name", .string), Argument("product_name", .string)]) { a, c in
                    await a.setVendorInfo(try c.argument(0), try c.argument(1))
                    return []
                },
                control("ApplyPendingDataset", [], [Argument("applied", .boolean)]) { a, _ in
                    [.bool(await a.applyPendingDataset())]
                },
                control("MeetPartition", [Argument("dataset", .array(.byte))], [Argument("adopted", .boolean)]) { a, c in
                    [.bool(await a.meetPartition(try c.argument(0)))]
                },
                control("SetChannelEnergy", [Argument("channel", .byte), Argument("max_rssi", .int16)]) { a, c in
                    try await a.setChannelEnergy(try c.argument(0), try c.argument(1))
                    return []
                },
                control("SetSupportedChannelMask", [Argument("mask", .uint32)]) { a, c in
                    try await a.setSupportedChannelMask(try c.argument(0))
                    return []
                },
                control(
                    "AddNode",
                    [
                        Argument("kind", .string), Argument("ext_address", .uint64), Argument("parent", .uint64),
                        Argument("link_quality", .byte), Argument("rx_on_when_idle", .boolean),
                        Argument("full_thread_device", .boolean), Argument("timeout", .uint32),
                    ], [Argument("rloc16", .uint16)]
                ) { a, c in try await a.handleAddNode(c) },
                control("RemoveNode", [Argument("ext_address", .uint64)], [Argument("removed", .boolean)]) { a, c in
                    try await a.handleRemoveNode(c)
                },
                control(
                    "SetRadioHealth",
                    [Argument("cca_failure_rate", .uint16), Argument("multi_ail_detected", .boolean), Argument("rcp_version", .string)]
                ) { a, c in try await a.handleSetRadioHealth(c) },
            ],
            properties: [
                readOnly("EphemeralKeyState", .string) { a in .string(await a.runtime.epskc.state.rawValue) },
                readOnly("ThreadEnabled", .boolean) { a in .bool(await a.runtime.threadEnabled == .enabled) },
                readOnly("VendorName", .string) { a in .string(await a.vendorName) },
                readOnly("ProductName", .string) { a in .string(await a.productName) },
                readOnly("BorderAgentEnabled", .boolean) { a in .bool(await a.runtime.borderAgentEnabled) },
                readOnly("VendorTxtEntries", .array(VendorTXTEntry.dbusType)) { a in
                    .array(element: VendorTXTEntry.dbusType, await a.runtime.vendorTXT.map(\.dbusValue))
                },
            ])
    }

    /// `Crash`: answer `call`, then drop off the bus at once and come back after `restartAfter`. The
    /// crash waits for that call's reply to be handed over, not for time (a timer could close the
    /// connection first on a loaded machine, and the caller got no reply); other calls in flight are not
    /// waited for: a crash leaves them unanswered.
    private func scheduleCrash(restartAfter: Duration, answering call: MethodCall) {
        let connection = self.connection
        schedule(.exit, after: .zero) { agent in
            await connection?.replied(to: call)
            await agent.crash(restartAfter: restartAfter)
        }
    }

    private func setChannelEnergy(_ channel: UInt8, _ rssi: Int16) throws {
        guard (11...26).contains(channel), (-128...127).contains(rssi) else {
            throw DBusError(.invalidArgs, "channel must be 11-26 and max_rssi -128...127")
        }
        radioChannels.energy[channel] = Int8(rssi)
    }

    private func setSupportedChannelMask(_ mask: UInt32) throws {
        guard mask & ~RadioChannels.page0 == 0, mask != 0 else {
            throw DBusError(.invalidArgs, "the mask must name channels 11-26 only")
        }
        radioChannels.supportedMask = mask
    }

    private func setVendorInfo(_ vendor: String, _ product: String) {
        vendorName = vendor
        productName = product
    }
}
