/// The candidate most like `word`, when one is close enough to be a likely typo.
///
/// Used for "did you mean" hints on unknown keys and values.
///
/// - Parameters:
///   - word: What the user wrote.
///   - candidates: What would have been accepted.
/// - Returns: The closest candidate within a small edit distance, or `nil`.
public func closestMatch(to word: String, in candidates: some Sequence<String>) -> String? {
    let lowered = Array(word.lowercased())
    var best: (candidate: String, distance: Int)?
    for candidate in candidates {
        let distance = editDistance(lowered, Array(candidate.lowercased()))
        if best.map({ distance < $0.distance }) ?? true {
            best = (candidate, distance)
        }
    }
    guard let best else { return nil }
    let allowed = max(2, min(lowered.count, best.candidate.count) / 3)
    return best.distance <= allowed ? best.candidate : nil
}

/// Levenshtein distance between two character arrays.
private func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
            current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}
