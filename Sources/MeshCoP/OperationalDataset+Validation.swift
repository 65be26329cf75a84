extension OperationalDataset {
    /// Every problem in TLV bytes, each with its TLV type and offset: malformed TLVs (the scan goes on
    /// past a bad value or a duplicate, and stops only where the framing itself breaks), unsupported
    /// channels, and, when `kind` is given, what a complete dataset of that kind needs: its required
    /// TLVs, a PAN ID other than 0xFFFF and a mesh-local prefix in fd00::/8.
    ///
    /// - Parameters:
    ///   - bytes: the dataset TLVs, possibly malformed.
    ///   - kind: the complete dataset the bytes must be, or nil to check only what is present.
    /// - Returns: the problems in offset order (the size limit and missing TLVs last); empty when valid.
    public static func validate(bytes: [UInt8], as kind: DatasetKind? = .active) -> [DatasetProblem] {
        let scan = DatasetScanner.scan(bytes, stopAtFirstError: false)
        var problems: [(order: Int, problem: DatasetProblem)] = scan.errors.map { error in
            let order = error.reason == .tooLong(bytes.count) ? Int.max - 1 : error.offset
            return (order, DatasetProblem(error))
        }
        for (tlv, offset) in zip(scan.tlvs, scan.offsets) {
            let problem = { (reason: DatasetProblem.Reason) in
                problems.append((offset, DatasetProblem(tlvType: tlv.type, offset: offset, reason: reason)))
            }
            switch tlv {
            case .channel(let c), .wakeUpChannel(let c):
                if !c.isSupported { problem(.unsupportedChannel(c)) }
            case .panID(let p) where kind != nil:
                if p == .broadcast { problem(.broadcastPANID) }
            case .meshLocalPrefix(let m) where kind != nil:
                if !m.isUniqueLocal { problem(.meshLocalPrefixNotUniqueLocal(m)) }
            default:
                break
            }
        }
        var result = problems.sorted { $0.order < $1.order }.map(\.problem)
        if let kind {
            // A TLV present but malformed is reported as malformed, not also as missing.
            var present = TLVTypeSet()
            for tlv in scan.tlvs { _ = present.insert(tlv.type) }
            for error in scan.errors { if let type = error.tlvType { _ = present.insert(type) } }
            for type in kind.requiredTLVTypes where !present.contains(type) {
                result.append(DatasetProblem(tlvType: type, offset: nil, reason: .missing(kind)))
            }
        }
        return result
    }

    /// Every problem in this dataset (see ``validate(bytes:as:)``), with offsets in ``encoded()``.
    /// - Parameter kind: the complete dataset this must be, or nil to check only what is present.
    public func validate(as kind: DatasetKind? = .active) -> [DatasetProblem] {
        Self.validate(bytes: encoded(), as: kind)
    }

    /// True when ``validate(as:)`` finds nothing.
    public func isValid(as kind: DatasetKind? = .active) -> Bool { validate(as: kind).isEmpty }
}
