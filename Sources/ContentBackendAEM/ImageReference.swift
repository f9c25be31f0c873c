package import ContentJSON

/// Gives every image reference in an item an absolute `url`, so scripts can fetch it directly.
///
/// An image reference is an object with `_dynamicUrl`, or with `_path` and an `image/` `mimeType`, or
/// typed `ImageRef`. Its `url` is `_dynamicUrl` on the backend's scheme and host, or `_path` when
/// `_dynamicUrl` is null (a local SDK has no Dynamic Media).
package enum ImageReference {
    package static func addURLs(_ value: JSONValue, base: String) -> JSONValue {
        switch value {
        case .array(let elements):
            return .array(elements.map { addURLs($0, base: base) })
        case .object(var object):
            for index in object.members.indices {
                object.members[index].value = addURLs(object.members[index].value, base: base)
            }
            guard isImage(object), object["url"] == nil else { return .object(object) }
            if let dynamic = object["_dynamicUrl"]?.stringValue {
                object["url"] = .string(dynamic.hasPrefix("http") ? dynamic : base + dynamic)
            } else if let path = object["_path"]?.stringValue {
                object["url"] = .string(base + path)
            }
            return .object(object)
        default:
            return value
        }
    }

    private static func isImage(_ object: JSONObject) -> Bool {
        if object["_dynamicUrl"] != nil { return true }
        if object["__typename"] == .string("ImageRef") { return true }
        return object["_path"] != nil && object["mimeType"]?.stringValue?.hasPrefix("image/") == true
    }
}
