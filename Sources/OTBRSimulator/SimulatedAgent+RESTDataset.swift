import HTTPMessages
import MeshCoP
import TBRFoundation

/// `/node/dataset/active` and `/node/dataset/pending` (ot-br-posix `RestWebServer::GetDataset` and
/// `SetDataset`), on the datasets D-Bus reads and writes.
extension SimulatedAgent {
    /// `GET`: 204 without a dataset; with `Accept: text/plain` (exactly) the TLVs as upper-case hex,
    /// otherwise the JSON object. The pending dataset's Delay Timer reads the time left, as on D-Bus.
    func restDataset(pending: Bool, _ request: HTTPServerRequest) -> HTTPServerResponse {
        guard let tlvs = pending ? pendingDatasetAsRead() : persistent.activeDataset, !tlvs.isEmpty,
            let dataset = DatasetRules.decode(tlvs)
        else { return RESTAnswer.empty(204) }
        if request.accept == RESTAnswer.text {
            return HTTPServerResponse(status: 200, contentType: RESTAnswer.text, body: Array(Hex.encode(tlvs).uppercased().utf8))
        }
        return RESTAnswer.ok(pending ? RESTDatasetJSON.pending(dataset) : RESTDatasetJSON.active(dataset))
    }

    /// `PUT`: the written components are merged into the dataset of that kind
    /// (``DatasetRules/update(_:with:)``); without one a new network's dataset is made first
    /// (``DatasetRules/newNetwork()``) and the answer is 201, else 200. The body is hex TLVs when
    /// `Content-Type` is exactly `text/plain` (not hex or too long: 400; not TLVs: 500), the JSON object
    /// otherwise (400 when it is not one; a pending one needs `delay`). The active dataset can be written
    /// only while Thread is disabled (409); it is stored as D-Bus stores it (`ActiveDatasetTlvs` signalled).
    /// The pending one starts its Delay Timer, as D-Bus `AttachAllNodesTo` does.
    func restWriteDataset(pending: Bool, _ request: HTTPServerRequest) async -> HTTPServerResponse {
        if !pending, runtime.role != .disabled { return RESTAnswer.problem(409) }
        var status = 200
        var base = (pending ? pendingDatasetAsRead() : persistent.activeDataset) ?? []
        if base.isEmpty {
            guard let created = try? DatasetRules.newNetwork() else { return RESTAnswer.problem(500) }
            base = created
            status = 201
        }
        let text = String(decoding: request.body, as: UTF8.self)
        let written: OperationalDataset
        if request.headers["content-type"] == RESTAnswer.text {
            guard let bytes = DatasetRules.otbrHex(text, maximumBytes: OperationalDataset.maximumLength) else {
                return RESTAnswer.problem(400)
            }
            // `otDatasetParseTlvs` failing is OTBR_ERROR_REST: 500, not 400.
            guard let decoded = DatasetRules.decode(bytes) else { return RESTAnswer.problem(500) }
            written = decoded
        } else {
            guard let json = try? JSON(parsing: text),
                let parsed = pending ? RESTDatasetJSON.parsePending(json) : RESTDatasetJSON.parseActive(json),
                !pending || parsed.delayTimer != nil
            else { return RESTAnswer.problem(400) }
            written = parsed
        }
        guard let merged = DatasetRules.update(base, with: written), DatasetRules.decode(merged) != nil else {
            return RESTAnswer.problem(500)
        }
        if pending {
            setPendingDataset(merged)
        } else {
            await storeActiveDataset(merged)
        }
        return RESTAnswer.empty(status)
    }
}
