import TBRCommandLine

/// `tbrctl matter`: Matter onboarding payloads, the QR codes and manual pairing codes printed on
/// devices. Its commands are the `Matter+….swift` files beside this one; they work offline.
struct Matter: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "matter",
        abstract: "Read and make Matter onboarding payloads; commission devices into structures; name, place, remove and share nodes.",
        discussion: """
            A Matter device's label carries a QR code (MT:…) and an 11- or 21-digit manual pairing code: \
            its vendor and product, how to find it, its discriminator and its setup passcode. These \
            commands decode and check them against the Matter specification, and make them; nothing is \
            sent anywhere.

            The other commands need tbrd and its Matter commissioner (matter-backend in tbrd.conf): \
            commission hands devices to it into a structure, stage by stage; nodes lists what was \
            commissioned (and, with --unclaimed, the commissioner's nodes no structure holds); rename, \
            move and remove change a node; adopt records an unclaimed node; share opens a commissioning \
            window on a node for another controller. tbrd never changes or removes a node no structure \
            of its holds: a python-matter-server shared with Home Assistant keeps that controller's \
            devices untouched.
            """,
        subcommands: [
            Parse.self, Generate.self, Commission.self, Nodes.self, Rename.self, Move.self, Remove.self, Adopt.self, Share.self,
        ])
}
