// MeshCoP: Thread Mesh Commissioning Protocol values and codecs.
//
// - Operational datasets: `OperationalDataset` (TLVs, unknown ones kept byte-exact), one typed value
//   per wire type (`Channel`, `PANID`, `ExtendedPANID`, `NetworkName`, `PSKc`, `NetworkKey`,
//   `MeshLocalPrefix`, `SecurityPolicy`, `Timestamp`, `DelayTimer`, `ChannelMask`), validation that
//   reports every problem (`DatasetProblem`), a table rendering and JSON forms with secrets redacted
//   unless `CodingUserInfoKey.revealSecrets` is set.
// - Border Agent discovery: `MeshCoPTXTRecord` and its `StateBitmap`.
// - Credentials: `PSKc.derive(passphrase:networkName:extendedPANID:)`, `EphemeralKey`, `Verhoeff`.
//
// Everything that touches OpenSSL lives in LibCrypto.swift; the decoders never need it.
