/// What an HTTPS API token may do. The scopes follow the D-Bus policy (`io.tbrd.conf`): `read` is what
/// group `tbrd` may call, `admin` what group `tbrd-admin` may, and `epskc` is `read` plus starting and
/// stopping ePSKc keys (a phone that only shares credentials).
public enum APIScope: String, Sendable, Hashable, CaseIterable, Codable {
    case read, epskc, admin

    /// Whether a token of this scope may do what `needed` asks.
    public func allows(_ needed: APIScope) -> Bool {
        switch (self, needed) {
        case (.admin, _): true
        case (.epskc, .read), (.epskc, .epskc): true
        case (.read, .read): true
        default: false
        }
    }
}
