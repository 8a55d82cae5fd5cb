/// A receiver's velocity over the ground as it reported it (Doppler speed and course), once its
/// own positions have borne it out (`VelocityJudge`), with the 1-sigma errors it can be trusted to.
///
/// A receiver measures its velocity from the Doppler shift of the satellites' carriers, to about
/// a tenth of a metre a second, far better than differencing positions that scatter by metres.
/// Its component towards a target is the rate of approach (navigation units' "velocity made
/// good"), known on the first fix after it changes sign.
public struct GroundVelocity: Sendable, Equatable {
    /// East and north components (m/s); both zero when the receiver stands.
    public let east: Double
    public let north: Double
    /// The speed squared (m²/s²).
    public let speed2: Double
    /// Variances of the velocity along the course and across it (m²/s²); the same both ways
    /// when standing.
    public let alongVariance: Double
    public let acrossVariance: Double
    /// 1-sigma per-axis error of the fix's position (metres): how well the direction to a
    /// target is known from it.
    public let positionSigma: Double
    /// The fix's time (seconds).
    public let time: Double
    // The unit course (zero when standing), for projecting the errors on a line of sight.
    @usableFromInline let courseX: Double, courseY: Double

    /// Speed (m/s).
    public var speed: Double { speed2.squareRoot() }
    /// 1-sigma errors of the velocity along and across the course (m/s).
    var alongSigma: Double { alongVariance.squareRoot() }
    var acrossSigma: Double { acrossVariance.squareRoot() }

    /// True when the receiver credibly stands (Doppler speed near zero, positions still).
    public var isStanding: Bool { speed2 == 0 }

    /// Default 1-sigma of a reported velocity, per axis, before any is learned (m/s). Consumer
    /// receivers manage 0.1–0.3; the upper end is taken.
    public static let speedNoise = 0.3
    /// 1-sigma course error (degrees) beyond what the velocity's error makes of it (σv / speed):
    /// receivers smooth their course, and it lags a turn.
    static let courseNoiseDegrees = 1.0
    /// A reported speed says "travelling" only this many of its sigmas above zero, and at least
    /// `minimumTravellingSpeed`: below that its course is noise.
    static let travellingSigmas = 4.0
    static let minimumTravellingSpeed = 1.0
    /// Hardest change of velocity (m/s²) between two fixes that is still one car (braking,
    /// accelerating or cornering); a larger jump in the reported velocity is not trusted.
    static let maxAcceleration = 6.0
    /// Positions must bear out the reported velocity over a baseline on which it predicts a
    /// move of at least this many sigmas of the two positions' error...
    static let baselineSigmas = 4.0
    /// ...within this many sigmas (plus what changes of velocity inside the baseline allow)...
    static let consistencySigmas = 3.0
    /// ...and this share of the predicted move (speed scale, 2D against 3D speed).
    static let consistencyShare = 0.15
    /// Longest baseline (seconds) and longest step between fixes (seconds) for that test.
    public static let maxBaselineSeconds = 5.0
    static let maxStepSeconds = 3.0
    /// A friend's velocity is used for this long (seconds) after its fix; older, she may have
    /// stopped or set off since.
    static let maxAgeSeconds = 5.0

    /// `course` is the unit vector of the course when the caller has it (the judge has the
    /// reported course's sine and cosine; an average of two agreeing velocities points within
    /// their noise of it, near enough to weight the errors by); otherwise it is worked out.
    public init(east: Double, north: Double, alongVariance: Double, acrossVariance: Double,
                positionSigma: Double, time: Double, course: (x: Double, y: Double)? = nil) {
        self.east = east
        self.north = north
        let speed2 = east * east + north * north
        self.speed2 = speed2
        self.alongVariance = alongVariance
        self.acrossVariance = acrossVariance
        self.positionSigma = positionSigma
        self.time = time
        if speed2 == 0 {
            (courseX, courseY) = (0, 0)
        } else if let course {
            (courseX, courseY) = course
        } else {
            let inv = 1 / speed2.squareRoot()
            (courseX, courseY) = (east * inv, north * inv)
        }
    }

    /// Variance of this velocity's component along the unit vector (ux, uy): the along- and
    /// across-course variances weighted by the squared cosine and sine of the angle between
    /// the course and (ux, uy).
    @inlinable
    func variance(alongX ux: Double, y uy: Double) -> Double {
        if speed2 == 0 { return alongVariance }
        let c = courseX * ux + courseY * uy, s = courseX * uy - courseY * ux
        return alongVariance * c * c + acrossVariance * s * s
    }

    /// The rate of approach to a target in the direction (ux, uy) (a unit east/north vector from
    /// the receiver towards it) at `distance` metres: positive when closing in.
    @inlinable
    public func closing(towardsX ux: Double, y uy: Double, distance: Double) -> ClosingRate {
        closing(towardsX: ux, y: uy, distance: distance, inverseDistance: 1 / distance)
    }

    /// The same with 1 / `distance` already worked out.
    @inlinable
    func closing(towardsX ux: Double, y uy: Double, distance: Double, inverseDistance: Double) -> ClosingRate {
        ClosingRate.relative(east: east, north: north, variance: variance(alongX: ux, y: uy),
                             positionSigma: positionSigma, towardsX: ux, y: uy, distance: distance,
                             inverseDistance: inverseDistance, travelling: speed2 > 0)
    }

    /// The rate at which two receivers close in on each other: `self` at one end, `other` at
    /// the other, (ux, uy) the unit vector from self towards other.
    public func closing(with other: GroundVelocity, towardsX ux: Double, y uy: Double, distance: Double) -> ClosingRate {
        let ps = (positionSigma * positionSigma + other.positionSigma * other.positionSigma).squareRoot()
        return ClosingRate.relative(east: east - other.east, north: north - other.north,
                                    variance: variance(alongX: ux, y: uy) + other.variance(alongX: ux, y: uy),
                                    positionSigma: ps, towardsX: ux, y: uy, distance: distance,
                                    inverseDistance: 1 / distance, travelling: speed2 > 0 || other.speed2 > 0)
    }
}

/// A rate of approach (m/s, positive when closing in) from velocities, and its error.
public struct ClosingRate: Sendable, Equatable {
    public var rate: Double
    /// The rate's variance (m²/s²); infinite when the direction to the target is unknown.
    public var variance: Double
    /// The (relative) velocity's component across the line of sight (m/s): with the rate, its
    /// speed.
    public var across: Double
    /// A credible travelling velocity went into it (not only standing ones): the receiver is
    /// really moving, so a direction may be called without the motion detector's say-so.
    public var travelling: Bool

    /// The rate's 1-sigma error (m/s).
    public var sigma: Double { variance.squareRoot() }

    public init(rate: Double, variance: Double, across: Double, travelling: Bool) {
        self.rate = rate
        self.variance = variance
        self.across = across
        self.travelling = travelling
    }

    /// Whether the rate lies beyond `sigmas` of its error (no square root).
    @inlinable
    func exceeds(sigmas k: Double) -> Bool { rate * rate > k * k * variance }

    /// Whether the rate is at least `share` of the speed (no square root).
    @inlinable
    func isShare(_ share: Double) -> Bool {
        rate * rate >= share * share * (rate * rate + across * across)
    }

    /// A direction needs the rate of approach to be at least this share of the speed: a course
    /// within about 6° of square to the line of sight (a receiver's smoothing lags a turn by
    /// that much) leaves the distance as it is, and a car circling the target at one distance
    /// must not flip between hotter and colder.
    static let directionShare = 0.1

    /// Closer than this many position sigmas, the direction to the target is unknown and so is
    /// the rate of approach.
    static let nearSigmas = 2.0

    /// The relative velocity (east, north) projected on the line of sight (ux, uy), with the
    /// velocities' projected variance and the line of sight's own uncertainty: its direction is
    /// known to the position error over the distance, which turns the velocity across it into
    /// error along it.
    @usableFromInline
    static func relative(east: Double, north: Double, variance: Double, positionSigma: Double,
                         towardsX ux: Double, y uy: Double, distance: Double, inverseDistance: Double,
                         travelling: Bool) -> ClosingRate {
        let rate = east * ux + north * uy
        let across = east * uy - north * ux
        guard distance > nearSigmas * positionSigma else {
            return ClosingRate(rate: rate, variance: .infinity, across: across, travelling: travelling)
        }
        let sb = positionSigma * inverseDistance
        return ClosingRate(rate: rate, variance: variance + across * across * sb * sb, across: across, travelling: travelling)
    }
}
