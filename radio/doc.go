// Package radio prices packet traces on radio state machines: what the bytes
// of a TLS handshake, a CoAP exchange or a bulk transfer cost on 3G, LTE,
// WiFi, Bluetooth Low Energy or IEEE 802.15.4, tails included.
//
// A radio profile is a data file (profiles/*.yaml, embedded; a user's file
// with --radio-file) whose every number is a catalog.Quantity with its unit
// and source. Its technology selects the state machine: umts.go, lte.go,
// wifi.go, ble.go, ieee802154.go, each registering itself by name. The
// machine walks a result.Trace and returns a Breakdown: a timeline of
// segments (state, phase, power, energy) and the energy and time split into
// promotion, transfer, tail and idle.
//
// Two rules hold for every machine:
//
//   - A trace's timestamps are when the application handed each packet to
//     the radio (the TLS lab records them on an emulated link). Whatever the
//     radio adds — a promotion from idle, waiting for a BLE connection event,
//     serialising 802.15.4 frames — delays that packet and every later one by
//     the same amount, because a protocol exchange is a causal chain: a reply
//     cannot leave before the request arrived. Breakdown.DelayAdded says how
//     much latency the radio added.
//   - An interval between two packets in an active state is transfer when the
//     next packet comes before the state's inactivity timer expires, and tail
//     from the last packet until the timer expires otherwise (Huang et al.,
//     MobiSys 2012, define the tail the same way).
//
// Price is the entry point for other packages (the TLS lab, scenarios):
//
//	b, err := radio.Price(trace, "lte", radio.Options{})
//	fmt.Println(b.Energy(radio.Tail), b.Total())
package radio
