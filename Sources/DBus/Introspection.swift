/// Generates `org.freedesktop.DBus.Introspectable` XML from interface declarations.
enum Introspection {
    static let doctype =
        "<!DOCTYPE node PUBLIC \"-//freedesktop//DTD D-BUS Object Introspection 1.0//EN\"\n"
        + "\"http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd\">\n"

    /// The standard interfaces every object answers, unless it declares its own.
    static let standard: [Interface] = [
        Interface(.peer, methods: [
            Method("Ping") { _ in [] },
            Method("GetMachineId", outputs: [Argument("machine_uuid", .string)]) { _ in [] },
        ]),
        Interface(.introspectable, methods: [
            Method("Introspect", outputs: [Argument("xml_data", .string)]) { _ in [] },
        ]),
        Interface(.properties, methods: [
            Method("Get", inputs: [Argument("interface_name", .string), Argument("property_name", .string)],
                   outputs: [Argument("value", .variant)]) { _ in [] },
            Method("GetAll", inputs: [Argument("interface_name", .string)],
                   outputs: [Argument("props", .dictionary(key: .string, value: .variant))]) { _ in [] },
            Method("Set", inputs: [Argument("interface_name", .string), Argument("property_name", .string),
                                   Argument("value", .variant)]) { _ in [] },
        ], signals: [
            SignalDeclaration("PropertiesChanged", arguments: [
                Argument("interface_name", .string),
                Argument("changed_properties", .dictionary(key: .string, value: .variant)),
                Argument("invalidated_properties", .array(.string)),
            ]),
        ]),
    ]

    static func xml(interfaces: [Interface], children: [String]) -> String {
        var out = doctype + "<node>\n"
        var declared = Set(interfaces.map(\.name))
        for iface in standard where !declared.contains(iface.name) {
            out += render(iface)
            declared.insert(iface.name)
        }
        for iface in interfaces { out += render(iface) }
        for child in children { out += " <node name=\"\(escape(child))\"/>\n" }
        return out + "</node>\n"
    }

    static func render(_ iface: Interface) -> String {
        var out = " <interface name=\"\(iface.name)\">\n"
        for a in iface.annotations { out += annotation(a, indent: "  ") }
        for m in iface.methods {
            if m.inputs.isEmpty && m.outputs.isEmpty && m.annotations.isEmpty {
                out += "  <method name=\"\(m.name)\"/>\n"
                continue
            }
            out += "  <method name=\"\(m.name)\">\n"
            for a in m.inputs { out += "   <arg type=\"\(escape(a.type.text))\" name=\"\(escape(a.name))\" direction=\"in\"/>\n" }
            for a in m.outputs { out += "   <arg type=\"\(escape(a.type.text))\" name=\"\(escape(a.name))\" direction=\"out\"/>\n" }
            for a in m.annotations { out += annotation(a, indent: "   ") }
            out += "  </method>\n"
        }
        for s in iface.signals {
            if s.arguments.isEmpty && s.annotations.isEmpty {
                out += "  <signal name=\"\(s.name)\"/>\n"
                continue
            }
            out += "  <signal name=\"\(s.name)\">\n"
            for a in s.arguments { out += "   <arg type=\"\(escape(a.type.text))\" name=\"\(escape(a.name))\"/>\n" }
            for a in s.annotations { out += annotation(a, indent: "   ") }
            out += "  </signal>\n"
        }
        for p in iface.properties {
            var annotations = p.annotations
            if p.emitsChanged != .true {
                annotations.append(Annotation("org.freedesktop.DBus.Property.EmitsChangedSignal", p.emitsChanged.rawValue))
            }
            let head = "  <property name=\"\(p.name)\" type=\"\(escape(p.type.text))\" access=\"\(p.access.rawValue)\""
            if annotations.isEmpty {
                out += head + "/>\n"
            } else {
                out += head + ">\n"
                for a in annotations { out += annotation(a, indent: "   ") }
                out += "  </property>\n"
            }
        }
        return out + " </interface>\n"
    }

    private static func annotation(_ a: Annotation, indent: String) -> String {
        "\(indent)<annotation name=\"\(escape(a.name))\" value=\"\(escape(a.value))\"/>\n"
    }

    static func escape(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(c)
            }
        }
        return out
    }
}
