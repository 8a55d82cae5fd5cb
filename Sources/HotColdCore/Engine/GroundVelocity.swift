/// A receiver's velocity over the ground as it reported it (Doppler speed and course), once its
/// own positions have borne it out (`VelocityJudge`), with the 1-sigma errors it can be trusted to.
///
/// A receiver measures its velocity from the Doppler shift of the satellites' carriers, to about
/// a tenth of a metre a second, far better than differencing positions that scatter by metres.
/// Its component towards a target is the rate of approach (navigation units' "velocity made
/// good"), known on the first fix after it changes sign.
public struct GroundVelocity: Sendable, Equatable {
    /// East and north components (m/s); both zero when the receiver stands.
    public var east: Double
    public var north: Double
    /// Speed (m/s): the length of (east, north).
    public var speed: Double
    /// 1-sigma error of the velocity along the course and across it (m/s); the same both ways
    /// when standing.
    public var alongSigma: Double
    public var acrossSigma: Double
    /// 1-sigma per-axis error of the fix's position (metres): how well the direction to a
    /// target is known from it.
    public var positionSigma: Double
    /// The fix's time (seconds).
    public var time: Double

    /// True when the receiver credibly stands (Doppler speed near zero, positions still).
    public var isStanding: Bool { speed == 0 }

    /// Default 1-sigma of a reported velocity, per axis, before any is learned (m/s). Consumer
    /// receivers manage 0.1–0.3; the upper end is taken.
    public static let speedNoise = 0.3
    /// 1-sigma course error (degrees) beyond what the velocity's error makes of it (σv / speed):
    /// receivers smooth their course, and it lags a turn.
    public static let courseNoiseDegrees = 1.0
    /// A reported speed says "travelling" only this many of its sigmas above zero, and at least
    /// `minimumTravellingSpeed`: below that its course is noise.
    public static let travellingSigmas = 4.0
    public static let minimumTravellingSpeed = 1.0
    /// Hardest change of velocity (m/s²) between two fixes that is still one car (braking,
    /// accelerating or cornering); a larger jump in the reported velocity is not trusted.
    public static let maxAcceleration = 6.0
    /// Positions must bear out the reported velocity over a baseline on which it predicts a
    /// move of at least this many sigmas of the two positions' error...
    public static let baselineSigmas = 4.0
    /// ...within this many sigmas (plus what changes of velocity inside the baseline allow)...
    public static let consistencySigmas = 3.0
    /// ...and this share of the predicted move (speed scale, 2D against 3D speed).
    public static let consistencyShare = 0.15
    /// Longest baseline (seconds) and longest step between fixes (seconds) for that test.
    public static let maxBaselineSeconds = 5.0
    public static let maxStepSeconds = 3.0
    /// A friend's velocity is used for this long (seconds) after its fix; older, she may have
    /// stopped or set off since.
    public static let maxAgeSeconds = 5.0

    public init(east: Double, north: Double, alongSigma: Double, acrossSigma: Double,
                positionSigma: Double, time: Double) {
        self.east = east
        self.north = north
        self.speed = (east * east + north * north).squareRoot()
        self.alongSigma = alongSigma
        self.acrossSigma = acrossSigma
        self.positionSigma = positionSigma
        self.time = time
    }

    /// Variance of this velocity's component along the unit vector (ux, uy).
    @inlinable
    func variance(alongX ux: Double, y uy: Double) -> Double {
        if speed == 0 { return alongSigma * alongSigma }
        let cx = east / speed, cy = north / speed
        let c = cx * ux + cy * uy, s = cx * uy - cy * ux
        return alongSigma * alongSigma * c * c + acrossSigma * acrossSigma * s * s
    }

    /// The rate of approach to a target in the direction (ux, uy) (a unit east/north vector from
    /// the receiver towards it) at `distance` metres: positive when closing in.
    @inlinable
    public func closing(towardsX ux: Double, y uy: Double, distance: Double) -> ClosingRate {
        ClosingRate.relative(east: east, north: north, variance: variance(alongX: ux, y: uy),
                             positionSigma: positionSigma, towardsX: ux, y: uy, distance: distance,
                             travelling: speed > 0)
    }

    /// The rate at which two receivers close in on each other: `self` at one end, `other` at
    /// the other, (ux, uy) the unit vector from self towards other.
    public func closing(with other: GroundVelocity, towardsX ux: Double, y uy: Double, distance: Double) -> ClosingRate {
        let ps = (positionSigma * positionSigma + other.positionSigma * other.positionSigma).squareRoot()
        return ClosingRate.relative(east: east - other.east, north: north - other.north,
                                    variance: variance(alongX: ux, y: uy) + other.variance(alongX: ux, y: uy),
                                    positionSigma: ps, towardsX: ux, y: uy, distance: distance,
                                    travelling: speed > 0 || other.speed > 0)
    }
}

/// A rate of approach (m/s, positive when closing in) from velocities, and its 1-sigma error.
public struct ClosingRate: Sendable, Equatable {
    public var rate: Double
    public var sigma: Double
    /// The speed of the (relative) velocity it comes from (m/s).
    public var speed: Double
    /// A credible travelling velocity went into it (not only standing ones): the receiver is
    /// really moving, so a direction may be called without the motion detector's say-so.
    public var travelling: Bool

    public init(rate: Double, sigma: Double, speed: Double, travelling: Bool) {
        self.rate = rate
        self.sigma = sigma
        self.speed = speed
        self.travelling = travelling
    }

    /// A direction needs the rate of approach to be at least this share of the speed: a course
    /// within about 6° of square to the line of sight (a receiver's smoothing lags a turn by
    /// that much) leaves the distance as it is, and a car circling the target at one distance
    /// must not flip between hotter and colder.
    public static let directionShare = 0.1

    /// Closer than this many position sigmas, the direction to the target is unknown and so is
    /// the rate of approach.
    static let nearSigmas = 2.0

    /// The relative velocity (east, north) projected on the line of sight (ux, uy), with the
    /// velocities' projected variance and the line of sight's own uncertainty: its direction is
    /// known to the position error over the distance, which turns the velocity across it into
    /// error along it.
    @usableFromInline
    static func relative(east: Double, north: Double, variance: Double, positionSigma: Double,
                         towardsX ux: Double, y uy: Double, distance: Double, travelling: Bool) -> ClosingRate {
        let rate = east * ux + north * uy
        let across = east * uy - north * ux
        let speed = (rate * rate + across * across).squareRoot()
        guard distance > nearSigmas * positionSigma else {
            return ClosingRate(rate: rate, sigma: .infinity, speed: speed, travelling: travelling)
        }
        let sb = positionSigma / distance
        return ClosingRate(rate: rate, sigma: (variance + across * across * sb * sb).squareRoot(), speed: speed,
                           travelling: travelling)
    }
}
