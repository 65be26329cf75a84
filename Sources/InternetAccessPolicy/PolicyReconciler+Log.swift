package import TBRFoundation
import DeviceModel

extension PolicyReconciler {
    /// Logs what applying `plan` to router `id` came to (never a key or a dataset).
    package func log(_ id: DeviceID, _ plan: RouterPolicyPlan, _ result: RouterApplyResult) {
        var metadata = [("router", id.rawValue), ("option", plan.option.rawValue)]
        if firewallManaged, result.infrastructureInterface == nil, result.outcome != .offline {
            logger.info("the router did not name its infrastructure interface; its firewall rules let only link-local and ULA through", [("router", id.rawValue)])
        }
        switch result.outcome {
        case .applied(let note):
            if !note.isEmpty { metadata.append(("note", note)) }
            logger.info("internet-access policy applied", metadata)
        case .unsupported(let why):
            metadata.append(("lacks", why))
            logger.notice("internet-access policy applied in part: the router cannot provide all of it", metadata)
        case .failed(let why):
            metadata.append(("error", why))
            logger.warning("internet-access policy could not be applied; retrying", metadata)
        case .offline:
            logger.info("internet-access policy pending: the router is offline", metadata)
        }
    }
}
