package tlslab

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/cryptocost/cryptocost/link"
)

// cleanCloseNotes are the two expert notes Wireshark (4.x) attaches to
// every orderly TCP close, FIN each way: a real s_client connection to
// s_server on loopback, captured with dumpcap, shows exactly these.
// The TLS dissector's note on a resumed session states the cell's
// resumption, which is what it measures.
var cleanCloseNotes = []string{"This frame initiates the connection closing", "This frame undergoes the connection closing",
	"This session reuses previously negotiated keys (Session resumption)"}

// tsharkExpert returns the lines of `tshark -q -z expert` in its Errors,
// Warnings and Notes sections, less the notes of a clean close.
func tsharkExpert(t *testing.T, file string) []string {
	t.Helper()
	out, err := exec.Command("tshark", "-r", file, "-q", "-z", "expert").CombinedOutput()
	if err != nil {
		t.Fatalf("tshark -r %s: %v\n%s", file, err, out)
	}
	section := ""
	head := regexp.MustCompile(`^(Errors|Warnings|Notes|Chats|Comments) \(\d+\)$`)
	var bad []string
	for _, line := range strings.Split(string(out), "\n") {
		line = strings.TrimSpace(line)
		if m := head.FindStringSubmatch(line); m != nil {
			section = m[1]
			continue
		}
		if line == "" || strings.HasPrefix(line, "=") || strings.HasPrefix(line, "Frequency") {
			continue
		}
		switch section {
		case "Errors", "Warnings", "Notes":
			clean := false
			for _, n := range cleanCloseNotes {
				clean = clean || strings.HasSuffix(line, n)
			}
			if !clean {
				bad = append(bad, section+": "+line)
			}
		}
	}
	return bad
}

// TestPcapngTsharkExpert (full tier: tshark, OpenSSL): issue 15. Wireshark's
// TCP analysis finds nothing in the lab's captures that a clean connection
// would not show: no keep-alive from an ACK after a FIN with a stale
// sequence number, no duplicate ACKs from ACKs sent together. Transfers
// both ways over loopback (segments arriving together) and over a
// rate-limited link, TLS 1.2 and 1.3, OpenSSL and Go, resumption, plain TCP.
func TestPcapngTsharkExpert(t *testing.T) {
	if testing.Short() {
		t.Skip("full tier: runs tshark and OpenSSL")
	}
	if _, err := exec.LookPath("tshark"); err != nil {
		t.Fatal("tshark not installed: install Debian's tshark package (scripts/deps/tls.txt)")
	}
	needOpenSSL(t)
	wifi, err := link.Lookup("wifi")
	if err != nil {
		t.Fatal(err)
	}
	wlab, err := New(Options{Repeat: 1, Link: &wifi})
	if err != nil {
		t.Fatal(err)
	}
	defer wlab.Close()
	cells := []Cell{
		{Version: TLS13, KeyExchange: KexX25519, Bulk: BulkAES128GCM, Cert: CertECDSAP256, Chain: 2, Resumption: ResumeNone, Transfer: 100 << 10, Direction: Down, Server: "go", Client: "go"},
		{Version: TLS13, KeyExchange: KexX25519, Bulk: BulkAES128GCM, Cert: CertECDSAP256, Chain: 2, Resumption: ResumePSK, Transfer: 100 << 10, Direction: Up, Server: "go", Client: "go"},
		{Version: TLS12, KeyExchange: KexRSA, Bulk: BulkAES128CBC, Cert: CertRSA2048, Chain: 1, Resumption: ResumeSessionID, Transfer: 10 << 10, Direction: Down, Server: "openssl", Client: "openssl"},
		{Plain: true, Transfer: 100 << 10, Direction: Down},
	}
	dir := t.TempDir()
	for li, l := range []*Lab{lab, wlab} {
		for _, c := range cells {
			run := l.Run(context.Background(), c)
			if run.Err != nil {
				t.Fatalf("%s: %v", c.Name(), run.Err)
			}
			for i, conn := range run.Conns {
				file := filepath.Join(dir, strings.ReplaceAll(c.Name(), "/", "_")+"_"+[]string{"loopback", "wifi"}[li]+"_"+string(rune('1'+i))+".pcapng")
				f, err := os.Create(file)
				if err != nil {
					t.Fatal(err)
				}
				if err := conn.WritePcapng(f, c.Name()); err != nil {
					t.Fatal(err)
				}
				f.Close()
				for _, b := range tsharkExpert(t, file) {
					t.Errorf("%s: %s", filepath.Base(file), b)
				}
			}
		}
	}
}
