extension String {
    /// nil for the empty string: the "none" of D-Bus strings and JSON's null, one way round.
    public var nilIfEmpty: String? { isEmpty ? nil : self }
}
