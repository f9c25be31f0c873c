internal import Foundation

/// Placeholder images the emulator serves for DAM assets: a 16×12 grey-blue picture in each format,
/// so clients that load `_path` or `_dynamicUrl` get an image of the type they asked for.
enum PlaceholderImage {
    /// The bytes and content type for a file extension (`jpg`, `png`, `gif`, `webp`), JPEG for others.
    static func image(forExtension fileExtension: String) -> (bytes: [UInt8], contentType: String) {
        switch fileExtension.lowercased() {
        case "png": return (decode(png), "image/png")
        case "gif": return (decode(gif), "image/gif")
        case "webp": return (decode(webp), "image/webp")
        default: return (decode(jpeg), "image/jpeg")
        }
    }

    private static func decode(_ base64: String) -> [UInt8] {
        Data(base64Encoded: base64).map { Array($0) } ?? []
    }

    private static let jpeg =
        "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAx"
        + "NDQ0Hyc5PTgyPC4zNDL/2wBDAQkJCQwLDBgNDRgyIRwhMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIy"
        + "MjIyMjIyMjL/wAARCAAMABADASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUF"
        + "BAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVW"
        + "V1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi"
        + "4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAEC"
        + "AxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVm"
        + "Z2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq"
        + "8vP09fb3+Pn6/9oADAMBAAIRAxEAPwDsaKKK7DhP/9k="

    private static let png =
        "iVBORw0KGgoAAAANSUhEUgAAABAAAAAMCAIAAADkharWAAAAF0lEQVR4nGOcteMEAymAiSTVoxpGkAYA7W4CMvdE2YcAAAAASUVO"
        + "RK5CYII="

    private static let gif =
        "R0lGODdhEAAMAIEAAJq4yAAAAAAAAAAAACwAAAAAEAAMAAAIGQABCBxIsKDBgwgTKlzIsKHDhxAjSpwoMCAAOw=="

    private static let webp =
        "UklGRjAAAABXRUJQVlA4ICQAAABQAQCdASoQAAwAAUAmJQBOgCgAAP7w8auRzvSpVfX3lDsSYAA="
}
