/// An example configuration, shown by `content config --help` and checked by the tests, so it cannot go stale.
public enum ConfigSample {
    /// The example YAML.
    public static let yaml = """
        # content.yaml: backends by name; secrets come from the environment.
        defaults:
          output: table        # table | json | ndjson | csv | tsv | markdown
          timeout: 30s         # the longest one operation may take
          retries: 2           # retries of idempotent requests (GET, PUT, DELETE)
          maxResponseSize: 256MiB

        backends:
          wknd:
            type: aem
            url: https://publish-p123-e456.adobeaemcloud.com
            configuration: wknd-shared
            auth: { type: token, token: "${AEM_TOKEN}" }
          movies-app:
            type: dataconnect
            workspace: ./dataconnect     # firebase.json, dataconnect.yaml or
                                         # dataconnect/dataconnect.yaml
            project: my-firebase-project
            # emulator: 127.0.0.1:9399   # or $FIREBASE_DATA_CONNECT_EMULATOR_HOST
            auth:
              idToken: "${FIREBASE_ID_TOKEN:-}"
              apiKey: "${FIREBASE_API_KEY:-}"
          mfp:
            type: resource
            url: https://mfp.example.com/mfp/api
            auth: { type: bearer, token: "${MFP_TOKEN:-}" }
        """
}
