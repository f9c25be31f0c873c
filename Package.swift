// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "content",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .executable(name: "content", targets: ["content"]),
        .library(name: "ContentKit", targets: ["ContentKit"]),
        // The core types, the JSON document and the output formats, for the benchmark package and for tools
        // of their own.
        .library(name: "ContentCore", targets: ["ContentCore"]),
        .library(name: "ContentJSON", targets: ["ContentJSON"]),
        .library(name: "ContentOutput", targets: ["ContentOutput"]),
        // Typed clients from a Data Connect workspace: at build time, or written into the package on demand.
        .plugin(name: "ContentClientGenerator", targets: ["ContentClientGenerator"]),
        .plugin(name: "ContentClientGeneratorCommand", targets: ["ContentClientGeneratorCommand"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-http2.git", from: "1.46.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/GraphQLSwift/GraphQL.git", from: "4.3.0"),
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.6.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/grpc/grpc-swift-2.git", from: "2.4.3"),
        .package(url: "https://github.com/grpc/grpc-swift-nio-transport.git", from: "2.9.2"),
        .package(url: "https://github.com/grpc/grpc-swift-protobuf.git", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-protobuf.git", from: "1.39.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/adam-fowler/compress-nio.git", from: "1.5.0"),
    ],
    targets: [
        // The system libyaml: the only YAML parser the project uses.
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        // YAML text → positioned node tree → any `Decodable`; knows nothing of `content`.
        .target(name: "ContentYAML", dependencies: ["CYAML"]),
        // The order-preserving JSON document every result is made of, and its parser.
        .target(name: "ContentJSON"),
        // The plugin core: `ContentBackend`, `BackendPlugin`, the registry, results, errors, redaction.
        .target(
            name: "ContentCore",
            dependencies: ["ContentJSON", .product(name: "Logging", package: "swift-log")]
        ),
        // Finding, reading and resolving `content.yaml`.
        .target(name: "ContentConfig", dependencies: ["ContentCore", "ContentYAML"]),
        // The HTTP transport every backend sends through, on AsyncHTTPClient.
        .target(
            name: "ContentHTTP",
            dependencies: [
                "ContentCore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // Every format results are printed in: table, JSON, NDJSON, CSV, TSV, Markdown.
        .target(name: "ContentOutput", dependencies: ["ContentCore", "ContentJSON"]),
        // Parsing and validating GraphQL text, nesting limits, and GraphQL values as JSON: one way for the emulators,
        // the workspace readers and the client generator.
        .target(
            name: "ContentGraphQL",
            dependencies: [
                "ContentCore", "ContentJSON", .product(name: "GraphQL", package: "GraphQL"),
                .product(name: "OrderedCollections", package: "swift-collections"),
            ]
        ),
        // A Data Connect workspace as files say it: `dataconnect.yaml`, schema tables, connector operations,
        // and the GraphQL schema the service derives from them. Shared by the emulator and the backend.
        .target(
            name: "ContentDataConnect",
            dependencies: [
                "ContentCore", "ContentJSON", "ContentYAML", "ContentGraphQL",
                .product(name: "GraphQL", package: "GraphQL"),
            ]
        ),
        // An AEM workspace's content fragment models and persisted queries, and the GraphQL schema AEM derives
        // from the models. Shared by the emulator and the client generator.
        .target(
            name: "ContentAEM",
            dependencies: [
                "ContentGraphQL", "ContentYAML", .product(name: "GraphQL", package: "GraphQL"),
                .product(name: "OrderedCollections", package: "swift-collections"),
            ]
        ),
        // `content serve`: the server that runs any set of emulated services, each on its own port, or one in-process.
        .target(
            name: "ContentEmulator",
            dependencies: [
                "ContentCore", "ContentGraphQL",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // One module per emulated service. AEM and Data Connect execute real GraphQL over SQLite; the sample adapters
        // keep their state in memory.
        .target(
            name: "ContentAEMEmulator",
            dependencies: [
                "ContentEmulator", "ContentCore", "ContentJSON", "ContentAEM", "ContentGraphQL", "ContentYAML",
                "ContentCredentials", .product(name: "GraphQL", package: "GraphQL"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "OrderedCollections", package: "swift-collections"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        // The wire types of Data Connect's client API (ConnectorService, ConnectorStreamService): Swift generated from
        // the project's own .proto files by Protos/generate and committed, so that building never runs protoc.
        .target(
            name: "ContentDataConnectWire",
            dependencies: [
                "ContentJSON",
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCProtobuf", package: "grpc-swift-protobuf"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ],
            exclude: ["Protos"]
        ),
        // A Data Connect schema in PostgreSQL, as the service lays it out: the DDL, its migration, the connection pool.
        .target(
            name: "ContentDataConnectPostgres",
            dependencies: [
                "ContentDataConnect", "ContentJSON",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .target(
            name: "ContentDataConnectEmulator",
            dependencies: [
                "ContentEmulator", "ContentCore", "ContentJSON", "ContentDataConnect", "ContentGraphQL",
                "ContentDataConnectPostgres",
                .product(name: "GraphQL", package: "GraphQL"),
                .product(name: "OrderedCollections", package: "swift-collections"),
                "ContentDataConnectWire", .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCProtobuf", package: "grpc-swift-protobuf"),
                .product(name: "GRPCNIOTransportHTTP2Posix", package: "grpc-swift-nio-transport"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "GRDB", package: "GRDB.swift"),
                // The SQLite C API, for the FTS5 auxiliary function that ranks full-text matches.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .target(
            name: "ContentResourceEmulator",
            dependencies: [
                "ContentEmulator", "ContentCore", "ContentJSON", "ContentYAML",
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        // The client generator: Data Connect and AEM workspaces in, typed Swift out. Shared by both plugins through
        // `content-codegen`, which builds without the HTTP client or the emulator.
        .target(
            name: "ContentCodegen",
            dependencies: [
                "ContentDataConnect", "ContentAEM", "ContentYAML", "ContentGraphQL",
                .product(name: "GraphQL", package: "GraphQL"),
                .product(name: "OrderedCollections", package: "swift-collections"),
            ]
        ),
        .executableTarget(
            name: "content-codegen",
            dependencies: ["ContentCodegen", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .plugin(name: "ContentClientGenerator", capability: .buildTool(), dependencies: ["content-codegen"]),
        .plugin(
            name: "ContentClientGeneratorCommand",
            capability: .command(
                intent: .custom(
                    verb: "generate-content-client",
                    description:
                        "Write the Swift package each connector.yaml's generate.swiftSdk asks for, or with --output the typed client of each target with a content-client.yaml"
                ),
                permissions: [.writeToPackageDirectory(reason: "to write the generated client into the package")]
            ),
            dependencies: ["content-codegen"]
        ),
        // What apps and generated clients link: a client configured in code that runs Data Connect operations and
        // AEM persisted queries by name over one long-lived transport, and the scalar types of generated code. It
        // links no YAML, GraphQL parser, command line, server or database.
        .target(
            name: "ContentKit",
            dependencies: [
                "ContentCore", "ContentJSON", "ContentHTTP", "ContentDataConnectWire",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2Posix", package: "grpc-swift-nio-transport"),
            ]
        ),
        // One backend plugin per module, a library: the backend, its configuration, errors and plugin. Backends
        // import the core and the JSON document, never the command line, the output layer or each other.
        .target(
            name: "ContentBackendAEM",
            dependencies: [
                "ContentCore", "ContentJSON", "ContentKit", "ContentCredentials",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "ContentBackendDataConnect",
            dependencies: [
                "ContentCore", "ContentJSON", "ContentKit", "ContentDataConnect", "ContentYAML",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "ContentBackendResource",
            dependencies: [
                "ContentCore", "ContentJSON", "ContentCredentials", .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Access tokens from token endpoints, shared by the backends that sign in: OAuth client credentials, and
        // Adobe IMS's server-to-server credential and service-credentials JWT exchange; cached 0600 until they
        // expire, renewed once on a 401.
        .target(
            name: "ContentCredentials",
            dependencies: [
                "ContentCore", "ContentJSON", .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ]
        ),
        // The composition root: the built-in backend registry, a session that turns config into backends, and a
        // client configuration read from content.yaml.
        .target(
            name: "ContentRuntime",
            dependencies: [
                "ContentCore", "ContentConfig", "ContentHTTP", "ContentYAML", "ContentKit", "ContentBackendAEM",
                "ContentBackendDataConnect", "ContentBackendResource",
            ]
        ),
        // What every command shares: global options, the exit-status table, error reporting.
        .target(
            name: "ContentCommandLine",
            dependencies: [
                "ContentCore", "ContentConfig", "ContentRuntime", "ContentOutput", "ContentJSON",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Each backend's commands (`content aem`, `content query`/`mutate`, `content request`), over its library.
        .target(
            name: "ContentAEMCommands",
            dependencies: [
                "ContentBackendAEM", "ContentCommandLine", "ContentConfig", "ContentCore", "ContentJSON",
                "ContentOutput", "ContentRuntime", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "ContentDataConnectCommands",
            dependencies: [
                "ContentBackendDataConnect", "ContentDataConnect", "ContentCommandLine", "ContentConfig", "ContentCore",
                "ContentJSON", "ContentOutput", "ContentRuntime",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "ContentResourceCommands",
            dependencies: [
                "ContentBackendResource", "ContentCommandLine", "ContentConfig", "ContentCore", "ContentJSON",
                "ContentOutput", "ContentRuntime", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The built-in sample workspace, embedded at build time from examples/ so a copied binary keeps its samples.
        .executableTarget(name: "content-embed-samples"),
        .plugin(name: "ContentSampleEmbedder", capability: .buildTool(), dependencies: ["content-embed-samples"]),
        .target(name: "ContentSamples", plugins: ["ContentSampleEmbedder"]),
        // The `content` executable: parses arguments and hands off.
        .executableTarget(
            name: "content",
            dependencies: [
                "ContentCommandLine", "ContentRuntime", "ContentConfig", "ContentCore", "ContentOutput", "ContentJSON",
                "ContentEmulator", "ContentGraphQL", "ContentAEMEmulator", "ContentDataConnectEmulator",
                "ContentResourceEmulator",
                "ContentAEMCommands", "ContentDataConnectCommands", "ContentResourceCommands", "ContentSamples",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // Test support shared by the test targets (a scripted transport, temporary directories, the repository's folders,
        // an in-process command runner); never linked into a product.
        .target(name: "ContentTesting", dependencies: ["ContentCore", "ContentOutput"]),
        // The emulated services under test, in process (no socket) or live over loopback, with a client for either.
        .target(
            name: "ContentEmulatorTesting",
            dependencies: [
                "ContentEmulator", "ContentJSON",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),

        .testTarget(name: "ContentYAMLTests", dependencies: ["ContentYAML"]),
        .testTarget(name: "ContentJSONTests", dependencies: ["ContentJSON"]),
        // Bounded mutation fuzzing of the YAML, JSON, GraphQL and URL front doors; runs in every test run.
        .testTarget(
            name: "ContentFuzzTests",
            dependencies: [
                "ContentCommandLine", "ContentConfig", "ContentCore", "ContentGraphQL", "ContentHTTP", "ContentJSON",
                "ContentTesting", "ContentYAML", .product(name: "GraphQL", package: "GraphQL"),
                .product(name: "OrderedCollections", package: "swift-collections"),
            ]
        ),
        .testTarget(
            name: "ContentGraphQLTests",
            dependencies: [
                "ContentGraphQL", "ContentTesting", .product(name: "GraphQL", package: "GraphQL"),
                .product(name: "OrderedCollections", package: "swift-collections"),
            ]
        ),
        .testTarget(name: "ContentCoreTests", dependencies: ["ContentCore", "ContentJSON"]),
        .testTarget(
            name: "ContentCredentialsTests",
            dependencies: [
                "ContentCredentials", "ContentCore", "ContentJSON", "ContentTesting",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "ContentOutputTests",
            dependencies: ["ContentOutput", "ContentCore", "ContentJSON"],
            exclude: ["Snapshots"]
        ),
        .testTarget(
            name: "ContentConfigTests",
            dependencies: ["ContentConfig", "ContentCore", "ContentRuntime", "ContentTesting"]
        ),
        .testTarget(
            name: "ContentHTTPTests",
            dependencies: [
                "ContentHTTP", "ContentCore",
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "ContentCommandLineTests",
            dependencies: ["ContentCommandLine", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .testTarget(
            name: "ContentEmulatorTests",
            dependencies: [
                "ContentEmulator", "ContentEmulatorTesting", "ContentCore", "ContentJSON", "ContentTesting",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "ContentAEMEmulatorTests",
            dependencies: [
                "ContentAEMEmulator", "ContentAEM", "ContentCore", "ContentEmulator", "ContentEmulatorTesting",
                "ContentGraphQL",
                "ContentJSON", "ContentTesting", "ContentCredentials",
            ]
        ),
        .testTarget(
            name: "ContentDataConnectEmulatorTests",
            dependencies: [
                "ContentDataConnectEmulator", "ContentEmulator", "ContentEmulatorTesting", "ContentDataConnect",
                "ContentJSON", "ContentTesting", "ContentDataConnectWire", "ContentDataConnectPostgres", "ContentCore",
                .product(name: "GraphQL", package: "GraphQL"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "ContentDataConnectTests", dependencies: ["ContentDataConnect", "ContentJSON", "ContentTesting"]),
        .testTarget(
            name: "ContentBackendDataConnectTests",
            dependencies: [
                "ContentBackendDataConnect", "ContentDataConnectCommands", "ContentDataConnect", "ContentCore",
                "ContentJSON", "ContentTesting",
            ]
        ),
        .testTarget(
            name: "ContentBackendResourceTests",
            dependencies: [
                "ContentBackendResource", "ContentResourceCommands", "ContentCore", "ContentJSON", "ContentTesting",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "ContentBackendAEMTests", dependencies: ["ContentBackendAEM", "ContentJSON", "ContentTesting"]),
        .testTarget(
            name: "ContentRuntimeTests",
            dependencies: [
                "ContentRuntime", "ContentCommandLine", "ContentCore", "ContentJSON", "ContentTesting",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "ContentAEMTests",
            dependencies: [
                "ContentAEM", "ContentTesting", .product(name: "GraphQL", package: "GraphQL"),
                .product(name: "OrderedCollections", package: "swift-collections"),
            ]
        ),
        .testTarget(name: "ContentAEMCommandsTests", dependencies: ["ContentAEMCommands", "ContentJSON"]),
        .testTarget(
            name: "ContentKitTests",
            dependencies: [
                "ContentKit", "ContentCore", "ContentJSON", "ContentHTTP", "ContentTesting", "ContentRuntime",
                .product(name: "Hummingbird", package: "hummingbird"), .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "ContentEndToEndTests", dependencies: ["content", "ContentTesting"], exclude: ["Peers", "Fixtures"]),
        // The golden files under Golden/ are generated clients, compiled here so they must stay valid Swift 6.
        .testTarget(
            name: "ContentCodegenTests",
            dependencies: [
                "ContentCodegen", "ContentKit", "ContentJSON", "ContentEmulator", "ContentAEMEmulator",
                "ContentDataConnectEmulator", "ContentTesting",
            ],
            exclude: ["Fixtures"]),
    ]
)

// Leaked imports and implicit existentials are compile errors everywhere.
for target in package.targets where target.type != .system && target.type != .plugin {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .enableUpcomingFeature("ExistentialAny"),
            .enableUpcomingFeature("InternalImportsByDefault"),
            .enableUpcomingFeature("MemberImportVisibility"),
        ]
}
