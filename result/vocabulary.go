package result

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/cryptocost/cryptocost/stats"
)

// The metric vocabulary: every metric name a runner or the costing stage
// emits, defined once with its base unit, which direction is better and
// what it means (as x/perf's benchunit defines units once). Charts, CSV,
// the store and compare read names from here, so a name means one thing
// in every command. A name ending in "/*" is a family: "energy/*" covers
// "energy/radio" and "energy/asymmetric", each with the family's unit.
//
// Run.Validate rejects a metric whose name is not defined here or whose
// unit is not the definition's; NewSampled and NewScalar convert a value
// given in another unit of the same dimension ("ns" for a time) to the
// base unit, so a runner may measure in whatever unit is natural to it.
// Upgrade rewrites runs saved by round 1's names and units.

// Definition is one metric name.
type Definition struct {
	Name string
	// Unit is the base unit the values are stored in (result/units.go).
	Unit   string
	Better Better
	// Display is the unit people read it in when it is not the base unit's
	// SI-scaled form: "d" for a battery life stored in seconds.
	Display     string
	Description string
}

var vocabulary = map[string]Definition{}

func define(unit string, better Better, display string, names map[string]string) {
	for name, desc := range names {
		if _, dup := vocabulary[name]; dup {
			panic("result: metric " + name + " defined twice")
		}
		if _, ok := baseUnits[unit]; !ok {
			panic("result: metric " + name + ": unit " + unit + " is not a base unit")
		}
		vocabulary[name] = Definition{Name: name, Unit: unit, Better: better, Display: display, Description: desc}
	}
}

func init() {
	// Times, in seconds, per operation (primitive), connection (TLS),
	// request (remote-sign), reading (sensor) or message (time sync).
	define("s", Lower, "", map[string]string{
		"model/time":              "the analytic model's time at the run's point, priced on the run's device",
		"time":                    "wall time per operation (median of samples), on the machine that ran it",
		"signer-device-time":      "hash + sign time on the signer's device",
		"t-sent/*":                "when the client sent a handshake message, from the connection's start",
		"t-received/*":            "when the client received a handshake message, from the connection's start",
		"cpu-time":                "thread CPU time per operation",
		"device-time":             "time per operation on the priced device (the costing stage's device-time resolver)",
		"op-device-time/*":        "one operation of a subject's work on the priced device (SCHEME/OPERATION)",
		"handshake-time":          "SYN to both Finished messages, the client's view at the tap",
		"handshake-time-client":   "the client's own clock from dial to the handshake's return",
		"connection-time":         "SYN to the last payload byte received",
		"cpu-time-client":         "the client's CPU time for the connection",
		"cpu-time-client/*":       "the client's CPU time of one component (asymmetric, hashing, symmetric+mac, io)",
		"cpu-time-server":         "the server's CPU time for the connection",
		"connect-time":            "TCP connect time",
		"latency":                 "request written to response read, the client's round trip",
		"hash-time":               "the signer's wall time hashing the document",
		"sign-time":               "wall time of one private-key signing operation",
		"signer-time":             "hash-time + sign-time",
		"signer-other-time":       "the signer's time parsing the request and building the response: latency = hash + sign + signer-other + transfer, request by request",
		"signer-cpu":              "the signer's thread CPU time for hashing and signing",
		"server-time":             "the signer's wall time from the request read to the response built",
		"transfer-time":           "latency − server-time: the link both ways and both stacks",
		"tls-handshake-time":      "the client's TLS handshake time",
		"tls-handshake-signer":    "the signer's wall time in the TLS handshake",
		"tls-handshake-cpu":       "the signer's thread CPU time in the TLS handshake",
		"verify-time":             "wall time of one signature verification, on this machine",
		"verify-cpu":              "thread CPU time of one verification",
		"verify-device-time":      "time of one verification on the priced device",
		"time-ops":                "time of a node's operations per interval on the device",
		"time-radio":              "a model's radio time sending and receiving per node",
		"clock-deviation":         "|receiver clock − source clock| after an accepted synchronisation",
		"clock-deviation-initial": "|clock offset| before the first synchronisation",
		"reading-latency":         "the sensor's request to its response, through the emulated link",
		"op-time/*":               "time of one operation of a scenario party, measured on this machine",
		"duration":                "the length of a trace, phase or meter reading",
		"delay-added":             "delay a radio's promotions add to the trace",
		"time-promotion":          "time a radio spends promoting to a state that carries data",
		"time-transfer":           "time a radio spends carrying the trace's packets",
		"time-tail":               "time a radio stays in a high-power state after the last packet",
		"time-idle":               "time a radio spends idle within the simulated window",
		"time-in-*":               "time a radio spends in one state and phase",
		"total-time":              "wall time of the whole measurement",
		"max-time-per-op":         "the longest one operation may take for the battery to last the source's stated count",
		"op/*/time":               "a model operation's time per evaluation",
		"handshake":               "measured handshake time of a probed service (full or resumed)",
		"handshake/*":             "measured handshake time of a probed service (full or resumed)",
	})
	define("s", Higher, "d", map[string]string{
		"battery-life":             "how long the battery lasts at the duty cycle",
		"battery-life-sleep-only":  "how long the battery lasts sleeping, never operating",
		"signing-time-per-battery": "seconds of signing a battery pays for above the baseline current",
	})
	// Energy, in joules per subject (operation, connection, reading, ...).
	define("J", Lower, "", map[string]string{
		"energy-tx":             "radio energy sending",
		"energy":                "energy per subject on the priced device, gross (all components)",
		"energy-net":            "energy per subject net of the device's baseline (idle or sleep) state",
		"energy-per-reading":    "a batch trace's energy divided by its readings",
		"energy-signature":      "one signature on the signer's device, gross",
		"energy-signature-net":  "one signature on the signer's device, net of idle",
		"energy-radio":          "the radio's energy for a connection",
		"energy/*":              "energy of one component (asymmetric, symmetric+mac, hashing, io, cpu, radio, sign, ...)",
		"energy-net/*":          "energy of one component net of the baseline",
		"op-energy/*":           "one operation of a subject's work on the priced device (SCHEME/OPERATION)",
		"energy-cpu/*":          "a scenario party's CPU energy per reading, session or registration",
		"energy-radio/*":        "a scenario party's radio energy per reading, session or registration",
		"energy-promotion":      "a radio's energy promoting to a state that carries data",
		"energy-transfer":       "a radio's energy carrying the trace's packets",
		"energy-tail":           "a radio's energy in its tail after the last packet",
		"energy-idle":           "a radio's energy idle within the simulated window",
		"energy-in-*":           "a radio's energy in one state and phase",
		"energy-ops":            "a node's operations per interval on the device",
		"energy-rx":             "a node's radio receiving per interval",
		"verify-energy":         "one verification on the device",
		"energy-saved":          "energy a what-if saves",
		"session-energy/*":      "energy of one component per session (handshake and teardown)",
		"registration-energy/*": "energy of one component per registration",
		"amortised-energy":      "energy per reading with the session amortised over the readings",
		"model/energy/*":        "the analytic model's energy at the run's point",
		"model/energy":          "the analytic model's energy at the run's point, priced on the run's device",
		"op/*/energy":           "a model operation's energy per evaluation",
		"meter-energy/*":        "energy a meter attributes to one domain",
	})
	define("J/B", Lower, "", map[string]string{
		"energy-per-byte":     "energy per input byte of a bulk operation",
		"energy-net-per-byte": "energy per input byte net of the baseline",
	})
	define("W", Lower, "", map[string]string{
		"power":          "average power while the operation runs on the device",
		"baseline-power": "mean power over the idle intervals next to a phase",
	})
	define("A", Lower, "", map[string]string{
		"current":         "average current while the operation runs on the device",
		"current-signing": "current while signing on the device",
		"average-current": "average current over one duty-cycle period",
		"op-current/*":    "the current while one operation of a subject's work runs on the device (SCHEME/OPERATION)",
	})
	// Bytes per subject.
	define("B", Lower, "", map[string]string{
		"alloc-bytes":                    "heap bytes allocated per operation",
		"bytes-up/*":                     "bytes client → server of one record or handshake message type",
		"bytes-down/*":                   "bytes server → client of one record or handshake message type",
		"peak-rss":                       "peak resident set size of the process",
		"signer-rss-listening":           "the signer process's resident set when it accepts the connection",
		"signer-rss-signing":             "the signer process's peak resident set over the connection",
		"signer-heap-listening":          "the Go heap in use when the signer accepts the connection (the whole process: signer and client)",
		"signer-heap-signing":            "the Go heap's peak over the connection (the whole process)",
		"bytes-up":                       "bytes client → server (TLS records; plain TCP: payload)",
		"bytes-down":                     "bytes server → client",
		"handshake-bytes-up":             "handshake and ChangeCipherSpec record bytes client → server",
		"handshake-bytes-down":           "handshake and ChangeCipherSpec record bytes server → client",
		"handshake-bytes-up/*":           "handshake bytes client → server of one message",
		"handshake-bytes-down/*":         "handshake bytes server → client of one message",
		"post-handshake-bytes-up":        "bytes after the handshake client → server (its close_notify)",
		"post-handshake-bytes-down":      "bytes after the handshake server → client (tickets, alerts)",
		"key-share-bytes-up":             "the first ClientHello's key_share extension",
		"key-share-bytes-down":           "the ServerHello's key_share extension",
		"payload-bytes":                  "application data moved",
		"overhead-bytes":                 "bytes-up + bytes-down − payload (S000's overhead)",
		"wire-bytes-up":                  "bytes on the wire client → server with the modelled TCP/IPv4 headers",
		"wire-bytes-down":                "bytes on the wire server → client with the modelled TCP/IPv4 headers",
		"wire-overhead-bytes":            "wire bytes − payload",
		"bytes":                          "bytes of a probed handshake",
		"bytes/*":                        "bytes of a probed handshake by direction or message",
		"request-bytes":                  "the SignRequest frame",
		"response-bytes":                 "the SignResponse frame",
		"signature-bytes":                "the signature as the scheme encodes it",
		"request-overhead-bytes":         "request-bytes − document",
		"response-overhead-bytes":        "response-bytes − signature",
		"payload-bytes-received":         "stream or datagram payload bytes the party received",
		"payload-bytes-sent":             "stream or datagram payload bytes the party sent",
		"tls-overhead-received":          "TLS record overhead on what the party received",
		"tls-overhead-sent":              "TLS record overhead on what the party sent",
		"bytes-received":                 "bytes received with the link model's headers",
		"bytes-sent":                     "bytes sent with the link model's headers",
		"tls-handshake-bytes-received":   "TLS handshake bytes the party received per connection",
		"tls-handshake-bytes-sent":       "TLS handshake bytes the party sent per connection",
		"connection-wire-bytes-received": "a connection's wire bytes received, modelled headers, SYN to FIN",
		"connection-wire-bytes-sent":     "a connection's wire bytes sent, modelled headers, SYN to FIN",
		"message-bytes":                  "one message's encoding",
		"reading-bytes-up":               "UDP payload bytes per reading, sensor → proxy",
		"reading-bytes-down":             "UDP payload bytes per reading, proxy → sensor",
		"reading-air-bytes-up":           "bytes on the air per reading with the link layer's headers, sensor → proxy",
		"reading-air-bytes-down":         "bytes on the air per reading, proxy → sensor",
		"session-bytes-up":               "UDP payload bytes of the session set-up and teardown, sensor → proxy",
		"session-bytes-down":             "UDP payload bytes of the session set-up and teardown, proxy → sensor",
		"session-air-bytes-up":           "bytes on the air of the session, sensor → proxy",
		"session-air-bytes-down":         "bytes on the air of the session, proxy → sensor",
		"session-message-3-bytes-up":     "UDP payload bytes of EDHOC message_3, which rides with the registration (RFC 9668)",
		"session-message-3-air-bytes-up": "air bytes of EDHOC message_3's share of the registration datagram",
		"amortised-bytes-up":             "bytes per reading with the session amortised, sensor → proxy",
		"amortised-bytes-down":           "bytes per reading with the session amortised, proxy → sensor",
		"amortised-air-bytes-up":         "air bytes per reading with the session amortised, sensor → proxy",
		"amortised-air-bytes-down":       "air bytes per reading with the session amortised, proxy → sensor",
		"registration-bytes-up":          "UDP payload bytes of the registration, sensor → directory",
		"registration-bytes-down":        "UDP payload bytes of the registration, directory → sensor",
		"registration-air-bytes-up":      "air bytes of the registration, sensor → directory",
		"registration-air-bytes-down":    "air bytes of the registration, directory → sensor",
		"model/amortised-air-bytes-up":   "the analytic model's air bytes per reading, sensor → proxy",
		"model/amortised-air-bytes-down": "the analytic model's air bytes per reading, proxy → sensor",
		"stack":                          "stack bytes an MCU operation uses (painted in the simulator)",
		"ram":                            "RAM an MCU operation needs: stack + static-ram + state",
		"static-ram":                     "static RAM of an MCU kernel's own objects (.data + .bss from the linker map)",
		"rom":                            "flash bytes of an MCU image's code and constants",
		"state":                          "caller-held state an MCU operation uses",
	})
	define("bit", Lower, "", map[string]string{
		"bits-sent":      "a model's bits sent per node: messages with packet overhead, fragment headers and acknowledgements",
		"bits-received":  "a model's bits received per node",
		"message/*/bits": "a model message's bits on the air per evaluation",
	})
	define("B/s", Higher, "", map[string]string{
		"throughput":          "bytes per second (bulk: input bytes; TLS: payload / connection-time)",
		"transfer-throughput": "payload / (connection-time − handshake-time)",
	})
	define("ops/s", Higher, "", map[string]string{
		"rate": "operations per second",
	})
	define("cycles", Lower, "", map[string]string{
		"cycles":        "CPU cycles per operation (a hardware counter, a simulator, or estimated and labelled so)",
		"cycles-min":    "the low end of an MCU operation's estimated cycles (the cycle rule's fastest case for each instruction)",
		"cycles-max":    "the high end of an MCU operation's estimated cycles (the cycle rule's slowest case for each instruction)",
		"cycles-spread": "an MCU operation's largest minus smallest cycles over its inputs (its secrets): 0 is constant time on a core without a cache",
	})
	define("cycles/B", Lower, "", map[string]string{
		"cycles-per-byte": "CPU cycles per input byte of a bulk operation",
	})
	define("instructions", Lower, "", map[string]string{
		"instructions":        "instructions per operation, counted by an emulator",
		"instructions-spread": "an MCU operation's largest minus smallest instruction count over its inputs (its secrets), counted by an emulator",
	})
	define("instructions/B", Lower, "", map[string]string{
		"instructions-per-byte": "instructions per input byte of a bulk operation, counted by an emulator",
	})
	define("allocs", Lower, "", map[string]string{
		"allocs": "heap allocations per operation",
	})
	define("%", Lower, "", map[string]string{
		"cpu-share-client":  "client CPU time / the connection's wall time",
		"cpu-share-server":  "server CPU time / the connection's wall time",
		"overhead":          "overhead-bytes / payload",
		"wire-overhead":     "wire-overhead-bytes / payload",
		"op-share":          "the operation's share of the charge spent per period",
		"tail-share":        "the radio tail's share of the energy",
		"current-over-idle": "the signing current above the idle current",
		"error/*":           "modelled vs measured, relative error",
	})
	define("ops", Higher, "", map[string]string{
		"ops-per-battery":     "operations a full battery runs at the operation's whole current",
		"ops-per-battery-net": "operations a full battery runs above the baseline current",
	})
	define("signatures", Higher, "", map[string]string{
		"signatures-per-battery":     "signatures a full battery pays for at the signing current",
		"signatures-per-battery-net": "signatures a full battery pays for above the idle current",
	})
	define("packets", Lower, "", map[string]string{
		"packets-up":       "packets client → server, modelled",
		"packets-down":     "packets server → client, modelled",
		"packets-received": "packets the party received",
		"packets-sent":     "packets the party sent",
		"packets":          "packets in a trace",
	})
	define("promotions", Lower, "", map[string]string{
		"promotions": "radio promotions in a trace",
	})
	define("frames", Lower, "", map[string]string{
		"frames-up":                   "link-layer frames up",
		"frames-down":                 "link-layer frames down",
		"reading-frames-up":           "link-layer frames per reading, sensor → proxy",
		"reading-frames-down":         "link-layer frames per reading, proxy → sensor",
		"session-frames-up":           "link-layer frames of the session, sensor → proxy",
		"session-frames-down":         "link-layer frames of the session, proxy → sensor",
		"model/amortised-frames-up":   "the analytic model's frames per reading, sensor → proxy",
		"model/amortised-frames-down": "the analytic model's frames per reading, proxy → sensor",
		"frames-per-message":          "link-layer frames one message takes",
	})
	define("records", Lower, "", map[string]string{
		"records-up":   "TLS records client → server",
		"records-down": "TLS records server → client",
	})
	define("flights", Lower, "", map[string]string{
		"flights": "handshake flights",
	})
	define("round-trips", Lower, "", map[string]string{
		"round-trips": "server flights before the client could send data",
	})
	define("messages", Higher, "", map[string]string{
		"syncs-accepted": "messages that verified and set a clock, all nodes",
	})
	define("messages", Lower, "", map[string]string{
		"replays-rejected":   "messages dropped unverified as replays, all nodes",
		"forgeries-rejected": "messages whose verification failed, all nodes",
		"skipped-unverified": "messages dropped unverified because the interval's verification was spent",
		"malformed":          "messages of the wrong length or another source",
	})
	define("verifications", Lower, "", map[string]string{
		"verifications":            "signature verifications per node and interval",
		"verifications-max":        "the most verifications any node made in one interval",
		"forged-verifications-max": "the most verifications of forged messages any node made in one interval (the flood defence allows 1)",
	})
	define("attacks", Higher, "", map[string]string{
		"rejected": "attack attempts rejected",
	})
	define("attacks", Lower, "", map[string]string{
		"attempts": "attack attempts made",
	})
	define("1", Lower, "", map[string]string{
		"ops/*":       "how many times a scenario party runs an operation per reading or session",
		"resumptions": "resumed handshakes out of the attempts",
		"measured/*":  "the measured value a model output is compared with (its unit is the output's)",
	})
}

// Lookup returns the definition of a metric name: exact, else the longest
// family pattern ("energy/*", "op/*/time") that matches.
func Lookup(name string) (Definition, bool) {
	if d, ok := vocabulary[name]; ok {
		return d, true
	}
	var best Definition
	found := false
	for pat, d := range vocabulary {
		if !strings.Contains(pat, "*") || !matchFamily(pat, name) {
			continue
		}
		if !found || len(pat) > len(best.Name) {
			best, found = d, true
		}
	}
	return best, found
}

// matchFamily matches "a/*/b" against "a/x/b": one '*' standing for one
// or more characters.
func matchFamily(pat, name string) bool {
	i := strings.IndexByte(pat, '*')
	pre, post := pat[:i], pat[i+1:]
	return len(name) > len(pre)+len(post) && strings.HasPrefix(name, pre) && strings.HasSuffix(name, post)
}

// Vocabulary returns every definition, sorted by name.
func Vocabulary() []Definition {
	out := make([]Definition, 0, len(vocabulary))
	for _, d := range vocabulary {
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// normalize converts m's samples and summary to its definition's base
// unit and sets its Better from the definition; names not in the
// vocabulary and units that do not convert are left for Validate to
// report.
func normalize(m *Metric) {
	d, ok := Lookup(m.Name)
	if !ok {
		return
	}
	if d.Name == "measured/*" { // the compared output's own unit
		if c, err := conversion(m.Unit); err == nil {
			scale(m, c)
		}
		return
	}
	m.Better = d.Better
	if m.Unit == d.Unit {
		return
	}
	c, err := conversion(m.Unit)
	if err == nil && c.base == "1" && isCount(d.Unit) {
		// A bare count ("count", "") of what the definition counts.
		m.Unit = d.Unit
		return
	}
	if err != nil || c.base != d.Unit {
		return
	}
	scale(m, c)
}

// isCount reports whether a base unit counts things (packets, records,
// messages) rather than measuring a ratio or a physical quantity.
func isCount(unit string) bool {
	switch unit {
	case "%", "x", "cycles/B", "instructions/B", "ops/s", "bit", "B":
		return false
	}
	return baseUnits[unit] == plainStyle
}

func scale(m *Metric, c unitConversion) {
	m.Unit = c.base
	if c.mul == 1 && c.div == 1 {
		return
	}
	// A new slice: the caller's samples (a runner's ns/op) stay as they
	// were.
	scaled := make([]float64, len(m.Samples))
	for i, v := range m.Samples {
		scaled[i] = c.apply(v)
	}
	if m.Samples != nil {
		m.Samples = scaled
	}
	s := &m.Summary
	for _, v := range []*float64{&s.Median, &s.CILow, &s.CIHigh, &s.Q1, &s.Q3, &s.Min, &s.Max, &s.P95, &s.MAD, &s.Mean} {
		*v = c.apply(*v)
	}
	if b := m.Bounds; b != nil {
		m.Bounds = &Bounds{Lo: c.apply(b.Lo), Hi: c.apply(b.Hi), Method: b.Method}
	}
}

// checkVocabulary reports a metric that is not in the vocabulary or not
// in its base unit.
func checkVocabulary(m Metric) error {
	d, ok := Lookup(m.Name)
	if !ok {
		return fmt.Errorf("metric %q is not in the vocabulary (result/vocabulary.go): define it there", m.Name)
	}
	if d.Name == "measured/*" {
		if _, ok := baseUnits[m.Unit]; !ok {
			return fmt.Errorf("metric %q: unit %q is not a base unit", m.Name, m.Unit)
		}
		return nil
	}
	if m.Unit != d.Unit {
		return fmt.Errorf("metric %q: unit %q, want the vocabulary's %q", m.Name, m.Unit, d.Unit)
	}
	return nil
}

// DisplayMetric is a metric's median for people, in its definition's
// display unit.
func DisplayMetric(m *Metric) string {
	if m == nil {
		return ""
	}
	d, _ := Lookup(m.Name)
	v := DisplayIn(m.Summary.Median, m.Unit, d.Display)
	if b := m.Bounds; b != nil && (b.Lo != m.Summary.Median || b.Hi != m.Summary.Median) {
		v += " (" + DisplayIn(b.Lo, m.Unit, d.Display) + "–" + DisplayIn(b.Hi, m.Unit, d.Display) + ")"
	}
	return v
}

// legacyNames are round 1's metric names that the vocabulary renamed.
var legacyNames = map[string]string{
	"lifetime":                    "battery-life",
	"sleep-only-lifetime":         "battery-life-sleep-only",
	"signing-seconds-per-battery": "signing-time-per-battery",
	"op-time":                     "device-time",
	"max-time-per-signature":      "max-time-per-op",
	"energy-radio-per-request":    "energy/radio",
}

// Upgrade rewrites a run saved with round 1's metric names and units
// (cryptocost/run/v1) to the vocabulary's: "lifetime" in days becomes
// "battery-life" in seconds, "time" in ns/op becomes seconds. It reports
// whether anything changed. The store's migration and ReadJSON use it, so
// old runs compare with new ones.
func Upgrade(run *Run) bool {
	changed := run.Schema != Schema
	run.Schema = Schema
	for i := range run.Results {
		r := &run.Results[i]
		for j := range r.Metrics {
			m := &r.Metrics[j]
			if n, ok := legacyNames[m.Name]; ok {
				m.Name, changed = n, true
			}
			if strings.HasPrefix(m.Name, "energy:") { // a meter's domain
				m.Name, changed = "meter-energy/"+strings.TrimPrefix(m.Name, "energy:"), true
			}
			if s := &m.Summary; s.N > 1 && s.N < stats.MinSamplesForCI && s.CILow == 0 && s.CIHigh == 0 {
				// v1 wrote an unbounded interval as 0, 0.
				s.CILow, s.CIHigh, changed = math.Inf(-1), math.Inf(1), true
			}
			unit, before := m.Unit, m.Summary
			normalize(m)
			if m.Unit != unit || m.Summary != before {
				changed = true
			}
		}
	}
	return changed
}

// Legacy schema names ReadJSON accepts and upgrades.
var legacySchemas = []string{"cryptocost/run/v1"}

func isLegacySchema(s string) bool { return slices.Contains(legacySchemas, s) }
