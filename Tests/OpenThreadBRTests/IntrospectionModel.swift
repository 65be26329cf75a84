import Foundation
import FoundationXML

/// One interface of an introspection document, reduced to what conformance compares.
struct IntrospectedInterface: Equatable {
    struct Method: Equatable {
        var inputs: String
        var outputs: String
    }
    struct Property: Equatable {
        var type: String
        var access: String
        /// The `EmitsChangedSignal` annotation, "true" when absent (the specification's default).
        var emitsChanged: String
    }
    var methods: [String: Method] = [:]
    var properties: [String: Property] = [:]
    var signals: [String: String] = [:]
}

/// Parses D-Bus introspection XML with Foundation's `XMLParser`.
final class IntrospectionParser: NSObject, XMLParserDelegate {
    private(set) var interfaces: [String: IntrospectedInterface] = [:]
    private var interface: String?
    private var member: (kind: String, name: String)?
    private var inputs = ""
    private var outputs = ""
    private var property: IntrospectedInterface.Property?

    /// The interfaces of `xml`, or nil if it does not parse.
    static func parse(_ xml: String) -> [String: IntrospectedInterface]? {
        let p = IntrospectionParser()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = p
        parser.shouldResolveExternalEntities = false
        return parser.parse() ? p.interfaces : nil
    }

    func parser(
        _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        switch element {
        case "interface":
            interface = attributes["name"]
            if let interface, interfaces[interface] == nil { interfaces[interface] = IntrospectedInterface() }
        case "method", "signal":
            member = (element, attributes["name"] ?? "")
            inputs = ""
            outputs = ""
        case "property":
            member = ("property", attributes["name"] ?? "")
            property = .init(type: attributes["type"] ?? "", access: attributes["access"] ?? "", emitsChanged: "true")
        case "arg":
            // Method arguments are inputs unless marked out; signal arguments are all "inputs" here.
            let type = attributes["type"] ?? ""
            if member?.kind == "method", attributes["direction"] == "out" { outputs += type } else { inputs += type }
        case "annotation":
            if member?.kind == "property", attributes["name"] == "org.freedesktop.DBus.Property.EmitsChangedSignal" {
                property?.emitsChanged = attributes["value"] ?? "true"
            }
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
        guard let interface else { return }
        switch element {
        case "interface":
            self.interface = nil
        case "method":
            if let member { interfaces[interface]?.methods[member.name] = .init(inputs: inputs, outputs: outputs) }
            member = nil
        case "signal":
            if let member { interfaces[interface]?.signals[member.name] = inputs }
            member = nil
        case "property":
            if let member, let property { interfaces[interface]?.properties[member.name] = property }
            member = nil
            property = nil
        default:
            break
        }
    }
}
