package scheme

import (
	"bytes"
	"errors"
	"testing"
)

// The FamilyMAC size checker is in mac_test.go.

var tgppMACSchemesHere = []string{"SNOW3G-UIA2", "ZUC-EIA3"}

// TestTGPPMACKATCatchesAWrongMAC shows the correctness gate can fail: a
// copy whose first expected MAC is off by one bit does not pass.
func TestTGPPMACKATCatchesAWrongMAC(t *testing.T) {
	for _, name := range tgppMACSchemesHere {
		s := tgppMACTestSets[name]
		bad := s
		bad.vectors = append([]tgppMACVector(nil), s.vectors...)
		mac := streamHex(bad.vectors[0].MAC)
		mac[3] ^= 1
		bad.vectors[0].MAC = hexString(mac)
		if err := bad.check(); !errors.Is(err, ErrKAT) {
			t.Errorf("%s: KAT with a corrupted MAC returned %v, want ErrKAT", name, err)
		}
		// And the registered scheme runs these tests as its KAT.
		if got := Must(Lookup(name)).(*macScheme).check; got == nil {
			t.Errorf("%s: the scheme's KAT does not run the test sets", name)
		}
		// A message bit inside LENGTH changes the MAC too.
		bad.vectors = append([]tgppMACVector(nil), s.vectors...)
		v := &bad.vectors[1]
		msg := streamHex(v.Msg)
		msg[(v.Bits-1)/8] ^= 0x80 >> ((v.Bits - 1) % 8)
		v.Msg = hexString(msg)
		if err := bad.check(); !errors.Is(err, ErrKAT) {
			t.Errorf("%s: KAT with the last message bit flipped returned %v, want ErrKAT", name, err)
		}
	}
}

// TestTGPPMACIsAHash checks the hash.Hash contract the mac operation relies
// on: Sum leaves the state alone, Reset starts the message again, and
// writes in pieces equal one write.
func TestTGPPMACIsAHash(t *testing.T) {
	for _, name := range tgppMACSchemesHere {
		t.Run(name, func(t *testing.T) {
			s := Must(Lookup(name)).(MACScheme)
			m, err := s.NewMAC(testData(16, "key", 0))
			if err != nil {
				t.Fatal(err)
			}
			msg := testData(300, "msg", 0)
			m.Write(msg)
			want := m.Sum(nil)
			if again := m.Sum(nil); !bytes.Equal(again, want) {
				t.Fatalf("second Sum = %x, first %x", again, want)
			}
			for _, step := range []int{1, 7, 16, 33} {
				m.Reset()
				for i := 0; i < len(msg); i += step {
					m.Write(msg[i:min(i+step, len(msg))])
					m.Sum(nil)
				}
				if got := m.Sum(nil); !bytes.Equal(got, want) {
					t.Fatalf("writes of %d bytes: MAC %x, one write %x", step, got, want)
				}
			}
			if _, err := s.NewMAC(make([]byte, 15)); err == nil {
				t.Error("NewMAC accepted a 15-byte key")
			}
		})
	}
}

// TestTGPPMACLoopDoesNotAllocate: the timed mac loop does only the MAC.
func TestTGPPMACLoopDoesNotAllocate(t *testing.T) {
	for _, name := range tgppMACSchemesHere {
		for _, op := range Must(Lookup(name)).Operations() {
			if op.Name != OpMAC {
				continue
			}
			for _, size := range []int{64, 1001} {
				loop, err := op.Prepare(Args{Size: size})
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if a := testing.AllocsPerRun(5, func() { loop(3) }); a != 0 {
					t.Errorf("%s mac of %d bytes: %.1f allocations per loop", name, size, a)
				}
			}
		}
	}
}
