
/// Text for absent values in tables and sentences.
extension Optional where Wrapped == String {
    /// The value, or `-` when absent or empty.
    var orDash: String {
        guard let self, !self.isEmpty else { return "-" }
        return self
    }
}
