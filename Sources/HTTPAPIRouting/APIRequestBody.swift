import FoundationEssentials
import TBRFoundation

/// A JSON request body of the HTTPS API, decoded with a sentence for what is wrong (pure; fuzzed with
/// the routes: `fuzz/run.sh api`).
public protocol APIRequestBody: Decodable {}

extension APIRequestBody {
    /// `bytes` as this body. A key an object has twice is refused, naming it: which of the two values a
    /// reader keeps differs from one parser to the next, so such a body means nothing certain.
    /// - Throws: ``APIBodyError`` saying what is missing or wrong.
    public static func decode(_ bytes: [UInt8]) throws(APIBodyError) -> Self {
        if let text = String(validating: bytes, as: UTF8.self) {
            do throws(JSONParseError) { _ = try JSON(parsing: text, duplicateKeys: .refused) } catch {
                if let key = error.duplicateKey {
                    throw APIBodyError(description: "the JSON body has the key \(Quoted(key)) twice in one object")
                }
            }
        }
        do { return try JSONDecoder().decode(Self.self, from: Data(bytes)) } catch let error as DecodingError {
            throw APIBodyError(description: "the JSON body is not as expected: " + describe(error))
        } catch {
            throw APIBodyError(description: "the JSON body cannot be read")
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, _): "\(key.stringValue) is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            "\(context.codingPath.map(\.stringValue).joined(separator: ".")) has the wrong type"
        case .dataCorrupted: "it is not valid JSON"
        @unknown default: "it cannot be read"
        }
    }
}

/// Why a body was refused, one sentence.
public struct APIBodyError: Error, CustomStringConvertible {
    public let description: String
}

/// `POST /api/v1/routers/{id}/epskc`'s body: `{"durationSeconds": N}`.
public struct EpskcRequest: APIRequestBody {
    public var durationSeconds: Int
}

/// `PUT /api/v1/structures/{name}/policy`'s body: `{"internetAccessOption": "none"}`.
public struct PolicyRequest: APIRequestBody {
    public var internetAccessOption: String
}

/// `POST /api/v1/routers/{id}/join`'s body: `{"dataset": "HEX", "thisRouterOnly": false}`, the Active
/// dataset's TLVs as hex (`tbrctl network join --dataset`).
public struct JoinRequest: APIRequestBody {
    public var dataset: String
    public var thisRouterOnly: Bool?
}

/// `POST /api/v1/structures`'s body: `{"name": "Home"}`.
public struct StructureRequest: APIRequestBody {
    public var name: String
}

/// `POST /api/v1/structures/{name}/commissioning`'s body: `{"codes": ["MT:…"], "network": "XPANID",
/// "onNetwork": false, "name": "…", "room": "…"}`, as `tbrctl matter commission` takes them; all but
/// `codes` may be left out.
public struct CommissionRequest: APIRequestBody {
    public var codes: [String]
    public var network: String?
    public var onNetwork: Bool?
    public var name: String?
    public var room: String?
}
