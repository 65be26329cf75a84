import MatterOnboarding
import TBRFoundation

/// Reading and writing attributes, and sharing a node (`open_commissioning_window`).
extension SimulatedMatterServer {
    /// Interaction Model statuses a device answers a write with (Matter 1.3, 8.10).
    enum WriteStatus: Int64 {
        case success = 0x00
        case unsupportedEndpoint = 0x7F
        case unsupportedAttribute = 0x86
        case constraintError = 0x87
        case unsupportedWrite = 0x88
        case unsupportedCluster = 0xC3
    }

    /// `read_attribute(node_id: int, attribute_path: str | list[str], fabric_filtered: bool = False)`:
    /// `{path: value}` for the node's attributes on the paths (wildcards allowed); an unavailable node
    /// is error 3 (observed for an unknown one). Values read are those stored, so no
    /// `attribute_updated` follows.
    func readAttribute(_ a: CommandArguments) async throws(CommandError) -> Reply {
        let id = try a.integer("node_id")
        let texts = try a.strings("attribute_path")
        _ = try a.bool("fabric_filtered", default: false)
        let node = try availableNode(id)
        var paths: [AttributePath] = []
        for text in texts { paths.append(try AttributePath(parsing: text)) }
        try await pause(configuration.step(of: node.device))
        let current = nodes[node.id]?.attributes ?? node.attributes
        return Reply(result: .object(JSONObject(current.filter { member in paths.contains { $0.matches(member.key) } }.map { ($0.key, $0.value) })))
    }

    /// `write_attribute(node_id: int, attribute_path: str, value: Any)`: the device's answer, as the
    /// SDK returns it, `[{"Path": {"EndpointId", "ClusterId", "AttributeId"}, "Status"}]`. NodeLabel
    /// (0/40/5, a string of at most 32 bytes) is writable: a longer one is CONSTRAINT_ERROR (0x87), a
    /// `label-readonly` device answers UNSUPPORTED_WRITE (0x88); every other attribute of the node is
    /// read-only (0x88); a path the node lacks gets UNSUPPORTED_ENDPOINT, _CLUSTER or _ATTRIBUTE. A
    /// changed value is stored and announced with `attribute_updated` after the result (the device's
    /// subscription report). A wildcard endpoint is error 8 "Invalid attribute path: …"; a wildcard
    /// cluster or attribute, or one no node has (which the SDK would not know), is error 0 with the
    /// `KeyError`'s text; a NodeLabel that is not a string is error 0 with the `TypeError`'s.
    func writeAttribute(_ a: CommandArguments) async throws(CommandError) -> Reply {
        let id = try a.integer("node_id")
        let text = try a.string("attribute_path")
        let value = a.any("value") ?? .null
        let node = try availableNode(id)
        let path = try AttributePath(parsing: text)
        guard let endpoint = path.endpoint else { throw CommandError(8, "Invalid attribute path: \(text)") }
        guard let cluster = path.cluster else { throw .unknown("None") }
        guard let attribute = path.attribute else { throw .unknown("None") }
        let known = nodes.values.flatMap(\.attributes.keys).map { $0.split(separator: "/").map { UInt64($0) } }
        guard known.contains(where: { $0.count == 3 && $0[1] == cluster }) else { throw .unknown(String(cluster)) }
        guard known.contains(where: { $0.count == 3 && $0[1] == cluster && $0[2] == attribute }) else { throw .unknown(String(attribute)) }
        let key = "\(endpoint)/\(cluster)/\(attribute)"
        if key.hasSuffix("/40/5") {
            guard !value.isNull else { throw .unknown("\"`\(text)` of type `<class 'str'>` is required.\"") }
            guard value.string != nil else {
                throw .unknown(
                    "Value \(Python.repr(value)) of type \(Python.typeName(value)) is invalid for \(text), expected value of type <class 'str'>")
            }
        }
        try await pause(configuration.step(of: node.device))
        guard var current = nodes[node.id], current.reachable else { throw .unknown("src/lib/address_resolve/AddressResolve_DefaultImpl.cpp:124: CHIP Error 0x00000032: Timeout") }
        let status: WriteStatus
        var changed = false
        if !current.attributes.keys.contains(where: { $0.hasPrefix("\(endpoint)/") }) {
            status = .unsupportedEndpoint
        } else if !current.attributes.keys.contains(where: { $0.hasPrefix("\(endpoint)/\(cluster)/") }) {
            status = .unsupportedCluster
        } else if current.attributes[key] == nil {
            status = .unsupportedAttribute
        } else if key != NodeAttributes.nodeLabel || !current.device.isLabelWritable {
            status = .unsupportedWrite
        } else if let label = value.string, label.utf8.count > NodeAttributes.nodeLabelMaximum {
            status = .constraintError
        } else {
            status = .success
            changed = current.attributes[key] != value
            current.attributes[key] = value
            nodes[node.id] = current
        }
        let result: JSON = [["Path": ["EndpointId": JSON(endpoint), "ClusterId": JSON(cluster), "AttributeId": JSON(attribute)], "Status": .int(status.rawValue)]]
        return Reply(result: result, eventsAfter: changed ? [("attribute_updated", [JSON(node.id), .string(key), value])] : [])
    }

    /// `open_commissioning_window(node_id: int, timeout: int = 300, iteration: int = 1000, option: int
    /// = 1, discriminator: int | None = None)`: `{"setup_pin_code", "setup_manual_code",
    /// "setup_qr_code"}` for a new window, or the same codes while the last one is still open. An
    /// unavailable node is error 3. A device without the administrator-commissioning cluster makes
    /// the SDK's command fail, which the server passes on as error 0 with the SDK's words (inferred:
    /// it reads the window status, gets UNSUPPORTED_CLUSTER, and sends RevokeCommissioning, which
    /// fails with `InteractionModelError: UnsupportedCluster (0xc3)`).
    func openCommissioningWindow(_ a: CommandArguments) async throws(CommandError) -> Reply {
        let id = try a.integer("node_id")
        let timeout = try a.integer("timeout", default: 300)
        _ = try a.integer("iteration", default: 1000)
        _ = try a.integer("option", default: 1)
        let requested = a.optionalInteger("discriminator")
        var node = try availableNode(id)
        let step = configuration.step(of: node.device)
        try await pause(step)
        guard node.device.supportsMultiAdmin else {
            try await pause(step)
            throw .unknown("InteractionModelError: UnsupportedCluster (0xc3)")
        }
        node = nodes[node.id] ?? node
        if let window = node.window, clock.now() < window.closes { return Reply(result: window.codes) }
        try await pause(step)
        var generator = SystemRandomNumberGenerator()
        let passcode = Passcode.random(using: &generator)
        let discriminator = requested?.nodeID.map { UInt16(truncatingIfNeeded: $0) & Discriminator.longMaximum }
            ?? UInt16.random(in: 0...Discriminator.longMaximum, using: &generator)
        let payload = SetupPayload(
            vendorID: VendorID(node.device.vendorID), productID: ProductID(node.device.productID), discoveryCapabilities: .onNetwork,
            discriminator: .long(discriminator), passcode: passcode)
        let codes: JSON
        do {
            codes = ["setup_pin_code": .int(Int64(passcode.rawValue)), "setup_manual_code": .string(try payload.manualCode()), "setup_qr_code": .string(try payload.qrCode())]
        } catch {
            throw .unknown("\(error)")
        }
        if var stored = nodes[node.id] {
            stored.window = (codes, clock.now().advanced(by: .seconds(timeout.int64 ?? 300)))
            nodes[node.id] = stored
        }
        return Reply(result: codes)
    }
}
