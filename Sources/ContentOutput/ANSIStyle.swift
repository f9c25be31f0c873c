/// The few ANSI styles output uses, applied only when colour is on.
enum ANSIStyle: String {
    case bold = "1"
    case dim = "2"
    case key = "34;1"
    case string = "32"
    case literal = "35"
    case punctuation = "1;39"

    func apply(_ text: String, when enabled: Bool) -> String {
        enabled ? "\u{1B}[\(rawValue)m\(text)\u{1B}[0m" : text
    }
}
