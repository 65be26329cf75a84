import BorderRouterService
import TBRDocuments

extension EpskcWatchEvent {
    /// The text form, one line:
    /// `2024-05-01T12:00:00.000Z  #7  wpan0  activated (valid 120 s)` or
    /// `2024-05-01T12:00:31.250Z  #8  wpan0  deactivated: keyUsed (active 31.3 s)`.
    func render() -> String {
        switch event {
        case .epskcModeActivated:
            let valid = validSeconds.map { $0 > 0 ? " (valid \($0) s)" : " (started outside tbrd, validity unknown)" } ?? ""
            return "\(activatedAt)  #\(sequence)  \(router)  activated\(valid)"
        case .epskcModeDeactivated:
            let end = deactivatedAt ?? activatedAt
            var why = reason ?? "unspecified"
            if let detail, !detail.isEmpty { why += ", \(detail)" }
            let seconds = Double(Int((end.secondsSinceEpoch - activatedAt.secondsSinceEpoch) * 10)) / 10
            return "\(end)  #\(sequence)  \(router)  deactivated: \(why) (active \(seconds) s)"
        }
    }
}
