package probe

import (
	"net"
	"strings"
	"testing"
	"time"

	"github.com/cryptocost/cryptocost/result"
)

// TestTopLevelErrors (fast tier: in-process hostile servers): issue 15.
// The report's first error says what happened, not only what was not found.
func TestTopLevelErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		behave func(h *hostile, c net.Conn)
		want   string
	}{
		{"reset after every hello", func(h *hostile, c net.Conn) {
			h.readHello(c)
			c.(*net.TCPConn).SetLinger(0)
		}, "accepted none of the versions tried: every hello got connection reset by the server"},
		// A TLS ≤ 1.2 server whose Certificate claims 16 MiB (2^24 − 1
		// bytes) and sends data to match: refused from its header, and a
		// chain the report cannot have is an error, not "complete".
		{"16 MiB Certificate", func(h *hostile, c net.Conn) {
			ch := h.readHello(c)
			if ch == nil || len(ch.SupportedVersions) > 0 && ch.SupportedVersions[0] == TLS13 || len(ch.CipherSuites) == 0 {
				c.Write(marshalRecords(recordAlert, TLS12, []byte{2, 70}))
				return
			}
			c.Write(serverHello12(ch.CipherSuites[0]))
			c.Write(marshalRecords(recordHandshake, TLS12, []byte{typeCertificate, 0xff, 0xff, 0xff}))
			endless(c, marshalRecords(recordHandshake, TLS12, make([]byte, 16000)), 0)
		}, "certificate chain could not be read: its Certificate of 16777215 bytes exceeds the 262144-byte limit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := startHostile(t, tt.behave)
			r := runProbe(t, h.addr, Options{Limits: Limits{Timeout: 2 * time.Second}, TimeLimit: time.Minute,
				Versions: []Version{TLS10, TLS12, TLS13}})
			if r.Status != result.Failed {
				t.Errorf("status %s, want failed", r.Status)
			}
			if len(r.Errors) == 0 || !strings.Contains(r.Errors[0], tt.want) {
				t.Errorf("errors %q, want the first to say %q", r.Errors, tt.want)
			}
			if r.MostBytesRead > DefaultLimits().MaxConnBytes {
				t.Errorf("read %d bytes from one connection, over the %d limit", r.MostBytesRead, DefaultLimits().MaxConnBytes)
			}
		})
	}
}
