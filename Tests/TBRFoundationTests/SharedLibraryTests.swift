import TBRFoundation
import Testing

/// Libraries opened with dlopen fail early and say what was tried.
@Suite struct SharedLibraryTests {
    typealias Function = @convention(c) () -> Void

    @Test func aLibraryThatDoesNotLoadNamesEverySonameTried() {
        let names = ["libtbrd-absent-a.so.3", "libtbrd-absent-b.so.2", "libtbrd-absent-c.so.1"]
        #expect {
            _ = try SharedLibrary.open(names)
        } throws: { error in
            guard let error = error as? SharedLibraryError else { return false }
            let text = "\(error)"
            return error.libraries == names && error.symbol == nil && names.allSatisfy { text.contains($0) }
                && text.hasPrefix("cannot load any of libtbrd-absent-a.so.3, libtbrd-absent-b.so.2, libtbrd-absent-c.so.1: ")
        }
    }

    @Test func aMissingFunctionIsNamedWithTheLibraryThatLacksIt() throws {
        let libc = try SharedLibrary.open(["libc.so.6"])
        #expect(libc.name == "libc.so.6")
        _ = try libc.function("getpid", as: Function.self)
        #expect {
            _ = try libc.function("tbrd_no_such_function", as: Function.self)
        } throws: { error in
            guard let error = error as? SharedLibraryError else { return false }
            return error.libraries == ["libc.so.6"] && error.symbol == "tbrd_no_such_function"
                && "\(error)" == "libc.so.6 has no tbrd_no_such_function"
        }
    }
}
