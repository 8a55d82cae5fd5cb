// Benchmarks that print figures. Run in release: swift run -c release hotcold-bench [engine|...]
let which = Set(CommandLine.arguments.dropFirst())
func wants(_ name: String) -> Bool { which.isEmpty || which.contains(name) }

if wants("geodesy") { benchGeodesy() }
if wants("engine") { benchEngine() }
if wants("readers") { benchReaders() }
if wants("store") { benchStore() }
if wants("replay") { benchReplay() }
if wants("gpx") { benchGPX() }
if wants("wire") { benchWire() }
if which.contains("mqtt") { benchMQTT() }   // only when asked: it starts a broker and N bridges
if which.contains("mqtt-outage") { benchMQTTOutage() }   // only when asked: minutes long (HOTCOLD_OUTAGE_SECONDS)
if which.contains("friends") { benchFriends() }   // only when asked: a broker, followers' daemons and bridges, ~2 min
