package probe

import (
	"testing"
	"time"

	"github.com/cryptocost/cryptocost/result"
)

// TestMeasureConn checks the counts and the segment model by hand on a
// made-up TLS 1.2 full handshake: ClientHello 200 B; the server's flight
// 3000 B in two reads; the client's 126 B; the server's 51 B; then 31 B of
// application data after the handshake.
func TestMeasureConn(t *testing.T) {
	rec := func(typ uint8, n int) []byte { return marshalRecords(typ, TLS12, make([]byte, n-5)) }
	flight := rec(recordHandshake, 3000)
	events := []ioEvent{
		{10 * time.Microsecond, result.Up, rec(recordHandshake, 200)},
		{20 * time.Microsecond, result.Down, flight[:1000]},
		{21 * time.Microsecond, result.Down, flight[1000:]},
		{30 * time.Microsecond, result.Up, append(rec(recordHandshake, 70), rec(recordChangeCipherSpec, 6)...)},
		{30 * time.Microsecond, result.Up, rec(recordHandshake, 50)},
		{40 * time.Microsecond, result.Down, rec(recordHandshake, 51)},
		{50 * time.Microsecond, result.Down, rec(recordApplicationData, 31)},
	}
	c := measureConn(events, 5000, 45*time.Microsecond, plainLabels(func(result.Direction, int) string { return "encrypted" }))
	check(t, "bytes", []int{c.bytesUp, c.bytesDown, c.postDown}, []int{326, 3051, 31})
	check(t, "round trips", c.roundTrips, 2)
	check(t, "times", []int64{c.connectNs, c.handshakeNs}, []int64{5000, 40000})
	// Segments: SYN, SYN-ACK, ACK; 200; 1460+1460+80; 126; 51; 31.
	var sizes []int
	for _, p := range c.trace.Packets {
		sizes = append(sizes, p.Bytes)
	}
	check(t, "packets", sizes, []int{40, 40, 40, 240, 1500, 1500, 120, 166, 91, 71})
	check(t, "wire bytes", []int{c.wireUp, c.wireDown, c.packetsUp, c.packetsDown}, []int{80 + 240 + 166, 40 + 1500 + 1500 + 120 + 91, 4, 5})
	// Zero-filled handshake records read as HelloRequests (type 0, empty).
	check(t, "labels", c.trace.Packets[7].Label, "HelloRequest, ChangeCipherSpec, encrypted")
}
