package edhoc

import (
	"bufio"
	"bytes"
	"crypto"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"os"
	"strings"
	"testing"
)

// Tier: fast (pure computation, no external tools). The RFC 9529 traces
// are transcribed in testdata/rfc9529-trace{2,3}.txt: name, then hex
// (spaces ignored).

func loadTrace(t testing.TB, name string) map[string][]byte {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string][]byte{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		b, err := hex.DecodeString(strings.Join(fields[1:], ""))
		if err != nil {
			t.Fatalf("%s: %s: %v", name, fields[0], err)
		}
		out[fields[0]] = b
	}
	return out
}

func eq(t *testing.T, what string, got, want []byte) {
	t.Helper()
	if !bytes.Equal(got, want) {
		t.Errorf("%s:\n got %x\nwant %x", what, got, want)
	}
}

// runTrace runs an Initiator and a Responder configured as the trace says
// and checks every message and derived value byte for byte.
func runTrace(t *testing.T, v map[string][]byte, ini, res Party) {
	t.Helper()
	i, err := NewInitiator(ini)
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewResponder(res)
	if err != nil {
		t.Fatal(err)
	}
	m1, err := i.Message1()
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "message_1", m1, v["message_1"])
	if err := r.ProcessMessage1(m1); err != nil {
		t.Fatal(err)
	}
	m2, err := r.Message2()
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "TH_2", r.th2, v["TH_2"])
	eq(t, "PRK_2e", r.prk2e, v["PRK_2e"])
	eq(t, "message_2", m2, v["message_2"])
	if err := i.ProcessMessage2(m2); err != nil {
		t.Fatal(err)
	}
	eq(t, "TH_3", i.th3, v["TH_3"])
	m3, err := i.Message3()
	if err != nil {
		t.Fatal(err)
	}
	key, iv := i.aead3()
	eq(t, "K_3", key, v["K_3"])
	eq(t, "IV_3", iv, v["IV_3"])
	eq(t, "message_3", m3, v["message_3"])
	if err := r.ProcessMessage3(m3); err != nil {
		t.Fatal(err)
	}
	eq(t, "TH_4", r.th4, v["TH_4"])
	m4, err := r.Message4()
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "message_4", m4, v["message_4"])
	if err := i.ProcessMessage4(m4); err != nil {
		t.Fatal(err)
	}
	for _, s := range []*Session{i, r} {
		eq(t, "PRK_out", s.PRKOut(), v["PRK_out"])
		eq(t, "PRK_exporter", s.prkExp, v["PRK_exporter"])
	}
	ci, err := i.OSCOREContext()
	if err != nil {
		t.Fatal(err)
	}
	cr, _ := r.OSCOREContext()
	eq(t, "OSCORE Master Secret", ci.MasterSecret, v["OSCORE_secret"])
	eq(t, "OSCORE Master Salt", ci.MasterSalt, v["OSCORE_salt"])
	eq(t, "client Sender ID", ci.SenderID, v["client_sender_id"])
	eq(t, "server Sender ID", cr.SenderID, v["server_sender_id"])
	eq(t, "server Recipient ID", cr.RecipientID, ci.SenderID)
	if ci.AEAD != 10 || ci.Hash != -16 {
		t.Errorf("application algorithms %d, %d: want 10 and -16", ci.AEAD, ci.Hash)
	}
	if err := i.KeyUpdate(v["keyupdate_context"]); err != nil {
		t.Fatal(err)
	}
	eq(t, "PRK_out after KeyUpdate", i.PRKOut(), v["PRK_out_updated"])
	cu, _ := i.OSCOREContext()
	eq(t, "OSCORE Master Secret after KeyUpdate", cu.MasterSecret, v["OSCORE_secret_updated"])
	eq(t, "OSCORE Master Salt after KeyUpdate", cu.MasterSalt, v["OSCORE_salt_updated"])
}

// RFC 9529 §2: method 0, suite 0, X.509 certificates by x5t.
func TestTraceSignaturesX509(t *testing.T) {
	v := loadTrace(t, "rfc9529-trace2.txt")
	credI, err := NewX509(v["CRED_I_DER"])
	if err != nil {
		t.Fatal(err)
	}
	credR, err := NewX509(v["CRED_R_DER"])
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "PK_I", credI.SignKey.(ed25519.PublicKey), v["PK_I"])
	idI, _ := credI.IDCred(ByX5T)
	idR, _ := credR.IDCred(ByX5T)
	eq(t, "ID_CRED_I", idI, v["ID_CRED_I"])
	eq(t, "ID_CRED_R", idR, v["ID_CRED_R"])
	st := &Stats{}
	runTrace(t, v,
		Party{Suite: Suite0, Method: 0, ConnID: v["C_I"], Cred: credI, Ref: ByX5T, SignKey: ed25519.NewKeyFromSeed(v["SK_I"]),
			Peer: ResolveFrom(credR), Ephemeral: v["X"], Stats: st},
		Party{Suite: Suite0, Method: 0, ConnID: v["C_R"], Cred: credR, Ref: ByX5T, SignKey: ed25519.NewKeyFromSeed(v["SK_R"]),
			Peer: ResolveFrom(credI), Ephemeral: v["Y"]})
	// The Initiator of a signature method: one ephemeral key, one ECDH,
	// one signature, one verification, one AEAD seal (message_3).
	want := map[string]int{OpKeygen: 1, OpDH: 1, OpSign: 1, OpVerify: 1, OpSeal: 1}
	for op, n := range want {
		if st.Count[op] != n {
			t.Errorf("Initiator %s count %d, want %d (all: %v)", op, st.Count[op], n, st.Count)
		}
	}
}

// RFC 9529 §3: method 3, suite 2 (after suite 6 was refused), CCSs by kid.
func TestTraceStaticDHKid(t *testing.T) {
	v := loadTrace(t, "rfc9529-trace3.txt")
	credI, err := ParseCCS(v["CRED_I"])
	if err != nil {
		t.Fatal(err)
	}
	credR, err := ParseCCS(v["CRED_R"])
	if err != nil {
		t.Fatal(err)
	}
	if credR.Subject != "example.edu" || string(credR.KID) != "2" {
		t.Errorf("CRED_R: sub %q kid %x", credR.Subject, credR.KID)
	}
	skI, _ := ecdh.P256().NewPrivateKey(v["SK_I"])
	skR, _ := ecdh.P256().NewPrivateKey(v["SK_R"])
	if !skI.PublicKey().Equal(credI.DHKey) || !skR.PublicKey().Equal(credR.DHKey) {
		t.Fatal("the trace's static keys are not the CCSs' keys")
	}

	// The first message_1 selects suite 6: the Responder answers error 2
	// with its suite (RFC 9529 §3.2).
	r0, _ := NewResponder(Party{Suite: Suite2, Method: 3, ConnID: v["C_R"], Cred: credR, DHKey: skR, Peer: ResolveFrom(credI)})
	err = r0.ProcessMessage1(v["message_1_first"])
	var e *ErrorMessage
	if !errors.As(err, &e) || e.Code != ErrWrongSuite {
		t.Fatalf("suite 6 selected: %v, want EDHOC error 2", err)
	}
	eq(t, "error", e.Marshal(), v["error"])
	if pe, err := ParseError(v["error"]); err != nil || pe.Code != 2 || len(pe.Suites) != 1 || pe.Suites[0] != 2 {
		t.Errorf("ParseError(02 02) = %+v, %v", pe, err)
	}

	st := &Stats{}
	runTrace(t, v,
		Party{Suite: Suite2, Method: 3, SuitesI: []int{6, 2}, ConnID: v["C_I"], Cred: credI, Ref: ByKID, DHKey: skI,
			Peer: ResolveFrom(credR), Ephemeral: v["X"], Stats: st},
		Party{Suite: Suite2, Method: 3, ConnID: v["C_R"], Cred: credR, Ref: ByKID, DHKey: skR,
			Peer: ResolveFrom(credI), Ephemeral: v["Y"]})
	// Method 3 Initiator: one ephemeral key and three ECDHs (G_XY, G_RX,
	// G_IY), no signature.
	if st.Count[OpKeygen] != 1 || st.Count[OpDH] != 3 || st.Count[OpSign]+st.Count[OpVerify] != 0 {
		t.Errorf("Initiator operations %v: want 1 keygen, 3 ECDH, no signature", st.Count)
	}
}

// The invalid messages of RFC 9529 §4, each refused.
func TestTraceInvalidMessages(t *testing.T) {
	v := loadTrace(t, "rfc9529-trace3.txt")
	credI, _ := ParseCCS(v["CRED_I"])
	credR, _ := ParseCCS(v["CRED_R"])
	skR, _ := ecdh.P256().NewPrivateKey(v["SK_R"])
	h := func(s string) []byte {
		b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	gx := "741a13d7ba048fbb615e94386aa3b61bea5b3d8f65f32620b749bee8d278efa9"
	for _, c := range []struct {
		section, m1 string
		suite       *Suite
	}{
		{"4.1.1 array", "840302 5820" + gx + "0e", Suite2},
		{"4.1.2 bstr C_I", "0302 5820" + gx + "410e", Suite2},
		{"4.1.3 array suite", "038102 5820" + gx + "0e", Suite2},
		{"4.1.4 tstr G_X", "0302 7820 2061697220737065656420 6F662061 20756E6C6164656E2073 77616C6C6F7720 0e", Suite2},
		{"4.2.1 P-384 suite", "03820218185820" + gx + "0e", Suite2},
		{"4.2.2 x >= p", "0302 5820 ffffffff00000001000000000000000000000000ffffffffffffffffffffffff 0e", Suite2},
		{"4.2.3 not on curve", "0302 5820 a04e73601df544a70ba7ea1e57030f7d4b4eb7f673924e58d54ca77a5e7d4d4a 0e", Suite2},
		{"4.2.6 no leading zeros", "0302 581f d9697725d23a688b12d1c7e0108a08c9f71a85a09c20814976ab21122248fc 0e", Suite2},
		{"4.3.1 long METHOD", "190003 02 5820" + gx + "0e", Suite2},
		{"4.3.2 indefinite SUITES_I", "03 9f0602ff 5820" + gx + "0e", Suite2},
	} {
		r, _ := NewResponder(Party{Suite: c.suite, Method: 3, ConnID: v["C_R"], Cred: credR, DHKey: skR, Peer: ResolveFrom(credI)})
		if err := r.ProcessMessage1(h(c.m1)); err == nil {
			t.Errorf("RFC 9529 §%s: message_1 accepted", c.section)
		}
	}

	// §4.2.4: an X25519 point of low order; the all-zero shared secret is
	// refused when the Responder computes G_XY.
	sk0, _ := ecdh.X25519().NewPrivateKey(bytes.Repeat([]byte{1}, 32))
	cr0, _ := NewCCS("r", x25519{}.COSEKey(sk0.PublicKey(), []byte{0x32}))
	r, _ := NewResponder(Party{Suite: Suite0, Method: 3, ConnID: []byte{0x27}, Cred: cr0, DHKey: sk0, Peer: ResolveFrom(credI)})
	low := h("0300 5820 edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f 0e")
	if err := r.ProcessMessage1(low); err == nil {
		if _, err := r.Message2(); err == nil {
			t.Error("RFC 9529 §4.2.4: a low-order X25519 G_X was accepted")
		}
	}

	// Message_2 and PLAINTEXT_2 errors (§4.1.5–4.1.7, §4.2.5): the
	// Initiator of trace 3 after its message_1.
	newInitiator := func() *Session {
		skI, _ := ecdh.P256().NewPrivateKey(v["SK_I"])
		i, _ := NewInitiator(Party{Suite: Suite2, Method: 3, SuitesI: []int{6, 2}, ConnID: v["C_I"], Cred: credI, Ref: ByKID,
			DHKey: skI, Peer: ResolveFrom(credR), Ephemeral: v["X"]})
		if _, err := i.Message1(); err != nil {
			t.Fatal(err)
		}
		return i
	}
	if err := newInitiator().ProcessMessage2(h("5820 419701d7f00a26c2dc587a36dd752549f33763c893422c8ea0f955a13a4ff5d5 4b9862a11de42a95d785386a")); err == nil {
		t.Error("RFC 9529 §4.1.5: message_2 of two items accepted")
	}
	for _, c := range []struct{ section, pt string }{
		{"4.1.6 map kid", "27 a1044232 10 48fa5efa2ebf920bf3"},
		{"4.1.7 bstr kid", "27 4132 48fa5efa2ebf920bf3"},
		{"4.2.5 short MAC", "27 32 44fa5efa2e"},
	} {
		pt := h(c.pt)
		ct := xor(pt, kdf(v["PRK_2e"], 0, v["TH_2"], len(pt)))
		m2 := bstr(append(append([]byte(nil), v["G_Y"]...), ct...))
		if err := newInitiator().ProcessMessage2(m2); err == nil {
			t.Errorf("RFC 9529 §%s: PLAINTEXT_2 accepted", c.section)
		}
	}
}

// Credentials by value: a CCS in kccs and a certificate in x5chain, with
// ES256 signatures (method 0, suite 2) and with static DH (method 3), each
// side resolving the other; and a tampered message_3 refused.
func TestByValueRoundTrips(t *testing.T) {
	v := loadTrace(t, "rfc9529-trace2.txt")
	certI, _ := NewX509(v["CRED_I_DER"])
	certR, _ := NewX509(v["CRED_R_DER"])
	for _, c := range []struct {
		name     string
		suite    *Suite
		method   Method
		refI     Reference
		refR     Reference
		x509     bool
		tamper   bool
		wantSize [3]int
	}{
		{name: "m3 suite 2 kccs/kid", suite: Suite2, method: 3, refI: ByValueCCS, refR: ByKID},
		{name: "m0 suite 2 kccs/kccs", suite: Suite2, method: 0, refI: ByValueCCS, refR: ByValueCCS},
		{name: "m0 suite 0 x5chain/x5t", suite: Suite0, method: 0, refI: ByX5Chain, refR: ByX5T, x509: true},
		{name: "m3 suite 0 kid/kid", suite: Suite0, method: 3, refI: ByKID, refR: ByKID},
		{name: "m3 suite 2 tampered message_3", suite: Suite2, method: 3, refI: ByValueCCS, refR: ByKID, tamper: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			ini, res := testParty(t, c.suite, c.method, "sensor", []byte{0x0e}, c.refI), testParty(t, c.suite, c.method, "proxy", []byte{0x27}, c.refR)
			if c.x509 {
				ini.Cred, ini.SignKey = certI, ed25519.NewKeyFromSeed(v["SK_I"])
				res.Cred, res.SignKey = certR, ed25519.NewKeyFromSeed(v["SK_R"])
			}
			ini.Peer, res.Peer = ResolveFrom(res.Cred), ResolveFrom(ini.Cred)
			i, _ := NewInitiator(ini)
			r, _ := NewResponder(res)
			m1, _ := i.Message1()
			if err := r.ProcessMessage1(m1); err != nil {
				t.Fatal(err)
			}
			m2, err := r.Message2()
			if err != nil {
				t.Fatal(err)
			}
			if err := i.ProcessMessage2(m2); err != nil {
				t.Fatal(err)
			}
			m3, err := i.Message3()
			if err != nil {
				t.Fatal(err)
			}
			if c.tamper {
				m3[len(m3)-1] ^= 1
				if err := r.ProcessMessage3(m3); err == nil {
					t.Fatal("a tampered message_3 was accepted")
				}
				return
			}
			if err := r.ProcessMessage3(m3); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(i.PRKOut(), r.PRKOut()) {
				t.Fatal("PRK_out differs")
			}
			if !bytes.Equal(r.Peer().CRED, ini.Cred.CRED) {
				t.Error("the Responder did not authenticate the Initiator's credential")
			}
			// message_3's size by hand: bstr header + ID_CRED_I + the
			// signature or MAC + the 8-byte tag.
			idI, _ := ini.Cred.IDCred(c.refI)
			mac := 8
			if c.method == 0 {
				mac = 64
			}
			pt := len(compactIDCred(idI)) + len(bstr(make([]byte, mac)))
			if want := len(bstr(make([]byte, pt+tagLength))); len(m3) != want {
				t.Errorf("message_3 is %d bytes, by hand %d", len(m3), want)
			}
		})
	}
}

// testParty is a party with a fresh key of the suite's kind in a CCS.
func testParty(t *testing.T, s *Suite, m Method, sub string, cid []byte, ref Reference) Party {
	t.Helper()
	p := Party{Suite: s, Method: m, ConnID: cid, Ref: ref}
	kid := []byte{cid[0] ^ 0x40}
	var key map[int]any
	static := (sub == "sensor" && m.initiatorStatic()) || (sub == "proxy" && m.responderStatic())
	if static {
		dh, err := s.Curve.GenerateKey(rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		p.DHKey, key = dh, s.Curve.COSEKey(dh.PublicKey(), kid)
	} else {
		signer, pub := newSigner(t, s)
		p.SignKey = signer
		var err error
		if key, err = s.Sign.COSEKey(pub, kid); err != nil {
			t.Fatal(err)
		}
	}
	c, err := NewCCS(sub, key)
	if err != nil {
		t.Fatal(err)
	}
	p.Cred = c
	return p
}

func newSigner(t *testing.T, s *Suite) (crypto.Signer, crypto.PublicKey) {
	t.Helper()
	if s == Suite0 {
		pub, priv, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		return priv, pub
	}
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return k, &k.PublicKey
}

// FuzzMessages feeds arbitrary bytes to the Responder's message_1 and the
// Initiator's message_2 parsers (RFC 9529's trace 3 state): they must
// refuse or accept without panicking. Seeds: the trace's messages and its
// invalid ones. Tier: fast (seeds only without -fuzz).
func FuzzMessages(f *testing.F) {
	v := loadTrace(f, "rfc9529-trace3.txt")
	for _, k := range []string{"message_1", "message_1_first", "message_2", "message_3", "error"} {
		f.Add(v[k])
	}
	f.Add([]byte{0x19, 0x00, 0x03})
	credI, _ := ParseCCS(v["CRED_I"])
	credR, _ := ParseCCS(v["CRED_R"])
	skI, _ := ecdh.P256().NewPrivateKey(v["SK_I"])
	skR, _ := ecdh.P256().NewPrivateKey(v["SK_R"])
	f.Fuzz(func(t *testing.T, m []byte) {
		r, _ := NewResponder(Party{Suite: Suite2, Method: 3, ConnID: v["C_R"], Cred: credR, Ref: ByKID, DHKey: skR, Peer: ResolveFrom(credI)})
		_ = r.ProcessMessage1(m)
		i, _ := NewInitiator(Party{Suite: Suite2, Method: 3, SuitesI: []int{6, 2}, ConnID: v["C_I"], Cred: credI, Ref: ByKID,
			DHKey: skI, Peer: ResolveFrom(credR), Ephemeral: v["X"]})
		if _, err := i.Message1(); err != nil {
			t.Fatal(err)
		}
		_ = i.ProcessMessage2(m)
		_, _ = ParseCCS(m)
	})
}
