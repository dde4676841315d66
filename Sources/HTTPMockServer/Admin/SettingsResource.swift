#if Server
import Foundation
import HTTPMock

/// `/__admin/settings`: WireMock's global settings, of which HTTPMock has `fixedDelay`, milliseconds added before
/// every response the mock sends (on top of a stub's own delay).
enum SettingsResource {
    static let routes: [AdminRoute] = [
        AdminRoute("GET", "settings") { _, _, context in current(context) },
        AdminRoute("POST", "settings") { request, _, context throws(AdminError) in try update(request, context) },
        AdminRoute("PUT", "settings") { request, _, context throws(AdminError) in try update(request, context) },
    ]

    private static func current(_ context: AdminContext) -> AdminReply {
        var settings: [String: Any] = [:]
        let delay = context.state.fixedDelayMilliseconds
        if delay > 0 { settings["fixedDelay"] = delay }
        return .json(["settings": settings])
    }

    /// Takes `{"fixedDelay": 250}` or WireMock's wrapped form `{"settings": {"fixedDelay": 250}}`. As in WireMock
    /// the body replaces the settings: no `fixedDelay` (or `null`) means none. A setting HTTPMock does not have,
    /// given a value, is refused rather than ignored.
    private static func update(_ request: AdminRequest, _ context: AdminContext) throws(AdminError) -> AdminReply {
        var object = try request.jsonObject()
        var pointer = ""
        if let wrapped = object["settings"] {
            guard let inner = wrapped as? [String: Any] else {
                throw AdminError.invalidJSON(pointer: "/settings", detail: "settings must be an object")
            }
            object = inner
            pointer = "/settings"
        }
        var delay = 0
        for (key, value) in object {
            switch key {
            case "fixedDelay":
                if value is NSNull { continue }
                guard let number = value as? NSNumber, !isBoolean(number), number.doubleValue >= 0,
                      number.doubleValue == number.doubleValue.rounded(), number.doubleValue <= 3_600_000 else {
                    throw AdminError.invalidJSON(pointer: "\(pointer)/fixedDelay",
                                                 detail: "fixedDelay must be a whole number of milliseconds from 0 to 3600000, not \(value)")
                }
                delay = number.intValue
            default:
                guard isEmpty(value) else {
                    throw AdminError.invalidJSON(pointer: "\(pointer)/\(key)",
                                                 detail: "\(key) is not a setting HTTPMock's admin API has; it has fixedDelay")
                }
            }
        }
        context.state.fixedDelayMilliseconds = delay
        return .ok
    }

    /// `null`, `{}` or `[]`: what a WireMock client sends for a setting it leaves alone.
    private static func isEmpty(_ value: Any) -> Bool {
        if value is NSNull { return true }
        if let object = value as? [String: Any] { return object.isEmpty }
        if let array = value as? [Any] { return array.isEmpty }
        return false
    }

    /// JSON's `true` and `false` come back as numbers of type `c` (char), which JSON numbers never are.
    private static func isBoolean(_ number: NSNumber) -> Bool {
        String(cString: number.objCType) == "c"
    }
}
#endif
