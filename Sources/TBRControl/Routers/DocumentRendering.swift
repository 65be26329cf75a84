import TBRDocuments

// The text forms of the shared JSON documents (TBRDocuments), for people.

extension RouterInfo {
    /// The text form: one field per line, aligned.
    func render() -> String {
        let n = network
        let rows: [(String, String)] = [
            ("Router", "\(id) (\(transport == "rest" ? address : "interface \(interface)"), \(online ? "online" : "offline"))"),
            ("Border Agent ID", borderAgentId.orDash),
            ("Vendor", basicInformation.vendorName.isEmpty ? "-" : basicInformation.vendorName),
            ("Vendor ID", basicInformation.vendorId.map { "\($0)" } ?? "-"),
            ("Product", basicInformation.productName.isEmpty ? "-" : basicInformation.productName),
            ("Product ID", basicInformation.productId.map { "\($0)" } ?? "-"),
            ("Software version", basicInformation.softwareVersion.isEmpty ? "-" : basicInformation.softwareVersion),
            ("ePSKc", capabilities.epskcSupported ? "supported" : "not supported"),
            ("Internet access", capabilities.internetAccessOption),
            ("Role", n.role.orDash),
            ("Network name", n.networkName.orDash),
            ("PAN ID", n.panId.map { PANText.hex($0) } ?? "-"),
            ("Extended PAN ID", n.extPanId.orDash),
            ("Channel", n.channel.map { "\($0)" } ?? "-"),
        ]
        return TextTable.fields(rows)
    }
}

extension StructureView {
    /// The text form: one field per line, then the policy's state per router.
    func render() -> String {
        let fields = TextTable.fields([
            ("Structure", name),
            ("Border routers", routers.isEmpty ? "-" : routers.joined(separator: ", ")),
            ("Internet access", settings.internetAccessOption),
            ("Default network", settings.defaultThreadNetworkId.orDash),
        ])
        return policy.isEmpty ? fields : fields + "\n\n" + PolicyRouterView.table(policy)
    }
}

extension PolicyView {
    /// The text form: the structure and option, then one row per router.
    func render() -> String {
        let fields = TextTable.fields([("Structure", structure), ("Internet access", internetAccessOption)])
        return routers.isEmpty ? fields + "\n(no border routers)" : fields + "\n\n" + PolicyRouterView.table(routers)
    }
}

extension PolicyRouterView {
    /// The rows as a table for people: `ROUTER  POLICY  DETAIL`.
    static func table(_ rows: [PolicyRouterView]) -> String {
        TextTable.render(header: ["ROUTER", "POLICY", "DETAIL"], rows: rows.map { [$0.id, $0.state.rawValue, $0.detail.isEmpty ? "-" : $0.detail] })
    }
}
