/// What the kernel takes as a network interface name (`dev_valid_name` in net/core/dev.c): 1 to 15
/// bytes, not `.` or `..`, no slash, colon, white space or control character. A name that passes is one
/// path component, so it can be joined to a sysfs or procfs directory without leaving it.
enum InterfaceNameRule {
    /// IFNAMSIZ less its terminating zero.
    static let maximumBytes = 15

    /// Why `name` (its bytes) is not an interface name, as the end of a sentence; nil when it is one.
    static func problem(with name: some Collection<UInt8>) -> String? {
        if name.isEmpty { return "it is empty" }
        if name.count > maximumBytes { return "it is longer than \(maximumBytes) bytes" }
        if name.elementsEqual(".".utf8) || name.elementsEqual("..".utf8) { return "it is . or .." }
        for byte in name {
            switch byte {
            case UInt8(ascii: "/"): return "it contains a slash"
            case UInt8(ascii: ":"): return "it contains a colon"
            case 0...0x20, 0x7F: return "it contains white space or a control character"
            default: continue
            }
        }
        return nil
    }
}
