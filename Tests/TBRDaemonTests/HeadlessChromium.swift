import Foundation
import TBRTestKit
import Testing
import WebSocket

/// Debian's `chromium`, headless, driven through the Chrome DevTools Protocol over the project's own
/// WebSocket client: the tests open tbrd's web page in a real browser, act as a person would (type,
/// click), wait on the page's own events (a MutationObserver inside the page resolves when the text
/// sought appears; no polling from here), and save screenshots under `.build/screenshots`.
final class HeadlessChromium: @unchecked Sendable {
    // @unchecked: used by one test task at a time.
    private let process: TestProcess
    private let socket: WebSocketClient
    private var nextID = 0

    /// Starts chromium (a phone-sized window) with a profile of its own in `directory`, and attaches to
    /// its page.
    init(directory: URL) async throws {
        let chromium = try Executables.find("chromium", package: "chromium")
        let profile = directory.appendingPathComponent("chromium-profile").path
        process = try TestProcess(
            chromium,
            ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions", "--disable-sync",
             "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0", "--user-data-dir=\(profile)",
             "--window-size=412,915", "about:blank"],
            directory: directory)
        let process = self.process
        try await eventually("chromium's DevTools listen", timeout: .seconds(60), wakingOn: process.wakeups) {
            guard process.isRunning else { throw TestKitError("chromium exited: \(process.stderr)") }
            return process.stderr.contains("DevTools listening on ws://")
        }
        let line = try #require(process.stderr.split(separator: "\n").first { $0.contains("DevTools listening on ws://") })
        let browserURL = String(line[line.range(of: "ws://")!.lowerBound...]).trimmingCharacters(in: .whitespaces)
        let port = try #require(browserURL.split(separator: "/")[1].split(separator: ":").last.map(String.init))
        let list = try await ProcessRunner.run(try Executables.find("curl", package: "curl"), ["-s", "http://127.0.0.1:\(port)/json/list"])
        let targets = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        let page = try #require(targets.first { $0["type"] as? String == "page" }?["webSocketDebuggerUrl"] as? String)
        socket = try await WebSocketClient.connect(to: try WebSocketURL(page))
    }

    /// Sends `method` with `params` and returns the result of its answer (events in between are skipped).
    @discardableResult
    func send(_ method: String, _ params: [String: Any] = [:]) async throws -> [String: Any] {
        nextID += 1
        let id = nextID
        let message = try JSONSerialization.data(withJSONObject: ["id": id, "method": method, "params": params])
        try await socket.send(text: String(decoding: message, as: UTF8.self))
        while true {
            guard case .text(let text) = try await socket.receive() else { continue }
            guard let answer = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], answer["id"] as? Int == id else { continue }
            if let error = answer["error"] as? [String: Any] { throw TestKitError("\(method): \(error)") }
            return answer["result"] as? [String: Any] ?? [:]
        }
    }

    /// Opens `url` and returns once the page's `load` event fired (Page.enable first).
    func navigate(_ url: String) async throws {
        nextID += 1
        let id = nextID
        let message = try JSONSerialization.data(withJSONObject: ["id": id, "method": "Page.navigate", "params": ["url": url]])
        try await socket.send(text: String(decoding: message, as: UTF8.self))
        var answered = false, loaded = false
        while !(answered && loaded) {
            guard case .text(let text) = try await socket.receive(),
                let event = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
            else { continue }
            if event["id"] as? Int == id {
                if let error = event["error"] { throw TestKitError("Page.navigate: \(error)") }
                if let failure = (event["result"] as? [String: Any])?["errorText"] as? String { throw TestKitError("Page.navigate: \(failure)") }
                answered = true
            }
            if event["method"] as? String == "Page.loadEventFired" { loaded = true }
        }
    }

    /// Runs `script` (an expression) in the page and returns its value; a promise is awaited. A
    /// JavaScript exception fails the test with its text.
    @discardableResult
    func evaluate(_ script: String) async throws -> Any? {
        let result = try await send("Runtime.evaluate", ["expression": script, "awaitPromise": true, "returnByValue": true])
        if let exception = result["exceptionDetails"] as? [String: Any] {
            let description = ((exception["exception"] as? [String: Any])?["description"] as? String) ?? "\(exception)"
            throw TestKitError("in the page: \(description)")
        }
        return (result["result"] as? [String: Any])?["value"]
    }

    /// Waits, inside the page, until `condition` (a JavaScript expression) is true: checked at once and
    /// at each change of the document (a MutationObserver), failing after `seconds`.
    func waitFor(_ condition: String, _ what: String, seconds: Int = 30) async throws {
        let script = """
            new Promise((resolve, reject) => {
              const check = () => { try { return Boolean(\(condition)); } catch (e) { return false; } };
              if (check()) { resolve(true); return; }
              const observer = new MutationObserver(() => { if (check()) { observer.disconnect(); resolve(true); } });
              observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
              setTimeout(() => { observer.disconnect(); reject(new Error("timed out waiting for: \(what); the page ends: " + document.body.textContent.replace(/\\s+/g, " ").slice(-600))); }, \(seconds * 1000));
            })
            """
        try await evaluate(script)
    }

    /// Saves a screenshot of the page as `.build/screenshots/NAME.png` and returns its path.
    @discardableResult
    func screenshot(_ name: String) async throws -> String {
        let result = try await send("Page.captureScreenshot", ["format": "png"])
        let encoded = try #require(result["data"] as? String)
        let data = try #require(Data(base64Encoded: encoded))
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/screenshots")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent(name + ".png")
        try data.write(to: file)
        return file.path
    }

    /// Closes the page's connection and stops chromium.
    func close() async {
        await socket.close()
        _ = await process.terminate()
    }
}
