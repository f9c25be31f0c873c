public import ContentCore

/// Renders a result to stdout: the end of every command that prints data.
///
/// A closed pipe ends quietly (exit 0); an empty result says "no items" on stderr; diagnostics the
/// backend or the renderer produced go to stderr.
///
/// - Parameters:
///   - result: The result.
///   - settings: How to render.
/// - Throws: Output or stream failures other than a closed pipe.
public func printResult(_ result: ContentResult, settings: OutputSettings) async throws {
    for diagnostic in result.metadata.diagnostics { StandardError.write("content: \(diagnostic)") }
    try await printRendered { sink in try await OutputPipeline(settings: settings).render(result, to: &sink) }
    // GraphQL errors next to data: the data is out, the errors are on stderr, the exit code says so.
    if result.metadata.diagnostics.contains(where: { $0.severity == .error }) {
        throw ReportedFailure(category: .operationFailed)
    }
}

/// Renders items a synchronous reader hands out to stdout, as ``printResult(_:settings:)`` does a result.
///
/// - Parameters:
///   - reader: Where the items come from.
///   - settings: How to render.
/// - Throws: Reader or output failures other than a closed pipe.
package func printItems(_ reader: some ItemReader, settings: OutputSettings) async throws {
    try await printRendered { sink in try await OutputPipeline(settings: settings).render(items: reader, to: &sink) }
}

/// Runs a rendering to stdout: a closed pipe ends quietly, what was rendered before a failure is kept,
/// and the renderer's diagnostics (or "no items") go to stderr.
private func printRendered(
    _ render: (inout FileDescriptorSink) async throws -> OutputPipeline.Summary
) async throws {
    FileDescriptorSink.ignoreBrokenPipeSignal()
    var sink = FileDescriptorSink()
    do {
        let summary = try await render(&sink)
        for diagnostic in summary.diagnostics { StandardError.write("content: \(diagnostic)") }
        if summary.itemCount == 0 { StandardError.write("content: no items") }
    } catch OutputError.brokenPipe {
        return
    } catch {
        // Keep what was rendered before the failure or interruption.
        try? sink.flush()
        throw error
    }
}
