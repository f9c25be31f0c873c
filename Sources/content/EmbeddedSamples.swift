internal import ContentCommandLine
internal import ContentEmulator
internal import ContentSamples
internal import Foundation

/// The samples the commands fall back on when nothing is configured, one per emulated service that names a backend
/// type: each serves its part of `./examples` when the current folder has one (so edits show at once), else of the
/// sample workspace embedded in the binary, written to a private temporary folder for the run.
enum EmbeddedSamples {
    /// Every sample, by the backend type it answers for.
    static var all: [String: EmbeddedSample.Sample] {
        var samples: [String: EmbeddedSample.Sample] = [:]
        for service in BuiltInServices.all {
            guard let backendType = service.sampleBackendType else { continue }
            samples[backendType] = sample(of: service)
        }
        return samples
    }

    private static func sample<Service: EmulatedService>(of service: Service.Type) -> EmbeddedSample.Sample {
        EmbeddedSample.Sample(
            run: { body in
                try await withSampleRoot(for: service) { root in
                    try await EmulatorServer.withInProcess(service, workspace: root) { baseURL in
                        try await body(baseURL, service.backendFolder(in: root))
                    }
                }
            },
            read: { body in
                try await withSampleRoot(for: service) { try await body(service.backendFolder(in: $0)) }
            })
    }

    /// Runs `body` with `./examples` when it holds the service's part, else with the embedded sample written out.
    private static func withSampleRoot(for service: any EmulatedService.Type, _ body: (URL) async throws -> Void)
        async throws
    {
        let local = URL(fileURLWithPath: "examples")
        if service.isPresent(in: local) {
            try await body(local)
        } else {
            try await SampleWorkspace.withFolder(body)
        }
    }
}
