import BorderRouterService
import TBRDocuments
import TBRDBusAPI
import DBus

/// One call of a router's `io.tbrd.BorderRouter1` object, as both ways of reaching tbrd make it: the
/// member, its arguments, how failures name it, and how its reply reads. ``TbrdBackend`` makes it over
/// a ``Connection``, ``BlockingTbrd`` over a ``BlockingConnection``; neither spells the call itself,
/// so the two cannot drift apart.
struct RouterCall<Result> {
    /// The method of `BorderRouter1`.
    let member: MemberName
    /// Its arguments, in order.
    let arguments: [DBusValue]
    /// Reads the reply of the call on the router with this id.
    /// - Throws: ``ControlError`` when the reply is not what the contract says.
    let decode: (_ reply: [DBusValue], _ router: String) throws(ControlError) -> Result

    /// What the call is, for messages: `ActivateEpskcMode on wpan0`.
    func doing(_ router: RouterRef) -> String { "\(member) on \(router.id)" }
}

extension RouterCall<EpskcActivation> {
    /// `ActivateEpskcMode(q seconds) → (s status, s epskc, q validSeconds)`; `seconds` nil asks for
    /// tbrd's default. Non-success statuses come back with their sentence, not as errors.
    static func activateEpskc(seconds: Int?) -> RouterCall {
        let contract = TBRDBusAPI.BorderRouter.activateEpskcMode
        return RouterCall(member: contract.name, arguments: [.uint16(UInt16(clamping: seconds ?? 0))]) {
            (reply, router) throws(ControlError) in
            let r: ActivateEpskcReply
            do { r = try ActivateEpskcReply(arguments: reply) } catch {
                throw .failure("\(contract.name) on \(router) failed: tbrd's reply is not (s, s, q): \(error)")
            }
            return EpskcActivation(
                status: r.status, epskc: r.status == .success ? r.epskc : nil, validDurationSeconds: Int(r.validSeconds),
                message: r.status == .success ? nil : EpskcActivation.sentence(for: r.status, router: router))
        }
    }
}

extension RouterCall<Void> {
    /// `DeactivateEpskcMode(b retainActiveSession) → ()`.
    static func deactivateEpskc(retainSession: Bool) -> RouterCall {
        RouterCall(member: TBRDBusAPI.BorderRouter.deactivateEpskcMode.name, arguments: [.bool(retainSession)]) { _, _ in }
    }
}

extension EpskcActivation {
    /// A sentence for a non-success `status` of `ActivateEpskcMode` on `router`.
    static func sentence(for status: OperationStatus, router: String) -> String {
        switch status {
        case .busy: "an ePSKc is already active on \(router); wait for it to end or end it with 'tbrctl epskc deactivate'"
        case .notSupported: "\(router) does not support ePSKc (built without it, or the feature is off)"
        case .invalidState: "\(router) cannot start an ePSKc in its current state"
        case .invalidArgument: "\(router) refused the ePSKc request as invalid"
        case .success, .failed: "\(router) could not start an ePSKc (status \(status.rawValue))"
        }
    }
}
