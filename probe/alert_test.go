package probe

import (
	"bytes"
	"testing"
)

// Alert's marshal and unmarshal are a symmetric pair (RFC 8446 §6: level,
// description), and unmarshal refuses any other length. Fast tier.
func TestAlertRoundTrip(t *testing.T) {
	for _, a := range []Alert{{Level: 2, Description: 40}, {Level: 1, Description: 112}, {Level: 2, Description: 70}} {
		b := a.marshal()
		if !bytes.Equal(b, []byte{a.Level, a.Description}) {
			t.Errorf("%v marshals to %x", a, b)
		}
		var got Alert
		if err := got.unmarshal(b); err != nil || got != a {
			t.Errorf("%x unmarshals to %v, %v; want %v", b, got, err, a)
		}
	}
	for _, bad := range [][]byte{nil, {2}, {2, 40, 0}} {
		var a Alert
		if err := a.unmarshal(bad); err == nil {
			t.Errorf("%x: an alert of %d bytes parsed", bad, len(bad))
		}
	}
}
