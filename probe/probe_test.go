package probe

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/asn1"
	"encoding/pem"
	"fmt"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cryptocost/cryptocost/internal/testtier"
	"github.com/cryptocost/cryptocost/result"
)

// testSuites keeps the scans short: the suites OpenSSL 3.0 enables by
// default, S000's four, and a few legacy ones.
var testSuites = []uint16{
	0x0005, 0x000a, 0x002f, 0x0033, 0x0035, 0x0039, 0x003c, 0x009c, 0x009d, 0x009e, 0x009f,
	0xc013, 0xc014, 0xc02f, 0xc030, 0xcca8, 0xccaa, 0x1301, 0x1302, 0x1303,
}

const testTries = 3

// runProbe probes addr and fails the test if the probe does not return:
// a hang detector with a wide margin, not a timing assertion.
func runProbe(t *testing.T, addr string, opts Options) *Report {
	t.Helper()
	if opts.Suites == nil {
		opts.Suites = testSuites
	}
	if opts.Tries == 0 {
		opts.Tries = testTries
	}
	done := make(chan *Report, 1)
	go func() {
		rep, err := Probe(context.Background(), addr, opts)
		if err != nil {
			t.Error(err)
		}
		done <- rep
	}()
	select {
	case rep := <-done:
		if rep == nil {
			t.FailNow()
		}
		checkEvidence(t, rep)
		t.Cleanup(func() {
			if t.Failed() {
				var b strings.Builder
				WriteTable(&b, rep)
				t.Logf("report:\n%s", b.String())
			}
		})
		return rep
	case <-time.After(3 * time.Minute):
		t.Fatalf("probe of %s did not return", addr)
		return nil
	}
}

// checkEvidence: every finding says how it was established, and the
// report survives its JSON round trip.
func checkEvidence(t *testing.T, r *Report) {
	t.Helper()
	var ev []Evidence
	for _, v := range r.Versions {
		if v.Tested {
			ev = append(ev, v.Evidence)
		}
	}
	for _, l := range r.Suites {
		for _, s := range l.Suites {
			ev = append(ev, s.Evidence)
		}
		ev = append(ev, l.OrderEvidence...)
	}
	for _, c := range r.Clients {
		ev = append(ev, c.Evidence)
	}
	for _, g := range append(append(r.KeyExchange.TLS13Groups, r.KeyExchange.TLS12Curves...), r.KeyExchange.FFDHE...) {
		if len(g.Evidence) == 0 {
			t.Errorf("group %s without evidence", g.Name)
		}
		ev = append(ev, g.Evidence...)
	}
	for _, d := range r.KeyExchange.DHE {
		ev = append(ev, d.Evidence)
	}
	for _, c := range r.Chains {
		ev = append(ev, c.Evidence)
	}
	for _, s := range r.Resumption {
		ev = append(ev, s.Evidence...)
	}
	for i, e := range ev {
		if e.Hello == "" || e.Response == "" {
			t.Errorf("evidence %d incomplete: %+v", i, e)
		}
	}
	var b bytes.Buffer
	if err := WriteJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	back, err := ReadJSON(&b)
	if err != nil {
		t.Fatal(err)
	}
	if len(back[0].Versions) != len(r.Versions) || len(back[0].Resumption) != len(r.Resumption) ||
		len(back[0].Run.Results) != len(r.Run.Results) || back[0].Status != r.Status {
		t.Errorf("JSON round trip lost findings")
	}
}

func acceptedVersions(r *Report) []Version {
	var vs []Version
	for _, v := range r.Versions {
		if v.Accepted {
			vs = append(vs, v.Version)
		}
	}
	return vs
}

func suiteIDs(r *Report, v Version) ([]uint16, string) {
	for _, l := range r.Suites {
		if l.Version == v {
			var ids []uint16
			for _, s := range l.Suites {
				var id uint16
				fmt.Sscanf(s.ID, "0x%04x", &id)
				ids = append(ids, id)
			}
			return ids, l.Order
		}
	}
	return nil, ""
}

func groupNames(gs []GroupFinding) []string {
	var out []string
	for _, g := range gs {
		out = append(out, g.Name)
	}
	return out
}

func pick(r *Report, client string) ClientPick {
	for _, c := range r.Clients {
		if c.Client == client {
			return c
		}
	}
	return ClientPick{Error: "no such client in the report"}
}

func resumptionOf(t *testing.T, r *Report, mech string) Resumption {
	t.Helper()
	for _, s := range r.Resumption {
		if s.Mechanism == mech {
			return s
		}
	}
	t.Fatalf("no %s resumption finding", mech)
	return Resumption{}
}

func resultNamed(r *Report, suffix string) *result.Result {
	for i := range r.Run.Results {
		if strings.HasSuffix(r.Run.Results[i].Subject.Name, "/"+suffix) {
			return &r.Run.Results[i]
		}
	}
	return nil
}

func check(t *testing.T, what string, got, want any) {
	t.Helper()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s: got %v, want %v", what, got, want)
	}
}

// wantResumption checks a resumption finding's counts.
func wantResumption(t *testing.T, r *Report, mech string, issued, resumed int) Resumption {
	t.Helper()
	s := resumptionOf(t, r, mech)
	if s.Tries != testTries || s.Issued != issued || s.Resumed != resumed {
		t.Errorf("%s: issued %d resumed %d of %d, want issued %d resumed %d (error %q)", mech, s.Issued, s.Resumed, s.Tries, issued, resumed, s.Error)
	}
	if len(s.Evidence) < testTries {
		t.Errorf("%s: %d evidence entries for %d tries", mech, len(s.Evidence), testTries)
	}
	return s
}

// finalFlight finds the client's ChangeCipherSpec+Finished packet of a
// resumed TLS ≤ 1.2 handshake's trace.
func finalFlight(res *result.Result) int {
	for _, p := range res.Trace.Packets {
		if p.Dir == result.Up && p.Label == "ChangeCipherSpec, Finished (encrypted)" {
			return p.Payload
		}
	}
	return -1
}

func dhParams(t *testing.T, group string) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), group+".pem")
	out, err := exec.Command("openssl", "genpkey", "-genparam", "-algorithm", "DH", "-pkeyopt", "group:"+group, "-out", file).CombinedOutput()
	if err != nil {
		t.Skipf("openssl genpkey %s: %v\n%s", group, err, out)
	}
	return file
}

func leafOnly(p *testPKI) []string { return []string{"-cert", p.leafFile, "-key", p.keyFile} }

// tls12CertMsg is the size of a TLS ≤ 1.2 Certificate message for these
// certificates: 4 bytes of header, a 3-byte list length, 3 bytes per
// entry (RFC 5246 §7.4.2).
func tls12CertMsg(ders ...[]byte) int {
	n := 4 + 3
	for _, d := range ders {
		n += 3 + len(d)
	}
	return n
}

// tls13CertMsg adds TLS 1.3's 1-byte context and 2 bytes of extensions
// per entry (RFC 8446 §4.4.2), plus the leaf's status_request extension
// when stapled: 4 bytes of header, status_type, a 3-byte length.
func tls13CertMsg(ocsp int, ders ...[]byte) int {
	n := 4 + 1 + 3
	for _, d := range ders {
		n += 3 + len(d) + 2
	}
	if ocsp > 0 {
		n += 4 + 1 + 3 + ocsp
	}
	return n
}

func TestOpenSSLTLS12RSAKeyTransport(t *testing.T) {
	t.Parallel()
	p := sharedPKI(t)
	addr := startOpenSSL(t, append(leafOnly(p), "-tls1_2", "-cipher", "AES256-SHA:AES128-GCM-SHA256:AES128-SHA", "-serverpref")...)
	r := runProbe(t, addr, Options{})
	check(t, "status", r.Status, result.Complete)
	check(t, "versions", acceptedVersions(r), []Version{TLS12})
	ids, order := suiteIDs(r, TLS12)
	check(t, "suites", ids, []uint16{0x0035, 0x009c, 0x002f})
	check(t, "order", order, "server")
	check(t, "ephemeral", r.KeyExchange.Ephemeral, false)
	check(t, "TLS 1.2 curves", len(r.KeyExchange.TLS12Curves), 0)
	check(t, "DHE", len(r.KeyExchange.DHE), 0)
	// Go's default client no longer offers RSA key transport (Go 1.22).
	if c := pick(r, "go-default"); c.Error == "" {
		t.Errorf("go-default negotiated %s %s with an RSA-key-transport-only server", c.Version, c.Suite)
	}
	if c := pick(r, "s000-era"); !strings.Contains(c.Error, "protocol_version") {
		t.Errorf("s000-era: %+v, want refused with protocol_version", c)
	}
	if len(r.Chains) != 1 {
		t.Fatalf("%d chains", len(r.Chains))
	}
	ch := r.Chains[0]
	check(t, "chain", []any{ch.Version, ch.Count, ch.MessageBytes, ch.DERBytes, ch.OCSPStapled},
		[]any{TLS12, 1, tls12CertMsg(p.leafDER), len(p.leafDER), false})
	check(t, "leaf key", ch.Certificates[0].KeyType+fmt.Sprint(ch.Certificates[0].KeyBits), "RSA2048")
	tk := wantResumption(t, r, MechTicket, testTries, testTries)
	if tk.LifetimeSeconds == nil || *tk.LifetimeSeconds != 7200 {
		// OpenSSL's default session timeout, 2 hours (tls1_default_timeout).
		t.Errorf("ticket lifetime %v, want 7200", tk.LifetimeSeconds)
	}
	wantResumption(t, r, MechSessionID, testTries, testTries)
	full := resultNamed(r, "full/tls12")
	if full == nil {
		t.Fatal("no full/tls12 result")
	}
	check(t, "full handshake", []string{full.Subject.Params["suite"], full.Subject.Params["key_exchange"]},
		[]string{"TLS_RSA_WITH_AES_256_CBC_SHA", "RSA key transport"})
	check(t, "full round trips", full.Metric("round-trips").Summary.Median, 2)
	ticket := resultNamed(r, "resumed/tls12-ticket")
	if ticket == nil {
		t.Fatal("no resumed/tls12-ticket result")
	}
	check(t, "resumed round trips", ticket.Metric("round-trips").Summary.Median, 1)
	// The record size model, against crypto/tls's real final flight.
	s, _ := SuiteByID(0x0035)
	model, _ := clientFinalFlight(s, TLS12)
	check(t, "client final flight (measured vs model)", finalFlight(ticket), model)
	sid := resultNamed(r, "resumed/tls12-session-id")
	if sid == nil || sid.Metric("bytes-up").Label != result.Estimated || sid.Metric("bytes-down").Label != result.Measured {
		t.Errorf("session-ID resumption result: %+v", sid)
	}
}

func TestOpenSSLDHEOnly(t *testing.T) {
	t.Parallel()
	p := sharedPKI(t)
	dh := dhParams(t, "ffdhe2048")
	addr := startOpenSSL(t, append(leafOnly(p), "-tls1_2", "-cipher", "DHE-RSA-AES128-GCM-SHA256:DHE-RSA-AES256-SHA",
		"-serverpref", "-dhparam", dh)...)
	r := runProbe(t, addr, Options{})
	check(t, "versions", acceptedVersions(r), []Version{TLS12})
	ids, order := suiteIDs(r, TLS12)
	check(t, "suites", ids, []uint16{0x009e, 0x0039})
	check(t, "order", order, "server")
	check(t, "ephemeral", r.KeyExchange.Ephemeral, true)
	if len(r.KeyExchange.DHE) != 1 {
		t.Fatalf("DHE findings: %+v", r.KeyExchange.DHE)
	}
	d := r.KeyExchange.DHE[0]
	check(t, "DHE", []any{d.PrimeBits, d.Generator, d.Group, d.PublicBytes}, []any{2048, "2", "ffdhe2048 (RFC 7919)", 256})
	// OpenSSL 3.0 does not negotiate RFC 7919 groups in TLS 1.2: offered
	// only ffdhe3072, it still uses its configured ffdhe2048.
	if len(r.KeyExchange.FFDHE) != 0 || !strings.Contains(r.KeyExchange.FFDHENote, "ignores RFC 7919") {
		t.Errorf("RFC 7919: %+v %q", r.KeyExchange.FFDHE, r.KeyExchange.FFDHENote)
	}
	full := resultNamed(r, "full/tls12")
	if full == nil {
		t.Fatal("no full/tls12 result: crypto/tls cannot do DHE, zcrypto should have")
	}
	check(t, "full handshake", []string{full.Subject.Params["suite"], full.Subject.Params["key_exchange"]},
		[]string{"TLS_DHE_RSA_WITH_AES_128_GCM_SHA256", "DHE 2048-bit"})
	if !strings.Contains(full.Subject.Params["client"], "zcrypto") {
		t.Errorf("client %q, want zcrypto", full.Subject.Params["client"])
	}
	wantResumption(t, r, MechTicket, testTries, testTries)
	wantResumption(t, r, MechSessionID, testTries, testTries)
}

func TestOpenSSLTLS13Only(t *testing.T) {
	t.Parallel()
	p := sharedPKI(t)
	addr := startOpenSSL(t, append(leafOnly(p), "-tls1_3", "-ciphersuites", "TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256",
		"-groups", "P-384:X25519:ffdhe3072", "-serverpref")...)
	r := runProbe(t, addr, Options{})
	check(t, "versions", acceptedVersions(r), []Version{TLS13})
	ids, order := suiteIDs(r, TLS13)
	check(t, "suites", ids, []uint16{0x1302, 0x1303})
	check(t, "order", order, "server")
	g := r.KeyExchange.TLS13Groups
	check(t, "groups", groupNames(g), []string{"secp384r1", "x25519", "ffdhe3072"})
	if len(g) == 3 {
		check(t, "shares", []int{g[0].ShareUp, g[0].ShareDown, g[1].ShareUp, g[1].ShareDown, g[2].ShareUp}, []int{97, 97, 32, 32, 0})
	}
	// OpenSSL takes the first key share the client sent that it accepts
	// (Go sends X25519MLKEM768 and X25519): x25519, not its first group.
	c := pick(r, "go-default")
	check(t, "go-default", []string{c.Version.String(), c.Suite, c.KeyExchange}, []string{"TLS 1.3", "TLS_AES_256_GCM_SHA384", "x25519"})
	psk := wantResumption(t, r, MechTLS13PSK, testTries, testTries)
	// OpenSSL sends two tickets by default (SSL_CTX_set_num_tickets).
	check(t, "tickets per handshake", psk.TicketsPerHandshake, 2)
	if len(r.Chains) != 1 {
		t.Fatalf("%d chains", len(r.Chains))
	}
	check(t, "TLS 1.3 Certificate message", r.Chains[0].MessageBytes, tls13CertMsg(0, p.leafDER))
	check(t, "handshake signature", r.Chains[0].HandshakeSignature, "rsa_pss_rsae_sha256")
	for _, name := range []string{"full/tls13", "resumed/tls13-psk"} {
		res := resultNamed(r, name)
		if res == nil {
			t.Fatalf("no %s result", name)
		}
		check(t, name+" round trips", res.Metric("round-trips").Summary.Median, 1)
		if res.Metric("post-handshake-bytes-down") == nil {
			t.Errorf("%s: no post-handshake bytes (the tickets)", name)
		}
	}
}

func TestOpenSSLResumptionDisabled(t *testing.T) {
	t.Parallel()
	p := sharedPKI(t)
	addr := startOpenSSL(t, append(leafOnly(p), "-no_cache", "-no_ticket", "-num_tickets", "0")...)
	r := runProbe(t, addr, Options{})
	check(t, "versions", acceptedVersions(r), []Version{TLS12, TLS13})
	wantResumption(t, r, MechTLS13PSK, 0, 0)
	wantResumption(t, r, MechTicket, 0, 0)
	wantResumption(t, r, MechSessionID, 0, 0)
	for _, res := range r.Run.Results {
		if res.Subject.Params["handshake"] == "resumed" {
			t.Errorf("a resumed handshake was measured: %s", res.Subject.Name)
		}
	}
}

// TestOpenSSLTicketsWithoutCache: with -no_ticket, OpenSSL's TLS 1.3
// tickets are stateful (a session ID the server looks up); with -no_cache
// too there is nothing to look them up in. Tickets issued, none resumed.
func TestOpenSSLTicketsWithoutCache(t *testing.T) {
	t.Parallel()
	p := sharedPKI(t)
	addr := startOpenSSL(t, append(leafOnly(p), "-no_cache", "-no_ticket", "-tls1_3")...)
	r := runProbe(t, addr, Options{})
	wantResumption(t, r, MechTLS13PSK, testTries, 0)
	if resultNamed(r, "resumed/tls13-psk") != nil {
		t.Error("a resumed TLS 1.3 handshake was measured")
	}
}

func TestOpenSSLTicketsOff(t *testing.T) {
	t.Parallel()
	p := sharedPKI(t)
	addr := startOpenSSL(t, append(leafOnly(p), "-no_ticket")...)
	r := runProbe(t, addr, Options{})
	wantResumption(t, r, MechTicket, 0, 0)
	wantResumption(t, r, MechSessionID, testTries, testTries)
	// Without -serverpref OpenSSL follows the client's order.
	for _, v := range []Version{TLS12, TLS13} {
		if _, order := suiteIDs(r, v); order != "client" {
			t.Errorf("%s order %q, want client", v, order)
		}
	}
	// With SSL_OP_NO_TICKET, OpenSSL's TLS 1.3 tickets are stateful
	// session IDs: resumption still works.
	wantResumption(t, r, MechTLS13PSK, testTries, testTries)
}

func TestOpenSSLChainAndOCSP(t *testing.T) {
	t.Parallel()
	p := sharedPKI(t)
	ocspDER := p.ocspResponse(t)
	ocspFile := filepath.Join(t.TempDir(), "ocsp.der")
	if err := os.WriteFile(ocspFile, ocspDER, 0o600); err != nil {
		t.Fatal(err)
	}
	addr := startOpenSSL(t, "-cert", p.leafFile, "-key", p.keyFile, "-cert_chain", p.chainFile, "-status_file", ocspFile)
	r := runProbe(t, addr, Options{Now: func() time.Time { return time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC) }})
	if len(r.Chains) != 2 {
		t.Fatalf("%d chains, want the TLS 1.3 and the TLS 1.2 one", len(r.Chains))
	}
	ders := [][]byte{p.leafDER, p.interDER, p.rootDER}
	wantBytes := map[Version]int{TLS13: tls13CertMsg(len(ocspDER), ders...), TLS12: tls12CertMsg(ders...)}
	for _, ch := range r.Chains {
		check(t, ch.Version.String()+" chain", []any{ch.Count, ch.MessageBytes, ch.DERBytes, ch.OCSPStapled, ch.OCSPBytes},
			[]any{3, wantBytes[ch.Version], len(p.leafDER) + len(p.interDER) + len(p.rootDER), true, len(ocspDER)})
		var got []string
		for _, c := range ch.Certificates {
			got = append(got, fmt.Sprintf("%s|%s %d|%s|%s|%s|%d", c.Subject, c.KeyType, c.KeyBits, c.SignatureAlgorithm,
				c.NotBefore.Format(time.RFC3339), c.NotAfter.Format(time.RFC3339), c.DERBytes))
		}
		want := []string{
			fmt.Sprintf("CN=localhost|RSA 2048|ECDSA-SHA384|2025-01-01T00:00:00Z|2035-01-01T00:00:00Z|%d", len(p.leafDER)),
			fmt.Sprintf("CN=cryptocost test intermediate|ECDSA P-384 384|SHA256-RSA|2025-01-01T00:00:00Z|2035-01-01T00:00:00Z|%d", len(p.interDER)),
			fmt.Sprintf("CN=cryptocost test root|RSA 3072|SHA256-RSA|2025-01-01T00:00:00Z|2035-01-01T00:00:00Z|%d", len(p.rootDER)),
		}
		check(t, ch.Version.String()+" certificates", got, want)
		if !strings.HasPrefix(ch.Verified, "not verified") {
			t.Errorf("a chain under a test root verified against the system roots: %q", ch.Verified)
		}
	}
}

func TestOpenSSLLegacyS000(t *testing.T) {
	t.Parallel()
	p := sharedPKI(t)
	dh := dhParams(t, "dh_1024_160")
	// Debian's OpenSSL 3.0 refuses TLS 1.0 and 1024-bit DH at its default
	// security level; level 0 is what a 2010 server ran.
	addr := startOpenSSL(t, append(leafOnly(p), "-tls1", "-cipher", "DHE-RSA-AES128-SHA:AES128-SHA@SECLEVEL=0",
		"-serverpref", "-dhparam", dh)...)
	r := runProbe(t, addr, Options{})
	check(t, "versions", acceptedVersions(r), []Version{TLS10})
	c := pick(r, "s000-era")
	check(t, "s000-era", []string{c.Version.String(), c.Suite, c.KeyExchange, c.Error},
		[]string{"TLS 1.0", "TLS_DHE_RSA_WITH_AES_128_CBC_SHA", "DHE 1024-bit", ""})
	if c.ServerBytes < tls12CertMsg(p.leafDER) {
		t.Errorf("server's first flight %d B, smaller than its certificate", c.ServerBytes)
	}
	if len(r.KeyExchange.DHE) != 1 || r.KeyExchange.DHE[0].Group != "1024-bit MODP with 160-bit subgroup (RFC 5114 §2.1)" {
		t.Errorf("DHE: %+v", r.KeyExchange.DHE)
	}
	if c := pick(r, "go-default"); c.Error == "" {
		t.Errorf("go-default negotiated TLS 1.0: %+v", c)
	}
	full := resultNamed(r, "full/tls12")
	if full == nil {
		t.Fatal("no full handshake result")
	}
	check(t, "full handshake", []string{full.Subject.Params["version"], full.Subject.Params["suite"]},
		[]string{"TLS 1.0", "TLS_RSA_WITH_AES_128_CBC_SHA"})
	wantResumption(t, r, MechTicket, testTries, testTries)
	ticket := resultNamed(r, "resumed/tls12-ticket")
	s, _ := SuiteByID(0x002f)
	model, _ := clientFinalFlight(s, TLS10)
	check(t, "TLS 1.0 CBC final flight (measured vs model)", finalFlight(ticket), model)
}

func TestGoServerHybridGroups(t *testing.T) {
	t.Parallel()
	p := sharedPKI(t)
	addr := startGoServer(t, &tls.Config{Certificates: []tls.Certificate{p.tlsCert(true)}})
	r := runProbe(t, addr, Options{})
	check(t, "versions", acceptedVersions(r), []Version{TLS12, TLS13})
	got := groupNames(r.KeyExchange.TLS13Groups)
	want := []string{"X25519MLKEM768", "SecP256r1MLKEM768", "SecP384r1MLKEM1024", "x25519", "secp256r1", "secp384r1", "secp521r1"}
	slices.Sort(got)
	slices.Sort(want)
	check(t, "TLS 1.3 groups", got, want)
	for _, g := range r.KeyExchange.TLS13Groups {
		info, _ := LookupGroup(g.Name)
		if g.ShareUp != info.ClientShare || g.ShareDown != info.ServerShare {
			t.Errorf("%s shares %d/%d, want %d/%d", g.Name, g.ShareUp, g.ShareDown, info.ClientShare, info.ServerShare)
		}
	}
	if x := r.KeyExchange.TLS13Groups[0]; x.Name != "X25519MLKEM768" || x.ShareUp != 1216 || x.ShareDown != 1120 {
		t.Errorf("first group %+v, want X25519MLKEM768 with 1216/1120-byte shares", x)
	}
	c := pick(r, "go-default")
	check(t, "go-default", []string{c.Version.String(), c.KeyExchange}, []string{"TLS 1.3", "X25519MLKEM768"})
	psk := wantResumption(t, r, MechTLS13PSK, testTries, testTries)
	// crypto/tls servers give TLS 1.3 tickets 7 days (RFC 8446 §4.6.1's
	// maximum) and leave the TLS 1.2 hint unspecified (0).
	if psk.LifetimeSeconds == nil || *psk.LifetimeSeconds != 7*24*3600 {
		t.Errorf("PSK lifetime %v", psk.LifetimeSeconds)
	}
	tk := wantResumption(t, r, MechTicket, testTries, testTries)
	if tk.LifetimeSeconds == nil || *tk.LifetimeSeconds != 0 {
		t.Errorf("TLS 1.2 ticket lifetime hint %v, want 0", tk.LifetimeSeconds)
	}
	// crypto/tls servers keep no session cache.
	wantResumption(t, r, MechSessionID, 0, 0)
	check(t, "chain count", r.Chains[0].Count, 3)
}

func TestGoServerOneHybridGroup(t *testing.T) {
	t.Parallel()
	p := sharedPKI(t)
	addr := startGoServer(t, &tls.Config{Certificates: []tls.Certificate{p.tlsCert(false)}, MinVersion: tls.VersionTLS13,
		CurvePreferences: []tls.CurveID{tls.X25519MLKEM768}})
	r := runProbe(t, addr, Options{Versions: []Version{TLS12, TLS13}})
	check(t, "versions", acceptedVersions(r), []Version{TLS13})
	check(t, "TLS 1.3 groups", groupNames(r.KeyExchange.TLS13Groups), []string{"X25519MLKEM768"})
	check(t, "untested versions", []bool{r.Versions[0].Tested, r.Versions[1].Tested, r.Versions[2].Tested}, []bool{false, false, false})
	full := resultNamed(r, "full/tls13")
	if full == nil || full.Subject.Params["key_exchange"] != "X25519MLKEM768" {
		t.Fatalf("full/tls13: %+v", full)
	}
	// The hybrid key shares dominate the ClientHello: 1216 of the bytes up.
	if up := full.Metric("bytes-up").Summary.Median; up < 1216 {
		t.Errorf("bytes up %v, smaller than the X25519MLKEM768 share", up)
	}
}

// TestKnownPrimes recomputes the well-known prime table from OpenSSL.
func TestKnownPrimes(t *testing.T) {
	testtier.RequireTool(t, "openssl", "openssl")
	groups := map[string]string{"ffdhe2048": "ffdhe2048 (RFC 7919)", "ffdhe4096": "ffdhe4096 (RFC 7919)",
		"ffdhe8192": "ffdhe8192 (RFC 7919)", "modp_1536": "MODP 1536 (RFC 3526 §2)", "modp_8192": "MODP 8192 (RFC 3526 §7)",
		"dh_1024_160": "1024-bit MODP with 160-bit subgroup (RFC 5114 §2.1)", "dh_2048_256": "2048-bit MODP with 256-bit subgroup (RFC 5114 §2.3)"}
	for g, want := range groups {
		out, err := exec.Command("openssl", "genpkey", "-genparam", "-algorithm", "DH", "-pkeyopt", "group:"+g).Output()
		if err != nil {
			t.Fatalf("%s: %v", g, err)
		}
		block, _ := pem.Decode(out)
		if block == nil || block.Type != "DH PARAMETERS" {
			t.Fatalf("%s: not PEM DH parameters: %s", g, out)
		}
		// DHParameter ::= SEQUENCE { prime INTEGER, base INTEGER, ... }
		var params struct {
			P, G *big.Int
			L    int `asn1:"optional"`
		}
		if _, err := asn1.Unmarshal(block.Bytes, &params); err != nil {
			t.Fatalf("%s: %v", g, err)
		}
		if got := primeName(params.P.Bytes()); got != want {
			t.Errorf("%s: %q, want %q", g, got, want)
		}
	}
	if got := primeName([]byte{0xff, 0xfb}); got != "" {
		t.Errorf("a made-up prime is named %q", got)
	}
}
