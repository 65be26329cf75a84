import DBus

extension TBRDBusAPI.Manager {
    /// `CreateApiToken(s name, s scope) → s token`: a new HTTPS API token, returned once; tbrd keeps only
    /// its SHA-256. Admins only.
    public static let createApiToken = MethodContract(
        "CreateApiToken", inputs: [Argument("name", .string), Argument("scope", .string)], outputs: [Argument("token", .string)])
    /// `ListApiTokens() → a(ssdd)`: name, scope, created and last used (seconds since the epoch; 0 never).
    /// Admins only.
    public static let listApiTokens = MethodContract(
        "ListApiTokens", outputs: [Argument("tokens", .array(.structure([.string, .string, .double, .double])))])
    /// `RevokeApiToken(s name) → ()`: requests made with it are refused from now on. Admins only.
    public static let revokeApiToken = MethodContract("RevokeApiToken", inputs: [Argument("name", .string)])
    /// `ApiInfo() → (s listen, s certificate_sha256)`: where the HTTPS API listens (empty: off) and its
    /// certificate's SHA-256 fingerprint, 64 lower-case hex digits (empty: plain HTTP on loopback).
    public static let apiInfo = MethodContract(
        "ApiInfo", outputs: [Argument("listen", .string), Argument("certificate_sha256", .string)])
}
