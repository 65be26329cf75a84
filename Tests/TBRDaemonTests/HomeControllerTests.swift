import DBus
import Foundation
import TBRTestKit
import Testing

/// A home controller as a separate program: Debian's python3-dbus (with the GLib main loop) calls tbrd's
/// API, reads properties and receives EpskcModeDeactivated, exactly as an integration would.
@Suite struct HomeControllerTests {
    static let script = #"""
        import json, sys
        import dbus
        from dbus.mainloop.glib import DBusGMainLoop
        from gi.repository import GLib

        DBusGMainLoop(set_as_default=True)
        bus = dbus.bus.BusConnection(sys.argv[1])
        manager = dbus.Interface(bus.get_object("io.tbrd", "/io/tbrd"), "io.tbrd.Manager1")
        path = manager.FindBorderRouter("wpan0")
        obj = bus.get_object("io.tbrd", path)
        router = dbus.Interface(obj, "io.tbrd.BorderRouter1")
        props = dbus.Interface(obj, "org.freedesktop.DBus.Properties")
        out = {"online": bool(props.Get("io.tbrd.BorderRouter1", "Online")),
               "supported": bool(props.Get("io.tbrd.BorderRouter1", "EpskcSupported")),
               "vendor": str(props.Get("io.tbrd.BorderRouter1", "VendorName"))}
        loop = GLib.MainLoop()
        def ended(sequence, router_id, reason, detail, activated, deactivated):
            out["ended"] = {"sequence": int(sequence), "router": str(router_id), "reason": str(reason)}
            loop.quit()
        bus.add_signal_receiver(ended, signal_name="EpskcModeDeactivated", dbus_interface="io.tbrd.BorderRouter1",
                                bus_name="io.tbrd", path=path)
        status, key, valid = router.ActivateEpskcMode(dbus.UInt16(45))
        out["status"], out["keyLength"], out["valid"] = str(status), len(key), int(valid)
        out["active"] = bool(props.Get("io.tbrd.BorderRouter1", "EpskcActive"))
        router.DeactivateEpskcMode(False)
        GLib.timeout_add_seconds(10, loop.quit)
        loop.run()
        try:
            router.ActivateEpskcMode(dbus.UInt16(45))
            router.ActivateEpskcMode(dbus.UInt16(45))
        except dbus.exceptions.DBusException as e:
            out["error"] = e.get_dbus_name()
        busy = router.ActivateEpskcMode(dbus.UInt16(45))
        out["second"] = str(busy[0])
        print(json.dumps(out))
        """#

    @Test func pythonDBusClientDrivesEpskc() async throws {
        try await withDaemon { env throws in
            try await env.startSimulator(["wpan0"])
            try await env.startDaemon(try env.configuration("vendor-name = Acme Homes\n"))
            let python = "/usr/bin/python3"
            guard FileManager.default.isExecutableFile(atPath: python) else {
                throw TestKitError("Debian's python3 with python3-dbus and python3-gi is needed (make deps)")
            }
            let r = try await ProcessRunner.run(python, ["-c", Self.script, env.address], timeout: .seconds(30))
            #expect(r.status == 0, "\(r.stderr)")
            let out = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] ?? [:]
            #expect(out["online"] as? Bool == true)
            #expect(out["supported"] as? Bool == true)
            #expect(out["vendor"] as? String == "Acme Homes")
            #expect(out["status"] as? String == "success")
            #expect(out["keyLength"] as? Int == 9)
            #expect(out["valid"] as? Int == 45)
            #expect(out["active"] as? Bool == true)
            let ended = out["ended"] as? [String: Any]
            #expect(ended?["reason"] as? String == "cancelled")
            #expect(ended?["router"] as? String == "wpan0")
            #expect(ended?["sequence"] as? Int == 2)
            #expect(out["second"] as? String == "busy")
            #expect(out["error"] == nil)
        }
    }
}
