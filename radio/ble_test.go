package radio

import (
	"testing"
	"time"

	"github.com/cryptocost/cryptocost/result"
)

// nRF52840 profile numbers at 3 V: TX 6.4 mA, RX 6.26 mA, sleep 3 µA,
// event wake-up 0.4 ms at 3 mA; 8 µs per byte at 1M PHY; T_IFS 150 µs.
const (
	bleTXW    = 0.0064 * 3
	bleRXW    = 0.00626 * 3
	bleSleepW = 3e-6 * 3
	bleWakeJ  = 0.4e-3 * 0.003 * 3
)

// bleExchange is one RX of rx bytes on air then TX of tx bytes, with two
// T_IFS priced at the receive power.
func bleExchange(rx, tx int) (time.Duration, float64) {
	d := time.Duration(rx+tx)*8*time.Microsecond + 300*time.Microsecond
	return d, float64(rx)*8e-6*bleRXW + float64(tx)*8e-6*bleTXW + 300e-6*bleRXW
}

func payloadPacket(ms float64, dir result.Direction, payload int) result.Packet {
	p := pkt(ms, dir, payload+40)
	p.Payload = payload
	return p
}

func TestBLEOneEvent(t *testing.T) {
	// 50 B up: an L2CAP SDU of 54 B in two 27-byte PDUs (41 B on air with
	// header, CRC and MIC), one event, the central sending empty PDUs.
	b := simulate(t, "ble-27", trace(payloadPacket(0, up, 50)), Options{})
	d, e := bleExchange(10, 41)
	event := 400*time.Microsecond + 2*d
	phases(t, b, [4]float64{0, bleWakeJ + 2*e, 0, 0}, [4]time.Duration{0, event, 0, 0})
	if b.FramesUp != 2 || b.DelayAdded != event {
		t.Errorf("frames up %d, delay %v", b.FramesUp, b.DelayAdded)
	}
	// 20 B down: one PDU of 10 + 24 + 4 = 38 B received.
	b = simulate(t, "ble-27", trace(payloadPacket(0, down, 20)), Options{})
	_, e = bleExchange(38, 10)
	near(t, "down", b.Energy(Transfer), bleWakeJ+e)
}

func TestBLEPayloadSizes(t *testing.T) {
	// 1000 B: SDU 1004 B = 37 full PDUs + 5 B, 4 per event: 10 events 30 ms
	// apart, the last with two exchanges.
	b := simulate(t, "ble-27", trace(payloadPacket(0, up, 1000)), Options{})
	full, _ := bleExchange(10, 41)
	lastSmall, _ := bleExchange(10, 19)
	wantDelay := 270*time.Millisecond + 400*time.Microsecond + full + lastSmall
	if b.FramesUp != 38 || b.DelayAdded != wantDelay {
		t.Errorf("27 B PDUs: %d frames, delay %v; want 38 and %v", b.FramesUp, b.DelayAdded, wantDelay)
	}
	// The ten events and the sleep between them are one transfer.
	_, fullJ := bleExchange(10, 41)
	_, lastJ := bleExchange(10, 19)
	fullEvent := 400*time.Microsecond + 4*full
	asleep := wantDelay - 9*fullEvent - (400*time.Microsecond + full + lastSmall)
	phases(t, b, [4]float64{0, 10*bleWakeJ + 37*fullJ + lastJ + asleep.Seconds()*bleSleepW, 0, 0},
		[4]time.Duration{0, wantDelay, 0, 0})
	// With data length extension: four 251-byte PDUs, one event.
	b = simulate(t, "ble-251", trace(payloadPacket(0, up, 1000)), Options{})
	d, _ := bleExchange(10, 265)
	if b.FramesUp != 4 || b.DelayAdded != 400*time.Microsecond+4*d {
		t.Errorf("251 B PDUs: %d frames, delay %v", b.FramesUp, b.DelayAdded)
	}
}

func TestBLEWaitsForTheNextEvent(t *testing.T) {
	// The second packet is handed over at 45 ms (plus the first's delay):
	// it goes in the event at 60 ms.
	b := simulate(t, "ble-27", trace(payloadPacket(0, up, 20), payloadPacket(45, up, 20)), Options{})
	var starts []time.Duration
	for _, s := range b.Segments {
		if s.State == "CONNECTION_EVENTS" {
			starts = append(starts, s.Start)
		}
	}
	if len(starts) != 2 || starts[0] != 0 || starts[1] != 60*time.Millisecond {
		t.Errorf("events at %v, want 0 and 60 ms", starts)
	}
}

func TestBLEIdleConnection(t *testing.T) {
	// Staying connected costs an empty exchange and a wake-up per interval,
	// asleep otherwise.
	d, e := bleExchange(10, 10)
	idleW := (bleWakeJ + e + (30e-3-(400e-6+d.Seconds()))*bleSleepW) / 30e-3
	b := simulate(t, "ble-27", trace(payloadPacket(0, up, 20)), Options{Until: time.Second})
	near(t, "idle", b.Energy(Idle), (time.Second-b.Time(Transfer)).Seconds()*idleW)
}
