// swift-tools-version:6.0
// tbrd: Thread Border Router management service for Linux.
// Layers (imports point down only): C shims → wrappers → domain → apps → thin executables.
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

// libdbus's headers, as `pkg-config --cflags dbus-1` names them on Debian: /usr/include/dbus-1.0 and the
// multiarch directory of dbus-arch-deps.h. Only the DBus module imports CDBus (`internal import`).
#if arch(x86_64)
let multiarch = "x86_64-linux-gnu"
#elseif arch(arm64)
let multiarch = "aarch64-linux-gnu"
#elseif arch(arm)
let multiarch = "arm-linux-gnueabihf"
#else
let multiarch = "unknown-linux-gnu"
#endif
let dbusIncludes: [SwiftSetting] = [
    .unsafeFlags(["-Xcc", "-I/usr/include/dbus-1.0", "-Xcc", "-I/usr/lib/\(multiarch)/dbus-1.0/include"])
]

// mbedTLS with EC-JPAKE, built from Debian's source package by scripts/mbedtls.sh (make build runs it):
// Debian's libmbedtls lacks TLS-ECJPAKE, which the ePSKc's DTLS needs (docs/architecture.md). Static and
// private to the CDTLS glue; nothing else includes its headers.
let mbedtls = Context.packageDirectory + "/.build/mbedtls"

let package = Package(
    name: "tbrd",
    products: [
        .executable(name: "tbrctl", targets: ["tbrctl"]),
        .executable(name: "otbr-sim", targets: ["otbr-sim"]),
        .executable(name: "matter-sim", targets: ["matter-sim"]),
        .executable(name: "tbrd", targets: ["tbrd"]),
    ],
    targets: [
        // MARK: C shims over Debian -dev packages
        .systemLibrary(
            // Headers only: libdbus is opened with dlopen on first use (DBus's LibDBus.swift). pkg-config
            // would also link it (-ldbus-1), so its two include directories are given to the one module
            // that imports it (`dbusIncludes`, below) instead.
            name: "CDBus", path: "Sources/CDBus", providers: [.apt(["libdbus-1-dev"])]),
        .systemLibrary(
            // Headers only: libcrypto is opened with dlopen on first use (MeshCoP's LibCrypto.swift), so
            // pkg-config's -lcrypto is not wanted; its headers are in the default include path.
            name: "CLibCrypto", path: "Sources/CLibCrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(
            name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(
            // Headers only: libcurl is opened with dlopen on the first request (HTTP's LibCurl.swift), so
            // pkg-config's -lcurl is not wanted; its headers are in the multiarch include directory.
            name: "CCurl", path: "Sources/CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(
            // Headers only: libmicrohttpd is opened with dlopen when a server starts (HTTPServer's
            // LibMicroHTTPD.swift): tbrd without `http-listen` never maps it, nor GnuTLS. Its header is in
            // /usr/include.
            name: "CMicroHTTPD", path: "Sources/CMicroHTTPD", providers: [.apt(["libmicrohttpd-dev"])]),
        // Headers only: libavahi-client is opened with dlopen on first use (MDNS's Avahi.swift), and no
        // pkgConfig (avahi-client.pc adds -D_REENTRANT, which SwiftPM refuses with a warning on every
        // build); its headers are in /usr/include.
        .systemLibrary(
            name: "CAvahiClient", path: "Sources/CAvahiClient", providers: [.apt(["libavahi-client-dev"])]),

        .systemLibrary(
            // Headers only: libmosquitto is opened with dlopen when the MQTT client is made (MQTT's
            // LibMosquitto.swift): tbrd without `mqtt-url` never maps it. Its headers are in /usr/include.
            name: "CMosquitto", path: "Sources/CMosquitto", providers: [.apt(["libmosquitto-dev"])]),

        // glibc's malloc.h (mallopt, malloc_trim): in libc, no -dev package beyond libc6-dev.
        .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),

        // The libraries opened with dlopen (libdbus, libcrypto, libavahi-client, libcurl, libmicrohttpd), named in an ELF .note.dlopen
        // section of the executables that depend on this target (systemd's dlopen metadata), for packaging.
        .target(name: "CDlopenNote", path: "Sources/CDlopenNote"),

        // The DTLS EC-JPAKE endpoint over mbedTLS (client and server), for the ePSKc commissioner and otbr-sim.
        .target(
            name: "CDTLS", path: "Sources/CDTLS",
            cSettings: [.unsafeFlags(["-I\(mbedtls)/include"])],
            linkerSettings: [.unsafeFlags(["-L\(mbedtls)/lib", "-lmbedtls", "-lmbedx509", "-lmbedcrypto"])]),

        // MARK: basics
        .target(name: "TBRFoundation", dependencies: ["CMalloc"], swiftSettings: strict),
        .target(name: "TBRCommandLine", swiftSettings: strict),
        .target(name: "TBRLifecycle", dependencies: ["TBRFoundation"], swiftSettings: strict),

        // MARK: wrappers
        .target(name: "DBus", dependencies: ["CDBus", "TBRFoundation"], swiftSettings: strict + dbusIncludes),
        // tbrd's SQLite state, and the stores of the domain's seams over it (structures, Matter nodes).
        .target(name: "Store", dependencies: ["CSQLite", "TBRFoundation", "TBRBackup", "DeviceModel", "MeshCoP", "MatterCommissioning", "MatterOnboarding"], swiftSettings: strict),
        .target(name: "MDNS", dependencies: ["CAvahiClient", "TBRFoundation"], swiftSettings: strict),
        .target(name: "Firewall", dependencies: ["HostNetwork", "TBRFoundation"], swiftSettings: strict),
        // What the host's IPv6 configuration says about reaching a Thread mesh: routes
        // (/proc/net/ipv6_route), Router Advertisement settings (/proc/sys/net/ipv6/conf), interfaces
        // (/sys/class/net); for tbrctl doctor.
        .target(name: "HostNetwork", dependencies: ["TBRFoundation"], swiftSettings: strict),
        // HTTP requests through libcurl, for the REST clients of otbr-agents on other hosts.
        .target(name: "HTTP", dependencies: ["CCurl", "TBRFoundation"], swiftSettings: strict),
        // An HTTP request and response as values, and a response body written while it is sent: what a
        // handler takes and gives, with no server (the HTTP adapter is tested in memory over them).
        .target(name: "HTTPMessages", dependencies: ["TBRFoundation"], swiftSettings: strict),
        // An HTTP server over libmicrohttpd (opened with dlopen): tbrd's HTTPS API and the simulators' REST APIs.
        .target(name: "HTTPServer", dependencies: ["CMicroHTTPD", "HTTPMessages", "TBRFoundation"], swiftSettings: strict),
        // An MQTT client over libmosquitto (opened with dlopen), driven from one serial queue: tbrd's MQTT adapter.
        .target(name: "MQTT", dependencies: ["CMosquitto", "TBRFoundation"], swiftSettings: strict),
        // RFC 6455 of our own over TCP, client and server (Foundation's WebSocket needs a libcurl built with it).
        .target(name: "WebSocket", dependencies: ["MeshCoP", "TBRFoundation"], swiftSettings: strict),

        // DTLS 1.2 sessions with TLS_ECJPAKE_WITH_AES_128_CCM_8 over UDP (CDTLS), client and server.
        .target(name: "DTLS", dependencies: ["CDTLS", "TBRFoundation"], swiftSettings: strict),

        // MARK: domain
        .target(name: "MeshCoP", dependencies: ["TBRFoundation", "CLibCrypto"], swiftSettings: strict),
        .target(name: "OpenThreadBR", dependencies: ["DBus", "MeshCoP", "TBRFoundation"], swiftSettings: strict),
        // otbr-agent's REST API, for border routers on other hosts (issue 21).
        .target(name: "OpenThreadREST", dependencies: ["HTTP", "OpenThreadBR", "MeshCoP", "TBRFoundation"], swiftSettings: strict),
        .target(name: "TBRDBusAPI", dependencies: ["DBus", "DeviceModel", "TBRDocuments", "MatterOnboarding"], swiftSettings: strict),
        // The JSON documents tbrctl --json prints and tbrd's HTTP API serves: one type per shape.
        .target(name: "TBRDocuments", dependencies: ["DeviceModel", "OpenThreadBR"], swiftSettings: strict),
        // Pure: a backup's contents and its sealed file (scrypt, AES-256-GCM; fuzzed: fuzz/run.sh backup).
        .target(name: "TBRBackup", dependencies: ["MeshCoP", "TBRFoundation"], swiftSettings: strict),
        // Pure: MQTT's topics, requests (fuzzed: fuzz/run.sh mqtt) and Home Assistant's discovery configs.
        .target(name: "MQTTMapping", dependencies: ["TBRFoundation"], swiftSettings: strict),
        // Pure: the HTTPS API's routes, scopes and request bodies (fuzzed: fuzz/run.sh api).
        .target(name: "HTTPAPIRouting", dependencies: ["TBRCore", "TBRFoundation"], swiftSettings: strict),
        // tbrd's core as its adapters see it: the calls by concern, the values and events they carry, the one
        // error and the table every adapter spells it from (docs/architecture.md, "Layers").
        .target(name: "TBRCore", dependencies: ["TBRDocuments", "MatterOnboarding", "MeshCoP", "TBRFoundation"], swiftSettings: strict),
        .target(name: "DeviceModel", dependencies: ["MeshCoP", "TBRFoundation"], swiftSettings: strict),
        // Pure: a structure's migration and channel change, planned and followed by a sans-IO machine.
        .target(name: "NetworkMigration", dependencies: ["MeshCoP", "TBRDocuments"], swiftSettings: strict),
        // Pure: parses and generates Matter onboarding payloads; MeshCoP lends it Verhoeff and Secrets.
        .target(name: "MatterOnboarding", dependencies: ["MeshCoP"], swiftSettings: strict),
        // The commissioner seam and its backend, python-matter-server over WebSocket (matter-sim, a separate
        // program, stands in for the server).
        .target(
            name: "MatterCommissioner", dependencies: ["MatterOnboarding", "MeshCoP", "WebSocket", "TBRFoundation"],
            swiftSettings: strict),
        // The ePSKc commissioner: a border router's Active dataset fetched with its key (DTLS EC-JPAKE, CoAP).
        .target(name: "EpskcCommissioner", dependencies: ["DTLS", "MeshCoP", "BorderAgentDiscovery"], swiftSettings: strict),
        .target(name: "BorderAgentDiscovery", dependencies: ["MDNS", "MeshCoP", "TBRFoundation"], swiftSettings: strict),
        // The service core by concern (issue 33): the router fleet and its ePSKc sessions, the
        // internet-access policy, Matter commissioning; BorderRouterService composes them.
        .target(
            name: "RouterFleet",
            dependencies: ["DeviceModel", "OpenThreadBR", "OpenThreadREST", "DBus", "MeshCoP", "TBRFoundation"],
            swiftSettings: strict),
        .target(
            name: "InternetAccessPolicy",
            dependencies: ["RouterFleet", "DeviceModel", "OpenThreadBR", "Firewall", "TBRFoundation"],
            swiftSettings: strict),
        .target(
            name: "MatterCommissioning",
            dependencies: ["DeviceModel", "MeshCoP", "MatterOnboarding", "MatterCommissioner", "TBRFoundation"],
            swiftSettings: strict),
        .target(
            name: "BorderRouterService",
            dependencies: [
                "RouterFleet", "InternetAccessPolicy", "MatterCommissioning",
                "DeviceModel", "OpenThreadBR", "OpenThreadREST", "HTTP", "DBus", "MeshCoP", "Firewall", "TBRFoundation", "MatterOnboarding",
                "MatterCommissioner",
            ],
            swiftSettings: strict),

        // MARK: apps
        .target(
            name: "TBRControl",
            dependencies: [
                "TBRCommandLine", "TBRFoundation", "MeshCoP", "MatterOnboarding", "DBus", "OpenThreadBR",
                "BorderRouterService", "TBRDBusAPI", "MDNS", "BorderAgentDiscovery", "TBRLifecycle", "HTTP", "OpenThreadREST",
                "EpskcCommissioner", "DTLS", "TBRDocuments", "HTTPAPIRouting", "TBRCore", "TBRBackup",
            ],
            swiftSettings: strict),

        .target(
            name: "OTBRSimulator",
            dependencies: ["DBus", "OpenThreadBR", "MeshCoP", "TBRFoundation", "TBRCommandLine", "TBRLifecycle", "MDNS", "HTTPServer", "HTTPMessages", "DTLS"],
            swiftSettings: strict),

        // A simulated python-matter-server (matter-sim): its WebSocket API over the WebSocket server side.
        .target(
            name: "MatterSimulator",
            dependencies: ["WebSocket", "MatterOnboarding", "MeshCoP", "TBRFoundation", "TBRCommandLine", "TBRLifecycle"],
            swiftSettings: strict),

        // tbrd's core: its services by concern, each owning its state (routers, diagnostics, structures
        // with their network directories, migrations, Matter, tokens), answering TBRCore's calls. No D-Bus,
        // no HTTP server: the adapters map to and from them (docs/architecture.md, "Layers").
        .target(
            name: "TBRCoreServices",
            dependencies: [
                "TBRCore", "TBRDocuments", "BorderRouterService", "Store", "NetworkMigration", "MeshCoP", "TBRFoundation", "OpenThreadBR", "TBRBackup",
                "BorderAgentDiscovery", "MDNS", "Firewall", "HostNetwork", "EpskcCommissioner", "DTLS", "HTTP", "OpenThreadREST", "MatterOnboarding",
            ],
            swiftSettings: strict),
        // tbrd's D-Bus API (io.tbrd) over the core: members to service calls, what the core publishes to
        // objects and signals. It maps and never decides (docs/architecture.md, "Layers").
        .target(
            name: "TBRDBusAdapter",
            dependencies: [
                "DBus", "TBRDBusAPI", "TBRCore", "TBRCoreServices", "TBRDocuments", "BorderRouterService", "Store", "MeshCoP",
                "MatterOnboarding", "OpenThreadBR", "EpskcCommissioner", "TBRFoundation",
            ],
            swiftSettings: strict),
        .target(
            name: "TBRDaemon",
            dependencies: [
                // The domain through its facade (BorderRouterService re-exports RouterFleet, InternetAccessPolicy,
                // MatterCommissioning, MatterCommissioner and DeviceModel); the rest is wiring and adapters.
                "BorderRouterService", "OpenThreadBR", "Store", "DBus", "TBRDBusAPI", "MeshCoP", "Firewall", "TBRCore", "TBRCoreServices", "TBRDBusAdapter", "NetworkMigration",
                "TBRLifecycle", "TBRCommandLine", "TBRFoundation", "MDNS", "BorderAgentDiscovery", "MatterOnboarding", "WebSocket",
                "HTTP", "OpenThreadREST", "HostNetwork", "EpskcCommissioner", "DTLS", "TBRDocuments", "HTTPServer", "HTTPMessages",
                "HTTPAPIRouting", "TBRHTTPAdapter", "TBRBackup", "TBRMQTTAdapter", "MQTT", "MQTTMapping",
            ],
            swiftSettings: strict),
        // The HTTPS API as a function of the core (TBRCore): request in, response out, no server (tbrd binds
        // it to HTTPServer). It maps and never decides (docs/architecture.md, "Layers").
        .target(
            name: "TBRHTTPAdapter",
            dependencies: ["TBRCore", "TBRDocuments", "HTTPMessages", "HTTPAPIRouting", "MeshCoP", "TBRFoundation"],
            // The web page (docs/http-api.md), compiled into tbrd: no files to install, nothing fetched.
            resources: [.embedInCode("Web/index.html"), .embedInCode("Web/app.js"), .embedInCode("Web/commission.js"), .embedInCode("Web/health.js"), .embedInCode("Web/app.css")],
            swiftSettings: strict),

        // tbrd over MQTT (docs/mqtt.md): the core's state, events and requests, and Home Assistant's
        // discovery. It maps and never decides (docs/architecture.md, "Layers").
        .target(
            name: "TBRMQTTAdapter", dependencies: ["TBRCore", "TBRDocuments", "MQTT", "MQTTMapping", "TBRFoundation"],
            swiftSettings: strict),

        // MARK: thin executables
        .executableTarget(name: "tbrctl", dependencies: ["TBRControl", "CDlopenNote"], swiftSettings: strict),
        .executableTarget(name: "otbr-sim", dependencies: ["OTBRSimulator", "CDlopenNote"], swiftSettings: strict),
        .executableTarget(name: "matter-sim", dependencies: ["MatterSimulator"], swiftSettings: strict),
        .executableTarget(name: "tbrd", dependencies: ["TBRDaemon", "CDlopenNote"], swiftSettings: strict),

        // MARK: benchmarks (make bench)
        .executableTarget(
            name: "dbus-bench", dependencies: ["DBus"], path: "bench/DBusBench", swiftSettings: strict),

        // MARK: test support and tests
        .target(name: "TBRTestKit", dependencies: ["TBRFoundation", "DBus", "WebSocket"], swiftSettings: strict),
        .testTarget(name: "TBRFoundationTests", dependencies: ["TBRFoundation", "TBRTestKit"], swiftSettings: strict),
        .testTarget(name: "DBusTests", dependencies: ["DBus", "TBRTestKit"], swiftSettings: strict),
        .testTarget(name: "MeshCoPTests", dependencies: ["MeshCoP", "TBRTestKit"], swiftSettings: strict),
        .testTarget(name: "MatterOnboardingTests", dependencies: ["MatterOnboarding", "MeshCoP"], swiftSettings: strict),
        .testTarget(
            name: "OpenThreadBRTests",
            dependencies: ["OpenThreadBR", "OTBRSimulator", "DBus", "MeshCoP", "TBRTestKit"],
            swiftSettings: strict),
        .testTarget(
            name: "EpskcCommissionerTests", dependencies: ["EpskcCommissioner", "DTLS", "MeshCoP", "BorderAgentDiscovery"],
            swiftSettings: strict),
        .testTarget(
            name: "NetworkMigrationTests", dependencies: ["NetworkMigration", "TBRDocuments", "MeshCoP", "TBRTestKit"], swiftSettings: strict),
        .testTarget(name: "StoreTests", dependencies: ["Store", "TBRTestKit"], swiftSettings: strict),
        .testTarget(name: "MQTTMappingTests", dependencies: ["MQTTMapping", "TBRFoundation"], swiftSettings: strict),
        .testTarget(name: "TBRBackupTests", dependencies: ["TBRBackup", "MeshCoP", "TBRTestKit"], swiftSettings: strict),
        .testTarget(
            name: "MDNSTests",
            dependencies: [
                "MDNS", "BorderAgentDiscovery", "MeshCoP", "DBus", "TBRDaemon", "BorderRouterService", "RouterFleet", "DeviceModel", "TBRTestKit",
            ], swiftSettings: strict),
        .testTarget(name: "HostNetworkTests", dependencies: ["HostNetwork", "TBRFoundation", "TBRTestKit"], swiftSettings: strict),
        .testTarget(name: "FirewallTests", dependencies: ["Firewall", "TBRFoundation", "TBRTestKit"], swiftSettings: strict),
        .testTarget(
            name: "MatterCommissionerTests",
            dependencies: ["MatterCommissioner", "MatterOnboarding", "MeshCoP", "WebSocket", "TBRFoundation", "TBRTestKit"],
            swiftSettings: strict),
        .testTarget(name: "HTTPTests", dependencies: ["HTTP", "HTTPServer", "HTTPMessages", "TBRTestKit"], swiftSettings: strict),
        .testTarget(
            name: "OpenThreadRESTTests", dependencies: ["OpenThreadREST", "HTTP", "OpenThreadBR", "MeshCoP", "TBRTestKit"],
            swiftSettings: strict),
        .testTarget(name: "WebSocketTests", dependencies: ["WebSocket", "TBRFoundation", "TBRTestKit"], swiftSettings: strict),
        .testTarget(
            name: "MatterSimulatorTests",
            dependencies: ["MatterSimulator", "MatterOnboarding", "WebSocket", "TBRFoundation", "TBRTestKit"],
            swiftSettings: strict),
        .testTarget(name: "TBRLifecycleTests", dependencies: ["TBRLifecycle", "TBRTestKit"], swiftSettings: strict),
        .testTarget(
            name: "RouterFleetTests",
            dependencies: ["RouterFleet", "DeviceModel", "OpenThreadBR", "MeshCoP", "TBRFoundation", "TBRTestKit"],
            swiftSettings: strict),
        .testTarget(
            name: "InternetAccessPolicyTests",
            dependencies: ["InternetAccessPolicy", "RouterFleet", "DeviceModel", "Firewall", "TBRFoundation", "TBRTestKit"],
            swiftSettings: strict),
        .testTarget(
            name: "MatterCommissioningTests",
            dependencies: ["MatterCommissioning", "DeviceModel", "MatterCommissioner", "MatterOnboarding", "MeshCoP", "TBRFoundation", "TBRTestKit"],
            swiftSettings: strict),
        .testTarget(
            name: "DeviceModelTests",
            dependencies: [
                "DeviceModel", "BorderRouterService", "RouterFleet", "InternetAccessPolicy", "MatterCommissioning", "OTBRSimulator",
                "OpenThreadBR", "DBus", "MeshCoP", "Firewall", "TBRTestKit",
                "MatterOnboarding", "MatterCommissioner", "OpenThreadREST", "TBRFoundation",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "TBRDaemonTests",
            dependencies: [
                "TBRDBusAdapter",
                "TBRCoreServices",
                "TBRDaemon", "TBRDBusAPI", "DBus", "MeshCoP", "OpenThreadBR", "TBRFoundation", "TBRTestKit", "MatterCommissioner",
                "MatterOnboarding", "WebSocket", "HostNetwork", "BorderRouterService", "RouterFleet", "BorderAgentDiscovery", "DeviceModel",
                "HTTPServer", "HTTPMessages", "HTTPAPIRouting", "TBRHTTPAdapter", "TBRCore",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "OTBRSimulatorTests",
            dependencies: [
                "OTBRSimulator", "OpenThreadREST", "OpenThreadBR", "HTTP", "DBus", "MeshCoP", "TBRFoundation", "TBRTestKit",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "TBRControlTests",
            dependencies: ["TBRControl", "TBRCommandLine", "TBRTestKit", "OTBRSimulator", "DBus", "OpenThreadBR", "MatterOnboarding", "MeshCoP", "TBRFoundation", "DTLS"],
            swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
