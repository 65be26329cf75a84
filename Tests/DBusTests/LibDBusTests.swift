@testable import DBus
import Testing

/// libdbus is opened with every function resolved at once, from its versioned soname only.
@Suite struct LibDBusTests {
    @Test func everyFunctionIsResolvedWhenTheLibraryIsOpened() {
        // A library that loads but is not libdbus: the table fails at once, naming the first function.
        guard case .failure(let error) = LibDBus.load(["libc.so.6"]) else {
            Issue.record("libc.so.6 passed for libdbus")
            return
        }
        #expect(error.message.contains("libc.so.6 has no dbus_bus_get_private"), "\(error)")
        guard case .success = LibDBus.load(LibDBus.libraryNames) else {
            Issue.record("libdbus-1.so.3 does not load")
            return
        }
    }

    @Test func onlyTheVersionedSonameIsTriedAndAMissingOneIsNamed() {
        #expect(LibDBus.libraryNames == ["libdbus-1.so.3"])
        guard case .failure(let error) = LibDBus.load(["libdbus-1.so.99"]) else {
            Issue.record("libdbus-1.so.99 loaded")
            return
        }
        #expect(error.message.hasPrefix("cannot load libdbus-1.so.99: "), "\(error)")
        #expect(error.message.hasSuffix("; install libdbus-1-3"), "\(error)")
    }
}
