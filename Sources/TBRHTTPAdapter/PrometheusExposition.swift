import TBRDocuments

/// The core's metric families in Prometheus' text exposition format (version 0.0.4): `# HELP` and
/// `# TYPE` lines, then one line a sample, label values escaped. A family without a sample is left out.
enum PrometheusExposition {
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    static func text(_ families: [MetricFamily]) -> String {
        var out = ""
        for family in families where !family.samples.isEmpty {
            out += "# HELP \(family.name) \(escaped(family.help, quotes: false))\n# TYPE \(family.name) \(family.kind.rawValue)\n"
            for sample in family.samples {
                out += family.name
                if !sample.labels.isEmpty {
                    out += "{" + sample.labels.map { "\($0.name)=\"\(escaped($0.value, quotes: true))\"" }.joined(separator: ",") + "}"
                }
                out += " " + number(sample.value) + "\n"
            }
        }
        return out
    }

    /// Backslash and newline escaped (and the double quote in a label value), as the format wants.
    static func escaped(_ text: String, quotes: Bool) -> String {
        var out = ""
        for c in text {
            switch c {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\"" where quotes: out += "\\\""
            default: out.append(c)
            }
        }
        return out
    }

    /// An integer without a fraction (a partition id reads as itself); `NaN`, `+Inf`, `-Inf` as spelled.
    static func number(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }
}
