public import Foundation

/// Finds tools on PATH and the project's own built binaries.
public enum Executables {
    /// The absolute path of `tool` on PATH (or in /usr/sbin, /sbin).
    /// - Throws: ``TestKitError`` naming the Debian package to install: a missing tool fails the test.
    public static func find(_ tool: String, package: String) throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":").map(String.init) + ["/usr/sbin", "/sbin", "/usr/bin"] {
            let candidate = dir + "/" + tool
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw TestKitError("\(tool) is not installed (Debian package \(package); run `make deps`)")
    }

    /// The directory holding the package's built products (where `swift build` put `tbrctl`, …).
    ///
    /// Found from the running test bundle: `swift test` runs `<scratch>/<config>/tbrdPackageTests.xctest`,
    /// which sits beside the products. `TBRD_PRODUCTS_DIR` overrides it.
    public static var productsDirectory: URL {
        if let dir = ProcessInfo.processInfo.environment["TBRD_PRODUCTS_DIR"] { return URL(fileURLWithPath: dir) }
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        while url.path != "/" {
            if url.pathExtension == "xctest" { return url.deletingLastPathComponent() }
            url.deleteLastPathComponent()
        }
        for b in Bundle.allBundles where b.bundlePath.hasSuffix(".xctest") {
            return b.bundleURL.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    }

    /// The path of the built product `name`.
    /// - Throws: ``TestKitError`` if it was not built (run `swift build` first): never skip.
    public static func product(_ name: String) throws -> String {
        let url = productsDirectory.appendingPathComponent(name)
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            throw TestKitError("built binary \(name) not found at \(url.path); run `swift build` (make test does)")
        }
        return url.path
    }
}

/// Creates unique temporary directories.
public enum TemporaryDirectory {
    /// A new empty directory under $TMPDIR (mode 0700).
    public static func make(prefix: String) throws -> URL {
        let base = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
        var template = Array("\(base)/\(prefix)-XXXXXX".utf8CString)
        guard let p = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw TestKitError("mkdtemp failed under \(base)")
        }
        return URL(fileURLWithPath: String(cString: p))
    }
}
