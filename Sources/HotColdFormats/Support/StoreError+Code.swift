import HotColdProtocol

/// The store's refusals as protocol codes: what the daemon sends for them and what the client's
/// exit status follows (a missing place is wrong input, a quota "later", another's place "not yours").
extension StoreError: CodedError {
    public var code: ErrorCode {
        switch self {
        case .noSuchPlace, .noSuchObservation: .notFound
        case .quotaReached: .quota
        case .notOwner, .placeInUse: .notAllowed
        default: .badField
        }
    }

    public var field: String? {
        switch self {
        case .noSuchPlace, .noSuchObservation, .notOwner, .placeInUse, .notALocation, .readOnlyName, .ambiguousID, .stageOfCache: "id"
        case .invalidRating: "stars"
        case .noteTooLong: "text"
        default: nil
        }
    }

    public var isUnreadableInput: Bool {
        switch self {
        case .unreadablePhoto, .bundledCatalogueNotFound: true
        default: false
        }
    }
}

extension ImportError: CodedError {
    public var code: ErrorCode { .badField }
    public var isUnreadableInput: Bool {
        if case .unreadable = self { return true }
        return false
    }
}
