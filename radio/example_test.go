package radio_test

import (
	"fmt"

	"github.com/cryptocost/cryptocost/radio"
	"github.com/cryptocost/cryptocost/result"
)

// Price a packet trace on a radio profile: two UDP messages received by a
// TelosB as S003's TinyOS sent them (at most 102 B of payload per
// 802.15.4 frame), the radio's frames and its energy, listening included.
func ExampleProfile_Simulate() {
	p, err := radio.Lookup("ieee802154-telosb-tinyos")
	if err != nil {
		panic(err)
	}
	trace := &result.Trace{Packets: []result.Packet{
		{TimeNs: 0, Dir: result.Down, Bytes: 166, Payload: 138, Label: "RSA-1024 sync message"},
		{TimeNs: 500e6, Dir: result.Down, Bytes: 166, Payload: 138, Label: "RSA-1024 sync message"},
	}}
	b, err := p.Simulate(trace, radio.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s: %d packets, %d frames received, %.3f mJ\n", b.Profile, b.Packets, b.FramesDown, b.Total()*1e3)
	// Output:
	// ieee802154-telosb-tinyos: 2 packets, 4 frames received, 13.006 mJ
}
