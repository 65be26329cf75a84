import Store
import TBRTestKit
import Testing

@Suite("Structures and their settings")
struct StructureTests {
    @Test("create, list, look up, rename and delete")
    func crud() async throws {
        try await withStore { store, f in
            let home = try await store.createStructure(named: "Home")
            #expect(home.name == "Home")
            #expect(home.createdAt == f.clock.wallTime())
            #expect(home.settings == StructureSettings())
            f.clock.advance(by: .seconds(5))
            let office = try await store.createStructure(named: "Office")
            #expect(office.id > home.id)
            #expect(try await store.structures().map(\.name) == ["Home", "Office"])
            #expect(try await store.structure(named: "Office") == office)
            #expect(try await store.structure(id: home.id) == home)
            #expect(try await store.structure(named: "office") == nil)

            let renamed = try await store.renameStructure(office.id, to: "Studio")
            #expect(renamed.name == "Studio")
            #expect(renamed.id == office.id)
            #expect(try await store.structure(named: "Office") == nil)
            try await store.renameStructure(office.id, to: "Studio")  // to its own name: fine

            try await store.deleteStructure(home.id)
            #expect(try await store.structure(id: home.id) == nil)
            let again = try await store.createStructure(named: "Home")
            #expect(again.id > office.id, "structure ids are never reused")
        }
    }

    @Test("duplicate, invalid and unknown structures are clear errors that change nothing")
    func errors() async throws {
        try await withStore { store, _ in
            let home = try await store.createStructure(named: "Home")
            let office = try await store.createStructure(named: "Office")
            await #expect(throws: StoreError.duplicateStructureName("Home")) {
                try await store.createStructure(named: "Home")
            }
            await #expect(throws: StoreError.duplicateStructureName("Home")) {
                try await store.renameStructure(office.id, to: "Home")
            }
            for name in ["", " Home", "Home ", "a\nb", String(repeating: "x", count: 65)] {
                await #expect(throws: StoreError.self) { try await store.createStructure(named: name) }
                #expect(StructureRecord.problem(withName: name) != nil)
            }
            #expect(StructureRecord.problem(withName: String(repeating: "é", count: 32)) == nil)
            let missing = StructureRecord.ID(rawValue: 999)
            let notFound = StoreError.structureNotFound("with id 999")
            await #expect(throws: notFound) { try await store.renameStructure(missing, to: "X") }
            await #expect(throws: notFound) { try await store.deleteStructure(missing) }
            await #expect(throws: notFound) { try await store.setSettings(StructureSettings(), of: missing) }
            await #expect(throws: notFound) { _ = try await store.routers(inStructure: missing) }
            #expect(try await store.structures().map(\.id) == [home.id, office.id])
            #expect(StoreError.duplicateStructureName("Home").description == "a structure named \"Home\" already exists")
        }
    }

    @Test("settings start unset, are replaced as a whole and carry when they changed")
    func settings() async throws {
        try await withStore { store, f in
            let home = try await store.createStructure(named: "Home")
            #expect(home.settingsUpdatedAt == nil)
            f.clock.advance(by: .seconds(60))
            let wanted = StructureSettings(internetAccessOption: "nat64Only", defaultThreadNetworkID: "dead00beef00cafe")
            let updated = try await store.setSettings(wanted, of: home.id)
            #expect(updated.settings == wanted)
            #expect(updated.settingsUpdatedAt == f.clock.wallTime())
            #expect(try await store.structure(id: home.id)?.settings == wanted)

            try await store.setSettings(StructureSettings(internetAccessOption: "none"), of: home.id)
            let read = try await store.structure(named: "Home")
            #expect(read?.settings.internetAccessOption == "none")
            #expect(read?.settings.defaultThreadNetworkID == nil)
        }
    }
}

/// Names that look the same are the same name; invisible characters are refused with the reason.
@Suite struct StructureNameTests {
    @Test("invisible, format and separator characters are refused, naming the character")
    func invisibleCharactersAreRefused() {
        let cases: [(String, String)] = [
            ("Ho\u{200B}me", "invisible formatting character (U+200B)"),  // zero-width space
            ("\u{202E}emoH", "invisible formatting character (U+202E)"),  // right-to-left override
            ("\u{FEFF}Home", "invisible formatting character (U+FEFF)"),  // byte order mark
            ("Home\u{2028}2", "line or paragraph separator (U+2028)"),
            ("Home\u{7}", "control character (U+0007)"),
            ("Home\u{E000}", "private-use character (U+E000)"),
        ]
        for (name, reason) in cases {
            let problem = StructureRecord.problem(withName: name)
            #expect(problem?.contains(reason) == true, "\(problem ?? "accepted") for \(name.unicodeScalars.map { $0.value })")
        }
        #expect(StructureRecord.problem(withName: "Maison de l'été 2") == nil)
        #expect(StructureRecord.problem(withName: "家") == nil)
    }

    @Test("NFC and NFD spellings are one structure")
    func normalisedNames() async throws {
        try await withStore { store, _ in
            let composed = "Caf\u{E9}", decomposed = "Cafe\u{301}"
            let created = try await store.createStructure(named: decomposed)
            #expect(Array(created.name.utf8) == Array(composed.utf8), "stored in NFC")
            await #expect(throws: StoreError.duplicateStructureName(composed)) { try await store.createStructure(named: composed) }
            #expect(try await store.structure(named: composed)?.id == created.id)
            #expect(try await store.structure(named: decomposed)?.id == created.id)
            #expect(try await store.structures().count == 1)
        }
    }
}
