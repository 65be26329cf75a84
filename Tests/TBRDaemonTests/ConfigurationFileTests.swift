import Foundation
import TBRDaemon
import TBRTestKit
import Testing

/// `config/tbrd.conf`, installed as /etc/tbrd/tbrd.conf, documents every setting with its default.
@Suite struct ConfigurationFileTests {
    @Test func theShippedFileDocumentsEverySettingWithItsDefault() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("config/tbrd.conf").path
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw TestKitError("missing \(path)") }
        // The commented "# key = value" lines, uncommented, are the defaults.
        let defaults = text.split(separator: "\n").filter { $0.wholeMatch(of: /# [a-z-]+ =( .*)?/) != nil }
            .map { String($0.dropFirst(2)) }
        let keys = Set(defaults.map { $0.split(separator: "=")[0].trimmingCharacters(in: .whitespaces) })
        #expect(keys == Set(DaemonConfiguration.keys.keys), "documented: \(keys.sorted())")
        var parsed = DaemonConfiguration()
        try parsed.apply(fileText: defaults.joined(separator: "\n"), path: path)
        var expected = DaemonConfiguration()
        expected.configFile = parsed.configFile
        #expect(parsed == expected, "the values shown are the defaults")
        #expect(parsed.policyCheckInterval == 60 && parsed.firewall == .nftables && parsed.nftPath == "nft")
    }
}
