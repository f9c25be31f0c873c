import ContentAEMEmulator
import ContentDataConnectEmulator
import ContentEmulator
import ContentResourceEmulator

/// The emulated services built into `content serve`, in the order they start.
///
/// Adding one is its module and one line here. The built-in samples of the commands come from the same list.
enum BuiltInServices {
    /// Every service.
    static let all: [any EmulatedService.Type] = [
        AEMEmulator.self,
        DataConnectEmulator.self,
        ResourceEmulator.self,
    ]
}
