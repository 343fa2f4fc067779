package tlslab

import (
	"bytes"
	"testing"

	"github.com/cryptocost/cryptocost/link"
	"github.com/cryptocost/cryptocost/result"
)

// TestHostileStreams: streams of tens of thousands of tiny records are
// attributed completely and in time linear in their size (an earlier
// version re-parsed the handshake buffer per record and took minutes on
// "empty messages": this test would then exceed the suite's time limit).
func TestHostileStreams(t *testing.T) {
	for name, in := range map[string][]byte{
		"tiny handshake records": bytes.Repeat([]byte{22, 3, 3, 0, 1, 0xff}, 20000),
		"tiny app records":       bytes.Repeat([]byte{23, 3, 3, 0, 1, 0xff}, 20000),
		"empty messages":         bytes.Repeat([]byte{22, 3, 3, 0, 4, 14, 0, 0, 0}, 20000),
		"alternating":            bytes.Repeat([]byte{22, 3, 3, 0, 4, 14, 0, 0, 0, 23, 3, 3, 0, 1, 0}, 20000),
	} {
		c := &Capture{}
		c.Observe(link.Segment{Dir: result.Up, Payload: in})
		c.Observe(link.Segment{Dir: result.Down, Payload: in})
		a, err := Analyze(c, nil)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if a.Up.All() != len(in) || a.Down.All() != len(in) {
			t.Errorf("%s: attributed %d and %d of %d bytes", name, a.Up.All(), a.Down.All(), len(in))
		}
	}
}
