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
        #expect(keys == Set(DaemonConfiguration.keys), "documented: \(keys.sorted())")
        var parsed = DaemonConfiguration()
        try parsed.apply(fileText: defaults.joined(separator: "\n"), path: path)
        var expected = DaemonConfiguration()
        expected.configFile = parsed.configFile
        #expect(parsed == expected, "the values shown are the defaults")
        #expect(parsed.policyCheckInterval == 60 && parsed.firewall == .nftables && parsed.nftPath == "nft")
        // The file is generated from the table tbrd.conf(5) is generated from: they cannot disagree.
        #expect(text == DaemonConfiguration.defaultFileText(), "config/tbrd.conf is 'tbrd --generate-default-config'")
    }

    /// tbrd(8) and tbrd.conf(5) come from the declarations tbrd parses with: every option and every
    /// setting is in them, and groff reads both without a warning.
    @Test func theManualPagesDescribeEveryOptionAndSettingAndGroffReadsThem() async throws {
        let tbrd = try Executables.product("tbrd")
        let groff = try Executables.find("groff", package: "groff-base")
        let page = try await ProcessRunner.run(tbrd, ["--generate-manual"])
        #expect(page.status == 0 && page.stdout.hasPrefix(".TH \"TBRD\" \"8\""))
        for option in ["bus", "state-dir", "config", "log-level", "version", "help"] {
            #expect(page.stdout.contains("\\fB\\-\\-" + option.replacingOccurrences(of: "-", with: "\\-") + "\\fR"), "--\(option)")
        }
        let conf = try await ProcessRunner.run(tbrd, ["--generate-config-manual"])
        #expect(conf.status == 0 && conf.stdout.hasPrefix(".TH \"TBRD.CONF\" \"5\""))
        for key in DaemonConfiguration.keys {
            #expect(conf.stdout.contains("\\fB" + key.replacingOccurrences(of: "-", with: "\\-") + "\\fR ="), "\(key)")
        }
        for text in [page.stdout, conf.stdout] {
            let checked = try await ProcessRunner.run(groff, ["-man", "-ww", "-z", "-Tutf8"], stdin: text)
            #expect(checked.status == 0 && checked.stderr.isEmpty, "groff: \(checked.stderr)")
        }
    }
}
