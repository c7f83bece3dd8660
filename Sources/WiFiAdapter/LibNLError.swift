import CNetlink
import NL80211

/// libnl's codes the Wi-Fi adapter tells apart, and its words for any code.
extension LibNLError {
    init(_ call: String, _ result: Int32) {
        self.init(call, result) { String(cString: nl_geterror($0)) }
    }

    static let objectNotFound = Int32(NLE_OBJ_NOTFOUND)
    static let outOfMemory = Int32(NLE_NOMEM)
}
