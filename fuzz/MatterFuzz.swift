// libFuzzer target for the Matter onboarding payload parsers (fuzz/run.sh matter SECONDS).
//
// Oracles, beyond "never crash": a payload that parses is valid (no rule broken but the two that only
// warn) and generates codes that parse back to it: the QR code exactly, the manual code to what it
// carries; Base38 decoding of the input re-encodes to the same text; the optional data codec agrees.
import MatterOnboarding

@_cdecl("LLVMFuzzerTestOneInput")
public func matterFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let text = String(decoding: bytes, as: UTF8.self)

    // The input as text, as each parser and as QR text after the prefix.
    check(try? SetupPayload(parsing: text))
    check(try? SetupPayload(manualCode: text))
    check(try? SetupPayload(parsing: "MT:" + text))
    if let decoded = try? Base38.decode(text), Base38.encode(decoded) != text {
        fatalError("Base38 re-encoding changed the text")
    }
    // The input as bytes after the prefix: reaches the bit fields and the optional data directly.
    check(try? SetupPayload(parsing: "MT:" + Base38.encode(bytes)))
    // Error descriptions never crash either.
    do { _ = try SetupPayload(parsing: text) } catch { _ = error.description }
    return 0
}

/// The oracles for a payload that parsed.
func check(_ parsed: SetupPayload?) {
    guard let payload = parsed else { return }
    if payload.violations(for: payload.kind).contains(where: { !$0.isWarningOnParse }) {
        fatalError("a parsed payload breaks a rule")
    }
    _ = payload.warnings.map(\.description)
    _ = "\(payload)"
    let manual: SetupPayload
    do {
        manual = try SetupPayload(parsing: try payload.manualCode())
    } catch {
        // A reserved vendor ID parses with a warning, but a 21-digit code of it cannot be generated.
        if payload.warnings.isEmpty { fatalError("a parsed payload's manual code does not parse: \(error)") }
        return
    }
    if manual.passcode != payload.passcode || manual.discriminator.shortValue != payload.discriminator.shortValue {
        fatalError("the manual code does not carry the passcode and short discriminator")
    }
    guard payload.kind == .qrCode, payload.warnings.isEmpty else { return }
    do {
        let code = try payload.qrCode()
        if try SetupPayload(parsing: code) != payload { fatalError("the QR code does not parse back to the payload") }
    } catch {
        fatalError("a parsed QR payload cannot be written again: \(error)")
    }
}
