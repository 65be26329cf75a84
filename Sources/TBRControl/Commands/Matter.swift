import TBRCommandLine

/// `tbrctl matter`: Matter onboarding payloads, the QR codes and manual pairing codes printed on
/// devices. Its commands are the `Matter+….swift` files beside this one; they work offline.
struct Matter: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "matter",
        abstract: "Read and make Matter onboarding payloads; commission devices into structures, list and share nodes.",
        discussion: """
            A Matter device's label carries a QR code (MT:…) and an 11- or 21-digit manual pairing code: \
            its vendor and product, how to find it, its discriminator and its setup passcode. These \
            commands decode and check them against the Matter specification, and make them; nothing is \
            sent anywhere.

            commission, nodes and share need tbrd and its Matter commissioner (matter-backend in \
            tbrd.conf): commission hands devices to it into a structure, stage by stage; nodes lists what \
            was commissioned; share opens a commissioning window on a node for another controller.
            """,
        subcommands: [Parse.self, Generate.self, Commission.self, Nodes.self, Share.self])
}
