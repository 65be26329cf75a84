/// One metric of `GET /api/v1/metrics` (issue 49): a name, what it measures, its kind, and a value per
/// set of labels. The HTTP adapter writes it in Prometheus' text exposition format; the names and
/// labels are the core's (docs/http-api.md lists them).
public struct MetricFamily: Sendable, Hashable {
    /// A gauge goes up and down; a counter only grows while tbrd runs (its name ends in `_total`).
    public enum Kind: String, Sendable, Hashable {
        case gauge, counter
    }

    /// One value and its labels, in the order they are written.
    public struct Sample: Sendable, Hashable {
        public var labels: [Label]
        public var value: Double

        public init(_ labels: [Label], _ value: Double) {
            self.labels = labels
            self.value = value
        }
    }

    /// A label's name and value.
    public struct Label: Sendable, Hashable {
        public var name: String
        public var value: String

        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// `tbrd_…`, in base units (`_bytes`, `_seconds`).
    public var name: String
    public var help: String
    public var kind: Kind
    public var samples: [Sample]

    public init(_ name: String, _ kind: Kind, _ help: String, _ samples: [Sample]) {
        self.name = name
        self.help = help
        self.kind = kind
        self.samples = samples
    }
}
